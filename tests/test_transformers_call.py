"""transformers' calling conventions (``fast_wordpiece.batch_encoding``): ``tokenizer(...)``,
``BatchEncoding``, ``pad``, the token/id conversions and the special-token attributes, compared
value for value with ``transformers``' BERT tokenizer built from the same bert-base-uncased files,
on real text, for the engine and the twin. Where transformers fails (an error, or a Rust panic in
its backend) we raise ValueError or TypeError. The data collators and ``datasets.Dataset.map``
run on our tokenizer and must give what they give on transformers'.
"""

from __future__ import annotations

import itertools
import json
import pickle
import random
import re
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
transformers = pytest.importorskip("transformers")

from conftest import OPTIONAL  # noqa: E402
from implementations import tokenizer_class  # noqa: E402

MODEL_MAX_LENGTH = 64  # small, so that truncation and max_length padding without max_length show


@pytest.fixture(scope="module")
def hf(bert_vocab_file) -> Any:
    """transformers' BERT tokenizer (BertTokenizerFast) from bert-base-uncased's files."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tok = transformers.BertTokenizerFast.from_pretrained(str(bert_vocab_file.parent))
    tok.model_max_length = MODEL_MAX_LENGTH
    return tok


@pytest.fixture(scope="module", params=["engine", "twin"])
def ours(request: pytest.FixtureRequest, bert_vocab_file) -> Any:
    tok = tokenizer_class(request.param).from_vocab_file(str(bert_vocab_file))
    tok.model_max_length = MODEL_MAX_LENGTH
    return tok


@pytest.fixture(scope="module")
def texts(shakespeare_lines: list[str], multilingual_lines: list[str]) -> dict[str, Any]:
    rng = random.Random(13)
    short = rng.sample(shakespeare_lines[:20000], 4) + rng.sample(multilingual_lines, 3)
    long = [" ".join(shakespeare_lines[i : i + 8]) for i in rng.sample(range(len(shakespeare_lines) - 8), 2)]
    batch = short + long + [""]
    return {"one": long[0], "pair": (short[0], long[1]), "batch": batch, "pairs": list(zip(batch, reversed(batch)))}


def as_plain(value: Any) -> Any:
    """Lists of tuples as lists of lists, numpy arrays kept: comparable values of either library."""
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, (list, tuple)):
        return [as_plain(v) for v in value]
    return value


def same(ours_out: Any, theirs: Any, where: str) -> None:
    assert list(ours_out.keys()) == list(theirs.keys()), f"{where}: keys {list(ours_out)} != {list(theirs)}"
    for key in theirs:
        a, b = ours_out[key], theirs[key]
        if isinstance(b, np.ndarray):
            assert isinstance(a, np.ndarray), f"{where}: {key} is {type(a).__name__}, not an array"
            assert (a.dtype, a.shape) == (b.dtype, b.shape), f"{where}: {key} {a.dtype}{a.shape} != {b.dtype}{b.shape}"
            if b.dtype == object:  # ragged rows
                assert [r.tolist() for r in a] == [r.tolist() for r in b], f"{where}: {key} differs"
            else:
                assert np.array_equal(a, b), f"{where}: {key} differs"
        else:
            assert as_plain(a) == as_plain(b), f"{where}: {key}: ours {a!r} != transformers {b!r}"
    assert len(ours_out.encodings) == len(theirs.encodings), where
    for i in range(len(theirs.encodings)):
        assert ours_out.tokens(i) == theirs.tokens(i), f"{where}: tokens({i})"
        assert ours_out.word_ids(i) == theirs.word_ids(i), f"{where}: word_ids({i})"
        assert ours_out.sequence_ids(i) == theirs.sequence_ids(i), f"{where}: sequence_ids({i})"
        same_encoding(ours_out.encodings[i], theirs.encodings[i], f"{where}: encodings[{i}]")
    assert ours_out.n_sequences == theirs.n_sequences, where


ENCODING_FIELDS = ("ids", "tokens", "offsets", "type_ids", "attention_mask", "special_tokens_mask", "word_ids",
                   "sequence_ids")  # fmt: skip


def same_encoding(ours_encoding: Any, theirs: Any, where: str) -> None:
    """One row's Encoding field for field, with its overflowing windows (nested, for a pair's)."""
    for field in ENCODING_FIELDS:
        a, b = getattr(ours_encoding, field), getattr(theirs, field)
        assert as_plain(a) == as_plain(b), f"{where}: {field}: ours {a!r} != transformers {b!r}"
    ours_windows, windows = ours_encoding.overflowing, theirs.overflowing
    assert len(ours_windows) == len(windows), f"{where}: {len(ours_windows)} overflowing windows, not {len(windows)}"
    for j, (a, b) in enumerate(zip(ours_windows, windows)):
        same_encoding(a, b, f"{where}.overflowing[{j}]")


def call_both(hf: Any, ours: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    where = f"tokenizer(<{len(args)} args>, **{kwargs})"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = hf(*args, **kwargs)
    except BaseException as e:  # PanicException is a BaseException
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        with pytest.raises((ValueError, TypeError), match=r"\S"):
            ours(*args, **kwargs)
        return "both raise"
    same(ours(*args, **kwargs), expected, where)
    return "equal"


PADDINGS = (False, True, "longest", "max_length", "do_not_pad")
TRUNCATIONS = (None, False, True, "longest_first", "only_first", "only_second", "do_not_truncate")
LENGTHS = (None, 9, 24)


@pytest.mark.parametrize("shape", ["one", "pair", "batch", "pairs"])
@pytest.mark.parametrize("return_tensors", [None, "np"])
def test_padding_truncation_and_lengths_match_transformers(hf, ours, texts, shape, return_tensors):
    args = (texts[shape],) if shape in ("one", "batch") else texts[shape] if shape == "pair" else (texts[shape],)
    outcomes = []
    for padding, truncation, max_length in itertools.product(PADDINGS, TRUNCATIONS, LENGTHS):
        kwargs = {"padding": padding, "truncation": truncation, "max_length": max_length}
        outcomes.append(call_both(hf, ours, args, dict(kwargs, return_tensors=return_tensors)))
    assert "equal" in outcomes


@pytest.mark.parametrize("stride", [0, 3])
@pytest.mark.parametrize("return_tensors", [None, "np"])
def test_overflowing_windows_become_rows_with_their_sample(hf, ours, texts, stride, return_tensors):
    """Question answering: every window of a long context is a row, overflow_to_sample_mapping says
    whose."""
    questions = [q for q, _ in texts["pairs"]][:5]
    contexts = [texts["batch"][7], texts["batch"][8], texts["batch"][0], texts["batch"][7], ""]
    for truncation in ("only_second", "longest_first"):
        kwargs = {"truncation": truncation, "max_length": 40, "stride": stride, "padding": "max_length"}
        kwargs |= {"return_overflowing_tokens": True, "return_offsets_mapping": True, "return_tensors": return_tensors}
        assert call_both(hf, ours, (questions, contexts), kwargs) == "equal"
    rows = ours(questions[:2], contexts[:2], truncation="only_second", max_length=40, stride=stride,
                return_overflowing_tokens=True, padding=True, return_tensors=return_tensors)  # fmt: skip
    assert len(rows["input_ids"]) > 2, "the long contexts make more than one window each"


@pytest.mark.parametrize("shape", ["one", "pair", "batch", "pairs"])
@pytest.mark.parametrize("return_overflowing_tokens", [True, False])
def test_rows_keep_their_overflowing_windows_as_in_transformers(hf, ours, texts, shape, return_overflowing_tokens):
    """Each row's Encoding (``encodings[i]``, ``result[i]``) keeps its ``overflowing`` windows, a
    pair's windows their nested ones, as transformers' rows (``[encoding] + encoding.overflowing``)
    do, with ``return_overflowing_tokens`` or without, for every truncation strategy and stride."""
    pairs = [*texts["pairs"][:3], ("a few words", texts["batch"][7]), (texts["batch"][8], "one two three four")]
    args = {"one": (texts["one"],), "pair": texts["pair"], "batch": (texts["batch"],), "pairs": (pairs,)}[shape]
    outcomes, windows = [], 0
    strategies = (True, "longest_first", "only_first", "only_second")
    for truncation, max_length, stride in itertools.product(strategies, [7, 12, 20], [0, 1, 3]):
        for padding in (False, "max_length"):
            kwargs = {"truncation": truncation, "max_length": max_length, "stride": stride, "padding": padding,
                      "return_overflowing_tokens": return_overflowing_tokens}  # fmt: skip
            outcomes.append(call_both(hf, ours, args, kwargs))
            if outcomes[-1] == "equal":
                rows = ours(*args, **kwargs)
                for i, row in enumerate(rows.encodings):
                    assert rows[i].overflowing == row.overflowing, f"{kwargs}: result[{i}].overflowing"
                    windows += len(row.overflowing)
    assert outcomes.count("equal") >= len(outcomes) // 3, outcomes
    assert windows, "some rows have windows"


@pytest.mark.parametrize("shape", ["one", "pair", "batch", "pairs"])
def test_no_room_without_special_tokens_moves_every_token_to_overflow(hf, ours, texts, shape):
    """``max_length=0`` without special tokens leaves no room: each row is empty and its one
    overflowing window holds every token, whatever the stride (transformers' backend skips its
    stride check there). Strides too large for a positive room are refused alike."""
    args = (texts[shape],) if shape in ("one", "batch") else texts[shape] if shape == "pair" else (texts[shape],)
    outcomes = []
    for max_length, stride, truncation in itertools.product([0, 1, 2, 5], [0, 1, 3], [True, "only_first"]):
        kwargs = {"max_length": max_length, "stride": stride, "truncation": truncation, "add_special_tokens": False}
        outcomes.append(call_both(hf, ours, args, dict(kwargs, return_overflowing_tokens=True)))
    assert outcomes.count("equal") >= 8, outcomes
    rows = ours(*args, max_length=0, stride=3, truncation=True, add_special_tokens=False,
                return_overflowing_tokens=True)  # fmt: skip
    assert rows["input_ids"][0] == []
    assert rows["input_ids"][1], "every token in the next row"


@pytest.mark.parametrize("kwargs", [
    {"stride": None}, {"pad_to_multiple_of": 0, "padding": True},
    {"pad_to_multiple_of": 0, "padding": "max_length", "max_length": 9}, {"pad_to_multiple_of": 0},
])  # fmt: skip
def test_none_stride_and_zero_multiple_ask_for_nothing_as_in_transformers(hf, ours, texts, kwargs):
    for shape in ("one", "pair", "batch"):
        args = (texts[shape],) if shape in ("one", "batch") else texts[shape]
        assert call_both(hf, ours, args, kwargs) == "equal", shape
    # transformers' backend then fails on a None stride with truncation (a TypeError); ours reads it as 0
    truncated = {"truncation": True, "max_length": 9, "return_overflowing_tokens": True}
    assert dict(ours(texts["batch"], stride=None, **truncated)) == dict(ours(texts["batch"], stride=0, **truncated))


@pytest.mark.parametrize("flags", [
    {"return_token_type_ids": False}, {"return_attention_mask": False}, {"return_special_tokens_mask": True},
    {"return_offsets_mapping": True}, {"return_length": True}, {"add_special_tokens": False},
    {"pad_to_multiple_of": 8, "padding": True}, {"padding_side": "left", "padding": True},
    {"return_overflowing_tokens": True, "truncation": True, "max_length": 12, "stride": 2},
])  # fmt: skip
@pytest.mark.parametrize("shape", ["one", "pair", "batch", "pairs"])
def test_every_return_flag_matches_transformers(hf, ours, texts, flags, shape):
    args = (texts[shape],) if shape in ("one", "batch") else texts[shape] if shape == "pair" else (texts[shape],)
    for return_tensors in (None, "np"):
        kwargs = dict(flags, return_tensors=return_tensors)
        if return_tensors and "padding" not in kwargs:
            kwargs["padding"] = True
        call_both(hf, ours, args, kwargs)


def test_unbatched_input_gives_unbatched_lists(ours, texts):
    single = ours(texts["one"])
    assert isinstance(single["input_ids"][0], int)
    batched = ours([texts["one"]])
    assert single["input_ids"] == batched["input_ids"][0]
    assert single.input_ids == single["input_ids"]  # attributes, as transformers' BatchEncoding
    assert ours(texts["one"], return_tensors="np")["input_ids"].shape == (1, len(single["input_ids"]))


def answer(method: Any, *args: Any) -> Any:
    """What a call gives: its result, or the type of the exception it raises."""
    try:
        return method(*args)
    except Exception as e:  # the outcome is what is compared
        return type(e)


def test_alignment_methods_match_transformers(hf, ours, texts):
    args = ([q for q, _ in texts["pairs"]], [c for _, c in texts["pairs"]])
    a, b = ours(*args, padding=True), hf(*args, padding=True)
    for i in range(len(b.encodings)):
        n = len(b["input_ids"][i])
        for t in range(n):
            assert a.token_to_word(i, t) == b.token_to_word(i, t)
            assert a.token_to_sequence(i, t) == b.token_to_sequence(i, t)
            assert a.token_to_chars(i, t) == b.token_to_chars(i, t)
        # a negative token index counts from the end (transformers 5 means to, but fails: no _seq_len)
        assert a.token_to_word(i, -2) == b.token_to_word(i, n - 2)
        for w in range(max(x for x in b.word_ids(i) if x is not None) + 2 if any(b.word_ids(i)) else 2):
            for s in (0, 1):
                assert a.word_to_tokens(i, w, s) == b.word_to_tokens(i, w, s)
                # a word with no tokens: a TypeError in both (transformers' CharSpan of None)
                assert answer(a.word_to_chars, i, w, s) == answer(b.word_to_chars, i, w, s)
        for c in range(0, 60, 3):
            for s in (0, 1):
                assert a.char_to_token(i, c, s) == b.char_to_token(i, c, s)
                assert a.char_to_word(i, c, s) == b.char_to_word(i, c, s)
    assert a.token_to_word(3) == b.token_to_word(3)  # one argument: row 0


def test_word_to_chars_of_a_word_with_no_tokens_is_a_type_error_as_in_transformers(hf, ours):
    """A word past a row's last one has no characters: transformers' ``word_to_chars`` raises
    TypeError (its ``CharSpan`` of the encoding's None), and so does ours; the encoding's own
    ``word_to_chars`` gives None, as ``tokenizers``' does."""
    a, b = ours(["hello world", "hi"]), hf(["hello world", "hi"])
    assert a.word_to_chars(0, 1) == b.word_to_chars(0, 1) == (6, 11)
    for row, word in [(0, 2), (1, 1), (0, 5)]:
        with pytest.raises(TypeError):
            b.word_to_chars(row, word)
        with pytest.raises(TypeError, match=f"word {word} of sequence 0 in row {row} has no tokens"):
            a.word_to_chars(row, word)
        assert a.encodings[row].word_to_chars(word) is None
    with pytest.raises(TypeError, match="word 5 of sequence 0 in row 0 has no tokens"):
        a.word_to_chars(5)  # one index: row 0


def test_the_tokenizer_surface_matches_transformers(hf, ours, texts):
    text = texts["batch"][0]
    assert ours.tokenize(text) == hf.tokenize(text)
    tokens = [*hf.tokenize(text), "notatoken-xyz"]
    assert ours.convert_tokens_to_ids(tokens) == hf.convert_tokens_to_ids(tokens)
    assert ours.convert_tokens_to_ids("[MASK]") == hf.convert_tokens_to_ids("[MASK]")
    ids = hf(text)["input_ids"]
    assert ours.convert_ids_to_tokens(ids) == hf.convert_ids_to_tokens(ids)
    assert ours.convert_ids_to_tokens(ids, skip_special_tokens=True) == hf.convert_ids_to_tokens(ids, True)
    assert ours.convert_ids_to_tokens(ids[1]) == hf.convert_ids_to_tokens(ids[1])
    added = pickle.loads(pickle.dumps(ours))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = transformers.BertTokenizerFast.from_pretrained(hf.name_or_path)
    assert added.add_tokens(["COVID19", "中国"]) == theirs.add_tokens(["COVID19", "中国"]) == 2
    new_ids = theirs("COVID19 中国 x")["input_ids"]
    assert added("COVID19 中国 x")["input_ids"] == new_ids
    assert added.convert_ids_to_tokens(new_ids) == theirs.convert_ids_to_tokens(new_ids)
    assert added.convert_ids_to_tokens(new_ids[1]) == theirs.convert_ids_to_tokens(new_ids[1]) == "covid19"
    assert ours.convert_tokens_to_string(tokens[:-1]) == hf.convert_tokens_to_string(tokens[:-1])
    batch = hf(texts["batch"])["input_ids"]
    assert ours.batch_decode(batch) == hf.batch_decode(batch)
    assert ours.batch_decode(batch, skip_special_tokens=True) == hf.batch_decode(batch, skip_special_tokens=True)
    assert ours.get_special_tokens_mask(ids, already_has_special_tokens=True) == hf.get_special_tokens_mask(
        ids, already_has_special_tokens=True
    )
    # transformers 5 no longer computes this for ids without special tokens; ours gives encode's mask
    assert ours.get_special_tokens_mask([5, 6], [7]) == ours.encode("a b", "c").special_tokens_mask
    for name in ("pad_token", "unk_token", "cls_token", "sep_token", "mask_token", "pad_token_id", "unk_token_id",
                 "cls_token_id", "sep_token_id", "mask_token_id", "pad_token_type_id", "all_special_ids",
                 "padding_side", "truncation_side", "model_max_length", "model_input_names"):  # fmt: skip
        assert getattr(ours, name) == getattr(hf, name), name
    assert sorted(ours.all_special_tokens) == sorted(hf.all_special_tokens)
    assert len(ours) == len(hf)


@pytest.mark.parametrize("value", [None, 0, 1, "yes", "", [1], np.int64(1)], ids=repr)
def test_return_overflowing_tokens_is_read_as_transformers_reads_it(hf, ours, texts, value):
    """Any value, read as true or false as the call's other ``return_*`` flags are, as transformers
    reads it (``if return_overflowing_tokens``): None, 0 and "" ask for no windows."""
    for args in ((texts["one"],), texts["pair"], (texts["batch"],)):
        kwargs = {"truncation": True, "max_length": 12, "stride": 2, "return_overflowing_tokens": value}
        assert call_both(hf, ours, args, kwargs) == "equal"


@pytest.mark.parametrize("skip", [None, 0, 1, "yes", "", np.int64(1)], ids=repr)
def test_convert_ids_to_tokens_reads_skip_special_tokens_as_transformers(hf, ours, texts, skip):
    """``skip_special_tokens`` read as true or false, as transformers reads it; for one id it is not read."""
    ids = hf(texts["pair"][0], "x")["input_ids"]
    assert ours.convert_ids_to_tokens(ids, skip) == hf.convert_ids_to_tokens(ids, skip)
    assert ours.convert_ids_to_tokens(ids, skip_special_tokens=skip) == hf.convert_ids_to_tokens(ids, skip)
    assert ours.convert_ids_to_tokens(ids[0], skip) == hf.convert_ids_to_tokens(ids[0], skip) == "[CLS]"


TOKENIZE_KEYWORDS = [
    {"truncation": True, "max_length": 8},
    {"truncation": "longest_first", "max_length": 8, "stride": 2},
    {"add_special_tokens": True, "truncation": True, "max_length": 8},
    {"padding": "max_length", "max_length": 40},
    {"padding": True, "pad_to_multiple_of": 8, "padding_side": "left"},
    {"return_tensors": "np", "return_overflowing_tokens": True, "return_offsets_mapping": True},
    {"return_token_type_ids": False, "return_attention_mask": True, "return_length": True, "verbose": False},
    {"split_special_tokens": True, "max_length": "not read"},
    {"is_split_into_words": False, "text_target": "a target", "max_target_length": 3},
    {"tokenizer_kwargs": {"add_special_tokens": True}},
]


@pytest.mark.parametrize("kwargs", TOKENIZE_KEYWORDS, ids=repr)
@pytest.mark.parametrize("pair", [None, "", "and a second text to go with it"], ids=repr)
def test_tokenize_takes_the_call_keywords_as_transformers(hf, ours, texts, kwargs, pair):
    """transformers 5's fast ``tokenize`` passes its keywords to ``_encode_plus``, which reads
    ``pair``, ``add_special_tokens`` and ``split_special_tokens`` and ignores the call's others
    (truncation and padding come from strategies there, and only the tokens are returned)."""
    text = f"{texts['one']} [SEP] with [MASK]"
    args = (text,) if pair is None else (text, pair)
    assert ours.tokenize(*args, **kwargs) == hf.tokenize(*args, **kwargs)
    assert ours.tokenize(text, pair=pair, **kwargs) == hf.tokenize(text, pair=pair, **kwargs)


def test_tokenize_refuses_a_keyword_of_no_call(ours):
    """transformers ignores any keyword (a misspelt one too); ours names it."""
    for key in ("foo", "text_pair", "truncation_strategy", "padding_strategy"):
        with pytest.raises(TypeError, match=rf"^tokenize\(\) got an unexpected keyword argument '{key}'$"):
            ours.tokenize("hello", **{key: 1})
    with pytest.raises(TypeError, match=r"^tokenize\(\) takes a str, not words"):
        ours.tokenize("hello", is_split_into_words=True)
    # Its own arguments are read first, as Python binds them (the engine's and the twin's alike).
    with pytest.raises(TypeError, match=r"^add_special_tokens must be bool, not int"):
        ours.tokenize("hello", add_special_tokens=1, foo=1)
    with pytest.raises(TypeError, match=r"^add_special_tokens must be bool, not int"):
        ours.tokenize(5, add_special_tokens=1)


@pytest.mark.parametrize("value", ["tf", "xx", "jax", 5, "NP"], ids=repr)
def test_tokenize_refuses_a_return_tensors_the_call_refuses(hf, ours, value):
    """transformers' ``tokenize`` makes its ``BatchEncoding`` with ``return_tensors``, whose
    ``TensorType`` refuses ``"tf"`` (a ValueError); ours gives the call's ValueError naming it."""
    with pytest.raises(ValueError, match=rf"^{re.escape(str(value))} is not a valid TensorType"):
        hf.tokenize("hello world", return_tensors=value)
    message = f'^return_tensors must be None, "np" or "pt", not {re.escape(repr(value))}$'
    with pytest.raises(ValueError, match=message):
        ours.tokenize("hello world", return_tensors=value)
    with pytest.raises(ValueError, match=message):
        ours("hello world", return_tensors=value)
    assert ours.tokenize("hello world", return_tensors=None) == ours.tokenize("hello world", return_tensors="np")


def test_convert_ids_to_tokens_reads_skip_special_tokens_before_the_ids_as_transformers(hf, ours):
    """A flag whose truth cannot be told fails before a generator of ids is read, as in transformers."""

    class Undecided:
        def __bool__(self) -> bool:
            raise RuntimeError("no truth")

    for tok in (hf, ours):
        ids = iter([101, 102])
        with pytest.raises(RuntimeError, match=r"^no truth$"):
            tok.convert_ids_to_tokens(ids, skip_special_tokens=Undecided())
        assert list(ids) == [101, 102]
    # One id: the flag is not read at all.
    assert ours.convert_ids_to_tokens(101, skip_special_tokens=Undecided()) == hf.convert_ids_to_tokens(101)


def test_convert_ids_to_tokens_of_an_id_no_token_has_is_none_as_in_transformers(hf, ours):
    """transformers' ``convert_ids_to_tokens`` gives ``id_to_token``'s None for an id out of the
    vocabulary, alone or in a list (numpy's too); ours, with ValueError for what transformers meets
    with an OverflowError (a negative id, one of 2**32 or more)."""
    size = len(hf)
    for ids in (10**6, size, 2**32 - 1, [101, 10**6, 102], [size], np.array([5, 10**6]), range(size - 1, size + 1)):
        assert ours.convert_ids_to_tokens(ids) == hf.convert_ids_to_tokens(ids), ids
    assert ours.convert_ids_to_tokens([101, 10**6, 102], skip_special_tokens=True) == [None]
    assert ours.convert_ids_to_tokens(np.int64(10**6)) is None
    for bad in (-1, 2**32, 2**70):
        with pytest.raises(OverflowError):
            hf.convert_ids_to_tokens([bad])
        shown = re.escape(str(bad))
        with pytest.raises(ValueError, match=rf"^ids\[1\] = {shown} is not a token id \(one from 0 to 4294967295\)$"):
            ours.convert_ids_to_tokens([1, bad])
        with pytest.raises(ValueError, match=rf"^ids = {shown} is not a token id"):
            ours.convert_ids_to_tokens(bad)


def test_decode_takes_what_transformers_decode_takes(hf, ours, texts):
    """One id, a sequence, a batch (lists or a 2-D array), and clean_up_tokenization_spaces: the
    call's, else the tokenizer's (False by default, as transformers' BERT tokenizer)."""
    batch = hf([*texts["batch"][:3], "I do n't know , he 's here . 'quoted' ok ?"])["input_ids"]
    ids = batch[-1]
    assert ours.clean_up_tokenization_spaces is hf.clean_up_tokenization_spaces is False
    for clean_up in (None, True, False):
        kw = {"clean_up_tokenization_spaces": clean_up}
        assert ours.decode(ids, **kw) == hf.decode(ids, **kw), clean_up
        assert ours.decode(batch, **kw) == hf.decode(batch, **kw) == ours.batch_decode(batch, **kw)
        assert ours.batch_decode(batch, True, **kw) == hf.batch_decode(batch, True, **kw)
    assert ours.decode(ids, clean_up_tokenization_spaces=True) != ours.decode(ids)
    assert ours.decode(ids[3]) == hf.decode(ids[3])
    square = np.array([ids[:4], ids[4:8]])
    assert ours.decode(square) == hf.decode(square)
    assert ours.decode(np.array(ids)) == hf.decode(np.array(ids))
    on = pickle.loads(pickle.dumps(ours))
    on.clean_up_tokenization_spaces = True
    assert pickle.loads(pickle.dumps(on)).clean_up_tokenization_spaces is True
    assert on.decode(ids) == hf.decode(ids, clean_up_tokenization_spaces=True)
    assert on.decode(ids, clean_up_tokenization_spaces=False) == ours.decode(ids)
    for bad in ("yes", 1):
        with pytest.raises(TypeError, match="clean_up_tokenization_spaces must be bool"):
            ours.decode(ids, clean_up_tokenization_spaces=bad)
        with pytest.raises(TypeError, match="clean_up_tokenization_spaces must be bool"):
            on.clean_up_tokenization_spaces = bad
    with pytest.raises(ValueError, match=r"^token_ids = 99999999 is out of range"):
        ours.decode(99999999)
    with pytest.raises(TypeError, match="bool"):
        ours.decode(True)


def test_clean_up_in_a_model_directory_is_read_and_written(ours, tmp_path):
    """tokenizer_config.json's clean_up_tokenization_spaces (as transformers 4 wrote it for BERT)
    sets decode's default; save_pretrained keeps it, and transformers reads it alike."""
    on = pickle.loads(pickle.dumps(ours))
    on.clean_up_tokenization_spaces = True
    on.save_pretrained(tmp_path)
    again = type(ours).from_pretrained(tmp_path)
    assert again.clean_up_tokenization_spaces is True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = transformers.AutoTokenizer.from_pretrained(str(tmp_path))
    ids = theirs("I do n't know , he 's here .")["input_ids"]
    assert again.decode(ids) == theirs.decode(ids) == "[CLS] i don't know, he's here. [SEP]"
    config = tmp_path / "tokenizer_config.json"
    config.write_text(json.dumps(dict(json.loads(config.read_text()), clean_up_tokenization_spaces="yes")))
    with pytest.raises(ValueError, match=r"tokenizer_config\.json: clean_up_tokenization_spaces: expected true"):
        type(ours).from_pretrained(tmp_path)


def test_settings_change_calls_and_survive_pickling(ours, texts):
    tok = pickle.loads(pickle.dumps(ours))
    tok.padding_side, tok.truncation_side, tok.model_max_length = "left", "left", 10
    again = pickle.loads(pickle.dumps(tok))
    assert (again.padding_side, again.truncation_side, again.model_max_length) == ("left", "left", 10)
    out = again(texts["batch"][:3], padding="max_length", truncation=True)
    assert all(len(row) == 10 for row in out["input_ids"])
    assert out["attention_mask"][2][0] == 0 or len(again(texts["batch"][2])["input_ids"]) >= 10
    tok.model_max_length = int(1e30)
    assert tok.model_max_length == int(1e30)
    assert ours.padding_side == "right", "a copy's settings are its own"


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"padding": "sideways"}, ValueError, "padding must be"),
    ({"padding": None}, ValueError, r"padding must be True, False or one of .*, not None"),
    ({"truncation": "middle"}, ValueError, "truncation must be"),
    ({"return_tensors": "tf"}, ValueError, "return_tensors must be"),
    ({"padding_side": "up", "padding": True}, ValueError, "padding_side"),
])  # fmt: skip
def test_bad_arguments_raise_naming_the_argument(ours, kwargs, error, message):
    with pytest.raises(error, match=message):
        ours(["a b"], **kwargs)


def test_bad_inputs_raise_type_errors(ours):
    with pytest.raises(TypeError, match="text must be"):
        ours(3)
    with pytest.raises(TypeError, match=r"text\[1\]"):
        ours(["a", 3])
    with pytest.raises(TypeError, match="text_pair"):
        ours(["a"], "b")
    with pytest.raises(ValueError, match="batch length"):
        ours(["a"], ["b", "c"])
    ragged = ours(["a", "a b c"], return_tensors="np")["input_ids"]  # as transformers 5: arrays of arrays
    assert ragged.dtype == object
    assert [row.tolist() for row in ragged] == ours(["a", "a b c"])["input_ids"]
    if not _torch():
        with pytest.raises(ImportError, match="PyTorch"):
            ours(["a"], return_tensors="pt")
    with pytest.raises(ValueError, match="padding_side"):
        ours.padding_side = "middle"


def _torch() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


# ----------------------------------------------------------------------------- pad and the collators


def features(hf: Any, lines: list[str]) -> list[dict[str, Any]]:
    """Examples as datasets gives them to a collator: one dict of lists per example, unpadded."""
    encoded = hf(lines, truncation=True, return_special_tokens_mask=True)
    return [{key: encoded[key][i] for key in encoded} for i in range(len(lines))]


def as_lists(value: Any) -> Any:
    return value.tolist() if isinstance(value, np.ndarray) else value


def test_pad_matches_transformers(hf, ours, texts):
    examples = features(hf, texts["batch"])
    for kwargs in ({}, {"padding": "max_length", "max_length": 70}, {"pad_to_multiple_of": 8},
                   {"padding_side": "left"}, {"return_attention_mask": False}, {"return_tensors": "np"},
                   {"padding": False}):  # fmt: skip
        a, b = ours.pad(examples, **kwargs), hf.pad(examples, **kwargs)
        assert list(a.keys()) == list(b.keys()), kwargs
        for key in b:
            assert type(a[key]) is type(b[key]), (kwargs, key)
            assert as_lists(a[key]) == as_lists(b[key]), (kwargs, key)
    one = dict(examples[0])
    padded = ours.pad(one, padding="max_length", max_length=70)["input_ids"]
    assert padded == hf.pad(one, padding="max_length", max_length=70)["input_ids"]


def test_data_collators_work_as_with_transformers_tokenizer(hf, ours, texts):
    from transformers import (
        DataCollatorForLanguageModeling,
        DataCollatorForTokenClassification,
        DataCollatorWithPadding,
    )

    examples = features(hf, texts["batch"])
    for options in ({}, {"padding": "max_length", "max_length": 80}):
        a = DataCollatorWithPadding(ours, return_tensors="np", **options)(examples)
        b = DataCollatorWithPadding(hf, return_tensors="np", **options)(examples)
        assert {k: v.tolist() for k, v in a.items()} == {k: v.tolist() for k, v in b.items()}
    # token classification: labels aligned with word_ids, padded with -100 by the collator
    labelled = []
    for example, enc in zip(examples, hf(texts["batch"], truncation=True).encodings):
        labels = [-100 if w is None else w % 3 for w in enc.word_ids]
        inputs = {key: example[key] for key in ("input_ids", "token_type_ids", "attention_mask")}
        labelled.append(inputs | {"labels": labels})
    collate = DataCollatorForTokenClassification
    a, b = collate(ours, return_tensors="np")(labelled), collate(hf, return_tensors="np")(labelled)
    assert {k: v.tolist() for k, v in a.items()} == {k: v.tolist() for k, v in b.items()}
    # masked language modelling: the same random masks from the same seed
    mlm = {"mlm": True, "mlm_probability": 0.3, "return_tensors": "np"}
    np.random.seed(5)
    a = DataCollatorForLanguageModeling(ours, **mlm)(examples)
    np.random.seed(5)
    b = DataCollatorForLanguageModeling(hf, **mlm)(examples)
    assert {k: v.tolist() for k, v in a.items()} == {k: v.tolist() for k, v in b.items()}


def test_word_ids_align_labels_like_transformers(hf, ours, texts):
    """The token-classification recipe: a label per word, -100 for added tokens and later pieces."""
    words = texts["batch"][0].split()
    labels = [i % 5 for i in range(len(words))]

    def align(tokenizer: Any) -> list[int]:
        enc = tokenizer(" ".join(words), truncation=True)
        aligned, previous = [], None
        for w in enc.word_ids():
            aligned.append(-100 if w is None or w == previous else labels[w % len(labels)])
            previous = w
        return aligned

    assert align(ours) == align(hf)


def test_datasets_map_batched_with_two_processes(hf, ours, texts, tmp_path):
    datasets = pytest.importorskip("datasets")
    data = datasets.Dataset.from_dict({"text": texts["batch"] * 3})

    def tokenize_with(tokenizer: Any) -> Any:
        return lambda batch: tokenizer(batch["text"], truncation=True, max_length=32)

    for num_proc in (None, 2):
        a = data.map(
            tokenize_with(ours), batched=True, num_proc=num_proc, cache_file_name=str(tmp_path / f"a{num_proc}.arrow")
        )
        b = data.map(
            tokenize_with(hf), batched=True, num_proc=num_proc, cache_file_name=str(tmp_path / f"b{num_proc}.arrow")
        )
        assert a.column_names == b.column_names
        for column in b.column_names:
            assert a[column] == b[column], (num_proc, column)


@pytest.mark.parametrize("kwargs", [
    {}, {"padding": True, "return_offsets_mapping": True, "return_length": True},
    {"truncation": True, "max_length": 9, "stride": 1, "return_overflowing_tokens": True, "padding": True},
    {"truncation": "longest_first", "max_length": 12, "return_tensors": "np", "padding": "max_length"},
])  # fmt: skip
def test_words_given_split_match_transformers(hf, ours, texts, kwargs):
    """``is_split_into_words``: each given word is tokenized on its own, its tokens get its number
    (an empty word keeps its number) and their offsets are into the word."""
    words = [line.split() for line in texts["batch"]] + [["Hello,", "unbelievable world", "", "[SEP]x"], []]
    pairs = list(zip(words, reversed(words)))
    shapes = ((words[0],), (words,), (words[1], words[2]), ([a for a, _ in pairs], [b for _, b in pairs]))
    outcomes = [call_both(hf, ours, args, dict(kwargs, is_split_into_words=True)) for args in shapes]
    assert outcomes.count("equal") >= 2, outcomes
    labels = ours(words[0], is_split_into_words=True).word_ids()
    assert {w for w in labels if w is not None} == set(range(len(words[0])))


def test_call_settings_travel_through_model_directories(ours, tmp_path):
    """save_pretrained writes model_max_length, padding_side and truncation_side into
    tokenizer_config.json; from_pretrained and transformers' AutoTokenizer read them back, and
    AutoTokenizer gives the segment ids of pairs (the model's inputs are in the file too)."""
    tok = pickle.loads(pickle.dumps(ours))
    tok.model_max_length = 77
    tok.padding_side, tok.truncation_side = "left", "left"
    tok.save_pretrained(tmp_path)
    again = type(tok).from_pretrained(tmp_path)
    assert (again.model_max_length, again.padding_side, again.truncation_side) == (77, "left", "left")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = transformers.AutoTokenizer.from_pretrained(str(tmp_path))
    assert (theirs.model_max_length, theirs.padding_side, theirs.truncation_side) == (77, "left", "left")
    text = "a " * 100
    assert again(text, truncation=True)["input_ids"] == theirs(text, truncation=True)["input_ids"]
    batch = [("What is it?", "It is a cat."), ("Why?", "Because.")]
    got, expected = again(batch, padding=True), theirs(batch, padding=True)
    assert list(got.keys()) == list(expected.keys()) == ["input_ids", "token_type_ids", "attention_mask"]
    assert {k: got[k] for k in got} == {k: expected[k] for k in expected}
    assert any(1 in row for row in expected["token_type_ids"])


def test_bad_call_settings_in_a_model_directory_are_named(ours, tmp_path):
    """A tokenizer_config.json whose sides are not "left" or "right" (null too) is a ValueError
    naming the key, as transformers 5 refuses them; a null maximum length or clean-up is the
    default, as transformers takes them."""
    ours.save_pretrained(tmp_path)
    config = tmp_path / "tokenizer_config.json"
    settings = json.loads(config.read_text(encoding="utf-8"))
    nulls = ("model_max_length", "clean_up_tokenization_spaces")
    config.write_text(json.dumps(dict(settings, **dict.fromkeys(nulls))), encoding="utf-8")
    loaded = type(ours).from_pretrained(tmp_path)
    assert loaded.model_max_length == int(1e30)
    assert (loaded.padding_side, loaded.truncation_side) == ("right", "right")
    assert loaded.clean_up_tokenization_spaces is False
    for key, value in (("padding_side", "middle"), ("truncation_side", 1), ("padding_side", None)):
        settings = json.loads(config.read_text(encoding="utf-8"))
        config.write_text(json.dumps(dict(settings, **{key: value})), encoding="utf-8")
        with pytest.raises(ValueError, match=rf"tokenizer_config\.json: {key}: expected"):
            type(ours).from_pretrained(tmp_path)
        config.write_text(json.dumps(settings), encoding="utf-8")


def test_torch_tensors_match_transformers(hf, ours, texts):
    """return_tensors="pt" where PyTorch is installed (CI leaves it out: its wheels are gigabytes)."""
    try:
        import torch
    except ImportError:
        pytest.skip(f"{OPTIONAL} PyTorch is not installed")
    kwargs = {"padding": True, "truncation": True, "return_tensors": "pt", "return_offsets_mapping": True}
    a, b = ours(texts["batch"], **kwargs), hf(texts["batch"], **kwargs)
    assert list(a.keys()) == list(b.keys())
    for key in b:
        assert a[key].dtype == b[key].dtype
        assert torch.equal(a[key], b[key]), key
    assert a.to("cpu")["input_ids"].device.type == "cpu"


KNOWN_REFUSALS = ("max_length must be at least",)  # see spec section 9: HF skips a text it cannot truncate


def random_call(rng: random.Random, lines: list[str]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """A random call: input shape, strategies, lengths, flags, tensors."""
    kw: dict[str, Any] = {
        "padding": rng.choice([False, True, "longest", "max_length", "do_not_pad"]),
        "truncation": rng.choice([None, False, True, "longest_first", "only_first", "only_second", "do_not_truncate"]),
    }
    if rng.random() < 0.7:
        kw["max_length"] = rng.choice([1, 2, 3, 5, 8, 13, 30, 64])
    for name, values in (
        ("stride", [0, 1, 2, 4]),
        ("pad_to_multiple_of", [1, 2, 8]),
        ("padding_side", ["left", "right"]),
    ):
        if rng.random() < 0.3:
            kw[name] = rng.choice(values)
    flags = ("return_overflowing_tokens", "return_special_tokens_mask", "return_offsets_mapping", "return_length")
    kw |= {flag: True for flag in flags if rng.random() < 0.3}
    kw |= {
        flag: False
        for flag in ("return_token_type_ids", "return_attention_mask", "add_special_tokens")
        if rng.random() < 0.2
    }
    if rng.random() < 0.3:
        kw["return_tensors"] = "np"
    n, pick = rng.randint(1, 5), lambda: rng.choice(lines)
    shape = rng.choice(["one", "pair", "batch", "pairs", "words", "word batch"])
    if shape.startswith("word"):
        kw["is_split_into_words"] = True
    args: tuple[Any, ...] = {
        "one": lambda: (pick(),),
        "pair": lambda: (pick(), pick()),
        "batch": lambda: ([pick() for _ in range(n)],),
        "pairs": lambda: ([pick() for _ in range(n)], [pick() for _ in range(n)]),
        "words": lambda: (pick().split(),),
        "word batch": lambda: ([pick().split() or ["x"] for _ in range(n)],),
    }[shape]()
    return args, kw


def test_random_calls_match_transformers(hf, ours, texts, shakespeare_lines, multilingual_lines):
    """Random combinations of every argument give transformers' result, or both refuse (ours with a
    ValueError; the only refusals of ours that transformers does not share are the documented ones)."""
    rng = random.Random(17)
    lines = shakespeare_lines[:3000] + multilingual_lines[:600] + ["", " ", "[CLS]x[SEP]", "a [MASK] b", "é" * 120]
    equal = 0
    for _ in range(400):
        args, kw = random_call(rng, lines)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = hf(*args, **kw)
        except BaseException as e:  # a PanicException included
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
            with pytest.raises((ValueError, TypeError)):
                ours(*args, **kw)
            continue
        try:
            got = ours(*args, **kw)
        except ValueError as e:
            refusal = str(e)
        else:
            same(got, expected, f"{kw}")
            equal += 1
            continue
        assert any(known in refusal for known in KNOWN_REFUSALS), (kw, refusal)
    assert equal > 250


def test_bad_words_lists_settings_and_pad_inputs_raise(ours):
    """The inputs this layer adds: words given split, settings, pad's features; wrong types,
    broken Unicode, sizes out of range."""
    with pytest.raises(TypeError, match="list of words"):
        ours("a b", is_split_into_words=True)
    with pytest.raises(TypeError, match=r"\[1\]"):
        ours([["a", 3]], is_split_into_words=True)
    with pytest.raises(ValueError, match="surrogate"):
        ours(["ok", "bad \ud800"])
    with pytest.raises(ValueError, match="surrogate"):
        ours([["bad\udfff"]], is_split_into_words=True)
    with pytest.raises(ValueError, match="model_max_length"):
        ours.model_max_length = -1
    with pytest.raises(TypeError, match="model_max_length"):
        ours.model_max_length = "512"
    with pytest.raises(TypeError, match="truncation_side"):
        ours.truncation_side = 1
    with pytest.raises(ValueError, match="input_ids"):
        ours.pad({"attention_mask": [[1]]})
    with pytest.raises(TypeError, match="pad takes"):
        ours.pad(3)
    assert ours([]) == {"input_ids": [], "token_type_ids": [], "attention_mask": []}


@pytest.mark.parametrize("inputs", [
    [{"input_ids": None}, {"input_ids": [1]}], {"input_ids": "abc"}, {"input_ids": [None]},
    {"input_ids": [1.5, 2]}, {"input_ids": [[1, 2], None]}, {"input_ids": [[1, 2], 3]},
], ids=repr)  # fmt: skip
def test_pad_refuses_rows_that_are_not_ids_as_transformers(hf, ours, inputs):
    """``pad`` of ``input_ids`` that are neither a row of ids nor a batch of rows is a ValueError
    naming them (transformers raises one too, or a TypeError from deep inside), never rubbish."""
    with pytest.raises((ValueError, TypeError)):
        hf.pad(inputs, padding=True)
    with pytest.raises(ValueError, match=r"^pad: input_ids"):
        ours.pad(inputs, padding=True)


@pytest.mark.parametrize(("inputs", "message"), [
    ([{"input_ids": ["a", "b"]}, {"input_ids": ["c"]}], "input_ids[0][0] must be an id (an int), not str"),
    ([{"input_ids": [1, 2.5]}, {"input_ids": [3]}], "input_ids[0][1] must be an id (an int), not float"),
    ([{"input_ids": [1, 2]}, {"input_ids": [None]}], "input_ids[1][0] must be an id (an int), not NoneType"),
    ({"input_ids": [1, "a"]}, "input_ids[1] must be an id (an int), not str"),
], ids=repr)  # fmt: skip
def test_pad_checks_every_id_where_transformers_checks_the_first(ours, inputs, message):
    """transformers pads ``[["a", "b"], ["c"]]`` into ``[["a", "b"], ["c", 0]]`` and a numpy array of
    str when the first id of the first row is an int or (when it is not) raises a ValueError; ours
    names the first id that is not one, wherever it is."""
    with pytest.raises(ValueError, match=re.escape(f"pad: {message}")):
        ours.pad(inputs, padding=True)
    # ints, numpy's integers and bools (as transformers takes them) are ids
    padded = ours.pad([{"input_ids": [4]}, {"input_ids": np.array([1, 2])}, {"input_ids": [np.int64(3), True]}])
    assert padded["input_ids"][0] == [4, ours.pad_token_id]


def test_pad_checks_its_sizes(ours):
    """pad's max_length and pad_to_multiple_of are checked as the call's are; a length there is no
    memory for is a MemoryError that says so."""
    row = {"input_ids": [[1, 2]]}
    with pytest.raises(ValueError, match="max_length must be >= 0"):
        ours.pad(row, padding="max_length", max_length=-1)
    with pytest.raises(TypeError, match="max_length must be int, not str"):
        ours.pad(row, padding="max_length", max_length="8")
    with pytest.raises(ValueError, match="pad_to_multiple_of must be >= 1"):
        ours.pad(row, pad_to_multiple_of=0)
    with pytest.raises(ValueError, match=r"padding must be True, False or one of .*, not None"):
        ours.pad(row, padding=None)  # transformers: "None is not a valid PaddingStrategy"
    for kwargs in ({"padding": "max_length", "max_length": 2**64}, {"pad_to_multiple_of": 2**62}):
        with pytest.raises(MemoryError, match="needs more memory"):
            ours.pad(row, **kwargs)
    assert ours.pad(row, padding="max_length", max_length=4)["input_ids"] == [[1, 2, 0, 0]]
