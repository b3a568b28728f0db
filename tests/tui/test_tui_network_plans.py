"""Flames of War's secret plans in the networked terminal UI (tui/net_session.py, G-19): the plan
screen opens when our side is to seal, Enter seals it (only the commitment leaves), and the
sealed plan is opened by itself once both sides have sealed. Textual pilot against a real
asyncssh host on 127.0.0.1 that the computer plays; a served match's UI is the same screen."""

from __future__ import annotations

import asyncio

import pytest

from hexwar.engine import secret
from hexwar.net import headless
from hexwar.scenarios.loader import find_scenario, load_scenario
from hexwar.tui.app import HexwarApp
from hexwar.tui.net_session import NetStart, join_args
from hexwar.tui.screen_plan import PlanScreen

from test_tui_network import SIZE, in_game, start_host, until


@pytest.fixture(scope="module")
def bir_hakeim():
    return load_scenario(find_scenario("bir-hakeim"))


async def test_g19_network_ui_seals_its_plan_on_the_plan_screen_and_opens_it_by_itself(
        bir_hakeim, tmp_path, monkeypatch):
    (tmp_path / "h").mkdir()
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "g"))
    host = await start_host(tmp_path / "h", bir_hakeim, "british")
    inv = host.invitation()
    computer = asyncio.ensure_future(headless.play(host.session, 3, level="basic", give_up=30))
    app = HexwarApp(net=NetStart("join", join_args(f"127.0.0.1:{inv['port']}", inv["code"],
                                                   fingerprint=inv["fingerprint"])), theme="default")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await in_game(pilot, app)
            net = app.session.net

            def ours(kind: str) -> list[dict]:
                return [r for r in net.match.records if r["side"] == "german" and r["order"]["k"] == kind]

            for _ in range(60):
                if ours(secret.REVEAL):
                    break
                await until(pilot, lambda: isinstance(app.screen, PlanScreen) or ours(secret.REVEAL)
                            or (net.can_act and secret_round(net) is None), timeout=40, what="a plan step")
                if isinstance(app.screen, PlanScreen):
                    sealed = len(ours(secret.COMMIT))
                    await pilot.press("s")        # the suggested plan
                    await pilot.press("enter")    # sealed
                    await until(pilot, lambda: len(ours(secret.COMMIT)) > sealed, what="the seal")
                elif net.can_act and secret_round(net) is None and not ours(secret.REVEAL):
                    seq = net.match.seq
                    await pilot.press("E")        # a phase of ours before the plans: end it
                    await until(pilot, lambda: net.match.seq > seq or isinstance(app.screen, PlanScreen),
                                timeout=20, what="our end-phase")
            assert ours(secret.COMMIT) and ours(secret.REVEAL)   # the reveal went with no key pressed
            for rec in ours(secret.COMMIT):
                assert set(rec["order"]["a"]) == {"digest"}      # only the commitment was played
            await until(pilot, lambda: host.session.match.seq >= net.match.seq, what="the host to catch up")
            n = net.match.seq
            assert [r["digest"] for r in host.session.match.records[:n]] == \
                [r["digest"] for r in net.match.records[:n]]
            assert net.refused == 0 and host.session.refused == 0
    finally:
        computer.cancel()
        host.session.close()
        await host.close()


def secret_round(net):
    return net.game.ruleset.secret_round(net.game)
