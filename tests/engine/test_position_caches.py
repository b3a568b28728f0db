"""Caches of who stands where (issue 16): a state's shared occupancy, its position key, and the
kinds key that per-unit constant tables use. Each must follow every change that matters and
ignore the ones that do not, so a cached answer is always the answer worked out afresh."""

import pytest

from hexwar.engine.hexgrid import Hex
from hexwar.engine.hexmap import HexMap
from hexwar.engine.state import State, Unit


def _state() -> State:
    st = State(ruleset="r", scenario="s", side_order=["a", "b"], sides={"a": {}, "b": {}})
    for i in range(12):
        u = Unit(f"u{i:02d}", "a" if i % 2 else "b", "inf", f"Unit {i}", Hex(i // 2, 0), 2, 2,
                 stats={"ma": 3})
        st.units[u.id] = u
    return st


def _fresh(occ):
    return {h: [u.id for u in us] for h, us in occ.items()}


POSITION_CHANGES = [
    ("hex", lambda u: setattr(u, "hex", Hex(9, 9))),
    ("off the map", lambda u: setattr(u, "hex", None)),
    ("strength", lambda u: setattr(u, "strength", 0)),
    ("side", lambda u: setattr(u, "side", "z")),
    ("kind", lambda u: setattr(u, "kind", "cav")),
    ("stats", lambda u: setattr(u, "stats", {"ma": 5})),
]


@pytest.mark.parametrize("name,change", POSITION_CHANGES, ids=[c[0] for c in POSITION_CHANGES])
def test_shared_occupancy_follows_every_positional_change(name, change):
    st = _state()
    key = st.position_key()
    st.shared_occupancy()
    change(st.units["u03"])
    assert st.position_key() != key
    assert _fresh(st.shared_occupancy()) == _fresh(st.occupancy())


def test_shared_occupancy_is_kept_while_nothing_moves():
    st = _state()
    first = st.shared_occupancy()
    st.units["u03"].mark("moved")   # marks and facing are not positions
    st.units["u03"].facing = 2
    assert st.shared_occupancy() is first
    assert _fresh(first) == _fresh(st.occupancy())


def test_a_new_or_replaced_unit_changes_the_position_key():
    st = _state()
    key = st.position_key()
    st.units["u99"] = Unit("u99", "a", "inf", "New", Hex(0, 0), 1, 1)
    assert st.position_key() != key
    key = st.position_key()
    st.units["u99"] = st.units["u99"].clone()  # same content, another object: answers name objects
    assert st.position_key() != key


def test_a_copy_keeps_its_own_caches_naming_its_own_units():
    st = _state()
    st.shared_occupancy()
    twin = st.copy()
    assert twin.kinds_key() == st.kinds_key()
    twin.units["u03"].hex = Hex(8, 8)
    assert st.units["u03"].hex != Hex(8, 8)
    assert _fresh(st.shared_occupancy()) == _fresh(st.occupancy())
    assert _fresh(twin.shared_occupancy()) == _fresh(twin.occupancy())
    assert all(u is twin.units[u.id] for us in twin.shared_occupancy().values() for u in us)


def test_kinds_key_changes_only_with_kind_stats_or_division():
    st = _state()
    key = st.kinds_key()
    u = st.units["u05"]
    u.hex, u.strength, u.side = Hex(7, 7), 1, "z"
    u.mark("moved")
    u.facing = 3
    assert st.kinds_key() == key
    u.kind = "cav"
    assert st.kinds_key() != key
    key = st.kinds_key()
    u.stats = {"arm": "cav"}
    assert st.kinds_key() != key
    key = st.kinds_key()
    position = st.position_key()
    u.division = "roos"  # a battalion joining the Roos column (Poltava S2-4)
    assert st.kinds_key() != key
    assert st.position_key() != position


def test_units_made_without_init_are_stamped_when_first_asked():
    st = _state()
    stray = object.__new__(Unit)
    stray.__dict__.update(st.units["u00"].clone().__dict__)
    del stray.__dict__["_at"], stray.__dict__["_ks"]
    stray.__dict__["id"] = "u50"
    st.units["u50"] = stray
    assert st.position_key() == st.position_key()
    assert st.kinds_key() == st.kinds_key()


def test_maps_of_one_shape_share_their_geometry_and_agree_with_it():
    a = HexMap(5, 4, "flat", "even")
    b = HexMap(5, 4, "flat", "even", terrain={Hex(0, 0): "woods"})
    assert a.hexes is b.hexes
    assert len(a.hexes) == 20
    for h in a.hexes:
        expected = tuple((d, n) for d in range(6)
                         if (n := Hex(h[0] + (1, 1, 0, -1, -1, 0)[d], h[1] + (0, -1, -1, 0, 1, 1)[d])) in a)
        assert a.neighbors(h) == expected
    assert HexMap(5, 4, "pointy", "even").hexes != a.hexes


TOKEN_CHANGES = POSITION_CHANGES + [
    ("unit removed", None),
    ("units dict replaced", None),
]


@pytest.mark.parametrize("name", [c[0] for c in TOKEN_CHANGES])
def test_position_token_follows_every_change_and_is_the_same_tuple_while_none(name):
    st = _state()
    other = _state()
    token = st.position_token()
    assert st.position_token() is token          # nothing drawn since: the fast answer
    other.position_token()                        # another state's question draws a stamp
    assert st.position_token() == token           # the walk, finding no change
    if name == "unit removed":
        del st.units["u03"]
    elif name == "units dict replaced":
        st.units = {k: u for k, u in st.units.items() if k != "u03"}
    else:
        dict(POSITION_CHANGES)[name](st.units["u03"])
    assert st.position_token() != token
    assert st.position_token() == st.position_key()
    assert _fresh(st.shared_occupancy()) == _fresh(st.occupancy())


def test_shared_occupancy_made_from_the_last_one_equals_a_fresh_one_step_after_step():
    """After a few units change, the occupancy is the last one with the hexes they left or
    entered made again; it must equal ``occupancy()`` at every step, leave the old dict as it
    was (a view made earlier may hold it), and name this state's unit objects."""
    st = _state()
    steps = [
        lambda: setattr(st.units["u03"], "hex", Hex(0, 0)),          # joins u00, u01
        lambda: setattr(st.units["u00"], "hex", None),                # leaves the map
        lambda: setattr(st.units["u00"], "hex", Hex(5, 0)),           # comes back elsewhere
        lambda: setattr(st.units["u07"], "strength", 0),              # stays, but changed
        lambda: st.units.__setitem__("u05", st.units["u05"].clone()),  # another object
        lambda: [setattr(st.units[f"u{i:02d}"], "hex", Hex(7, i)) for i in range(4)],
        lambda: setattr(st.units["u11"], "hex", st.units["u02"].hex),
    ]
    before = st.shared_occupancy()
    for step in steps:
        frozen = _fresh(before)
        step()
        now = st.shared_occupancy()
        assert _fresh(before) == frozen
        assert _fresh(now) == _fresh(st.occupancy())
        assert all(u is st.units[u.id] for us in now.values() for u in us)
        before = now


def _compared(since, now):
    """The hexes whose lists differ, found by comparing the two dicts (what a caller without
    ``occupancy_changes`` does)."""
    return {h for h in set(since) | set(now) if since.get(h) is not now.get(h)}


def test_occupancy_changes_name_every_hex_a_comparison_finds_over_one_or_several_steps():
    """``occupancy_changes(since, now)`` must give exactly the hexes whose lists differ between
    any earlier answer (up to its step limit) and the current one, each once, and None for an
    answer it cannot trace (too far back, a full rebuild between, or not the current one)."""
    st = _state()
    steps = [
        lambda: setattr(st.units["u03"], "hex", Hex(0, 0)),          # joins u00, u01
        lambda: setattr(st.units["u00"], "hex", None),                # leaves the map
        lambda: setattr(st.units["u00"], "hex", Hex(5, 0)),           # comes back elsewhere
        lambda: setattr(st.units["u07"], "strength", 0),              # stays, but changed
        lambda: setattr(st.units["u07"], "strength", 2),              # and back
        lambda: st.units.__setitem__("u05", st.units["u05"].clone()),  # another object
        lambda: [setattr(st.units[f"u{i:02d}"], "hex", Hex(7, i)) for i in range(4)],
        lambda: setattr(st.units["u11"], "hex", st.units["u02"].hex),
        lambda: setattr(st.units["u11"], "hex", Hex(0, 5)),           # off u02 again
        lambda: setattr(st.units["u04"], "hex", Hex(8, 8)),
        lambda: setattr(st.units["u04"], "hex", Hex(8, 9)),           # 8,8 made and gone
    ]
    answers = [st.shared_occupancy()]
    for step in steps:
        step()
        answers.append(st.shared_occupancy())
        now = answers[-1]
        for back, since in enumerate(reversed(answers[:-1]), 1):
            got = st.occupancy_changes(since, now)
            if back > 8:  # beyond the steps it keeps
                assert got is None
                continue
            assert got is not None and len(got) == len(set(got))
            assert set(got) == _compared(since, now), (back, got)
        assert st.occupancy_changes(now, now) is None  # no step from itself
        assert st.occupancy_changes(answers[0], answers[-2]) is None  # not the current answer
    st.units = dict(st.units)  # another units dict: a fresh answer, with nothing to trace
    st.units["u01"].hex = Hex(9, 9)
    fresh = st.shared_occupancy()
    assert fresh is not answers[-1] and st.occupancy_changes(answers[-1], fresh) is None


@pytest.mark.parametrize("name", ["kind", "stats", "division", "unit added", "unit replaced",
                                  "clone put in", "units dict replaced", "nothing"])
def test_kinds_key_answered_without_a_walk_still_follows_every_change(name):
    st = _state()
    other = _state()
    key = st.kinds_key()
    assert st.kinds_key() is key                  # nothing drawn since: the kept tuple
    other.units["u01"].kind = "cav"               # another state's change draws too
    assert st.kinds_key() == key
    if name == "kind":
        st.units["u03"].kind = "cav"
    elif name == "stats":
        st.units["u03"].stats = {"ma": 9}
    elif name == "division":
        st.units["u03"].division = "roos"
    elif name == "unit added":
        st.units["u99"] = Unit("u99", "a", "inf", "New", Hex(0, 0), 1, 1)
    elif name == "unit replaced":
        st.units["u03"] = Unit("u03", "a", "cav", "New", Hex(0, 0), 1, 1)
    elif name == "clone put in":
        st.units["u03"] = other.units["u01"].clone()
    elif name == "units dict replaced":
        st.units = {k: u for k, u in st.units.items() if k != "u03"}
    fresh = (tuple(st.units), tuple(u._ks for u in st.units.values()))
    assert st.kinds_key() == fresh
    assert (fresh == key) == (name == "nothing")


SIDE_CHANGES = POSITION_CHANGES + [
    ("revived", lambda st: None),
    ("unit added", lambda st: st.units.__setitem__("u99", Unit("u99", "a", "inf", "N", Hex(1, 1), 1, 1))),
    ("unit replaced", lambda st: st.units.__setitem__("u03", Unit("u03", "b", "inf", "R", Hex(1, 1), 1, 1))),
    ("unit removed", lambda st: st.units.pop("u03")),
    ("units dict replaced", lambda st: setattr(st, "units", {k: u for k, u in st.units.items() if k != "u05"})),
]


def _side_units_fresh(st, side, alive):
    return [u for u in (st.units[k] for k in sorted(st.units))
            if u.side == side and (not alive or (u.hex is not None and u.strength > 0))]


@pytest.mark.parametrize("name", [c[0] for c in SIDE_CHANGES])
def test_side_units_kept_for_a_position_follow_every_change(name):
    """``side_units`` is kept under the position token: whatever changes who is on a side or
    alive (or which unit objects the state holds) must show in the next answer."""
    st = _state()
    st.units["u07"].strength = 0  # one dead unit, so ``alive`` filters something
    for side in ("a", "b", "z"):
        for alive in (True, False):
            assert st.side_units(side, alive) == _side_units_fresh(st, side, alive)
    change = dict(SIDE_CHANGES)[name]
    if name in dict(POSITION_CHANGES):
        change(st.units["u03"])
    elif name == "revived":
        st.units["u07"].strength = 2
    else:
        change(st)
    for side in ("a", "b", "z"):
        for alive in (True, False):
            got = st.side_units(side, alive)
            assert got == _side_units_fresh(st, side, alive), (side, alive)
            assert all(u is st.units[u.id] for u in got)
    mine = st.side_units("a")
    mine.clear()  # each caller gets its own list
    assert st.side_units("a") == _side_units_fresh(st, "a", True) != []


def test_side_units_of_a_copy_name_the_copys_units():
    st = _state()
    before = st.side_units("a")
    twin = st.copy()
    assert [u.id for u in twin.side_units("a")] == [u.id for u in before]
    assert all(u is twin.units[u.id] for u in twin.side_units("a"))
    twin.units["u01"].hex = None
    assert "u01" not in [u.id for u in twin.side_units("a")]
    assert "u01" in [u.id for u in st.side_units("a")]
