"""A unit keeps its encoded bytes until it changes (issue 16). Whatever changes a unit (an
attribute, or its marks through any dict method) must show in the next digest, exactly as a full
encoding of ``to_data()`` would."""

import hashlib

import pytest

from hexwar.engine.codec import encode
from hexwar.engine.hexgrid import Hex
from hexwar.engine.state import Marks, State, Unit


def _full_digest(st: State) -> str:
    return hashlib.blake2b(encode(st.to_data()), digest_size=16).hexdigest()


def _state() -> State:
    st = State(ruleset="r", scenario="s", side_order=["a", "b"], sides={"a": {}, "b": {}})
    for i in range(20):
        u = Unit(f"u{i:02d}", "a" if i % 2 else "b", "inf", f"Unit {i}", Hex(i, -i), 2, 2,
                 stats={"ma": 3}, marks={"moved": 1} if i % 3 == 0 else {})
        st.units[u.id] = u
    st.digest()  # every unit now holds its cached bytes
    return st


CHANGES = [
    ("hex", lambda u: setattr(u, "hex", Hex(40, 40))),
    ("strength", lambda u: setattr(u, "strength", 1)),
    ("side", lambda u: setattr(u, "side", "z")),
    ("facing", lambda u: setattr(u, "facing", 3)),
    ("mark", lambda u: u.mark("fired")),
    ("unmark", lambda u: u.mark("moved", 0)),
    ("setitem", lambda u: u.marks.__setitem__("x", 5)),
    ("true-for-one", lambda u: u.marks.__setitem__("moved", True)),
    ("pop", lambda u: u.marks.pop("moved", None)),
    ("clear", lambda u: u.marks.clear()),
    ("update", lambda u: u.marks.update(y=2)),
    ("setdefault", lambda u: u.marks.setdefault("z", 1)),
    ("ior", lambda u: u.marks.__ior__({"w": 1})),
    ("new marks", lambda u: setattr(u, "marks", {"n": 1})),
    ("stats", lambda u: setattr(u, "stats", {"ma": 9})),
]


@pytest.mark.parametrize("name,change", CHANGES, ids=[c[0] for c in CHANGES])
def test_every_kind_of_change_shows_in_the_digest(name, change):
    st = _state()
    before = st.digest()
    change(st.units["u03"])
    assert st.digest() == _full_digest(st)
    assert st.digest() != before  # u03 starts with moved=1, so every change above is a change


@pytest.mark.parametrize("name,change", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_copy_changed_leaves_the_original_and_its_digest_alone(name, change):
    st = _state()
    before = st.digest()
    twin = st.copy()
    change(twin.units["u03"])
    assert st.digest() == before == _full_digest(st)
    assert twin.digest() == _full_digest(twin)


def test_marks_dicts_are_never_shared_between_units():
    st = _state()
    a, b = st.units["u00"], st.units["u01"]
    b.marks = a.marks  # assigning copies: a later change to one is not a change to the other
    a.mark("fired")
    assert "fired" not in b.marks
    assert st.digest() == _full_digest(st)


def test_digest_of_a_decoded_state_equals_the_original():
    st = _state()
    st.units["u05"].mark("w", "text")
    assert State.from_bytes(st.to_bytes()).digest() == st.digest() == _full_digest(st)


def test_deep_copies_and_pickles_keep_tracking_changes():
    import copy
    import pickle
    st = _state()
    for twin in (copy.deepcopy(st), pickle.loads(pickle.dumps(st))):
        assert twin.digest() == st.digest()
        twin.units["u04"].mark("fired")
        assert twin.digest() == _full_digest(twin) != st.digest()


def test_a_units_own_encoder_writes_what_encoding_its_data_writes():
    """``_encode_unit`` reuses the encoded leading fields and stats; whatever the field values
    (big and negative numbers, long and non-ASCII text, no hex, marks of every type) it must give
    exactly ``encode(to_data())``, also after each kind of field is assigned again."""
    import random

    from hexwar.engine.state import _encode_unit

    rnd = random.Random(16)
    for _ in range(400):
        h = None if rnd.random() < 0.2 else Hex(rnd.randint(-300, 300), rnd.randint(-300, 300))
        marks = {k: rnd.choice([1, True, "x", -5, 300, None])
                 for k in rnd.sample(["moved", "fired", "a", "bb"], rnd.randint(0, 3))}
        u = Unit(rnd.choice(["a", "é" * 40, "x" * 300]), rnd.choice(["s", "t"]), "k",
                 "n" * rnd.randint(0, 40), h, rnd.randint(-100, 70000), rnd.randint(0, 5),
                 rnd.randint(-40, 200), rnd.choice(["", "d"]), rnd.choice(["average", "elite" * 8]),
                 {"a": rnd.randint(-1, 1000), "z": "q"} if rnd.random() < 0.5 else {}, marks)
        assert _encode_unit(u.__dict__) == encode(u.to_data())
        assert u.encoded() == encode(u.to_data())
        for name, value in (("side", "other"), ("name", "renamed"), ("kind", "k2"), ("id", "zz"),
                            ("stats", {"q": -7}), ("hex", Hex(1, 2)), ("grade", "green")):
            setattr(u, name, value)
            assert u.encoded() == encode(u.to_data()), name


def test_a_state_with_marks_put_in_place_past_the_unit_still_encodes_fully():
    st = _state()
    u = st.units["u04"]
    u.__dict__["marks"] = {"odd": 1}   # a plain dict, bypassing Unit.__setattr__
    assert st.digest() == _full_digest(st)
    u.__dict__["marks"] = Marks({"odd": 2})  # a Marks made past __setattr__, with no bytes
    assert st.digest() == _full_digest(st)


def test_nested_data_kept_by_its_marshal_key_still_tells_true_from_one_and_lists_from_maps():
    """The state's vars, sides, pending and result are kept encoded under a key made from their
    value (marshal's bytes, or the repr for what marshal refuses, such as a ``Hex``): values
    that compare equal in Python but encode differently must still give their own bytes, and a
    nested dict changed in place must show."""
    st = _state()
    for value in (1, True, 0, False, None, [1], (1,), {"1": 1}, "1", b"1", -1, 2**40, Hex(1, 1),
                  [Hex(2, 3)], "é", {1: "int key"}, {"": ""}):
        st.vars = {"x": value, "nested": [{"y": value}]}
        st.sides = {"a": {"z": value}, "b": {}}
        st.pending = [{"kind": "k", "v": value}]
        st.result = {"winner": value}
        assert st.to_bytes() == encode(st.to_data()), value
        assert st.digest() == _full_digest(st), value
    st.result = None
    st.side_order = ("b", "a")  # a tuple is written as an array, like the list
    assert st.to_bytes() == encode(st.to_data())
    st.vars = {"box": {"a": 1}}
    before = st.digest()
    st.vars["box"]["a"] = 2  # changed in place: the same dict objects, other content
    assert st.digest() == _full_digest(st) != before
    st.vars["box"]["a"] = 1
    assert st.digest() == before


def test_the_kept_unit_order_follows_the_units_dict_when_its_keys_change():
    """The units are put in canonical order by a layout kept for the dict's keys (and handed on
    by ``copy``): keys re-ordered, swapped for others or added must show in the next digest."""
    st = _state()
    u = st.units.pop("u07")
    st.units["u07"] = u  # the same keys in another order
    assert st.digest() == _full_digest(st)
    v = st.units.pop("u08")
    v.id = "u99"
    st.units["u99"] = v  # as many keys, one of them another
    assert st.digest() == _full_digest(st)
    twin = st.copy()
    w = Unit("u50", "a", "inf", "New", Hex(3, 3), 1, 1)
    twin.units["u50"] = w
    assert twin.digest() == _full_digest(twin)
    assert st.digest() == _full_digest(st) != twin.digest()
    solo = State(ruleset="r", scenario="s", units={"x": Unit("x", "a", "inf", "X", None, 1, 1)})
    assert solo.digest() == _full_digest(solo)
    solo.units.clear()
    assert solo.digest() == _full_digest(solo)
