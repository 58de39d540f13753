"""The twin has the engine's public API: every public member of an engine class is a member of
its twin, but for the conveniences fast_wordpiece.reference's docstring lists; and the family's
lookups (``token_to_id``, ``id_to_token``), ``decode_batch`` and ``analyze`` give what the
engine gives, the same exception type and message for bad input too."""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any, Callable

import numpy as np
import pytest
from implementations import outcome

import fast_wordpiece
import fast_wordpiece.reference

TEXTS = ["hello world the quick brown fox", "hello there world"] * 5
#: Engine members the twin does without (fast_wordpiece.reference's docstring says so).
NOT_IN_THE_TWIN = {
    "PyTokenizer": {"train_from_files"},
    "BPETokenizer": set(),
    "CharTokenizer": set(),
    "UnigramTokenizer": set(),
    "WordCounts": set(),
    "Encoding": set(),
    "UnigramEncoding": set(),
}
#: Protocols an object of ours may have that a plain object has not.
DUNDERS = ("__call__", "__len__", "__getitem__", "__contains__", "__iter__", "__add__")


@functools.cache
def objects(module: ModuleType) -> dict[str, Any]:
    """One object of each public class, made alike by the engine and the twin."""
    wordpiece = module.PyTokenizer.train(TEXTS, 60, show_progress=False)
    unigram = module.UnigramTokenizer.train(TEXTS, 30, special_tokens=["<unk>", "<pad>"])
    return {
        "PyTokenizer": wordpiece,
        "BPETokenizer": module.BPETokenizer.train(TEXTS, 270, special_tokens=["<pad>"]),
        "CharTokenizer": module.CharTokenizer.train(TEXTS, special_tokens=["[UNK]", "<pad>"]),
        "UnigramTokenizer": unigram,
        "WordCounts": module.count_words(TEXTS, show_progress=False),
        "Encoding": wordpiece.encode("hello world"),
        "UnigramEncoding": unigram.encode("hello world"),
    }


def members(obj: Any) -> set[str]:
    return {n for n in dir(obj) if not n.startswith("_")} | {n for n in DUNDERS if hasattr(type(obj), n)}


@pytest.mark.parametrize("name", sorted(NOT_IN_THE_TWIN))
def test_the_twin_has_every_public_member_of_the_engine_but_those_listed(name: str) -> None:
    engine, twin = objects(fast_wordpiece)[name], objects(fast_wordpiece.reference)[name]
    assert members(engine) - members(twin) == NOT_IN_THE_TWIN[name]


def test_the_twin_lists_what_it_does_without() -> None:
    doc = fast_wordpiece.reference.__doc__ or ""
    for missing in set().union(*NOT_IN_THE_TWIN.values()):
        assert f"``{missing}``" in doc


FAMILY = ["BPETokenizer", "CharTokenizer", "UnigramTokenizer"]


def same_in_engine_and_twin(name: str, call: Callable[[Any], Any]) -> tuple[str, Any]:
    engine, twin = (outcome(lambda m=m: call(objects(m)[name])) for m in (fast_wordpiece, fast_wordpiece.reference))
    assert engine == twin
    return engine


IDS = [0, 1, 5, np.int64(5), np.uint8(5), np.array(5), 29, 30, 269, 270, 10**6, 2**63, 2**64 - 1]
BAD_IDS = [
    (-1, ValueError),
    (np.int64(-1), ValueError),
    (-(2**70), ValueError),
    (2**64, ValueError),
    (2**70, ValueError),
    (True, TypeError),
    (np.True_, TypeError),
    (1.0, TypeError),
    ("1", TypeError),
    (None, TypeError),
    (np.array([1]), TypeError),
]


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("id_", IDS, ids=repr)
def test_id_to_token_is_the_engines(name: str, id_: Any) -> None:
    kind, token = same_in_engine_and_twin(name, lambda tok: tok.id_to_token(id_))
    assert kind == "ok"
    assert (token is None) == (int(id_) >= objects(fast_wordpiece)[name].vocab_size)


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize(("id_", "error"), BAD_IDS, ids=repr)
def test_a_bad_id_is_the_engines_error(name: str, id_: Any, error: type) -> None:
    kind, message = same_in_engine_and_twin(name, lambda tok: tok.id_to_token(id_))
    assert kind == error.__name__
    assert message.startswith("id ")


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("token", ["h", "<pad>", "hello", "", "zzz", "\ud800", b"h", 1, None], ids=repr)
def test_token_to_id_is_the_engines(name: str, token: Any) -> None:
    same_in_engine_and_twin(name, lambda tok: tok.token_to_id(token))


def test_id_to_token_and_token_to_id_are_inverse_over_the_vocabulary() -> None:
    for name in FAMILY:
        twin = objects(fast_wordpiece.reference)[name]
        for token, i in twin.get_vocab().items():
            assert twin.id_to_token(i) == token
            assert twin.token_to_id(token) == i


SEQUENCES = [
    [[1, 2], [3]],
    ([1, 2], (np.int64(3),)),
    np.array([[1, 2], [3, 4]]),
    [],
    [[]],
    [[1, 2], [10**6]],
    [[1], [-1]],
    [[1], [True]],
    [[1], "ab"],
    [[1], b"ab"],
    [1, 2],
    [np.array(3)],
    "ab",
    None,
    5,
]


@pytest.mark.parametrize("name", ["BPETokenizer", "CharTokenizer"])
@pytest.mark.parametrize("skip", [False, True, np.True_, 1, None], ids=repr)
@pytest.mark.parametrize("sequences", SEQUENCES, ids=repr)
def test_decode_batch_is_the_engines(name: str, sequences: Any, skip: Any) -> None:
    kind, result = same_in_engine_and_twin(name, lambda tok: tok.decode_batch(sequences, skip))
    if kind == "ok":
        tok = objects(fast_wordpiece.reference)[name]
        assert result == [tok.decode(ids, bool(skip)) for ids in sequences]


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize(
    "texts",
    [
        TEXTS,
        ["hello <pad> world", "¿qué tal? 你好", ""],
        ["  two  spaces  ", "\u3000ideographic\u3000space\x1cand\x85next", "▁marked <unk><pad>x 🤗"],
        [],
        ["hello", 3],
        ["hello", "\ud800"],
        "hello",
    ],
    ids=["trained", "unknown", "whitespace", "none", "not-str", "surrogate", "str"],
)
def test_analyze_is_the_engines(name: str, texts: Any) -> None:
    same_in_engine_and_twin(name, lambda tok: tok.analyze(texts))


MERGES_VOCAB = ["[UNK]", "a", "b", "ab", "##b"]


@pytest.mark.parametrize(
    ("merges", "error"),
    [
        ([("a", "##b")], None),
        ((["a", "##b"],), None),
        ("an iterator", None),
        (np.array([]), None),
        ([["a", 1]], "TypeError: merges[0][1] must be str, not int"),
        ([(None, "b")], "TypeError: merges[0][0] must be str, not NoneType"),
        ([("a", "\ud800")], "ValueError: merges[0][1] contains a lone surrogate at index 0"),
        ([("a",)], "TypeError: merges[0] must be a pair of str"),
        ([("a", "b", "c")], "TypeError: merges[0] must be a pair of str"),
        ([b"ab"], "TypeError: merges[0] must be a pair of str"),
        (np.array([["a", "b"]]), "TypeError: merges[0] must be a pair of str"),
        ("ab", "TypeError: merges must be an iterable of pairs, not str"),
        (b"ab", "TypeError: merges must be an iterable of pairs, not bytes"),
        (5, "TypeError: merges must be an iterable of pairs, not int"),
    ],
    ids=repr,
)
def test_merges_of_a_pytokenizer_are_read_as_the_engine_reads_them(merges: Any, error: str | None) -> None:
    """Each bad merge is named with its place, and the item in it that is not a str; a numpy
    array is iterated as any iterable (never asked for its truth)."""

    def given() -> Any:
        return iter([("a", "##b")]) if isinstance(merges, str) and merges == "an iterator" else merges

    engine, twin = (
        outcome(lambda m=m: m.PyTokenizer(MERGES_VOCAB, merges=given()).merges)
        for m in (fast_wordpiece, fast_wordpiece.reference)
    )
    assert engine == twin
    if error is None:
        assert engine == ("ok", [] if isinstance(merges, np.ndarray) else [("a", "##b")])
    else:
        kind, message = error.split(": ", 1)
        assert engine[0] == kind, engine
        assert engine[1].startswith(message), engine
