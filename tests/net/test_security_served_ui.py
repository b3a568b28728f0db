"""Issue 27.5 and 27.9: a served UI process that fails shows its player one line and exits
non-zero; its traceback (server paths, locals) reaches only the server's log. The failure is a
real one of the real ``hexwar served-session`` program: Textual is told (``TEXTUAL_DRIVER``) to
load a terminal driver that does not exist, so the UI cannot start. Over real SSH on 127.0.0.1,
with a pseudo-terminal, as ``hexwar serve`` runs it (``run_on_pty``, ``python_argv``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
import pytest

import hexwar
from hexwar.cli_play import CRASH_LINE
from hexwar.net.pty_bridge import python_argv, run_on_pty

CRASHES: list[tuple[int, str]] = []


class _AnyKey(asyncssh.SSHServer):
    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return True


@pytest.fixture
async def failing_ui(tmp_path):
    home = tmp_path / "players" / "zed"
    home.mkdir(parents=True)

    async def serve(process: asyncssh.SSHServerProcess) -> None:
        env = {"HEXWAR_HOME": str(home), "HOME": str(home), "TEXTUAL_DRIVER": "no_such_driver_module:Driver"}
        code = await run_on_pty(process, python_argv("served-session", "--player", "zed"), env, cwd=home,
                                on_crash=lambda status, report: CRASHES.append((status, report)))
        process.exit(code)

    key = asyncssh.generate_private_key("ssh-ed25519")
    acceptor = await asyncssh.listen("127.0.0.1", 0, server_host_keys=[key], process_factory=serve,
                                     encoding=None, allow_pty=True, line_editor=False, server_factory=_AnyKey)
    CRASHES.clear()
    yield acceptor.sockets[0].getsockname()[1]
    acceptor.close()
    await acceptor.wait_closed()


async def test_27_9_a_crashed_served_ui_shows_one_line_exits_non_zero_and_logs_its_traceback(failing_ui):
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with asyncssh.connect("127.0.0.1", failing_ui, username="zed", client_keys=[key], known_hosts=None,
                                agent_path=None, config=None) as conn:
        process = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        seen = b""
        while True:
            chunk = await asyncio.wait_for(process.stdout.read(65536), 60)
            if not chunk:
                break
            seen += chunk
        result = await asyncio.wait_for(process.wait(), 30)
    shown = seen.decode("utf-8", "replace")
    assert result.exit_status not in (0, None)
    assert CRASH_LINE in shown
    server_paths = str(Path(hexwar.__file__).parent.parent)
    assert "Traceback" not in shown and server_paths not in shown and "no_such_driver_module" not in shown
    assert len(CRASHES) == 1
    status, report = CRASHES[0]
    assert status == result.exit_status
    assert "Traceback" in report and "no_such_driver_module" in report   # the server's log has it all
