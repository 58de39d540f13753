"""Atomic file writes, as the engine makes them: a temporary file beside the target, then a rename."""

from __future__ import annotations

import contextlib
import os
import stat
import uuid
from collections.abc import Callable
from typing import TypeVar

from fast_wordpiece.reference.args import _path, _type_name

_T = TypeVar("_T")

# Links followed before a save gives up, as the operating system does (Linux's limit).
MAX_LINKS = 40


def write_atomic(path: str, data: bytes) -> None:
    """Writes ``data`` to ``path`` so that a reader sees the old file or the new one, never a torn one.

    The temporary file is this call's own (a random name, created exclusively), so threads and
    processes saving to one path at once never share one. The save goes where opening ``path``
    would: through symbolic links to the file they name (the links stay), keeping an existing
    file's permission bits; a FIFO or a device (``/dev/null``) is written directly."""
    target = _resolve_links(path)
    mode = None
    try:
        st = os.stat(target)
    except FileNotFoundError:
        pass
    else:
        if stat.S_ISREG(st.st_mode):
            mode = stat.S_IMODE(st.st_mode)
        elif not stat.S_ISDIR(st.st_mode):
            with open(target, "wb") as f:
                f.write(data)
            return
    directory, name = os.path.split(target.rstrip("/") or target)
    if name in ("", "..", "/"):
        raise ValueError(f"{path}: not a file path")
    temporary = os.path.join(directory, f".{name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
    try:
        with open(temporary, "xb") as f:
            if mode is not None:
                os.chmod(temporary, mode)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, target)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        # The error names the path saved to, not the temporary file.
        raise (type(e)(e.errno, e.strerror, path) if e.errno else e) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise


def _resolve_links(path: str) -> str:
    """The path a write to ``path`` would open: ``path`` unless it is a symbolic link, else what the links
    name, followed one by one (a link to a missing file gives that file's path). Too many links, or a
    loop, is the OSError the operating system gives for it."""
    current = path
    for _ in range(MAX_LINKS):
        if not os.path.islink(current):
            return current
        current = os.path.join(os.path.dirname(current), os.readlink(current))
    os.stat(path)  # raises the operating system's error for a loop
    raise OSError(f"{path}: too many levels of symbolic links")


def paths_arg(value: object) -> list[str]:
    """The ``paths`` of a ``train_from_files``, as the engine reads them: one path (``_path``: a
    str, bytes or an ``os.PathLike``) or an iterable of paths; TypeError naming the argument or the
    item otherwise, ValueError for a NUL character."""
    if isinstance(value, (str, bytes, os.PathLike)):
        return [_path(value, "paths")]
    if isinstance(value, (bytearray, memoryview)):  # no path (nor to open), and they iterate as ints
        raise TypeError(f"paths must be a path or a list of paths, not {_type_name(value)}")
    try:
        items = iter(value)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"paths must be a path or a list of paths, not {_type_name(value)}") from None
    return [_path(item, f"paths[{i}]") for i, item in enumerate(items)]


def read_utf8(path: str) -> str:
    """The text of a UTF-8 file, as the engine reads one: OSError if it cannot be read, ValueError
    (``"<path>: not UTF-8 text (invalid byte at offset <n>)"``) if it is not UTF-8."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not UTF-8 text (invalid byte at offset {e.start})") from None


def load_parsed(path: str, parse: Callable[[str], _T]) -> _T:
    """``parse`` of the text of the UTF-8 file at ``path`` (``read_utf8``), as every ``load`` and
    ``from_file`` of the engine reads one: a ValueError ``parse`` raises names the file
    (``"<path>: <message>"``)."""
    text = read_utf8(path)
    try:
        return parse(text)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


def lines(text: str) -> list[str]:
    """The lines of ``text`` as Rust's ``str::lines`` cuts them: at ``"\\n"``, a ``"\\r"`` before
    it dropped; a line break at the end starts no further line."""
    parts = text.split("\n")
    last = parts.pop()
    return [p.removesuffix("\r") for p in parts] + ([last] if last else [])
