"""The two implementations every behavioural test runs against."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
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


class LazyBatch(Mapping):  # type: ignore[type-arg]
    """A mapping that is neither a dict nor a UserDict, as a ``datasets`` batch is."""

    def __init__(self, data: dict[str, list[str]]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> list[str]:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


TEXTS = ["hello world the quick brown fox", "hello there world"] * 5


@functools.cache
def small_tokenizers(module: ModuleType) -> dict[str, Any]:
    """One tokenizer of each kind, trained on TEXTS by ``module`` (the engine or the twin) alike,
    each with a padding token."""
    return {
        "wordpiece": module.PyTokenizer.train(TEXTS, 60, show_progress=False),
        "bpe": module.BPETokenizer.train(TEXTS, 270, special_tokens=["<pad>"]),
        "chars": module.CharTokenizer.train(TEXTS, special_tokens=["[UNK]", "<pad>"]),
        "unigram": module.UnigramTokenizer.train(TEXTS, 30, special_tokens=["<unk>", "<pad>"]),
    }


def call_fields(tokenizer: Any, text: Any, **kwargs: Any) -> Any:
    """What a transformers-style call gives: its fields as plain values (see ``plain``), or
    ("raised", the exception's type) for a ValueError or TypeError."""
    try:
        result = tokenizer(text, **kwargs)
    except (ValueError, TypeError) as e:
        return ("raised", type(e).__name__)
    return {key: plain(value) for key, value in result.items()}


def plain(value: Any) -> Any:
    """A numpy array as (dtype, shape, nested lists), ragged rows (an object array) each so;
    lists and tuples item by item; anything else as it is."""
    if type(value).__name__ == "ndarray":
        rows = [plain(v) for v in value] if value.dtype == object else value.tolist()
        return (str(value.dtype), value.shape, rows)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value
