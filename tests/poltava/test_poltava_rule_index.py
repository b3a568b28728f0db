"""The rule index in engine/rulesets/poltava/NOTES.md lists every numbered rule of the spec, with the
function that implements it and a test that checks it (issue 11, "findable by rule number")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
SPEC = ROOT / ".." / "shared" / "rules" / "poltava-1709.md"
NOTES = ROOT / "engine" / "rulesets" / "poltava" / "NOTES.md"
TESTS = Path(__file__).parent


def spec_rule_numbers(text: str) -> set[str]:
    """Rule numbers as the spec writes them: R4.3.1, the "(8.6.1)" steps of R8.6 and the "(2.2.1)"
    markers of R2.2, and the scenario-2 rules S2-2.6, including the bold "**1.4**" items of its
    Part 12. The unit roster of Part 16 numbers counters R1-R48, not rules, so it is left out."""
    text = text.split("\n## Part 16")[0]
    out = {"R" + m for m in re.findall(r"\bR(\d+(?:\.\d+)*)\b", text)}
    out |= {"R" + m for m in re.findall(r"\((\d+\.\d+\.\d+)\)", text)}
    out |= {"S2-" + m for m in re.findall(r"\bS2-(\d+(?:\.\d+)*)\b", text)}
    part12 = text.split("\n## Part 12")[1].split("\n## Part 13")[0]
    out |= {"S2-" + m for m in re.findall(r"^\* \*\*(\d+\.\d+)", part12, flags=re.M)}
    return out


def index_rows(text: str) -> dict[str, tuple[str, str]]:
    """Rule number -> (function, test) from the "## Rule index" table of NOTES.md."""
    section = text.split("\n## Rule index")[1].split("\n## ")[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"(R|S2-)\d+(\.\d+)*", cells[0]):
            rows[cells[0]] = (cells[1], cells[2])
    return rows


def test_spec_rule_number_parser_reads_the_forms_the_spec_uses():
    sample = ("* **R4.3.1** [L106]\n5. (8.6.5) Difference\n* `S2-2.6` means\n## Part 12 — S2\n"
              "* **1.4** Begin\n## Part 13\n## Part 16 — roster\n| R48 | x |\n")
    assert spec_rule_numbers(sample) == {"R4.3.1", "R8.6.5", "S2-2.6", "S2-1.4"}


@pytest.mark.skipif(not SPEC.exists(), reason="the specification (../shared/rules) is not beside this checkout")
def test_the_rule_index_lists_every_numbered_rule_of_the_spec():
    rules = spec_rule_numbers(SPEC.read_text(encoding="utf-8"))
    assert len(rules) > 60
    listed = index_rows(NOTES.read_text(encoding="utf-8"))
    missing = sorted(rules - set(listed))
    assert not missing, f"rules missing from the NOTES.md rule index: {missing}"


def test_every_test_named_in_the_rule_index_exists():
    listed = index_rows(NOTES.read_text(encoding="utf-8"))
    defined = set()
    for f in sorted(TESTS.glob("test_*.py")):
        defined |= set(re.findall(r"^def (test_\w+)", f.read_text(encoding="utf-8"), flags=re.M))
    named = {t for _, (_, tests) in listed.items() for t in re.findall(r"test_\w+", tests)}
    assert named and not sorted(named - defined)
    assert all(re.search(r"test_\w+", tests) for _, tests in listed.values())
