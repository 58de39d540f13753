"""The family's ``pad`` and ``decode`` as transformers' (``BPETokenizer``, ``UnigramTokenizer``,
``CharTokenizer``): ``transformers.DataCollatorWithPadding`` pads the features ``tok(text)``
gives into the arrays it makes with transformers' ``PreTrainedTokenizerFast`` of the same
tokenizer.json; ``pad`` without a padding token is a ValueError naming ``pad_token``;
``decode(..., clean_up_tokenization_spaces=...)`` cleans up as transformers does (not for BPE,
where transformers 5 ignores it); ``decode_batch`` refuses one id where a sequence goes, as
tokenizers' ``decode_batch`` does. The twins behave as the engine."""

from __future__ import annotations

import inspect
import random
import re
from typing import Any

import pytest
from implementations import plain

import fast_wordpiece as fw
from fast_wordpiece.reference import bpe as ref_bpe
from fast_wordpiece.reference import chars as ref_chars
from fast_wordpiece.reference import unigram as ref_unigram

np = pytest.importorskip("numpy")
tokenizers = pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")

EOT = "<|endoftext|>"
#: The collator's settings compared: transformers' defaults (pad to the longest), a multiple,
#: a fixed length (longer than every row), and no padding (rows of one length only).
COLLATORS: list[dict[str, Any]] = [
    {},
    {"pad_to_multiple_of": 8},
    {"padding": "max_length", "max_length": 96},
    {"padding": "longest", "pad_to_multiple_of": 3},
]


@pytest.fixture(scope="module")
def training(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[str]:
    return shakespeare_lines[:2000] + multilingual_lines[:400]


@pytest.fixture(scope="module")
def lines(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[str]:
    """Real held-out lines of different lengths, an empty one among them."""
    return [t for t in shakespeare_lines[-200:] if t.strip()][:10] + multilingual_lines[-5:] + [""]


@pytest.fixture(scope="module")
def family(training: list[str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any, Any]]:
    """(engine, twin, transformers' tokenizer of its saved file) of a GPT-2-style BPE, whose
    padding token is set to its end-of-text token on all three, and of a Unigram tokenizer with
    "<pad>" (transformers' told it is the padding token, as a tokenizer_config.json would)."""
    folder = tmp_path_factory.mktemp("family-pad")
    bpe = fw.BPETokenizer.train(training, 700, special_tokens=[EOT])
    unigram = fw.UnigramTokenizer.train(training, 700, special_tokens=["<unk>", "<pad>"])
    out = {}
    for name, engine, twin, pad in [
        ("bpe", bpe, ref_bpe.BPETokenizer.from_json(bpe.to_json()), EOT),
        (
            "unigram",
            unigram,
            ref_unigram.UnigramTokenizer(unigram.get_pieces(), special_tokens=unigram.special_tokens),
            "<pad>",
        ),
    ]:
        path = folder / f"{name}.json"
        engine.save(path)
        hf = transformers.PreTrainedTokenizerFast(
            tokenizer_object=tokenizers.Tokenizer.from_file(str(path)),
            model_input_names=["input_ids", "attention_mask"],
            pad_token=pad,
        )
        engine.pad_token = twin.pad_token = pad
        out[name] = (engine, twin, hf)
    return out


def arrays(batch: Any) -> dict[str, Any]:
    """A collated batch as {field: (dtype, shape, nested lists)}."""
    return {key: plain(value) for key, value in batch.items()}


@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_data_collator_with_padding_gives_transformers_arrays(name: str, family: dict[str, Any], lines: list[str]):
    engine, twin, hf = family[name]
    theirs_features = [dict(hf(text), label=i) for i, text in enumerate(lines)]
    for tok in (engine, twin):
        features = [dict(tok(text), label=i) for i, text in enumerate(lines)]
        assert [plain(f) for f in features] == [plain(f) for f in theirs_features]
        for settings in COLLATORS:
            ours = transformers.DataCollatorWithPadding(tokenizer=tok, return_tensors="np", **settings)(features)
            theirs = transformers.DataCollatorWithPadding(tokenizer=hf, return_tensors="np", **settings)(
                theirs_features
            )
            assert list(ours) == list(theirs) == ["input_ids", "attention_mask", "labels"]
            assert arrays(ours) == arrays(theirs), settings
            assert ours["input_ids"].dtype == np.int64
            assert ours["input_ids"].shape[0] == len(lines)
        # the batch of one length: padding=False gives what transformers gives
        same = [f for f in features if len(f["input_ids"]) == len(features[0]["input_ids"])]
        same_theirs = [f for f in theirs_features if len(f["input_ids"]) == len(features[0]["input_ids"])]
        ours = transformers.DataCollatorWithPadding(tokenizer=tok, padding=False, return_tensors="np")(same)
        theirs = transformers.DataCollatorWithPadding(tokenizer=hf, padding=False, return_tensors="np")(same_theirs)
        assert arrays(ours) == arrays(theirs)


@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_pad_takes_transformers_arguments(name: str, family: dict[str, Any], lines: list[str]) -> None:
    engine, twin, hf = family[name]
    batch = hf(lines[:6])
    for kwargs in [
        {},
        {"padding_side": "left"},
        {"padding": "max_length", "max_length": 70, "pad_to_multiple_of": 16},
        {"padding": "max_length"},  # no model_max_length: nothing to pad to, as transformers
        {"return_attention_mask": False},
        {"return_tensors": "np"},
        {"padding": False},
    ]:
        theirs = arrays(hf.pad(dict(batch), **kwargs))
        for tok in (engine, twin):
            assert arrays(tok.pad(dict(batch), **kwargs)) == theirs, kwargs
            assert arrays(tok.pad([dict(tok(t)) for t in lines[:6]], **kwargs)) == theirs, kwargs
    one = hf(lines[0])
    for tok in (engine, twin):  # one example, padded to a length
        padded = tok.pad(dict(one), padding="max_length", max_length=len(one["input_ids"]) + 3)
        assert padded["input_ids"] == one["input_ids"] + [hf.pad_token_id] * 3
        assert dict(padded) == dict(hf.pad(dict(one), padding="max_length", max_length=len(one["input_ids"]) + 3))


@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_pad_reports_its_own_name_and_parameters(name: str, family: dict[str, Any], lines: list[str]) -> None:
    engine, twin, _ = family[name]
    cls = type(engine).__name__
    feats = [dict(engine(t)) for t in lines[:3]]
    for tok in (engine, twin):
        with pytest.raises(TypeError, match=rf"^{cls}\.pad\(\) got an unexpected keyword argument 'foo'$"):
            tok.pad(feats, foo=1)
        with pytest.raises(TypeError, match=rf"^{cls}\.pad\(\): too many positional arguments$"):
            tok.pad(feats, *[None] * 8)
        with pytest.raises(
            TypeError, match=r"^pad takes a dict of lists or a non-empty list of dicts, not an empty list$"
        ):
            tok.pad([])
    parameters = list(inspect.signature(type(engine).pad).parameters)
    assert parameters[:3] == ["self", "encoded_inputs", "padding"]
    assert parameters[-1] == "verbose"


@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_the_call_takes_a_numpy_zero_stride_and_names_every_value_it_accepts(name: str, family: dict[str, Any]) -> None:
    engine, twin, _ = family[name]
    for tok in (engine, twin):
        assert tok("a b", stride=np.int64(0))["input_ids"] == tok("a b")["input_ids"]
        assert tok("a b", stride=None)["input_ids"] == tok("a b")["input_ids"]
        assert tok("a b", padding=True, pad_to_multiple_of=0)["input_ids"] == tok("a b")["input_ids"]
        assert tok("a b", split_special_tokens=False)["input_ids"] == tok("a b")["input_ids"]
        with pytest.raises(TypeError, match=r"\(only split_special_tokens=None or split_special_tokens=False are"):
            tok("a b", split_special_tokens=True)
        with pytest.raises(TypeError, match=r"\(only stride=0 or stride=None are accepted\)$"):
            tok("a b", stride=np.int64(2))


@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_a_true_return_overflowing_tokens_is_refused_naming_every_false_value(
    name: str, family: dict[str, Any]
) -> None:
    """Any false ``return_overflowing_tokens`` is accepted (read by its truth), so the message
    does not list False and None as the only values accepted."""
    engine, twin, _ = family[name]
    cls = type(engine).__name__
    for tok in (engine, twin):
        for false in (False, None, 0, "", np.int64(0), []):
            assert tok("a b", return_overflowing_tokens=false)["input_ids"] == tok("a b")["input_ids"]
        for true in (True, 1, "yes"):
            message = (
                rf"^{cls}\.__call__\(\) does not support return_overflowing_tokens={re.escape(repr(true))}: .*"
                r"\(only a false return_overflowing_tokens, such as False, None, 0 or '', is accepted\)$"
            )
            with pytest.raises(TypeError, match=message):
                tok("a b", return_overflowing_tokens=true)


#: The call's keyword arguments, which transformers 5's ``tokenize`` takes and ignores.
TOKENIZE_KEYWORDS: list[dict[str, Any]] = [
    {"truncation": True, "max_length": 2},
    {"padding": "max_length", "max_length": 40, "return_tensors": "np", "pad_to_multiple_of": 8},
    {"return_overflowing_tokens": True, "stride": 1, "return_offsets_mapping": True, "verbose": False},
    {"is_split_into_words": False, "text_target": "x", "split_special_tokens": False, "return_tensors": None},
    {"split_special_tokens": None, "tokenizer_kwargs": {"truncation": True}, "return_length": True},
]


def test_the_familys_tokenize_takes_the_call_keywords_as_transformers(
    family: dict[str, Any], training: list[str]
) -> None:
    """transformers 5's ``tokenize`` hands its keywords to ``_encode_plus``, which ignores the
    call's; the family's ``tokenize`` takes them as ``PyTokenizer.tokenize`` does."""
    bpe, bpe_twin, hf = family["bpe"]
    chars = fw.CharTokenizer.train(training[:300], special_tokens=["[UNK]", "<s>"], show_progress=False)
    chars_twin = ref_chars.CharTokenizer.from_json(chars.to_json())
    text = f"hello world{EOT} <s> said the cat"
    for kwargs in TOKENIZE_KEYWORDS:
        for tok in (bpe, bpe_twin):
            assert tok.tokenize(text, **kwargs) == hf.tokenize(text, **kwargs) == tok.tokenize(text), kwargs
            assert tok.tokenize(text, "and a pair", **kwargs) == hf.tokenize(text, "and a pair", **kwargs)
        for tok in (chars, chars_twin):
            assert tok.tokenize(text, **kwargs) == chars.tokenize(text), kwargs
    for tok in (bpe, bpe_twin, chars, chars_twin):
        cls = type(tok).__name__
        for key in ("foo", "text_pair", "padding_strategy"):
            with pytest.raises(TypeError, match=rf"^tokenize\(\) got an unexpected keyword argument '{key}'$"):
                tok.tokenize("hello", **{key: 1})
        with pytest.raises(TypeError, match=r"^tokenize\(\) takes a str, not words"):
            tok.tokenize("hello", is_split_into_words=True)
        with pytest.raises(ValueError, match=r"^return_tensors must be None, \"np\" or \"pt\", not 'tf'$"):
            tok.tokenize("hello", return_tensors="tf")
        with pytest.raises(TypeError, match=rf"^{cls}\.tokenize\(\) does not support split_special_tokens=True: "):
            tok.tokenize("hello", split_special_tokens=True)
        # its own arguments are read first, as Python binds them
        with pytest.raises(TypeError, match=r"^add_special_tokens must be bool"):
            tok.tokenize("hello", add_special_tokens=1, foo=1)
        with pytest.raises(TypeError, match=r"^tokenize\(\) got an unexpected keyword argument 'foo'$"):
            tok.tokenize(5, foo=1)


def test_pad_without_a_padding_token_is_a_value_error_as_transformers(
    training: list[str], tmp_path: Any, lines: list[str]
) -> None:
    bpe = fw.BPETokenizer.train(training[:300], 400, special_tokens=[EOT])
    path = tmp_path / "bpe.json"
    bpe.save(path)
    hf = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizers.Tokenizer.from_file(str(path)), model_input_names=["input_ids", "attention_mask"]
    )
    twin = ref_bpe.BPETokenizer.from_json(bpe.to_json())
    features = [dict(bpe(t)) for t in lines[:4]]
    with pytest.raises(ValueError, match="pad_token"):
        transformers.DataCollatorWithPadding(tokenizer=hf, return_tensors="np")([dict(hf(t)) for t in lines[:4]])
    for tok in (bpe, twin):
        assert tok.pad_token is None
        with pytest.raises(ValueError, match=r"^asking to pad, but this BPETokenizer has no padding token: set its "):
            transformers.DataCollatorWithPadding(tokenizer=tok, return_tensors="np")(features)
        with pytest.raises(ValueError, match=r"pad_token"):
            tok.pad(features, padding="max_length", max_length=50)
        # nothing to pad: no padding token needed, as transformers
        assert tok.pad(features, padding=False)["input_ids"] == hf.pad(features, padding=False)["input_ids"]
        for tensors in (None, "np"):
            expected = dict(hf.pad({"input_ids": []}, return_tensors=tensors))
            assert dict(tok.pad({"input_ids": []}, return_tensors=tensors)) == expected == {"input_ids": []}
        with pytest.raises(TypeError, match=r"^pad takes a dict of lists or a non-empty list of dicts, not int$"):
            tok.pad(3)
        with pytest.raises(ValueError, match=r"^pad needs 'input_ids' among the inputs"):
            tok.pad({"attention_mask": [[1]]})
        tok.pad_token = EOT
        padded = tok.pad(features, padding="max_length", max_length=50)["input_ids"]
        assert padded[0] == features[0]["input_ids"] + [bpe.token_to_id(EOT)] * (50 - len(features[0]["input_ids"]))


#: Tokens of the clean-up's patterns (" .", " 's", " n't", ...), as the tokenizers spell them.
CLEAN_UP_TOKENS = [".", ",", "?", "!", "'", "s", "m", "ve", "re", "n't", "▁", "▁'", "Ġ", "Ġ'", "Ġ.", "Ġ,"]


def random_ids(r: random.Random, tok: Any) -> list[int]:
    """Random ids, a third of them from the tokens of the clean-up's patterns."""
    common = [i for i in map(tok.token_to_id, CLEAN_UP_TOKENS) if i is not None]
    return [r.choice(common) if r.random() < 0.35 else r.randrange(tok.vocab_size) for _ in range(r.randint(0, 24))]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_decode_cleans_up_as_transformers_on_random_ids(name: str, family: dict[str, Any]) -> None:
    engine, twin, hf = family[name]
    r = random.Random(16)
    cleanable = cleaned = 0
    for _ in range(300):
        ids = random_ids(r, engine)
        for skip in (False, True):
            for clean in (None, False, True, np.bool_(True)):
                theirs = hf.decode(ids, skip_special_tokens=skip, clean_up_tokenization_spaces=clean)
                assert engine.decode(ids, skip, clean) == theirs, (ids, skip, clean)
                assert twin.decode(ids, skip, clean_up_tokenization_spaces=clean) == theirs, (ids, skip, clean)
            text = engine.decode(ids, skip)
            cleanable += hf.clean_up_tokenization(text) != text
            cleaned += engine.decode(ids, skip, clean_up_tokenization_spaces=True) != text
    batch = [random_ids(r, engine) for _ in range(20)]
    theirs_batch = hf.batch_decode(batch, clean_up_tokenization_spaces=True)
    assert engine.batch_decode(batch, clean_up_tokenization_spaces=True) == theirs_batch
    assert twin.batch_decode(batch, clean_up_tokenization_spaces=True) == theirs_batch
    assert cleanable > 20  # the texts have " ." and " 's" to clean up
    # transformers 5 ignores the clean-up for BPE
    assert cleaned == (0 if name == "bpe" else cleanable)


def test_char_decode_cleans_up_with_transformers_rules() -> None:
    text = "Well , is n't it ? I 'm sure . they 've come ! we 're here ' s"
    engine = fw.CharTokenizer.train([text], special_tokens=["[UNK]", "<pad>"])
    twin = ref_chars.CharTokenizer.from_json(engine.to_json())
    ids = engine.encode(text)
    expected = "Well, isn't it? I'm sure. they've come! we're here's"
    for tok in (engine, twin):
        assert tok.decode(ids) == text
        assert tok.decode(ids, clean_up_tokenization_spaces=None) == text
        assert tok.decode(ids, clean_up_tokenization_spaces=True) == expected
        assert tok.decode(ids, False, True) == expected
        assert tok.batch_decode([ids, ids[:5]], clean_up_tokenization_spaces=True) == [expected, "Well "]


@pytest.mark.parametrize("make", ["engine", "twin"])
@pytest.mark.parametrize("kind", ["bpe", "chars", "unigram"])
def test_decode_refuses_a_clean_up_that_is_not_a_bool(make: str, kind: str, training: list[str]) -> None:
    engine = {
        "bpe": lambda: fw.BPETokenizer.train(training[:200], 300),
        "chars": lambda: fw.CharTokenizer.train(training[:200], special_tokens=["[UNK]"]),
        "unigram": lambda: fw.UnigramTokenizer.train(training[:200], 200),
    }[kind]()
    tok = engine if make == "engine" else twin_of(engine)
    for value, type_name in [(1, "int"), ("yes", "str"), ([True], "list")]:
        with pytest.raises(TypeError, match=rf"^clean_up_tokenization_spaces must be a bool or None, not {type_name}$"):
            tok.decode([1, 2], clean_up_tokenization_spaces=value)
        with pytest.raises(TypeError, match=r"^clean_up_tokenization_spaces must be a bool or None"):
            tok.batch_decode([[1, 2]], clean_up_tokenization_spaces=value)
    # the flag is checked before the ids
    with pytest.raises(TypeError, match=r"^clean_up_tokenization_spaces must be"):
        tok.decode([10**9], clean_up_tokenization_spaces=2)


def twin_of(engine: Any) -> Any:
    if isinstance(engine, fw.BPETokenizer):
        return ref_bpe.BPETokenizer.from_json(engine.to_json())
    if isinstance(engine, fw.CharTokenizer):
        return ref_chars.CharTokenizer.from_json(engine.to_json())
    return ref_unigram.UnigramTokenizer(engine.get_pieces(), special_tokens=engine.special_tokens)


@pytest.mark.parametrize("kind", ["bpe", "chars"])
def test_decode_batch_of_flat_ids_is_a_type_error_as_in_tokenizers(kind: str, training: list[str]) -> None:
    engine = (
        fw.BPETokenizer.train(training[:200], 300)
        if kind == "bpe"
        else fw.CharTokenizer.train(training[:200], special_tokens=["[UNK]"])
    )
    if kind == "bpe":  # tokenizers' own decode_batch refuses it
        with pytest.raises(TypeError):
            tokenizers.Tokenizer.from_str(engine.to_json()).decode_batch([5, 6])
    for tok in (engine, twin_of(engine)):
        for sequences, at, type_name in [
            ([5, 6], 0, "int"),
            ((5,), 0, "int"),
            ([[5], 6], 1, "int"),
            ([[5], np.int64(6)], 1, "int64"),
            ([[5], [], True], 2, "bool"),
        ]:
            with pytest.raises(TypeError, match=rf"^sequences\[{at}\] must be a sequence of int, not {type_name} "):
                tok.decode_batch(sequences)
        assert tok.decode_batch([[5, 6], (7,), np.array([8]), []]) == [
            tok.decode([5, 6]),
            tok.decode([7]),
            tok.decode([8]),
            "",
        ]
        assert tok.decode_batch([]) == []
