"""Shared test settings: hypothesis keeps runs short so the whole suite stays fast, and every test
process keeps its saved games, keys and caches in a folder of its own rather than the user's."""

import os
import tempfile

import pytest
from hypothesis import settings

# Key bindings are read when the UI modules are imported (at collection, before any fixture), so the
# private config folder is set here: a player's own keys.toml never changes what a test presses.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="hexwar-test-config-")

settings.register_profile("hexwar", max_examples=200, deadline=None)
settings.load_profile("hexwar")


@pytest.fixture(autouse=True, scope="session")
def _private_hexwar_home(tmp_path_factory):
    """Commands run by tests (the replay's parse cache, saved games) write under HEXWAR_HOME; a
    test that needs another folder sets its own."""
    old = os.environ.get("HEXWAR_HOME")
    os.environ["HEXWAR_HOME"] = str(tmp_path_factory.mktemp("hexwar-home"))
    yield
    if old is None:
        os.environ.pop("HEXWAR_HOME", None)
    else:
        os.environ["HEXWAR_HOME"] = old


@pytest.fixture(autouse=True)
def _end_phase_without_asking(monkeypatch):
    """The game screen asks before an end-phase that leaves units able to act (issue 34 item 2).
    Tests of other things press E to move the game on, so they end phases without that question;
    ``tests/tui/test_table_34a.py`` turns it back on to test it."""
    try:
        from hexwar.tui.game_gestures import Gestures
    except ImportError:  # a test run without the UI's packages
        return
    monkeypatch.setattr(Gestures, "ASK_BEFORE_ENDING", False)
