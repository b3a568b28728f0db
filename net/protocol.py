"""Message schemas: what each message type may carry, checked before anything looks at it.

Every message is a msgpack map with a ``type`` and a fixed set of fields; ``parse`` returns the
message only if every field has the right type and size and no unknown field is present, and
otherwise raises ``ProtocolViolation`` whose reason names the message and the field. Nothing here
knows the game state: "out of order" and "illegal" are the session's checks. NOTES.md describes
every message.
"""

from __future__ import annotations

from typing import Any, Callable

from .errors import ProtocolViolation

PROTOCOL_VERSION = 1
CAPABILITIES = ("lockstep", "commit-reveal", "resume", "chat", "draw", "turn-timer", "spectate")
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


def _result(v: Any) -> str | None:
    if v is None:
        return None
    if not isinstance(v, dict) or set(v) - {"winner", "reason"}:
        return "must be nil or a map of winner and reason"
    w, r = v.get("winner"), v.get("reason", "")
    if not (w is None or isinstance(w, str) and len(w) <= 64) or not (isinstance(r, str) and len(r) <= 200):
        return "winner must be a side or nil and reason a short string"
    return None


SEQ = _int(0, MAX_SEQ)
DIGEST = _bin(16, 16)
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
        "scenario_text": (_str(128 * 1024), False), "turn_time": (_int(0, 86400 * 7), False),
        "seq": (SEQ, False),
    },
    "resume": {"seq": (SEQ, True), "digest": (DIGEST, True), "end": (_result, False)},
    "order": {"seq": (SEQ, True), "order": (_map, True), "digest": (DIGEST, False),
              "commit": (_bin(32, 32), False)},
    "nonce": {"seq": (SEQ, True), "nonce": (NONCE, True)},
    "reveal": {"seq": (SEQ, True), "nonce": (NONCE, True), "digest": (DIGEST, True)},
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
