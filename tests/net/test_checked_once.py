"""The peer's order is checked once (issue 29): the session's legality check is remembered for
that position (``Game.vet``), so asking whether it rolls and resolving it into the journal do
not validate it again; a Napoleonica order the dry run resolved without a roll is not resolved
a second time. Counted on the host of a real SSH match while a hand-driven guest sends orders."""

from __future__ import annotations

import pytest

from hexwar.engine import Game
from hexwar.engine.rulesets import get_ruleset
from hexwar.net import protocol

from netkit import Hostile, load, start_host


def _count(monkeypatch, ruleset, name: str) -> list[int]:
    calls = [0]
    real = getattr(ruleset, name)

    def counted(*args, **kw):
        calls[0] += 1
        return real(*args, **kw)
    monkeypatch.setattr(ruleset, name, counted)
    return calls


@pytest.mark.parametrize("name", ["attack-on-morobad", "napoleonica-brigade"])
async def test_the_peers_plain_order_is_validated_and_resolved_once(tmp_path, monkeypatch, name):
    scenario = load(name)
    guest_side = Game(scenario).to_act()  # the guest acts first
    host = await start_host(tmp_path / "h", scenario,
                            side=next(s.id for s in scenario.sides if s.id != guest_side))
    session = host.session
    peer = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await peer.connect()
        assert await session.wait_until(lambda: session.connected, 5)
        ruleset = get_ruleset(scenario.ruleset)
        checked = 0
        for _ in range(40):  # the guest's plain orders, while it is the guest's turn
            game = session.game
            if game.to_act() != guest_side:
                break
            order = next(o for o in game.legal_orders() if not game.needs_dice(o))
            trial = game.copy()
            trial.apply(order, None, guest_side)
            validate = _count(monkeypatch, ruleset, "validate")
            resolve = _count(monkeypatch, ruleset, "resolve")
            replies = await peer.exchange({"type": "order", "seq": session.match.seq, "order": order.to_wire(),
                                           "digest": protocol.short_digest(trial.digest())})
            monkeypatch.undo()
            assert not [r for r in replies if r.get("type") == "error"], replies
            assert session.game.digest() == trial.digest()
            assert validate[0] == 1, f"{order.to_text()}: validated {validate[0]} times"
            assert resolve[0] == 1, f"{order.to_text()}: resolved {resolve[0]} times"
            checked += 1
        assert checked > 0
    finally:
        peer.close()
        await host.close()
