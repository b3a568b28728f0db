"""Poltava 1709 («Полтава 1709»): the ruleset. See NOTES.md for every design choice."""

from .rules import PoltavaRuleset

RULESET = PoltavaRuleset()

__all__ = ["RULESET", "PoltavaRuleset"]
