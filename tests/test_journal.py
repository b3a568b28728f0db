"""The journal file: hash chain, truncation, corruption, resume."""

import pytest

from hexwar.journal import MAGIC, Journal, JournalError, read_journal


def _write(path, n_orders=3):
    with Journal.create(path, {"scenario": "x", "match": b"m" * 16}) as j:
        for seq in range(n_orders):
            j.append({"type": "order", "seq": seq, "side": "a", "order": {"k": "end-phase"},
                      "nonces": None, "digest": f"d{seq}"})
    return path.read_bytes()


def test_written_journal_reads_back(tmp_path):
    path = tmp_path / "g.journal"
    data = _write(path)
    assert data.startswith(MAGIC)
    c = read_journal(path)
    assert c.header["type"] == "header" and c.header["scenario"] == "x"
    assert [r["seq"] for r in c.records] == [0, 1, 2]
    assert c.size == len(data)


def test_every_flipped_byte_is_refused_with_a_record_number(tmp_path):
    path = tmp_path / "g.journal"
    data = _write(path)
    for i in range(len(data)):
        damaged = bytearray(data)
        damaged[i] ^= 0x41
        path.write_bytes(bytes(damaged))
        with pytest.raises(JournalError) as err:
            read_journal(path)
        assert str(path) in str(err.value)
        if i >= len(MAGIC):
            assert err.value.record is not None


def test_truncation_is_refused_naming_the_cut_record(tmp_path):
    path = tmp_path / "g.journal"
    data = _write(path)
    full = read_journal(path)
    for cut in range(len(MAGIC) + 1, len(data)):
        path.write_bytes(data[:cut])
        try:
            c = read_journal(path)
        except JournalError as exc:
            assert exc.record is not None
            assert "truncated" in exc.reason or "malformed" in exc.reason or "chain" in exc.reason
        else:  # a cut exactly between records is a shorter, valid journal
            assert len(c.records) < len(full.records)


def test_reordered_records_break_the_chain(tmp_path):
    a = tmp_path / "a.journal"
    data = _write(a, 2)
    c = read_journal(a)
    assert len(c.records) == 2
    # Swap the two order frames: each frame is self-contained msgpack, find their boundaries.
    import msgpack
    unpacker = msgpack.Unpacker()
    unpacker.feed(data[len(MAGIC):])
    frames, pos = [], len(MAGIC)
    for _ in unpacker:
        end = len(MAGIC) + unpacker.tell()
        frames.append(data[pos:end])
        pos = end
    a.write_bytes(MAGIC + frames[0] + frames[2] + frames[1])
    with pytest.raises(JournalError) as err:
        read_journal(a)
    assert err.value.record == 1


def test_not_a_journal_and_missing_file(tmp_path):
    p = tmp_path / "x"
    p.write_bytes(b"hello")
    with pytest.raises(JournalError, match="not a hexwar journal"):
        read_journal(p)
    with pytest.raises(JournalError, match="cannot read"):
        read_journal(tmp_path / "missing")
    p.write_bytes(MAGIC)
    with pytest.raises(JournalError, match="no header"):
        read_journal(p)


def test_resume_appends_after_the_last_record(tmp_path):
    path = tmp_path / "g.journal"
    _write(path, 2)
    j, contents = Journal.resume(path)
    assert len(contents.records) == 2
    j.append({"type": "order", "seq": 2, "side": "b", "order": {"k": "end-phase"}, "nonces": None,
              "digest": "d2"})
    j.close()
    assert [r["seq"] for r in read_journal(path).records] == [0, 1, 2]


def test_out_of_order_sequence_numbers_are_refused(tmp_path):
    path = tmp_path / "g.journal"
    with Journal.create(path, {"scenario": "x"}) as j:
        j.append({"type": "order", "seq": 0})
        j.append({"type": "order", "seq": 5})
    with pytest.raises(JournalError, match="sequence number 5") as err:
        read_journal(path)
    assert err.value.record == 2


def test_resume_can_drop_a_torn_last_record_and_keeps_the_original(tmp_path):
    path = tmp_path / "g.journal"
    data = _write(path, 3)
    path.write_bytes(data[:-4])                 # the process died while writing record 3
    with pytest.raises(JournalError, match="truncated"):
        Journal.resume(path)                    # refused unless asked
    j, contents = Journal.resume(path, drop_torn_tail=True)
    assert contents.torn and [r["seq"] for r in contents.records] == [0, 1]
    assert (tmp_path / "g.journal.torn").read_bytes() == data[:-4]
    j.append({"type": "order", "seq": 2, "side": "b", "order": {"k": "end-phase"}, "nonces": None,
              "digest": "d2"})
    j.close()
    assert [r["seq"] for r in read_journal(path).records] == [0, 1, 2]


def test_torn_tail_is_only_forgiven_at_the_very_end(tmp_path):
    path = tmp_path / "g.journal"
    data = _write(path, 3)
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 0x20
    path.write_bytes(bytes(damaged))
    with pytest.raises(JournalError):
        read_journal(path, allow_torn_tail=True)
