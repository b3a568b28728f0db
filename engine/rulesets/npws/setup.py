"""A scenario's checks and its starting state, for the area map.

A leader names the fragment's counter it is (``stats.ref``, one of ``facts.NAMED_LEADERS``) and
takes the fragment's facts from there; its ratings are the scenario's data (designed, since the
fragment gives none but Waldeck's TR). A corps with ``box = "pool"`` starts in the Force Pool.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.engine.state import State, Unit

from . import designed
from .facts import (
    ALLIANCE, BOURBON, CONTROL_CAUSES, FULL, MED_START, NAMED_LEADERS, SIDES, VP_START,
)
from .stacking import stacking_limit

if TYPE_CHECKING:
    from hexwar.engine.scenario import Scenario, UnitSpec

KINDS = ("leader", "corps")
FACE_KINDS = ("famous", "minor", "staff", "none")
EFFECTS = ("none", "control", "reduce", "reinforce", "leader_arrives", "sea_control", "vp_track",
           "power_joins", "power_neutral")
POOL = "pool"


def leader_stats(spec_stats: dict[str, Any]) -> dict[str, Any]:
    """A leader's printed fields: the scenario's, with the fragment's facts for its ``ref``
    over them (the source wins over a designed value)."""
    out = dict(spec_stats)
    out.update(NAMED_LEADERS.get(str(out.get("ref", "")), {}))
    return out


def check(scenario: "Scenario") -> list[str]:
    """Everything wrong with an NPWS scenario, each as ``field: what`` (the loader adds lines)."""
    out: list[str] = []
    board = scenario.map
    if board.kind != "area":
        return ["map.kind: this ruleset plays on an area map ([map] kind = \"area\")"]
    if sorted(s.id for s in scenario.sides) != sorted(SIDES):
        out.append(f"sides: the two sides are {BOURBON} and {ALLIANCE}")
    rules = scenario.rules
    powers = rules.get("powers", {})
    if not isinstance(powers, dict) or any(v not in SIDES + ("",) for v in powers.values()):
        out.append("rules.powers: a table of power = \"bourbon\", \"alliance\" or \"\" (neutral)")
        powers = {}
    for key in ("tie_break", "london"):
        if key in rules and rules[key] not in board:
            out.append(f"rules.{key}: no space {rules[key]!r} on the map")
    labels = rules.get("kww_labels")
    if labels is not None and not (isinstance(labels, list) and labels
                                   and all(isinstance(x, int) for x in labels)):
        out.append("rules.kww_labels: a list of whole numbers, the VP of each box")
    start = rules.get("kww_start")
    size = len(labels) if isinstance(labels, list) else len(designed.KWW_LABELS)
    if start is not None and not (isinstance(start, int) and 0 <= start < size):
        out.append(f"rules.kww_start: a box from 0 to {size - 1}")
    med = rules.get("med", "med")
    for i, z in enumerate(board.sea_zones):
        if z.id == med and z.control != MED_START:
            out.append(f"seas[{i}].control: the Mediterranean starts under {MED_START} control (2.5)")
    leaders = {u.id for u in scenario.units if u.kind == "leader"}
    card_ids = {c["id"] for c in scenario.cards}
    count: dict[tuple[str, str], int] = {}
    for i, u in enumerate(scenario.units):
        where = f"units[{i}]"
        power = u.stats.get("power")
        if not isinstance(power, str) or not power:
            out.append(f"{where}.stats: a piece needs its power (stats.power)")
        elif power in powers and powers[power] and powers[power] != u.side:
            out.append(f"{where}.side: {power} fights for {powers[power]} in this scenario")
        if u.box and u.box != POOL:
            out.append(f"{where}.box: the only box a piece starts in is \"{POOL}\" (the Force Pool)")
        if u.kind == "leader":
            out += _check_leader(where, u)
        elif u.kind == "corps" and u.strength not in (1, 2):
            out.append(f"{where}.strength: a corps is full (2) or reduced (1)")
        arrives = u.stats.get("arrives_with")
        if arrives is not None and arrives not in card_ids:
            out.append(f"{where}.stats.arrives_with: no card {arrives!r} in [[cards]]")
        if u.kind == "corps" and isinstance(u.hex, str) and u.hex in board:
            key = (u.hex, u.side)
            count[key] = count.get(key, 0) + 1
            limit = stacking_limit(board, u.hex)
            if limit is not None and count[key] == limit + 1:
                out.append(f"{where}.space: {u.side} has {count[key]} corps in "
                           f"{board.label(u.hex)}, over its stacking limit of {limit} (4.1.1)")
    for i, c in enumerate(scenario.cards):
        where = f"cards[{i}]"
        effect = c.get("effect", "none")
        if effect not in EFFECTS:
            out.append(f"{where}.effect: unknown effect {effect!r} (known: {', '.join(EFFECTS)})")
        if "leader" in c and c["leader"] not in leaders:
            out.append(f"{where}.leader: no leader {c['leader']!r} in [[units]]")
        if "space" in c and c["space"] not in board:
            out.append(f"{where}.space: no space {c['space']!r} on the map")
        if "zone" in c and c["zone"] not in {z.id for z in board.sea_zones}:
            out.append(f"{where}.zone: no sea zone {c['zone']!r} in [[seas]]")
        if effect in ("power_joins", "power_neutral"):
            if not isinstance(c.get("power"), str):
                out.append(f"{where}.power: the power that changes sides")
            if c.get("cause", "scenario_rule") not in CONTROL_CAUSES or \
                    CONTROL_CAUSES.get(c.get("cause", "scenario_rule")):
                out.append(f"{where}.cause: one of the 6.1.2 causes "
                           f"({', '.join(k for k, v in CONTROL_CAUSES.items() if not v)})")
        if c["deck"] == "action" and not isinstance(c.get("value"), int):
            out.append(f"{where}.value: an Action card needs its value (the actions it gives)")
    return out


def _check_leader(where: str, u: "UnitSpec") -> list[str]:
    out = []
    ref = u.stats.get("ref")
    if ref is not None and ref not in NAMED_LEADERS:
        out.append(f"{where}.stats.ref: unknown leader {ref!r} (the fragment names "
                   f"{', '.join(sorted(NAMED_LEADERS))})")
    stats = leader_stats(u.stats)
    for side in ("front", "back"):
        kind = stats.get(f"{side}_kind")
        if kind not in FACE_KINDS:
            out.append(f"{where}.stats.{side}_kind: one of {', '.join(FACE_KINDS)}")
        elif kind != "none":
            for r in ("tr", "cr"):
                v = stats.get(f"{side}_{r}")
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    out.append(f"{where}.stats.{side}_{r}: a rating of 0 or more")
    return out


def initial_state(scenario: "Scenario") -> State:
    """The state before play: pieces placed (promotable leaders on their minor face, the Force
    Pool off the map), control of spaces and zones from the map, VP 15, the KWW marker on its
    start box. The decks are formed and shuffled by the first order, which has dice (5.2.1)."""
    rules = scenario.rules
    state = State(ruleset="npws", scenario=scenario.id, turn=1, phase="setup", active=BOURBON,
                  side_order=[BOURBON, ALLIANCE])
    state.sides = {s: {} for s in SIDES}
    for spec in scenario.units:
        if spec.kind == "leader":
            stats = leader_stats(spec.stats)
            u = Unit(spec.id, spec.side, "leader", spec.name, spec.hex, 1, 1, stats=stats)
            if stats.get("promotable") or stats.get("start_face") == "back":
                u.mark("back", 1)
        else:
            pool = spec.box == POOL
            u = Unit(spec.id, spec.side, "corps", spec.name, None if pool else spec.hex,
                     0 if pool else spec.strength, FULL, stats=dict(spec.stats))
        if spec.entry_turn is not None or "arrives_with" in spec.stats:
            u.hex = None
            u.mark("waiting", spec.entry_turn if spec.entry_turn is not None else 1)
            if spec.entry_hexes:
                u.mark("enter_at", str(spec.entry_hexes[0]))
        state.units[spec.id] = u
    board = scenario.map
    state.vars = {
        "vp": VP_START,
        "year": int(rules.get("start_year", 1)),
        "control": {s.id: s.control for s in board.spaces},
        "sea": {z.id: z.control for z in board.sea_zones},
        "powers": {str(k): str(v) for k, v in sorted(rules.get("powers", {}).items())},
        "kww_labels": list(rules.get("kww_labels", designed.KWW_LABELS)),
        "kww": int(rules.get("kww_start", designed.KWW_START)),
        "cards": None,
    }
    return state
