"""Poltava 1709: printed tables and counter classes (spec Parts 6, 8.6, 15.3)."""

from __future__ import annotations

from hexwar.engine.tables import CombatTable

RUSSIA = "russia"
SWEDEN = "sweden"

# Melee Table (spec 8.6), exactly as printed. Rows = modified die 1..6, columns 0..8.
COLUMNS = ("-7", "-4-6", "-2-3", "-1", "0", "+1", "+2-3", "+4-6", "+7")
CRT_ROWS = {
    1: ("A3*", "A3*", "A2*", "A2*", "A1*", "A1*", "A1*", "A1*", "EX*"),
    2: ("A2*", "A2*", "A1*", "A1*", "A1*", "A1*", "EX*", "D1", "D1"),
    3: ("A2", "A1", "A1", "A1", "EX", "EX", "D1", "D1", "D1"),
    4: ("A1", "A1", "A1", "EX", "EX", "D1", "D1", "D1", "D2"),
    5: ("A1", "A1", "EX", "D1", "D1", "D1", "D1", "D2", "D2"),
    6: ("EX", "D1", "D1", "D1", "D1", "D2", "D2", "D3", "D3"),
}
CRT = CombatTable(COLUMNS, CRT_ROWS)


def column_of(diff: int) -> int:
    """R8.6.5/R8.6.7: strength difference -> column index 0..8 (clamped)."""
    if diff <= -7:
        return 0
    if diff <= -4:
        return 1
    if diff <= -2:
        return 2
    if diff == -1:
        return 3
    if diff == 0:
        return 4
    if diff == 1:
        return 5
    if diff <= 3:
        return 6
    if diff <= 6:
        return 7
    return 8


def clock(turn: int) -> str:
    """R1.2 and Part 3: a turn is one hour and turn n is played at (n+1):00 (turn 8 = 09:00)."""
    return f"{turn + 1:02d}:00"


def parse_result(res: str) -> tuple[str, int, bool]:
    """"D2" -> ("D", 2, False); "A1*" -> ("A", 1, True); "EX" -> ("EX", 1, False)."""
    star = res.endswith("*")
    core = res.rstrip("*")
    if core == "EX":
        return "EX", 1, star
    return core[0], int(core[1:]), star


# Terrain (TEC, Part 6; rows the source lacks are [PROP], see NOTES.md).
TERRAIN = {
    "open": "open ground: 1 MP",
    "woods": "forest: impassable, no combat (GN, TEC)",
    "village": "settlement: 1 MP, 1 shift to the defender, cavalry CS 1 and no charge, no ZOC, blocks LOS",
    "hill": "hill: 1 MP, blocks LOS, elevates artillery [PROP A9]",
    "redoubt": "redoubt site: 1 MP, 2 shifts and -1 DRM, no ZOC, blocks LOS",
    "camp": "inside the Russian camp (open ground)",
    "battery": "camp hex with the artillery symbol (open; artillery here is elevated)",
    "river": "the Vorskla and its marshy valley: impassable [PROP A8]",
    "retrenchment": "retrenchment hex, part of the Camp: 2 MP, no cavalry, 2 shifts and -1 DRM, no ZOC, "
                    "blocks LOS, elevates artillery [PROP A6, hex model]",
}
IMPASSABLE = frozenset({"woods", "river"})
LOS_BLOCKING = frozenset({"woods", "redoubt", "village", "hill", "retrenchment"})
CAMP = frozenset({"camp", "battery", "retrenchment"})
NO_ZOC = frozenset({"village", "redoubt", "retrenchment"})        # R5.1, R6.1.1
FORTIFIED = frozenset({"village", "redoubt", "retrenchment"})     # cavalry may not attack in (R9.1)
NO_CAVALRY = frozenset({"retrenchment"})                          # mounted units may not enter
ELEVATED = frozenset({"battery", "camp", "hill", "redoubt", "retrenchment"})  # R6.3 "higher" artillery
HEX_COST = {"retrenchment": 2}                                    # entry cost off a road; else 1
# defender's hex-terrain shifts (TEC); 2 shifts also give the -1 DRM
HEX_SHIFTS = {"redoubt": (2, "defender in a redoubt (TEC)"),
              "retrenchment": (2, "defender in a retrenchment hex (TEC, A6)"),
              "village": (1, "defender in a settlement (TEC)")}
HEXSIDES = ("stream", "impassable", "retrenchment", "redoubt_line")
# [rules] draw_rule (A47): when a standing Roos column turns a Russian victory into a draw
DRAW_RULES = ("literal", "roos-at-end")

# Counter classes (placeholders of spec 15.3; every unit may override in its scenario file).
# cs/fire/stars are the full side, rcs/rfire/rstars the reduced side; fire 0 = cannot fire.
def _t(arm, cs, rcs, fire, rfire, ma, stars, rstars, steps, **extra):
    d = {"arm": arm, "cs": cs, "rcs": rcs, "fire": fire, "rfire": rfire, "ma": ma,
         "stars": stars, "rstars": rstars, "strength": steps, "odb": 0}
    d.update(extra)
    return d


UNIT_TYPES = {
    "sw-inf": _t("inf", 3, 2, 5, 6, 4, 2, 1, 2),
    "sw-guard": _t("inf", 3, 2, 5, 6, 4, 3, 2, 2),
    "sw-cav": _t("cav", 3, 2, 0, 0, 6, 2, 1, 2),
    "sw-drabant": _t("cav", 3, 2, 0, 0, 6, 3, 2, 2),
    "ru-inf": _t("inf", 4, 2, 5, 6, 4, 0, 0, 2),
    "ru-guard": _t("inf", 4, 2, 5, 6, 4, 1, 0, 2),
    "ru-drag": _t("cav", 3, 2, 0, 0, 6, 0, 0, 2),
    "ru-hgren": _t("cav", 3, 2, 0, 0, 6, 1, 0, 2),
    "ru-sqn": _t("cav", 2, 2, 0, 0, 6, 1, 1, 1),
    "art": _t("art", 0, 0, 4, 4, 0, 0, 0, 1),
    "cossack": _t("cossack", 1, 1, 0, 0, 6, 0, 0, 1),
    "leader": _t("leader", 0, 0, 0, 0, 8, 0, 0, 1),
    "redoubt": _t("redoubt", 6, 6, 5, 5, 0, 0, 0, 1),
    "redoubt-u": _t("redoubt", 3, 3, 6, 6, 0, 0, 0, 1),
}

COMBAT_ARMS = frozenset({"inf", "cav", "art", "cossack"})
ZOC_ARMS = frozenset({"inf", "cav", "cossack"})
MELEE_ARMS = frozenset({"inf", "cav", "cossack"})
MOUNTED = frozenset({"cav", "cossack"})
FIRE_RANGE = {"inf": 2, "art": 5, "redoubt": 2}
