"""``RaggedBatch``: what ``encode_batch(texts, return_tensors="np")`` returns without padding.

Rows of different lengths as flat numpy arrays: every row's token ids one after
the other in ``input_ids``, and ``row_offsets`` (``len(batch) + 1`` values) saying
where each row starts and ends, so that row ``i`` is
``input_ids[row_offsets[i]:row_offsets[i + 1]]``. No Python object is made per
token or per row: the engine fills the arrays in parallel with the GIL released.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from typing import Any, SupportsIndex


class RaggedBatch:
    """A batch of encodings of different lengths as flat int64 arrays.

    * ``input_ids``: every row's ids, row after row (``row_offsets[-1]`` values);
    * ``row_offsets``: ``len(self) + 1`` increasing values from 0: row ``i`` is
      ``input_ids[row_offsets[i]:row_offsets[i + 1]]``;
    * ``token_type_ids``, ``special_tokens_mask``: one value per token, like
      ``input_ids``, when asked for (``return_token_type_ids=True``,
      ``return_special_tokens_mask=True``), else None;
    * ``offsets``: ``(start, end)`` character offsets, an array of
      ``row_offsets[-1]`` × 2, when asked for (``return_offsets=True``), else None.

    ``batch[i]`` is row ``i``'s ids (a view), ``len(batch)`` the number of rows,
    ``batch.lengths`` the tokens per row and ``batch.tolist()`` the ids as lists.
    """

    __slots__ = {
        "input_ids": "Every row's ids, row after row (int64, ``row_offsets[-1]`` values).",
        "offsets": "``(start, end)`` character offsets, ``row_offsets[-1]`` × 2, or None if not asked for.",
        "row_offsets": "``len(self) + 1`` increasing values from 0: where each row starts and ends.",
        "special_tokens_mask": "1 for each special token, like ``input_ids``, or None if not asked for.",
        "token_type_ids": "Each token's type id, like ``input_ids``, or None if not asked for.",
    }

    def __init__(
        self,
        input_ids: Any,
        row_offsets: Any,
        token_type_ids: Any = None,
        offsets: Any = None,
        special_tokens_mask: Any = None,
    ) -> None:
        self.input_ids = input_ids
        self.row_offsets = row_offsets
        self.token_type_ids = token_type_ids
        self.offsets = offsets
        self.special_tokens_mask = special_tokens_mask

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # (``__slots__`` without ``__getstate__``: protocols 0 and 1 could not pickle it)
        fields = (self.input_ids, self.row_offsets, self.token_type_ids, self.offsets, self.special_tokens_mask)
        return (type(self), fields)

    def __len__(self) -> int:
        """The number of rows."""
        return len(self.row_offsets) - 1

    def _row(self, index: SupportsIndex) -> int:
        """Row ``index`` from 0 (negative: from the end): an int, or what ``operator.index``
        takes (numpy's ``int64``, as ``numpy.argmax`` gives); a bool is a TypeError."""
        n = len(self)
        try:
            if isinstance(index, bool) or type(index).__name__ in ("bool", "bool_"):
                raise TypeError
            value = operator.index(index)
        except TypeError:
            raise TypeError(f"rows are indexed by int, not {type(index).__name__}") from None
        i = value + n if value < 0 else value
        if not 0 <= i < n:
            raise IndexError(f"row {value} is out of range for {n} rows")
        return i

    def __getitem__(self, index: SupportsIndex) -> Any:
        """Row ``index``'s ids, a view into ``input_ids``."""
        i = self._row(index)
        return self.input_ids[self.row_offsets[i] : self.row_offsets[i + 1]]

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self[i]

    @property
    def lengths(self) -> Any:
        """The number of tokens of each row."""
        return self.row_offsets[1:] - self.row_offsets[:-1]

    def row(self, field: str, index: SupportsIndex) -> Any:
        """Row ``index`` of the column ``field`` (``"input_ids"``, ``"token_type_ids"``,
        ``"special_tokens_mask"`` or ``"offsets"``), a view."""
        if field not in ("input_ids", "token_type_ids", "special_tokens_mask", "offsets"):
            raise ValueError(f"no column {field!r}")
        column = getattr(self, field)
        if column is None:
            raise ValueError(f"{field} was not asked for: pass return_{field}=True")
        i = self._row(index)
        return column[self.row_offsets[i] : self.row_offsets[i + 1]]

    def tolist(self) -> list[list[int]]:
        """Each row's ids as a list of int."""
        flat = self.input_ids.tolist()
        bounds = self.row_offsets.tolist()
        return [flat[a:b] for a, b in zip(bounds, bounds[1:])]

    def __repr__(self) -> str:
        asked = [f for f in ("token_type_ids", "offsets", "special_tokens_mask") if getattr(self, f) is not None]
        extra = f", with {', '.join(asked)}" if asked else ""
        return f"RaggedBatch({len(self)} rows, {len(self.input_ids)} tokens{extra})"
