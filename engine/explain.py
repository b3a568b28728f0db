"""Default answers to the player's questions that every ruleset can give from its own data:
why a unit has no order at a hex, and the player aid. Rulesets override both with more exact
words; these defaults keep a new ruleset usable before it does."""

from __future__ import annotations

from typing import Any

from .hexgrid import Hex
from .orders import Order

# ruleset.py calls these; naming its types here would be an import loop, hence ``Any``
Ruleset = Position = Any

PATH_KEYS = ("path", "route")
TARGET_KEYS = ("target", "hex", "to", "at", "dest")
#: reasons about an order's shape, not about the rules: useless to a player
_SHAPE_WORDS = ("takes the arguments", "unknown order kind", "must be a", "must be true or false")
CURRENT = "> "  # marks the current step of the sequence of play
OTHER = "  "


def orders_of(ruleset: Ruleset, game: Position, unit_id: str) -> list[Order]:
    """The legal orders that name ``unit_id``."""
    out = []
    for o in ruleset.legal_orders(game):
        units = o.get("units")
        if o.get("unit") == unit_id or (isinstance(units, tuple) and unit_id in units):
            out.append(o)
    return out


def _aimed_at(order: Order, h: Hex) -> Order | None:
    """The same order with its path end or target moved to ``h`` (None if it aims nowhere)."""
    args = dict(order.args)
    for key in PATH_KEYS:
        if key in args:
            args[key] = [list(h)]
            return Order.make(order.kind, **args)
    for key in TARGET_KEYS:
        if key in args:
            args[key] = list(h)
            return Order.make(order.kind, **args)
    return None


def useful(reason: str | None) -> bool:
    return bool(reason) and not any(w in reason for w in _SHAPE_WORDS)  # type: ignore[operator]


def probe_reason(ruleset: Ruleset, game: Position, unit_id: str, h: Hex) -> str | None:
    """Ask ``validate`` about the unit's own kinds of order aimed at ``h``; the first reason that
    speaks about the rules (not the order's shape) is the answer."""
    u = game.state.units.get(unit_id)
    if u is None:
        return "there is no such unit"
    if not u.alive:
        return f"{u.name} is not on the map"
    if game.state.result is not None:
        return "the game is over"
    orders = orders_of(ruleset, game, unit_id)
    if not orders:
        for kind, key in (("move", "path"), ("fire", "target"), ("attack", "target")):
            arg: Any = [list(h)] if key == "path" else list(h)
            reason = ruleset.validate(game, Order.make(kind, unit=unit_id, **{key: arg}))
            if useful(reason):
                return reason
        return f"{u.name} has no order left in this phase"
    for o in orders:
        end = o.get("path") or o.get("route")
        if isinstance(end, tuple) and end and tuple(end[-1]) == tuple(h):
            return None
        if any(o.get(k) == tuple(h) for k in TARGET_KEYS):
            return None
    for o in orders:
        probe = _aimed_at(o, h)
        if probe is None:
            continue
        reason = ruleset.validate(game, probe)
        if useful(reason):
            return reason
    return f"{u.name} has no order for this hex"


def default_aid(ruleset: Ruleset, game: Position) -> list[tuple[str, list[str]]]:
    """Sequence of play, terrain, hexsides and unit types from the ruleset's declared data."""
    sections: list[tuple[str, list[str]]] = []
    phases = getattr(ruleset, "phase_names", {})
    if phases:
        now = game.state.phase
        sections.append(("Sequence of play", [f"{CURRENT if p == now else OTHER}{name}"
                                              for p, name in phases.items()]))
    if ruleset.terrain_types:
        sections.append(("Terrain effects", [f"{code}: {text}" for code, text in ruleset.terrain_types.items()]))
    if ruleset.hexside_types:
        sections.append(("Hexside features", [", ".join(ruleset.hexside_types)]))
    if ruleset.unit_types:
        rows = []
        for kind, stats in ruleset.unit_types.items():
            shown = ", ".join(f"{ruleset.stat_words[k]} {v}" for k, v in stats.items()
                              if k in ruleset.stat_words and not isinstance(v, bool))
            rows.append(f"{ruleset.type_name(kind)}" + (f": {shown}" if shown else ""))
        sections.append(("Unit types", rows))
    return sections


#: how many (unit, enemy hex) pairs ``pass_reason`` asks about at most: a hint, not a search
_PASS_PROBES = 40


def pass_reason(ruleset: Ruleset, game: Position, side: str) -> str | None:
    """Why ``side`` has nothing to decide now, in the rules' words: the first of its units next
    to (then near) an enemy that the rules stop, with the rule's reason (``no firing at enemies
    in your own ZOC (R6.1)``); None when no unit is near an enemy or no rule says why."""
    from .hexgrid import hex_distance
    st = game.state
    own = [u for u in st.units.values() if u.alive and u.side == side and u.hex is not None]
    enemies = [u for u in st.units.values() if u.alive and u.side != side and u.hex is not None]
    pairs = sorted(((hex_distance(u.hex, e.hex), u.id, e.id) for u in own for e in enemies),
                   key=lambda p: p[0])
    for d, uid, eid in pairs[:_PASS_PROBES]:
        if d > 3:
            break
        try:
            reason = ruleset.why_not(game, uid, Hex(*st.units[eid].hex))
        except Exception:  # advisory: a ruleset's answer must not stop the game
            continue
        if useful(reason):
            return f"{uid} cannot act against {eid}: {reason}"
    return None
