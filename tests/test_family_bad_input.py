"""Bad input to the rest of the family (BPE, characters, Unigram): clear errors.

Huge sizes train normally or give MemoryError, text that is not valid Unicode
and files that are not UTF-8 are ValueErrors naming the problem, missing files
are OSErrors; nothing reaches Python as an internal error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

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
