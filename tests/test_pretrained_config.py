"""``from_pretrained`` of a directory with a ``tokenizer.json`` and a configuration (spec section 10).

transformers 5's ``AutoTokenizer`` loads such a directory with a BERT class when the configuration names
one (``tokenizer_class``, or ``config.json``'s ``tokenizer_class`` or ``model_type``); that class keeps the
file's vocabulary and added tokens and rebuilds the rest of the pipeline from ``do_lower_case`` (true when
absent), ``strip_accents`` and ``tokenize_chinese_chars``. Any other class takes the file as it is. Each
test builds the directory from a real file and compares our tokenizer (engine and twin) with
``AutoTokenizer`` on the same directory, keyword arguments of ``from_pretrained`` included.
"""

from __future__ import annotations

import errno
import json
import re
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

transformers = pytest.importorskip("transformers")
import fast_wordpiece  # noqa: E402
from fast_wordpiece import AddedToken, reference  # noqa: E402

IMPLS = {"engine": fast_wordpiece, "twin": reference}
TEXTS = [
    "Hello Zürich, naïve café!",
    "HÉLLO wörld 中文字 and 日本語",
    "Ünïcödé ÀÉÎÕÜ ǅungla İstanbul straße",
    "don't stop [MASK] the <x> token, <y> here",
    "a\u0301b e\u0308 x\u200by  tab\there",
    "",
]
#: tokenizer_config.json (and config.json) of each case: BERT classes, transformers' generic class.
CONFIGS: dict[str, tuple[dict[str, Any], dict[str, Any] | None]] = {
    "bert-default-lowercase": ({"tokenizer_class": "BertTokenizer"}, None),
    "bert-cased": ({"tokenizer_class": "BertTokenizer", "do_lower_case": False}, None),
    "bert-fast-no-strip": ({"tokenizer_class": "BertTokenizerFast", "strip_accents": False}, None),
    "bert-cased-strip": ({"tokenizer_class": "BertTokenizer", "do_lower_case": False, "strip_accents": True}, None),
    "bert-no-chinese": ({"tokenizer_class": "BertTokenizer", "tokenize_chinese_chars": False}, None),
    "electra-cased": ({"tokenizer_class": "ElectraTokenizer", "do_lower_case": False}, None),
    "model-type-bert": ({"model_max_length": 512}, {"model_type": "bert"}),
    "model-type-distilbert-cased": ({"do_lower_case": False}, {"model_type": "distilbert"}),
    # transformers 5 maps these to BertTokenizer but has no configuration class for them: its generic class
    "model-type-nezha": ({}, {"model_type": "nezha"}),
    "model-type-retribert": ({"do_lower_case": True}, {"model_type": "retribert"}),
    "config-class-bert": ({}, {"tokenizer_class": "BertTokenizerFast", "model_type": "other"}),
    "generic-class-wins": (
        {"tokenizer_class": "PreTrainedTokenizerFast", "do_lower_case": False},
        {"model_type": "bert"},
    ),
    "no-class": ({"do_lower_case": False, "strip_accents": True}, None),
    "unknown-class": ({"tokenizer_class": "SomeOtherTokenizer", "do_lower_case": False}, None),
}
MODELS = ["baai-bge-small-en", "bert-base-multilingual-cased"]


def directory(source: Path, target: Path, config: dict[str, Any], model: dict[str, Any] | None, **edits: Any) -> Path:
    """A model directory: the real ``tokenizer.json`` (with top-level or model fields replaced) and the configs."""
    target.mkdir(parents=True, exist_ok=True)
    doc = json.loads((source / "tokenizer.json").read_text(encoding="utf-8"))
    for key, value in edits.items():
        if key.startswith("model__"):
            doc["model"][key[len("model__") :]] = value
        else:
            doc[key] = value
    (target / "tokenizer.json").write_text(json.dumps(doc), encoding="utf-8")
    (target / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    if model is not None:
        (target / "config.json").write_text(json.dumps(model), encoding="utf-8")
    return target


def auto(path: Path, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return transformers.AutoTokenizer.from_pretrained(str(path), **kwargs)


def assert_like_transformers(ours: Any, hf: Any, texts: list[str] = TEXTS) -> None:
    assert len(ours) == len(hf)
    for text in texts:
        a = ours(text, return_offsets_mapping=True)
        b = hf(text, return_offsets_mapping=True)
        # transformers' generic class leaves out token_type_ids.
        for key in b:
            assert [tuple(x) if key == "offset_mapping" else x for x in a[key]] == b[key], (text, key)
        assert ours.decode(a["input_ids"]) == hf.decode(b["input_ids"]), text
    pair = ours(TEXTS[0], TEXTS[1])["input_ids"]
    assert pair == hf(TEXTS[0], TEXTS[1])["input_ids"]
    # The normalizer's switches under transformers' names: a BERT class's attributes, and what its
    # backend's BertNormalizer (any class's) holds.
    switches = {"do_lower_case": "lowercase", "strip_accents": "strip_accents"}
    switches["tokenize_chinese_chars"] = "handle_chinese_chars"
    normalizer = hf.backend_tokenizer.normalizer
    for name, switch in switches.items():
        if hasattr(hf, name):
            assert getattr(ours, name) == getattr(hf, name), name
        if type(normalizer).__name__ == "BertNormalizer":
            assert getattr(ours, name) == getattr(normalizer, switch), name


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("case", sorted(CONFIGS))
def test_configuration_applies_to_tokenizer_json_as_in_transformers(
    impl: str, model: str, case: str, hf_tokenizers_dir: Path, tmp_path: Path
) -> None:
    config, model_config = CONFIGS[case]
    path = directory(hf_tokenizers_dir / model, tmp_path, config, model_config)
    hf = auto(path)
    ours = IMPLS[impl].PyTokenizer.from_pretrained(path)
    assert_like_transformers(ours, hf)


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_a_bert_class_rebuilds_the_whole_pipeline(impl: str, hf_tokenizers_dir: Path, tmp_path: Path) -> None:
    """BertTokenizer keeps the file's vocabulary and default truncation, not its pre-tokenizer, word length
    limit, decoder clean-up or normalizer."""
    path = directory(
        hf_tokenizers_dir / "baai-bge-small-en",
        tmp_path,
        {"tokenizer_class": "BertTokenizer"},
        None,
        model__max_input_chars_per_word=3,
        pre_tokenizer={"type": "WhitespaceSplit"},
        decoder={"type": "WordPiece", "prefix": "##", "cleanup": False},
        normalizer=None,
    )
    hf = auto(path)
    ours = IMPLS[impl].PyTokenizer.from_pretrained(path)
    assert_like_transformers(ours, hf, [*TEXTS, "hello world, a , b", "it 's x ."])
    assert ours.tokenize("hello world, a") == ["hello", "world", ",", "a"]
    # The file as it is, without the configuration.
    (path / "tokenizer_config.json").unlink()
    plain = IMPLS[impl].PyTokenizer.from_pretrained(path)
    assert plain.tokenize("hello world, a") == ["[UNK]", "[UNK]", "a"]
    assert_like_transformers(plain, auto(path), ["hello world, a", "Hello a , b"])


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_a_template_sep_the_vocabulary_lacks_calls_as_in_transformers(
    impl: str, hf_tokenizers_dir: Path, tmp_path: Path
) -> None:
    """A BERT file whose vocabulary lacks [SEP], which Hugging Face adds as a token of id 4. Alone, its
    template's [SEP] keeps id 102 (no token has it); with BertTokenizer's configuration, BERT's template is
    rebuilt with the [SEP] of the vocabulary. Called, decoded and masked as transformers does either way."""
    source = hf_tokenizers_dir / "configs" / "missing-sep-in-vocab.json"
    texts = [*TEXTS, "hello [SEP] there [CLS]"]
    for config, sep_id in ((None, 102), ({"tokenizer_class": "BertTokenizer"}, 4)):
        path = tmp_path / str(sep_id)
        path.mkdir()
        (path / "tokenizer.json").write_bytes(source.read_bytes())
        if config is not None:
            (path / "tokenizer_config.json").write_text(json.dumps(config))
        hf, ours = auto(path), IMPLS[impl].PyTokenizer.from_pretrained(path)
        # transformers' generic class names no pad token, so pads nothing (see docs/spec.md).
        padding = config is not None
        for kwargs in ({}, {"return_special_tokens_mask": True, "return_offsets_mapping": True}):
            for args in [(texts,), (texts, texts[::-1]), (texts[0], "[SEP]")]:
                a, b = ours(*args, padding=padding, **kwargs), hf(*args, padding=padding, **kwargs)
                assert set(a) == set(b)
                for key in b:  # offsets as lists or tuples alike
                    assert json.dumps(a[key]) == json.dumps(b[key]), (args, key)
        for ids in hf(texts, texts[::-1])["input_ids"]:
            assert ids[-1] == sep_id
            for skip in (False, True):
                assert ours.decode(ids, skip_special_tokens=skip) == hf.decode(ids, skip_special_tokens=skip)
            if config is not None:  # the generic class has no special tokens to mask
                mask = ours.get_special_tokens_mask(ids, already_has_special_tokens=True)
                assert mask == hf.get_special_tokens_mask(ids, already_has_special_tokens=True)
        assert ours.convert_tokens_to_ids("[SEP]") == hf.convert_tokens_to_ids("[SEP]") == 4


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_keyword_arguments_override_the_configuration_as_in_transformers(
    impl: str, hf_tokenizers_dir: Path, tmp_path: Path
) -> None:
    source = hf_tokenizers_dir / "bert-base-multilingual-cased"
    path = directory(source, tmp_path, {"tokenizer_class": "BertTokenizer"}, None)
    PyTokenizer = IMPLS[impl].PyTokenizer
    for kwargs in [
        {"do_lower_case": False},
        {"do_lower_case": False, "strip_accents": True, "model_max_length": 8},
        {"tokenize_chinese_chars": False, "padding_side": "left", "truncation_side": "left"},
        {"do_lower_case": True, "strip_accents": None},
        {"mask_token": "<mask>", "do_lower_case": False},
    ]:
        ours = PyTokenizer.from_pretrained(path, **kwargs)
        hf = auto(path, **kwargs)
        assert_like_transformers(ours, hf, [*TEXTS, "x <mask> y"])
        assert ours.model_max_length == hf.model_max_length or (
            ours.model_max_length is None and hf.model_max_length > 1e20
        )
        assert (ours.padding_side, ours.truncation_side) == (hf.padding_side, hf.truncation_side)
        long = "one two three four five six seven eight nine ten"
        assert (
            ours(long, truncation=True, padding="max_length")["input_ids"]
            == hf(long, truncation=True, padding="max_length")["input_ids"]
        ), kwargs
    # An AddedToken keyword argument keeps its flags.
    ours = PyTokenizer.from_pretrained(path, mask_token=AddedToken("<mask>", lstrip=True))
    assert ours.encode("x <mask> y").offsets[2] == (1, 8)


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_hub_keyword_arguments_are_ignored_and_others_refused(impl: str, tmp_path: Path) -> None:
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n", encoding="utf-8")
    PyTokenizer = IMPLS[impl].PyTokenizer
    plain = PyTokenizer.from_pretrained(tmp_path)
    hub = PyTokenizer.from_pretrained(
        tmp_path, use_fast=False, local_files_only=True, revision="main", trust_remote_code=True,
        cache_dir=str(tmp_path), force_download=False, token=None, proxies=None,
    )  # fmt: skip
    assert hub == plain
    with pytest.raises(TypeError, match=re.escape("from_pretrained() got an unexpected keyword argument 'max_len'")):
        PyTokenizer.from_pretrained(tmp_path, max_len=5)
    with pytest.raises(TypeError, match=r"^do_lower_case must be bool, not str"):
        PyTokenizer.from_pretrained(tmp_path, do_lower_case="no")
    with pytest.raises(TypeError, match=r"^strip_accents must be bool, not int"):
        PyTokenizer.from_pretrained(tmp_path, strip_accents=1)
    with pytest.raises(TypeError, match=r"^model_max_length must be int, not str"):
        PyTokenizer.from_pretrained(tmp_path, model_max_length="8")
    with pytest.raises(ValueError, match=r"^model_max_length must be >= 0, got -1"):
        PyTokenizer.from_pretrained(tmp_path, model_max_length=-1)
    with pytest.raises(ValueError, match=r'^padding_side must be "right" or "left", got "up"'):
        PyTokenizer.from_pretrained(tmp_path, padding_side="up")
    with pytest.raises(TypeError, match=r"^mask_token must be a str or an AddedToken, not int"):
        PyTokenizer.from_pretrained(tmp_path, mask_token=3)
    with pytest.raises(TypeError, match=r"^extra_special_tokens must be a list of str or AddedToken, not str"):
        PyTokenizer.from_pretrained(tmp_path, extra_special_tokens="<x>")
    with_kwargs = PyTokenizer.from_pretrained(tmp_path, do_lower_case=False, model_max_length=4)
    assert with_kwargs.model_max_length == 4
    assert with_kwargs.options["lowercase"] is False


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize(
    "files",
    [
        {"tokenizer_config.json": {"added_tokens_decoder": {"30530": {
            "content": "<x>", "lstrip": False, "normalized": False, "rstrip": False, "single_word": False,
            "special": False}}}},
        {"tokenizer_config.json": {"tokenizer_class": "BertTokenizer"},
         "added_tokens.json": {"<x>": 30525, "<y>": 30522}},
        {"tokenizer_config.json": {}, "added_tokens.json": {"<x>": 30525, "<y>": 30522}},
        {"tokenizer_config.json": {"added_tokens_decoder": {"30600": {
            "content": "<y>", "lstrip": True, "normalized": True, "rstrip": False, "single_word": False,
            "special": True}}}, "added_tokens.json": {"<x>": 30525}},
    ],
    ids=["decoder", "added-tokens-json-bert", "added-tokens-json", "decoder-wins"],
)  # fmt: skip
def test_configured_added_tokens_the_file_lacks_are_added_as_in_transformers(
    impl: str, files: dict[str, Any], hf_tokenizers_dir: Path, tmp_path: Path
) -> None:
    """With the next ids, in the configuration's id order (not its ids), as transformers adds them."""
    shutil.copy(hf_tokenizers_dir / "baai-bge-small-en" / "tokenizer.json", tmp_path / "tokenizer.json")
    for name, content in files.items():
        (tmp_path / name).write_text(json.dumps(content), encoding="utf-8")
    hf = auto(tmp_path)
    ours = IMPLS[impl].PyTokenizer.from_pretrained(tmp_path)
    assert ours.get_vocab() == hf.get_vocab()
    assert_like_transformers(ours, hf)


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_a_missing_directory_has_an_errno(impl: str, tmp_path: Path) -> None:
    PyTokenizer = IMPLS[impl].PyTokenizer
    with pytest.raises(FileNotFoundError, match="not a local directory") as missing:
        PyTokenizer.from_pretrained(tmp_path / "nope")
    assert missing.value.errno == errno.ENOENT
    assert missing.value.filename == str(tmp_path / "nope")
    assert str(missing.value).startswith(f"[Errno {errno.ENOENT}] ")
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(NotADirectoryError, match="not a local directory") as not_dir:
        PyTokenizer.from_pretrained(tmp_path / "file")
    assert not_dir.value.errno == errno.ENOTDIR


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize(
    ("config", "model_config", "side"),
    [
        ({"tokenizer_class": "XLNetTokenizer"}, None, "left"),
        ({"tokenizer_class": "GemmaTokenizerFast"}, None, "left"),
        ({}, {"model_type": "xlnet"}, "left"),
        ({"tokenizer_class": "XLNetTokenizer", "padding_side": "right"}, None, "right"),
        ({}, {"model_type": "bert"}, "right"),
    ],
)
def test_classes_that_pad_on_the_left_give_the_default_padding_side(
    impl: str, config: dict[str, Any], model_config: dict[str, Any] | None, side: str, hf_tokenizers_dir: Path,
    tmp_path: Path,
) -> None:  # fmt: skip
    # the class attributes read here are transformers 5's
    assert transformers.XLNetTokenizer.padding_side == transformers.GemmaTokenizer.padding_side == "left"
    path = directory(hf_tokenizers_dir / "baai-bge-small-en", tmp_path, config, model_config)
    ours = IMPLS[impl].PyTokenizer.from_pretrained(path)
    assert ours.padding_side == side
    assert ours(["a", "hello world"], padding=True)["attention_mask"][0][0] == (0 if side == "left" else 1)
    ours.save_pretrained(tmp_path / "saved")
    again = IMPLS[impl].PyTokenizer.from_pretrained(tmp_path / "saved")
    assert again.padding_side == side


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize(
    "config", [{"tokenizer_class": "BertTokenizer"}, {"tokenizer_class": "PreTrainedTokenizerFast"}, {}]
)
@pytest.mark.parametrize("direction", ["Left", "Right"])
def test_the_padding_section_of_tokenizer_json_gives_the_side_the_config_does_not(
    impl: str, config: dict[str, Any], direction: str, hf_tokenizers_dir: Path, tmp_path: Path
) -> None:
    """transformers 5 takes the padding side from tokenizer_config.json, else from tokenizer.json's
    ``padding`` section, else from its class (XLNet's, left: test_unigram_pretrained)."""
    padding = {"strategy": "BatchLongest", "direction": direction, "pad_to_multiple_of": None,
               "pad_id": 0, "pad_type_id": 0, "pad_token": "[PAD]"}  # fmt: skip
    path = directory(hf_tokenizers_dir / "baai-bge-small-en", tmp_path, config, None, padding=padding)
    ours, hf = IMPLS[impl].PyTokenizer.from_pretrained(path), auto(path)
    assert ours.padding_side == hf.padding_side == direction.lower()
    texts = ["a", "hello world"]
    assert ours(texts, padding=True)["attention_mask"] == hf(texts, padding=True)["attention_mask"]


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_a_directory_without_a_tokenizer_file_says_what_it_needs(impl: str, tmp_path: Path) -> None:
    (tmp_path / "tokenizer_config.json").write_text("{}", encoding="utf-8")
    with pytest.raises(FileNotFoundError, match=r"needs a tokenizer\.json or a vocab\.txt") as e:
        IMPLS[impl].PyTokenizer.from_pretrained(tmp_path)
    assert e.value.errno == errno.ENOENT
    assert e.value.filename == str(tmp_path / "vocab.txt")


@pytest.mark.parametrize(
    ("key", "value"),
    [("split_special_tokens", "x"), ("split_special_tokens", 0), ("strip_accents", "x"), ("do_lower_case", 1)],
)
def test_a_bert_class_refuses_a_flag_that_is_no_bool_alike(key: str, value: Any, tmp_path: Path) -> None:
    """With a tokenizer.json and a BERT class, the flags the class reads are checked as without the
    file, in the same words (the twin ignored a split_special_tokens that is no bool, and named
    strip_accents' values otherwise)."""
    tok = fast_wordpiece.PyTokenizer.train(TEXTS * 3, 80, show_progress=False)
    tok.save_pretrained(tmp_path)
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "BertTokenizer", key: value}))
    found = json.dumps(value)
    expected = f"{tmp_path / 'tokenizer_config.json'}: {key}: expected true or false, found {found}"
    for impl in IMPLS.values():
        with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
            impl.PyTokenizer.from_pretrained(tmp_path)
