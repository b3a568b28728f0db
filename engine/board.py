"""What a board is, for the parts of the engine that hold one without reading it.

A scenario's board is a ``HexMap`` (cells on a hex grid) or an ``AreaMap`` (named spaces joined
by connections); each says which by its ``kind`` ("hex" or "area"). A piece stands in a place of
its board: a ``Hex`` on a hex map, a space id (a str) on an area map. The shared parts of the
engine (state encoding, occupancy, the scenario) carry places without looking inside them; a
ruleset knows which board it plays on and reads only that one.
"""

from __future__ import annotations

from typing import TypeAlias

from .areamap import AreaMap
from .hexgrid import Hex
from .hexmap import HexMap

Place: TypeAlias = Hex | str
Board: TypeAlias = HexMap | AreaMap

__all__ = ["Board", "Place"]
