"""Spec section 3: the pre-tokenizers, each a regular expression that matches the words."""

from __future__ import annotations

import re
import string

from fast_wordpiece.reference.common import Offsets
from fast_wordpiece.reference.unicode import PUNCTUATION, REGEX_WORD, WHITESPACE, WORD

PRE_TOKENIZERS = ("bert", "whitespace", "regex", "wordpunct")
_SPACE = re.escape(WHITESPACE)
_BERT_PUNCTUATION = re.escape(string.punctuation) + PUNCTUATION.regex_set()
_WORD = WORD.regex_set()
_REGEX_WORD = REGEX_WORD.regex_set()
PRE_TOKENIZER_PATTERNS = {
    "bert": re.compile(f"[{_BERT_PUNCTUATION}]|[^{_BERT_PUNCTUATION}{_SPACE}]+"),  # punctuation alone, or a run
    "whitespace": re.compile(f"[^{_SPACE}]+"),
    "regex": re.compile(f"[{_WORD}]+|[^{_WORD}{_SPACE}]"),  # the seed's \w+|[^\w\s]
    # Hugging Face's Whitespace: \w+|[^\w\s]+ with Unicode's \w (UTS #18)
    "wordpunct": re.compile(f"[{_REGEX_WORD}]+|[^{_REGEX_WORD}{_SPACE}]+"),
}


def pre_tokenize(name: str, text: str) -> list[Offsets]:
    """The ``(start, end)`` spans of the words of ``text``."""
    return [match.span() for match in PRE_TOKENIZER_PATTERNS[name].finditer(text)]
