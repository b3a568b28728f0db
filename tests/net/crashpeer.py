"""Run ``hexwar`` (the real command, real SSH) and kill -9 this very process at one step of the
order path: ``python crashpeer.py STEP MIN_SEQ -- host ...``. Used by test_crash_steps.py.

STEP names where the kill falls, for the first order at or after seq MIN_SEQ that fits it. The
acting side's steps (this process issued the order):
  own-written      a plain order resolved and written, not yet sent
  own-sent         a plain order sent, before its record is synced and shown
  commit-written   a dice order's commitment (nonce_A) written, not yet sent
  commit-sent      the commitment sent
  dice-written     nonce_B arrived, the order resolved and written, before the reveal
  reveal-sent      nonce_A revealed
The other side's steps (the peer issued the order):
  order-received   the peer's plain order arrived, nothing done with it yet
  peer-written     the peer's plain order applied and written, before any ack
  peer-commit-written  our nonce_B written, not yet sent
  nonce-sent       nonce_B sent
  reveal-received  the peer's nonce_A arrived, nothing done with it yet
  peer-dice-written    the peer's dice order applied and written, before any ack

The process is killed with SIGKILL (nothing flushed, no handler runs), as by ``kill -9``.
"""

from __future__ import annotations

import os
import signal
import sys

from hexwar.net.link import Link
from hexwar.net.netmatch import NetMatch
from hexwar.net.session import Session

STEP, MIN_SEQ = sys.argv[1], int(sys.argv[2])


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _mine(match: NetMatch, side: str) -> bool:
    return side == match.info.get("side")


_apply = NetMatch.apply


def apply(self, order, side, nonces):  # noqa: ANN001, ANN201
    out = _apply(self, order, side, nonces)
    if out[1]["seq"] >= MIN_SEQ:
        mine, dice = _mine(self, side), nonces is not None
        if (STEP, mine, dice) in (("own-written", True, False), ("dice-written", True, True),
                                  ("peer-written", False, False), ("peer-dice-written", False, True)):
            die()
    return out


_note = NetMatch.note


def note(self, kind, p):  # noqa: ANN001, ANN201
    _note(self, kind, p)
    if p.seq >= MIN_SEQ and (STEP, kind) in (("commit-written", "commit"), ("peer-commit-written", "peer-commit")):
        die()


_send = Link.send


async def send(self, message):  # noqa: ANN001, ANN201
    await _send(self, message)
    kind, seq = message.get("type"), message.get("seq")
    if not isinstance(seq, int) or seq < MIN_SEQ:
        return
    if ((STEP == "own-sent" and kind == "order" and message.get("digest") is not None)
            or (STEP == "commit-sent" and kind == "order" and message.get("commit") is not None)
            or (STEP == "nonce-sent" and kind == "nonce") or (STEP == "reveal-sent" and kind == "reveal")):
        die()


_dispatch = Session._dispatch


async def dispatch(self, frame):  # noqa: ANN001, ANN201
    if isinstance(frame, dict) and isinstance(frame.get("seq"), int) and frame["seq"] >= MIN_SEQ:
        kind = frame.get("type")
        if ((STEP == "order-received" and kind == "order" and frame.get("digest") is not None)
                or (STEP == "reveal-received" and kind == "reveal")):
            die()
    await _dispatch(self, frame)


NetMatch.apply, NetMatch.note, Link.send, Session._dispatch = apply, note, send, dispatch

if __name__ == "__main__":
    from hexwar.cli import main
    args = sys.argv[sys.argv.index("--") + 1:]
    sys.exit(main(args))
