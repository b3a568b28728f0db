"""Secret plans: commit to a hidden choice first, reveal it once everyone has committed.

Lockstep gives every peer the whole state, so a secret choice (a campaign plan, a deployment) can
never sit in the state in the clear before the other side has fixed its own. Each side sends a
*commitment* first: BLAKE2b over the binding, the plan and a secret salt of at least 16 bytes.
Only when every side of the round has committed does anyone reveal; the engine recomputes the hash
from the revealed plan and salt and refuses a reveal that does not match (a protocol violation).

A plan is a list of rows, each a list of ints, strings, booleans or None: it fits an order's
arguments (two levels of lists), and its meaning belongs to the ruleset that uses the facility.

Binding. The engine does not know the match id (it lives in the record layer), so a commitment is
bound to what the state and scenario know: the scenario's content hash, the round name (for
example ``plan-3`` for turn 3's plan) and the side. A commitment therefore cannot be replayed into
another round, another side's slot or another scenario. Across two matches of the same scenario
only the same player's own commitment could be reused, which tells nobody anything, because the
salt never leaves its owner before the reveal.

This module keeps the round's bookkeeping in one plain dict inside ``State.vars`` (key chosen by
the ruleset): ``{"round": name, "sides": [...], "commits": {side: hex}, "plans": {side: rows}}``.
"""

from __future__ import annotations

from typing import Any

from .blake import blake2b
from .codec import CodecError, encode

COMMIT = "commit-plan"   # order: digest=<hex>
REVEAL = "reveal-plan"   # order: plan=<rows> salt=<hex>
SALT_MIN_BYTES = 16
SALT_MAX_BYTES = 64
DIGEST_HEX = 64
MAX_ROWS = 64
MAX_ROW_ITEMS = 32

Plan = list[list[Any]]


def binding(scenario_hash: str, round_name: str, side: str) -> list[str]:
    """What a commitment is bound to (see the module docstring)."""
    return ["hexwar-plan-v1", scenario_hash, round_name, side]


def plan_problem(plan: Any) -> str | None:
    """None if ``plan`` has the shape of a plan (rows of scalars), else what is wrong."""
    if not isinstance(plan, (list, tuple)):
        return "a plan is a list of rows"
    if len(plan) > MAX_ROWS:
        return f"a plan has at most {MAX_ROWS} rows"
    for row in plan:
        if not isinstance(row, (list, tuple)) or not row or len(row) > MAX_ROW_ITEMS:
            return f"each plan row is a list of 1-{MAX_ROW_ITEMS} values"
        for item in row:
            if not (item is None or isinstance(item, (bool, int, str))):
                return "plan rows hold only integers, text, true/false or null"
    return None


def salt_bytes(salt: Any) -> bytes | None:
    """The salt as bytes from its hex text, or None when it is not 16-64 bytes of hex."""
    if not isinstance(salt, str) or len(salt) % 2:
        return None
    try:
        raw = bytes.fromhex(salt)
    except ValueError:
        return None
    if not SALT_MIN_BYTES <= len(raw) <= SALT_MAX_BYTES:
        return None
    return raw


def commitment(bound: list[str], plan: Plan, salt: bytes) -> str:
    """The commitment (hex) to ``plan`` under ``bound`` with ``salt``."""
    rows = [[item for item in row] for row in plan]
    try:
        data = encode([bound, rows, salt])
    except CodecError as exc:  # plan_problem() refuses such plans first
        raise ValueError(str(exc)) from None
    return blake2b(data, digest_size=32, person=b"hexwar-plan").hexdigest()


# --- a computer's own secret -------------------------------------------------------------------
#
# A plan computed from the shared state alone is known to anyone who runs the same code before it
# is revealed, so the computer's plan also depends on a secret only it holds: the secret part of
# the salt it commits with (over the network 16 bytes from the operating system, net/secret_plans.py;
# in ``hexwar simulate`` bytes derived from the seed, so a seed still replays the same game). The
# commitment covers the salt, so the secret is committed with the plan, revealed with it and
# checked by ``reveal_problem`` like any salt.

def secret_choice(secret_bytes: bytes, n: int, label: str) -> int:
    """An index 0..n-1 drawn from ``secret_bytes`` (uniform to within 2**-64): what a ruleset's
    computer uses to choose among plans it holds equally worth making (``Ruleset.ai_plan``)."""
    if n <= 1:
        return 0
    h = blake2b(secret_bytes + b"|" + label.encode(), digest_size=8, person=b"hexwar-mix")
    return int.from_bytes(h.digest(), "big") % n


# --- the round kept in the state --------------------------------------------------------------

def open_round(name: str, sides: list[str]) -> dict[str, Any]:
    """A fresh round in which ``sides`` commit (in this order) and then reveal."""
    return {"round": name, "sides": list(sides), "commits": {}, "plans": {}}


def stage(rnd: dict[str, Any] | None) -> str | None:
    """"commit" while some side has not committed, "reveal" while some side has not revealed,
    None when the round is complete (or there is none)."""
    if not rnd:
        return None
    if any(s not in rnd["commits"] for s in rnd["sides"]):
        return "commit"
    if any(s not in rnd["plans"] for s in rnd["sides"]):
        return "reveal"
    return None


def next_side(rnd: dict[str, Any]) -> str | None:
    """The side expected to act in the round now: commits, then reveals, in the round's order."""
    st = stage(rnd)
    if st == "commit":
        return next(s for s in rnd["sides"] if s not in rnd["commits"])
    if st == "reveal":
        return next(s for s in rnd["sides"] if s not in rnd["plans"])
    return None


def commit_problem(rnd: dict[str, Any], side: str, digest: Any) -> str | None:
    if stage(rnd) != "commit":
        return "the commitments of this round are complete; reveal the plan"
    if side in rnd["commits"]:
        return f"{side} has already committed to a plan this round"
    if not (isinstance(digest, str) and len(digest) == DIGEST_HEX
            and all(c in "0123456789abcdef" for c in digest)):
        return f"a commitment is {DIGEST_HEX} lower-case hex digits"
    return None


def reveal_problem(rnd: dict[str, Any], scenario_hash: str, side: str, plan: Any,
                   salt: Any) -> str | None:
    """None if ``plan`` and ``salt`` open ``side``'s commitment of this round."""
    st = stage(rnd)
    if st == "commit":
        return "no plan may be revealed before every side has committed"
    if st is None or side in rnd["plans"]:
        return f"{side} has nothing left to reveal this round"
    why = plan_problem(plan)
    if why:
        return why
    raw = salt_bytes(salt)
    if raw is None:
        return f"the salt is {SALT_MIN_BYTES}-{SALT_MAX_BYTES} bytes written as hex"
    if commitment(binding(scenario_hash, rnd["round"], side), plan, raw) != rnd["commits"][side]:
        return "protocol violation: the revealed plan does not match its commitment"
    return None


def record_commit(rnd: dict[str, Any], side: str, digest: str) -> None:
    rnd["commits"][side] = digest


def record_reveal(rnd: dict[str, Any], side: str, plan: Plan) -> None:
    rnd["plans"][side] = [list(row) for row in plan]


__all__ = [
    "COMMIT", "REVEAL", "Plan", "binding", "commit_problem", "commitment", "next_side", "open_round", "plan_problem",
    "record_commit", "record_reveal", "reveal_problem", "salt_bytes", "secret_choice", "stage",
]
