"""fast-wordpiece: a WordPiece tokenizer with a Rust engine.

Training uses the true WordPiece objective, ``freq(ab) / (freq(a) * freq(b))``;
encoding gives exactly what BERT's tokenizer gives. ``fast_wordpiece.reference``
is a pure-Python twin with the same API, the oracle the engine is tested against.
"""

from fast_wordpiece._native import (
    DEFAULT_SPECIAL_TOKENS,
    BPETokenizer,
    CharTokenizer,
    Encoding,
    PyTokenizer,
    WordCounts,
    __version__,
    count_words,
)
from fast_wordpiece.added_token import AddedToken
from fast_wordpiece.batch_encoding import BatchEncoding
from fast_wordpiece.ragged import RaggedBatch

__all__ = [
    "DEFAULT_SPECIAL_TOKENS",
    "AddedToken",
    "BPETokenizer",
    "BatchEncoding",
    "CharTokenizer",
    "Encoding",
    "PyTokenizer",
    "RaggedBatch",
    "WordCounts",
    "__version__",
    "count_words",
]
