"""The characters the map is drawn with, in a Unicode set and a plain ASCII set (``--ascii``).

Every piece of information on the map has a glyph, so nothing depends on colour: terrain, road,
hexside features, reduced strength, stacks, reach, targets, contact, the line of fire.
Unknown terrain or feature names fall back to their first letter, so new rulesets still draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_TERRAIN_UNICODE = {
    "clear": " ", "open": " ", "plain": " ", "field": "\u2237", "fields": "\u2237",
    "forest": "\u2663", "wood": "\u2663", "woods": "\u2663",
    "hill": "\u2229", "hills": "\u2229", "ridge": "\u2229", "mountain": "\u25b3",
    "town": "\u2302", "village": "\u2302", "city": "\u2302", "fort": "\u2691", "fortress": "\u2691",
    "water": "\u2248", "lake": "\u2248", "sea": "\u2248", "marsh": "\u2034", "swamp": "\u2034",
    "rough": "\u2234", "broken": "\u2234", "sand": "\u2026", "desert": "\u2026", "retrenchment": "#",
}
_TERRAIN_ASCII = {
    "clear": " ", "open": " ", "plain": " ", "field": ":", "fields": ":",
    "forest": "F", "wood": "F", "woods": "F", "hill": "^", "hills": "^", "ridge": "^",
    "mountain": "M", "town": "T", "village": "T", "city": "T", "fort": "P", "fortress": "P",
    "water": "~", "lake": "~", "sea": "~", "marsh": '"', "swamp": '"',
    "rough": "%", "broken": "%", "sand": ".", "desert": ".", "retrenchment": "#",
}
_FEATURE_UNICODE = {"river": "\u2248", "stream": "~", "ford": "\u2240", "retrenchment": "#",
                    "wall": "#", "fortification": "#", "bridge": "=", "cliff": "\u2593",
                    "hedge": "\u2591", "slope": "\u2591"}
_FEATURE_ASCII = {"river": "~", "stream": "-", "ford": "s", "retrenchment": "#", "wall": "#",
                  "fortification": "#", "bridge": "=", "cliff": "X", "hedge": ":", "slope": ":"}


@dataclass(frozen=True)
class Glyphs:
    """One character set for the map and panels."""

    ascii: bool
    terrain: dict[str, str] = field(default_factory=dict)
    features: dict[str, str] = field(default_factory=dict)
    road: str = "\u2550"
    reduced: str = "\u25be"
    stack: str = "+"
    marked: str = "\u2022"  # a unit that carries status marks (moved, fired...)
    reach: str = "\u2192"
    target: str = "\u2297"
    contact: str = "z"
    line: str = "\u00b7"
    selected: str = "\u25c6"
    pending: str = "!"

    def terrain_glyph(self, code: str) -> str:
        return self.terrain.get(code, code[:1].lower() or "?")

    def feature_glyph(self, features: frozenset[str]) -> str | None:
        for name in sorted(features):
            if name == "road":
                continue
            return self.features.get(name, name[:1].upper())
        return None


UNICODE = Glyphs(False, _TERRAIN_UNICODE, _FEATURE_UNICODE)
ASCII = Glyphs(True, _TERRAIN_ASCII, _FEATURE_ASCII, road="=", reduced="-", stack="+",
               marked="*", reach=">", target="X", contact="z", line=".", selected="@",
               pending="!")


def side_letters(side_ids: list[str]) -> dict[str, str]:
    """One distinct capital letter per side (its initial, or the next free letter of its id)."""
    out: dict[str, str] = {}
    for sid in side_ids:
        for ch in sid.upper() + "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            if ch.isalpha() and ch not in out.values():
                out[sid] = ch
                break
    return out
