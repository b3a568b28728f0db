"""Where keys live and who is trusted: the data dir, host and guest keys, known hosts, invites.

Host and guest keys are Ed25519, generated once and kept (mode 0600) in the data dir, so a host's
fingerprint stays the same between matches and a guest that joined once can reconnect by key.
``known_hosts`` is trust-on-first-use like OpenSSH's: a changed key is refused, never replaced.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path
from typing import Any

import asyncssh

from hexwar.paths import data_dir  # noqa: F401  (net modules and tests take it from here)

from .errors import HostKeyChanged

CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: easy to read out loud


def secure_dir(path: Path) -> Path:
    """Create ``path`` if needed and make it the owner's alone (0700): it holds keys and journals."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    if path.stat().st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def open_private(path: str | Path, mode: str = "w") -> Any:
    """Open a file for writing that only its owner may read (0600, also when it already existed)."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if "a" in mode else os.O_TRUNC)
    fd = os.open(str(path), flags, 0o600)
    os.fchmod(fd, 0o600)
    return os.fdopen(fd, mode)


def load_or_create_key(path: Path) -> asyncssh.SSHKey:
    """The private key at ``path``, generated (Ed25519, mode 0600) the first time."""
    if path.exists():
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519", comment=f"hexwar {path.stem}")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(str(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    return key


def host_key(home: Path) -> asyncssh.SSHKey:
    return load_or_create_key(home / "host_key")


def guest_key(home: Path) -> asyncssh.SSHKey:
    return load_or_create_key(home / "guest_key")


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


def public_line(key: asyncssh.SSHKey) -> str:
    """OpenSSH one-line public key, without comment."""
    return key.export_public_key("openssh").decode().split()[0] + " " + \
        key.export_public_key("openssh").decode().split()[1]


def import_public(text: str) -> asyncssh.SSHKey | None:
    try:
        return asyncssh.import_public_key(text)
    except (asyncssh.KeyImportError, ValueError):
        return None


def _host_id(host: str, port: int) -> str:
    return host if port == 22 else f"[{host}]:{port}"


class KnownHosts:
    """``known_hosts`` in the data dir: ``[host]:port keytype base64`` lines."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _entries(self) -> dict[str, str]:
        out: dict[str, str] = {}
        if self.path.exists():
            for line in self.path.read_text().splitlines():
                parts = line.split()
                if len(parts) >= 3 and not line.startswith("#"):
                    out[parts[0]] = f"{parts[1]} {parts[2]}"
        return out

    def lookup(self, host: str, port: int) -> asyncssh.SSHKey | None:
        line = self._entries().get(_host_id(host, port))
        return import_public(line) if line else None

    def check(self, host: str, port: int, key: asyncssh.SSHKey) -> bool:
        """True if ``key`` is the remembered key; False if the host is new (caller may add it).
        Raises ``HostKeyChanged`` with OpenSSH's warning when a different key was remembered."""
        known = self.lookup(host, port)
        if known is None:
            return False
        if public_line(known) == public_line(key):
            return True
        raise HostKeyChanged(
            "WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!\n"
            "IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!\n"
            f"The host key for {_host_id(host, port)} is now {fingerprint(key)};\n"
            f"it was {fingerprint(known)} when you last played there.\n"
            f"Refusing to connect. If the host really changed its key, remove the line for "
            f"{_host_id(host, port)} from {self.path}.")

    def add(self, host: str, port: int, key: asyncssh.SSHKey) -> None:
        secure_dir(self.path.parent)
        with open_private(self.path, "a") as f:
            f.write(f"{_host_id(host, port)} {public_line(key)}\n")


def new_code(groups: int = 3, size: int = 4) -> str:
    """A one-time code like ``k7dp-3xq9-mm2f`` (60 bits): short enough to read out, too long to guess."""
    return "-".join("".join(secrets.choice(CODE_ALPHABET) for _ in range(size)) for _ in range(groups))


MIN_CODE_CHARS = 10     # a chosen code: at least this many letters and digits ...
MIN_CODE_DISTINCT = 6   # ... of at least this many different ones (a random code has 60 bits)


class WeakCode(ValueError):
    """A chosen invite or watch code that would be too easy to guess."""


def normal_code(text: str) -> str:
    """How a code is compared: case, spaces and dashes do not matter (people read codes aloud)."""
    return "".join(c for c in text.lower() if c not in " -_\t")


def check_code(code: str) -> str:
    """``code`` if it is hard enough to guess, else ``WeakCode`` saying what it needs."""
    plain = normal_code(code)
    if len(plain) < MIN_CODE_CHARS or len(set(plain)) < MIN_CODE_DISTINCT:
        raise WeakCode(f"the code {code!r} is too easy to guess: use at least {MIN_CODE_CHARS} letters "
                       f"or digits with {MIN_CODE_DISTINCT} different ones, or let hexwar choose one")
    return code


class Invite:
    """A code that is accepted until ``use`` is called (the guest seat is then bound to a key).
    A chosen code is checked for strength; case, spaces and dashes never matter."""

    def __init__(self, code: str | None = None, reusable: bool = False) -> None:
        self.code = check_code(code) if code else new_code()
        self._plain = normal_code(self.code).encode()
        self.reusable = reusable
        self.used = False

    def matches(self, attempt: str) -> bool:
        if self.used:
            return False
        return hmac.compare_digest(normal_code(attempt[:256]).encode(), self._plain)

    def use(self) -> None:
        if not self.reusable:
            self.used = True
