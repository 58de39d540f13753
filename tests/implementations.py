"""The two implementations every behavioural test runs against."""

from __future__ import annotations

import importlib

IMPLEMENTATIONS = {"engine": "fast_wordpiece", "twin": "fast_wordpiece.reference"}


def tokenizer_class(name: str) -> type:
    return importlib.import_module(IMPLEMENTATIONS[name]).PyTokenizer
