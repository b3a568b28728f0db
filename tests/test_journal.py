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
    assert (tmp_path / "g.journal.damaged").read_bytes() == data[:-4]
    j.append({"type": "order", "seq": 2, "side": "b", "order": {"k": "end-phase"}, "nonces": None,
              "digest": "d2"})
    j.close()
    assert [r["seq"] for r in read_journal(path).records] == [0, 1, 2]


def test_damage_before_the_end_is_refused_unless_salvaging(tmp_path):
    path = tmp_path / "g.journal"
    data = _write(path, 3)
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 0x20
    path.write_bytes(bytes(damaged))
    with pytest.raises(JournalError):
        read_journal(path)
    salvaged = read_journal(path, salvage=True)  # tests/test_journal_salvage.py: each kind of damage
    assert salvaged.damage is not None and len(salvaged.records) < 3


def _codec_or_error(decoder, body):
    """What a decoder makes of ``body``: the value's repr (types told apart: ``True`` and ``1``,
    ``b"a"`` and ``"a"``), or "refused"."""
    from hexwar.engine.codec import CodecError
    try:
        return repr(decoder(body))
    except CodecError:
        return "refused"


def _hostile_bodies():
    """Bodies the codec must refuse or read: floats, extension types, odd map keys, bad UTF-8,
    trailing and missing bytes, nesting at and past the codec's limit."""
    yield b"\xca\x00\x00\x00\x00"  # float 32
    yield b"\x81\xa1k\xcb" + bytes(8)  # a float 64 inside a map
    yield b"\xd4\x01\x00"  # fixext 1
    yield b"\x91\xc7\x01\x05\x00"  # ext 8 inside an array
    yield b"\x81\xc4\x01k\x01"  # a bin key
    yield b"\x81\x91\x01\x01"  # an array key
    yield b"\x81\xc0\x01"  # a nil key
    yield b"\x81\xc3\x01"  # a bool key (the codec takes it as an int key)
    yield b"\x81\x05\x01"  # an int key
    yield b"\xa2\xff\xfe"  # not UTF-8
    yield b"\x01\x02"  # trailing byte
    yield b"\x92\x01"  # array cut short
    yield b""  # nothing
    yield b"\xc1"  # never used
    for depth in (63, 64, 65, 66):
        yield b"\x91" * depth + b"\x01"
        yield b"\x91" * depth + b"\x90"
        yield b"\x81\xa1k" * depth + b"\x80"


def test_fast_body_reader_agrees_with_the_codec():
    """``decode_body`` (msgpack's C reader plus a type check) reads every record of the stored
    journals as ``codec.decode`` does, and refuses exactly what the codec refuses, damaged
    bodies included."""
    import random
    from pathlib import Path

    from hexwar.engine.codec import decode
    from hexwar.journal import decode_body

    root = Path(__file__).parent
    journals = sorted(root.glob("golden/*.journal")) + sorted(root.glob("engine/fixtures/*.journal"))
    assert journals
    import msgpack
    bodies = []
    for path in journals:
        unpacker = msgpack.Unpacker(raw=False)
        unpacker.feed(path.read_bytes()[len(MAGIC):])
        bodies.extend(frame[0] for frame in unpacker)
    rng = random.Random(16)
    damaged = []
    for body in rng.sample(bodies, 40):
        for _ in range(30):
            b = bytearray(body)
            b[rng.randrange(len(b))] = rng.randrange(256)
            damaged.append(bytes(b))
        damaged.append(body[: rng.randrange(len(body))])
    refused = 0
    for body in [*bodies, *_hostile_bodies(), *damaged]:
        want = _codec_or_error(decode, body)
        assert _codec_or_error(decode_body, body) == want, body[:40]
        refused += want == "refused"
    assert refused > 20  # the hostile and damaged bodies did reach the refusals


def test_ruleset_hash_reads_the_same_files_as_importlib_resources():
    """The ruleset hash lists the package folder itself; it must hash exactly the files (and
    bytes) that ``importlib.resources`` lists, or journals recorded before would be flagged."""
    import hashlib
    from importlib import resources

    from hexwar.engine import ENGINE_VERSION
    from hexwar.engine.rulesets import KNOWN
    from hexwar.match import ruleset_hash

    for ruleset_id, package in sorted(KNOWN.items()):
        h = hashlib.blake2b(digest_size=16)
        h.update(ENGINE_VERSION.encode())
        names = []
        for entry in sorted(resources.files(package).iterdir(), key=lambda p: p.name):
            if entry.name.endswith(".py"):
                names.append(entry.name)
                h.update(entry.name.encode() + b"\0" + entry.read_bytes())
        assert "__init__.py" in names, ruleset_id  # a test ruleset (drill) may be one file
        assert ruleset_hash(ruleset_id) == h.hexdigest(), ruleset_id
