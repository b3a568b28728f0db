"""How Frontier counters are drawn: one letter and a type name per unit kind.

Designed values (the rules print no counter art), distinct within this ruleset. Units face a
cell side and fight only what they face, so counters show their facing.
"""

#: The counter shows the unit's facing.
FACING = True
#: kind -> (symbol, type name, role); role "leader" is drawn under a regiment it stacks with.
UNITS: dict[str, tuple[str, str, str]] = {
    "EI": ("I", "European infantry", ""),
    "NI": ("N", "native infantry", ""),
    "EC": ("C", "European cavalry", ""),
    "NC": ("H", "native horse", ""),
    "MG": ("G", "machine guns", ""),
    "MA": ("M", "mountain artillery", ""),
    "FA": ("A", "field artillery", ""),
    "SA": ("F", "fortress artillery", ""),
    "CO": ("L", "commander", "leader"),
}
