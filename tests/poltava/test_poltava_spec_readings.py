"""Issue 11: the rules where the engine had departed from the specification's reading.

Each expected value comes from the spec text quoted (in short) in the test's comment.
"""

from poltava_helpers import H, O, Script, U, events, game, path, to_phase

CAMP_DIVS = [("sw", "sweden", 99), ("sw2", "sweden", 99), ("ru", "russia", 99), ("lg", "russia", 99),
             ("ru2", "russia", 99)]


def _answer_all(g, pick=None):
    """Answer pending decisions with the first legal order (or ``pick(pending)`` when it gives one);
    returns the kinds seen."""
    seen = []
    while g.state.pending:
        p = g.state.pending[0]
        seen.append(p["kind"])
        o = pick(p) if pick else None
        g.apply(o or next(iter(g.legal_orders())), Script(3))
    return seen


# --- bug 1: Cossacks that change sides are not forced away (GN, R9.2) ---------------------------

def test_GN_R9_2_cossacks_that_change_sides_are_not_forced_to_withdraw():
    # GN [PROP]: side-changers only "do not attack in the phase in which they change". R9.2 is about
    # cavalry that must attack into terrain it may not attack; it does not apply to them.
    for rows in (None, ["." * 10] * 6 + ["......W..."] + ["......W..."] + ["." * 10] * 2):
        g = game([U("c1", "russia", "cossack", "0303"), U("c2", "russia", "cossack", "0708"),
                  U("s1", "sweden", "sw-inf", "0305"), U("r", "russia", "ru-inf", "0709")], rows=rows)
        g.state.vars.update(cossacks_lost=2)
        to_phase(g, "fire")
        g.apply(O("fire", unit="s1", target="c1"), Script(6))
        assert g.state.units["c2"].side == "sweden"
        g.apply(O("end-phase"))                        # into the Swedish melee phase
        assert not any(p["kind"] == "withdraw" for p in g.state.pending)
        assert g.state.units["c2"].hex == g.map.parse("0708")
        assert g.state.vars["cossacks_lost"] == 3      # no fourth loss
        assert g.validate(O("end-phase")) is None


# --- bug 2: Camp troops never leave the camp, pursuit included (GN, S2-1.6) ---------------------

def test_GN_camp_troops_do_not_pursue_out_of_the_camp():
    rows = ["CCC......."] * 10
    g = game([U("k", "russia", "ru-inf", "0305", division="lg"), U("s", "sweden", "sw-inf", "0405")],
             rows=rows, first="russia", divisions=CAMP_DIVS)
    to_phase(g, "melee")
    evs = g.apply(O("attack", units=["k"], hexes=[H(g, "0405")]), Script(6))
    assert events(evs, "melee-result")[0]["result"] == "D1"
    seen = _answer_all(g, lambda p: O("no-pursuit") if p["kind"] == "pursue" else None)
    assert "pursue" not in seen
    assert g.state.units["k"].hex == g.map.parse("0305")


# --- 3: enemy ZOC stops at the retrenchment, Russian ZOC reaches out of the camp (Part 5) -------

def _camp_board(units, first="sweden"):
    rows = ["CCC......."] * 10
    probe = game([U("p", "sweden", "sw-inf", "0909")], rows=rows)
    sides = []
    for row in range(1, 11):
        h = probe.map.parse(f"03{row:02d}")
        for _, n in probe.map.neighbors(h):
            if probe.map.label(n).startswith("04"):
                sides.append((f"03{row:02d}", probe.map.label(n)))
    return game(units, rows=rows, first=first, hexsides=[("retrenchment", sides)])


def test_R5_1_Part5_russian_zoc_reaches_out_across_the_retrenchment_but_not_in():
    # Part 5 item 2: no ZOC "on the camp side of a retrenchment hexside that U would have to cross";
    # Part 6: "Enemy ZOC does not extend across it into the camp side" - only inward is cut.
    g = _camp_board([U("a", "sweden", "sw-inf", "0505"), U("z", "russia", "ru-inf", "0305")])
    assert "ZOC" in (g.validate(O("move", unit="a", path=path(g, "0405", "0406"))) or "")
    assert g.validate(O("move", unit="a", path=path(g, "0405"))) is None
    g.apply(O("move", unit="a", path=path(g, "0405")))
    assert g.map.parse("0405") in g.zoc_hexes("sweden")        # the Swede is in z's ZOC
    assert g.map.parse("0305") not in g.zoc_hexes("russia")     # z is not in the Swede's
    to_phase(g, "melee")
    assert "a must attack" in g.validate(O("end-phase"))       # R8.2: contact means melee


def test_TEC_S2_3_only_the_defender_on_the_camp_side_gets_the_retrenchment():
    # TEC/Part 6: "A defender on the camp side gets 2 shifts and -1 DRM"; a Swede outside does not.
    g = _camp_board([U("a", "sweden", "sw-inf", "0405"), U("z", "russia", "ru-inf", "0305")], first="russia")
    to_phase(g, "melee")
    o = g.odds(O("attack", units=["z"], hexes=[H(g, "0405")]))
    # CS 4 - 3 = +1 -> column "+1"; the Swede's 2 stars shift left twice -> "-1"; no retrenchment
    assert o["column"] == "-1" and o["drm"] == 0
    assert not any("retrenchment" in name for name, _ in o["shifts"])
    g = _camp_board([U("a", "sweden", "sw-inf", "0405"), U("z", "russia", "ru-inf", "0305")])
    to_phase(g, "melee")
    o = g.odds(O("attack", units=["a"], hexes=[H(g, "0305")]))
    # 3 - 4 = -1 -> "-1"; 2 stars right -> "+1"; retrenchment 2 left -> "-1"; DRM -1
    assert o["column"] == "-1" and o["drm"] == -1


# --- 5: a pursuit may pass a Russian-held redoubt, rolling as in movement (A44, 12.4) ------------

def _corridor(units):
    # one open column (05) between woods, a garrisoned redoubt on 0507
    rows = []
    for r in range(1, 11):
        rows.append("WWWW" + ("R" if r == 7 else ".") + "WWWWW")
    g = game(units, rows=rows)
    to_phase(g, "melee")
    return g


def test_A44_12_4_a_pursuit_passes_a_russian_redoubt_and_rolls_for_it():
    units = [U("a", "sweden", "sw-inf", "0505", stats={"cs": 20}), U("z", "russia", "ru-inf", "0506", strength=1),
             U("r1", "russia", "redoubt", "0507")]
    for roll, end, roos in ((3, "0508", False), (6, "0506", True)):
        g = _corridor(units)
        evs = g.apply(O("attack", units=["a"], hexes=[H(g, "0506")]), Script(6))
        assert events(evs, "melee-result")[0]["result"] == "D3"
        assert g.state.pending[0]["kind"] == "pursue"
        through = O("pursue", unit="a", path=path(g, "0506", "0507", "0508"))
        assert g.validate(through) is None                    # "may pass through", A44
        assert g.validate(O("pursue", unit="a", path=path(g, "0506", "0507"))) is not None  # never ends there
        assert g.needs_dice(through)
        evs = g.apply(through, Script(roll))
        a = g.state.units["a"]
        assert a.hex == g.map.parse(end)
        assert (a.division == "roos") is roos                  # S2-2.6: on a 6 one step, Roos column
        assert a.strength == (1 if roos else 2)


# --- 6: a line of sight touching a blocking hex at a vertex is blocked (R7, A22) ----------------

def test_R7_A22_a_line_touching_woods_only_at_a_vertex_is_blocked():
    # 0505 -> 0908 (range 5): the centre line passes exactly through a corner of 0606 and of 0806.
    # R7: blocked if the line "crosses or touches any part of a hex"; A22: "vertex included".
    def fire_ok(woods):
        rows = [list("." * 12) for _ in range(12)]
        if woods:
            c, r = int(woods[:2]), int(woods[2:])
            rows[r - 1][c - 1] = "W"
        g = game([U("g", "russia", "art", "0505"), U("t", "sweden", "sw-inf", "0908")],
                 rows=["".join(x) for x in rows], width=12, height=12, first="russia")
        to_phase(g, "fire")
        return g.validate(O("fire", unit="g", target="t"))
    assert fire_ok(None) is None
    assert "line of sight" in fire_ok("0606")
    assert "line of sight" in fire_ok("0806")
    assert fire_ok("0607") is None                             # next to the line, not touched


# --- 7: no ZOC across a hexside the unit may not cross (R5.1, Z9) -------------------------------

def test_R5_1_Z9_no_zoc_across_the_redoubt_line_from_units_banned_from_crossing_it():
    divs = [("sw", "sweden", 99), ("roos", "sweden", 99), ("ru", "russia", 99), ("rc", "russia", 99)]
    line = [("redoubt_line", [("0505", "0506")])]
    g = game([U("a", "sweden", "sw-inf", "0505", division="roos"), U("x", "russia", "ru-inf", "0506")],
             hexsides=line, divisions=divs)
    assert g.map.parse("0506") not in g.zoc_hexes("russia")    # a Roos battalion (S2-4)
    assert g.map.parse("0505") in g.zoc_hexes("sweden")        # x may cross: its ZOC does
    g = game([U("a", "sweden", "sw-inf", "0505"), U("x", "russia", "ru-inf", "0506", division="rc")],
             hexsides=line, divisions=divs)
    assert g.map.parse("0505") not in g.zoc_hexes("sweden")    # Rentzel (S2-5)
    assert g.map.parse("0506") in g.zoc_hexes("russia")
    g = game([U("a", "sweden", "sw-inf", "0505"), U("x", "russia", "ru-inf", "0506")],
             hexsides=line, rules={"scenario": 1})
    assert g.map.parse("0506") not in g.zoc_hexes("russia")    # S1: nobody crosses, no ZOC across
    assert g.map.parse("0505") not in g.zoc_hexes("sweden")


# --- 8: a firer behind an impassable river ignores R6.1 (R6.1.1) ---------------------------------

def test_R6_1_1_a_firer_behind_an_impassable_river_may_fire_into_its_own_zoc():
    # t is in y's ZOC (R6.1 would forbid the shot), but f stands behind an impassable river
    # from t: "if the firing unit is in a hex into which enemy ZOC does not extend" (R6.1.1)
    units = [U("f", "russia", "ru-inf", "0505"), U("y", "russia", "ru-inf", "0507"),
             U("t", "sweden", "sw-inf", "0506")]
    g = game(units, first="russia", hexsides=[("impassable", [("0505", "0506")])])
    to_phase(g, "fire")
    assert g.validate(O("fire", unit="f", target="t")) is None
    assert "R6.1" in g.validate(O("fire", unit="y", target="t"))
    g = game(units, first="russia")
    to_phase(g, "fire")
    assert "R6.1" in g.validate(O("fire", unit="f", target="t"))


# --- 9: an empty captured redoubt is plain terrain for both sides (12.4) ------------------------

def test_S2_2_12_4_a_russian_may_end_its_move_in_an_empty_captured_redoubt():
    rows = ["." * 10] * 6 + ["....R....."] + ["." * 10] * 3
    g = game([U("x", "russia", "ru-inf", "0505"), U("r1", "sweden", "redoubt", "0507"),
              U("s", "sweden", "sw-inf", "0909")], rows=rows, first="russia")
    assert g.validate(O("move", unit="x", path=path(g, "0506", "0507"))) is None
    g.apply(O("move", unit="x", path=path(g, "0506", "0507")))
    assert g.state.units["x"].hex == g.map.parse("0507")
    # a Russian-held (garrisoned) redoubt is still pass-through only (A41)
    g = game([U("x", "russia", "ru-inf", "0505"), U("r1", "russia", "redoubt", "0507"),
              U("s", "sweden", "sw-inf", "0909")], rows=rows, first="russia")
    assert g.validate(O("move", unit="x", path=path(g, "0506", "0507"))) is not None


# --- 10: melee obligations are fixed when the phase begins (8.2 [PROP]) -------------------------

def test_R8_2_obligations_are_fixed_at_the_start_of_the_melee_phase():
    # a pursues into 0506, next to y; y's ZOC now covers a, and b (in a village, so outside y's
    # ZOC) could attack y. 8.2: obligations are "fixed at the start of the Melee Phase".
    rows = ["." * 10] * 6 + ["......V..."] + ["." * 10] * 3
    g = game([U("a", "sweden", "sw-inf", "0505", stats={"cs": 20}), U("z", "russia", "ru-inf", "0506", strength=1),
              U("y", "russia", "ru-inf", "0606"), U("b", "sweden", "sw-inf", "0707")], rows=rows)
    to_phase(g, "melee")
    g.apply(O("attack", units=["a"], hexes=[H(g, "0506")]), Script(6))
    g.apply(O("pursue", unit="a", path=path(g, "0506")))
    assert g.map.parse("0506") in g.zoc_hexes("sweden")
    assert g.validate(O("end-phase")) is None
    assert g.validate(O("attack", units=["b"], hexes=[H(g, "0606")])) is None   # still allowed


# --- 11: re-garrisoning and Rentzel's exchange open the Russian movement phase (Part 3) ---------

def test_Part3_regarrison_and_exchange_only_at_the_start_of_the_russian_movement_phase():
    rows = ["." * 10] * 6 + ["......R..."] + ["." * 10] * 3
    divs = [("sw", "sweden", 99), ("roos", "sweden", 99), ("ru", "russia", 99), ("rc", "russia", 99)]
    units = [U("q", "sweden", "sw-inf", "0909", division="roos"), U("rc1", "russia", "ru-inf", "0101", division="rc"),
             U("x", "russia", "ru-inf", "0303"), U("y", "russia", "ru-inf", "0706"),
             U("r1", "sweden", "redoubt", "0707")]

    def fresh():
        g = game(units, rows=rows, divisions=divs, first="russia", rules={"first_turn": 6})
        assert g.state.phase == "move" and g.state.active == "russia"
        return g
    regar = O("regarrison", unit="y", redoubt="r1")
    g = fresh()
    assert g.validate(regar) is None and g.validate(O("exchange")) is None
    g.apply(O("hold", unit="x"))
    assert "start" in g.validate(regar) and "start" in g.validate(O("exchange"))
    g = fresh()
    g.apply(regar)                         # a. re-garrisoning, then b. the exchange
    assert g.validate(O("exchange")) is None
    g = fresh()
    g.apply(O("exchange"))
    _answer_all(g)
    assert "before" in g.validate(regar)


# --- 12: the Swedish player places a displaced side-changing Cossack (A35) ----------------------

def test_A35_the_swedish_player_chooses_where_a_displaced_cossack_goes():
    g = game([U("c1", "russia", "cossack", "0303"), U("c2", "russia", "cossack", "0707"),
              U("g", "russia", "art", "0707"), U("s1", "sweden", "sw-inf", "0305"),
              U("z", "russia", "ru-inf", "0101")])
    g.state.vars.update(cossacks_lost=2)
    to_phase(g, "fire")
    g.apply(O("fire", unit="s1", target="c1"), Script(6))
    p = g.state.pending[0]
    assert p["kind"] == "displace" and p["side"] == "sweden"
    options = sorted(g.map.label(o["hex"]) for o in g.legal_orders())
    assert options == ["0606", "0607", "0706", "0708", "0806", "0807"]   # the six free neighbours
    assert g.validate(O("displace", unit="c2", hex=H(g, "0909"))) is not None  # not the nearest
    g.apply(O("displace", unit="c2", hex=H(g, "0708")))
    c2 = g.state.units["c2"]
    assert c2.side == "sweden" and c2.hex == g.map.parse("0708") and not g.state.pending


def test_R7_A22_twelve_of_120_directions_at_ranges_2_to_6_touch_a_hex_only_at_a_vertex():
    # issue 11 counted, from the geometry alone, 12 of the 120 firer-target placements at ranges
    # 2-6 whose centre line touches some hex at a vertex only; the exact test must see those
    # touches (and, being geometry, the same from either end)
    from hexwar.engine.hexgrid import Hex, hex_distance, hex_line_pair, hex_spiral
    from hexwar.engine.rulesets.poltava.board import sight_touches
    a = Hex(0, 0)
    extra = 0
    total = 0
    for b in hex_spiral(a, 6):
        if hex_distance(a, b) < 2:
            continue
        total += 1
        exact = set(sight_touches(a, b)[0])
        assert exact == set(sight_touches(b, a)[0])
        nudged = {h for line in hex_line_pair(a, b) for h in line[1:-1]}
        assert nudged <= exact
        extra += bool(exact - nudged)
    assert (extra, total) == (12, 120)
