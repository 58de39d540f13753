"""Integer arguments take what transformers takes: an int or anything that converts to one as
an index does (numpy's integer scalars, a 0-d integer array), never a bool. A value of another
type is a TypeError ("max_length must be int, not str"), a value out of range, however large, a
ValueError; both name the argument, and the engine and the twin say the same."""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any, Callable, NamedTuple

import numpy as np
import pytest
from implementations import TEXTS
from implementations import small_tokenizers as tokenizers

import fast_wordpiece
import fast_wordpiece.reference

IMPLEMENTATIONS = [fast_wordpiece, fast_wordpiece.reference]


class Odd:
    """A type no argument takes."""


def counts(impl: ModuleType) -> Any:
    """Word counts of TEXTS, made anew (some calls change them)."""
    return impl.count_words(TEXTS, show_progress=False)


class Case(NamedTuple):
    what: str
    name: str  # as the errors name the argument
    valid: int
    minimum: int
    bounded: bool  # whether 2**70 is a ValueError ("is too large")
    call: Callable[[ModuleType, dict[str, Any], Any], Any]


def _case(what: str, name: str, valid: int, minimum: int, call: Callable[..., Any], bounded: bool = True) -> Any:
    return pytest.param(Case(what, name, valid, minimum, bounded, call), id=f"{what}({name})")


def _fresh_max_length(m: ModuleType, v: Any) -> Any:
    tok = m.PyTokenizer(["[UNK]", "[CLS]", "[SEP]", "[PAD]", "a"])
    tok.model_max_length = v
    return tok.model_max_length


def _family(kind: str) -> list[Any]:
    label = {"bpe": "BPETokenizer", "chars": "CharTokenizer", "unigram": "UnigramTokenizer"}[kind]
    return [
        _case(
            f"{label}.encode_batch", "num_threads", 2, 1, lambda m, t, v: t[kind].encode_batch(["hi"], num_threads=v)
        ),
        _case(
            f"{label}.__call__", "max_length", 2, 0, lambda m, t, v: t[kind](["a b c"], max_length=v, truncation=True)
        ),
        _case(
            f"{label}.__call__",
            "pad_to_multiple_of",
            4,
            0,  # 0 pads to no multiple, as in transformers
            lambda m, t, v: t[kind](["a b"], padding=True, pad_to_multiple_of=v),
        ),
    ]


CASES = [
    _case("PyTokenizer.train", "vocab_size", 60, 1, lambda m, t, v: m.PyTokenizer.train(TEXTS, v, show_progress=False)),
    _case(
        "PyTokenizer.train",
        "min_frequency",
        2,
        0,
        lambda m, t, v: m.PyTokenizer.train(TEXTS, 60, min_frequency=v, show_progress=False),
    ),
    _case(
        "PyTokenizer.train",
        "limit_alphabet",
        20,
        1,
        lambda m, t, v: m.PyTokenizer.train(TEXTS, 60, limit_alphabet=v, show_progress=False),
    ),
    _case(
        "PyTokenizer.train_from_counts",
        "vocab_size",
        60,
        1,
        lambda m, t, v: m.PyTokenizer.train_from_counts({"hello": 2, "world": 3}, v, show_progress=False),
    ),
    _case(
        "PyTokenizer.train_from_counts",
        'the count of "hello"',
        2,
        0,
        lambda m, t, v: m.PyTokenizer.train_from_counts({"hello": v, "world": 3}, 60, show_progress=False),
    ),
    _case(
        "PyTokenizer",
        "max_input_chars_per_word",
        10,
        1,
        lambda m, t, v: m.PyTokenizer(["[UNK]", "a"], max_input_chars_per_word=v).tokenize("a a"),
    ),
    _case("encode", "max_length", 5, 0, lambda m, t, v: t["wordpiece"].encode("hello world there", max_length=v)),
    _case("encode", "stride", 1, 0, lambda m, t, v: t["wordpiece"].encode("hello world there", max_length=5, stride=v)),
    _case(
        "encode",
        "pad_to_multiple_of",
        8,
        1,
        lambda m, t, v: t["wordpiece"].encode("hello", padding="longest", pad_to_multiple_of=v),
    ),
    _case(
        "encode_batch", "max_length", 5, 0, lambda m, t, v: t["wordpiece"].encode_batch(["hello world"], max_length=v)
    ),
    _case("encode_batch", "num_threads", 2, 1, lambda m, t, v: t["wordpiece"].encode_batch(["hello"], num_threads=v)),
    _case(
        "__call__",
        "max_length",
        3,
        0,
        lambda m, t, v: t["wordpiece"]("hello world there", max_length=v, truncation=True),
    ),
    _case(
        "__call__",
        "stride",
        1,
        0,
        lambda m, t, v: t["wordpiece"]("hello world there", max_length=5, truncation=True, stride=v),
    ),
    _case(
        "__call__",
        "pad_to_multiple_of",
        8,
        0,  # 0 pads to no multiple, as in transformers
        lambda m, t, v: t["wordpiece"](["hello"], padding=True, pad_to_multiple_of=v),
    ),
    # pad has no maximum: a length there is no memory for is a MemoryError that says so.
    _case(
        "pad",
        "max_length",
        4,
        0,
        lambda m, t, v: t["wordpiece"].pad({"input_ids": [[1, 2]]}, padding="max_length", max_length=v),
        bounded=False,
    ),
    _case(
        "pad",
        "pad_to_multiple_of",
        4,
        1,
        lambda m, t, v: t["wordpiece"].pad({"input_ids": [[1, 2]]}, pad_to_multiple_of=v),
        bounded=False,
    ),
    # transformers' 1e20 and beyond mean "no maximum".
    _case("model_max_length", "model_max_length", 8, 0, lambda m, t, v: _fresh_max_length(m, v), bounded=False),
    _case("WordCounts", 'the count of "hello"', 2, 0, lambda m, t, v: m.WordCounts({"hello": v}).most_common()),
    _case("WordCounts.most_common", "n", 1, 0, lambda m, t, v: counts(m).most_common(v)),
    _case("WordCounts.prune", "min_count", 2, 0, lambda m, t, v: (c := counts(m)).prune(v) or c.most_common()),
    _case(
        "WordCounts.prune", "max_words", 2, 0, lambda m, t, v: (c := counts(m)).prune(max_words=v) or c.most_common()
    ),
    _case("WordCounts.split", "n", 2, 1, lambda m, t, v: [p.most_common() for p in counts(m).split(v)]),
    _case("BPETokenizer.train", "vocab_size", 270, 1, lambda m, t, v: m.BPETokenizer.train(TEXTS, v).get_vocab()),
    _case(
        "BPETokenizer.train",
        "min_frequency",
        2,
        0,
        lambda m, t, v: m.BPETokenizer.train(TEXTS, 270, min_frequency=v).get_vocab(),
    ),
    _case(
        "BPETokenizer.train_from_counts",
        'the count of "ab"',
        2,
        0,
        lambda m, t, v: m.BPETokenizer.train_from_counts({"ab": v}, 260).get_vocab(),
    ),
    _case("CharTokenizer.train", "vocab_size", 5, 1, lambda m, t, v: m.CharTokenizer.train(TEXTS, v).get_vocab()),
    _case(
        "CharTokenizer.train",
        "min_frequency",
        2,
        0,
        lambda m, t, v: m.CharTokenizer.train(TEXTS, min_frequency=v).get_vocab(),
    ),
    _case(
        "CharTokenizer.train_from_counts",
        'the count of "a"',
        2,
        0,
        lambda m, t, v: m.CharTokenizer.train_from_counts({"a": v}).get_vocab(),
    ),
    _case(
        "UnigramTokenizer.train", "vocab_size", 30, 1, lambda m, t, v: m.UnigramTokenizer.train(TEXTS, v).get_pieces()
    ),
    *[
        _case(
            "UnigramTokenizer.train",
            name,
            valid,
            1,
            lambda m, t, v, name=name: m.UnigramTokenizer.train(TEXTS, 30, **{name: v}).get_pieces(),
        )
        for name, valid in (("max_piece_length", 4), ("seed_size", 200), ("num_sub_iterations", 1))
    ],
    _case(
        "UnigramTokenizer.encode",
        "seed",
        3,
        0,
        lambda m, t, v: t["unigram"].encode("hello world", alpha=0.5, seed=v).ids,
    ),
    *_family("bpe"),
    *_family("chars"),
    *_family("unigram"),
]


def _outcome(impl: ModuleType, case: Case, value: Any) -> tuple[str, str]:
    """What the call does with ``value``: the exception's type and message, or ("ok", "")."""
    try:
        case.call(impl, tokenizers(impl), value)
    except Exception as e:  # the outcome is what is compared
        return type(e).__name__, str(e)
    return "ok", ""


def _same(a: Any, b: Any) -> bool:
    return bool(a == b) if not hasattr(a, "get_vocab") else bool(a.get_vocab() == b.get_vocab())


@pytest.fixture(params=IMPLEMENTATIONS, ids=["engine", "twin"], scope="module")
def impl(request: pytest.FixtureRequest) -> ModuleType:
    module: ModuleType = request.param
    return module


SCALARS: list[Callable[[int], Any]] = [np.int64, np.int32, np.uint16, np.uint8, np.array]


@pytest.mark.parametrize(
    ("scalar", "case"),
    # Each case's valid value in each integer type that holds it (270 is no uint8).
    [
        pytest.param(scalar, param.values[0], id=f"{getattr(scalar, '__name__', 'array')}-{param.id}")
        for scalar in SCALARS
        for param in CASES
        if not (scalar is np.uint8 and param.values[0].valid > 255)
    ],
)
def test_an_integer_scalar_is_taken_as_its_int(impl: ModuleType, case: Case, scalar: Callable[[int], Any]) -> None:
    given = scalar(case.valid)
    expected = case.call(impl, tokenizers(impl), case.valid)
    assert _same(case.call(impl, tokenizers(impl), given), expected)


WRONG_TYPES = [
    (True, "bool"),
    (False, "bool"),
    (np.True_, "numpy.bool"),
    (3.0, "float"),
    (np.float64(3), "float64"),
    ("3", "str"),
    (np.array([3]), "ndarray"),
    (np.array(3.0), "ndarray"),
    (Odd(), "Odd"),
]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize(("value", "shown"), WRONG_TYPES, ids=[repr(v) for v, _ in WRONG_TYPES])
def test_another_type_is_a_type_error_naming_the_argument(impl: ModuleType, case: Case, value: Any, shown: str) -> None:
    with pytest.raises(TypeError, match=f"^{re.escape(case.name)} must be int, not {re.escape(shown)}$"):
        case.call(impl, tokenizers(impl), value)


@pytest.mark.parametrize("case", CASES)
def test_a_value_below_the_minimum_is_a_value_error(impl: ModuleType, case: Case) -> None:
    for below in (case.minimum - 1, np.int64(case.minimum - 1), -(2**70)):
        message = f"^{re.escape(case.name)} must be >= {case.minimum}, got {int(below)}$"
        with pytest.raises(ValueError, match=message):
            case.call(impl, tokenizers(impl), below)


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0].bounded])
def test_a_huge_int_is_a_value_error_not_an_overflow_error(impl: ModuleType, case: Case) -> None:
    for huge in (2**64, 2**70, 2**200):
        with pytest.raises(ValueError, match=f"^{re.escape(case.name)} is too large$"):
            case.call(impl, tokenizers(impl), huge)


@pytest.mark.parametrize("case", CASES)
def test_engine_and_twin_say_the_same(case: Case) -> None:
    values = [case.valid, np.int64(case.valid), np.array(case.valid), case.minimum - 1, 2**70, -(2**70)]
    values += [v for v, _ in WRONG_TYPES]
    for value in values:
        engine, twin = (_outcome(m, case, value) for m in IMPLEMENTATIONS)
        assert engine == twin, value


@pytest.mark.parametrize("nbest", [2, np.int64(2), np.uint8(2), np.array(2), -1, np.int64(-1)], ids=repr)
def test_nbest_takes_an_integer_scalar(impl: ModuleType, nbest: Any) -> None:
    tok = tokenizers(impl)["unigram"]
    expected = tok.encode("hello world", alpha=0.5, nbest=int(nbest), seed=1).ids
    assert tok.encode("hello world", alpha=0.5, nbest=nbest, seed=1).ids == expected


@pytest.mark.parametrize(
    ("nbest", "error", "message"),
    [
        (True, TypeError, "nbest must be int, not bool"),
        (np.True_, TypeError, "nbest must be int, not numpy.bool"),
        (2.0, TypeError, "nbest must be int, not float"),
        ("2", TypeError, "nbest must be int, not str"),
        (0, ValueError, "nbest must be -1 (sample from every segmentation) or between 1 and 10000, not 0"),
        (2**70, ValueError, f"nbest must be -1 (sample from every segmentation) or between 1 and 10000, not {2**70}"),
        (np.int64(-2), ValueError, "nbest must be -1 (sample from every segmentation) or between 1 and 10000, not -2"),
    ],
    ids=repr,
)
def test_nbest_of_another_type_or_out_of_range(impl: ModuleType, nbest: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        tokenizers(impl)["unigram"].encode("hello", nbest=nbest)


@pytest.mark.parametrize("kind", ["wordpiece", "bpe", "chars", "unigram"])
def test_id_to_token_checks_its_id_alike_in_every_tokenizer(impl: ModuleType, kind: str) -> None:
    tok = tokenizers(impl)[kind]
    assert tok.id_to_token(np.int64(1)) == tok.id_to_token(np.array(1)) == tok.id_to_token(1) is not None
    assert tok.id_to_token(10**6) is None
    with pytest.raises(ValueError, match=r"^id must be >= 0, got -1$"):
        tok.id_to_token(-1)
    with pytest.raises(ValueError, match=r"^id is too large$"):
        tok.id_to_token(2**70)
    with pytest.raises(TypeError, match=r"^id must be int, not bool$"):
        tok.id_to_token(True)
