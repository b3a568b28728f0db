"""Small Napoleonica boards written as scenario files, scripted d20s and state shortcuts."""

from __future__ import annotations

from hexwar.engine import Game, Order
from hexwar.engine.hexgrid import Hex
from hexwar.scenarios.loader import parse_scenario

LEGEND = ('{ "." = "clear", "F" = "forest", "S" = "swamp", "~" = "river", "V" = "village", "f" = "ford", "R" = "ravine", "L" = "lake", "W" = "rampart", "C" = "courtyard", '
          '"1" = { terrain = "hill", elevation = 1 } }')
NORTH, SOUTH = 1, 4          # vertex facings towards the north and the south edge


class Script:
    """Dice that return the given values in order; running out is a test failure."""

    def __init__(self, *values):
        self.values = list(values)
        self.rolls = []

    def roll(self, sides=6, why=""):
        assert self.values, f"unexpected roll: {why}"
        v = self.values.pop(0)
        self.rolls.append((why, v))
        return v


def _v(x):
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, str):
        return f'"{x}"'
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(_v(i) for i in x) + "]"
    if isinstance(x, dict):
        return "{ " + ", ".join(f"{k} = {_v(v)}" for k, v in x.items()) + " }"
    return str(x)


def scenario_text(units, rows=None, width=12, height=None, hexsides=(), labels=None, cincs=True,
                  turns=12, victory=None, muster=False):
    # 11 rows by default: a blue column of 4 with its head on row 8 keeps its tail on the map
    height = height or max(len(rows) if rows else 0, 11)
    rows = list(rows or ["." * width] * height)
    if len(rows) < height:
        rows += ["." * width] * (height - len(rows))
    parts = ["[scenario]", 'id = "t"', 'title = "test"', 'ruleset = "napoleonica"', f"turns = {turns}",
             "", "[map]", f"width = {width}", f"height = {height}", 'orientation = "pointy"',
             'parity = "odd"', f"legend = {LEGEND}", "rows = [", *[f'  "{r}",' for r in rows], "]"]
    if labels:
        parts.append("labels = " + _v(labels))
    for feat, pairs in hexsides:
        parts += ["[[map.hexsides]]", f'feature = "{feat}"', "between = " + _v([list(p) for p in pairs])]
    parts += ["", "[[sides]]", 'id = "blue"', 'name = "Blue"', 'home_edge = "south"',
              "[[sides]]", 'id = "red"', 'name = "Red"', 'home_edge = "north"']
    units = list(units)
    if cincs:
        units += [dict(id="blue-cinc", side="blue", kind="CINC", hex=f"01{height:02d}"),
                  dict(id="red-cinc", side="red", kind="CINC", hex=f"{width:02d}01")]
    for u in units:
        u = dict(u)
        parts += ["[[units]]"]
        u.setdefault("facing", NORTH if u["side"] == "blue" else SOUTH)
        u.setdefault("grade", "recruit")
        form = u.pop("formation", None)
        stats = dict(u.pop("stats", {}))
        if form:
            stats["formation"] = form
        if stats:
            u["stats"] = stats
        parts += [f"{k} = {_v(v)}" for k, v in u.items()]
    if not muster:
        parts += ["[rules]", "muster = false"]
    if victory:
        parts += ["[victory]"] + [f"{k} = {_v(v)}" for k, v in victory.items()]
    return "\n".join(parts) + "\n"


def board(units, **kw):
    return parse_scenario(scenario_text(units, **kw), "test.toml")


def game(units, phase="movement", active="blue", **kw):
    """A game already in ``phase`` of turn 1 with ``active`` to act."""
    g = Game(board(units, **kw))
    g.state.phase = phase
    g.state.active = active
    g.state.vars["commanded"] = sorted(g.state.units)
    return g


def hx(g, label):
    return g.map.parse(label)


def play(g, kind, dice=(), **args):
    return g.apply(Order.make(kind, **args), Script(*dice))


def unit(g, uid):
    return g.state.units[uid]
