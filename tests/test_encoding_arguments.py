"""The index arguments of an ``Encoding``'s alignment methods, and ``nbest`` of
``UnigramTokenizer.encode``, in the engine and the twin alike (docs/spec.md sections 6 and 14):
an index is an int, or an integer such as numpy's (``__index__``), never a bool; any other type
is a TypeError naming the argument. An index out of range gives None whatever its size (a
negative token index counts from the end; a negative word, character or sequence index is a
ValueError naming it); a sequence index past the encoding's searches every token. ``nbest``
of any size outside -1 and 1..10000 is a ValueError naming it. A ``BatchEncoding`` hands the index
to its row's encoding as it is, so a negative token index counts from the end of that row."""

from __future__ import annotations

import builtins
import importlib
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS

numpy = pytest.importorskip("numpy")

TOKEN_METHODS = ("token_to_word", "token_to_sequence", "token_to_chars")
# method: its first argument's name; each also takes sequence_index.
POSITION_METHODS = {"word_to_tokens": "word_index", "word_to_chars": "word_index",
                    "char_to_token": "char_pos", "char_to_word": "char_pos"}  # fmt: skip
HUGE = [2**31, 2**32, 2**63, 2**64, 2**200]
NOT_INTS = [True, False, numpy.bool_(True), None, 1.0, "1", b"1", [1]]


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def impl(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def enc(impl: str) -> Any:
    m = importlib.import_module(IMPLEMENTATIONS[impl])
    tok = m.PyTokenizer.train(["hello world there"] * 5, 40, show_progress=False)
    return tok.encode("hello world", "there")


def type_name(value: Any) -> str:
    """A type's name as errors show it: with its module when it is named as a builtin type but defined
    elsewhere (``numpy.bool``)."""
    kind = type(value)
    if kind.__module__ != "builtins" and hasattr(builtins, kind.__name__):
        return f"{kind.__module__}.{kind.__name__}"
    return kind.__name__


@pytest.mark.parametrize("method", TOKEN_METHODS)
def test_a_token_index_of_any_size_out_of_range_gives_none(enc: Any, method: str) -> None:
    for index in HUGE + [-i for i in HUGE] + [len(enc), -len(enc) - 1]:
        assert getattr(enc, method)(index) is None


@pytest.mark.parametrize("method", sorted(POSITION_METHODS))
def test_a_word_or_character_of_any_size_out_of_range_gives_none(enc: Any, method: str) -> None:
    for index in HUGE:
        assert getattr(enc, method)(index) is None
        assert getattr(enc, method)(index, 1) is None


@pytest.mark.parametrize("method", sorted(POSITION_METHODS))
def test_a_sequence_index_of_any_size_past_the_encodings_searches_every_token(enc: Any, method: str) -> None:
    position = 0 if method.startswith("word") else 1  # word 0 of each text, character 1 of each
    everywhere = getattr(enc, method)(position, 2)
    assert everywhere is not None
    for sequence in HUGE:
        assert getattr(enc, method)(position, sequence) == everywhere


@pytest.mark.parametrize("method", sorted(POSITION_METHODS))
def test_a_negative_position_of_any_size_is_a_value_error_naming_it(enc: Any, method: str) -> None:
    name = POSITION_METHODS[method]
    for index in (-1, -(2**63) - 1, -(2**200)):
        with pytest.raises(ValueError, match=rf"^{name} must be >= 0, not {index}$"):
            getattr(enc, method)(index)
        with pytest.raises(ValueError, match=rf"^sequence_index must be >= 0, not {index}$"):
            getattr(enc, method)(0, index)


class NegativeIndex:
    """An integer only through ``__index__``."""

    def __index__(self) -> int:
        return -3


@pytest.mark.parametrize("method", sorted(POSITION_METHODS))
def test_a_negative_position_through_index_is_named_by_its_value(enc: Any, method: str) -> None:
    """As an int is: the value ``__index__`` gives, not the object's repr."""
    name = POSITION_METHODS[method]
    with pytest.raises(ValueError, match=rf"^{name} must be >= 0, not -3$"):
        getattr(enc, method)(NegativeIndex())
    with pytest.raises(ValueError, match=r"^sequence_index must be >= 0, not -3$"):
        getattr(enc, method)(0, NegativeIndex())


def test_numpy_integers_are_indices_as_ints_are(enc: Any) -> None:
    for kind in (numpy.int64, numpy.int32, numpy.uint8, numpy.uint64):
        for method in TOKEN_METHODS:
            for i in range(-len(enc), len(enc)):
                if i >= 0 or numpy.issubdtype(kind, numpy.signedinteger):
                    assert getattr(enc, method)(kind(i)) == getattr(enc, method)(i)
        for method in POSITION_METHODS:
            for position in range(12):
                for sequence in range(3):
                    got = getattr(enc, method)(kind(position), sequence_index=kind(sequence))
                    assert got == getattr(enc, method)(position, sequence)
    assert enc.token_to_word(numpy.uint64(2**64 - 1)) is None


@pytest.mark.parametrize("value", NOT_INTS, ids=repr)
def test_any_other_type_is_a_type_error_naming_the_argument(enc: Any, value: Any) -> None:
    expected = f"must be an int, not {type_name(value)}$"
    for method in TOKEN_METHODS:
        with pytest.raises(TypeError, match=rf"^token_index {expected}"):
            getattr(enc, method)(value)
    for method, name in POSITION_METHODS.items():
        with pytest.raises(TypeError, match=rf"^{name} {expected}"):
            getattr(enc, method)(value)
        with pytest.raises(TypeError, match=rf"^sequence_index {expected}"):
            getattr(enc, method)(0, value)
        with pytest.raises(TypeError, match=rf"^sequence_index {expected}"):
            getattr(enc, method)(0, sequence_index=value)


def test_the_first_argument_is_checked_before_the_sequence_index(enc: Any) -> None:
    with pytest.raises(ValueError, match=r"^word_index"):
        enc.word_to_tokens(-1, -1)
    with pytest.raises(TypeError, match=r"^char_pos"):
        enc.char_to_token(None, None)


def test_an_exception_an_index_raises_comes_back_unchanged(enc: Any) -> None:
    class Broken:
        def __index__(self) -> int:
            raise KeyboardInterrupt

    for method in (*TOKEN_METHODS, *POSITION_METHODS):
        with pytest.raises(KeyboardInterrupt):
            getattr(enc, method)(Broken())


# ---------------------------------------------------------------------------- Unigram nbest


@pytest.fixture
def unigram(impl: str) -> Any:
    m = importlib.import_module(IMPLEMENTATIONS[impl])
    return m.UnigramTokenizer.train(["hello world"] * 5, 30)


@pytest.mark.parametrize("nbest", [2**63, -(2**63), -(2**63) - 1, 2**64, 2**200, -(2**200)], ids=str)
@pytest.mark.parametrize("alpha", [None, 0.1])
def test_nbest_of_any_size_out_of_range_is_a_value_error_naming_it(unigram: Any, nbest: int, alpha: Any) -> None:
    with pytest.raises(ValueError, match=rf"^nbest must be -1 .* or between 1 and 10000, not {nbest}$"):
        unigram.encode("hello", alpha=alpha, nbest=nbest)


@pytest.mark.parametrize("nbest", [True, None, 2.0, "2"], ids=repr)
def test_nbest_of_another_type_is_a_type_error_naming_it(unigram: Any, nbest: Any) -> None:
    with pytest.raises(TypeError, match=rf"^nbest must be int, not {type_name(nbest)}$"):
        unigram.encode("hello", alpha=0.1, nbest=nbest)


def test_nbest_in_range_samples(unigram: Any) -> None:
    assert unigram.encode("hello", alpha=0.1, nbest=1, seed=3).ids == unigram.encode("hello").ids
    # An integer scalar is taken as its int, as every integer argument is.
    assert unigram.encode("hello", alpha=0.1, nbest=numpy.int64(2), seed=3).ids == (
        unigram.encode("hello", alpha=0.1, nbest=2, seed=3).ids
    )
    assert unigram.encode("hello", alpha=0.1, nbest=10_000, seed=3).ids


# ---------------------------------------------------------------------------- BatchEncoding


def test_a_batch_counts_a_negative_token_index_from_the_end_of_its_row(impl: str) -> None:
    m = importlib.import_module(IMPLEMENTATIONS[impl])
    tok = m.PyTokenizer.train(["hello world there"] * 5, 40, show_progress=False)
    batch = tok(["hello world there", "there"])  # rows of 5 and 3 tokens: not padded
    for row, encoding in enumerate(batch.encodings):
        for t in range(-len(encoding) - 1, 0):
            assert batch.token_to_word(row, t) == encoding.token_to_word(t)
            assert batch.token_to_chars(row, t) == encoding.token_to_chars(t)
    assert batch.token_to_word(1, -2) == 0
    assert batch.token_to_sequence(-1, -2) == 0  # the last row


def test_a_batch_names_the_argument_of_a_wrong_type(impl: str) -> None:
    m = importlib.import_module(IMPLEMENTATIONS[impl])
    tok = m.PyTokenizer.train(["hello world there"] * 5, 40, show_progress=False)
    batch = tok(["hello world", "there"])
    with pytest.raises(TypeError, match=r"^token_index must be an int, not NoneType$"):
        batch.token_to_word(None)
    with pytest.raises(TypeError, match=r"^char_pos must be an int, not float$"):
        batch.char_to_token(0, 1.0)
    for bad in (None, 1.0, True):
        with pytest.raises(TypeError, match=rf"^batch_index must be an int, not {type_name(bad)}$"):
            batch.token_to_word(bad, 1)
    assert batch.token_to_word(numpy.int64(1), numpy.int64(1)) == 0


def test_the_per_row_methods_name_batch_index(impl: str) -> None:
    """``tokens``, ``word_ids``, ``words`` and ``sequence_ids`` take a row's index: an int (negative
    counts from the end); another type is a TypeError and a row past the batch an IndexError, both
    naming ``batch_index``."""
    m = importlib.import_module(IMPLEMENTATIONS[impl])
    tok = m.PyTokenizer.train(["hello world there"] * 5, 40, show_progress=False)
    batch = tok(["hello world", "there"])
    for method in ("tokens", "word_ids", "words", "sequence_ids"):
        read = getattr(batch, method)
        assert read(numpy.int64(-1)) == read(1) == getattr(batch.encodings[1], method.replace("words", "word_ids"))
        for bad in (None, 1.0, True, "0", [0]):
            with pytest.raises(TypeError, match=rf"^batch_index must be an int, not {type_name(bad)}$"):
                read(bad)
        with pytest.raises(IndexError, match=r"^batch_index 2 is out of range for 2 rows$"):
            read(2)


def test_the_alignment_methods_count_a_negative_row_from_the_end_once(impl: str) -> None:
    """The two-argument alignment methods take ``(batch_index, index)`` with a negative row counted
    from the end, as ``tokens`` does: a row before the first one is an IndexError naming
    ``batch_index``, not a row counted from the end twice."""
    m = importlib.import_module(IMPLEMENTATIONS[impl])
    tok = m.PyTokenizer.train(["hello world there"] * 5, 40, show_progress=False)
    batch = tok(["hello world", "there"])
    assert batch.word_to_chars(-1, 0) == batch.word_to_chars(1, 0)
    assert batch.word_to_chars(-2, 1) == batch.word_to_chars(0, 1)
    calls = {
        "word_to_chars": 0, "word_to_tokens": 0, "char_to_token": 0, "char_to_word": 0,
        "token_to_chars": 1, "token_to_word": 1, "token_to_sequence": 1,
    }  # fmt: skip
    for method, index in calls.items():
        for row in (-3, -4, 2):
            with pytest.raises(IndexError, match=rf"^batch_index {row} is out of range for 2 rows$"):
                getattr(batch, method)(row, index)
