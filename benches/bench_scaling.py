#!/usr/bin/env python3
"""Scaling benchmark: training time and peak RSS against corpus size and vocab size.

Corpora (10 MB .. 1 GB of distinct real text, see ``scaling_corpus.py``) are
built or reused from the cache first. Every measurement is one training run in
a FRESH Python subprocess, so peak RSS is that run's alone:

* corpus-size sweep: ``PyTokenizer.train_from_files(path, 30000, 2,
  errors="replace", show_progress=False)`` on each corpus;
* vocab-size sweep: the same on the 40 MB corpus with vocab 8k/16k/32k/64k;
* peer: HF ``tokenizers.BertWordPieceTokenizer().train(files=[path],
  vocab_size=30000, min_frequency=2)`` on the 40 MB and 100 MB corpora. HF
  reads files as strict UTF-8, so it gets a copy of the corpus decoded with
  ``errors="replace"`` (the same text our ``errors="replace"`` trains on).

Wall time is the training call alone, timed inside the child (interpreter start
and import excluded). Peak RSS is the child's ``VmHWM`` (``/proc/self/status``,
read right after training: the high-water mark since exec, interpreter
included). CPU time (user+sys) comes from ``os.wait4`` on that child (its
``ru_maxrss`` is recorded too but not used: on Linux it also counts the
parent's RSS at fork time). Points are run in rounds, one run of each per round
(so every point's runs are spread over the whole sweep and see the same
background load), up to ``--repeat`` runs or until a point's runs add up to
``--point-budget`` seconds; the median is reported with the spread, to show
the noise of a shared 2-core machine.

Targets (issue tracker, scaling item c): the 1 GB corpus trains with peak RSS
under 2 GB (2e9 bytes), in under 30x the 40 MB time.

Usage::

    python benches/bench_scaling.py                      # everything, ~10 min here
    python benches/bench_scaling.py --sizes 10MB,40MB --no-hf --no-vocab-sweep
    python benches/bench_scaling.py --json results.json --plot benches/results/scaling.png
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scaling_corpus

REPO = Path(__file__).resolve().parent.parent
DEFAULT_PLOT = REPO / "benches" / "results" / "scaling.png"
RSS_TARGET_BYTES = 2 * 10**9
RATIO_TARGET = 30.0

CHILD = r"""
import json, sys, time
args = json.loads(sys.argv[1])
def vm(field):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return None
if args["engine"] == "fwp":
    import fast_wordpiece
    rss0 = vm("VmRSS")
    t0 = time.perf_counter()
    tok = fast_wordpiece.PyTokenizer.train_from_files(
        args["path"], args["vocab"], 2, errors="replace", show_progress=False)
    dt = time.perf_counter() - t0
    n = len(tok.get_vocab())
    version = fast_wordpiece.__version__ if hasattr(fast_wordpiece, "__version__") else "?"
else:
    import tokenizers
    from tokenizers import BertWordPieceTokenizer
    rss0 = vm("VmRSS")
    t0 = time.perf_counter()
    tok = BertWordPieceTokenizer()
    tok.train(files=[args["path"]], vocab_size=args["vocab"], min_frequency=2, show_progress=False)
    dt = time.perf_counter() - t0
    n = tok.get_vocab_size()
    version = tokenizers.__version__
print(json.dumps({"seconds": dt, "vocab_len": n, "rss_after_import": rss0, "vm_hwm": vm("VmHWM"),
                  "version": version}))
"""


def run_child(engine: str, path: Path, vocab: int, timeout: float) -> dict[str, Any]:
    """One training run in a fresh interpreter; returns its timings and peak RSS."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    with tempfile.TemporaryFile() as errf:
        proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, json.dumps({"engine": engine, "path": str(path), "vocab": vocab})],
            stdout=subprocess.PIPE,
            stderr=errf,
        )
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            assert proc.stdout is not None
            out = proc.stdout.read().decode("utf-8", errors="replace")
            proc.stdout.close()
        finally:
            # os.wait4 (not Popen.wait) to get this child's own rusage: CPU time, ru_maxrss.
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            timer.cancel()
        errf.seek(0)
        err = errf.read().decode("utf-8", errors="replace")
    wall_total = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{engine} on {path.name} (vocab {vocab}) failed with {proc.returncode}: {err[-1500:]}")
    rec = json.loads(out.strip().splitlines()[-1])
    rec.update(
        engine=engine,
        corpus=path.name,
        vocab=vocab,
        wall_with_startup=wall_total,
        cpu_seconds=usage.ru_utime + usage.ru_stime,
        # Peak RSS is the child's own VmHWM (high-water mark of its address space since
        # exec). wait4's ru_maxrss is kept for reference only: on Linux it is at least the
        # parent's RSS at fork time (the pre-exec copy counts), so it can overstate.
        peak_rss=rec["vm_hwm"] if rec.get("vm_hwm") else usage.ru_maxrss * 1024,
        ru_maxrss_wait4=usage.ru_maxrss * 1024,  # Linux: KiB
        load_before=load,
    )
    return rec


@dataclass
class Point:
    """One benchmark point (engine, corpus, vocab) and its runs so far."""

    engine: str
    corpus: str
    nbytes: int
    path: Path
    vocab: int
    runs: list[dict[str, Any]] = field(default_factory=list)

    def wants_more(self, repeat: int, budget: float) -> bool:
        """Another run is due: fewer than ``repeat`` runs, adding up to less than ``budget`` s."""
        return not self.runs or (len(self.runs) < repeat and sum(r["seconds"] for r in self.runs) < budget)

    def summary(self) -> dict[str, Any]:
        """Median (and spread) of the runs, as stored in the JSON."""
        secs = [r["seconds"] for r in self.runs]
        return {
            "engine": self.engine,
            "corpus": self.corpus,
            "bytes": self.nbytes,
            "vocab": self.vocab,
            "runs": self.runs,
            "n": len(self.runs),
            "seconds": statistics.median(secs),
            "seconds_min": min(secs),
            "seconds_max": max(secs),
            "cpu_seconds": statistics.median(r["cpu_seconds"] for r in self.runs),
            "peak_rss": max(r["peak_rss"] for r in self.runs),
            "vocab_len": self.runs[0]["vocab_len"],
            "version": self.runs[0]["version"],
        }


def run_round_robin(points: list[Point], repeat: int, budget: float, timeout: float) -> list[dict[str, Any]]:
    """Run the points in rounds (one run of each due point per round), then summarize.

    Interleaving spreads every point's runs over the whole sweep, so all points
    see the same background load: on a shared machine that matters more than the
    order-of-magnitude of any single run.
    """
    for rnd in range(repeat):
        due = [p for p in points if p.wants_more(repeat, budget)]
        if not due:
            break
        for p in due:
            r = run_child(p.engine, p.path, p.vocab, timeout)
            p.runs.append(r)
            print(
                f"  round {rnd + 1}: {p.engine:4s} {p.corpus:>6s} vocab={p.vocab:<6d} {r['seconds']:8.2f}s "
                f"cpu={r['cpu_seconds']:6.1f}s rss={r['peak_rss'] / 2**20:5.0f} MiB load={r['load_before']:.1f}",
                flush=True,
            )
    return [p.summary() for p in points]


def utf8_copy(path: Path) -> Path:
    """``path`` itself if it is valid UTF-8, else a cached copy decoded with ``errors="replace"``.

    Streams in 4 MiB chunks, so the benchmark process stays small (a big parent
    would not change the children's VmHWM, but keeps the machine quieter).
    """
    out = path.with_name(path.stem + ".utf8" + path.suffix)
    if out.is_file() and out.stat().st_mtime >= path.stat().st_mtime:
        return out
    valid = True
    decoder = codecs.getincrementaldecoder("utf-8")(errors="strict")
    with open(path, "rb") as fh:
        try:
            while chunk := fh.read(1 << 22):
                decoder.decode(chunk)
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            valid = False
    if valid:
        return path
    tmp = out.with_name("." + out.name + ".tmp")
    with (
        open(path, encoding="utf-8", errors="replace", newline="") as src,
        open(tmp, "w", encoding="utf-8", newline="") as dst,
    ):
        while text := src.read(1 << 22):
            dst.write(text)
    os.replace(tmp, out)
    return out


def fmt_row(p: dict[str, Any]) -> str:
    """One markdown table row for a measured point."""
    spread = f"{p['seconds_min']:.2f}–{p['seconds_max']:.2f} (n={p['n']})" if p["n"] > 1 else "n=1"
    mbps = p["bytes"] / 1e6 / p["seconds"]
    name = {"fwp": "fast-wordpiece", "hf": "HF tokenizers"}[p["engine"]]
    return (
        f"| {p['corpus']} | {name} | {p['vocab']:,} | {p['seconds']:.2f} | {spread} | {p['cpu_seconds']:.1f} "
        f"| {p['peak_rss'] / 2**20:,.0f} | {mbps:.1f} | {p['vocab_len']:,} |"
    )


HEADER = (
    "| corpus | engine | vocab | time s (median) | spread | CPU s | peak RSS MiB | MB/s | vocab out |\n"
    "|---|---|---:|---:|---|---:|---:|---:|---:|"
)


def plot(results: dict[str, Any], path: Path) -> None:
    """Two panels: time & peak RSS vs corpus size (log-x); time vs vocab size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax3) = plt.subplots(1, 2, figsize=(12, 5.6))
    fwp = [p for p in results["size_sweep"] if p["engine"] == "fwp"]
    hf = [p for p in results["size_sweep"] if p["engine"] == "hf"]
    if fwp:
        xs = [p["bytes"] / 1e6 for p in fwp]
        ax1.plot(xs, [p["seconds"] for p in fwp], "o-", color="tab:blue", label="fast-wordpiece time")
        ax1.errorbar(
            xs,
            [p["seconds"] for p in fwp],
            yerr=[[p["seconds"] - p["seconds_min"] for p in fwp], [p["seconds_max"] - p["seconds"] for p in fwp]],
            fmt="none",
            ecolor="tab:blue",
            capsize=3,
        )
        ref = next((p for p in fwp if p["corpus"] == "40MB"), None)
        if ref is not None:
            lin = [ref["seconds"] * x / (ref["bytes"] / 1e6) for x in xs]
            ax1.plot(xs, lin, ":", color="gray", label="linear from 40 MB")
            ax1.plot([1000], [RATIO_TARGET * ref["seconds"]], "v", color="tab:red", label="target: 30× the 40 MB time")
    if hf:
        ax1.plot(
            [p["bytes"] / 1e6 for p in hf],
            [p["seconds"] for p in hf],
            "s--",
            color="tab:orange",
            label="HF tokenizers time",
        )
    ax1.set_xscale("log")
    ax1.set_yscale("log")
    ax1.set_xlabel("corpus size (MB)")
    ax1.set_ylabel("training time (s)")
    ax1.grid(True, which="both", alpha=0.3)
    ax2 = ax1.twinx()
    if fwp:
        ax2.plot(
            [p["bytes"] / 1e6 for p in fwp],
            [p["peak_rss"] / 2**20 for p in fwp],
            "^-",
            color="tab:green",
            label="fast-wordpiece peak RSS",
        )
    if hf:
        ax2.plot(
            [p["bytes"] / 1e6 for p in hf],
            [p["peak_rss"] / 2**20 for p in hf],
            "x--",
            color="tab:olive",
            label="HF peak RSS",
        )
    ax2.axhline(RSS_TARGET_BYTES / 2**20, color="tab:red", ls="--", lw=0.8, label="RSS target 2 GB")
    ax2.set_ylabel("peak RSS (MiB)")
    ax2.set_ylim(bottom=0)
    h1, l1 = ax1.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax1.legend(h1 + h2, l1 + l2, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3)
    ax1.set_title("vocab 30k: time and peak RSS vs corpus size")

    vs = results["vocab_sweep"]
    if vs:
        ax3.plot([p["vocab"] for p in vs], [p["seconds"] for p in vs], "o-", color="tab:blue", label="time")
        ax3.set_xscale("log", base=2)
        ax3.set_xticks([p["vocab"] for p in vs], [f"{p['vocab'] // 1000}k" for p in vs])
        ax4 = ax3.twinx()
        ax4.plot(
            [p["vocab"] for p in vs], [p["peak_rss"] / 2**20 for p in vs], "^-", color="tab:green", label="peak RSS"
        )
        ax4.set_ylabel("peak RSS (MiB)")
        ax4.set_ylim(bottom=0)
        h1, l1 = ax3.get_legend_handles_labels()
        h2, l2 = ax4.get_legend_handles_labels()
        ax3.legend(h1 + h2, l1 + l2, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2)
    ax3.set_xlabel("vocab size")
    ax3.set_ylabel("training time (s)")
    ax3.set_ylim(bottom=0)
    ax3.grid(True, alpha=0.3)
    ax3.set_title(f"fast-wordpiece: time vs vocab size ({results['vocab_corpus']} corpus)")
    fig.suptitle(f"WordPiece training scaling — {results['machine']}", fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def git_commit() -> str | None:
    """The repository's HEAD commit (and ``+dirty``), if git is there."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO, capture_output=True, text=True
        )
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "") if head.returncode == 0 else None
    except OSError:
        return None


def main(argv: list[str] | None = None) -> int:
    """Command line: build/reuse the corpora, run the sweeps, print, write JSON and PNG."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10MB,40MB,100MB,300MB,1GB", help="corpus sizes (default %(default)s)")
    ap.add_argument("--vocab", type=int, default=30000, help="vocab size of the corpus-size sweep")
    ap.add_argument("--vocab-sizes", default="8000,16000,32000,64000", help="vocab sweep (default %(default)s)")
    ap.add_argument("--vocab-corpus", default="40MB", help="corpus of the vocab sweep (default %(default)s)")
    ap.add_argument("--no-vocab-sweep", action="store_true")
    ap.add_argument("--hf-sizes", default="40MB,100MB", help="sizes HF tokenizers also trains on (default %(default)s)")
    ap.add_argument("--no-hf", action="store_true")
    ap.add_argument("--repeat", type=int, default=5, help="at most this many runs per point (default 5)")
    ap.add_argument(
        "--point-budget",
        type=float,
        default=120.0,
        help="no further run of a point once its runs add up to this many seconds (default 120)",
    )
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per run")
    ap.add_argument("--order", choices=["mixed", "sources"], default="mixed", help="corpus order (scaling_corpus)")
    ap.add_argument("--json", type=Path, default=None, help="write all results here")
    ap.add_argument("--plot", type=Path, default=DEFAULT_PLOT, help="PNG output (default %(default)s)")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = ap.parse_args(argv)

    sizes = [scaling_corpus.parse_size(s) for s in args.sizes.split(",") if s]
    vocab_corpus = scaling_corpus.parse_size(args.vocab_corpus)
    hf_sizes = [] if args.no_hf else [scaling_corpus.parse_size(s) for s in args.hf_sizes.split(",") if s]
    need = sorted(set(sizes) | set(hf_sizes) | ({vocab_corpus} if not args.no_vocab_sweep else set()))
    all_sizes = sorted(set(need) | set(scaling_corpus.DEFAULT_SIZES))
    try:
        paths = scaling_corpus.build(all_sizes, args.order)
    except scaling_corpus.CorpusUnavailable as e:
        print(f"bench_scaling: {e}", file=sys.stderr)
        return 2
    manifest = scaling_corpus.manifest(args.order)
    nbytes = {lab: c["bytes"] for lab, c in manifest["corpora"].items()}
    machine = f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    print(f"# scaling benchmark ({machine}; load avg at start {os.getloadavg()[0]:.2f})", flush=True)

    results: dict[str, Any] = {
        "machine": machine,
        "commit": git_commit(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "cpu_count": os.cpu_count(),
        "order": args.order,
        "vocab_corpus": args.vocab_corpus,
        "size_sweep": [],
        "vocab_sweep": [],
        "composition": manifest,
    }
    t_start = time.perf_counter()
    print("## corpus-size sweep (runs interleaved round-robin)", flush=True)
    size_points = []
    for size in sizes:
        lab = scaling_corpus.label(size)
        size_points.append(Point("fwp", lab, nbytes[lab], paths[lab], args.vocab))
        if size in hf_sizes:
            size_points.append(Point("hf", lab, nbytes[lab], utf8_copy(paths[lab]), args.vocab))
    results["size_sweep"] = run_round_robin(size_points, args.repeat, args.point_budget, args.timeout)
    if not args.no_vocab_sweep:
        print("## vocab-size sweep (runs interleaved round-robin)", flush=True)
        lab = scaling_corpus.label(vocab_corpus)
        vocab_points = [Point("fwp", lab, nbytes[lab], paths[lab], int(v)) for v in args.vocab_sizes.split(",") if v]
        results["vocab_sweep"] = run_round_robin(vocab_points, args.repeat, args.point_budget, args.timeout)
    results["total_seconds"] = time.perf_counter() - t_start

    fwp = {p["corpus"]: p for p in results["size_sweep"] if p["engine"] == "fwp"}
    verdict: dict[str, Any] = {}
    if "40MB" in fwp and "1GB" in fwp:
        ratio = fwp["1GB"]["seconds"] / fwp["40MB"]["seconds"]
        cpu_ratio = fwp["1GB"]["cpu_seconds"] / fwp["40MB"]["cpu_seconds"]
        min_ratio = fwp["1GB"]["seconds_min"] / fwp["40MB"]["seconds_min"]
        size_ratio = fwp["1GB"]["bytes"] / fwp["40MB"]["bytes"]
        verdict = {
            "time_ratio_1GB_over_40MB": ratio,
            "cpu_ratio_1GB_over_40MB": cpu_ratio,
            "best_time_ratio_1GB_over_40MB": min_ratio,
            "size_ratio_1GB_over_40MB": size_ratio,
            "time_ratio_ok": ratio < RATIO_TARGET,
            "peak_rss_1GB": fwp["1GB"]["peak_rss"],
            "peak_rss_ok": fwp["1GB"]["peak_rss"] < RSS_TARGET_BYTES,
        }
    results["targets"] = verdict

    print("\n" + HEADER)
    for p in results["size_sweep"] + results["vocab_sweep"]:
        print(fmt_row(p))
    if verdict:
        print(
            f"\n1 GB time / 40 MB time = {verdict['time_ratio_1GB_over_40MB']:.1f}x "
            f"(target < {RATIO_TARGET:.0f}x; size ratio {verdict['size_ratio_1GB_over_40MB']:.1f}x; "
            f"best-run ratio {verdict['best_time_ratio_1GB_over_40MB']:.1f}x; "
            f"CPU-time ratio {verdict['cpu_ratio_1GB_over_40MB']:.1f}x) -> "
            f"{'PASS' if verdict['time_ratio_ok'] else 'FAIL'}"
        )
        print(
            f"peak RSS at 1 GB = {verdict['peak_rss_1GB'] / 2**20:,.0f} MiB "
            f"(target < 2 GB = {RSS_TARGET_BYTES / 2**20:,.0f} MiB) -> {'PASS' if verdict['peak_rss_ok'] else 'FAIL'}"
        )
    print(f"\nbenchmark time {results['total_seconds']:.0f}s; commit {results['commit']}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1) + "\n")
        print(f"wrote {args.json}")
    if not args.no_plot:
        plot(results, args.plot)
        print(f"wrote {args.plot}")
    if args.check and verdict and not (verdict["time_ratio_ok"] and verdict["peak_rss_ok"]):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
