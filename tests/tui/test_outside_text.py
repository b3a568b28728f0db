"""Text from outside the process is shown as text (issue 27, findings 2 and 3).

A peer's chat over a real network game (``hexwar host`` in the UI, a guest over SSH on
127.0.0.1), the served lobby's names and the command line's ``describe``: markup is not parsed
(``[/bold]`` crashed the opponent's UI, ``[@click=...]`` ran an action that wrote a file),
links are not made, and terminal escapes and bidi controls never reach the screen.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from hexwar.net.client import Guest
from hexwar.plaintext import BIDI_CONTROLS, plain_line, plain_text
from hexwar.scenarios.loader import find_scenario, load_scenario
from hexwar.tui.app import HexwarApp
from hexwar.tui.net_session import NetStart, host_args
from hexwar.tui.screen_game import GameScreen
from hexwar.tui.screen_net_lobby import NetLobbyScreen

SIZE = (130, 40)
OSC52 = "\x1b]52;c;aGV4d2FyIG93bnMgeW91\x07clip"      # sets the clipboard in xterm-like terminals
BIDI = "abc\u202edcba\u2066x\u2069"


def hostile_lines(folder) -> dict[str, str]:
    """The chat lines of the audit: what each must read as once shown."""
    click = f"[@click=app.screenshot('x','{folder}')]x[/]"
    return {"bold": "[/bold]", "click": click, "link": "[link=file:///etc/passwd]x[/link]",
            "osc52": OSC52, "bidi": BIDI}


def shown(line: str) -> str:
    """What the screen must show for a hostile line: every printable character as typed."""
    return "".join(ch for ch in line if ch.isprintable() and ch not in BIDI_CONTROLS)


# --- the function --------------------------------------------------------------------------------

def test_plain_text_drops_terminal_escapes_and_keeps_the_rest():
    assert plain_text(OSC52) == "]52;c;aGV4d2FyIG93bnMgeW91clip"
    assert plain_text("\x1b[2J\x1b[31mred") == "[2J[31mred"
    assert plain_text("a\x9b31mb\x85c") == "a31mbc"                 # C1: CSI and NEL
    assert plain_text("bell\x07 back\x08space\x7f") == "bell backspace"


def test_plain_text_keeps_newlines_and_turns_tabs_and_separators_into_text():
    assert plain_text("one\ntwo\r\nthree\rfour") == "one\ntwo\nthreefour"
    assert plain_text("a\tb") == "a b"
    assert plain_text("a\u2028b\u2029c") == "a\nb\nc"
    assert plain_line("one\ntwo") == "one two"


def test_plain_text_drops_every_bidi_control():
    for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c":
        assert plain_text(f"a{ch}b") == "ab", hex(ord(ch))
    assert plain_text(BIDI) == "abcdcbax"


def test_plain_text_leaves_markup_and_other_scripts_as_written():
    for line in ("[/bold]", "[link=file:///etc/passwd]x[/link]", "[@click=app.quit]q[/]"):
        assert plain_text(line) == line
    assert plain_text("Карл XII · Полтава ⚄ →") == "Карл XII · Полтава ⚄ →"
    assert plain_text(42) == "42"


# --- a peer's chat over a real network game ------------------------------------------------------

@pytest.fixture(scope="module")
def morobad():
    return load_scenario(find_scenario("attack-on-morobad"))


async def until(pilot, predicate, timeout: float = 15.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await pilot.pause(0.05)


def log_text(app) -> str:
    """The game log as one string (its lines are wrapped where a space was: joined again)."""
    from textual.css.query import NoMatches
    screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
    try:
        return "".join(line.text for line in screen.query_one("#log").lines)
    except NoMatches:  # pushed, not yet mounted
        return ""


def screen_text(app) -> str:
    """Every character the top screen draws, toasts included, as the terminal would get them."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def assert_no_control(text: str) -> None:
    for bad in ("\x1b", "\x07", "\x9b", *BIDI_CONTROLS):
        assert bad not in text, repr(bad)


def chat_toasts(app) -> list:
    from textual.widgets._toast import Toast
    return [t for t in app.screen.query(Toast) if t._notification.title == "chat"]


@pytest.mark.parametrize("kind", ["bold", "click", "link", "osc52", "bidi"])
async def test_a_peers_chat_is_shown_as_text_and_does_nothing(kind, morobad, tmp_path, monkeypatch):
    """The host's UI hears the guest's chat: the log line and the toast read as the text was
    typed (less control characters), clicking it writes nothing, and the UI goes on."""
    (tmp_path / "g").mkdir()
    shots = tmp_path / "shots"
    shots.mkdir()
    line = hostile_lines(shots)[kind]
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "h"))
    app = HexwarApp(net=NetStart("host", host_args(morobad, "natives", 0, bind="127.0.0.1",
                                                   code="let-me-in-4711")), theme="default")
    guest = runner = None
    try:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await until(pilot, lambda: isinstance(app.screen, NetLobbyScreen) and app.screen.invitation,
                        what="the invitation")
            inv = app.screen.invitation
            guest = Guest("127.0.0.1", inv["port"], home=tmp_path / "g", code="let-me-in-4711",
                          fingerprint=inv["fingerprint"], journal=str(tmp_path / "g" / "guest.journal"))
            runner = asyncio.ensure_future(guest.run(retry_delay=0.1, give_up=5))
            await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.session.connected,
                        what="the game screen, connected")
            await until(pilot, lambda: "network game: you play" in log_text(app), what="the screen to listen")
            await guest.session.chat(line)
            expected = f"[chat] europeans: {shown(line)}"
            await until(pilot, lambda: "[chat] europeans:" in log_text(app), what="the chat line in the log")
            await until(pilot, lambda: chat_toasts(app), what="the chat toast")
            await pilot.pause()
            toast = chat_toasts(app)[-1]
            rendered = toast.render()
            drawn = screen_text(app)
            # a player clicks where the text is: the first character of the message line
            content = toast.content_region
            await pilot.click(offset=(content.x + len("europeans: "), content.y + 1))
            await pilot.pause(0.3)
            assert list(shots.iterdir()) == []
            assert expected in log_text(app)
            assert rendered.plain == f"chat\neuropeans: {shown(line)}"
            for span in getattr(rendered, "spans", []):        # no action, no link in the toast
                assert "@click" not in str(span.style) and "link" not in str(span.style)
            assert_no_control(drawn)
            assert app.is_running and isinstance(app.screen, GameScreen)
            # and the game goes on: the UI still answers a key
            await pilot.press("question_mark")
            await pilot.pause()
            assert "network: chat" in str(app.screen.query_one("#help-text").render())
            await pilot.press("escape")
        assert app.return_code in (0, None)
    finally:
        if runner is not None:
            runner.cancel()
        if guest is not None and guest.session is not None:
            guest.session.close()
    assert list(shots.iterdir()) == []


def hostile_scenario(folder):
    """attack-on-morobad as a modified host could send it: its title holds an action link and an
    OSC 52 escape, a side's name a bidi override (the loader takes any string)."""
    source = find_scenario("attack-on-morobad").read_text(encoding="utf-8")
    head, sep, rest = source.partition('title = "')
    title, _, rest = rest.partition('"')
    click = f"[@click=app.screenshot('x','{folder}')]{title}[/]"
    hostile = head + sep + "\\u001b]52;c;aGk=\\u0007" + click + '"' + rest
    hostile = hostile.replace('name = "Europeans"', 'name = "Euro\\u202epeans"', 1)
    path = folder.parent / "hostile.toml"
    path.write_text(hostile, encoding="utf-8")
    return load_scenario(path), title


async def test_a_hosts_scenario_is_shown_as_text_on_the_guests_screen(tmp_path, monkeypatch):
    """The scenario travels from the host: the guest's game screen shows its title and side
    names as plain text (no escape, no bidi control, no action), and the guest plays on."""
    import os

    from hexwar.net.netmatch import NetMatch
    from hexwar.net.server import Host
    from hexwar.net.session import Session
    from hexwar.tui.net_session import join_args

    shots = tmp_path / "shots"
    for d in ("h", "g", "shots"):
        (tmp_path / d).mkdir()
    scenario, title = hostile_scenario(shots)
    assert "\x1b" in scenario.title and "\u202e" in scenario.sides[0].name + scenario.sides[1].name
    match = NetMatch.create(scenario, os.urandom(16), tmp_path / "h" / "host.journal",
                            players={"europeans": "host", "natives": "guest"},
                            info={"role": "host", "side": "europeans", "turn_time": 0})
    host = await Host(Session(match, "europeans", role="host"), tmp_path / "h").start("127.0.0.1", 0)
    inv = host.invitation()
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "g"))
    app = HexwarApp(net=NetStart("join", join_args(f"127.0.0.1:{inv['port']}", inv["code"],
                                                   fingerprint=inv["fingerprint"])), theme="default")
    try:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.session.connected,
                        what="the game screen, connected")
            await until(pilot, lambda: "network game: you play" in log_text(app), what="the screen to listen")
            await pilot.pause()
            assert "\x1b" in app.session.game.scenario.title        # the words arrived as sent
            drawn = screen_text(app)
            assert_no_control(drawn)
            assert_no_control(log_text(app))
            assert "you play Natives against Europeans" in log_text(app)
            bar = str(app.screen.query_one("#turnbar").render())
            assert "you: Natives" in bar
            await pilot.click("#turnbar")                            # where the title is drawn
            await pilot.press("question_mark")
            await pilot.pause()
            assert "network: chat" in str(app.screen.query_one("#help-text").render())
            await pilot.press("escape")
    finally:
        host.session.close()
        await host.close()
    assert list(shots.iterdir()) == []


# --- the served lobby, where other players' names appear -----------------------------------------

def lobby_row(name: str, **kw):
    base = {"id": "ab", "scenario": "border-clash", "turn": 3, "seats": {"red": "alice", "blue": name},
            "to_act": "blue", "to_act_player": name, "over": False, "result": None, "side": "red",
            "your_turn": False, "code": None}
    base.update(kw)
    return base


async def test_the_served_lobby_shows_names_as_text(tmp_path):
    from textual.widgets import OptionList

    from hexwar.tui.screen_lobby import ServedLobbyScreen
    lines = hostile_lines(tmp_path)
    names = list(lines.values())
    data = {"mine": [lobby_row(n, id=f"m{i}") for i, n in enumerate(names)],
            "open": [lobby_row(None, id="o1", seats={"red": lines["osc52"], "blue": None}, side="blue")],
            "watch": [lobby_row(lines["bidi"], id="w1", over=True,
                                result={"winner": "red", "reason": lines["bold"]})]}
    app = HexwarApp(served="alice" + OSC52)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = ServedLobbyScreen()
        screen.action_refresh = lambda: None   # no server here: the test hands the data in
        await app.push_screen(screen)
        screen.show(data)
        await pilot.pause()
        listing = screen.query_one("#lobby-list", OptionList)
        texts = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert_no_control("\n".join(texts))
        for name in names:
            assert any(f"{shown(name)}'s turn" in t for t in texts), name
        assert any(shown(lines["bold"]) in t for t in texts)
        title = str(screen.query_one(".dialog-title").render())
        assert title == f"Lobby · playing as alice{shown(OSC52)}"
        drawn = screen_text(app)                # every line on the screen, as drawn
        assert_no_control(drawn)
        assert f"playing as alice{shown(OSC52)}" in drawn
        assert list(tmp_path.iterdir()) == []


# --- the command line: a scenario file's words ---------------------------------------------------

def test_describe_prints_a_scenario_files_words_as_plain_text(tmp_path):
    """``hexwar describe FILE`` on a file whose title and side name hold an OSC 52 escape and a
    bidi override: the words are printed, the control characters are not."""
    import subprocess
    import sys

    source = find_scenario("attack-on-morobad").read_text(encoding="utf-8")
    head, sep, rest = source.partition('title = "')
    title, _, rest = rest.partition('"')
    hostile = head + sep + "\\u001b]52;c;aGk=\\u0007" + title + '"' + rest
    hostile = hostile.replace('name = "Natives"', 'name = "Nat\\u202eives"', 1)
    path = tmp_path / "hostile.toml"
    path.write_text(hostile, encoding="utf-8")
    assert "\x1b" in load_scenario(path).title            # the loader keeps it: the screen must not
    r = subprocess.run([sys.executable, "-m", "hexwar", "describe", str(path)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert_no_control(r.stdout)
    assert r.stdout.startswith(f"]52;c;aGk={title} [")
    assert "\nNatives (natives)" in r.stdout


async def test_ctrl_c_says_which_key_quits_in_plain_words():
    """Notices never read markup, so Textual's own Ctrl+C hint (markup) is replaced by plain words."""
    app = HexwarApp(save=False, theme="default")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        said = [n.message for n in app._notifications]
    assert said == ["Press ctrl+q to quit hexwar."]
