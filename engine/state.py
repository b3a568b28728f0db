"""Game state: plain data with one canonical encoding and a digest.

Two engines that agree on ``State.digest()`` agree on everything: every field that can change
during a game is in the encoding. Copies are explicit (``State.copy()``); ``Game.apply`` works on
a copy so a refused or failed order leaves the original untouched.

A digest is taken after every order, and an order changes a few units out of a hundred, so each
unit keeps its own encoded bytes (on its ``Marks`` dict) until it changes: assigning any field,
or changing its marks, drops them. The state's bytes are then those cached
parts joined in canonical order, byte for byte what encoding the whole ``to_data()`` gives.
"""

from __future__ import annotations

import itertools
from marshal import dumps as _marshal
from itertools import compress
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter, ne
from typing import Any

from .blake import blake2b
from .codec import array_header, decode, encode, map_header, scalar_bytes, sorted_items
from .hexgrid import Hex

Scalar = int | str | bool | None


class Marks(dict):  # type: ignore[type-arg]
    """A unit's marks: a plain dict that also holds its unit's encoded bytes (``enc``), dropped
    to None whenever the marks change (and by ``Unit.__setattr__`` when the unit does), so one
    look per unit tells a digest both whether the unit is stale and what its bytes are."""

    __slots__ = ("enc",)

    def __setitem__(self, key: Any, value: Any) -> None:
        dict.__setitem__(self, key, value)
        self.enc = None

    def __delitem__(self, key: Any) -> None:
        dict.__delitem__(self, key)
        self.enc = None

    def pop(self, key: Any, *default: Any) -> Any:
        if key in self:  # taking away what is not there changes nothing (an end of turn
            self.enc = None  # clears four marks off every unit, most of which have none)
        return dict.pop(self, key, *default)

    def popitem(self) -> Any:
        self.enc = None
        return dict.popitem(self)

    def clear(self) -> None:
        if self:
            self.enc = None
        dict.clear(self)

    def update(self, *args: Any, **kwargs: Any) -> None:
        dict.update(self, *args, **kwargs)
        self.enc = None

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self.enc = None
        return dict.setdefault(self, key, default)

    def __ior__(self, other: Any) -> "Marks":
        dict.update(self, other)
        self.enc = None
        return self


_HEAD = frozenset(("id", "side", "kind", "name"))
_UNIT_FIELDS = 12  # the length of ``Unit.to_data()``


def _encode_unit(d: dict[str, Any]) -> bytes:
    """``encode(unit.to_data())`` from the unit's ``__dict__``, reusing the encoded id, side,
    kind and name (``_head``) and stats (``_stats_bytes``), which seldom or never change."""
    head = d.get("_head")
    if head is None:
        head = d["_head"] = (array_header(_UNIT_FIELDS) + encode(d["id"]) + encode(d["side"])
                             + encode(d["kind"]) + encode(d["name"]))
    stats = d.get("_stats_bytes")
    if stats is None:
        stats = d["_stats_bytes"] = encode(dict(d["stats"]))
    h = d["hex"]
    if h is None:
        where = b"\xc0"
    elif type(h) is str:  # a space of an area map (engine/board.py)
        where = scalar_bytes(h)
    else:
        where = _FIXARRAY2 + scalar_bytes(h[0]) + scalar_bytes(h[1])
    marks = d["marks"]
    return b"".join((head, where, scalar_bytes(d["strength"]), scalar_bytes(d["max_strength"]),
                     scalar_bytes(d["facing"]), scalar_bytes(d["division"]), scalar_bytes(d["grade"]),
                     stats, encode(dict(marks)) if marks else _EMPTY_MAP))


_FIXARRAY2 = array_header(2)
_EMPTY_MAP = map_header(0)


_set_dict = object.__setattr__  # sets a clone's whole __dict__ at once, past Unit.__setattr__

#: Position stamps. A unit gets a new stamp whenever its hex, strength, side, kind, stats or
#: division are assigned, and ``Unit.clone`` gives its clone its own, so within one state two
#: equal stamps mean the same unit object in the same place (``State.copy`` keeps the stamps: its
#: clones live in another state, whose caches are its own). A stamp is a version number, never
#: reused (unlike ``id()``), and decides nothing: it only tells a cache kept on a state that what
#: it derived from the state's units (who stands where) still holds.
#: A second stamp, ``_ks``, is taken only when kind, stats or division are assigned and is kept
#: by clones: equal ``_ks`` stamps mean equal kind, stats and division, which is all a ruleset's
#: per-unit constants (Poltava's arm of service, the units of each division) are derived from.
_STAMPS = itertools.count(1)
#: Drawn whenever a unit's kind, stats or division are assigned, a unit is cloned or stamped as
#: a stray: if none was drawn since a state last worked out its kinds key, that key still holds
#: (as for ``State.position_token``, given the same units dict of the same size).
_KIND_DRAWS = itertools.count(1)
_POSITIONAL = frozenset(("hex", "strength", "side", "kind", "stats", "division"))
_KINDLIKE = frozenset(("kind", "stats", "division"))
_STAMP_OF = attrgetter("_at")
_ENC_OF = attrgetter("marks.enc")
_KIND_STAMP_OF = attrgetter("_ks")


def _marks(value: Any, enc: bytes | None = None) -> Marks:
    m = Marks(value)
    m.enc = enc
    return m


@dataclass
class Unit:
    """One counter on the map (or off it: ``hex`` is None when eliminated or not yet entered).

    ``hex`` is the unit's place on its board (engine/board.py): a ``Hex`` on a hex map, a space
    id (a str) on an area map; the engine stores and compares it without reading it.

    ``stats`` are the unit's printed values (move, range, strength...) and never change (state
    copies share them);
    ``strength`` is what it has left (strength points, steps); ``marks`` holds the ruleset's
    per-turn and per-game status (moved, fired, dashed...), dropped when they fall back to 0.
    """

    id: str
    side: str
    kind: str
    name: str
    hex: Hex | str | None
    strength: int
    max_strength: int
    facing: int = 0
    division: str = ""
    grade: str = "average"
    stats: dict[str, Scalar] = field(default_factory=dict)
    marks: dict[str, Scalar] = field(default_factory=dict)

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        if name == "marks":
            value = _marks(value)  # its own dict, so no other unit shares its change flag
        elif name in _POSITIONAL:
            d["_at"] = next(_STAMPS)
            if name in _KINDLIKE:
                d["_ks"] = d["_at"]
                next(_KIND_DRAWS)
                d.pop("_arm", None)  # what a ruleset derived from them (Poltava's arm) is stale
        if name in _HEAD or name == "stats":
            d["_head"] = None  # the cached leading fields and stats bytes are stale
            d["_stats_bytes"] = None
        d[name] = value
        marks = d.get("marks")
        if type(marks) is Marks:
            marks.enc = None  # the unit's kept bytes are stale

    def encoded(self) -> bytes:
        """``encode(self.to_data())``, kept until the unit changes."""
        d = self.__dict__
        marks = d["marks"]
        if type(marks) is not Marks:  # put back by something that bypassed __setattr__
            marks = d["marks"] = _marks(marks)
        b = getattr(marks, "enc", None)
        if b is None:
            b = marks.enc = _encode_unit(d)
        return b

    def clone(self) -> "Unit":
        """An independent copy sharing ``stats`` (they never change) and the cached encoding."""
        new = object.__new__(Unit)
        d = self.__dict__.copy()
        marks = d["marks"]
        d["marks"] = _marks(marks, marks.enc if type(marks) is Marks else None)
        d["_at"] = next(_STAMPS)
        next(_KIND_DRAWS)
        _set_dict(new, "__dict__", d)
        return new

    @property
    def alive(self) -> bool:
        return self.hex is not None and self.strength > 0

    def mark(self, key: str, value: Scalar = 1) -> None:
        if value in (0, False, None):
            self.marks.pop(key, None)
        else:
            self.marks[key] = value

    def stat(self, key: str, default: Scalar = 0) -> Any:
        return self.stats.get(key, default)

    def to_data(self) -> list[Any]:
        return [self.id, self.side, self.kind, self.name,
                _place_data(self.hex),
                self.strength, self.max_strength, self.facing, self.division, self.grade,
                dict(self.stats), dict(self.marks)]

    @classmethod
    def from_data(cls, d: list[Any]) -> "Unit":
        (uid, side, kind, name, h, strength, max_strength, facing, division, grade,
         stats, marks) = d
        return cls(uid, side, kind, name, _place_of(h), strength,
                   max_strength, facing, division, grade, dict(stats), dict(marks))


def _place_data(h: Any) -> Any:
    """A unit's place as plain data: None, a space id as it is, a hex as ``[q, r]``."""
    if h is None or type(h) is str:
        return h
    return [h[0], h[1]]


def _place_of(h: Any) -> Hex | str | None:
    """The place ``_place_data`` wrote, read back."""
    if h is None or type(h) is str:
        return h
    return Hex(h[0], h[1])


#: sets a new Unit's whole ``__dict__`` through the class's own descriptor: what
#: ``object.__setattr__(unit, "__dict__", d)`` ends up calling, without the attribute look-up
_SET_UNIT_DICT = Unit.__dict__["__dict__"].__set__


@dataclass
class State:
    """Everything about a game in progress that is not the (static) scenario.

    ``pending`` lists decisions the rules hand to a player (a loss to choose, a retreat to take);
    while it is not empty only the first one may be answered. ``vars`` and each side's dict hold
    ruleset-specific values. ``result`` is set when the game is over.
    """

    ruleset: str
    scenario: str
    turn: int = 1
    phase: str = ""
    active: str = ""
    side_order: list[str] = field(default_factory=list)
    sides: dict[str, dict[str, Any]] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    pending: list[dict[str, Any]] = field(default_factory=list)
    vars: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    seq: int = 0

    # --- queries --------------------------------------------------------------------------
    def unit_at(self, h: tuple[int, int]) -> list[Unit]:
        return [u for u in self.units.values() if u.hex == h]

    def occupancy(self) -> dict[Hex, list[Unit]]:
        """Hex -> units in it, units listed in id order."""
        out: dict[Hex, list[Unit]] = {}
        units = self.units
        for uid in _sorted_ids(tuple(units)):
            u = units[uid]
            h = u.hex
            if h is not None:
                here = out.get(h)
                if here is None:
                    out[h] = [u]
                else:
                    here.append(u)
        return out

    def position_key(self) -> tuple[Any, ...]:
        """Equal for two calls on this state exactly when the same unit objects stand with the
        same hex, strength, side, kind, stats and division (see ``_STAMPS``): what the caches of
        positions kept on a state key on. Not for comparing two states."""
        units = self.units
        try:
            return tuple(units), tuple(map(_STAMP_OF, units.values()))
        except AttributeError:  # a unit made without __init__ or clone: stamp it now
            _stamp_strays(units)
            return tuple(units), tuple(map(_STAMP_OF, units.values()))

    def kinds_key(self) -> tuple[Any, ...]:
        """Equal for two states (or two calls) whose units have the same ids (in the same order),
        kinds, stats and divisions, wherever they stand: what tables of per-unit constants key
        on. Answered without walking the units when no kind, stats or division was assigned and
        no unit cloned anywhere since this state last worked it out (see ``_KIND_DRAWS``)."""
        d = self.__dict__
        now = next(_KIND_DRAWS)
        units = self.units
        kept = d.get("_kinds")
        if kept is not None and now == kept[0] + 1 and kept[1] is units and kept[2] == len(units):
            d["_kinds"] = (now, units, kept[2], kept[3])
            return kept[3]
        try:
            key = tuple(units), tuple(map(_KIND_STAMP_OF, units.values()))
        except AttributeError:
            _stamp_strays(units)
            key = tuple(units), tuple(map(_KIND_STAMP_OF, units.values()))
        d["_kinds"] = (next(_KIND_DRAWS), units, len(units), key)
        return key

    def position_token(self) -> tuple[Any, ...]:
        """``position_key()``, answered without walking the units when nothing can have changed:
        if no stamp at all was drawn in this process since this state was last asked (each draw
        here takes one, so the next draw is exactly one more) and its units dict is the same
        object of the same size, the last key still holds and that same tuple is returned."""
        d = self.__dict__
        now = next(_STAMPS)
        units = self.units
        kept = d.get("_position")
        if kept is not None and kept[1] is units and kept[2] == len(units):
            if now == kept[0] + 1:
                d["_position"] = (now, units, kept[2], kept[3])
                return kept[3]
            key = self.position_key()
            if key == kept[3]:
                key = kept[3]
        else:
            key = self.position_key()
        d["_position"] = (next(_STAMPS), units, len(units), key)
        return key

    def shared_occupancy(self) -> dict[Hex, list[Unit]]:
        """``occupancy()`` kept until a unit moves, changes strength or side: one dict shared by
        every caller, who must only read it.

        When only a few units changed since the last answer (an order moves one or two), the new
        dict is the old one with the lists of the hexes they left or entered made again: those
        units are the ones whose stamps differ, and the old dict is never changed (a view made
        before may still hold it). The lists of every other hex are the old list objects, which
        lets a ruleset's index of the position find the hexes to look at again by comparing list
        objects (Poltava's ``View._index``). Only the dict's order differs from ``occupancy()``'s."""
        key = self.position_token()
        d = self.__dict__
        kept = d.get("_occupancy")
        if kept is not None:
            if kept[0] == key:
                return kept[1]
            if kept[0][0] == key[0] and kept[2] is self.units:
                occ = _moved_occupancy(self.units, key, kept)
                if occ is not None:
                    # the steps back to earlier answers: (the answer before, hexes remade)
                    steps = ((kept[1], occ[2]),) + kept[4][:_OCCUPANCY_STEPS - 1]
                    d["_occupancy"] = (key, occ[0], self.units, occ[1], steps)
                    return occ[0]
        occ = self.occupancy()
        d["_occupancy"] = (key, occ, self.units, None, ())
        return occ

    def occupancy_changes(self, since: dict[Hex, list[Unit]],
                          now: dict[Hex, list[Unit]]) -> list[Hex] | None:
        """The hexes whose lists differ between two answers of ``shared_occupancy`` (a hex in
        only one of them counts), when ``now`` is the current answer and was made from ``since``
        in a few steps of a few units each; else None, and the caller compares the two dicts
        itself. What that comparison finds, in the order the steps remade the hexes (latest
        step first) rather than the dicts' order: a hex no step remade holds the same list."""
        kept = self.__dict__.get("_occupancy")
        if kept is None or kept[1] is not now:
            return None
        hexes: dict[Hex, None] = {}
        for before, remade in kept[4]:
            hexes.update(dict.fromkeys(remade))
            if before is since:
                return [h for h in hexes if since.get(h) is not now.get(h)]
        return None

    def units_in_id_order(self) -> list[Unit]:
        """Every unit in id order (the order rules walk them in); ``units`` is keyed by id."""
        units = self.units
        return [units[k] for k in _sorted_ids(tuple(units))]

    def side_units(self, side: str, alive: bool = True) -> list[Unit]:
        """The units of ``side`` in id order (those on the map with strength left, when
        ``alive``). Rules and players ask this several times a position, and who belongs to a
        side and who is alive is all in ``position_token``, so the answers are kept under it
        (each caller gets its own list)."""
        token = self.position_token()
        d = self.__dict__
        kept = d.get("_side_units")
        if kept is None or kept[0] is not token:
            kept = d["_side_units"] = (token, {})
        out = kept[1].get((side, alive))
        if out is None:
            units = self.units
            out = kept[1][side, alive] = tuple(
                u for u in map(units.__getitem__, _sorted_ids(tuple(units)))
                if u.side == side and (not alive or u.alive))
        return list(out)

    def enemy_of(self, side: str) -> str:
        return next(s for s in self.side_order if s != side)

    @property
    def over(self) -> bool:
        return self.result is not None

    # --- encoding -------------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        return {
            "v": 1, "ruleset": self.ruleset, "scenario": self.scenario, "turn": self.turn,
            "phase": self.phase, "active": self.active, "side_order": list(self.side_order),
            "sides": _plain_copy(self.sides),
            "units": {k: u.to_data() for k, u in self.units.items()},
            "pending": _plain_copy(self.pending), "vars": _plain_copy(self.vars),
            "result": _plain_copy(self.result), "seq": self.seq,
        }

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> "State":
        if d.get("v") != 1:
            raise ValueError("unknown state encoding version")
        return cls(
            ruleset=d["ruleset"], scenario=d["scenario"], turn=d["turn"], phase=d["phase"],
            active=d["active"], side_order=list(d["side_order"]), sides=d["sides"],
            units={k: Unit.from_data(v) for k, v in d["units"].items()},
            pending=d["pending"], vars=d["vars"], result=d["result"], seq=d["seq"],
        )

    def to_bytes(self) -> bytes:
        """``encode(self.to_data())``, assembled field by field in canonical key order: the
        units from their kept bytes (their parts joined with the rest in one go, not copied into
        a units blob first), the nested plain data through ``_plain_bytes``."""
        parts = [
            _TOP_HEADER,
            _K_V, b"\x01",
            _K_SEQ, scalar_bytes(self.seq),
            _K_TURN, scalar_bytes(self.turn),
            _K_VARS, _plain_bytes(self.vars),
            _K_PHASE, scalar_bytes(self.phase),
            _K_SIDES, _plain_bytes(self.sides),
            _K_UNITS,
        ]
        parts += self._units_parts()
        parts += (
            _K_ACTIVE, scalar_bytes(self.active),
            _K_RESULT, _plain_bytes(self.result),
            _K_PENDING, _plain_bytes(self.pending),
            _K_RULESET, scalar_bytes(self.ruleset),
            _K_SCENARIO, scalar_bytes(self.scenario),
            _K_SIDE_ORDER, _plain_bytes(self.side_order),
        )
        return b"".join(parts)

    def _units_parts(self) -> list[bytes]:
        """The units map, encoded, in parts: the map header, then each key's bytes and its
        unit's kept bytes, in canonical order. Each unit's bytes sit on its marks
        (``Marks.enc``), None when stale, so finding the stale ones is a C loop (``map``,
        ``in``) and a unit that did not change costs almost nothing. The units are put in
        canonical order by an ``itemgetter`` made for this dict's key order (``_unit_layout``),
        not looked up one by one."""
        units = self.units
        keys = tuple(units)
        kept = self.__dict__.get("_unit_layout")
        if kept is None or kept[0] != keys:  # equal keys in the same order: the same layout
            kept = self.__dict__["_unit_layout"] = _unit_layout(keys)
        ordered = kept[2](tuple(units.values()))  # type: ignore[operator]
        slots = list(kept[1])
        try:
            encs = list(map(_ENC_OF, ordered))
            if None in encs:
                i = -1
                try:
                    while True:
                        i = encs.index(None, i + 1)
                        encs[i] = ordered[i].encoded()
                except ValueError:  # no more
                    pass
            slots[2::2] = encs
        except (AttributeError, TypeError):  # a unit or its marks put in place past __setattr__
            slots[2::2] = [u.encoded() for u in ordered]
        return slots

    @classmethod
    def from_bytes(cls, data: bytes) -> "State":
        return cls.from_data(decode(data))

    def digest(self) -> str:
        """BLAKE2b-128 of the canonical encoding, as hex."""
        return blake2b(self.to_bytes(), digest_size=16).hexdigest()

    def copy(self) -> "State":
        """An independent copy, equal to ``State.from_bytes(self.to_bytes())`` but much faster:
        unit ``stats`` never change, so copies share them."""
        new = State(
            ruleset=self.ruleset, scenario=self.scenario, turn=self.turn, phase=self.phase,
            active=self.active, side_order=list(self.side_order), sides=_plain_copy(self.sides),
            units=_clone_units(self.units),
            pending=_plain_copy(self.pending), vars=_plain_copy(self.vars),
            result=_plain_copy(self.result), seq=self.seq,
        )
        layout = self.__dict__.get("_unit_layout")
        if layout is not None:  # the clones stand under the same keys in the same order
            new.__dict__["_unit_layout"] = layout
        return new


#: The state's top-level keys in canonical order (shorter keys first, then by their bytes),
#: checked against ``sorted_items`` when this module loads.
_TOP_ORDER = ("v", "seq", "turn", "vars", "phase", "sides", "units", "active", "result",
              "pending", "ruleset", "scenario", "side_order")
assert tuple(k for _, k in sorted_items({k: k for k in _TOP_ORDER})) == _TOP_ORDER
(_K_V, _K_SEQ, _K_TURN, _K_VARS, _K_PHASE, _K_SIDES, _K_UNITS, _K_ACTIVE, _K_RESULT, _K_PENDING,
 _K_RULESET, _K_SCENARIO, _K_SIDE_ORDER) = (encode(k) for k in _TOP_ORDER)
_TOP_HEADER = map_header(len(_TOP_ORDER))

#: a plain value's key -> its encoding. The key is ``marshal.dumps(value, 2)``: for the plain
#: data a state holds (dicts, lists, tuples, str, int, bool, None, bytes) marshal writes every
#: value with its type (``True`` and ``1`` differ) and ``marshal.loads`` reads it back, so equal
#: keys mean equal values, and C code makes it about three times faster than ``repr``. A value
#: marshal refuses (a subclass such as ``Hex``) is keyed by its repr, a str, which no bytes key
#: equals. Only ever a key in this process's memory, never stored or compared across versions.
#: A state's ``vars`` and ``sides`` change seldom, so most digests find them here. Bounded.
_PLAIN_BYTES: dict[bytes | str, bytes] = {}


def _plain_bytes(value: Any) -> bytes:
    """``encode(value)`` for a state's nested plain data, kept under the value's marshal bytes."""
    if value is None:
        return b"\xc0"
    try:
        key: bytes | str = _marshal(value, 2)
    except ValueError:  # not plain data marshal knows (a tuple or str subclass)
        key = repr(value)
    b = _PLAIN_BYTES.get(key)
    if b is None:
        b = encode(value)
        if len(key) <= 8192:  # a big value is encoded each time rather than kept
            if len(_PLAIN_BYTES) >= 512:
                _PLAIN_BYTES.clear()
            _PLAIN_BYTES[key] = b
    return b


def _clone_units(units: dict[str, Unit]) -> dict[str, Unit]:
    """``{k: u.clone()}``, inlined (a copy is made for every order tried), and keeping each
    unit's position stamp: the stamps are only ever compared within one state, and the new
    state holds every clone under the key its original had, so they still tell its units apart."""
    out = {}
    new = object.__new__
    set_dict = _SET_UNIT_DICT
    for k, u in units.items():
        d = u.__dict__.copy()
        m = d["marks"]
        nm = Marks(m) if m else Marks()  # (an empty one is made much faster without the argument)
        nm.enc = m.enc if type(m) is Marks else None
        d["marks"] = nm
        c = new(Unit)
        set_dict(c, d)
        out[k] = c
    return out


#: how many steps back ``State.occupancy_changes`` can see (each keeps the answer it started from)
_OCCUPANCY_STEPS = 8


def _moved_occupancy(units: dict[str, Unit], key: tuple[Any, ...], kept: tuple[Any, ...]
                     ) -> tuple[dict[Hex, list[Unit]], dict[str, Any], tuple[Hex, ...]] | None:
    """The occupancy for ``key`` made from the one ``kept`` for an earlier key of the same units
    (see ``State.shared_occupancy``), with the hex each unit stood in then (``where``, worked
    out from the old dict the first time) and the hexes whose lists are new or gone (each
    once); None when too many units changed to be worth it."""
    ids, stamps = key
    old_stamps = kept[0][1]
    changed = list(compress(ids, map(ne, stamps, old_stamps)))
    if len(changed) > 12:
        return None
    old = kept[1]
    where = kept[3]
    if where is None:
        where = {u.id: h for h, us in old.items() for u in us}
    # else updated in place: only the answer being replaced held it (the steps back keep the
    # occupancy dicts, never ``where``), and nothing below can fail half-way
    touched = []
    for uid in changed:
        before = where.get(uid)
        if before is not None:
            touched.append(before)
        now = units[uid].hex
        if now is None:
            where.pop(uid, None)
        else:
            where[uid] = now
            touched.append(now)
    occ = dict(old)
    remade: dict[Hex, None] = {}
    for h in touched:
        if type(h) is not Hex and type(h) is not str:  # a space id is its own key
            h = Hex(*h)
        here = sorted(u.id for u in occ.get(h, ()) if where.get(u.id) == h)
        here.extend(uid for uid in changed if where.get(uid) == h and uid not in here)
        if here:
            occ[h] = [units[uid] for uid in sorted(here)]
            remade[h] = None
        elif occ.pop(h, None) is not None or h in old:
            remade[h] = None
    return occ, where, tuple(remade)


def _stamp_strays(units: dict[str, Unit]) -> None:
    """Stamp units made without ``__init__`` or ``clone`` (e.g. by ``object.__new__``)."""
    for u in units.values():
        d = u.__dict__
        if "_at" not in d:
            d["_at"] = next(_STAMPS)
        if "_ks" not in d:
            d["_ks"] = next(_STAMPS)
            next(_KIND_DRAWS)


_SORTED: dict[tuple[str, ...], list[str]] = {}


def _sorted_ids(keys: tuple[str, ...]) -> list[str]:
    """``sorted(keys)``, remembered for the few sets of unit ids a process meets."""
    out = _SORTED.get(keys)
    if out is None:
        out = sorted(keys)
        if len(_SORTED) > 64:
            _SORTED.clear()
        _SORTED[keys] = out
    return out


_ORDERS: dict[tuple[Any, ...], tuple[tuple[bytes, ...], tuple[Any, ...]]] = {}


def _unit_order(keys: tuple[Any, ...]) -> tuple[tuple[bytes, ...], tuple[Any, ...]]:
    """The unit ids in canonical map order, and their encoded bytes; a game keeps the same ids
    from start to end, so this is worked out once per set of ids (keyed on the ids themselves)."""
    order = _ORDERS.get(keys)
    if order is None:
        pairs = sorted_items({k: k for k in keys})
        order = (tuple(kb for kb, _ in pairs), tuple(k for _, k in pairs))
        if len(_ORDERS) > 64:
            _ORDERS.clear()
        _ORDERS[keys] = order
    return order


def _unit_layout(keys: tuple[Any, ...]) -> tuple[Any, ...]:
    """For a units dict whose keys, in its own order, are ``keys``: (``keys``, the slots of its
    encoding: the map header, then each key's bytes in canonical order each followed by a free
    slot for its unit's bytes, and an ``itemgetter`` that takes the dict's values in that order).
    Kept on the state under its keys."""
    key_bytes, order = _unit_order(keys)
    at = {k: i for i, k in enumerate(keys)}
    picks = [at[k] for k in order]
    # one unit or none: the dict's order is the canonical one (and an itemgetter of one item
    # would not give a tuple)
    pick = itemgetter(*picks) if len(picks) > 1 else tuple
    slots: list[Any] = [map_header(len(order))] + [None] * (2 * len(order))
    slots[1::2] = key_bytes
    return keys, tuple(slots), pick


_ATOMS = frozenset((int, str, bool, type(None), bytes))


def _plain_copy(value: Any) -> Any:
    """Deep copy of plain data; tuples become lists, exactly as an encode/decode round trip does.
    Scalars are taken as they are without a call of their own."""
    t = type(value)
    if t is dict:
        return {k: v if type(v) in _ATOMS else _plain_copy(v) for k, v in value.items()}
    if t is list or t is tuple:
        return [v if type(v) in _ATOMS else _plain_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain_copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_copy(v) for v in value]
    return value
