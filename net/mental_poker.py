"""A two-party mental-poker deck: private draws from a deck neither peer can stack or see.

The cipher is SRA / Pohlig-Hellman exponentiation modulo the RFC 3526 group 14 safe prime
``P = 2Q + 1``. Encryption with key ``k`` is ``v -> v^k mod P``; it commutes
(``(v^a)^b == (v^b)^a``), and ``k`` is odd and below ``Q`` so it is invertible mod ``P - 1``.
A card is encoded as the square of a hash of its id: every encoding is a quadratic residue, and
so is every encryption of one, so the Legendre symbol (the one bit exponentiation leaks) says
nothing; and no product of encodings is known to be another (see ``encode``).

Keys are 256-bit: encrypting is then about eight times cheaper than with a full-size exponent,
and finding a 256-bit exponent still costs about 2^128 steps (Pollard's kangaroo). Removing a
layer uses the inverse, a full-size exponent; a draw needs one such removal, a shuffle none.

``CardTable`` is one side's view of the deck, pure and deterministic: it builds the messages
this side sends (``make_*``) and checks and takes in the peer's (``take``); every value it
draws at random comes from the ``secrets`` module and goes into the message record it returns,
so that record, journaled before it is sent, replays to the same state (``card_protocol``).
A breach that can be proved on the spot raises ``CardCheat`` naming the side; the rest is
found by ``audit`` once both keys are revealed.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

P = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF", 16)
Q = (P - 1) // 2
G = 4                      # 2^2: a quadratic residue, so it generates the order-Q subgroup
WIDTH = 256                # bytes of one group element on the wire
KEY_BITS = 256
CHALLENGE_BITS = 128
NONCE_BITS = 2 * KEY_BITS + CHALLENGE_BITS + 128   # hides c*key statistically in s = r + c*key (a key
                                                    # of a merged round is the product of two)
MAX_CARDS = 200


class CardCheat(Exception):
    """A side broke the card protocol in a way that is proved: ``side`` is named as the cheat."""

    def __init__(self, side: str, reason: str) -> None:
        super().__init__(f"{side}: {reason}")
        self.side, self.reason = side, reason


class CardProtocolError(Exception):
    """A message that does not fit the protocol (shape, order): refused, nobody judged yet."""


@dataclass(frozen=True)
class Verdict:
    """The outcome of the end-of-game audit: ``cheater`` is None when every step checked out."""

    cheater: str | None
    reason: str

    @property
    def clean(self) -> bool:
        return self.cheater is None

    def to_wire(self) -> dict[str, Any]:
        return {"cheater": self.cheater, "reason": self.reason}


# -- the cipher ---------------------------------------------------------------------------------

@functools.lru_cache(maxsize=MAX_CARDS)
def encode(card: int) -> int:
    """The group element of card ``card``: the square of a 2048-bit hash of its id, so a
    quadratic residue with no known relation to any other card's. (Squares of small integers
    would not do: ``2^2 * 3^2 == 6^2``, and encryption keeps products, so a peer who saw the
    cards 0 and 1 under a key could compute card 4 under it and recognise it when drawn.)"""
    if not 0 <= card < MAX_CARDS:
        raise ValueError(f"card id {card} out of range 0..{MAX_CARDS - 1}")
    digest = b"".join(hashlib.blake2b(card.to_bytes(4, "big") + bytes([block]), digest_size=64,
                                      person=b"hexwar-card").digest() for block in range(WIDTH // 64))
    root = int.from_bytes(digest, "big") % P
    return root * root % P


def new_key() -> int:
    """A secret key from the OS: odd (so invertible mod P-1), exactly KEY_BITS bits."""
    return secrets.randbits(KEY_BITS) | 1 | (1 << (KEY_BITS - 1))


def encrypt(value: int, key: int) -> int:
    return pow(value, key, P)


def decrypt(value: int, key: int) -> int:
    return pow(value, pow(key, -1, P - 1), P)


def is_residue(value: int) -> bool:
    """Whether ``value`` is in the order-Q subgroup (Euler's criterion)."""
    return 1 < value < P - 1 and pow(value, Q, P) == 1


def to_bytes(value: int) -> bytes:
    return value.to_bytes(WIDTH, "big")


def from_bytes(data: Any, what: str) -> int:
    if not isinstance(data, bytes) or len(data) != WIDTH:
        raise CardProtocolError(f"{what}: a group element is {WIDTH} bytes")
    value = int.from_bytes(data, "big")
    if not 1 < value < P - 1:
        raise CardProtocolError(f"{what}: not an element of the group")
    return value


def _challenge(*parts: int | str) -> int:
    h = hashlib.blake2b(digest_size=CHALLENGE_BITS // 8, person=b"hexwar-dleq")
    for part in parts:
        data = part.encode() if isinstance(part, str) else part.to_bytes(WIDTH, "big")
        h.update(len(data).to_bytes(4, "big"))
        h.update(data)
    return int.from_bytes(h.digest(), "big")


def prove_same_key(key: int, base: int, value: int, context: str) -> tuple[int, int, int]:
    """A Chaum-Pedersen proof that ``value == base^key`` for the ``key`` of ``G^key``,
    without showing ``key`` (Fiat-Shamir challenge bound to ``context``)."""
    r = secrets.randbits(NONCE_BITS)
    t1, t2 = pow(G, r, P), pow(base, r, P)
    c = _challenge(context, pow(G, key, P), base, value, t1, t2)
    return t1, t2, r + c * key


def check_same_key(public: int, base: int, value: int, proof: tuple[int, int, int], context: str) -> bool:
    t1, t2, s = proof
    if not (0 < s < 1 << (NONCE_BITS + 2)):
        return False
    c = _challenge(context, public, base, value, t1, t2)
    return (pow(G, s, P) == t1 * pow(public, c, P) % P
            and pow(base, s, P) == t2 * pow(value, c, P) % P)


# -- one side's view of the deck ----------------------------------------------------------------

Pos = tuple[int, int]      # (round, index in that round's final order)


@dataclass
class Round:
    """One shuffle: the face-up cards that went in, each side's output, each side's public key."""

    cards: list[int]
    carried: list[Pos] = field(default_factory=list)     # a merge: face-down pile positions taken in first
    relock: list[list[int]] = field(default_factory=list)  # a merge: the two unpermuted passes
    first_out: list[int] = field(default_factory=list)
    final: list[int] = field(default_factory=list)
    public: dict[str, int] = field(default_factory=dict)


@dataclass
class Play:
    side: str
    pos: Pos
    card: int
    kind: str               # "play" or "discard": both end face up on the discard pile


class CardTable:
    """One side's view of a two-party deck. ``sides`` is (first shuffler, second shuffler)."""

    def __init__(self, me: str, sides: tuple[str, str]) -> None:
        if me not in sides or sides[0] == sides[1]:
            raise ValueError("me must be one of two distinct sides")
        self.me, self.sides = me, sides
        self.peer = sides[1] if me == sides[0] else sides[0]
        self.rounds: list[Round] = []
        self.keys: list[int] = []                       # my key of each round (a merge: the product of two)
        self.parts: list[list[int]] = []                # the key or keys I revealed for each round
        self._lookup: list[dict[int, int]] = []         # my encryption of each card -> card, per round
        self.pile: list[Pos] = []                       # face down, next draw first
        self.strips: dict[Pos, tuple[str, int]] = {}    # drawn position -> (drawer, value the other sent)
        self.hands: dict[str, dict[Pos, int | None]] = {s: {} for s in sides}   # None: a face I cannot see
        self.drawn: list[tuple[Pos, str, int | None]] = []
        self.plays: list[Play] = []
        self.discards: list[int] = []
        self.revealed: dict[str, list[list[int]]] = {}

    # -- what a side can see
    def hand(self, side: str) -> list[int]:
        """The faces of ``side``'s hand this side can see (all of its own, none of the peer's)."""
        return sorted(c for c in self.hands[side].values() if c is not None)

    def count(self, side: str) -> int:
        return len(self.hands[side])

    # -- shuffles
    def make_shuffle(self, cards: list[int], reshuffle: bool = False) -> dict[str, Any]:
        """This side's pass of a new round: its record (key and permutation in it, so it can be
        journaled before the public part goes out) for ``take_mine``."""
        r = len(self.rounds) if self.me == self.sides[0] else len(self.rounds) - 1
        key = new_key()
        if self.me == self.sides[0]:
            source = [encode(c) for c in cards]
        else:
            source = self.rounds[r].first_out
        order = list(range(len(source)))
        for i in range(len(order) - 1, 0, -1):          # Fisher-Yates from the OS's randomness
            j = secrets.randbelow(i + 1)
            order[i], order[j] = order[j], order[i]
        out = [encrypt(source[i], key) for i in order]
        return {"type": "shuffle", "round": r, "cards": cards if self.me == self.sides[0] else None,
                "reshuffle": reshuffle,
                "values": [to_bytes(v) for v in out], "public": to_bytes(pow(G, key, P)),
                "secret": {"key": key.to_bytes(WIDTH, "big"), "order": order}}

    def _take_shuffle(self, side: str, msg: dict[str, Any]) -> None:
        first = side == self.sides[0]
        r = msg.get("round")
        if first:
            if r != len(self.rounds) or not self._last_done():
                raise CardProtocolError(f"shuffle of round {r}, expected {len(self.rounds)} after the last is done")
            cards = msg.get("cards")
            if (not isinstance(cards, list) or not cards or len(cards) > MAX_CARDS
                    or not all(isinstance(c, int) and 0 <= c < MAX_CARDS for c in cards)
                    or len(set(cards)) != len(cards)):
                raise CardProtocolError("a shuffle's cards are distinct ids")
            self._take_face_up(cards, msg.get("reshuffle") is True)
            rnd = Round(list(cards))
        else:
            if r != len(self.rounds) - 1 or self.rounds[r].final or self.rounds[r].relock:
                raise CardProtocolError(f"second shuffle of round {r} out of turn")
            rnd = self.rounds[r]
        values = msg.get("values")
        if not isinstance(values, list) or len(values) != len(rnd.cards):
            raise CardProtocolError(f"a shuffle of {len(rnd.cards)} cards has {len(rnd.cards)} values")
        out = [from_bytes(v, "shuffle") for v in values]
        if len(set(out)) != len(out):
            raise CardCheat(side, "its shuffle repeats a card, so it is not a permutation")
        public = from_bytes(msg.get("public"), "public key")
        rnd.public[side] = public
        if first:
            rnd.first_out = out
            self.rounds.append(rnd)
        else:
            rnd.final = out
            self.pile.extend((r, k) for k in range(len(out)))

    def _last_done(self) -> bool:
        return not self.rounds or bool(self.rounds[-1].final)

    def _take_face_up(self, cards: list[int], reshuffle: bool) -> None:
        """The face-up cards of a new round: with ``reshuffle`` the discard pile first, then any
        cards new to the deck (an id already dealt in an earlier round cannot come in again)."""
        n = len(self.discards) if reshuffle else 0
        if reshuffle and list(cards[:n]) != self.discards:
            raise CardProtocolError("a reshuffle takes the discard pile first, as both sides saw it")
        dealt = {c for rnd in self.rounds for c in rnd.cards}
        if any(c in dealt for c in cards[n:]):
            raise CardProtocolError("a card new to the deck is already in it")
        if reshuffle:
            self.discards = []

    # -- merging the face-down pile with face-up cards (the pile shuffled again, cards added)
    def make_merge(self, step: int, cards: list[int] | None = None, reshuffle: bool = False) -> dict[str, Any]:
        """This side's pass ``step`` (first: 1 and 3, second: 2 and 4) of a merged round.
        Passes 1 and 2 keep the order: each side swaps its old layer on the pile's cards for a
        new one (so the other can find the cards it must swap) and lays it on the face-up cards;
        passes 3 and 4 are a shuffle each, as in a fresh round."""
        key = new_key()
        msg: dict[str, Any] = {"type": "merge", "step": step, "secret": {"key": key.to_bytes(WIDTH, "big")}}
        if step == 1:
            assert cards is not None
            r, rnd = len(self.rounds), Round(list(cards), carried=list(self.pile))
            values = [encrypt(encode(c), key) for c in cards]
            msg.update(cards=list(cards), carried=len(self.pile), reshuffle=reshuffle)
        else:
            r = len(self.rounds) - 1
            rnd = self.rounds[r]
        if step in (1, 2):
            source = [self.rounds[p[0]].final[p[1]] for p in rnd.carried] if step == 1 else rnd.relock[0]
            swapped = [pow(v, pow(self.keys[p[0]], -1, P - 1) * key % (P - 1), P)
                       for v, p in zip(source, rnd.carried)]
            if step == 1:
                values = swapped + values
            else:
                values = swapped + [encrypt(v, key) for v in source[len(rnd.carried):]]
        else:
            source = rnd.relock[1] if step == 3 else rnd.first_out
            order = list(range(len(source)))
            for i in range(len(order) - 1, 0, -1):
                j = secrets.randbelow(i + 1)
                order[i], order[j] = order[j], order[i]
            values = [encrypt(source[i], key) for i in order]
            whole = self.parts[r][0] * key
            msg["public"] = to_bytes(pow(G, whole, P))
            msg["secret"]["order"] = order
        msg.update(round=r, values=[to_bytes(v) for v in values])
        return msg

    def _take_merge(self, side: str, msg: dict[str, Any]) -> None:
        step, r = msg.get("step"), msg.get("round")
        first = side == self.sides[0]
        if step not in ((1, 3) if first else (2, 4)):
            raise CardProtocolError(f"merge step {step} is not {side}'s")
        if step == 1:
            cards = msg.get("cards")
            if (r != len(self.rounds) or not self._last_done() or msg.get("carried") != len(self.pile)
                    or not isinstance(cards, list)
                    or len(cards) > MAX_CARDS or len(set(cards)) != len(cards)
                    or not all(isinstance(c, int) and 0 <= c < MAX_CARDS for c in cards)):
                raise CardProtocolError("a merge starts with distinct face-up ids and the whole pile")
            self._take_face_up(cards, msg.get("reshuffle") is True)
            rnd = Round(list(cards), carried=list(self.pile))
        else:
            rnd = self.rounds[-1] if self.rounds else Round([])
            done = len(rnd.relock) + (1 if rnd.first_out else 0) + (1 if rnd.final else 0)
            if r != len(self.rounds) - 1 or not rnd.relock or done != step - 1:
                raise CardProtocolError(f"merge step {step} of round {r} out of turn")
        values = msg.get("values")
        size = len(rnd.carried) + len(rnd.cards)
        if not isinstance(values, list) or len(values) != size:
            raise CardProtocolError(f"a merge of {size} cards has {size} values")
        out = [from_bytes(v, "merge") for v in values]
        if len(set(out)) != len(out):
            raise CardCheat(side, f"its pass {step} of a merge repeats a card")
        if step == 1:
            rnd.relock.append(out)
            self.rounds.append(rnd)
        elif step == 2:
            rnd.relock.append(out)
        else:
            rnd.public[side] = from_bytes(msg.get("public"), "public key")
            if step == 3:
                rnd.first_out = out
            else:
                rnd.final = out
                self.pile = [(r, k) for k in range(len(out))]

    # -- draws
    def make_strip(self, drawer: str) -> dict[str, Any]:
        """Strip my layer from the next card of the pile so ``drawer`` (the peer) can read it."""
        if drawer != self.peer or not self.pile:
            raise CardProtocolError("no card for the peer to draw")
        r, k = self.pile[0]
        value = decrypt(self.rounds[r].final[k], self.keys[r])
        return {"type": "strip", "round": r, "pos": k, "value": to_bytes(value)}

    def _take_strip(self, side: str, msg: dict[str, Any]) -> None:
        drawer = self.peer if side == self.me else self.me
        if not self.pile:
            raise CardProtocolError("a strip, but the pile is empty")
        pos = self.pile[0]
        if (msg.get("round"), msg.get("pos")) != pos:
            raise CardProtocolError(f"a strip of {msg.get('round')},{msg.get('pos')}; the next card is {pos}")
        value = from_bytes(msg.get("value"), "strip")
        face: int | None = None
        if drawer == self.me:
            face = self._lookup[pos[0]].get(value)
            if face is None:
                raise CardCheat(side, f"the card it let me draw at {pos} is no card of the deck")
            seen = [c for p, c in self.hands[self.me].items() if p[0] == pos[0]]
            seen += [p.card for p in self.plays if p.pos[0] == pos[0]]
            if face in seen:
                raise CardCheat(side, f"the card it let me draw at {pos} is one I already hold")
        self.pile.pop(0)
        self.strips[pos] = (drawer, value)
        self.drawn.append((pos, drawer, face))
        self.hands[drawer][pos] = face

    # -- plays
    def make_show(self, card: int, kind: str = "play") -> dict[str, Any]:
        """Show a card from my hand face up, with the proof that it is the card I drew."""
        pos = next((p for p, c in sorted(self.hands[self.me].items()) if c == card), None)
        if pos is None:
            raise ValueError(f"card {card} is not in this side's hand")
        value = self.strips[pos][1]
        proof = prove_same_key(self.keys[pos[0]], encode(card), value, self._context(pos, card))
        return {"type": "show", "round": pos[0], "pos": pos[1], "card": card, "kind": kind,
                "proof": [to_bytes(proof[0]), to_bytes(proof[1]), proof[2].to_bytes(WIDTH, "big")]}

    def _context(self, pos: Pos, card: int) -> str:
        return f"{self.sides[0]}|{self.sides[1]}|{pos[0]}|{pos[1]}|{card}"

    def _take_show(self, side: str, msg: dict[str, Any]) -> None:
        pos = (msg.get("round"), msg.get("pos"))
        card, kind = msg.get("card"), msg.get("kind")
        if kind not in ("play", "discard") or not isinstance(card, int) or not 0 <= card < MAX_CARDS:
            raise CardProtocolError("a show names a card id and play or discard")
        if any(p.pos == pos for p in self.plays):
            raise CardCheat(side, f"it showed the card at {pos} a second time")
        if pos not in self.hands[side]:
            raise CardCheat(side, f"it showed a card at {pos} that it never drew")
        if side != self.me:
            proof = msg.get("proof")
            if not isinstance(proof, list) or len(proof) != 3 or not all(isinstance(x, bytes) for x in proof):
                raise CardProtocolError("a show carries a three-part proof")
            t1, t2 = from_bytes(proof[0], "proof"), from_bytes(proof[1], "proof")
            s = int.from_bytes(proof[2], "big")
            r = pos[0]
            if not check_same_key(
                    self.rounds[r].public[side], encode(card), self.strips[pos][1], (t1, t2, s),
                    self._context(pos, card)):
                raise CardCheat(side, f"card {card} is not the card it drew at {pos}")
        del self.hands[side][pos]
        self.plays.append(Play(side, pos, card, kind))
        self.discards.append(card)

    # -- taking any message (mine, from my journal or just made, or the peer's)
    def take(self, side: str, msg: dict[str, Any]) -> None:
        """Check and apply ``msg`` sent by ``side``; this side's own records carry their secret."""
        if not isinstance(msg, dict):
            raise CardProtocolError("a card message is a map")
        kind = msg.get("type")
        if kind == "shuffle":
            self._take_shuffle(side, msg)
            if side == self.me:
                key = int.from_bytes(msg["secret"]["key"], "big")
                self.keys.append(key)
                self.parts.append([key])
                self._index_mine(msg)
        elif kind == "merge":
            self._take_merge(side, msg)
            if side == self.me:
                key = int.from_bytes(msg["secret"]["key"], "big")
                if msg["step"] in (1, 2):
                    self.parts.append([key])
                else:
                    self.parts[-1].append(key)
                    self.keys.append(self.parts[-1][0] * key)
                    dealt = sorted({c for rnd in self.rounds for c in rnd.cards})
                    self._lookup.append({encrypt(encode(c), self.keys[-1]): c for c in dealt})
        elif kind == "strip":
            self._take_strip(side, msg)
        elif kind == "show":
            self._take_show(side, msg)
        elif kind == "reveal":
            keys = msg.get("keys")
            if not isinstance(keys, list) or len(keys) != len(self.rounds) or not all(
                    isinstance(ks, list) and len(ks) == (2 if rnd.carried or rnd.relock else 1)
                    and all(isinstance(k, bytes) and 0 < len(k) <= WIDTH for k in ks)
                    for ks, rnd in zip(keys, self.rounds)):
                raise CardProtocolError("a reveal carries the key (a merge: both keys) of every round")
            self.revealed[side] = [[int.from_bytes(k, "big") for k in ks] for ks in keys]
        else:
            raise CardProtocolError(f"unknown card message {kind!r}")

    def _index_mine(self, msg: dict[str, Any]) -> None:
        """My encryption of every card of the round, to read the cards I draw by looking them up.
        The first shuffler has it already: its own output, in the order of its permutation."""
        r = len(self.keys) - 1
        rnd = self.rounds[r]
        if self.me == self.sides[0]:
            order = msg["secret"]["order"]
            self._lookup.append({v: rnd.cards[order[j]] for j, v in enumerate(rnd.first_out)})
        else:
            self._lookup.append({encrypt(encode(c), self.keys[r]): c for c in rnd.cards})

    def make_reveal(self) -> dict[str, Any]:
        return {"type": "reveal", "keys": [[k.to_bytes(WIDTH, "big") for k in ks] for ks in self.parts]}

    # -- the audit
    def audit(self) -> Verdict:
        """Check every shuffle, merge, strip and show of the match with both sides' keys."""
        for side in self.sides:
            if side not in self.revealed:
                return Verdict(side, "it did not reveal its keys")
        first, second = self.sides
        whole: dict[str, list[int]] = {first: [], second: []}
        faces: list[dict[int, int]] = []                  # final value -> card, per round
        for r, rnd in enumerate(self.rounds):
            for side in self.sides:
                parts = self.revealed[side][r]
                product = parts[0] * (parts[1] if len(parts) > 1 else 1)
                if (any(k % 2 == 0 or k.bit_length() != KEY_BITS for k in parts)   # also bounds the audit's cost
                        or pow(G, product, P) != rnd.public.get(side)):
                    return Verdict(side, f"the key it revealed for round {r} is not the one it used")
                whole[side].append(product)
            (a, *a2), (b, *b2) = self.revealed[first][r], self.revealed[second][r]
            if rnd.relock:                                # a merge: check the two order-keeping passes
                ident = [faces[p[0]][self.rounds[p[0]].final[p[1]]] for p in rnd.carried] + rnd.cards
                n = len(rnd.carried)
                for i, p in enumerate(rnd.carried):
                    old = self.rounds[p[0]].final[p[1]]
                    if encrypt(rnd.relock[0][i], whole[first][p[0]]) != encrypt(old, a):
                        return Verdict(first, f"its first pass of the merge of round {r} changed a card")
                    if encrypt(rnd.relock[1][i], whole[second][p[0]]) != encrypt(rnd.relock[0][i], b):
                        return Verdict(second, f"its first pass of the merge of round {r} changed a card")
                for i, c in enumerate(rnd.cards):
                    if rnd.relock[0][n + i] != encrypt(encode(c), a):
                        return Verdict(first, f"its first pass of the merge of round {r} changed a card")
                    if rnd.relock[1][n + i] != encrypt(rnd.relock[0][n + i], b):
                        return Verdict(second, f"its first pass of the merge of round {r} changed a card")
                source, a, b = rnd.relock[1], a2[0], b2[0]
            else:
                ident = rnd.cards
                source = [encode(c) for c in rnd.cards]
            once = {encrypt(v, a): c for v, c in zip(source, ident)}
            if sorted(once) != sorted(rnd.first_out):
                return Verdict(first, f"its shuffle of round {r} is not a permutation of its input")
            face = {encrypt(v, b): once[v] for v in rnd.first_out}
            if sorted(face) != sorted(rnd.final):
                return Verdict(second, f"its shuffle of round {r} is not a permutation of its input")
            faces.append(face)
            for k, value in enumerate(rnd.final):
                pos = (r, k)
                if pos not in self.strips:
                    continue
                drawer, strip = self.strips[pos]
                stripper = first if drawer == second else second
                if encrypt(strip, whole[stripper][r]) != value:
                    return Verdict(stripper, f"the card it let {drawer} draw at {pos} was not the card there")
            for play in self.plays:
                if play.pos[0] == r and face[rnd.final[play.pos[1]]] != play.card:
                    return Verdict(play.side, f"it played card {play.card} but drew another at {play.pos}")
        return Verdict(None, f"{len(self.rounds)} shuffles, {len(self.strips)} draws and "
                             f"{len(self.plays)} cards shown all check out")
