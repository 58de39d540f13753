"""Command line: train a tokenizer, then show it encoding a sentence; or
analyze what a tokenizer makes of some text.

    python -m fast_wordpiece [FILE ...] [--vocab-size N] [--min-frequency N]
                             [--objective likelihood|pmi|frequency]
                             [--limit-alphabet N]
                             [--save tokenizer.json] [--sentence TEXT]
    python -m fast_wordpiece analyze TOKENIZER FILE ...
    python -m fast_wordpiece count FILE ... --out counts.fwc [--no-lowercase]
                                       [--pre-tokenizer NAME] [--errors replace]
    python -m fast_wordpiece train --counts counts.fwc ... [--vocab-size N] ...
    python -m fast_wordpiece compare [FILE ...] [--vocab-size N] [--plot out.png]

With no FILE, the corpus is the docstrings of the Python standard library,
which every Python installation has. ``analyze`` reads TOKENIZER as a
tokenizer file (.json) or a BERT vocab.txt (any other name) and prints the
counts and ratios of ``PyTokenizer.analyze`` over the lines of the FILEs.
``count`` writes the word counts of FILEs to a ``.fwc`` file (on each machine
of a cluster, say), and ``train --counts`` adds such files up and trains on
them, with the pipeline options they were counted with: the same tokenizer as
training on all the FILEs at once. ``compare`` trains the character, byte-level
BPE, WordPiece (and Unigram) tokenizers on the FILEs and prints the seed's
comparison table on held-out lines (``fast_wordpiece.compare``).
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import sysconfig
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import fast_wordpiece
from fast_wordpiece import BPETokenizer, CharTokenizer, PyTokenizer, WordCounts

DEFAULT_SENTENCE = "Tokenizers split unbelievably long words into familiar pieces!"
SKIPPED_STDLIB_DIRS = {"test", "tests", "idlelib", "site-packages", "lib2to3", "__pycache__"}


def stdlib_docstrings(max_bytes: int = 4_000_000) -> Iterator[str]:
    """Yields the docstrings of the standard library's modules, classes and
    functions, read with ``ast`` (nothing is imported), up to ``max_bytes``."""
    root = Path(sysconfig.get_paths()["stdlib"])
    total = 0
    for path in sorted(root.rglob("*.py")):
        if SKIPPED_STDLIB_DIRS.intersection(path.relative_to(root).parts):
            continue
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError, OSError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    yield doc
                    total += len(doc)
                    if total >= max_bytes:
                        return


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="fast-wordpiece", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="UTF-8 text files to train on (default: stdlib docstrings)")
    parser.add_argument("--counts", nargs="+", type=Path, default=[], metavar="FWC",
                        help="train on these word counts files (from `count`), added up")  # fmt: skip
    parser.add_argument("--vocab-size", type=int, default=8000)
    parser.add_argument("--min-frequency", type=int, default=2)
    parser.add_argument("--objective", choices=["likelihood", "pmi", "frequency"], default="likelihood",
                        help="how merges are ranked (default: likelihood)")  # fmt: skip
    parser.add_argument("--limit-alphabet", type=int, help="keep only the N most frequent characters")
    parser.add_argument("--save", type=Path, help="write the trained tokenizer (JSON) here")
    parser.add_argument("--sentence", default=DEFAULT_SENTENCE, help="the sentence to encode")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")
    return parser.parse_args(argv)


def analyze(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="fast-wordpiece analyze", description="What a tokenizer makes of text.")
    parser.add_argument("tokenizer", type=Path, help="a tokenizer file (.json: any of the family) or a BERT vocab.txt")
    parser.add_argument("files", nargs="+", type=Path, help="UTF-8 text files, analyzed line by line")
    args = parser.parse_args(argv)
    try:
        if args.tokenizer.suffix == ".json":
            tokenizer = load_any(args.tokenizer)
        else:
            tokenizer = PyTokenizer.from_vocab_file(args.tokenizer)
        lines = [line for f in args.files for line in f.read_text(encoding="utf-8").splitlines()]
        stats = tokenizer.analyze(lines)
    except (OSError, ValueError, TypeError) as e:
        print(f"fast-wordpiece: {e}", file=sys.stderr)
        return 2
    for key, value in stats.items():
        print(f"{key:<22}{value:,.4f}" if isinstance(value, float) else f"{key:<22}{value:,}")
    return 0


def load_any(path: Path) -> Any:
    """A tokenizer file of any tokenizer of the family: WordPiece (ours or Hugging Face's),
    byte-level BPE or Unigram (Hugging Face's tokenizer.json), or our character tokenizer."""
    try:
        root = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not valid JSON: {e}") from None
    kind = root.get("type") if isinstance(root, dict) else None
    model = root.get("model") if isinstance(root, dict) else None
    model_type = model.get("type") if isinstance(model, dict) else None
    if kind == "CharTokenizer":
        return CharTokenizer.load(path)
    if model_type == "BPE":
        return BPETokenizer.load(path)
    unigram = getattr(fast_wordpiece, "UnigramTokenizer", None)
    if model_type == "Unigram" and unigram is not None:
        return unigram.load(path)
    return PyTokenizer.load(path)


def count(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="fast-wordpiece count", description="Count the words of text files.")
    parser.add_argument("files", nargs="+", type=Path, help="UTF-8 text files")
    parser.add_argument("--out", type=Path, required=True, help="the word counts file to write (.fwc)")
    parser.add_argument("--errors", choices=["strict", "replace"], default="strict",
                        help="bytes that are not UTF-8: fail (default) or replace them")  # fmt: skip
    parser.add_argument("--no-lowercase", action="store_true", help="keep case (and accents)")
    parser.add_argument("--pre-tokenizer", choices=["bert", "whitespace", "regex", "wordpunct"], default="bert")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    args = parser.parse_args(argv)
    try:
        counts = WordCounts.from_files(args.files, errors=args.errors, show_progress=not args.no_progress,
                                       lowercase=not args.no_lowercase, pre_tokenizer=args.pre_tokenizer)  # fmt: skip
        counts.save(args.out)
    except (OSError, ValueError, TypeError) as e:
        print(f"fast-wordpiece: {e}", file=sys.stderr)
        return 2
    print(f"Counted {counts.total:,} words ({len(counts):,} distinct) into {args.out}.")
    return 0


def load_counts(paths: Sequence[Path]) -> WordCounts:
    """The word counts files, added up."""
    counts = WordCounts.load(paths[0])
    for path in paths[1:]:
        try:
            counts.update(WordCounts.load(path))
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["analyze"]:
        return analyze(argv[1:])
    if argv[:1] == ["count"]:
        return count(argv[1:])
    if argv[:1] == ["compare"]:
        from fast_wordpiece.compare import main as compare

        return compare(argv[1:])
    if argv[:1] == ["train"]:
        argv = argv[1:]
    args = parse_args(argv)
    training = {
        "objective": args.objective,
        "limit_alphabet": args.limit_alphabet,
        "show_progress": not args.no_progress,
    }
    started = time.perf_counter()
    try:
        if args.counts and args.files:
            raise ValueError("give text files or --counts, not both")
        if args.counts:
            counts = load_counts(args.counts)
            source = f"{len(args.counts)} word counts files ({counts.total:,} words, {len(counts):,} distinct)"
            tokenizer = PyTokenizer.train_from_counts(counts, args.vocab_size, args.min_frequency, **training)
        elif args.files:
            source = ", ".join(str(f) for f in args.files)
            tokenizer = PyTokenizer.train_from_files(args.files, args.vocab_size, args.min_frequency, **training)
        else:
            source = "the standard library's docstrings"
            corpus = list(stdlib_docstrings())
            source += f" ({sum(map(len, corpus)) / 1e6:.1f} MB)"
            tokenizer = PyTokenizer.train(corpus, args.vocab_size, args.min_frequency, **training)
    except (OSError, ValueError, TypeError) as e:
        print(f"fast-wordpiece: {e}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    print(f"Trained {tokenizer!r} on {source} in {seconds:.1f} s.")
    if args.save:
        tokenizer.save(args.save)
        print(f"Saved to {args.save}.")
    encoding = tokenizer.encode(args.sentence)
    print(f"\n{args.sentence!r} encodes as:")
    width = max(len(t) for t in encoding.tokens)
    for token, id_, (start, end) in zip(encoding.tokens, encoding.ids, encoding.offsets):
        print(f"  {token:<{width}}  id={id_:<6} text={args.sentence[start:end]!r}")
    print(f"\nDecoded: {tokenizer.decode(encoding.ids, skip_special_tokens=True)!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
