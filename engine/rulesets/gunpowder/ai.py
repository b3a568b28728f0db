"""The computer player for the Age of Gunpowder: Ancients' candidates (ancients/ai.py), less the
steps Gunpowder forbids, plus formation changes scored by hand (designed weights).

The Ancients scores run from 1 (end the activation) through about 20 (moves), 35-100 (melee) and
40-100 (shooting); a formation change is worth taking when the unit's next step needs it: line
to shoot, column to march, square against nearby cavalry, firing to fire next Artillery Phase.
"""

from __future__ import annotations

from typing import Any, Iterator

from hexwar.engine.hexgrid import hex_distance
from hexwar.engine.orders import Order
from hexwar.engine.state import Unit

from ..ancients import ai as ancients_ai
from ..ancients import board, movement, shooting
from ..ancients.geometry import in_field_of_fire
from .units import SQUARE_FROM, year

#: designed scores of a formation change (see the module docstring)
SQUARE_SCORE = 45       # enemy cavalry within 2 cells: form square (and shoot from it)
UNSQUARE_SCORE = 45     # no enemy cavalry within 3: back to line
LINE_SCORE = 38         # enemy within range + 1: deploy into line to shoot
COLUMN_SCORE = 30       # enemy farther than range + 2: column to march
OPEN_SCORE = 40         # skirmishers fight in open order
UNLIMBER_SCORE = 36     # an enemy within range: unlimber to fire in the next Artillery Phase
LIMBER_SCORE = 25       # no enemy within range + 1: limber up to follow
MOUNT_SCORE = 30        # commanders ride
AIM_SCORE = 22          # a firing battery with nothing in its field of fire turns to the enemy


def _allowed(rs: Any, game: Any, order: Order) -> bool:
    if order.kind == "dash":
        return False
    if order.kind in ("shoot", "melee", "move", "pivot"):
        unit = game.state.units.get(order.get("unit"))
        return unit is not None and rs.step_blocker(game, order, unit) is None
    return True


def candidates(rs: Any, game: Any) -> Iterator[tuple[int, Order]]:
    for score, order in ancients_ai.candidates(rs, game):
        if _allowed(rs, game, order):
            yield score, order
    yield from _formation_candidates(rs, game)


def strong_candidates(rs: Any, game: Any) -> Iterator[tuple[int, Order]]:
    """Ancients' strong candidates (the commander kept safe, ancients/ai.py), less the steps
    Gunpowder forbids, plus the formation changes."""
    for score, order in ancients_ai.strong_candidates(rs, game):
        if _allowed(rs, game, order):
            yield score, order
    yield from _formation_candidates(rs, game)


def _formation_candidates(rs: Any, game: Any) -> Iterator[tuple[int, Order]]:
    st = game.state
    if st.result is not None or st.pending or st.phase != "activation":
        return
    u = ancients_ai._next_unit(rs, game)
    if u is None:
        return
    for f, score in _formation_scores(game, u):
        if rs.form_blocker(game, u, f) is None:
            yield score, Order.make("form", unit=u.id, formation=f)
    aim = _aim(rs, game, u)
    if aim is not None:
        yield AIM_SCORE, aim


def _formation_scores(game: Any, u: Unit) -> list[tuple[str, int]]:
    st = game.state
    enemies = [e for e in board.alive_units(st) if e.side != u.side]
    if not enemies or u.hex is None:
        return []
    d = min(hex_distance(u.hex, e.hex) for e in enemies)  # type: ignore[arg-type]
    cav = min((hex_distance(u.hex, e.hex) for e in enemies  # type: ignore[arg-type]
               if e.stat("family") == "cavalry"), default=99)
    fam, form, reach = u.stat("family"), u.stat("formation"), int(u.stat("reach", 0))
    out: list[tuple[str, int]] = []
    if fam == "line-infantry":
        squares = year(game.scenario) >= SQUARE_FROM
        if squares and cav <= 2 and form != "square":
            out.append(("square", SQUARE_SCORE))
        elif form == "square" and cav > 3:
            out.append(("line", UNSQUARE_SCORE))
        elif form == "column" and d <= reach + 1:
            out.append(("line", LINE_SCORE))
        elif form == "line" and d >= reach + 3:
            out.append(("column", COLUMN_SCORE))
    elif fam == "skirmishers" and form != "open":
        out.append(("open", OPEN_SCORE))
    elif fam == "cavalry" and form != "column":
        out.append(("column", COLUMN_SCORE))
    elif fam == "artillery":
        if form != "firing" and d <= reach:
            out.append(("firing", UNLIMBER_SCORE))
        elif form == "firing" and d > reach + 1:
            out.append(("limbered", LIMBER_SCORE))
    elif fam == "commander" and form != "mounted":
        out.append(("mounted", MOUNT_SCORE))
    return out


def _aim(rs: Any, game: Any, u: Unit) -> Order | None:
    """A battery in firing formation that has no target in its field of fire pivots toward the
    nearest enemy within range (a pivot is a Move of 0 cells, as 4.7)."""
    if u.stat("family") != "artillery" or u.stat("formation") != "firing":
        return None
    if movement.move_blocker(game, u) is not None or shooting.targets(game, u, "engine"):
        return None
    reach = int(u.stat("reach", 0))
    near = sorted((hex_distance(u.hex, e.hex), e.id, e) for e in board.alive_units(game.state)  # type: ignore[arg-type]
                  if e.side != u.side and hex_distance(u.hex, e.hex) <= reach)  # type: ignore[arg-type]
    if not near:
        return None
    target = near[0][2]
    for f in range(6):
        if f != u.facing and in_field_of_fire(u.hex, f, target.hex):  # type: ignore[arg-type]
            order = Order.make("pivot", unit=u.id, facing=f)
            return order if rs.validate(game, order) is None else None
    return None
