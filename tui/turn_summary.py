"""What the other side did while the player waited (the computer, or a network opponent): its
moves, attacks, dice and losses, told by comparing where every unit stood before with now."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hexwar.engine import Game
from hexwar.engine.hexgrid import Hex

from .describe import side_name, unit_title

#: event keys that mean "this was an attack or a shot"
_ATTACK_KEYS = ("target", "defender", "attacker")


@dataclass(frozen=True)
class Snapshot:
    """Every unit's hex and strength, and how many events had happened, at one moment."""

    units: dict[str, tuple[Any, int]]
    events: int

    @classmethod
    def take(cls, game: Game, events: int) -> "Snapshot":
        return cls({uid: (u.hex if u.alive else None, u.strength) for uid, u in game.state.units.items()},
                   events)


def summary_lines(game: Game, before: Snapshot, events: list[dict[str, Any]],
                  actors: list[str]) -> tuple[list[str], list[Hex]]:
    """The summary of what ``actors`` did (a title line, then one line per kind of thing that
    happened) and the hexes where the units that moved now stand. Units of other sides that
    moved were pushed back (a retreat), and are said so."""
    if game.ruleset.id == "fow":  # a campaign moves companies between points, not platoons
        from hexwar.engine.rulesets.fow import words as fow_words
        moved, at, losses = fow_words.company_moves(game, before.units, actors)
        return _lines(game, moved, [Hex(*h) for h in at], losses, events, actors, "company(ies)")
    m = game.map
    moved: list[str] = []
    pushed: list[str] = []  # units of other sides that moved: pushed back, not moves of the actors
    hexes: list[Hex] = []
    losses: dict[str, list[str]] = {}
    for uid in sorted(game.state.units):
        u = game.state.units[uid]
        old_hex, old_strength = before.units.get(uid, (None, u.strength))
        now_hex = u.hex if u.alive else None
        if now_hex is not None and old_hex is not None and tuple(now_hex) != tuple(old_hex):
            (moved if u.side in actors else pushed).append(
                f"{unit_title(game, uid)} {m.label(Hex(*old_hex))}-{m.label(Hex(*now_hex))}")
            hexes.append(Hex(*now_hex))
        elif now_hex is not None and old_hex is None:
            moved.append(f"{unit_title(game, uid)} entered at {m.label(Hex(*now_hex))}")
            hexes.append(Hex(*now_hex))
        lost = old_strength - u.strength
        if old_hex is not None and now_hex is None:
            losses.setdefault(u.side, []).append(f"{unit_title(game, uid)} eliminated")
        elif lost > 0:
            losses.setdefault(u.side, []).append(f"{unit_title(game, uid)} -{lost}")
    return _lines(game, moved, hexes, losses, events, actors, "unit(s)", pushed)


def _lines(game: Game, moved: list[str], hexes: list[Hex], losses: dict[str, list[str]],
           events: list[dict[str, Any]], actors: list[str], noun: str,
           pushed: list[str] | None = None) -> tuple[list[str], list[Hex]]:
    if noun == "unit(s)":
        attacks = sum(1 for e in events if any(k in e for k in _ATTACK_KEYS) and e.get("t") != "die-roll")
    else:  # a campaign fights battles for points (one contact report each), not shots
        attacks = sum(1 for e in events if e.get("t") == "contact-report")
    rolls = [e for e in events if e.get("t") == "die-roll"]
    pushed = pushed or []
    if not (moved or pushed or attacks or rolls or losses):
        return [], []
    who = " and ".join(side_name(game, s) for s in actors) or "the other side"
    lines = [f"What {who} did"]
    lines.append(f"moved {len(moved)} {noun}" + (": " + ", ".join(moved) if moved else ""))
    if pushed:
        lines.append(f"retreated {len(pushed)} of yours: " + ", ".join(pushed))
    if attacks:
        lines.append(f"{'attacks and shots' if noun == 'unit(s)' else 'battles'}: {attacks}")
    if rolls:
        shown = ", ".join(f"{e.get('why', 'roll')} {e.get('value')}" for e in rolls[:12])
        more = f" and {len(rolls) - 12} more" if len(rolls) > 12 else ""
        lines.append(f"dice: {shown}{more}")
    for side in sorted(losses):
        lines.append(f"losses of {side_name(game, side)}: " + ", ".join(losses[side]))
    if not losses:
        lines.append("no losses")
    return lines, hexes


def notice_lines(lines: list[str], mark: str, log_key: str) -> list[str]:
    """The summary short enough for a notice: how many moved (and where to see them), attacks and
    losses; the list of moves and the dice stay in the log."""
    out = []
    for line in lines[1:]:
        if line.startswith("moved "):
            out.append(line.split(":")[0] + (f", marked {mark} on the map" if ":" in line else ""))
        elif line.startswith("retreated "):
            out.append(line.split(":")[0])
        elif not line.startswith("dice:"):
            out.append(line)
    out.append(f"{log_key}: the whole account in the log")
    return out
