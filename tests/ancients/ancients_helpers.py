"""Helpers for the Ancient Battles tests: small scenarios from text, forced dice, labels."""

from __future__ import annotations

import functools

from hexwar.engine import Dice, Game, Order
from hexwar.engine.hexgrid import hex_neighbor
from hexwar.scenarios.loader import parse_scenario

LEGEND = ('{ "." = "clear", "h" = { terrain = "hill", elevation = 1 }, "H" = { terrain = "hill", '
          'elevation = 2 }, "F" = "forest", "~" = "river", "=" = "deep-river", "v" = "village", '
          '"#" = "fortification" }')


def scenario(units, rows=None, rules=None, turns=15, width=10, height=8):
    """``units``: (id, side "a"/"b", kind, label, facing[, grade]) tuples."""
    rows = rows or [" ".join("." * width)] * height
    out = [
        "[scenario]", 'id = "t"', 'title = "test"', 'ruleset = "ancients"', f"turns = {turns}",
        "[map]", f"width = {width}", f"height = {height}", 'orientation = "pointy"',
        'parity = "odd"', f"legend = {LEGEND}", "rows = [",
        *[f'  "{r}",' for r in rows], "]",
    ]
    if rules:
        out.append("[rules]")
        for k, v in rules.items():
            out.append(f"{k} = " + ("true" if v is True else "false" if v is False
                                    else f'"{v}"' if isinstance(v, str) else str(v)))
    out += ["[[sides]]", 'id = "a"', 'home_edge = "south"', "[[sides]]", 'id = "b"',
            'home_edge = "north"']
    for u in units:
        uid, side, kind, label, facing = u[:5]
        out += ["[[units]]", f'id = "{uid}"', f'side = "{side}"', f'kind = "{kind}"',
                f'hex = "{label}"', f'facing = "{facing}"']
        if len(u) > 5:
            out.append(f'grade = "{u[5]}"')
    return parse_scenario("\n".join(out) + "\n")


@functools.lru_cache(maxsize=None)
def seed_for(rolls: tuple[int, ...], sides: int = 6) -> bytes:
    """A dice seed whose first rolls are exactly ``rolls``."""
    for i in range(2_000_000):
        seed = b"t%d" % i
        d = Dice(seed)
        if all(d.roll(sides) == r for r in rolls):
            return seed
    raise AssertionError(f"no seed for {rolls}")


def dice(*rolls: int) -> Dice:
    return Dice(seed_for(tuple(rolls)))


def H(game: Game, label: str):
    return game.map.parse(label)


def L(game: Game, h) -> str:
    return game.map.label(h)


def nb(game: Game, label: str, direction: int) -> str:
    return game.map.label(hex_neighbor(game.map.parse(label), direction))


def begin(game: Game, first: str = "a") -> list:
    """Roll initiative so that ``first`` activates first (a 6 against a 1)."""
    assert game.state.phase == "initiative", game.state.phase
    rolls = (6, 1) if first == game.state.side_order[0] else (1, 6)
    ev = game.apply(Order.make("end-phase"), dice(*rolls))
    assert game.state.active == first
    return ev


def play(game: Game, kind: str, rolls: tuple[int, ...] = (), **args) -> list:
    """Apply an order, converting hex labels (str) in target/path to axial pairs."""
    if isinstance(args.get("target"), str):
        args["target"] = list(H(game, args["target"]))
    if "path" in args:
        args["path"] = [list(H(game, x)) if isinstance(x, str) else x for x in args["path"]]
    order = Order.make(kind, **args)
    reason = game.validate(order)
    assert reason is None, reason
    return game.apply(order, dice(*rolls) if rolls else Dice(b"unused"))


def move_to(game: Game, uid: str, label: str, facing: int | None = None) -> list:
    """Move along the route ``reachable`` gives; facing defaults to the first allowed one."""
    dest = H(game, label)
    routes = game.reachable(uid)
    assert dest in routes, f"{label} not reachable for {uid}: {sorted(L(game, h) for h in routes)}"
    route = routes[dest]
    if facing is None:
        facing = next(o["facing"] for o in game.legal_orders()
                      if o.kind == "move" and o["unit"] == uid and tuple(o["path"][-1]) == dest)
    return play(game, "move", unit=uid, path=[list(h) for h in route.path], facing=facing)


def why(game: Game, kind: str, **args) -> str | None:
    if isinstance(args.get("target"), str):
        args["target"] = list(H(game, args["target"]))
    return game.validate(Order.make(kind, **args))


def events(evs: list, kind: str) -> list:
    return [e for e in evs if e["t"] == kind]


def unit(game: Game, uid: str):
    return game.state.units[uid]


def walk(game: Game, label: str, *dirs: int) -> str:
    """The label reached from ``label`` by stepping in each direction in turn."""
    h = H(game, label)
    for d in dirs:
        h = hex_neighbor(h, d)
    return L(game, h)


E, NE, NW, W, SW, SE = range(6)
