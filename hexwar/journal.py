"""The journal: an append-only file of msgpack records chained by hashes.

It is the save game, the replay, the resume point and the evidence of a match. Layout:

    b"HEXWARJ1"  then records, each a msgpack array [body, link]

``body`` is the canonical encoding of a record map (header first, then one per order) and
``link = BLAKE2b-128(previous link || body)``, starting from 16 zero bytes. Changing, dropping or
reordering any byte breaks the chain at that record, so a damaged file is refused with the number
of the first bad record (the header is record 0). ``append`` writes a record and fsyncs it;
``write`` only hands it to the operating system (a killed process loses nothing written) and a
``GroupCommit`` thread fsyncs everything written so far in one go, while the caller goes on (a
network peer sends the order meanwhile); ``durable(ticket)`` says when a record is safe from a
power cut too.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future, InvalidStateError
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from hexwar.engine.blake import blake2b
from hexwar.engine.codec import CodecError, encode
from hexwar.engine.plain import PlainRecord

MAGIC = b"HEXWARJ1"
FORMAT = 1
ZERO_LINK = bytes(16)
MAX_RECORD = 1 << 20  # one record (the header embeds the scenario file) stays under 1 MiB


class JournalError(ValueError):
    """A journal that cannot be trusted; ``record`` is the number of the first bad record."""

    def __init__(self, path: str, record: int | None, reason: str) -> None:
        self.path, self.record, self.reason = path, record, reason
        where = "" if record is None else f"record {record}: "
        super().__init__(f"{path}: {where}{reason}")


def chain(prev: bytes, body: bytes) -> bytes:
    return blake2b(prev + body, digest_size=16).digest()


_PLAIN_LEAVES = (int, str, bytes, bool, type(None))


def _check_plain(value: Any, depth: int) -> None:
    """Refuse what ``codec.decode`` refuses in a value msgpack has already read: floats, extension
    types, map keys other than str or int, nesting deeper than the codec allows."""
    t = type(value)
    if depth < 1 and value and (t is list or t is dict):
        raise CodecError("value nested too deeply")
    if t is list:
        for item in value:
            if type(item) not in _PLAIN_LEAVES:
                _check_plain(item, depth - 1)
    elif t is dict:
        for key, item in value.items():
            if not isinstance(key, (str, int)):
                raise CodecError("map key is not a str or int")
            if type(item) not in _PLAIN_LEAVES:
                _check_plain(item, depth - 1)
    elif t not in _PLAIN_LEAVES:
        raise CodecError(f"a {t.__name__} is not part of the canonical encoding")


def decode_body(body: bytes) -> Any:
    """``codec.decode(body)``, read by msgpack's C unpacker and then checked for the types the
    codec allows: the same values, accepted and refused alike (a test compares the two on valid
    and hostile bodies), about ten times faster on a long journal."""
    try:
        value = msgpack.unpackb(body, raw=False, strict_map_key=False, use_list=True)
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        # msgpack refuses what the codec refuses too: bad UTF-8, trailing or missing bytes,
        # unhashable map keys, nesting past its stack
        raise CodecError(str(exc) or type(exc).__name__) from None
    _check_plain(value, 64)
    return value


class JournalContents(PlainRecord):
    """A journal read and checked: its header, its records and where its hash chain ends
    (what an append continues from)."""

    __match_args__ = ("header", "records", "last_link", "size", "torn")

    def __init__(self, header: dict[str, Any], records: list[dict[str, Any]], last_link: bytes,
                 size: int, torn: bool = False) -> None:
        self.header = header
        self.records = records
        self.last_link = last_link
        self.size = size  # bytes of valid data
        self.torn = torn  # a cut-short last record was left out (only with allow_torn_tail)


def read_journal(path: str | Path, allow_torn_tail: bool = False) -> JournalContents:
    """Read and check a whole journal. Raises JournalError naming the first bad record.

    With ``allow_torn_tail`` a last record cut short (a crash in the middle of an append) is
    left out instead of refused; ``torn`` then says so. Damage anywhere else is still refused."""
    path = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise JournalError(path, None, f"cannot read: {exc.strerror or exc}") from None
    if not data.startswith(MAGIC):
        raise JournalError(path, None, "not a hexwar journal (bad magic bytes)")
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=MAX_RECORD * 2,
                                max_bin_len=MAX_RECORD, max_str_len=1024, max_array_len=2,
                                max_map_len=0, max_ext_len=0)
    unpacker.feed(data[len(MAGIC):])
    link = ZERO_LINK
    bodies: list[dict[str, Any]] = []
    index = 0
    torn_at = 0  # where a cut-short last record begins, when one is left out
    while True:
        start = len(MAGIC) + unpacker.tell()
        try:
            frame = unpacker.unpack()
        except msgpack.OutOfData:
            if start < len(data):
                if allow_torn_tail and index > 0:
                    torn_at = start
                    break
                raise JournalError(path, index, "truncated: the file ends in the middle of this record") from None
            break
        except (ValueError, msgpack.UnpackException) as exc:
            raise JournalError(path, index, f"malformed record ({exc})") from None
        if not (isinstance(frame, list) and len(frame) == 2 and isinstance(frame[0], bytes)
                and isinstance(frame[1], bytes)):
            raise JournalError(path, index, "malformed record (expected [body, link])")
        body, stored = frame
        link = chain(link, body)
        if stored != link:
            raise JournalError(path, index, "hash chain broken: the record or one before it was altered")
        try:
            record = decode_body(body)
        except CodecError as exc:
            raise JournalError(path, index, f"record body unreadable ({exc})") from None
        if not isinstance(record, dict) or not isinstance(record.get("type"), str):
            raise JournalError(path, index, "record has no type")
        bodies.append(record)
        index += 1
    if not bodies:
        raise JournalError(path, 0, "the journal has no header")
    header = bodies[0]
    if header.get("type") != "header":
        raise JournalError(path, 0, "the first record is not a header")
    if header.get("format") != FORMAT:
        raise JournalError(path, 0, f"journal format {header.get('format')!r} is not supported (want {FORMAT})")
    expected = 0
    for i, rec in enumerate(bodies[1:], 1):
        if rec["type"] == "order":
            if rec.get("seq") != expected:
                raise JournalError(path, i, f"sequence number {rec.get('seq')!r} where {expected} was due")
            expected += 1
    return JournalContents(header, bodies[1:], link, torn_at or len(data), bool(torn_at))


class GroupCommit:
    """Makes a file's writes durable in a thread: one fsync covers every record written before
    it began, so records written while an fsync runs share the next one (group commit). Tickets
    count records written; ``durable(t)`` is a future that is done once record ``t`` is synced."""

    def __init__(self, fileno: int) -> None:
        self._fd = fileno
        self._cond = threading.Condition()
        self.written = self.synced = 0
        self._waiters: list[tuple[int, Future]] = []
        self._closing = False
        self._error: OSError | None = None
        self._thread: threading.Thread | None = None

    def wrote(self, ticket: int) -> None:
        with self._cond:
            self.written = ticket
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="journal-fsync", daemon=True)
                self._thread.start()
            self._cond.notify()

    def durable(self, ticket: int) -> Future:
        fut: Future = Future()
        with self._cond:
            if self._error is not None:
                fut.set_exception(self._error)
            elif ticket <= self.synced:
                fut.set_result(ticket)
            else:
                self._waiters.append((ticket, fut))
                self._cond.notify()
        return fut

    def _run(self) -> None:
        while True:
            with self._cond:
                while self.written <= self.synced and not self._closing:
                    self._cond.wait()
                if self.written <= self.synced:
                    return
                target = self.written
            try:
                _datasync(self._fd)
            except OSError as exc:
                with self._cond:
                    self._error = exc
                    waiters, self._waiters = self._waiters, []
                for _, fut in waiters:
                    _settle(fut, exc)
                return
            with self._cond:
                self.synced = target
                done = [w for w in self._waiters if w[0] <= target]
                self._waiters = [w for w in self._waiters if w[0] > target]
            for _, fut in done:
                _settle(fut, target)

    def close(self) -> None:
        """Sync what is written, then stop the thread."""
        with self._cond:
            self._closing = True
            self._cond.notify()
            thread = self._thread
        if thread is not None:
            thread.join()


# The data and the file's size, not its times: an append needs no more to be read back whole.
_datasync = getattr(os, "fdatasync", os.fsync)


def _settle(fut: Future, outcome: Any) -> None:
    """Resolve a waiter, unless its asker gave up waiting (cancelled it) meanwhile."""
    try:
        if isinstance(outcome, BaseException):
            fut.set_exception(outcome)
        else:
            fut.set_result(outcome)
    except InvalidStateError:
        pass


class Journal:
    """An open journal for appending. Use ``create`` for a new match, ``resume`` to continue one."""

    def __init__(self, path: str, f: BinaryIO, link: bytes) -> None:
        self.path = path
        self._f = f
        self._link = link
        self.written = 0  # records written through this object: the tickets of ``write``
        self._group: GroupCommit | None = None

    @classmethod
    def create(cls, path: str | Path, header: dict[str, Any]) -> "Journal":
        path = str(path)
        f = open(path, "xb")
        f.write(MAGIC)
        j = cls(path, f, ZERO_LINK)
        j.append({"type": "header", "format": FORMAT, **header})
        return j

    @classmethod
    def resume(cls, path: str | Path, drop_torn_tail: bool = False) -> tuple["Journal", JournalContents]:
        """Open an existing journal for appending after its last record.

        With ``drop_torn_tail`` a half-written last record (the process died mid-append) is cut
        off; the file as it was is kept beside it as ``<path>.torn``."""
        contents = read_journal(path, allow_torn_tail=drop_torn_tail)
        if contents.torn:
            import shutil  # only for a torn journal
            shutil.copyfile(str(path), f"{path}.torn")
        f = open(str(path), "r+b")
        f.seek(contents.size)
        f.truncate()
        return cls(str(path), f, contents.last_link), contents

    def append(self, record: dict[str, Any]) -> None:
        """Write ``record`` and fsync it (with every record written before it)."""
        self._put(record)
        os.fsync(self._f.fileno())

    def write(self, record: dict[str, Any]) -> int:
        """Write ``record`` through to the operating system (a killed process loses nothing
        written; a power cut may lose it until ``durable``) and return its ticket. The group
        commit thread starts syncing it at once; nobody waits unless they ask ``durable``."""
        ticket = self._put(record)
        if self._group is None:
            self._group = GroupCommit(self._f.fileno())
        self._group.wrote(ticket)
        return ticket

    def _put(self, record: dict[str, Any]) -> int:
        body = encode(record)
        if len(body) > MAX_RECORD:
            raise JournalError(self.path, None, "record too large")
        self._link = chain(self._link, body)
        self._f.write(msgpack.packb([body, self._link], use_bin_type=True))
        self._f.flush()
        self.written += 1
        return self.written

    def durable(self, ticket: int | None = None) -> Future:
        """A future done once record ``ticket`` (default: the last written) is fsynced; the
        fsync runs in a thread and covers every record written before it starts."""
        ticket = self.written if ticket is None else ticket
        if self._group is None:  # nothing was written by ``write``: ``append`` synced it all
            done: Future = Future()
            done.set_result(ticket)
            return done
        if ticket > self._group.written:  # written by ``append`` after the last ``write``
            self._group.wrote(self.written)
        return self._group.durable(ticket)

    def close(self) -> None:
        if self._group is not None:
            self._group.close()
        self._f.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def keep_first_orders(path: str | Path, keep_orders: int) -> None:
    """Rewrite the journal at ``path`` with its header and only its first ``keep_orders``
    orders (undo takes orders back this way, so a save never holds a retracted order). The new
    file replaces the old one atomically; the caller must have closed its ``Journal`` first."""
    path = Path(path)
    contents = read_journal(path)
    header = {k: v for k, v in contents.header.items() if k not in ("type", "format")}
    tmp = path.with_suffix(path.suffix + ".tmp")
    if tmp.exists():
        tmp.unlink()
    with Journal.create(tmp, header) as j:
        for rec in contents.records:
            if rec.get("type") == "order" and rec.get("seq", 0) >= keep_orders:
                break
            j.append(rec)
    os.replace(tmp, path)
