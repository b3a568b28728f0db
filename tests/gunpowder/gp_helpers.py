"""Helpers for the Age of Gunpowder tests: small scenarios with formations and a year; scripted
dice and labels come from the Ancients test helpers (the same engine underneath)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ancients"))

from ancients_helpers import (  # noqa: E402,F401 - re-exported for the tests
    E, LEGEND, NE, NW, SE, SW, W, H, L, begin, dice, events, move_to, play, seed_for, unit, walk, why,
)

from hexwar.scenarios.loader import parse_scenario  # noqa: E402


def scenario_text(units, rows=None, year=None, rules=None, turns=12, width=10, height=8) -> str:
    """``units``: (id, side "a"/"b", kind, label, facing[, formation[, grade]]) tuples."""
    rows = rows or [" ".join("." * width)] * height
    out = [
        "[scenario]", 'id = "t"', 'title = "test"', 'ruleset = "gunpowder"', f"turns = {turns}",
        "[map]", f"width = {width}", f"height = {height}", 'orientation = "pointy"',
        'parity = "odd"', f"legend = {LEGEND}", "rows = [",
        *[f'  "{r}",' for r in rows], "]",
    ]
    flags = dict(rules or {})
    if year is not None:
        flags["year"] = year
    if flags:
        out.append("[rules]")
        for k, v in flags.items():
            out.append(f"{k} = " + ("true" if v is True else "false" if v is False
                                    else f'"{v}"' if isinstance(v, str) else str(v)))
    out += ["[[sides]]", 'id = "a"', 'home_edge = "south"', "[[sides]]", 'id = "b"',
            'home_edge = "north"']
    for u in units:
        uid, side, kind, label, facing = u[:5]
        out += ["[[units]]", f'id = "{uid}"', f'side = "{side}"', f'kind = "{kind}"',
                f'hex = "{label}"', f'facing = "{facing}"']
        if len(u) > 6 and u[6]:
            out.append(f'grade = "{u[6]}"')
        if len(u) > 5 and u[5]:
            out.append(f'stats = {{ formation = "{u[5]}" }}')
    return "\n".join(out) + "\n"


def scenario(units, **kw):
    return parse_scenario(scenario_text(units, **kw))
