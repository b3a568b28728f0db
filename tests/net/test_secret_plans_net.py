"""Secret plans over real SSH: two headless computer peers play the campaign (engine/secret.py).

Commitments and reveals are ordinary orders, so lockstep carries them. These show that neither
journal nor a spectator's stream holds a plan before both commitments of its turn, that both
journals verify, and that a peer's reveal which does not open its commitment is refused."""

from __future__ import annotations

import asyncio

from hexwar.cli import main as hexwar_main
from hexwar.engine import secret
from hexwar.net.client import Watcher
from hexwar.scenarios.loader import find_scenario, load_scenario

from netkit import guest_for, order_records, play_match, start_host


def _plans_after_both_commits(path, sides) -> int:
    commits: list[str] = []
    reveals = 0
    for rec in order_records(path):
        kind = rec["order"]["k"]
        if kind == secret.COMMIT:
            assert set(rec["order"]["a"]) == {"digest"}
            commits.append(rec["side"])
        elif kind == secret.REVEAL:
            assert sorted(commits[-2:]) == sorted(sides), "a plan before both commitments"
            reveals += 1
    return reveals


async def test_g19_two_peers_play_bir_hakeim_with_sealed_plans(tmp_path):
    scenario = load_scenario(find_scenario("bir-hakeim"))
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    inv = host.invitation()
    watcher = Watcher("127.0.0.1", inv["port"], home=tmp_path / "w", code=inv["watch_code"],
                      fingerprint=inv["fingerprint"])
    seen: list[str] = []
    try:
        watching = asyncio.ensure_future(watcher.run(
            lambda e: seen.append(e.text) if e.kind == "applied" else None))
        hs, gs = await play_match(host, guest, seed=2, give_up=60.0)
        summary = await asyncio.wait_for(watching, 20)
    finally:
        await host.close()
    # the spectator's stream: every reveal comes after both commitments of its round
    assert summary["problems"] == [] and summary["digest"] == hs["digest"]
    commits = 0
    for text in seen:
        if f" {secret.COMMIT} " in text:
            assert "posture" not in text
            commits += 1
        elif f" {secret.REVEAL} " in text:
            assert commits % 2 == 0 and commits > 0, text
    assert commits >= 2
    assert hs["status"] == gs["status"] == "finished"
    assert hs["digest"] == gs["digest"] and hs["refused"] == gs["refused"] == 0
    sides = [s.id for s in scenario.sides]
    assert _plans_after_both_commits(hs["journal"], sides) >= 2
    assert _plans_after_both_commits(gs["journal"], sides) >= 2
    assert hexwar_main(["replay", "--verify", hs["journal"]]) == 0
    assert hexwar_main(["replay", "--verify", gs["journal"]]) == 0


async def test_g19_a_wrong_reveal_from_the_peer_is_refused_and_changes_nothing(tmp_path):
    """The guest speaks the protocol by hand: after both commitments it reveals a plan other than
    the one it committed to; the host refuses it with the engine's reason, and then accepts the
    right reveal."""
    import hashlib
    import os

    from hexwar.engine import Order, nonce_commitment
    from hexwar.net.protocol import short_digest

    from netkit import Hostile

    scenario = load_scenario(find_scenario("bir-hakeim"))
    host = await start_host(tmp_path / "h", scenario, side="british")  # the SI side acts first
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    session = host.session

    async def answer_host(task):
        """Play the peer's part for the host's own orders until ``task`` (a submit) is done."""
        while not task.done():
            try:
                frame = await asyncio.wait_for(hostile.link.recv(), 0.5)
            except asyncio.TimeoutError:
                continue
            if frame.get("type") == "order" and "commit" in frame:
                await hostile.send({"type": "nonce", "seq": frame["seq"], "nonce": os.urandom(16)})
            elif frame.get("type") in ("order", "reveal") and "digest" in frame:
                await hostile.send({"type": "ack", "seq": frame["seq"], "digest": frame["digest"]})
        await task

    async def host_plays(order):
        await answer_host(asyncio.ensure_future(session.submit(order)))
        # the last reveal/order of the host still wants its ack
        await hostile.exchange()

    async def guest_plays(order):
        trial = session.game.copy()
        trial.apply(order, None, "german")
        replies = await hostile.exchange({"type": "order", "seq": session.match.seq,
                                          "order": order.to_wire(), "digest": short_digest(trial.digest())})
        assert not [r for r in replies if r.get("type") == "error"], replies
        return replies

    try:
        await hostile.connect()
        await hostile.exchange()
        assert await session.wait_until(lambda: session.connected, 5)
        await host_plays(Order.make("start"))
        await host_plays(Order.make("end-phase"))
        await guest_plays(Order.make("end-phase"))
        assert session.game.state.phase == "plan"
        rnd = session.game.state.vars["secret"]
        north = [["posture", "cautious"]]
        bound = secret.binding(scenario.source_hash, rnd["round"], "british")
        salt_b = os.urandom(16)
        await host_plays(Order.make(secret.COMMIT, digest=secret.commitment(bound, north, salt_b)))
        mine = [["posture", "counter_attacks"]]
        salt = hashlib.blake2b(b"guest", digest_size=16).digest()
        bound_g = secret.binding(scenario.source_hash, rnd["round"], "german")
        await guest_plays(Order.make(secret.COMMIT, digest=secret.commitment(bound_g, mine, salt)))
        await host_plays(Order.make(secret.REVEAL, plan=north, salt=salt_b.hex()))
        before = (session.match.seq, session.game.digest())
        wrong = Order.make(secret.REVEAL, plan=[["posture", "hard_defence"]], salt=salt.hex())
        replies = await hostile.exchange({"type": "order", "seq": session.match.seq,
                                          "order": wrong.to_wire(), "commit": nonce_commitment(os.urandom(16))})
        errors = [r for r in replies if r.get("type") == "error"]
        assert errors and "does not match its commitment" in errors[0]["reason"]
        assert (session.match.seq, session.game.digest()) == before
        # the right reveal goes through the ordinary dice exchange and is accepted
        from hexwar.engine import Dice, order_seed
        right = Order.make(secret.REVEAL, plan=mine, salt=salt.hex())
        nonce_a = os.urandom(16)
        seq = session.match.seq
        replies = await hostile.exchange({"type": "order", "seq": seq, "order": right.to_wire(),
                                          "commit": nonce_commitment(nonce_a)})
        nonce_b = next(r for r in replies if r["type"] == "nonce")["nonce"]
        trial = session.game.copy()
        trial.apply(right, Dice(order_seed(session.match.match_id, seq, nonce_a, nonce_b)), "german")
        good = short_digest(trial.digest())
        replies = await hostile.exchange({"type": "reveal", "seq": seq, "nonce": nonce_a, "digest": good})
        assert {"type": "ack", "seq": seq, "digest": good} in replies
        assert session.game.state.phase == "execute" and session.game.digest() == trial.digest()
    finally:
        hostile.close()
        await host.close()
