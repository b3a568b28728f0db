"""A unit keeps its encoded bytes until it changes (issue 16). Whatever changes a unit (an
attribute, or its marks through any dict method) must show in the next digest, exactly as a full
encoding of ``to_data()`` would."""

import hashlib

import pytest

from hexwar.engine.codec import encode
from hexwar.engine.hexgrid import Hex
from hexwar.engine.state import State, Unit


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
