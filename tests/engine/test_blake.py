"""The engine's BLAKE2b (``engine/blake.py``) is hashlib's own, taken without importing hashlib
(which loads OpenSSL's bindings, 2 ms of a one-shot replay, for nothing the engine uses)."""

import hashlib
import subprocess
import sys

from hexwar.engine.blake import blake2b


def test_the_engines_blake2b_gives_hashlibs_digests():
    for data, kw in ((b"", {}), (b"x" * 10_000, {"digest_size": 16}),
                     (b"seed", {"digest_size": 32, "person": b"hexwar-dice"}),
                     (b"k", {"digest_size": 8, "key": b"secret", "salt": b"s"})):
        assert blake2b(data, **kw).hexdigest() == hashlib.blake2b(data, **kw).hexdigest()
    h, g = blake2b(digest_size=16), hashlib.blake2b(digest_size=16)
    for part in (b"a", b"bc", b"d" * 300):
        h.update(part)
        g.update(part)
    assert h.copy().digest() == g.digest()


def test_a_replay_does_not_import_hashlib():
    code = ("import sys; import hexwar.match, hexwar.journal, hexwar.engine.rulesets.poltava; "
            "print('hashlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
