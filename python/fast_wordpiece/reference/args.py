"""Spec section 8: argument checks, TypeError for a wrong type and ValueError for a wrong value."""

from __future__ import annotations

import builtins
import contextlib
import operator
import os
from collections.abc import Iterator
from typing import Any

from fast_wordpiece.reference.common import DEFAULT_SPECIAL_TOKENS


def _type_name(value: object) -> str:
    """The name of a value's type, for errors; a type named as a builtin type but defined
    elsewhere has its module too (``numpy.bool``, not ``bool``, for a numpy bool scalar)."""
    kind = type(value)
    module = getattr(kind, "__module__", None)
    if module and module != "builtins" and hasattr(builtins, kind.__name__):
        return f"{module}.{kind.__name__}"
    return kind.__name__


def _text(value: object, name: str) -> str:
    """A str that is valid Unicode text (no lone surrogate)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be str, not {_type_name(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"{name} contains a lone surrogate at index {e.start}, which is not valid text") from None
    return value


def _items(value: object, name: str, of: str) -> Iterator[Any]:
    """The items of a collection argument; a str or bytes is not a collection here."""
    if not isinstance(value, (str, bytes, bytearray)):
        with contextlib.suppress(TypeError):
            return iter(value)  # type: ignore[call-overload, no-any-return]
    raise TypeError(f"{name} must be an iterable of {of}, not {_type_name(value)}")


def _texts(value: object, name: str) -> list[str]:
    return [_text(item, f"{name}[{i}]") for i, item in enumerate(_items(value, name, "str"))]


#: The engine's limit on ``num_threads`` (``src/threads.rs``).
MAX_THREADS = 1024


def _integer(value: object, name: str, minimum: int) -> int:
    """An int, not a bool, at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be int, not {_type_name(value)}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def _flag(value: object, name: str) -> bool:
    """A bool or a numpy bool scalar (not an int or anything else truthy)."""
    if isinstance(value, bool):
        return value
    kind = type(value)
    if kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_"):
        return bool(value)
    raise TypeError(f"{name} must be bool, not {_type_name(value)}")


def _is_one_id(value: object) -> bool:
    """One id rather than a sequence of them: an int (a bool too, which the id check then
    rejects) or an integer scalar that converts to an int as an index does (numpy's
    ``int64``, a 0-d integer array)."""
    if isinstance(value, int):
        return True
    if isinstance(value, (list, tuple)):
        return False
    try:
        operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return False
    return True


def _special_tokens(value: object) -> tuple[str, ...]:
    """Distinct non-empty strings; None stands for the defaults."""
    tokens = DEFAULT_SPECIAL_TOKENS if value is None else tuple(_texts(value, "special_tokens"))
    for i, token in enumerate(tokens):
        if not token:
            raise ValueError("special tokens must not be empty strings")
        if token in tokens[:i]:
            raise ValueError(f"special token {token!r} is listed twice")
    return tokens


def _path(value: object) -> str:
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"path must be str or os.PathLike, not {_type_name(value)}")
    return os.fspath(value)


def _vocab_ids(tokens: list[str], holes: frozenset[int] = frozenset()) -> dict[str, int]:
    """``{token: id}``, the id being the position (``holes`` left out); a repeated token is a ValueError."""
    ids: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if i not in holes and ids.setdefault(token, i) != i:
            raise ValueError(f"duplicate token {token!r} at ids {ids[token]} and {i}")
    return ids
