"""The NPWS ruleset object: set-up from a scenario and the checks only it can make.
(The sequence of play is still to come: see NOTES.md.)"""

from __future__ import annotations

from hexwar.engine.ruleset import Ruleset


class NpwsRuleset(Ruleset):
    id = "npws"
    title = "No Peace Without Spain! / Nine Years (area map)"


RULESET = NpwsRuleset()
