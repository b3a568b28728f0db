"""How Poltava counters are drawn: one letter and a type name per unit kind.

Designed values after the arms of the counter sheet (spec 15.3): Swedish and Russian kinds of
the same arm share a letter, because the side is drawn separately; different arms never do.
Poltava units have no facing.
"""

#: The counter shows no facing: the rules have none.
FACING = False
#: kind -> (symbol, type name, role); role "leader" is drawn under a regiment it stacks with.
UNITS: dict[str, tuple[str, str, str]] = {
    "sw-inf": ("I", "infantry", ""),
    "ru-inf": ("I", "infantry", ""),
    "sw-guard": ("G", "guards infantry", ""),
    "ru-guard": ("G", "guards infantry", ""),
    "sw-cav": ("C", "cavalry", ""),
    "sw-drabant": ("B", "drabants (guard cavalry)", ""),
    "ru-drag": ("D", "dragoons", ""),
    "ru-hgren": ("H", "horse grenadiers", ""),
    "ru-sqn": ("Q", "cavalry squadron", ""),
    "art": ("A", "artillery", ""),
    "cossack": ("K", "cossacks", ""),
    "leader": ("L", "leader", "leader"),
    "redoubt": ("O", "redoubt garrison", ""),
    "redoubt-u": ("U", "unfinished redoubt", ""),
}
