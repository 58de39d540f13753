#!/usr/bin/env python3
"""Byte-level BPE against Hugging Face's BPE, training and encoding, side by side.

Corpus: GCIDE (``scripts/corpora.py``) as lines; the first ``--train-mb`` MB
train, the next ``--encode-mb`` MB are encoded. Both sides run on ONE thread
(``RAYON_NUM_THREADS=1``, ``TOKENIZERS_PARALLELISM=false``, set before either
library is imported).

* Training: ``BPETokenizer.train(lines, V, 2)`` against HF's
  ``Tokenizer(BPE())`` with the ``ByteLevel`` pre-tokenizer (GPT-2 style) and
  ``BpeTrainer(vocab_size=V, min_frequency=2, initial_alphabet=ByteLevel.alphabet())``
  trained with ``train_from_iterator(lines)``.
* Encoding (ids only): our trained model, and HF's tokenizer built from the
  same vocabulary and merges; ``encode_batch(lines, num_threads=1)`` against
  HF's ``encode_batch_fast`` (no offsets; ``encode_batch`` on older versions).
  The ids are checked to be identical.

The runs alternate (ours, HF, ours, HF, ... the order flipping each round) so
that the load of a shared machine falls on both alike. Reported: the median
wall time of each, and the median of the per-round ratios HF / ours.

Usage::

    python benches/bench_family.py                  # 3 rounds, 10 MB train, 5 MB encode, vocab 30,000
    python benches/bench_family.py --rounds 5 --train-mb 20
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ["RAYON_NUM_THREADS"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import corpora
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

import fast_wordpiece


def lines_of(max_bytes: int, skip_bytes: int = 0) -> list[str]:
    text = corpora.gcide_path().read_bytes()[skip_bytes : skip_bytes + max_bytes].decode("utf-8", errors="replace")
    return text.splitlines()


def hf_empty() -> Tokenizer:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    return tok


def hf_train(lines: list[str], vocab_size: int) -> Tokenizer:
    tok = hf_empty()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=2,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=["<|endoftext|>"],
        show_progress=False,
    )
    tok.train_from_iterator(lines, trainer)
    return tok


def timed(work):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = work()
    return result, time.perf_counter() - started


def rounds(n: int, ours, theirs) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    a, b = [], []
    for r in range(n):
        order = [(ours, a), (theirs, b)] if r % 2 == 0 else [(theirs, b), (ours, a)]
        for work, times in order:
            times.append(timed(work)[1])
    return a, b


def report(what: str, ours: list[float], theirs: list[float]) -> None:
    ratios = [t / o for o, t in zip(ours, theirs)]
    print(
        f"{what:<22} ours {statistics.median(ours):8.3f} s   HF {statistics.median(theirs):8.3f} s   "
        f"HF/ours {statistics.median(ratios):6.2f}x  (per round: {', '.join(f'{x:.2f}' for x in ratios)})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--train-mb", type=float, default=10)
    parser.add_argument("--encode-mb", type=float, default=5)
    parser.add_argument("--vocab-size", type=int, default=30_000)
    args = parser.parse_args()
    train = lines_of(int(args.train_mb * 1e6))
    held = lines_of(int(args.encode_mb * 1e6), skip_bytes=int(args.train_mb * 1e6))
    print(
        f"fast_wordpiece {fast_wordpiece.__version__}, tokenizers {__import__('tokenizers').__version__}; one thread;"
        f" train {args.train_mb} MB ({len(train):,} lines) to vocab {args.vocab_size:,};"
        f" encode {args.encode_mb} MB ({len(held):,} lines); {args.rounds} rounds"
    )
    ours_t, hf_t = rounds(
        args.rounds,
        lambda: fast_wordpiece.BPETokenizer.train(train, args.vocab_size, 2),
        lambda: hf_train(train, args.vocab_size),
    )
    report("training", ours_t, hf_t)
    ours = fast_wordpiece.BPETokenizer.train(train, args.vocab_size, 2)
    hf = hf_empty()
    hf.model = models.BPE(vocab=ours.get_vocab(), merges=ours.merges)
    hf_encode = getattr(hf, "encode_batch_fast", hf.encode_batch)
    same = [e.ids for e in hf_encode(held)] == ours.encode_batch(held, num_threads=1)
    ours_e, hf_e = rounds(args.rounds, lambda: ours.encode_batch(held, num_threads=1), lambda: hf_encode(held))
    report("encoding (ids)", ours_e, hf_e)
    mb = args.encode_mb / statistics.median(ours_e)
    print(f"encoding throughput: ours {mb:.1f} MB/s; ids identical to HF: {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
