"""No Peace Without Spain! / Nine Years (seed 004): a strategic card-driven game on an area map.

The rules core of the fragment (rules 2.5-6.2), on the area board of ``engine/areamap.py``:
stacking (``stacking``), leaders and corps (``pieces``), the VP track and control (``ledger``),
the KWW track (``kww``), ports and sea zones (``seas``), the decks (``cards``), Army Boxes
(``boxes``) and victory (``victory``). What the source states is in ``facts``; every designed
value in ``designed``; NOTES.md indexes each rule to its function and its test.
"""

from __future__ import annotations

from .ruleset import RULESET, NpwsRuleset

__all__ = ["RULESET", "NpwsRuleset"]
