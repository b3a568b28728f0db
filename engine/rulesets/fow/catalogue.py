"""The company catalogue: DESIGNED placeholder platoons, not Flames of War data (gap G-08).

The campaign needs, per platoon: a category (spec 4.2), its teams (models or vehicles), its
points (FP), a Skill and a Last Stand rating (d6 targets), whether it has transport (which makes
infantry and guns "mechanised", G-64) and a gun range in inches (artillery support range, G-31).
Aircraft (fighter, ground-attack) live in an off-map air pool (G-32).

Every number below is invented for play balance in hexwar and may be replaced by real army-list
values without touching the rules: scenarios refer to these ids as unit ``kind``.
"""

from __future__ import annotations

DESIGNED = True  # placeholder values (G-08), labelled as such wherever they are shown

CATEGORIES = ("infantry", "motorised_infantry", "tank", "armoured_car", "gun", "howitzer",
              "mortar", "aa", "fighter", "ground_attack")
AIRCRAFT = ("fighter", "ground_attack")
VEHICLES = ("tank", "armoured_car")
ARTILLERY = ("gun", "howitzer")  # mortars do not count as artillery models (4.2)

#        id               name                          cat                  teams pts skill ls transport range
_ROWS = (
    ("de-schutzen",   "Schützen platoon (designed)",       "infantry",           6, 45, 4, 3, False, 24),
    ("de-pzgren",     "Panzergrenadier platoon (designed)", "motorised_infantry", 6, 60, 3, 3, True, 24),
    ("de-pz3",        "Panzer III platoon (designed)",     "tank",               4, 80, 3, 3, False, 32),
    ("de-pz4",        "Panzer IV platoon (designed)",      "tank",               3, 75, 3, 3, False, 32),
    ("de-sdkfz222",   "Sd Kfz 222 scouts (designed)",      "armoured_car",       3, 30, 3, 4, False, 16),
    ("de-pak38",      "5cm PaK 38 battery (designed)",     "gun",                3, 35, 3, 4, True, 24),
    ("de-lefh18",     "10.5cm leFH 18 battery (designed)", "howitzer",           4, 60, 3, 4, True, 72),
    ("de-flak88",     "8.8cm FlaK battery (designed)",     "aa",                 2, 40, 3, 4, True, 48),
    ("de-mortar",     "8cm mortar platoon (designed)",     "mortar",             3, 20, 4, 3, False, 40),
    ("de-bf109",      "Bf 109 flight (designed)",          "fighter",            1, 20, 3, 3, False, 0),
    ("de-ju87",       "Ju 87 Stuka flight (designed)",     "ground_attack",      1, 25, 3, 3, False, 0),
    ("gb-rifles",     "Rifle platoon (designed)",          "infantry",           7, 45, 4, 3, False, 24),
    ("gb-motor",      "Motor platoon (designed)",          "motorised_infantry", 6, 50, 4, 3, True, 24),
    ("gb-crusader",   "Crusader troop (designed)",         "tank",               4, 70, 4, 3, False, 24),
    ("gb-grant",      "Grant troop (designed)",            "tank",               3, 80, 4, 3, False, 32),
    ("gb-humber",     "Humber armoured cars (designed)",   "armoured_car",       3, 30, 4, 4, False, 16),
    ("gb-6pdr",       "6 pdr anti-tank battery (designed)", "gun",               4, 35, 4, 4, True, 24),
    ("gb-25pdr",      "25 pdr field battery (designed)",   "gun",                4, 55, 4, 4, True, 72),
    ("gb-bofors",     "Bofors AA troop (designed)",        "aa",                 3, 25, 4, 4, True, 48),
    ("gb-mortar",     "3in mortar platoon (designed)",     "mortar",             3, 15, 4, 3, False, 40),
    ("gb-hurricane",  "Hurricane flight (designed)",       "fighter",            1, 20, 4, 3, False, 0),
    ("gb-kittyhawk",  "Kittyhawk flight (designed)",       "ground_attack",      1, 25, 4, 3, False, 0),
)

UNIT_TYPES: dict[str, dict[str, int | str | bool]] = {
    uid: {"name": name, "category": cat, "strength": teams, "points": pts, "skill": skill,
          "last_stand": ls, "transport": transport, "range_in": rng, "designed": True}
    for uid, name, cat, teams, pts, skill, ls, transport, rng in _ROWS
}
