"""The engine's canonical encoder is msgpack-compatible and independent of dict order."""

import msgpack
import pytest
from hypothesis import given, strategies as st

from hexwar.engine.codec import CodecError, decode, encode

leaves = st.one_of(st.none(), st.booleans(), st.integers(-(1 << 63), (1 << 64) - 1),
                   st.text(max_size=300), st.binary(max_size=300))
values = st.recursive(leaves, lambda c: st.one_of(st.lists(c, max_size=20),
                                                  st.dictionaries(st.text(max_size=10), c, max_size=20)),
                      max_leaves=60)


@given(values)
def test_round_trip_and_msgpack_reads_it(v):
    data = encode(v)
    assert decode(data) == v
    assert msgpack.unpackb(data, raw=False, strict_map_key=False) == v


@given(st.dictionaries(st.text(max_size=5), st.integers(-(1 << 63), (1 << 63) - 1), max_size=20))
def test_key_order_does_not_change_the_bytes(d):
    reversed_d = dict(reversed(list(d.items())))
    assert encode(d) == encode(reversed_d)


def test_refuses_floats_and_garbage():
    with pytest.raises(CodecError):
        encode(1.5)
    with pytest.raises(CodecError):
        encode({(1, 2): 3})
    for bad in (b"\xc1", b"\x92\x01", b"\xa5ab", b"\x01\x02", b"\xdd\xff\xff\xff\xff"):
        with pytest.raises(CodecError):
            decode(bad)


def test_deep_nesting_is_refused():
    data = b"\x91" * 100 + b"\x00"
    with pytest.raises(CodecError):
        decode(data)


@given(st.binary(max_size=200))
def test_random_bytes_never_crash_the_decoder(data):
    try:
        decode(data)
    except CodecError:
        pass
