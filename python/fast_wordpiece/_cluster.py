"""What fast_wordpiece.dask and fast_wordpiece.spark share: their optional
engines, imported with a hint, and their checks of the counting options."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from fast_wordpiece import WordCounts


def require(module: str, extra: str) -> Any:
    """``module``, imported; when it is missing, an ImportError that names the extra installing it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(
            f'fast_wordpiece.{extra} needs {module.split(".")[0]}: pip install "fast-wordpiece[{extra}]" '
            f'(in a checkout of fast-wordpiece: pip install ".[{extra}]"); {e}'
        ) from e


def check_counting_options(function: Callable[..., Any], options: dict[str, Any]) -> None:
    """Checks the ``**options`` given to ``function`` (counting options, as ``WordCounts``
    takes them); a TypeError for another name lists what ``function`` takes instead."""
    counting = list(WordCounts().options)
    unknown = [name for name in options if name not in counting]
    if unknown:
        own = [p.name for p in inspect.signature(function).parameters.values() if p.kind is p.KEYWORD_ONLY]
        raise TypeError(
            f"{function.__module__}.{function.__qualname__}() got an unexpected keyword argument {unknown[0]!r} "
            f"(it takes {', '.join(own)} and the counting options {', '.join(counting)})"
        )
    WordCounts(**options)  # their values
