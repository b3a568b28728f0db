"""Words for what the engine says: orders, events, odds, units and terrain, side status.

Everything here only formats data the engine gave (no rules): hexes become ``CCRR`` labels,
unit ids become names, probabilities become percentages.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from hexwar.engine import Game, Order
from hexwar.engine.hexgrid import DIRECTION_NAMES, Hex

from .picking import path_end, target_hexes


def _is_hex(v: Any) -> bool:
    return (isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in v))


def unit_title(game: Game, uid: str) -> str:
    """A unit as the player knows it: its name, or when the scenario named it only by an id
    (``red-hi-1``), its side and type (``Red Heavy Infantry 1``)."""
    u = game.state.units[uid]
    if u.name and u.name != u.id:
        return u.name
    side = side_name(game, u.side).split()[0]
    number = u.id.rsplit("-", 1)[-1]
    suffix = f" {number}" if number.isdigit() else ""
    return f"{side} {game.ruleset.type_name(u.kind)}{suffix}"


_SPEC_TAGS = re.compile(r"\s*\[PROP [^\]]*\]|\s*\(G-[A-Z]{0,2}\d+\)|,?\s*\bG-[A-Z]{0,2}\d+\b"
                        r"|\s*\((?:GN|TEC)(?:, (?:GN|TEC))*\)")
_HEX_LIST = re.compile(r"\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


def plain(game: Game, text: str) -> str:
    """Engine words made readable: unit ids become names, ``[q, r]`` hexes become ``CCRR``
    labels, and the specification's own cross-reference tags are left out."""
    m = game.map
    units = game.state.units

    def hex_label(match: re.Match) -> str:
        h = (int(match.group(1)), int(match.group(2)))
        return m.label(Hex(*h)) if h in m else match.group(0)

    text = _HEX_LIST.sub(hex_label, text)
    text = _WORD.sub(lambda w: unit_title(game, w.group(0)) if w.group(0) in units else w.group(0), text)
    return _SPEC_TAGS.sub("", text).strip()


def _is_named_number(v: Any) -> bool:
    return (isinstance(v, (list, tuple)) and len(v) == 2 and isinstance(v[0], str)
            and isinstance(v[1], int) and not isinstance(v[1], bool))


def value_text(game: Game, v: Any) -> str:
    """A value from an order or event, in words: hexes as labels, unit and side ids as names."""
    m = game.map
    if _is_hex(v) and tuple(v) in m:
        return m.label(Hex(*v))
    if isinstance(v, str) and v in game.state.units:
        return unit_title(game, v)
    if isinstance(v, str) and any(s.id == v for s in game.scenario.sides):
        return side_name(game, v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "none"
    if isinstance(v, str):
        return game.ruleset.value_words(v)
    if _is_named_number(v):  # a modifier: ("shooter has not moved this turn", 1)
        return f"{value_text(game, v[0])} {v[1]:+d}"
    if isinstance(v, (list, tuple)):
        if v and all(_is_hex(x) for x in v):
            return "\u2192".join(m.label(Hex(*x)) for x in v if tuple(x) in m)
        return ", ".join(value_text(game, x) for x in v)
    if isinstance(v, dict):
        return ", ".join(_field(game, str(k), x) for k, x in v.items()
                         if x not in (None, "", [], {}, ()) and k not in game.ruleset.quiet_fields)
    return str(v)


def order_text(game: Game, order: Order) -> str:
    """``move 1st Foot to 0304 (path 0203→0304), facing NE``; the kind in words (``end phase``);
    or the ruleset's own words for the order where it has them."""
    try:
        said = game.ruleset.order_words(game, order)
    except Exception:  # advisory words: never let them break a dialog
        said = ""
    if said:  # the ruleset's words, without the specification's cross-reference tags
        return _SPEC_TAGS.sub("", said).strip()
    parts = [order.kind.replace("-", " ")]
    unit = order.get("unit")
    if isinstance(unit, str):
        parts.append(value_text(game, unit))
    end = path_end(order)
    if end is not None:
        parts.append(f"to {game.map.label(end)}")
    targets = target_hexes(game, order)
    if targets:
        parts.append("at " + ", ".join(game.map.label(h) for h in targets))
    for k, v in order.args:
        if k in ("unit", "target", "hex"):
            continue
        if k in ("path", "route"):
            if len(v) > 1:
                parts.append(f"(via {value_text(game, v)})")
            continue
        if k == "facing" and isinstance(v, int) and 0 <= v < 6:
            parts.append(f"facing {game.facing_words(v)}")
            continue
        if k in ("choice", "answer", "option", "yes"):
            parts[-1] += f": {value_text(game, v)}"
            continue
        if v in (None, "", [], {}, ()):
            continue
        parts.append(_field(game, k, v))
    return plain(game, " ".join(parts))


def event_text(game: Game, ev: dict[str, Any], dice: str = "\u2684") -> str:
    """One log line per event; die rolls always say what they were for and what came up. The
    ruleset's own words come first where it has them."""
    kind = ev.get("t", "?")
    try:
        said = game.event_words(ev)
    except Exception:  # advisory: a ruleset bug must not lose the log line
        said = None
    if said:
        return plain(game, said.replace("\u2684", dice))
    if kind == "die-roll":
        sides = ev.get("sides", 6)
        extra = " ".join(_field(game, k, v) for k, v in ev.items()
                         if k not in ("t", "why", "value", "sides") and v not in (None, "", [], {}, ()))
        return f"{dice} {ev.get('why', 'roll')}: d{sides} = {ev.get('value')}" + (f" ({extra})" if extra else "")
    rest = ", ".join(_field(game, k, v, named=k != kind) for k, v in ev.items()
                     if k != "t" and v not in (None, "", [], {}, ()))
    name = str(kind).replace("-", " ").replace("_", " ")
    return plain(game, f"{name}: {rest}" if rest else name)


def _key_words(game: Game, key: str) -> str:
    """A field's name in words; a field keyed by a unit or a side is named like it."""
    if key in game.state.units or any(s.id == key for s in game.scenario.sides):
        return value_text(game, key)
    return game.ruleset.field_name(key)


def _field(game: Game, key: str, v: Any, named: bool = True) -> str:
    """One field of an event in words: ``hit`` / ``no hit`` for flags, never ``hit True``. A
    field named like its event (``phase: Movement``) is not named twice."""
    name = _key_words(game, key)
    if not named and v is not True and v is not False:
        full = _field(game, key, v)
        return full[len(name) + 1:] if full.startswith(name + " ") else full
    if v is True:
        return name
    if v is False:
        return f"no {name}"
    if key.endswith("hex") and _is_hex(v) and tuple(v) not in game.map:
        return f"{name} off the map"
    if key == "phase" and isinstance(v, str) and v:
        return f"phase {phase_title(game, v)}"  # as the ruleset names it
    if key == "facing" and isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 6:
        return f"facing {DIRECTION_NAMES[game.map.orientation][v]}"  # as orders say it, never a number
    return f"{name} {value_text(game, v)}"


def percent(p: Any) -> str:
    if isinstance(p, Fraction) or isinstance(p, float):
        return f"{float(p) * 100:.0f}%"
    if isinstance(p, int) and not isinstance(p, bool):
        return f"{p}%" if p > 1 else f"{p * 100}%"
    if isinstance(p, (list, tuple)) and len(p) == 2 and all(isinstance(x, int) for x in p) and p[1]:
        return f"{p[0] * 100 // p[1]}% ({p[0]}/{p[1]})"
    return str(p)


_MOD_KEYS = ("modifiers", "mods", "shifts", "factors")
_RESULT_KEYS = ("results", "chances", "outcomes", "probabilities")
_FINAL_KEYS = ("column", "final", "ratio", "odds", "net", "total", "need", "table")


def odds_lines(game: Game, odds: dict[str, Any]) -> list[str]:
    """Every modifier by name, the final number/column, and the chance of every result."""
    if not odds:
        return ["(the rules give no preview for this order)"]
    lines: list[str] = []
    for key in _MOD_KEYS:
        mods = odds.get(key)
        if not mods:
            continue
        lines.append(f"{game.ruleset.field_name(key)}:")
        items = mods.items() if isinstance(mods, dict) else mods
        for item in items:
            if isinstance(item, dict):
                name = item.get("name") or item.get("why") or item.get("what") or "?"
                val = item.get("value", item.get("shift", item.get("mod", "")))
            elif isinstance(item, (list, tuple)) and len(item) == 2:
                name, val = item
            else:
                name, val = item, ""
            sval = f"{val:+d}" if isinstance(val, int) and not isinstance(val, bool) else str(val)
            label = plain(game, name) if isinstance(name, str) else value_text(game, name)
            lines.append(f"  {label}: {sval}")
    for key in _FINAL_KEYS:
        if key in odds:
            lines.append(f"{game.ruleset.field_name(key)}: {value_text(game, odds[key])}")
    for key in _RESULT_KEYS:
        res = odds.get(key)
        if not res:
            continue
        lines.append(f"{game.ruleset.field_name(key)}:")
        items = res.items() if isinstance(res, dict) else res
        for item in items:
            if isinstance(item, (list, tuple)) and len(item) == 2:
                name, p = item
            elif isinstance(item, dict):
                name, p = item.get("result", item.get("name", "?")), item.get("chance", item.get("p"))
            else:
                name, p = item, ""
            said = _key_words(game, name) if isinstance(name, str) else value_text(game, name)
            lines.append(f"  {said}: {percent(p)}")
    shown = set(_MOD_KEYS) | set(_RESULT_KEYS) | set(_FINAL_KEYS)
    for key, v in odds.items():
        if key in shown or key in game.ruleset.quiet_fields or v in (None, "", [], {}, ()):
            continue
        if isinstance(v, bool):  # a flag: its name when it holds, ``no`` and its name when not
            lines.append(plain(game, _field(game, key, v)))
            continue
        lines.append(f"{game.ruleset.field_name(key)}: {plain(game, value_text(game, v))}")
    return lines


def unit_lines(game: Game, uid: str) -> list[str]:
    u = game.state.units[uid]
    side = next((s.name for s in game.scenario.sides if s.id == u.side), u.side)
    where = game.map.label(u.hex) if u.hex is not None else "off map"
    reduced = " (reduced)" if u.strength < u.max_strength else ""
    lines = [f"{u.name} [{u.kind}] {side}", f"strength {u.strength}/{u.max_strength}{reduced} at {where}"]
    if 0 <= u.facing < 6:
        lines[-1] += f", facing {game.facing_words(u.facing)}"
    if u.grade and u.grade != "average":
        lines.append(f"grade {u.grade}")
    stats = " ".join(f"{k} {v}" for k, v in sorted(u.stats.items()) if k != "strength")
    if stats:
        lines.append(stats)
    if u.marks:
        lines.append("marks: " + ", ".join(f"{k}" if v in (1, True) else f"{k} {v}"
                                           for k, v in sorted(u.marks.items())))
    return lines


def card_lines(game: Game, uid: str) -> list[str]:
    """The unit card: its name and side, then the ruleset's rows in words."""
    u = game.state.units[uid]
    where = game.map.label(u.hex) if u.hex is not None else "off map"
    lines = [f"{unit_title(game, uid)} · {side_name(game, u.side)} · {where}"]
    for label, words in game.unit_card(uid):
        lines.append(f"  {label}: {plain(game, words)}")
    return lines


def hex_lines(game: Game, h: Hex) -> list[str]:
    m = game.map
    code = m.terrain_at(h)
    desc = plain(game, game.ruleset.terrain_types.get(code, ""))
    if desc.startswith(code):  # the ruleset's words already name the terrain
        line = f"{m.label(h)} {desc}"
    else:
        line = f"{m.label(h)} {code}" + (f" ({desc})" if desc else "")
    elev = m.elevation_at(h)
    if elev:
        line += f", elevation {elev}"
    lines = [line]
    names = [n for n, x in m.labels.items() if x == h]
    if names:
        lines.append("named: " + ", ".join(names))
    sides = []
    for d, n in m.neighbors(h):
        feats = sorted(m.features_between(h, n))
        if feats:
            sides.append(f"{DIRECTION_NAMES[m.orientation][d]} {'/'.join(feats)}")
    if sides:
        lines.append("hexsides: " + ", ".join(sides))
    if m.on_road(h):
        roads = [DIRECTION_NAMES[m.orientation][d] for d, n in m.neighbors(h) if m.road_between(h, n)]
        lines.append("road " + " ".join(roads))
    try:
        lines += game.ruleset.place_words(game, h)
    except Exception:  # advisory words: the hex is described without them
        pass
    return lines


def side_lines(game: Game, limit: int | None = None) -> list[str]:
    """Each side's name, units and strength left, and whatever status the ruleset keeps (at
    most ``limit`` status lines a side, on a small screen)."""
    state = game.state
    lines = []
    for s in game.scenario.sides:
        alive = state.side_units(s.id)
        strength = sum(u.strength for u in alive)
        line = f"{s.name}: {len(alive)} units, strength {strength}"
        status = game.status_lines(s.id)
        if len(status) == 1:  # one line of status fits after the strength
            lines.append(f"{line}; {status[0]}")
            continue
        if status:
            lines.append(line)
            if limit is not None and len(status) > limit:
                status = status[:limit - 1] + [f"... {len(status) - limit + 1} more on a wider screen"]
            lines.extend(f"  {text}" for text in status)
            continue
        extra = state.sides.get(s.id) or {}
        bits = [f"{k} {value_text(game, v)}" for k, v in sorted(extra.items())
                if isinstance(v, (int, str, bool)) or _is_hex(v)]
        lines.append(line + (" · " + ", ".join(bits) if bits else ""))
    return lines


def side_name(game: Game, side: str | None) -> str:
    if side is None:
        return "nobody"
    return next((s.name for s in game.scenario.sides if s.id == side), side)


def fit(first: list[str], extras: list[str], sep: str, width: int) -> str:
    """Join ``first`` and then as many whole ``extras`` as fit in ``width``; never cut a word
    (the first part is shortened at a word boundary only if even it does not fit)."""
    text = sep.join(first)
    for extra in extras:
        if len(text) + len(sep) + len(extra) <= width:
            text += sep + extra
    if len(text) > width > 0:
        cut = text[:width].rsplit(" ", 1)[0]
        text = cut.rstrip(" ·-")
    return text


def preview_lines(game: Game, order: Order) -> list[str]:
    """The combat preview: the ruleset's one plain line first, then the breakdown."""
    lines: list[str] = []
    try:
        summary = game.odds_summary(order)
        if summary:
            lines.append(summary)
        lines += odds_lines(game, game.odds(order))
    except Exception as exc:  # the preview is advisory; never crash on it
        lines.append(f"(no preview: {exc})")
    return lines


def phase_title(game: Game, phase: str | None = None) -> str:
    """A phase (the current one unless named) as the ruleset names it (``Activation``), else its
    id in words."""
    phase = (game.state.phase if phase is None else phase) or ""
    named = game.ruleset.phase_names.get(phase)
    return named or phase.replace("-", " ").replace("_", " ").capitalize() or "-"


def passes_by_itself(game: Game, side: str | None, phase: str | None = None) -> str:
    """The log line for a phase in which ``side`` had nothing to decide, with the ruleset's
    reason (the unit and the rule) when ``game`` is still at that phase."""
    why = None
    if side is not None and (phase is None or phase == game.state.phase) and not game.over:
        try:
            why = game.ruleset.pass_words(game, side)
        except Exception:  # advisory: the pass is logged without its reason
            why = None
    title = phase_title(game, phase)
    title += "" if title.lower().endswith("phase") else " phase"
    line = f"({side_name(game, side)} has nothing to decide in the {title}: it passes by itself"
    return plain(game, f"{line}; {why})") if why else line + ")"


_ASCII = {"\u00b7": "-", "\u2192": "->", "\u2190": "<-", "\u2013": "-", "\u2014": "-", "\u2026": "...",
          "\u2684": "die", "\u2264": "<=", "\u2265": ">=", "\u00d7": "x", "\u2212": "-"}


def ascii_only(text: str) -> str:
    """The same words in plain ASCII (``--ascii``): dots, arrows and dashes spelled out."""
    if text.isascii():
        return text
    out = "".join(_ASCII.get(ch, ch) for ch in text)
    return out.encode("ascii", "replace").decode("ascii")
