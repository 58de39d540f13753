"""``encode``, ``encode_batch`` and the vocabulary as a Hugging Face ``tokenizers`` (or
``transformers``) user writes them: ``truncation=True``/``False``, ``is_pretokenized=True``,
``get_vocab_size(with_added_tokens=...)`` and pre-tokenizer ``Sequence``s that split exactly as
one we support, compared with ``tokenizers`` and ``transformers`` on bert-base-uncased's
vocabulary, for the engine and the twin alike.
"""

from __future__ import annotations

import copy
import json
import random
import warnings
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS, outcome, tokenizer_class

tokenizers = pytest.importorskip("tokenizers")

ADDED = ["newtok", "hello"]
SPECIAL = ["<xs>"]
TEXT = "Hello world, the quick brown fox jumps over the lazy dog. " * 3
BERT_STEPS = [{"type": "WhitespaceSplit"}, {"type": "Punctuation", "behavior": "Isolated"}]
BERT_SEQUENCE = {"type": "Sequence", "pretokenizers": BERT_STEPS}


@pytest.fixture(scope="module")
def hf(bert_vocab_file) -> Any:
    """tokenizers' BERT tokenizer on bert-base-uncased's vocabulary, with added tokens (plain and
    special)."""
    tok = tokenizers.BertWordPieceTokenizer(str(bert_vocab_file))._tokenizer
    tok.add_tokens(ADDED)
    tok.add_special_tokens(SPECIAL)
    return tok


@pytest.fixture(scope="module", params=sorted(IMPLEMENTATIONS))
def ours(request: pytest.FixtureRequest, hf) -> Any:
    return tokenizer_class(request.param).from_str(hf.to_str())


def both(hf) -> list[Any]:
    return [tokenizer_class(name).from_str(hf.to_str()) for name in sorted(IMPLEMENTATIONS)]


def fields(encoding: Any) -> dict[str, Any]:
    names = ("ids", "tokens", "offsets", "word_ids", "type_ids", "sequence_ids", "special_tokens_mask")
    return {name: list(getattr(encoding, name)) for name in names} | {"attention_mask": encoding.attention_mask}


# ----------------------------------------------------------------------------- truncation=True/False


@pytest.fixture(scope="module")
def transformers_bert(bert_vocab_file) -> Any:
    transformers = pytest.importorskip("transformers")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return transformers.BertTokenizerFast.from_pretrained(str(bert_vocab_file.parent))


def test_truncation_true_is_longest_first_as_in_transformers(ours, transformers_bert) -> None:
    for max_length in (3, 5, 12):
        want = transformers_bert.encode(TEXT, truncation=True, max_length=max_length)
        assert ours.encode(TEXT, truncation=True, max_length=max_length).ids == want
        assert ours.encode(TEXT, truncation="longest_first", max_length=max_length).ids == want
        pair = ours.encode(TEXT, "a second text", truncation=True, max_length=max_length)
        assert pair.ids == transformers_bert.encode(TEXT, "a second text", truncation=True, max_length=max_length)
    [batch] = ours.encode_batch([TEXT], truncation=True, max_length=5)
    assert batch.ids == transformers_bert.encode(TEXT, truncation=True, max_length=5)


def test_truncation_false_does_not_truncate(ours, transformers_bert) -> None:
    full = transformers_bert.encode(TEXT, truncation=False, max_length=5)
    assert len(full) > 5
    assert ours.encode(TEXT, truncation=False, max_length=5).ids == full
    assert [e.ids for e in ours.encode_batch([TEXT, (TEXT, "b")], truncation=False, max_length=5)] == [
        full,
        transformers_bert.encode(TEXT, "b", truncation=False, max_length=5),
    ]


def test_truncation_true_without_max_length_uses_model_max_length(hf, transformers_bert) -> None:
    for tok in both(hf):
        # No maximum (transformers' default for a bare vocabulary): nothing is cut.
        assert tok.encode(TEXT, truncation=True).ids == tok.encode(TEXT).ids
        tok.model_max_length = 7
        transformers_bert.model_max_length = 7
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = transformers_bert.encode(TEXT, truncation=True)
            assert tok.encode(TEXT, truncation=True).ids == want
            assert [e.ids for e in tok.encode_batch([TEXT], truncation=True)] == [want]
            # That length is the call's max_length, for padding too.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                short = transformers_bert.encode("hi", truncation=True, padding="max_length")
            assert tok.encode("hi", truncation=True, padding="max_length").ids == short
            # The strings keep their meaning: max_length alone decides.
            assert len(tok.encode(TEXT, truncation="longest_first").ids) > 7
            assert tok.encode(TEXT, truncation=True, max_length=4).ids == transformers_bert.encode(
                TEXT, truncation=True, max_length=4
            )
        finally:
            transformers_bert.model_max_length = int(1e30)


def test_truncation_false_turns_the_files_default_truncation_off(hf) -> None:
    with_default = tokenizers.Tokenizer.from_str(hf.to_str())
    with_default.enable_truncation(6)
    results = []
    for name in sorted(IMPLEMENTATIONS):
        tok = tokenizer_class(name).from_str(with_default.to_str())
        full = len(copy.deepcopy(tok).no_truncation().encode(TEXT).ids)
        lengths = [
            len(tok.encode(TEXT).ids),
            len(tok.encode(TEXT, truncation=True).ids),
            len(tok.encode(TEXT, truncation=False).ids),
            len(tok.encode(TEXT, truncation="do_not_truncate").ids),
            len(tok.encode(TEXT, truncation="do_not_truncate", max_length=4).ids),
            len(tok.encode(TEXT, truncation=False, max_length=4).ids),
            len(tok.encode_batch([TEXT], truncation=False)[0].ids),
        ]
        assert lengths == [6, 6, full, full, full, full, full]
        results.append(lengths)
    assert results[0] == results[1]


def test_return_tensors_on_encode_points_to_the_call(hf) -> None:
    outcomes = [outcome(lambda tok=tok: tok.encode("hello", return_tensors="np")) for tok in both(hf)]
    assert outcomes[0] == outcomes[1]
    kind, message = outcomes[0]
    assert kind == "TypeError"
    assert message.startswith("encode() got an unexpected keyword argument 'return_tensors'")
    assert "Encoding" in message
    assert "tok(text, return_tensors=...)" in message


def test_return_tensors_none_on_encode_is_transformers_default(ours) -> None:
    # transformers' encode(..., return_tensors=None) asks for nothing: the same Encoding.
    assert fields(ours.encode(TEXT, return_tensors=None)) == fields(ours.encode(TEXT))


@pytest.mark.parametrize("value", [2**64, 10**19 * 5, 10**20 - 1])
def test_model_max_length_beyond_64_bits_is_refused_alike(hf, value: int) -> None:
    # Up to 2**64 - 1 is a length; from 10**20 (transformers' "very large") there is no maximum.
    def set_it(tok: Any) -> int:
        tok.model_max_length = value
        return len(tok.encode(TEXT, truncation=True).ids)

    outcomes = [outcome(lambda tok=tok: set_it(tok)) for tok in both(hf)]
    assert outcomes[0] == outcomes[1] == ("ValueError", "model_max_length is too large")


@pytest.mark.parametrize("value", [1, 0, 1.0, [True], b"longest_first"])
def test_truncation_of_another_type_is_a_type_error_naming_what_it_takes(hf, value: Any) -> None:
    want = ("TypeError", f"truncation must be bool, str or None, not {type(value).__name__}")
    for tok in both(hf):
        assert outcome(lambda tok=tok: tok.encode("hello", truncation=value, max_length=3)) == want
        assert outcome(lambda tok=tok: tok.encode_batch(["hello"], truncation=value, max_length=3)) == want


def test_truncation_none_is_the_default(ours) -> None:
    assert ours.encode(TEXT, truncation=None, max_length=5).ids == ours.encode(TEXT, max_length=5).ids
    assert ours.encode(TEXT, truncation=None).ids == ours.encode(TEXT).ids


# ----------------------------------------------------------------------------- get_vocab_size


def test_get_vocab_size_as_tokenizers(ours, hf) -> None:
    assert hf.get_vocab_size() > hf.get_vocab_size(with_added_tokens=False)  # the premise: outside tokens
    assert ours.get_vocab_size() == hf.get_vocab_size() == len(ours.get_vocab())
    assert ours.get_vocab_size(with_added_tokens=True) == hf.get_vocab_size(with_added_tokens=True)
    assert ours.get_vocab_size(False) == hf.get_vocab_size(False)
    assert ours.get_vocab_size(with_added_tokens=False) == hf.get_vocab_size(with_added_tokens=False)


def test_get_vocab_size_follows_add_tokens(hf) -> None:
    theirs = tokenizers.Tokenizer.from_str(hf.to_str())
    theirs.add_tokens(["zzqqx", "the"])  # one new, one already in the vocabulary
    for tok in both(hf):
        tok.add_tokens(["zzqqx", "the"])
        assert tok.get_vocab_size() == theirs.get_vocab_size()
        assert tok.get_vocab_size(False) == theirs.get_vocab_size(False)


def test_get_vocab_size_wants_a_bool(hf) -> None:
    outcomes = [outcome(lambda tok=tok: tok.get_vocab_size(1)) for tok in both(hf)]
    assert outcomes[0] == outcomes[1] == ("TypeError", "with_added_tokens must be bool, not int")


# ----------------------------------------------------------------------------- is_pretokenized


def test_encode_batch_fast_is_encode_batch_with_tokenizers_signature(ours, hf, gcide_lines) -> None:
    """Hugging Face's ``encode_batch_fast(input, is_pretokenized=False, add_special_tokens=True)``:
    the same ids, type ids and masks as Hugging Face's; ours keeps the offsets and tokens, which
    Hugging Face's leaves out (``(0, 0)`` and empty), so they are those of ``encode_batch``."""
    lines = [line for line in gcide_lines[:400] if line.strip()][:60]
    inputs: list[Any] = lines[:30] + list(zip(lines[30:], lines[:30]))
    words = [line.split() for line in lines[:20]]
    for args, kwargs in [
        ((inputs,), {}),
        ((inputs, False, False), {}),
        ((inputs,), {"add_special_tokens": False}),
        ((words, True), {}),
        ((words,), {"is_pretokenized": True, "add_special_tokens": False}),
    ]:
        got, expected = ours.encode_batch_fast(*args, **kwargs), hf.encode_batch_fast(*args, **kwargs)
        names = ("ids", "type_ids", "attention_mask", "special_tokens_mask", "sequence_ids")
        assert [[list(getattr(e, n)) for n in names] for e in got] == [
            [list(getattr(e, n)) for n in names] for e in expected
        ]
        pretokenized = kwargs.get("is_pretokenized", args[1] if len(args) > 1 else False)
        special = kwargs.get("add_special_tokens", args[2] if len(args) > 2 else True)
        whole = ours.encode_batch(args[0], special, is_pretokenized=pretokenized)
        assert [fields(e) for e in got] == [fields(e) for e in whole]
    with pytest.raises(TypeError, match="is_pretokenized"):
        ours.encode_batch_fast(inputs, 1)


def test_to_str_and_save_take_pretty_as_tokenizers(ours, hf, tmp_path) -> None:
    """``to_str(pretty=False)`` (one line, the default) and ``save(path, pretty=True)`` (indented, the
    default), as Hugging Face's; the JSON is the same either way."""
    for pretty in (False, True):
        text = ours.to_str(pretty=pretty)
        assert ("\n" in text) is pretty
        assert ("\n" in hf.to_str(pretty=pretty)) is pretty
        assert json.loads(text) == json.loads(ours.to_str(not pretty))
        ours.save(tmp_path / f"{pretty}.json", pretty=pretty)
        assert (tmp_path / f"{pretty}.json").read_text(encoding="utf-8") == text
    assert "\n" not in ours.to_str()
    ours.save(tmp_path / "default.json")
    assert (tmp_path / "default.json").read_text(encoding="utf-8") == ours.to_str(pretty=True)
    with pytest.raises(TypeError, match=r"^pretty must be bool, not int"):
        ours.to_str(pretty=1)


def test_get_vocab_and_num_special_tokens_to_add_take_tokenizers_keywords(ours, hf) -> None:
    """``get_vocab(with_added_tokens=...)`` and ``num_special_tokens_to_add(is_pair=...)`` as Hugging
    Face's (the added tokens outside the model left out without them; transformers' ``pair`` too)."""
    for flag in (True, False):
        assert ours.get_vocab(with_added_tokens=flag) == hf.get_vocab(with_added_tokens=flag)
        assert ours.get_vocab(flag) == hf.get_vocab(flag)
        assert ours.num_special_tokens_to_add(is_pair=flag) == hf.num_special_tokens_to_add(is_pair=flag)
        assert ours.num_special_tokens_to_add(flag) == ours.num_special_tokens_to_add(pair=flag)
    assert len(ours.get_vocab(False)) == ours.get_vocab_size(False) < len(ours.get_vocab())


def test_get_added_tokens_decoder_as_tokenizers(ours, hf) -> None:
    """``get_added_tokens_decoder()``: the added vocabulary by id, with the flags of each token, as
    Hugging Face's (the special tokens, the plain added ones and the added special one)."""

    def flags(decoder: dict[int, Any]) -> dict[int, tuple[Any, ...]]:
        names = ("content", "single_word", "lstrip", "rstrip", "normalized", "special")
        return {i: tuple(getattr(t, name) for name in names) for i, t in decoder.items()}

    assert flags(ours.get_added_tokens_decoder()) == flags(hf.get_added_tokens_decoder())
    assert list(ours.get_added_tokens_decoder()) == sorted(hf.get_added_tokens_decoder())
    assert ours.get_added_tokens_decoder() is not ours.get_added_tokens_decoder()


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_a_tokenizer_json_hugging_face_would_renumber_is_refused_naming_the_added_token(
    name: str, bert_vocab_file
) -> None:
    """A token added past an id no token has gets an id Hugging Face's file would renumber: ``to_str``
    refuses it, naming it as an added token (it need not be special) and what to do instead."""
    data = json.loads(tokenizers.BertWordPieceTokenizer(str(bert_vocab_file))._tokenizer.to_str())
    data["model"]["vocab"] = {t: i for t, i in data["model"]["vocab"].items() if i != 2000}
    tok = tokenizer_class(name).from_str(json.dumps(data))
    tok.add_tokens(["zzqxplain"])
    with pytest.raises(ValueError, match=r'^added token "zzqxplain" has id 30522, which Hugging Face would renumber'):
        tok.to_str()
    assert tokenizer_class(name).from_json(tok.to_json()).token_to_id("zzqxplain") == 30522


def random_words(rng: random.Random, lines: list[str]) -> list[str]:
    """Words as a user's pre-tokenized data holds them: from real lines, with punctuation inside
    words, empty words, accents, CJK, whitespace and added tokens."""
    extra = ["", "Zürich", "naïve", "中文字", "newtok", "<xs>", "say<xs>hi", "a.b,c", "don't", " ", "e\u0301", "HELLO"]
    words = rng.choice(lines).split(" ")[: rng.randint(0, 12)]
    for _ in range(rng.randint(0, 4)):
        words.insert(rng.randint(0, len(words)), rng.choice(extra))
    return words


def test_pretokenized_encodings_match_tokenizers(ours, hf, gcide_lines, multilingual_lines) -> None:
    rng = random.Random(7)
    lines = gcide_lines[:3000] + multilingual_lines[:1000]
    checked = 0
    for _ in range(300):
        a, b = random_words(rng, lines), random_words(rng, lines)
        for args in ((a,), (a, b)):
            for special in (True, False):
                want = hf.encode(*args, is_pretokenized=True, add_special_tokens=special)
                got = ours.encode(*args, is_pretokenized=True, add_special_tokens=special)
                assert fields(got) == fields(want), args
                checked += 1
    assert checked == 1200


def test_pretokenized_offsets_are_into_each_word(ours, hf) -> None:
    words = ["Hello,", "wörld!", "", "中文"]
    got = ours.encode(words, is_pretokenized=True)
    assert got.offsets == hf.encode(words, is_pretokenized=True).offsets
    assert got.offsets == [(0, 0), (0, 5), (5, 6), (0, 5), (5, 6), (0, 1), (1, 2), (0, 0)]
    assert got.word_ids == [None, 0, 0, 1, 1, 3, 3, None]


def test_pretokenized_batches_match_tokenizers(ours, hf, gcide_lines) -> None:
    rng = random.Random(11)
    inputs: list[Any] = []
    for i in range(60):
        a, b = random_words(rng, gcide_lines[:2000]), random_words(rng, gcide_lines[:2000])
        inputs.append([a, (a, b), [a, b], tuple(a)][i % 4])
    for kwargs in ({}, {"max_length": 9, "truncation": True, "stride": 2}, {"padding": "longest"}):
        theirs = tokenizers.Tokenizer.from_str(hf.to_str())
        if "max_length" in kwargs:
            theirs.enable_truncation(9, stride=2)
        if "padding" in kwargs:
            theirs.enable_padding(pad_token="[PAD]", pad_id=0)
        want = theirs.encode_batch(inputs, is_pretokenized=True)
        got = ours.encode_batch(inputs, is_pretokenized=True, **kwargs)
        assert [fields(e) for e in got] == [fields(e) for e in want]
        if "max_length" in kwargs:
            assert [[fields(w) for w in e.overflowing] for e in got] == [
                [fields(w) for w in e.overflowing] for e in want
            ]
    ragged = ours.encode_batch(inputs, is_pretokenized=True, return_tensors="np", return_offsets=True)
    assert ragged.tolist() == [e.ids for e in hf.encode_batch(inputs, is_pretokenized=True)]
    assert [list(map(tuple, ragged.row("offsets", i).tolist())) for i in range(len(inputs))] == [
        e.offsets for e in hf.encode_batch(inputs, is_pretokenized=True)
    ]


def test_pretokenized_is_what_is_split_into_words_gives(ours) -> None:
    words = ["John", "lives", "in", "Zürich,", "", "中文"]
    call = ours(words, is_split_into_words=True)
    encoding = ours.encode(words, is_pretokenized=True)
    assert call["input_ids"] == encoding.ids
    assert call.word_ids() == encoding.word_ids


BAD_WORDS = [
    ("abc", None),
    (["a", 3], None),
    ([["a"], ["b"]], None),
    (("a", "b"), "c"),
    (["a"], [None]),
    (3, None),
    (["a", "\ud800"], None),
]


@pytest.mark.parametrize(("text", "pair"), BAD_WORDS)
def test_bad_pretokenized_input_is_refused_alike(hf, text: Any, pair: Any) -> None:
    outcomes = [outcome(lambda tok=tok: tok.encode(text, pair, is_pretokenized=True)) for tok in both(hf)]
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] in ("TypeError", "ValueError")
    with pytest.raises((TypeError, ValueError)):  # tokenizers refuses them too
        hf.encode(text, pair, is_pretokenized=True) if pair is not None else hf.encode(text, is_pretokenized=True)


@pytest.mark.parametrize("inputs", ["abc", 3, ["abc"], [(3, ["a"])], [["a", None]], [1]])
def test_bad_pretokenized_batches_are_refused_alike(hf, inputs: Any) -> None:
    outcomes = [outcome(lambda tok=tok: tok.encode_batch(inputs, is_pretokenized=True)) for tok in both(hf)]
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == "TypeError"
    assert "inputs" in outcomes[0][1]


def test_is_pretokenized_wants_a_bool(hf) -> None:
    outcomes = [outcome(lambda tok=tok: tok.encode(["a"], is_pretokenized=1)) for tok in both(hf)]
    assert outcomes[0] == outcomes[1] == ("TypeError", "is_pretokenized must be bool, not int")


def test_is_pretokenized_false_takes_text(ours, hf) -> None:
    assert ours.encode(TEXT, is_pretokenized=False).ids == hf.encode(TEXT, is_pretokenized=False).ids


# ----------------------------------------------------------------------------- Sequence pre-tokenizers


def test_bert_sequence_splits_as_bert_pre_tokenizer_on_every_code_point(hf) -> None:
    """tokenizers' [WhitespaceSplit, Punctuation] splits as BertPreTokenizer (the same whitespace,
    the same punctuation isolated) on every code point between two letters, and a file with it
    encodes here as in tokenizers (the twin on a sample: it is slow)."""
    pt = tokenizers.pre_tokenizers
    bert = pt.BertPreTokenizer()
    sequence = pt.Sequence([pt.WhitespaceSplit(), pt.Punctuation(behavior="isolated")])
    assert json.loads(sequence.__getstate__()) == BERT_SEQUENCE
    points = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    texts = ["x".join(map(chr, points[i : i + 512])) + "x" for i in range(0, len(points), 512)]
    for text in texts:
        assert sequence.pre_tokenize_str(text) == bert.pre_tokenize_str(text)
    document = with_pre_tokenizer(hf, BERT_SEQUENCE)
    want = [fields(e) for e in tokenizers.Tokenizer.from_str(document).encode_batch(texts)]
    engine, twin = (tokenizer_class(name).from_str(document) for name in ("engine", "twin"))
    assert [fields(e) for e in engine.encode_batch(texts)] == want
    assert [fields(e) for e in twin.encode_batch(texts[::128])] == want[::128]


def with_pre_tokenizer(hf, pre_tokenizer: Any) -> str:
    document = json.loads(hf.to_str())
    document["pre_tokenizer"] = pre_tokenizer
    return json.dumps(document)


EQUIVALENT = {
    "bert sequence": (BERT_SEQUENCE, "bert", "BertPreTokenizer"),
    "bert sequence, default behavior": (
        {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, {"type": "Punctuation"}]},
        "bert",
        "BertPreTokenizer",
    ),
    "bert sequence, reversed": (
        {"type": "Sequence", "pretokenizers": [{"type": "Punctuation"}, {"type": "WhitespaceSplit"}]},
        "bert",
        "BertPreTokenizer",
    ),
    "one BertPreTokenizer": ({"type": "Sequence", "pretokenizers": [{"type": "BertPreTokenizer"}]}, "bert", None),
    "one WhitespaceSplit": (
        {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}]},
        "whitespace",
        "WhitespaceSplit",
    ),
    "one Whitespace": ({"type": "Sequence", "pretokenizers": [{"type": "Whitespace"}]}, "wordpunct", "Whitespace"),
    "one bert sequence": ({"type": "Sequence", "pretokenizers": [BERT_SEQUENCE]}, "bert", "BertPreTokenizer"),
}


@pytest.mark.parametrize("name", sorted(EQUIVALENT))
def test_equivalent_sequences_load_and_encode_as_tokenizers(hf, name: str, gcide_lines, multilingual_lines) -> None:
    pre_tokenizer, option, saved = EQUIVALENT[name]
    document = with_pre_tokenizer(hf, pre_tokenizer)
    theirs = tokenizers.Tokenizer.from_str(document)
    rng = random.Random(3)
    texts = rng.sample(gcide_lines, 300) + rng.sample(multilingual_lines, 100)
    texts += ["a,b;c—d «e» f¿g? ¡h! 中文。x・y", "  tabs\tand\nnew lines  ", "<xs>newtok,hello.", ""]
    texts += ["x".join(map(chr, range(start, start + 300))) for start in (0x20, 0x2000, 0x3000, 0xFF00)]
    want = [fields(e) for e in theirs.encode_batch(texts)]
    for tok in both(hf):
        loaded = type(tok).from_str(document)
        assert loaded.options["pre_tokenizer"] == option
        assert [fields(e) for e in loaded.encode_batch(texts)] == want
        # Saved in the canonical form, which reads back the same.
        written = json.loads(loaded.to_str())["pre_tokenizer"]
        assert written == {"type": saved or "BertPreTokenizer"}
        assert type(tok).from_str(loaded.to_str()).encode(texts[0]).ids == want[0]["ids"]


REFUSED = {
    "other member": (
        {"type": "Sequence", "pretokenizers": [{"type": "Metaspace"}]},
        'pre_tokenizer.pretokenizers[0]: "Metaspace" is not supported',
    ),
    "empty": ({"type": "Sequence", "pretokenizers": []}, "pre_tokenizer: this Sequence of pre-tokenizers"),
    "no list": ({"type": "Sequence"}, "pre_tokenizer.pretokenizers: expected a list of pre-tokenizers"),
    "punctuation removed": (
        {
            "type": "Sequence",
            "pretokenizers": [{"type": "WhitespaceSplit"}, {"type": "Punctuation", "behavior": "Removed"}],
        },
        "pre_tokenizer: this Sequence of pre-tokenizers",
    ),
    "reversed": (
        {"type": "Sequence", "pretokenizers": [{"type": "Punctuation"}, {"type": "Whitespace"}]},
        "pre_tokenizer: this Sequence of pre-tokenizers",
    ),
    "three": (
        {"type": "Sequence", "pretokenizers": [*BERT_STEPS, {"type": "Digits"}]},
        "pre_tokenizer: this Sequence of pre-tokenizers",
    ),
    "nested unsupported": (
        {"type": "Sequence", "pretokenizers": [{"type": "Sequence", "pretokenizers": [{"type": "Digits"}]}]},
        'pre_tokenizer.pretokenizers[0].pretokenizers[0]: "Digits" is not supported',
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_other_sequences_are_refused_naming_the_path(hf, name: str) -> None:
    pre_tokenizer, start = REFUSED[name]
    document = with_pre_tokenizer(hf, pre_tokenizer)
    outcomes = [outcome(lambda tok=tok: type(tok).from_str(document)) for tok in both(hf)]
    assert outcomes[0] == outcomes[1]
    kind, message = outcomes[0]
    assert kind == "ValueError"
    assert message.startswith(start), message


def test_real_files_with_the_bert_sequence_encode_as_tokenizers(hf_tokenizers_dir, gcide_lines, multilingual_lines):
    """Real tokenizer.json files whose BertPreTokenizer is written as the equivalent Sequence."""
    rng = random.Random(5)
    texts = rng.sample(gcide_lines, 40) + rng.sample(multilingual_lines, 40)
    files = sorted(p for p in hf_tokenizers_dir.glob("*/tokenizer.json") if '"BertPreTokenizer"' in p.read_text())
    assert files
    for path in files:
        document = json.loads(path.read_text(encoding="utf-8"))
        document["pre_tokenizer"] = BERT_SEQUENCE
        text = json.dumps(document)
        theirs = tokenizers.Tokenizer.from_str(text)
        theirs.no_truncation()
        theirs.no_padding()
        want = [fields(e) for e in theirs.encode_batch(texts)]
        # The twin reads a large vocabulary slowly: it checks the smallest file.
        for name in sorted(IMPLEMENTATIONS) if path.parent.name == "baai-bge-small-en" else ["engine"]:
            tok = tokenizer_class(name).from_str(text).no_truncation().no_padding()
            assert [fields(e) for e in tok.encode_batch(texts)] == want, (path, name)


def test_encode_special_tokens_is_split_special_tokens_under_tokenizers_name(hf) -> None:
    """Hugging Face's ``encode_special_tokens`` (settable): special tokens in the text read as plain text."""
    text = "[CLS] hello <xs> newtok [SEP]"
    for tok in both(hf):
        theirs = tokenizers.Tokenizer.from_str(hf.to_str())
        assert tok.encode_special_tokens is theirs.encode_special_tokens is False
        for on in (True, False):
            tok.encode_special_tokens = on
            theirs.encode_special_tokens = on
            assert (tok.encode_special_tokens, tok.split_special_tokens) == (on, on)
            assert fields(tok.encode(text)) == fields(theirs.encode(text)), on
        with pytest.raises(TypeError, match="encode_special_tokens must be bool, not int"):
            tok.encode_special_tokens = 1
