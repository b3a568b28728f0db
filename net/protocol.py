"""Message schemas and the protocol 2 wire form: what each message may carry, checked first.

Inside the program every message is a dict with a ``type`` and a fixed set of named fields;
``parse`` returns it only if every field has the right type and size and no unknown field is
present, and otherwise raises ``ProtocolViolation`` whose reason names the message and the field.

On the wire the handshake (``hello``, ``want``, ``scenario`` and a ``bye`` refusing it) stays a map,
so that any version can read another's hello and say what differs. Once both sides agreed, play
messages travel positionally (``encode``/``decode``): ``[code, field1, field2, ...]`` in the order
of ``WIRE``, trailing absent fields left out, and orders squeezed by ``Strings``, a per-link table
that sends each kind, argument name and string value once and a one-byte reference after that.
A later message type is one more line in ``WIRE`` and ``SCHEMAS``. Nothing here knows the game
state: "out of order" and "illegal" are the session's checks. NOTES.md describes every message.
"""

from __future__ import annotations

from typing import Any, Callable

from .errors import ProtocolViolation

PROTOCOL_VERSION = 2
CAPABILITIES = ("lockstep", "commit-reveal", "resume", "chat", "draw", "turn-timer", "spectate",
                "sealed-plans", "scenario-zlib")
SCENARIO_ZLIB = "scenario-zlib"  # a host that can send the scenario file zlib-compressed
MAX_SCENARIO = 128 * 1024  # a scenario file sent to a peer: characters of text, bytes inflated
REQUIRED_CAPS = ("lockstep", "commit-reveal", "resume")
NONCE_MIN, NONCE_MAX = 16, 64
MAX_CHAT = 500
MAX_SEQ = 1 << 40

Check = Callable[[Any], str | None]  # None when fine, else what is wrong


def _int(lo: int, hi: int) -> Check:
    def check(v: Any) -> str | None:
        if not isinstance(v, int) or isinstance(v, bool):
            return "must be an integer"
        return None if lo <= v <= hi else f"must be between {lo} and {hi}"
    return check


def _str(hi: int, choices: tuple[str, ...] = ()) -> Check:
    def check(v: Any) -> str | None:
        if not isinstance(v, str):
            return "must be a string"
        if len(v) > hi:
            return f"longer than {hi} characters"
        if choices and v not in choices:
            return f"must be one of {', '.join(choices)}"
        return None
    return check


def _bin(lo: int, hi: int) -> Check:
    def check(v: Any) -> str | None:
        if not isinstance(v, bytes):
            return "must be binary"
        return None if lo <= len(v) <= hi else f"must be {lo}..{hi} bytes"
    return check


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def _map(v: Any) -> str | None:
    return None if isinstance(v, dict) else "must be a map"


def _strlist(v: Any) -> str | None:
    if not isinstance(v, list) or len(v) > 32 or not all(isinstance(x, str) and len(x) <= 32 for x in v):
        return "must be a list of at most 32 short strings"
    return None


def _nonces(v: Any) -> str | None:
    if v is None:
        return None
    if (isinstance(v, list) and len(v) == 2
            and all(isinstance(n, bytes) and NONCE_MIN <= len(n) <= NONCE_MAX for n in v)):
        return None
    return f"must be nil or two {NONCE_MIN}..{NONCE_MAX}-byte nonces"


PLAN_ROWS, PLAN_ROW_ITEMS, PLAN_TEXT = 64, 32, 64  # the shape engine/secret.py accepts, and short text
SALT_BYTES = 40  # a sealed plan's salt: match id (16) + seq of its seal (8) + secret (16); see secret_plans.py


def _plan(v: Any) -> str | None:
    if not isinstance(v, list) or len(v) > PLAN_ROWS:
        return f"must be a list of at most {PLAN_ROWS} rows"
    for row in v:
        if not isinstance(row, list) or not 1 <= len(row) <= PLAN_ROW_ITEMS:
            return f"must hold rows of 1..{PLAN_ROW_ITEMS} values"
        for x in row:
            if not (x is None or isinstance(x, (bool, int)) or isinstance(x, str) and len(x) <= PLAN_TEXT):
                return f"rows hold only integers, true/false, nil or text of at most {PLAN_TEXT} characters"
            if isinstance(x, int) and not isinstance(x, bool) and not -(1 << 31) <= x < 1 << 31:
                return "rows hold integers of at most 32 bits"
    return None


def _result(v: Any) -> str | None:
    if v is None:
        return None
    if not isinstance(v, dict) or set(v) - {"winner", "reason"}:
        return "must be nil or a map of winner and reason"
    w, r = v.get("winner"), v.get("reason", "")
    if not (w is None or isinstance(w, str) and len(w) <= 64) or not (isinstance(r, str) and len(r) <= 200):
        return "winner must be a side or nil and reason a short string"
    return None


WINDOW = 8     # orders a peer may have unacknowledged; two journals may differ by this many
ACK_EVERY = 4  # the receiver acknowledges at least every this many orders (acks are cumulative)
DIGEST_BYTES = 8  # in play messages: enough to catch a desync at every order (2**-64 to miss one)
SEQ = _int(0, MAX_SEQ)
FULL_DIGEST = _bin(16, 16)
DIGEST = _bin(DIGEST_BYTES, DIGEST_BYTES)
NONCE = _bin(NONCE_MIN, NONCE_MAX)
ID = _str(64)
HASH = _str(128)

# type -> {field: (check, required)}
SCHEMAS: dict[str, dict[str, tuple[Check, bool]]] = {
    "hello": {
        "proto": (_int(0, 1 << 16), True), "role": (_str(16, ("host", "guest", "spectator")), True),
        "engine": (ID, True), "hexwar": (ID, True), "caps": (_strlist, True),
        "ruleset": (ID, True), "ruleset_hash": (HASH, True),
        "scenario": (ID, True), "scenario_hash": (HASH, True),
        "match": (_bin(16, 16), False), "side": (ID, False), "key": (_str(1024), False),
        "turn_time": (_int(0, 86400 * 7), False),
        "seq": (SEQ, False),
    },
    "want": {"scenario_hash": (HASH, True), "zlib": (_bool, False)},
    # exactly one of the two (handshake.py): ``zlib`` only in answer to a want that asked for it
    "scenario": {"text": (_str(MAX_SCENARIO), False), "zlib": (_bin(1, MAX_SCENARIO), False)},
    "resume": {"seq": (SEQ, True), "digest": (FULL_DIGEST, True), "end": (_result, False)},
    "order": {"seq": (SEQ, True), "order": (_map, True), "digest": (DIGEST, False),
              "commit": (_bin(32, 32), False)},
    "nonce": {"seq": (SEQ, True), "nonce": (NONCE, True)},
    "reveal": {"seq": (SEQ, True), "nonce": (NONCE, True), "digest": (DIGEST, True)},
    "seal": {"seq": (SEQ, True), "plan_commit": (_bin(32, 32), True), "digest": (DIGEST, True)},
    "unseal": {"seq": (SEQ, True), "plan": (_plan, True), "salt": (_bin(SALT_BYTES, SALT_BYTES), True),
               "digest": (DIGEST, False), "commit": (_bin(32, 32), False)},
    "ack": {"seq": (SEQ, True), "digest": (DIGEST, True)},
    "record": {"seq": (SEQ, True), "side": (ID, True), "order": (_map, True),
               "nonces": (_nonces, True), "digest": (DIGEST, True)},
    "chat": {"text": (_str(MAX_CHAT), True), "side": (ID, False)},
    "ping": {"n": (_int(0, 1 << 62), True)},
    "pong": {"n": (_int(0, 1 << 62), True)},
    "resign": {"seq": (SEQ, True)},
    "draw": {"action": (_str(8, ("offer", "accept", "decline")), True), "seq": (SEQ, True)},
    "timeout": {"seq": (SEQ, True)},
    "error": {"reason": (_str(500), True), "ref": (_str(16), False)},
    "end": {"result": (_result, True), "seq": (SEQ, True), "digest": (DIGEST, True)},
    "bye": {"reason": (_str(500), True), "seq": (SEQ, False), "digest": (DIGEST, False)},
}


def parse(frame: Any) -> dict[str, Any]:
    """Return ``frame`` if it is a well-formed message, else raise ``ProtocolViolation``."""
    if isinstance(frame, Undecodable):
        raise ProtocolViolation(frame.reason)
    if not isinstance(frame, dict):
        raise ProtocolViolation(f"a message must be a map, not {type(frame).__name__}")
    kind = frame.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        shown = kind if isinstance(kind, str) and len(kind) <= 20 else type(kind).__name__
        raise ProtocolViolation(f"unknown message type {shown!r}")
    schema = SCHEMAS[kind]
    extra = sorted(k for k in frame if k != "type" and k not in schema)
    if extra:
        raise ProtocolViolation(f"'{kind}' message has unknown field {extra[0][:20]!r}")
    for name, (check, required) in schema.items():
        if name not in frame:
            if required:
                raise ProtocolViolation(f"'{kind}' message lacks field '{name}'")
            continue
        problem = check(frame[name])
        if problem:
            raise ProtocolViolation(f"'{kind}' message field '{name}' {problem}")
    return frame


def message(kind: str, **fields: Any) -> dict[str, Any]:
    """Build a message (checked: we never send what we would refuse)."""
    msg = {"type": kind, **{k: v for k, v in fields.items() if v is not None or k in ("nonces", "result")}}
    return parse(msg)


def short_digest(digest: str | bytes) -> bytes:
    """The digest as play messages carry it (a hex string from a record, or bytes)."""
    raw = bytes.fromhex(digest) if isinstance(digest, str) else digest
    return raw[:DIGEST_BYTES]


# --- the protocol 2 wire form of play messages -----------------------------------------------

HANDSHAKE = ("hello", "want", "scenario")  # always maps (so is a bye before play begins)

# type -> (code, fields in wire order). Codes are never reused; a new message takes a new code.
WIRE: dict[str, tuple[int, tuple[str, ...]]] = {
    "resume": (1, ("seq", "digest", "end")),
    "order": (2, ("seq", "order", "digest", "commit")),
    "nonce": (3, ("seq", "nonce")),
    "reveal": (4, ("seq", "nonce", "digest")),
    "ack": (5, ("seq", "digest")),
    "record": (6, ("seq", "side", "order", "nonces", "digest")),
    "chat": (7, ("text", "side")),
    "ping": (8, ("n",)),
    "pong": (9, ("n",)),
    "resign": (10, ("seq",)),
    "draw": (11, ("action", "seq")),
    "timeout": (12, ("seq",)),
    "error": (13, ("reason", "ref")),
    "end": (14, ("result", "seq", "digest")),
    "bye": (15, ("reason", "seq", "digest")),
    "seal": (16, ("seq", "plan_commit", "digest")),
    "unseal": (17, ("seq", "plan", "salt", "digest", "commit")),
}
BY_CODE = {code: (kind, fields) for kind, (code, fields) in WIRE.items()}
NIL_VALUED = ("nonces", "result")  # fields where nil is a value, not an absent field
ORDER_FIELDS = ("order",)
PLAN_FIELDS = ("plan",)  # plan rows: their strings go through the string table like order values
TOKEN_FIELDS = ("side",)


class Undecodable:
    """A play frame that could not be turned into a message: refused like a bad message."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


class Strings:
    """One direction of a link's string table: each string is sent once in full, then as its
    number. Both ends add strings in the same order, so they agree; the table is bounded and
    starts empty on every connection."""

    LIMIT = 256

    def __init__(self) -> None:
        self.items: list[str] = []
        self.index: dict[str, int] = {}

    def _add(self, text: str) -> None:
        if len(self.items) < self.LIMIT and text not in self.index:
            self.index[text] = len(self.items)
            self.items.append(text)

    def token(self, text: str) -> int | str:
        """A name (kind, argument, side): its number if sent before, else the text itself."""
        if text in self.index:
            return self.index[text]
        self._add(text)
        return text

    def name(self, token: Any) -> str:
        if isinstance(token, str):
            self._add(token)
            return token
        if isinstance(token, int) and not isinstance(token, bool) and 0 <= token < len(self.items):
            return self.items[token]
        raise ProtocolViolation(f"unknown string reference {str(token)[:20]}")

    def value(self, v: Any) -> Any:
        """An order argument: strings by reference (one-byte binary: orders carry no binary)."""
        if isinstance(v, str):
            if v in self.index:
                return bytes([self.index[v]])
            self._add(v)
            return v
        if isinstance(v, list):
            return [self.value(x) for x in v]
        return v

    def unvalue(self, v: Any) -> Any:
        if isinstance(v, bytes):
            if len(v) != 1 or v[0] >= len(self.items):
                raise ProtocolViolation("unknown string reference in an order")
            return self.items[v[0]]
        if isinstance(v, str):
            self._add(v)
            return v
        if isinstance(v, list):
            return [self.unvalue(x) for x in v]
        return v


def encode_order(wire: dict[str, Any], strings: Strings) -> list[Any]:
    """The engine's ``{k, a}`` as ``[kind, name, value, name, value, ...]`` (names sorted)."""
    out: list[Any] = [strings.token(wire["k"])]
    for name, value in sorted(wire.get("a", {}).items()):
        out += [strings.token(name), strings.value(value)]
    return out


def decode_order(packed: Any, strings: Strings) -> dict[str, Any]:
    if not isinstance(packed, list) or not packed or len(packed) % 2 != 1:
        raise ProtocolViolation("an order must be a list of a kind and name/value pairs")
    out: dict[str, Any] = {"k": strings.name(packed[0])}
    args = {strings.name(packed[i]): strings.unvalue(packed[i + 1]) for i in range(1, len(packed), 2)}
    if args:
        out["a"] = args
    return out


def encode(msg: dict[str, Any], strings: Strings) -> list[Any]:
    """A checked play message in its positional wire form."""
    code, fields = WIRE[msg["type"]]
    values: list[Any] = []
    for name in fields:
        v = msg.get(name)
        if name in ORDER_FIELDS and v is not None:
            v = encode_order(v, strings)
        elif name in TOKEN_FIELDS and v is not None:
            v = strings.token(v)
        elif name in PLAN_FIELDS and v is not None:
            v = strings.value(v)
        values.append(v)
    while values and values[-1] is None and fields[len(values) - 1] not in NIL_VALUED:
        values.pop()
    return [code, *values]


def decode(frame: Any, strings: Strings) -> dict[str, Any]:
    """A positional play frame as a message dict (checked by ``parse``); ``ProtocolViolation``
    says what is wrong with it."""
    if not isinstance(frame, list) or not frame:
        raise ProtocolViolation(f"a play message must be a non-empty list, not {type(frame).__name__}")
    code = frame[0]
    if not isinstance(code, int) or isinstance(code, bool) or code not in BY_CODE:
        raise ProtocolViolation(f"unknown message type {str(code)[:20]!r}")
    kind, fields = BY_CODE[code]
    if len(frame) - 1 > len(fields):
        raise ProtocolViolation(f"'{kind}' message has {len(frame) - 1} fields, at most {len(fields)}")
    msg: dict[str, Any] = {"type": kind}
    for name, v in zip(fields, frame[1:]):
        if v is None and name not in NIL_VALUED:
            continue
        if name in ORDER_FIELDS:
            v = decode_order(v, strings)
        elif name in TOKEN_FIELDS:
            v = strings.name(v)
        elif name in PLAN_FIELDS:
            if not isinstance(v, list) or len(v) > PLAN_ROWS or not all(
                    isinstance(r, list) and len(r) <= PLAN_ROW_ITEMS for r in v):
                raise ProtocolViolation(f"'{kind}' message field 'plan' must be a list of at most "
                                        f"{PLAN_ROWS} rows")
            v = strings.unvalue(v)
        msg[name] = v
    return parse(msg)
