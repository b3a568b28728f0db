"""Shared helpers for the Frontier rule tests: tiny scenarios, forced dice, phase stepping."""

from __future__ import annotations

from functools import lru_cache

from hexwar.engine import Dice, Game, Order
from hexwar.engine.hexgrid import Hex, hex_neighbor
from hexwar.engine.hexmap import HexMap
from hexwar.scenarios.loader import parse_scenario

W, H = 10, 7
BLANK = HexMap(W, H)
C = Hex(4, 3)  # a hex in the middle of the test map
LEGEND = ('{ "." = "clear", "F" = "forest", "~" = "river", "V" = "village", '
          '"1" = { terrain = "hill", elevation = 1 }, "2" = { terrain = "hill", elevation = 2 } }')


def n(h, d, k=1):
    """The hex k steps from h in direction d."""
    for _ in range(k):
        h = hex_neighbor(h, d)
    return h


def lab(h) -> str:
    return BLANK.label(h)


def toml(units, terrain=None, roads=(), turns=12, victory=None, labels=None, hexsides=None,
         width=W, height=H) -> str:
    blank = HexMap(width, height)
    terrain = {Hex(*k): v for k, v in (terrain or {}).items()}
    rows = []
    for r in range(height):
        row = []
        for c in range(width):
            from hexwar.engine.hexgrid import offset_to_axial
            row.append(terrain.get(offset_to_axial(c, r, "pointy", "odd"), "."))
        rows.append('  "' + " ".join(row) + '",')
    out = [
        "[scenario]", 'id = "frontier-test"', 'title = "test"', 'ruleset = "frontier"', f"turns = {turns}",
        "[map]", f"width = {width}", f"height = {height}", f"legend = {LEGEND}", "rows = [", *rows, "]",
    ]
    if roads:
        out.append("roads = [" + ", ".join("[" + ", ".join(f'"{blank.label(h)}"' for h in road) + "]"
                                           for road in roads) + "]")
    if labels:
        out.append("labels = { " + ", ".join(f'"{k}" = "{blank.label(v)}"' for k, v in labels.items()) + " }")
    for feature, pairs in (hexsides or {}).items():
        out += ["[[map.hexsides]]", f'feature = "{feature}"',
                "between = [" + ", ".join(f'["{blank.label(a)}", "{blank.label(b)}"]' for a, b in pairs) + "]"]
    out += ['[[sides]]', 'id = "blue"', 'name = "Blue"', 'home_edge = "west"',
            '[[sides]]', 'id = "red"', 'name = "Red"', 'home_edge = "east"']
    for uid, side, kind, h, facing in units:
        out += ["[[units]]", f'id = "{uid}"', f'side = "{side}"', f'kind = "{kind}"',
                f'hex = "{blank.label(h)}"', f"facing = {facing}"]
    if victory:
        out += ["[victory]"] + [f'{k} = "{v}"' for k, v in victory.items()]
    return "\n".join(out) + "\n"


def game(units, **kw) -> Game:
    return Game(parse_scenario(toml(units, **kw)))


@lru_cache(maxsize=None)
def seed(*rolls: int) -> bytes:
    """A dice seed whose first d6 rolls are ``rolls``."""
    for i in range(1_000_000):
        s = f"frontier-{i}".encode()
        d = Dice(s)
        if all(d.roll(6) == r for r in rolls):
            return s
    raise AssertionError(f"no seed gives {rolls}")


def dice(*rolls: int) -> Dice:
    return Dice(seed(*rolls))


def O(kind: str, **kw) -> Order:  # noqa: E743
    return Order.make(kind, **kw)


END = Order.make("end-phase")


def finish_artillery(g: Game, first: str = "blue", extra: tuple[int, ...] = ()) -> list:
    """End the artillery phase; ``extra`` are the fire rolls, then initiative goes to ``first``."""
    events = []
    while g.state.phase == "artillery":
        if g.needs_dice(END):
            init = (6, 1) if first == g.state.side_order[0] else (1, 6)
            events += g.apply(END, dice(*extra, *init))
        else:
            events += g.apply(END)
    return events


def to_move(g: Game, side: str = "blue") -> Game:
    """From the start of a turn to ``side``'s move phase with ``side`` moving first."""
    finish_artillery(g, side)
    assert g.state.phase == "move" and g.state.active == side
    return g


def to_combat(g: Game, side: str = "blue") -> Game:
    if g.state.phase != "move":
        to_move(g, side)
    g.apply(END)
    assert g.state.phase == "combat" and g.state.active == side
    return g


def unit(g: Game, uid: str):
    return g.state.units[uid]


def kinds(events, t):
    return [e for e in events if e["t"] == t]
