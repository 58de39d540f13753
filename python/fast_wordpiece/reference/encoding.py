"""The result of encoding one text or pair."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fast_wordpiece.reference.common import Offsets

_KEYS = ("ids", "tokens", "offsets", "attention_mask", "special_tokens_mask", "type_ids")
# Every per-token column: the six fields, then each token's word and sequence (None for the
# tokens that post-processing and padding add).
_COLUMNS = (*_KEYS, "word_ids", "sequence_ids")


class Encoding:
    """The tokens of one encoded text or pair; reads like a dict and like attributes.

    The twin of ``fast_wordpiece.Encoding``: ``len(encoding)`` is the number of
    tokens, ``encoding["ids"]`` (and the other names ``keys()`` lists) a field."""

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

    def token_to_sequence(self, token_index: int) -> int | None:
        """The sequence of token ``token_index``; None for an added token or an index out of range."""
        return self._column_at("sequence_ids", token_index)

    def token_to_word(self, token_index: int) -> int | None:
        """The word of token ``token_index`` within its sequence; None for an added token."""
        return self._column_at("word_ids", token_index)

    def token_to_chars(self, token_index: int) -> Offsets | None:
        """The offsets of token ``token_index``; None for an added token."""
        if self.token_to_sequence(token_index) is None:
            return None
        offsets: list[Offsets] = self._fields["offsets"]
        return offsets[token_index]

    def word_to_tokens(self, word_index: int, sequence_index: int = 0) -> tuple[int, int] | None:
        """The tokens ``(start, end)`` of word ``word_index`` of sequence ``sequence_index``."""
        _check_index(word_index, "word_index")
        found = []
        for i, word in enumerate(self._fields["word_ids"]):
            if not self._looked_at(i, sequence_index) or word is None:
                continue
            if word > word_index:  # as Hugging Face: the search stops at the first later word
                break
            if word == word_index:
                found.append(i)
        return (found[0], found[-1] + 1) if found else None

    def word_to_chars(self, word_index: int, sequence_index: int = 0) -> Offsets | None:
        """The characters ``(start, end)`` of word ``word_index`` of sequence ``sequence_index``."""
        tokens = self.word_to_tokens(word_index, sequence_index)
        if tokens is None:
            return None
        offsets = self._fields["offsets"]
        return offsets[tokens[0]][0], offsets[tokens[1] - 1][1]

    def char_to_token(self, char_pos: int, sequence_index: int = 0) -> int | None:
        """The first token of sequence ``sequence_index`` whose offsets hold character ``char_pos``."""
        _check_index(char_pos, "char_pos")
        for i, (start, end) in enumerate(self._fields["offsets"]):
            if (
                self._fields["word_ids"][i] is not None
                and self._looked_at(i, sequence_index)
                and start <= char_pos < end
            ):
                return i
        return None

    def char_to_word(self, char_pos: int, sequence_index: int = 0) -> int | None:
        """The word of sequence ``sequence_index`` that holds character ``char_pos``."""
        token = self.char_to_token(char_pos, sequence_index)
        return None if token is None else self.token_to_word(token)

    def _looked_at(self, token_index: int, sequence_index: int) -> bool:
        """Whether token ``token_index`` is searched when sequence ``sequence_index`` is asked for: as in
        Hugging Face, asking for a sequence the encoding does not have searches all of it."""
        _check_index(sequence_index, "sequence_index")
        return sequence_index >= self._n_sequences or self._fields["sequence_ids"][token_index] == sequence_index

    def _column_at(self, column: str, token_index: int) -> int | None:
        values: list[int | None] = self._fields[column]
        if not isinstance(token_index, int) or isinstance(token_index, bool):
            raise TypeError(f"token_index must be an int, not {type(token_index).__name__}")
        return values[token_index] if -len(values) <= token_index < len(values) else None

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
            raise KeyError(f"{key!r}: an Encoding has the keys {list(_KEYS)}")
        return list(self._fields[key])

    def __contains__(self, key: object) -> bool:
        return key in _KEYS

    def keys(self) -> list[str]:
        """The six field names, as for a dict."""
        return list(_KEYS)

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

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = repr(self.tokens[:8])[:-1] + (", ..." if len(self) > 8 else "")
        return f"Encoding(n_tokens={len(self)}, tokens={shown}])"


def _check_index(value: object, name: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be >= 0, not {value}")
