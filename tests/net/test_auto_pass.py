"""Issue 12 item 14 over the network: a phase with nothing to decide passes by itself.

The lockstep rule: the peer the engine names as to act sends the only possible order as an
ordinary order; the other peer only waits, and refuses such an order from a peer whose turn it is
not. Every peer and spectator asks the engine, of the position before each order, whether it was
the only one, so all logs mark the same orders as having passed by themselves.
Real asyncssh on 127.0.0.1.
"""

from __future__ import annotations

import asyncio

from hexwar.engine import Game, Order
from hexwar.engine.forced import forced_order
from hexwar.engine.levels import computer_for
from hexwar.journal import read_journal
from hexwar.net import headless
from hexwar.net.client import Guest, Watcher
from hexwar.net.errors import NotYourTurn, PeerGone

from netkit import Hostile, guest_for, load, start_host


class RecordingGuest(Guest):
    """A guest whose session's events are kept from its very first one."""

    seen: list

    def _new_session(self, *args):  # noqa: ANN001, ANN202
        session = super()._new_session(*args)
        self.seen = []
        session.subscribe(self.seen.append)
        return session


async def play_only_real_choices(session, seed: int) -> None:
    """A player that never gives the order of an empty phase: if its session did not send it by
    itself, the match would stall here."""
    computer = computer_for("basic", f"{seed}:{session.side}")

    def may_choose() -> bool:
        return session.can_act and forced_order(session.game) is None

    while not session.stopped:
        await session.wait_until(lambda: session.stopped or may_choose(), timeout=1.0)
        if session.stopped or not may_choose():
            continue
        try:
            await session.submit(computer.choose(session.game.copy()))
        except (PeerGone, NotYourTurn):
            continue


def expected_passes(scenario, journal) -> dict[int, str]:
    """seq -> side, for every order that was the only one its position allowed (by replay)."""
    game = Game(scenario)
    out = {}
    from hexwar.engine import Dice, order_seed
    contents = read_journal(journal)
    match_id = contents.header["match"]
    for rec in (r for r in contents.records if r["type"] == "order"):
        order = Order.from_wire(rec["order"])
        if forced_order(game) == order:
            out[rec["seq"]] = rec["side"]
        dice = Dice(order_seed(match_id, rec["seq"], *rec["nonces"])) if rec["nonces"] else None
        game.apply(order, dice, rec["side"])
    return out


def automatic_seqs(events) -> dict[int, str]:
    return {int(ev.text.split(":")[0]): ev.text.split(" ")[1] for ev in events
            if ev.kind == "applied" and ev.data.get("automatic")}


async def test_issue12_14_an_empty_phase_passes_by_itself_between_two_peers_and_a_spectator(tmp_path):
    scenario = load()  # attack-on-morobad: empty phases on both sides, some of whose ends roll dice
    host = await start_host(tmp_path / "h", scenario, side="natives")
    host.session.auto_pass = True
    host_seen: list = []
    host.session.subscribe(host_seen.append)
    inv = host.invitation()
    guest = RecordingGuest("127.0.0.1", inv["port"], home=tmp_path / "g", code=inv["code"],
                           fingerprint=inv["fingerprint"], journal=str(tmp_path / "g" / "guest.journal"))
    watcher = Watcher("127.0.0.1", host.port, home=tmp_path / "w", code=inv["watch_code"])
    watcher_seen: list = []
    try:
        watching = asyncio.ensure_future(watcher.run(watcher_seen.append))
        runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=30))
        await asyncio.wait_for(guest.connected.wait(), 20)
        both = asyncio.gather(play_only_real_choices(host.session, 5),
                              headless.play(guest.session, 5, level="basic", give_up=30))
        _, gs = await asyncio.wait_for(both, 180)
        await asyncio.wait_for(runner, 30)
        await asyncio.wait_for(watching, 30)
    finally:
        await host.close()
    assert host.session.finished and gs["status"] == "finished"
    assert host.session.game.digest() == gs["digest"] == watcher.game.digest()
    expected = expected_passes(scenario, host.session.match.journal_path)
    sides = set(expected.values())
    assert sides == {"natives", "europeans"}, expected  # both peers had empty phases
    # the same orders, and only those, are marked as passing by themselves on every side
    assert automatic_seqs(host_seen) == expected
    assert automatic_seqs(guest.seen) == expected
    assert automatic_seqs(watcher_seen) == expected
    # an end-phase given where there was a choice is never marked as one
    ends = {ev.data["record"]["seq"] for ev in host_seen
            if ev.kind == "applied" and Order.from_wire(ev.data["record"]["order"]).kind == "end-phase"}
    assert ends - set(expected), "the game had no chosen end of phase to tell apart"


async def test_issue12_14_only_the_side_to_act_sends_the_automatic_order(tmp_path):
    """The other side only waits: an empty phase's order sent for the side to act is refused."""
    scenario = load("border-clash")  # turn 1 opens in red's empty initiative phase
    host = await start_host(tmp_path / "h", scenario, side="red")
    hostile = Hostile(host, tmp_path / "g", code=host.invitation()["code"])
    try:
        await hostile.connect()
        game = host.session.game
        only = forced_order(game)
        assert game.to_act() == "red" and only is not None and only.kind == "end-phase"
        replies = await hostile.exchange({"type": "order", "seq": 0, "order": only.to_wire(),
                                          "commit": b"\x00" * 32})
        assert any(r.get("type") == "error" and "not your turn" in r.get("reason", "") for r in replies), replies
        assert host.session.match.seq == 0 and host.session.refused == 1
        # the side to act sends it by itself once its player's UI lets it
        host.session.enable_auto_pass()
        sent = await asyncio.wait_for(hostile.link.recv(), 10)
        assert sent["type"] == "order" and sent["seq"] == 0
        assert Order.from_wire(sent["order"]) == only and "commit" in sent  # it rolls initiative
    finally:
        hostile.close()
        host.session.close()
        await host.close()
