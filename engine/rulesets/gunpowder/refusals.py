"""Refusals from the shared Ancients code put in Age of Gunpowder words and rule numbers, so
every refusal names the rule it comes from (5.4, 5.5, 5.6, or the Ancients rule 5.6 applies)."""

from __future__ import annotations

import re

#: order kind -> the rule a refusal of it names when the shared code's words name none
RULE_OF_KIND = {"move": "5.6 as 4.8", "pivot": "5.6 as 4.8", "shoot": "5.6 as 4.9",
                "melee": "5.6 as 4.10", "form": "5.6", "end-activation": "5.5",
                "engine-fire": "5.5", "end-phase": "5.5", "choose-hit": "5.6 as 4.11",
                "advance": "5.6 as 4.10", "resign": "4.15", "dash": "5.6"}

#: what a reason that names a rule looks like: "(5.6 ...", "(as 4.10)", "(G-P4)", "(rules.year)"
NAMES_A_RULE = re.compile(r"\((\d|G-|rules\.)|\(.*\d\.\d")


def gunpowder_words(reason: str | None, kind: str = "") -> str | None:
    """A refusal from the shared Ancients code in this set's words and rule numbers: engines are
    artillery, 4.6 is 5.4, 4.7 is 5.5, other Ancients rules apply "as" them through 5.6; a reason
    that names no rule gets the one of its order kind."""
    if reason is None:
        return None
    out = (reason.replace("Missile-Engine Phase", "Artillery Phase")
           .replace("Missile Engines", "Artillery").replace("a Missile Engine", "artillery")
           .replace("Missile Engine", "artillery").replace("missile weapons", "muskets or guns"))
    out = out.replace("(4.6)", "(5.4)").replace("(4.7)", "(5.5)").replace("(4.7.1)", "(5.5)")
    out = re.sub(r"\((4\.\d[\d./]*|G-A\d+)", r"(5.6 as \1", out)
    if not NAMES_A_RULE.search(out) and kind in RULE_OF_KIND:
        out = f"{out} ({RULE_OF_KIND[kind]})"
    return out
