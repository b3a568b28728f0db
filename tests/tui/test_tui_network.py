"""Network play in the terminal UI: the Textual pilot against a real asyncssh peer on 127.0.0.1.

The peer is the same Host / Guest / Session objects ``hexwar host`` and ``hexwar join`` build,
with keys in tmp dirs (HEXWAR_HOME). Either the computer plays it (``headless.play``) or the test
drives it order by order, so each step happens exactly when the test needs it.
"""

from __future__ import annotations

import asyncio
import os
import time

import pytest
from textual.css.query import NoMatches

from hexwar.engine.forced import forced_order
from hexwar.engine.hexgrid import Hex, hex_neighbor
from hexwar.net import headless
from hexwar.net.client import Guest
from hexwar.net.netmatch import NetMatch
from hexwar.net.server import Host
from hexwar.net.session import Session
from hexwar.scenarios.loader import find_scenario, load_scenario
from hexwar.tui.app import HexwarApp
from hexwar.tui.net_session import NetStart, host_args, join_args
from hexwar.tui.screen_game import GameScreen as NetGameScreen  # one game screen; its session is a network one
from hexwar.tui.screen_net_lobby import NetLobbyScreen
from hexwar.tui.picking import Legal
from hexwar.tui.screen_dialogs import AskText, ChooseOrder, Confirm
from hexwar.tui.screen_victory import VictoryScreen

SCENARIO = "attack-on-morobad"  # natives act first (artillery phase, whose end rolls dice)
SIZE = (130, 40)


@pytest.fixture(scope="module")
def morobad():
    return load_scenario(find_scenario(SCENARIO))


async def start_host(home, scenario, side: str) -> Host:
    other = next(s.id for s in scenario.sides if s.id != side)
    match = NetMatch.create(scenario, os.urandom(16), home / "host.journal",
                            players={side: "host", other: "guest"},
                            info={"role": "host", "side": side, "turn_time": 0})
    return await Host(Session(match, side, role="host"), home).start("127.0.0.1", 0)


async def until(pilot, predicate, timeout: float = 15.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await pilot.pause(0.05)


def log_text(app) -> str:
    screen = next(s for s in app.screen_stack if isinstance(s, NetGameScreen))
    log = screen.query_one("#log")
    return "\n".join(line.text for line in log.lines)


def turnbar(app) -> str:
    """The header line; empty while the game screen is pushed but its widgets not yet mounted
    (a loaded machine can poll in between), so ``until`` asks again instead of failing."""
    screen = next(s for s in app.screen_stack if isinstance(s, NetGameScreen))
    try:
        return str(screen.query_one("#turnbar").render())
    except NoMatches:
        return ""


def notes(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def in_game(pilot, app) -> None:
    await until(pilot, lambda: isinstance(app.screen, NetGameScreen) and app.session.connected,
                what="the game screen, connected")
    await pilot.pause()


async def test_guest_ui_against_the_computer_host_moves_by_keys_and_sees_its_orders(
        morobad, tmp_path, monkeypatch):
    (tmp_path / "h").mkdir()
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "g"))
    host = await start_host(tmp_path / "h", morobad, "europeans")
    inv = host.invitation()
    computer = asyncio.ensure_future(headless.play(host.session, 3, give_up=30, order_delay=0.1))
    app = HexwarApp(net=NetStart("join", join_args(f"127.0.0.1:{inv['port']}", inv["code"],
                                                   fingerprint=inv["fingerprint"])), theme="default")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_game(pilot, app)
            net = app.session.net
            assert net.side == "natives" and net.role == "guest"
            assert "your turn" in turnbar(app)
            # the artillery phase ends with a die roll: commit-reveal through the UI
            await pilot.press("E")
            await until(pilot, lambda: host.session.match.seq >= 1, what="the host to apply our order")
            assert "> Natives: end phase" in log_text(app)
            # end our phases (a roll-off may give us the next one) until the computer must act
            while net.my_turn:
                await until(pilot, lambda: net.can_act, what="the link to settle")
                seq = net.match.seq
                if forced_order(net.game) is None:      # an empty phase passes by itself
                    await pilot.press("E")
                await until(pilot, lambda: net.match.seq > seq, what="our end-phase")
            assert "waiting for Europeans" in turnbar(app)
            await pilot.press("E")                     # the opponent's turn: refused, nothing sent
            await pilot.pause()
            assert any(m.startswith("Not your turn") for m in notes(app)), notes(app)
            # the computer plays its phases; its orders arrive; we end phases until we may move
            mine = net.match.seq
            while not (net.can_act and net.game.state.phase == "move"):
                await until(pilot, lambda: net.can_act, timeout=25, what="our turn again")
                if net.game.state.phase != "move":
                    seq = net.match.seq
                    if forced_order(net.game) is None:
                        await pilot.press("E")
                    await until(pilot, lambda: net.match.seq > seq, what="our end-phase")
            await pilot.pause()
            assert net.match.seq > mine
            assert "< Europeans:" in log_text(app)
            assert net.game.digest() == host.session.game.digest()
            # a real move by keys: next unit, one step to a reachable neighbour, enter
            await pilot.press("tab")
            await pilot.pause()
            screen = app.screen
            uid = screen.selected
            assert uid is not None
            start = Hex(*net.game.state.units[uid].hex)
            reach = net.game.reachable(uid)
            step = {"d": 0, "e": 1, "q": 2, "a": 3, "z": 4, "c": 5}  # pointy map: true neighbours
            key, dest = next((k, Hex(*hex_neighbor(start, d))) for k, d in step.items()
                             if tuple(hex_neighbor(start, d)) in reach)
            seq = net.match.seq
            await pilot.press(key, "enter")
            await pilot.pause()
            if isinstance(app.screen, ChooseOrder):    # several ways to get there (facings)
                await pilot.press("enter")
            await until(pilot, lambda: host.session.match.seq > seq, what=f"the host to apply our move {notes(app)}")
            assert Hex(*net.game.state.units[uid].hex) == dest
            assert Hex(*host.session.game.state.units[uid].hex) == dest
            assert host.session.game.digest() == net.game.digest()
    finally:
        computer.cancel()
        host.session.close()
        await host.close()


async def test_host_ui_chat_draw_refusal_disconnect_and_resign(morobad, tmp_path, monkeypatch):
    (tmp_path / "g").mkdir()
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "h"))
    app = HexwarApp(net=NetStart("host", host_args(morobad, "natives", 0, bind="127.0.0.1",
                                                   code="let-me-in-4711")), theme="default")
    guest = runner = None
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, NetLobbyScreen) and app.screen.invitation,
                        what="the invitation")
            lobby = app.screen
            inv = lobby.invitation
            text = lobby.text
            for part in (str(inv["port"]), inv["fingerprint"], "let-me-in-4711",
                         f"hexwar join 127.0.0.1:{inv['port']}", "Waiting for the guest"):
                assert part in text, (part, text)
            guest = Guest("127.0.0.1", inv["port"], home=tmp_path / "g", code="let-me-in-4711",
                          fingerprint=inv["fingerprint"], journal=str(tmp_path / "g" / "guest.journal"))
            runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=5))
            await in_game(pilot, app)
            peer = guest.session
            heard = []
            peer.subscribe(lambda ev: heard.append(ev))

            # chat both ways
            await pilot.press("exclamation_mark")
            assert isinstance(app.screen, AskText)
            await pilot.press(*"hello", "enter")
            await until(pilot, lambda: any(e.kind == "chat" and e.data.get("text") == "hello" for e in heard),
                        what="the guest to hear our chat")
            await peer.chat("hi back")
            await until(pilot, lambda: "[chat] europeans: hi back" in log_text(app), what="their chat")

            # the peer offers a draw; we decline in the dialog
            await peer.offer_draw()
            await until(pilot, lambda: isinstance(app.screen, Confirm), what="the draw dialog")
            await pilot.press("n")
            await until(pilot, lambda: any(e.kind == "draw" and e.data.get("offer") is False for e in heard),
                        what="the guest to hear the refusal")
            assert not app.session.over

            # our order, then one on the opponent's turn: refused with a message, nothing sent
            net = app.session.net
            while net.my_turn:                          # a roll-off may give us the next phase too
                await until(pilot, lambda: net.can_act, what="the link to settle")
                seq = net.match.seq
                if forced_order(net.game) is None:      # an empty phase passes by itself
                    await pilot.press("E")
                await until(pilot, lambda: peer.match.seq > seq, what="the guest to apply our end-phase")
            seq = net.match.seq
            assert "waiting for Europeans" in turnbar(app)
            await pilot.press("E")
            await pilot.pause()
            assert any(m.startswith("Not your turn: waiting for Europeans") for m in notes(app)), notes(app)
            await pilot.pause(0.2)
            assert net.match.seq == peer.match.seq == seq

            # the peer ends its phases; then it goes away on our turn
            while peer.game.to_act() == peer.side:
                await peer.submit(Legal(peer.game).phase_enders()[0])
            await until(pilot, lambda: app.session.my_turn and app.session.net.can_act, what="our turn")
            runner.cancel()
            peer.close()
            await until(pilot, lambda: not app.session.connected, what="the disconnect")
            await pilot.pause()
            assert "opponent disconnected — reconnecting…" in turnbar(app)
            seq = app.session.net.match.seq
            await pilot.press("E")
            await pilot.pause()
            assert any("opponent is disconnected" in m for m in notes(app)), notes(app)
            assert app.session.net.match.seq == seq
            await pilot.press("u")
            await pilot.pause()
            assert any(m.startswith("No undo in network games") for m in notes(app))
            await pilot.press("question_mark")
            help_text = str(app.screen.query_one("#help-text").render())
            assert "network: chat" in help_text and "resign the game" in help_text
            await pilot.press("escape")

            # resign, confirmed: the victory screen names the opponent
            await pilot.press("R")
            assert isinstance(app.screen, Confirm)
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, VictoryScreen), what="the victory screen")
            result = str(app.screen.query_one("#result").render())
            assert "Europeans wins" in result and "natives resigned" in result
    finally:
        if runner is not None:
            runner.cancel()
        if guest is not None and guest.session is not None:
            guest.session.close()


async def test_spectator_ui_is_read_only(morobad, tmp_path, monkeypatch):
    for d in ("h", "g", "w"):
        (tmp_path / d).mkdir()
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "w"))
    host = await start_host(tmp_path / "h", morobad, "natives")
    inv = host.invitation()
    guest = Guest("127.0.0.1", inv["port"], home=tmp_path / "g", code=inv["code"],
                  fingerprint=inv["fingerprint"], journal=str(tmp_path / "g" / "guest.journal"))
    runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=5))
    await asyncio.wait_for(guest.connected.wait(), 15)
    await host.session.wait_until(lambda: host.session.can_act, timeout=10)
    await host.session.submit(Legal(host.session.game).phase_enders()[0])   # one order of history
    app = HexwarApp(net=NetStart("watch", join_args(f"127.0.0.1:{inv['port']}", inv["watch_code"],
                                                    fingerprint=inv["fingerprint"])), theme="default")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, NetGameScreen), what="the spectator screen")
            await until(pilot, lambda: app.session.game.state.seq == 1, what="the history")
            await until(pilot, lambda: turnbar(app).startswith("SPECTATING (read-only)"), what="the banner")
            await pilot.press("E")
            await pilot.pause()
            assert any(m.startswith("Spectating") for m in notes(app)), notes(app)
            assert host.session.match.seq == 1
            await host.session.chat("welcome")
            await until(pilot, lambda: "[chat] natives: welcome" in log_text(app), what="chat to spectators")
            actor = host.session if host.session.my_turn else guest.session   # after a roll-off
            await actor.wait_until(lambda: actor.can_act, timeout=10)
            await actor.submit(Legal(actor.game).phase_enders()[0])
            await until(pilot, lambda: app.session.game.state.seq == 2, what="a live order")
            assert f"< {actor.side.capitalize()}: end phase" in log_text(app)
            assert app.session.game.digest() == host.session.game.digest()
            await guest.session.resign()
            await until(pilot, lambda: isinstance(app.screen, VictoryScreen), what="the end")
            assert "Natives wins" in str(app.screen.query_one("#result").render())
    finally:
        runner.cancel()
        if guest.session is not None:
            guest.session.close()
        host.session.close()
        await host.close()


async def test_main_menu_host_shows_the_invitation_and_join_connects(morobad, tmp_path, monkeypatch):
    from hexwar.scenarios.loader import builtin_paths
    from hexwar.tui.screen_menu import MenuScreen
    for d in ("h", "g", "ui"):
        (tmp_path / d).mkdir()
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "ui"))
    index = [load_scenario(p).id for p in builtin_paths()].index(SCENARIO)
    host = await start_host(tmp_path / "h", morobad, "europeans")
    inv = host.invitation()
    app = HexwarApp(save=False, theme="default")
    try:
        async with app.run_test(size=SIZE) as pilot:
            # Host: scenario, side, port 0 -> the invitation; esc gives up and closes the port
            await pilot.press("down", "down", "down", "enter")
            await pilot.pause()
            await pilot.press("home", *["down"] * index, "enter")
            await pilot.pause()
            await pilot.press("down", "enter")         # the second side: natives
            await pilot.pause()
            assert isinstance(app.screen, AskText)
            await pilot.press("backspace", "backspace", "backspace", "backspace", "0", "enter")
            await until(pilot, lambda: isinstance(app.screen, NetLobbyScreen) and app.screen.invitation,
                        what="the invitation")
            lobby = app.screen
            assert lobby.invitation["host_side"] == "natives"
            assert "hexwar join" in lobby.text and lobby.invitation["code"] in lobby.text
            port = lobby.invitation["port"]
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), what="the menu")
            with pytest.raises(OSError):
                await asyncio.open_connection("127.0.0.1", port)
            # Join: address and code typed into the menu's dialogs
            await pilot.press("down", "enter")
            await pilot.pause()
            await pilot.press(*f"127.0.0.1:{inv['port']}", "enter")
            await pilot.pause()
            await pilot.press(*inv["code"], "enter")
            await in_game(pilot, app)
            assert app.session.net.side == "natives" and host.session.connected
            assert "your turn" in turnbar(app)
    finally:
        host.session.close()
        await host.close()
