"""A position in which the side to act has nothing to decide.

Some phases leave a side no choice at all: the only legal order (besides resigning) is the one
that ends or passes the phase, and it names no unit. The terminal UI plays such an order by itself,
and in a network game both peers must agree on when that happens without talking about it, so the
test lives here, in the engine, where every peer (and every spectator) asks it of the same
position and gets the same answer.
"""

from __future__ import annotations

from typing import Any

from .orders import Order

#: the order arguments that name the units an order moves, fires or commits
UNIT_KEYS = ("unit", "units")

# ``Game`` satisfies this; naming it would only add an import for a type
Position = Any


def names_units(order: Order) -> bool:
    """Whether ``order`` names a unit (moving, firing, choosing a loss...): a real choice."""
    for key in UNIT_KEYS:
        v = order.get(key)
        if isinstance(v, str) or (isinstance(v, tuple) and any(isinstance(x, str) for x in v)):
            return True
    return False


def forced_order(game: Position, orders: list[Order] | None = None) -> Order | None:
    """The one order the side to act may give, when it names no unit and no decision is pending;
    else None. Resigning is never counted as a choice. ``orders`` are the position's legal orders
    when the caller has them already; otherwise they are asked for, stopping at the second one."""
    if game.over or game.state.pending:
        return None
    if game.ruleset.secret_round(game) is not None:
        return None  # a secret plan is always the player's own (its listed commitment is public)
    only: Order | None = None
    for order in (orders if orders is not None else game.legal_orders()):
        if order.kind == "resign":
            continue
        if only is not None or names_units(order):
            return None
        only = order
    return only


__all__ = ["UNIT_KEYS", "forced_order", "names_units"]
