"""A broken scenario file gets a list of problems, never a traceback: every shipped scenario,
with any one of its values replaced by a value of another type, or any key removed, still loads
or fails with ScenarioError."""

import copy
import tomllib

from hypothesis import HealthCheck, given, settings, strategies as st

from hexwar.scenarios.loader import ScenarioError, builtin_paths, scenario_from_data

SOURCES = [(p.name, tomllib.loads(p.read_text(encoding="utf-8"))) for p in builtin_paths()]
junk = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=12),
                 st.lists(st.integers(-5, 5), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def _paths(value, prefix=()):
    """Every (path, value) in nested dicts and lists."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def _set(data, path, new, delete):
    target = data
    for key in path[:-1]:
        target = target[key]
    if delete and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = new


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=st.sampled_from(SOURCES), pick=st.integers(0, 10**6), new=junk, delete=st.booleans())
def test_damaged_scenarios_fail_with_problems_not_tracebacks(source, pick, new, delete):
    name, data = source
    data = copy.deepcopy(data)
    paths = [p for p in _paths(data) if p]
    _set(data, paths[pick % len(paths)], new, delete)
    try:
        scenario_from_data(data, "", name)
    except ScenarioError as exc:
        assert exc.problems and all(p.startswith(name) for p in exc.problems)
