"""Companies, their platoons and commanders as the rules see them (spec 3, 4, G-16, G-64).

A platoon is an engine ``Unit``: ``strength`` is its teams left, ``max_strength`` its starting
teams, ``division`` the company it belongs to. A company's place and per-turn status live in
``state.vars["companies"]``; commanders in ``state.vars["commanders"]``. Aircraft are platoons
without a company, kept off the map in the side's air pool (G-32).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.engine.state import State, Unit

from . import catalogue as C
from .geo import hex_of

NATIONS = {
    # nation: (staff quality (3.2), supply type (3.3))
    "germany": ("professional", "poorly_organised"),
    "germany-rommel": ("professional", "organised"),
    "italy": ("poor", "poorly_organised"),
    "britain": ("good", "modern"),
    "usa": ("poor", "modern"),
}
FP_PER_COMMANDER = {"professional": 100, "good": 150, "poor": 200}
MAX_COMMANDERS = 6
SUPPLY_STEPS = ("modern", "organised", "poorly_organised", "partisan")
START_RP_PER_100 = {"modern": 4, "organised": 3, "poorly_organised": 2}
# G-16 staff table: highest d6 that still gives +0
RATING_ZERO_UP_TO = {"professional": 2, "good": 3, "poor": 4}


def supply_type(nation: str, desert_penalty: bool) -> str:
    """3.3 with the desert step-down (G-49): one step worse, never below partisan."""
    base = NATIONS[nation][1]
    if not desert_penalty:
        return base
    return SUPPLY_STEPS[min(len(SUPPLY_STEPS) - 1, SUPPLY_STEPS.index(base) + 1)]


def starting_rp(supply: str, fp: int) -> int:
    """3.3 and G-17: floor(FP x rate / 100); partisan armies start with a flat 1 RP."""
    if supply == "partisan":
        return 1
    return fp * START_RP_PER_100[supply] // 100


def income(supply: str, die: int) -> int:
    """3.3: 1D6, at least 3 for modern supply, at most 3 for poorly organised and partisan."""
    if supply == "modern":
        return max(3, die)
    if supply in ("poorly_organised", "partisan"):
        return min(3, die)
    return die


def commander_count(staff: str, fp: int) -> int:
    """G-16: min(6, max(1, floor(FP / FP per commander)))."""
    return min(MAX_COMMANDERS, max(1, fp // FP_PER_COMMANDER[staff]))


def rating_for(staff: str, die: int) -> int:
    return 0 if die <= RATING_ZERO_UP_TO[staff] else 1


# --- platoons ----------------------------------------------------------------------------------

def cat(u: Unit) -> str:
    return str(u.stats.get("category", ""))


def value(u: Unit) -> Fraction:
    """G-P 3: points x teams / start teams."""
    if u.max_strength <= 0:
        return Fraction(0)
    return Fraction(int(u.stats.get("points", 0)) * u.strength, u.max_strength)


def is_aircraft(u: Unit) -> bool:
    return cat(u) in C.AIRCRAFT


def is_vehicle(u: Unit) -> bool:
    return cat(u) in C.VEHICLES


def is_artillery(u: Unit) -> bool:
    return cat(u) in C.ARTILLERY


# --- companies ---------------------------------------------------------------------------------

def companies(state: State) -> dict[str, dict[str, Any]]:
    return state.vars["companies"]


def platoons(state: State, cid: str) -> list[Unit]:
    """The company's platoons that still have teams, by id."""
    return [state.units[k] for k in sorted(state.units)
            if state.units[k].division == cid and state.units[k].strength > 0]


def live(state: State, side: str | None = None) -> list[str]:
    """Ids of companies on the map (with teams left), optionally of one side."""
    manned = {u.division for u in state.units.values() if u.strength > 0}
    out = []
    for cid in sorted(companies(state)):
        c = companies(state)[cid]
        if c["point"] and (side is None or c["side"] == side) and cid in manned:
            out.append(cid)
    return out


def at(state: State, point: int, side: str | None = None) -> list[str]:
    return [cid for cid in live(state, side) if companies(state)[cid]["point"] == point]


def occupied(state: State, side: str) -> set[int]:
    """Points holding at least one live company of ``side``."""
    return {companies(state)[cid]["point"] for cid in live(state, side)}


def group_points(state: State, side: str) -> list[int]:
    return sorted(occupied(state, side))


def units_of(state: State, cids: list[str]) -> list[Unit]:
    return [u for cid in cids for u in platoons(state, cid)]


def mechanised(units: list[Unit]) -> bool:
    """G-64: every platoon is a tank, an armoured car, or has transport."""
    return bool(units) and all(is_vehicle(u) or bool(u.stats.get("transport")) for u in units)


def fully_motorised(units: list[Unit]) -> bool:
    """G-64: every platoon is a tank or motorised infantry (transported guns do not qualify)."""
    return bool(units) and all(cat(u) in ("tank", "motorised_infantry") for u in units)


def has_vehicles(units: list[Unit]) -> bool:
    """For bogging (G-63): tanks, armoured cars or transported platoons."""
    return any(is_vehicle(u) or bool(u.stats.get("transport")) for u in units)


def fords_ok(units: list[Unit]) -> bool:
    """13: tanks and armoured cars may not use fords."""
    return not any(is_vehicle(u) for u in units)


def all_armour(units: list[Unit]) -> bool:
    """G-34: only forces of tanks and armoured cars withdraw without the retreat-loss test."""
    return bool(units) and all(is_vehicle(u) for u in units)


def fp(state: State, cids: list[str]) -> Fraction:
    return sum((value(u) for u in units_of(state, cids)), Fraction(0))


def artillery_models(units: list[Unit]) -> int:
    """Artillery support needs at least two artillery models (not mortars) in the company."""
    return sum(u.strength for u in units if is_artillery(u))


def move_company(state: State, cid: str, point: int | None) -> None:
    companies(state)[cid]["point"] = point
    h = None if not point else hex_of(point)
    for u in state.units.values():
        if u.division == cid:
            u.hex = h if u.strength > 0 else None


def commander_posts(state: State, side: str, n: int) -> list[int]:
    """DESIGNED placement of ``n`` commanders: one per company in order of company FP (largest
    first, ties by id), round again if there are more commanders than companies."""
    ranked = sorted(live(state, side), key=lambda c: (-fp(state, [c]), c))
    return [companies(state)[ranked[i % len(ranked)]]["point"] if ranked else 0 for i in range(n)]


def remove_company(state: State, cid: str) -> None:
    """The company leaves play (surrendered, destroyed or off the map)."""
    companies(state)[cid]["point"] = 0
    for u in state.units.values():
        if u.division == cid:
            u.hex = None


def infantry_platoons(units: list[Unit]) -> int:
    return sum(1 for u in units if cat(u) in ("infantry", "motorised_infantry"))


# --- commanders --------------------------------------------------------------------------------

def commanders(state: State) -> dict[str, dict[str, Any]]:
    return state.vars["commanders"]


def commanders_at(state: State, side: str, point: int) -> list[str]:
    return [k for k in sorted(commanders(state))
            if commanders(state)[k]["side"] == side and commanders(state)[k]["point"] == point]


def best_rating(state: State, side: str, point: int) -> int | None:
    ks = commanders_at(state, side, point)
    return max((commanders(state)[k]["rating"] for k in ks), default=None)
