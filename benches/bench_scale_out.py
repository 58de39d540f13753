#!/usr/bin/env python3
"""Training beyond one process: single-process ``train_from_files`` vs a Dask
LocalCluster (2 worker processes) vs Spark ``local[2]`` on the same files, and
what ``WordCounts`` costs: pickle size and speed, merging throughput, and what
opt-in pruning changes (vocabulary overlap, held-out token count, memory).

    python benches/bench_scale_out.py [--mb 256] [--parts 8] [--vocab 30000]
                                      [--skip-dask] [--skip-spark] [--spark-rdd]
                                      [--times-only] [--json out.json]
    python benches/bench_scale_out.py --plot a.json b.json --out plot.png

The corpus is real text (GCIDE, Shakespeare, the de/ru/zh fortunes of
scripts/corpora.py), repeated to ``--mb`` and cut into ``--parts`` files at
line boundaries: repeating adds no distinct words, so this measures counting
throughput and the merge loop at a fixed vocabulary of words, not the growth
of distinct words with corpus size. Held out for the pruning table: the
English fortunes, which are not in the training text. Times are wall clock on
whatever this machine shares; every figure is measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

import corpora  # noqa: E402

from fast_wordpiece import PyTokenizer, WordCounts  # noqa: E402


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def descendants() -> dict[int, tuple[str, float]]:
    """This process's descendants (from /proc, Linux): pid -> (command line, peak RSS
    in MB, ``VmHWM``). Read while they run: a process's peak is gone when it exits."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    mine, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - mine
        mine |= frontier
    found = {}
    for pid in mine:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            status = Path(f"/proc/{pid}/status").read_text()
            hwm = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
            found[pid] = (cmd, int(hwm.split()[1]) / 1024)
        except (OSError, StopIteration):
            pass
    return found


def cpu_seconds() -> dict[str, float]:
    """CPU seconds (user + system) so far of this process's live descendants, by kind:
    "java" (Spark's JVM) and "python" (workers); from /proc, Linux. Load-proof where wall
    time is not: the difference of two readings is the work done between them."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {"java": 0.0, "python": 0.0}
    for pid, (cmd, _) in descendants().items():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        kind = "java" if cmd.split(" ", 1)[0].endswith("java") else "python"
        out[kind] += (int(fields[11]) + int(fields[12])) / tick
    return out


def peak_of(processes: dict[int, tuple[str, float]], program: str, needle: str = "") -> float:
    """The largest peak RSS among the processes whose program (argv[0]) ends with
    ``program`` and whose command line holds ``needle``."""
    return max((mb for cmd, mb in processes.values()
                if cmd.split(" ", 1)[0].endswith(program) and needle in cmd), default=0.0)  # fmt: skip


def real_text() -> bytes:
    """GCIDE, Shakespeare and the de/ru/zh fortunes, once (about 50 MB)."""
    text = corpora.gcide_path().read_bytes().decode("utf-8", errors="replace")
    text += corpora.shakespeare_text() + "\n".join(corpora.multilingual_lines()) + "\n"
    return text.encode()


def build_corpus(out: Path, mb: int, parts: int) -> list[Path]:
    data = real_text()
    target = mb << 20
    paths = [out / f"part{i:02d}.txt" for i in range(parts)]
    per = target // parts
    for path in paths:
        with open(path, "wb") as f:
            written = 0
            while written < per:
                chunk = data[: per - written]
                cut = chunk.rfind(b"\n") + 1 if len(chunk) < len(data) else len(chunk)
                f.write(chunk[:cut] if cut else chunk)
                written += cut if cut else len(chunk)
    return paths


def _take_batches(batches):  # type: ignore[no-untyped-def]
    """A ``mapInArrow`` that only takes its batches: what Spark costs without counting."""
    import pyarrow as pa

    rows = sum(batch.num_rows for batch in batches)
    yield pa.RecordBatch.from_arrays([pa.array([rows], pa.int64())], names=["rows"])


def timed(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def growth(vocab: int) -> int:
    """Distinct words against corpus size (Heaps' law, fitted on prefixes of the real text),
    the merge loop's time against distinct words, and what they predict for 100 GB and 1 TB."""
    import math

    data = real_text()
    rows = []
    print("prefix MB | distinct words | counting s | merge loop s")
    with tempfile.TemporaryDirectory() as tmp:
        for share in (8, 4, 2, 1):
            part = data[: len(data) // share]
            part = part[: part.rfind(b"\n") + 1]
            path = Path(tmp) / f"prefix{share}.txt"
            path.write_bytes(part)
            counts, count_s = timed(lambda: WordCounts.from_files(path))  # noqa: B023
            _, merge_s = timed(lambda: PyTokenizer.train_from_counts(counts, vocab, show_progress=False))  # noqa: B023
            rows.append((len(part) / 1e6, len(counts), count_s, merge_s))
            print(f"{len(part) / 1e6:.1f} | {len(counts):,} | {count_s:.2f} | {merge_s:.2f}")
    (mb0, d0, _, _), (mb1, d1, c1, m1) = rows[0], rows[-1]
    beta = math.log(d1 / d0) / math.log(mb1 / mb0)
    per_word = m1 / d1
    rate = mb1 / c1  # MB/s of counting on this machine (2 cores)
    print(
        f"\nHeaps' law fit: distinct words ~ size^{beta:.2f}; merge loop {per_word * 1e6:.1f} us per distinct "
        f"word at {d1:,}; counting {rate:.0f} MB/s per 2-core machine"
    )
    print("corpus | distinct words (est.) | merge loop (est.) | counting on 1 / 10 / 100 machines")
    for label, mb in (("100 GB", 100_000), ("1 TB", 1_000_000)):
        d = d1 * (mb / mb1) ** beta
        counting = " / ".join(f"{mb / rate / n / 60:,.0f} min" for n in (1, 10, 100))
        print(f"{label} | {d:,.0f} | {d * per_word / 60:.0f} min | {counting}")
    return 0


def plot(jsons: list[Path], out: Path) -> int:
    """Wall time of each path against corpus size, from the --json files of runs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = sorted((json.loads(p.read_text()) for p in jsons), key=lambda r: r["mb"])

    def single(r: dict) -> float:  # type: ignore[type-arg]
        return (r["single_s"] + r.get("single_again_s", r["single_s"])) / 2

    paths = [("single process (mean of the runs before and after)", single),
             ("Dask LocalCluster, 2 workers", lambda r: r.get("dask_s")),
             ("Spark local[2], files", lambda r: r.get("spark_files", {}).get("s")),
             ("Spark local[2], DataFrame of lines (mapInArrow)", lambda r: r.get("spark_dataframe", {}).get("s")),
             ("Spark local[2], RDD of lines", lambda r: r.get("spark_rdd", {}).get("s"))]  # fmt: skip
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, get in paths:
        points = [(r["mb"] / 1024, get(r)) for r in runs if get(r)]
        if points:
            ax.plot(*zip(*points), marker="o", label=label)
    ax.set_xlabel("corpus (GiB of real text, 8 files)")
    ax.set_ylabel("training wall time (s)")
    ax.set_title("Training a 30k vocabulary on 2 shared cores")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, default=256)
    parser.add_argument("--parts", type=int, default=8)
    parser.add_argument("--vocab", type=int, default=30000)
    parser.add_argument("--skip-dask", action="store_true")
    parser.add_argument("--skip-spark", action="store_true")
    parser.add_argument("--spark-rdd", action="store_true", help="also Spark on an RDD of lines (slow)")
    parser.add_argument("--times-only", action="store_true", help="skip the pickle and pruning figures")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--plot", type=Path, nargs="+", help="only: plot these --json files to --out")
    parser.add_argument("--out", type=Path, default=REPO / "benches" / "results" / "scale-out.png")
    parser.add_argument("--growth", action="store_true",
                        help="only: distinct words and merge loop time over prefixes of the text, and the "
                             "estimate for 100 GB / 1 TB they give")  # fmt: skip
    args = parser.parse_args()
    if args.growth:
        return growth(args.vocab)
    if args.plot:
        return plot(args.plot, args.out)
    results: dict[str, object] = {"mb": args.mb, "parts": args.parts, "vocab": args.vocab, "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory() as tmp:
        paths = build_corpus(Path(tmp), args.mb, args.parts)
        size = sum(p.stat().st_size for p in paths) / 1e6
        print(f"corpus: {size:,.0f} MB in {len(paths)} files, vocab {args.vocab}")

        # Single process: counting, then the merge loop.
        cpu0 = resource.getrusage(resource.RUSAGE_SELF)
        counts, count_s = timed(lambda: WordCounts.from_files(paths))
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        count_cpu_s = cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime
        single, merge_s = timed(lambda: PyTokenizer.train_from_counts(counts, args.vocab, show_progress=False))
        total_s = count_s + merge_s
        print(f"single process: {total_s:.1f} s (counting {count_s:.1f} s = {size / count_s:,.0f} MB/s, "
              f"merge loop {merge_s:.1f} s = {merge_s / total_s:.0%}), {len(counts):,} distinct words, "
              f"peak RSS {rss_mb():,.0f} MB")  # fmt: skip
        reference = single
        results.update(single_s=total_s, count_s=count_s, count_cpu_s=count_cpu_s, merge_s=merge_s,
                       distinct=len(counts), single_rss_mb=rss_mb())  # fmt: skip

        if not args.times_only:
            # WordCounts: pickle, merging, the file.
            data, dump_s = timed(lambda: pickle.dumps(counts))
            back, load_s = timed(lambda: pickle.loads(data))
            assert back == counts
            raw = sum(len(w.encode()) for w in counts)
            print(
                f"pickle: {len(data) / 1e6:.2f} MB for {len(counts):,} words ({len(data) / len(counts):.1f} B/word, "
                f"text alone {raw / len(counts):.1f} B/word); dumps {dump_s * 1e3:.0f} ms, loads {load_s * 1e3:.0f} ms"
            )
            halves = [WordCounts.from_files(paths[: len(paths) // 2]), WordCounts.from_files(paths[len(paths) // 2 :])]
            _, add_s = timed(lambda: halves[0] + halves[1])
            print(
                f"merge a + b: {(len(halves[0]) + len(halves[1])) / add_s / 1e6:.1f} M words/s ({add_s * 1e3:.0f} ms)"
            )
            results.update(pickle_bytes=len(data), dumps_ms=dump_s * 1e3, loads_ms=load_s * 1e3, merge_ms=add_s * 1e3)

            # Pruning: what it changes, on one copy of the text (repeats would hide the rare words).
            base = Path(tmp) / "base.txt"
            base.write_bytes(real_text())
            counts = WordCounts.from_files(base)
            single = PyTokenizer.train_from_counts(counts, args.vocab, show_progress=False)
            held_out = corpora.fortune_lines("en")
            exact_vocab = set(single.get_vocab())
            exact_tokens = sum(len(e.ids) for e in single.encode_batch(held_out, add_special_tokens=False))
            print(f"\npruning, on {base.stat().st_size / 1e6:.0f} MB (the text once)")
            print("pruning | distinct words | counts bytes | vocab overlap | held-out tokens")
            print(f"none | {len(counts):,} | {len(counts.to_bytes()):,} | 100% | {exact_tokens:,}")
            pruning = []
            for label, min_count, max_words in [("min_count=2", 2, None), ("min_count=5", 5, None),
                                                ("max_words=distinct/10", None, len(counts) // 10)]:  # fmt: skip
                pruned = WordCounts.from_bytes(counts.to_bytes())
                pruned.prune(min_count, max_words=max_words)
                tok = PyTokenizer.train_from_counts(pruned, args.vocab, show_progress=False)
                overlap = len(exact_vocab & set(tok.get_vocab())) / len(exact_vocab)
                tokens = sum(len(e.ids) for e in tok.encode_batch(held_out, add_special_tokens=False))
                print(f"{label} | {len(pruned):,} | {len(pruned.to_bytes()):,} | {overlap:.1%} | {tokens:,} "
                      f"({tokens / exact_tokens - 1:+.2%})")  # fmt: skip
                pruning.append(dict(label=label, distinct=len(pruned), overlap=overlap, tokens=tokens))
            results["pruning"] = pruning
            results["exact_heldout_tokens"] = exact_tokens

        if not args.skip_dask:
            import distributed

            from fast_wordpiece import dask as fw_dask

            with (
                distributed.LocalCluster(
                    processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None
                ) as cluster,  # fmt: skip
                distributed.Client(cluster) as client,
            ):
                counts, dask_count_s = timed(lambda: fw_dask.count([str(p) for p in paths], client=client))
                tok, dask_merge_s = timed(lambda: PyTokenizer.train_from_counts(counts, args.vocab,
                                                                                 show_progress=False))  # fmt: skip
                assert tok.to_json() == reference.to_json()
                procs = descendants()
            dask_s = dask_count_s + dask_merge_s
            peak = max(mb for cmd, mb in procs.values())
            print(f"\ndask LocalCluster (2 workers): {dask_s:.1f} s = {dask_s / total_s:.2f}x single (merge loop "
                  f"{dask_merge_s / dask_s:.0%}), worker peak RSS {peak:,.0f} MB; client {rss_mb():,.0f} MB; "
                  f"identical tokenizer")  # fmt: skip
            results.update(
                dask_s=dask_s, dask_merge_s=dask_merge_s, dask_worker_rss_mb=peak, dask_client_rss_mb=rss_mb()
            )

        if not args.skip_spark:
            from pyspark.sql import SparkSession

            from fast_wordpiece import spark as fw_spark

            os.environ["PYSPARK_PYTHON"] = sys.executable
            files = [str(p) for p in paths]
            modes = [("files", "spark.train(paths)", lambda spark: files),
                     ("dataframe", "spark.train(spark.read.text(paths), column='value') (mapInArrow)",
                      lambda spark: spark.read.text(files))]  # fmt: skip
            if args.spark_rdd:
                modes.append(("rdd", "spark.train(sc.textFile(paths))",
                              lambda spark: spark.sparkContext.textFile(",".join(files), len(files))))  # fmt: skip
            for key, label, data in modes:
                spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
                         .config("spark.driver.memory", "2g").config("spark.ui.showConsoleProgress", "false")
                         .getOrCreate())  # fmt: skip
                spark.sparkContext.setLogLevel("ERROR")
                column = "value" if key == "dataframe" else "text"
                before = cpu_seconds()
                counts, count_s = timed(lambda: fw_spark.count(data(spark), column=column))  # noqa: B023
                after = cpu_seconds()
                cpu = {kind: after[kind] - before[kind] for kind in after}
                tok, merge_s = timed(lambda: PyTokenizer.train_from_counts(counts, args.vocab,  # noqa: B023
                                                                           show_progress=False))  # fmt: skip
                same = tok.to_json() == reference.to_json()
                procs = descendants()
                floor = None
                if key == "dataframe":
                    # Spark's own share: the same DataFrame handed to a mapInArrow
                    # that only takes the batches (text read, rows to Arrow, sent).
                    before = cpu_seconds()
                    _, floor_s = timed(lambda: spark.read.text(files).mapInArrow(_take_batches, "rows long").collect())  # noqa: B023
                    after = cpu_seconds()
                    floor = dict(s=floor_s, **{f"{k}_cpu_s": after[k] - before[k] for k in after})
                spark.stop()
                spark_s = count_s + merge_s
                jvm, python = peak_of(procs, "java"), peak_of(procs, os.path.basename(sys.executable), "pyspark")
                print(f"spark local[2], {label}: {spark_s:.1f} s = {spark_s / total_s:.2f}x single (merge loop "
                      f"{merge_s / spark_s:.0%}); peak RSS: Python workers {python:,.0f} MB, JVM {jvm:,.0f} MB "
                      f"(since the first Spark run), driver {rss_mb():,.0f} MB; "
                      f"{'identical' if same else 'DIFFERENT'} tokenizer; counting CPU: JVM {cpu['java']:.1f} s, "
                      f"Python workers {cpu['python']:.1f} s (single process: {count_cpu_s:.1f} s)")  # fmt: skip
                results[f"spark_{key}"] = dict(s=spark_s, merge_s=merge_s, python_rss_mb=python, jvm_rss_mb=jvm,
                                               identical=same, jvm_cpu_s=cpu["java"],
                                               python_cpu_s=cpu["python"])  # fmt: skip
                if floor:
                    print(f"  Spark alone (mapInArrow that only takes the batches): {floor['s']:.1f} s, CPU: JVM "
                          f"{floor['java_cpu_s']:.1f} s, Python workers {floor['python_cpu_s']:.1f} s")  # fmt: skip
                    results["spark_dataframe_floor"] = floor
        # Single process again, after the cluster runs: the machine is shared, so
        # each ratio is also given against the mean of the two single runs.
        again, again_count_s = timed(lambda: WordCounts.from_files(paths))
        _, again_merge_s = timed(lambda: PyTokenizer.train_from_counts(again, args.vocab, show_progress=False))
        again_s = again_count_s + again_merge_s
        print(f"single process again: {again_s:.1f} s (merge loop {again_merge_s:.1f} s); "
              f"mean of the two {(total_s + again_s) / 2:.1f} s")  # fmt: skip
        results.update(single_again_s=again_s, single_again_merge_s=again_merge_s)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
