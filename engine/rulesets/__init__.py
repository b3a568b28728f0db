"""The rule systems hexwar knows, by id."""

from __future__ import annotations

import importlib

from ..ruleset import Ruleset

# id -> module that defines RULESET; imported on first use so the CLI starts fast.
KNOWN = {
    "ancients": "hexwar.engine.rulesets.ancients",
    "fow": "hexwar.engine.rulesets.fow",
    "frontier": "hexwar.engine.rulesets.frontier",
    "napoleonica": "hexwar.engine.rulesets.napoleonica",
    "npws": "hexwar.engine.rulesets.npws",
    "poltava": "hexwar.engine.rulesets.poltava",
}
_cache: dict[str, Ruleset] = {}


class UnknownRulesetError(KeyError):
    pass


def get_ruleset(ruleset_id: str) -> Ruleset:
    if ruleset_id not in KNOWN:
        raise UnknownRulesetError(
            f"unknown ruleset {ruleset_id!r} (known: {', '.join(sorted(KNOWN))})")
    if ruleset_id not in _cache:
        _cache[ruleset_id] = importlib.import_module(KNOWN[ruleset_id]).RULESET
    return _cache[ruleset_id]
