"""The campaign map as text: the 36 points with their terrain, roads, railway, rivers and
crossings, objectives, and each side's groups (strength in FP, commanders, exhaustion).

UI-only and read-only. Each point is a cell of two lines; even columns sit half a cell lower,
as on the map (spec 2.8). The letters and marks are listed by ``legend``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from . import forces as F
from . import geo
from .words import SUPPLY_NAMES, commander_name, company_name, fp_text, point_text, side_name

TERRAIN_MARK = {"open": ".", "scrub": "%", "forest": "&", "hills": "^", "heights": "n",
                "mountains": "M", "town": "o", "city": "#"}
CROSSING_MARK = {"none": "~", "ford": "f", "road_bridge": "b", "rail_bridge": "B"}
CELL = 12


def side_letter(game: Any, side: str) -> str:
    """The first letter of the side's name, upper case (``B`` British, ``G`` German)."""
    return side_name(game, side)[:1].upper() or "?"


def _features(game: Any, p: int) -> str:
    cmap = geo.campaign_map(game.scenario)
    out = TERRAIN_MARK.get(cmap.base(p), "?")
    if cmap.has_road(p):
        out += "r"
    if p in cmap.railway:
        out += "="
    if p in cmap.river_sides:
        mark = CROSSING_MARK.get(cmap.crossing.get(p, "none"), "~")
        if mark in "bB" and game.state.vars["bridges"].get(str(p), "intact") != "intact":
            mark = "x"
        out += "~" + (mark if mark != "~" else "")
    if p in cmap.objectives:
        out += "*"
    return out


def _group(game: Any, p: int) -> str:
    state = game.state
    parts = []
    for side in state.side_order:
        cids = F.at(state, p, side)
        ks = F.commanders_at(state, side, p)
        if not cids and not ks:
            continue
        text = side_letter(game, side) + (fp_text(F.fp(state, cids)) if cids else "-")
        if any(F.companies(state)[c]["exhausted"] for c in cids):
            text += "!"
        if ks:
            text += "+" + str(max(F.commanders(state)[k]["rating"] for k in ks))
        parts.append(text)
    return " ".join(parts)


def map_lines(game: Any, marked: int | None = None) -> list[str]:
    """The 6x6 points, two lines a point; ``marked`` (a point) is drawn in brackets."""
    rows = geo.SIZE * 2 + 1
    grid = [[" " * CELL for _ in range(geo.SIZE)] for _ in range(rows + 1)]
    for p in geo.POINTS:
        col, row = geo.col_row(p)
        top = (row - 1) * 2 + (1 if col % 2 == 0 else 0)
        head = f"{p:02d}{_features(game, p)}"
        if p == marked:
            head = f"[{head}]"
        grid[top][col - 1] = head[:CELL - 1].ljust(CELL)
        grid[top + 1][col - 1] = _group(game, p)[:CELL - 1].ljust(CELL)
    return [" " + "".join(r).rstrip() for r in grid if "".join(r).strip()]


def place_lines(game: Any, h: Any) -> list[str]:
    """The campaign point under a hex in words: number, crossings, objective, the groups there."""
    p = geo.point_at(tuple(h))
    if p is None:
        return []
    cmap = geo.campaign_map(game.scenario)
    state = game.state
    feats = []
    if p in cmap.railway:
        feats.append("railway")
    if p in cmap.river_sides:
        kind = cmap.crossing.get(p, "none")
        word = {"none": "no crossing", "ford": "a ford", "road_bridge": "a road bridge",
                "rail_bridge": "a railway bridge"}.get(kind, kind)
        if kind in ("road_bridge", "rail_bridge") and state.vars["bridges"].get(str(p), "intact") != "intact":
            word += " (blown)"
        feats.append(f"river with {word}")
    if p in cmap.objectives:
        feats.append("objective")
    out = [f"point {point_text(p)}" + (": " + ", ".join(feats) if feats else "")]
    for side in state.side_order:
        cids = F.at(state, p, side)
        ks = F.commanders_at(state, side, p)
        if cids or ks:
            comps = ", ".join(f"{company_name(game, c)} {fp_text(F.fp(state, [c]))} FP" for c in cids)
            cmd = ", ".join(commander_name(game, k) for k in ks)
            out.append(f"{side_name(game, side)}: " + "; ".join(x for x in (comps, cmd) if x))
    return out


def legend(game: Any) -> list[str]:
    letters = ", ".join(f"{side_letter(game, s)} {side_name(game, s)}" for s in game.state.side_order)
    return [f"{letters}: FP in the point; ! exhausted; +N best commander's rating",
            ". open  % scrub  & forest  ^ hills  n heights  M mountains  o town  # city",
            "r road  = railway  ~ river (f ford, b road bridge, B rail bridge, x blown)  * objective"]


def group_lines(game: Any) -> list[str]:
    """Every group in words, by side and point."""
    state = game.state
    out = []
    for side in state.side_order:
        out.append(f"{side_name(game, side)}:")
        for p in F.group_points(state, side):
            cids = F.at(state, p, side)
            ks = F.commanders_at(state, side, p)
            comps = ", ".join(
                f"{company_name(game, c)} {fp_text(F.fp(state, [c]))}"
                + (" (exhausted)" if F.companies(state)[c]["exhausted"] else "") for c in cids)
            cmd = "; " + ", ".join(commander_name(game, k) for k in ks) if ks else "; no commander"
            flags = []
            if p in state.vars["encircled"].get(side, []):
                flags.append("encircled")
            if p in state.vars["unsupplied"].get(side, []):
                flags.append("out of supply")
            out.append(f"  {point_text(p)}: {comps}{cmd}" + (f" [{', '.join(flags)}]" if flags else ""))
        lone = [k for k in sorted(F.commanders(state)) if F.commanders(state)[k]["side"] == side
                and F.commanders(state)[k]["point"] and not F.at(state, F.commanders(state)[k]["point"], side)]
        for k in lone:
            out.append(f"  {point_text(F.commanders(state)[k]['point'])}: {commander_name(game, k)} alone")
    return out


def side_panel(game: Any) -> list[str]:
    """Supply, resources, weather and initiative for both sides."""
    state = game.state
    out = [f"Weather {state.vars['weather']}; initiative: {side_name(game, state.vars['si'])}"]
    for side in state.side_order:
        s = state.sides[side]
        line = (f"{side_name(game, side)}: {s['rp']} RP, {SUPPLY_NAMES.get(s['supply'], s['supply'])} supply, "
                f"companies {len(F.live(state, side))}/{s['start_companies']}")
        if s["posture"]:
            line += f", posture {s['posture'].replace('_', ' ')}"
        ex = Fraction(*s["exited"]) if isinstance(s.get("exited"), list) else Fraction(0)
        if ex:
            line += f", exited {fp_text(ex)} FP"
        if s.get("fp_bank"):
            line += f", reinforcements {s['fp_bank']} FP"
        out.append(line)
    v = game.scenario.victory
    if v.get("type") == "exit":
        out.append(f"Victory: {side_name(game, v['side'])} win by taking {v['fp']} FP off the enemy's "
                   f"edge by turn {game.scenario.turns} (25.5)")
    elif v.get("type") == "meeting":
        out.append("Victory: destroy enough enemy companies or hold the enemy's edge (25.2, 30)")
    return out


__all__ = ["group_lines", "legend", "map_lines", "place_lines", "side_panel"]
