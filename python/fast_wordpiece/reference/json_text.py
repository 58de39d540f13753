"""JSON text as the engine reads it (spec section 8): with Rust's ``serde_json``, which refuses
what Python's ``json.loads`` takes beyond JSON: the constants ``NaN``, ``Infinity`` and
``-Infinity``, and a string escaped as a lone surrogate (``"\\ud800"``, or a leading surrogate
not followed by a trailing one). Refused here as the engine refuses them, in its words and at its
position (``expected value at line 1 column 9``), so that a reader's ``not JSON: <reason>`` is the
engine's. Other JSON that is not valid keeps Python's reason.
"""

from __future__ import annotations

import json
import re
from typing import Any


class NotJson(json.JSONDecodeError):
    """JSON the engine's parser refuses where Python's reads it; its str is ``serde_json``'s
    message (``"<reason> at line <l> column <c>"``). ``surrogate``: the reason is a lone surrogate
    escape (the engine's first look at a file, which skips strings, does not see it)."""

    def __init__(self, msg: str, doc: str, pos: int, surrogate: bool = False) -> None:
        super().__init__(msg, doc, pos)
        self.surrogate = surrogate

    def __str__(self) -> str:
        return self.msg

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.msg, self.doc, self.pos, self.surrogate)


class _Constant(Exception):
    """``NaN``, ``Infinity`` or ``-Infinity`` met by ``json.loads``."""


def _constant(name: str) -> Any:
    raise _Constant(name)


#: A JSON string (group 1 its body; the closing quote may lie past where the scan stops), or
#: (group 2) a constant outside strings.
_STRING_OR_CONSTANT = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"?|(-?Infinity|NaN)', re.S)
#: An escape in a string, with (group 1) the hex digits of a ``\u`` escape.
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.S)
_HEX = re.compile(r"[0-9a-fA-F]{4}")
#: A ``\u`` escape of a surrogate, leading or trailing (a quick look before a full scan).
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def loads(text: str, *, lone_surrogates: bool = False, **kwargs: Any) -> Any:
    """``json.loads(text, **kwargs)``, but JSON the engine refuses (see the module) is a
    :class:`NotJson` (a ``json.JSONDecodeError``) with the engine's reason, the first in the text
    as the engine meets it; ``lone_surrogates``: a lone surrogate escape is read (as
    ``json.loads`` reads it)."""
    try:
        value = json.loads(text, parse_constant=_constant, **kwargs)
    except _Constant:
        found = _first_refused(text, len(text), lone_surrogates, constants=True)
        raise found or _error("expected value", text, 0, 1) from None  # found: json.loads met one
    except json.JSONDecodeError as e:
        # The engine stops at a lone surrogate escape before the place Python's parser stopped
        # (in a string Python finds unterminated, which runs to the end, and in a `\u` escape Python
        # refuses as too short before the end, too).
        end = len(text) if e.msg.startswith("Unterminated string") else e.pos
        if e.msg.startswith("Invalid \\uXXXX escape"):
            end = min(len(text), e.pos + 5)
        found = None if lone_surrogates else _first_refused(text, end, lone_surrogates, constants=False)
        if found is not None:
            raise found from None
        raise
    if not lone_surrogates and _SURROGATE.search(text) and _holds_surrogate(value):
        found = _first_refused(text, len(text), lone_surrogates, constants=False)
        if found is not None:
            raise found
    return value


def _holds_surrogate(value: Any) -> bool:
    """Whether a str in ``value`` (``json.loads``' result: its keys too) holds a surrogate, which
    only a lone surrogate escape gives (a pair is read as one character): the text is then
    scanned for the escape's place, and not when every escape is half of a pair."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _first_refused(text: str, end: int, lone_surrogates: bool, *, constants: bool) -> NotJson | None:
    """The engine's error for the first lone surrogate escape (unless ``lone_surrogates``) or,
    with ``constants``, constant that starts before ``end`` in ``text``, which parses as JSON up to
    there; None if there is none."""
    scan_strings = not lone_surrogates and _SURROGATE.search(text, 0, end) is not None
    for match in _STRING_OR_CONSTANT.finditer(text, 0, end):
        if match.group(2) is not None:
            if not constants:
                continue
            start = match.start()
            if match.group(2) == "-Infinity":  # serde_json reads "-" and then "I", no digit
                return _error("invalid number", text, start + 1, 1)
            return _error("expected value", text, start, 1)  # at the first character, not read
        if scan_strings:
            found = _lone_surrogate(text, *match.span(1))
            if found is not None:
                return found
    return None


def _lone_surrogate(text: str, start: int, end: int) -> NotJson | None:
    """The engine's error for the first lone surrogate escape of the string body
    ``text[start:end]``, as ``serde_json`` reads escapes; None if there is none."""
    at = start
    while (escape := _ESCAPE.search(text, at, end)) is not None:
        at = escape.end()
        if escape.group(1) is None:
            continue
        n = int(escape.group(1), 16)
        if 0xDC00 <= n <= 0xDFFF:  # a trailing surrogate first (serde_json calls it "leading")
            return _error("lone leading surrogate in hex escape", text, at, 0, surrogate=True)
        if not 0xD800 <= n <= 0xDBFF:
            continue
        # A leading surrogate: serde_json reads the next character, then the next, as `\u`
        # (the end of the text, or hex digits that are not, are Python's errors here).
        if at >= len(text):
            return None
        if text[at] != "\\":
            return _error("unexpected end of hex escape", text, at, 1, surrogate=True)
        if at + 1 >= len(text):
            return None
        if text[at + 1] != "u":
            return _error("unexpected end of hex escape", text, at + 1, 1, surrogate=True)
        digits = text[at + 2 : at + 6]
        if not _HEX.fullmatch(digits):
            return None
        low = int(digits, 16)
        at += 6
        if not 0xDC00 <= low <= 0xDFFF:
            return _error("lone leading surrogate in hex escape", text, at, 0, surrogate=True)
    return None


def _error(reason: str, text: str, index: int, more_bytes: int, *, surrogate: bool = False) -> NotJson:
    """``serde_json``'s error at its reading position: ``more_bytes`` bytes past the character
    ``index`` of ``text``; the line counts from 1, the column is the bytes read on that line."""
    if more_bytes and text[index : index + 1] == "\n":  # a new line read: its column 0
        index, more_bytes = index + 1, 0
    line_start = text.rfind("\n", 0, index) + 1
    line = text.count("\n", 0, line_start) + 1
    column = len(text[line_start:index].encode("utf-8", "surrogatepass")) + more_bytes
    return NotJson(f"{reason} at line {line} column {column}", text, index, surrogate)


def float_text(value: float) -> str:
    """A float as ``serde_json`` writes one: Python's ``repr`` without leading zeros in the
    exponent (``1e-7``, not ``1e-07``)."""
    return re.sub(r"e([+-])0*(?=[0-9])", r"e\g<1>", repr(value))


def shown(value: Any) -> str:
    """A JSON value as the engine shows it in a message (``serde_json``'s compact text): no spaces,
    characters beyond ASCII as they are, floats as ``float_text`` writes them."""
    if isinstance(value, float):
        return float_text(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k, ensure_ascii=False)}:{shown(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(shown(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)
