"""Leaders and corps (3.1, 3.2): their faces, ratings, hits, and the leader's state machine.

A piece is an ``engine.state.Unit`` standing in a space (its ``hex`` holds the space id).

* A **corps** (``kind = "corps"``) keeps its battle strength in half dice as ``strength``: 2 full,
  1 reduced, 0 in the Force Pool (then off the map). ``stats.power`` is its power.
* A **leader** (``kind = "leader"``) prints two faces in its stats, ``front_*`` and ``back_*``
  (kind, tr, cr, stripe, power); the mark ``back`` says the back face is up. The marks
  ``locked`` (a lost famous face: minor for the rest of the game), ``promoted`` (3.1.2),
  ``captured``, ``ransomed`` and ``removed`` record the rest of the state machine of spec 4.3.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexwar.engine.orders import Event, event
from hexwar.engine.state import State, Unit

from . import designed
from .facts import DYNASTIC_KILLED_VP, FULL, REDUCED, SIGN
from .ledger import add_vp, side_of


@dataclass(frozen=True)
class Face:
    """One printed face of a leader counter."""

    kind: str        # famous | minor | staff | none
    tr: int
    cr: int
    stripe: bool     # 3.1.1: carries the native-power stripe
    power: str


def face(leader: Unit) -> Face:
    """The face that is up."""
    side = "back" if leader.marks.get("back") else "front"
    s = leader.stats
    return Face(str(s.get(f"{side}_kind", "none")), int(s.get(f"{side}_tr", 0)),
                int(s.get(f"{side}_cr", 0)), bool(s.get(f"{side}_stripe", False)),
                str(s.get(f"{side}_power") or s.get("power", "")))


def is_leader(u: Unit) -> bool:
    return u.kind == "leader"


def is_corps(u: Unit) -> bool:
    return u.kind == "corps"


def force_of(state: State, place: str, side: str) -> list[Unit]:
    """3.0: the force of ``side`` in ``place``: its leaders and corps on the map, id order."""
    return [u for u in state.units_in_id_order()
            if u.hex == place and u.side == side and (is_leader(u) or u.strength > 0)]


def corps_of(state: State, place: str, side: str) -> list[Unit]:
    """The corps (full or reduced, 3.2.1 IMPORTANT) of ``side`` in ``place``."""
    return [u for u in force_of(state, place, side) if is_corps(u)]


# --- ratings (3.1, 3.1.1) ---------------------------------------------------------------------

def effective_tr(state: State, leader: Unit) -> int:
    """3.1.1: a face with the native stripe loses 1 TR when the leader's force holds no corps
    of his native power; CR is never touched. Floored at ``designed.TR_FLOOR`` (A9)."""
    f = face(leader)
    tr = f.tr
    if f.stripe and leader.hex is not None:
        native = [c for c in corps_of(state, leader.hex, leader.side) if c.stat("power") == f.power]
        if not native:
            tr -= 1
    return max(designed.TR_FLOOR, tr)


def command_rating(leader: Unit) -> int:
    """3.1: the corps the leader can activate with a Campaign action (13.5.1)."""
    return face(leader).cr


def rally_capacity(leader: Unit) -> int:
    """3.1 (13.5.4): the corps a Rally frees besides the leader himself: half his CR, rounded up."""
    return (face(leader).cr + 1) // 2


# --- corps (3.2) -----------------------------------------------------------------------------

def corps_half_dice(corps: list[Unit]) -> int:
    """3.2.1: battle strength of some corps in half dice (full 2, reduced 1)."""
    return sum(c.strength for c in corps if is_corps(c))


def corps_dice(corps: list[Unit]) -> int:
    """3.2.1 with the 4.1.3 example: 1 die per full corps, 1/2 per reduced, total rounded up."""
    return (corps_half_dice(corps) + 1) // 2


def hit(corps: Unit) -> Event:
    """3.2.1: a hit flips a full corps to reduced, and eliminates a reduced one to the Force
    Pool (off the map). A corps never splits or combines (3.2.3): the counter is the same."""
    if corps.strength >= FULL:
        corps.strength = REDUCED
        return event("corps-reduced", unit=corps.id, rule="3.2.1")
    corps.strength = 0
    place = corps.hex
    corps.hex = None
    corps.mark("demoralized", 0)
    return event("corps-eliminated", unit=corps.id, space=place, rule="3.2.1")


def in_force_pool(corps: Unit) -> bool:
    """3.2.2: an eliminated corps waits in the Force Pool."""
    return is_corps(corps) and corps.hex is None and corps.strength == 0


# --- the leader's state machine (3.1, 3.1.2, 6.1.1 dynastic catastrophe) ------------------------

def _leave_map(leader: Unit, why: str) -> None:
    leader.hex = None
    leader.mark(why)
    leader.mark("box", 0)


def kill_leader(state: State, leader: Unit, where: str = "battle") -> list[Event]:
    """A leader killed in a battle or siege (3.1). A famous face flips to the minor face for the
    rest of the game (``locked``); Marlborough, who has no minor face, is removed; a minor or
    staff face (an unpromoted leader, 3.1.2 and A11/A12) cannot be killed. A dynastic leader
    losing his famous face gives his opponent 2 VP (6.1.1 a)."""
    f = face(leader)
    if f.kind not in designed.KILLABLE_FACES:
        rule = "3.1.2" if leader.stat("promotable") and not leader.marks.get("promoted") else "3.1"
        return [event("leader-survives", unit=leader.id, why=f"{f.kind} face cannot be killed",
                      rule=rule, where=where)]
    out: list[Event] = []
    if leader.stat("no_minor"):
        _leave_map(leader, "removed")
        out.append(event("leader-removed", unit=leader.id, rule="3.1", where=where))
    else:
        leader.mark("back", 1)
        leader.mark("locked", 1)
        leader.mark("promoted", 0)
        out.append(event("leader-flipped", unit=leader.id, rule="3.1", where=where))
    if leader.stat("dynastic") in ("underline", "star"):
        owner = side_of(state, f.power, leader.side)
        out.append(add_vp(state, -SIGN.get(owner, 0) * DYNASTIC_KILLED_VP, "dynastic_killed",
                          unit=leader.id))
    return out


def capture_leader(state: State, leader: Unit) -> list[Event]:
    """A leader captured in a battle or siege (6.1.1 b). An underlined dynastic leader on his
    famous face is ransomed: his owner pays VP equal to his CR and may not refuse; James II
    (star) cannot be ransomed and is eliminated instead (flipped, scoring 6.1.1 a). Any other
    capture, and the procedure after a ransom, are designed (``designed.CAPTURED_BOX``,
    ``designed.RANSOMED_RETURN``)."""
    f = face(leader)
    dyn = leader.stat("dynastic")
    if f.kind == "famous" and dyn == "star":
        return [event("leader-not-ransomable", unit=leader.id, rule="6.1.1")] + \
            kill_leader(state, leader, "capture")
    if f.kind == "famous" and dyn == "underline":
        owner = side_of(state, f.power, leader.side)
        out = [add_vp(state, -SIGN.get(owner, 0) * f.cr, "ransom", unit=leader.id)]
        _leave_map(leader, "ransomed")
        out.insert(0, event("leader-ransomed", unit=leader.id, paid=f.cr, rule="6.1.1",
                            returns=designed.RANSOMED_RETURN))
        return out
    _leave_map(leader, "captured")
    return [event("leader-captured", unit=leader.id, box=designed.CAPTURED_BOX)]


def promote_problem(leader: Unit) -> str | None:
    """Why ``leader`` cannot be promoted now (3.1.2), None when he can."""
    if not leader.stat("promotable"):
        return "3.1.2: only the leaders that start on their minor side are promoted"
    if leader.marks.get("locked"):
        return "3.1.2: he lost his famous face and stays minor for the rest of the game"
    if not leader.marks.get("back"):
        return "3.1.2: already on his famous face"
    return None


def promote(leader: Unit) -> Event:
    """3.1.2 (12.4): a promotable leader turns to his famous face."""
    problem = promote_problem(leader)
    if problem:
        raise ValueError(problem)
    leader.mark("back", 0)
    leader.mark("promoted", 1)
    return event("leader-promoted", unit=leader.id, rule="3.1.2")

