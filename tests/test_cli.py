"""The command line, run as a user would: separate processes, exit codes, no tracebacks."""

import json
import os
import subprocess
import sys

import pytest

from hexwar.scenarios.loader import builtin_paths, load_scenario

IDS = [load_scenario(p).id for p in builtin_paths()]


def hexwar(*args, env=None, cwd=None):
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "hexwar", *args], capture_output=True, text=True,
                          env=full_env, cwd=cwd, timeout=300)


def test_help_lists_the_commands():
    r = hexwar("--help")
    assert r.returncode == 0
    for cmd in ("scenarios", "describe", "validate", "simulate", "replay"):
        assert cmd in r.stdout


def test_scenarios_json():
    r = hexwar("scenarios", "--json")
    assert r.returncode == 0
    rows = json.loads(r.stdout)
    assert {row["id"] for row in rows} == set(IDS)
    for row in rows:
        assert row["ruleset"] and row["turns"] > 0 and len(row["sides"]) == 2 and row["title"]


@pytest.mark.parametrize("sid", IDS)
def test_describe_shows_every_unit(sid):
    r = hexwar("describe", sid, "--json")
    assert r.returncode == 0
    data = json.loads(r.stdout)
    scenario = load_scenario(next(p for p in builtin_paths() if load_scenario(p).id == sid))
    assert len(data["units"]) == len(scenario.units)
    assert all(u["hex"] or u["entry_turn"] or u["box"] for u in data["units"])
    text = hexwar("describe", sid, "--map")
    assert text.returncode == 0 and scenario.units[0].id in text.stdout


def test_describe_map_draws_hexsides_and_roads_and_json_lists_them():
    r = hexwar("describe", "poltava-1", "--map")
    assert r.returncode == 0
    map_text = r.stdout[r.stdout.index("\n\n   "):]
    assert map_text.isascii() and all(ln == ln.rstrip() for ln in map_text.splitlines())
    for key in ("~ stream", "# retrenchment", "X impassable", "= redoubt line", "+ a road", "& woods"):
        assert key in map_text
    data = json.loads(hexwar("describe", "poltava-1", "--json").stdout)["map"]
    assert ["1803", "1904", "retrenchment"] in data["hexsides"]
    assert ["1739", "1740"] in data["roads"]


def test_describe_says_when_a_division_has_no_rout_number():
    out = hexwar("describe", "poltava-2").stdout
    assert "routs at None" not in out
    roos = next(ln for ln in out.splitlines() if ln.startswith("  division roos"))
    assert roos.endswith("), no rout number")


def test_unknown_scenario_is_bad_input():
    r = hexwar("describe", "no-such-scenario")
    assert r.returncode == 2 and "no such scenario" in r.stderr and "Traceback" not in r.stderr


def test_validate_reports_every_problem_with_field_and_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('''[scenario]
id = "bad one"
title = "Broken"
ruleset = "ancients"
turns = 0

[map]
width = 3
height = 2
legend = { "." = "clear", "X" = "lava" }
rows = [
  ". . .",
  ". . Q",
]

[[sides]]
id = "a"

[[sides]]
id = "b"

[[units]]
id = "u1"
side = "c"
kind = "HI"
hex = "0909"
''')
    r = hexwar("validate", str(bad))
    assert r.returncode == 2
    out = r.stdout
    for needle in ("scenario.id", "scenario.turns", "map.legend.X", "lava", "map.rows[1]", "'Q'",
                   "units[0].side", "units[0].hex", "off the 3x2 map", "(line "):
        assert needle in out, f"{needle!r} missing from:\n{out}"
    assert "Traceback" not in r.stderr


def test_validate_syntax_error_and_missing_file(tmp_path):
    bad = tmp_path / "syntax.toml"
    bad.write_text("[scenario\nid = 1\n")
    r = hexwar("validate", str(bad))
    assert r.returncode == 2 and "TOML syntax" in r.stdout and "line 1" in r.stdout
    r = hexwar("validate", str(tmp_path / "missing.toml"))
    assert r.returncode == 2 and "cannot read" in r.stdout


@pytest.mark.parametrize("sid", IDS)
def test_simulate_is_identical_across_processes_and_hash_seeds(sid, tmp_path):
    runs = []
    for hashseed in ("1", "4242"):
        journal = tmp_path / f"{hashseed}.journal"
        r = hexwar("simulate", sid, "--seed", "9", "--journal", str(journal), "--json",
                   env={"PYTHONHASHSEED": hashseed})
        assert r.returncode == 0, r.stderr
        runs.append((json.loads(r.stdout), journal))
    (a, ja), (b, jb) = runs
    for key in ("digest", "orders", "turns", "winner", "reason"):
        assert a[key] == b[key]
    assert ja.read_bytes() == jb.read_bytes()
    r = hexwar("replay", str(ja), "--verify", "--json", env={"PYTHONHASHSEED": "77"})
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["digest"] == a["digest"] and rep["orders"] == a["orders"] and rep["over"]


def test_a_flipped_byte_in_a_journal_is_refused_clearly(tmp_path):
    journal = tmp_path / "g.journal"
    assert hexwar("simulate", IDS[0], "--seed", "3", "--journal", str(journal)).returncode == 0
    data = bytearray(journal.read_bytes())
    for pos in (len(data) // 3, len(data) // 2, len(data) - 5):
        damaged = bytearray(data)
        damaged[pos] ^= 0x01
        journal.write_bytes(bytes(damaged))
        r = hexwar("replay", str(journal), "--verify")
        assert r.returncode in (1, 2)
        assert "journal refused" in r.stderr and "record" in r.stderr
        assert "Traceback" not in r.stderr
    journal.write_bytes(bytes(data[: len(data) - 7]))
    r = hexwar("replay", str(journal), "--verify")
    assert r.returncode == 2 and "truncated" in r.stderr


def test_simulate_refuses_to_overwrite_a_journal(tmp_path):
    journal = tmp_path / "g.journal"
    journal.write_bytes(b"precious")
    r = hexwar("simulate", IDS[0], "--seed", "1", "--journal", str(journal))
    assert r.returncode == 2 and journal.read_bytes() == b"precious"


def test_bad_arguments_exit_2():
    assert hexwar("simulate", IDS[0]).returncode == 2          # --seed missing
    assert hexwar("simulate", IDS[0], "--seed", "x").returncode == 2
    assert hexwar("no-such-command").returncode == 2


def test_unit_needs_exactly_one_start(tmp_path):
    base = '''[scenario]
id = "x"
ruleset = "frontier"
turns = 3
[map]
width = 3
height = 2
legend = { "." = "clear" }
rows = [". . .", ". . ."]
[[sides]]
id = "a"
[[sides]]
id = "b"
[[units]]
id = "u1"
side = "a"
kind = "EI"
'''
    f = tmp_path / "s.toml"
    f.write_text(base + 'hex = "0101"\nbox = "rout"\n')
    r = hexwar("validate", str(f))
    assert r.returncode == 2 and "exactly one of" in r.stdout
    f.write_text(base)
    r = hexwar("validate", str(f))
    assert r.returncode == 2 and "exactly one of" in r.stdout


def test_output_into_a_closed_pipe_is_not_a_traceback():
    p = subprocess.Popen([sys.executable, "-m", "hexwar", "describe", IDS[0]], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=60)
    assert "Traceback" not in err


def test_the_ui_without_a_terminal_says_so_instead_of_hanging():
    for args in ((), ("play", IDS[0])):
        r = subprocess.run([sys.executable, "-m", "hexwar", *args], capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, timeout=60)
        assert r.returncode == 2 and "needs a terminal" in r.stderr and "Traceback" not in r.stderr


FIXTURE = os.path.join(os.path.dirname(__file__), "engine", "fixtures", "poltava-2-seed1.journal")
_RUN_WITH_EXIT_HOOK = ("import atexit, sys\n"
                       "atexit.register(lambda: sys.stderr.write('TEARDOWN'))\n"
                       "from hexwar.cli import run\n"
                       "sys.argv = ['hexwar', *sys.argv[1:]]\n"
                       "run()\n")


def _run_program(*args, stdout=subprocess.PIPE):
    return subprocess.run([sys.executable, "-c", _RUN_WITH_EXIT_HOOK, *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=300)


def test_replay_ends_its_process_without_the_teardown_and_loses_no_output(tmp_path):
    # replay only reads and prints: its process ends once the output is flushed (no exit
    # handlers run); to a file (block-buffered) every line still arrives, and the exit code is kept
    out = tmp_path / "out.txt"
    with open(out, "w") as f:
        r = _run_program("replay", "--verify", FIXTURE, stdout=f)
    assert r.returncode == 0 and "TEARDOWN" not in r.stderr
    lines = out.read_text().splitlines()
    assert lines[0].endswith("630 orders verified: every digest and the hash chain match")
    assert lines[-1] == "final digest 6a6dc0524774ad9a54614e7c572b70fb"
    bad = tmp_path / "bad.journal"
    bad.write_bytes(open(FIXTURE, "rb").read()[:5000])
    r = _run_program("replay", "--verify", str(bad))
    assert r.returncode == 2 and "truncated" in r.stderr and "TEARDOWN" not in r.stderr


def test_other_commands_end_the_usual_way():
    r = _run_program("scenarios")
    assert r.returncode == 0 and r.stderr.endswith("TEARDOWN") and IDS[0] in r.stdout
    r = _run_program("--help")
    assert r.returncode == 0 and r.stderr.endswith("TEARDOWN")
