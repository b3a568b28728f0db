"""The two shared decks (5.0-5.2): Event cards and Action cards, hands, the 1693 reserve.

``state.vars["cards"]`` holds ``event`` and ``action`` (the decks, top card first), ``reserve``
(card id -> the year it joins the Event deck, 5.2.2), ``hands`` (side -> card ids),
``discard`` (deck -> card ids) and ``removed``. Every shuffle draws from the Dice handed in, so
a seed and the orders give the same decks on every machine.

Hands are hidden information (4.4): ``visible_hand`` is what one player may see of another's.
Keeping the hands secret from the other peer's machine is the network's later work (design.md
7c); until then a hand is in the state like everything else.
"""

from __future__ import annotations

from typing import Any, Protocol

from hexwar.engine.orders import Event, event
from hexwar.engine.state import State

from . import designed
from .facts import SIDES

DECKS = ("event", "action")


class Roller(Protocol):
    def roll(self, sides: int = 6, why: str = "") -> int: ...


def shuffle(ids: list[str], dice: Roller, why: str) -> list[str]:
    """A Fisher-Yates shuffle whose every swap is a die roll (the deck's order comes from the
    seed alone, not from how the ids were listed: they are sorted first)."""
    out = sorted(ids)
    for i in range(len(out) - 1, 0, -1):
        j = dice.roll(i + 1, why) - 1
        out[i], out[j] = out[j], out[i]
    return out


def set_up_decks(state: State, cards: list[dict[str, Any]], dice: Roller) -> list[Event]:
    """5.2.1: before play, Event and Action cards form two shared decks, each shuffled; 5.2.2:
    cards marked with a later year (``add_in_year``) wait beside the board."""
    pile: dict[str, Any] = {"event": [], "action": [], "reserve": {}, "removed": [],
                            "hands": {s: [] for s in SIDES},
                            "discard": {d: [] for d in DECKS}}
    for c in cards:
        year = c.get("add_in_year")
        if c["deck"] == "event" and year is not None:
            pile["reserve"][c["id"]] = int(year)
        else:
            pile[c["deck"]].append(c["id"])
    for d in DECKS:
        pile[d] = shuffle(pile[d], dice, f"shuffle-{d}")
    state.vars["cards"] = pile
    return [event("decks", event_cards=len(pile["event"]), action_cards=len(pile["action"]),
                  reserve=len(pile["reserve"]), rule="5.2.1")]


def add_reserve(state: State, year: int, dice: Roller) -> list[Event]:
    """5.2.2: at the start of the Event Phase of its year a reserve card joins the Event deck,
    and the deck is shuffled when cards are added."""
    pile = state.vars["cards"]
    due = sorted(cid for cid, y in pile["reserve"].items() if y <= year)
    if not due:
        return []
    for cid in due:
        del pile["reserve"][cid]
    pile["event"] = shuffle(pile["event"] + due, dice, "shuffle-event")
    return [event("cards-added", cards=due, year=year, rule="5.2.2")]


def draw(state: State, deck: str, side: str) -> Event:
    """5.1: a player draws the top card of a shared deck into his hand (an empty deck gives
    nothing)."""
    pile = state.vars["cards"]
    if not pile[deck]:
        return event("deck-empty", deck=deck, side=side)
    cid = pile[deck].pop(0)
    pile["hands"][side].append(cid)
    return event("card-drawn", deck=deck, side=side, rule="5.1")


def discard(state: State, side: str, card: str, deck: str) -> Event:
    pile = state.vars["cards"]
    pile["hands"][side].remove(card)
    pile["discard"][deck].append(card)
    return event("card-played", side=side, card=card, deck=deck)


def interphase(state: State, deck_of: dict[str, str], dice: Roller) -> list[Event]:
    """5.2.1 "Campaign Interphase" (designed, A16): every card not removed from play and not
    waiting in the reserve goes back to its deck (hands too, ``designed.INTERPHASE_GATHERS_HANDS``),
    and both decks are shuffled. ``deck_of`` names each card's deck."""
    pile = state.vars["cards"]
    back: dict[str, list[str]] = {d: list(pile[d]) + list(pile["discard"][d]) for d in DECKS}
    if designed.INTERPHASE_GATHERS_HANDS:
        for side in SIDES:
            for cid in pile["hands"][side]:
                back[deck_of[cid]].append(cid)
            pile["hands"][side] = []
    for d in DECKS:
        pile[d] = shuffle(back[d], dice, f"shuffle-{d}")
        pile["discard"][d] = []
    return [event("decks", event_cards=len(pile["event"]), action_cards=len(pile["action"]),
                  reserve=len(pile["reserve"]), rule="5.2.1")]


def visible_hand(state: State, viewer: str, side: str) -> list[str] | int:
    """4.4: a player sees his own unplayed cards, and of the opponent's only how many."""
    hand = state.vars["cards"]["hands"][side]
    return list(hand) if viewer == side else len(hand)
