#!/usr/bin/env python3
"""Two or more builds of the engine on ``UnigramTokenizer.encode_batch`` of
plain text, side by side in one process.

An 8,000-piece Unigram tokenizer is trained (by the first build) on GCIDE
lines (``scripts/corpora.py``) and saved with the plain ``Metaspace``
pre-tokenizer and no normalizer, the common path; each round encodes
``--lines`` lines with every build in turn (the order rotating), reading
``.ids``, on ``--threads`` threads. Printed: each build's median lines per
second and, for each build after the first, the median of its time against
the first build's in the same round (above 1: slower) with the range. With
``--normalizer``, the file has uncased ALBERT's ``NFKD``, ``StripAccents``
and ``Lowercase`` (the path that copies the text). With
``--whitespace-split``, the last build also encodes the same tokenizer saved
with transformers 5's pre-tokenizer (``WhitespaceSplit`` then ``Metaspace``)
in the same rounds, against its plain file.

Usage::

    python benches/compare_unigram_builds.py before.so after.so [--rounds 7] [--threads 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpora
from compare_builds import load


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("builds", nargs="+", type=Path, help="_native extension files; the first is the base")
    p.add_argument("--lines", type=int, default=60_000)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--whitespace-split", action="store_true", help="also time the last build on that file")
    p.add_argument("--normalizer", action="store_true", help="with uncased ALBERT's normalizer (the copying path)")
    args = p.parse_args(argv)
    modules = [load(b, k) for k, b in enumerate(args.builds)]
    lines = corpora.gcide_lines(max_bytes=12_000_000)[: args.lines]
    trained = modules[0].UnigramTokenizer.train(lines, 8000, show_progress=False)
    text = trained.to_str()
    if args.normalizer:
        doc = json.loads(text)
        doc["normalizer"] = {
            "type": "Sequence",
            "normalizers": [{"type": t} for t in ["NFKD", "StripAccents", "Lowercase"]],
        }
        text = json.dumps(doc)
    toks = [m.UnigramTokenizer.from_str(text) for m in modules]
    names = [b.name for b in args.builds]
    if args.whitespace_split:
        doc = json.loads(text)
        doc["pre_tokenizer"] = {
            "type": "Sequence",
            "pretokenizers": [{"type": "WhitespaceSplit"}, doc["pre_tokenizer"]],
        }
        toks.append(modules[-1].UnigramTokenizer.from_str(json.dumps(doc)))
        names.append(f"{args.builds[-1].name} (WhitespaceSplit file)")
    expected = [e.ids for e in toks[0].encode_batch(lines[:2000])]
    for t in toks[1 : len(args.builds)]:
        assert [e.ids for e in t.encode_batch(lines[:2000])] == expected, "the builds encode differently"
    times: list[list[float]] = [[] for _ in toks]
    for r in range(args.rounds):
        order = list(range(len(toks)))
        order = order[r % len(order) :] + order[: r % len(order)]
        for k in order:
            start = time.perf_counter()
            [e.ids for e in toks[k].encode_batch(lines, num_threads=args.threads)]
            times[k].append(time.perf_counter() - start)
    for k, name in enumerate(names):
        line = f"{name}: {statistics.median(len(lines) / t for t in times[k]):,.0f} lines/s"
        base = 0 if k < len(args.builds) else len(args.builds) - 1
        if k != base:
            ratios = [a / b for a, b in zip(times[k], times[base])]
            line += f", time / {names[base]}'s {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
