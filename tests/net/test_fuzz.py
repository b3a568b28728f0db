"""Hypothesis-fuzzed frames: against the frame reader and schema checks, and against a live host."""

from __future__ import annotations

import asyncio
import tempfile
import threading
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from hexwar.net import protocol
from hexwar.net.errors import FramingError, LinkClosed, ProtocolViolation
from hexwar.net.framing import MAX_DEPTH, FrameReader, pack

from hexwar.net.limits import Limits
from netkit import Hostile, load, start_host

scalars = st.one_of(st.none(), st.booleans(), st.integers(-(1 << 63), (1 << 64) - 1), st.floats(allow_nan=False),
                    st.text(max_size=40), st.binary(max_size=80))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=10), inner, max_size=6)), max_leaves=25)
field_names = st.sampled_from(["seq", "order", "digest", "commit", "nonce", "nonces", "side", "text",
                               "n", "action", "reason", "result", "end", "proto", "k", "a", "zz"])
# maps that look like real messages: a known type and plausible-or-not fields
messages = st.builds(lambda t, f: {"type": t, **f},
                     st.sampled_from(sorted(protocol.SCHEMAS) + ["", "orders", "ORDER"]),
                     st.dictionaries(field_names, values, max_size=5))


# --- the reader and the schema on their own ------------------------------------------------------

@given(st.binary(max_size=600))
def test_reader_takes_any_bytes_without_crashing(data):
    reader = FrameReader()
    try:
        frames = reader.feed(data)
    except FramingError as exc:
        assert exc.reason
        return
    for frame in frames:
        try:
            protocol.parse(frame)
        except ProtocolViolation as exc:
            assert exc.reason


@given(st.lists(values, min_size=1, max_size=5), st.data())
def test_frames_split_at_any_points_reassemble(frames, data):
    blob = b"".join(pack(f) for f in frames)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(blob)), max_size=8)))
    reader = FrameReader()
    out = []
    try:
        for a, b in zip([0] + cuts, cuts + [len(blob)]):
            out.extend(reader.feed(blob[a:b]))
    except FramingError:
        return  # a value deeper than the limit: refused however it is split
    assert out == [msgpack.unpackb(pack(f), raw=False) for f in frames]


@given(messages)
def test_parse_accepts_only_what_the_schema_allows(frame):
    try:
        msg = protocol.parse(frame)
    except ProtocolViolation as exc:
        assert exc.reason and len(exc.reason) < 300
        return
    schema = protocol.SCHEMAS[msg["type"]]
    assert set(msg) - {"type"} <= set(schema)
    assert all(name in msg for name, (_, required) in schema.items() if required)


@pytest.mark.parametrize("frame,why", [
    (b"\xdb" + (10 ** 6).to_bytes(4, "big") + b"x" * (300 * 1024), "larger than"),
    (pack({"t": "x" * (200 * 1024)}), "max_str_len"),
    (pack({"b": b"x" * (200 * 1024)}), "undecodable"),  # over MAX_BIN (a compressed scenario file)
    (pack({"l": list(range(2000))}), "undecodable"),
    (pack({str(i): i for i in range(100)}), "undecodable"),
    (pack([[[[[[[[[[1]]]]]]]]]]), "nested deeper"),
    (b"\xd6\xff\x00\x00\x00\x00", "undecodable"),  # timestamp ext type
    (b"\xc1", "undecodable"),
    (b"\xa2\xff\xfe", "undecodable"),  # invalid UTF-8 string
], ids=["buffer", "str", "bin", "array", "map", "depth", "ext", "reserved-byte", "utf8"])
def test_reader_limits(frame, why):
    reader = FrameReader()
    with pytest.raises(FramingError) as err:
        reader.feed(frame)
    assert why in err.value.reason
    with pytest.raises(FramingError):
        reader.feed(pack({"type": "ping", "n": 1}))  # the stream stays broken
    assert MAX_DEPTH == 8


# --- against a running host ----------------------------------------------------------------------

class LoopThread:
    """An event loop in a thread, so synchronous hypothesis tests can talk to a live server."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture(scope="module")
def live():
    lt = LoopThread()
    tmp = Path(tempfile.mkdtemp(prefix="hexwar-fuzz-"))
    scenario = load()
    # many refusals on one connection: the per-link cap is tested in test_abuse.py
    host = lt.run(start_host(tmp / "h", scenario, limits=Limits(refusals_per_link=1 << 30)))
    hostile = Hostile(host, tmp / "g", code=host.invitation()["code"])
    lt.run(hostile.connect())
    yield lt, host, hostile
    hostile.close()
    lt.run(host.close())
    lt.stop()


def _state(host):
    return host.session.match.seq, host.session.game.digest(), host.session.match.end


def _send(live, frame=None, raw=None):
    lt, host, hostile = live
    before = _state(host)
    try:
        replies = lt.run(hostile.exchange(frame, raw=raw))
    except LinkClosed:
        replies = None
        lt.run(_reconnect(hostile))
    assert _state(host) == before, "a refused frame changed the state"
    assert host.session.desync is None
    return replies


async def _reconnect(hostile):
    hostile.close()
    await hostile.connect()


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(frame=st.one_of(values, messages))
def test_fuzzed_frames_against_a_live_host(live, frame):
    try:
        msg = protocol.parse(frame)
        kind = msg["type"]
    except ProtocolViolation:
        kind = None
    # well-formed messages that legitimately end or leave the match are not "refusals"
    assume(kind not in ("resign", "bye"))
    replies = _send(live, frame)
    assert replies is not None
    if kind is None:
        errors = [r for r in replies if r.get("type") == "error"]
        assert errors and errors[0]["reason"], f"{frame!r} was not refused with a reason"


async def _raw_probe(hostile, raw: bytes) -> str:
    """Fresh connection, the raw bytes, then a ping: "answered", "closed" or "pending" (the bytes
    began a frame that never completes; the host keeps waiting for it within its limits)."""
    await _reconnect(hostile)
    await hostile.send_raw(raw)
    await hostile.send({"type": "ping", "n": 1 << 40})
    try:
        while True:
            reply = await asyncio.wait_for(hostile.link.recv(), 0.3)
            if reply == {"type": "pong", "n": 1 << 40}:
                return "answered"
    except LinkClosed:
        return "closed"
    except asyncio.TimeoutError:
        return "pending"


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(raw=st.binary(min_size=1, max_size=300))
def test_fuzzed_bytes_against_a_live_host(live, raw):
    lt, host, hostile = live
    before = _state(host)
    outcome = lt.run(_raw_probe(hostile, raw))
    assert outcome in ("answered", "closed", "pending")
    assert _state(host) == before and host.session.desync is None
