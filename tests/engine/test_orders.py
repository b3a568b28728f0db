"""Orders are frozen values with wire and text forms that round-trip exactly."""

import pytest
from hypothesis import given, strategies as st

from hexwar.engine.orders import IllegalOrderError, InvalidOrderError, Order

scalars = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.text(max_size=20))
pairs = st.tuples(st.integers(-50, 50), st.integers(-50, 50))
arg_values = st.one_of(scalars, pairs, st.lists(pairs, max_size=8).map(tuple))
kinds = st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True)
names = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)


@given(kinds, st.dictionaries(names, arg_values, max_size=5))
def test_wire_and_text_round_trip(kind, args):
    order = Order.make(kind, **args)
    assert Order.from_wire(order.to_wire()) == order
    assert Order.from_text(order.to_text()) == order
    assert eval(repr(order), {"Order": Order}) == order
    assert hash(order) == hash(Order.make(kind, **args))


def test_argument_order_does_not_matter_and_lists_become_tuples():
    a = Order.make("move", unit="u1", path=[[1, 2], [2, 2]])
    b = Order.make("move", path=((1, 2), (2, 2)), unit="u1")
    assert a == b and a["path"] == ((1, 2), (2, 2)) and a.get("missing", 7) == 7
    assert "unit" in a and a.to_text() == 'move path=[[1,2],[2,2]] unit="u1"'


@pytest.mark.parametrize("wire", [
    None, 5, [], {"k": 5}, {"k": "Move"}, {"k": "move", "a": []}, {"k": "move", "x": 1},
    {"k": "move", "a": {"unit": 1.5}}, {"k": "move", "a": {"unit": [[[[1]]]]}},
    {"k": "move", "a": {"u": "x" * 1000}}, {"k": "move", "a": {"BAD": 1}},
    {"k": "move", "a": {"n": 1 << 70}}, {"k": "move", "a": {1: 2}},
    {"k": "move", "a": {f"a{i}": 1 for i in range(40)}},
])
def test_malformed_wire_orders_are_invalid(wire):
    with pytest.raises(InvalidOrderError):
        Order.from_wire(wire)


@pytest.mark.parametrize("wire", [
    {"k": "move", "a": {"unit": 1.5}}, {"k": "move", "a": {"unit": [[[[1]]]]}},
    {"k": "move", "a": {"unit": "x" * 1000}}, {"k": "move", "a": {"unit": 1 << 70}},
    {"k": "move", "a": {"unit": {"x": 1}}}, {"k": "move", "a": {"path": [[1, 2.5]]}},
    {"k": "move", "a": []}, {"k": "move", "x": 1}, {"k": "move", "a": {"unit": 1, 2: 3}},
    {"k": "move", "a": {"path": [[1, 2]] * 300}},
])
def test_malformed_wire_orders_are_invalid_once_their_names_are_known(wire):
    """``from_wire`` skips the name checks for kinds and argument names it has seen before:
    the values are still checked, and an unknown name still takes the checked way."""
    Order.from_wire({"k": "move", "a": {"unit": "u1", "path": [[1, 2]]}})
    with pytest.raises(InvalidOrderError):
        Order.from_wire(wire)


def test_wire_orders_of_a_recorded_game_are_the_orders_make_builds():
    """The short way of ``from_wire`` (names seen before) against ``make``, on every order of
    the poltava-2 fixture: equal, of the same hash, with the same fields of the same types."""
    from pathlib import Path

    from hexwar.journal import read_journal
    journal = Path(__file__).parent / "fixtures" / "poltava-2-seed1.journal"
    wires = [r["order"] for r in read_journal(journal).records if r["type"] == "order"]
    assert len(wires) == 630
    for wire in wires * 2:  # the second time round every name is known
        order = Order.from_wire(wire)
        made = Order.make(wire["k"], **wire.get("a", {}))
        assert order == made and hash(order) == hash(made) and type(order) is Order
        assert [(k, type(v)) for k, v in order.args] == [(k, type(v)) for k, v in made.args]
        assert order.__dict__ == made.__dict__ and order.to_wire() == wire


@pytest.mark.parametrize("text", ["", "move unit", "move unit=1.5", "move unit={}", "move a=[", "Bad x=1"])
def test_malformed_text_orders_are_invalid(text):
    with pytest.raises(InvalidOrderError):
        Order.from_text(text)


def test_text_with_spaces_in_strings_round_trips():
    o = Order.make("chat", text="hold the line")
    assert " " not in o.to_text().split(" ", 1)[1]
    assert Order.from_text(o.to_text()) == o


def test_illegal_order_error_carries_its_reason():
    err = IllegalOrderError("unit u1 has already moved")
    assert err.reason == "unit u1 has already moved" and isinstance(err, ValueError)
