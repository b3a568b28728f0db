"""The ``hello`` exchange: two programs agree they can play this match together, or say why not.

The host speaks first and names the scenario by id and hash. A guest that already holds that
scenario (its journal, or the same built-in file) answers with its own hello at once; one that
lacks it sends ``want`` and the host sends the file once (``scenario``), which the guest parses
with its own loader and must find the same hash. So a reconnect costs two small hellos, not the
scenario text. A host whose hello offers ``scenario-zlib`` is asked for the file compressed
(``want{zlib: true}``), about a fifth of its size; the guest inflates it no further than the
limit on a scenario file, so a small message cannot make it fill its memory. Every difference
(protocol, engine, ruleset code, scenario, match, seat) is listed in the refusal; a peer
speaking another protocol version is told so before anything else.
"""

from __future__ import annotations

import asyncio
import zlib
from typing import Any

from hexwar import __version__
from hexwar.engine import ENGINE_VERSION
from hexwar.engine.rulesets import KNOWN, UnknownRulesetError
from hexwar.engine.scenario import Scenario
from hexwar.match import ruleset_hash
from hexwar.scenarios.loader import ScenarioError, find_scenario, load_scenario, parse_scenario

from . import protocol
from .errors import FramingError, HandshakeRefused, LinkClosed, ProtocolViolation
from .link import Link

HELLO_TIMEOUT = 30.0
BYE_TIMEOUT = 5.0  # a farewell to a peer that does not read is not waited on longer


def hello(role: str, scenario: Scenario, *, match: bytes | None = None, side: str | None = None,
          key: str | None = None, turn_time: int | None = None, seq: int | None = None) -> dict[str, Any]:
    return protocol.message(
        "hello", proto=protocol.PROTOCOL_VERSION, role=role, engine=ENGINE_VERSION, hexwar=__version__,
        caps=list(protocol.CAPABILITIES), ruleset=scenario.ruleset,
        ruleset_hash=ruleset_hash(scenario.ruleset), scenario=scenario.id,
        scenario_hash=scenario.source_hash, match=match, side=side, key=key, turn_time=turn_time, seq=seq)


def version_problem(theirs: Any, peer: str) -> str | None:
    """Said before anything else: another protocol version cannot even read our messages."""
    proto = theirs.get("proto") if isinstance(theirs, dict) else None
    if isinstance(proto, int) and not isinstance(proto, bool) and proto != protocol.PROTOCOL_VERSION:
        return (f"protocol version: {peer} speaks {proto}, this side {protocol.PROTOCOL_VERSION}; "
                f"both players need a hexwar that speaks network protocol {protocol.PROTOCOL_VERSION} "
                f"(upgrade the older one)")
    return None


def differences(mine: dict[str, Any], theirs: dict[str, Any], peer: str) -> list[str]:
    """What keeps the two programs from playing together, in words for the player."""
    out = []
    version = version_problem(theirs, peer)
    if version:
        out.append(version)
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


def local_scenario(msg: dict[str, Any]) -> Scenario | None:
    """The scenario the host's hello names, if this hexwar ships the very same file (looked up
    by id among the built-ins only: the host never names a path on our disk)."""
    name = msg["scenario"]
    if not name.replace("-", "").replace("_", "").isalnum():
        return None
    try:
        scenario = load_scenario(find_scenario(name))
    except (ScenarioError, UnknownRulesetError, OSError, ValueError, KeyError):
        return None
    return scenario if scenario.source_hash == msg["scenario_hash"] else None


async def obtain_scenario(link: Link, msg: dict[str, Any], held: Scenario | None = None) -> Scenario:
    """The host's scenario: the one we hold (journal or built-in) when its hash matches, else the
    file asked for with ``want`` and built with our own loader and ruleset code."""
    if msg["ruleset"] not in KNOWN:
        raise await refuse(link, [f"the host plays ruleset {msg['ruleset']!r}, which this hexwar does not "
                                  f"know (known: {', '.join(sorted(KNOWN))})"])
    if held is not None:
        return held  # our journal's scenario; if the host's differs, ``differences`` says so
    local = local_scenario(msg)
    if local is not None:
        return local
    compressed = protocol.SCENARIO_ZLIB in msg["caps"]
    await link.send(protocol.message("want", scenario_hash=msg["scenario_hash"], zlib=compressed or None))
    reply = await receive(link, ("scenario",))
    text, problem = scenario_text(reply, compressed)
    if problem:
        raise await refuse(link, [f"the host's scenario file {problem}"])
    try:
        scenario = parse_scenario(text, f"scenario {msg['scenario']!r} from the host")
    except ScenarioError as exc:
        raise await refuse(link, [f"the host's scenario does not load here: {exc.problems[0]}"]) from None
    except UnknownRulesetError as exc:
        raise await refuse(link, [str(exc)]) from None
    if scenario.source_hash != msg["scenario_hash"]:
        raise await refuse(link, ["the host's scenario file does not match the hash in its hello"])
    return scenario


def scenario_message(text: str, compressed: bool) -> dict[str, Any]:
    """The ``scenario`` message carrying ``text``: zlib-compressed when the peer asked for it."""
    if compressed:
        return protocol.message("scenario", zlib=zlib.compress(text.encode("utf-8"), 9))
    return protocol.message("scenario", text=text)


def scenario_text(msg: dict[str, Any], compressed: bool) -> tuple[str, str | None]:
    """The file a ``scenario`` message carries, and what is wrong with it (None when fine). A
    compressed file is inflated to at most ``protocol.MAX_SCENARIO`` bytes: one that would grow
    past it is refused, whatever its own size (a decompression bomb)."""
    if "text" in msg and "zlib" not in msg:
        return msg["text"], None  # as every host before scenario-zlib sends it
    if compressed and "zlib" in msg and "text" not in msg:
        inflater = zlib.decompressobj()
        try:
            raw = inflater.decompress(msg["zlib"], protocol.MAX_SCENARIO)
            if inflater.unconsumed_tail or (not inflater.eof and inflater.decompress(b"", 1)):
                return "", (f"inflates past {protocol.MAX_SCENARIO // 1024} KiB, the limit for a "
                            f"scenario file")
        except zlib.error as exc:
            return "", f"is not valid zlib data ({exc})"
        if not inflater.eof:
            return "", "is cut short (its zlib stream does not end)"
        if inflater.unused_data:
            return "", "has bytes after its zlib stream"
        try:
            return raw.decode("utf-8"), None
        except UnicodeDecodeError:
            return "", "is not UTF-8 text"
    if "zlib" in msg and not compressed:
        return "", "came compressed although this side did not ask for that"
    return "", "came with neither or both of text and zlib"


async def receive_hello(link: Link, timeout: float = HELLO_TIMEOUT,
                        scenario: Scenario | None = None) -> dict[str, Any]:
    """The peer's hello, or ``HandshakeRefused`` (a ``bye`` first means the peer refused us).
    With ``scenario`` (the host), one ``want`` for it is answered with the file first."""
    served = False
    while True:
        msg = await receive(link, ("hello", "want") if scenario is not None and not served else ("hello",),
                            timeout)
        if msg["type"] == "hello":
            return msg
        if msg["scenario_hash"] != scenario.source_hash:  # type: ignore[union-attr]
            raise await refuse(link, [f"{link.name} wants a scenario this match does not play"])
        served = True
        await link.send(scenario_message(scenario.source_text, bool(msg.get("zlib"))))  # type: ignore[union-attr]


async def receive(link: Link, kinds: tuple[str, ...], timeout: float = HELLO_TIMEOUT) -> dict[str, Any]:
    """The next handshake message, which must be one of ``kinds``; refusals as ``receive_hello``."""
    try:
        frame = await asyncio.wait_for(link.recv(), timeout)
    except asyncio.TimeoutError:
        link.close()  # a silent link, not a refusal: the guest may try again
        raise LinkClosed(f"no {kinds[0]} from {link.name} within {timeout:.0f}s") from None
    except FramingError as exc:
        raise await refuse(link, [f"refused: {exc.reason}"]) from None
    version = version_problem(frame, link.name)
    if version:
        raise await refuse(link, [version])
    try:
        msg = protocol.parse(frame)
    except ProtocolViolation as exc:
        raise await refuse(link, [f"bad {kinds[0]} from {link.name}: {exc.reason}"]) from None
    if msg["type"] == "bye":
        link.close()
        raise HandshakeRefused(f"{link.name} refused: {msg['reason']}")
    if msg["type"] not in kinds:
        raise await refuse(link, [f"{link.name} sent '{msg['type']}' where '{kinds[0]}' was due"])
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
