"""The twin of ``src/unigram/normalizer.rs``: the normalizers of tokenizer.json files converted
from SentencePiece models (``Precompiled``, ``Replace``, ``Strip``, ALBERT's and XLNet's ``NFKD``,
``StripAccents`` and ``Lowercase``, DeBERTa-v2's and Barthez's ``NFC`` and ``Replace`` of the regex
``\\s{2,}|[\\n\\r\\t]``, and a ``Sequence`` of them).

Each character of the normalized text keeps the span ``(start, end)`` of original characters it
stands for, moved along as Hugging Face's ``NormalizedString`` moves its alignments, so that
token offsets point where theirs do.

The ``Precompiled`` normalizer reads SentencePiece's ``precompiled_charsmap``: a little-endian
u32 byte size of a double-array trie, the trie's u32 units, then the normalized strings, each
ending in a NUL byte. The trie maps the UTF-8 bytes of a piece of text to the offset of its
normalized string. Text is looked up by grapheme cluster (the third-party ``regex`` module's
``\\X``, which transformers requires as well), as Hugging Face's normalizer looks it up.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import struct
import unicodedata
from collections.abc import Iterable
from functools import cache
from typing import Any

from fast_wordpiece import _unicode_tables
from fast_wordpiece.reference.args import _quoted
from fast_wordpiece.reference.normalizer import _nfd, canonical_order, combining_class, lowercase
from fast_wordpiece.reference.unicode import MARK

#: Unicode White_Space, what Rust's ``char::is_whitespace`` (and so ``Strip``) takes.
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000" + "".join(chr(c) for c in range(0x2000, 0x200B))
)

Span = tuple[int, int]


class Aligned:
    """Text being normalized: its characters and, for each, the original span it stands for."""

    def __init__(self, text: str, char_start: int) -> None:
        self.chars = list(text)
        self.align: list[Span] = [(char_start + i, char_start + i + 1) for i in range(len(text))]

    def transform(self, start: int, end: int, new: Iterable[tuple[str, int]]) -> None:
        """Replaces the characters ``start:end`` by ``new``, each with its change: 0 takes the
        place (and the span) of the next old character, ``-n`` does that and drops the ``n`` old
        characters after it, 1 is a new character with the span of the old character before
        it."""
        nxt = start

        def span(i: int) -> Span:
            if i < len(self.align):
                return self.align[i]
            return self.align[-1] if self.align else (0, 0)

        chars: list[str] = []
        align: list[Span] = []
        for c, change in new:
            if change > 0:
                a = (0, 0) if nxt == 0 else span(nxt - 1)
            else:
                a = span(nxt)
                nxt += 1 + abs(change)
            chars.append(c)
            align.append(a)
        self.chars[start:end] = chars
        self.align[start:end] = align

    def replace(self, matches: list[Span], content: str) -> None:
        """Replaces each of the ranges ``matches`` (in order, not overlapping, none empty) by
        ``content``, whose characters all take the span of the range's last character: the new
        text is built in one pass."""
        if not matches:
            return
        chars: list[str] = []
        align: list[Span] = []
        new = list(content)
        start = 0
        for s, e in matches:
            chars += self.chars[start:s]
            align += self.align[start:s]
            chars += new
            align += [self.align[e - 1]] * len(new)
            start = e
        chars += self.chars[start:]
        align += self.align[start:]
        self.chars, self.align = chars, align

    def text(self) -> str:
        return "".join(self.chars)


class Charsmap:
    """SentencePiece's ``precompiled_charsmap``: a double-array trie and normalized strings."""

    def __init__(self, data: bytes) -> None:
        if len(data) < 4:
            raise ValueError("too short")
        (size,) = struct.unpack_from("<I", data)
        count = size // 4
        if len(data) < 4 + 4 * count:
            raise ValueError("too short")
        self.units = struct.unpack_from(f"<{count}I", data, 4)
        self.normalized = data[4 + 4 * count :]
        self.normalized.decode("utf-8")  # valid UTF-8, or ValueError
        if not self._sound():
            raise ValueError("a lookup would leave the charsmap")

    def _sound(self) -> bool:
        """Whether every lookup stays inside the charsmap: from each node (a unit whose bit 31
        is clear; a set bit 31 marks a value), the 256 units at its index XOR its offset are in
        the array, and a has-leaf node's value there is an offset into the strings, at a
        character."""
        units, strings = self.units, self.normalized

        def offset(unit: int) -> int:
            return (unit >> 10) << ((unit & (1 << 9)) >> 6)

        def at_char(v: int) -> bool:
            return v == len(strings) or (v < len(strings) and strings[v] & 0xC0 != 0x80)

        if not units or units[0] >> 31:
            return False
        for i, u in enumerate(units):
            if u >> 31:
                continue
            base = i ^ offset(u)
            if (base | 0xFF) >= len(units) or ((u >> 8) & 1 and not at_char(units[base] & 0x7FFFFFFF)):
                return False
        return True

    def _prefix_values(self, key: bytes) -> list[int]:
        """The values of the keys that are prefixes of ``key``, shortest first: the walk of a
        darts-clone double array (a unit holds its label in the low byte, a has-leaf bit 8, and
        an offset to its children in bits 10 and up, shifted 8 more when bit 9 is set; a leaf
        unit holds a 31-bit value)."""

        def offset(unit: int) -> int:
            return (unit >> 10) << ((unit & (1 << 9)) >> 6)

        out: list[int] = []
        node = offset(self.units[0])
        for byte in key:
            if byte == 0:
                break
            node ^= byte
            unit = self.units[node]
            if unit & ((1 << 31) | 0xFF) != byte:
                return out
            node ^= offset(unit)
            if (unit >> 8) & 1:
                out.append(self.units[node] & ((1 << 31) - 1))
        return out

    def lookup(self, piece: str) -> str | None:
        """The normalized string of the shortest key that starts ``piece``, or None."""
        found = self._prefix_values(piece.encode("utf-8"))
        if not found:
            return None
        start = found[0]
        end = self.normalized.find(b"\0", start)
        return self.normalized[start : len(self.normalized) if end < 0 else end].decode("utf-8")


def _graphemes(text: str) -> list[str]:
    import regex  # transformers' dependency, needed here only

    return list(regex.findall(r"\X", text))


def _rewrite(new: list[tuple[str, int]], old: str, to: str) -> None:
    """Appends the changes that turn ``old`` into ``to``: the new characters take the old ones'
    places in order; any beyond them are new (the last ones); old ones beyond the new are
    dropped after the last character so far."""
    grown = len(to) - len(old)
    new.extend((c, 0) for c in to)
    if grown > 0:
        for k in range(len(new) - grown, len(new)):
            new[k] = (new[k][0], 1)
    elif grown < 0 and new:
        new[-1] = (new[-1][0], new[-1][1] + grown)


def _precompiled(charsmap: Charsmap, text: Aligned) -> None:
    """SentencePiece's normalization as Hugging Face's ``Precompiled`` does it: a grapheme
    cluster shorter than 6 bytes is looked up whole, else character by character."""
    new: list[tuple[str, int]] = []
    changed = False
    for g in _graphemes(text.text()):
        if len(g.encode("utf-8")) < 6:
            to = charsmap.lookup(g)
            if to is not None:
                changed = True
                _rewrite(new, g, to)
                continue
        for c in g:
            to = charsmap.lookup(c)
            if to is None:
                new.append((c, 0))
            else:
                changed = True
                _rewrite(new, c, to)
    if changed:
        text.transform(0, len(text.chars), new)


#: Oniguruma's ``\s`` on UTF-8 text, as Hugging Face's ``Regex`` runs it: the 25 ``White_Space``
#: characters (not Python's ``\s``, which adds U+001C..U+001F).
REGEX_SPACE = WHITE_SPACE

#: Oniguruma's largest repeat count: a larger one is an error there.
MAX_REPEAT = 100_000

#: The one-character escapes of a regex item, besides ``\s`` and escaped punctuation or space.
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r"}


def _regex_item(r: str, i: int) -> tuple[str, int]:
    """The characters of the regex item at ``r[i]`` (``\\s`` is all of :data:`REGEX_SPACE`) and
    where the next one starts: see :func:`_regex`. ValueError when it is not one."""
    c = r[i : i + 1]
    if c == "\\":
        e = r[i + 1 : i + 2]
        if e == "s":
            return "".join(sorted(REGEX_SPACE)), i + 2
        if e in _ESCAPES:
            return _ESCAPES[e], i + 2
        if e == " " or (e.isascii() and e != "" and not e.isalnum() and e.isprintable()):
            return e, i + 2
        raise ValueError
    if c != "" and (c == " " or not c.isascii() or c.isalnum()):
        return c, i + 1
    raise ValueError


def _regex(r: str) -> re.Pattern[str]:
    r"""The regex ``r`` of the supported shape, as a Python regex whose ``\s`` is Oniguruma's::

        regex       = alternative ("|" alternative)*
        alternative = atom ("+" | "{" digits ",}")?        digits: 1 to 100000
        atom        = item | "[" item+ "]"
        item        = "\s" | "\t" | "\n" | "\r" | "\" (ASCII punctuation or space)
                    | an ASCII letter or digit, a space, or any non-ASCII character

    Python's ``re``, like Oniguruma, tries the alternatives in order at each position and takes
    the first that matches there; a repeat takes the longest run. ValueError for any other
    regex."""
    alternatives: list[str] = []
    i = 0
    while True:
        chars = ""
        if r[i : i + 1] == "[":
            i += 1
            while r[i : i + 1] != "]":
                item, i = _regex_item(r, i)
                chars += item
            i += 1
            if not chars:
                raise ValueError
        else:
            chars, i = _regex_item(r, i)
        quantifier = ""
        if r[i : i + 1] == "+":
            quantifier, i = "+", i + 1
        elif r[i : i + 1] == "{":
            close = r.find(",}", i)
            digits = r[i + 1 : close] if close > 0 else ""
            if not (digits.isascii() and digits.isdigit() and 1 <= int(digits) <= MAX_REPEAT):
                raise ValueError
            quantifier, i = f"{{{int(digits)},}}", close + 2
        alternatives.append("[" + "".join(f"\\U{ord(c):08x}" for c in chars) + "]" + quantifier)
        if i == len(r):
            return re.compile("|".join(alternatives))
        if r[i] != "|":
            raise ValueError
        i += 1


def _pattern(value: object) -> tuple[str, str | re.Pattern[str]]:
    """A ``Replace`` pattern: ``("literal", s)`` or ``("regex", compiled)`` (see :func:`_regex`)."""
    if isinstance(value, dict) and isinstance(value.get("String"), str):
        if not value["String"]:
            raise ValueError("a Replace normalizer with an empty pattern is not supported")
        return ("literal", value["String"])
    r = value.get("Regex") if isinstance(value, dict) else None
    if not isinstance(r, str):
        raise ValueError('a Replace normalizer\'s pattern must be {"String": ...} or {"Regex": ...}')
    try:
        return ("regex", _regex(r))
    except ValueError:
        raise ValueError(
            f"the Replace normalizer's regex {_quoted(r)} is not supported (only alternatives `a|b` of one "
            "character, \\s or a class [...] of them, each alone, with + or with {n,}, "
            'as " {2,}" or "\\s{2,}|[\\n\\r\\t]")'
        ) from None


def _matches(pattern: tuple[str, str | re.Pattern[str]], chars: list[str]) -> list[Span]:
    """The leftmost, non-overlapping character ranges ``pattern`` matches in ``chars``."""
    kind, what = pattern
    if kind == "regex":
        assert isinstance(what, re.Pattern)
        return [m.span() for m in what.finditer("".join(chars))]
    assert isinstance(what, str)
    out: list[Span] = []
    i = 0
    while i < len(chars):
        if "".join(chars[i : i + len(what)]) == what:
            out.append((i, i + len(what)))
            i += len(what)
        else:
            i += 1
    return out


def _compose(a: str, b: str) -> str | None:
    """The crate's ``compose``: Hangul jamo algorithmically, else the Unicode 9 table."""
    x, y = ord(a), ord(b)
    if 0x1100 <= x <= 0x1112 and 0x1161 <= y <= 0x1175:
        return chr(0xAC00 + ((x - 0x1100) * 21 + (y - 0x1161)) * 28)
    if 0xAC00 <= x <= 0xD7A3 and (x - 0xAC00) % 28 == 0 and 0x11A8 <= y <= 0x11C2:
        return chr(x + y - 0x11A7)
    c = _unicode_tables.COMPOSITION.get((x, y))
    return None if c is None else chr(c)


def _nfc_changes(chars: list[str]) -> list[tuple[str, int]]:
    """Hugging Face's ``NFC`` as ``Aligned.transform`` changes: the canonical decomposition (each
    character's first part 0, the others 1, then each run of marks sorted by combining class),
    recomposed as the ``unicode-normalization-alignments`` crate's ``Recompositions`` does it: a
    starter (the "composee") takes in each following character it composes with that no
    character of the same or a higher class blocks, its change the sum of theirs less one each;
    the characters it did not take in follow it."""
    parts = canonical_order([(d, i == 0) for c in chars for i, d in enumerate(_nfd(c))])
    decomposed = [(d, 0 if first else 1) for d, first in parts]
    out: list[tuple[str, int]] = []
    composee: tuple[str, int] | None = None
    last_class: int | None = None
    blocked: list[tuple[str, int]] = []
    for c, change in decomposed:
        klass = combining_class(c)
        if composee is None:
            if klass == 0:
                composee = (c, change)
            else:
                out.append((c, change))
            continue
        if last_class is not None and last_class >= klass:  # blocked from the composee
            if klass == 0:
                out += [composee, *blocked]
                composee, last_class, blocked = (c, change), None, []
            else:
                blocked.append((c, change))
                last_class = klass
            continue
        composed = _compose(composee[0], c)
        if composed is not None:
            composee = (composed, composee[1] + change - 1)
        elif klass == 0 and last_class is None:
            out.append(composee)
            composee = (c, change)
        else:
            blocked.append((c, change))
            last_class = klass
    if composee is not None:
        out.append(composee)
    return out + blocked


@cache
def _nfkd(c: str) -> str:
    """Full compatibility decomposition, from the engine's (and Hugging Face's) Unicode 9
    tables; Hangul syllables decompose algorithmically."""
    if 0xAC00 <= ord(c) <= 0xD7A3:
        return unicodedata.normalize("NFD", c)
    code = ord(c)
    parts = _unicode_tables.COMPATIBILITY_DECOMPOSITION.get(code)
    if parts is None:
        parts = _unicode_tables.CANONICAL_DECOMPOSITION.get(code, (code,))
    return "".join(map(chr, parts))


def _nfkd_changes(chars: list[str]) -> list[tuple[str, int]]:
    """Hugging Face's ``NFKD`` as ``Aligned.transform`` changes: each character's decomposition,
    its first character taking the character's place (0), the others new (1), then each run of
    combining marks stably sorted by combining class, the changes moving with the characters."""
    decomposed = [(d, i == 0) for c in chars for i, d in enumerate(_nfkd(c))]
    return [(d, 0 if first else 1) for d, first in canonical_order(decomposed)]


def _strip_accents(text: Aligned) -> None:
    """Hugging Face's ``StripAccents`` (its ``NormalizedString.filter``): the combining marks
    dropped; the marks before the first kept character go with their spans, the others with
    the kept character before them."""
    lead = 0
    while lead < len(text.chars) and text.chars[lead] in MARK:
        lead += 1
    del text.chars[:lead], text.align[:lead]
    new: list[tuple[str, int]] = []
    for c in text.chars:
        if c not in MARK:
            new.append((c, 0))
        elif new:
            new[-1] = (new[-1][0], new[-1][1] - 1)
    text.transform(0, len(text.chars), new)


class Normalizer:
    """A tokenizer.json normalizer (not null): its steps, and its JSON to write back."""

    def __init__(self, value: Any) -> None:
        self.json = value
        self.steps: list[tuple[str, Any]] = []
        self._add(value)

    def _add(self, v: Any) -> None:
        kind = v.get("type") if isinstance(v, dict) else None
        kind = kind if isinstance(kind, str) else ""
        if kind == "Sequence":
            parts = v.get("normalizers")
            if not isinstance(parts, list):
                raise ValueError('the Sequence normalizer has no "normalizers" list')
            for part in parts:
                self._add(part)
        elif kind == "Precompiled":
            bad = "the Precompiled normalizer's precompiled_charsmap is not a SentencePiece charsmap in base64"
            data = v.get("precompiled_charsmap")
            if not isinstance(data, str):
                raise ValueError(bad)
            try:
                self.steps.append(("precompiled", Charsmap(base64.b64decode(data, validate=True))))
            except (binascii.Error, ValueError):
                raise ValueError(bad) from None
        elif kind == "Replace":
            if "pattern" not in v:
                raise ValueError("a Replace normalizer has no pattern")
            pattern = _pattern(v["pattern"])
            content = v.get("content")
            if not isinstance(content, str):
                raise ValueError('a Replace normalizer has no "content" string')
            self.steps.append(("replace", (pattern, content)))
        elif kind == "Strip":
            left, right = (v.get(k) if isinstance(v.get(k), bool) else True for k in ("strip_left", "strip_right"))
            self.steps.append(("strip", (left, right)))
        elif kind in ("NFC", "NFKD", "StripAccents", "Lowercase"):
            self.steps.append((kind, None))
        else:
            raise ValueError(
                f"the {_quoted(kind)} normalizer is not supported "
                "(only Precompiled, Replace, Strip, NFC, NFKD, StripAccents, Lowercase and a Sequence of them)"
            )

    def normalize(self, text: Aligned) -> None:
        """Normalizes ``text`` in place, step by step."""
        for kind, arg in self.steps:
            if kind == "precompiled":
                _precompiled(arg, text)
            elif kind == "replace":
                pattern, content = arg
                text.replace(_matches(pattern, text.chars), content)
            elif kind == "NFC":
                text.transform(0, len(text.chars), _nfc_changes(text.chars))
            elif kind == "NFKD":
                text.transform(0, len(text.chars), _nfkd_changes(text.chars))
            elif kind == "Lowercase":
                changes = [(low, int(i > 0)) for c in text.chars for i, low in enumerate(lowercase(c))]
                text.transform(0, len(text.chars), changes)
            elif kind == "StripAccents":
                _strip_accents(text)
            else:
                left, right = arg
                n = len(text.chars)
                lead = 0
                while left and lead < n and text.chars[lead] in WHITE_SPACE:
                    lead += 1
                trail = 0
                while right and trail < n - lead and text.chars[n - 1 - trail] in WHITE_SPACE:
                    trail += 1
                del text.chars[n - trail :], text.align[n - trail :]
                del text.chars[:lead], text.align[:lead]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Normalizer) and json.dumps(self.json) == json.dumps(other.json)

    __hash__ = None  # type: ignore[assignment]
