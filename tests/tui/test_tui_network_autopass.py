"""Issue 12 item 14 in a networked terminal UI: our empty phases pass by themselves, and the log
says so for both sides. Textual pilot against a real asyncssh host on 127.0.0.1 that the computer
plays."""

from __future__ import annotations

import asyncio
import re

from hexwar.engine.forced import forced_order
from hexwar.net import headless
from hexwar.tui.app import HexwarApp
from hexwar.tui.net_session import NetStart, join_args
from hexwar.tui.screen_game import GameScreen as NetGameScreen  # one game screen; its session is a network one

from test_tui_network import SIZE, in_game, log_text, morobad, start_host, until  # noqa: F401


async def test_issue12_14_network_ui_passes_its_empty_phases_and_logs_both_sides(morobad, tmp_path, monkeypatch):
    (tmp_path / "h").mkdir()
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "g"))
    host = await start_host(tmp_path / "h", morobad, "europeans")
    inv = host.invitation()
    computer = asyncio.ensure_future(headless.play(host.session, 4, level="basic", give_up=30))
    app = HexwarApp(net=NetStart("join", join_args(f"127.0.0.1:{inv['port']}", inv["code"],
                                                   fingerprint=inv["fingerprint"])), theme="default")
    ours = "(Natives has nothing to decide in the"
    theirs = "(Europeans has nothing to decide in the"
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_game(pilot, app)
            net = app.session.net
            automatic: list[tuple[int, str]] = []
            net.subscribe(lambda ev: ev.kind == "applied" and ev.data.get("automatic") and automatic.append(
                (ev.data["record"]["seq"], ev.data["record"]["side"])))
            pressed: set[int] = set()
            # we end the phases where we have a choice; the empty ones must go without a key
            def logged(text: str) -> bool:
                return text in " ".join(log_text(app).split())  # the log wraps long lines

            while not (logged(ours) and logged(theirs)):
                await until(pilot, lambda: net.can_act or net.over, timeout=25, what="our turn")
                assert not net.over, "the match ended before both sides had an empty phase"
                seq = net.match.seq
                if forced_order(net.game) is not None:
                    await until(pilot, lambda: net.match.seq > seq, what="our empty phase to pass by itself")
                    continue
                pressed.add(seq)
                await pilot.press("E")
                await until(pilot, lambda: net.match.seq > seq, what="our end-phase")
            await pilot.pause()
            ours_auto = {seq for seq, side in automatic if side == "natives"}
            assert ours_auto and not ours_auto & pressed  # sent with no key pressed
            words = " ".join(log_text(app).split())  # the log wraps long lines
            assert re.search(r"\(Natives has nothing to decide in the [A-Z][a-z ]+ phase: it passes by itself\)",
                             words), words
            assert net.game.digest() == host.session.game.digest()
    finally:
        computer.cancel()
        host.session.close()
        await host.close()


async def test_issue12_14_a_spectator_ui_logs_the_empty_phases_too(morobad, tmp_path, monkeypatch):
    from hexwar.net.client import Guest
    for d in ("h", "g", "w"):
        (tmp_path / d).mkdir()
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "w"))
    host = await start_host(tmp_path / "h", morobad, "natives")
    inv = host.invitation()
    guest = Guest("127.0.0.1", inv["port"], home=tmp_path / "g", code=inv["code"],
                  fingerprint=inv["fingerprint"], journal=str(tmp_path / "g" / "guest.journal"))
    runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=10))
    app = HexwarApp(net=NetStart("watch", join_args(f"127.0.0.1:{inv['port']}", inv["watch_code"],
                                                    fingerprint=inv["fingerprint"])), theme="default")
    players = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            await asyncio.wait_for(guest.connected.wait(), 15)
            await until(pilot, lambda: isinstance(app.screen, NetGameScreen), what="the spectator screen")
            await pilot.pause()
            players = [asyncio.ensure_future(headless.play(s, 6, level="basic", give_up=10))
                       for s in (host.session, guest.session)]

            def logged() -> str:
                return " ".join(log_text(app).split())

            await until(pilot, lambda: "has nothing to decide in the" in logged(), timeout=40,
                        what="an empty phase in the spectator's log")
            assert re.search(r"\((Natives|Europeans) has nothing to decide in the [A-Z][a-z ]+ phase: "
                             r"it passes by itself\)", logged())
            # a spectator is not told to pick a unit with tab: it names who acts
            preview = app.screen.query_one("#preview")._hexwar_text
            assert "tab" not in preview and " to act" in preview
    finally:
        for p in players:
            p.cancel()
        runner.cancel()
        if guest.session is not None:
            guest.session.close()
        host.session.close()
        await host.close()


async def test_issue12_14_a_key_in_an_empty_phase_is_not_a_second_order(tmp_path, monkeypatch):
    """While our empty phase's order is on its way, E is not sent as well: the notice says the
    phase passes by itself (the automatic sending is held back here to look at that moment)."""
    from hexwar.net.session import Session
    from hexwar.scenarios.loader import load_named
    (tmp_path / "h").mkdir()
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "g"))
    scheduled = Session._schedule_auto_pass
    monkeypatch.setattr(Session, "_schedule_auto_pass", lambda self: None)
    bc = load_named("border-clash")                     # red opens in an empty initiative phase
    host = await start_host(tmp_path / "h", bc, "blue")
    inv = host.invitation()
    app = HexwarApp(net=NetStart("join", join_args(f"127.0.0.1:{inv['port']}", inv["code"],
                                                   fingerprint=inv["fingerprint"])), theme="default")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_game(pilot, app)
            net = app.session.net
            assert net.side == "red" and net.my_turn and forced_order(net.game) is not None
            await pilot.press("E")
            await pilot.pause(0.2)
            assert any("passes by itself" in str(n.message) for n in app._notifications)
            assert net.match.seq == 0 and host.session.match.seq == 0
            scheduled(net)                              # now let it go
            await until(pilot, lambda: host.session.match.seq == 1, what="the automatic order")
            assert net.game.digest() == host.session.game.digest()
    finally:
        host.session.close()
        await host.close()


async def test_issue12_14_an_empty_phase_passed_while_the_screen_opens_is_seen(tmp_path, monkeypatch):
    """The host's empty initiative phase goes the moment the guest connects, often before the
    guest's screen listens: the screen must still know the position it now stands in."""
    from hexwar.scenarios.loader import load_named
    from hexwar.tui.picking import Legal
    (tmp_path / "h").mkdir()
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "g"))
    bc = load_named("border-clash")                     # red opens in an empty initiative phase
    host = await start_host(tmp_path / "h", bc, "red")
    host.session.enable_auto_pass()
    inv = host.invitation()
    app = HexwarApp(net=NetStart("join", join_args(f"127.0.0.1:{inv['port']}", inv["code"],
                                                   fingerprint=inv["fingerprint"])), theme="default")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_game(pilot, app)
            net = app.session.net
            await until(pilot, lambda: net.match.seq >= 1, what="the host's automatic order")
            await pilot.pause(0.3)
            screen = app.screen
            assert screen.legal.orders == Legal(net.game).orders
            words = " ".join(log_text(app).split())
            assert "(Red Kingdom has nothing to decide in the Initiative phase: it passes by itself)" in words
    finally:
        host.session.close()
        await host.close()
