"""Age of Gunpowder, the third Portable Wargame set (portable-wargame.md section 5), completed
from its fragment by 5.6 on the Ancient Battles engine; see NOTES.md."""

from .rules import GunpowderRuleset

RULESET = GunpowderRuleset()
