"""Spec section 9, padding (Hugging Face's ``pad_encodings``) and numpy arrays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fast_wordpiece.ragged import RaggedBatch
from fast_wordpiece.reference.encoding import _COLUMNS, Encoding
from fast_wordpiece.reference.options import PAD_TOKEN, EncodeOptions

__all__ = ["PAD_TOKEN", "numpy_arrays", "pad", "padding_length", "ragged_batch"]


def pad(encoding: Encoding, length: int, pad_id: int, side: str, pad_token: str = PAD_TOKEN) -> Encoding:
    """``encoding`` and its overflowing windows, padded to ``length`` tokens on ``side`` with ``pad_token``
    (whose id is ``pad_id``)."""
    n = max(0, length - len(encoding))
    try:
        filler: dict[str, list[Any]] = {"ids": [pad_id] * n, "tokens": [pad_token] * n, "offsets": [(0, 0)] * n,
                  "special_tokens_mask": [1] * n, "type_ids": [0] * n, "attention_mask": [0] * n,
                  "word_ids": [None] * n, "sequence_ids": [None] * n}  # fmt: skip
    except (MemoryError, OverflowError):  # OverflowError: beyond any list's size
        raise MemoryError(f"an encoding of {length} tokens needs more memory than can be reserved") from None
    own = encoding._columns()
    columns = {key: filler[key] + own[key] if side == "left" else own[key] + filler[key] for key in _COLUMNS}
    overflowing = [pad(o, length, pad_id, side, pad_token) for o in encoding.overflowing]
    return Encoding._from_columns(columns, overflowing, n_sequences=encoding.n_sequences)


def padding_length(batch: Sequence[Encoding], options: EncodeOptions) -> int:
    """The longest encoding of the batch (its windows not counted) or ``max_length``, rounded up to
    a multiple of ``pad_to_multiple_of``."""
    fixed = options.max_length if options.pad_length is None else options.pad_length
    length = max(map(len, batch), default=0) if options.padding == "longest" else fixed
    assert length is not None
    multiple = options.pad_to_multiple_of or 1
    return -(-length // multiple) * multiple


def numpy_arrays(batch: Sequence[Encoding], special_tokens_mask: bool = False) -> dict[str, Any]:
    """``return_tensors="np"``: int64 arrays n × length (n × length × 2 for the offsets), and the
    special-tokens mask on request."""
    numpy = _import_numpy()
    length = len(batch[0]) if batch else 0
    for i, encoding in enumerate(batch):
        if len(encoding) != length:
            raise ValueError(f'return_tensors="np" needs encodings of equal length, but inputs[0] has {length} '
                             f'tokens and inputs[{i}] has {len(encoding)}: pass padding="longest" or '
                             'padding="max_length"')  # fmt: skip

    def array(key: str, *shape: int) -> Any:
        return numpy.array([encoding[key] for encoding in batch], dtype=numpy.int64).reshape(len(batch), length, *shape)

    arrays = {"input_ids": array("ids"), "attention_mask": array("attention_mask"),
              "token_type_ids": array("type_ids"), "offsets": array("offsets", 2)}  # fmt: skip
    if special_tokens_mask:
        arrays["special_tokens_mask"] = array("special_tokens_mask")
    return arrays


def ragged_batch(batch: Sequence[Encoding], token_type_ids: bool, offsets: bool, special_tokens_mask: bool) -> Any:
    """``return_tensors="np"`` without padding: the rows end to end as flat int64 arrays, and where each starts."""
    numpy = _import_numpy()
    starts = [0]
    for encoding in batch:
        starts.append(starts[-1] + len(encoding))

    def flat(key: str) -> Any:
        return numpy.array([v for encoding in batch for v in encoding[key]], dtype=numpy.int64)

    return RaggedBatch(
        flat("ids"),
        numpy.array(starts, dtype=numpy.int64),
        flat("type_ids") if token_type_ids else None,
        flat("offsets").reshape(-1, 2) if offsets else None,
        flat("special_tokens_mask") if special_tokens_mask else None,
    )


def _import_numpy(what: str = 'return_tensors="np"') -> Any:
    try:
        import numpy
    except ImportError as e:
        raise ImportError(f"{what} needs numpy, which could not be imported ({e})") from None
    return numpy
