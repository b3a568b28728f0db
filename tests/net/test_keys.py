"""Data dir, keys generated once, known hosts (trust on first use), authorized keys, invite codes."""

from __future__ import annotations

import stat

import asyncssh
import pytest

from hexwar.net.errors import HostKeyChanged
from hexwar.net.keys import (Invite, KnownHosts, data_dir, fingerprint, host_key,
                             new_code, public_line)


def test_data_dir_precedence(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEXWAR_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert data_dir() == tmp_path / "home" / ".local" / "share" / "hexwar"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "hexwar"
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "hw"))
    assert data_dir() == tmp_path / "hw"
    assert (tmp_path / "hw").is_dir()


def test_host_key_is_generated_once_and_private(tmp_path):
    first = host_key(tmp_path)
    mode = stat.S_IMODE((tmp_path / "host_key").stat().st_mode)
    assert mode == 0o600
    assert fingerprint(host_key(tmp_path)) == fingerprint(first)
    assert fingerprint(first).startswith("SHA256:")
    assert first.algorithm == b"ssh-ed25519"


def test_known_hosts_trust_on_first_use_and_refuse_a_changed_key(tmp_path):
    known = KnownHosts(tmp_path / "known_hosts")
    a = asyncssh.generate_private_key("ssh-ed25519")
    b = asyncssh.generate_private_key("ssh-ed25519")
    assert known.check("example.org", 2222, a) is False  # new: the caller remembers it
    known.add("example.org", 2222, a)
    assert known.check("example.org", 2222, a) is True
    assert known.check("example.org", 2223, b) is False, "another port is another host"
    with pytest.raises(HostKeyChanged) as err:
        known.check("example.org", 2222, b)
    text = err.value.reason
    assert "REMOTE HOST IDENTIFICATION HAS CHANGED" in text
    assert fingerprint(a) in text and fingerprint(b) in text and str(known.path) in text
    assert "[example.org]:2222" in (tmp_path / "known_hosts").read_text()


def test_invite_codes_are_one_time_and_watch_codes_reusable():
    code = new_code()
    assert len(code) == 14 and code.count("-") == 2
    assert new_code() != code
    invite = Invite(code)
    assert not invite.matches("wrong-code-1234")
    assert invite.matches(code.upper()) and invite.matches(f" {code} ")
    invite.use()
    assert not invite.matches(code)
    watch = Invite(reusable=True)
    watch.use()
    assert watch.matches(watch.code)
