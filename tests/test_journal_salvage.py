"""Issue 29 finding 3: a damaged save loads up to its last good record.

One test per kind of damage (a flipped byte in the header, in the middle and at the end; a
duplicated record; a record cut in the middle of the file; a zero-filled tail as after a power
cut), each through the loader a player uses (``Session.load``: ``play --load`` and the menu's
Load) or the network resume (``NetMatch.resume``). Each checks what the player is told (which
record, how many orders kept), that the original is kept beside the save, and that the repaired
save reads cleanly and takes new orders.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from hexwar.journal import MAGIC, JournalError, read_journal
from hexwar.tui.session import Session

GOLDEN = Path(__file__).parent / "golden" / "attack-on-morobad-seed1.journal"


def _spans(data: bytes) -> list[tuple[int, int]]:
    """The byte span of every record of an intact journal (record 0 is the header)."""
    unpacker = msgpack.Unpacker()
    unpacker.feed(data[len(MAGIC):])
    spans, pos = [], len(MAGIC)
    for _ in unpacker:
        end = len(MAGIC) + unpacker.tell()
        spans.append((pos, end))
        pos = end
    return spans


@pytest.fixture
def save(tmp_path) -> Path:
    """A game in progress: the golden game's first 60 orders."""
    path = tmp_path / "game.journal"
    data = GOLDEN.read_bytes()
    path.write_bytes(data[:_spans(data)[60][1]])
    return path


def _damage(path: Path, change) -> tuple[bytes, list[tuple[int, int]]]:
    """Apply ``change(data, spans) -> damaged bytes`` to the save; returns what was written."""
    data = path.read_bytes()
    damaged = change(data, _spans(data))
    assert damaged != data
    path.write_bytes(damaged)
    return damaged, _spans(data)


def _flip(data: bytes, at: int) -> bytes:
    b = bytearray(data)
    b[at] ^= 0x10
    return bytes(b)


def _loads_up_to(path: Path, damaged: bytes, orders: int, *told: str) -> Session:
    """Load the damaged save as a player does; it stands after ``orders`` orders, the player is
    told ``told``, the original is kept as ``.damaged`` and the save reads cleanly again."""
    session = Session.load(path)
    try:
        assert session.game.state.seq == orders
        for words in told:
            assert words in session.load_warning, session.load_warning
        assert f"kept as {path.name}.damaged" in session.load_warning
        assert Path(f"{path}.damaged").read_bytes() == damaged
        assert os.stat(f"{path}.damaged").st_mode & 0o077 == 0
        repaired = read_journal(path)  # strict: no damage left
        assert len(repaired.records) == orders
        session.play(next(iter(session.game.legal_orders())))
    finally:
        session.close()
    assert len(read_journal(path).records) == orders + 1  # the game goes on in the same file
    return session


def test_a_flipped_byte_in_the_header_keeps_nothing_and_says_so(save):
    header_start, header_end = _spans(save.read_bytes())[0]
    _damage(save, lambda d, s: _flip(d, (header_start + header_end) // 2))
    with pytest.raises(JournalError) as err:
        Session.load(save)
    assert err.value.record == 0 and "nothing can be recovered" in err.value.reason
    # the command line says so in one line, never a traceback, and leaves the file alone
    before = save.read_bytes()
    run = subprocess.run([sys.executable, "-m", "hexwar", "play", "--load", str(save)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "record 0" in run.stderr and "nothing can be recovered" in run.stderr
    assert "Traceback" not in run.stderr
    assert save.read_bytes() == before and not Path(f"{save}.damaged").exists()


def test_a_flipped_byte_in_the_magic_bytes_says_the_start_is_damaged(save):
    _damage(save, lambda d, s: _flip(d, 2))
    with pytest.raises(JournalError) as err:
        Session.load(save)
    assert "first bytes are damaged" in err.value.reason and "nothing can be recovered" in err.value.reason
    _damage(save, lambda d, s: bytes(len(d)))  # a power cut that zeroed the whole file
    with pytest.raises(JournalError) as err:
        Session.load(save)
    assert "only zero bytes" in err.value.reason and "nothing can be recovered" in err.value.reason


def test_a_flipped_byte_in_the_middle_keeps_every_order_before_it(save):
    n = len(_spans(save.read_bytes())) - 1
    k = n // 2
    damaged, spans = _damage(save, lambda d, s: _flip(d, s[k][0] + 12))
    _loads_up_to(save, damaged, k - 1, f"Record {k} of the save is damaged",
                 f"the {k - 1} orders are loaded")


def test_a_flipped_byte_at_the_end_loses_only_the_last_order(save):
    damaged, spans = _damage(save, lambda d, s: _flip(d, len(d) - 3))
    n = len(spans) - 1
    _loads_up_to(save, damaged, n - 1, f"Record {n} of the save is damaged",
                 f"the {n - 1} orders are loaded")


def test_a_duplicated_record_is_skipped_with_a_warning(save):
    def duplicate(d, s):
        a, b = s[5]
        return d[:b] + d[a:b] + d[b:]
    damaged, spans = _damage(save, duplicate)
    n = len(spans) - 1
    _loads_up_to(save, damaged, n, "Record 6 was an identical copy of an earlier record and was skipped",
                 f"All {n} orders are loaded")


def test_a_record_cut_in_the_middle_of_the_file_keeps_the_orders_before_it(save):
    k = 20

    def cut(d, s):
        a, b = s[k]
        return d[:a + (b - a) // 2] + d[b:]  # the second half of record 20 is missing
    damaged, spans = _damage(save, cut)
    _loads_up_to(save, damaged, k - 1, f"Record {k} of the save is damaged", f"the {k - 1} orders")


def test_a_zero_filled_tail_after_a_power_cut_keeps_the_orders_before_it(save):
    k = 30

    def zero_tail(d, s):
        cut = s[k][0] + 7  # the zeros begin inside record 30, as a lost disk block would
        return d[:cut] + bytes(len(d) - cut)
    damaged, spans = _damage(save, zero_tail)
    _loads_up_to(save, damaged, k - 1, f"From record {k} on the save holds zero bytes",
                 "power cut", f"the {k - 1} orders are loaded")


def test_an_earlier_damaged_original_is_never_overwritten(save):
    first, _ = _damage(save, lambda d, s: _flip(d, len(d) - 3))
    Session.load(save).close()
    second, _ = _damage(save, lambda d, s: _flip(d, len(d) - 3))
    session = Session.load(save)
    session.close()
    assert Path(f"{save}.damaged").read_bytes() == first
    assert Path(f"{save}.damaged-2").read_bytes() == second
    assert "kept as game.journal.damaged-2" in session.load_warning


def test_a_network_journal_damaged_in_the_middle_resumes_from_its_last_good_record(tmp_path):
    from hexwar.net.netmatch import NetMatch
    from hexwar.scenarios.loader import find_scenario, load_scenario
    scenario = load_scenario(find_scenario("attack-on-morobad"))
    path = tmp_path / "m.journal"
    m = NetMatch.create(scenario, os.urandom(16), path, players={},
                        info={"role": "guest", "side": "natives"})
    for _ in range(6):
        side = m.game.to_act()
        order = next(iter(m.game.legal_orders()))
        m.apply(order, side, [os.urandom(16), os.urandom(16)] if m.game.needs_dice(order) else None)
    m.close()
    whole = path.read_bytes()
    spans = _spans(whole)  # header, net, six orders
    path.write_bytes(_flip(whole, spans[5][0] + 12))  # the fourth order (record 5)
    again = NetMatch.resume(path)
    try:
        assert again.seq == 3 and again.info["side"] == "natives"
    finally:
        again.close()
    assert Path(f"{path}.damaged").read_bytes() == _flip(whole, spans[5][0] + 12)
    assert [r["seq"] for r in read_journal(path).records if r["type"] == "order"] == [0, 1, 2]


def test_an_intact_save_is_left_alone(save):
    before = save.read_bytes()
    session = Session.load(save)
    session.close()
    assert session.load_warning == "" and save.read_bytes() == before
    assert not Path(f"{save}.damaged").exists()


async def test_the_replay_viewer_shows_the_good_part_of_a_damaged_save_with_a_notice(save):
    from hexwar.tui.app import HexwarApp
    from hexwar.tui.screen_dialogs import Message
    from hexwar.tui.screen_replay import ReplayScreen
    damaged, _ = _damage(save, lambda d, s: _flip(d, s[50][0] + 12))
    app = HexwarApp(replay=save, theme="default")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, Message) and "damaged" in app.screen.title_text
        assert "Record 50 of the save is damaged" in app.screen.text
        assert "the 49 orders are loaded" in app.screen.text and "play --load" in app.screen.text
        await pilot.press("escape")
        assert isinstance(app.screen, ReplayScreen)
        assert len(app.screen.data.games) == 50  # the start and the position after each good order
        await pilot.press("end")
        assert app.screen.data.games[app.screen.index].state.seq == 49
    assert save.read_bytes() == damaged  # viewing changes nothing


def test_a_record_whose_chain_holds_but_whose_seq_is_wrong_ends_the_good_part(save, tmp_path):
    """A record written whole but wrong (its chain verifies, its seq does not follow): the
    orders before it are kept, and the repaired save's chain continues from the last of them."""
    from hexwar.journal import Journal
    contents = read_journal(save)
    header = {k: v for k, v in contents.header.items() if k not in ("type", "format")}
    save.unlink()
    with Journal.create(save, header) as j:
        for number, rec in enumerate(contents.records, 1):
            j.append(dict(rec, seq=99) if number == 11 else rec)
    damaged = save.read_bytes()
    _loads_up_to(save, damaged, 10, "Record 11 of the save is damaged (sequence number 99 where 10 was due)")


def test_any_single_flip_cut_or_zero_tail_salvages_to_a_prefix_that_takes_appends(tmp_path):
    """Whatever one flipped byte, one cut or one zero-filled tail does to a small journal, a
    salvaging read either refuses with the header named (nothing to keep) or keeps a prefix of
    the records, and the repaired file reads strictly and takes the next order."""
    from hexwar.journal import Journal, salvage_journal
    path = tmp_path / "g.journal"
    with Journal.create(path, {"scenario": "x", "match": b"m" * 16}) as j:
        for seq in range(4):
            j.append({"type": "order", "seq": seq, "side": "a", "order": {"k": "end-phase"},
                      "nonces": None, "digest": f"d{seq}"})
    data = path.read_bytes()
    full = read_journal(path).records
    header_end = _spans(data)[0][1]
    variants = [_flip(data, i) for i in range(len(MAGIC), len(data))]
    variants += [data[:cut] for cut in range(header_end + 1, len(data))]
    variants += [data[:cut] + bytes(len(data) - cut) for cut in range(header_end, len(data), 3)]
    repaired = set()  # one repair and append per (orders kept, kind of damage): fsyncs are slow
    for n, damaged in enumerate(variants):
        p = tmp_path / f"v{n}.journal"
        p.write_bytes(damaged)
        try:
            contents = read_journal(p, salvage=True)
        except JournalError as exc:
            assert exc.record == 0 and "nothing can be recovered" in exc.reason
            continue
        assert contents.records == full[:len(contents.records)]
        seq = len(contents.records)
        key = (seq, contents.damage.kind if contents.damage else None)
        if key in repaired:
            continue
        repaired.add(key)
        assert salvage_journal(p).records == contents.records
        with Journal.resume(p)[0] as j:
            j.append({"type": "order", "seq": seq, "side": "a", "order": {"k": "end-phase"},
                      "nonces": None, "digest": "next"})
        assert len(read_journal(p).records) == seq + 1
    # damage in every record was met, of every kind
    assert {seq for seq, _ in repaired} == {0, 1, 2, 3}
    assert {kind for _, kind in repaired} >= {"altered", "cut", "zeros"}
