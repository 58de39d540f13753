"""A BPE or Unigram tokenizer.json whose added tokens have ids past the model's vocabulary (what
``tokenizers.Tokenizer.add_special_tokens(["<pad>"])`` then ``save`` writes) loads as Hugging
Face's added vocabulary reads it: the tokens keep their ids and are split out of the text before
the model, so ids, decoding and padding agree with ``tokenizers`` and ``transformers``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import fast_wordpiece as fw
from fast_wordpiece.reference import bpe as ref_bpe

tokenizers = pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")

ADDED = ["<pad>", "<mask>"]
PIECES = [*"ab cdéü中<>|", "<pad>", "<mask>", "<|endoftext|>", "<pa", "mask>", "\n"]


def texts(start: int, n: int) -> list[str]:
    r = random.Random(start)
    return ["".join(r.choice(PIECES) for _ in range(r.randint(0, 24))) for _ in range(n)]


@pytest.fixture(scope="module")
def files(shakespeare_lines: list[str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each kind's file as tokenizers writes it after adding "<pad>" and "<mask>"."""
    folder = tmp_path_factory.mktemp("added-beyond")
    out = {}
    for name, tok in [
        ("bpe", fw.BPETokenizer.train(shakespeare_lines[:2000], 500, special_tokens=["<|endoftext|>"])),
        ("unigram", fw.UnigramTokenizer.train(shakespeare_lines[:2000], 300, special_tokens=["<unk>"])),
    ]:
        tok.save(folder / f"{name}.json")
        hf = tokenizers.Tokenizer.from_file(str(folder / f"{name}.json"))
        hf.add_special_tokens(ADDED)
        hf.save(str(folder / f"{name}-added.json"))
        out[name] = folder / f"{name}-added.json"
    return out


def ids_of(encoding: Any) -> list[int]:
    return encoding if isinstance(encoding, list) else list(encoding.ids)


@pytest.mark.parametrize(("name", "cls"), [("bpe", fw.BPETokenizer), ("unigram", fw.UnigramTokenizer)])
def test_added_tokens_past_the_model_load_and_encode_as_tokenizers(name: str, cls: Any, files: dict[str, Path],
                                                                   tmp_path: Path) -> None:  # fmt: skip
    hf = tokenizers.Tokenizer.from_file(str(files[name]))
    model_size = len(json.loads(files[name].read_text(encoding="utf-8"))["model"]["vocab"])
    ours = cls.load(files[name])
    assert ours.vocab_size == hf.get_vocab_size() == model_size + 2
    assert [ours.token_to_id(t) for t in ADDED] == [hf.token_to_id(t) for t in ADDED] == [model_size, model_size + 1]
    assert ours.special_tokens[-2:] == ADDED
    for text in texts(1, 600):
        ids = ids_of(ours.encode(text))
        assert ids == hf.encode(text).ids, text
        assert ours.decode(ids) == hf.decode(ids, skip_special_tokens=False)
        assert ours.decode(ids, skip_special_tokens=True) == hf.decode(ids)
    # written back, tokenizers reads the same tokenizer, and so do we
    ours.save(tmp_path / "again.json")
    again = tokenizers.Tokenizer.from_file(str(tmp_path / "again.json"))
    for text in texts(2, 100):
        assert again.encode(text).ids == hf.encode(text).ids
    assert cls.load(tmp_path / "again.json") == ours


@pytest.mark.parametrize(("name", "cls"), [("bpe", fw.BPETokenizer), ("unigram", fw.UnigramTokenizer)])
def test_the_added_pad_token_pads_as_transformers(name: str, cls: Any, files: dict[str, Path]) -> None:
    ours = cls.load(files[name])
    hf = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizers.Tokenizer.from_file(str(files[name])),
        pad_token="<pad>",
        model_input_names=["input_ids", "attention_mask"],
    )
    batch = texts(3, 8)
    assert ours.pad_token_id == hf.pad_token_id == ours.token_to_id("<pad>")
    assert dict(ours(batch, padding=True)) == dict(hf(batch, padding=True))


def test_the_bpe_twin_reads_the_same_file(files: dict[str, Path]) -> None:
    engine = fw.BPETokenizer.load(files["bpe"])
    twin = ref_bpe.BPETokenizer.load(files["bpe"])
    assert [twin.encode(t) for t in texts(4, 200)] == [engine.encode(t) for t in texts(4, 200)]
    assert twin.vocab_size == engine.vocab_size


@pytest.mark.parametrize("load", [fw.BPETokenizer.from_json, ref_bpe.BPETokenizer.from_json])
def test_an_added_byte_past_the_bpe_model_is_refused(load: Any, files: dict[str, Path]) -> None:
    """One character of the byte-level alphabet would be read as that byte by the model."""
    doc = json.loads(files["bpe"].read_text(encoding="utf-8"))
    doc["added_tokens"][-1]["content"] = "Ā"
    with pytest.raises(ValueError, match=r"^added_tokens\[2\]: .Ā. has an id past the model's vocabulary, but is a"):
        load(json.dumps(doc))


def test_added_tokens_with_a_gap_are_refused(files: dict[str, Path]) -> None:
    doc = json.loads(files["bpe"].read_text(encoding="utf-8"))
    doc["added_tokens"][-1]["id"] += 1
    with pytest.raises(ValueError, match=r"added_tokens\[2\]"):
        fw.BPETokenizer.from_json(json.dumps(doc))
    doc = json.loads(files["unigram"].read_text(encoding="utf-8"))
    doc["added_tokens"][-1]["id"] += 1
    with pytest.raises(ValueError, match="<mask>"):
        fw.UnigramTokenizer.from_str(json.dumps(doc))
