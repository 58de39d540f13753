"""Arguments of the wrong type: a TypeError that names the argument, the same from the
engine and the twin. A flag takes a bool or a numpy bool scalar, nothing else truthy; one
id, where a method takes one, is an int or an integer scalar such as numpy's ``int64``."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import numpy as np
import pytest

import fast_wordpiece
import fast_wordpiece.reference

IMPLEMENTATIONS = [fast_wordpiece, fast_wordpiece.reference]
TEXTS = ["hello world the quick brown fox", "hello there world"] * 5
CHAR_COUNTS = {"a": 3, "b": 2}
UNIGRAM_VOCAB = [("<unk>", 0.0), ("\u2581a", -1.0), ("a", -2.0)]


class Odd:
    """A type no argument takes."""


@functools.cache
def tokenizers(impl: ModuleType) -> dict[str, Any]:
    """One tokenizer of each kind, trained on TEXTS."""
    return {
        "wordpiece": impl.PyTokenizer.train(TEXTS, 60, show_progress=False),
        "bpe": impl.BPETokenizer.train(TEXTS, 60),
        "chars": impl.CharTokenizer.train(TEXTS),
    }


@pytest.fixture(params=IMPLEMENTATIONS, ids=["engine", "twin"], scope="module")
def impl(request: pytest.FixtureRequest) -> ModuleType:
    module: ModuleType = request.param
    return module


@pytest.fixture
def made(impl: ModuleType) -> dict[str, Any]:
    return tokenizers(impl)


@pytest.fixture(scope="module")
def text_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("texts") / "texts.txt"
    path.write_text("\n".join(TEXTS), encoding="utf-8")
    return path


# (what is called, the argument given the wrong value, the call with that value); a call
# the twin lacks is marked ENGINE_ONLY.
Call = Callable[[ModuleType, dict[str, Any], Path, Any], Any]
ENGINE_ONLY = {"PyTokenizer.train_from_files", "BPETokenizer.decode_batch", "CharTokenizer.decode_batch"}

FLAGS: list[tuple[str, str, Call]] = [
    ("PyTokenizer.train", "show_progress", lambda m, t, f, v: m.PyTokenizer.train(TEXTS, 60, show_progress=v)),
    (
        "PyTokenizer.train_from_counts",
        "show_progress",
        lambda m, t, f, v: m.PyTokenizer.train_from_counts({"hello": 2}, 60, show_progress=v),
    ),
    (
        "PyTokenizer.train_from_files",
        "show_progress",
        lambda m, t, f, v: m.PyTokenizer.train_from_files([f], 60, show_progress=v),
    ),
    ("count_words", "show_progress", lambda m, t, f, v: m.count_words(TEXTS, show_progress=v)),
    ("WordCounts.from_files", "show_progress", lambda m, t, f, v: m.WordCounts.from_files([f], show_progress=v)),
    ("encode", "add_special_tokens", lambda m, t, f, v: t["wordpiece"].encode("hello", add_special_tokens=v)),
    (
        "encode_batch",
        "add_special_tokens",
        lambda m, t, f, v: t["wordpiece"].encode_batch(["hello"], add_special_tokens=v),
    ),
    ("tokenize", "add_special_tokens", lambda m, t, f, v: t["wordpiece"].tokenize("hello", add_special_tokens=v)),
    ("__call__", "add_special_tokens", lambda m, t, f, v: t["wordpiece"]("hello", add_special_tokens=v)),
    ("decode", "skip_special_tokens", lambda m, t, f, v: t["wordpiece"].decode([1, 2], skip_special_tokens=v)),
    (
        "decode_batch",
        "skip_special_tokens",
        lambda m, t, f, v: t["wordpiece"].decode_batch([[1, 2]], skip_special_tokens=v),
    ),
    (
        "batch_decode",
        "skip_special_tokens",
        lambda m, t, f, v: t["wordpiece"].batch_decode([[1, 2]], skip_special_tokens=v),
    ),
    (
        "get_special_tokens_mask",
        "already_has_special_tokens",
        lambda m, t, f, v: t["wordpiece"].get_special_tokens_mask([1, 2], already_has_special_tokens=v),
    ),
    ("num_special_tokens_to_add", "pair", lambda m, t, f, v: t["wordpiece"].num_special_tokens_to_add(pair=v)),
    ("add_tokens", "special_tokens", lambda m, t, f, v: t["wordpiece"].add_tokens([], special_tokens=v)),
    ("word_cache", "word_cache", lambda m, t, f, v: setattr(t["wordpiece"], "word_cache", v)),
    (
        "encode_batch",
        "return_offsets",
        lambda m, t, f, v: t["wordpiece"].encode_batch(["hello"], return_tensors="np", return_offsets=v),
    ),
    ("PyTokenizer", "lowercase", lambda m, t, f, v: m.PyTokenizer(["[UNK]", "a"], lowercase=v)),
    ("BPETokenizer.decode", "skip_special_tokens", lambda m, t, f, v: t["bpe"].decode([1], skip_special_tokens=v)),
    (
        "BPETokenizer.decode_batch",
        "skip_special_tokens",
        lambda m, t, f, v: t["bpe"].decode_batch([[1]], skip_special_tokens=v),
    ),
    ("CharTokenizer.decode", "skip_special_tokens", lambda m, t, f, v: t["chars"].decode([1], skip_special_tokens=v)),
    (
        "CharTokenizer.decode_batch",
        "skip_special_tokens",
        lambda m, t, f, v: t["chars"].decode_batch([[1]], skip_special_tokens=v),
    ),
    (
        "UnigramTokenizer.decode",
        "skip_special_tokens",
        lambda m, t, f, v: m.UnigramTokenizer(UNIGRAM_VOCAB).decode([1], skip_special_tokens=v),
    ),
]

TEXT_ARGUMENTS: list[tuple[str, str, Call]] = [
    ("PyTokenizer.from_str", "json", lambda m, t, f, v: m.PyTokenizer.from_str(v)),
    ("PyTokenizer.from_json", "json", lambda m, t, f, v: m.PyTokenizer.from_json(v)),
    ("BPETokenizer.from_json", "json", lambda m, t, f, v: m.BPETokenizer.from_json(v)),
    ("CharTokenizer.from_json", "json", lambda m, t, f, v: m.CharTokenizer.from_json(v)),
    ("BPETokenizer", "unk_token", lambda m, t, f, v: m.BPETokenizer({"a": 0}, [], unk_token=v)),
    ("CharTokenizer", "unk_token", lambda m, t, f, v: m.CharTokenizer({"[UNK]": 0}, unk_token=v)),
    ("CharTokenizer.train", "unk_token", lambda m, t, f, v: m.CharTokenizer.train(TEXTS, unk_token=v)),
    (
        "CharTokenizer.train_from_counts",
        "unk_token",
        lambda m, t, f, v: m.CharTokenizer.train_from_counts(CHAR_COUNTS, unk_token=v),
    ),
    (
        "PyTokenizer.train_from_files",
        "errors",
        lambda m, t, f, v: m.PyTokenizer.train_from_files([f], 60, errors=v, show_progress=False),
    ),
    ("WordCounts.from_files", "errors", lambda m, t, f, v: m.WordCounts.from_files([f], errors=v)),
    ("UnigramTokenizer", "unk_token", lambda m, t, f, v: m.UnigramTokenizer(UNIGRAM_VOCAB, unk_token=v)),
]


def _cases(cases: list[tuple[str, str, Call]]) -> Any:
    """Each case for the engine and, unless it lacks the call, the twin."""
    return [
        pytest.param(impl, name, call, id=f"{label}-{what}({name})")
        for impl, label in ((fast_wordpiece, "engine"), (fast_wordpiece.reference, "twin"))
        for what, name, call in cases
        if impl is fast_wordpiece or what not in ENGINE_ONLY
    ]


def _call(impl: ModuleType, call: Call, text_file: Path, value: Any) -> Any:
    return call(impl, tokenizers(impl), text_file, value)


@pytest.mark.parametrize(("impl", "name", "call"), _cases(FLAGS))
@pytest.mark.parametrize(
    ("value", "shown"), [(None, "NoneType"), (1, "int"), ("yes", "str"), (Odd(), "Odd"), (np.int64(1), "int64")]
)
def test_a_flag_that_is_not_a_bool_is_named(
    impl: ModuleType, text_file: Path, name: str, call: Call, value: Any, shown: str
) -> None:
    with pytest.raises(TypeError) as raised:
        _call(impl, call, text_file, value)
    assert str(raised.value) == f"{name} must be bool, not {shown}"


@pytest.mark.parametrize(("impl", "name", "call"), _cases(FLAGS))
def test_a_flag_takes_a_numpy_bool(impl: ModuleType, text_file: Path, name: str, call: Call) -> None:
    for flag in (False, True):
        expected = _call(impl, call, text_file, flag)
        got = _call(impl, call, text_file, np.bool_(flag))
        assert type(got) is type(expected)
        if isinstance(expected, (str, int, list)):
            assert got == expected


def test_numpy_bool_flags_give_the_results_of_bools(impl: ModuleType, made: dict[str, Any]) -> None:
    tok = made["wordpiece"]
    plain = tok.encode("hello", add_special_tokens=False)
    assert tok.encode("hello", add_special_tokens=np.bool_(False)).ids == plain.ids
    assert tok.encode("hello", add_special_tokens=np.bool_(True)).ids == tok.encode("hello").ids
    assert len(tok.encode("hello", add_special_tokens=np.bool_(True))) == len(plain) + 2
    cased = impl.PyTokenizer(["[UNK]", "a", "A"], special_tokens=["[UNK]"], lowercase=np.bool_(False))
    assert cased.encode("A", add_special_tokens=False).tokens == ["A"]
    arrays = tok.encode_batch(["hello"], return_tensors="np", return_offsets=np.bool_(True))
    assert arrays.offsets is not None


@pytest.mark.parametrize(("impl", "name", "call"), _cases(TEXT_ARGUMENTS))
@pytest.mark.parametrize(
    ("value", "shown"), [(1, "int"), (b"x", "bytes"), (Odd(), "Odd"), (np.bool_(True), "numpy.bool")]
)
def test_a_str_argument_of_another_type_is_named(
    impl: ModuleType, text_file: Path, name: str, call: Call, value: Any, shown: str
) -> None:
    with pytest.raises(TypeError) as raised:
        _call(impl, call, text_file, value)
    assert str(raised.value) == f"{name} must be str, not {shown}"


@pytest.mark.parametrize(
    ("what", "call"),
    [
        ("CharTokenizer", lambda m, v: m.CharTokenizer({"[UNK]": 0}, unk_token=v)),
        ("PyTokenizer.from_str", lambda m, v: m.PyTokenizer.from_str(v)),
        ("count_words", lambda m, v: m.count_words(TEXTS, show_progress=v)),
        ("WordCounts.from_files", lambda m, v: m.WordCounts.from_files([], errors=v)),
    ],
)
def test_none_is_not_a_default_for_a_str_or_a_flag(impl: ModuleType, what: str, call: Callable[..., Any]) -> None:
    with pytest.raises(TypeError) as raised:
        call(impl, None)
    assert re.fullmatch(r"\w+ must be (str|bool), not NoneType", str(raised.value))


def test_a_numpy_bool_is_named_numpy_bool_where_it_is_not_taken(impl: ModuleType, made: dict[str, Any]) -> None:
    with pytest.raises(TypeError, match=r"^vocab_size must be int, not numpy\.bool$"):
        impl.PyTokenizer.train(TEXTS, np.bool_(True), show_progress=False)
    with pytest.raises(TypeError, match=r"^text must be str, not numpy\.bool$"):
        made["wordpiece"].encode(np.bool_(True))
    with pytest.raises(TypeError, match=r"^token_ids\[0\] must be int, not numpy\.bool$"):
        made["wordpiece"].decode([np.bool_(True)])


def test_engine_and_twin_say_the_same(text_file: Path) -> None:
    """Every case above, side by side: the same outcome from both, and for a wrong type the same
    message (a wrong value, such as text that is not JSON, is a ValueError in both)."""

    def outcome(m: ModuleType, call: Call, value: Any) -> tuple[str, str]:
        try:
            _call(m, call, text_file, value)
        except TypeError as e:
            return "TypeError", str(e)
        except ValueError:
            return "ValueError", ""
        return "ok", ""

    for what, _, call in FLAGS + TEXT_ARGUMENTS:
        if what in ENGINE_ONLY:
            continue
        for value in (None, 1, "yes", b"x", 2.5, np.bool_(True), np.int64(3)):
            engine = outcome(fast_wordpiece, call, value)
            assert engine == outcome(fast_wordpiece.reference, call, value), (what, value)


# ----------------------------------------------------------------------------- one id


@pytest.mark.parametrize("one", [5, np.int64(5), np.uint8(5), np.int32(5), np.array(5)], ids=repr)
def test_one_id_is_an_int_or_an_integer_scalar(impl: ModuleType, made: dict[str, Any], one: Any) -> None:
    tok = made["wordpiece"]
    token = tok.id_to_token(5)
    assert tok.decode(one) == tok.decode([5])
    assert tok.convert_ids_to_tokens(one) == token
    assert tok.decode([one, one]) == tok.decode([5, 5])
    # transformers' methods decode one id among the sequences alone; decode_batch takes sequences only.
    assert tok.decode([[5, 6], one]) == tok.batch_decode([[5, 6], one]) == [tok.decode([5, 6]), tok.decode([5])]
    with pytest.raises(TypeError, match=r"^sequences\[0\] must be a sequence of int, not "):
        tok.decode_batch([one, [5, 6]])
    with pytest.warns(FutureWarning, match="one sequence"):  # as transformers 5: one sequence, one text
        assert tok.batch_decode([one]) == [tok.decode([5])]
    assert tok.convert_ids_to_tokens([one, 6]) == [token, tok.id_to_token(6)]
    for family in (made["bpe"], made["chars"]):
        assert family.convert_ids_to_tokens(one) == family.convert_ids_to_tokens([5])[0]


@pytest.mark.parametrize("one", [np.int64(10**6), 10**6, np.int64(-1)], ids=repr)
def test_one_id_out_of_range_is_a_value_error_naming_ids(impl: ModuleType, made: dict[str, Any], one: Any) -> None:
    tok = made["wordpiece"]
    value = int(one)
    with pytest.raises(ValueError, match=rf"^token_ids = {value} is out of range for a vocabulary of \d+ tokens$"):
        tok.decode(one)
    if value < 0:
        with pytest.raises(ValueError, match=rf"^ids = {value} is not a token id \(one from 0 to 4294967295\)$"):
            tok.convert_ids_to_tokens(one)
    else:  # no token has it: None, as transformers gives
        assert tok.convert_ids_to_tokens(one) is None
    for call in (tok.decode, tok.batch_decode):
        with pytest.raises(ValueError, match=rf"^sequences\[1\] = {value} is out of range"):
            call([[1], one])


@pytest.mark.parametrize(
    ("ids", "shown"), [(np.float64(5.0), "float64"), (np.bool_(True), "numpy.bool"), (5.0, "float")], ids=repr
)
def test_a_scalar_that_is_not_an_integer_is_no_id(impl: ModuleType, made: dict[str, Any], ids: Any, shown: str) -> None:
    tok = made["wordpiece"]
    for call, name in ((tok.decode, "token_ids"), (tok.convert_ids_to_tokens, "ids")):
        with pytest.raises(TypeError, match=rf"^{name} must be an iterable of int, not {re.escape(shown)}$"):
            call(ids)


def test_a_bool_is_no_id(impl: ModuleType, made: dict[str, Any]) -> None:
    tok = made["wordpiece"]
    for call, name in ((tok.decode, "token_ids"), (tok.convert_ids_to_tokens, "ids")):
        with pytest.raises(TypeError, match=rf"^{name} must be int, not bool$"):
            call(True)
    with pytest.raises(TypeError, match=r"^sequences must be an iterable of sequences of int, not Odd$"):
        tok.decode_batch(Odd())


@pytest.mark.parametrize("path", [987654, None, 2.5], ids=repr)
def test_a_file_descriptor_is_no_path(impl: ModuleType, made: dict[str, Any], path: Any) -> None:
    """An int is no path (``open`` would take it for a file descriptor, and close it)."""
    for call in (made["bpe"].save, made["chars"].save, impl.BPETokenizer.load, impl.CharTokenizer.load):
        with pytest.raises(TypeError) as raised:
            call(path)
        assert str(raised.value) == f"path must be str, bytes or os.PathLike, not {type(path).__name__}"


# (what is called, the call given a value that is no collection, the error it gives).
COLLECTIONS: list[tuple[str, Callable[[ModuleType, Any], Any], str]] = [
    (
        "PyTokenizer.train",
        lambda m, v: m.PyTokenizer.train(TEXTS, 60, special_tokens=v, show_progress=False),
        "special_tokens must be an iterable of str, not Odd",
    ),
    ("BPETokenizer.train", lambda m, v: m.BPETokenizer.train(TEXTS, 270, special_tokens=v), "special_tokens"),
    ("CharTokenizer.train", lambda m, v: m.CharTokenizer.train(TEXTS, special_tokens=v), "special_tokens"),
    ("UnigramTokenizer.train", lambda m, v: m.UnigramTokenizer.train(TEXTS, 30, special_tokens=v), "special_tokens"),
    ("UnigramTokenizer", lambda m, v: m.UnigramTokenizer(UNIGRAM_VOCAB, special_tokens=v), "special_tokens"),
    ("encode_batch", lambda m, v: tokenizers(m)["wordpiece"].encode_batch(v), "inputs"),
    ("convert_tokens_to_string", lambda m, v: tokenizers(m)["wordpiece"].convert_tokens_to_string(v), "tokens"),
    (
        "WordCounts",
        lambda m, v: m.WordCounts(counts=v),
        "counts must be a mapping of str to int or an iterable of (str, int) pairs, not Odd",
    ),
    (
        "BPETokenizer.decode",
        lambda m, v: tokenizers(m)["bpe"].decode(v),
        "token_ids must be an iterable of int, not Odd",
    ),
    (
        "CharTokenizer.decode",
        lambda m, v: tokenizers(m)["chars"].decode(v),
        "token_ids must be an iterable of int, not Odd",
    ),
    (
        "UnigramTokenizer.decode",
        lambda m, v: m.UnigramTokenizer(UNIGRAM_VOCAB).decode(v),
        "token_ids must be an iterable of int, not Odd",
    ),
]


@pytest.mark.parametrize(("what", "call", "message"), COLLECTIONS, ids=[c[0] for c in COLLECTIONS])
def test_a_collection_of_the_wrong_type_is_named_alike(impl: ModuleType, what: str, call: Any, message: str) -> None:
    """Every collection argument is "an iterable of" its items, in the engine and the twin."""
    expected = message if " " in message else f"{message} must be an iterable of str, not Odd"
    with pytest.raises(TypeError, match=f"^{re.escape(expected)}$"):
        call(impl, Odd())


@pytest.mark.parametrize("kind", ["bpe", "chars", "unigram"])
@pytest.mark.parametrize(
    ("ids", "error", "message"),
    [
        (["x"], TypeError, "token_ids[0] must be int, not str"),
        ([1, True], TypeError, "token_ids[1] must be int, not bool"),
        ([1.0], TypeError, "token_ids[0] must be int, not float"),
        ("ab", TypeError, "token_ids must be an iterable of int, not str"),
        ([10**6], ValueError, "token_ids[0] = 1000000 is out of range for a vocabulary of {n} tokens"),
        ([-1], ValueError, "token_ids[0] = -1 is out of range for a vocabulary of {n} tokens"),
    ],
    ids=repr,
)
def test_the_family_checks_the_ids_it_decodes(impl: ModuleType, kind: str, ids: Any, error: type, message: str) -> None:
    tok = m_unigram(impl) if kind == "unigram" else tokenizers(impl)[kind]
    with pytest.raises(error, match=f"^{re.escape(message.format(n=tok.vocab_size))}$"):
        tok.decode(ids)


def test_the_family_decodes_integer_scalars(impl: ModuleType) -> None:
    for tok in (tokenizers(impl)["bpe"], tokenizers(impl)["chars"], m_unigram(impl)):
        assert tok.decode([np.int64(1), np.uint8(2)]) == tok.decode([1, 2])


def m_unigram(impl: ModuleType) -> Any:
    return impl.UnigramTokenizer(UNIGRAM_VOCAB)


# ----------------------------------------------------------------------------- float arguments


@functools.cache
def _unigram(impl: ModuleType) -> Any:
    return impl.UnigramTokenizer.train(TEXTS, 30, show_progress=False)


#: A float argument given as: (the value, what it stands for).
NUMBERS = [(0.5, 0.5), (np.float32(0.5), 0.5), (np.float64(0.25), 0.25), (2, 2.0), (np.int64(1), 1.0)]
#: A float argument given as something that is no number: (the value, its type as named).
NOT_NUMBERS = [(True, "bool"), (np.bool_(True), "numpy.bool"), ("0.5", "str"), (Odd(), "Odd")]


@pytest.mark.parametrize(("value", "number"), NUMBERS, ids=repr)
def test_alpha_takes_numpy_float_and_integer_scalars_as_the_numbers_they_are(
    impl: ModuleType, value: Any, number: float
) -> None:
    tok = _unigram(impl)
    for text in TEXTS[:2]:
        assert tok.encode(text, alpha=value, seed=7) == tok.encode(text, alpha=number, seed=7)


@pytest.mark.parametrize(("value", "shown"), NOT_NUMBERS, ids=repr)
def test_alpha_refuses_a_bool_a_numpy_bool_and_a_str(impl: ModuleType, value: Any, shown: str) -> None:
    with pytest.raises(TypeError) as raised:
        _unigram(impl).encode("hello", alpha=value, seed=1)
    assert str(raised.value) == f"alpha must be float, not {shown}"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (np.int64(-5), "alpha must be a positive finite number, not -5"),
        (-5.0, "alpha must be a positive finite number, not -5"),
        (np.float32("nan"), "alpha must be a positive finite number, not NaN"),
        (10**400, "alpha is too large"),
    ],
    ids=repr,
)
def test_alpha_out_of_range_is_a_value_error_whatever_its_number_type(
    impl: ModuleType, value: Any, message: str
) -> None:
    with pytest.raises(ValueError, match=r"^alpha ") as raised:
        _unigram(impl).encode("hello", alpha=value, seed=1)
    assert str(raised.value) == message


@pytest.mark.parametrize(("value", "shown"), NOT_NUMBERS, ids=repr)
def test_shrinking_factor_refuses_a_bool_a_numpy_bool_and_a_str(impl: ModuleType, value: Any, shown: str) -> None:
    """A numpy bool is a flag, not the number 1.0 (whose error would be a ValueError)."""
    with pytest.raises(TypeError) as raised:
        impl.UnigramTokenizer.train(TEXTS, 30, shrinking_factor=value, show_progress=False)
    assert str(raised.value) == f"shrinking_factor must be float, not {shown}"


def test_shrinking_factor_takes_numpy_scalars_and_refuses_a_huge_int(impl: ModuleType) -> None:
    given = impl.UnigramTokenizer.train(TEXTS, 30, shrinking_factor=np.float32(0.5), show_progress=False)
    assert given == impl.UnigramTokenizer.train(TEXTS, 30, shrinking_factor=0.5, show_progress=False)
    with pytest.raises(ValueError, match=r"^shrinking_factor must be between 0 and 1 \(exclusive\), not 1$"):
        impl.UnigramTokenizer.train(TEXTS, 30, shrinking_factor=np.int64(1), show_progress=False)
    with pytest.raises(ValueError, match=r"^shrinking_factor is too large$"):
        impl.UnigramTokenizer.train(TEXTS, 30, shrinking_factor=10**400, show_progress=False)
