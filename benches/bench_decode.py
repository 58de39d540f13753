#!/usr/bin/env python3
"""Decoding speed against HF: ``decode_batch`` of many short sequences (one
per GCIDE line, cut to ``--short-ids`` ids) and of few long ones (a thousand
lines each), bert-base-uncased's vocabulary, one process, side by side.

Seconds are the fastest of ``--repeat`` calls; "HF / ours" above 1 means
ours is faster. The texts must agree with HF's backend (``tokenizers``)
exactly, or the row says so::

    python benches/bench_decode.py [--sequences 300000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))


def fastest(decode_batch: Callable[..., list[str]], batch: list[list[int]], repeat: int) -> tuple[float, list[str]]:
    """The fastest of ``repeat`` calls of ``decode_batch(batch)`` and the last call's output."""
    best = float("inf")
    out: list[str] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = decode_batch(batch, skip_special_tokens=True)
        best = min(best, time.perf_counter() - t0)
    return best, out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sequences", type=int, default=300_000, help="short sequences (300000)")
    p.add_argument("--short-ids", type=int, default=9, help="ids per short sequence (9)")
    p.add_argument("--repeat", type=int, default=5, help="calls per measurement; the fastest counts (5)")
    opts = p.parse_args()

    import corpora
    from tokenizers import Tokenizer

    import fast_wordpiece as fw

    vocab = corpora.bert_vocab_path()
    ours = fw.PyTokenizer.from_file(str(vocab.parent / "tokenizer.json"))
    hf = Tokenizer.from_file(str(vocab.parent / "tokenizer.json"))
    hf.no_padding()
    lines = [line for line in corpora.gcide_lines() if line.strip()]
    ids = [e.ids for e in hf.encode_batch(lines[: opts.sequences], add_special_tokens=False)]
    short = [s[: opts.short_ids] for s in ids if s]
    long = [list(itertools.chain.from_iterable(ids[i : i + 1000])) for i in range(0, len(ids), 1000)]

    print("| batch | sequences | ids | ours (s) | HF tokenizers (s) | HF / ours | texts agree |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, batch in (("short", short), ("long", long)):
        n_ids = sum(map(len, batch))
        t_ours, out_ours = fastest(ours.decode_batch, batch, opts.repeat)
        t_hf, out_hf = fastest(hf.decode_batch, batch, opts.repeat)
        agree = "yes" if out_ours == out_hf else "NO"
        print(f"| {name} | {len(batch):,} | {n_ids:,} | {t_ours:.3f} | {t_hf:.3f} | {t_hf / t_ours:.2f} | {agree} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
