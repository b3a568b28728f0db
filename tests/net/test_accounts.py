"""Accounts of a served hexwar: the first key under a name owns it."""

import stat

import asyncssh
import pytest

from hexwar.net.accounts import AccountRefused, Accounts


@pytest.fixture
def keys():
    return [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]


def test_the_first_key_owns_the_name_and_comes_back(tmp_path, keys):
    accounts = Accounts(tmp_path / "accounts.json")
    assert accounts.claim("alice", keys[0]) is True
    assert accounts.claim("alice", keys[0]) is False          # coming back is no new account
    again = Accounts(tmp_path / "accounts.json")                 # and it survives a restart
    assert "alice" in again and again.problem("alice", keys[0]) is None


def test_a_second_key_under_a_taken_name_is_refused_with_words(tmp_path, keys):
    accounts = Accounts(tmp_path / "accounts.json")
    accounts.claim("alice", keys[0])
    why = accounts.problem("alice", keys[1])
    assert why is not None and "belongs to another key" in why
    with pytest.raises(AccountRefused, match="another key"):
        accounts.claim("alice", keys[1])
    assert accounts.fingerprint_of("alice") == Accounts(tmp_path / "accounts.json").fingerprint_of("alice")


@pytest.mark.parametrize("name", ["Alice", "1bob", "a" * 33, "", "al ice", "../etc", "player", "spectator"])
def test_bad_or_reserved_names_are_refused(tmp_path, keys, name):
    assert Accounts(tmp_path / "a.json").problem(name, keys[0]) is not None


def test_the_number_of_accounts_is_capped(tmp_path, keys):
    accounts = Accounts(tmp_path / "a.json", limit=2)
    accounts.claim("a", keys[0])
    accounts.claim("b", keys[1])
    assert "no room" in accounts.problem("c", keys[2])
    assert accounts.problem("a", keys[0]) is None                # existing players still log in


def test_the_file_is_private(tmp_path, keys):
    accounts = Accounts(tmp_path / "home" / "a.json")
    accounts.claim("alice", keys[0])
    assert stat.S_IMODE((tmp_path / "home" / "a.json").stat().st_mode) == 0o600
