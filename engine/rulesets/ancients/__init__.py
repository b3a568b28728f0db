"""Ancient Battles (Bob Cordery's Portable Wargame), rules section 4 of
../shared/rules/portable-wargame.md. NOTES.md lists every proposed resolution used."""

from .rules import AncientsRuleset

RULESET = AncientsRuleset()

__all__ = ["RULESET", "AncientsRuleset"]
