"""Spec section 13: word counts, their merging, and the ``.fwc`` file format."""

from __future__ import annotations

import json
import os
import struct
import zlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Union

from fast_wordpiece.reference.args import (
    TEXT_COUNTS,
    _dataframe_error,
    _flag,
    _integer,
    _path,
    _quoted,
    _reject_mapping_corpus,
    _text,
    _text_batch,
    _text_counts,
    _type_name,
)
from fast_wordpiece.reference.files import paths_arg, write_atomic
from fast_wordpiece.reference.options import Options
from fast_wordpiece.reference.unicode import WHITESPACE

#: The options that change which words a text counts as, in the file's order.
COUNT_OPTIONS = ("clean_text", "handle_chinese_chars", "lowercase", "strip_accents", "strip_all_marks", "pre_tokenizer")
MAGIC = b"FWPCOUNT"
VERSION = 1
#: The most parts ``WordCounts.split`` makes.
MAX_PARTS = 1 << 20


def check_word(word: str) -> None:
    """A counted word is never empty and holds no whitespace (every pre-tokenizer splits there)."""
    if not word:
        raise ValueError("words must not be empty")
    if any(c in WHITESPACE for c in word):
        raise ValueError(f"the word {_quoted(word)} contains whitespace, "
                         "which no pre-tokenizer leaves in a word")  # fmt: skip


StrPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def count_options(options: Mapping[str, Any], function: str) -> dict[str, Any]:
    """The counting options of keyword arguments, checked, in file order."""
    for key in options:
        if key not in COUNT_OPTIONS:
            raise TypeError(f"{function}() got an unexpected keyword argument {key!r} "
                            f"(word counting takes {', '.join(COUNT_OPTIONS)})")  # fmt: skip
    checked = Options(**options)
    return {name: getattr(checked, name) for name in COUNT_OPTIONS}


def effect(options: Mapping[str, Any], name: str) -> Any:
    """What option ``name`` does: ``strip_accents=None`` follows ``lowercase``, and
    ``strip_all_marks`` does nothing without ``strip_accents``."""
    if name == "strip_accents" and options[name] is None:
        return options["lowercase"]
    if name == "strip_all_marks":
        return options[name] and effect(options, "strip_accents")
    return options[name]


def show(value: Any) -> str:
    return repr(value) if isinstance(value, bool) else json.dumps(value)


def differing(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """The options whose effects differ, in file order."""
    return [name for name in COUNT_OPTIONS if effect(a, name) != effect(b, name)]


class WordCounts:
    """Words and their counts, with the options they were counted with; every count is positive
    (a word given with a count of 0, a word not seen, is left out)."""

    def __init__(self, counts: Mapping[str, int] | Iterable[tuple[str, int]] | None = None, **options: Any) -> None:
        self._options = count_options(options, "WordCounts")
        self._counts: dict[str, int] = {}
        if counts is None:
            return
        for word, n in _text_counts(counts, "counts", TEXT_COUNTS, 0):
            check_word(word)
            if n:  # a count of 0 adds nothing: a word counted 0 times is left out, as training ignores it
                self._counts[word] = self._counts.get(word, 0) + n
        check_total(sum(self._counts.values()))

    @staticmethod
    def from_files(paths: StrPath | Iterable[StrPath], *, errors: str = "strict", show_progress: bool = False,
                   **options: Any) -> WordCounts:  # fmt: skip
        """Counts the lines of text files (split at ``\\n``, a ``\\r`` before it dropped)."""
        _text(errors, "errors")
        _flag(show_progress, "show_progress")
        if errors not in ("strict", "replace"):
            raise ValueError(f'errors must be "strict" or "replace", not {_quoted(errors)}')
        checked = paths_arg(paths)
        counted = WordCounts(**count_options(options, "from_files"))
        data = []
        for path in checked:  # every file is opened before any is counted
            with open(path, "rb") as f:
                data.append(f.read())
        for path, raw in zip(checked, data):
            try:
                text = raw.decode("utf-8", errors=errors)
            except UnicodeDecodeError as e:
                raise ValueError(f"{path}: invalid UTF-8 at byte offset {e.start} "
                                 f'(pass errors="replace" to replace it)') from None  # fmt: skip
            counted._add_texts(line.removesuffix("\r") for line in text.split("\n"))
        return counted

    def _add_texts(self, texts: Iterable[str]) -> None:
        pipeline = Options(**self._options)
        for text in texts:
            for word in pipeline.words(text):
                self._counts[word] = self._counts.get(word, 0) + 1

    # -- the mapping -----------------------------------------------------------

    @property
    def options(self) -> dict[str, Any]:
        """The counting options, as keyword arguments."""
        return dict(self._options)

    @property
    def total(self) -> int:
        """The sum of the counts: the words of the corpus."""
        return sum(self._counts.values())

    def __len__(self) -> int:
        """The number of distinct words."""
        return len(self._counts)

    def __getitem__(self, word: str) -> int:
        """The count of ``word`` (KeyError if it was not counted)."""
        return self._counts[_text(word, "a word")]

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word in self._counts

    def get(self, word: str, default: Any = None) -> Any:
        """The count of ``word``, or ``default`` (None) if it was not counted."""
        return self._counts.get(_text(word, "a word"), default)

    def keys(self) -> list[str]:
        """The words, in code point order."""
        return sorted(self._counts)

    def values(self) -> list[int]:
        """The counts, in code point order of their words."""
        return [n for _, n in self.items()]

    def items(self) -> list[tuple[str, int]]:
        """``(word, count)`` pairs, in code point order of the words."""
        return sorted(self._counts.items())  # words are distinct: in code point order

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def most_common(self, n: int | None = None) -> list[tuple[str, int]]:
        """By count, ties in code point order of the words."""
        ranked = sorted(self._counts.items(), key=lambda item: (-item[1], item[0]))
        return ranked if n is None else ranked[: _integer(n, "n", 0)]

    def prune(self, min_count: int | None = None, *, max_words: int | None = None) -> None:
        """Keeps the words counted ``min_count`` times or more, then the ``max_words`` most common."""
        least = 1 if min_count is None else _integer(min_count, "min_count", 0)
        kept = [(w, n) for w, n in self.most_common() if n >= least]
        if max_words is not None:
            kept = kept[: _integer(max_words, "max_words", 0)]
        self._counts = dict(kept)

    def split(self, n: int) -> list[WordCounts]:
        """``n`` counts that add up to these: word ``w`` goes to part ``crc32(w.encode()) % n``."""
        n = _integer(n, "n", 1)
        if n > MAX_PARTS:
            raise ValueError(f"n must be at most {MAX_PARTS}, not {n}")
        parts = [WordCounts(**self._options) for _ in range(n)]
        for word, count in self._counts.items():
            parts[zlib.crc32(word.encode()) % len(parts)]._counts[word] = count
        return parts

    # -- merging ---------------------------------------------------------------

    def update(self, other: WordCounts) -> None:
        """Adds ``other``'s counts to these (ValueError naming the option if they were counted otherwise)."""
        if not isinstance(other, WordCounts):
            raise TypeError(f"other must be a WordCounts, not {_type_name(other)}")
        differ = differing(self._options, other._options)
        if differ:
            name = differ[0]
            mine, theirs = effect(self._options, name), effect(other._options, name)
            raise ValueError(f"word counts made with different options: {name}={show(mine)} and {name}={show(theirs)}")
        # One look at each side's counts, and one assignment: another thread sees them before or after.
        mine, theirs = self._counts, other._counts
        check_total(sum(mine.values()) + sum(theirs.values()))
        merged = dict(mine)
        for word, n in theirs.items():
            merged[word] = merged.get(word, 0) + n
        self._counts = merged

    def __add__(self, other: WordCounts) -> WordCounts:
        if not isinstance(other, WordCounts):
            return NotImplemented
        result = WordCounts(**self._options)
        result.update(self)
        result.update(other)
        return result

    def __iadd__(self, other: WordCounts) -> WordCounts:
        self.update(other)
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WordCounts):
            return False
        return not differing(self._options, other._options) and self._counts == other._counts

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"WordCounts({len(self)} distinct words, {self.total} in all)"

    # -- the file format -------------------------------------------------------

    def to_bytes(self) -> bytes:
        """``FWPCOUNT``, version, options JSON, entries, CRC-32 (spec section 13)."""
        options = json.dumps(self._options, separators=(",", ":")).encode()
        out = bytearray(MAGIC + struct.pack("<II", VERSION, len(options)) + options)
        items = self.items()  # one look at the counts, which another thread's update may replace
        out += varint(len(items))
        for word, n in items:
            raw = word.encode()
            out += varint(len(raw)) + raw + varint(n)
        return bytes(out + struct.pack("<I", zlib.crc32(out)))

    @staticmethod
    def from_bytes(data: bytes) -> WordCounts:
        """Word counts from the bytes of a ``.fwc`` file (what ``to_bytes`` gives): TypeError unless ``data``
        is bytes, ValueError if they are not a valid word counts file of a version this release reads."""
        if not isinstance(data, bytes):
            raise TypeError(f"data must be bytes, not {_type_name(data)}")
        try:
            return parse(data)
        except ValueError as e:
            raise ValueError(f"word counts data: {e}") from None

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        return (WordCounts.from_bytes, (self.to_bytes(),))

    def save(self, path: StrPath) -> None:
        """Writes ``to_bytes`` to ``path`` atomically (see ``files.write_atomic``): a temporary file
        beside it, then a rename."""
        write_atomic(_path(path), self.to_bytes())

    @staticmethod
    def load(path: StrPath) -> WordCounts:
        """Reads a ``.fwc`` file: OSError if it cannot be read, ValueError if it is not a valid word counts
        file of a version this release reads."""
        path = _path(path)
        with open(path, "rb") as f:
            data = f.read()
        try:
            return parse(data)
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None


def check_total(total: int) -> None:
    if total >= 2**64:
        raise ValueError("word counts overflow: their total exceeds 2**64 - 1")


def varint(n: int) -> bytes:
    """Unsigned LEB128: seven bits a byte, low bits first, the high bit set on all but the last."""
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


TRUNCATED = "truncated"
#: The bytes of the smallest file: the magic, the version, the options' length and the CRC-32.
HEADER_BYTES = 8 + 4 + 4 + 4


class Reader:
    def __init__(self, data: bytes, at: int, size: int) -> None:
        """``size``: of the whole data (CRC-32 included), for messages."""
        self.data, self.at, self.size = data, at, size

    def take(self, n: int, what: str) -> bytes:
        """The next ``n`` bytes of ``what`` (for the error when the data ends first)."""
        if len(self.data) - self.at < n:
            raise ValueError(f"{TRUNCATED}: the data ends at byte {self.size} inside {what}")
        self.at += n
        return self.data[self.at - n : self.at]

    def varint(self, what: str) -> int:
        start, n, shift = self.at, 0, 0
        while shift < 64:
            b = self.take(1, what)[0]
            n |= (b & 0x7F) << shift
            if not b & 0x80:
                if n >= 2**64:
                    break
                return n
            shift += 7
        raise ValueError(f"invalid number at byte {start} (more than 64 bits)")


def parse(data: bytes) -> WordCounts:
    # Data cut short within the magic (even empty) is still the start of one.
    if not MAGIC.startswith(data[: len(MAGIC)]):
        raise ValueError('not a word counts file (it does not start with "FWPCOUNT")')
    short = ValueError(
        f"{TRUNCATED}: {len(data)} bytes, fewer than the {HEADER_BYTES} of the header, "
        "the options' length and the CRC-32"
    )
    if len(data) < 12:
        raise short
    (version,) = struct.unpack("<I", data[8:12])
    if version != VERSION:
        raise ValueError(f"unsupported word counts file version {version} (this fast_wordpiece reads version 1)")
    if len(data) < HEADER_BYTES:
        raise short
    body, (stored,) = data[:-4], struct.unpack("<I", data[-4:])
    actual = zlib.crc32(body)
    try:
        counts = parse_body(body, len(data))
    except ValueError as e:
        if actual == stored:
            raise
        # Data cut short ends inside something the header promised; other
        # damage is told by the CRC-32 alone.
        if str(e).startswith(TRUNCATED):
            raise
    if actual != stored:
        raise ValueError(f"corrupted: its CRC-32 is {actual:08x} but the file says {stored:08x} ({len(data)} bytes)")
    return counts


def parse_body(body: bytes, size: int) -> WordCounts:
    """The options and the entries of the bytes before the CRC-32 (``size``: of all the data)."""
    r = Reader(body, 12, size)
    (length,) = struct.unpack("<I", r.take(4, "the length of the options"))
    try:
        options = json.loads(r.take(length, "the options").decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"invalid options: {e}") from None
    required = set(COUNT_OPTIONS) - {"strip_accents"}  # which may be left out: null
    if not isinstance(options, dict) or not required <= set(options) <= set(COUNT_OPTIONS):
        raise ValueError(f"invalid options: expected the keys {', '.join(COUNT_OPTIONS)}")
    try:
        counts = WordCounts(**options)
    except (TypeError, ValueError) as e:
        raise ValueError(f"invalid options: {e}") from None
    last = None
    entries = r.varint("the number of entries")
    for i in range(entries):
        what = f"entry {i} of {entries}"
        raw = r.take(r.varint(what), what)
        try:
            word = raw.decode()
        except UnicodeDecodeError as e:
            raise ValueError(f"entry {i}: the word is not UTF-8 ({e})") from None
        n = r.varint(what)
        try:
            check_word(word)
        except ValueError as e:
            raise ValueError(f"entry {i}: {e}") from None
        if last is not None and last >= word:
            raise ValueError(f"entry {i} ({_quoted(word)}): words must be distinct and in code point order")
        last = word
        if n:  # a count of 0 (a word not seen) is read and left out, as training ignores it
            counts._counts[word] = n
    if r.at != len(body):
        raise ValueError(f"{len(body) - r.at} bytes after the last entry")
    check_total(counts.total)
    return counts


def _arrow_export(obj: Any) -> str | None:
    """The Arrow export ``obj`` is read through (``__arrow_c_array__`` first, then
    ``__arrow_c_stream__``), called as the engine calls it: None when it has neither, or when each
    it has raises ImportError and ``obj`` is iterable (a pandas Series without pyarrow is then read
    as the iterable of str it is). Reading what it exports takes pyarrow here."""
    for method in ("__arrow_c_array__", "__arrow_c_stream__"):
        if hasattr(obj, method):
            try:
                getattr(obj, method)()
            except ImportError:
                if not hasattr(obj, "__iter__"):
                    raise
                continue
            return method
    return None


def _exports_arrow(obj: Any) -> bool:
    """Whether ``obj`` has an Arrow export at all (then, if it is not read through one, it is
    iterated as it is: see ``_arrow_export``)."""
    return hasattr(obj, "__arrow_c_array__") or hasattr(obj, "__arrow_c_stream__")


def _arrow_texts(array: Any, method: str, what: str = "texts") -> list[str]:
    """The texts of an Arrow string array, or of a stream of them such as a
    chunked array (``__arrow_c_stream__``), nulls skipped (read with pyarrow)."""
    import pyarrow as pa

    array = pa.array(array) if method == "__arrow_c_array__" else pa.chunked_array(array)
    if pa.types.is_struct(array.type):
        raise TypeError(
            f"{what} must be an Arrow string, large_string or string_view array, not a struct (a table or record "
            'batch): pass its column of texts, e.g. table["text"]'
        )
    kinds = (pa.types.is_string, pa.types.is_large_string, getattr(pa.types, "is_string_view", lambda _: False))
    if not any(is_kind(array.type) for is_kind in kinds):
        raise TypeError(
            f"{what} must be an Arrow string, large_string or string_view array, not one of {_other_type(array.type)}"
        )
    return [text for text in array.to_pylist() if text is not None]


#: The Arrow types a non-string array most often has, by their format (the C data interface's),
#: named as pyarrow names them (the engine's ``TYPE_NAMES``).
_TYPE_NAMES = {"n": "null", "b": "bool", "c": "int8", "C": "uint8", "s": "int16", "S": "uint16", "i": "int32",
               "I": "uint32", "l": "int64", "L": "uint64", "e": "halffloat", "f": "float", "g": "double",
               "z": "binary", "Z": "large_binary", "vz": "binary_view", "tdD": "date32[day]",
               "tdm": "date64[ms]"}  # fmt: skip


def _other_type(data_type: Any) -> str:
    """What an array of ``data_type`` (a pyarrow type other than the string ones) holds, as the
    engine says it: ``type int64`` (``_TYPE_NAMES``), ``type dictionary`` for a dictionary-encoded
    array, else its format (``Arrow format "+l"``, a list), read from the type's export."""
    import pyarrow as pa

    if pa.types.is_dictionary(data_type):
        return "type dictionary"
    code = _arrow_format(data_type)
    name = _TYPE_NAMES.get(code)
    return f"type {name}" if name is not None else f"Arrow format {_quoted(code)}"


def _arrow_format(data_type: Any) -> str:
    """The format string of a pyarrow type, as its C data interface export gives it (the first
    field of the ``struct ArrowSchema`` in its ``arrow_schema`` capsule): what the engine reads."""
    import ctypes

    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    capsule = data_type.__arrow_c_schema__()  # released with the capsule
    schema = get_pointer(capsule, b"arrow_schema")
    code = ctypes.cast(schema, ctypes.POINTER(ctypes.c_char_p))[0]
    return (code or b"").decode("utf-8", "replace")


def _texts(texts: Iterable[Any]) -> Iterator[str]:
    """The str items of ``texts``, the texts of its Arrow string arrays and of its batches of str
    (``_text_batch``)."""
    for i, text in enumerate(texts):
        if isinstance(text, str):
            yield _text(text, f"texts[{i}]")
            continue
        if not _exports_arrow(text):
            batch = _text_batch(text, f"texts[{i}]")
        elif (error := _dataframe_error(text, f"texts[{i}] must be str or a batch of texts")) is not None:
            raise error
        elif (method := _arrow_export(text)) is not None:
            yield from _arrow_texts(text, method, f"texts[{i}]")
            continue
        else:
            batch = iter(text)  # its export needs a module that is missing: the iterable it is
        for j, item in enumerate(batch):
            yield _text(item, f"texts[{i}][{j}]")


def count_words(texts: Iterable[str], *, show_progress: bool = False, **options: Any) -> WordCounts:
    """Counts the words of ``texts`` as training does (spec section 4, step 1).

    ``texts`` is an iterable of str, of batches of str (a list of str is read
    as its texts) and of Arrow string arrays (objects with
    ``__arrow_c_array__``) or streams of them, an Arrow array, or an Arrow
    stream of them such as a chunked array or a pandas or polars Series
    (``__arrow_c_stream__``): their texts, nulls skipped. Without pyarrow, an
    iterable that exports Arrow is read as the iterable of str it is."""
    _flag(show_progress, "show_progress")
    if isinstance(texts, (str, bytes, bytearray)):
        raise TypeError(f"texts must be an iterable of str, not {_type_name(texts)}")
    _reject_mapping_corpus(texts, "texts")
    if (method := _arrow_export(texts)) is not None:
        texts = _arrow_texts(texts, method)
    if isinstance(texts, str) or not isinstance(texts, Iterable):
        raise TypeError(
            "texts must be an iterable of str or Arrow string arrays, or an Arrow string array or "
            f"chunked array, not {_type_name(texts)}"
        )
    counted = WordCounts(**count_options(options, "count_words"))
    counted._add_texts(_texts(texts))
    return counted
