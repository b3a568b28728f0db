"""An invite code of a served match is spent at login (net/serve.py, net/referee.py): while one
SSH login holds it, a second login with the same code is refused at authentication, so two
racing logins can never share it; a login that leaves without taking the seat gives it back.
Over real SSH on 127.0.0.1."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from hexwar.net import headless, lobby
from hexwar.net.client import Guest

from test_referee import As, server, served_guest  # noqa: F401 - fixtures


async def _login(server, code: str) -> asyncssh.SSHClientConnection:
    """A bare SSH login as ``player`` with ``code``, holding no channel yet."""
    return await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", server.port, username="player", password=code, known_hosts=None,
        client_keys=None, agent_path=None, config=None, preferred_auth=("password",)), 30)


async def test_a_second_login_with_a_held_invite_code_is_refused(server, tmp_path, monkeypatch):
    with As(server, "rita", monkeypatch):
        made = await lobby.ask("create", scenario="border-clash", side="red", invite=True)
    code = made["code"]
    first = await _login(server, code)
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            await _login(server, code)
        with pytest.raises(asyncssh.PermissionDenied):      # any spelling of it
            await _login(server, code.upper().replace("-", " "))
    finally:
        first.close()
        await first.wait_closed()
    ref = server.matches.by_id[made["match"]]
    assert ref.info.open_side() == "blue" and ref.info.code == code   # nothing was taken
    # the first login left without the seat: the code works again, for one hexwar
    for _ in range(50):
        if not server.matches._held:
            break
        await asyncio.sleep(0.1)
    assert not server.matches._held
    native = Guest("127.0.0.1", server.port, home=tmp_path / "native", code=code, server=True)
    rita = served_guest(server, "rita", made["match"], tmp_path / "rita", monkeypatch)
    runs = [asyncio.ensure_future(g.run(give_up=30)) for g in (native, rita)]
    await asyncio.wait_for(asyncio.gather(native.connected.wait(), rita.connected.wait()), 30)
    for _ in range(100):   # the client is told it is connected as its hello leaves
        if ref.connected("blue"):
            break
        await asyncio.sleep(0.1)
    assert ref.info.seats["blue"].startswith("key:") and ref.info.code is None
    with pytest.raises(asyncssh.PermissionDenied):             # spent for good
        await _login(server, code)
    results = await asyncio.wait_for(asyncio.gather(
        headless.play(native.session, 1), headless.play(rita.session, 2)), 240)
    await asyncio.gather(*runs, return_exceptions=True)
    assert results[0]["digest"] == results[1]["digest"] == ref.match.game.digest()


def test_a_held_code_gives_the_seat_only_to_its_holder(tmp_path):
    from hexwar.net.referee import Matches
    from hexwar.scenarios.loader import load_named
    matches = Matches(tmp_path / "m")
    ref = matches.create(load_named("border-clash"), "player:mo", "blue", invite=True)
    code = ref.info.code
    one, two = object(), object()
    assert matches.claim_code(code, one) is ref
    assert matches.claim_code(code, two) is None               # held by the first login
    assert matches.seat_for(ref, "key:ssh-ed25519 AAAAtwo", code=code, holder=two) is None
    matches.release_code(one)
    assert matches.claim_code(code, two) is ref                # given back, taken again
    assert matches.seat_for(ref, "key:ssh-ed25519 AAAAtwo", code=code, holder=two) == "red"
    assert matches.claim_code(code, one) is None and ref.info.code is None
    matches.close()
