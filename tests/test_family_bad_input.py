"""Bad input to the rest of the family (BPE, characters, Unigram): clear errors.

Huge sizes train normally or give MemoryError, text that is not valid Unicode
and files that are not UTF-8 are ValueErrors naming the problem, missing files
are OSErrors; nothing reaches Python as an internal error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from implementations import outcome

import fast_wordpiece as fw
from fast_wordpiece import reference

TEXTS = ["hello world", "the quick brown fox", "hello there"] * 20

FAMILY: dict[str, tuple[Any, dict[str, Any]]] = {
    "bpe": (fw.BPETokenizer, {"special_tokens": ["<pad>"]}),
    "chars": (fw.CharTokenizer, {"special_tokens": ["[UNK]", "<pad>"]}),
    "unigram": (fw.UnigramTokenizer, {"special_tokens": ["<unk>", "<pad>"]}),
}


@pytest.fixture(params=sorted(FAMILY))
def family(request: pytest.FixtureRequest) -> tuple[Any, dict[str, Any]]:
    return FAMILY[request.param]


def test_huge_vocab_size_trains_what_the_corpus_holds(family: tuple[Any, dict[str, Any]]) -> None:
    cls, options = family
    small = cls.train(TEXTS, 40, **options)
    huge = cls.train(TEXTS, 2**62, **options)
    assert huge.vocab_size >= small.vocab_size
    assert huge.decode(huge.encode("hello world") if cls is not fw.UnigramTokenizer else huge.encode("hello world").ids)
    with pytest.raises(ValueError, match="vocab_size"):
        cls.train(TEXTS, 2**64, **options)


@pytest.mark.parametrize("size", [2**62, 2**63, 2**64 - 1])
def test_padding_to_impossible_lengths_is_a_memory_error(family: tuple[Any, dict[str, Any]], size: int) -> None:
    cls, options = family
    tok = cls.train(TEXTS, 40, **options)
    with pytest.raises(MemoryError, match="cannot fit"):
        tok(["hello"], padding="max_length", max_length=size)
    with pytest.raises(MemoryError, match="cannot fit"):
        tok(["hello"], padding=True, pad_to_multiple_of=size)


def test_text_that_is_not_unicode(family: tuple[Any, dict[str, Any]]) -> None:
    cls, options = family
    tok = cls.train(TEXTS, 40, **options)
    twin = getattr(reference, cls.__name__).train(TEXTS, 40, **options)
    for either in (tok, twin):
        for call in [either.encode, *([either.tokenize] if hasattr(tok, "tokenize") else [])]:
            with pytest.raises(ValueError, match=r"text contains a lone surrogate at index 1"):
                call("a\ud800b")
    with pytest.raises(ValueError, match=r"corpus\[1\].*lone surrogate"):
        cls.train(["fine", "a\udfffb"], 40, **options)


def test_files_missing_or_not_utf8(family: tuple[Any, dict[str, Any]], tmp_path: Path) -> None:
    cls, options = family
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("hello caf\u00e9\n".encode("latin-1"))
    with pytest.raises(FileNotFoundError, match=r"missing\.txt"):
        cls.train_from_files([str(tmp_path / "missing.txt")], 40, **options)
    with pytest.raises(ValueError, match=r"latin1\.txt: not UTF-8 text \(invalid byte at offset 9\)"):
        cls.train_from_files([str(bad)], 40, **options)
    with pytest.raises(FileNotFoundError, match=r"missing\.json"):
        cls.load(str(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match=r"latin1\.txt: not UTF-8 text \(invalid byte at offset 9\)"):
        cls.load(str(bad))


@pytest.fixture(params=[fw, reference], ids=["engine", "twin"])
def module(request: pytest.FixtureRequest) -> Any:
    return request.param


def _wordpiece_file(path: Path, change: Any = None) -> Path:
    """A WordPiece ``tokenizer.json`` (the engine's), changed by ``change``."""
    fw.PyTokenizer.train(TEXTS, 60, show_progress=False).save(str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    if change is not None:
        change(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", ["BPETokenizer", "CharTokenizer", "UnigramTokenizer"])
@pytest.mark.parametrize("text", ["", "{not json", "[1, 2"], ids=["empty", "a bad key", "cut short"])
def test_a_file_that_is_not_json_is_a_value_error_naming_it(module: Any, tmp_path: Path, kind: str, text: str) -> None:
    """The reason after ``not valid JSON:`` is the parser's own (serde's, Python's json)."""
    path = tmp_path / "tokenizer.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=f"^{re.escape(str(path))}: not valid JSON: ."):
        getattr(module, kind).load(str(path))


def test_bpe_checks_a_wordpiece_tokenizer_json_in_the_engines_order(module: Any, tmp_path: Path) -> None:
    """The normalizer first, then the pre-tokenizer, the decoder, ... (spec section 15): each
    change below mends the problem named before it."""
    changes: list[dict[str, Any]] = [
        {},
        {"normalizer": None},
        {"pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": 0}},
        {"pre_tokenizer": {"type": "ByteLevel"}},
        {"decoder": None},
        {"post_processor": None, "truncation": {"max_length": 5}},
        {"truncation": None},
    ]
    messages = [
        "normalizer: a normalizer is not supported with byte-level BPE",
        'pre_tokenizer: "BertPreTokenizer" is not supported (only ByteLevel)',
        "pre_tokenizer.add_prefix_space: 0 is not supported (only false)",
        'decoder: "WordPiece" is not supported (only ByteLevel)',
        "post_processor: only ByteLevel, RobertaProcessing (or none) is supported",
        "truncation: not supported with byte-level BPE",
        'model.type: "WordPiece" is not supported (only "BPE")',
    ]
    made: dict[str, Any] = {}
    for change, message in zip(changes, messages):
        made |= change
        path = _wordpiece_file(tmp_path / "tokenizer.json", lambda d, made=dict(made): d.update(made))
        assert outcome(lambda path=path: module.BPETokenizer.load(str(path))) == ("ValueError", f"{path}: {message}")


def test_a_char_tokenizer_load_names_the_file(module: Any, tmp_path: Path) -> None:
    path = _wordpiece_file(tmp_path / "tokenizer.json")
    assert outcome(lambda: module.CharTokenizer.load(str(path))) == (
        "ValueError", f'{path}: type: expected "CharTokenizer"')  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        (..., 'the model has no "type" (expected "Unigram")'),
        (None, 'the model has no "type" (expected "Unigram")'),
        (5, 'the model\'s "type" is not a str (expected "Unigram")'),
        ("", 'the model is "", not "Unigram"'),
        ("Word\x01Piece", 'the model is "Word\\u0001Piece", not "Unigram"'),
    ],
    ids=["missing", "null", "a number", "empty", "a control character"],
)
def test_a_unigram_file_whose_model_has_no_type_says_so(module: Any, tmp_path: Path, kind: Any, message: str) -> None:
    def change(doc: dict[str, Any]) -> None:
        del doc["model"]["type"]
        if kind is not ...:
            doc["model"]["type"] = kind

    path = _wordpiece_file(tmp_path / "tokenizer.json", change)
    assert outcome(lambda: module.UnigramTokenizer.from_file(str(path))) == ("ValueError", f"{path}: {message}")
