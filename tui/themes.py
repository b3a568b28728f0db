"""The four themes: Textual colours for widgets plus a palette for the map.

Side colours come from the Okabe-Ito set (orange / sky blue), which stay distinct for the common
kinds of colour blindness; every side is also named by a letter on its counters, so the
monochrome theme (used when ``NO_COLOR`` is set) loses nothing but colour.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from rich.style import Style
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

    def terrain_style(self, code: str) -> Style:
        return self.terrain.get(code, self.terrain.get("clear", self.blank))


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
        terrain={"clear": _t("#25301f"), "forest": _t("#173d1a", "#7fcf7f"),
                 "hill": _t("#4a3d22", "#e0c080"), "town": _t("#3c3c44", "#e0e0e0"),
                 "water": _t("#16324f", "#8fc7ff"), "marsh": _t("#24403a", "#9fd8c0"),
                 "rough": _t("#3d3420", "#d0b080")}),
    "light": MapPalette(
        border=Style(color="#8a8a8a"), feature=Style(color="#0072B2", bold=True),
        label=Style(color="#606060"), cursor=Style(reverse=True, bold=True),
        selected=Style(color="#7a4a00", bold=True), reach=Style(color="#7a4a00", bold=True),
        target=Style(color="#b00000", bold=True), contact=Style(color="#8a2a6a", bold=True),
        line=Style(color="#7a4a00"),
        sides=(Style(color="#000000", bgcolor="#E69F00", bold=True),
               Style(color="#000000", bgcolor="#56B4E9", bold=True)),
        terrain={"clear": _t("#eef3e2", "#303030"), "forest": _t("#cfe6c8", "#1f5a1f"),
                 "hill": _t("#efe0bf", "#6a4a10"), "town": _t("#e2e2e8", "#303030"),
                 "water": _t("#cfe3f5", "#0a4a8a"), "marsh": _t("#d8ece4", "#1f5a4a"),
                 "rough": _t("#ece2cc", "#6a5020")}),
    "high-contrast": MapPalette(
        border=Style(color="#ffffff"), feature=Style(color="#00ffff", bold=True),
        label=Style(color="#ffffff"), cursor=Style(reverse=True, bold=True),
        selected=Style(color="#ffff00", bold=True), reach=Style(color="#ffff00", bold=True),
        target=Style(color="#ff5555", bold=True), contact=Style(color="#ff55ff", bold=True),
        line=Style(color="#ffff00", bold=True),
        sides=(Style(color="#000000", bgcolor="#ffff00", bold=True),
               Style(color="#000000", bgcolor="#ffffff", bold=True)),
        terrain={}),
    "monochrome": MapPalette(
        border=Style(dim=True), feature=Style(bold=True), label=Style(dim=True),
        cursor=Style(reverse=True, bold=True), selected=Style(bold=True, underline=True),
        reach=Style(bold=True), target=Style(bold=True), contact=Style(bold=True),
        line=Style(bold=True), sides=(Style(reverse=True, bold=True), Style(bold=True, underline=True)),
        terrain={}),
}


def default_theme() -> str:
    """Monochrome when ``NO_COLOR`` is set (https://no-color.org), else the default theme."""
    return "monochrome" if os.environ.get("NO_COLOR") else "default"
