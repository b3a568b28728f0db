"""The session's secret plans: sealing and opening ours (``commit_plan``, ``reveal_plan``), and
the peer's ``seal``/``unseal`` with the checks that bind them to this match and round
(secret_plans.py). A mixin of ``Session`` (session.py)."""

from __future__ import annotations

from typing import Any

from hexwar.engine import Order, secret
from hexwar.engine.orders import Event, IllegalOrderError

from . import secret_plans as sp
from .errors import NotYourTurn, ProtocolViolation
from .handshake import say_bye


class SealedPlans:
    async def commit_plan(self, plan: list[list[Any]], secret_part: bytes | None = None) -> list[Event]:
        """Seal ``plan`` for this round: it is checked against the rules first (a plan that
        could never be revealed is refused now), then only its commitment goes out, bound to
        this match and this seq by the salt (secret_plans.py). Plan and salt stay with us.
        ``secret_part``: the salt's secret, drawn before the plan was made from it (a computer)."""
        game = self.game
        rnd = game.ruleset.secret_round(game)
        if rnd is None or secret.stage(rnd) != "commit" or secret.next_side(rnd) != self.side:
            raise NotYourTurn("no plan of this side is being committed now")
        why = secret.plan_problem(plan) or game.ruleset.plan_problem(game, self.side, plan)
        if why:
            raise IllegalOrderError(why)
        if sp.packed_size(plan) > self.limits.plan_bytes:
            raise IllegalOrderError(f"a plan is at most {self.limits.plan_bytes} bytes")
        seq = self.match.seq
        salt = sp.new_salt(self.match.match_id, seq, secret_part)
        bound = secret.binding(game.scenario.source_hash, rnd["round"], self.side)
        digest = secret.commitment(bound, plan, salt)
        self.sealed.put(rnd["round"], self.side, plan, salt)  # kept before the seal leaves
        return await self._submit(sp.commit_order(bytes.fromhex(digest)))

    async def reveal_plan(self) -> list[Event]:
        """Open the plan this side sealed this round (once every side has committed)."""
        game = self.game
        rnd = game.ruleset.secret_round(game)
        if rnd is None or secret.stage(rnd) != "reveal" or secret.next_side(rnd) != self.side:
            raise NotYourTurn("this side has no plan to reveal now (every side commits first)")
        held = self.sealed.get(rnd["round"], self.side)
        if held is None:
            raise IllegalOrderError(f"this side holds no sealed plan for {rnd['round']}")
        return await self._submit(sp.reveal_order(*held))

    async def _on_seal(self, msg: dict[str, Any]) -> None:
        seq = self._expect_seq(msg["seq"], "seal")
        if await self._too_many_plan_messages("seal"):
            return
        order = sp.commit_order(msg["plan_commit"])
        earlier = sp.seen_commitment(self.match.records, msg["plan_commit"].hex())
        if earlier is not None:
            raise ProtocolViolation(f"seq {seq}: this commitment was already used at seq {earlier}")
        await self._peer_play(seq, order, msg)

    async def _on_unseal(self, msg: dict[str, Any]) -> None:
        seq = self._expect_seq(msg["seq"], "unseal")
        if await self._too_many_plan_messages("unseal"):
            return
        if sp.packed_size(msg["plan"]) > self.limits.plan_bytes:
            raise ProtocolViolation(f"seq {seq}: a plan is at most {self.limits.plan_bytes} bytes")
        order = sp.reveal_order(msg["plan"], msg["salt"])
        theirs = self.match.theirs
        if not (theirs is not None and theirs.seq == seq):  # not a resend of an open exchange
            rnd = self.game.ruleset.secret_round(self.game)
            if rnd is not None and secret.stage(rnd) == "reveal" and secret.next_side(rnd) == self.peer_side:
                why = sp.salt_problem(msg["salt"], self.match.match_id,
                                      sp.seal_seq(self.match.records, self.peer_side))
                why = why or secret.reveal_problem(rnd, self.game.scenario.source_hash, self.peer_side,
                                                   msg["plan"], msg["salt"].hex())
                if why:
                    await self._violation(f"seq {seq}: the plan does not open {self.peer_side}'s "
                                          f"commitment: {why}", "unseal")
                    return
        await self._peer_play(seq, order, msg)

    async def _violation(self, reason: str, kind: str) -> None:
        """A breach of a commitment: refused, said in a ``bye``, and the link closed."""
        self._refused(reason, kind)
        if self.link is not None:
            await say_bye(self.link, f"protocol violation: {reason}"[:500])

    async def _too_many_plan_messages(self, kind: str) -> bool:
        """Count a seal or unseal of this round on this link; past the limit the link ends."""
        rnd = self.game.ruleset.secret_round(self.game)
        key = rnd["round"] if rnd else "-"
        self._plan_messages[key] = n = self._plan_messages.get(key, 0) + 1
        if len(self._plan_messages) > 4:  # only the latest rounds matter
            del self._plan_messages[next(iter(self._plan_messages))]
        if n > self.limits.plan_messages_per_round:
            reason = f"{n} plan messages in one round (at most {self.limits.plan_messages_per_round})"
            await self._violation(reason, kind)
            return True
        return False

    def _check_plan_record(self, seq: int, order: Order) -> None:
        """A resent seal or unseal obeys the same binding as a live one."""
        if order.kind == secret.COMMIT:
            earlier = sp.seen_commitment(self.match.records, str(order.get("digest")))
            if earlier is not None:
                raise ProtocolViolation(f"seq {seq}: this commitment was already used at seq {earlier}")
        elif order.kind == secret.REVEAL:
            why = sp.salt_problem(bytes.fromhex(str(order.get("salt"))), self.match.match_id,
                                  sp.seal_seq(self.match.records, self.peer_side))
            if why:
                raise ProtocolViolation(f"seq {seq}: the plan does not open {self.peer_side}'s commitment: {why}")
