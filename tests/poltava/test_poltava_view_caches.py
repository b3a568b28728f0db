"""Poltava's position caches (issue 16) give the answers worked out afresh, at every position of
a recorded poltava-2 game: the snapshot view's index, the ids of each arm, a division's units."""

from pathlib import Path

from hexwar.engine.rulesets.poltava.board import View, arm, ids_by_arm, in_division, odb_ranks, stat, view_of
from hexwar.journal import read_journal
from hexwar.match import replay

JOURNAL = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "poltava-2-seed1.journal"


def _ids(index):
    """A table of the index with unit ids for units (tables per side are nested)."""
    if isinstance(index, tuple):
        return [_ids(t) for t in index]
    if any(isinstance(k, str) for k in index):
        return {side: _ids(tables) for side, tables in index.items()}

    def name(x):
        return None if x is None else x.id
    return {h: [name(x) for x in (us if isinstance(us, list) else [us])] for h, us in index.items()}


def test_cached_position_answers_equal_fresh_ones_through_a_whole_game():
    seen = []

    def check(n, game, events):
        st = game.state
        cached = view_of(game)
        cached.zoc("sweden")  # builds (or takes) the index
        fresh = View(game.scenario, st.copy(), snapshot=True)
        fresh.zoc("sweden")
        for mine, theirs in zip(cached._indexed, fresh._indexed):
            assert _ids(mine) == _ids(theirs)
        plain = View(game.scenario, st.copy())  # no index: zones walked from the units
        for side in ("sweden", "russia"):
            assert cached.zoc(side) == plain.zoc(side)
            assert cached.enemy_hexes(side) == plain.enemy_hexes(side)
            assert cached.danger(side) == plain.danger(side)
            assert cached.musket(side) == plain.musket(side)
        by_arm = ids_by_arm(st)
        for a in sorted({arm(u) for u in st.units.values()}):
            assert list(by_arm[a]) == sorted(k for k, u in st.units.items() if arm(u) == a)
        assert list(odb_ranks(st)) == [(stat(st.units[k], "odb"), k) for k in sorted(st.units)
                                       if arm(st.units[k]) == "inf" and stat(st.units[k], "odb")]
        for division in ("roos", "gn", "lg"):
            assert [u.id for u in in_division(st, division)] == \
                [u.id for u in st.units.values() if u.division == division]
        seen.append(n)

    replay(str(JOURNAL), read_journal(JOURNAL), verify=True, on_order=check)
    assert len(seen) == 630  # every position of the fixture game


def test_positions_and_their_views_leave_no_reference_cycles():
    """A state keeps what its view worked out, never the view itself: dropped positions are freed
    at once instead of waiting for the garbage collector (which cost a computer game a third of
    its time when every state and its view held each other)."""
    import gc

    def ask(n, game, events):
        if n % 5 == 0:
            twin = game.copy()
            view_of(twin).zoc("sweden")
            for u in twin.state.side_units(twin.state.active)[:2]:
                list(twin.unit_orders(u.id))

    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        replay(str(JOURNAL), read_journal(JOURNAL), verify=False, on_order=ask)
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if type(o).__name__ in ("State", "View", "Unit")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []


def test_maps_equal_in_content_share_their_tables_and_others_do_not():
    """A scenario read again (a replay, another game of it) has an equal map, which takes the
    tables already worked out for the first; a map that differs anywhere gets its own."""
    from dataclasses import replace

    from hexwar.engine.rulesets.poltava.board import _tables
    from hexwar.scenarios.loader import find_scenario, load_scenario

    first = load_scenario(find_scenario("poltava-2")).map
    again = load_scenario(find_scenario("poltava-2")).map
    assert first is not again and first == again
    assert _tables(first) is _tables(again)
    h = first.hexes[0]
    changed = replace(first, terrain={**first.terrain, h: "marsh" if first.terrain_at(h) != "marsh" else "clear"})
    assert changed != first
    assert _tables(changed) is not _tables(first)


def test_R10_1_R10_2_rout_tables_kept_on_a_scenario_follow_that_scenario_only():
    """``post_checks`` keeps each scenario's rout thresholds and armies on the scenario object: a
    scenario made from it with other divisions or armies (``dataclasses.replace``) has its own."""
    import dataclasses

    from hexwar.engine.rulesets.poltava.resolve import _rout_thresholds, army_state
    from poltava_helpers import U, game

    divs = [("sw", "sweden", 99), ("sw2", "sweden", 99), ("ru", "russia", 1), ("ru2", "russia", 2),
            ("ru3", "russia", 99)]
    g = game([U("a", "sweden", "sw-inf", "0501"), U("z", "russia", "ru-inf", "0503")], divisions=divs)
    scn, st = g.scenario, g.state
    assert _rout_thresholds(scn) == (("sw", 99, "sw"), ("sw2", 99, "sw2"), ("ru", 1, "ru"),
                                     ("ru2", 2, "ru2"), ("ru3", 99, "ru3"))
    st.vars["routed"] = ["ru"]
    assert army_state(scn, st) == (False, False, False)  # ru2 and ru3 left
    st.vars["routed"] = ["ru", "ru2"]
    assert army_state(scn, st) == (True, False, False)  # one Russian division left: routed
    fewer = dataclasses.replace(scn, divisions=scn.divisions[:3],
                                victory={**scn.victory, "russia_divisions": ["ru", "ru2", "ru3", "ru4"]})
    assert _rout_thresholds(fewer) == (("sw", 99, "sw"), ("sw2", 99, "sw2"), ("ru", 1, "ru"))
    assert army_state(fewer, st) == (False, False, False)  # ru3 and ru4 left
    assert army_state(scn, st) == (True, False, False)


def test_R9_5_a_lone_leader_entered_by_an_enemy_after_a_quiet_check_still_goes_to_his_nearest_unit():
    """``post_checks`` looks again only at leaders in hexes whose units changed since the last
    check that moved nobody: the leader whose hex an enemy enters is found, the other stays."""
    from hexwar.engine.hexgrid import hex_distance

    from poltava_helpers import O, U, game, path

    g = game([U("k", "sweden", "leader", "0505"), U("j", "sweden", "leader", "0901"),
              U("a", "sweden", "sw-inf", "0801"), U("b", "sweden", "sw-inf", "0910"),
              U("z", "russia", "ru-inf", "0503"), U("y", "russia", "ru-inf", "0109")], first="russia")
    g.apply(O("move", unit="y", path=path(g, "0108")))  # a check at a quiet position
    assert g.state.__dict__.get("_leaders_checked") is not None
    g.apply(O("move", unit="z", path=path(g, "0504", "0505")))  # into the lone leader's hex
    units = g.state.units
    start = g.map.parse("0505")
    assert hex_distance(start, units["a"].hex) < hex_distance(start, units["b"].hex)
    assert units["k"].hex == units["a"].hex  # the nearest friendly combat unit
    assert g.map.label(units["j"].hex) == "0901"


def test_leaders_checked_only_where_units_changed_find_what_checking_all_finds_through_a_game(monkeypatch):
    """At every ``post_checks`` of a recorded poltava-2 game that checks only some leaders, checking
    all of them on a copy of the position moves the same leaders to the same hexes."""
    from hexwar.engine.rulesets.poltava import resolve as R

    full = R._overrun_leaders
    partial = []

    def both(st, scn, units, occ, only=None):
        if only is None:
            return full(st, scn, units, occ)
        twin = st.copy()
        full(twin, scn, twin.units, twin.shared_occupancy())
        full(st, scn, units, occ, only)
        partial.append(len(only))
        assert [(u.id, u.hex, u.strength) for u in st.units.values()] == \
            [(u.id, u.hex, u.strength) for u in twin.units.values()]

    monkeypatch.setattr(R, "_overrun_leaders", both)
    replay(str(JOURNAL), read_journal(JOURNAL), verify=True)
    assert len(partial) > 400


def _odb_formed_plainly(scn, st, side):
    """S2-1 read plainly: the side's live infantry with an ordre-de-bataille place (outside the
    Camp, Rentzel, the Roos column, detached divisions and redoubts), taken by rank then id, all
    north of the Redoubt Line and each the next one's neighbour in one allowed direction."""
    from hexwar.engine.hexgrid import hex_direction_to
    from hexwar.engine.rulesets.poltava.board import arm

    redoubt_hexes = {u.hex for u in st.units.values() if arm(u) == "redoubt" and u.alive}
    line = sorted((stat(u, "odb"), u.id, u) for u in st.units.values()
                  if arm(u) == "inf" and stat(u, "odb") and u.side == side and u.alive
                  and u.division not in ("lg", "rc", "roos", *st.vars["detached"])
                  and u.hex not in redoubt_hexes)
    units = [u for _, _, u in line]
    south_row = int(scn.rule("redoubt_line_row", 22))
    if not units or any(scn.map.offset(u.hex)[1] + 1 > south_row for u in units):
        return False
    allowed = scn.rule(f"odb_directions_{side}", [0, 1, 2, 3, 4, 5])
    dirs = {hex_direction_to(a.hex, b.hex) for a, b in zip(units, units[1:])}
    return len(dirs) <= 1 and all(d is not None and d in allowed for d in dirs)


def test_S2_1_the_ordre_de_bataille_check_agrees_with_a_plain_reading_through_a_game():
    from hexwar.engine.rulesets.poltava.resolve import odb_formed

    answers = []

    def check(n, game, events):
        for side in ("sweden", "russia"):
            got = odb_formed(game.scenario, game.state, side)
            assert got == _odb_formed_plainly(game.scenario, game.state, side), (n, side)
            answers.append(got)

    replay(str(JOURNAL), read_journal(JOURNAL), verify=True, on_order=check)
    assert True in answers and False in answers
