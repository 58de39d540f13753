#!/usr/bin/env python3
"""transformers' call against ours: the same call on the same documents, side by side.

``tokenizer(batch, padding=True, truncation=True, max_length=512, return_tensors="np")`` on
~1 KB documents (English: Shakespeare; multilingual: German, Russian and Chinese fortunes) with
bert-base-uncased's files, for ``transformers.BertTokenizerFast`` and for
``fast_wordpiece.PyTokenizer`` (``model_max_length`` 512 on both). One process per thread
setting (``RAYON_NUM_THREADS`` sets both libraries' threads); within it the two tokenizers
alternate rep by rep, so a noisy machine slows them alike. Every rep checks that the arrays are
equal. Prints MB/s of UTF-8 input and the ratio (the median of each rep's ratio).

Usage::

    python benches/bench_call.py [--seconds 10] [--docs 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
sys.path.insert(0, str(SCRIPTS))


def documents(n: int, target: int = 1000) -> dict[str, list[str]]:
    import corpora

    def pack(lines: list[str], count: int) -> list[str]:
        docs, current = [], ""
        for line in (line for line in lines if line.strip()):
            current = f"{current} {line}" if current else line
            if len(current) >= target:
                docs.append(current)
                current = ""
                if len(docs) == count:
                    break
        return docs

    english = pack(corpora.shakespeare_text().splitlines(), n)
    multilingual = [d for lang in ("de", "ru", "zh") for d in pack(corpora.fortune_lines(lang), n // 3 + 1)][:n]
    return {"english": english, "multilingual": multilingual}


def child(seconds: float, n: int) -> dict[str, Any]:
    import corpora
    import numpy as np

    from fast_wordpiece import PyTokenizer

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from transformers import BertTokenizerFast

        theirs = BertTokenizerFast.from_pretrained(str(corpora.bert_vocab_path().parent))
    ours = PyTokenizer.from_vocab_file(str(corpora.bert_vocab_path()))
    theirs.model_max_length = ours.model_max_length = 512
    kwargs = {"padding": True, "truncation": True, "max_length": 512, "return_tensors": "np"}
    out: dict[str, Any] = {}
    for name, docs in documents(n).items():
        size = sum(len(d.encode()) for d in docs)
        times: dict[str, list[float]] = {"ours": [], "transformers": []}
        start = time.perf_counter()
        while time.perf_counter() - start < seconds or len(times["ours"]) < 3:
            results = {}
            for who, tok in (("ours", ours), ("transformers", theirs)):
                t0 = time.perf_counter()
                results[who] = tok(docs, **kwargs)
                times[who].append(time.perf_counter() - t0)
            for key in results["transformers"]:
                assert np.array_equal(results["ours"][key], results["transformers"][key]), (name, key)
        ratios = [t / o for o, t in zip(times["ours"], times["transformers"])]
        out[name] = {
            "mb": size / 1e6,
            "ours_mb_s": size / 1e6 / statistics.median(times["ours"]),
            "transformers_mb_s": size / 1e6 / statistics.median(times["transformers"]),
            "ratio": statistics.median(ratios),
            "reps": len(ratios),
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="alternate this long per set")
    parser.add_argument("--docs", type=int, default=2000, help="documents per set")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.child:
        print(json.dumps(child(opts.seconds, opts.docs)))
        return 0
    rows = []
    for threads in ("1", str(os.cpu_count() or 1)):
        env = dict(os.environ, RAYON_NUM_THREADS=threads, TOKENIZERS_PARALLELISM="true")
        command = [sys.executable, __file__, "--child", "--seconds", str(opts.seconds), "--docs", str(opts.docs)]
        result = json.loads(subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout)
        rows += [(name, threads, r) for name, r in result.items()]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; tokenizer(batch, padding=True, truncation=True, "
          "max_length=512, return_tensors='np'); arrays equal on every rep")  # fmt: skip
    print("| documents | threads | fast-wordpiece MB/s | transformers MB/s | ratio (median of reps) | reps |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, threads, r in rows:
        print(f"| {name} | {threads} | {r['ours_mb_s']:.1f} | {r['transformers_mb_s']:.2f} | "
              f"**{r['ratio']:.1f}x** | {r['reps']} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
