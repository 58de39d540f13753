"""The result of encoding one text or pair."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fast_wordpiece.reference.common import Offsets

_KEYS = ("ids", "tokens", "offsets", "attention_mask", "special_tokens_mask", "type_ids")


class Encoding:
    """The tokens of one encoded text or pair; reads like a dict and like attributes."""

    __slots__ = ("_fields", "_overflowing")

    def __init__(self, ids: list[int], tokens: list[str], offsets: list[Offsets], special_tokens_mask: list[int],
                 type_ids: list[int], attention_mask: list[int] | None = None,
                 overflowing: Sequence[Encoding] = ()) -> None:  # fmt: skip
        attention = [1] * len(ids) if attention_mask is None else attention_mask
        columns = (ids, tokens, offsets, attention, special_tokens_mask, type_ids)
        self._fields: dict[str, list[Any]] = dict(zip(_KEYS, columns))
        self._overflowing = list(overflowing)

    ids = property(lambda self: self["ids"], doc="Token ids.")
    tokens = property(lambda self: self["tokens"], doc="Token strings.")
    offsets = property(lambda self: self["offsets"], doc="(start, end) in characters of the original text.")
    attention_mask = property(lambda self: self["attention_mask"], doc="1 for every token.")
    special_tokens_mask = property(lambda self: self["special_tokens_mask"], doc="1 for the added [CLS], [SEP].")
    type_ids = property(lambda self: self["type_ids"], doc="0 for the first sequence, 1 for the second.")
    overflowing = property(lambda self: list(self._overflowing), doc="The windows that truncation cut off.")

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
        if key not in _KEYS:
            raise KeyError(f"{key!r}: an Encoding has the keys {list(_KEYS)}")
        return list(self._fields[key])

    def __contains__(self, key: object) -> bool:
        return key in _KEYS

    def keys(self) -> list[str]:
        return list(_KEYS)

    def to_dict(self) -> dict[str, list[Any]]:
        return {key: self[key] for key in _KEYS}

    def __len__(self) -> int:
        return len(self._fields["ids"])

    def __eq__(self, other: object) -> bool:
        to_dict, overflowing = getattr(other, "to_dict", None), getattr(other, "overflowing", None)
        if not callable(to_dict) or overflowing is None:
            return NotImplemented
        return bool(self.to_dict() == to_dict() and self.overflowing == overflowing)

    def _slice(self, start: int, stop: int) -> Encoding:
        """Tokens ``start:stop``, without overflowing windows."""
        return Encoding._from_columns({key: self[key][start:stop] for key in _KEYS})

    def _joined(self, other: Encoding, overflowing: Sequence[Encoding] = ()) -> Encoding:
        """This encoding's tokens followed by ``other``'s."""
        return Encoding._from_columns({key: self[key] + other[key] for key in _KEYS}, overflowing)

    @staticmethod
    def _from_columns(columns: Mapping[str, list[Any]], overflowing: Sequence[Encoding] = ()) -> Encoding:
        """An Encoding from its six fields by name."""
        c = columns
        return Encoding(c["ids"], c["tokens"], c["offsets"], c["special_tokens_mask"], c["type_ids"],
                        c["attention_mask"], overflowing)  # fmt: skip

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = repr(self.tokens[:8])[:-1] + (", ..." if len(self) > 8 else "")
        return f"Encoding(n_tokens={len(self)}, tokens={shown}])"
