"""The family (BPETokenizer, CharTokenizer, UnigramTokenizer) takes what PyTokenizer takes:
``convert_ids_to_tokens`` one id or any sequence of ids (a range, a numpy array, ...)
(docs/spec.md section 17). The engine and the twin give the same results and the same errors."""

from __future__ import annotations

import functools
import re
from types import ModuleType
from typing import Any, Callable

import pytest

import fast_wordpiece
import fast_wordpiece.reference

np = pytest.importorskip("numpy")

MODULES = [fast_wordpiece, fast_wordpiece.reference]
TEXTS = ["hello world the quick brown fox", "hello there world"] * 5
FAMILY = ["bpe", "chars", "unigram"]


@functools.cache
def tokenizers(module: ModuleType) -> dict[str, Any]:
    """One tokenizer of each kind, made alike by the engine and the twin."""
    return {
        "wordpiece": module.PyTokenizer.train(TEXTS, 60, show_progress=False),
        "bpe": module.BPETokenizer.train(TEXTS, 270, special_tokens=["<pad>"]),
        "chars": module.CharTokenizer.train(TEXTS, special_tokens=["[UNK]", "<pad>"]),
        "unigram": module.UnigramTokenizer.train(TEXTS, 30, special_tokens=["<unk>", "<pad>"]),
    }


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """What a call gives: ("ok", its result) or the exception's type and message."""
    try:
        result = call()
    except Exception as e:  # the outcome is what is compared
        return type(e).__name__, str(e)
    return "ok", result


def engine_and_twin(call: Callable[[ModuleType], Any]) -> tuple[str, Any]:
    """The outcome of ``call`` on the engine, asserted to be the twin's."""
    engine, twin = (outcome(lambda m=m: call(m)) for m in MODULES)
    assert engine == twin
    return engine


# ----------------------------------------------------------------------------- convert_ids_to_tokens

SEQUENCES = [
    [1, 2, 3],
    (1, 2, 3),
    range(1, 4),
    np.arange(1, 4),
    np.array([1, 2, 3], dtype=np.uint8),
    [np.int64(1), np.array(2), 3],
]


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("module", MODULES, ids=["engine", "twin"])
def test_convert_ids_to_tokens_takes_any_sequence_of_ids_as_pytokenizer_does(module: ModuleType, name: str) -> None:
    tok = tokenizers(module)[name]
    wordpiece = tokenizers(module)["wordpiece"]
    tokens = [tok.id_to_token(i) for i in (1, 2, 3)]
    for ids in [*SEQUENCES, (i for i in (1, 2, 3))]:
        assert tok.convert_ids_to_tokens(ids) == tokens
    for ids in [*SEQUENCES, (i for i in (1, 2, 3))]:
        assert wordpiece.convert_ids_to_tokens(ids) == [wordpiece.id_to_token(i) for i in (1, 2, 3)]
    assert tok.convert_ids_to_tokens(range(0)) == tok.convert_ids_to_tokens(np.array([], dtype=np.int64)) == []
    assert tok.convert_ids_to_tokens(np.int64(2)) == tok.convert_ids_to_tokens(np.array(2)) == tokens[1]


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("module", MODULES, ids=["engine", "twin"])
def test_skip_special_tokens_drops_them_from_a_sequence_only(module: ModuleType, name: str) -> None:
    tok = tokenizers(module)[name]
    pad = tok.token_to_id("<pad>")
    ids = range(pad, pad + 3)
    assert tok.convert_ids_to_tokens(ids, skip_special_tokens=True) == [
        tok.id_to_token(pad + 1),
        tok.id_to_token(pad + 2),
    ]
    assert tok.convert_ids_to_tokens(np.array(ids), np.True_) == tok.convert_ids_to_tokens(ids, True)
    assert tok.convert_ids_to_tokens(pad, skip_special_tokens=True) == "<pad>"


BAD_IDS = [
    [10**6],
    range(10**6, 10**6 + 1),
    np.array([1, 10**6]),
    10**6,
    -1,
    [-1],
    2**70,
    [2**70],
    [1, "2"],
    [1, None],
    [True],
    True,
    np.True_,
    1.0,
    np.float64(1.0),
    np.array([[1, 2]]),
    "12",
    b"12",
    None,
    {1: 2}.items(),
]


def vocabulary_agnostic(message: str) -> str:
    """A message with the vocabulary size left out, to compare tokenizers of different sizes."""
    return re.sub(r"a vocabulary of \d+ tokens", "a vocabulary of N tokens", message)


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("ids", BAD_IDS, ids=repr)
def test_bad_ids_are_the_errors_of_pytokenizer(name: str, ids: Any) -> None:
    kind, message = engine_and_twin(lambda m: tokenizers(m)[name].convert_ids_to_tokens(ids))
    assert kind in ("TypeError", "ValueError")
    assert message.startswith("ids")
    wordpiece = outcome(lambda: tokenizers(fast_wordpiece)["wordpiece"].convert_ids_to_tokens(ids))
    assert (kind, vocabulary_agnostic(message)) == (wordpiece[0], vocabulary_agnostic(wordpiece[1]))


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("skip", [1, 0, None, "yes"], ids=repr)
def test_skip_special_tokens_is_a_bool(name: str, skip: Any) -> None:
    kind, message = engine_and_twin(lambda m: tokenizers(m)[name].convert_ids_to_tokens([1, 2], skip))
    assert kind == "TypeError"
    assert message.startswith("skip_special_tokens must be bool, not ")
