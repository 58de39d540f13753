"""The pure-Python twin of the engine: docs/spec.md, written out plainly.

This package is the oracle the Rust engine is tested against. It has the
engine's algorithms and core API (``PyTokenizer``, ``Encoding``,
``DEFAULT_SPECIAL_TOKENS``, and the rest of the family: ``BPETokenizer``,
``CharTokenizer``, ``UnigramTokenizer``) and follows the specification
section by section, one module per stage, choosing the obvious algorithm over
a fast one: training recounts every pair frequency at every merge, and the
normalizer runs its stages one after the other over the whole text.

Where its API differs from the engine's:

- ``PyTokenizer`` has no ``train_from_files``; its ``train`` and
  ``train_from_counts`` take the engine's ``show_progress=True`` and show
  only the line that ends the merging early (as the engine's progress
  ends). The family's ``train`` methods take ``show_progress=True`` too,
  and show no progress.
- ``UnigramTokenizer``: besides ``encode(text, alpha=, nbest=, seed=)``,
  ``sample(text, alpha, nbest=-1, seed=0)`` draws a segmentation.
- ``PyTokenizer``'s ``from_json`` and ``from_str`` name their argument
  ``json_text``, not ``json``.
- ``PyTokenizer.is_fast`` is False (the engine's is True, as transformers'
  fast tokenizers'): the twin is pure Python, though its encodings have
  the same alignment (offsets, ``word_ids``, ``char_to_token``). Code that
  asks ``is_fast`` before using them takes another path with the twin.
"""

from fast_wordpiece.added_token import AddedToken
from fast_wordpiece.reference.bpe import BPETokenizer
from fast_wordpiece.reference.chars import CharTokenizer
from fast_wordpiece.reference.common import DEFAULT_SPECIAL_TOKENS
from fast_wordpiece.reference.counts import WordCounts, count_words
from fast_wordpiece.reference.decoder import decode_tokens
from fast_wordpiece.reference.encoding import Encoding
from fast_wordpiece.reference.options import EncodeOptions, Options
from fast_wordpiece.reference.stages import Decoder, Normalizer, PreTokenizer
from fast_wordpiece.reference.tokenizer import PyTokenizer
from fast_wordpiece.reference.unigram import UnigramEncoding, UnigramTokenizer

__all__ = [
    "DEFAULT_SPECIAL_TOKENS",
    "AddedToken",
    "BPETokenizer",
    "CharTokenizer",
    "Decoder",
    "EncodeOptions",
    "Encoding",
    "Normalizer",
    "Options",
    "PreTokenizer",
    "PyTokenizer",
    "UnigramEncoding",
    "UnigramTokenizer",
    "WordCounts",
    "count_words",
    "decode_tokens",
]
