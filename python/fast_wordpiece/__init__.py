"""fast-wordpiece: a WordPiece tokenizer with a Rust engine.

Training is exact and deterministic, by default on WordPiece's likelihood gain
(``objective="pmi"`` gives the Hugging Face course's ``freq(ab) / (freq(a) * freq(b))``,
``"frequency"`` the pair count); encoding gives exactly what BERT's tokenizer
gives. ``fast_wordpiece.reference`` is a pure-Python twin with the same API,
the oracle the engine is tested against.
"""

from fast_wordpiece._native import (
    DEFAULT_SPECIAL_TOKENS,
    BPETokenizer,
    CharTokenizer,
    Decoder,
    Encoding,
    Normalizer,
    PreTokenizer,
    PyTokenizer,
    UnigramEncoding,
    UnigramTokenizer,
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
    "Decoder",
    "Encoding",
    "Normalizer",
    "PreTokenizer",
    "PyTokenizer",
    "RaggedBatch",
    "UnigramEncoding",
    "UnigramTokenizer",
    "WordCounts",
    "__version__",
    "count_words",
]
