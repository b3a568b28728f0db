"""The commutative cipher of the card deck (net/mental_poker.py): commutativity, inverse, encoding."""

from __future__ import annotations

import pytest

from hexwar.net import mental_poker as mp


def test_group_is_the_rfc3526_group14_safe_prime():
    assert mp.P.bit_length() == 2048
    assert mp.P % 2**64 == 2**64 - 1 and mp.P >> (2048 - 64) == 2**64 - 1   # RFC 3526: top and bottom 64 bits set
    assert pow(3, mp.P - 1, mp.P) == 1 and pow(5, mp.Q - 1, mp.Q) == 1     # Fermat: both look prime
    assert mp.is_residue(mp.G)


def test_encryption_commutes():
    a, b = mp.new_key(), mp.new_key()
    m = mp.encode(17)
    assert mp.encrypt(mp.encrypt(m, a), b) == mp.encrypt(mp.encrypt(m, b), a)


def test_decrypt_inverts_encrypt_and_strips_one_layer_of_two():
    a, b = mp.new_key(), mp.new_key()
    m = mp.encode(3)
    assert mp.decrypt(mp.encrypt(m, a), a) == m
    assert mp.decrypt(mp.encrypt(mp.encrypt(m, a), b), a) == mp.encrypt(m, b)


def test_keys_are_odd_and_invertible_mod_p_minus_1():
    for _ in range(20):
        k = mp.new_key()
        assert k % 2 == 1 and k.bit_length() == mp.KEY_BITS
        assert k * pow(k, -1, mp.P - 1) % (mp.P - 1) == 1


def test_every_card_encoding_is_a_distinct_quadratic_residue():
    values = [mp.encode(c) for c in range(mp.MAX_CARDS)]
    assert len(set(values)) == mp.MAX_CARDS
    assert all(mp.is_residue(v) for v in values)
    key = mp.new_key()
    assert all(mp.is_residue(mp.encrypt(v, key)) for v in values[:10])   # the Legendre symbol stays 1
    assert not mp.is_residue(mp.P - values[0])   # -1 is not a residue mod this prime: the test can fail


def test_encode_refuses_ids_out_of_range():
    with pytest.raises(ValueError):
        mp.encode(mp.MAX_CARDS)


def test_same_key_proof_accepts_the_drawn_card_and_no_other():
    key = mp.new_key()
    public = pow(mp.G, key, mp.P)
    drawn = mp.encrypt(mp.encode(5), key)
    proof = mp.prove_same_key(key, mp.encode(5), drawn, "ctx")
    assert mp.check_same_key(public, mp.encode(5), drawn, proof, "ctx")
    assert not mp.check_same_key(public, mp.encode(6), drawn, proof, "ctx")
    assert not mp.check_same_key(public, mp.encode(5), drawn, proof, "other context")
    forged = mp.prove_same_key(key, mp.encode(6), drawn, "ctx")      # a true key, a false claim
    assert not mp.check_same_key(public, mp.encode(6), drawn, forged, "ctx")


def test_wire_values_out_of_the_group_are_refused():
    with pytest.raises(mp.CardProtocolError):
        mp.from_bytes(b"\x00" * mp.WIDTH, "x")
    with pytest.raises(mp.CardProtocolError):
        mp.from_bytes(b"\x01" * 10, "x")
    assert mp.from_bytes(mp.to_bytes(mp.encode(1)), "x") == mp.encode(1)


def test_no_card_encoding_is_a_product_or_power_of_others():
    # with squares of small integers, (0+2)^2 * (1+2)^2 == (4+2)^2 and (0+2)^2 ** 2 == (2+2)^2:
    # encryption keeps products, so two shown cards would give away a third one drawn later
    values = [mp.encode(c) for c in range(60)]
    known = set(values)
    products = {values[i] * values[j] % mp.P for i in range(60) for j in range(i, 60)}
    assert not products & known
    assert {(c + 2) ** 2 for c in range(60)} & {(i + 2) ** 2 * (j + 2) ** 2 for i in range(60) for j in range(60)}
