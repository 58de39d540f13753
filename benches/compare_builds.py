#!/usr/bin/env python3
"""Two or more builds of the engine, side by side in one process.

Each build is a wheel (or its ``_native`` extension file); all are loaded into
this one interpreter under names of their own, and every measurement
alternates between them rep by rep (the order rotating), so that a noisy
machine slows them alike. The workload is ``bench_python.py``'s encoding one:
2,000 documents of ~1 KB of English and of multilingual text with
bert-base-uncased's vocabulary, through ``encode_batch``, reading ``.ids``,
reading ``.ids`` and ``.offsets``, or as padded numpy arrays
(``padding="longest", return_tensors="np"``), on one thread and on all.

The same str objects are encoded rep after rep unless ``--fresh``, which
hands every rep new copies (as when each text is encoded once): CPython
keeps a str's UTF-8 once asked for it, and a build that asks for it (the
version-specific API) then pays only on the first rep, where one that has
Python encode the text (the stable ABI before 3.10) pays every time.

For each build: the median MB/s; for each build after the first: the median
of its time against the first build's in the same round (above 1: slower),
with the middle half of those ratios.

Usage::

    python benches/compare_builds.py old.whl new.whl [--seconds 10] [--docs 2000]

A wheel must fit this interpreter (an abi3 wheel fits any CPython >= its
minimum). numpy is needed for the numpy rows.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "scripts"))


def extension(path: Path, into: Path) -> Path:
    """The ``fast_wordpiece/_native*`` extension file of a wheel (or the file itself)."""
    if path.suffix != ".whl":
        return path
    with zipfile.ZipFile(path) as wheel:
        (name,) = [n for n in wheel.namelist() if n.startswith("fast_wordpiece/_native") and not n.endswith(".pyi")]
        return Path(wheel.extract(name, into / path.stem))


def load(path: Path, k: int) -> ModuleType:
    """The extension at ``path``, as the module ``fwp_build{k}._native``."""
    spec = importlib.util.spec_from_file_location(f"fwp_build{k}._native", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a loadable extension")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


READS: dict[str, Callable[[Any, list[str], int], Any]] = {
    "ids": lambda tok, docs, n: [e.ids for e in tok.encode_batch(docs, num_threads=n)],
    "ids+offsets": lambda tok, docs, n: [(e.ids, e.offsets) for e in tok.encode_batch(docs, num_threads=n)],
    "numpy padded": lambda tok, docs, n: tok.encode_batch(docs, num_threads=n, padding="longest", return_tensors="np"),
}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("builds", nargs="+", type=Path, help="wheels or _native extension files; the first is the base")
    p.add_argument("--seconds", type=float, default=10.0, help="alternate the builds this long per row (10)")
    p.add_argument("--docs", type=int, default=2000, help="documents per language group (2000)")
    p.add_argument("--fresh", action="store_true", help="new copies of the texts for every rep (not timed)")
    p.add_argument("--json", type=Path, help="also write the results here")
    opts = p.parse_args(argv)

    import bench_python
    import corpora

    vocab = str(corpora.bert_vocab_path())
    with tempfile.TemporaryDirectory(prefix="fwp-builds-") as tmp:
        files = [extension(b, Path(tmp)) for b in opts.builds]
        modules = [load(f, k) for k, f in enumerate(files)]
        sets = bench_python.child_docs({"dir": tmp, "docs": opts.docs, "doc_bytes": 1000})
        docs = {name: json.loads(Path(info["path"]).read_text(encoding="utf-8")) for name, info in sets.items()}
    tokenizers = [m.PyTokenizer.from_vocab_file(vocab) for m in modules]
    names = [b.name for b in opts.builds]
    fresh = "new str objects every rep" if opts.fresh else "the same str objects every rep"
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {fresh}; builds: " + "; ".join(names))
    header = "| documents | reads | threads | " + " | ".join(f"build {k} MB/s" for k in range(len(names)))
    header += "".join(f" | build {k} / build 0 time (middle half)" for k in range(1, len(names))) + " |"
    print(header)
    print("|---" * (3 + len(names) + len(names) - 1) + "|")
    results = []
    for set_name, texts in docs.items():
        nbytes = sum(len(t.encode("utf-8")) for t in texts)
        for read, run in READS.items():
            for threads in (1, os.cpu_count() or 1):
                times: list[list[float]] = [[] for _ in tokenizers]
                for tok in tokenizers:
                    run(tok, texts, threads)  # warm-up
                end = time.perf_counter() + opts.seconds
                rounds = 0
                while rounds < 5 or time.perf_counter() < end:
                    order = list(range(len(tokenizers)))
                    order = order[rounds % len(order) :] + order[: rounds % len(order)]
                    for k in order:
                        batch = [(t + ".")[:-1] for t in texts] if opts.fresh else texts
                        t0 = time.perf_counter()
                        out = run(tokenizers[k], batch, threads)
                        times[k].append(time.perf_counter() - t0)
                        del out
                    rounds += 1
                speeds = [nbytes / statistics.median(t) / 1e6 for t in times]
                cells = [f"{s:.1f}" for s in speeds]
                row: dict[str, Any] = {"documents": set_name, "reads": read, "threads": threads, "mb_per_s": speeds}
                row["ratios"] = []
                for k in range(1, len(tokenizers)):
                    ratios = [b / a for a, b in zip(times[0], times[k])]
                    q1, median, q3 = statistics.quantiles(ratios, n=4)
                    cells.append(f"**{median:.3f}** ({q1:.3f}-{q3:.3f})")
                    row["ratios"].append({"median": median, "q1": q1, "q3": q3, "rounds": rounds})
                print(f"| {set_name} | {read} | {threads} | " + " | ".join(cells) + " |", flush=True)
                results.append(row)
    if opts.json:
        opts.json.write_text(json.dumps({"builds": names, "rows": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
