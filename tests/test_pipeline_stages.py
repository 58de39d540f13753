"""The first two stages of the pipeline as objects (``tokenizer.normalizer``,
``tokenizer.pre_tokenizer``): ``normalize_str`` and ``pre_tokenize_str`` give what Hugging Face's
``BertNormalizer`` (or the normalizer of the file read) and its pre-tokenizers give, on real text
and on every code point, in the engine and the twin alike.
"""

from __future__ import annotations

import itertools
import json
import random
import warnings
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS, outcome, tokenizer_class

import fast_wordpiece
from fast_wordpiece import reference

tokenizers = pytest.importorskip("tokenizers")

#: Our pre-tokenizers and Hugging Face's of the same splits ("regex" is the seed's own).
HF_PRE_TOKENIZERS = {"bert": "BertPreTokenizer", "whitespace": "WhitespaceSplit", "wordpunct": "Whitespace"}
CODE_POINTS = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
SWITCHES = ["clean_text", "handle_chinese_chars", "strip_accents", "lowercase"]


@pytest.fixture(scope="module")
def texts(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[str]:
    rng = random.Random(5)
    odd = ["Héllo\tWÖRLD 中文字\x00 \u200b x\u0301y ǅ İ ß \r\n", "  ", "", "don't--stop!! (a_b) 3.14 €5"]
    return rng.sample(shakespeare_lines, 40) + rng.sample(multilingual_lines, 60) + odd


def every_code_point(template: str, step: int) -> list[str]:
    """Texts holding every code point (but surrogates), each written into ``template`` at ``{}``."""
    return [
        "".join(template.replace("{}", chr(c)) for c in CODE_POINTS[i : i + step])
        for i in range(0, len(CODE_POINTS), step)
    ]


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
@pytest.mark.parametrize("pre_tokenizer", sorted(HF_PRE_TOKENIZERS))
def test_pre_tokenize_str_splits_as_hugging_face(name: str, pre_tokenizer: str, texts: list[str]) -> None:
    hf = getattr(tokenizers.pre_tokenizers, HF_PRE_TOKENIZERS[pre_tokenizer])()
    stage = tokenizer_class(name)(["[UNK]"], pre_tokenizer=pre_tokenizer).pre_tokenizer
    assert stage.name == pre_tokenizer
    for text in texts:
        assert stage.pre_tokenize_str(text) == hf.pre_tokenize_str(text), text
    # Every code point after a letter and after a punctuation mark; the twin on an eighth of them.
    for i, text in enumerate(every_code_point(" a{} !{}", 0x8000)):
        if name == "engine" or i % 8 == 0:
            assert stage.pre_tokenize_str(text) == hf.pre_tokenize_str(text), hex(CODE_POINTS[i * 0x8000])


def test_the_seeds_regex_pre_tokenizer_splits_words_and_other_characters() -> None:
    text = "snake_case+42€ ü, naïve--ok"
    want = [("snake_case", (0, 10)), ("+", (10, 11)), ("42", (11, 13)), ("€", (13, 14)), ("ü", (15, 16))]
    want += [(",", (16, 17)), ("naïve", (18, 23)), ("-", (23, 24)), ("-", (24, 25)), ("ok", (25, 27))]
    for name in sorted(IMPLEMENTATIONS):
        assert tokenizer_class(name)(["[UNK]"], pre_tokenizer="regex").pre_tokenizer.pre_tokenize_str(text) == want


SETTINGS = [
    dict(zip(SWITCHES, values))
    for values in itertools.product([True, False], [True, False], [None, True, False], [True, False])
]


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
@pytest.mark.parametrize("settings", SETTINGS, ids=str)
def test_normalize_str_is_bert_normalizers(name: str, settings: dict[str, Any], texts: list[str]) -> None:
    hf = tokenizers.normalizers.BertNormalizer(**settings)
    stage = tokenizer_class(name)(["[UNK]"], **settings).normalizer
    assert {s: getattr(stage, s) for s in SWITCHES} == {s: getattr(hf, s) for s in SWITCHES}
    assert stage.strip_all_marks is False
    for text in texts:
        assert stage.normalize_str(text) == hf.normalize_str(text), text


@pytest.mark.parametrize("settings", [SETTINGS[0], SETTINGS[2], SETTINGS[-1]], ids=str)
def test_normalize_str_is_bert_normalizers_on_every_code_point(settings: dict[str, Any]) -> None:
    hf = tokenizers.normalizers.BertNormalizer(**settings)
    engine = fast_wordpiece.PyTokenizer(["[UNK]"], **settings).normalizer
    twin = reference.PyTokenizer(["[UNK]"], **settings).normalizer
    for i, text in enumerate(every_code_point(" a{}\u0301{}", 0x4000)):
        want = hf.normalize_str(text)
        assert engine.normalize_str(text) == want
        if i % 8 == 0:  # the twin on an eighth of them
            assert twin.normalize_str(text) == want


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_the_stages_of_a_file_normalize_and_split_as_its_hugging_face_pipeline(
    name: str, bert_vocab_file: Any, texts: list[str]
) -> None:
    doc = json.loads(tokenizers.BertWordPieceTokenizer(str(bert_vocab_file))._tokenizer.to_str())
    # BERT's normalizer without its switches, then Hugging Face's NFD, StripAccents and Lowercase:
    # accent stripping that drops every mark (strip_all_marks).
    off = {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True}
    off |= {"strip_accents": False, "lowercase": False}
    sequence = {
        "type": "Sequence",
        "normalizers": [off, {"type": "NFD"}, {"type": "StripAccents"}, {"type": "Lowercase"}],
    }
    for normalizer in [doc["normalizer"], sequence]:
        for pre_tokenizer in [{"type": "BertPreTokenizer"}, {"type": "Whitespace"}]:
            text = json.dumps({**doc, "normalizer": normalizer, "pre_tokenizer": pre_tokenizer})
            hf, ours = tokenizers.Tokenizer.from_str(text), tokenizer_class(name).from_str(text)
            assert ours.normalizer.strip_all_marks is (normalizer is sequence)
            for t in texts:
                normalized = ours.normalizer.normalize_str(t)
                assert normalized == hf.normalizer.normalize_str(t), t
                assert ours.pre_tokenizer.pre_tokenize_str(normalized) == hf.pre_tokenizer.pre_tokenize_str(normalized)


def test_engine_and_twin_show_compare_and_refuse_alike() -> None:
    options = [{}, {"lowercase": False, "strip_accents": True, "pre_tokenizer": "wordpunct"}, {"strip_all_marks": True}]
    for settings in options:
        engine, twin = fast_wordpiece.PyTokenizer(["[UNK]"], **settings), reference.PyTokenizer(["[UNK]"], **settings)
        for stage in ("normalizer", "pre_tokenizer"):
            a, b = getattr(engine, stage), getattr(twin, stage)
            assert repr(a) == repr(b)
            assert a == getattr(engine, stage)
            assert b == getattr(twin, stage)
            assert a != getattr(fast_wordpiece.PyTokenizer(["[UNK]"], clean_text=False, pre_tokenizer="regex"), stage)
    shown = repr(fast_wordpiece.PyTokenizer(["[UNK]"]).normalizer)
    assert shown == "Normalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True, " + (
        "strip_all_marks=False)"
    )
    assert repr(fast_wordpiece.PyTokenizer(["[UNK]"]).pre_tokenizer) == "PreTokenizer('bert')"
    for bad in [5, None, b"bytes", "a\ud800b"]:
        for stage, method in [("normalizer", "normalize_str"), ("pre_tokenizer", "pre_tokenize_str")]:
            calls = [
                getattr(getattr(tokenizer_class(name)(["[UNK]"]), stage), method) for name in sorted(IMPLEMENTATIONS)
            ]
            got = [outcome(lambda call=call, bad=bad: call(bad)) for call in calls]
            assert got[0] == got[1]
            assert got[0][0] == ("ValueError" if isinstance(bad, str) else "TypeError"), got
            assert "sequence" in got[0][1]


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
@pytest.mark.parametrize(
    "decoder",
    [
        {"type": "WordPiece", "prefix": "##", "cleanup": True},
        {"type": "WordPiece", "prefix": "##", "cleanup": False},
        {"type": "WordPiece", "prefix": "@@", "cleanup": True},
        None,
    ],
    ids=str,
)
def test_the_decoder_joins_tokens_as_the_files_and_transformers_does(
    name: str, decoder: dict[str, Any] | None, bert_vocab_file: Any, texts: list[str]
) -> None:
    """``tokenizer.decoder.decode`` is Hugging Face's decoder of the file (None when it has none), and
    ``convert_tokens_to_string`` is transformers' (the decoder's, else the tokens joined by spaces)."""
    transformers = pytest.importorskip("transformers")
    doc = json.loads(tokenizers.BertWordPieceTokenizer(str(bert_vocab_file))._tokenizer.to_str())
    doc["decoder"] = decoder
    if decoder is not None:
        doc["model"]["continuing_subword_prefix"] = decoder["prefix"]
        doc["model"]["vocab"] = {k.replace("##", decoder["prefix"], 1): v for k, v in doc["model"]["vocab"].items()}
    text = json.dumps(doc)
    hf = tokenizers.Tokenizer.from_str(text)
    ours = tokenizer_class(name).from_str(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        calls = transformers.PreTrainedTokenizerFast(tokenizer_object=tokenizers.Tokenizer.from_str(text))
    if decoder is None:
        assert ours.decoder is None is hf.decoder
    else:
        assert (ours.decoder.prefix, ours.decoder.cleanup) == (hf.decoder.prefix, hf.decoder.cleanup)
        assert ours.decoder == tokenizer_class(name).from_str(text).decoder
    for t in [*texts, "don't stop , it ' s a can ' t do ( or ) n't . right ?"]:
        tokens = hf.encode(t, add_special_tokens=False).tokens
        if decoder is not None:
            assert ours.decoder.decode(tokens) == hf.decoder.decode(tokens), t
        assert ours.convert_tokens_to_string(tokens) == calls.convert_tokens_to_string(tokens), t


def stage_classes(name: str) -> Any:
    """The module whose ``Normalizer``, ``PreTokenizer`` and ``Decoder`` the implementation exports."""
    return fast_wordpiece if name == "engine" else reference


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_stages_made_on_their_own_are_hugging_faces_and_the_tokenizers(name: str, texts: list[str]) -> None:
    """``Normalizer(...)`` takes ``BertNormalizer``'s arguments (positional or by name, the same
    defaults), ``Decoder(prefix, cleanup)`` those of ``decoders.WordPiece``, and each equals the stage
    of a tokenizer with the same options."""
    m = stage_classes(name)
    for settings in SETTINGS:
        made, hf = m.Normalizer(*settings.values()), tokenizers.normalizers.BertNormalizer(*settings.values())
        assert made == m.Normalizer(**settings) == tokenizer_class(name)(["[UNK]"], **settings).normalizer
        assert made != m.Normalizer(**settings, strip_all_marks=True)
        for text in texts[::10]:
            assert made.normalize_str(text) == hf.normalize_str(text), (settings, text)
    assert m.Normalizer() == tokenizer_class(name)(["[UNK]"]).normalizer
    assert m.Normalizer().normalize_str("ÀB\u4e2d") == tokenizers.normalizers.BertNormalizer().normalize_str("ÀB\u4e2d")
    for pre_tokenizer in ["bert", "whitespace", "regex", "wordpunct"]:
        made = m.PreTokenizer(pre_tokenizer)
        assert made == tokenizer_class(name)(["[UNK]"], pre_tokenizer=pre_tokenizer).pre_tokenizer
        assert made.name == pre_tokenizer
    assert m.PreTokenizer() == m.PreTokenizer("bert")
    tokens = ["un", "##aff", "##able", "!", "it", "'", "s", "@@x", "##", "a"]
    for prefix, cleanup in [("##", True), ("##", False), ("@@", True), ("", False), ("##", None)]:
        args = (prefix,) if cleanup is None else (prefix, cleanup)
        made, hf = m.Decoder(*args), tokenizers.decoders.WordPiece(*args)
        assert (made.prefix, made.cleanup) == (hf.prefix, hf.cleanup)
        assert made.decode(tokens) == hf.decode(tokens), args
    assert m.Decoder() == m.Decoder("##", True) == tokenizer_class(name)(["[UNK]"]).decoder


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_stages_pickle_and_copy_to_equal_stages_that_work_alike(name: str) -> None:
    import copy
    import pickle

    m = stage_classes(name)
    tokenizer = tokenizer_class(name)(["[UNK]"], lowercase=False, strip_accents=True, pre_tokenizer="wordpunct")
    stages = [tokenizer.normalizer, tokenizer.pre_tokenizer, tokenizer.decoder, m.Decoder("@@", False)]
    stages += [m.Normalizer(False, False, None, False, True)]
    for stage in stages:
        for again in [pickle.loads(pickle.dumps(stage)), copy.copy(stage), copy.deepcopy(stage)]:
            assert type(again) is type(stage)
            assert again == stage
            assert repr(again) == repr(stage)
    text, tokens = "Ça\tva,  BIEN?\x00", ["a", "@@b", "##c", ",", "d"]
    for stage, call in [(stages[0], "normalize_str"), (stages[1], "pre_tokenize_str"), (stages[3], "decode")]:
        argument = tokens if call == "decode" else text
        assert getattr(pickle.loads(pickle.dumps(stage)), call)(argument) == getattr(stage, call)(argument)


def test_the_stages_constructors_refuse_bad_arguments_alike() -> None:
    bad_calls = [
        ("Normalizer", (), {"clean_text": 1}, "TypeError", "clean_text must be bool, not int"),
        ("Normalizer", (True, "yes"), {}, "TypeError", "handle_chinese_chars must be bool, not str"),
        ("Normalizer", (), {"strip_accents": 0}, "TypeError", "strip_accents must be bool, not int"),
        ("Normalizer", (), {"lowercase": None}, "TypeError", "lowercase must be bool, not NoneType"),
        ("Normalizer", (), {"strip_all_marks": "no"}, "TypeError", "strip_all_marks must be bool, not str"),
        ("Normalizer", (), {"lower_case": True}, "TypeError", "unexpected keyword argument 'lower_case'"),
        ("PreTokenizer", ("bert_like",), {}, "ValueError", 'unknown pre_tokenizer "bert_like"'),
        ("PreTokenizer", (None,), {}, "TypeError", "name must be str, not NoneType"),
        ("PreTokenizer", ("\ud800",), {}, "ValueError", "name contains a lone surrogate"),
        ("Decoder", (b"##",), {}, "TypeError", "prefix must be str, not bytes"),
        ("Decoder", ("##", 1), {}, "TypeError", "cleanup must be bool, not int"),
        ("Decoder", ("a\udc00",), {}, "ValueError", "prefix contains a lone surrogate"),
    ]
    for cls, args, kwargs, error, message in bad_calls:
        makers = [getattr(m, cls) for m in (fast_wordpiece, reference)]
        got = [outcome(lambda make=make, a=args, k=kwargs: make(*a, **k)) for make in makers]
        assert got[0][0] == got[1][0] == error, (cls, args, kwargs, got)
        assert all(message in g[1] for g in got), (cls, args, kwargs, got)
