"""Napoleonica numbers: the source's tables [S] and every invented number [P] in one place.

The source (seed 001, Napoleonica v4.00) gives the unit tables, the movement table and the army
composition percentages; those are marked [S] and must not be changed. Everything marked [P] is
designed for this engine because the source pages that held it are lost (spec section 22.12):
edit those values to try other readings. Hex values follow the 5 cm = 1 hex scale of spec 21.2.
"""

from __future__ import annotations

# --- unit types [S] (spec 3.1-3.4) ------------------------------------------------------------
# arm: inf / cav / art / eng / train / gen; fire: fire dice (0 = does not fire); rank: melee rank;
# melee, morale: number of d20 ("best of N"); pct: % of the arm at muster (spec 16.1).
# Engineers, train and generals have no table in the source: their values are [P] (22.9, 22.6).
UNIT_TYPES: dict[str, dict] = {
    "INF_LINE": {"arm": "inf", "fire": 1, "rank": 5, "melee": 1, "morale": 1, "strength": 4,
                 "formation": "line", "name": "line infantry"},
    "INF_LIGHT": {"arm": "inf", "fire": 1, "rank": 3, "melee": 1, "morale": 1, "strength": 4,
                  "formation": "line", "name": "light infantry"},
    "INF_HEAVY": {"arm": "inf", "fire": 1, "rank": 7, "melee": 2, "morale": 2, "strength": 4,
                  "formation": "line", "name": "heavy infantry (grenadiers)"},
    "INF_GUARD": {"arm": "inf", "fire": 1, "rank": 10, "melee": 2, "morale": 2, "strength": 4,
                  "formation": "line", "name": "guard infantry"},
    "CAV_LIGHT": {"arm": "cav", "fire": 0, "rank": 5, "melee": 1, "morale": 1, "strength": 4,
                  "formation": "line", "name": "light cavalry"},
    "CAV_CHASSEUR": {"arm": "cav", "fire": 1, "rank": 3, "melee": 1, "morale": 1, "strength": 4,
                     "formation": "line", "name": "mounted chasseurs"},
    "CAV_DRAGOON": {"arm": "cav", "fire": 0, "rank": 7, "melee": 2, "morale": 1, "strength": 4,
                    "formation": "line", "name": "dragoons"},
    "CAV_HEAVY": {"arm": "cav", "fire": 0, "rank": 10, "melee": 2, "morale": 2, "strength": 4,
                  "formation": "line", "name": "heavy cavalry"},
    "ART_LIGHT": {"arm": "art", "fire": 1, "rank": 0, "melee": 1, "morale": 1, "strength": 4,
                  "formation": "limbered", "name": "light (horse) artillery"},
    "ART_MEDIUM": {"arm": "art", "fire": 1, "rank": 0, "melee": 1, "morale": 1, "strength": 4,
                   "formation": "limbered", "name": "medium artillery"},
    "ART_HOWITZER": {"arm": "art", "fire": 1, "rank": 0, "melee": 1, "morale": 1, "strength": 4,
                     "formation": "limbered", "name": "medium howitzers"},
    "ART_HEAVY": {"arm": "art", "fire": 1, "rank": 0, "melee": 1, "morale": 1, "strength": 4,
                  "formation": "limbered", "name": "heavy (position) artillery"},
    "ENG": {"arm": "eng", "fire": 0, "rank": 3, "melee": 1, "morale": 1, "strength": 1,
            "formation": "standard", "name": "engineers"},
    "TRAIN": {"arm": "train", "fire": 0, "rank": 0, "melee": 1, "morale": 0, "strength": 1,
              "formation": "standard", "name": "train"},
    "GEN": {"arm": "gen", "fire": 0, "rank": 0, "melee": 0, "morale": 0, "strength": 1,
            "formation": "standard", "name": "general"},
    "CINC": {"arm": "gen", "fire": 0, "rank": 0, "melee": 0, "morale": 0, "strength": 1,
             "formation": "standard", "name": "commander-in-chief"},
}

#: guard cavalry and guard artillery are a base type with ``guard = true`` (spec 3.2, 3.3, G-10, G-12)
GUARD_CAV_RANK = 2
GUARD_MORALE_DICE = 1

#: formations each arm may take (spec 5.1-5.5, 21.5); "disordered" is a state, never chosen (9.7)
FORMATIONS: dict[str, tuple[str, ...]] = {
    "inf": ("line", "column", "square"),
    "cav": ("line", "column"),
    "dismounted": ("line", "column", "square"),
    "art": ("limbered", "unlimbered", "gunners"),
    "eng": ("standard",),
    "train": ("standard",),
    "gen": ("standard",),
}

#: stands per unit [S] (spec 4.1); the train's size is not given [P: exactly 1]
STANDS: dict[str, tuple[int, int]] = {
    "inf": (1, 4), "cav": (1, 4), "art": (1, 4), "eng": (1, 1), "train": (1, 1), "gen": (1, 1),
}

#: % of the arm at muster [S] (spec 16.1); guard units count only in the guard row (16.2)
MUSTER_PCT: dict[str, tuple[int, int]] = {
    "INF_LINE": (50, 100), "INF_LIGHT": (0, 20), "INF_HEAVY": (0, 20), "INF_GUARD": (0, 10),
    "CAV_LIGHT": (0, 70), "CAV_CHASSEUR": (0, 20), "CAV_DRAGOON": (30, 100), "CAV_HEAVY": (0, 50),
    "CAV_GUARD": (0, 10),
    "ART_LIGHT": (0, 30), "ART_MEDIUM": (50, 100), "ART_HOWITZER": (0, 10), "ART_HEAVY": (0, 30),
    "ART_GUARD": (0, 10),
}

# --- movement in hexes [S via H] (spec 9.5 converted by 21.3) -------------------------------
# (forward MP, backward MP, sideways MP); None = not allowed. Square moves 1 hex any way.
MOVE_INF = {"line": (2, 1, 2), "column": (4, 2, 2), "square": (1, 1, 1)}
MOVE_CAV = {
    "CAV_LIGHT": {"line": (6, 3, 2), "column": (8, 4, 2)},
    "CAV_CHASSEUR": {"line": (6, 3, 2), "column": (8, 4, 2)},
    "CAV_DRAGOON": {"line": (4, 2, 2), "column": (6, 3, 2)},
    "CAV_HEAVY": {"line": (4, 2, 2), "column": (6, 3, 2)},
}
# artillery: backward = 100 % [S], never sideways [S]
MOVE_ART = {
    "ART_LIGHT": {"limbered": 8, "unlimbered": 2},
    "ART_MEDIUM": {"limbered": 6, "unlimbered": 1},
    "ART_HOWITZER": {"limbered": 6, "unlimbered": 1},
    "ART_HEAVY": {"limbered": 2, "unlimbered": 0},
}
MOVE_OTHER = {"ENG": (2, 1, 2), "TRAIN": (2, 1, None)}   # [P] engineers (G-14); train [S] 10 cm
MOVE_GUNNERS = 6                 # [S] gunners outside the battery 30 cm, never sideways
GUNNERS_BACKWARD_FULL = True     # [P] G-26: "artillery 100 % backward" covers the gunners

ATTACK_REACH = 2          # [S] 10 cm; 5 cm (1 hex) for infantry attacking from forest (7.4, 7.9)
ATTACK_REACH_FOREST = 1
COMMAND_D = 9             # [S] 40 cm to a general -> d <= 9 (21.3)
APPEAR_MIN_D = 3          # [S] appearance exclusion 10 cm -> d >= 3
REFORM_TEST_D = 3         # [S] re-form test radius 10 cm (5 cm in forest -> 2)
REFORM_TEST_D_FOREST = 2

# --- [P] invented numbers (spec 22.12) --------------------------------------------------------
EXPERIENCE = {"recruit": 10, "veteran": 14}

FIRE_MUSKET = {"short": 2, "long": 3}                # d; score 2*S + 2 short, 2*S long
FIRE_ART = {   # (short min, short max, long max, short base, long base) + gunners
    "ART_LIGHT": (2, 5, 10, 8, 4),
    "ART_MEDIUM": (2, 6, 14, 8, 4),
    "ART_HOWITZER": (2, 6, 14, 7, 4),
    "ART_HEAVY": (2, 8, 18, 9, 5),
}
FIRE_MODS = {"veteran": 1, "cover": -4, "fortified_cover": -6, "target_disordered": 2,
             "art_vs_column_or_square": 2}
FIRE_CLAMP = (1, 19)

MORALE_FRIEND_LOSS_D = 5
MORALE_MODS = {"general": 2, "cinc_extra": 1, "settlement": 2, "disordered": -2, "per_lost_stand": -1,
               "lost_stand_cap": -3, "flank_rear_contact": -2}

MELEE_MODS = {"attack_bonus": 2, "flank": 4, "rear": 6, "column_attacker": 1, "disordered": -4,
              "cav_vs_square": -10, "inf_vs_square_defender": -2, "cover": -4, "fortified_cover": -6,
              "passable_obstacle": -2, "veteran": 1, "general": 1, "per_extra_stand": 1,
              "extra_stand_cap": 3, "extra_unit": 1}
MELEE_ROUT_MARGIN = 5
RETREAT_HEXES = 2
GENERAL_MOVE = 8
GENERAL_CAPTURE_MAX = 5      # d20 1..5: a general in a losing unit is captured
GENERALS_PER_UNITS = 4

TRAIN_RESTORATION_BONUS = 2  # only with [rules] train_bonus = true (22.9, default off)

DEPLOY_ROWS = 6               # deployment zone: within 6 hex rows of the own edge (22.10)

#: the pick-up battle's armies [P] (spec 22.8): 16 combat units a side in these shares of arm
#: (percent of the combat units, compared exactly), one train, 0-2 engineer units, one
#: commander-in-chief and ceil(16 / 4) = 4 generals; the 36 x 24 board of 21.10 and the 12
#: turns of 22.10
PICKUP = {"combat_units": 16, "arm_pct": {"inf": (50, 70), "cav": (15, 30), "art": (10, 25)},
          "engineers": (0, 2), "train": 1, "board": (36, 24), "turns": 12}

BREAK_PCT = 50
DRAW_MARGIN = 3
POINTS = {"unit": 2, "guard_unit": 3, "fleeing": 1, "general": 2, "cinc": 5, "train": 3,
          "objective": 3,
          # [P] designed here (spec 22.10 has no line for it): an abandoned gun taken by the enemy
          "gun": 1}

# --- terrain [P] (spec 22.7) ------------------------------------------------------------------
TERRAIN = {
    "clear": "open ground: 1 MP",
    "hill": "open ground on a hill: +1 MP to climb a level; blocks sight by height (21.7)",
    "forest": "forest: 2 MP for foot (gunners outside their battery too), closed to mounted "
              "cavalry, artillery and train; blocks sight; cover (-4 to fire at it, and to an "
              "attacker any of whose stands is in it); attack reach 1 from inside",
    "swamp": "swamp: 2 MP for foot, closed to mounted cavalry, artillery and train; no attack "
             "path may enter it",
    "ravine": "ravine: as a swamp (2 MP for foot, closed to mounted cavalry, artillery and "
              "train; no attack path may enter it)",
    "rampart": "wall of a fort or a fortress (22.7): climbed from the courtyard (a whole move) "
               "and left the same way; blocks sight; cover and +2 morale on it; no attacks "
               "onto, from or through it (7.1 item 10)",
    "courtyard": "inside a fort: entered and left only through the gate hexside, a whole move",
    "lake": "lake: impassable",
    "river": "river: impassable except by a bridge (a road across the river hex: 1 MP); no "
             "attacks across it, attacks from or onto a bridge allowed",
    "ford": "ford (a river hex): 2 MP, batteries only limbered; no attacks from or onto it",
    "village": "settlement [S, F]: entered only by the occupy action from next to it, one "
               "stand a hex; no enemy unit may be in it (engineers, gunners without their gun "
               "and generals there are captured on entry); blocks sight; garrisons face all round, have cover (-4 to fire at "
               "and to attack them, +2 morale) and never attack out; mounted cavalry may not "
               "attack it",
}
# passable obstacle (+1 MP, -2 attacking across), high wall, and the front of an artillery
# fortification (earthwork: +1 MP, no cavalry attack across, cover for a battery behind it)
HEXSIDES = ("obstacle", "wall", "earthwork", "gate", "barricade")
ROLE_NAMES = ("FR", "FL", "LF", "RL", "RR", "RF")   # hexside roles for facing 0, dirs 0..5
