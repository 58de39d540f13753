"""``model_input_names``: which inputs transformers' call returns when it is not told (spec sections 10, 11).

transformers 5 returns ``token_type_ids`` and ``attention_mask`` when ``return_token_type_ids`` /
``return_attention_mask`` are None only if they are among the tokenizer's ``model_input_names``, which come
from ``tokenizer_config.json`` (or ``from_pretrained``'s keyword), else from the class ``AutoTokenizer``
picks: ``DistilBertTokenizer`` and the generic class take no ``token_type_ids``. Each test compares our
tokenizer (engine and twin) with ``AutoTokenizer`` on the same directory, built from bert-base-uncased's
``tokenizer.json``.
"""

from __future__ import annotations

import copy
import json
import pickle
import shutil
from pathlib import Path
from typing import Any

import pytest

transformers = pytest.importorskip("transformers")
np = pytest.importorskip("numpy")
from conftest import HF_TOKENIZERS, OPTIONAL  # noqa: E402
from test_pretrained_config import auto  # noqa: E402

import fast_wordpiece  # noqa: E402
from fast_wordpiece import reference  # noqa: E402

IMPLS = {"engine": fast_wordpiece, "twin": reference}
BERT = ["input_ids", "token_type_ids", "attention_mask"]
GENERIC = ["input_ids", "attention_mask"]
REORDERED = ["input_ids", "attention_mask", "token_type_ids"]
#: tokenizer_config.json (None: no such file) and config.json (None: none) of each case, and the
#: model_input_names transformers 5 gives the directory.
CASES: dict[str, tuple[dict[str, Any] | None, dict[str, Any] | None, list[str]]] = {
    "distilbert-class": (
        {"tokenizer_class": "DistilBertTokenizer", "do_lower_case": True, "model_max_length": 512},
        None,
        GENERIC,
    ),
    "distilbert-fast-class": ({"tokenizer_class": "DistilBertTokenizerFast"}, None, GENERIC),
    "distilbert-class-of-config-json": ({}, {"tokenizer_class": "DistilBertTokenizerFast"}, GENERIC),
    "distilbert-class-bert-model-type": ({"tokenizer_class": "DistilBertTokenizer"}, {"model_type": "bert"}, GENERIC),
    "bert-class": ({"tokenizer_class": "BertTokenizer"}, None, BERT),
    "electra-class": ({"tokenizer_class": "ElectraTokenizerFast"}, None, BERT),
    # transformers 5 maps the model type distilbert to BertTokenizer, which takes token_type_ids
    "model-type-distilbert": ({}, {"model_type": "distilbert"}, BERT),
    "model-type-bert": ({"do_lower_case": True}, {"model_type": "bert"}, BERT),
    # mapped to BertTokenizer in transformers' table, but without a configuration class: the generic class
    "model-type-nezha": ({}, {"model_type": "nezha"}, GENERIC),
    "key-on-bert-class": ({"tokenizer_class": "BertTokenizer", "model_input_names": GENERIC}, None, GENERIC),
    "key-on-distilbert-class": ({"tokenizer_class": "DistilBertTokenizer", "model_input_names": BERT}, None, BERT),
    "key-on-generic-class": ({"tokenizer_class": "PreTrainedTokenizerFast", "model_input_names": BERT}, None, BERT),
    "key-ids-only": ({"model_input_names": ["input_ids"]}, None, ["input_ids"]),
    "key-reordered": ({"model_input_names": REORDERED}, None, REORDERED),
    "generic-class": ({"tokenizer_class": "PreTrainedTokenizerFast"}, None, GENERIC),
    "unknown-class": ({"tokenizer_class": "SomeOtherTokenizer"}, None, GENERIC),
    "no-class": ({"do_lower_case": True}, None, GENERIC),
    "tokenizer-json-only": (None, None, GENERIC),
}
TEXTS = ["Hello world", "don't stop [MASK] the naïve café, 中文", ""]
PAIRS = [("Hello world", "a second text"), ("x", "y z w")]
#: The call's options: the defaults, the return flags either way, the other fields, tensors.
OPTIONS: list[dict[str, Any]] = [
    {},
    {"return_token_type_ids": True},
    {"return_token_type_ids": False},
    {"return_attention_mask": True},
    {"return_attention_mask": False},
    {"return_token_type_ids": True, "return_attention_mask": False},
    {"padding": True, "return_special_tokens_mask": True, "return_offsets_mapping": True, "return_length": True},
    {"padding": "max_length", "max_length": 12, "truncation": True, "return_overflowing_tokens": True},
    {"padding": True, "return_tensors": "np"},
    {"padding": True, "return_tensors": "np", "return_token_type_ids": True},
    {"padding": True, "return_tensors": "np", "return_attention_mask": False, "return_offsets_mapping": True},
]


def directory(target: Path, source: Path, config: dict[str, Any] | None, model: dict[str, Any] | None = None) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(source, target / "tokenizer.json")
    if config is not None:
        (target / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    if model is not None:
        (target / "config.json").write_text(json.dumps(model), encoding="utf-8")
    return target


def plain(value: Any) -> Any:
    """A result's value with tuples as lists (transformers gives offsets as tuples)."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def assert_same(ours: Any, theirs: Any, what: Any) -> None:
    """The same keys in the same order, and the same values (numpy arrays: dtype, shape, values)."""
    assert list(ours.keys()) == list(theirs.keys()), what
    for key, value in theirs.items():
        if isinstance(value, np.ndarray):
            got = ours[key]
            assert isinstance(got, np.ndarray), (what, key)
            assert (got.dtype, got.shape) == (value.dtype, value.shape), (what, key)
            assert (got == value).all(), (what, key)
        else:
            assert plain(ours[key]) == plain(value), (what, key)


def assert_calls_like(ours: Any, hf: Any) -> None:
    """Every kind of input (one text, a pair, a batch, a batch of pairs) with every option of OPTIONS,
    and ``pad``, give what transformers gives."""
    assert ours.model_input_names == hf.model_input_names
    for options in OPTIONS:
        batch_only = options.get("return_tensors") is not None
        inputs: list[tuple[Any, ...]] = [(TEXTS,), ([list(p) for p in PAIRS],), (TEXTS[:2], ["a", "b c"])]
        if not batch_only:
            inputs += [(TEXTS[0],), PAIRS[0]]
        for args in inputs:
            assert_same(ours(*args, **options), hf(*args, **options), (args, options))
    # transformers' pad: an attention mask unless model_input_names leave it out (or the call says).
    features = [{"input_ids": ids} for ids in hf(TEXTS, return_attention_mask=False)["input_ids"]]
    with_types = [dict(f, token_type_ids=[0] * len(f["input_ids"])) for f in features]
    for given in (features, with_types, features[0]):
        for kwargs in ({}, {"return_attention_mask": True}, {"return_attention_mask": False},
                       {"return_tensors": "np"}, {"padding": "max_length", "max_length": 16}):  # fmt: skip
            assert_same(ours.pad(copy.deepcopy(given), **kwargs), hf.pad(copy.deepcopy(given), **kwargs), kwargs)


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_call_returns_the_inputs_transformers_returns(
    impl: str, case: str, bert_tokenizer_json: Path, tmp_path: Path
) -> None:
    config, model, names = CASES[case]
    path = directory(tmp_path, bert_tokenizer_json, config, model)
    hf = auto(path)
    assert hf.model_input_names == names  # what transformers 5 gives the directory
    ours = IMPLS[impl].PyTokenizer.from_pretrained(path)
    assert ours.model_input_names == names
    assert_calls_like(ours, hf)


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_the_reported_distilbert_directory(impl: str, bert_tokenizer_json: Path, tmp_path: Path) -> None:
    """The user's reproducer: no token_type_ids for a DistilBERT directory, unless asked for."""
    path = directory(tmp_path, bert_tokenizer_json, CASES["distilbert-class"][0])
    ours = IMPLS[impl].PyTokenizer.from_pretrained(path)
    assert dict(ours("Hello world")) == {"input_ids": [101, 7592, 2088, 102], "attention_mask": [1, 1, 1, 1]}
    assert ours("Hello world", return_token_type_ids=True)["token_type_ids"] == [0, 0, 0, 0]
    assert dict(ours("Hello world")) == dict(auto(path)("Hello world"))
    # encode and encode_batch (the tokenizers API) still give every column
    # (the file pads them to 128 tokens)
    for encoding in (ours.encode("Hello world"), ours.encode_batch(["Hello world", "b"])[0]):
        assert encoding.type_ids[:4] == [0, 0, 0, 0]
        assert len(encoding.type_ids) == len(encoding.ids)


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_a_tokenizer_not_read_from_a_directory_takes_bert_inputs(
    impl: str, bert_vocab_file: Path, bert_tokenizer_json: Path
) -> None:
    """As BertTokenizerFast: token_type_ids and attention_mask by default."""
    PyTokenizer = IMPLS[impl].PyTokenizer
    for tok in (PyTokenizer.from_vocab_file(str(bert_vocab_file)), PyTokenizer.from_file(str(bert_tokenizer_json))):
        assert tok.model_input_names == BERT
        hf = transformers.BertTokenizerFast(tokenizer_file=str(bert_tokenizer_json))
        assert hf.model_input_names == BERT
        assert_calls_like(tok, hf)


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("config", [None, {"do_lower_case": True}, {"model_max_length": 512}], ids=str)
def test_a_directory_of_vocab_txt_alone_takes_bert_inputs_as_bert_tokenizer_fast(
    impl: str, config: dict[str, Any] | None, bert_vocab_file: Path, tmp_path: Path
) -> None:
    """A vocab.txt without a tokenizer.json, a tokenizer class or a model type: AutoTokenizer cannot
    load it, BertTokenizerFast can, and its call returns token_type_ids (the segment ids of pairs),
    as ours does; with a tokenizer.json instead, the generic class's inputs, as AutoTokenizer's."""
    shutil.copy(bert_vocab_file, tmp_path / "vocab.txt")
    if config is not None:
        (tmp_path / "tokenizer_config.json").write_text(json.dumps(config))
    ours = IMPLS[impl].PyTokenizer.from_pretrained(str(tmp_path))
    hf = transformers.BertTokenizerFast.from_pretrained(str(tmp_path))
    assert ours.model_input_names == hf.model_input_names == BERT
    assert_calls_like(ours, hf)
    assert ours("a question", "its context")["token_type_ids"] == [0, 0, 0, 0, 1, 1, 1]
    (tmp_path / "vocab.txt").unlink()
    shutil.copy(bert_vocab_file.parent / "tokenizer.json", tmp_path / "tokenizer.json")
    assert IMPLS[impl].PyTokenizer.from_pretrained(str(tmp_path)).model_input_names == GENERIC
    assert auto(tmp_path).model_input_names == GENERIC


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_keyword_argument_wins_over_the_config(impl: str, bert_tokenizer_json: Path, tmp_path: Path) -> None:
    path = directory(tmp_path, bert_tokenizer_json, {"tokenizer_class": "DistilBertTokenizer"})
    for names in (BERT, ["input_ids"], ("input_ids", "token_type_ids"), []):
        ours = IMPLS[impl].PyTokenizer.from_pretrained(path, model_input_names=names)
        hf = auto(path, model_input_names=names)
        assert ours.model_input_names == hf.model_input_names == list(names)
        for args in ((TEXTS[0],), PAIRS[0], (TEXTS,)):
            assert_same(ours(*args), hf(*args), (names, args))
    # The keyword replaces a value of the file that would be an error.
    (path / "tokenizer_config.json").write_text(json.dumps({"model_input_names": "input_ids"}), encoding="utf-8")
    assert IMPLS[impl].PyTokenizer.from_pretrained(path, model_input_names=GENERIC).model_input_names == GENERIC


def test_bad_values_are_errors_naming_them(bert_tokenizer_json: Path, tmp_path: Path) -> None:
    """A config value that is not a list of str is a ValueError naming the file and key; a keyword
    argument or setting that is not an iterable of str a TypeError (engine and twin alike)."""
    path = directory(tmp_path, bert_tokenizer_json, {})
    config = path / "tokenizer_config.json"
    for value in ("input_ids", None, ["input_ids", 1], {"input_ids": 1}, [["input_ids"]], 3):
        config.write_text(json.dumps({"model_input_names": value}), encoding="utf-8")
        errors = []
        for impl in sorted(IMPLS):
            with pytest.raises(ValueError, match="model_input_names: expected a list of str") as e:
                IMPLS[impl].PyTokenizer.from_pretrained(path)
            assert str(config) in str(e.value)
            errors.append(str(e.value))
        assert errors[0] == errors[1], value
    config.write_text("{}", encoding="utf-8")
    bad = [("input_ids", "an iterable of str, not str"), (b"ids", "an iterable of str, not bytes"),
           (None, "a list of str, not NoneType"), (3, "a list of str, not int"),
           (["input_ids", 3], r"model_input_names\[1\] must be str, not int")]  # fmt: skip
    for impl in sorted(IMPLS):
        tok = IMPLS[impl].PyTokenizer.from_pretrained(path)
        for value, message in bad:
            with pytest.raises(TypeError, match=message):
                IMPLS[impl].PyTokenizer.from_pretrained(path, model_input_names=value)
            with pytest.raises(TypeError, match=message):
                tok.model_input_names = value
        assert tok.model_input_names == GENERIC  # unchanged by the refused values
        # UnigramTokenizer.from_pretrained checks the keyword argument the same way.
        for value, message in bad:
            with pytest.raises(TypeError, match=message):
                IMPLS[impl].UnigramTokenizer.from_pretrained(path, model_input_names=value)


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_setting_it_changes_the_call_and_pad_as_in_transformers(
    impl: str, bert_tokenizer_json: Path, tmp_path: Path
) -> None:
    path = directory(tmp_path, bert_tokenizer_json, {"tokenizer_class": "BertTokenizer"})
    ours = IMPLS[impl].PyTokenizer.from_pretrained(path)
    hf = auto(path)
    for names in (GENERIC, ("input_ids", "token_type_ids"), ["input_ids"], (n for n in BERT)):
        ours.model_input_names = names
        hf.model_input_names = list(ours.model_input_names)
        assert_calls_like(ours, hf)
    # A new list each time: changing it in place changes nothing (assign instead).
    ours.model_input_names = GENERIC
    ours.model_input_names.append("token_type_ids")
    assert ours.model_input_names == GENERIC
    assert "token_type_ids" not in ours("a")


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_pickling_and_copies_keep_it(impl: str, bert_tokenizer_json: Path, tmp_path: Path) -> None:
    path = directory(tmp_path, bert_tokenizer_json, CASES["distilbert-class"][0])
    tok = IMPLS[impl].PyTokenizer.from_pretrained(path)
    for names in (GENERIC, ["input_ids", "token_type_ids"]):
        tok.model_input_names = names
        for other in (pickle.loads(pickle.dumps(tok)), copy.copy(tok), copy.deepcopy(tok)):
            assert other.model_input_names == names
            assert dict(other("a", "b")) == dict(tok("a", "b"))


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("case", ["distilbert-class", "bert-class", "model-type-distilbert", "tokenizer-json-only",
                                  "key-ids-only", "key-reordered"])  # fmt: skip
def test_save_pretrained_writes_it_for_transformers_and_for_us(
    impl: str, case: str, bert_tokenizer_json: Path, tmp_path: Path
) -> None:
    config, model, names = CASES[case]
    PyTokenizer = IMPLS[impl].PyTokenizer
    ours = PyTokenizer.from_pretrained(directory(tmp_path / "in", bert_tokenizer_json, config, model))
    ours.save_pretrained(tmp_path / "out")
    saved = json.loads((tmp_path / "out" / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert saved["model_input_names"] == names
    hf = auto(tmp_path / "out")
    assert hf.model_input_names == names
    back = PyTokenizer.from_pretrained(tmp_path / "out")
    assert back.model_input_names == names
    assert_calls_like(back, hf)
    # A setting saved, and read back by both.
    ours.model_input_names = ["input_ids", "token_type_ids"]
    ours.save_pretrained(tmp_path / "set")
    assert auto(tmp_path / "set").model_input_names == PyTokenizer.from_pretrained(tmp_path / "set").model_input_names
    assert PyTokenizer.from_pretrained(tmp_path / "set").model_input_names == ["input_ids", "token_type_ids"]


def test_engine_and_twin_agree(bert_tokenizer_json: Path, tmp_path: Path) -> None:
    for i, case in enumerate(sorted(CASES)):
        config, model, _ = CASES[case]
        path = directory(tmp_path / str(i), bert_tokenizer_json, config, model)
        engine = fast_wordpiece.PyTokenizer.from_pretrained(path)
        twin = reference.PyTokenizer.from_pretrained(path)
        assert engine.model_input_names == twin.model_input_names, case
        for options in OPTIONS:
            assert_same(engine(TEXTS, **options), twin(TEXTS, **options), (case, options))
        features = [{"input_ids": [1, 2, 3]}, {"input_ids": [4]}]
        assert_same(engine.pad(features), twin.pad(features), case)


#: The real directories, and the implementations to load them with (the twin takes more than a minute to
#: load issue-100's 1,644 added tokens into the three tokenizers of the test).
REAL = [(model, impl) for model in ("baai-bge-small-en", "bert-base-chinese", "bert-base-multilingual-cased")
        for impl in sorted(IMPLS)] + [("issue-100", "engine")]  # fmt: skip


@pytest.mark.parametrize(("model", "impl"), REAL)
def test_real_model_directories(impl: str, model: str, tmp_path: Path) -> None:
    """The real directories as they are (a tokenizer.json, a vocab.txt, and a tokenizer_config.json where they
    have one), and each with a DistilBERT class."""
    source = HF_TOKENIZERS / model
    if not (source / "tokenizer.json").is_file():
        pytest.skip(f"{OPTIONAL} no real Hugging Face tokenizer files at {source} (set FWP_HF_TOKENIZERS)")
    PyTokenizer = IMPLS[impl].PyTokenizer
    ours, hf = PyTokenizer.from_pretrained(source), auto(source)
    assert ours.model_input_names == hf.model_input_names
    if hf.pad_token is None:  # transformers' generic class knows no pad token without a config; ours is [PAD]
        hf.pad_token = ours.pad_token
    assert_calls_like(ours, hf)
    config = source / "tokenizer_config.json"
    settings = json.loads(config.read_text(encoding="utf-8")) if config.is_file() else {}
    path = directory(tmp_path, source / "tokenizer.json", {**settings, "tokenizer_class": "DistilBertTokenizer"})
    ours, hf = PyTokenizer.from_pretrained(path), auto(path)
    assert ours.model_input_names == hf.model_input_names == settings.get("model_input_names", GENERIC)
    assert_calls_like(ours, hf)


def test_every_class_and_model_type_of_the_tables_as_transformers_gives(
    bert_tokenizer_json: Path, tmp_path: Path
) -> None:
    """Each BERT class (with and without "Fast") and each BERT model type, and the four model types that
    transformers 5's table maps to BertTokenizer without a configuration class: the names, and the keys of
    a pair's call, are transformers'."""
    from fast_wordpiece.reference import tokenizer as twin

    cases = [({"tokenizer_class": name + fast}, None) for name in twin.BERT_CLASSES for fast in ("", "Fast")]
    removed = ("nezha", "qdqbert", "realm", "retribert")
    cases += [({}, {"model_type": t}) for t in (*twin.BERT_MODEL_TYPES, *removed)]
    assert not set(removed) & set(twin.BERT_MODEL_TYPES)
    for i, (config, model) in enumerate(cases):
        path = directory(tmp_path / str(i), bert_tokenizer_json, config, model)
        hf = auto(path)
        for impl in sorted(IMPLS):
            ours = IMPLS[impl].PyTokenizer.from_pretrained(path)
            assert ours.model_input_names == hf.model_input_names, (impl, config, model)
            assert list(ours("a", "b")) == list(hf("a", "b")), (impl, config, model)


@pytest.mark.parametrize("cls", ["DPRQuestionEncoderTokenizer", "DPRContextEncoderTokenizer", "DPRReaderTokenizer"])
def test_dpr_classes_take_their_inputs_as_transformers_gives(
    bert_tokenizer_json: Path, tmp_path: Path, cls: str
) -> None:
    """DPR's tokenizer classes (uncased BERT files, as DPR's models have them): the question and context
    encoders take segment ids, the reader does not, as transformers 5's class attributes say."""
    path = directory(tmp_path, bert_tokenizer_json, {"tokenizer_class": cls, "do_lower_case": True})
    hf = auto(path)
    for impl in sorted(IMPLS):
        ours = IMPLS[impl].PyTokenizer.from_pretrained(path)
        assert ours.model_input_names == hf.model_input_names, impl
        assert_calls_like(ours, hf)
