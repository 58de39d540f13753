#!/usr/bin/env python3
"""Side-by-side benchmark from Python: our engine, the pure-Python twin, Hugging Face.

(a) Training
    * engine vs twin: ``PyTokenizer.train(lines, 4000, 2)`` on the first
      ``--twin-bytes`` (default 340 KB) of Shakespeare. The twin recounts every
      pair after every merge and may take minutes: ``--skip-twin`` leaves it out.
    * engine vs HF: ``PyTokenizer.train(lines, 30000, 2)`` against
      ``BertWordPieceTokenizer().train_from_iterator(lines, vocab_size=30000,
      min_frequency=2, show_progress=False)`` on the same in-memory GCIDE lines
      (the first ``--gcide-mb`` MB, decoded with errors="replace").

(b) Encoding: ~1 KB documents of real text (English: Shakespeare; multilingual:
    German, Russian and Chinese fortunes), MB/s of UTF-8 input, all loading the
    same vocab.txt (default: bert-base-uncased's, fetched by scripts/corpora.py).
    Two kinds of run, each compared like for like:
      * ids only: engine ``encode_batch`` reading ``.ids`` against HF
        ``encode_batch_fast`` (when this tokenizers has it) reading ``.ids``;
      * ids + offsets: engine ``encode_batch`` reading ``.ids`` and
        ``.offsets`` against HF ``encode_batch`` reading the same, and the twin
        (on a subset).
    Default threads, and one thread (``RAYON_NUM_THREADS=1``, plus
    ``TOKENIZERS_PARALLELISM=false`` for HF). Every run hashes what it read, so
    the table says whether the outputs agree.

Every measurement runs in a FRESH subprocess (this script re-invoked with
``--child``), so thread settings apply and the peak RSS reported (``VmHWM`` of
that child, read at its end) is that run's alone; "RSS before" is the child's
resident size after loading its input and before the measured call. Times are
wall-clock of the measured call only (interpreter start, imports and corpus
loading excluded).

Usage::

    python benches/bench_python.py                     # everything, ~10 min on 2 cores
    python benches/bench_python.py --skip-twin --gcide-mb 10 --json out.json
    python benches/bench_python.py --only encode --seconds 1
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
SCRIPTS = HERE.parent.parent / "scripts"
sys.path.insert(0, str(SCRIPTS))


# ============================================================================ child side


def _status(field: str) -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _peak_rss() -> int:
    hwm = _status("VmHWM")
    if hwm is not None:
        return hwm
    import resource

    ru = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return ru if sys.platform == "darwin" else ru * 1024


def _minor_faults() -> int:
    """This process's minor page faults so far (every thread's): each is a
    page touched for the first time, which the kernel zeroes and maps."""
    try:
        import resource
    except ImportError:  # Windows has no resource module
        return 0
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_minflt)


def _lines(spec: dict) -> list[str]:
    import corpora

    if spec["source"] == "shakespeare":
        return corpora.shakespeare_text(spec["bytes"]).splitlines()
    if spec["source"] == "gcide":
        return corpora.gcide_lines(max_bytes=spec["bytes"])
    raise ValueError(spec["source"])


def _tokenizer(impl: str, vocab: str) -> Any:
    if impl in ("engine", "engine_cache"):
        import fast_wordpiece

        tok = fast_wordpiece.PyTokenizer.from_vocab_file(vocab)
        tok.word_cache = impl == "engine_cache"
        return tok
    if impl == "twin":
        from fast_wordpiece import reference

        return reference.PyTokenizer.from_vocab_file(vocab)
    import tokenizers

    return tokenizers.BertWordPieceTokenizer(vocab)


def child_train(args: dict) -> dict:
    lines = _lines(args)
    nbytes = sum(len(x.encode("utf-8")) + 1 for x in lines)
    impl, vocab_size, min_frequency = args["impl"], args["vocab_size"], args["min_frequency"]
    mod: Any = None
    if impl == "hf":
        import tokenizers

        version = tokenizers.__version__
    elif impl == "twin":
        from fast_wordpiece import reference

        mod, version = reference, "pure Python"
    else:
        import fast_wordpiece

        mod, version = fast_wordpiece, fast_wordpiece.__version__
    rss_before = _status("VmRSS")
    t0, c0 = time.perf_counter(), time.process_time()
    if impl == "hf":
        tok = tokenizers.BertWordPieceTokenizer()
        tok.train_from_iterator(lines, vocab_size=vocab_size, min_frequency=min_frequency, show_progress=False)
        n = tok.get_vocab_size()
    else:
        tok = mod.PyTokenizer.train(lines, vocab_size, min_frequency, show_progress=False)
        n = tok.vocab_size
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    out = {
        "seconds": wall,
        "cpu_seconds": cpu,
        "vocab_len": n,
        "input_bytes": nbytes,
        "lines": len(lines),
        "rss_before": rss_before,
        "peak_rss": _peak_rss(),
        "version": version,
    }
    if impl != "hf" and args.get("digest"):
        vocab = tok.get_vocab()
        out["vocab_digest"] = hashlib.sha256("\n".join(sorted(vocab, key=vocab.get)).encode()).hexdigest()[:16]
    if args.get("save_vocab"):
        if impl == "hf":
            tok.save_model(str(Path(args["save_vocab"]).parent))
        else:
            tok.save_vocab(args["save_vocab"])
    return out


#: The encoding runs, each a way of getting the ids of a batch: ours as lists and
#: as flat numpy arrays, with the chunk cache (``word_cache``) off and on, the
#: peers' fastest batch APIs (when installed), HF.
ENCODERS = (
    "engine",
    "engine_np",
    "engine_cache",
    "engine_np_cache",
    "nanotoken_np",
    "nanotoken_lists",
    "tokie",
    "hf_fast",
)


def _encoder(impl: str, vocab: str, read: str) -> Any:
    """A function of a list of texts that encodes them with ``impl`` and returns
    what a caller gets (not yet turned into lists of ids), and a function that
    turns that into a list of lists of ids (and offsets), outside the timing."""
    if impl in ("engine", "engine_cache", "twin", "hf", "hf_fast"):
        tok = _tokenizer("hf" if impl.startswith("hf") else impl, vocab)
        encode = tok.encode_batch
        if impl == "hf_fast":
            inner = getattr(tok, "_tokenizer", tok)
            if not hasattr(inner, "encode_batch_fast"):
                raise LookupError("this tokenizers has no encode_batch_fast")
            encode = inner.encode_batch_fast
        if read == "ids":
            return (lambda docs: [e.ids for e in encode(docs)]), (lambda out: out)
        return (lambda docs: [(e.ids, e.offsets) for e in encode(docs)]), (
            lambda out: [(ids, [list(o) for o in offsets]) for ids, offsets in out]
        )
    if impl in ("engine_np", "engine_np_cache"):
        tok = _tokenizer("engine_cache" if impl.endswith("cache") else "engine", vocab)
        return (lambda docs: tok.encode_batch(docs, return_tensors="np")), (lambda out: out.tolist())
    if impl.startswith("nanotoken"):
        try:
            import nanotoken
        except ImportError:
            raise LookupError("nanotoken is not installed (pip install -e .[bench])") from None
        nt = nanotoken.Tokenizer.from_vocab(vocab)
        if impl == "nanotoken_np":
            return (lambda docs: nt.encode_batch(docs)), (lambda out: out.to_list())
        return (lambda docs: nt.encode_batch_list(docs)), (lambda out: out)
    if impl == "tokie":
        try:
            import tokie
        except ImportError:
            raise LookupError("tokie is not installed (pip install -e .[bench])") from None
        import tokenizers

        # tokie reads a tokenizer.json: HF's own BERT pipeline for this vocab.txt.
        hf = tokenizers.BertWordPieceTokenizer(vocab)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
            fh.write(hf._tokenizer.to_str())
        tk = tokie.Tokenizer.from_json(fh.name)
        os.unlink(fh.name)

        # tokie leaves out the post-processor of this tokenizer.json ([CLS] and
        # [SEP]): they are put around its rows for the exactness check.
        cls, sep = tk.token_to_id("[CLS]"), tk.token_to_id("[SEP]")

        def rows(out: Any) -> list:
            ids, lengths = out
            flat, bounds = ids.tolist(), [0]
            for n in lengths.tolist():
                bounds.append(bounds[-1] + n)
            return [
                row if row[:1] == [cls] else [cls, *row, sep] for row in (flat[a:b] for a, b in zip(bounds, bounds[1:]))
            ]

        return (lambda docs: tk.encode_batch_flat(docs)), rows
    raise ValueError(impl)


def _version(impl: str) -> str:
    if impl.startswith(("engine", "twin")):
        name = "fast_wordpiece"
    else:
        name = "tokenizers" if impl.startswith("hf") else impl.split("_")[0]
    try:
        return str(__import__(name).__version__)
    except (ImportError, AttributeError):
        try:
            from importlib.metadata import version

            return version(name)
        except Exception:
            return "?"


def _load(args: dict) -> tuple[list[str], Any, Any] | dict:
    """The child's documents and its encoder (as ``_encoder`` gives it), or
    ``{"unavailable": why}`` when the tool is not installed. numpy is
    imported first: its own import is not part of anyone's first call."""
    docs: list[str] = json.loads(Path(args["docs"]).read_text(encoding="utf-8"))
    with contextlib.suppress(ImportError):
        import numpy  # noqa: F401
    try:
        run_once, as_lists = _encoder(args["impl"], args["vocab"], args["read"])
    except LookupError as e:
        return {"unavailable": str(e)}
    return docs, run_once, as_lists


#: Warm calls whose output is kept, in the cold-call child (their outputs,
#: about twice the text's size each as numpy ids, stay alive to the end).
KEPT_CALLS = 8
#: Then warm calls, output kept, each made after the process sat idle this
#: long, as calls to a server come: an idle CPU is slower to start (its
#: caches and, on a virtual machine, its wake-up), whatever the tokenizer.
IDLE_CALLS, IDLE_SECONDS = 4, 0.2


def child_cold(args: dict) -> dict:
    """The first call set against warm calls on other texts: a fair version
    of ``first_seconds / seconds_median``, whose warm calls encode the first
    call's texts again (already in the CPU caches and in the word cache).

    The first call encodes one half of the set; then the halves alternate,
    so that no timed call encodes the texts the previous call encoded. Both
    are per byte of text (the halves differ in size).

    Then warm calls that keep what they return, as a pipeline that hands the
    batches on does: their output lands in memory the process has not used
    yet, as the first call's does, where a call whose output is thrown away
    gets the pages the last call gave back. The first call over those is the
    penalty of being first alone, without the kernel's first touch of the
    output's memory that every such call pays.

    Last, warm calls made after the process sat idle for ``IDLE_SECONDS``
    (output kept): the first call set against them says whether being first
    costs more than coming after a pause does."""
    loaded = _load(args)
    if isinstance(loaded, dict):
        return loaded
    docs, run_once, _ = loaded
    halves = [docs[: len(docs) // 2], docs[len(docs) // 2 :]]
    sizes = [sum(len(d.encode("utf-8")) for d in h) for h in halves]
    f0, c0, t0 = _minor_faults(), time.process_time(), time.perf_counter()
    run_once(halves[0])
    first = (time.perf_counter() - t0) / sizes[0]
    first_cpu, first_faults = (time.process_time() - c0) / sizes[0], _minor_faults() - f0
    warm: list[float] = []
    t_end = time.perf_counter() + args["seconds"]
    while len(warm) < 2 * args["min_reps"] or (time.perf_counter() < t_end and len(warm) < 50):
        k = (len(warm) + 1) % 2
        t0 = time.perf_counter()
        run_once(halves[k])
        warm.append((time.perf_counter() - t0) / sizes[k])
    kept: list[Any] = []
    kept_times: list[float] = []
    kept_cpu: list[float] = []
    kept_faults: list[int] = []
    for i in range(KEPT_CALLS):
        k = (i + 1) % 2
        f0, c0, t0 = _minor_faults(), time.process_time(), time.perf_counter()
        kept.append(run_once(halves[k]))
        kept_times.append((time.perf_counter() - t0) / sizes[k])
        kept_cpu.append((time.process_time() - c0) / sizes[k])
        kept_faults.append(_minor_faults() - f0)
    idle_times: list[float] = []
    for i in range(IDLE_CALLS):
        k = (i + 1) % 2
        time.sleep(IDLE_SECONDS)
        t0 = time.perf_counter()
        kept.append(run_once(halves[k]))
        idle_times.append((time.perf_counter() - t0) / sizes[k])
    # The first call on the other half is not warm yet: left out.
    return {
        "first_vs_other_warm": first / statistics.median(warm[1:]),
        "first_vs_kept_warm": first / statistics.median(kept_times),
        "first_vs_idle_warm": first / statistics.median(idle_times),
        # CPU time of every thread, which a busy machine inflates less than
        # the wall time (a thread waiting for a CPU costs none).
        "first_cpu_vs_kept_warm": first_cpu / statistics.median(kept_cpu),
        "first_faults": first_faults,
        "kept_warm_faults": statistics.median(kept_faults),
    }


def child_encode(args: dict) -> dict:
    loaded = _load(args)
    if isinstance(loaded, dict):
        return loaded
    docs, run_once, as_lists = loaded
    if args.get("max_docs"):
        docs = docs[: args["max_docs"]]
    nbytes = sum(len(d.encode("utf-8")) for d in docs)
    impl = args["impl"]

    def run() -> Any:
        return run_once(docs)

    # The first call, then warm ones: the ratio is the cold-call penalty.
    t0 = time.perf_counter()
    run()
    first = time.perf_counter() - t0
    times = []
    t_end = time.perf_counter() + args["seconds"]
    out: Any = None
    while True:
        t0 = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - t0)
        if len(times) >= args["min_reps"] and time.perf_counter() >= t_end:
            break
        if len(times) >= 50:
            break
    rows = as_lists(out)
    # Every row's ids (and offsets), so that "exact" means the whole batch.
    digest = hashlib.sha256(json.dumps(rows[: args["digest_docs"]] if args.get("digest_docs") else rows).encode())
    med = statistics.median(times)
    tokens = sum(len(x) if args["read"] == "ids" else len(x[0]) for x in rows)
    return {
        "seconds_median": med,
        "first_seconds": first,
        "reps": len(times),
        "docs_count": len(docs),
        "input_bytes": nbytes,
        "mb_per_s": nbytes / med / 1e6,
        "tokens": tokens,
        "digest": digest.hexdigest()[:16],
        "peak_rss": _peak_rss(),
        "version": _version(impl),
    }


def child_scaling(args: dict) -> dict:
    """The engine on one thread and on all, alternating rep by rep in one
    process (``num_threads``), so that a noisy neighbour slows both alike.
    "nothing" reads no field: the encoding alone, without Python lists."""
    import fast_wordpiece

    docs: list[str] = json.loads(Path(args["docs"]).read_text(encoding="utf-8"))
    nbytes = sum(len(d.encode("utf-8")) for d in docs)
    tok = fast_wordpiece.PyTokenizer.from_vocab_file(args["vocab"])
    every = os.cpu_count() or 1
    out: dict[str, Any] = {"threads": every}
    for read in ("ids", "ids+offsets", "nothing"):

        def run(n: int, read: str = read) -> list:
            encodings = tok.encode_batch(docs, num_threads=n)
            if read == "ids":
                return [e.ids for e in encodings]
            if read == "ids+offsets":
                return [(e.ids, e.offsets) for e in encodings]
            return encodings

        times: dict[int, list[float]] = {1: [], every: []}
        kept: list = run(1)
        run(every)
        t_end = time.perf_counter() + args["seconds"]
        while len(times[1]) < 5 or time.perf_counter() < t_end:
            for n in (1, every):
                t0 = time.perf_counter()
                kept = run(n)
                times[n].append(time.perf_counter() - t0)
        del kept
        one, many = statistics.median(times[1]), statistics.median(times[every])
        # Each one-thread rep against the all-threads rep right after it: a
        # machine whose speed drifts during the run slows both of a pair alike.
        pairs = [a / b for a, b in zip(times[1], times[every])]
        q1, paired, q3 = statistics.quantiles(pairs, n=4)
        out[read] = {
            "one_mb_per_s": nbytes / one / 1e6,
            "all_mb_per_s": nbytes / many / 1e6,
            "speedup": one / many,
            "paired_speedup": paired,
            "paired_quartiles": [q1, q3],
            "reps": len(times[1]),
        }
    return out


def child_docs(args: dict) -> dict:
    """Write the document sets as JSON files: ~1 KB documents (English, dictionary,
    multilingual) and short lines (English, multilingual), each about
    ``docs * doc_bytes`` bytes."""
    import corpora

    def pack(lines: list[str], target: int, count: int) -> list[str]:
        docs, cur, size = [], [], 0
        for line in lines:
            line = line.strip()
            if not line:
                continue
            cur.append(line)
            size += len(line.encode("utf-8")) + 1
            if size >= target:
                docs.append("\n".join(cur))
                cur, size = [], 0
                if len(docs) >= count:
                    break
        return docs

    def cut(lines: list[str], total: int) -> list[str]:
        out, size = [], 0
        for line in lines:
            line = line.strip()
            if line:
                out.append(line)
                size += len(line.encode("utf-8"))
                if size >= total:
                    break
        return out

    n, target = args["docs"], args["doc_bytes"]
    shakespeare = corpora.shakespeare_text().splitlines()
    per_lang = [corpora.fortune_lines(lang) for lang in ("de", "ru", "zh")]
    packed = [pack(lines, target, n // 3 + 1) for lines in per_lang]
    sets = {
        "english": pack(shakespeare, target, n),
        "english-lines": cut(shakespeare, n * target),
        "dictionary": pack(corpora.gcide_lines(max_bytes=4 * n * target), target, n),
        "multilingual": [d for trio in zip(*packed) for d in trio][:n],
        "multilingual-lines": cut(corpora.multilingual_lines(), n * target),
    }
    out = {}
    for name, docs in sets.items():
        if args.get("sets") and name not in args["sets"]:
            continue
        path = Path(args["dir"]) / f"docs-{name}.json"
        path.write_text(json.dumps(docs, ensure_ascii=False), encoding="utf-8")
        out[name] = {"path": str(path), "docs": len(docs), "bytes": sum(len(d.encode("utf-8")) for d in docs)}
    return out


def child_main(payload: str) -> None:
    args = json.loads(payload)
    task = args.pop("task")
    fn = {
        "train": child_train,
        "encode": child_encode,
        "cold": child_cold,
        "docs": child_docs,
        "scaling": child_scaling,
    }[task]
    print("\n" + json.dumps(fn(args)))


# ============================================================================ parent side


def run_child(args: dict, threads: int | None = None, timeout: float | None = None) -> dict:
    env = dict(os.environ)
    for var in ("RAYON_NUM_THREADS", "TOKENIZERS_PARALLELISM"):
        env.pop(var, None)
    if threads is not None:
        env["RAYON_NUM_THREADS"] = str(threads)
        if threads == 1:
            env["TOKENIZERS_PARALLELISM"] = "false"
    # Importing numpy starts OpenBLAS's threads, which spin for about 0.1 s:
    # a child's first call, made within that time, would share a core with
    # them (at two threads our first call took 2.27x a warm one instead of
    # 1.22x). Nothing here uses BLAS, so no tokenizer loses by it.
    env["OPENBLAS_NUM_THREADS"] = "1"
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, str(HERE), "--child", json.dumps(args)],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if proc.returncode != 0:
        return {"error": (proc.stderr or proc.stdout)[-1500:]}
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["child_wall"] = time.perf_counter() - t0
    return out


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def mb(x: float | None) -> str:
    return "-" if x is None else f"{x / 1e6:,.0f}"


def fmt_s(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.3f}" if x < 10 else f"{x:,.1f}"


def ratio(a: float | None, b: float | None) -> str:
    if not a or not b:
        return "-"
    return f"{a / b:,.1f}x"


def bench_training(opts: argparse.Namespace, results: dict) -> None:
    rows = results.setdefault("training", [])
    # (1) engine vs twin on Shakespeare
    spec = {
        "task": "train",
        "source": "shakespeare",
        "bytes": opts.twin_bytes,
        "vocab_size": opts.twin_vocab,
        "min_frequency": 2,
        "digest": True,
    }
    impls = ["engine"] + ([] if opts.skip_twin else ["twin"])
    for impl in impls:
        log(f"training {impl} on {opts.twin_bytes:,} bytes of Shakespeare, vocab {opts.twin_vocab} ...")
        r = run_child({**spec, "impl": impl}, timeout=opts.twin_timeout if impl == "twin" else None)
        rows.append({"run": "shakespeare", "impl": impl, **r})
    # (2) engine vs HF on GCIDE
    nbytes = int(opts.gcide_mb * 1e6)
    spec = {"task": "train", "source": "gcide", "bytes": nbytes, "vocab_size": 30000, "min_frequency": 2}
    for impl in ("engine", "hf"):
        for threads in [None] + ([1] if opts.train_single_thread else []):
            log(f"training {impl} on {opts.gcide_mb:g} MB of GCIDE, vocab 30000, threads {threads or 'default'} ...")
            r = run_child({**spec, "impl": impl}, threads=threads)
            rows.append({"run": "gcide", "impl": impl, "threads": threads or "default", **r})


def bench_encoding(opts: argparse.Namespace, results: dict, workdir: Path) -> None:
    log("building documents ...")
    docs = run_child(
        {"task": "docs", "dir": str(workdir), "docs": opts.docs, "doc_bytes": opts.doc_bytes, "sets": opts.sets}
    )
    if "error" in docs:
        raise SystemExit(f"could not build documents: {docs['error']}")
    docs.pop("child_wall", None)
    results["documents"] = docs
    vocab = opts.vocab
    if vocab is None:
        import corpora

        vocab = str(corpora.bert_vocab_path())
    results["vocab"] = vocab
    rows = results.setdefault("encoding", [])
    runs = [(impl, "ids") for impl in opts.encoders or ENCODERS]
    if opts.offsets:
        runs += [("engine", "ids+offsets"), ("hf", "ids+offsets")]
    if not opts.skip_twin:
        runs.append(("twin", "ids+offsets"))
    for name, info in docs.items():
        for threads in opts.threads:
            threads = None if threads == 0 else threads
            for impl, read in runs:
                if impl == "twin" and threads is None:
                    continue  # the twin is single-threaded anyway
                spec = {
                    "task": "encode",
                    "impl": impl,
                    "read": read,
                    "vocab": vocab,
                    "docs": info["path"],
                    "seconds": opts.seconds,
                    "min_reps": 1 if impl == "twin" else 3,
                    "max_docs": opts.twin_docs if impl == "twin" else None,
                    "digest_docs": opts.twin_docs if impl == "twin" or read != "ids" else None,
                }
                log(f"encoding {name} with {impl} ({read}), threads {threads or 'default'} ...")
                r = run_child(spec, threads=threads)
                if impl.startswith("engine") and "mb_per_s" in r:
                    cold = run_child({**spec, "task": "cold"}, threads=threads)
                    r["first_vs_other_warm"] = cold.get("first_vs_other_warm")
                    r["first_vs_kept_warm"] = cold.get("first_vs_kept_warm")
                    r["first_vs_idle_warm"] = cold.get("first_vs_idle_warm")
                    for key in ("first_cpu_vs_kept_warm", "first_faults", "kept_warm_faults"):
                        r[key] = cold.get(key)
                rows.append({"docs": name, "impl": impl, "read": read, "threads": threads or "default", **r})
        if opts.scaling_seconds > 0:
            log(f"encoding {name} with the engine, one thread and all threads alternating ...")
            r = run_child({"task": "scaling", "vocab": vocab, "docs": info["path"], "seconds": opts.scaling_seconds})
            results.setdefault("scaling", {})[name] = r


def _faults(faults: tuple) -> str:
    """``; CPU 1.08x; faults 387 / 542`` for a cold child's CPU time ratio
    and the page faults of its first and warm calls (empty when absent)."""
    cpu, first, warm = faults
    if cpu is None:
        return ""
    return f"; CPU {cpu:.2f}x; faults {first:,} / {warm:,.0f}"


def render(results: dict) -> str:
    out = []
    meta = results["meta"]
    out.append(
        f"# fast-wordpiece Python benchmark\n\n{meta['machine']}; Python {meta['python']}; "
        f"{meta['cpus']} CPUs; engine {meta.get('engine_version', '?')}; tokenizers {meta.get('hf_version', '?')}\n"
    )
    if results.get("training"):
        out.append("## Training\n")
        out.append(
            "| corpus | implementation | threads | input MB | lines | vocab | wall s | CPU s | RSS before MB "
            "| peak RSS MB | peak - before MB |"
        )
        out.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in results["training"]:
            if "error" in r:
                out.append(
                    f"| {r['run']} | {r['impl']} | {r.get('threads', 'default')} | | | | error: "
                    f"{r['error'].strip().splitlines()[-1][:80]} | | | | |"
                )
                continue
            delta = (r["peak_rss"] - r["rss_before"]) if r.get("rss_before") else None
            out.append(
                f"| {r['run']} | {r['impl']} | {r.get('threads', 'default')} | {r['input_bytes'] / 1e6:.2f} "
                f"| {r['lines']:,} | {r['vocab_len']:,} | {fmt_s(r['seconds'])} | {fmt_s(r['cpu_seconds'])} "
                f"| {mb(r.get('rss_before'))} | {mb(r['peak_rss'])} | {mb(delta)} |"
            )
        out.append("")
        by = {(r["run"], r["impl"], r.get("threads", "default")): r for r in results["training"] if "error" not in r}
        e, t = by.get(("shakespeare", "engine", "default")), by.get(("shakespeare", "twin", "default"))
        if e and t:
            same = e.get("vocab_digest") == t.get("vocab_digest")
            out.append(
                f"- twin / engine training time (Shakespeare): **{ratio(t['seconds'], e['seconds'])}** "
                f"(same vocabulary: {'yes' if same else 'NO'})"
            )
        for threads in ("default", 1):
            e, h = by.get(("gcide", "engine", threads)), by.get(("gcide", "hf", threads))
            if e and h:
                he = (h["peak_rss"] - (h["rss_before"] or 0), e["peak_rss"] - (e["rss_before"] or 0))
                out.append(
                    f"- HF / engine training time (GCIDE, threads {threads}): **{ratio(h['seconds'], e['seconds'])}**; "
                    f"peak RSS HF / engine: {ratio(h['peak_rss'], e['peak_rss'])} "
                    f"(training's own growth: {ratio(he[0], he[1])})"
                )
        out.append("")
    if results.get("encoding"):
        out.extend(render_encoding(results))
    return "\n".join(out)


ENCODE_LABEL = {
    "engine": "ours (lists)",
    "engine_np": "ours (numpy)",
    "engine_cache": "ours (lists, cache)",
    "engine_np_cache": "ours (numpy, cache)",
    "nanotoken_np": "nanotoken (numpy)",
    "nanotoken_lists": "nanotoken (lists)",
    "tokie": "tokie (numpy)",
    "hf_fast": "HF encode_batch_fast",
    "hf": "HF encode_batch",
    "twin": "twin encode_batch",
}


def render_encoding(results: dict) -> list[str]:
    """One row per document set and thread count, one column per way of encoding:
    MB/s of input, and whether the ids of every document equal HF's (✓) or not (✗)."""
    docs = results.get("documents", {})
    out = ["## Encoding\n"]
    out.append(
        "Documents: "
        + "; ".join(f"{k}: {v['docs']:,} texts, {v['bytes'] / 1e6:.2f} MB" for k, v in docs.items())
        + f". vocab.txt: `{results.get('vocab')}`. MB/s of UTF-8 input (median of the warm calls); "
        "✓: the ids of every text equal HF's, ✗: they do not.\n"
    )
    rows = [r for r in results["encoding"] if r["read"] == "ids"]
    impls = [i for i in ENCODERS if any(r["impl"] == i for r in rows)]
    by = {(r["docs"], r["threads"], r["impl"]): r for r in rows}
    out.append("| set | threads | " + " | ".join(ENCODE_LABEL[i] for i in impls) + " | ours best / best peer |")
    out.append("|---|---:|" + "---:|" * len(impls) + "---:|")
    colds = []
    for name in docs:
        for threads in dict.fromkeys(r["threads"] for r in rows if r["docs"] == name):
            hf = by.get((name, threads, "hf_fast"))
            cells, best = [], {"ours": 0.0, "peer": 0.0}
            for impl in impls:
                r = by.get((name, threads, impl))
                if r is None or "mb_per_s" not in r:
                    why = "-" if r is None else (r.get("unavailable") or "error")
                    cells.append("n/a" if "not installed" in why else why[:30])
                    continue
                mark = "" if hf is None or "digest" not in hf else (" ✓" if r["digest"] == hf["digest"] else " ✗")
                cells.append(f"{r['mb_per_s']:,.1f}{mark}")
                side = "ours" if impl.startswith("engine") else "peer"
                if impl != "hf_fast" or side == "ours":
                    best[side] = max(best[side], r["mb_per_s"])
                if impl.startswith("engine") and r.get("first_seconds"):
                    fair = (r.get("first_vs_other_warm"), r.get("first_vs_kept_warm"), r.get("first_vs_idle_warm"))
                    faults = (r.get("first_cpu_vs_kept_warm"), r.get("first_faults"), r.get("kept_warm_faults"))
                    colds.append((name, threads, impl, r["first_seconds"] / r["seconds_median"], fair, faults))
            lead = f"{best['ours'] / best['peer']:.2f}x" if best["ours"] and best["peer"] else "-"
            out.append(f"| {name} | {threads} | " + " | ".join(cells) + f" | {lead} |")
    out.append("")
    if colds:
        out.append(
            "First call / median warm call on the same texts (in brackets: first call on half "
            "the texts / median warm call on the other texts, per byte; then / median warm call on "
            f"the other texts that keeps its output; then / the same after {IDLE_SECONDS:g} s idle; then "
            "CPU time of the first call / of a warm call that keeps its output, and the minor page faults of "
            "each), ours: "
            + "; ".join(
                f"{n} {t} thr {ENCODE_LABEL[i]} {c:.2f}"
                + (" (" + "; ".join(f"{x:.2f}" for x in fair if x) + _faults(faults) + ")" if any(fair) else "")
                for n, t, i, c, fair, faults in colds
            )
            + "\n"
        )
    extra = [r for r in results["encoding"] if r["read"] != "ids" and "mb_per_s" in r]
    if extra:
        out.append("| set | reads | implementation | threads | texts timed | MB/s |")
        out.append("|---|---|---|---|---:|---:|")
        for r in extra:
            out.append(
                f"| {r['docs']} | {r['read']} | {ENCODE_LABEL.get(r['impl'], r['impl'])} | {r['threads']} "
                f"| {r['docs_count']:,} | {r['mb_per_s']:,.2f} |"
            )
        out.append("")
    for name in docs:
        for read in ("ids", "ids+offsets", "nothing"):
            alt = results.get("scaling", {}).get(name, {}).get(read)
            if alt:
                q1, q3 = alt.get("paired_quartiles", (float("nan"),) * 2)
                out.append(
                    f"- {name}, reading {read}: engine on all threads / one thread, alternating in one "
                    f"process ({alt['reps']} reps each, {alt['one_mb_per_s']:.1f} -> "
                    f"{alt['all_mb_per_s']:.1f} MB/s) = **{alt['speedup']:.2f}x** (ratio of the medians); "
                    f"median of the ratios of neighbouring reps **{alt['paired_speedup']:.2f}x** "
                    f"(middle half {q1:.2f}-{q3:.2f})"
                )
    out.append("")
    return out


def plot_encoding(results: dict, path: str) -> None:
    """Bars of MB/s: per document set and thread count, every way of encoding."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in results["encoding"] if "mb_per_s" in r and r["read"] == "ids"]
    impls = [i for i in ENCODERS if any(r["impl"] == i for r in rows)]
    groups = list(dict.fromkeys((r["docs"], r["threads"]) for r in rows))
    fig, ax = plt.subplots(figsize=(max(8, 1.6 * len(groups)), 4.8))
    width = 0.8 / max(1, len(impls))
    for k, impl in enumerate(impls):
        heights = [
            next((r["mb_per_s"] for r in rows if (r["docs"], r["threads"], r["impl"]) == (*g, impl)), 0) for g in groups
        ]
        xs = [i + (k - (len(impls) - 1) / 2) * width for i in range(len(groups))]
        bars = ax.bar(xs, heights, width=width, label=ENCODE_LABEL[impl])
        ax.bar_label(bars, fmt="%.0f", fontsize=6)
    ax.set_xticks(range(len(groups)), [f"{name}\n{t} thread{'s' if t != 1 else ''}" for name, t in groups], fontsize=8)
    ax.set_ylabel("MB/s of input")
    ax.legend(fontsize=8)
    fig.suptitle(f"Encoding through Python, bert-base-uncased vocab, {results['meta']['cpus']} CPUs")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--only", choices=["train", "encode"], help="run one half only")
    p.add_argument("--skip-twin", action="store_true", help="leave the pure-Python twin out (it is slow)")
    p.add_argument("--twin-bytes", type=int, default=340_000, help="Shakespeare bytes for engine vs twin (340000)")
    p.add_argument("--twin-vocab", type=int, default=4000, help="vocab_size for engine vs twin (4000)")
    p.add_argument("--twin-timeout", type=float, default=900, help="give up on the twin's training after this many s")
    p.add_argument("--gcide-mb", type=float, default=40, help="MB of GCIDE for engine vs HF training (40 = all)")
    p.add_argument(
        "--train-single-thread", action="store_true", help="also train engine and HF on GCIDE with one thread"
    )
    p.add_argument("--docs", type=int, default=2000, help="documents per language group (2000)")
    p.add_argument("--doc-bytes", type=int, default=1000, help="target document size in bytes (1000)")
    p.add_argument("--twin-docs", type=int, default=200, help="documents the twin encodes (200)")
    p.add_argument("--seconds", type=float, default=2.0, help="time each encoding run at least this long (2)")
    p.add_argument(
        "--scaling-seconds",
        type=float,
        default=20.0,
        help="alternate one thread and all threads this long per read pattern (20)",
    )
    p.add_argument(
        "--sets",
        nargs="+",
        choices=["english", "english-lines", "dictionary", "multilingual", "multilingual-lines"],
        help="document sets to encode (default: all five)",
    )
    p.add_argument(
        "--threads", nargs="+", type=int, default=[1, 2], help="thread counts to encode with, 0 = default (1 2)"
    )
    p.add_argument("--encoders", nargs="+", choices=ENCODERS, help="encoding runs (default: all)")
    p.add_argument("--offsets", action="store_true", help="also time ids + offsets (engine, HF encode_batch)")
    p.add_argument("--vocab", help="vocab.txt for encoding (default: bert-base-uncased's)")
    p.add_argument("--plot", help="also draw the encoding MB/s as a PNG here (needs matplotlib)")
    p.add_argument("--json", help="also write the results here")
    opts = p.parse_args(argv)
    if opts.child:
        child_main(opts.child)
        return 0

    import fast_wordpiece

    try:
        import tokenizers

        hf_version = tokenizers.__version__
    except ImportError:
        raise SystemExit("this benchmark needs Hugging Face tokenizers: pip install tokenizers") from None
    import corpora

    try:
        corpora.fetch_all()
    except corpora.CorpusUnavailable as e:
        raise SystemExit(f"corpus unavailable: {e}") from None
    results: dict[str, Any] = {
        "meta": {
            "machine": f"{platform.system()} {platform.machine()}",
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "engine_version": fast_wordpiece.__version__,
            "hf_version": hf_version,
            "argv": sys.argv[1:],
            "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
    }
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="fwp-bench-") as tmp:
        if opts.only in (None, "train"):
            bench_training(opts, results)
        if opts.only in (None, "encode"):
            bench_encoding(opts, results, Path(tmp))
    results["meta"]["total_seconds"] = time.perf_counter() - t0
    print(render(results))
    print(f"(total {results['meta']['total_seconds']:.0f} s)")
    if opts.json:
        Path(opts.json).write_text(json.dumps(results, indent=1) + "\n")
        log(f"results written to {opts.json}")
    if opts.plot and results.get("encoding"):
        plot_encoding(results, opts.plot)
        log(f"plot written to {opts.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
