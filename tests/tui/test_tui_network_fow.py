"""A Flames of War round over the network in the terminal UI (issue 17, G-19 and G-59): the Textual
pilot plays the British as a guest against the computer's Germans on a real asyncssh host on
127.0.0.1. The guest deploys and plans on the same form as local play; its plan leaves only as a
sealed commitment, the turn bar says it waits for the other side's plan, nothing of the German
plan reaches the guest before both have committed, the UI reveals its own plan by itself, and the
first battle comes up as a report."""

from __future__ import annotations

import asyncio
import os

import pytest

from hexwar.engine import secret
from hexwar.net import headless
from hexwar.net.netmatch import NetMatch
from hexwar.net.server import Host
from hexwar.net.session import Session
from hexwar.scenarios.loader import find_scenario, load_scenario
from hexwar.tui.app import HexwarApp
from hexwar.tui.net_session import NetStart, join_args
from hexwar.tui.screen_game import GameScreen as NetGameScreen  # one game screen; its session is a network one
from hexwar.tui.screen_battle_report import BattleReportScreen
from hexwar.tui.screen_dialogs import ChooseOrder
from hexwar.tui.screen_plan import PlanScreen

from test_tui_network import log_text, turnbar, until

BRITISH, GERMAN = "british", "german"   # the British hold the initiative: they seal first


@pytest.fixture(scope="module")
def bir_hakeim():
    return load_scenario(find_scenario("bir-hakeim"))


async def _host(home, scenario) -> Host:
    match = NetMatch.create(scenario, os.urandom(16), home / "host.journal",
                            players={GERMAN: "host", BRITISH: "guest"},
                            info={"role": "host", "side": GERMAN, "turn_time": 0})
    return await Host(Session(match, GERMAN, role="host"), home).start("127.0.0.1", 0)


def _plan_records(records) -> list[tuple[str, str]]:
    return [(r["order"]["k"], r["side"]) for r in records if r["order"]["k"] in (secret.COMMIT, secret.REVEAL)]


def _no_plan_before_both_seals(records) -> None:
    """In the guest's own records, every reveal of a round comes after both sides' seals."""
    commits: list[str] = []
    for kind, side in _plan_records(records):
        if kind == secret.COMMIT:
            commits.append(side)
        else:
            assert sorted(commits[-2:]) == [BRITISH, GERMAN], "a plan arrived before both seals"


async def test_g19_g59_guest_ui_deploys_plans_commits_reveals_and_reads_the_battle_report(
        bir_hakeim, tmp_path, monkeypatch):
    (tmp_path / "h").mkdir()
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "g"))
    host = await _host(tmp_path / "h", bir_hakeim)
    inv = host.invitation()
    app = HexwarApp(net=NetStart("join", join_args(f"127.0.0.1:{inv['port']}", inv["code"],
                                                   fingerprint=inv["fingerprint"])), theme="default")
    computer = None
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, PlanScreen), timeout=30,
                        what="the deployment form")
            net = app.session.net
            assert net.side == BRITISH and net.game.state.phase == "deploy"
            assert app.screen.side == BRITISH
            await pilot.press("escape")                     # put off: nothing is sent
            await until(pilot, lambda: isinstance(app.screen, NetGameScreen), what="the map")
            assert net.match.seq == 0
            await pilot.press("o")                          # o opens the form again
            await until(pilot, lambda: isinstance(app.screen, PlanScreen), what="the form again")
            await pilot.press("enter")                      # deploy as the scenario's set-up
            await until(pilot, lambda: net.match.seq >= 1 and host.session.match.seq >= 1,
                        what="our sealed deployment at the host")
            # only the commitment left: the host holds our seal, not our placement
            rnd = host.session.game.ruleset.secret_round(host.session.game)
            assert list(rnd["commits"]) == [BRITISH] and rnd["plans"] == {}
            await pilot.pause()
            assert isinstance(app.screen, NetGameScreen)
            assert "waiting for the other side's deployment" in turnbar(app)
            # the computer's Germans start only now, so the wait above is certain
            computer = asyncio.ensure_future(headless.play(host.session, 5, give_up=60))
            await until(pilot, lambda: net.game.state.phase not in ("deploy",), timeout=30,
                        what="both deployments revealed")
            # steps 1-3: end the command step (the HQs stay) until our plan form is up
            plans_seen = 0
            report = None
            for _ in range(400):
                await pilot.pause(0.05)
                screen = app.screen
                if isinstance(screen, BattleReportScreen):
                    report = screen.text
                    break
                if isinstance(screen, PlanScreen):
                    plans_seen += 1
                    assert net.game.state.phase == "plan"
                    # nothing of the German plan is known to the guest while it plans
                    assert net.game.ruleset.secret_round(net.game)["plans"] == {}
                    await pilot.press("s", "enter")         # the computer's suggestion, committed
                    await until(pilot, lambda: not isinstance(app.screen, PlanScreen), what="commit")
                    continue
                if isinstance(screen, ChooseOrder):
                    await pilot.press("enter")
                    continue
                if not (net.my_turn and net.can_act) or app.screen.sending:
                    continue
                game = net.game
                if game.ruleset.secret_round(game) is not None or game.state.pending:
                    continue
                seq = net.match.seq
                if game.state.phase == "execute":
                    await pilot.press("o")                  # carry out the first order listed
                else:
                    await pilot.press("E")
                await until(pilot, lambda: net.match.seq > seq or isinstance(app.screen, ChooseOrder)
                            or not net.my_turn, timeout=20, what="our order")
            assert plans_seen >= 1, "the plan form never opened"
            records = net.match.records
            kinds = _plan_records(records)
            assert (secret.REVEAL, BRITISH) in kinds and (secret.REVEAL, GERMAN) in kinds
            _no_plan_before_both_seals(records)
            revealed = [e for e in app.session.events if e.get("t") == "plan-revealed"]
            assert {e["side"] for e in revealed} == {BRITISH, GERMAN}
            assert report is not None, "no battle report within the turn"
            assert "Battle for point" in report and "Attackers:" in report and "Defenders:" in report
            log = " ".join(log_text(app).split())             # the log wraps its lines
            assert "British Eighth Army committed a sealed plan" in log
            assert "British Eighth Army revealed its plan" in log
            assert net.game.digest() == host.session.game.digest()
    finally:
        if computer is not None:
            computer.cancel()
        host.session.close()
