"""BLAKE2b, the one hash the engine and its records use (digests, dice, commitments, journals).

``hashlib`` loads OpenSSL's bindings when it is imported, about 2 ms of a one-shot
``hexwar replay``, only to hand out CPython's own BLAKE2b (it never takes OpenSSL's for
BLAKE2), so the engine takes that same function from CPython's ``_blake2`` module, and from
``hashlib`` only on an interpreter without it. Either way it is the same function.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # another interpreter: hashlib's BLAKE2b
    from hashlib import blake2b

__all__ = ["blake2b"]
