"""The parsed-scenario cache (``hexwar/scenario_cache.py``) changes speed, never a result: what
it gives back equals a fresh parse, and any file it cannot trust is ignored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hexwar import scenario_cache
from hexwar.engine import Game
from hexwar.journal import read_journal
from hexwar.match import replay, scenario_from_header
from hexwar.scenarios.loader import builtin_paths, parse_scenario, parse_toml

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "engine" / "fixtures" / "poltava-2-seed1.journal"


def _typed(value):
    """The value with every item's type beside it: ``True == 1`` and ``[1] == (1,)`` must not
    pass for equal here."""
    if isinstance(value, dict):
        return ("dict", [(_typed(k), _typed(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_typed(v) for v in value])
    return (type(value).__name__, value)


def _only_file(folder: Path) -> Path:
    files = sorted(folder.glob("*.toml.marshal"))
    assert len(files) == 1
    return files[0]


@pytest.mark.parametrize("path", builtin_paths(), ids=lambda p: p.stem)
def test_a_cache_hit_equals_a_fresh_parse(path, tmp_path):
    text = path.read_text(encoding="utf-8")
    fresh = parse_toml(text, str(path))
    assert scenario_cache.load(text, tmp_path) is None
    assert scenario_cache.store(text, fresh, tmp_path)
    cached = scenario_cache.load(text, tmp_path)
    assert _typed(cached) == _typed(parse_toml(text, str(path)))  # keys in the same order too
    # and the scenario built from it starts the same game
    header = {"scenario_text": text, "scenario_hash": parse_scenario(text, "x").source_hash}
    a = scenario_from_header("x", header)
    b = scenario_from_header("x", header, tmp_path)
    assert b == a and Game(b).digest() == Game(a).digest()


def test_a_replay_through_the_cache_gives_the_same_report(tmp_path):
    contents = read_journal(FIXTURE)
    plain = replay(str(FIXTURE), contents)
    for _ in range(2):  # the first stores, the second reads
        cached = replay(str(FIXTURE), contents, scenario_cache=tmp_path)
        assert cached.game.digest() == plain.game.digest() == "6a6dc0524774ad9a54614e7c572b70fb"
        assert cached.orders == plain.orders and cached.result == plain.result
    _only_file(tmp_path)


def _stored(tmp_path: Path) -> tuple[str, Path]:
    text = builtin_paths()[0].read_text(encoding="utf-8")
    assert scenario_cache.store(text, parse_toml(text), tmp_path)
    return text, _only_file(tmp_path)


@pytest.mark.parametrize("damage", ["flip a payload byte", "cut short", "empty", "head only",
                                    "other format", "other magic", "flip the payload hash"])
def test_a_damaged_file_is_not_used(damage, tmp_path):
    text, f = _stored(tmp_path)
    blob = bytearray(f.read_bytes())
    magic = len(b"hexwar parsed scenario\n")
    if damage == "flip a payload byte":
        blob[-10] ^= 0x01
    elif damage == "cut short":
        del blob[-1:]
    elif damage == "empty":
        blob = bytearray()
    elif damage == "head only":
        blob = blob[: magic + 1 + 64]
    elif damage == "other format":
        blob[magic] ^= 0xFF
    elif damage == "other magic":
        blob[0] ^= 0x20
    else:
        blob[magic + 40] ^= 0x01
    f.write_bytes(bytes(blob))
    assert scenario_cache.load(text, tmp_path) is None


def test_a_file_made_for_other_text_is_not_used(tmp_path):
    text, f = _stored(tmp_path)
    other = text + "\n# one more comment\n"
    (tmp_path / f.name).rename(scenario_cache._file(tmp_path, scenario_cache._text_key(other)))
    assert parse_toml(other) == parse_toml(text)  # the same data, yet another text
    assert scenario_cache.load(other, tmp_path) is None


def test_a_well_formed_file_holding_no_table_is_not_used(tmp_path):
    text, f = _stored(tmp_path)
    key = scenario_cache._text_key(text)
    payload = b"\xe9\x00\x00\x00\x00"  # marshal: an int, not a dict
    head = b"hexwar parsed scenario\n" + bytes([scenario_cache.FORMAT]) + key
    f.write_bytes(head + scenario_cache._payload_hash(key, payload) + payload)
    assert scenario_cache.load(text, tmp_path) is None


def test_a_damaged_file_falls_back_to_parsing_and_is_replaced(tmp_path):
    contents = read_journal(FIXTURE)
    replay(str(FIXTURE), contents, scenario_cache=tmp_path)
    f = _only_file(tmp_path)
    f.write_bytes(f.read_bytes()[:-100])
    report = replay(str(FIXTURE), contents, scenario_cache=tmp_path)
    assert report.game.digest() == "6a6dc0524774ad9a54614e7c572b70fb"
    assert scenario_cache.load(contents.header["scenario_text"], tmp_path) is not None


def test_an_unwritable_cache_changes_nothing(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    folder = blocker / "cache"  # cannot be made, whoever runs the test
    text = builtin_paths()[0].read_text(encoding="utf-8")
    assert scenario_cache.store(text, parse_toml(text), folder) is False
    assert scenario_cache.load(text, folder) is None
    report = replay(str(FIXTURE), read_journal(FIXTURE), scenario_cache=folder)
    assert report.game.digest() == "6a6dc0524774ad9a54614e7c572b70fb"
    assert not any(tmp_path.glob("**/*.tmp"))


def test_data_marshal_refuses_is_not_stored(tmp_path):
    text = 'when = 1979-05-27\n'
    data = parse_toml(text)
    assert scenario_cache.store(text, data, tmp_path) is False
    assert list(tmp_path.iterdir()) == []


def test_old_files_are_dropped_past_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(scenario_cache, "MAX_FILES", 3)
    for i in range(5):
        text = f"n = {i}\n"
        assert scenario_cache.store(text, parse_toml(text), tmp_path)
        os.utime(scenario_cache._file(tmp_path, scenario_cache._text_key(text)), ns=(i, i))
    scenario_cache._prune(tmp_path)
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == sorted(scenario_cache._file(tmp_path, scenario_cache._text_key(f"n = {i}\n")).name
                          for i in (2, 3, 4))


def test_the_cache_folder_follows_hexwar_home(monkeypatch, tmp_path):
    monkeypatch.setenv("HEXWAR_HOME", str(tmp_path / "home"))
    assert scenario_cache.default_dir() == tmp_path / "home" / "cache" / "scenarios"
    monkeypatch.delenv("HEXWAR_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert scenario_cache.default_dir() == tmp_path / "xdg" / "hexwar" / "scenarios"


def test_the_replay_command_uses_the_cache_and_then_needs_no_toml_parser(tmp_path):
    env = {**os.environ, "HEXWAR_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "hexwar", "replay", "--verify", str(FIXTURE)]
    first = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    _only_file(tmp_path / "cache" / "scenarios")
    second = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert second.returncode == 0 and second.stdout == first.stdout
    code = ("import sys; from pathlib import Path; from hexwar.journal import read_journal; "
            "from hexwar.match import replay; "
            f"replay({str(FIXTURE)!r}, read_journal({str(FIXTURE)!r}), "
            f"scenario_cache=Path({str(tmp_path / 'cache' / 'scenarios')!r})); "
            "print('tomllib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
