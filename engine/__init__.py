"""hexwar's rules engine: pure, deterministic, no I/O.

Randomness comes only from the ``Dice`` handed to ``Game.apply``; nothing here reads a clock, the
environment or the network, and nothing imports the UI or network packages.
"""

from .dice import Dice, NoDice, nonce_commitment, order_seed
from .game import Game
from .hexgrid import Hex, Hexside
from .hexmap import HexMap
from .orders import Event, IllegalOrderError, InvalidOrderError, Order, OrderError
from .scenario import DivisionSpec, Scenario, SideSpec, UnitSpec
from .state import State, Unit

ENGINE_VERSION = "1"

__all__ = [
    "Dice", "DivisionSpec", "ENGINE_VERSION", "Event", "Game", "Hex", "HexMap", "Hexside",
    "IllegalOrderError", "InvalidOrderError", "NoDice", "Order", "OrderError", "Scenario",
    "SideSpec", "State", "Unit", "UnitSpec", "nonce_commitment", "order_seed",
]
