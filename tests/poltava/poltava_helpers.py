"""Tiny Poltava test boards built as scenario files, and scripted dice."""

from __future__ import annotations

from hexwar.engine import Game, Order
from hexwar.scenarios.loader import parse_scenario

LEGEND = ('{ "." = "open", "W" = "woods", "V" = "village", "h" = "hill", "R" = "redoubt", '
          '"C" = "camp", "B" = "battery", "~" = "river" }')


class Script:
    """Dice that return the given values in order (the engine only needs ``roll``)."""

    def __init__(self, *values):
        self.values = list(values)
        self.rolls = []

    def roll(self, sides=6, why=""):
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
    return str(x)


def board(units, rows=None, width=10, height=10, hexsides=(), roads=(), rules=None, divisions=None,
          first="sweden", homes=("south", "north"), victory=None):
    rows = rows or ["." * width] * height
    rules = {"scenario": 2, "first_turn": 5, **(rules or {})}
    divisions = divisions or [("sw", "sweden", 99), ("sw2", "sweden", 99), ("sw3", "sweden", 99),
                              ("ru", "russia", 99), ("ru2", "russia", 99), ("ru3", "russia", 99)]
    parts = [
        "[scenario]", 'id = "t"', 'title = "test"', 'ruleset = "poltava"', "turns = 12",
        f'first_player = "{first}"', "", "[map]", f"width = {width}", f"height = {height}",
        'orientation = "flat"', 'parity = "odd"', 'default_terrain = "open"', f"legend = {LEGEND}",
        "rows = [", *[f'  "{r}",' for r in rows], "]",
    ]
    if roads:
        parts.append("roads = " + _v([list(r) for r in roads]))
    for feat, pairs in hexsides:
        parts += ["[[map.hexsides]]", f'feature = "{feat}"', "between = " + _v([list(p) for p in pairs])]
    parts += ["", "[[sides]]", 'id = "sweden"', 'name = "Sweden"', f'home_edge = "{homes[0]}"',
              "[[sides]]", 'id = "russia"', 'name = "Russia"', f'home_edge = "{homes[1]}"']
    for d, side, thr in divisions:
        parts += ["[[divisions]]", f'id = "{d}"', f'side = "{side}"', f'name = "{d}"', f"rout_threshold = {thr}"]
    v = victory or {"russia_divisions": [d for d, s, _ in divisions if s == "russia"],
                    "sweden_divisions": [d for d, s, _ in divisions if s == "sweden"]}
    parts += ["[victory]"] + [f"{k} = {_v(x)}" for k, x in v.items()]
    parts += ["[rules]"] + [f"{k} = {_v(x)}" for k, x in rules.items()]
    for u in units:
        u = dict(u)
        parts.append("[[units]]")
        side = u.pop("side")
        parts += [f'id = "{u.pop("id")}"', f'side = "{side}"', f'kind = "{u.pop("kind")}"']
        if "division" not in u and u.get("arm", True):
            kind_div = {"sweden": "sw", "russia": "ru"}[side]
            u["division"] = kind_div
        stats = u.pop("stats", None)
        for k, x in u.items():
            if x is not None:
                parts.append(f"{k} = {_v(x)}")
        if stats:
            parts.append("stats = { " + ", ".join(f"{k} = {_v(x)}" for k, x in stats.items()) + " }")
    return parse_scenario("\n".join(parts) + "\n", "<test>")


def U(uid, side, kind, hex_, **kw):
    d = {"id": uid, "side": side, "kind": kind, "hex": hex_}
    if kind in ("art", "leader", "redoubt", "redoubt-u", "cossack"):
        d["division"] = None
    d.update(kw)
    return d


def game(units, **kw) -> Game:
    return Game(board(units, **kw))


def O(kind, **kw) -> Order:
    return Order.make(kind, **kw)


def H(g, label):
    """A hex from its CCRR label, as the tuple orders carry."""
    h = g.map.parse(label)
    return (h[0], h[1])


def path(g, *labels):
    return [H(g, x) for x in labels]


def to_phase(g, phase, side=None):
    """End phases until ``phase`` of ``side`` (default: the current side) is reached."""
    side = side or g.state.active
    for _ in range(20):
        if g.state.phase == phase and g.state.active == side and not g.state.pending:
            return g
        g.apply(O("end-phase"))
    raise AssertionError("phase not reached")


def events(evs, kind):
    return [e for e in evs if e["t"] == kind]
