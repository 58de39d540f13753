#!/usr/bin/env python3
"""Unigram training against the ``sentencepiece`` package's unigram trainer,
side by side in one run: training time and held-out tokens per word.

The corpus is all of Shakespeare (``scripts/corpora.py``), or with
``--corpus fortunes`` the fortunes in German, Russian, Chinese and English,
as lines; every
tenth line is held out, the rest is the training text. Both train to the same
vocabulary size (special tokens included: ``<unk>``, ``<s>``, ``</s>``) at
the same thread count. sentencepiece runs with ``normalization_rule_name=
"identity"`` and ``remove_extra_whitespaces=False`` (we do not normalize) and
``character_coverage=1.0`` (we keep every character), in two settings:
"like for like" with ``split_by_unicode_script=False`` and
``split_by_number=False`` (ours lets a piece hold letters, digits and
punctuation together, as in "▁Fran."), and its defaults for those two, which
forbid such pieces. Everything else is its default (seed size 1,000,000,
shrinking 0.75, two EM iterations, pieces up to 16 characters, as ours).

Tokens per word: the pieces each encodes the held-out lines into, over the
whitespace-separated words of those lines. Wall time is the training call
only; each trainer runs ``--rounds`` times, alternating, and the median is
reported; the speed-up is the median of the per-round ratios (which cancels
most of a shared machine's load).

Usage::

    python benches/bench_unigram.py                 # vocab 8000, 2 threads, 3 rounds
    python benches/bench_unigram.py --vocab 16000 --threads 1 --rounds 1
    python benches/bench_unigram.py --corpus fortunes --vocab 16000   # de/ru/zh/en
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))


CACHE = Path(os.path.expanduser("~/.cache/fast-wordpiece"))


def load_lines(corpus: str = "shakespeare") -> list[str]:
    """The non-blank lines of all of Shakespeare, or of the fortunes in
    German, Russian, Chinese and English (files in sorted order)."""
    languages = ["de", "ru", "zh", "en"]
    roots = [CACHE / "shakespeare"] if corpus == "shakespeare" else [CACHE / f"fortunes-{x}" for x in languages]
    lines: list[str] = []
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix not in (".json", ".dat")):
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            lines.extend(line for line in text.splitlines() if line.strip())
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vocab", type=int, default=8000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--corpus", choices=["shakespeare", "fortunes"], default="shakespeare")
    args = ap.parse_args()
    os.environ["RAYON_NUM_THREADS"] = str(args.threads)

    import sentencepiece as spm

    import fast_wordpiece as fw

    lines = load_lines(args.corpus)
    train = [line for i, line in enumerate(lines) if i % 10 != 0]
    held = [line for i, line in enumerate(lines) if i % 10 == 0]
    words = sum(len(line.split()) for line in held)
    print(
        f"corpus: {args.corpus}, {len(train):,} training lines ({sum(map(len, train)) / 1e6:.1f} M chars), "
        f"{len(held):,} held-out lines ({words:,} words); vocab {args.vocab}, {args.threads} thread(s)"
    )

    settings = {
        "spm like-for-like": {"split_by_unicode_script": False, "split_by_number": False},
        "spm defaults": {},
    }
    times: dict[str, list[float]] = {"fast_wordpiece": [], **{name: [] for name in settings}}
    tokens: dict[str, int] = {}
    vocab: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            t = time.perf_counter()
            ours = fw.UnigramTokenizer.train(train, args.vocab)
            times["fast_wordpiece"].append(time.perf_counter() - t)
            tokens["fast_wordpiece"] = sum(len(e) for e in ours.encode_batch(held))
            vocab["fast_wordpiece"] = ours.vocab_size
            for name, extra in settings.items():
                prefix = str(Path(tmp) / name.replace(" ", "_"))
                t = time.perf_counter()
                spm.SentencePieceTrainer.train(
                    sentence_iterator=iter(train),
                    model_prefix=prefix,
                    model_type="unigram",
                    vocab_size=args.vocab,
                    character_coverage=1.0,
                    normalization_rule_name="identity",
                    remove_extra_whitespaces=False,
                    num_threads=args.threads,
                    minloglevel=2,
                    **extra,
                )
                times[name].append(time.perf_counter() - t)
                sp = spm.SentencePieceProcessor(model_file=prefix + ".model")
                tokens[name] = sum(len(ids) for ids in sp.encode(held))
                vocab[name] = sp.get_piece_size()

    print(f"{'':20}{'train (s)':>10}{'vocab':>7}{'tokens/word':>13}{'our speedup':>13}{'our tokens':>12}")
    for name in times:
        med = statistics.median(times[name])
        ratio = tokens["fast_wordpiece"] / tokens[name]
        speedup = statistics.median(t / o for t, o in zip(times[name], times["fast_wordpiece"]))
        print(
            f"{name:20}{med:>10.2f}{vocab[name]:>7}{tokens[name] / words:>13.4f}"
            f"{speedup:>12.2f}x{(ratio - 1) * 100:>+11.2f}%"
        )


if __name__ == "__main__":
    main()
