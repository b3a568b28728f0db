"""The ``strong`` computer player: looks ahead with the engine itself before it decides.

For the decision at hand it takes the few best orders the ruleset's basic scoring proposes, tries
each on a copy of the game, weighs every dice outcome, and scores the positions reached with the
ruleset's ``evaluate``; it plays the order with the best expected score. Optionally (``Budget``)
it plays on with the basic player before scoring, to the next roll or through the opponent's turn.

Dice in lookahead: every sequence of rolls an order can make is enumerated with its exact
probability while there are few of them (a melee die, two shots); beyond that the order is
resolved with a few sampled dice streams, seeded from the player's seed and the state digest, so
the same state and seed always give the same decision on every machine. Every candidate sees the
same streams (common random numbers): candidates are compared on the same luck.

The budget is counted in work units (one unit = one order resolved on a lookahead copy), never in
seconds: a clock would make two machines decide differently.

What measured best (benchmarks/ai_strength.md): the lookahead is only as good as the evaluation
it ends in. With a material count alone, comparing quiet moves made the player myopic and sampled
continuations were too noisy, so the default scope is "dice" (search only where the dice fall).
A ruleset whose evaluation also sees where units stand (Frontier's and Ancients' add the basic
planner's view of each unit, or the melees units are lined up for, for both sides) asks for scope
"all" in its ``search_budget``: one ply over the candidate orders, exact dice, and that
evaluation, which beat basic in every seat of those scenarios over 40 seeds.

Poltava keeps scope "dice" but asks for two more things in its budget: ``answers`` (compare
every answer to a decision the rules hand over: which unit loses, which way to retreat or pursue)
and ``settle`` (score an attack only after the rerolls, losses and pursuit it leaves pending are
answered; measured on poltava-1, about four in ten of an attack's outcomes stop at a reroll
decision with the result not yet applied). Its candidates come from ``Ruleset.strong_orders``,
where the ruleset may put a plan of its own in front of the basic scoring.

Secret rounds (plans committed before they are revealed): with ``plan_work`` in its budget and
more than one plan from ``Ruleset.ai_plans``, the strong level plays each plan on a copy against
the plan the basic player would make for the other side from the shared state, to the end of the
turn, and commits to the best (``secret_step``). The other side's real plan is never read: the
state holds only its commitment. Flames of War turns it on for the meeting engagement's two
seats (a per-side budget), where it measured better than basic's plan; the Axis with a
``plan_margin``, so that it leaves basic's plan only for one that scores clearly better.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from fractions import Fraction

from . import secret
from .ai import Computer
from .dice import Dice
from .game import Game
from .orders import IllegalOrderError, Order

#: the score of a won game; evaluations stay far below it
WIN = 10 ** 9


@dataclass(frozen=True)
class Budget:
    """How much lookahead one decision may do.

    ``work``: orders resolved on lookahead copies per decision (the time budget, in units that are
    the same on every machine). ``width``: candidate orders compared. ``exact``: dice outcomes
    enumerated exactly up to this many; more are sampled ``samples`` times.

    ``scope``: ``"dice"`` searches only where the basic player's choice rolls dice, and then
    compares the rolling candidates (which target, which attack, reroll or not); other decisions
    are the basic player's. ``"rolls"`` searches the same decisions but compares every candidate
    there (declining an attack included). ``"all"`` compares every candidate everywhere.
    ``answers``: with scope "dice" or "rolls", also compare every candidate when the order
    answers a decision the rules handed over (``state.pending``: which unit takes a loss, which
    retreat or pursuit path): those decide where losses land, which a rout race feels at once.
    ``settle``: before scoring a position, let the basic player answer the decisions still
    pending in it (a reroll, a loss to place, a pursuit), weighing any dice they roll exactly:
    right after an attack order the result is often not yet applied, and a position scored
    there says nothing about the attack. At most ``settle`` answers deep, and only while the
    candidate's share of ``work`` lasts.
    ``plan_work``: orders played on in lookahead copies to choose a secret plan (0: commit to
    the basic player's plan); see ``secret_step``. ``plan_samples``: dice streams each plan is
    played on with.
    ``depth``: orders the basic player plays on after a candidate until the next order that
    rolls, whose outcomes are then weighed exactly (0: score the position right after it).
    ``rollouts``: when above 0, each candidate is instead scored by that many games played on by
    the basic player, at most ``depth`` orders and no further than this side's next turn, each
    with its own dice stream (Monte Carlo).
    ``margin``: a candidate other than the basic player's first is played only when its expected
    score beats the first's by more than this (0: by anything). For a seat where an evaluation
    steers an unrestricted search away from a good basic plan (Napoleonica's brigade Austria),
    the search then only corrects what it sees clearly.
    ``plan_margin``: the same for secret plans (``best_plan``): a plan other than the basic
    player's (the first) is committed to only when it beats that one by more than this.

    The defaults are what measured best (benchmarks/ai_strength.py, see the module docstring).
    """

    work: int = 60
    width: int = 5
    depth: int = 0
    exact: int = 36
    samples: int = 3
    rollouts: int = 0
    scope: str = "dice"
    answers: bool = False
    settle: int = 0
    plan_work: int = 0
    plan_samples: int = 2
    margin: int = 0
    plan_margin: int = 0

    def scaled(self, work: int) -> "Budget":
        return replace(self, work=work)


DEFAULT_BUDGET = Budget()


class _OutOfScript(BaseException):
    """Raised by ``ScriptedDice`` when the order rolls once more than the script holds. It is a
    BaseException so that no ruleset's ``except Exception`` can swallow it mid-resolution."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class ScriptedDice:
    """Dice that return given values in order, then stop the resolution to ask for the next one."""

    def __init__(self, script: tuple[int, ...]) -> None:
        self.script = script
        self.used = 0
        self.rolls: list = []

    def roll(self, sides: int = 6, why: str = "") -> int:
        if self.used < len(self.script):
            value = self.script[self.used]
            self.used += 1
            return value
        raise _OutOfScript(sides)


def _hash(*parts: bytes) -> bytes:
    h = hashlib.blake2b(digest_size=32, person=b"hexwar-search")
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()


class Work:
    """Counts the work units a decision has spent."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.spent = 0

    @property
    def left(self) -> int:
        return max(0, self.limit - self.spent)


def after(game: Game, order: Order, dice: Dice | ScriptedDice | None = None) -> Game:
    """The game after ``order``, leaving ``game`` as it was. One state copy, where
    ``game.copy()`` followed by ``apply`` would make two."""
    state, _events = game.successor(order, dice)
    return Game(game.scenario, state)


def exact_outcomes(game: Game, order: Order, cap: int, work: Work) -> list[tuple[Fraction, Game]] | None:
    """Every way ``order`` can turn out, each with its exact probability, when there are at most
    ``cap`` of them; None when there are more (the caller samples instead)."""
    queue: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    out: list[tuple[Fraction, Game]] = []
    while queue:
        script, p = queue.pop(0)
        work.spent += 1
        try:
            trial = after(game, order, ScriptedDice(script))
        except _OutOfScript as need:
            if len(out) + len(queue) + need.sides > cap:
                return None
            queue.extend((script + (v,), p / need.sides) for v in range(1, need.sides + 1))
            continue
        out.append((p, trial))
    return out


class StrongComputer:
    """The ``strong`` level. ``choose`` has the same shape as the basic ``Computer``'s."""

    level = "strong"

    def __init__(self, seed: int | bytes = 0, budget: Budget | None = None, work: int | None = None) -> None:
        self.seed = seed if isinstance(seed, bytes) else str(seed).encode()
        #: a budget given here wins over the ruleset's ``search_budget``; ``work`` over both
        self.fixed_budget = budget
        self.work = work
        self.budget = budget or DEFAULT_BUDGET
        #: the basic player: the candidates' order, and the plans of secret rounds it commits to
        self.basic = Computer(self.seed)
        #: the basic player that plays on in lookahead copies (its plans there are throwaway)
        self.policy = Computer(self.seed)
        #: work units spent by the last decision (for benchmarks and tests)
        self.last_work = 0

    # --- the decision ----------------------------------------------------------------------
    def candidates(self, game: Game) -> list[Order]:
        """The ``width`` orders the ruleset's strong scoring (``Ruleset.strong_orders``, by
        default the basic player's) likes best, legal, best first."""
        seq = game.state.seq
        # the basic player's own order of preference (score, then its tie-break), so that the
        # first candidate is exactly what ``basic`` would play when the scorings agree
        scored = sorted(((score, self.basic._tiebreak(seq, o), o)
                         for score, o in game.ruleset.strong_orders(game)), key=lambda t: t[:2], reverse=True)
        out: list[Order] = []
        seen: set[Order] = set()
        for _, _, order in scored:
            if order in seen or game.validate(order) is not None:
                continue
            seen.add(order)
            out.append(order)
            if len(out) == self.budget.width:
                break
        return out

    def budget_for(self, game: Game) -> Budget:
        """The budget for a decision in ``game``: the one given, else the ruleset's designed one
        (a ruleset whose orders are costly to resolve looks less far; its optional ``"sides"``
        entry maps a side to fields that differ for that side, and ``"scenarios"`` maps a
        scenario id to such a side map, applied last: one side id can stand for armies whose
        search measured differently in two scenarios), with ``work`` applied."""
        budget = self.fixed_budget
        if budget is None:
            side = game.to_act() or ""
            fields = dict(game.ruleset.search_budget)
            by_side = fields.pop("sides", {})
            by_scenario = fields.pop("scenarios", {})
            fields.update(by_side.get(side, {}))
            fields.update(by_scenario.get(game.scenario.id, {}).get(side, {}))
            budget = replace(DEFAULT_BUDGET, **fields)
        return budget if self.work is None else budget.scaled(self.work)

    def choose(self, game: Game) -> Order:
        rnd = game.ruleset.secret_round(game)
        if rnd is not None and secret.next_side(rnd) == game.to_act():
            return self.secret_step(game, rnd)
        self.budget = self.budget_for(game)
        cands = self.candidates(game)
        self.last_work = 0
        if len(cands) <= 1:
            return cands[0] if cands else self.basic.choose(game)
        answering = self.budget.answers and bool(game.state.pending)
        if self.budget.scope in ("dice", "rolls") and not answering:
            if not game.may_roll(cands[0]):
                return cands[0]
            if self.budget.scope == "dice":
                cands = [o for o in cands if game.may_roll(o)]
            if len(cands) == 1:
                return cands[0]
        side = game.to_act() or ""
        key = _hash(self.seed, game.digest().encode())
        work = Work(self.budget.work)
        best: tuple[Fraction, int, Order] | None = None
        for rank, order in enumerate(cands):
            share = Work(work.left // (len(cands) - rank))
            value = self.value(game, order, side, key, share)
            work.spent += share.spent
            if rank > 0:
                value -= self.budget.margin
            # equal values keep the basic player's preference (a lower rank)
            if best is None or (value, -rank) > best[:2]:
                best = (value, -rank, order)
        self.last_work = work.spent
        assert best is not None
        return best[2]

    # --- secret plans ------------------------------------------------------------------------
    def secret_step(self, game: Game, rnd: dict) -> Order:
        """Commit to the best of the ruleset's plans (``Ruleset.ai_plans``) or reveal it. With
        ``plan_work`` in the budget and more than one plan, each is tried against the plan the
        basic player would make for the other side, from the shared state (never from the
        state's commitments, which hide the real one), played on to the end of the turn."""
        side = game.to_act() or ""
        self.last_work = 0
        budget = self.budget_for(game)
        if secret.stage(rnd) != "commit":
            if (rnd["round"], side) not in self.basic.plans and budget.plan_work > 0:
                self.basic._recall(game, rnd, side, game.ruleset.ai_plans(game, side))
            return self.basic.choose(game)
        if budget.plan_work <= 0:
            return self.basic.choose(game)
        plans = game.ruleset.ai_plans(game, side)
        if len(plans) <= 1:
            return self.basic.commit(game, rnd, side, plans[0])
        self.budget = budget
        return self.basic.commit(game, rnd, side, self.best_plan(game, rnd, side, plans))

    def best_plan(self, game: Game, rnd: dict, side: str, plans: list) -> list:
        """The plan with the best mean score over ``samples`` dice streams (the same streams
        for every plan); ties keep the earlier plan (basic's is first)."""
        guess = {s: game.ruleset.ai_plan(game, s) for s in rnd["sides"] if s != side}
        key = _hash(self.seed, b"plan", rnd["round"].encode(), side.encode())
        work = Work(self.budget.plan_work)
        best: tuple[Fraction, int] | None = None
        for rank, plan in enumerate(plans):
            share = Work(work.left // (len(plans) - rank))
            value = self.plan_value(game, rnd, {**guess, side: plan}, side, key, share)
            work.spent += share.spent
            if rank > 0:
                value -= self.budget.plan_margin
            if best is None or (value, -rank) > best:
                best = (value, -rank)
        self.last_work = work.spent
        assert best is not None
        return plans[-best[1]]

    def plan_value(self, game: Game, rnd: dict, plans: dict, side: str, key: bytes, work: Work) -> Fraction:
        """Mean score for ``side`` when every side reveals ``plans`` and the basic player plays
        the rest of the turn, over ``samples`` dice streams (within ``work``)."""
        n = self.budget.plan_samples
        total = Fraction(0)
        for r in range(n):
            limit = work.left // (n - r)
            trial = game.copy()
            trial_rnd = trial.ruleset.secret_round(trial)
            assert trial_rnd is not None
            salt = bytes(16)  # the trial's own commitments, under a public salt
            for s in rnd["sides"]:
                bound = secret.binding(game.scenario.source_hash, rnd["round"], s)
                trial_rnd["commits"][s] = secret.commitment(bound, plans[s], salt)
            dice = Dice(_hash(key, b"turn", r.to_bytes(4, "big")))
            turn = trial.state.turn
            try:
                for s in rnd["sides"]:
                    trial.apply(Order.make(secret.REVEAL, plan=plans[s], salt=salt.hex()), dice)
            except IllegalOrderError:
                return Fraction(-2 * WIN)
            used = 0
            while not trial.over and trial.state.turn == turn and used < limit \
                    and trial.ruleset.secret_round(trial) is None:
                trial.apply(self.policy.choose(trial), dice)
                used += 1
            work.spent += used + 1
            total += self.score(trial, side)
        return total / n

    # --- looking ahead ---------------------------------------------------------------------
    def outcomes(self, game: Game, order: Order, key: bytes, work: Work) -> list[tuple[Fraction, Game]]:
        """The games ``order`` can lead to, with their probabilities (exact or sampled)."""
        if not game.may_roll(order):
            work.spent += 1
            return [(Fraction(1), after(game, order))]
        exact = exact_outcomes(game, order, self.budget.exact, work)
        if exact is not None:
            return _merge(exact)
        n = self.budget.samples
        out = []
        for i in range(n):
            work.spent += 1
            out.append((Fraction(1, n), after(game, order, Dice(_hash(key, b"sample", bytes([i]))))))
        return _merge(out)

    def value(self, game: Game, order: Order, side: str, key: bytes, work: Work) -> Fraction:
        """Expected score for ``side`` of playing ``order`` now, then the basic player a while."""
        if self.budget.rollouts:
            return self.sampled_value(game, order, side, key, work)
        try:
            outs = self.outcomes(game, order, key, work)
        except IllegalOrderError:
            return Fraction(-2 * WIN)
        total = Fraction(0)
        for i, (p, trial) in enumerate(outs):
            depth = min(self.budget.depth, work.left // (len(outs) - i))
            total += p * self.play_on(trial, side, depth, key, work)
        return total

    def sampled_value(self, game: Game, order: Order, side: str, key: bytes, work: Work) -> Fraction:
        """Mean score of ``rollouts`` games played on by the basic player (both sides) until
        ``side``'s next turn, each with its own dice stream; stream r is the same for every
        candidate (common random numbers)."""
        n = self.budget.rollouts
        total = Fraction(0)
        for r in range(n):
            depth = min(self.budget.depth, work.left // (n - r))
            dice = Dice(_hash(key, b"rollout", r.to_bytes(4, "big")))
            work.spent += 1
            try:
                trial = after(game, order, dice)
            except IllegalOrderError:
                return Fraction(-2 * WIN)
            start = (trial.state.turn, trial.state.active)
            for _ in range(depth):
                st = trial.state
                if trial.over or ((st.turn, st.active) != start and st.active == side):
                    break
                work.spent += 1
                trial.apply(self.policy.choose(trial), dice)
            total += self.score(trial, side)
        return total / n

    def play_on(self, game: Game, side: str, depth: int, key: bytes, work: Work) -> Fraction:
        """The basic player continues ``game`` (both sides) for up to ``depth`` orders that need
        no dice; the first order that rolls is weighed over its outcomes and ends the lookahead.
        Without dice the continuation is exact, so candidates differ by what they do, not by luck."""
        for _ in range(depth):
            if game.over:
                break
            order = self.policy.choose(game)
            if game.may_roll(order):
                outs = self.outcomes(game, order, key, work)
                return sum((p * self.score(g, side) for p, g in outs), Fraction(0))
            work.spent += 1
            game.apply(order)
        return self.settled(game, side, key, work, self.budget.settle)

    def settled(self, game: Game, side: str, key: bytes, work: Work, left: int) -> Fraction:
        """The score once the basic player has answered what is pending (up to ``left``
        answers); an answer that rolls is weighed over its outcomes."""
        if left <= 0 or work.left <= 0 or game.over or not game.state.pending:
            return Fraction(self.score(game, side))
        order = self.policy.choose(game)
        try:
            outs = self.outcomes(game, order, key, work)
        except IllegalOrderError:
            return Fraction(self.score(game, side))
        return sum((p * self.settled(g, side, key, work, left - 1) for p, g in outs), Fraction(0))

    def score(self, game: Game, side: str) -> int:
        result = game.state.result
        if result is not None:
            winner = result.get("winner")
            return 0 if winner is None else (WIN if winner == side else -WIN)
        return game.ruleset.evaluate(game, side)


def _merge(outs: list[tuple[Fraction, Game]]) -> list[tuple[Fraction, Game]]:
    """Outcomes that reach the same state are one outcome (a melee's six dice often give three)."""
    by_state: dict[str, list] = {}
    for p, g in outs:
        k = _fingerprint(g)
        if k in by_state:
            by_state[k][0] += p
        else:
            by_state[k] = [p, g]
    return [(p, g) for p, g in by_state.values()]


def _fingerprint(game: Game) -> str:
    """A cheap stand-in for the digest when comparing states reached from one position by the
    same order: equal text means equal states (the converse need not hold; then two equal
    outcomes are only weighed separately)."""
    st = game.state
    units = [(k, u.hex, u.strength, u.facing, sorted(u.marks.items())) for k, u in sorted(st.units.items())]
    return repr((st.turn, st.phase, st.active, units, st.pending, st.vars, st.sides, st.result))
