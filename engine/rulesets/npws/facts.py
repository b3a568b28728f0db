"""What the source fragment states ([SRC]) or makes plain ([INF]), as constants.

Numbers here are the rulebook's (seed 004, ``shared/rules/spanish-succession.md``); nothing here
is designed. Designed values, the spec's [PROP] choices and the gaps filled by this
implementation live in ``designed.py``, in one place.
"""

from __future__ import annotations

BOURBON = "bourbon"
ALLIANCE = "alliance"
SIDES = (BOURBON, ALLIANCE)

#: 6.1.1: the one VP marker records the Alliance's VP; +n helps the Alliance, -n the Bourbons
SIGN = {ALLIANCE: 1, BOURBON: -1}

#: 4.1.1: corps each player may have in a space, by the space's class
STACKING_LIMIT = {"fertile": 12, "normal": 8, "poor": 4}

#: 4.1.2: the only ways a force may stay over the limit at the end of a move or retreat
OVERSTACK_MAY_REMAIN = ("retreat_after_battle", "retreat_winter_quarters", "siege_relief_success")

#: 3.2.1: battle strength in half dice: a full corps gives one die, a reduced corps half a die
FULL, REDUCED = 2, 1

#: 6.1.1: the VP track
VP_START, VP_MIN, VP_MAX = 15, 0, 35
FAMOUS_VICTORY_VP = 2
NAVAL_SORTIE_VP = 1
DYNASTIC_KILLED_VP = 2
LONDON_WINTER_VP = 2

#: 6.1.1: how a space changes hands, and whether that change scores its VP. Only a change
#: during an Action (movement into an unfortified space, 14.4, or a siege, 17.5.7) scores; the
#: causes of 6.1.2 and Event cards never do.
CONTROL_CAUSES = {
    "conversion": True,              # 14.4: a force converts an unfortified space
    "siege": True,                   # 17.5.7: a fortress taken by siege
    "event_card": False,             # 6.1.1: "no VP are ever awarded" for control by an Event
    "savoy_enters": False,           # 6.1.2: Savoy enters the war
    "savoy_neutral": False,          # 6.1.2: Savoy becomes neutral (7.1.2)
    "glorious_revolution": False,    # 6.1.2: Derry under the Glorious Revolution rule
    "scottish_rising": False,        # 6.1.2: Scottish Risings (an Event card)
    "scottish_pacification": False,  # 6.1.2: Scottish Pacifications (an Event card)
    "scenario_rule": False,          # 6.1.2: any other scenario special rule
}

#: 6.1.1 / 6.1.2: what the track records each VP change as (the ledger's causes)
VP_CAUSES = ("conversion", "siege", "kww", "famous_victory", "naval_sortie", "dynastic_killed",
             "ransom", "london")

#: 2.5: the Mediterranean is Bourbon at the start of the game (and of the NPWS scenario); a
#: scenario names its Mediterranean zone with ``rules.med`` (default "med")
MED_START = BOURBON

#: 2.7: army markers per player
ARMY_BOXES = ("A", "B", "C", "D")

#: 5.2.2: the year the "Add to deck in 1693" Event cards join the deck (a card names its own
#: year in its data; this is the one the fragment prints)
ADD_TO_DECK_YEAR = 1693

#: 3.1 / 3.1.1 / 3.1.2 / 6.1.1: what the fragment says of named leaders. A scenario's leader
#: names one of these as its ``ref`` and takes these facts; ratings the fragment does not give
#: come from the scenario's data (designed). Keys are the leader's counter fields:
#: ``promotable`` (3.1.2: starts on his minor side until promoted), ``back_stripe`` (3.1.1 game
#: note: his minor face carries the native stripe), ``dynastic`` (6.1.1: "underline" ransomable,
#: "star" not), ``no_minor`` (3.1: no minor face; removed when eliminated), ``front_power`` /
#: ``back_power`` (a counter whose two faces belong to two powers), ``power`` and ``front_tr``
#: (3.1.1 example: Waldeck, Dutch, TR 1).
NAMED_LEADERS: dict[str, dict[str, object]] = {
    "william_iii": {"dynastic": "underline", "back_stripe": True},
    "james_ii": {"dynastic": "star", "back_stripe": True},
    "max_emanuel": {"dynastic": "underline", "promotable": True},
    "victor_amadeus": {"dynastic": "underline", "promotable": True},
    "lorraine": {"promotable": True, "back_stripe": True},
    "lorges": {"promotable": True, "back_stripe": True},
    "luxembourg": {"promotable": True, "back_stripe": True},
    "catinat": {"promotable": True},
    "eugene": {"back_stripe": True},
    "noailles": {"back_stripe": True},
    "marlborough": {"no_minor": True, "front_power": "jacobite", "back_power": "british",
                    "back_kind": "famous"},
    "waldeck": {"power": "dutch", "front_tr": 1},
}

__all__ = [name for name in dir() if name.isupper()]
