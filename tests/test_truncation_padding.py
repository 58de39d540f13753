"""Truncation, overflowing windows, padding and numpy arrays (spec section 9).

Hugging Face `tokenizers` is the specification: for a BERT vocab.txt trained by
HF on real text, ``encode_batch`` with ``max_length``/``truncation``/``stride``/
``truncation_side`` and ``padding``/``pad_to_multiple_of``/``padding_side``
must give what HF's tokenizer gives with ``enable_truncation`` and
``enable_padding`` set the same way: ids, tokens, offsets, type ids, both masks,
word and sequence ids and the overflowing encodings, recursively. Where HF fails (an error or a Rust
panic), we raise ValueError. Both implementations (engine and twin) are
compared with HF live; nothing here is copied from HF's output.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

tokenizers = pytest.importorskip("tokenizers")
np = pytest.importorskip("numpy")

from implementations import tokenizer_class  # noqa: E402

FIELDS = ("ids", "tokens", "offsets", "type_ids", "attention_mask", "special_tokens_mask", "word_ids", "sequence_ids")
STRATEGIES = ("longest_first", "only_first", "only_second")
SIDES = ("right", "left")
# (max_length, stride): the smallest leave no room for content (HF then moves everything to overflowing).
LENGTHS_AND_STRIDES = ((2, 0), (3, 0), (8, 0), (8, 2), (20, 5), (64, 16))
PADDINGS = (("longest", None), ("max_length", None), ("longest", 8), ("max_length", 8))


# ----------------------------------------------------------------------------- inputs


@pytest.fixture(scope="module")
def texts(shakespeare_lines: list[str], multilingual_lines: list[str]) -> dict[str, list[Any]]:
    """Short and long real lines (English, German, Russian, Chinese), single and paired."""
    rng = random.Random(4)
    short = rng.sample(shakespeare_lines[:20000], 6) + rng.sample(multilingual_lines, 4)
    starts = rng.sample(range(len(shakespeare_lines) - 6), 5)
    long = [" ".join(shakespeare_lines[i : i + rng.randint(2, 4)]) for i in starts]
    long += [" ".join(multilingual_lines[i : i + 3]) for i in rng.sample(range(len(multilingual_lines) - 3), 3)]
    singles = short + long + [""]
    pairs = [*list(zip(short + long, long + short)), ("", short[0]), (long[0], "")]
    return {"single": singles, "pair": pairs}


@pytest.fixture(scope="module")
def hf(hf_vocab_file) -> Any:
    return tokenizers.BertWordPieceTokenizer(str(hf_vocab_file))._tokenizer


@pytest.fixture(scope="module")
def ours(hf_vocab_file) -> dict[str, Any]:
    return {name: tokenizer_class(name).from_vocab_file(str(hf_vocab_file)) for name in ("engine", "twin")}


# ----------------------------------------------------------------------------- running HF and comparing


def hf_batch(hf: Any, inputs: list[Any], *, add_special_tokens: bool = True, max_length: int | None = None,
             truncation: str = "longest_first", stride: int = 0, truncation_side: str = "right",
             padding: str | None = None, pad_to_multiple_of: int | None = None,
             padding_side: str = "right") -> list[Any]:  # fmt: skip
    """HF's encode_batch with the same settings (raises what HF raises, a PanicException included)."""
    hf.no_truncation()
    hf.no_padding()
    if max_length is not None and truncation != "do_not_truncate":
        hf.enable_truncation(max_length, stride=stride, strategy=truncation, direction=truncation_side)
    if padding is not None:
        hf.enable_padding(direction=padding_side, pad_id=hf.token_to_id("[PAD]"), pad_token="[PAD]",
                          length=max_length if padding == "max_length" else None,
                          pad_to_multiple_of=pad_to_multiple_of)  # fmt: skip
    return hf.encode_batch(inputs, add_special_tokens=add_special_tokens)


def as_tree(encoding: Any) -> dict[str, Any]:
    """The fields of an Encoding (ours or HF's), overflowing included, recursively."""
    tree = {field: list(getattr(encoding, field)) for field in FIELDS}
    tree["offsets"] = [tuple(o) for o in tree["offsets"]]
    tree["n_sequences"] = encoding.n_sequences
    tree["overflowing"] = [as_tree(o) for o in encoding.overflowing]
    return tree


def first_difference(ours: Any, theirs: Any, where: str = "") -> str | None:
    """Where two trees differ, as a readable path, or None."""
    for field in (*FIELDS, "n_sequences"):
        if ours[field] != theirs[field]:
            return f"{where}.{field}: ours {ours[field]} != HF {theirs[field]}"
    if len(ours["overflowing"]) != len(theirs["overflowing"]):
        return f"{where}.overflowing: ours has {len(ours['overflowing'])}, HF {len(theirs['overflowing'])}"
    for i, (a, b) in enumerate(zip(ours["overflowing"], theirs["overflowing"])):
        found = first_difference(a, b, f"{where}.overflowing[{i}]")
        if found:
            return found
    return None


def check_against_hf(hf: Any, tok: Any, inputs: list[Any], **settings: Any) -> str:
    """Encodes with both; they must agree, or HF must fail and we raise ValueError. Returns the outcome."""
    try:
        expected = hf_batch(hf, inputs, **settings)
    except BaseException as e:
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        with pytest.raises(ValueError, match=r"\S"):  # a message, whatever HF's reason was
            tok.encode_batch(inputs, **settings)
        return "both raise"
    got = tok.encode_batch(inputs, **settings)
    assert len(got) == len(expected)
    for i, (a, b) in enumerate(zip(got, expected)):
        diff = first_difference(as_tree(a), as_tree(b), f"inputs[{i}]")
        assert diff is None, f"{settings}: {inputs[i]!r}\n{diff}"
    return "equal"


# ----------------------------------------------------------------------------- parity with HF


@pytest.mark.parametrize("impl", ["engine", "twin"])
@pytest.mark.parametrize("kind", ["single", "pair"])
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_truncation_with_stride_and_overflowing_matches_hf(hf, ours, texts, impl, kind, strategy):
    outcomes = []
    for side in SIDES:
        for max_length, stride in LENGTHS_AND_STRIDES:
            if kind == "pair" and max_length < 3:
                continue  # fewer than the 3 special tokens of a pair: see test_max_length_below_the_special_tokens
            settings = dict(max_length=max_length, truncation=strategy, stride=stride, truncation_side=side)
            outcomes.append(check_against_hf(hf, ours[impl], texts[kind], **settings))
    assert "equal" in outcomes


@pytest.mark.parametrize("impl", ["engine", "twin"])
@pytest.mark.parametrize("kind", ["single", "pair"])
def test_truncation_without_special_tokens_matches_hf(hf, ours, texts, impl, kind):
    for strategy in STRATEGIES:
        for max_length, stride in ((0, 0), (1, 0), (7, 0), (12, 3)):
            settings = dict(add_special_tokens=False, max_length=max_length, truncation=strategy, stride=stride)
            check_against_hf(hf, ours[impl], texts[kind], **settings)


@pytest.mark.parametrize("impl", ["engine", "twin"])
@pytest.mark.parametrize("kind", ["single", "pair"])
@pytest.mark.parametrize(("padding", "multiple"), PADDINGS)
def test_padding_matches_hf(hf, ours, texts, impl, kind, padding, multiple):
    truncations = [
        dict(max_length=30, truncation="do_not_truncate"),
        dict(max_length=20, truncation="longest_first", stride=5),
        dict(max_length=16, truncation="longest_first" if kind == "pair" else "only_first", stride=2,
             truncation_side="left"),
    ]  # fmt: skip
    for truncation in truncations:
        for side in SIDES:
            settings = dict(truncation, padding=padding, pad_to_multiple_of=multiple, padding_side=side)
            assert check_against_hf(hf, ours[impl], texts[kind], **settings) == "equal"


@pytest.mark.parametrize("impl", ["engine", "twin"])
def test_encode_equals_a_batch_of_one(ours, texts, impl):
    tok = ours[impl]
    settings = dict(max_length=12, stride=2, padding="max_length", pad_to_multiple_of=8, padding_side="left")
    for text, pair in texts["pair"][:6]:
        (expected,) = tok.encode_batch([(text, pair)], **settings)
        assert as_tree(tok.encode(text, pair, **settings)) == as_tree(expected)


def test_engine_equals_twin_on_overflowing_pairs(ours, texts):
    settings = dict(max_length=24, stride=4, padding="longest", padding_side="left")
    engine, twin = (ours[name].encode_batch(texts["pair"], **settings) for name in ("engine", "twin"))
    assert [as_tree(e) for e in engine] == [as_tree(t) for t in twin]
    assert any(e.overflowing for e in engine)
    assert engine == twin
    assert engine[0] == twin[0]
    assert twin[0] == engine[0]


# ----------------------------------------------------------------------------- HF quirks, checked live


def test_max_length_below_the_special_tokens_is_an_error_where_hf_silently_skips_truncation(hf, ours, texts):
    """HF subtracts the special tokens from max_length in unsigned arithmetic: below 2 (3 for a pair)
    the subtraction wraps around and HF does not truncate at all. We raise ValueError instead."""
    for kind, max_length in (("single", 1), ("pair", 2)):
        inputs = texts[kind]
        untruncated = [as_tree(e) for e in hf_batch(hf, inputs)]
        assert [as_tree(e) for e in hf_batch(hf, inputs, max_length=max_length)] == untruncated
        for tok in ours.values():
            with pytest.raises(ValueError, match="max_length must be at least"):
                tok.encode_batch(inputs, max_length=max_length)


def test_stride_too_large_for_a_pair_share_is_a_value_error_where_hf_panics(hf, ours, texts):
    settings = dict(max_length=20, stride=9)  # a pair of long texts gets 8 + 9 tokens: stride 9 >= 8
    with pytest.raises(BaseException, match="stride"):
        hf_batch(hf, texts["pair"], **settings)
    for tok in ours.values():
        with pytest.raises(ValueError, match=r"inputs\[\d+\]: stride \(9\) must be less than the \d tokens"):
            tok.encode_batch(texts["pair"], **settings)
        tok.encode_batch(texts["single"], **settings)  # 18 tokens per window: fine


# ----------------------------------------------------------------------------- numpy


@pytest.mark.parametrize("impl", ["engine", "twin"])
def test_numpy_arrays_equal_the_padded_encodings(ours, texts, impl):
    tok = ours[impl]
    for inputs in (texts["single"], texts["pair"]):
        settings = dict(max_length=32, stride=4, padding="longest", pad_to_multiple_of=8)
        arrays = tok.encode_batch(inputs, **settings, return_tensors="np")
        encodings = tok.encode_batch(inputs, **settings)
        n, length = len(inputs), len(encodings[0])
        assert set(arrays) == {"input_ids", "attention_mask", "token_type_ids", "offsets"}
        assert length % 8 == 0
        assert all(len(e) == length for e in encodings)
        for key, field in (("input_ids", "ids"), ("attention_mask", "attention_mask"), ("token_type_ids", "type_ids")):
            assert arrays[key].dtype == np.int64
            assert arrays[key].shape == (n, length)
            assert arrays[key].tolist() == [getattr(e, field) for e in encodings]
        assert arrays["offsets"].dtype == np.int64
        assert arrays["offsets"].shape == (n, length, 2)
        assert arrays["offsets"].tolist() == [[list(o) for o in e.offsets] for e in encodings]
        arrays["input_ids"][0, 0] = 7  # writable, like transformers' arrays


def test_numpy_arrays_are_the_same_from_engine_and_twin(ours, texts):
    engine, twin = (ours[name].encode_batch(texts["pair"], max_length=40, padding="max_length",
                                            return_tensors="np") for name in ("engine", "twin"))  # fmt: skip
    for key in engine:
        assert np.array_equal(engine[key], twin[key]), key


@pytest.mark.parametrize("impl", ["engine", "twin"])
def test_numpy_without_padding_is_ragged_and_handles_an_empty_batch(ours, impl):
    tok = ours[impl]
    ragged = tok.encode_batch(["a b c d", "a"], return_tensors="np")
    assert ragged.lengths.tolist() == [len(e.ids) for e in tok.encode_batch(["a b c d", "a"])]
    empty = tok.encode_batch([], padding="longest", return_tensors="np")
    assert empty["input_ids"].shape == (0, 0)
    assert empty["offsets"].shape == (0, 0, 2)


# ----------------------------------------------------------------------------- bad arguments


@pytest.mark.parametrize(
    ("settings", "error", "message"),
    [
        (dict(max_length=-1), ValueError, "max_length"),
        (dict(max_length="8"), TypeError, "max_length"),
        (dict(max_length=8.0), TypeError, "max_length"),
        (dict(max_length=8, stride=-1), ValueError, "stride"),
        (dict(max_length=8, stride=6), ValueError, "stride"),
        (dict(stride=2), ValueError, "stride needs max_length"),
        (dict(max_length=8, truncation="shortest"), ValueError, "truncation"),
        (dict(max_length=8, truncation_side="top"), ValueError, "truncation_side"),
        (dict(padding="yes"), ValueError, "padding"),
        (dict(padding=True), TypeError, "padding"),
        (dict(padding="max_length"), ValueError, "needs max_length"),
        (dict(padding="longest", pad_to_multiple_of=0), ValueError, "pad_to_multiple_of"),
        (dict(pad_to_multiple_of=8), ValueError, "pad_to_multiple_of"),
        (dict(padding="longest", padding_side="middle"), ValueError, "padding_side"),
        (dict(return_tensors="pt"), ValueError, "return_tensors"),
        (dict(max_length=8, truncation="only_second"), ValueError, r"inputs\[1\]: truncation=\"only_second\""),
        (dict(max_length=4, truncation="only_first"), ValueError, "the first text has"),
        (dict(max_len=8), TypeError, "max_len"),
    ],
)
def test_bad_arguments_raise_naming_the_argument(Tokenizer, settings, error, message):
    tok = Tokenizer(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "a", "b", "c"])
    inputs = ["a", "a b c a b c a b c", ("a", "b c a b c a b")]
    with pytest.raises(error, match=message):
        tok.encode_batch(inputs, **settings)
    if "return_tensors" not in settings and "inputs" not in message:
        with pytest.raises(error, match=message):
            tok.encode(*inputs[2], **settings)


def test_padding_needs_the_pad_token(Tokenizer):
    tok = Tokenizer(["[UNK]", "[CLS]", "[SEP]", "a"])
    assert tok.encode_batch(["a", "a a"])[1].ids == [1, 3, 3, 2]
    with pytest.raises(ValueError, match=r'padding needs "\[PAD\]"'):
        tok.encode_batch(["a", "a a"], padding="longest")


def test_only_second_leaves_singles_alone_when_they_fit(Tokenizer):
    tok = Tokenizer(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "a", "b"])
    out = tok.encode_batch(["a b", ("a", "b b b b")], max_length=5, truncation="only_second")
    assert [e.tokens for e in out] == [["[CLS]", "a", "b", "[SEP]"], ["[CLS]", "a", "[SEP]", "b", "[SEP]"]]
    assert [o.tokens for o in out[1].overflowing] == [["[CLS]", "a", "[SEP]", "b", "[SEP]"]] * 3
