"""Canonical binary encoding of plain engine data, byte-compatible with msgpack.

The state digest must not depend on a third-party encoder's version or on the order in which a
dict was filled, so the engine carries its own small encoder: maps are written with their keys
sorted, integers in their shortest form, tuples as arrays. Any msgpack library reads the result;
``decode`` reads it back for ``Game.from_bytes``. Floats are refused: no float decides anything.
"""

from __future__ import annotations

import struct
from typing import Any


class CodecError(ValueError):
    """Data that cannot be encoded canonically, or bytes that are not a canonical value."""


class Encoded:
    """A value already in canonical form: ``encode`` copies its bytes instead of walking it again.

    The state keeps each unit's encoding until the unit changes and hands the parts in this way,
    so a digest re-encodes only what moved. The bytes must be exactly ``encode(value)``.
    """

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data


def encode(value: Any) -> bytes:
    out = bytearray()
    _encode(value, out)
    return bytes(out)


def scalar_bytes(v: Any) -> bytes:
    """``encode(v)``, answered from tables for the small integers and short strings that most
    fields hold."""
    t = type(v)
    if t is int:
        if -32 <= v < 0x80:
            return _TINY_INT[v + 32]
    elif t is str:
        b = _STR_CACHE.get(v)
        if b is not None:
            return b
    elif v is None:
        return b"\xc0"
    return encode(v)


def array_header(n: int) -> bytes:
    if n < 16:
        return _FIXARRAY[n]
    if n < 0x10000:
        return b"\xdc" + struct.pack(">H", n)
    return b"\xdd" + struct.pack(">I", n)


def map_header(n: int) -> bytes:
    if n < 16:
        return _FIXMAP[n]
    if n < 0x10000:
        return b"\xde" + struct.pack(">H", n)
    return b"\xdf" + struct.pack(">I", n)


def sorted_items(d: dict[Any, Any]) -> list[tuple[bytes, Any]]:
    """A map's entries as (encoded key, value), in canonical order (by the key's bytes)."""
    items = []
    for k, item in d.items():
        tk = type(k)
        if tk is str:
            kb = _STR_CACHE.get(k)
            if kb is None:
                kb = _str_bytes(k)
        elif (tk is int or isinstance(k, (str, int))) and not isinstance(k, bool):
            kb = encode(k)
        else:
            raise CodecError(f"map key {k!r} is not a str or int")
        items.append((kb, item))
    items.sort(key=_first)
    return items


def _first(kv: tuple[bytes, Any]) -> bytes:
    return kv[0]


#: tuple of a dict's str keys, in its own order -> (encoded key, key) in canonical order. Keyed on
#: the keys themselves, so a state's vars, sides and marks, filled in the same order each time,
#: are sorted once; only all-str key sets are kept (an int or bool key goes the long way).
_KEY_ORDERS: dict[tuple[Any, ...], tuple[tuple[bytes, str], ...]] = {}


def _key_order(d: dict[Any, Any]) -> tuple[tuple[bytes, Any], ...] | list[tuple[bytes, Any]]:
    keys = tuple(d)
    order = _KEY_ORDERS.get(keys)
    if order is None:
        order = sorted_items({k: k for k in keys})
        if all(type(k) is str for k in keys):
            if len(_KEY_ORDERS) > 4096:
                _KEY_ORDERS.clear()
            _KEY_ORDERS[keys] = order = tuple(order)
    return order


_FIXARRAY = tuple(bytes((0x90 | n,)) for n in range(16))
_FIXMAP = tuple(bytes((0x80 | n,)) for n in range(16))
_SMALL_INT = tuple(bytes((n,)) for n in range(0x80))
_TINY_INT = tuple(bytes((n & 0xFF,)) for n in range(-32, 0x80))  # -32..127, each one byte
#: encodings of short strings met before (map keys, mark names, ids); bounded, content-keyed
_STR_CACHE: dict[str, bytes] = {}


def _str_bytes(v: str) -> bytes:
    b = v.encode("utf-8")
    n = len(b)
    if n < 32:
        out = bytes((0xA0 | n,)) + b
    elif n < 0x100:
        out = bytes((0xD9, n)) + b
    elif n < 0x10000:
        out = b"\xda" + struct.pack(">H", n) + b
    else:
        out = b"\xdb" + struct.pack(">I", n) + b
    if n < 32 and len(_STR_CACHE) < 4096:
        _STR_CACHE[v] = out
    return out


def _encode(v: Any, out: bytearray) -> None:
    t = type(v)
    if t is str:
        b = _STR_CACHE.get(v)
        out += b if b is not None else _str_bytes(v)
    elif t is int:
        if 0 <= v < 0x80:
            out += _SMALL_INT[v]
        else:
            _encode_int(v, out)
    elif t is list or t is tuple:
        out += array_header(len(v))
        for item in v:
            ti = type(item)  # the scalars most containers hold, without a call of their own
            if ti is str:
                b = _STR_CACHE.get(item)
                out += b if b is not None else _str_bytes(item)
            elif ti is int and 0 <= item < 0x80:
                out += _SMALL_INT[item]
            else:
                _encode(item, out)
    elif t is dict:
        out += map_header(len(v))
        for kb, k in _key_order(v):
            out += kb
            item = v[k]
            ti = type(item)
            if ti is str:
                b = _STR_CACHE.get(item)
                out += b if b is not None else _str_bytes(item)
            elif ti is int and 0 <= item < 0x80:
                out += _SMALL_INT[item]
            elif item is None:
                out.append(0xC0)
            else:
                _encode(item, out)
    elif v is None:
        out.append(0xC0)
    elif v is True:
        out.append(0xC3)
    elif v is False:
        out.append(0xC2)
    elif t is Encoded:
        out += v.data
    elif isinstance(v, int):
        _encode_int(int(v), out)
    elif isinstance(v, str):
        out += _str_bytes(str(v))
    elif isinstance(v, (bytes, bytearray)):
        n = len(v)
        if n < 0x100:
            out += bytes((0xC4, n))
        elif n < 0x10000:
            out += b"\xc5" + struct.pack(">H", n)
        else:
            out += b"\xc6" + struct.pack(">I", n)
        out += v
    elif isinstance(v, (list, tuple)):
        out += array_header(len(v))
        for item in v:
            _encode(item, out)
    elif isinstance(v, dict):
        out += map_header(len(v))
        for kb, item in sorted_items(v):
            out += kb
            _encode(item, out)
    else:
        raise CodecError(f"cannot encode {type(v).__name__} canonically")


def _encode_int(v: int, out: bytearray) -> None:
    if 0 <= v < 0x80:
        out.append(v)
    elif -32 <= v < 0:
        out.append(v & 0xFF)
    elif 0 <= v < 0x100:
        out += bytes((0xCC, v))
    elif 0 <= v < 0x10000:
        out += b"\xcd" + struct.pack(">H", v)
    elif 0 <= v < 0x100000000:
        out += b"\xce" + struct.pack(">I", v)
    elif 0 <= v < 1 << 64:
        out += b"\xcf" + struct.pack(">Q", v)
    elif -0x80 <= v < 0:
        out += b"\xd0" + struct.pack(">b", v)
    elif -0x8000 <= v < 0:
        out += b"\xd1" + struct.pack(">h", v)
    elif -0x80000000 <= v < 0:
        out += b"\xd2" + struct.pack(">i", v)
    elif -(1 << 63) <= v < 0:
        out += b"\xd3" + struct.pack(">q", v)
    else:
        raise CodecError(f"integer {v} does not fit in 64 bits")


def decode(data: bytes, max_depth: int = 64) -> Any:
    """Read one value; arrays come back as lists. Raises CodecError on anything malformed."""
    value, pos = _decode(memoryview(data), 0, max_depth)
    if pos != len(data):
        raise CodecError(f"{len(data) - pos} trailing bytes after the value")
    return value


def _need(buf: memoryview, pos: int, n: int) -> None:
    if pos + n > len(buf):
        raise CodecError("data ends in the middle of a value")


def _decode(buf: memoryview, pos: int, depth: int) -> tuple[Any, int]:
    if depth < 0:
        raise CodecError("value nested too deeply")
    _need(buf, pos, 1)
    b = buf[pos]
    pos += 1
    if b < 0x80:
        return b, pos
    if b >= 0xE0:
        return b - 0x100, pos
    if 0xA0 <= b <= 0xBF:
        return _str(buf, pos, b & 0x1F)
    if 0x90 <= b <= 0x9F:
        return _array(buf, pos, b & 0x0F, depth)
    if 0x80 <= b <= 0x8F:
        return _map(buf, pos, b & 0x0F, depth)
    if b == 0xC0:
        return None, pos
    if b == 0xC2:
        return False, pos
    if b == 0xC3:
        return True, pos
    fixed = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q"}
    if b in fixed:
        fmt = fixed[b]
        size = struct.calcsize(fmt)
        _need(buf, pos, size)
        return struct.unpack_from(fmt, buf, pos)[0], pos + size
    lengths = {0xD9: ">B", 0xDA: ">H", 0xDB: ">I", 0xC4: ">B", 0xC5: ">H", 0xC6: ">I",
               0xDC: ">H", 0xDD: ">I", 0xDE: ">H", 0xDF: ">I"}
    if b in lengths:
        fmt = lengths[b]
        size = struct.calcsize(fmt)
        _need(buf, pos, size)
        n = struct.unpack_from(fmt, buf, pos)[0]
        pos += size
        if b in (0xD9, 0xDA, 0xDB):
            return _str(buf, pos, n)
        if b in (0xC4, 0xC5, 0xC6):
            _need(buf, pos, n)
            return bytes(buf[pos:pos + n]), pos + n
        if b in (0xDC, 0xDD):
            return _array(buf, pos, n, depth)
        return _map(buf, pos, n, depth)
    raise CodecError(f"byte 0x{b:02x} is not part of the canonical encoding")


def _str(buf: memoryview, pos: int, n: int) -> tuple[str, int]:
    _need(buf, pos, n)
    try:
        return bytes(buf[pos:pos + n]).decode("utf-8"), pos + n
    except UnicodeDecodeError as exc:
        raise CodecError("string is not valid UTF-8") from exc


def _array(buf: memoryview, pos: int, n: int, depth: int) -> tuple[list[Any], int]:
    if n > len(buf) - pos:
        raise CodecError("array longer than the data")
    items = []
    for _ in range(n):
        item, pos = _decode(buf, pos, depth - 1)
        items.append(item)
    return items, pos


def _map(buf: memoryview, pos: int, n: int, depth: int) -> tuple[dict[Any, Any], int]:
    if 2 * n > len(buf) - pos:
        raise CodecError("map longer than the data")
    out: dict[Any, Any] = {}
    for _ in range(n):
        key, pos = _decode(buf, pos, depth - 1)
        if not isinstance(key, (str, int)):
            raise CodecError("map key is not a str or int")
        out[key], pos = _decode(buf, pos, depth - 1)
    return out, pos
