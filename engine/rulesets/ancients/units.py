"""Ancient Battles unit types (rules 4.2, 4.3), classes (4.4) and terrain codes (4.8, 4.12).

Stats are plain scalars so they fit ``Unit.stats``: ``type`` is the arm (infantry, cavalry,
chariot, elephant, engine, commander), ``heavy``/``light`` the weight, ``forest`` whether it may
enter forest, ``dash`` whether it may dash, ``special`` names a special-unit rule (4.3).
"""

from __future__ import annotations

from typing import Any


def _t(name: str, sp: int, move: int, rng: int, arm: str, *, heavy: bool = False,
       light: bool = False, forest: bool | None = None, dash: bool | None = None,
       special: str = "") -> dict[str, Any]:
    return {
        "name": name, "strength": sp, "move": move, "range": rng, "type": arm,
        "heavy": heavy, "light": light,
        # 4.8 forest: only Light Infantry and Light Cavalry (and the Horde) may enter
        "forest": (light and arm in ("infantry", "cavalry")) if forest is None else forest,
        # 4.8.12 Dash: Light Infantry, Light Cavalry, Chariots, War Elephants
        "dash": ((light and arm in ("infantry", "cavalry")) or arm in ("chariot", "elephant"))
        if dash is None else dash,
        "special": special,
    }


UNIT_TYPES: dict[str, dict[str, Any]] = {
    # 4.2 (G-A2: Light Infantry = Archers and Skirmishers, Light Cavalry = both LC types)
    "archers": _t("Archers", 2, 3, 3, "infantry", light=True),
    "skirmishers": _t("Skirmishers", 3, 3, 2, "infantry", light=True),
    "HI": _t("Heavy Infantry", 4, 2, 0, "infantry", heavy=True),
    "LC-bow": _t("Light Cavalry with bows", 2, 4, 3, "cavalry", light=True),
    "LC-jav": _t("Light Cavalry with javelins", 2, 4, 2, "cavalry", light=True),
    "HC": _t("Heavy Cavalry", 3, 3, 0, "cavalry", heavy=True),
    "chariots": _t("Chariots", 2, 3, 2, "chariot", heavy=True),
    "elephants": _t("War Elephants", 3, 3, 2, "elephant", heavy=True),
    "engine": _t("Missile Engine", 2, 1, 6, "engine"),
    "commander": _t("Commander", 6, 3, 0, "commander"),
    # 4.3 special units (G-A14, G-A15, G-A35)
    "horde": _t("Barbarian Horde", 3, 3, 0, "infantry", heavy=True, forest=True, dash=False,
                special="horde"),
    "cataphracts": _t("Cataphracts", 4, 3, 0, "cavalry", heavy=True, special="cataphracts"),
    "persian-archers": _t("Persian Archers", 4, 3, 3, "infantry"),
    "hoplites": _t("Hoplites", 4, 2, 0, "infantry", heavy=True, special="hoplites"),
    "phalangites": _t("Phalangites", 4, 2, 0, "infantry", heavy=True, special="phalangites"),
    "legionaries": _t("Legionaries", 5, 2, 0, "infantry", heavy=True, special="legionaries"),
}

GRADES = ("excellent", "average", "poor")

TERRAIN_TYPES = {
    "clear": "open ground",
    "hill": "hill (level from the map elevation, at least 1): no movement cost; -1 to attack up it",
    "forest": "light troops only; stops movement; cover; blocks sight",
    "river": "fordable river cell: entering stops; start in it = move 1; no shooting; -1 defending",
    "deep-river": "impassable water (a river cell the scenario marks as not fordable, G-A28)",
    "village": "infantry and commanders only; stops movement; cover; blocks sight",
    "fortification": "infantry and commanders only; stops movement; fortified; blocks sight",
}

#: terrain that blocks sight and gives cover (1.6.5 item 1, 4.9)
SIGHT_BLOCKING = ("forest", "village", "fortification")
#: entering any of these ends the move (4.8, G-A29)
STOPPING = ("forest", "river", "village", "fortification")

#: 4.11 hit table: class -> highest die that means "lose 1 SP"; above it "retreat or lose"
HIT_TABLE = {"excellent": 2, "average": 3, "poor": 4}
#: 4.13 optional War Elephant table (the inverse of 4.11, G-A34)
ELEPHANT_HIT_TABLE = {"excellent": 4, "average": 3, "poor": 2}

HIT_ON = 5  # 4.9 / 4.10: a modified total of 5 or more is a hit
COMMANDER_SP = 6

#: scenario [rules] flags and their defaults (NOTES.md explains each)
RULE_DEFAULTS: dict[str, Any] = {
    "elephant_hit_table": True,      # 4.13 optional elephant table
    "pila": False,                   # 4.3 optional Pila rule
    "class_sp_adjust": False,        # 4.5 / G-A36
    "elephants_frighten": "any",     # G-A18: "any" (literal) or "enemy"
    "no_shoot_in_contact": False,    # G-A25 variant
    "commander_escape": False,       # G-A4 optional d6 escape variant
    "retreat_sideways": False,       # G-A20 variant: d+2 / d-2 when the rear cell is blocked
}


def arm(stats: dict[str, Any]) -> str:
    return str(stats.get("type", ""))


def is_commander(stats: dict[str, Any]) -> bool:
    return arm(stats) == "commander"


def is_elephant(stats: dict[str, Any]) -> bool:
    return arm(stats) == "elephant"


def is_engine(stats: dict[str, Any]) -> bool:
    return arm(stats) == "engine"


def is_mounted(stats: dict[str, Any]) -> bool:
    """Horses: the elephant -1 (4.10) hits Heavy/Light Cavalry and Chariots."""
    return arm(stats) in ("cavalry", "chariot")


def may_enter(stats: dict[str, Any], terrain: str) -> bool:
    """Terrain entry (4.8 table, G-A28, G-A29)."""
    if terrain == "deep-river":
        return False
    if terrain == "forest":
        return bool(stats.get("forest", False))
    if terrain in ("village", "fortification"):
        return arm(stats) in ("infantry", "commander")
    return True


def rule(scenario: Any, key: str) -> Any:
    return scenario.rules.get(key, RULE_DEFAULTS[key])
