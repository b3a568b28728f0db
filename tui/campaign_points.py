"""A campaign map's numbered points (Flames of War's 01-36, spec 2.8) on the main hex map: an
empty point shows its number, typing a point's two digits jumps to it, and the ruler names the
point under the cursor. Other maps keep their CCRR hex labels."""

from __future__ import annotations

from typing import Any

from hexwar.engine.hexgrid import Hex


def _geo(game: Any) -> Any:
    if game.ruleset.id != "fow":
        return None
    from hexwar.engine.rulesets.fow import geo
    return geo


def jump_width(game: Any) -> int:
    """How many digits make a whole place to jump to: a point number, else a hex label."""
    return 2 if _geo(game) is not None else 2 * game.map.label_width


def jump_target(game: Any, digits: str) -> Hex:
    """The hex that ``digits`` names; ValueError when no point or hex has that number."""
    geo = _geo(game)
    if geo is None:
        return Hex(*game.map.parse(digits))
    p = int(digits)
    if p not in geo.POINTS:
        raise ValueError(f"there is no point {digits}: the points are 01-{max(geo.POINTS):02d}")
    return Hex(*geo.hex_of(p))


def jump_prompt(game: Any) -> str:
    if _geo(game) is not None:
        return "Jump to point (two digits, 01-36):"
    return "Jump to hex (CCRR, e.g. 0304):"


def point_number(game: Any, h: Any) -> str:
    """The two digits drawn in an otherwise empty campaign point on the map, or ""."""
    geo = _geo(game)
    p = geo.point_at(tuple(h)) if geo is not None else None
    return "" if p is None else f"{p:02d}"


def place_label(game: Any, h: Any) -> str:
    """The cursor's name on the ruler: "point 16 (0304)" on a campaign map, else the hex label."""
    geo = _geo(game)
    p = geo.point_at(tuple(h)) if geo is not None else None
    return game.map.label(h) if p is None else f"point {p:02d} ({game.map.label(h)})"
