"""`hexwar scenarios` lists the built-in files from their heads only (issue 16: start-up)."""

from pathlib import Path

from hexwar.scenarios import catalog
from hexwar.scenarios.loader import builtin_paths, load_scenario


def test_catalogue_agrees_with_the_full_loader_for_every_builtin_scenario():
    rows, problems = catalog.summaries()
    assert problems == []
    full = [load_scenario(p) for p in builtin_paths()]
    assert [r["id"] for r in rows] == [s.id for s in full]
    for row, s in zip(rows, full):
        assert (row["title"], row["ruleset"], row["turns"]) == (s.title, s.ruleset, s.turns)
        assert row["sides"] == [{"id": x.id, "name": x.name} for x in s.sides]


def test_catalogue_survives_a_table_header_inside_a_multiline_string(tmp_path: Path):
    path = tmp_path / "odd.toml"
    path.write_text('[scenario]\nid = "odd"\ntitle = "Odd"\nruleset = "ancients"\nturns = 3\n'
                    'notes = """\n[map]\n"""\n\n[[sides]]\nid = "a"\n\n[[sides]]\nid = "b"\nname = "Bee"\n')
    row = catalog.summary(path)
    assert row == {"id": "odd", "title": "Odd", "ruleset": "ancients", "turns": 3,
                   "sides": [{"id": "a", "name": "a"}, {"id": "b", "name": "Bee"}]}


def test_catalogue_reports_a_file_without_a_scenario_table(tmp_path: Path):
    path = tmp_path / "broken.toml"
    path.write_text("[map]\nwidth = 3\n")
    try:
        catalog.summary(path)
    except ValueError as exc:
        assert "broken.toml" in str(exc)
    else:
        raise AssertionError("a file without [scenario] was listed")
