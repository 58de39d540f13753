"""The two implementations every behavioural test runs against."""

from __future__ import annotations

import importlib

import pytest

IMPLEMENTATIONS = {"engine": "fast_wordpiece", "twin": "fast_wordpiece.reference"}


def tokenizer_class(name: str) -> type:
    return importlib.import_module(IMPLEMENTATIONS[name]).PyTokenizer


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def Tokenizer(request: pytest.FixtureRequest) -> type:
    """The engine's PyTokenizer, then the twin's: the same API."""
    return tokenizer_class(request.param)
