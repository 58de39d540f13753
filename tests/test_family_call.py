"""The transformers call API of BPETokenizer, CharTokenizer and UnigramTokenizer:
``tokenizer(text, padding=..., truncation=..., max_length=..., return_tensors=...)`` gives
what transformers' ``PreTrainedTokenizerFast(tokenizer_object=Tokenizer.from_file(saved))``
gives with the same arguments, the twins give what the engine gives, and bad input raises."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from implementations import call_fields as outcome

import fast_wordpiece as fw
from fast_wordpiece.batch_encoding import BatchEncoding
from fast_wordpiece.reference import bpe as ref_bpe
from fast_wordpiece.reference import chars as ref_chars
from fast_wordpiece.reference import unigram as ref_unigram

np = pytest.importorskip("numpy")
tokenizers = pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")

PAD = "<pad>"
PADDINGS: list[Any] = [False, True, "longest", "max_length"]
TRUNCATIONS: list[Any] = [None, False, True]
MAX_LENGTHS = [None, 7, 24]
MULTIPLES = [None, 8]
TENSORS = [None, "np"]
#: Every combination of the arguments above.
COMBINATIONS = list(itertools.product(PADDINGS, TRUNCATIONS, MAX_LENGTHS, MULTIPLES, TENSORS))


@pytest.fixture(scope="module")
def lines(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[str]:
    """Forty real held-out lines of different lengths, and an empty one."""
    return [t for t in shakespeare_lines[-300:] if t.strip()][:24] + multilingual_lines[-16:] + [""]


@pytest.fixture(scope="module")
def training(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[str]:
    return shakespeare_lines[:4000] + multilingual_lines[:800]


@pytest.fixture(scope="module")
def family(training: list[str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any, Any]]:
    """Each tokenizer with a padding token: (engine, twin, transformers' tokenizer of its saved file)."""
    folder = tmp_path_factory.mktemp("family-call")
    bpe = fw.BPETokenizer.train(training, 1200, special_tokens=["<|endoftext|>", PAD])
    unigram = fw.UnigramTokenizer.train(training, 1200, special_tokens=["<unk>", PAD, "<s>", "</s>"])
    chars = fw.CharTokenizer.train(training, special_tokens=["[UNK]", "[PAD]"])
    out: dict[str, tuple[Any, Any, Any]] = {}
    for name, engine, twin in [
        ("bpe", bpe, ref_bpe.BPETokenizer.from_json(bpe.to_json())),
        ("unigram", unigram, ref_unigram.UnigramTokenizer(unigram.get_pieces(), special_tokens=unigram.special_tokens)),
    ]:
        path = folder / f"{name}.json"
        engine.save(path)
        hf = transformers.PreTrainedTokenizerFast(
            tokenizer_object=tokenizers.Tokenizer.from_file(str(path)),
            pad_token=PAD,
            model_input_names=["input_ids", "attention_mask"],
        )
        out[name] = (engine, twin, hf)
    out["chars"] = (chars, ref_chars.CharTokenizer.from_json(chars.to_json()), None)
    return out


@pytest.mark.filterwarnings("ignore:`max_length` is ignored")
@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_calls_match_transformers_on_real_lines(name: str, family: dict[str, Any], lines: list[str]) -> None:
    engine, _, hf = family[name]
    mismatches, compared, raised = [], 0, 0
    for padding, truncation, max_length, multiple, tensors in COMBINATIONS:
        kwargs = dict(padding=padding, truncation=truncation, max_length=max_length, pad_to_multiple_of=multiple,
                      return_tensors=tensors)  # fmt: skip
        for text in [lines, lines[0], lines[-2]]:
            ours, theirs = outcome(engine, text, **kwargs), outcome(hf, text, **kwargs)
            compared += 1
            raised += isinstance(theirs, tuple)
            if ours != theirs:
                mismatches.append((kwargs, text if isinstance(text, str) else "batch", ours, theirs))
    assert compared == len(COMBINATIONS) * 3
    assert 0 < raised < compared // 4  # transformers refuses a few combinations, and so do we
    assert not mismatches, mismatches[:2]
    # and a non-trivial result was among them
    batch = engine(lines, padding=True, truncation=True, max_length=24, return_tensors="np")
    assert isinstance(batch, BatchEncoding)
    assert batch["input_ids"].shape == (len(lines), 24)
    assert batch["attention_mask"][-1].sum() == 0


@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_attention_mask_token_type_ids_and_length_as_transformers(
    name: str, family: dict[str, Any], lines: list[str]
) -> None:
    engine, _, hf = family[name]
    for kwargs in [
        {"return_attention_mask": False, "padding": True},
        {"return_token_type_ids": True, "padding": "max_length", "max_length": 30, "truncation": True},
        {"return_length": True},
        {"padding": True, "padding_side": "left"},
        {"add_special_tokens": False, "padding": True},
        {"max_length": 5},  # max_length alone truncates, as in transformers
    ]:
        assert outcome(engine, lines, **kwargs) == outcome(hf, lines, **kwargs), kwargs
    assert len(engine) == len(hf) == engine.vocab_size
    ids = engine(lines[0])["input_ids"]
    assert engine.convert_ids_to_tokens(ids) == hf.convert_ids_to_tokens(ids)
    assert engine.convert_ids_to_tokens(ids[0]) == hf.convert_ids_to_tokens(ids[0])
    tokens = [*engine.convert_ids_to_tokens(ids), "not-a-token-at-all"]
    unk = engine.token_to_id(engine.unk_token) if engine.unk_token else None
    assert engine.convert_tokens_to_ids(tokens) == [*hf.convert_tokens_to_ids(tokens)[:-1], unk]
    assert engine.convert_tokens_to_ids(PAD) == hf.convert_tokens_to_ids(PAD) == hf.pad_token_id


@pytest.mark.parametrize("name", ["bpe", "unigram", "chars"])
def test_the_twins_call_like_the_engine(name: str, family: dict[str, Any], lines: list[str]) -> None:
    engine, twin, _ = family[name]
    for padding, truncation, max_length, multiple, tensors in COMBINATIONS:
        kwargs = dict(padding=padding, truncation=truncation, max_length=max_length, pad_to_multiple_of=multiple,
                      return_tensors=tensors)  # fmt: skip
        assert outcome(engine, lines, **kwargs) == outcome(twin, lines, **kwargs), kwargs
    assert len(engine) == len(twin)
    ids = engine.encode(lines[0]) if name != "unigram" else engine.encode(lines[0]).ids
    assert engine.convert_ids_to_tokens(ids, skip_special_tokens=True) == twin.convert_ids_to_tokens(ids, True)
    tokens = [*engine.convert_ids_to_tokens(ids), "not-a-token-at-all"]
    assert engine.convert_tokens_to_ids(tokens) == twin.convert_tokens_to_ids(tokens)


def test_char_tokenizer_pads_with_its_pad_token(family: dict[str, Any], lines: list[str]) -> None:
    chars = family["chars"][0]
    batch = chars(lines[:5], padding=True, truncation=True, max_length=12)
    pad = chars.token_to_id("[PAD]")
    for text, ids, mask in zip(lines[:5], batch["input_ids"], batch["attention_mask"]):
        real = chars.encode(text)[:12]
        assert ids == real + [pad] * (len(ids) - len(real))
        assert mask == [1] * len(real) + [0] * (len(ids) - len(real))
    assert {len(ids) for ids in batch["input_ids"]} == {max(min(len(chars.encode(t)), 12) for t in lines[:5])}


def test_bad_calls_raise_clear_errors(family: dict[str, Any], training: list[str], tmp_path: Path) -> None:
    no_pad = fw.BPETokenizer.train(training[:500], 400)
    with pytest.raises(ValueError, match="no padding token"):
        no_pad(["a", "bb"], padding=True)
    assert no_pad(["a", "bb"])["input_ids"] == no_pad.encode_batch(["a", "bb"])
    engine = family["bpe"][0]
    with pytest.raises(ValueError, match=r"^CharTokenizer takes single texts: text_pair must be None$"):
        family["chars"][0]("a", "b")
    # a byte-level BPE with no template puts a pair's texts one after the other, as Hugging Face
    assert engine("a", "b")["input_ids"] == engine.encode("a") + engine.encode("b")
    with pytest.raises(TypeError, match=r"text\[1\]"):
        engine(["a", 3])
    with pytest.raises(TypeError, match="text must be"):
        engine(3)
    with pytest.raises(ValueError, match="padding must be"):
        engine("a", padding="sideways")
    with pytest.raises(ValueError, match="return_tensors"):
        engine("a", return_tensors="tf")
    with pytest.raises(ValueError, match="max_length"):
        engine("a", max_length=-1)
    with pytest.raises(ValueError, match="pad_to_multiple_of"):
        engine(["a"], padding=True, pad_to_multiple_of=-1)
    assert engine.convert_ids_to_tokens([engine.vocab_size]) == [None]  # as transformers' id_to_token
    with pytest.raises(ValueError, match=r"^ids\[0\] = -1 is not a token id"):
        engine.convert_ids_to_tokens([-1])
    with pytest.raises(TypeError, match="tokens"):
        engine.convert_tokens_to_ids(5)
