"""The NPWS ruleset object: what the engine's ``Game`` asks of a rule system, answered from the
rules core (``stacking``, ``pieces``, ``ledger`` ...) and the designed sequence of play
(``turn``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from hexwar.engine.orders import Order
from hexwar.engine.ruleset import Resolution, Ruleset, dry_run_rolls
from hexwar.engine.state import State

from . import ledger, pieces, setup, turn, words
from .facts import STACKING_LIMIT

if TYPE_CHECKING:
    from hexwar.engine.ruleset import Position
    from hexwar.engine.scenario import Scenario


class NpwsRuleset(Ruleset):
    id = "npws"
    title = "No Peace Without Spain! / Nine Years (area map, seed 004)"
    unit_types = {
        "leader": {"strength": 1, "front_kind": "famous", "back_kind": "minor",
                   "front_stripe": True, "back_stripe": False},
        "corps": {"strength": 2},
    }
    terrain_types = {
        "fertile": f"stacking limit {STACKING_LIMIT['fertile']} corps per player (4.1.1)",
        "normal": f"stacking limit {STACKING_LIMIT['normal']} corps per player (4.1.1)",
        "poor": f"stacking limit {STACKING_LIMIT['poor']} corps per player (4.1.1)",
    }
    phase_names = turn.PHASE_NAMES

    def check_scenario(self, scenario: "Scenario") -> list[str]:
        return setup.check(scenario)

    def initial_state(self, scenario: "Scenario") -> State:
        return setup.initial_state(scenario)

    def legal_orders(self, game: "Position") -> Iterator[Order]:
        if game.state.result is not None:
            return iter(())
        return turn.legal(game)

    def validate(self, game: "Position", order: Order) -> str | None:
        return turn.problem(game, order)

    def needs_dice(self, game: "Position", order: Order) -> bool:
        """Exact (issue 29): the kinds that may roll, then a dry run says whether this one does."""
        return self.may_roll(game, order) and dry_run_rolls(game, order)

    def may_roll(self, game: "Position", order: Order) -> bool:
        # forming the decks, every step into a new phase (a new year's Event Phase shuffles
        # and may roll for the KWW track), a siege, a battle accepted or avoided, an interception
        return order.kind in ("start", "end-phase", "siege", "accept", "avoid", "intercept")

    def resolve(self, ctx: Resolution, order: Order) -> None:
        turn.resolve(ctx, order)

    def unit_card(self, game: "Position", unit_id: str) -> list[tuple[str, str]]:
        return words.unit_card(game, unit_id)

    def why_not(self, game: "Position", unit_id: str, hex) -> str | None:  # noqa: ANN001
        return words.why_not(game, unit_id, hex)

    def player_aid(self, game: "Position") -> list[tuple[str, list[str]]]:
        return words.player_aid(game)

    def zoc_hexes(self, game: "Position", side: str) -> list:
        return []  # no zones of control on an area map

    def status_lines(self, game: "Position", side: str) -> list[str]:
        state = game.state
        v = state.vars
        return [f"year {v['year']}, {turn.PHASE_NAMES.get(state.phase, state.phase)}",
                f"Alliance VP {ledger.vp(state)} (0-35)",
                f"Mediterranean: {v['sea'].get('med', '-') or 'nobody'}"]

    def ai_orders(self, game: "Position") -> Iterator[tuple[int, Order]]:
        """A simple designed scoring: never resign; march where the march converts the most
        VP, toward the enemy's spaces; play the best card rather than pass; spend the
        reinforcement points."""
        state, board = game.state, game.map
        side = state.active
        for o in self.legal_orders(game):
            k = o.kind
            if k == "resign":
                yield -1000, o
            elif k == "siege":
                yield 30 + 10 * board.space(state.units[o.get("unit")].hex).fort, o
            elif k == "march":
                gain = 0
                for sid in o.get("path")[1:]:
                    sp = board.space(sid)
                    if not sp.fort and ledger.controller(state, sid) not in ("", side):
                        gain += 10 * ledger.space_vp(sp) + 1
                yield gain + len(o.get("path")), o
            elif k == "play":
                yield 5 + int(turn.card(game, o.get("card")).get("value", 1)), o
            elif k == "avoid":  # try to avoid a fight the numbers say would be lost
                p = state.pending[0]
                attacker = state.units[p["attacker"]]
                theirs = pieces.corps_dice(pieces.corps_of(state, p["space"], attacker.side))
                mine = pieces.corps_dice(pieces.corps_of(state, p["space"], p["side"]))
                yield theirs - mine, o
            elif k == "intercept":  # intercept when the interceptor outnumbers the marcher
                p = state.pending[0]
                marcher = state.units[p["marcher"]]
                lead = state.units[o.get("unit")]
                theirs = pieces.corps_dice(pieces.corps_of(state, p["space"], marcher.side))
                mine = pieces.corps_dice(pieces.corps_of(state, lead.hex, lead.side))
                yield mine - theirs, o
            elif k == "reduce":  # keep full the corps of the power with fewest full corps
                yield sum(1 for c in state.units.values() if c.kind == "corps" and c.strength == 2
                           and c.stat("power") == state.units[o.get("unit")].stat("power")), o
            elif k in ("promote", "restore", "place"):
                yield 20, o
            elif k == "pass":
                yield -5, o
            else:
                yield 0, o

    def evaluate(self, game: "Position", side: str) -> int:
        """VP toward ``side`` (the track is the Alliance's), then the strength of its corps."""
        state = game.state
        from .facts import SIGN
        score = 100 * SIGN.get(side, 0) * (ledger.vp(state) - 15)
        for u in state.units.values():
            if u.kind == "corps" and u.hex is not None:
                score += u.strength if u.side == side else -u.strength
        return score


RULESET = NpwsRuleset()
