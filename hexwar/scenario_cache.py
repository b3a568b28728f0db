"""Parsed scenario text kept on disk, so replaying a journal need not parse its TOML again.

Every journal carries its scenario's full text, and most journals of one scenario carry the
same text. Parsing that text (and importing ``tomllib`` to do it) is about a sixth of a one-shot
``hexwar replay``'s own cost. The first replay stores what the parse gave, as ``marshal`` data
(dicts, lists, strings, numbers, booleans) in a file named after a hash of the exact text. Later
replays of that text read the file back instead of parsing.

The cache changes speed, never a result:

- the file is found by BLAKE2b-256 of the text, and the file holds that hash again, so a file
  copied or renamed to another text's name is not used;
- the file holds a BLAKE2b-256 of its own contents, so a cut-short or damaged file is not used;
- the file names its format version, and the Python version is part of its name (``tomllib``
  and ``marshal`` belong to the interpreter);
- what comes back is checked by the loader exactly as freshly parsed TOML is;
- any file that is missing, damaged, unreadable or unwritable means the text is parsed as
  before. Nothing here raises.
"""

from __future__ import annotations

import marshal
import os
import sys
from pathlib import Path
from typing import Any

from hexwar.engine.blake import blake2b

#: bumped whenever the file layout or the meaning of what is stored changes
FORMAT = 1
_MAGIC = b"hexwar parsed scenario\n"
_HEAD = len(_MAGIC) + 1 + 32 + 32  # magic, format, hash of the text, hash of the payload
_PYTHON = f"py{sys.version_info[0]}{sys.version_info[1]}"
#: the most files kept; the oldest go first (a file is a few tens of kB)
MAX_FILES = 64
#: marshal's format 4 (Python 3.4 and later)
_MARSHAL_VERSION = 4


def default_dir() -> Path:
    """``$HEXWAR_HOME/cache/scenarios``, else ``$XDG_CACHE_HOME/hexwar/scenarios``, else
    ``~/.cache/hexwar/scenarios``: a cache, so not beside the keys and journals."""
    if os.environ.get("HEXWAR_HOME"):
        return Path(os.environ["HEXWAR_HOME"]) / "cache" / "scenarios"
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "hexwar" / "scenarios"
    return Path.home() / ".cache" / "hexwar" / "scenarios"


def _text_key(text: str) -> bytes:
    return blake2b(text.encode("utf-8"), digest_size=32, person=b"hexwar-scn-text").digest()


def _payload_hash(key: bytes, payload: bytes) -> bytes:
    return blake2b(key + payload, digest_size=32, person=b"hexwar-scn-data").digest()


def _file(folder: Path, key: bytes) -> Path:
    return folder / f"{key.hex()}-{_PYTHON}.toml.marshal"


def load(text: str, folder: Path) -> dict[str, Any] | None:
    """The parsed form of ``text`` stored earlier in ``folder``, or None (not stored, or the
    file fails any of its checks)."""
    key = _text_key(text)
    try:
        with open(_file(folder, key), "rb") as f:
            blob = f.read()
    except (OSError, ValueError):
        return None
    if (len(blob) <= _HEAD or not blob.startswith(_MAGIC) or blob[len(_MAGIC)] != FORMAT
            or blob[len(_MAGIC) + 1:len(_MAGIC) + 33] != key):
        return None
    payload = blob[_HEAD:]
    if blob[len(_MAGIC) + 33:_HEAD] != _payload_hash(key, payload):
        return None
    try:
        data = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    return data if type(data) is dict else None


def store(text: str, data: dict[str, Any], folder: Path) -> bool:
    """Keep ``data``, the parse of ``text``, in ``folder``. Written to a temporary name and then
    renamed, so a reader never sees half a file. False when it could not be stored (data that
    ``marshal`` refuses, such as a TOML date, or a folder that cannot be written)."""
    try:
        payload = marshal.dumps(data, _MARSHAL_VERSION)
    except ValueError:
        return False
    key = _text_key(text)
    final = _file(folder, key)
    tmp = folder / f".{final.name}.{os.getpid()}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_MAGIC + bytes([FORMAT]) + key + _payload_hash(key, payload) + payload)
            os.replace(tmp, final)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        _prune(folder)
    except OSError:
        return False
    return True


def _prune(folder: Path) -> None:
    """Drop the oldest files past ``MAX_FILES`` (by modification time, then name)."""
    files = []
    with os.scandir(folder) as it:
        for entry in it:
            if entry.name.endswith(".toml.marshal") and entry.is_file():
                files.append((entry.stat().st_mtime_ns, entry.name))
    if len(files) > MAX_FILES:
        files.sort()
        for _, name in files[: len(files) - MAX_FILES]:
            try:
                os.unlink(folder / name)
            except OSError:
                pass
