#!/usr/bin/env python3
"""Reading the fields of one huge encoding: ``.ids`` against ``.offsets`` and
``.offsets_array()`` (int64) and ``.offsets_array("int32")`` (issue #16, item 4).

One text of ``--mb`` MB (the GCIDE dictionary, repeated; see scripts/corpora.py)
is encoded with bert-base-uncased's vocab.txt, then ONE field is read, in a
fresh Python subprocess per field so that each memory figure is that field's
alone. Time: the read alone (``perf_counter`` around it). Memory: growth of the
resident set (``/proc/self/statm``) across the read, the result kept alive.
Each field is measured ``--repeat`` times (median), in rounds so that every field
sees the same background load. The ratio to ``.ids`` of the same run is the figure.

``--python-path DIR`` puts another build's package first on the path (e.g. the
main checkout's ``python/``), to measure before and after in the same run.

Usage::

    python benches/bench_offsets.py                      # 200 MB, ~3 min here
    python benches/bench_offsets.py --mb 20 --repeat 1
    python benches/bench_offsets.py --python-path python --fields ids,offsets
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

CHILD = r"""
import json, os, sys, time
import numpy  # imported before the measurement: its import is not part of any figure
from fast_wordpiece import PyTokenizer

vocab, corpus, mb, field = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
page = os.sysconf("SC_PAGE_SIZE")

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * page

chunk = open(corpus, encoding="utf-8", errors="replace").read()
text = (chunk * (mb * 2**20 // len(chunk.encode()) + 1))[: mb * 2**20]
tok = PyTokenizer.from_vocab_file(vocab)
t = time.perf_counter()
encoding = tok.encode(text, add_special_tokens=False)
encode_s = time.perf_counter() - t
del text, chunk
before = rss()
t = time.perf_counter()
if field.startswith("offsets_array("):
    dtype = field[len("offsets_array("):-1].strip("'\"") or None
    value = encoding.offsets_array(dtype)
else:
    value = getattr(encoding, field)
seconds = time.perf_counter() - t
grown = rss() - before
print(json.dumps({"field": field, "tokens": len(encoding), "seconds": seconds, "bytes": grown,
                  "encode_seconds": encode_s}))
"""


def measure(field: str, vocab: Path, corpus: Path, mb: int, python_path: str | None) -> dict:
    env = dict(os.environ)
    if python_path:
        env["PYTHONPATH"] = python_path + os.pathsep + env.get("PYTHONPATH", "")
    run = subprocess.run(
        [sys.executable, "-c", CHILD, str(vocab), str(corpus), str(mb), field],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if run.returncode != 0:
        raise SystemExit(f"{field}: the child failed ({run.returncode}): {run.stderr[-2000:]}")
    return json.loads(run.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fields", default="ids,offsets,offsets_array(),offsets_array(int32)")
    parser.add_argument("--python-path", default=None)
    args = parser.parse_args()
    import corpora

    corpus = corpora.ensure("gcide") / "gcide.dict"
    vocab = corpora.ensure("bert-vocab") / "vocab.txt"
    fields = args.fields.split(",")
    runs: dict[str, list[dict]] = {f: [] for f in fields}
    for _ in range(args.repeat):
        for field in fields:
            runs[field].append(measure(field, vocab, corpus, args.mb, args.python_path))
    base = {k: statistics.median(r[k] for r in runs["ids"]) for k in ("seconds", "bytes")} if "ids" in runs else None
    tokens = runs[fields[0]][0]["tokens"]
    encode = statistics.median(r["encode_seconds"] for rs in runs.values() for r in rs)
    print(f"{args.mb} MB text, {tokens:,} tokens, encoded in {encode:.1f} s (median); each field read in a fresh")
    print(f"process, median of {args.repeat}")
    print(f"{'field':<18}{'seconds':>10}{'MB':>10}{'time/ids':>10}{'memory/ids':>12}")
    for field, rs in runs.items():
        seconds = statistics.median(r["seconds"] for r in rs)
        mbytes = statistics.median(r["bytes"] for r in rs)
        ratios = f"{seconds / base['seconds']:>10.2f}{mbytes / base['bytes']:>12.2f}" if base else ""
        print(f"{field:<18}{seconds:>10.3f}{mbytes / 2**20:>10.0f}{ratios}")


if __name__ == "__main__":
    main()
