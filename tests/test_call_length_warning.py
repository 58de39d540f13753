"""The call's warning about a sequence longer than ``model_max_length`` (spec section 11), as
transformers 5 gives it: when the call neither truncates nor pads to a length, a row is longer than
the model takes, and ``verbose`` is true; the first such row's length, once per tokenizer, on the
``fast_wordpiece`` logger. Each case is compared with transformers' ``AutoTokenizer`` on the same
directory, for ``PyTokenizer`` and ``UnigramTokenizer``, engine and twin.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS

transformers = pytest.importorskip("transformers", reason="optional: transformers is not installed")

CORPUS = ["hello world the quick brown fox jumps over the lazy dog", "hello there brown world"] * 20
SHORT, LONG = "hello fox", "hello world the quick brown fox jumps"
#: (positional arguments, keyword arguments) of calls with a model_max_length of 6.
CASES: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((LONG,), {}),
    ((SHORT,), {}),
    (([SHORT, LONG, LONG + " over"],), {}),
    ((LONG,), {"truncation": True}),
    ((LONG,), {"max_length": 9}),
    ((LONG,), {"padding": "longest"}),
    (([SHORT, LONG],), {"padding": True, "return_tensors": "np"}),
    ((LONG,), {"padding": "max_length"}),
    ((LONG,), {"verbose": False}),
    ((SHORT, "the lazy dog"), {}),
    ((), {"text_target": LONG}),
    ((SHORT,), {"text_target": LONG}),
    ((LONG,), {"truncation": True, "return_overflowing_tokens": True, "stride": 1}),
    ((LONG.split(),), {"is_split_into_words": True}),
    (([SHORT, SHORT],), {"truncation": "do_not_truncate"}),
]
UNIGRAM_CASES = [case for case in CASES if "text_target" not in case[1] and "is_split_into_words" not in case[1]
                 and "return_overflowing_tokens" not in case[1]]  # fmt: skip


@pytest.fixture
def both_loggers(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Records of our logger and of transformers' (which does not propagate unless asked)."""
    transformers.logging.enable_propagation()
    try:
        with caplog.at_level(logging.WARNING):
            yield caplog
    finally:
        transformers.logging.disable_propagation()


def _saved(impl: str, kind: str, directory: Path) -> Any:
    module = importlib.import_module(IMPLEMENTATIONS[impl])
    if kind == "wordpiece":
        tokenizer = module.PyTokenizer.train(CORPUS, 60, show_progress=False)
    else:
        tokenizer = module.UnigramTokenizer.train(CORPUS, 40, show_progress=False)
        tokenizer.pad_token = tokenizer.unk_token
    tokenizer.model_max_length = 6
    tokenizer.save_pretrained(directory)
    return type(tokenizer)


def _warnings(caplog: pytest.LogCaptureFixture, logger: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith(logger) and "Token indices" in r.getMessage()]


@pytest.mark.parametrize("kind", ["wordpiece", "unigram"])
@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_a_sequence_longer_than_the_model_takes_warns_as_in_transformers(
    impl: str, kind: str, tmp_path: Path, both_loggers: pytest.LogCaptureFixture
) -> None:
    loader = _saved(impl, kind, tmp_path)
    for args, kwargs in CASES if kind == "wordpiece" else UNIGRAM_CASES:
        both_loggers.clear()
        transformers.AutoTokenizer.from_pretrained(str(tmp_path))(*args, **kwargs)
        loader.from_pretrained(tmp_path)(*args, **kwargs)
        theirs = _warnings(both_loggers, "transformers")
        assert _warnings(both_loggers, "fast_wordpiece") == theirs, (args, kwargs)
        if not kwargs and args == (LONG,):
            assert theirs, "the case that must warn did not"


@pytest.mark.parametrize("kind", ["wordpiece", "unigram"])
@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_the_warning_comes_once_per_tokenizer(
    impl: str, kind: str, tmp_path: Path, both_loggers: pytest.LogCaptureFixture
) -> None:
    tokenizer = _saved(impl, kind, tmp_path).from_pretrained(tmp_path)
    for _ in range(3):
        tokenizer(LONG)
        tokenizer([LONG, LONG + " over"])
    assert _warnings(both_loggers, "fast_wordpiece") == [
        "Token indices sequence length is longer than the specified maximum sequence length for this model "
        f"({len(tokenizer(LONG)['input_ids'])} > 6). Running this sequence through the model will result in "
        "indexing errors"
    ]
    both_loggers.clear()
    type(tokenizer).from_pretrained(tmp_path)(LONG)  # another tokenizer warns again
    assert len(_warnings(both_loggers, "fast_wordpiece")) == 1


@pytest.mark.parametrize("kind", ["wordpiece", "unigram"])
@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_no_maximum_no_warning(impl: str, kind: str, tmp_path: Path, both_loggers: pytest.LogCaptureFixture) -> None:
    module = importlib.import_module(IMPLEMENTATIONS[impl])
    trained = module.PyTokenizer.train(CORPUS, 60, show_progress=False)
    if kind == "unigram":
        trained = module.UnigramTokenizer.train(CORPUS, 40, show_progress=False)
    trained.save_pretrained(tmp_path)  # no model_max_length: transformers' "no maximum"
    for tokenizer in (trained, type(trained).from_pretrained(tmp_path)):
        tokenizer(LONG * 50)
    assert _warnings(both_loggers, "fast_wordpiece") == []
