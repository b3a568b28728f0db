"""Every word a player sees comes from the ruleset's words in plain English (issue 34 item 6).

Simulated games (several seeds, the basic computer) in every ruleset: at each step the texts of
the orders on offer (the decisions), the combat preview of each order that has one, and the log
line of every event go through one check: no ``True``/``False``/``None``, no snake_case field
name and no specification tag (``G-59``) reaches the screen. A rule number in parentheses is fine.
"""

import re

import pytest

from hexwar.engine.levels import computer_for
from hexwar.match import Match
from hexwar.scenarios.loader import builtin_paths, load_scenario
from hexwar.tui.describe import event_text, order_text, preview_lines

RULESETS = ("ancients", "frontier", "gunpowder", "poltava", "napoleonica", "fow", "npws")
_ALL = [load_scenario(p) for p in builtin_paths()]
# the first shipped scenario of each ruleset over three seeds, every other one over one
SCENARIOS = [next(s for s in _ALL if s.ruleset == r) for r in RULESETS if any(s.ruleset == r for s in _ALL)]
CASES = [(s, seed) for s in SCENARIOS for seed in (1, 2, 3)] + [(s, 1) for s in _ALL if s not in SCENARIOS]

_BAD = [
    (re.compile(r"\b(True|False|None)\b"), "a Python value"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a snake_case field name"),
    (re.compile(r"\bG-[A-Z]{0,2}\d+\b"), "a specification tag"),
    (re.compile(r"==SUPPRESS=="), "an argparse marker"),
]
MAX_STEPS = 160
MAX_ORDERS_SHOWN = 40


def not_plain(text: str) -> str | None:
    """What in ``text`` is not plain words, or None when all of it is."""
    for pattern, what in _BAD:
        m = pattern.search(text)
        if m:
            return f"{what} {m.group(0)!r}"
    return None


def test_the_check_catches_field_dumps():
    assert not_plain("advance Tver Dragoons yes True")
    assert not_plain("defender: modifiers , total_modifier 0")
    assert not_plain("roller Natives friendly_fire False kills_on 0807")
    assert not_plain("shooting at 0304 (5, G-59)")
    assert not_plain("the battalion is poorly_organised")
    assert not_plain("Tver Dragoons attacks 0916: you hit on 4+ (50%) (R6.1)") is None


def _texts(game, events):
    out = []
    for ev in events:
        out.append(("event", event_text(game, ev)))
    if game.scenario.ruleset == "fow" and game.ruleset.secret_round(game) and game.to_act():
        # the sealed plan is decided on a form: every label and every option it offers
        from hexwar.engine.rulesets.fow import planform
        for f in planform.build(game, game.to_act()):
            out.append(("plan", f.label))
            out.extend(("plan", words) for words, _ in f.options)
    orders = list(game.legal_orders())[:MAX_ORDERS_SHOWN]
    for order in orders:
        out.append(("order", order_text(game, order)))
        try:
            has_odds = bool(game.odds(order))
        except Exception:
            has_odds = False
        if has_odds:
            for line in preview_lines(game, order):
                out.append(("preview", line))
    return out


@pytest.mark.parametrize("scenario,seed", CASES, ids=[f"{s.id}-{seed}" for s, seed in CASES])
def test_every_text_a_player_sees_is_plain(scenario, seed):
    match = Match.new(scenario, seed=seed, players={s.id: "computer (basic)" for s in scenario.sides})
    players = {s.id: computer_for("basic", f"{seed}:{s.id}") for s in scenario.sides}
    bad: dict[str, str] = {}
    events = list(match.events)
    try:
        for _ in range(MAX_STEPS):
            game = match.game
            for where, text in _texts(game, events):
                problem = not_plain(text)
                if problem and problem not in bad:
                    bad[problem] = f"{where}: {text}"
            if game.over:
                break
            side = game.to_act()
            events = match.play(players[side].choose(game), side)
    finally:
        match.close()
    assert not bad, "\n".join(f"{p} in {t}" for p, t in bad.items())


def _hexwar(*args):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "hexwar", *args], capture_output=True, text=True, timeout=300)


def test_help_lists_no_argparse_marker_and_no_hidden_command():
    out = _hexwar("--help").stdout
    assert "describe" in out
    assert not_plain(out) is None, out
    assert "served-session" not in out  # what ``serve`` runs is not for typing by hand


@pytest.mark.parametrize("sid", ["border-clash", "poltava-1"])
def test_describe_says_unit_stats_in_words(sid):
    out = _hexwar("describe", sid).stdout
    assert " str " in out  # the unit rows are there
    for line in out.splitlines():
        assert not re.search(r"\b(True|False|None)\b|\w=\S", line), line
    if sid == "border-clash":
        assert "heavy, move 2" in out  # a flag that holds by its name; one that does not, not at all


def test_a_phase_that_passes_by_itself_says_why_with_its_rule():
    """Poltava's Fire phase passes for a side whose infantry stands next to an enemy: the log
    line names the unit and the rule (R6.1: no firing at enemies in your own ZOC)."""
    from hexwar.engine.forced import forced_order
    from hexwar.tui.describe import passes_by_itself
    scenario = next(s for s in _ALL if s.id == "poltava-1")
    match = Match.new(scenario, seed=1, players={s.id: "computer (basic)" for s in scenario.sides})
    players = {s.id: computer_for("basic", s.id) for s in scenario.sides}
    said = None
    try:
        for _ in range(200):
            game = match.game
            side = game.to_act()
            if game.over or side is None:
                break
            if game.state.phase == "fire" and forced_order(game, list(game.legal_orders())) is not None:
                line = passes_by_itself(game, side)
                if "R6.1" in line:
                    said = line
                    break
            match.play(players[side].choose(game), side)
    finally:
        match.close()
    assert said is not None, "no Fire phase passed by itself with its reason"
    assert said.startswith("(Swedish army of Charles XII has nothing to decide in the Fire phase: it passes by itself; ")
    assert "cannot act against" in said and said.endswith("no firing at enemies in your own ZOC (R6.1))")
    assert not_plain(said) is None
