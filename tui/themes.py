"""The four themes: Textual colours for widgets plus a palette for the map.

Side colours come from the Okabe-Ito set (orange / sky blue), which stay distinct for the common
kinds of colour blindness; every side is also named by a letter on its counters, so the
monochrome theme (used when ``NO_COLOR`` is set) loses nothing but colour.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.color import Color
from textual.filter import LineFilter, Monochrome, NoColor
from textual.theme import Theme

from .theme_names import THEMES

TEXTUAL_THEME = {"default": "textual-dark", "light": "textual-light",
                 "high-contrast": "hexwar-high-contrast", "monochrome": "hexwar-monochrome"}

HIGH_CONTRAST = Theme(name="hexwar-high-contrast", primary="#FFFF00", secondary="#00FFFF",
                      accent="#FFFFFF", foreground="#FFFFFF", background="#000000",
                      surface="#000000", panel="#1A1A1A", warning="#FFFF00", error="#FF5555",
                      success="#00FF00", dark=True)
MONOCHROME = Theme(name="hexwar-monochrome", primary="#FFFFFF", secondary="#C0C0C0",
                   accent="#FFFFFF", foreground="#FFFFFF", background="#000000",
                   surface="#000000", panel="#202020", warning="#FFFFFF", error="#FFFFFF",
                   success="#FFFFFF", dark=True)


@dataclass(frozen=True)
class MapPalette:
    """Styles the map widget paints with."""

    border: Style
    feature: Style
    label: Style
    cursor: Style
    selected: Style
    reach: Style
    target: Style
    contact: Style
    line: Style
    sides: tuple[Style, ...]
    terrain: dict[str, Style] = field(default_factory=dict)
    blank: Style = Style()
    glyph: Style = Style(dim=True)  # a terrain glyph in an empty hex

    def terrain_style(self, code: str) -> Style:
        return self.terrain.get(code, self.terrain.get("clear", self.blank))


# Terrain names of every shipped ruleset, by the kind of ground they are (one tint per kind).
_GROUND = {"clear": ("clear", "open", "plain", "camp"), "forest": ("forest", "woods", "wood"),
           "hill": ("hill", "hills", "ridge", "battery", "heights", "mountain", "mountains"),
           "town": ("town", "village", "city", "fortification", "redoubt", "retrenchment"),
           "water": ("water", "river", "deep-river", "lake", "sea"), "marsh": ("marsh", "swamp"),
           "rough": ("rough", "broken", "scrub")}


def _tints(by_kind: dict[str, Style]) -> dict[str, Style]:
    """Expand one tint per kind of ground to every terrain name of that kind."""
    return {name: style for kind, style in by_kind.items() for name in _GROUND[kind]}


def _t(bg: str, fg: str = "#d0d0d0") -> Style:
    return Style(bgcolor=bg, color=fg)


PALETTES = {
    "default": MapPalette(
        border=Style(color="#6c7a6c"), feature=Style(color="#56B4E9", bold=True),
        label=Style(color="#9aa59a", dim=True), cursor=Style(reverse=True, bold=True),
        selected=Style(color="#F0E442", bold=True), reach=Style(color="#F0E442", bold=True),
        target=Style(color="#FF6E6E", bold=True), contact=Style(color="#CC79A7", bold=True),
        line=Style(color="#F0E442"),
        sides=(Style(color="#000000", bgcolor="#E69F00", bold=True),
               Style(color="#000000", bgcolor="#56B4E9", bold=True)),
        terrain=_tints({"clear": _t("#25301f"), "forest": _t("#173d1a", "#7fcf7f"),
                        "hill": _t("#4a3d22", "#e0c080"), "town": _t("#3c3c44", "#e0e0e0"),
                        "water": _t("#16324f", "#8fc7ff"), "marsh": _t("#24403a", "#9fd8c0"),
                        "rough": _t("#3d3420", "#d0b080")})),
    "light": MapPalette(
        border=Style(color="#8a8a8a"), feature=Style(color="#0072B2", bold=True),
        label=Style(color="#606060"), cursor=Style(reverse=True, bold=True),
        selected=Style(color="#7a4a00", bold=True), reach=Style(color="#7a4a00", bold=True),
        target=Style(color="#b00000", bold=True), contact=Style(color="#8a2a6a", bold=True),
        line=Style(color="#7a4a00"),
        sides=(Style(color="#000000", bgcolor="#E69F00", bold=True),
               Style(color="#000000", bgcolor="#56B4E9", bold=True)),
        terrain=_tints({"clear": _t("#eef3e2", "#303030"), "forest": _t("#cfe6c8", "#1f5a1f"),
                        "hill": _t("#efe0bf", "#6a4a10"), "town": _t("#e2e2e8", "#303030"),
                        "water": _t("#cfe3f5", "#0a4a8a"), "marsh": _t("#d8ece4", "#1f5a4a"),
                        "rough": _t("#ece2cc", "#6a5020")})),
    "high-contrast": MapPalette(
        border=Style(color="#ffffff"), feature=Style(color="#00ffff", bold=True),
        label=Style(color="#ffffff"), cursor=Style(reverse=True, bold=True),
        selected=Style(color="#ffff00", bold=True), reach=Style(color="#ffff00", bold=True),
        target=Style(color="#ff5555", bold=True), contact=Style(color="#ff55ff", bold=True),
        line=Style(color="#ffff00", bold=True),
        sides=(Style(color="#000000", bgcolor="#ffff00", bold=True),
               Style(color="#000000", bgcolor="#ffffff", bold=True)),
        terrain=_tints({"clear": _t("#000000", "#ffffff"), "forest": _t("#003a00", "#ffffff"),
                        "hill": _t("#4a3000", "#ffffff"), "town": _t("#3a3a3a", "#ffffff"),
                        "water": _t("#00306a", "#ffffff"), "marsh": _t("#003a3a", "#ffffff"),
                        "rough": _t("#3a2a00", "#ffffff")}), glyph=Style()),
    "monochrome": MapPalette(
        border=Style(dim=True), feature=Style(bold=True), label=Style(dim=True),
        cursor=Style(reverse=True, bold=True), selected=Style(bold=True, underline=True),
        reach=Style(bold=True), target=Style(bold=True), contact=Style(bold=True),
        line=Style(bold=True), sides=(Style(reverse=True, bold=True), Style(bold=True, underline=True)),
        terrain={}),
}


def default_theme() -> str:
    """Monochrome when ``NO_COLOR`` is set (https://no-color.org), else the default theme."""
    return "monochrome" if os.environ.get("NO_COLOR") is not None else "default"


class Colourless(LineFilter):
    """Keep only the attributes of every style: no colour code reaches the terminal."""

    def __init__(self) -> None:
        super().__init__()
        self._cache: dict[Style, Style] = {}

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        cache = self._cache
        out = []
        for text, style, control in segments:
            if style is not None:
                plain = cache.get(style)
                if plain is None:
                    plain = cache[style] = Style(
                        bold=style.bold, dim=style.dim, italic=style.italic,
                        underline=style.underline, reverse=style.reverse, strike=style.strike)
                style = plain
            out.append(Segment(text, style, control))
        return out


def strip_colour(app: App) -> None:
    """With ``NO_COLOR``, Textual greys the screen (it still sends 256-colour codes); swap that
    for a filter that drops every colour and keeps bold, dim, reverse and underline."""
    if app.no_color:
        app._filters[:] = [Colourless() if isinstance(f, (Monochrome, NoColor)) else f
                           for f in app._filters]
