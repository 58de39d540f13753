#!/usr/bin/env python3
"""Loading a tokenizer: ours against Hugging Face's ``tokenizers`` (and
nanotoken, which reads ``vocab.txt`` only), side by side in one process.

Files: bert-base-uncased's ``vocab.txt`` and ``tokenizer.json``
(``scripts/corpora.py``), and the real Hugging Face files in
``../shared/data/hf-tokenizers`` (or ``FWP_HF_TOKENIZERS``) when that folder
exists. Each round loads every file with every tool once, the order
rotating, so that a noisy machine slows them alike. Printed per file and
tool: the median milliseconds, and the median of the per-round ratios of
the other tool's time to ours (above 1: we load faster).

``--build`` adds another build of the engine (a wheel or a ``_native``
extension file), e.g. the one before a change.

Usage::

    python benches/bench_load.py [--rounds 21] [--build before.so]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent.parent / "scripts"))
sys.path.insert(0, str(HERE.parent))

from compare_builds import extension, load  # noqa: E402

SHARED = Path(os.environ.get("FWP_HF_TOKENIZERS", HERE.parent.parent.parent / "shared" / "data" / "hf-tokenizers"))


def _files() -> list[tuple[str, Path]]:
    import corpora

    vocab = corpora.bert_vocab_path()
    files = [
        ("bert-base-uncased vocab.txt", vocab),
        ("bert-base-uncased tokenizer.json", vocab.parent / "tokenizer.json"),
    ]
    for name in ("bert-base-multilingual-cased", "bert-base-chinese", "baai-bge-small-en", "issue-100"):
        path = SHARED / name / "tokenizer.json"
        if path.is_file():
            files.append((f"{name} tokenizer.json", path))
    return files


def _loaders(path: Path, builds: dict[str, Any]) -> dict[str, Callable[[], object]]:
    """Every tool that can load ``path``, by name; ours first."""
    loaders: dict[str, Callable[[], object]] = {}
    for name, module in builds.items():
        cls = module.PyTokenizer
        if path.suffix == ".txt":
            loaders[name] = lambda cls=cls: cls.from_vocab_file(str(path))
        else:
            loaders[name] = lambda cls=cls: cls.from_file(str(path))
    try:
        import tokenizers

        if path.suffix == ".json":
            loaders["hf"] = lambda: tokenizers.Tokenizer.from_file(str(path))
        else:
            loaders["hf"] = lambda: tokenizers.BertWordPieceTokenizer(str(path), lowercase=True)
    except ImportError:
        pass
    if path.suffix == ".txt":
        try:
            import nanotoken

            loaders["nanotoken"] = lambda: nanotoken.Tokenizer.from_vocab(str(path))
        except ImportError:
            pass
    return loaders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=21, help="rounds per file (default 21)")
    parser.add_argument("--build", type=Path, help="another build of the engine, as 'ours[build]'")
    args = parser.parse_args()
    import fast_wordpiece

    builds: dict[str, Any] = {"ours": fast_wordpiece}
    with tempfile.TemporaryDirectory() as tmp:
        if args.build:
            builds["ours[build]"] = load(extension(args.build, Path(tmp)), 0)
        for label, path in _files():
            loaders = _loaders(path, builds)
            times: dict[str, list[float]] = {name: [] for name in loaders}
            names = list(loaders)
            for r in range(args.rounds):
                for name in names[r % len(names) :] + names[: r % len(names)]:
                    t0 = time.perf_counter()
                    loaders[name]()
                    times[name].append(time.perf_counter() - t0)
            print(f"{label}:")
            for name in names:
                med = statistics.median(times[name]) * 1e3
                if name == "ours":
                    print(f"  {name:12s} {med:8.2f} ms")
                    continue
                ratio = statistics.median(t / o for t, o in zip(times[name], times["ours"]))
                print(f"  {name:12s} {med:8.2f} ms   {name} / ours {ratio:.2f}x")


if __name__ == "__main__":
    main()
