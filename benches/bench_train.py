#!/usr/bin/env python3
"""Training speed against Hugging Face's WordPiece trainer, side by side.

All of GCIDE (~40 MB, ``scripts/corpora.py``) in memory as lines, trained to
vocab 30,000 with min_frequency 2: ours with ``PyTokenizer.train(lines,
30000, 2, objective=...)`` (default: the default objective), HF with
``BertWordPieceTokenizer().train_from_iterator(lines, vocab_size=30000,
min_frequency=2)``. Every run is a FRESH process (this script re-invoked with
``--child``), so ``RAYON_NUM_THREADS`` applies (and
``TOKENIZERS_PARALLELISM=false`` for HF at one thread) and the peak RSS
(``VmHWM``) is that run's alone. Wall time is the training call only
(interpreter start and corpus loading excluded).

The runs alternate: each round runs every implementation once at each thread
count, the order rotating from round to round, so that the load of a shared
machine falls on all of them alike. Reported: the median wall time, its
ratio to HF's (the median of the per-round ratios, which cancels most of the
load), CPU time (the child's ``process_time``, all threads) and the ratio of
the medians, peak RSS, and a hash of the learned vocabulary (the tokens in
id order) to show that builds agree.

``--build`` adds another build of the engine (a wheel or a ``_native``
extension file), e.g. the one before a change; without it, the installed
``fast_wordpiece`` is "ours".

``--hashes`` prints instead the vocabulary hash of every objective on GCIDE
(vocab 30,000) and on the multilingual fortunes (de/ru/zh, vocab 30,000) at
one and at two threads, for checking that a change leaves the learned
vocabularies byte for byte the same.

Usage::

    python benches/bench_train.py                         # 3 rounds at 1 and 2 threads
    python benches/bench_train.py --rounds 5 --build before.so --no-hf
    python benches/bench_train.py --hashes
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent.parent / "scripts"))

from bench_python import _status  # noqa: E402  (benches/ is the script's directory)
from compare_builds import extension  # noqa: E402


def _engine(build: str | None) -> Any:
    if build is None:
        import fast_wordpiece

        return fast_wordpiece
    import importlib.util

    spec = importlib.util.spec_from_file_location("fwp_build._native", build)
    if spec is None or spec.loader is None:
        raise ImportError(f"{build} is not a loadable extension")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _corpus(name: str) -> list[str]:
    import corpora

    if name == "gcide":
        return corpora.gcide_lines()
    if name == "multilingual":
        return corpora.multilingual_lines()
    raise ValueError(name)


def digest(tokens: list[str]) -> str:
    """The vocabulary hash: tokens in id order, one a line."""
    return hashlib.sha256("\n".join(tokens).encode()).hexdigest()[:16]


def child(args: dict) -> dict:
    lines = _corpus(args["corpus"])
    nbytes = sum(len(x.encode("utf-8")) + 1 for x in lines)
    rss_before = _status("VmRSS")
    if args["impl"] == "hf":
        import tokenizers

        t0, c0 = time.perf_counter(), time.process_time()
        tok = tokenizers.BertWordPieceTokenizer()
        tok.train_from_iterator(lines, vocab_size=args["vocab"], min_frequency=2, show_progress=False)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        vocab = tok.get_vocab()
    else:
        mod = _engine(args.get("build"))
        kwargs = {"objective": args["objective"]} if args.get("objective") else {}
        t0, c0 = time.perf_counter(), time.process_time()
        tok = mod.PyTokenizer.train(lines, args["vocab"], 2, show_progress=False, **kwargs)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        vocab = tok.get_vocab()
    return {
        "seconds": wall,
        "cpu_seconds": cpu,
        "bytes": nbytes,
        "vocab_len": len(vocab),
        "digest": digest(sorted(vocab, key=vocab.get)),
        "rss_before": rss_before,
        "peak_rss": _status("VmHWM"),
    }


def run_child(args: dict, threads: int) -> dict:
    env = dict(os.environ)
    env["RAYON_NUM_THREADS"] = str(threads)
    env.pop("TOKENIZERS_PARALLELISM", None)
    if threads == 1:
        env["TOKENIZERS_PARALLELISM"] = "false"
    proc = subprocess.run(
        [sys.executable, str(HERE), "--child", json.dumps(args)], capture_output=True, text=True, env=env
    )
    if proc.returncode != 0:
        raise SystemExit(f"{args} at {threads} threads failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def hashes(opts: argparse.Namespace) -> None:
    print("| corpus | objective | threads | vocab | hash | s |")
    print("|---|---|---:|---:|---|---:|")
    for corpus in ("gcide", "multilingual"):
        for objective in ("likelihood", "frequency", "pmi"):
            for threads in (1, 2):
                r = run_child({"impl": "ours", "corpus": corpus, "vocab": opts.vocab, "objective": objective}, threads)
                print(f"| {corpus} | {objective} | {threads} | {r['vocab_len']} | {r['digest']} | {r['seconds']:.2f} |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--rounds", type=int, default=3, help="rounds (3)")
    p.add_argument("--threads", default="1,2", help="thread counts, comma-separated (1,2)")
    p.add_argument("--vocab", type=int, default=30000, help="vocab_size (30000)")
    p.add_argument("--objective", help="objective= for ours (default: the default objective)")
    p.add_argument("--corpus", choices=["gcide", "multilingual"], default="gcide")
    p.add_argument("--build", type=Path, action="append", default=[], help="another build of ours (repeatable)")
    p.add_argument("--no-hf", action="store_true", help="leave HF's trainer out")
    p.add_argument("--hashes", action="store_true", help="print the vocabulary hashes of every objective")
    p.add_argument("--json", type=Path, help="also write the runs here")
    opts = p.parse_args(argv)
    if opts.child:
        print("\n" + json.dumps(child(json.loads(opts.child))))
        return 0
    if opts.hashes:
        hashes(opts)
        return 0
    threads = [int(t) for t in opts.threads.split(",")]
    with tempfile.TemporaryDirectory(prefix="fwp-bench-train-") as tmp:
        builds: list[tuple[str, str | None]] = [("ours", None)]
        builds += [(f"ours[{b.name}]", str(extension(b, Path(tmp)))) for b in opts.build]
        impls = [*builds] + ([] if opts.no_hf else [("hf", None)])
        runs: dict[tuple[str, int], list[dict]] = {(name, t): [] for name, _ in impls for t in threads}
        for rnd in range(opts.rounds):
            for t in threads:
                order = impls[rnd % len(impls) :] + impls[: rnd % len(impls)]
                for name, build in order:
                    args = {"impl": "hf" if name == "hf" else "ours", "corpus": opts.corpus, "vocab": opts.vocab}
                    if build:
                        args["build"] = build
                    if opts.objective:
                        args["objective"] = opts.objective
                    r = run_child(args, t)
                    runs[(name, t)].append(r)
                    log(f"round {rnd + 1} threads {t} {name}: {r['seconds']:.2f} s, {r['peak_rss'] / 1e6:.0f} MB")
    objective = opts.objective or "default"
    print(f"\n{opts.corpus}, vocab {opts.vocab}, objective {objective}, {opts.rounds} rounds, load {os.getloadavg()}")
    print(
        "| threads | implementation | wall s (median) | CPU s (median) | HF / this, wall (median of rounds, range) "
        "| HF / this, CPU | peak RSS MB | hash |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---|")
    for t in threads:
        for name, _ in impls:
            rs = runs[(name, t)]
            wall = statistics.median(r["seconds"] for r in rs)
            cpu = statistics.median(r["cpu_seconds"] for r in rs)
            rss = max(r["peak_rss"] for r in rs)
            ratio = cpu_ratio = "-"
            if not opts.no_hf and name != "hf":
                per_round = [h["seconds"] / r["seconds"] for h, r in zip(runs[("hf", t)], rs)]
                ratio = f"{statistics.median(per_round):.1f}x ({min(per_round):.1f}-{max(per_round):.1f})"
                cpu_ratio = f"{statistics.median(h['cpu_seconds'] for h in runs[('hf', t)]) / cpu:.1f}x"
            hashes_seen = sorted({r["digest"] for r in rs})
            print(
                f"| {t} | {name} | {wall:.2f} | {cpu:.2f} | {ratio} | {cpu_ratio} | {rss / 1e6:.0f} "
                f"| {','.join(hashes_seen)} |"
            )
    if opts.json:
        opts.json.write_text(json.dumps({f"{k[0]}@{k[1]}": v for k, v in runs.items()}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
