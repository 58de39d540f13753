#!/usr/bin/env python3
"""Installs a built wheel or sdist into a fresh virtual environment per
interpreter and checks that it works there.

For each interpreter: ``python -m venv``, ``pip install PACKAGE numpy``, then
this script again inside the environment (``--check``), which imports
fast_wordpiece from the installed package (not from a checkout), trains a
tiny tokenizer, encodes a pair, decodes, and encodes a padded batch as numpy
arrays. An sdist is built from source on the way (a Rust toolchain needed).

Usage::

    python scripts/smoke_wheel.py dist/fast_wordpiece-*.whl --python ~/.pyenv/versions/3.9.18/bin/python \\
        --python ~/.pyenv/versions/3.13.0/bin/python

Without ``--python``, the interpreter running this script is used. Exits 1 if
any check fails.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

CORPUS = [
    "the quick brown fox jumps over the lazy dog",
    "a lazy dog sleeps in the sun",
    "the fox and the dog are friends",
    "Überraschung: der Fuchs schläft nicht",
]


def expect(ok: bool, what: object) -> None:
    if not ok:
        raise SystemExit(f"smoke test failed: {what}")


def check() -> None:
    """The smoke test itself, run inside the fresh environment."""
    import numpy

    import fast_wordpiece
    from fast_wordpiece import PyTokenizer

    here = Path(fast_wordpiece.__file__).resolve()
    expect("site-packages" in here.parts, f"fast_wordpiece came from {here}, not from the installed package")
    native = Path(fast_wordpiece._native.__file__).name
    tok = PyTokenizer.train(CORPUS * 20, 120, 2, show_progress=False)
    expect(tok.vocab_size <= 120, tok)
    enc = tok.encode("the lazy fox", "a dog")
    expect(enc.tokens[0] == "[CLS]" and enc.tokens.count("[SEP]") == 2, enc.tokens)
    first = enc.tokens.index("[SEP]") + 1
    expect(enc.type_ids == [0] * first + [1] * (len(enc) - first), enc.type_ids)
    expect(tok.decode(enc.ids, skip_special_tokens=True) == "the lazy fox a dog", tok.decode(enc.ids))
    arrays = tok.encode_batch(["the fox", "the quick brown fox jumps"], padding="longest", return_tensors="np")
    ids, mask = arrays["input_ids"], arrays["attention_mask"]
    expect(ids.dtype == numpy.int64 and arrays["offsets"].shape == (*ids.shape, 2), arrays)
    expect(list(ids[1]) == tok.encode("the quick brown fox jumps").ids, ids)
    expect(mask[0].sum() < mask[1].sum() == ids.shape[1], mask)
    print(f"ok: fast_wordpiece {fast_wordpiece.__version__} ({native}) on Python {sys.version.split()[0]}")


def smoke(package: Path, python: str, workdir: Path) -> bool:
    venv = workdir / f"venv-{abs(hash(python))}"
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    steps = [
        [python, "-m", "venv", str(venv)],
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(package)],
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "numpy"],
        [str(bin_dir / "python"), str(Path(__file__).resolve()), "--check"],
    ]
    for step in steps:
        # From the work directory, so that a checkout's python/ cannot shadow the package.
        proc = subprocess.run(step, cwd=workdir, capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"FAILED on {python}: {' '.join(step)}\n{textwrap.indent(proc.stdout + proc.stderr, '    ')}")
            return False
    print(f"{python}: {proc.stdout.strip()}")
    return True


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("package", nargs="?", type=Path, help="the wheel or sdist to install")
    p.add_argument("--python", action="append", help="an interpreter to test on (repeatable; default: this one)")
    p.add_argument("--check", action="store_true", help=argparse.SUPPRESS)
    opts = p.parse_args(argv)
    if opts.check:
        check()
        return 0
    if opts.package is None or not opts.package.is_file():
        p.error(f"no such wheel or sdist: {opts.package}")
    with tempfile.TemporaryDirectory(prefix="fwp-smoke-") as tmp:
        results = [smoke(opts.package.resolve(), python, Path(tmp)) for python in opts.python or [sys.executable]]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
