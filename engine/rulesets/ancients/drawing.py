"""How Ancient Battles counters are drawn: one letter and a type name per unit kind.

Designed values (the rules print no counter art): the letters are short mnemonics, distinct
within this ruleset so a player can tell every type apart without colour. Units face a hexside
(the front arc decides what they may shoot or attack), so counters show their facing.
"""

#: The counter shows the unit's facing.
FACING = True
#: kind -> (symbol, type name, role); role "leader" is drawn under a regiment it stacks with.
UNITS: dict[str, tuple[str, str, str]] = {
    "archers": ("A", "archers", ""),
    "skirmishers": ("S", "skirmishers", ""),
    "HI": ("I", "heavy infantry", ""),
    "LC-bow": ("B", "light cavalry (bows)", ""),
    "LC-jav": ("J", "light cavalry (javelins)", ""),
    "HC": ("C", "heavy cavalry", ""),
    "chariots": ("K", "chariots", ""),
    "elephants": ("E", "war elephants", ""),
    "engine": ("M", "missile engine", ""),
    "commander": ("G", "commander", "leader"),
    "horde": ("H", "barbarian horde", ""),
    "cataphracts": ("T", "cataphracts", ""),
    "persian-archers": ("P", "Persian archers", ""),
    "hoplites": ("O", "hoplites", ""),
    "phalangites": ("X", "phalangites", ""),
    "legionaries": ("L", "legionaries", ""),
}
