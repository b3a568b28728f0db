"""Shared helpers for the campaign rule tests: tiny scenarios, scripted dice, stepping a turn."""

from __future__ import annotations

import hashlib

from hexwar.engine import Game, Order
from hexwar.engine import secret
from hexwar.engine.rulesets.fow import geo
from hexwar.scenarios.loader import parse_scenario

OPEN = [". . . . . ."] * 6
LEGEND = ('{ "." = "open", "s" = "scrub", "h" = "hills", "H" = "heights", "M" = "mountains", '
          '"T" = "town" }')


class Script:
    """Dice that return the listed values in order (and fail loudly when they run out)."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.asked: list[tuple[int, str]] = []

    def roll(self, sides: int = 6, why: str = "") -> int:
        assert self.values, f"the script ran out of dice at a {why} roll"
        v = self.values.pop(0)
        assert 1 <= v <= sides, f"scripted {v} for a d{sides} ({why})"
        self.asked.append((sides, why))
        return v

    @property
    def done(self) -> bool:
        return not self.values


def lab(point: int) -> str:
    c, r = geo.col_row(point)
    return f"{c:02d}{r:02d}"


def toml(companies, *, rows=OPEN, rules="", victory=None, turns=6, si="north",
         nations='{ north = "britain", south = "germany-rommel" }', air=(), roads="") -> str:
    """``companies``: (id, side, point, [kinds]); sides are "north" (edge row 1) and "south"."""
    out = ["[scenario]", 'id = "fow-test"', 'title = "test"', 'ruleset = "fow"', f"turns = {turns}",
           "[map]", "width = 6", "height = 6", 'orientation = "flat"', 'parity = "odd"',
           f"legend = {LEGEND}", "rows = [", *[f'  "{r}",' for r in rows], "]"]
    if roads:
        out.append(f"roads = {roads}")
    out += ['[[sides]]', 'id = "north"', 'home_edge = "north"',
            '[[sides]]', 'id = "south"', 'home_edge = "south"',
            "[rules]", f'si_side = "{si}"', f"nations = {nations}", rules]
    out += ["[victory]"] + (victory or ['type = "meeting"'])
    for cid, side, point, _ in companies:
        out += ["[[divisions]]", f'id = "{cid}"', f'side = "{side}"']
    for cid, side, point, kinds in companies:
        for i, k in enumerate(kinds, 1):
            out += ["[[units]]", f'id = "{cid}-{i}"', f'side = "{side}"', f'kind = "{k}"',
                    f'hex = "{lab(point)}"', f'division = "{cid}"']
    for i, (side, kind) in enumerate(air, 1):
        out += ["[[units]]", f'id = "air{i}"', f'side = "{side}"', f'kind = "{kind}"', 'box = "air"']
    return "\n".join(out) + "\n"


def game(companies, **kw) -> Game:
    return Game(parse_scenario(toml(companies, **kw)))


def O(kind: str, **kw) -> Order:  # noqa: E743
    return Order.make(kind, **kw)


def start_rolls(g: Game) -> int:
    """How many dice the ``start`` order rolls here: ratings, two incomes, the weather."""
    s = g.state
    n = sum(1 for k in s.vars["commanders"].values()) - len(s.side_order)
    return n + 2 + 1


def start(g: Game, ratings=(), income=(3, 3), weather=1) -> list:
    """Turn 1, step 1-2: commander ratings (each side's first is +2), income dice, weather."""
    n = start_rolls(g) - 3
    ratings = list(ratings) + [1] * (n - len(ratings))
    return g.apply(O("start"), Script(*ratings, *income, weather))


def salt(side: str) -> bytes:
    return hashlib.blake2b(side.encode(), digest_size=16).digest()


def commit(g: Game, side: str, plan) -> Order:
    rnd = g.state.vars["secret"]
    bound = secret.binding(g.scenario.source_hash, rnd["round"], side)
    return O(secret.COMMIT, digest=secret.commitment(bound, plan, salt(side)))


def reveal(side: str, plan) -> Order:
    return O(secret.REVEAL, plan=plan, salt=salt(side).hex())


def to_plans(g: Game) -> None:
    """From step 3 to the planning step: both sides end their commander movement."""
    while g.state.phase == "command":
        g.apply(O("end-phase"))


def plans(g: Game, north_plan, south_plan, dice=None) -> list:
    """Commit both plans (SI side first), then reveal both; returns the events of the reveals."""
    to_plans(g)
    by = {"north": north_plan, "south": south_plan}
    for _ in range(2):
        side = g.to_act()
        g.apply(commit(g, side, by[side]))
    events = []
    for _ in range(2):
        side = g.to_act()
        events += g.apply(reveal(side, by[side]), dice if dice is not None else Script())
    return events


def kinds(events, t):
    return [e for e in events if e["t"] == t]


def hq(g: Game, side: str, n: int = 1) -> str:
    return f"{side}-hq{n}"
