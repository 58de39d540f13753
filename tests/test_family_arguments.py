"""The family (BPETokenizer, CharTokenizer, UnigramTokenizer) takes what PyTokenizer takes:
``convert_ids_to_tokens`` one id or any sequence of ids (a range, a numpy array, ...), and every
``train_from_counts`` any mapping of str to int or an iterable of ``(str, int)`` pairs (docs/spec.md
sections 13 and 17). The engine and the twin give the same results and the same errors."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType, ModuleType
from typing import Any, Callable

import pytest
from implementations import outcome
from implementations import small_tokenizers as tokenizers

import fast_wordpiece
import fast_wordpiece.reference

np = pytest.importorskip("numpy")

MODULES = [fast_wordpiece, fast_wordpiece.reference]
FAMILY = ["bpe", "chars", "unigram"]


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


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("ids", [[10**6], range(10**6, 10**6 + 1), np.array([1, 10**6]), 10**6], ids=repr)
def test_an_id_past_the_vocabulary_has_no_token(name: str, ids: Any) -> None:
    """None for it, as PyTokenizer's (and transformers' convert_ids_to_tokens) gives."""
    kind, got = engine_and_twin(lambda m: tokenizers(m)[name].convert_ids_to_tokens(ids))
    assert kind == "ok"
    tok = tokenizers(fast_wordpiece)[name]
    assert got == (None if isinstance(ids, int) else [tok.id_to_token(i) for i in ids])
    assert got == (None if isinstance(ids, int) else [t if i == 1 else None for i, t in zip(ids, got)])


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
@pytest.mark.parametrize("skip", [1, 0, None, "yes", ""], ids=repr)
def test_skip_special_tokens_is_read_as_true_or_false(name: str, skip: Any) -> None:
    """As transformers reads it (``if skip_special_tokens``), and as PyTokenizer's."""
    for module in MODULES:
        tok = tokenizers(module)[name]
        pad = tok.token_to_id("<pad>")
        ids = [pad, pad + 1]
        assert tok.convert_ids_to_tokens(ids, skip) == tok.convert_ids_to_tokens(ids, bool(skip))
        assert tok.convert_ids_to_tokens(pad, skip) == "<pad>"


# ----------------------------------------------------------------------------- train_from_counts


class Counts(Mapping[str, int]):
    """A mapping that is not a dict."""

    def __init__(self, counts: dict[str, int]) -> None:
        self._counts = counts

    def __getitem__(self, key: str) -> int:
        return self._counts[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)


#: For each train_from_counts: what it counts, and how it is called.
TRAINERS: dict[str, tuple[dict[str, int], Callable[[ModuleType, Any], Any]]] = {
    "wordpiece": (
        {"hello": 5, "world": 3, "the": 4, "there": 2},
        lambda m, c: m.PyTokenizer.train_from_counts(c, 40, show_progress=False).get_vocab(),
    ),
    "bpe": (
        {"hello": 5, "Ġworld": 3, "Ġthe": 4, "Ġthere": 2},
        lambda m, c: (lambda t: (t.get_vocab(), t.merges))(m.BPETokenizer.train_from_counts(c, 270)),
    ),
    "chars": (
        {"a": 5, "b": 3, "c": 4, "d": 1},
        lambda m, c: m.CharTokenizer.train_from_counts(c, 4).get_vocab(),
    ),
    "unigram": (
        {"hello world": 5, "the world": 3, "there": 2},
        lambda m, c: m.UnigramTokenizer.train_from_counts(c, 20).get_pieces(),
    ),
}


def forms(counts: dict[str, int]) -> list[Any]:
    """``counts`` given in every form train_from_counts takes."""
    pairs = list(counts.items())
    twice = [(w, n - 1) for w, n in pairs] + [(w, 1) for w, _ in pairs]  # each word's count in two pairs
    return [
        counts,
        MappingProxyType(counts),
        Counts(counts),
        pairs,
        tuple(pairs),
        iter(pairs),
        (p for p in pairs),
        twice,
        [(w, np.int64(n)) for w, n in pairs],
    ]


@pytest.mark.parametrize("name", sorted(TRAINERS))
def test_train_from_counts_takes_any_mapping_and_pairs(name: str) -> None:
    counts, train = TRAINERS[name]
    for module in MODULES:
        expected = train(module, counts)
        for given in forms(counts):
            assert train(module, given) == expected, (module.__name__, given)
    assert train(fast_wordpiece, counts) == train(fast_wordpiece.reference, counts)


class RaisingItems(dict):  # type: ignore[type-arg]
    """A mapping whose items() raises."""

    def items(self) -> Any:
        raise LookupError("from items()")


def raising_pairs() -> Iterator[tuple[str, int]]:
    yield ("a", 1)
    raise LookupError("from the iterator")


BAD_COUNTS: list[tuple[Any, str, str]] = [
    (5, "TypeError", "counts must be {expected}, not int"),
    (None, "TypeError", "counts must be {expected}, not NoneType"),
    ("ab", "TypeError", "counts must be an iterable of (str, int) pairs, not str"),
    (b"ab", "TypeError", "counts must be an iterable of (str, int) pairs, not bytes"),
    (["ab"], "TypeError", "counts[0] must be a (str, int) pair, not str"),
    ([("a", 1), ["b", 2]], "TypeError", "counts[1] must be a (str, int) pair, not list"),
    ([("a", 1, 2)], "TypeError", "counts[0] must be a (str, int) pair, not tuple"),
    ([(1, 2)], "TypeError", "the word of counts[0] must be str, not int"),
    ({b"a": 2}, "TypeError", "the word of counts[0] must be str, not bytes"),
    ([("\ud800", 2)], "ValueError", "the word of counts[0] contains a lone surrogate"),
    ({"a": "2"}, "TypeError", 'the count of "a" must be int, not str'),
    ({"a": 2.0}, "TypeError", 'the count of "a" must be int, not float'),
    ({"a": True}, "TypeError", 'the count of "a" must be int, not bool'),
    ({"a": -1}, "ValueError", 'the count of "a" must be >= {least}, got -1'),
    ({"a": 2**64}, "ValueError", 'the count of "a" is too large'),
    (RaisingItems(), "LookupError", "from items()"),
    (raising_pairs, "LookupError", "from the iterator"),  # a new iterator for each call
]

#: Every trainer ignores a count of 0 (a word, piece or character not seen).
LEAST = {"wordpiece": 0, "bpe": 0, "chars": 0, "unigram": 0}


@pytest.mark.parametrize("name", sorted(TRAINERS))
@pytest.mark.parametrize(
    ("counts", "kind", "message"), BAD_COUNTS, ids=[getattr(c[0], "__name__", repr(c[0])) for c in BAD_COUNTS]
)
def test_bad_counts_are_the_same_errors_everywhere(name: str, counts: Any, kind: str, message: str) -> None:
    given: Callable[[], Any] = counts if callable(counts) else lambda: counts
    expected = "a WordCounts, " * (name == "wordpiece") + "a mapping of str to int or an iterable of (str, int) pairs"
    got = engine_and_twin(lambda m: TRAINERS[name][1](m, given()))
    assert got[0] == kind
    assert got[1].startswith(message.format(expected=expected, least=LEAST[name]))


@pytest.mark.parametrize("name", ["wordpiece", "bpe", "chars", "unigram"])
def test_a_count_of_zero_is_ignored_by_every_trainer(name: str) -> None:
    counts, train = TRAINERS[name]
    assert engine_and_twin(lambda m: train(m, [*counts.items(), ("x", 0)])) == ("ok", train(fast_wordpiece, counts))


TOP = 2**64 - 1


@pytest.mark.parametrize(
    ("name", "counts", "message"),
    [
        ("wordpiece", [("ab", TOP), ("ab", 1)], 'the counts of "ab" add up to more than 2**64 - 1'),
        ("chars", [("a", TOP), ("a", 1)], 'the counts of "a" add up to more than 2**64 - 1'),
        ("unigram", [("ab", TOP), ("x ab", 1)], 'the counts of the word "▁ab" add up to more than 2**64 - 1'),
    ],
)
def test_counts_of_one_word_that_add_up_beyond_64_bits_are_a_value_error(name: str, counts: Any, message: str) -> None:
    assert engine_and_twin(lambda m: TRAINERS[name][1](m, counts)) == ("ValueError", message)


def test_the_words_each_tokenizer_checks_are_named_by_their_pair() -> None:
    bpe = engine_and_twin(lambda m: m.BPETokenizer.train_from_counts([("ab", 2), ("a€", 1)], 260))
    assert bpe == ("ValueError", 'counts[1]: "a€" is not a byte-level string (every character must show a byte)')
    chars = engine_and_twin(lambda m: m.CharTokenizer.train_from_counts({"a": 2, "bc": 1}))
    assert chars == ("ValueError", 'counts[1]: "bc" is not one character')
    words = engine_and_twin(lambda m: m.PyTokenizer.train_from_counts([("a b", 2)], 40, show_progress=False))
    assert words[0] == "ValueError"
    assert "whitespace" in words[1]
