"""The two implementations every behavioural test runs against."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

IMPLEMENTATIONS = {"engine": "fast_wordpiece", "twin": "fast_wordpiece.reference"}


def tokenizer_class(name: str) -> type:
    return importlib.import_module(IMPLEMENTATIONS[name]).PyTokenizer


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """What a call gives: ("ok", its result) or the exception's type and message, so that the
    engine and the twin can be compared on good and bad input alike."""
    try:
        result = call()
    except Exception as e:  # the outcome is what is compared
        return type(e).__name__, str(e)
    return "ok", result
