"""Encodings pickle and copy, as transformers' do: an ``Encoding``, a ``UnigramEncoding`` and
the ``BatchEncoding`` that calling a tokenizer returns come back equal, field for field and
alignment for alignment, from ``pickle`` (every protocol), ``copy.copy`` and ``copy.deepcopy``,
so that a ``multiprocessing`` pool or a DataLoader worker can return them. The pickle holds
columns (bytes) and one string per distinct token, not an object per token; a state that was
not made by pickling is a TypeError or ValueError, never a crash. A tokenizer keeps its
``word_cache`` setting, and ``backend_tokenizer`` and a ``RaggedBatch`` pickle and copy too."""

from __future__ import annotations

import copy
import importlib
import multiprocessing
import pickle
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS

numpy = pytest.importorskip("numpy")

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)
CORPUS = ["hello world there friend, the world is a stage"] * 5
PAIR = ("hello <x> world YO there", "the friend, there")


def module(impl: str) -> Any:
    return importlib.import_module(IMPLEMENTATIONS[impl])


def tokenizer(impl: str) -> Any:
    m = module(impl)
    tok = m.PyTokenizer.train(CORPUS, 60, show_progress=False)
    # An added token matched with the spaces it strips, and one matched in its normalized
    # form: tokens shown otherwise than the vocabulary's string of their id.
    tok.add_tokens([m.AddedToken("<x>", lstrip=True, rstrip=True), m.AddedToken("Yo", normalized=True)])
    return tok


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def impl(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def everything(e: Any) -> dict[str, Any]:
    """Every field of an encoding and every answer of its alignment methods, its overflowing
    windows' too."""
    n, chars = len(e), max((end for _, end in e.offsets), default=0) + 1
    out: dict[str, Any] = {**e.to_dict(), "word_ids": e.word_ids, "sequence_ids": e.sequence_ids}
    out.update(n_sequences=e.n_sequences, len=n, keys=e.keys())
    out["token_to"] = [(e.token_to_word(t), e.token_to_sequence(t), e.token_to_chars(t)) for t in range(-n - 1, n + 1)]
    for s in range(3):
        out[f"word_to[{s}]"] = [(e.word_to_tokens(w, s), e.word_to_chars(w, s)) for w in range(n + 1)]
        out[f"char_to[{s}]"] = [(e.char_to_token(c, s), e.char_to_word(c, s)) for c in range(chars)]
    out["overflowing"] = [everything(o) for o in e.overflowing]
    return out


def encodings(impl: str) -> list[Any]:
    tok = tokenizer(impl)
    return [
        tok.encode(""),
        tok.encode("hello world", add_special_tokens=False),
        tok.encode(*PAIR),
        tok.encode(*PAIR, padding="max_length", max_length=24, padding_side="left"),
        # Truncated pairs: windows of windows.
        tok.encode(*PAIR, max_length=9, stride=2, padding="max_length"),
        tok.encode(*PAIR, max_length=13, truncation="only_second", stride=1),
    ]


def round_trips(e: Any) -> list[Any]:
    return [pickle.loads(pickle.dumps(e, protocol)) for protocol in PROTOCOLS] + [copy.copy(e), copy.deepcopy(e)]


def test_an_encoding_comes_back_equal_from_pickle_and_copy(impl: str) -> None:
    made = encodings(impl)
    assert any(e.overflowing and e.overflowing[0].overflowing for e in made)  # nested windows covered
    assert any(t not in ("[CLS]", "[SEP]", "[PAD]") and t.startswith(" ") for e in made for t in e.tokens)
    for e in made:
        for clone in round_trips(e):
            assert type(clone) is type(e)
            assert clone == e
            assert everything(clone) == everything(e)
            assert repr(clone) == repr(e)


def test_an_unpickled_encoding_needs_no_tokenizer_and_equals_the_twins() -> None:
    engine, twin = encodings("engine"), encodings("twin")
    for e, t in zip(engine, twin):
        data = pickle.dumps(e)
        clone = pickle.loads(data)
        assert clone == t
        assert everything(clone) == everything(t)
        # The same state in both: each rebuilds the other's.
        assert everything(type(t)._from_state(*e.__reduce__()[1])) == everything(t)
        assert everything(type(e)._from_state(*t.__reduce__()[1])) == everything(e)


def test_the_state_is_columns_and_one_string_per_distinct_token(impl: str) -> None:
    tok = tokenizer(impl)
    e = tok.encode("hello world " * 500)
    rebuild, (vocab_ids, vocab_tokens, state) = e.__reduce__()
    assert rebuild == type(e)._from_state
    assert isinstance(vocab_ids, bytes)
    assert vocab_tokens == ["[CLS]", "[SEP]", "world", "hello"]  # in the order of their ids
    assert all(isinstance(column, bytes) for column in state[:6])
    assert len(pickle.dumps(e)) < 20 * len(e) + 500


def test_a_batch_encoding_comes_back_equal_from_pickle_and_copy(impl: str) -> None:
    tok = tokenizer(impl)
    texts = ["hello world there", "the friend", "hello <x> world, the stage world there"]
    batches = [
        tok(texts),
        tok(texts, texts[::-1], padding=True, return_tensors="np", return_offsets_mapping=True),
        tok(
            texts,
            padding="max_length",
            max_length=6,
            truncation=True,
            stride=1,
            return_overflowing_tokens=True,
            return_special_tokens_mask=True,
            return_tensors="np",
        ),
        tok.pad({"input_ids": [[2, 5], [2]]}),
    ]
    for batch in batches:
        for clone in round_trips(batch):
            assert type(clone) is type(batch)
            assert clone.keys() == batch.keys()
            for key in batch:
                assert type(clone[key]) is type(batch[key])
                if isinstance(batch[key], numpy.ndarray):
                    assert clone[key].dtype == batch[key].dtype
                    assert numpy.array_equal(clone[key], batch[key])
                else:
                    assert clone[key] == batch[key]
            assert clone.n_sequences == batch.n_sequences
            assert clone.is_fast == batch.is_fast
            if batch.encodings is None:
                assert clone.encodings is None
                continue
            assert [everything(e) for e in clone.encodings] == [everything(e) for e in batch.encodings]
            for row in range(len(texts)):
                assert clone.tokens(row) == batch.tokens(row)
                assert clone.word_ids(row) == batch.word_ids(row)
                assert [clone.token_to_word(row, t) for t in range(6)] == [
                    batch.token_to_word(row, t) for t in range(6)
                ]
                assert [clone.char_to_token(row, c) for c in range(9)] == [
                    batch.char_to_token(row, c) for c in range(9)
                ]


def unigram(impl: str) -> Any:
    return module(impl).UnigramTokenizer.train(["hello world, the stage"] * 5, 30)


def test_a_unigram_encoding_comes_back_equal_from_pickle_and_copy() -> None:
    texts = ["", "hello world", "hello xyz world qq"]  # x, y, z, q are unknown: shown as their text
    for text in texts:
        engine, twin = unigram("engine").encode(text), unigram("twin").encode(text)
        for e in (engine, twin):
            for clone in round_trips(e):
                assert type(clone) is type(e)
                assert clone == e
                assert (clone.ids, clone.tokens, clone.offsets) == (e.ids, e.tokens, e.offsets)
        clone = pickle.loads(pickle.dumps(engine))
        assert (clone.ids, clone.tokens, clone.offsets) == (twin.ids, twin.tokens, twin.offsets)


def test_a_unigram_state_holds_each_distinct_token_once() -> None:
    e = unigram("engine").encode("hello world " * 200)
    _, (ids, offsets, strs, which, kinds) = e.__reduce__()
    assert (len(ids), len(offsets), len(which), len(kinds)) == (4 * len(e), 8 * len(e), 4 * len(e), 4 * len(e))
    assert sorted(strs) == sorted(set(e.tokens))


def call(tok: Any, text: str) -> Any:
    return tok(text)


def test_a_process_pool_returns_what_calling_the_tokenizer_returns(impl: str) -> None:
    tok = tokenizer(impl)
    texts = ["hello world", "the friend, there", "hello <x> world"]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        got = pool.starmap(call, [(tok, text) for text in texts])
    for text, batch in zip(texts, got):
        expected = tok(text)
        assert dict(batch) == dict(expected)
        assert [everything(e) for e in batch.encodings] == [everything(e) for e in expected.encodings]
        assert batch.word_ids() == expected.word_ids()


# ---------------------------------------------------------------------------- corrupt states


def state(impl: str) -> list[Any]:
    e = tokenizer(impl).encode(*PAIR, max_length=9, stride=2)
    assert e.overflowing
    vocab_ids, vocab_tokens, encoding = e.__reduce__()[1]
    return [vocab_ids, list(vocab_tokens), list(encoding)]


def replaced(item: int, value: Any) -> Any:
    def change(s: list[Any]) -> None:
        s[2][item] = value

    return change


def shown(value: Any) -> Any:
    return replaced(7, value)


CORRUPT: dict[str, tuple[type[Exception], Any]] = {
    "vocab_ids not bytes": (TypeError, lambda s: s.__setitem__(0, [1, 2])),
    "vocab_ids cut": (ValueError, lambda s: s.__setitem__(0, s[0][:-1])),
    "vocab_ids not increasing": (ValueError, lambda s: s.__setitem__(0, s[0][4:8] + s[0][:4] + s[0][8:])),
    "vocab_tokens not a list": (TypeError, lambda s: s.__setitem__(1, "abc")),
    "a vocab_token missing": (ValueError, lambda s: s[1].pop()),
    "a vocab_token not str": (TypeError, lambda s: s[1].__setitem__(0, b"[CLS]")),
    "encoding not a tuple": (TypeError, lambda s: s.__setitem__(2, None)),
    "encoding too short": (ValueError, lambda s: s[2].pop()),
    "ids not bytes": (TypeError, replaced(0, "abcd")),
    "ids cut": (ValueError, lambda s: s[2].__setitem__(0, s[2][0][:-2])),
    "an id without a string": (ValueError, lambda s: s[2].__setitem__(0, b"\xf9\xff\xff\xff" + s[2][0][4:])),
    "offsets short": (ValueError, lambda s: s[2].__setitem__(1, s[2][1][:-8])),
    "offsets odd": (ValueError, lambda s: s[2].__setitem__(1, s[2][1][:-4])),
    "words not bytes": (TypeError, replaced(2, bytearray(4))),
    "type_ids long": (ValueError, lambda s: s[2].__setitem__(3, s[2][3] + b"\0")),
    "special_tokens_mask not 0 or 1": (ValueError, lambda s: s[2].__setitem__(4, b"\2" * len(s[2][4]))),
    "attention_mask short": (ValueError, lambda s: s[2].__setitem__(5, s[2][5][:-1])),
    "n_sequences 3": (ValueError, replaced(6, 3)),
    "n_sequences huge": (ValueError, replaced(6, 2**70)),
    "n_sequences bool": (TypeError, replaced(6, True)),
    "n_sequences str": (TypeError, replaced(6, "2")),
    "shown not a tuple": (TypeError, shown(5)),
    "a shown token not a pair": (ValueError, shown(((1, "a", "b"),))),
    "a shown token past the end": (ValueError, shown(((99, "a"),))),
    "shown tokens out of order": (ValueError, shown(((3, "a"), (1, "b")))),
    "a shown position negative": (ValueError, shown(((-1, "a"),))),
    "a shown text not str": (TypeError, shown(((1, 5),))),
    "overflowing not a tuple": (TypeError, replaced(8, {})),
    "a window not a tuple": (TypeError, replaced(8, (7,))),
    "a window too short": (ValueError, lambda s: s[2].__setitem__(8, (s[2][8][0][:5],))),
}


class Forged:
    """Pickles as a call of ``rebuild(*args)``: what a damaged or hand-made pickle holds."""

    def __init__(self, rebuild: Any, args: tuple[Any, ...]) -> None:
        self.rebuild, self.args = rebuild, args

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return self.rebuild, self.args


@pytest.mark.parametrize("case", sorted(CORRUPT))
def test_a_state_pickling_did_not_make_is_a_type_or_value_error(impl: str, case: str) -> None:
    s = state(impl)
    CORRUPT[case][1](s)
    cls = module(impl).Encoding
    with pytest.raises(CORRUPT[case][0], match=r"^Encoding state: "):
        cls._from_state(s[0], s[1], s[2])
    with pytest.raises(CORRUPT[case][0], match=r"^Encoding state: "):
        pickle.loads(pickle.dumps(Forged(cls._from_state, (s[0], s[1], s[2]))))


def test_windows_nested_without_end_are_a_value_error(impl: str) -> None:
    vocab_ids, vocab_tokens, encoding = state(impl)
    nested = (*encoding[:8], ())
    for _ in range(20):
        nested = (*nested[:8], (nested,))
    with pytest.raises(ValueError, match="nest deeper"):
        module(impl).Encoding._from_state(vocab_ids, vocab_tokens, nested)


UNIGRAM_CORRUPT: dict[str, tuple[type[Exception], Any]] = {
    "ids not bytes": (TypeError, lambda s: s.__setitem__(0, [1])),
    "ids cut": (ValueError, lambda s: s.__setitem__(0, s[0][:-1])),
    "offsets short": (ValueError, lambda s: s.__setitem__(1, s[1][:-8])),
    "strs not a list": (TypeError, lambda s: s.__setitem__(2, "ab")),
    "a str not str": (TypeError, lambda s: s[2].__setitem__(0, 3)),
    "a token index past the strs": (ValueError, lambda s: s.__setitem__(3, b"\xff" * len(s[3]))),
    "token indices short": (ValueError, lambda s: s.__setitem__(3, s[3][:-4])),
}


@pytest.mark.parametrize("case", sorted(UNIGRAM_CORRUPT))
def test_a_unigram_state_pickling_did_not_make_is_a_type_or_value_error(case: str) -> None:
    e = unigram("engine").encode("hello world")
    s = [*e.__reduce__()[1]]
    s[2] = list(s[2])
    UNIGRAM_CORRUPT[case][1](s)
    with pytest.raises(UNIGRAM_CORRUPT[case][0], match=r"^UnigramEncoding state: "):
        type(e)._from_state(*s)


def test_a_tokenizer_with_the_word_cache_off_keeps_it_off_through_pickle_and_copy(impl: str) -> None:
    # the cache changes speed only, but a worker sent a tokenizer with it off should not build one
    for on in (False, True):
        tok = tokenizer(impl)
        tok.word_cache = on
        copies = [pickle.loads(pickle.dumps(tok, p)) for p in PROTOCOLS] + [copy.copy(tok), copy.deepcopy(tok)]
        for c in copies:
            assert c.word_cache is on
            assert c.encode(PAIR[0]) == tok.encode(PAIR[0])


def test_backend_tokenizer_pickles_and_copies_as_hugging_faces_does(impl: str) -> None:
    tok = tokenizer(impl)
    backend = tok.backend_tokenizer
    for c in [*(pickle.loads(pickle.dumps(backend, p)) for p in PROTOCOLS), copy.copy(backend), copy.deepcopy(backend)]:
        assert type(c) is type(backend)
        assert c == backend
        assert c.encode(*PAIR).ids == backend.encode(*PAIR).ids
        assert c.decode(backend.encode(*PAIR).ids) == backend.decode(backend.encode(*PAIR).ids)
    # a deep copy is a tokenizer of its own: a change to it leaves the original alone
    deep = copy.deepcopy(backend)
    deep.add_tokens(["zzyzx"])
    assert backend.token_to_id("zzyzx") is None
    assert deep.token_to_id("zzyzx") is not None


def test_a_ragged_batch_pickles_with_every_protocol(impl: str) -> None:
    tok = tokenizer(impl)
    texts = [PAIR[0], "", PAIR[1]]
    batch = tok.encode_batch(texts, return_tensors="np", return_offsets=True, return_token_type_ids=True)
    assert type(batch).__name__ == "RaggedBatch"
    for c in [*(pickle.loads(pickle.dumps(batch, p)) for p in PROTOCOLS), copy.copy(batch), copy.deepcopy(batch)]:
        assert c.tolist() == batch.tolist()
        for field in ("input_ids", "row_offsets", "token_type_ids", "offsets"):
            numpy.testing.assert_array_equal(getattr(c, field), getattr(batch, field))
        assert c.special_tokens_mask is None
