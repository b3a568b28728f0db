"""The journal: an append-only file of msgpack records chained by hashes.

It is the save game, the replay, the resume point and the evidence of a match. Layout:

    b"HEXWARJ1"  then records, each a msgpack array [body, link]

``body`` is the canonical encoding of a record map (header first, then one per order) and
``link = BLAKE2b-128(previous link || body)``, starting from 16 zero bytes. Changing, dropping or
reordering any byte breaks the chain at that record, so a damaged file is refused with the number
of the first bad record (the header is record 0). ``append`` writes a record and fsyncs it;
``write`` only hands it to the operating system (a killed process loses nothing written) and a
``GroupCommit`` thread syncs everything written so far in one go, while the caller goes on (a
network peer sends the order meanwhile); ``durable(ticket)`` says when a record is safe from a
power cut too.

A damaged save is not lost whole: ``read_journal(..., salvage=True)`` reads it up to its last good
record (and skips a record that is an identical copy of an earlier one), and ``salvage_journal``
also repairs the file, keeping the original as ``<path>.damaged``. Only a damaged header (record 0,
which holds the scenario) leaves nothing to keep.
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


class Damage(PlainRecord):
    """Where a journal stops being trustworthy: the number of its first bad record (the header is
    record 0, counted as the records lie in the file), the byte offset it starts at, what is
    wrong, and its ``kind``: ``cut`` (the file ends in the middle of the record: a crash while
    saving), ``zeros`` (from there on the file is zero bytes: a power cut) or ``altered``."""

    __match_args__ = ("record", "offset", "reason", "kind")

    def __init__(self, record: int, offset: int, reason: str, kind: str) -> None:
        self.record, self.offset, self.reason, self.kind = record, offset, reason, kind


class JournalContents(PlainRecord):
    """A journal read and checked: its header, its records and where its hash chain ends
    (what an append continues from). A salvaged journal also says what was left out: ``damage``
    (the first bad record; it and all after it are left out) and ``skipped`` (the numbers of
    records that were identical copies of an earlier record, skipped); ``kept_as`` is where
    ``salvage_journal`` kept the damaged original."""

    __match_args__ = ("header", "records", "last_link", "size", "damage", "skipped", "kept_as")

    def __init__(self, header: dict[str, Any], records: list[dict[str, Any]], last_link: bytes,
                 size: int, damage: Damage | None = None, skipped: tuple[int, ...] = (),
                 kept_as: str | None = None) -> None:
        self.header = header
        self.records = records
        self.last_link = last_link
        self.size = size  # bytes of valid data (where an append continues)
        self.damage = damage
        self.skipped = skipped
        self.kept_as = kept_as

    @property
    def torn(self) -> bool:
        """Whether something in the file was left out (a damaged record or a copy): resuming
        with ``Journal.resume(..., drop_torn_tail=True)`` then repairs the file."""
        return self.damage is not None or bool(self.skipped)

    @property
    def orders(self) -> int:
        """How many orders the good part holds."""
        return sum(1 for r in self.records if r["type"] == "order")


def damage_notice(contents: JournalContents, name: str) -> str:
    """What a player is told about a salvaged journal, in words: which record is damaged, how
    many orders were kept and where the original is; "" when nothing was left out."""
    parts = []
    n = contents.orders
    kept = f"{n} order{'' if n == 1 else 's'} {'is' if n == 1 else 'are'} loaded"
    d = contents.damage
    if d is not None:
        if d.kind == "cut":
            parts.append(f"The save ends in the middle of record {d.record} (the game was interrupted "
                         f"while saving): the {kept}, every complete order before it.")
        elif d.kind == "zeros":
            parts.append(f"From record {d.record} on the save holds zero bytes (as after a power cut): "
                         f"the {kept}, every order before it; anything after is lost.")
        else:
            parts.append(f"Record {d.record} of the save is damaged ({d.reason}): the {kept}, every "
                         f"order before it; it and every record after it are lost.")
    for number in contents.skipped:
        parts.append(f"Record {number} was an identical copy of an earlier record and was skipped.")
    if not parts:
        return ""
    if d is None:
        parts.append(f"All {kept}.")
    if contents.kept_as:
        parts.append(f"The file as it was is kept as {Path(contents.kept_as).name}.")
    return " ".join(parts)


_HEADER_LOST = "nothing can be recovered: the header (record 0) holds the scenario every order needs"


def read_journal(path: str | Path, allow_torn_tail: bool = False, *,
                 salvage: bool = False) -> JournalContents:
    """Read and check a whole journal. Raises JournalError naming the first bad record.

    With ``salvage`` (``allow_torn_tail`` is its older name) a damaged journal is read up to its
    last good record instead of refused: a cut, altered or zero-filled record and everything
    after it are left out (``damage`` says which and why), and a record that is an identical
    copy of an earlier one is skipped (``skipped``). The file is not changed; a header that is
    itself damaged is still refused, since nothing can be replayed without it."""
    path = str(path)
    salvage = salvage or allow_torn_tail
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise JournalError(path, None, f"cannot read: {exc.strerror or exc}") from None
    contents, _ = _scan(path, data, salvage)
    return contents


def _scan(path: str, data: bytes, salvage: bool) -> tuple[JournalContents, list[tuple[int, int]]]:
    """The journal in ``data``, and with ``salvage`` the byte span of each record kept (what a
    repaired file holds after the magic bytes)."""
    if not data.startswith(MAGIC):
        reason = "not a hexwar journal (bad magic bytes)"
        if data and not data.strip(b"\0"):
            reason = f"the file holds only zero bytes (as after a power cut); {_HEADER_LOST}"
        elif len(data) >= len(MAGIC) and sum(a != b for a, b in zip(data, MAGIC)) <= 2:
            reason = f"the journal's first bytes are damaged (bad magic bytes); {_HEADER_LOST}"
        raise JournalError(path, None, reason)
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=MAX_RECORD * 2,
                                max_bin_len=MAX_RECORD, max_str_len=1024, max_array_len=2,
                                max_map_len=0, max_ext_len=0)
    unpacker.feed(data[len(MAGIC):])
    link = ZERO_LINK
    bodies: list[dict[str, Any]] = []
    spans: list[tuple[int, int]] = []
    kept: dict[bytes, tuple[int, bytes]] = {}  # link -> (number, body) of each record kept: to spot a copy
    skipped: list[int] = []
    damage: Damage | None = None
    number = 0  # the record's place in the file (the header is 0)
    expected = 0  # the next order's seq
    while True:
        start = len(MAGIC) + unpacker.tell()
        problem: tuple[str, str] | None = None  # (reason, kind)
        record: Any = None
        try:
            frame = unpacker.unpack()
        except msgpack.OutOfData:
            if start >= len(data):
                break
            problem = ("truncated: the file ends in the middle of this record", "cut")
        except (ValueError, msgpack.UnpackException) as exc:
            problem = (f"malformed record ({exc})", "altered")
        else:
            if (type(frame) is list and len(frame) == 2 and type(frame[0]) is bytes
                    and frame[1] == chain(link, frame[0])):
                try:
                    record = decode_body(frame[0])
                except CodecError as exc:
                    problem = (f"record body unreadable ({exc})", "altered")
                else:
                    if (type(record) is dict and record.get("type") == "order"
                            and record.get("seq") == expected and number):
                        expected += 1  # the common case, checked first
                    else:
                        problem = _record_problem(record, number, expected)
            else:
                copy_of = _copy_of(frame, kept)  # only a salvaging read keeps them
                if copy_of is not None:
                    skipped.append(number)
                    number += 1
                    continue
                problem = _frame_problem(frame)
        if problem is not None:
            reason, kind = problem
            zeros = len(data) - len(data.rstrip(b"\0"))
            if zeros == len(data) - start:
                reason, kind = f"{zeros} zero bytes where this record was due", "zeros"
            elif zeros >= 16 and len(data) - zeros > start:
                reason, kind = f"the file ends in {zeros} zero bytes from inside this record", "zeros"
            if not salvage or number == 0:
                if salvage:
                    reason = f"{reason}; {_HEADER_LOST}"
                raise JournalError(path, number, reason)
            damage = Damage(number, start, reason, kind)
            break
        link = frame[1]  # the chain continues from the last record kept
        bodies.append(record)
        if salvage:
            kept.setdefault(frame[1], (number, frame[0]))
            spans.append((start, len(MAGIC) + unpacker.tell()))
        number += 1
    if not bodies:
        raise JournalError(path, 0, "the journal has no header")
    size = spans[-1][1] if spans and (damage is not None or skipped) else len(data)
    return JournalContents(bodies[0], bodies[1:], link, size, damage, tuple(skipped)), spans


def _frame_problem(frame: Any) -> tuple[str, str]:
    """Why a frame that does not continue the hash chain is bad, as (reason, kind)."""
    if not (isinstance(frame, list) and len(frame) == 2 and isinstance(frame[0], bytes)
            and isinstance(frame[1], bytes)):
        return "malformed record (expected [body, link])", "altered"
    return "hash chain broken: the record or one before it was altered", "altered"


def _copy_of(frame: Any, kept: dict[bytes, tuple[int, bytes]]) -> int | None:
    """The number of the kept record ``frame`` is an identical copy of (body and link), if any."""
    if not (isinstance(frame, list) and len(frame) == 2 and isinstance(frame[1], bytes)):
        return None
    number, body = kept.get(frame[1], (None, None))
    return number if body is not None and body == frame[0] else None


def _record_problem(record: Any, number: int, expected: int) -> tuple[str, str] | None:
    """What is wrong with a decoded record at place ``number`` when order ``expected`` is due."""
    if not isinstance(record, dict) or not isinstance(record.get("type"), str):
        return "record has no type", "altered"
    if number == 0:
        if record["type"] != "header":
            return "the first record is not a header", "altered"
        if record.get("format") != FORMAT:
            return f"journal format {record.get('format')!r} is not supported (want {FORMAT})", "altered"
    elif record["type"] == "order":
        return f"sequence number {record.get('seq')!r} where {expected} was due", "altered"
    return None


def salvage_journal(path: str | Path) -> JournalContents:
    """Read a journal as ``read_journal(path, salvage=True)`` does and, when anything was left
    out, repair the file so it holds only its good records (appends then continue the chain).
    The file as it was is kept first beside it (``damaged_copy_path``, readable by its owner
    only: a network journal holds a nonce before the peer sees it); ``kept_as`` names it."""
    path = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise JournalError(path, None, f"cannot read: {exc.strerror or exc}") from None
    contents, spans = _scan(path, data, salvage=True)
    if not contents.torn:
        return contents
    kept = damaged_copy_path(path)
    _write_new(kept, data, "xb")
    good = MAGIC + b"".join(data[a:b] for a, b in spans)
    tmp = f"{path}.salvage"
    _write_new(tmp, good, "wb")
    os.replace(tmp, path)
    try:  # the rename itself durable too (best effort: not every system opens a folder)
        folder = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        pass
    else:
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    contents.size, contents.kept_as = len(good), kept
    return contents


def damaged_copy_path(path: str | Path) -> str:
    """Where a damaged journal's original is kept: ``<path>.damaged``, or ``.damaged-2``, ``-3``
    ... when an earlier one is already there (never overwritten)."""
    candidate, n = f"{path}.damaged", 1
    while os.path.lexists(candidate):
        n += 1
        candidate = f"{path}.damaged-{n}"
    return candidate


def _write_new(path: str, data: bytes, mode: str) -> None:
    """Write ``data`` to ``path`` (mode "xb": a new file), owner-only, and make it durable."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if mode == "xb" else os.O_TRUNC)
    with os.fdopen(os.open(path, flags, 0o600), "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


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

        With ``drop_torn_tail`` a damaged journal is repaired first (``salvage_journal``: a
        half-written last record, the process died mid-append, or any other damage is cut off,
        a copied record dropped); the file as it was is kept beside it as ``<path>.damaged``."""
        contents = salvage_journal(path) if drop_torn_tail else read_journal(path)
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
