"""Every designed value of the ruleset, in one editable place.

The fragment (seed 004) is about a tenth of the rulebook; where it is silent or ambiguous the
spec (``shared/rules/spanish-succession.md``) proposes a resolution ([PROP], its ambiguity number
A1-A33). Each value below is **designed**: chosen here, not read from the rules, and written
under its rule number in NOTES.md. Change it here and nowhere else; a scenario overrides the
few that are scenario data (the KWW track, the tie-break space) in its ``[rules]`` table.
"""

from __future__ import annotations

#: designed (2.4, MISSING; spec 6B): the home spaces of these powers have no stacking limit
UNLIMITED_HOME_POWERS = ("austria", "empire", "subsidy")

#: designed (A9): an effective TR never drops below 0
TR_FLOOR = 0

#: designed (A4/A5): a sea move or sea line of communication goes from port to port through
#: one zone the side controls; chaining through a two-zone port needs both zones
#: (engine/areamap.py ``reach`` does exactly that given the side's zones)

#: designed (2.6.3, exception MISSING): the powers whose forces may trace a line of
#: communication through a port of their own home spaces whoever controls the sea
#: ("Jacobites in Ireland")
SEA_LOC_EXEMPT_POWERS = ("jacobite",)

#: designed (A6/A8, 10.2 MISSING): the side that wins a naval battle as the attacker takes
#: control of the zone (besides the 6.1.1 VP)
NAVAL_WINNER_TAKES_ZONE = True

#: designed (G4/A15): the KWW track, from the Bourbon end to the Alliance end, each box with
#: its VP label; the example's "first -1", "second -1" and "-2" boxes are in it
KWW_LABELS = (-3, -2, -2, -1, -1, 0, 1, 1, 2, 2, 3)
#: designed: the KWW marker starts on the box labelled 0
KWW_START = 5
#: designed (A15): the KWW track is used only where the scenario says (``rules.kww = true``)
KWW_DEFAULT = False

#: designed (A17): the order of the Event Card Phase
EVENT_PHASE_ORDER = ("add_reserve_cards", "kww_roll", "bourbon_draws", "alliance_draws")

#: designed (A3, 6.3 MISSING): at the end of the game the Alliance wins above this VP, the
#: Bourbons below it; exactly on it, the controller of the tie-break space wins
VP_NEUTRAL = 15

#: designed (A26): the London penalty applies unless the scenario sets ``london_vp = false``
LONDON_VP_DEFAULT = True

#: designed (A14b): a ransomed leader leaves the map and comes back in his owner's next
#: Reinforcement Phase (the Leader Loss Table is MISSING)
RANSOMED_RETURN = "next_reinforcement_phase"

#: designed (A14, 3.1.2): what happens to a captured leader who is not dynastic, or on his
#: minor face: he leaves the map to the captured box (the Leader Loss Table is MISSING)
CAPTURED_BOX = "captured"

#: designed (A11/A12): only a famous face can be killed (3.1's flip); a minor or staff face,
#: which has no further side, survives a battle or a siege, so an unpromoted leader (3.1.2)
#: cannot be killed in a siege either
KILLABLE_FACES = ("famous",)

#: designed (A16): at the Campaign Interphase every Event and Action card except those removed
#: from play and reserve cards not yet due, hands included, goes back into its deck
INTERPHASE_GATHERS_HANDS = True

#: designed (A19): the computer's choice of full corps to reduce when overstacked: the power
#: with most full corps in the space first, ties by corps id
REDUCE_POLICY = "largest_power_first"

#: designed (12.0-12.3 MISSING): resource points each side spends in its Reinforcement Phase,
#: one per reduced corps restored or corps placed from the Force Pool
RESOURCE_POINTS = 2

#: designed (13.1 MISSING, A18): Action cards each side draws at the start of the Campaign Phase
ACTION_CARDS_DEALT = 3

#: designed (14.1 MISSING): the most connections one march follows
MARCH_SPACES = 2

#: designed (16.2 MISSING): each battle die scoring this or more is a hit
BATTLE_HIT_ON = 5

#: designed (16.5.3 MISSING): a battle won by this many hits more than the loser scored is a
#: Famous Victory (6.1.1: 2 VP)
FAMOUS_VICTORY_MARGIN = 3

#: designed (Leader Loss Table MISSING): each leader of the losing force rolls a die; on
#: ``LEADER_LOSS_ON`` a second die decides: up to ``LEADER_KILLED_UP_TO`` he is killed (3.1),
#: above it captured (6.1.1 b); a minor face survives either (A11)
LEADER_LOSS_ON = 6
LEADER_KILLED_UP_TO = 3

#: designed (14.7 MISSING): a force under a leader avoids battle on one die plus his effective
#: TR of at least this
AVOID_ON = 5

#: designed (14.6 MISSING): a leader next to a space of his side the enemy has just entered
#: intercepts on one die plus his effective TR of at least this, and then attacks
INTERCEPT_ON = 5

#: designed (17.5 MISSING): a siege takes the fortress on one die (+1 with at least twice its
#: level in corps) of at least ``SIEGE_TARGET`` + its level
SIEGE_TARGET = 3

__all__ = [name for name in dir() if name.isupper()]
