"""The ``hello`` exchange: two programs agree they can play this match together, or say why not.

The host speaks first and sends the scenario file itself, so a guest needs nothing but the
address and code; the guest parses it with its own loader and must arrive at the same hash. Every
difference (protocol, engine, ruleset code, scenario, match, seat) is listed in the refusal.
"""

from __future__ import annotations

import asyncio
from typing import Any

from hexwar import __version__
from hexwar.engine import ENGINE_VERSION
from hexwar.engine.rulesets import KNOWN, UnknownRulesetError
from hexwar.engine.scenario import Scenario
from hexwar.match import ruleset_hash
from hexwar.scenarios.loader import ScenarioError, parse_scenario

from . import protocol
from .errors import FramingError, HandshakeRefused, LinkClosed, ProtocolViolation
from .link import Link

HELLO_TIMEOUT = 30.0
BYE_TIMEOUT = 5.0  # a farewell to a peer that does not read is not waited on longer


def hello(role: str, scenario: Scenario, *, match: bytes | None = None, side: str | None = None,
          key: str | None = None, send_scenario: bool = False, turn_time: int | None = None,
          seq: int | None = None) -> dict[str, Any]:
    return protocol.message(
        "hello", proto=protocol.PROTOCOL_VERSION, role=role, engine=ENGINE_VERSION, hexwar=__version__,
        caps=list(protocol.CAPABILITIES), ruleset=scenario.ruleset,
        ruleset_hash=ruleset_hash(scenario.ruleset), scenario=scenario.id,
        scenario_hash=scenario.source_hash, match=match, side=side, key=key,
        scenario_text=scenario.source_text if send_scenario else None, turn_time=turn_time, seq=seq)


def differences(mine: dict[str, Any], theirs: dict[str, Any], peer: str) -> list[str]:
    """What keeps the two programs from playing together, in words for the player."""
    out = []
    if theirs["proto"] != mine["proto"]:
        out.append(f"protocol version: {peer} speaks {theirs['proto']}, this side {mine['proto']}")
    if theirs["engine"] != mine["engine"]:
        out.append(f"engine version: {peer} has {theirs['engine']}, this side {mine['engine']}")
    if theirs["ruleset"] != mine["ruleset"]:
        out.append(f"ruleset: {peer} plays {theirs['ruleset']!r}, this side {mine['ruleset']!r}")
    elif theirs["ruleset_hash"] != mine["ruleset_hash"]:
        out.append(f"ruleset {mine['ruleset']!r} code differs ({peer} {theirs['ruleset_hash'][:12]}, "
                   f"this side {mine['ruleset_hash'][:12]}): different hexwar versions?")
    if theirs["scenario_hash"] != mine["scenario_hash"]:
        out.append(f"scenario {mine['scenario']!r} differs ({peer} {theirs['scenario_hash'][:12]}, "
                   f"this side {mine['scenario_hash'][:12]})")
    missing = [c for c in protocol.REQUIRED_CAPS if c not in theirs["caps"]]
    if missing:
        out.append(f"{peer} lacks capabilities: {', '.join(missing)}")
    return out


def scenario_from_hello(msg: dict[str, Any]) -> Scenario:
    """Build the host's scenario from its hello, with our own loader and ruleset code."""
    if msg.get("role") != "host" or "scenario_text" not in msg:
        raise HandshakeRefused("the host's hello carries no scenario")
    if msg["ruleset"] not in KNOWN:
        raise HandshakeRefused(f"the host plays ruleset {msg['ruleset']!r}, which this hexwar does not know "
                               f"(known: {', '.join(sorted(KNOWN))})")
    try:
        return parse_scenario(msg["scenario_text"], f"scenario {msg['scenario']!r} from the host")
    except ScenarioError as exc:
        raise HandshakeRefused(f"the host's scenario does not load here: {exc.problems[0]}") from None
    except UnknownRulesetError as exc:
        raise HandshakeRefused(str(exc)) from None


async def receive_hello(link: Link, timeout: float = HELLO_TIMEOUT) -> dict[str, Any]:
    """The peer's hello, or ``HandshakeRefused`` (a ``bye`` first means the peer refused us)."""
    try:
        frame = await asyncio.wait_for(link.recv(), timeout)
    except asyncio.TimeoutError:
        link.close()  # a silent link, not a refusal: the guest may try again
        raise LinkClosed(f"no hello from {link.name} within {timeout:.0f}s") from None
    except FramingError as exc:
        raise await refuse(link, [f"refused: {exc.reason}"]) from None
    try:
        msg = protocol.parse(frame)
    except ProtocolViolation as exc:
        raise await refuse(link, [f"bad hello from {link.name}: {exc.reason}"]) from None
    if msg["type"] == "bye":
        link.close()
        raise HandshakeRefused(f"{link.name} refused: {msg['reason']}")
    if msg["type"] != "hello":
        raise await refuse(link, [f"{link.name} sent '{msg['type']}' where 'hello' was due"])
    return msg


async def say_bye(link: Link, reason: str) -> None:
    """Send ``bye {reason}`` (best effort: the link may already be gone) and close the link."""
    try:
        await asyncio.wait_for(link.send(protocol.message("bye", reason=reason[:500])), BYE_TIMEOUT)
    except Exception:  # noqa: BLE001 - a peer that cannot hear the bye is left anyway
        pass
    link.close()


async def refuse(link: Link, reasons: list[str]) -> HandshakeRefused:
    """Tell the peer why, close, and return the error for our side to raise or log."""
    text = "; ".join(reasons)[:500]
    await say_bye(link, text)
    return HandshakeRefused(text)
