"""Issue 36: the common SSH clients reach ``hexwar serve``. Dropbear's ``dbclient`` sends its first
key-exchange packet before it knows the server's choice (``first_kex_packet_follows``), guessing
``curve25519-sha256``; the server lists that first, so the guess holds and the exchange goes on.
A raw client here sends exactly such a guessed packet; the real ``dbclient`` and PuTTY's ``plink``
(when installed: packages dropbear-bin, putty-tools) reach the menu over a pseudo-terminal."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import struct
import subprocess

import asyncssh
import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from hexwar.net.serve import Limits, Server

MSG_KEXINIT, MSG_NEWKEYS, MSG_KEX_ECDH_INIT, MSG_KEX_ECDH_REPLY = 20, 21, 30, 31


@pytest.fixture
async def server(tmp_path):
    srv = await Server(tmp_path / "serve", Limits(per_address=8)).start("127.0.0.1", 0)
    yield srv
    await srv.close()


def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def _packet(payload: bytes) -> bytes:
    """An unencrypted SSH binary packet (RFC 4253 6): length, padding length, payload, padding."""
    pad = 8 - (len(payload) + 5) % 8
    pad += 8 if pad < 4 else 0
    return struct.pack(">IB", len(payload) + pad + 1, pad) + payload + bytes(pad)


def _read_packet(sock: socket.socket) -> bytes:
    def exactly(n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data
    length, pad = struct.unpack(">IB", exactly(5))
    body = exactly(length - 1)
    return body[:len(body) - pad]


def _name_lists(kexinit: bytes) -> list[list[bytes]]:
    at, lists = 17, []   # message number and cookie first
    for _ in range(10):
        (n,) = struct.unpack(">I", kexinit[at:at + 4])
        lists.append(kexinit[at + 4:at + 4 + n].split(b","))
        at += 4 + n
    return lists


def _guessing_client(port: int) -> tuple[bytes, list[int]]:
    """Dropbear's opening: version, a KEXINIT saying a guessed packet follows, the guessed
    curve25519 ECDH_INIT at once; like Dropbear, it judges its guess by RFC 4253 7.1 (wrong when
    the server's first kex method is another) and then sends ECDH_INIT again. Returns the
    server's first kex method and the messages it answers with."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"SSH-2.0-guesser_1.0\r\n")
        line = b""
        while not line.endswith(b"\n"):
            line += sock.recv(1)
        assert line.startswith(b"SSH-2.0-")
        server_kexinit = _read_packet(sock)
        assert server_kexinit[0] == MSG_KEXINIT
        server_first = _name_lists(server_kexinit)[0][0]
        lists = [b"curve25519-sha256", b"ssh-ed25519", b"aes128-ctr", b"aes128-ctr", b"hmac-sha2-256",
                 b"hmac-sha2-256", b"none", b"none", b"", b""]
        kexinit = bytes([MSG_KEXINIT]) + os.urandom(16) + b"".join(_string(n) for n in lists) + b"\x01" + bytes(4)
        public = X25519PrivateKey.generate().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        init = _packet(bytes([MSG_KEX_ECDH_INIT]) + _string(public))
        sock.sendall(_packet(kexinit) + init)
        if server_first != lists[0]:   # a wrong guess by the RFC's rule: Dropbear sends it again
            sock.sendall(init)
        return server_first, [_read_packet(sock)[0], _read_packet(sock)[0]]   # ECDH_REPLY, NEWKEYS


async def test_a_guessed_curve25519_key_exchange_packet_is_answered(server):
    first, answers = await asyncio.to_thread(_guessing_client, server.port)
    assert first == b"curve25519-sha256"   # so Dropbear's guess is right by its own rule too
    assert answers == [MSG_KEX_ECDH_REPLY, MSG_NEWKEYS]


def _openssh_key(tmp_path, name: str):
    key = asyncssh.generate_private_key("ssh-ed25519")
    path = tmp_path / name
    key.write_private_key(str(path))
    os.chmod(path, 0o600)
    return key, path


def _menu_over_pty(argv: list[str], tmp_path) -> bytes:
    """Run a client on a pseudo-terminal (it wants one, as a player's would) until the menu shows,
    then quit with ctrl+q. Returns everything it printed."""
    import pty
    import select
    import time
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ["HOME"] = str(tmp_path)
        os.execvp(argv[0], argv)
    seen, deadline, quit_sent = b"", time.monotonic() + 60, False
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            if b"playing as" in seen and not quit_sent:
                os.write(fd, b"\x11")   # ctrl+q
                quit_sent = True
    finally:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    return seen


@pytest.mark.skipif(shutil.which("dbclient") is None or shutil.which("dropbearconvert") is None,
                    reason="needs Dropbear's dbclient and dropbearconvert (dropbear-bin)")
async def test_dropbear_dbclient_reaches_the_menu(server, tmp_path):
    _, openssh = _openssh_key(tmp_path, "id_db")
    path = tmp_path / "id_db.dropbear"   # this dbclient reads its own key format only
    subprocess.run(["dropbearconvert", "openssh", "dropbear", str(openssh), str(path)], check=True,
                   capture_output=True, timeout=30)
    seen = await asyncio.to_thread(_menu_over_pty, ["dbclient", "-y", "-y", "-t", "-i", str(path),
                                                    "-p", str(server.port), "dora@127.0.0.1"], tmp_path)
    assert b"playing as dora" in seen, seen[-400:]


@pytest.mark.skipif(shutil.which("plink") is None or shutil.which("puttygen") is None,
                    reason="needs PuTTY's plink and puttygen (putty-tools)")
async def test_putty_plink_reaches_the_menu(server, tmp_path):
    _, path = _openssh_key(tmp_path, "id_pl")
    ppk = tmp_path / "id_pl.ppk"
    subprocess.run(["puttygen", str(path), "-O", "private", "-o", str(ppk)], check=True, capture_output=True,
                   timeout=30)
    host_fp = server.key.get_fingerprint("sha256")
    seen = await asyncio.to_thread(_menu_over_pty, ["plink", "-ssh", "-batch", "-t", "-hostkey", host_fp,
                                                    "-i", str(ppk), "-P", str(server.port), "pat@127.0.0.1"],
                                   tmp_path)
    assert b"playing as pat" in seen, seen[-400:]
