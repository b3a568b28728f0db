"""UI test fixtures: the drill ruleset (tests/tui/tui_drill) is registered so the UI tests do not
depend on the balance of the real rulesets, which change as they are written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
DRILL = HERE / "tui_drill" / "drill.toml"
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from hexwar.engine import rulesets  # noqa: E402

rulesets.KNOWN.setdefault("drill", "tui_drill")


@pytest.fixture
def drill_path() -> Path:
    return DRILL


@pytest.fixture
def drill_scenario():
    from hexwar.scenarios.loader import load_scenario
    return load_scenario(DRILL)
