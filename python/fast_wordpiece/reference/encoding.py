"""The result of encoding one text or pair."""

from __future__ import annotations

import operator
import struct
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, SupportsIndex

from fast_wordpiece.reference.args import _type_name
from fast_wordpiece.reference.common import Offsets

_KEYS = ("ids", "tokens", "offsets", "attention_mask", "special_tokens_mask", "type_ids")
# Every per-token column: the six fields, then each token's word and sequence (None for the
# tokens that post-processing and padding add).
_COLUMNS = (*_KEYS, "word_ids", "sequence_ids")
# A pickled encoding: its state's number of items, how deep its overflowing windows may nest
# (those of a pair nest one level below those of a text), a token of no word in the word column.
_STATE_ITEMS = 9
_MAX_NESTING = 4
_NO_WORD = 0xFFFF_FFFF
#: What a KeyError for a position adds: an Encoding is not a list.
_POSITION_HINT = (
    " (its fields, not its tokens: the ids are encoding.ids,"
    " or tokenizer(text)['input_ids'] as transformers gives them)"
)


class Encoding:
    """The tokens of one encoded text or pair; reads like a dict and like attributes.

    The twin of ``fast_wordpiece.Encoding``: ``len(encoding)`` is the number of
    tokens, ``encoding["ids"]`` (and the other names ``keys()`` lists) a field;
    iterating gives those names, as ``keys()``."""

    __slots__ = ("_fields", "_n_sequences", "_overflowing")

    def __init__(self, ids: list[int], tokens: list[str], offsets: list[Offsets], special_tokens_mask: list[int],
                 type_ids: list[int], attention_mask: list[int] | None = None,
                 overflowing: Sequence[Encoding] = (), *, word_ids: list[int | None] | None = None,
                 sequence_ids: list[int | None] | None = None, n_sequences: int = 1) -> None:  # fmt: skip
        attention = [1] * len(ids) if attention_mask is None else attention_mask
        words = [None] * len(ids) if word_ids is None else word_ids
        sequences = [None] * len(ids) if sequence_ids is None else sequence_ids
        columns = (ids, tokens, offsets, attention, special_tokens_mask, type_ids, words, sequences)
        self._fields: dict[str, list[Any]] = dict(zip(_COLUMNS, columns))
        self._n_sequences = n_sequences
        self._overflowing = list(overflowing)

    ids = property(lambda self: self["ids"], doc="Token ids.")
    tokens = property(lambda self: self["tokens"], doc="Token strings.")
    offsets = property(lambda self: self["offsets"], doc="(start, end) in characters of the original text.")
    attention_mask = property(lambda self: self["attention_mask"], doc="1 for every token.")
    special_tokens_mask = property(lambda self: self["special_tokens_mask"], doc="1 for the added [CLS], [SEP].")
    type_ids = property(lambda self: self["type_ids"], doc="0 for the first sequence, 1 for the second.")
    overflowing = property(lambda self: list(self._overflowing), doc="The windows that truncation cut off.")
    word_ids = property(lambda self: list(self._fields["word_ids"]),
                        doc="Each token's word within its sequence (a special token in the text is a word of its "
                            "own); None for the tokens post-processing and padding add.")  # fmt: skip
    sequence_ids = property(lambda self: list(self._fields["sequence_ids"]),
                            doc="Each token's sequence, 0 or 1; None for the added tokens.")  # fmt: skip
    n_sequences = property(lambda self: self._n_sequences, doc="2 for a pair of texts, else 1.")

    @property
    def words(self) -> list[int | None]:
        """The deprecated name of ``word_ids``, kept as Hugging Face ``tokenizers`` keeps it: a
        DeprecationWarning, then the same list."""
        warnings.warn("Encoding.words is deprecated, please use Encoding.word_ids instead.", DeprecationWarning,
                      stacklevel=2)  # fmt: skip
        return list(self._fields["word_ids"])

    def token_to_sequence(self, token_index: SupportsIndex) -> int | None:
        """The sequence of token ``token_index``; None for an added token or an index out of range."""
        return self._column_at("sequence_ids", token_index)

    def token_to_word(self, token_index: SupportsIndex) -> int | None:
        """The word of token ``token_index`` within its sequence; None for an added token."""
        return self._column_at("word_ids", token_index)

    def token_to_chars(self, token_index: SupportsIndex) -> Offsets | None:
        """The offsets of token ``token_index``; None for an added token."""
        if self.token_to_sequence(token_index) is None:
            return None
        offsets: list[Offsets] = self._fields["offsets"]
        return offsets[operator.index(token_index)]

    def word_to_tokens(self, word_index: SupportsIndex, sequence_index: SupportsIndex = 0) -> tuple[int, int] | None:
        """The tokens ``(start, end)`` of word ``word_index`` of sequence ``sequence_index``."""
        index = _check_index(word_index, "word_index")
        sequence = _check_index(sequence_index, "sequence_index")
        found = []
        for i, word in enumerate(self._fields["word_ids"]):
            if not self._looked_at(i, sequence) or word is None:
                continue
            if word > index:  # as Hugging Face: the search stops at the first later word
                break
            if word == index:
                found.append(i)
        return (found[0], found[-1] + 1) if found else None

    def word_to_chars(self, word_index: SupportsIndex, sequence_index: SupportsIndex = 0) -> Offsets | None:
        """The characters ``(start, end)`` of word ``word_index`` of sequence ``sequence_index``."""
        tokens = self.word_to_tokens(word_index, sequence_index)
        if tokens is None:
            return None
        offsets = self._fields["offsets"]
        return offsets[tokens[0]][0], offsets[tokens[1] - 1][1]

    def char_to_token(self, char_pos: SupportsIndex, sequence_index: SupportsIndex = 0) -> int | None:
        """The first token of sequence ``sequence_index`` whose offsets hold character ``char_pos``."""
        pos = _check_index(char_pos, "char_pos")
        sequence = _check_index(sequence_index, "sequence_index")
        for i, (start, end) in enumerate(self._fields["offsets"]):
            if self._fields["word_ids"][i] is not None and self._looked_at(i, sequence) and start <= pos < end:
                return i
        return None

    def char_to_word(self, char_pos: SupportsIndex, sequence_index: SupportsIndex = 0) -> int | None:
        """The word of sequence ``sequence_index`` that holds character ``char_pos``."""
        token = self.char_to_token(char_pos, sequence_index)
        return None if token is None else self.token_to_word(token)

    def _looked_at(self, token_index: int, sequence_index: int) -> bool:
        """Whether token ``token_index`` is searched when sequence ``sequence_index`` is asked for: as in
        Hugging Face, asking for a sequence the encoding does not have searches all of it."""
        return sequence_index >= self._n_sequences or self._fields["sequence_ids"][token_index] == sequence_index

    def _column_at(self, column: str, token_index: SupportsIndex) -> int | None:
        values: list[int | None] = self._fields[column]
        index = _int_arg(token_index, "token_index")
        return values[index] if -len(values) <= index < len(values) else None

    def offsets_array(self, dtype: Any = None) -> Any:
        """The offsets as a numpy array of shape (n, 2): int64 (the default), int32 or uint32."""
        from fast_wordpiece.reference.padding import _import_numpy

        numpy = _import_numpy("offsets_array()")
        name = "int64" if dtype is None else numpy.dtype(dtype).name
        if name not in ("int64", "int32", "uint32"):
            raise ValueError(f"dtype must be int64, int32 or uint32, not {name}")
        offsets = self["offsets"]
        largest = max((end for _, end in offsets), default=0)
        if largest > numpy.iinfo(name).max:
            raise ValueError(f"dtype {name} cannot hold the offset {largest}: use int64")
        return numpy.array(offsets, dtype=name).reshape(len(self), 2)

    def __getitem__(self, key: str) -> list[Any]:
        """The field ``key`` (a new list); KeyError for any other key, as for a dict."""
        if key not in _KEYS:
            hint = _POSITION_HINT if isinstance(key, (int, slice)) else ""
            raise KeyError(f"{key!r}: an Encoding has the keys {list(_KEYS)}{hint}")
        return list(self._fields[key])

    def __contains__(self, key: object) -> bool:
        return key in _KEYS

    def keys(self) -> list[str]:
        """The six field names, as for a dict."""
        return list(_KEYS)

    def __iter__(self) -> Iterator[str]:
        """The six field names, in the order of ``keys()``, as iterating over a dict gives its keys
        (``len`` stays the number of tokens, as in Hugging Face ``tokenizers``)."""
        return iter(_KEYS)

    def to_dict(self) -> dict[str, list[Any]]:
        """The fields as a plain dict."""
        return {key: self[key] for key in _KEYS}

    def __len__(self) -> int:
        """The number of tokens."""
        return len(self._fields["ids"])

    def __eq__(self, other: object) -> bool:
        to_dict, overflowing = getattr(other, "to_dict", None), getattr(other, "overflowing", None)
        if not callable(to_dict) or overflowing is None:
            return NotImplemented
        return bool(self.to_dict() == to_dict() and self.overflowing == overflowing)

    def _columns(self) -> dict[str, list[Any]]:
        """Every per-token column by name (copies)."""
        return {key: list(values) for key, values in self._fields.items()}

    def _slice(self, start: int, stop: int) -> Encoding:
        """Tokens ``start:stop``, without overflowing windows."""
        columns = {key: values[start:stop] for key, values in self._fields.items()}
        return Encoding._from_columns(columns, n_sequences=self._n_sequences)

    def _joined(self, other: Encoding, overflowing: Sequence[Encoding] = (), n_sequences: int = 2) -> Encoding:
        """This encoding's tokens followed by ``other``'s (pieces of one text, or of a pair)."""
        columns = {key: self._fields[key] + other._fields[key] for key in _COLUMNS}
        return Encoding._from_columns(columns, overflowing, n_sequences=n_sequences)

    @staticmethod
    def _from_columns(columns: Mapping[str, list[Any]], overflowing: Sequence[Encoding] = (), *,
                      n_sequences: int = 1) -> Encoding:  # fmt: skip
        """An Encoding from its columns by name (the word and sequence columns may be left out)."""
        c = columns
        return Encoding(c["ids"], c["tokens"], c["offsets"], c["special_tokens_mask"], c["type_ids"],
                        c["attention_mask"], overflowing, word_ids=c.get("word_ids"),
                        sequence_ids=c.get("sequence_ids"), n_sequences=n_sequences)  # fmt: skip

    def __reduce__(self) -> tuple[Any, tuple[bytes, list[str], tuple[Any, ...]]]:
        """Pickling (and ``copy``): the columns and the strings of the ids, rebuilt by ``_from_state``
        into an equal encoding. The same state as the engine's: the vocabulary ids the encoding
        (and its windows) has with a string for each, then the encoding (``_state``)."""
        table: dict[int, str] = {}
        self._collect_tokens(table)
        ids = sorted(table)
        return Encoding._from_state, (_pack(ids), [table[i] for i in ids], self._state(table))

    def _collect_tokens(self, table: dict[int, str]) -> None:
        for id_, token in zip(self._fields["ids"], self._fields["tokens"]):
            table.setdefault(id_, token)
        for window in self._overflowing:
            window._collect_tokens(table)

    def _state(self, table: Mapping[int, str]) -> tuple[Any, ...]:
        """The columns as bytes (little-endian 32-bit ids, offsets' starts and ends, and words,
        each word its index with the sequence in the top bit; a byte per token for the type ids
        and masks), the number of sequences, the tokens other than ``table``'s string of their id
        (position, string), and the windows' states."""
        f = self._fields
        words = [_NO_WORD if w is None else w | (s or 0) << 31 for w, s in zip(f["word_ids"], f["sequence_ids"])]
        shown = tuple((i, t) for i, (id_, t) in enumerate(zip(f["ids"], f["tokens"])) if t != table[id_])
        offsets = [x for pair in f["offsets"] for x in pair]
        masks = (bytes(f["type_ids"]), bytes(f["special_tokens_mask"]), bytes(f["attention_mask"]))
        windows = tuple(window._state(table) for window in self._overflowing)
        return (_pack(f["ids"]), _pack(offsets), _pack(words), *masks, self._n_sequences, shown, windows)

    @staticmethod
    def _from_state(vocab_ids: object, vocab_tokens: object, state: object) -> Encoding:
        """The encoding ``__reduce__`` saved. Not for direct use; a state that is not one
        ``__reduce__`` makes is a TypeError or ValueError."""
        ids = _state_u32s(vocab_ids, "vocab_ids")
        if any(a >= b for a, b in zip(ids, ids[1:])):
            raise ValueError("Encoding state: vocab_ids must increase")
        tokens = _state_items(vocab_tokens, "vocab_tokens")
        if len(tokens) != len(ids):
            raise ValueError(f"Encoding state: {len(tokens)} vocab_tokens for {len(ids)} vocab_ids")
        for token in tokens:
            if not isinstance(token, str):
                raise _state_type_error("vocab_tokens", "str", token)
        return _encoding_from_state(state, dict(zip(ids, tokens)), 0)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = repr(self.tokens[:8])[:-1] + (", ..." if len(self) > 8 else "")
        return f"Encoding(n_tokens={len(self)}, tokens={shown}])"


def _int_arg(value: object, name: str) -> int:
    """An index argument: an int, or an integer such as numpy's that ``__index__`` turns into one,
    but not a bool."""
    try:
        if not isinstance(value, bool):
            return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        pass
    raise TypeError(f"{name} must be an int, not {_type_name(value)}")


def _check_index(value: object, name: str) -> int:
    """A word, character or sequence index (:func:`_int_arg`); negative is a ValueError."""
    index = _int_arg(value, name)
    if index < 0:
        raise ValueError(f"{name} must be >= 0, not {index}")
    return index


def _pack(values: Sequence[int]) -> bytes:
    return struct.pack(f"<{len(values)}I", *values)


def _state_type_error(what: str, expected: str, value: object) -> TypeError:
    return TypeError(f"Encoding state: {what} must be {expected}, not {type(value).__name__}")


def _state_bytes(value: object, what: str) -> bytes:
    if not isinstance(value, bytes):
        raise _state_type_error(what, "bytes", value)
    return value


def _state_u32s(value: object, what: str) -> list[int]:
    data = _state_bytes(value, what)
    if len(data) % 4:
        raise ValueError(f"Encoding state: {what} must be 4 bytes per value, not {len(data)} bytes")
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def _state_items(value: object, what: str) -> list[Any]:
    if not isinstance(value, (tuple, list)):
        raise _state_type_error(what, "a tuple", value)
    return list(value)


def _state_int(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _state_type_error(what, "an int", value)
    return value


def _encoding_from_state(state: object, table: Mapping[int, str], depth: int) -> Encoding:
    """The encoding of a state ``Encoding._state`` made, its ids checked to be in ``table``; any
    inconsistency is a ValueError, a wrong type a TypeError (in the engine's order)."""
    items = _state_items(state, "an encoding")
    if len(items) != _STATE_ITEMS:
        raise ValueError(f"Encoding state: an encoding is {_STATE_ITEMS} items, not {len(items)}")
    ids = _state_u32s(items[0], "ids")
    n = len(ids)
    offsets = _state_u32s(items[1], "offsets")
    words = _state_u32s(items[2], "words")
    type_ids = _state_bytes(items[3], "type_ids")
    special = _state_bytes(items[4], "special_tokens_mask")
    attention = _state_bytes(items[5], "attention_mask")
    for what, length in [("offsets", len(offsets) / 2), ("words", len(words)), ("type_ids", len(type_ids)),
                         ("special_tokens_mask", len(special)), ("attention_mask", len(attention))]:  # fmt: skip
        if length != n:
            raise ValueError(f"Encoding state: {what} do not have one entry for each of the {n} ids")
    for what, mask in [("special_tokens_mask", special), ("attention_mask", attention)]:
        bad = next((b for b in mask if b > 1), None)
        if bad is not None:
            raise ValueError(f"Encoding state: {what} must be 0 or 1, not {bad}")
    missing = next((i for i in ids if i not in table), None)
    if missing is not None:
        raise ValueError(f"Encoding state: id {missing} has no token string")
    n_sequences = _state_int(items[6], "n_sequences")
    if n_sequences not in (1, 2):
        raise ValueError(f"Encoding state: n_sequences must be 1 or 2, not {n_sequences}")
    tokens = [table[i] for i in ids]
    previous = -1
    for item in _state_items(items[7], "shown"):
        pair = _state_items(item, "a shown token")
        if len(pair) != 2:
            raise ValueError(f"Encoding state: a shown token is (position, str), not {len(pair)} items")
        at, text = _state_int(pair[0], "a shown token's position"), pair[1]
        if not previous < at < n:
            raise ValueError(f"Encoding state: the shown tokens' positions must increase below {n}")
        if not isinstance(text, str):
            raise _state_type_error("a shown token's text", "a str", text)
        tokens[at], previous = text, at
    windows = _state_items(items[8], "overflowing")
    if windows and depth >= _MAX_NESTING:
        raise ValueError(f"Encoding state: overflowing windows nest deeper than {_MAX_NESTING} levels")
    overflowing = [_encoding_from_state(window, table, depth + 1) for window in windows]
    word_ids = [None if w == _NO_WORD else w & 0x7FFF_FFFF for w in words]
    sequence_ids = [None if w == _NO_WORD else w >> 31 for w in words]
    return Encoding(ids, tokens, list(zip(offsets[::2], offsets[1::2])), list(special), list(type_ids),
                    list(attention), overflowing, word_ids=word_ids, sequence_ids=sequence_ids,
                    n_sequences=n_sequences)  # fmt: skip
