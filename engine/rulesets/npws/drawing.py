"""How NPWS counters are drawn: one letter and a type name per piece kind (designed: the
fragment prints no counter art). Pieces stand in spaces, not hexes, and face nowhere."""

#: The counter shows no facing.
FACING = False
#: kind -> (symbol, type name, role); role "leader" is drawn under a corps it stacks with.
UNITS: dict[str, tuple[str, str, str]] = {
    "corps": ("C", "corps", ""),
    "leader": ("L", "leader", "leader"),
}
