"""What fast_wordpiece.dask and fast_wordpiece.spark share: their optional
engines, imported with a hint, and their checks of the counting options."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterator
from typing import Any

from fast_wordpiece import PyTokenizer, WordCounts
from fast_wordpiece.batch_encoding import _is_numpy_bool, _type_name
from fast_wordpiece.train_new import NO_WORDS

#: The most parts ``WordCounts.split`` makes.
MAX_PARTS = 2**20


def require(module: str, extra: str) -> Any:
    """``module``, imported; when it is missing, an ImportError that names the extra installing it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(
            f'fast_wordpiece.{extra} needs {module.split(".")[0]}: pip install "fast-wordpiece[{extra}]" '
            f'(in a checkout of fast-wordpiece: pip install ".[{extra}]"); {e}'
        ) from e


#: The pipeline options that do not change counting: a cluster ``train`` gives them to
#: ``PyTokenizer.train_from_counts`` rather than to its counting.
PIPELINE_ONLY = (
    "unk_token",
    "cls_token",
    "sep_token",
    "pad_token",
    "max_input_chars_per_word",
    "decoder_cleanup",
    "post_processor",
    "decoder",
    "split_special_tokens",
)


def check_counting_options(function: Callable[..., Any], options: dict[str, Any], also: tuple[str, ...] = ()) -> None:
    """Checks the ``**options`` given to ``function`` (counting options, as ``WordCounts``
    takes them, and the names in ``also``); a TypeError for another name lists what ``function``
    takes instead."""
    counting = list(WordCounts().options)
    unknown = [name for name in options if name not in counting and name not in also]
    if unknown:
        own = [p.name for p in inspect.signature(function).parameters.values() if p.kind is p.KEYWORD_ONLY]
        raise TypeError(
            f"{function.__module__}.{function.__qualname__}() got an unexpected keyword argument {unknown[0]!r} "
            f"(it takes {', '.join(own)}, the counting options {', '.join(counting)}"
            + (f" and the pipeline options {', '.join(also)})" if also else ")")
        )
    WordCounts(**{name: value for name, value in options.items() if name not in also})  # their values


def check_pruning(min_count: Any, max_words: Any) -> None:
    """``min_count`` and ``max_words`` checked as ``WordCounts.prune`` checks them, before any
    cluster work rather than on the workers."""
    WordCounts().prune(min_count, max_words=max_words)


def check_parts(name: str, value: Any, minimum: int) -> None:
    """A count of parts or of partial sums: an int (not a bool) from ``minimum`` to ``MAX_PARTS``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be int, not {_type_name(value)}")
    if not minimum <= value <= MAX_PARTS:
        raise ValueError(f"{name} must be between {minimum} and {MAX_PARTS}, not {value}")


def train_counted(
    function: Callable[..., Any],
    count: Callable[[dict[str, Any]], WordCounts],
    vocab_size: Any,
    min_frequency: Any,
    show_progress: Any,
    options: dict[str, Any],
    training: dict[str, Any],
) -> PyTokenizer:
    """A cluster ``train``: its ``options`` checked (counting options and ``PIPELINE_ONLY``) and
    its ``training`` arguments checked by the training's own checks, before any cluster work;
    then ``count`` (given the counting options) and ``PyTokenizer.train_from_counts`` (given the
    others)."""
    check_counting_options(function, options, PIPELINE_ONLY)
    training = check_training(vocab_size, min_frequency, show_progress, options, **training)
    counting = {name: value for name, value in options.items() if name not in PIPELINE_ONLY}
    pipeline = {name: value for name, value in options.items() if name in PIPELINE_ONLY}
    return PyTokenizer.train_from_counts(
        count(counting), vocab_size, min_frequency, show_progress=show_progress, **training, **pipeline
    )


def check_training(
    vocab_size: Any, min_frequency: Any, show_progress: Any, options: dict[str, Any], **training: Any
) -> dict[str, Any]:
    """The training's own checks of its arguments, run on a one-word count before any cluster
    work, so that a bad argument fails now rather than after the counting (a one-word corpus
    that training finds no word in is no error here). Returns ``training`` for the training
    itself (an iterator given as ``initial_alphabet`` read into a list: it is read twice)."""
    if not (isinstance(show_progress, bool) or _is_numpy_bool(show_progress)):
        raise TypeError(f"show_progress must be bool, not {_type_name(show_progress)}")
    if isinstance(training.get("initial_alphabet"), Iterator):
        training["initial_alphabet"] = list(training["initial_alphabet"])
    try:
        PyTokenizer.train_from_counts({"a": 1}, vocab_size, min_frequency, **training, **options, show_progress=False)
    except ValueError as e:
        if str(e) != NO_WORDS:
            raise
    return training
