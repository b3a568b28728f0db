"""A small invented board and state builders for the NPWS rule tests.

The board is a test map (spec G1: "a small test map clearly marked as invented"): a space of
each class, fortresses of level 1-3, ports, Gibraltar on two zones, London, Madrid, Derry. Leader
ratings here are hypothetical (the spec's T-vectors mark them with *), never the real counters'.
"""

from __future__ import annotations

from hexwar.engine.areamap import AreaMap, Connection, SeaZone, Space
from hexwar.engine.dice import Dice
from hexwar.engine.state import State, Unit
from hexwar.engine.rulesets.npws import designed
from hexwar.engine.rulesets.npws.facts import ALLIANCE, BOURBON, NAMED_LEADERS, VP_START

SPACES = (
    Space("fields", "Fields", "fertile", control=ALLIANCE),
    Space("plain", "Plain", "normal", control=ALLIANCE),
    Space("hills", "Hills", "poor", control=BOURBON),
    Space("village", "Village", "normal", vp=1, control=BOURBON),
    Space("derry", "Derry", "normal", fort=1, sea_zones=("atlantic",), control=BOURBON),
    Space("namur", "Namur", "normal", fort=2, control=BOURBON),
    Space("lille", "Lille", "fertile", fort=3, control=BOURBON),
    Space("london", "London", "fertile", fort=2, sea_zones=("atlantic",), control=ALLIANCE),
    Space("madrid", "Madrid", "poor", fort=2, control=BOURBON),
    Space("gibraltar", "Gibraltar", "poor", fort=1, sea_zones=("atlantic", "med"),
          control=BOURBON),
    Space("toulon", "Toulon", "normal", fort=2, sea_zones=("med",), control=BOURBON),
    Space("vienna", "Vienna", "normal", fort=3, home="austria", control=ALLIANCE),
    Space("dublin", "Dublin", "normal", sea_zones=("irish",), home="jacobite", control=BOURBON),
)
LINES = tuple(Connection(a, b) for a, b in (
    ("fields", "plain"), ("plain", "hills"), ("hills", "village"), ("village", "namur"),
    ("namur", "lille"), ("lille", "fields"), ("plain", "vienna"), ("madrid", "gibraltar"),
    ("madrid", "toulon"), ("hills", "madrid"), ("lille", "london"), ("derry", "dublin"),
))
SEAS = (SeaZone("atlantic", "Atlantic", ALLIANCE, contestable=False),
        SeaZone("med", "Mediterranean", BOURBON), SeaZone("irish", "Irish Sea", ALLIANCE))
BOARD = AreaMap(SPACES, LINES, SEAS)

POWER_SIDES = {"france": BOURBON, "spain": BOURBON, "bavaria": BOURBON, "jacobite": BOURBON,
               "dutch": ALLIANCE, "british": ALLIANCE, "austria": ALLIANCE, "savoy": ALLIANCE}


def state(vp: int = VP_START) -> State:
    s = State("npws", "test", side_order=[BOURBON, ALLIANCE])
    s.vars = {"vp": vp, "control": {sp.id: sp.control for sp in SPACES},
              "sea": {z.id: z.control for z in SEAS}, "powers": dict(POWER_SIDES),
              "kww_labels": list(designed.KWW_LABELS), "kww": designed.KWW_START}
    return s


def corps(s: State, cid: str, power: str, place: str | None, full: bool = True) -> Unit:
    side = POWER_SIDES[power]
    u = Unit(cid, side, "corps", cid, place, (2 if full else 1) if place else 0, 2,
             stats={"power": power})
    s.units[cid] = u
    return u


def stack(s: State, prefix: str, power: str, place: str, full: int, reduced: int) -> list[Unit]:
    out = [corps(s, f"{prefix}{i:02d}", power, place, True) for i in range(full)]
    out += [corps(s, f"{prefix}{full + i:02d}", power, place, False) for i in range(reduced)]
    return out


def leader(s: State, lid: str, power: str, place: str | None, *, tr: int, cr: int,
           minor_tr: int = 0, minor_cr: int = 1, ref: str = "", back_up: bool = False,
           **extra: object) -> Unit:
    """A two-faced leader: famous front (striped), minor back, plus the fragment's facts for
    ``ref`` (``facts.NAMED_LEADERS``)."""
    stats: dict[str, object] = {
        "power": power, "front_kind": "famous", "front_tr": tr, "front_cr": cr,
        "front_stripe": True, "back_kind": "minor", "back_tr": minor_tr, "back_cr": minor_cr,
        "back_stripe": False}
    facts = dict(NAMED_LEADERS.get(ref, {}))
    stats.update(facts)
    stats.update(extra)
    u = Unit(lid, POWER_SIDES[power], "leader", lid, place, 1, 1, stats=stats)
    if back_up or stats.get("promotable"):
        u.mark("back", 1)
    s.units[lid] = u
    return u


def dice(seed: bytes = b"npws-test") -> Dice:
    return Dice(seed)
