"""A Unigram tokenizer's call truncates on its ``truncation_side``, as transformers 5's
``PreTrainedTokenizerFast`` (Hugging Face's truncation with ``direction="left"``) does: a text
too long loses its first tokens, the template's special tokens stay where the template puts
them (XLNet's ``<sep> <cls>`` at the end, T5's ``</s>``, XLM-R's ``<s> A </s>``), and the rows'
encodings say which tokens of each text they hold (words, sequences, characters).

The model directories are made offline from one small SentencePiece model: each transformers
class converts it and saves it, then ``AutoTokenizer`` saves it again with
``truncation_side="left"`` (and a copy without the file's post-processor adds no special tokens).
Everything the call returns is compared with transformers, for every ``max_length`` from 0 up,
single texts and pairs, every truncation strategy, padding on either side, and the engine with
its twin.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from implementations import IMPLEMENTATIONS, call_fields
from test_unigram_sentencepiece_files import PARTS, _implementation, _small_spm_model

tokenizers = pytest.importorskip("tokenizers", reason="optional: tokenizers is not installed")
transformers = pytest.importorskip("transformers", reason="optional: transformers is not installed")
pytest.importorskip("sentencepiece", reason="optional: sentencepiece is not installed")
np = pytest.importorskip("numpy", reason="optional: numpy is not installed")
if int(transformers.__version__.split(".")[0]) < 5:
    pytest.skip("optional: transformers 5 writes these directories (an older one is installed)",
                allow_module_level=True)  # fmt: skip

#: transformers' classes whose directories are read, and one without special tokens (T5's file
#: with its post-processor removed, read by transformers' generic class).
NAMES = ["XLNetTokenizer", "T5Tokenizer", "XLMRobertaTokenizer", "T5Tokenizer-no-post-processor"]
STRATEGIES = ["longest_first", "only_first", "only_second"]
TEXTS = ["hello world -- the  quick brown fox?", "a</s> b c d", "", "  x\u3000y  z", "ｆｕｌｌ   ﬁne①, (and) more!"]
PAIRS = ["and... more of it", "x", "d\te f g h i j", "", "b, c"]
#: Every field the call returns.
FIELDS = {
    "return_token_type_ids": True,
    "return_attention_mask": True,
    "return_special_tokens_mask": True,
    "return_offsets_mapping": True,
    "return_length": True,
}


@pytest.fixture(scope="module")
def directories(tmp_path_factory: pytest.TempPathFactory, gcide_lines: list[str]) -> dict[str, dict[str, Path]]:
    """For each of NAMES, the directory transformers saves (``"right"``) and the one it saves
    again with ``truncation_side="left"`` (``"left"``)."""
    model = _small_spm_model(
        gcide_lines, normalization_rule_name="nmt_nfkc", pad_id=0, eos_id=1, unk_id=2, bos_id=-1,
        control_symbols=["[CLS]", "[SEP]"],
    )  # fmt: skip
    out: dict[str, dict[str, Path]] = {}
    for name in NAMES:
        cls = getattr(transformers, name.split("-")[0])
        folder, right = tmp_path_factory.mktemp(name), tmp_path_factory.mktemp(f"{name}-right")
        (folder / cls.vocab_files_names["vocab_file"]).write_bytes(model)
        cls.from_pretrained(str(folder)).save_pretrained(str(right))
        if name.endswith("-no-post-processor"):
            doc = json.loads((right / "tokenizer.json").read_text("utf-8"))
            doc["post_processor"] = None
            (right / "tokenizer.json").write_text(json.dumps(doc), "utf-8")
            # transformers' T5 class would put its template back: the generic class keeps the file's
            config = json.loads((right / "tokenizer_config.json").read_text("utf-8"))
            config["tokenizer_class"] = "PreTrainedTokenizerFast"
            (right / "tokenizer_config.json").write_text(json.dumps(config), "utf-8")
        left = tmp_path_factory.mktemp(f"{name}-left")
        transformers.AutoTokenizer.from_pretrained(str(right), truncation_side="left").save_pretrained(str(left))
        assert json.loads((left / "tokenizer_config.json").read_text("utf-8"))["truncation_side"] == "left"
        out[name] = {"right": right, "left": left}
    return out


def _loaded(directories: dict[str, dict[str, Path]], name: str, side: str, impl: str) -> tuple[Any, Any]:
    folder = directories[name][side]
    theirs = transformers.AutoTokenizer.from_pretrained(str(folder))
    ours = _implementation(impl).UnigramTokenizer.from_pretrained(folder)
    assert ours.truncation_side == theirs.truncation_side == side
    return ours, theirs


def _outcome(tokenizer: Any, text: Any, pair: Any, **options: Any) -> Any:
    """The call's fields as plain values, or that it raised (transformers raises tokenizers'
    Exception where we raise a ValueError: a strategy that cannot fit the row)."""
    try:
        return call_fields(tokenizer, text, text_pair=pair, **options)
    except Exception as e:  # tokenizers' truncation error is a bare Exception
        return ("raised", type(e).__name__)


def _same_outcome(ours: Any, theirs: Any) -> bool:
    if isinstance(ours, tuple) or isinstance(theirs, tuple):
        return isinstance(ours, tuple) and isinstance(theirs, tuple)
    return bool(ours == theirs)


def _rows_of(batch: Any) -> list[Any]:
    """Each row's encoding, as plain values."""
    return [
        (e.ids, e.tokens, [tuple(o) for o in e.offsets], e.type_ids, e.special_tokens_mask, e.attention_mask,
         e.word_ids, e.sequence_ids)
        for e in batch.encodings
    ]  # fmt: skip


def _alignment(batch: Any, rows: int, chars: int) -> list[Any]:
    """What a BatchEncoding's alignment methods say of each row: its tokens' words, sequences and
    characters, and where each character and word of either text is."""
    out: list[Any] = [batch.n_sequences]
    for i in range(rows):
        n = len(batch.word_ids(i))
        out.append((batch.tokens(i), batch.word_ids(i), batch.sequence_ids(i)))
        out.append([(batch.token_to_chars(i, t), batch.token_to_sequence(i, t), batch.token_to_word(i, t))
                    for t in range(n)])  # fmt: skip
        for sequence in (0, 1):
            out.append([(batch.char_to_token(i, c, sequence), batch.char_to_word(i, c, sequence))
                        for c in range(chars)])  # fmt: skip
            out.append([batch.word_to_tokens(i, w, sequence) for w in range(12)])
    return out


def _compare(ours: Any, theirs: Any, text: Any, pair: Any, **options: Any) -> Any:
    """Asserts that ours gives what transformers gives (fields, encodings, alignment); returns
    ours's fields."""
    expected = _outcome(theirs, text, pair, **options)
    got = _outcome(ours, text, pair, **options)
    assert _same_outcome(got, expected), (text, pair, options, got, expected)
    if not isinstance(got, tuple) and options.get("return_tensors") is None:
        rows = len(text) if isinstance(text, list) else 1
        every = [text, pair] if isinstance(text, str) else text + (pair or [])
        longest = max(len(t) for t in every if t is not None)
        ours_batch, their_batch = ours(text, pair, **options), theirs(text, pair, **options)
        assert _rows_of(ours_batch) == _rows_of(their_batch), (text, pair, options)
        assert _alignment(ours_batch, rows, longest + 1) == _alignment(their_batch, rows, longest + 1)
    return got


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_every_length_and_strategy_cuts_as_transformers(
    directories: dict[str, dict[str, Path]], name: str, side: str, impl: str
) -> None:
    ours, theirs = _loaded(directories, name, side, impl)
    longest = max(len(theirs(t, p)["input_ids"]) for t, p in zip(TEXTS, PAIRS))
    paddings: list[dict[str, Any]] = [
        {},
        {"padding": True},
        {"padding": "max_length", "padding_side": "left"},
        {"padding": "longest", "padding_side": "right"},
    ]
    for max_length in range(longest + 2):
        padding = paddings[max_length % len(paddings)]
        for special in (True, False):
            options = {"max_length": max_length, "add_special_tokens": special, **FIELDS, **padding}
            _compare(ours, theirs, TEXTS, None, truncation=True, **options)
            _compare(ours, theirs, TEXTS[0], None, truncation=True, **options)
            for strategy in STRATEGIES:
                _compare(ours, theirs, TEXTS, PAIRS, truncation=strategy, **options)
                _compare(ours, theirs, TEXTS[0], PAIRS[0], truncation=strategy, **options)


@pytest.mark.parametrize("name", NAMES)
def test_engine_and_twin_cut_alike_and_tensors_too(directories: dict[str, dict[str, Path]], name: str) -> None:
    (engine, theirs), (twin, _) = (_loaded(directories, name, "left", impl) for impl in IMPLEMENTATIONS)
    for max_length in range(0, 16, 3):
        for strategy in STRATEGIES:
            options = {"truncation": strategy, "max_length": max_length, "padding": "max_length", **FIELDS}
            expected = _outcome(theirs, TEXTS, PAIRS, return_tensors="np", **options)
            got = _outcome(engine, TEXTS, PAIRS, return_tensors="np", **options)
            assert _same_outcome(got, expected), (max_length, strategy)
            assert _outcome(twin, TEXTS, PAIRS, return_tensors="np", **options) == got
            for pair in (PAIRS, None):
                if pair is None and strategy == "only_second":
                    continue
                batch = engine(TEXTS, pair, **options) if not isinstance(got, tuple) or pair is None else None
                if batch is not None:
                    assert _rows_of(batch) == _rows_of(twin(TEXTS, pair, **options))
                    assert _alignment(batch, len(TEXTS), 40) == _alignment(twin(TEXTS, pair, **options), len(TEXTS), 40)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_a_tokenizer_without_a_template_cuts_as_transformers(gcide_lines: list[str], tmp_path: Path, impl: str) -> None:
    """A trained tokenizer has no template at all (not even ``$A``): each row is its text's
    tokens, the last ``max_length`` of them on the left side."""
    engine = _implementation("engine").UnigramTokenizer.train(gcide_lines[:3000], 300,
                                                              special_tokens=["<unk>", "<pad>", "</s>"])  # fmt: skip
    if impl == "engine":
        ours = engine
    else:
        ours = _implementation(impl).UnigramTokenizer(engine.get_pieces(), special_tokens=engine.special_tokens)
    assert ours.template is None
    engine.save(tmp_path / "tokenizer.json")
    theirs = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json")), pad_token="<pad>",
        model_input_names=["input_ids", "attention_mask"], truncation_side="left",
    )  # fmt: skip
    ours.truncation_side = "left"
    longest = max(len(theirs(t)["input_ids"]) for t in TEXTS)
    for max_length in range(longest + 2):
        for padding in ({}, {"padding": "max_length", "padding_side": "left"}, {"padding": True}):
            _compare(ours, theirs, TEXTS, None, truncation=True, max_length=max_length, **FIELDS, **padding)
            _compare(ours, theirs, TEXTS[0], None, truncation=True, max_length=max_length, **FIELDS, **padding)
    assert _outcome(ours, TEXTS, None, truncation=True, max_length=4, return_tensors="np", padding=True, **FIELDS) == (
        _outcome(theirs, TEXTS, None, truncation=True, max_length=4, return_tensors="np", padding=True, **FIELDS)
    )


TEXT = st.lists(st.sampled_from([*PARTS, "</s>", "<sep>", " hello", " world"]), max_size=14).map("".join)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize("name", ["XLNetTokenizer", "T5Tokenizer-no-post-processor"])
def test_drawn_texts_and_lengths_cut_on_the_left_as_transformers(
    directories: dict[str, dict[str, Path]], name: str, impl: str
) -> None:
    ours, theirs = _loaded(directories, name, "left", impl)

    @settings(max_examples=80, deadline=None, database=None)
    @given(
        st.lists(TEXT, min_size=1, max_size=4), st.booleans(), st.integers(0, 24), st.sampled_from(STRATEGIES),
        st.sampled_from([False, "longest", "max_length"]), st.sampled_from(["left", "right"]),
    )  # fmt: skip
    def check(texts: list[str], paired: bool, max_length: int, strategy: str, padding: Any, padding_side: str) -> None:
        pairs = texts[::-1] if paired else None
        if not paired and strategy == "only_second":
            strategy = "longest_first"
        _compare(ours, theirs, texts, pairs, truncation=strategy, max_length=max_length, padding=padding,
                 padding_side=padding_side, **FIELDS)  # fmt: skip

    check()


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_the_side_set_after_loading_is_used_kept_and_saved(
    directories: dict[str, dict[str, Path]], tmp_path: Path, impl: str
) -> None:
    cls = _implementation(impl).UnigramTokenizer
    ours, theirs = _loaded(directories, "XLNetTokenizer", "right", impl)
    options = {"truncation": True, "max_length": 5, "padding": True, **FIELDS}
    right = _compare(ours, theirs, TEXTS, PAIRS, **options)
    ours.truncation_side = theirs.truncation_side = "left"
    left = _compare(ours, theirs, TEXTS, PAIRS, **options)
    assert left != right
    # pickling keeps it, and so do save_pretrained and from_pretrained (transformers reads it)
    again = pickle.loads(pickle.dumps(ours))
    assert again.truncation_side == "left"
    assert call_fields(again, TEXTS, text_pair=PAIRS, **options) == left
    ours.save_pretrained(tmp_path)
    assert json.loads((tmp_path / "tokenizer_config.json").read_text("utf-8"))["truncation_side"] == "left"
    assert cls.from_pretrained(tmp_path).truncation_side == "left"
    assert transformers.AutoTokenizer.from_pretrained(str(tmp_path)).truncation_side == "left"
    assert call_fields(cls.from_pretrained(tmp_path), TEXTS, text_pair=PAIRS, **options) == left
    # a keyword argument of from_pretrained overrides the directory's side
    assert cls.from_pretrained(tmp_path, truncation_side="right").truncation_side == "right"
    ours.truncation_side = "right"
    assert call_fields(ours, TEXTS, text_pair=PAIRS, **options) == right
    with pytest.raises(ValueError, match="truncation_side"):
        ours.truncation_side = "middle"
    with pytest.raises(TypeError, match="truncation_side"):
        ours.truncation_side = 1
    assert ours.truncation_side == "right"
    # a tokenizer without a directory cuts on the right until told otherwise
    plain = cls.from_str(ours.to_str())
    assert plain.truncation_side == "right"
    ids = plain.encode("a b c d e f", add_special_tokens=False).ids
    options = {"truncation": True, "max_length": 3, "add_special_tokens": False}
    assert plain("a b c d e f", **options)["input_ids"] == ids[:3]
    plain.truncation_side = "left"
    assert plain("a b c d e f", **options)["input_ids"] == ids[-3:]
    assert pickle.loads(pickle.dumps(plain)).truncation_side == "left"


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize("direction", ["Left", "Right"])
def test_the_truncation_section_of_tokenizer_json_gives_the_side(
    directories: dict[str, dict[str, Path]], tmp_path: Path, impl: str, direction: str
) -> None:
    """Without a ``truncation_side`` in tokenizer_config.json, transformers 5 takes the
    ``direction`` of tokenizer.json's ``truncation`` section."""
    source = directories["T5Tokenizer"]["right"]
    for file in source.iterdir():
        (tmp_path / file.name).write_bytes(file.read_bytes())
    doc = json.loads((tmp_path / "tokenizer.json").read_text("utf-8"))
    doc["truncation"] = {"direction": direction, "max_length": 512, "strategy": "LongestFirst", "stride": 0}
    (tmp_path / "tokenizer.json").write_text(json.dumps(doc), "utf-8")
    config = json.loads((tmp_path / "tokenizer_config.json").read_text("utf-8"))
    config.pop("truncation_side", None)
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config), "utf-8")
    theirs = transformers.AutoTokenizer.from_pretrained(str(tmp_path))
    ours = _implementation(impl).UnigramTokenizer.from_pretrained(tmp_path)
    assert ours.truncation_side == theirs.truncation_side == direction.lower()
    for max_length in (0, 3, 6):
        _compare(ours, theirs, TEXTS, PAIRS, truncation=True, max_length=max_length, **FIELDS)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_the_call_takes_no_truncation_side(directories: dict[str, dict[str, Path]], impl: str) -> None:
    """transformers' call ignores a ``truncation_side`` keyword (the tokenizer's side applies);
    ours refuses it, as any option it does not take, rather than ignore it."""
    ours, theirs = _loaded(directories, "T5Tokenizer", "left", impl)
    left = theirs(TEXTS[0], truncation=True, max_length=4)["input_ids"]
    assert theirs(TEXTS[0], truncation=True, max_length=4, truncation_side="right")["input_ids"] == left
    assert ours(TEXTS[0], truncation=True, max_length=4)["input_ids"] == left
    with pytest.raises(TypeError, match="truncation_side"):
        ours(TEXTS[0], truncation=True, max_length=4, truncation_side="right")


@pytest.mark.parametrize("attribute", ["padding_side", "truncation_side"])
@pytest.mark.parametrize("family", ["PyTokenizer", "UnigramTokenizer"])
def test_a_bad_side_fails_alike_in_engine_and_twin(family: str, attribute: str) -> None:
    """Setting a side to anything but ``"left"`` or ``"right"`` raises the same error, with the
    same words, in the engine and the twin; a str subclass is kept as a plain str."""
    import numpy as np

    import fast_wordpiece
    import fast_wordpiece.reference

    def made(module: Any) -> Any:
        if family == "PyTokenizer":
            return module.PyTokenizer(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a"])
        return module.UnigramTokenizer([("<unk>", -10.0), ("a", -1.0)], unk_token="<unk>")

    tokenizers = [made(fast_wordpiece), made(fast_wordpiece.reference)]
    for value in ["Left", "", 3, None, "left\udc80", b"left"]:
        errors = []
        for tok in tokenizers:
            with pytest.raises((TypeError, ValueError)) as raised:
                setattr(tok, attribute, value)
            errors.append((type(raised.value), str(raised.value)))
        assert errors[0] == errors[1], value
        assert attribute in errors[0][1]
    for tok in tokenizers:
        setattr(tok, attribute, np.str_("left"))
        assert type(getattr(tok, attribute)) is str
        assert getattr(tok, attribute) == "left"
