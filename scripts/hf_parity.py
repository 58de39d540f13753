#!/usr/bin/env python3
"""Measures how exactly the engine matches Hugging Face on real tokenizer.json files.

For bert-base-uncased's tokenizer.json (from the corpora cache) and every real file in
``../shared/data/hf-tokenizers`` (or ``$FWP_HF_TOKENIZERS``; see its SOURCES.md), it encodes
English lines (Shakespeare, GCIDE), German, Russian and Chinese lines, pairs of them, and up to
1,000 of the lines with the file's added and special tokens written in at random places:

- ``tokenizers``: ``Tokenizer.from_file`` of the same file; ids, tokens, offsets, type ids,
  special-tokens and attention masks, word and sequence ids, and decode (with and without
  special tokens) must be equal;
- ``export``: ``tokenizers`` loading our ``save`` of it, the same fields;
- ``transformers``: ``PreTrainedTokenizerFast(tokenizer_file=our save)``, input ids, type ids,
  special-tokens masks and offsets;
- ``auto``: ``AutoTokenizer.from_pretrained`` of our ``save_pretrained``, the same.

It prints, per file, the inputs checked and the mismatches of each, and exits 1 on any
mismatch. ``--lines N`` sets the lines per language (default 2000). Test data only: it needs
``tokenizers`` and ``transformers`` (``pip install -e .[test]``) and the corpora
(``python scripts/corpora.py fetch``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpora

REPO = Path(__file__).resolve().parent.parent
HF_DIR = Path(os.environ.get("FWP_HF_TOKENIZERS", REPO.parent / "shared" / "data" / "hf-tokenizers"))
REAL = ("baai-bge-small-en", "bert-base-chinese", "bert-base-multilingual-cased", "issue-100")
#: The small configs that load (configs/invalid/ and missing-sep-in-vocab.json are refused).
CONFIGS = ("added-token-order", "minimal", "dont-clean-text", "dont-handle-chinese-chars", "dont-strip-accents")
CONFIGS += ("with-empty-token", "with-single-word-added-token")
FIELDS = ("ids", "tokens", "offsets", "type_ids", "special_tokens_mask", "attention_mask", "word_ids")
FIELDS += ("sequence_ids",)


def fields(e: Any) -> tuple:
    return tuple(tuple(tuple(x) if name == "offsets" else x for x in getattr(e, name)) for name in FIELDS)


def inputs(n: int) -> list[tuple[str, str | None]]:
    """n lines of each language, then as many pairs of them as there are lines of one language."""
    step = lambda lines: lines[:: max(1, len(lines) // n)][:n]  # noqa: E731 (spread over the corpus)
    english = step([x for x in corpora.shakespeare_text().splitlines() if x.strip()])
    english += step(corpora.gcide_lines(max_bytes=8_000_000))
    others = [line for lang in ("de", "ru", "zh") for line in step(corpora.fortune_lines(lang))]
    texts = english + others
    singles: list[tuple[str, str | None]] = [(t, None) for t in texts]
    return singles + list(zip(texts[::2], texts[1::2]))[:n]


def with_added_tokens(lines: list[str], tokens: list[str], seed: int) -> list[str]:
    """The lines with three of the file's added tokens written in each (any case, glued or spaced)."""
    rng = random.Random(seed)
    out = []
    for line in lines:
        words = line.split(" ")
        for _ in range(3):
            token = rng.choice(tokens)
            token = rng.choice([token, token.lower(), token.upper()])
            words.insert(rng.randrange(len(words) + 1), rng.choice(["", " ", "\t"]) + token + rng.choice(["", " "]))
        out.append(rng.choice([" ", ""]).join(words))
    return out


def check(path: Path, batch: list[tuple[str, str | None]], tmp: Path) -> dict[str, tuple[int, int]]:
    import tokenizers
    import transformers

    import fast_wordpiece

    ours = fast_wordpiece.PyTokenizer.from_file(path).no_truncation().no_padding()
    hf = tokenizers.Tokenizer.from_file(str(path))
    added = [t.content for t in hf.get_added_tokens_decoder().values() if t.content]
    singles = [a for a, b in batch if b is None]
    lines = with_added_tokens(singles[:: max(1, len(singles) // 1000)], added, seed=len(added))
    batch = batch + [(line, None) for line in lines]
    hf.no_truncation()
    hf.no_padding()
    ours.save(tmp / "tokenizer.json")
    exported = tokenizers.Tokenizer.from_file(str(tmp / "tokenizer.json"))
    exported.no_truncation()
    exported.no_padding()
    fast = transformers.PreTrainedTokenizerFast(tokenizer_file=str(tmp / "tokenizer.json"))
    ours.save_pretrained(tmp / "model")
    auto = transformers.AutoTokenizer.from_pretrained(str(tmp / "model"))
    items = [a if b is None else (a, b) for a, b in batch]
    mine = ours.encode_batch(items)
    results = {}
    bad = sum(fields(a) != fields(b) for a, b in zip(mine, hf.encode_batch(items)))
    for e in mine[:2000]:
        for skip in (False, True):
            bad += ours.decode(e.ids, skip) != hf.decode(e.ids, skip_special_tokens=skip)
    results["tokenizers"] = (len(batch), bad)
    results["export"] = (len(batch), sum(fields(a) != fields(b) for a, b in zip(mine, exported.encode_batch(items))))
    for name, theirs in (("transformers", fast), ("auto", auto)):
        checked = bad = 0
        for (a, b), e in zip(batch, mine):
            if b is not None and not (a.strip() and b.strip()):
                continue  # transformers refuses a pair with an empty text
            checked += 1
            out = theirs(a, b, return_token_type_ids=True, return_special_tokens_mask=True, return_offsets_mapping=True)
            got = (out["input_ids"], out["token_type_ids"], out["special_tokens_mask"], out["offset_mapping"])
            bad += got != (e.ids, e.type_ids, e.special_tokens_mask, [tuple(o) for o in e.offsets])
        results[name] = (checked, bad)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=2000, help="lines per language (default 2000)")
    args = parser.parse_args()
    files = {"bert-base-uncased": corpora.bert_vocab_path().parent / "tokenizer.json"}
    files.update({name: HF_DIR / name / "tokenizer.json" for name in REAL if (HF_DIR / name).is_dir()})
    files.update({name: HF_DIR / "configs" / f"{name}.json" for name in CONFIGS if (HF_DIR / "configs").is_dir()})
    batch = inputs(args.lines)
    failed = False
    print(
        f"{len(batch):,} inputs per file ({args.lines:,} lines per language, then pairs of them), and "
        "up to 1,000 lines with the file's added and special tokens written in"
    )
    for name, path in files.items():
        with tempfile.TemporaryDirectory() as tmp:
            results = check(path, batch, Path(tmp))
        row = ", ".join(f"{k}: {n:,} checked, {bad} mismatching" for k, (n, bad) in results.items())
        print(f"{name:<30} {row}")
        failed |= any(bad for _, bad in results.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
