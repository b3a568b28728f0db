"""Issue 29 finding 3: ``hexwar replay --verify`` names the first bad record of a damaged journal
and how to recover its good orders; with ``--json`` it always prints a verdict on stdout. Run as a
user runs it: a separate process, exit codes as the README says (0 ok, 1 refused by the game,
2 bad input)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from hexwar.journal import MAGIC, Journal, read_journal

GOLDEN = Path(__file__).parent / "golden" / "attack-on-morobad-seed1.journal"
ORDERS = 103  # the golden game's length


def hexwar(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hexwar", *args], capture_output=True, text=True,
                          timeout=120)


def verdict(path: Path, *extra: str) -> tuple[dict, subprocess.CompletedProcess]:
    run = hexwar("replay", str(path), "--verify", "--json", *extra)
    assert "Traceback" not in run.stderr
    return json.loads(run.stdout), run


def _record_start(data: bytes, k: int) -> int:
    unpacker = msgpack.Unpacker()
    unpacker.feed(data[len(MAGIC):])
    for _ in range(k):
        unpacker.unpack()
    return len(MAGIC) + unpacker.tell()


@pytest.fixture
def save(tmp_path) -> Path:
    path = tmp_path / "game.journal"
    shutil.copyfile(GOLDEN, path)
    return path


def test_an_intact_journal_gets_an_ok_verdict(save):
    v, run = verdict(save)
    assert run.returncode == 0
    assert v["verdict"] == "ok" and v["exit"] == 0 and v["first_bad_record"] is None
    assert v["orders_good"] == v["orders"] == ORDERS and v["recover"] is None


def test_a_damaged_record_is_named_with_how_to_recover_the_good_orders(save):
    data = bytearray(save.read_bytes())
    data[_record_start(bytes(data), 40) + 9] ^= 0x04
    save.write_bytes(bytes(data))
    run = hexwar("replay", str(save), "--verify")
    assert run.returncode == 2
    assert f"journal refused: {save}: record 40: hash chain broken" in run.stderr
    assert f"hexwar play --load {save} recovers it, keeping the 39 good orders before record 40" in run.stderr
    assert "Traceback" not in run.stderr
    v, run = verdict(save)
    assert run.returncode == 2
    assert (v["verdict"], v["exit"], v["first_bad_record"], v["orders_good"]) == ("refused", 2, 40, 39)
    assert "hash chain broken" in v["problem"] and f"play --load {save}" in v["recover"]
    # following the advice (what play --load runs) gives a save that verifies with those orders
    from hexwar.tui.session import Session
    Session.load(save).close()
    v, run = verdict(save)
    assert run.returncode == 0 and v["verdict"] == "ok" and v["orders"] == 39
    assert Path(f"{save}.damaged").read_bytes() == bytes(data)


def test_a_cut_off_save_says_play_load_recovers_it(save):
    data = save.read_bytes()
    save.write_bytes(data[:-7])
    run = hexwar("replay", str(save), "--verify")
    assert run.returncode == 2 and "truncated" in run.stderr
    assert "cut off while being written" in run.stderr
    assert f"hexwar play --load {save} recovers it, keeping the {ORDERS - 1} good orders" in run.stderr
    v, _ = verdict(save)
    assert (v["verdict"], v["first_bad_record"], v["orders_good"]) == ("refused", ORDERS, ORDERS - 1)
    assert "recovers it" in v["recover"]


def test_a_duplicated_record_is_reported_and_play_load_skips_it(save):
    data = save.read_bytes()
    a, b = _record_start(data, 7), _record_start(data, 8)
    save.write_bytes(data[:b] + data[a:b] + data[b:])
    v, run = verdict(save)
    assert run.returncode == 2
    assert (v["verdict"], v["first_bad_record"], v["orders_good"]) == ("refused", 8, ORDERS)
    assert "identical copy" in v["problem"] and "skipping the copy" in v["recover"]


def test_orders_that_do_not_replay_are_refused_by_the_game_with_a_verdict(save, tmp_path):
    """A journal whose chain is intact but whose 11th order's digest differs (say another
    version's rules) is refused by the game: exit 1, the record named, 10 orders good."""
    contents = read_journal(save)
    forged = tmp_path / "forged.journal"
    header = {k: v for k, v in contents.header.items() if k not in ("type", "format")}
    with Journal.create(forged, header) as j:
        for number, rec in enumerate(contents.records, 1):
            j.append(dict(rec, digest="0" * 32) if number == 11 else rec)
    v, run = verdict(forged)
    assert run.returncode == 1
    assert (v["verdict"], v["exit"], v["first_bad_record"], v["orders_good"]) == ("refused", 1, 11, 10)
    assert "digest differs" in v["problem"] and v["recover"] is None


def test_a_file_that_is_no_journal_still_gets_a_json_verdict(tmp_path):
    not_journal = tmp_path / "notes.txt"
    not_journal.write_text("hello")
    for path in (not_journal, tmp_path / "missing.journal"):
        v, run = verdict(path)
        assert run.returncode == 2
        assert v["verdict"] == "refused" and v["exit"] == 2 and v["orders_good"] == 0
        assert v["problem"] and v["first_bad_record"] is None
