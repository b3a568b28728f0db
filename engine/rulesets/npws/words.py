"""The ruleset's words for the player: a piece's card, why a space is out of reach, the player
aid. The UI shows these; it never works the rules out itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import designed, ledger, pieces, stacking, turn
from .facts import (
    FAMOUS_VICTORY_VP, LONDON_WINTER_VP, NAVAL_SORTIE_VP, STACKING_LIMIT, VP_MAX, VP_MIN, VP_START,
)

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position


def unit_card(game: "Position", unit_id: str) -> list[tuple[str, str]]:
    state = game.state
    u = state.units[unit_id]
    where = game.map.label(u.hex) if u.hex is not None else _off_map(u)
    if u.kind == "corps":
        status = {2: "full strength (1 die)", 1: "reduced (1/2 die)"}.get(u.strength, "in the Force Pool")
        return [("type", "corps"), ("power", str(u.stat("power"))), ("strength", status),
                ("space", where)]
    f = pieces.face(u)
    rows = [("type", f"leader, {f.kind} face"), ("power", f.power),
            ("tactical rating", f"{pieces.effective_tr(state, u)} (printed {f.tr})"),
            ("command rating", f"{f.cr} corps; rallies himself and {pieces.rally_capacity(u)}"),
            ("space", where)]
    marks = [w for k, w in (("locked", "minor for the rest of the game (3.1)"),
                            ("promoted", "promoted (3.1.2)"), ("demoralized", "demoralized"))
             if u.marks.get(k)]
    if u.stat("promotable") and u.marks.get("back") and not u.marks.get("locked"):
        marks.append("not yet promoted: cannot be killed (3.1.2)")
    if u.stat("dynastic"):
        marks.append("dynastic (6.1.1): " + ("no ransom" if u.stat("dynastic") == "star" else "ransom = CR"))
    if marks:
        rows.append(("status", "; ".join(marks)))
    return rows


def _off_map(u) -> str:  # noqa: ANN001
    for mark, words in (("removed", "removed from the game"), ("captured", "captured"),
                        ("ransomed", "ransomed, returns next Reinforcement Phase"),
                        ("waiting", "not yet arrived")):
        if u.marks.get(mark):
            return words
    return "Force Pool" if u.kind == "corps" else "off the map"


def why_not(game: "Position", unit_id: str, place: str) -> str | None:
    """Why ``unit_id`` cannot march to ``place`` now, naming the rule; None when it can."""
    state, board = game.state, game.map
    u = state.units.get(unit_id)
    if u is None or place not in board:
        return "no such piece or space"
    if any(o.kind == "march" and o.get("unit") == unit_id and o.get("path")[-1] == place
           for o in turn.legal(game)):
        return None
    if state.phase != "campaign":
        return "forces march in the Campaign Phase (13.0)"
    if u.kind != "leader":
        return "a corps marches with a leader, who activates as many as his CR (3.1)"
    if u.side != state.active:
        return f"it is {state.active}'s action round"
    if not state.vars.get("actions"):
        return "play an Action card first: its value is the number of marches (designed)"
    if u.marks.get("marched"):
        return "this force has already marched this round"
    ids = [c.id for c in turn._marching_corps(state, board, u)]
    if turn._enemy_in(state, place, u.side) and not ids:
        return "a leader without corps does not attack (designed, 16.0)"
    ids = [c.id for c in turn._marching_corps(state, board, u)]
    problem = stacking.relocation_problem(state, board, place, u.side, ids, "campaign")
    if problem:
        return problem
    return (f"a march follows at most {designed.MARCH_SPACES} connections and never through a "
            f"space holding enemy pieces (designed, 14.1)")


def player_aid(game: "Position") -> list[tuple[str, list[str]]]:
    state = game.state
    seq = [("> " if p == state.phase else "  ") + turn.PHASE_NAMES[p] for p in turn.PHASES]
    stacking_lines = [f"{k}: {v} corps per player; over it, full corps above {v // 2} are reduced"
                      for k, v in STACKING_LIMIT.items()]
    stacking_lines += ["a reduced corps counts as one; leaders never count (4.1.1)",
                       "only a mandatory retreat or a successful relief may stay over (4.1.2)",
                       "overstacked: no restoring or placing, activation capped at the limit (4.1.3)"]
    vp = [f"Alliance VP starts at {VP_START}, never below {VP_MIN} nor above {VP_MAX} (6.1.1)",
          "fortress taken by siege: its level (1-3); unfortified space converted: its printed VP",
          f"Famous Victory: {FAMOUS_VICTORY_VP}; naval battle won as attacker: {NAVAL_SORTIE_VP}",
          "dynastic leader killed: opponent +2; captured: ransom = CR (James II: killed instead)",
          f"Bourbons hold London in Winter Quarters: -{LONDON_WINTER_VP}",
          "no VP for control changed by Event cards, Savoy, Derry, Scottish risings (6.1.2)",
          f"now: {ledger.vp(state)}"]
    made = [f"designed: {name} = {getattr(designed, name)!r}" for name in designed.__all__]
    return [("Sequence of play", seq), ("Stacking", stacking_lines), ("Victory points", vp),
            ("Designed values (designed.py)", made)]
