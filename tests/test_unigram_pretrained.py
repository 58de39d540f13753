"""``UnigramTokenizer.from_pretrained`` and ``save_pretrained`` on the model directories that
transformers 5's SentencePiece classes save, and DeBERTa-v2's ``split_by_punct`` pre-tokenizer
(``Punctuation`` "isolated" before ``Metaspace``).

The directories are made offline from one small SentencePiece model (``_small_spm_model`` of
``test_unigram_sentencepiece_files``): each class converts it and saves its tokenizer.json,
tokenizer_config.json and special_tokens_map.json. What is compared with transformers and
``tokenizers``: ids, offsets, attention masks, the padding side, the maximum length, the padding
token, and decoding.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from implementations import IMPLEMENTATIONS
from test_unigram_sentencepiece_files import (
    PARTS,
    _implementation,
    _plain,
    _same_as_hf,
    _same_as_hf_on_drawn_texts,
    _small_spm_model,
)

tokenizers = pytest.importorskip("tokenizers", reason="optional: tokenizers is not installed")
transformers = pytest.importorskip("transformers", reason="optional: transformers is not installed")
pytest.importorskip("sentencepiece", reason="optional: sentencepiece is not installed")
if int(transformers.__version__.split(".")[0]) < 5:
    pytest.skip("optional: transformers 5 writes these directories (an older one is installed)",
                allow_module_level=True)  # fmt: skip

#: transformers 5's classes of Unigram SentencePiece models whose directories are read here, with
#: the keyword arguments they are made with; XLNet's pads on the left.
CLASSES = {
    "XLNetTokenizer": {},
    "T5Tokenizer": {},
    "XLMRobertaTokenizer": {},
    "CamembertTokenizer": {},
    "BarthezTokenizer": {},
    "DebertaV2Tokenizer": {},
    "DebertaV2Tokenizer-split_by_punct": {"split_by_punct": True},
}

#: Punctuation of every kind the Punctuation pre-tokenizer cuts out (ASCII punctuation and symbols,
#: Unicode P*), and characters it does not (Unicode symbols, "▁").
PUNCTUATION_PARTS = [*PARTS, *"()-'\"$+<=>^`|~@#%&*/\\[]{}_", *"¿¡«»—–…、。「」", *"€©±▁", "--", " ."]
PUNCTUATED = st.lists(st.sampled_from(PUNCTUATION_PARTS), max_size=16).map("".join)
OPTIONS = {"padding": True, "return_offsets_mapping": True, "return_attention_mask": True}
#: transformers' generic class's inputs, and the class config.json's model type picks for those read here.
GENERIC = ["input_ids", "attention_mask"]
TYPE_CLASSES = {"fnet": "FNetTokenizer", "deberta-v2": "DebertaV2Tokenizer", "t5": "T5Tokenizer"}


@pytest.fixture(scope="module")
def directories(tmp_path_factory: pytest.TempPathFactory, gcide_lines: list[str]) -> dict[str, Path]:
    """The directory each class saves for one small model (ALBERT's control symbols, as
    ``test_unigram_sentencepiece_files`` makes it)."""
    model = _small_spm_model(
        gcide_lines, normalization_rule_name="nmt_nfkc", pad_id=0, eos_id=1, unk_id=2, bos_id=-1,
        control_symbols=["[CLS]", "[SEP]"],
    )  # fmt: skip
    out = {}
    for name, kwargs in CLASSES.items():
        cls = getattr(transformers, name.split("-")[0])
        folder, saved = tmp_path_factory.mktemp(name), tmp_path_factory.mktemp(f"{name}-saved")
        (folder / cls.vocab_files_names["vocab_file"]).write_bytes(model)
        cls.from_pretrained(str(folder), **kwargs).save_pretrained(str(saved))
        out[name] = saved
    return out


def _with_tokenizer_json(source: Path, folder: Path) -> Path:
    """``folder``, made, with a copy of the ``tokenizer.json`` of the directory ``source``."""
    folder.mkdir()
    (folder / "tokenizer.json").write_bytes((source / "tokenizer.json").read_bytes())
    return folder


def _call(tokenizer: Any, text: Any, pair: Any = None, **options: Any) -> dict[str, Any]:
    """What a call gives, as plain lists, in its order."""
    return {k: _plain(v) for k, v in tokenizer(text, pair, **options).items()}


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize("name", CLASSES)
def test_directories_saved_by_transformers_5_call_and_decode_as_transformers(
    directories: dict[str, Path], name: str, impl: str
) -> None:
    theirs = transformers.AutoTokenizer.from_pretrained(str(directories[name]))
    ours = _implementation(impl).UnigramTokenizer.from_pretrained(directories[name])
    assert ours.padding_side == theirs.padding_side == ("left" if name == "XLNetTokenizer" else "right")
    assert ours.model_max_length == theirs.model_max_length
    assert ours.pad_token == theirs.pad_token
    texts = ["ｆｕｌｌ   ﬁne①, (and) more!", "a</s> b", "", "  x\u3000y  ", "hello\tworld -- the  quick fox?"]
    pairs = ["b, c", "x", "", "d\te", "and... more"]
    for text, pair in [(texts, None), (texts, pairs), (texts[4], pairs[4])]:
        expected = _call(theirs, text, pair, **OPTIONS)
        got = _call(ours, text, pair, **OPTIONS)
        assert got == expected, (text, pair)
        assert list(got) == list(expected), (text, pair)
        for ids in expected["input_ids"] if isinstance(text, list) else [expected["input_ids"]]:
            for skip in (True, False):
                assert ours.decode(ids, skip_special_tokens=skip) == theirs.decode(ids, skip_special_tokens=skip)

    @settings(max_examples=60, deadline=None, database=None)
    @given(st.lists(PUNCTUATED, min_size=1, max_size=4), st.booleans())
    def check(texts: list[str], paired: bool) -> None:
        pairs = texts[::-1] if paired else None
        expected = _call(theirs, texts, pairs, **OPTIONS)
        assert _call(ours, texts, pairs, **OPTIONS) == expected
        for ids in expected["input_ids"]:
            assert ours.decode(ids, skip_special_tokens=True) == theirs.decode(ids, skip_special_tokens=True)

    check()


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_split_by_punct_files_encode_and_decode_as_tokenizers(directories: dict[str, Path], impl: str) -> None:
    path = directories["DebertaV2Tokenizer-split_by_punct"] / "tokenizer.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    pre = doc["pre_tokenizer"]
    # what the test is about: transformers' DeBERTa-v2 with split_by_punct
    assert [p["type"] for p in pre["pretokenizers"]] == ["Punctuation", "Metaspace"]
    assert pre["pretokenizers"][0]["behavior"] == "Isolated"
    hf = tokenizers.Tokenizer.from_file(str(path))
    ours = _implementation(impl).UnigramTokenizer.from_file(path)
    for text in ["hello, world!", "a,b", "(x) -- y...", " ,", "¿qué? «sí»", "a\u2581,b", "[CLS], [SEP].", ""]:
        _same_as_hf(ours, hf, text, "c; d")
    _same_as_hf_on_drawn_texts(ours, hf, 150)

    @settings(max_examples=200, deadline=None, database=None)
    @given(PUNCTUATED, st.none() | PUNCTUATED)
    def check(text: str, pair: str | None) -> None:
        _same_as_hf(ours, hf, text, pair)
        assert ours.word_ids([text])[0] == hf.encode(text, add_special_tokens=False).word_ids

    check()
    # every punctuation character is a word of its own, with its own "▁"
    bare = ours.encode("a,b", add_special_tokens=False)
    assert [t.replace("▁", "") for t in bare.tokens if t != "▁"] == ["a", ",", "b"]
    assert json.loads(ours.to_str())["pre_tokenizer"] == pre


#: The prepend schemes, each with the file's normalizer and with none (the engine's path
#: without a copy of the text).
SCHEMES = [(scheme, normalizer) for scheme in ("always", "first", "never") for normalizer in ("file", "none")]


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize(("scheme", "normalizer"), SCHEMES)
def test_punctuation_before_metaspace_with_every_prepend_scheme(
    directories: dict[str, Path], scheme: str, normalizer: str, impl: str
) -> None:
    doc = json.loads((directories["DebertaV2Tokenizer-split_by_punct"] / "tokenizer.json").read_text("utf-8"))
    doc["pre_tokenizer"]["pretokenizers"][1]["prepend_scheme"] = scheme
    doc["decoder"]["prepend_scheme"] = scheme
    if normalizer == "none":
        doc["normalizer"] = None
    text = json.dumps(doc)
    hf = tokenizers.Tokenizer.from_str(text)
    ours = _implementation(impl).UnigramTokenizer.from_str(text)
    for t in [",a", "a,", " , ", "a</s>,b", ",</s>,", "x,,y", ""]:
        _same_as_hf(ours, hf, t)

    @settings(max_examples=100, deadline=None, database=None)
    @given(PUNCTUATED)
    def check(t: str) -> None:
        _same_as_hf(ours, hf, t)

    check()
    assert json.loads(ours.to_str())["pre_tokenizer"] == doc["pre_tokenizer"]


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize(
    "first",
    [
        {"type": "Punctuation", "behavior": "Removed"},
        {"type": "Punctuation", "behavior": "MergedWithPrevious"},
        {"type": "Punctuation", "behavior": "Isolated", "extra": 1},
    ],
)
def test_punctuation_with_another_behavior_is_refused(
    directories: dict[str, Path], first: dict[str, Any], impl: str
) -> None:
    doc = json.loads((directories["DebertaV2Tokenizer-split_by_punct"] / "tokenizer.json").read_text("utf-8"))
    doc["pre_tokenizer"]["pretokenizers"][0] = first
    with pytest.raises(ValueError, match=r'pre_tokenizer must be Metaspace \(.*Punctuation "isolated"\)'):
        _implementation(impl).UnigramTokenizer.from_str(json.dumps(doc))


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize("name", ["XLNetTokenizer", "DebertaV2Tokenizer-split_by_punct", "T5Tokenizer"])
def test_save_pretrained_gives_transformers_the_same_tokenizer(
    directories: dict[str, Path], tmp_path: Path, name: str, impl: str
) -> None:
    cls = _implementation(impl).UnigramTokenizer
    ours = cls.from_pretrained(directories[name])
    ours.model_max_length = 12
    paths = ours.save_pretrained(tmp_path / "out")
    assert sorted(Path(p).name for p in paths) == ["special_tokens_map.json", "tokenizer.json", "tokenizer_config.json"]
    theirs = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "out"))
    assert (theirs.padding_side, theirs.model_max_length, theirs.pad_token) == (ours.padding_side, 12, ours.pad_token)
    texts = ["hello, world! and a much longer text, cut here", "x", "a b</s>"]
    for options in [OPTIONS, {"padding": "max_length", "truncation": True}, {"truncation": True}]:
        assert _call(ours, texts, **options) == _call(theirs, texts, **options), options
    again = cls.from_pretrained(tmp_path / "out")
    assert (again.padding_side, again.model_max_length, again.pad_token) == (ours.padding_side, 12, ours.pad_token)
    assert again.encode_batch(texts) == ours.encode_batch(texts)
    assert _call(again, texts, **OPTIONS) == _call(ours, texts, **OPTIONS)


@pytest.mark.parametrize("name", ["XLNetTokenizer", "DebertaV2Tokenizer-split_by_punct"])
def test_engine_and_twin_write_the_same_files(directories: dict[str, Path], tmp_path: Path, name: str) -> None:
    written = {}
    for impl in IMPLEMENTATIONS:
        tokenizer = _implementation(impl).UnigramTokenizer.from_pretrained(directories[name], model_max_length=64)
        tokenizer.padding_side = "right"
        paths = tokenizer.save_pretrained(tmp_path / impl)
        written[impl] = {Path(p).name: Path(p).read_bytes() for p in paths}
    assert written["engine"] == written["twin"]
    config = json.loads(written["engine"]["tokenizer_config.json"])
    assert (config["padding_side"], config["model_max_length"]) == ("right", 64)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_keyword_arguments_override_the_config(directories: dict[str, Path], impl: str) -> None:
    cls = _implementation(impl).UnigramTokenizer
    folder = str(directories["XLNetTokenizer"])
    kwargs = {"padding_side": "right", "model_max_length": 5, "pad_token": "<unk>", "local_files_only": True}
    ours = cls.from_pretrained(folder, **kwargs)
    theirs = transformers.AutoTokenizer.from_pretrained(folder, **kwargs)
    assert (ours.padding_side, ours.model_max_length, ours.pad_token) == ("right", 5, "<unk>")
    texts = ["hello, world and more words", "x"]
    for options in [{"padding": True}, {"truncation": True, "padding": "max_length"}]:
        assert _call(ours, texts, **options) == _call(theirs, texts, **options)
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        cls.from_pretrained(folder, colour="blue")
    with pytest.raises(ValueError, match="padding_side"):
        cls.from_pretrained(folder, padding_side="middle")


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_special_tokens_the_config_names_are_special(directories: dict[str, Path], tmp_path: Path, impl: str) -> None:
    # a token the tokenizer.json lacks gets the next id; a plain piece of the vocabulary becomes special
    source = directories["T5Tokenizer"]
    folder = _with_tokenizer_json(source, tmp_path / "dir")
    config = json.loads((source / "tokenizer_config.json").read_text("utf-8"))
    piece = next(p for p, _ in json.loads((source / "tokenizer.json").read_text("utf-8"))["model"]["vocab"][10:]
                 if len(p) > 2 and p.startswith("▁"))[1:]  # fmt: skip
    config["extra_special_tokens"] = [*config["extra_special_tokens"], "<new>", "<more>"]
    config["mask_token"] = piece
    (folder / "tokenizer_config.json").write_text(json.dumps(config), "utf-8")
    theirs = transformers.AutoTokenizer.from_pretrained(str(folder))
    ours = _implementation(impl).UnigramTokenizer.from_pretrained(folder)
    assert ours.token_to_id("<new>") == theirs.convert_tokens_to_ids("<new>") == len(theirs) - 2
    assert ours.token_to_id("<more>") == theirs.convert_tokens_to_ids("<more>")
    assert {"<new>", "<more>"} <= set(ours.special_tokens)
    for text in [f"a<new>b  <more>c {piece}", f"x{piece}y", "<new>"]:
        assert _call(ours, text, **OPTIONS) == _call(theirs, text, **OPTIONS), text
        ids = theirs(text)["input_ids"]
        assert ours.decode(ids, skip_special_tokens=True) == theirs.decode(ids, skip_special_tokens=True)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize("name", CLASSES)
def test_the_added_vocabulary_is_transformers(directories: dict[str, Path], tmp_path: Path, name: str,
                                              impl: str) -> None:  # fmt: skip
    # every added token, special or not, by id: the directory as saved, then with two more
    source = directories[name]
    theirs = transformers.AutoTokenizer.from_pretrained(str(source))
    ours = _implementation(impl).UnigramTokenizer.from_pretrained(source)
    assert len(theirs.get_added_vocab()) >= 2  # what the test is about
    assert list(ours.get_added_vocab().items()) == list(theirs.get_added_vocab().items())
    folder = _with_tokenizer_json(source, tmp_path / "dir")
    config = json.loads((source / "tokenizer_config.json").read_text("utf-8"))
    config["extra_special_tokens"] = [*config.get("extra_special_tokens", []), "<new>", "<more>"]
    (folder / "tokenizer_config.json").write_text(json.dumps(config), "utf-8")
    theirs = transformers.AutoTokenizer.from_pretrained(str(folder))
    ours = _implementation(impl).UnigramTokenizer.from_pretrained(folder)
    assert {"<new>", "<more>"} <= set(theirs.get_added_vocab())
    assert list(ours.get_added_vocab().items()) == list(theirs.get_added_vocab().items())


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_the_model_type_of_config_json_picks_the_padding_side(
    directories: dict[str, Path], tmp_path: Path, impl: str
) -> None:
    folder = _with_tokenizer_json(directories["XLNetTokenizer"], tmp_path / "dir")
    cls = _implementation(impl).UnigramTokenizer
    assert cls.from_pretrained(folder).padding_side == "right"  # nothing names a class
    (folder / "config.json").write_text(json.dumps({"model_type": "xlnet"}), "utf-8")
    assert cls.from_pretrained(folder).padding_side == "left"
    (folder / "tokenizer_config.json").write_text(json.dumps({"padding_side": "right"}), "utf-8")
    assert cls.from_pretrained(folder).padding_side == "right"
    (folder / "tokenizer_config.json").write_text(json.dumps({"padding_side": "up"}), "utf-8")
    with pytest.raises(ValueError, match=r'tokenizer_config\.json: padding_side: expected "right" or "left"'):
        cls.from_pretrained(folder)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_pickling_and_setting_keep_the_directory_settings(directories: dict[str, Path], impl: str) -> None:
    cls = _implementation(impl).UnigramTokenizer
    ours = cls.from_pretrained(directories["XLNetTokenizer"])
    ours.model_max_length = 7
    again = pickle.loads(pickle.dumps(ours))
    assert (again.padding_side, again.model_max_length, again.pad_token) == ("left", 7, "<pad>")
    assert _call(again, ["a b c d e f g h i", "x"], truncation=True, padding=True) == _call(
        ours, ["a b c d e f g h i", "x"], truncation=True, padding=True
    )
    ours.padding_side = "right"
    assert ours(["a b", "x"], padding=True)["attention_mask"][1][0] == 1
    with pytest.raises(ValueError, match="padding_side"):
        ours.padding_side = "middle"
    with pytest.raises(TypeError, match="padding_side"):
        ours.padding_side = 1
    ours.model_max_length = 10**20
    assert ours.model_max_length == int(1e30)
    with pytest.raises((TypeError, ValueError), match="model_max_length"):
        ours.model_max_length = -1
    # a tokenizer without a directory: transformers' defaults
    plain = cls.from_str(ours.to_str())
    assert (plain.padding_side, plain.model_max_length) == ("right", int(1e30))


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_directories_that_cannot_be_read_are_named(tmp_path: Path, impl: str) -> None:
    cls = _implementation(impl).UnigramTokenizer
    with pytest.raises(FileNotFoundError, match="never downloads"):
        cls.from_pretrained(tmp_path / "absent")
    with pytest.raises(FileNotFoundError, match=r"needs its tokenizer\.json"):
        cls.from_pretrained(tmp_path)
    (tmp_path / "tokenizer.json").write_text("{", "utf-8")
    with pytest.raises(ValueError, match=r"tokenizer\.json: not valid JSON"):
        cls.from_pretrained(tmp_path)
    (tmp_path / "tokenizer.json").write_text(json.dumps({"model": {"type": "BPE"}}), "utf-8")
    with pytest.raises(ValueError, match=r'tokenizer\.json: the model is "BPE", not "Unigram"'):
        cls.from_pretrained(tmp_path)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize("doc", ["[]", "5", '"x"', "null"])
def test_a_tokenizer_json_that_is_not_an_object_is_named_with_special_tokens_to_add(
    tmp_path: Path, impl: str, doc: str
) -> None:
    """Adding the configured special tokens to a file that is not a JSON object: a ValueError
    naming the file, as ``from_file`` gives (not an internal error)."""
    (tmp_path / "tokenizer.json").write_text(doc, "utf-8")
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"pad_token": "<pad>"}), "utf-8")
    with pytest.raises(ValueError, match=r'tokenizer\.json: no "model" object'):
        _implementation(impl).UnigramTokenizer.from_pretrained(tmp_path)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize("key", ["do_lower_case", "strip_accents", "tokenize_chinese_chars", "split_special_tokens"])
def test_keywords_that_rebuild_a_pipeline_are_refused_not_ignored(
    directories: dict[str, Path], impl: str, key: str
) -> None:
    """transformers' XLNet, ALBERT and DeBERTa-v2 classes rebuild their normalizer from
    ``do_lower_case``; the Unigram tokenizer keeps its file's, so it says so."""
    with pytest.raises(TypeError, match=rf"does not take {key}: it keeps the normalizer"):
        _implementation(impl).UnigramTokenizer.from_pretrained(directories["XLNetTokenizer"], **{key: True})


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize("name", ["XLNetTokenizer", "T5Tokenizer"])
@pytest.mark.parametrize("direction", ["Left", "Right"])
def test_the_padding_and_truncation_sections_of_tokenizer_json_give_the_sides(
    directories: dict[str, Path], tmp_path: Path, impl: str, name: str, direction: str
) -> None:
    """transformers 5 takes each side from tokenizer_config.json, else from tokenizer.json's
    ``padding`` and ``truncation`` sections, else from its class."""
    folder = tmp_path / "dir"
    folder.mkdir()
    for file in directories[name].iterdir():
        (folder / file.name).write_bytes(file.read_bytes())
    doc = json.loads((folder / "tokenizer.json").read_text("utf-8"))
    doc["padding"] = {"strategy": "BatchLongest", "direction": direction, "pad_to_multiple_of": None,
                      "pad_id": 0, "pad_type_id": 0, "pad_token": "<pad>"}  # fmt: skip
    doc["truncation"] = {"direction": direction, "max_length": 512, "strategy": "LongestFirst", "stride": 0}
    (folder / "tokenizer.json").write_text(json.dumps(doc), "utf-8")
    config = json.loads((folder / "tokenizer_config.json").read_text("utf-8"))
    config.pop("padding_side", None)
    config.pop("truncation_side", None)
    (folder / "tokenizer_config.json").write_text(json.dumps(config), "utf-8")
    theirs = transformers.AutoTokenizer.from_pretrained(str(folder))
    ours = _implementation(impl).UnigramTokenizer.from_pretrained(folder)
    assert ours.padding_side == theirs.padding_side == direction.lower()
    assert _call(ours, ["a b c", "x"], padding=True) == _call(theirs, ["a b c", "x"], padding=True)
    # The config's side comes first; null there is an error, as in transformers.
    config["padding_side"] = "left" if direction == "Right" else "right"
    (folder / "tokenizer_config.json").write_text(json.dumps(config), "utf-8")
    assert ours.from_pretrained(folder).padding_side == config["padding_side"]
    config["padding_side"] = None
    (folder / "tokenizer_config.json").write_text(json.dumps(config), "utf-8")
    with pytest.raises(ValueError, match=r"Padding side should be selected"):
        transformers.AutoTokenizer.from_pretrained(str(folder))
    with pytest.raises(ValueError, match=r'padding_side: expected "right" or "left", found null'):
        ours.from_pretrained(folder)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_model_input_names_are_those_of_the_class_transformers_picks(
    directories: dict[str, Path], tmp_path: Path, impl: str
) -> None:
    """DeBERTa-v2's class takes segment ids, so its call returns ``token_type_ids`` when not told
    (after ``input_ids``, before ``attention_mask``, as transformers orders them); the other
    classes and a tokenizer without a directory do not."""
    cls = _implementation(impl).UnigramTokenizer
    for name in CLASSES:
        theirs = transformers.AutoTokenizer.from_pretrained(str(directories[name]))
        ours = cls.from_pretrained(directories[name])
        assert ours.model_input_names == theirs.model_input_names, name
        for text, pair in [("a b", "c"), (["a b", "x"], None)]:
            assert _call(ours, text, pair) == _call(theirs, text, pair), name
        assert ("token_type_ids" in ours("a")) == name.startswith("DebertaV2")
    assert cls.from_str(ours.to_str()).model_input_names == GENERIC
    # By the class a config names (FNet's takes no attention mask), or by config.json's model type.
    source = directories["DebertaV2Tokenizer"]
    for i, (config, model) in enumerate([
        ({"tokenizer_class": "FNetTokenizerFast"}, None), ({"tokenizer_class": "DebertaV2Tokenizer"}, None),
        ({"tokenizer_class": "T5Tokenizer"}, None), ({}, {"model_type": "fnet"}), ({}, {"model_type": "deberta-v2"}),
        ({}, {"model_type": "t5"}), ({}, None),
    ]):  # fmt: skip
        folder = _with_tokenizer_json(source, tmp_path / str(i))
        (folder / "tokenizer_config.json").write_text(json.dumps(config), "utf-8")
        if model is not None:
            (folder / "config.json").write_text(json.dumps(model), "utf-8")
        name = config.get("tokenizer_class") or TYPE_CLASSES.get((model or {}).get("model_type", ""))
        expected = getattr(transformers, name.removesuffix("Fast")).model_input_names if name else GENERIC
        ours = cls.from_pretrained(folder)
        assert ours.model_input_names == list(expected), (config, model)
        returned = ["input_ids", *(n for n in ("token_type_ids", "attention_mask") if n in expected)]
        assert list(ours("a", "b")) == returned


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_model_input_names_can_be_set_given_pickled_and_saved(
    directories: dict[str, Path], tmp_path: Path, impl: str
) -> None:
    cls = _implementation(impl).UnigramTokenizer
    folder = directories["DebertaV2Tokenizer"]
    ours = cls.from_pretrained(folder, model_input_names=["input_ids", "attention_mask"])
    theirs = transformers.AutoTokenizer.from_pretrained(str(folder), model_input_names=["input_ids", "attention_mask"])
    assert ours.model_input_names == theirs.model_input_names == ["input_ids", "attention_mask"]
    texts, pairs = ["a b", "x"], ["c", "d e"]
    assert _call(ours, texts, pairs, padding=True) == _call(theirs, texts, pairs, padding=True)
    ours.model_input_names = theirs.model_input_names = ["input_ids", "token_type_ids"]
    texts = ["a b c", "x"]
    assert _call(ours, texts, padding=True) == _call(theirs, texts, padding=True)
    assert "attention_mask" not in ours(texts)
    assert "attention_mask" in ours(texts, return_attention_mask=True)
    assert _plain(ours.pad(dict(ours(texts)))) == _plain(theirs.pad(dict(theirs(texts))))
    again = pickle.loads(pickle.dumps(ours))
    assert again.model_input_names == ["input_ids", "token_type_ids"]
    assert _call(again, texts) == _call(ours, texts)
    ours.save_pretrained(tmp_path / "saved")
    config = json.loads((tmp_path / "saved" / "tokenizer_config.json").read_text("utf-8"))
    assert config["model_input_names"] == ["input_ids", "token_type_ids"]
    reloaded = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "saved"))
    assert reloaded.model_input_names == ["input_ids", "token_type_ids"]
    assert _call(cls.from_pretrained(tmp_path / "saved"), texts, ["b", "c"]) == _call(reloaded, texts, ["b", "c"])
    with pytest.raises(TypeError, match="model_input_names"):
        ours.model_input_names = ["input_ids", 1]
    with pytest.raises(TypeError, match="model_input_names"):
        cls.from_pretrained(folder, model_input_names="input_ids")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "tokenizer.json").write_bytes((folder / "tokenizer.json").read_bytes())
    (tmp_path / "bad" / "tokenizer_config.json").write_text(json.dumps({"model_input_names": [1]}), "utf-8")
    with pytest.raises(ValueError, match=r"tokenizer_config\.json: model_input_names: expected a list of str"):
        cls.from_pretrained(tmp_path / "bad")


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize("direction", ["Left", "Right"])
def test_a_files_padding_and_truncation_sections_give_its_call_settings(
    directories: dict[str, Path], tmp_path: Path, impl: str, direction: str
) -> None:
    """``from_file`` and ``from_str`` take the sides and the padding token of the file's ``padding``
    and ``truncation`` sections, as transformers' ``PreTrainedTokenizerFast(tokenizer_object=...)``
    of the file takes them."""
    doc = json.loads((directories["DebertaV2Tokenizer"] / "tokenizer.json").read_text("utf-8"))
    doc["padding"] = {"strategy": "BatchLongest", "direction": direction, "pad_to_multiple_of": None,
                      "pad_id": 3, "pad_type_id": 0, "pad_token": "[CLS]"}  # fmt: skip
    doc["truncation"] = {"direction": direction, "max_length": 512, "strategy": "LongestFirst", "stride": 0}
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(doc), "utf-8")
    cls = _implementation(impl).UnigramTokenizer
    theirs = transformers.PreTrainedTokenizerFast(tokenizer_object=tokenizers.Tokenizer.from_file(str(path)))
    side = direction.lower()
    texts = ["a b c d e f g", "x", "hello there"]
    for ours in (cls.from_file(path), cls.from_str(path.read_text("utf-8"))):
        assert (ours.padding_side, ours.truncation_side, ours.pad_token) == (side, side, "[CLS]")
        assert (theirs.padding_side, theirs.truncation_side, theirs.pad_token) == (side, side, "[CLS]")
        for options in [{"padding": True}, {"padding": "max_length", "truncation": True, "max_length": 6}]:
            assert _call(ours, texts, **options) == _call(theirs, texts, **options), options
        assert _plain(ours.pad(dict(ours(texts)))) == _plain(theirs.pad(dict(theirs(texts))))
        assert pickle.loads(pickle.dumps(ours))(texts, padding=True) == ours(texts, padding=True)
        # encode and encode_batch do not pad or truncate, and saving writes no sections
        assert [len(e.ids) for e in ours.encode_batch(texts)] == [len(row) for row in ours(texts)["input_ids"]]
        assert json.loads(ours.to_str())["padding"] is None
    # A padding token the vocabulary lacks is left out: the one the tokenizer has by name pads.
    doc["padding"]["pad_token"] = "<not-a-piece>"
    path.write_text(json.dumps(doc), "utf-8")
    assert cls.from_file(path).pad_token == "<pad>"
    assert cls.from_file(path).padding_side == side


@pytest.mark.parametrize(
    ("sections", "expected"),
    [
        (
            {"padding": {"direction": "Left", "pad_token": 5}, "truncation": {"direction": "Left"}},
            ("left", "left", "<pad>"),
        ),
        ({"padding": {"direction": 3, "pad_token": "[CLS]"}}, ("right", "right", "[CLS]")),
        ({"padding": {"direction": "Up", "pad_token": "[CLS]"}}, ("right", "right", "[CLS]")),
        ({"padding": "x", "truncation": {"direction": "left"}}, ("right", "left", "<pad>")),
        ({"padding": [], "truncation": None}, ("right", "right", "<pad>")),
    ],
)
def test_malformed_sections_are_read_field_by_field_alike(
    directories: dict[str, Path], sections: dict[str, Any], expected: tuple[str, str, str]
) -> None:
    """Each field of the sections is taken on its own: one that is not what it should be is left
    out, the others still count, in the engine and the twin alike."""
    doc = {**json.loads((directories["DebertaV2Tokenizer"] / "tokenizer.json").read_text("utf-8")), **sections}
    for impl in IMPLEMENTATIONS:
        ours = _implementation(impl).UnigramTokenizer.from_str(json.dumps(doc))
        assert (ours.padding_side, ours.truncation_side, ours.pad_token) == expected, impl
