"""A match: a game plus where its dice come from and the journal that records it.

Every order goes through ``Match.play``: it is validated, given dice seeded from two nonces when it
needs any (design.md section 5), resolved on a copy, journaled with the resulting digest, and only
then made current. ``replay`` runs a journal back through the engine and checks every digest.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from hexwar import __version__
from hexwar.engine import ENGINE_VERSION, Dice, Game, Order, order_seed, secret
from hexwar.engine.blake import blake2b
from hexwar.engine.orders import Event, IllegalOrderError, InvalidOrderError
from hexwar.engine.plain import PlainRecord
from hexwar.engine.rulesets import KNOWN, UnknownRulesetError
from hexwar.engine.scenario import Scenario
from hexwar.journal import Journal, JournalContents, JournalError
from hexwar.scenarios.loader import ScenarioError, parse_scenario, parse_toml, scenario_from_data

NonceSource = Callable[[int], tuple[bytes, bytes]]
MAX_ORDERS = 200_000  # a computer game longer than this is a ruleset bug, not a long game


def ruleset_hash(ruleset_id: str) -> str:
    """A hash of the ruleset's source files, so a journal records which rules it was played by."""
    h = blake2b(digest_size=16)
    h.update(ENGINE_VERSION.encode())
    for name, read in _ruleset_sources(KNOWN[ruleset_id]):
        h.update(name.encode() + b"\0" + read())
    return h.hexdigest()


def _ruleset_sources(package: str) -> list[tuple[str, Callable[[], bytes]]]:
    """The package's ``.py`` files by name, each with a way to read its bytes. A package on disk
    (every install, editable or not) is listed straight from its folder; importing
    ``importlib.resources`` for that cost a one-shot ``hexwar replay`` more than the hashing."""
    module = importlib.import_module(package)
    folders = [f for f in getattr(module, "__path__", ()) if os.path.isdir(f)]
    if len(folders) == 1:
        entries = sorted(os.scandir(folders[0]), key=lambda e: e.name)
        return [(e.name, Path(e.path).read_bytes) for e in entries
                if e.name.endswith(".py") and e.is_file()]
    from importlib import resources  # a package inside a zip file, or split over folders
    return [(e.name, e.read_bytes) for e in sorted(resources.files(package).iterdir(), key=lambda p: p.name)
            if e.name.endswith(".py")]


def random_nonces(seq: int) -> tuple[bytes, bytes]:
    """Local play (hotseat, against the computer): fresh nonces, kept in the journal."""
    return os.urandom(16), os.urandom(16)


def seeded_nonces(seed: int) -> NonceSource:
    """Nonces derived from a seed, so ``hexwar simulate --seed N`` always plays the same game."""
    def source(seq: int) -> tuple[bytes, bytes]:
        base = f"{seed}:{seq}".encode()
        return (blake2b(b"a:" + base, digest_size=16).digest(),
                blake2b(b"b:" + base, digest_size=16).digest())
    return source


def match_id_for(scenario: Scenario, seed: int | None) -> bytes:
    if seed is None:
        return os.urandom(16)
    return blake2b(f"{scenario.source_hash}:{seed}".encode(), digest_size=16).digest()


def create_journal(path: str | Path, game: Game, match_id: bytes, players: dict[str, str]) -> Journal:
    """Start a match's journal; the header lets anyone replay it without the scenario file."""
    scenario = game.scenario
    return Journal.create(path, {
        "engine": ENGINE_VERSION, "hexwar": __version__, "ruleset": scenario.ruleset,
        "ruleset_hash": ruleset_hash(scenario.ruleset), "scenario": scenario.id,
        "scenario_hash": scenario.source_hash, "scenario_text": scenario.source_text,
        "match": match_id, "players": players, "initial_digest": game.digest(),
    })


def resolve_order(game: Game, match_id: bytes, order: Order, side: str,
                  nonces: list[bytes] | None) -> tuple[Game, list[Event], dict[str, Any]]:
    """Validate ``order`` for ``side`` and resolve it on a copy of ``game``, with dice seeded from
    the two nonces when it needs any. Returns the new game, the events and the journal record;
    ``game`` itself is untouched, so the caller journals first and only then makes it current.
    Raises ``IllegalOrderError`` with the reason when the order is refused."""
    seq = game.state.seq
    dice = None
    if game.needs_dice(order):
        if nonces is None:
            raise IllegalOrderError(game.validate(order, side)
                                    or "this order needs dice but no nonces were exchanged")
        dice = Dice(order_seed(match_id, seq, nonces[0], nonces[1]))
    else:
        nonces = None
    # validates once, copies once; needs_dice was asked above
    state, events = game.successor(order, dice, side, dice_checked=True)
    trial = Game(game.scenario, state)
    record = {"type": "order", "seq": seq, "side": side, "order": order.to_wire(),
              "nonces": nonces, "digest": trial.digest()}
    return trial, events, record


@dataclass
class Match:
    """A game in play, where its dice come from, and its journal.

    (Every dataclass here has a docstring: without one, ``dataclass`` works one out with
    ``inspect.signature`` while the module is imported, which a one-shot replay pays for.)"""

    game: Game
    match_id: bytes
    nonces: NonceSource = random_nonces
    journal: Journal | None = None
    events: list[Event] = field(default_factory=list)
    #: a journal to create with the first order (``new(..., lazy=True)``): path and players
    deferred_journal: tuple[str | Path, dict[str, str]] | None = None
    #: (round, side) -> (plan, salt) of a local player's committed plan until its reveal: kept in
    #: memory only, never in the state or the journal (engine/secret.py)
    sealed: dict[tuple[str, str], tuple[list[list[Any]], bytes]] = field(default_factory=dict)
    #: orders played with ``hold`` before a lazy journal was written (the computer's opening moves):
    #: the game they started from and their records, written with the first order not held
    held: tuple[Game, list[Any]] | None = None

    @classmethod
    def new(cls, scenario: Scenario, *, seed: int | None = None, journal_path: str | Path | None = None,
            players: dict[str, str] | None = None, lazy: bool = False) -> "Match":
        """A match at its first order. With ``lazy`` the journal file is only written when the
        first order is played, so a game opened and left at once leaves no empty save behind."""
        game = Game(scenario)
        match_id = match_id_for(scenario, seed)
        nonces = random_nonces if seed is None else seeded_nonces(seed)
        if journal_path is not None and lazy:
            return cls(game, match_id, nonces, None, deferred_journal=(journal_path, players or {}))
        journal = None
        if journal_path is not None:
            journal = create_journal(journal_path, game, match_id, players or {})
        return cls(game, match_id, nonces, journal)

    @property
    def saved(self) -> bool:
        """Whether a journal file holds this match (false until a lazy journal's first order)."""
        return self.journal is not None

    def play(self, order: Order, side: str | None = None, hold: bool = False) -> list[Event]:
        """Resolve one order for ``side`` (default: whoever is to act); journal it; return events.
        With ``hold``, a lazy journal not yet written stays unwritten (the order is kept and
        written with the first order played without ``hold``): a game the computer opened and a
        player left at once leaves no save behind."""
        game = self.game
        side = side if side is not None else game.to_act()
        nonces = list(self.nonces(game.state.seq)) if game.needs_dice(order) else None
        trial, events, record = resolve_order(game, self.match_id, order, side or "", nonces)
        if self.journal is None and self.deferred_journal is not None:
            if hold:
                start, records = self.held or (game, [])
                self.held = (start, records + [record])
            else:
                path, players = self.deferred_journal
                start, records = self.held or (game, [])
                self.journal = create_journal(path, start, self.match_id, players)
                for earlier in records:
                    self.journal.append(earlier)
                self.deferred_journal, self.held = None, None
        if self.journal is not None:
            self.journal.append(record)
        self.game = trial
        self.events.extend(events)
        return events

    def commit_plan(self, plan: list[list[Any]], side: str | None = None) -> list[Event]:
        """A local player's secret plan (hotseat): checked against the rules first, so nobody
        commits to a plan that could never be revealed, then committed under a fresh random salt.
        Only the commitment is played and journaled; plan and salt stay here until
        ``reveal_plan``."""
        game = self.game
        side = side if side is not None else game.to_act()
        rnd = game.ruleset.secret_round(game)
        if rnd is None or side is None:
            raise IllegalOrderError("no plan is being committed now")
        why = secret.plan_problem(plan) or game.ruleset.plan_problem(game, side, plan)
        if why:
            raise IllegalOrderError(why)
        salt = os.urandom(16)
        bound = secret.binding(game.scenario.source_hash, rnd["round"], side)
        order = Order.make(secret.COMMIT, digest=secret.commitment(bound, plan, salt))
        events = self.play(order, side)
        self.sealed[(rnd["round"], side)] = ([list(r) for r in plan], salt)
        return events

    def reveal_plan(self, side: str | None = None) -> list[Event]:
        """Reveal the plan ``side`` committed to this round (once every side has committed)."""
        game = self.game
        side = side if side is not None else game.to_act()
        rnd = game.ruleset.secret_round(game)
        key = (rnd["round"] if rnd else "", side or "")
        if key not in self.sealed:
            raise IllegalOrderError(f"{side} has no sealed plan to reveal this round")
        plan, salt = self.sealed[key]
        events = self.play(Order.make(secret.REVEAL, plan=plan, salt=salt.hex()), side)
        del self.sealed[key]
        return events

    def forget_held(self, keep_orders: int) -> None:
        """Undo before the journal is written: keep only the first ``keep_orders`` held orders."""
        if self.held is not None:
            start, records = self.held
            self.held = (start, records[:keep_orders]) if keep_orders else None

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()


@dataclass
class SimulationResult:
    """What ``simulate`` reports: who won and why, how long the game ran, its final digest."""

    scenario: str
    seed: int
    winner: str | None
    reason: str
    turns: int
    orders: int
    digest: str
    levels: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def simulate(scenario: Scenario, seed: int, journal_path: str | Path | None = None,
             levels: dict[str, str] | None = None, work: int | None = None) -> SimulationResult:
    """Computer against computer to the end of the game; ``levels`` maps a side to its computer
    level (default ``strong``), ``work`` overrides the strong level's budget per decision."""
    from hexwar.engine.levels import DEFAULT_LEVEL, computer_for  # the players: not for a replay
    levels = {s.id: (levels or {}).get(s.id, DEFAULT_LEVEL) for s in scenario.sides}
    match = Match.new(scenario, seed=seed, journal_path=journal_path,
                      players={s.id: f"computer ({levels[s.id]})" for s in scenario.sides})
    players = {s.id: computer_for(levels[s.id], f"{seed}:{s.id}", work) for s in scenario.sides}
    try:
        while not match.game.over:
            if match.game.state.seq >= MAX_ORDERS:
                raise RuntimeError(f"game did not end within {MAX_ORDERS} orders")
            side = match.game.to_act()
            match.play(players[side].choose(match.game), side)
    finally:
        match.close()
    result = match.game.state.result or {}
    return SimulationResult(scenario.id, seed, result.get("winner"), result.get("reason", ""),
                            match.game.state.turn, match.game.state.seq, match.game.digest(), levels)


class ReplayReport(PlainRecord):
    """What ``replay`` reports: the game after the last order and what the journal said."""

    __match_args__ = ("game", "header", "orders", "ruleset_changed", "end")

    def __init__(self, game: Game, header: dict[str, Any], orders: int, ruleset_changed: bool,
                 end: dict[str, Any] | None = None) -> None:
        self.game = game
        self.header = header
        self.orders = orders
        self.ruleset_changed = ruleset_changed
        #: a result the rules did not produce (resignation, agreed draw, time forfeit), from an
        #: ``end`` record of a network game's journal
        self.end = end

    @property
    def result(self) -> dict[str, Any] | None:
        return self.game.state.result or self.end


def scenario_from_header(path: str, header: dict[str, Any], cache: Path | None = None) -> Scenario:
    """The scenario a journal carries. With ``cache`` (a folder), the parse of its text is looked
    up there first and kept there after (``hexwar.scenario_cache``); the result is the same."""
    text = header.get("scenario_text")
    if not isinstance(text, str):
        raise JournalError(path, 0, "header holds no scenario")
    where = f"{path} (embedded scenario)"
    try:
        if cache is None:
            scenario = parse_scenario(text, where)
        else:
            from hexwar import scenario_cache
            data = scenario_cache.load(text, cache)
            if data is None:
                data = parse_toml(text, where)
                scenario_cache.store(text, data, cache)
            scenario = scenario_from_data(data, text, where)
    except ScenarioError as exc:
        raise JournalError(path, 0, f"embedded scenario is invalid: {exc.problems[0]}") from None
    except UnknownRulesetError as exc:
        raise JournalError(path, 0, str(exc)) from None
    if scenario.source_hash != header.get("scenario_hash"):
        raise JournalError(path, 0, "embedded scenario does not match its recorded hash")
    return scenario


def replay(path: str, contents: JournalContents, verify: bool = True,
           on_order: Callable[[int, Game, list[Event]], None] | None = None,
           scenario_cache: Path | None = None) -> ReplayReport:
    """Re-run every order of a journal. With ``verify``, every recorded digest must match.
    ``on_order`` sees the game after each order; the next order changes that same game in place,
    so a caller that keeps positions keeps ``game.copy()``. ``scenario_cache`` is a folder for
    the parsed scenario text (see ``scenario_from_header``)."""
    header = contents.header
    scenario = scenario_from_header(path, header, scenario_cache)
    game = Game(scenario)
    match_id = header.get("match")
    if not isinstance(match_id, bytes):
        raise JournalError(path, 0, "header has no match id")
    if verify and header.get("initial_digest") != game.digest():
        raise JournalError(path, 0, "the scenario's starting position differs from the recorded one")
    orders = 0
    end = None
    for number, rec in enumerate(contents.records, 1):
        if rec["type"] == "end":
            end = {"winner": rec.get("winner"), "reason": str(rec.get("reason", ""))}
        if rec["type"] != "order":
            continue
        try:
            order = Order.from_wire(rec.get("order"))
        except InvalidOrderError as exc:
            raise JournalError(path, number, f"malformed order: {exc}") from None
        side = rec.get("side")
        nonces = rec.get("nonces")
        dice = None
        if game.needs_dice(order):
            if not (isinstance(nonces, list) and len(nonces) == 2 and all(isinstance(n, bytes) for n in nonces)):
                raise JournalError(path, number, "order needs dice but the record has no nonces")
            dice = Dice(order_seed(match_id, rec["seq"], nonces[0], nonces[1]))
        try:
            # Each position is dropped once the next is made, so orders resolve in place.
            game.state, events = game.successor(order, dice, side if isinstance(side, str) else None,
                                                in_place=True, dice_checked=True)
        except IllegalOrderError as exc:
            raise JournalError(path, number, f"illegal order {order.to_text()}: {exc.reason}") from None
        orders += 1
        if verify and rec.get("digest") != game.digest():
            raise JournalError(path, number, f"state digest differs after order seq {rec['seq']} "
                                             f"(recorded {rec.get('digest')}, computed {game.digest()})")
        if on_order is not None:
            on_order(number, game, events)
    changed = header.get("ruleset_hash") != ruleset_hash(scenario.ruleset)
    return ReplayReport(game, header, orders, changed, end)
