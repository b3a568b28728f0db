"""The pick-up battle (spec 22.8 [P]): the army rules ``hexwar validate`` checks for a scenario
with ``[rules] army = "pickup"``, and a generator of such scenarios from a seed
(``hexwar new napoleonica --seed S``).

The generator draws from a hash stream of its seed (blake2b, like the dice), never from a
clock or the environment, so one seed always writes the same file. Everything it chooses (map
features, which types fill each arm, grades, engineers) is DESIGNED within 22.8's limits, and
every army it writes passes the checks below and 16's muster table.
"""

from __future__ import annotations

from hashlib import blake2b
from itertools import product

from . import data as D

ARMS = {"inf": ("INF_LINE", "INF_LIGHT", "INF_HEAVY", "INF_GUARD"),
        "cav": ("CAV_LIGHT", "CAV_CHASSEUR", "CAV_DRAGOON", "CAV_HEAVY", "CAV_GUARD"),
        "art": ("ART_LIGHT", "ART_MEDIUM", "ART_HOWITZER", "ART_HEAVY", "ART_GUARD")}


def generals_allowed(combat_units: int) -> int:
    """ceil(combat units / 4) generals besides the commander-in-chief (22.6)."""
    return -(-combat_units // D.GENERALS_PER_UNITS)


def army_problems(side: str, units: list[tuple[int, str, dict, str]]) -> list[str]:
    """22.8 for one side's units (index, kind, stats, grade): 16 combat units in the arm shares,
    one train, 0-2 engineers, 4 generals, guard units veteran (22.1)."""
    P = D.PICKUP
    out: list[str] = []
    combat = [(i, k, s) for i, k, s, _g in units if s.get("arm") in ("inf", "cav", "art")]
    n = len(combat)
    if n != P["combat_units"]:
        out.append(f"units: army of {side} has {n} combat units; a pick-up battle has "
                   f"{P['combat_units']} (22.8)")
    for arm, (lo, hi) in P["arm_pct"].items():
        c = sum(1 for _i, _k, s in combat if s.get("arm") == arm)
        if n and not lo * n <= 100 * c <= hi * n:
            out.append(f"units: army of {side} has {c} {arm} units of {n} ({100 * c // n}%), "
                       f"outside the pick-up battle's {lo}-{hi}% (22.8)")
    trains = sum(1 for _i, _k, s, _g in units if s.get("arm") == "train")
    if trains != P["train"]:
        out.append(f"units: army of {side} has {trains} trains; a pick-up battle has {P['train']} (22.8)")
    eng = sum(1 for _i, _k, s, _g in units if s.get("arm") == "eng")
    lo, hi = P["engineers"]
    if not lo <= eng <= hi:
        out.append(f"units: army of {side} has {eng} engineer units; a pick-up battle has {lo}-{hi} (22.8)")
    gens = sum(1 for _i, k, _s, _g in units if k == "GEN")
    want = generals_allowed(P["combat_units"])
    if gens != want:
        out.append(f"units: army of {side} has {gens} generals; a pick-up battle has {want} besides "
                   "its commander-in-chief (22.8, 22.6)")
    for i, k, s, g in units:
        if (k == "INF_GUARD" or s.get("guard") is True) and g != "veteran":
            out.append(f"units[{i}].grade: guard units are always veterans (22.1, 22.8)")
    return out


def arm_counts(units: list[tuple[int, str, dict, str]]) -> tuple[int, int, int]:
    return tuple(sum(1 for _i, _k, s, _g in units if s.get("arm") == a) for a in ("inf", "cav", "art"))


# --- the generator --------------------------------------------------------------------------

class Stream:
    """Numbers drawn from a seed's hash stream (no clock, no environment)."""

    def __init__(self, seed: int) -> None:
        self.key = str(seed).encode()
        self.n = 0

    def below(self, k: int) -> int:
        while True:
            v = int.from_bytes(blake2b(self.n.to_bytes(8, "big"), key=self.key, digest_size=8,
                                       person=b"napo-pickup").digest(), "big")
            self.n += 1
            limit = (1 << 64) - (1 << 64) % k
            if v < limit:
                return v % k

    def pick(self, items):
        return items[self.below(len(items))]


def _muster_ok(row_counts: dict[str, int], n: int) -> bool:
    return all(D.MUSTER_PCT[row][0] * n <= 100 * c <= D.MUSTER_PCT[row][1] * n
               for row, c in row_counts.items())


def type_mixes(arm: str, n: int) -> list[tuple[int, ...]]:
    """Every count of each muster row (in ``ARMS`` order) that fills an arm of ``n`` units
    within 16's percentages, compared exactly."""
    rows = ARMS[arm]
    out = []
    for counts in product(range(n + 1), repeat=len(rows)):
        if sum(counts) == n and _muster_ok(dict(zip(rows, counts)), n):
            out.append(counts)
    return out


def arm_splits() -> list[tuple[int, int, int]]:
    P = D.PICKUP
    n = P["combat_units"]
    out = []
    for i in range(n + 1):
        for c in range(n + 1 - i):
            a = n - i - c
            shares = {"inf": i, "cav": c, "art": a}
            if all(lo * n <= 100 * shares[k] <= hi * n for k, (lo, hi) in P["arm_pct"].items()):
                out.append((i, c, a))
    return out


def _label(col: int, row: int) -> str:
    return f"{col + 1:02d}{row + 1:02d}"


def _army(rng: Stream, side: str, split: tuple[int, int, int], edge: str, w: int, h: int) -> list[dict]:
    """One side's units placed in the file within 6 rows of its edge (22.10): infantry and
    cavalry in columns of four, heads on the fifth row, two hexes apart; batteries limbered on
    the sixth; train, engineers and generals on the edge row."""
    facing = 4 if edge == "north" else 1

    def row(k: int) -> int:          # k rows from the own edge
        return k if edge == "north" else h - 1 - k

    kinds: list[tuple[str, bool]] = []
    for arm, n in zip(("inf", "cav", "art"), split):
        mix = rng.pick(type_mixes(arm, n))
        for kind, c in zip(ARMS[arm], mix):
            if kind == "CAV_GUARD":
                kinds += [(rng.pick(("CAV_LIGHT", "CAV_DRAGOON", "CAV_HEAVY")), True)] * c
            elif kind == "ART_GUARD":
                kinds += [("ART_MEDIUM", True)] * c
            else:
                kinds += [(kind, False)] * c
    units: list[dict] = []
    columns = [k for k in kinds if not k[0].startswith("ART")]
    batteries = [k for k in kinds if k[0].startswith("ART")]
    start = (w - 2 * len(columns)) // 2 + 1
    for j, (kind, guard) in enumerate(columns):
        units.append(_unit(rng, f"{side}-{j + 1}", side, kind, guard, _label(start + 2 * j, row(4)),
                           facing, "column"))
    step = w // (len(batteries) + 1)
    for j, (kind, guard) in enumerate(batteries):
        units.append(_unit(rng, f"{side}-art-{j + 1}", side, kind, guard, _label(step * (j + 1), row(5)),
                           facing, "limbered"))
    units.append(dict(id=f"{side}-train", side=side, kind="TRAIN", hex=_label(w - 3, row(0)),
                      facing=facing, strength=1, grade="recruit"))
    for j in range(rng.below(D.PICKUP["engineers"][1] + 1)):
        units.append(dict(id=f"{side}-eng-{j + 1}", side=side, kind="ENG", hex=_label(w - 5 - 2 * j, row(0)),
                          facing=facing, strength=1, grade="recruit"))
    units.append(dict(id=f"{side}-cinc", side=side, kind="CINC", hex=_label(w // 2, row(0)), facing=facing,
                      grade="recruit"))
    for j, col in enumerate((4, w // 2 - 8, w // 2 + 6, w - 10)[:generals_allowed(D.PICKUP["combat_units"])]):
        units.append(dict(id=f"{side}-gen-{j + 1}", side=side, kind="GEN", hex=_label(col, row(0)), facing=facing,
                          grade="recruit"))
    return units


def _unit(rng: Stream, uid: str, side: str, kind: str, guard: bool, hex_: str, facing: int, form: str) -> dict:
    grade = "veteran" if guard or kind == "INF_GUARD" else rng.pick(("recruit", "recruit", "veteran"))
    stats: dict = {"formation": form}
    if guard and kind != "INF_GUARD":
        stats["guard"] = True
    return dict(id=uid, side=side, kind=kind, hex=hex_, facing=facing, strength=4, grade=grade, stats=stats)


def _terrain(rng: Stream, w: int, h: int) -> tuple[list[list[str]], str]:
    """Open ground with woods and a hill in the middle rows, and a village of four hexes near the
    centre (the objective), all at least 7 rows from either edge."""
    grid = [["." for _ in range(w)] for _ in range(h)]
    lo, hi = 8, h - 9
    for _ in range(4 + rng.below(3)):
        c, r = 2 + rng.below(w - 4), lo + rng.below(hi - lo + 1)
        for dc, dr in ((0, 0), (1, 0), (0, 1), (1, 1))[:2 + rng.below(3)]:
            grid[r + dr if r + dr <= hi else r][c + dc] = "F"
    c, r = 4 + rng.below(w - 8), lo + rng.below(hi - lo)
    for dc in range(3):
        for dr in range(2):
            if grid[r + dr][c + dc] == ".":
                grid[r + dr][c + dc] = "1"
    vc, vr = w // 2 - 2 + rng.below(4), h // 2 - 1
    for dc, dr in ((0, 0), (1, 0), (0, 1), (1, 1)):
        grid[vr + dr][vc + dc] = "V"
    return grid, _label(vc, vr)


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + " }"
    return str(v)


def generate(seed: int) -> str:
    """A pick-up battle scenario (22.8, 22.10) as TOML text, the same for the same seed."""
    rng = Stream(seed)
    w, h = D.PICKUP["board"]
    grid, village = _terrain(rng, w, h)
    split = rng.pick(arm_splits())        # both sides the same arm counts (22.8)
    units = _army(rng, "north", split, "north", w, h) + _army(rng, "south", split, "south", w, h)
    lines = ["[scenario]", f'id = "napoleonica-pickup-{seed}"',
             f'title = "Napoleonica: pick-up battle, seed {seed}"', 'ruleset = "napoleonica"',
             f"turns = {D.PICKUP['turns']}",
             'notes = """Generated by hexwar new napoleonica --seed ' + str(seed) + ''' (spec 22.8): 16 combat
units a side (infantry, cavalry and artillery as %d / %d / %d), one train, 0-2 engineer units, a
commander-in-chief and 4 generals; the map, the types within each arm (16) and the grades are
drawn from the seed (designed). Victory per 22.10; the village is worth 3 points."""''' % split,
             "", "[map]", f"width = {w}", f"height = {h}", 'orientation = "pointy"', 'parity = "odd"',
             'legend = { "." = "clear", "F" = "forest", "1" = { terrain = "hill", elevation = 1 }, '
             '"V" = "village" }', "rows = ["]
    lines += [f'  "{" ".join(row)}",' for row in grid]
    lines += ["]", f'labels = {{ "Village" = "{village}" }}', "",
              "[[sides]]", 'id = "north"', 'name = "North"', 'home_edge = "north"', "",
              "[[sides]]", 'id = "south"', 'name = "South"', 'home_edge = "south"']
    for u in units:
        lines += ["", "[[units]]"] + [f"{k} = {_toml(v)}" for k, v in u.items()]
    lines += ["", "[victory]", 'objectives = ["Village"]', "", "[rules]", 'army = "pickup"', ""]
    return "\n".join(lines)
