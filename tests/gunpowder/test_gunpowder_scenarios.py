"""The Age of Gunpowder scenarios: `hexwar validate` refuses a square before 1790 and an unknown
formation as `file: field (line N): problem`; both designed scenarios are listed and labelled."""

from __future__ import annotations

import pytest

from hexwar.cli import main as hexwar_main
from hexwar.scenarios.loader import ScenarioError, load_named, load_scenario

from gp_helpers import scenario_text


def _line_of(text: str, unit_index: int, key: str) -> int:
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.strip() == "[[units]]"]
    start = starts[unit_index]
    return next(i + 1 for i in range(start, len(lines)) if lines[i].startswith(f"{key} ="))


def _write(tmp_path, units, **kw):
    text = scenario_text(units, **kw)
    path = tmp_path / "bad.toml"
    path.write_text(text)
    return path, text


def test_G_P4_validate_refuses_a_square_before_1790(tmp_path, capsys):
    path, text = _write(tmp_path, [("a1", "a", "line-infantry", "0508", "NE", "square"),
                                   ("b1", "b", "line-infantry", "0501", "SE", "line")], year=1789)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    line = _line_of(text, 0, "stats")
    assert err.value.problems == [
        f"{path}: units[0].stats.formation (line {line}): infantry may form square only after 1790 "
        "(5.1); this battle is dated 1789 (rules.year)"]
    assert hexwar_main(["validate", str(path)]) != 0
    assert f"units[0].stats.formation (line {line})" in capsys.readouterr().out
    path.write_text(text.replace("year = 1789", "year = 1790"))
    assert load_scenario(path).rules["year"] == 1790


def test_5_6_validate_refuses_an_unknown_formation(tmp_path):
    path, text = _write(tmp_path, [("a1", "a", "line-infantry", "0508", "NE", "line"),
                                   ("a2", "a", "cavalry", "0608", "NE", "square"),
                                   ("b1", "b", "line-infantry", "0501", "SE", "wedge")])
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert err.value.problems == [
        f"{path}: units[1].stats.formation (line {_line_of(text, 1, 'stats')}): 'square' is not a "
        "formation of Cavalry (column, line; 5.6)",
        f"{path}: units[2].stats.formation (line {_line_of(text, 2, 'stats')}): 'wedge' is not a "
        "formation of Line Infantry (column, line, square; 5.6)"]


def test_G_P4_validate_refuses_a_year_that_is_not_one(tmp_path):
    path, _ = _write(tmp_path, [("a1", "a", "line-infantry", "0508", "NE", "line"),
                                ("b1", "b", "line-infantry", "0501", "SE", "line")], rules={"year": "1805"})
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert any("rules.year" in p for p in err.value.problems)


def test_5_6_line_infantry_may_start_in_a_forest_only_in_column(tmp_path):
    rows = [" ".join("." * 10)] * 7 + [". . . . F . . . . ."]
    ok = scenario_text([("a1", "a", "line-infantry", "0508", "NE", "column"),
                        ("b1", "b", "line-infantry", "0501", "SE", "line")], rows=rows)
    path = tmp_path / "ok.toml"
    path.write_text(ok)
    load_scenario(path)
    path.write_text(ok.replace('formation = "column"', 'formation = "line"', 1))
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert any("may not stand in forest" in p for p in err.value.problems)


def test_both_designed_scenarios_are_listed_dated_and_labelled(capsys):
    assert hexwar_main(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert "gunpowder-picket" in out and "gunpowder-river" in out
    picket, river = load_named("gunpowder-picket"), load_named("gunpowder-river")
    assert picket.rules["year"] < 1790 <= river.rules["year"]
    for sc in (picket, river):
        assert "designed" in sc.title.lower() and "DESIGNED" in sc.notes
    assert {"river", "village"} <= {river.map.terrain_at(h) for h in river.map.hexes}
    kinds = {u.stats["family"] for u in river.units}
    assert kinds == {"line-infantry", "skirmishers", "cavalry", "artillery", "commander"}
    for side in ("blue", "red"):
        assert 12 <= sum(1 for u in river.units if u.side == side) <= 14
