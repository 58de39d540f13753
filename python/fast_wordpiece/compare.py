"""A four-way comparison: train WordPiece, character, byte-level BPE
and (when this build has it) Unigram on one corpus, and measure each on
held-out text.

    python -m fast_wordpiece compare [FILE ...] [--vocab-size N] [--held-out F]
                                     [--min-frequency N] [--plot out.png]

Every tokenizer is measured the same way: characters per
token (code points / tokens), unknown rate (unknown tokens / tokens) and
tokens per word (tokens / whitespace-separated words), with no special tokens
added. The held-out text is the last ``--held-out`` share of the lines
(default 10%); training sees the rest.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import fast_wordpiece
from fast_wordpiece.cli import path_argument


@dataclass
class Row:
    name: str
    vocab_size: int
    characters_per_token: float
    unknown_rate: float
    tokens_per_word: float
    train_seconds: float


def measure(name: str, tokenizer: Any, seconds: float, held_out: Sequence[str], encode: Callable[..., Any]) -> Row:
    """One row: ``encode(texts)`` gives each text's ids (or objects with ``.ids``)."""
    encoded = encode(list(held_out))
    ids = [getattr(e, "ids", e) for e in encoded]
    unk_token = getattr(tokenizer, "unk_token", None)
    if unk_token is None and hasattr(tokenizer, "options"):
        unk_token = tokenizer.options().get("unk_token")
    unk = tokenizer.token_to_id(unk_token) if isinstance(unk_token, str) else None
    tokens = sum(map(len, ids))
    unknown = sum(1 for seq in ids for i in seq if i == unk) if unk is not None else 0
    characters = sum(map(len, held_out))
    words = sum(len(t.split()) for t in held_out)
    return Row(
        name=name,
        vocab_size=tokenizer.vocab_size,
        characters_per_token=characters / tokens if tokens else 0.0,
        unknown_rate=unknown / tokens if tokens else 0.0,
        tokens_per_word=tokens / words if words else 0.0,
        train_seconds=seconds,
    )


class ComparisonError(Exception):
    """One tokenizer of the comparison failed to train or to encode: ``tokenizer``
    names it (``"BPE (byte-level)"``, ...), ``error`` is what it raised (also the
    ``__cause__``), and the message is ``"BPE (byte-level): <its message>"``."""

    def __init__(self, tokenizer: str, error: Exception) -> None:
        super().__init__(f"{tokenizer}: {error}" if str(error) else f"{tokenizer}: {type(error).__name__}")
        self.tokenizer = tokenizer
        self.error = error


def timed(train: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    tokenizer = train()
    return tokenizer, time.perf_counter() - started


def compare(train_texts: Sequence[str], held_out: Sequence[str], vocab_size: int, min_frequency: int = 2) -> list[Row]:
    """Trains each tokenizer of the family on ``train_texts``; one row each, measured on ``held_out``.
    A tokenizer that fails (to train or to encode) is a :class:`ComparisonError` that names it."""
    texts = list(train_texts)
    contestants: list[tuple[str, Callable[[], Any], Callable[[Any], Callable[..., Any]]]] = [
        (
            "Character",
            lambda: fast_wordpiece.CharTokenizer.train(texts, min_frequency=min_frequency, show_progress=False),
            lambda tok: tok.encode_batch,
        ),
        (
            "BPE (byte-level)",
            lambda: fast_wordpiece.BPETokenizer.train(texts, vocab_size, min_frequency, show_progress=False),
            lambda tok: tok.encode_batch,
        ),
        (
            "WordPiece",
            lambda: fast_wordpiece.PyTokenizer.train(texts, vocab_size, min_frequency, show_progress=False),
            lambda tok: lambda t: tok.encode_batch(t, add_special_tokens=False),
        ),
    ]
    unigram_class = getattr(fast_wordpiece, "UnigramTokenizer", None)
    if unigram_class is not None:
        contestants.append(
            (
                "Unigram",
                lambda: unigram_class.train(texts, vocab_size, show_progress=False),
                lambda tok: tok.encode_batch,
            )
        )
    rows = []
    for name, train, encoder in contestants:
        try:
            tokenizer, seconds = timed(train)
            rows.append(measure(name, tokenizer, seconds, held_out, encoder(tokenizer)))
        except Exception as e:  # KeyboardInterrupt (a BaseException) goes through as it is
            raise ComparisonError(name, e) from e
    return rows


def table(rows: Sequence[Row]) -> str:
    head = (
        f"{'tokenizer':<18}{'vocab size':>12}{'chars/token':>13}{'unknown rate':>14}{'tokens/word':>13}{'train s':>9}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.name:<18}{r.vocab_size:>12,}{r.characters_per_token:>13.2f}{r.unknown_rate:>13.2%}"
            f"{r.tokens_per_word:>14.2f}{r.train_seconds:>9.2f}"
        )
    return "\n".join(lines)


def plot(rows: Sequence[Row], path: Path) -> None:
    import matplotlib  # type: ignore[import-not-found, unused-ignore]

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]

    metrics = [
        ("vocab_size", "vocabulary size"),
        ("characters_per_token", "characters per token"),
        ("unknown_rate", "unknown rate"),
        ("tokens_per_word", "tokens per word"),
    ]
    fig, axes = plt.subplots(1, len(metrics), figsize=(4 * len(metrics), 3.5))
    names = [r.name for r in rows]
    for ax, (key, title) in zip(axes, metrics):
        ax.bar(names, [getattr(r, key) for r in rows], color="#4c72b0")
        ax.set_title(title)
        ax.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="fast-wordpiece compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=path_argument, metavar="FILE",
                        help="UTF-8 text files (default: stdlib docstrings)")  # fmt: skip
    parser.add_argument("--vocab-size", type=int, default=8000, metavar="N",
                        help="the vocabulary size of BPE, WordPiece and Unigram (default: 8000)")  # fmt: skip
    parser.add_argument("--min-frequency", type=int, default=2, metavar="N",
                        help="the fewest occurrences of a pair to merge, or a character to keep "
                             "(default: 2)")  # fmt: skip
    parser.add_argument("--held-out", type=float, default=0.1, metavar="SHARE",
                        help="share of lines held out (default 0.1)")  # fmt: skip
    parser.add_argument("--plot", type=path_argument, metavar="PNG",
                        help="also draw the table as bar charts into this image (matplotlib)")  # fmt: skip
    parser.add_argument("--errors", choices=["strict", "replace"], default="strict",
                        help="bytes that are not UTF-8: fail (default) or replace them")  # fmt: skip
    args = parser.parse_args(argv)
    if not 0 < args.held_out < 1:
        print("fast-wordpiece compare: --held-out must be between 0 and 1", file=sys.stderr)
        return 2
    from fast_wordpiece.cli import UsageError, check_output, check_sizes, check_text_files, describe, read_lines

    try:
        # Whatever would stop the plot, told before the training.
        check_output(args.plot, "--plot")
        check_sizes(vocab_size=(args.vocab_size, 1), min_frequency=(args.min_frequency, 0))
        check_text_files(args.files, "compare")
        if args.plot and importlib.util.find_spec("matplotlib") is None:
            raise ValueError("--plot needs matplotlib (pip install matplotlib)")
        if args.files:
            lines = read_lines(args.files, args.errors)
            names = [str(f) for f in args.files]
            source = ", ".join(names) if len(names) <= 3 else f"{len(names)} files ({names[0]} ... {names[-1]})"
        else:
            from fast_wordpiece.cli import stdlib_docstrings

            lines = [line for doc in stdlib_docstrings() for line in doc.splitlines()]
            source = "the standard library's docstrings"
        lines = [line for line in lines if line.strip()]
        if len(lines) < 2:
            raise ValueError("the corpus needs at least two non-blank lines")
        cut = len(lines) - max(1, int(len(lines) * args.held_out))
        rows = compare(lines[:cut], lines[cut:], args.vocab_size, args.min_frequency)
    except ComparisonError as e:
        if not isinstance(e.error, (OSError, ValueError, TypeError, MemoryError)):
            raise  # not a user's problem: the traceback, which names the tokenizer too
        print(f"fast-wordpiece compare: {e.tokenizer}: {describe(e.error)}", file=sys.stderr)
        return 1
    except (OSError, ValueError, TypeError, MemoryError) as e:
        print(f"fast-wordpiece compare: {describe(e)}", file=sys.stderr)
        return 2 if isinstance(e, UsageError) else 1
    print(f"Trained on {cut:,} lines of {source}; measured on the {len(lines) - cut:,} held-out lines.\n")
    print(table(rows))
    if args.plot:
        try:
            plot(rows, args.plot)
        except OSError as e:
            print(f"fast-wordpiece compare: --plot {args.plot}: {e.strerror or e}", file=sys.stderr)
            return 1
        print(f"\nPlot saved to {args.plot}.")
    return 0
