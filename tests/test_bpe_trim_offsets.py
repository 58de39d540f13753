"""A byte-level BPE tokenizer.json whose ``ByteLevel`` post-processor says ``trim_offsets: true``
(as GPT-NeoX-style files do): ``BPETokenizer`` keeps the setting (and the post-processor's
``add_prefix_space``, which spares a first token's single leading space), writes it back, and
``return_offsets_mapping`` gives what transformers' ``PreTrainedTokenizerFast`` gives on the same
file: the spaces at either end of a token are left out of its offsets. The twin behaves as the
engine."""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

import fast_wordpiece as fw
from fast_wordpiece.reference import bpe as ref_bpe

tokenizers = pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")

EOT = "<|endoftext|>"
#: Runs of spaces, newlines and tabs, other Unicode spaces, accents, CJK (split into bytes),
#: emoji, and the special tokens (one of them with spaces around it).
PARTS = [*"abcdefghij klmnop", "the", " the", "  ", "   ", "\n", "\n\n", "\t", " \t ", "\u3000", "\xa0", "é",
         "ü", "中", "語", "😀", ",", ".", EOT, " <sep> "]  # fmt: skip
MAKERS = {"engine": fw.BPETokenizer, "twin": ref_bpe.BPETokenizer}


def random_texts(start: int, n: int) -> list[str]:
    r = random.Random(start)
    return ["".join(r.choice(PARTS) for _ in range(r.randint(0, 25))) for _ in range(n)]


def post_processor(add_prefix_space: bool) -> dict[str, Any]:
    return {"type": "ByteLevel", "add_prefix_space": add_prefix_space, "trim_offsets": True, "use_regex": True}


@pytest.fixture(scope="module")
def trained(shakespeare_lines: list[str], multilingual_lines: list[str]) -> fw.BPETokenizer:
    return fw.BPETokenizer.train(
        shakespeare_lines[:2000] + multilingual_lines[:400], 600, special_tokens=[EOT, " <sep> "], show_progress=False
    )


@pytest.fixture(scope="module")
def files(trained: fw.BPETokenizer, tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Path]:
    """The trained tokenizer's file with a trimming post-processor, by its ``add_prefix_space``."""
    folder = tmp_path_factory.mktemp("bpe-trim-offsets")
    out = {}
    for keep in (False, True):
        root = json.loads(trained.to_json())
        root["post_processor"] = post_processor(keep)
        out[keep] = folder / f"prefix-{keep}.json"
        out[keep].write_text(json.dumps(root), encoding="utf-8")
    return out


def offsets(tokenizer: Any, texts: list[str]) -> list[list[tuple[int, int]]]:
    result = tokenizer(texts, return_offsets_mapping=True)
    return [[tuple(pair) for pair in row] for row in result["offset_mapping"]]


@pytest.mark.parametrize("keep", [False, True])
@pytest.mark.parametrize("make", ["engine", "twin"])
def test_offsets_are_trimmed_as_transformers_trims_them(
    make: str, keep: bool, files: dict[bool, Path], trained: fw.BPETokenizer
) -> None:
    ours = MAKERS[make].load(files[keep])
    theirs = transformers.PreTrainedTokenizerFast(tokenizer_object=tokenizers.Tokenizer.from_file(str(files[keep])))
    texts = [*random_texts(7, 300), "   ", " ", " a", "  a", "\n\n x", " <sep> a", "a <sep> ", EOT + " hi"]
    assert ours(texts)["input_ids"] == theirs(texts)["input_ids"]
    trimmed = offsets(ours, texts)
    assert trimmed == offsets(theirs, texts)
    # the trimming is real: many tokens lose their spaces, and an all-space token is empty
    untrimmed = offsets(trained, texts)
    assert sum(a != b for row, old in zip(trimmed, untrimmed) for a, b in zip(row, old)) > 300
    assert ours("a   b", return_offsets_mapping=True)["offset_mapping"] == [(0, 1), (3, 3), (4, 5)]
    # a first token's single leading space stays with add_prefix_space
    first = ours(" the", return_offsets_mapping=True)["offset_mapping"][0]
    assert first == ((0, 4) if keep else (1, 4))


@pytest.mark.parametrize("make", ["engine", "twin"])
def test_trimming_is_kept_by_files_pickle_and_copy_and_compared(
    make: str, files: dict[bool, Path], trained: fw.BPETokenizer, tmp_path: Path
) -> None:
    cls = MAKERS[make]
    plain = cls.from_json(trained.to_json())
    assert (plain.trim_offsets, plain.trim_keeps_prefix_space) == (False, False)
    assert json.loads(plain.to_json())["post_processor"]["trim_offsets"] is False
    for keep in (False, True):
        loaded = cls.load(files[keep])
        assert (loaded.trim_offsets, loaded.trim_keeps_prefix_space) == (True, keep)
        assert json.loads(loaded.to_json())["post_processor"] == post_processor(keep)
        loaded.save(tmp_path / "again.json")
        for back in (cls.load(tmp_path / "again.json"), pickle.loads(pickle.dumps(loaded)), copy.deepcopy(loaded)):
            assert back == loaded
            assert (back.trim_offsets, back.trim_keeps_prefix_space) == (True, keep)
        assert loaded != plain
    assert cls.load(files[False]) != cls.load(files[True])
    # absent settings are Hugging Face's ByteLevel defaults (both true); no post-processor trims nothing
    root = json.loads(trained.to_json())
    root["post_processor"] = {"type": "ByteLevel"}
    defaults = cls.from_json(json.dumps(root))
    assert (defaults.trim_offsets, defaults.trim_keeps_prefix_space) == (True, True)
    root["post_processor"] = None
    assert cls.from_json(json.dumps(root)).trim_offsets is False
    root["post_processor"] = post_processor(False) | {"trim_offsets": "yes"}
    with pytest.raises(ValueError, match=r"post_processor\.trim_offsets"):
        cls.from_json(json.dumps(root))
