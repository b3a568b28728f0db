"""A served match: the server holds the game and its journal and referees two players.

The referee speaks protocol 2 to each player exactly as a host does (``session.Session``), one
session per seat; the two seat sessions share one ``NetMatch``, so there is one engine and one
journal, in the server's data dir. The seat of side X talks to X's player and plays "the other
side" towards it:

* X's orders reach the referee through X's seat like any guest's: checked by the engine, dice by
  commit-reveal between X and the referee, journaled, acknowledged;
* the referee then passes each one to the other player as a ``record`` (``Session.forward``),
  with the nonces of that roll. Its hello names the capability ``referee``, which tells the
  player's session to take such records live and to trust the referee for the opponent's dice;
* a player who is away misses nothing: its seat's next ``resume`` sends every record since, so
  a player may come back minutes or days later (and the other may play on meanwhile).

Sealed plans (Flames of War) need nothing more: a seat checks its player's ``seal`` and
``unseal`` like any host (the commitment bound to this match and seq; a plan that does not open it
is a violation, said in a ``bye``), and the other seat forwards the engine's ``commit-plan`` and
``reveal-plan`` records, so no player and no spectator gets a plan before the round's commitments.

A match with a turn time (``MatchInfo.turn_time``) is timed by the server alone (``_clock``):
a decision that lasts longer than the turn time, plus protocol 2's allowance for link delay, by
the server's monotonic clock, loses the match for the side to act, whether its player is
connected or not. Its seat sends that player the ``timeout`` claim, the other seat an ``end``;
the players' sessions take the referee's clock as the authority (they claim nothing themselves).

Chat, resignations and draw answers go across the same way (``Session.tell``). Spectators get the
record stream of the shared match (``server.watch_stream``). Every seat session keeps protocol
2's bounds (``limits.Limits``): refusals per link, chat rate, spectator backlog.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import sqlite3
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hexwar.engine.scenario import Scenario

from . import handshake, protocol
from .errors import HexwarNetError
from .keys import new_code, normal_code, secure_dir
from .limits import Limits
from .link import Link
from .netmatch import NetMatch
from .server import watch_stream
from .session import Session, SessionEvent

log = logging.getLogger("hexwar.net")
REFEREE_CAP = "referee"


@dataclass
class MatchInfo:
    """What the lobby knows of a match (kept as JSON beside its journal, 0600).

    ``seats`` maps a side to who holds it: ``"player:NAME"`` (a served player), ``"key:LINE"``
    (a native ``hexwar join`` client, by its key), or None while the seat is open."""

    id: str
    scenario: str
    created_by: str
    seats: dict[str, str | None]
    code: str | None = None        # invite code for a native client (a one-seat code)
    watch_code: str | None = None  # spectators with an installed hexwar
    created: float = 0.0
    turn_time: int = 0  # seconds a side has for each decision, by the server's clock; 0: no limit
    extra: dict[str, Any] = field(default_factory=dict)

    def holder(self, side: str) -> str | None:
        return self.seats.get(side)

    def side_of(self, identity: str) -> str | None:
        return next((s for s, who in sorted(self.seats.items()) if who == identity), None)

    def open_side(self) -> str | None:
        return next((s for s, who in sorted(self.seats.items()) if who is None), None)


class Referee:
    """One match the server owns: the shared match, a seat session per side, spectators."""

    def __init__(self, match: NetMatch, info: MatchInfo, limits: Limits, on_change: Any = None) -> None:
        self.match, self.info, self.limits = match, info, limits
        self.on_change = on_change  # the registry saves and refreshes the lobby
        sides = [s.id for s in match.scenario.sides]
        self.sides = sides
        watchers: list[Link] = []
        self.seats: dict[str, Session] = {}
        for side in sides:
            other = next(s for s in sides if s != side)
            seat = Session(match, other, role="host", limits=limits)
            seat.max_resume_gap = None  # a player may come back any number of orders behind
            seat.watchers = watchers    # one stream for every spectator, whichever seat applied
            seat.subscribe(lambda ev, side=side: self._on_event(side, ev))
            self.seats[side] = seat
        self.watchers = watchers
        self.spectators = 0
        self._tasks: set[asyncio.Task] = set()
        self._end_told = False
        self._timed_out = False
        self._clock_task: asyncio.Task | None = None
        self._clock_seq = -1
        self._clock_from = 0.0

    @property
    def scenario(self) -> Scenario:
        return self.match.scenario

    def to_act(self) -> str | None:
        return None if self.match.over else self.match.game.to_act()

    def connected(self, side: str) -> bool:
        return self.seats[side].connected

    # --- carrying one player's doings to the other ---------------------------------------------
    def _other(self, side: str) -> str:
        return next(s for s in self.sides if s != side)

    def _on_event(self, side: str, ev: SessionEvent) -> None:
        """An event of the seat of ``side``: pass on what that side's player did."""
        other = self.seats[self._other(side)]
        if ev.kind == "applied" and ev.data.get("record", {}).get("side") == side:
            self._later(other.forward(ev.data["record"]))
        elif ev.kind == "chat" and not ev.data.get("mine"):
            self._later(other.tell(protocol.message("chat", text=ev.data["text"])))
        elif ev.kind == "draw":
            self._later(other.offer_draw() if ev.data.get("offer") else other.decline_draw())
        elif ev.kind == "over" and not self._end_told:
            self._end_told = True
            self._later(self._tell_end(side, other))
        if self.on_change is not None and ev.kind in ("applied", "over", "status"):
            self.on_change(self)

    async def _tell_end(self, side: str, other: Session) -> None:
        """The seat of ``side`` saw the match end by its player's doing (a resignation or an
        accepted draw): say so to the other player. An end by the rules needs nothing: the
        last record carries it."""
        end = self.match.end
        if end is None:
            return
        seq = self.match.seq
        if self._timed_out:  # lost on the server's clock: the other player learns it won
            await other.tell(protocol.message("end", result=end, seq=seq, digest=protocol.short_digest(
                self.match.game.digest())))
        elif end.get("winner") is None:
            await other.tell(protocol.message("draw", action="accept", seq=seq))
        elif end.get("winner") != side:
            await other.tell(protocol.message("resign", seq=seq))

    # --- the turn timer: the server's clock is the authority ---------------------------------
    def start_clock(self) -> None:
        """Time the match's decisions from now (a no-op without a turn time, or when running)."""
        if self.info.turn_time and self._clock_task is None and not self.match.over:
            self._clock_task = asyncio.ensure_future(self._clock())

    def overdue(self, now: float) -> str | None:
        """The side whose decision has lasted past its time at ``now`` (monotonic), if any. A
        decision starts when the server saw the order before it (or when the clock started)."""
        if self.match.over or not self.info.turn_time:
            return None
        if self.match.seq != self._clock_seq or self.info.open_side() is not None:
            # a new decision, or a seat still open: no one is to blame for waiting yet
            self._clock_seq, self._clock_from = self.match.seq, now
            return None
        if now - self._clock_from > self.info.turn_time + self.limits.clock_allowance:
            return self.to_act()
        return None

    async def _clock(self) -> None:
        try:
            while not self.match.over:
                late = self.overdue(time.monotonic())
                if late is not None:
                    self._timed_out = True
                    # the seat of the late side plays the other side towards it: it claims
                    await self.seats[late].claim_timeout(self.info.turn_time)
                    if self.on_change is not None:
                        self.on_change(self)
                    return
                await asyncio.sleep(0.2)
        finally:
            self._clock_task = None

    def _later(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("referee of %s: %s", self.info.id, task.exception())

    # --- serving a player or a spectator --------------------------------------------------------
    def _hello(self, side: str) -> dict[str, Any]:
        seat = self.seats[side]
        mine = handshake.hello("host", self.scenario, match=self.match.match_id, side=seat.side,
                               seq=self.match.seq, turn_time=self.info.turn_time or None)
        mine["caps"] = list(mine["caps"]) + [REFEREE_CAP]
        return mine

    async def serve_player(self, link: Link, side: str, check: Any = None) -> str:
        """Play the seat of ``side`` over ``link`` (whoever logged in was already judged to hold
        it; ``check(hello)`` may still refuse, e.g. a native client's key). Returns why the link
        ended."""
        seat = self.seats[side]
        mine = self._hello(side)
        await link.send(mine)
        theirs = await handshake.receive_hello(link, scenario=self.scenario)
        problems = handshake.differences(mine, theirs, "the player")
        if theirs["role"] != "guest":
            problems.append(f"a player must say it is a guest, not a {theirs['role']}")
        if theirs.get("side") not in (None, side):
            problems.append(f"this seat plays {side!r}, not {theirs['side']!r}")
        if "match" in theirs and theirs["match"] != self.match.match_id:
            problems.append("the player's journal is from a different match")
        if check is not None and not problems:
            problems += [p for p in [check(theirs)] if p]
        if problems:
            raise await handshake.refuse(link, problems)
        self.start_clock()
        names = {s.id: s.name for s in self.match.scenario.sides}
        seat.announce(f"{names.get(side, side)} connected", connected=True)
        if self.on_change is not None:
            self.on_change(self)
        try:
            return await seat.run_link(link)
        finally:
            if self.on_change is not None:
                self.on_change(self)

    async def serve_spectator(self, link: Link) -> None:
        if self.spectators >= self.limits.max_spectators:
            raise await handshake.refuse(link, [f"this match already has {self.limits.max_spectators} spectators"])
        self.spectators += 1
        try:
            mine = handshake.hello("host", self.scenario, match=self.match.match_id, side=self.sides[0],
                                   seq=self.match.seq)
            await link.send(mine)
            theirs = await handshake.receive_hello(link, scenario=self.scenario)
            problems = handshake.differences(mine, theirs, "the spectator")
            if theirs["role"] != "spectator":
                problems.append("a spectator login must say it is a spectator")
            if problems:
                raise await handshake.refuse(link, problems)
            await watch_stream(self.seats[self.sides[0]], link, self.limits)
        finally:
            self.spectators -= 1

    def close(self) -> None:
        if self._clock_task is not None:
            self._clock_task.cancel()
        for t in list(self._tasks):
            t.cancel()
        for seat in self.seats.values():
            if seat.link is not None:
                seat.link.close()
        for w in list(self.watchers):
            w.close()
        self.match.close()


INDEX_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    info TEXT NOT NULL,        -- MatchInfo as JSON: scenario, seats, codes, turn time
    created REAL NOT NULL,
    over INTEGER NOT NULL DEFAULT 0
)
"""


class Matches:
    """Every match the server owns, in ``home/matches``: a journal each, and one row each in the
    match index (``index.db``, SQLite, WAL, 0600), so a change to one match writes one row and the
    operator's questions (which matches are open, whose seat, finished when) are one query away.
    Loaded again (journals verified) when the server starts, so matches outlive it. The ``ID.json``
    files of an older server are read into the index once."""

    def __init__(self, home: Path, limits: Limits | None = None, max_matches: int = 1000,
                 per_player: int = 20, open_seat_seconds: float = 7 * 86400.0) -> None:
        self.dir = secure_dir(Path(home) / "matches")
        self.limits = limits or Limits()
        self.max_matches = max_matches  # matches being played at once; finished ones never count
        self.open_seat_seconds = open_seat_seconds  # an untaken seat after this long: the match is closed
        self.per_player = per_player  # matches one player may have open (not over) at once
        self._held: dict[str, object] = {}  # match id -> the login that spent its invite code
        self.turn_time = 0  # seconds per decision for a new match that names none (hexwar serve --turn-time)
        self.by_id: dict[str, Referee] = {}
        self._marked_over: set[str] = set()
        self._closed = False
        #: told of any change a lobby shows (a match made, a seat taken or left, an order, an end)
        self.listeners: list[Any] = []
        index = self.dir / "index.db"
        fd = os.open(index, os.O_RDWR | os.O_CREAT, 0o600)  # private before SQLite opens it
        os.close(fd)
        self.index = sqlite3.connect(str(index), isolation_level=None, check_same_thread=False)
        self.index.execute("PRAGMA journal_mode=WAL")
        self.index.execute("PRAGMA synchronous=NORMAL")
        self.index.execute(INDEX_SCHEMA)
        self._migrate_json()
        for mid, text in self.index.execute("SELECT id, info FROM matches ORDER BY id").fetchall():
            try:
                self._load(json.loads(text))
            except Exception as exc:  # one damaged match must not keep the server down
                log.error("cannot load served match %s: %s", mid, exc)

    def _migrate_json(self) -> None:
        """An older server kept each match's info as ``ID.json``: read them in (kept as ``.migrated``)."""
        for path in sorted(self.dir.glob("*.json")):
            try:
                info = MatchInfo(**json.loads(path.read_text(encoding="utf-8")))
            except Exception as exc:
                log.error("cannot read served match %s: %s", path.name, exc)
                continue
            self._save(info)
            os.replace(path, path.with_name(path.name + ".migrated"))

    def _load(self, data: dict[str, Any]) -> None:
        info = MatchInfo(**data)
        match = NetMatch.resume(self.dir / f"{info.id}.journal")
        self.by_id[info.id] = referee = Referee(match, info, self.limits, on_change=self._changed)
        if match.over:
            self._marked_over.add(info.id)
            self.index.execute("UPDATE matches SET over = 1 WHERE id = ?", (info.id,))
        _start_clock_if_running(referee)  # a restarted server gives the side to act its full time

    def _save(self, info: MatchInfo) -> None:
        """Write one match's row (one small statement: nothing else is rewritten)."""
        ref = self.by_id.get(info.id)
        over = int(ref is not None and ref.match.over)
        self.index.execute("INSERT OR REPLACE INTO matches (id, info, created, over) VALUES (?, ?, ?, ?)",
                           (info.id, json.dumps(asdict(info), sort_keys=True), info.created, over))

    def _changed(self, referee: Referee) -> None:
        """The lobby reads the referees' state when asked; the index notes only a match's end."""
        mid = referee.info.id
        if self._closed:
            return
        if referee.match.over and mid not in self._marked_over and mid in self.by_id:
            self._marked_over.add(mid)
            self.index.execute("UPDATE matches SET over = 1 WHERE id = ?", (mid,))
        self._tell_lobbies()

    def _tell_lobbies(self) -> None:
        for listener in list(self.listeners):
            listener()

    def create(self, scenario: Scenario, creator: str, side: str, *, invite: bool = False,
               turn_time: int | None = None) -> Referee:
        """A new match with ``creator`` (an identity, see ``MatchInfo``) in ``side``'s seat and the
        other seat open (to any served player from the lobby, or with the code to a native one)."""
        self.expire_open_seats()
        if self.live() >= self.max_matches:
            raise HexwarNetError(f"the server has {self.max_matches} matches going; no more can be opened now")
        going = [r for r in self.of_identity(creator) if not r.match.over]
        if len(going) >= self.per_player:
            raise HexwarNetError(f"you have {len(going)} matches going; finish one before opening another")
        turn_time = self.turn_time if turn_time is None else turn_time
        if not 0 <= turn_time <= MAX_TURN_TIME:
            raise HexwarNetError(f"a turn time is 0 (none) to {MAX_TURN_TIME} seconds")
        sides = [s.id for s in scenario.sides]
        if side not in sides:
            raise HexwarNetError(f"no side {side!r} in {scenario.id} (sides: {', '.join(sides)})")
        match_id = secrets.token_bytes(16)
        mid = match_id.hex()
        name = creator.split(":", 1)[1]
        info = MatchInfo(id=mid, scenario=scenario.id, created_by=name,
                         seats={s: (creator if s == side else None) for s in sides},
                         code=new_code() if invite else None, watch_code=new_code(),
                         created=_now(), turn_time=turn_time)
        match = NetMatch.create(scenario, match_id, self.dir / f"{mid}.journal",
                                players={s: "served" for s in sides},
                                info={"role": "referee", "side": sides[0], "turn_time": turn_time})
        referee = Referee(match, info, self.limits, on_change=self._changed)
        self.by_id[mid] = referee
        self._save(info)
        _start_clock_if_running(referee)
        self._tell_lobbies()
        return referee

    def live(self) -> int:
        """Matches that count against the cap: not over (finished ones never count)."""
        return sum(1 for r in self.by_id.values() if not r.match.over)

    def expire_open_seats(self, now: float | None = None) -> list[str]:
        """Close every match whose open seat nobody took within ``open_seat_seconds`` (whatever its
        one player did alone meanwhile): it leaves the lobby and counts no more. Its files are kept,
        moved to ``matches/expired``. Returns the ids closed."""
        now = _now() if now is None else now
        gone = [mid for mid in sorted(self.by_id)
                if self.by_id[mid].info.open_side() is not None and not self.by_id[mid].match.over
                and now - self.by_id[mid].info.created > self.open_seat_seconds]
        if gone:
            expired = secure_dir(self.dir / "expired")
            for mid in gone:
                ref = self.by_id.pop(mid)
                ref.close()
                self._held.pop(mid, None)
                self.index.execute("DELETE FROM matches WHERE id = ?", (mid,))
                (expired / f"{mid}.json").write_text(json.dumps(asdict(ref.info), sort_keys=True), encoding="utf-8")
                for path in sorted(self.dir.glob(f"{mid}.*")):
                    os.replace(path, expired / path.name)
                log.info("closed served match %s: its open seat was not taken", mid)
        return gone

    def claim_code(self, code: str, holder: object) -> Referee | None:
        """Spend an invite code at login: the match it opens, held for ``holder`` (one login)
        alone, so a second login with the same code is refused even before either takes the
        seat. A holder that leaves without the seat gives the code back (``release_code``)."""
        ref = self.by_code(code)
        if ref is None or self._held.get(ref.info.id, holder) is not holder:
            return None
        self._held[ref.info.id] = holder
        return ref

    def release_code(self, holder: object) -> None:
        for mid in [m for m, h in sorted(self._held.items()) if h is holder]:
            del self._held[mid]

    def seat_for(self, referee: Referee, identity: str, *, code: str | None = None,
                 holder: object = None) -> str | None:
        """The side ``identity`` plays in this match, taking the open seat if it has none yet
        (a native client must bring the match's invite code for that, from the login that
        spent it, if one did). None: no seat for it."""
        info = referee.info
        side = info.side_of(identity)
        if side is not None:
            return side
        open_side = info.open_side()
        if open_side is None:
            return None
        if identity.startswith("key:") and (info.code is None or code is None
                                            or normal_code(code) != normal_code(info.code)
                                            or self._held.get(info.id, holder) is not holder):
            return None
        info.seats[open_side] = identity
        info.code = None  # the only open seat is taken: the invite code is spent
        self._held.pop(info.id, None)
        self._save(info)
        return open_side

    def by_code(self, code: str) -> Referee | None:
        """The match whose invite code this is (a native client's first login)."""
        want = normal_code(code)
        for mid in sorted(self.by_id):
            c = self.by_id[mid].info.code
            if c is not None and normal_code(c) == want and self.by_id[mid].info.open_side():
                return self.by_id[mid]
        return None

    def by_watch_code(self, code: str) -> Referee | None:
        want = normal_code(code)
        return next((self.by_id[m] for m in sorted(self.by_id)
                     if self.by_id[m].info.watch_code and normal_code(self.by_id[m].info.watch_code) == want), None)

    def of_identity(self, identity: str) -> list[Referee]:
        return [self.by_id[m] for m in sorted(self.by_id) if self.by_id[m].info.side_of(identity)]

    def lobby(self, name: str) -> dict[str, list[dict[str, Any]]]:
        """What player ``name`` may see: their own matches (whose turn), open seats, matches to
        watch. Invite codes are shown only to the match's own players."""
        me = f"player:{name}"
        mine, open_, watch = [], [], []
        for mid in sorted(self.by_id, key=lambda m: -self.by_id[m].info.created):
            ref = self.by_id[mid]
            info = ref.info
            to_act = ref.to_act()
            row = {"id": mid, "scenario": info.scenario, "created_by": info.created_by,
                   "seats": {s: _shown(info.seats.get(s)) for s in ref.sides},
                   "to_act": to_act, "to_act_player": _shown(info.seats.get(to_act)) if to_act else None,
                   "seq": ref.match.seq, "turn": ref.match.game.state.turn, "over": ref.match.over,
                   "result": ref.match.result, "turn_time": info.turn_time}
            side = info.side_of(me)
            if side is not None:
                row.update(side=side, your_turn=to_act == side, code=info.code, watch_code=info.watch_code)
                mine.append(row)
            elif info.open_side() is not None and not ref.match.over:
                open_.append(dict(row, side=info.open_side()))
            else:
                watch.append(row)
        return {"mine": mine, "open": open_, "watch": watch}

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for ref in self.by_id.values():
            ref.close()
        self.index.close()


MAX_TURN_TIME = 86400 * 7  # as protocol 2's hello allows


def _start_clock_if_running(referee: Referee) -> None:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return  # built outside the server's loop (a test): the first seat taken starts it
    referee.start_clock()


def _shown(identity: str | None) -> str | None:
    """A seat holder as the lobby shows it: a served player's name, or "a hexwar client"."""
    if identity is None:
        return None
    kind, _, rest = identity.partition(":")
    return rest if kind == "player" else "(hexwar join)"


def _now() -> float:
    """When a match was opened (the lobby lists the newest first); never used by the engine."""
    return time.time()


__all__ = ["MatchInfo", "Matches", "Referee", "REFEREE_CAP"]
