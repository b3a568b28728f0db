"""A computer's sealed plan depends on a secret only it holds (issue 35 item 16; engine/secret.py,
net/secret_plans.py, net/headless.py).

Two headless computer peers play Bir Hakeim over real SSH on 127.0.0.1. Another process, running
the same code on the shared states in the journal (everything a peer or a spectator has before a
reveal), works out the plan each computer would seal; in some rounds the revealed plan is not that
one, because it was chosen with the secret part of the salt (16 bytes from the operating system),
which the commitment covers and the reveal opens: the revealed secret explains the revealed plan.
``hexwar simulate`` still plays the same game for the same seed."""

from __future__ import annotations

import json
import subprocess
import sys

from hexwar.match import simulate
from hexwar.net import secret_plans as sp
from hexwar.scenarios.loader import find_scenario, load_scenario

from netkit import guest_for, play_match, start_host

#: run in a separate process: from a journal, the plans anyone could compute before each reveal
#: (from the state before the computer's commitment), the revealed plans, and the plans the
#: revealed secrets give
PREDICT = r"""
import json, sys
from hexwar.engine import Game, secret
from hexwar.journal import read_journal
from hexwar.match import replay
path = sys.argv[1]
recs = read_journal(path).records
out = []
state = {"prev": None, "pending": {}}
def on_order(n, game, events):
    rec, prev = recs[n - 1], state["prev"]
    kind = rec["order"]["k"] if rec.get("type") == "order" else None
    if prev is not None and kind in (secret.COMMIT, secret.REVEAL):
        rnd = prev.ruleset.secret_round(prev)
        side = rec["side"]
        if kind == secret.COMMIT and rnd["round"].startswith("plan-"):
            state["pending"][(rnd["round"], side)] = (prev.ruleset.ai_plan(prev.copy(), side), prev.copy())
        elif kind == secret.REVEAL and (rnd["round"], side) in state["pending"]:
            guess, at_commit = state["pending"].pop((rnd["round"], side))
            salt = bytes.fromhex(rec["order"]["a"]["salt"])
            try:
                explained = at_commit.ruleset.ai_plan(at_commit, side, salt[-16:])
            except TypeError:  # a computer whose plans take no secret
                explained = None
            out.append({"round": rnd["round"], "side": side, "guess": guess,
                        "plan": rec["order"]["a"]["plan"], "explained": explained})
    state["prev"] = game.copy()
from hexwar.scenarios.loader import parse_scenario
state["prev"] = Game(parse_scenario(read_journal(path).header["scenario_text"]))
replay(path, read_journal(path), verify=True, on_order=on_order)
print(json.dumps(out))
"""


async def test_the_computers_sealed_plan_is_not_predictable_from_the_shared_state(tmp_path):
    scenario = load_scenario(find_scenario("bir-hakeim"))
    host = await start_host(tmp_path / "h", scenario)
    guest = guest_for(host, tmp_path / "g")
    try:
        hs, gs = await play_match(host, guest, seed=3, give_up=60.0)
    finally:
        await host.close()
    assert hs["status"] == gs["status"] == "finished" and hs["digest"] == gs["digest"]
    run = subprocess.run([sys.executable, "-c", PREDICT, hs["journal"]], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rounds = json.loads(run.stdout)
    assert len(rounds) >= 4  # both sides, two turns at least
    # without the secret the same code does not know the plan in advance ...
    missed = [r for r in rounds if r["plan"] != r["guess"]]
    assert missed, "every sealed plan was predictable from the shared state"
    # ... and the revealed secret (inside the committed salt) explains every revealed plan
    assert all(r["plan"] == r["explained"] for r in rounds)
    assert len(sp.new_secret()) == 16


def test_simulate_still_replays_the_same_game_for_the_same_seed():
    """The basic computer (the one whose plans mix) in ``simulate`` takes its secret from the
    seed: another process plays the very same game."""
    scenario = load_scenario(find_scenario("bir-hakeim"))
    a = simulate(scenario, 7, None, {"british": "basic", "german": "basic"})
    run = subprocess.run([sys.executable, "-m", "hexwar", "simulate", "bir-hakeim", "--seed", "7", "--json",
                          "--level", "british=basic", "--level", "german=basic"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["digest"] == a.digest and json.loads(run.stdout)["orders"] == a.orders
