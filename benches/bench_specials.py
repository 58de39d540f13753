#!/usr/bin/env python3
"""Encoding speed of the family's tokenizers as the number of special tokens
grows: BPE (trained on 20,000 Shakespeare lines to 2,000) and the character
tokenizer, one thread, on 6,000 documents of ten lines each with one special
token inserted per document. MB/s of input (best of 5 warm calls) and the
number of tokens, so that two builds can be checked to agree.

``--python`` runs the same measurement under other interpreters (e.g. a venv
with another build), alternating, in fresh processes::

    python benches/bench_specials.py --specials 3 300 --python /path/to/other/venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))


def child(n_specials: int) -> dict:
    import corpora

    import fast_wordpiece as fw

    lines = [line for line in corpora.shakespeare_text().splitlines() if line.strip()][:60000]
    specials = [f"<|special_{i}|>" for i in range(n_specials)]
    docs = []
    for i in range(0, len(lines), 10):
        doc = " ".join(lines[i : i + 10])
        docs.append(doc + specials[i // 10 % n_specials] + doc[:50])
    nbytes = sum(len(d.encode()) for d in docs)
    out = {}
    tokenizers = {
        "bpe": fw.BPETokenizer.train(lines[:20000], 2000, special_tokens=specials),
        "chars": fw.CharTokenizer.train(lines[:5000], special_tokens=["[UNK]", *specials]),
    }
    for name, tok in tokenizers.items():
        tok.encode_batch(docs, num_threads=1)
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            ids = tok.encode_batch(docs, num_threads=1)
            times.append(time.perf_counter() - t0)
        out[name] = {"mb_per_s": nbytes / min(times) / 1e6, "tokens": sum(map(len, ids))}
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--specials", type=int, nargs="+", default=[3, 300], help="numbers of special tokens (3 300)")
    p.add_argument("--python", action="append", default=[], help="another interpreter to measure (repeatable)")
    p.add_argument("--rounds", type=int, default=2, help="alternating rounds (2)")
    p.add_argument("--child", type=int, help=argparse.SUPPRESS)
    opts = p.parse_args()
    if opts.child is not None:
        print(json.dumps(child(opts.child)))
        return 0
    pythons = [sys.executable, *opts.python]
    print("| specials | tokenizer | " + " | ".join(f"MB/s ({i})" for i in range(len(pythons))) + " | tokens agree |")
    print("|---:|---|" + "---:|" * len(pythons) + "---|")
    for n in opts.specials:
        runs: dict[str, list[list[dict]]] = {}
        for _ in range(opts.rounds):
            for k, python in enumerate(pythons):
                done = subprocess.run([python, __file__, "--child", str(n)], capture_output=True, text=True, check=True)
                for name, r in json.loads(done.stdout).items():
                    runs.setdefault(name, [[] for _ in pythons])[k].append(r)
        for name, per_python in runs.items():
            best = [max(r["mb_per_s"] for r in rs) for rs in per_python]
            agree = len({r["tokens"] for rs in per_python for r in rs}) == 1
            print(f"| {n} | {name} | " + " | ".join(f"{b:.1f}" for b in best) + f" | {'yes' if agree else 'NO'} |")
    for k, python in enumerate(pythons):
        print(f"({k}) {python}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
