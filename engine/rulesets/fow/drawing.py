"""How the Flames of War campaign's counters are drawn: one letter and a type name per unit kind.

Designed values, NATO-style in spirit: German and British kinds of the same arm share a letter
(the side is drawn separately), different arms never do. Units have no facing here.
"""

#: The counter shows no facing.
FACING = False
#: kind -> (symbol, type name, role); role "leader" is drawn under a regiment it stacks with.
UNITS: dict[str, tuple[str, str, str]] = {
    "de-schutzen": ("I", "infantry", ""),
    "gb-rifles": ("I", "infantry", ""),
    "de-pzgren": ("M", "motorised infantry", ""),
    "gb-motor": ("M", "motorised infantry", ""),
    "de-pz3": ("T", "tanks (light gun)", ""),
    "gb-crusader": ("T", "tanks (light gun)", ""),
    "de-pz4": ("H", "tanks (heavy gun)", ""),
    "gb-grant": ("H", "tanks (heavy gun)", ""),
    "de-sdkfz222": ("R", "armoured cars (recce)", ""),
    "gb-humber": ("R", "armoured cars (recce)", ""),
    "de-pak38": ("A", "anti-tank guns", ""),
    "gb-6pdr": ("A", "anti-tank guns", ""),
    "de-lefh18": ("G", "field guns", ""),
    "gb-25pdr": ("G", "field guns", ""),
    "de-flak88": ("F", "anti-aircraft guns", ""),
    "gb-bofors": ("F", "anti-aircraft guns", ""),
    "de-mortar": ("O", "mortars", ""),
    "gb-mortar": ("O", "mortars", ""),
    "de-bf109": ("P", "fighters", ""),
    "gb-hurricane": ("P", "fighters", ""),
    "de-ju87": ("B", "ground-attack aircraft", ""),
    "gb-kittyhawk": ("B", "ground-attack aircraft", ""),
}
