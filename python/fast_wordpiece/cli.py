"""Command line: train a tokenizer, then show it encoding a sentence; encode
texts with a tokenizer; or analyze what a tokenizer makes of some text.

    python -m fast_wordpiece [train] [FILE ...] [--vocab-size N] [--min-frequency N]
                             [--objective likelihood|pmi|frequency]
                             [--limit-alphabet N] [--initial-alphabet CHARS]
                             [--continuing-subword-prefix PREFIX] [--no-lowercase]
                             [--pre-tokenizer NAME] [--errors replace]
                             [--save tokenizer.json | --save DIR/] [--sentence TEXT]
    python -m fast_wordpiece encode TOKENIZER [TEXT ...] [--pair TEXT]
                                    [--no-special-tokens] [--offsets] [--errors replace]
    python -m fast_wordpiece analyze TOKENIZER FILE ... [--errors replace]
    python -m fast_wordpiece count FILE ... --out counts.fwc [--no-lowercase]
                                       [--pre-tokenizer NAME] [--errors replace]
    python -m fast_wordpiece train --counts counts.fwc ... [--vocab-size N] ...
    python -m fast_wordpiece compare [FILE ...] [--vocab-size N] [--plot out.png]

With no FILE, the corpus is the docstrings of the Python standard library,
which every Python installation has (1 to 4 MB: an 8,000-token vocabulary by
default, which they hold pairs enough for); a FILE ``-`` is the standard input.
A training that runs out of pairs to merge before ``--vocab-size`` tokens stops
there and says so. ``--save`` writes a tokenizer file, or, given a directory
(an existing one, or a name ending in ``/``), a transformers model directory
(``save_pretrained``). ``encode`` prints one JSON object a line for each TEXT
(or each line of the standard input): its ``input_ids`` and ``tokens``.
``analyze`` and ``encode`` read TOKENIZER as a model directory, a tokenizer file
(.json) or a BERT vocab.txt (any other name); ``analyze`` prints the
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
import difflib
import errno
import json
import os
import re
import stat
import sys
import sysconfig
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import fast_wordpiece
from fast_wordpiece import BPETokenizer, CharTokenizer, PyTokenizer, WordCounts

DEFAULT_SENTENCE = "Tokenizers split unbelievably long words into familiar pieces!"
#: ``--vocab-size`` unless given: Hugging Face's default; on the standard library's docstrings
#: (the quick check, with no FILE), a size that their pairs reach.
DEFAULT_VOCAB_SIZE = 30000
STDLIB_VOCAB_SIZE = 8000
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


#: The subcommands, with what each does (the top-level help lists them).
COMMANDS = {
    "train": "train on FILEs or on word counts files (--counts), then encode a sentence (the default)",
    "encode": "encode texts (or the lines of the standard input) with a tokenizer: ids and tokens as JSON lines",
    "count": "count the words of FILEs into a word counts file (.fwc), to train on later",
    "analyze": "what a tokenizer makes of text files: tokens per word, unknown rate, ...",
    "compare": "train the tokenizer family on FILEs and compare them on held-out lines",
}

TRAIN_DESCRIPTION = (
    "Train a WordPiece tokenizer on text files (or on word counts files), then show it encoding a sentence."
)

PRE_TOKENIZERS = ["bert", "whitespace", "regex", "wordpunct"]


def nonempty(text: str) -> str:
    """A path argument's text: an empty one names no file (``Path("")`` would be the working
    directory)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path names no file")
    return text


def path_argument(text: str) -> Path:
    """A path argument, not empty (see ``nonempty``)."""
    return Path(nonempty(text))


class UsageError(ValueError):
    """A mistake seen in the command line itself (a wrong argument, a size out of range,
    options that do not go together, output into a missing directory): one line on
    stderr, exit status 2. What is found by reading a file (a file of the wrong kind
    included) is a failure, status 1."""


#: The first bytes of a word counts file (docs/spec.md, section 13).
COUNTS_MAGIC = b"FWPCOUNT"


def check_text_files(paths: Sequence[Path], command: str) -> None:
    """Fails before any work when one of ``paths`` is missing or a directory (``PATH: No
    such file or directory``, as reading it would say, but before a progress line is
    drawn), or is a word counts file rather than text: its bytes are not UTF-8, and
    ``--errors replace`` would not be the cure."""
    for path in paths:
        if not os.path.exists(path):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
        if os.path.isdir(path):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if is_counts_file(path):
            name = shown(path)
            # --counts reads files only: word counts on the standard input go to a file first.
            counts = "FILE (save the standard input to a FILE first)" if name == STDIN else name
            cure = {
                "train": f"train on it with --counts {counts}",
                "count": f"it is counted already (train on it with `train --counts {counts}`)",
            }.get(command, f"{command} reads text files (train on word counts with `train --counts {counts}`)")
            raise ValueError(f"{name}: a word counts file (from `count`), not text: {cure}")


def is_counts_file(path: Path) -> bool:
    """Whether ``path`` is a regular file that starts as a word counts file does. False
    when it cannot be read (whatever reads it then tells why, as for any file) and for
    what is not a regular file: reading the first bytes of a pipe (``<(zcat ...)``,
    ``/dev/stdin``) would take them from the reader that comes after."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as file:
            return file.read(len(COUNTS_MAGIC)) == COUNTS_MAGIC
    except OSError:
        return False


def check_sizes(**sizes: tuple[int | None, int]) -> None:
    """Fails before any work when a size option (``vocab_size=(value, least)``) is out of
    range, naming it by its flag, ``--vocab-size must be >= 1, got 0``."""
    for name, (value, least) in sizes.items():
        flag = "--" + name.replace("_", "-")
        if value is not None and value < least:
            raise UsageError(f"{flag} must be >= {least}, got {value}")
        if value is not None and value > 2**64 - 1:
            raise UsageError(f"{flag} is too large")


def parse_args(argv: Sequence[str] | None, prog: str = "fast-wordpiece") -> argparse.Namespace:
    commands = "\n".join(f"  {name:<9}{what}" for name, what in COMMANDS.items())
    parser = argparse.ArgumentParser(
        prog=prog,
        description=TRAIN_DESCRIPTION if prog.endswith(" train") else __doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=None
        if prog.endswith(" train")
        else f"commands (the first argument; with none, train):\n{commands}\n\n"
        f"Run `{prog} COMMAND --help` for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {fast_wordpiece.__version__}")
    parser.add_argument("files", nargs="*", type=path_argument, metavar="FILE",
                        help="UTF-8 text files to train on, - for the standard input "
                        "(default: stdlib docstrings)")  # fmt: skip
    parser.add_argument("--counts", nargs="+", type=path_argument, default=[], metavar="FWC",
                        help="train on these word counts files (from `count`), added up")  # fmt: skip
    parser.add_argument("--vocab-size", type=int, help=f"tokens to learn (default: {DEFAULT_VOCAB_SIZE}; "
                        f"{STDLIB_VOCAB_SIZE} on the standard library's docstrings)")  # fmt: skip
    parser.add_argument("--min-frequency", type=int, default=2,
                        help="pairs seen fewer times are never merged (default: 2)")  # fmt: skip
    parser.add_argument("--objective", choices=["likelihood", "pmi", "frequency"], default="likelihood",
                        help="how merges are ranked (default: likelihood)")  # fmt: skip
    parser.add_argument("--limit-alphabet", type=int, help="keep only the N most frequent characters")
    parser.add_argument("--initial-alphabet", default="", metavar="CHARS",
                        help="characters in the alphabet whether the corpus holds them or not")  # fmt: skip
    parser.add_argument("--continuing-subword-prefix", default="##", metavar="PREFIX",
                        help="the prefix of tokens that continue a word (default: ##)")  # fmt: skip
    parser.add_argument("--errors", choices=["strict", "replace"], default="strict",
                        help="bytes of FILEs that are not UTF-8: fail (default) or replace them")  # fmt: skip
    parser.add_argument("--no-lowercase", action="store_true", help="keep case (and accents)")
    parser.add_argument("--pre-tokenizer", choices=PRE_TOKENIZERS, help="how text is split into words (default: bert)")
    parser.add_argument("--save", type=nonempty, metavar="FILE|DIR/", help="write the trained tokenizer to FILE "
                        "(a Hugging Face tokenizer.json; fast-wordpiece's own JSON with --pre-tokenizer regex) or, "
                        "given a directory "
                        "(existing, or ending in /), into a transformers model directory "
                        "(save_pretrained)")  # fmt: skip
    parser.add_argument("--sentence", default=DEFAULT_SENTENCE, help="the sentence to encode")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")
    args = parser.parse_intermixed_args(argv)
    args.save_dir = args.save is not None and (args.save.endswith(("/", os.sep)) or os.path.isdir(args.save))
    args.save = None if args.save is None else Path(args.save)
    if args.vocab_size is None:
        args.vocab_size = DEFAULT_VOCAB_SIZE if args.files or args.counts else STDLIB_VOCAB_SIZE
    return args


def check_output(path: Path | None, flag: str) -> None:
    """Fails before any work when ``path`` (given to ``flag``) cannot be written for want of a directory."""
    if path is None:
        return
    parent = path.parent
    if not parent.is_dir():
        why = "is not a directory" if parent.exists() else "does not exist"
        raise UsageError(f"{flag} {path}: the directory {parent} {why}")
    if path.is_dir():
        raise UsageError(f"{flag} {path}: is a directory")


def check_save_dir(path: Path, pre_tokenizer: str | None) -> None:
    """Fails before any work when ``--save DIR/`` cannot be a transformers model directory:
    a file of that name is there, its parent is missing, or the tokenizer would have no
    tokenizer.json form (the regex pre-tokenizer)."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"--save {path}/: not a directory (without the trailing / it names the file to write)")
    if not path.parent.is_dir():
        why = "is not a directory" if path.parent.exists() else "does not exist"
        raise UsageError(f"--save {path}/: the directory {path.parent} {why}")
    if pre_tokenizer == "regex":
        raise UsageError(
            f"--save {path}/: a model directory holds a Hugging Face tokenizer.json, which the regex "
            "pre-tokenizer has no form of: save to a FILE instead (fast-wordpiece's own JSON)"
        )


#: A FILE given as ``-``: the standard input.
STDIN = "-"


def stdin_as_file(paths: Sequence[Path]) -> list[Path]:
    """``paths``, with a ``-`` read as the standard input (``/dev/stdin``), which can be read once."""
    given = sum(str(path) == STDIN for path in paths)
    if given == 0:
        return list(paths)
    if given > 1:
        raise UsageError("- (the standard input) is given more than once: it can be read once")
    if not os.path.exists("/dev/stdin"):
        raise UsageError("- (the standard input) needs /dev/stdin, which this system lacks: give a file")
    return [Path("/dev/stdin") if str(path) == STDIN else path for path in paths]


def shown(path: Path) -> str:
    """A FILE as the user gave it (``-`` for the standard input)."""
    return STDIN if str(path) == "/dev/stdin" else str(path)


#: The training arguments of the Python API, by the flag that gives each.
FLAGS = {name: "--" + name.replace("_", "-") for name in (
    "vocab_size", "min_frequency", "objective", "limit_alphabet", "initial_alphabet", "continuing_subword_prefix",
)}  # fmt: skip


def check_training_args(vocab_size: int, min_frequency: int, training: dict[str, Any]) -> None:
    """Fails before any work (status 2) when the library refuses an argument, as the
    training would after reading the corpus: the same checks, run on a one-word corpus.
    The message names each argument by its flag (``--initial-alphabet[0] is whitespace,
    ...``)."""
    try:
        PyTokenizer.train(["a"], vocab_size, min_frequency, **{**training, "show_progress": False})
    except (ValueError, TypeError) as e:
        message = re.sub(r"\b(" + "|".join(FLAGS) + r")\b", lambda m: FLAGS[m.group(1)], str(e))
        raise UsageError(message) from None


def cli_hint(message: str) -> str:
    """An error of the library, with its hints in the words of this command line."""
    message = message.replace('pass errors="replace"', "pass --errors replace")
    return message.replace("(pass add_special_tokens=False)", "(pass --no-special-tokens)")


def describe(error: BaseException) -> str:
    """One line for an error: a file's error as ``PATH: Reason`` (as other commands
    say it), any other as its message, with the library's hints in this command line's words."""
    if isinstance(error, OSError) and error.strerror and error.filename is not None:
        return f"{error.filename}: {error.strerror}"
    if isinstance(error, MemoryError):
        return f"out of memory: {error}" if str(error) else "out of memory"
    return cli_hint(str(error))


def read_lines(paths: Sequence[Path], errors: str = "strict") -> list[str]:
    """The lines of UTF-8 text files; bad UTF-8 named by file and byte offset, as the engine does."""
    lines = []
    for path in paths:
        data = path.read_bytes()
        try:
            text = data.decode("utf-8", errors=errors)
        except UnicodeDecodeError as e:
            raise ValueError(
                f"{path}: invalid UTF-8 at byte offset {e.start} (pass --errors replace to replace it)"
            ) from None
        lines.extend(text.splitlines())
    return lines


def analyze(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="fast-wordpiece analyze",
        description="What a tokenizer makes of text: tokens per word, characters per token, "
        "unknown rate and the share of the vocabulary used, over the lines of text files.",
    )
    parser.add_argument("tokenizer", type=path_argument, metavar="TOKENIZER", help=TOKENIZER_HELP)
    parser.add_argument("files", nargs="+", type=path_argument, metavar="FILE",
                        help="UTF-8 text files, analyzed line by line (not word counts files; - for the "
                        "standard input)")  # fmt: skip
    parser.add_argument("--errors", choices=["strict", "replace"], default="strict",
                        help="bytes that are not UTF-8: fail (default) or replace them")  # fmt: skip
    args = parser.parse_intermixed_args(argv)
    files = stdin_as_file(args.files)
    check_tokenizer(args.tokenizer, "analyze", "text files")
    check_text_files(files, "analyze")
    tokenizer = load_tokenizer(args.tokenizer)
    stats = tokenizer.analyze(read_lines(files, args.errors))
    for key, value in stats.items():
        print(f"{key:<22}{value:,.4f}" if isinstance(value, float) else f"{key:<22}{value:,}")
    return 0


def encode(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="fast-wordpiece encode",
        description="Encode texts with a tokenizer: one JSON object a line for each TEXT (or, with no TEXT, "
        'for each line of the standard input), {"input_ids": [...], "tokens": [...]}, as the call '
        "tokenizer(TEXT) gives them.",
    )
    parser.add_argument("tokenizer", type=path_argument, metavar="TOKENIZER", help=TOKENIZER_HELP)
    parser.add_argument("texts", nargs="*", default=[], metavar="TEXT",
                        help="the texts to encode (default: the lines of the standard input, "
                        "one at a time)")  # fmt: skip
    parser.add_argument("--pair", metavar="TEXT",
                        help="encode each text as a pair with this second one (adds token_type_ids when the "
                        "tokenizer gives them)")  # fmt: skip
    parser.add_argument("--no-special-tokens", action="store_true", help="no [CLS], [SEP] or the like")
    parser.add_argument("--offsets", action="store_true",
                        help="add each token's [start, end] character offsets in its text")  # fmt: skip
    parser.add_argument("--errors", choices=["strict", "replace"], default="strict",
                        help="bytes of the standard input that are not UTF-8: fail (default) "
                        "or replace them")  # fmt: skip
    args = parser.parse_intermixed_args(argv)
    check_tokenizer(args.tokenizer, "encode", "texts")
    tokenizer = load_tokenizer(args.tokenizer)
    if args.pair is not None and isinstance(tokenizer, CharTokenizer):
        raise UsageError("--pair: a character tokenizer encodes one text at a time")
    # No TEXT, or a lone -, reads the standard input, as - does for the other commands.
    texts = args.texts if args.texts and args.texts != [STDIN] else stdin_lines(args.errors)
    for text in texts:
        print(json.dumps(encoded(tokenizer, text, args), ensure_ascii=False))
    return 0


def encoded(tokenizer: Any, text: str, args: argparse.Namespace) -> dict[str, Any]:
    """What ``encode`` prints for one text: the call's ``input_ids`` and their tokens, with
    ``token_type_ids`` for a pair and ``offsets`` when asked for."""
    pair = () if args.pair is None else (args.pair,)
    call = tokenizer(text, *pair, add_special_tokens=not args.no_special_tokens,
                     return_offsets_mapping=args.offsets)  # fmt: skip
    ids = list(call["input_ids"])
    tokens = [tokenizer.id_to_token(i) for i in ids]
    if None in tokens and isinstance(tokenizer, PyTokenizer):  # a template id that no token has: the template's
        tokens = [shown if token is None else token for token, shown in zip(tokens, call.tokens())]
    out: dict[str, Any] = {"input_ids": ids, "tokens": tokens}
    if args.pair is not None and "token_type_ids" in call:
        out["token_type_ids"] = list(call["token_type_ids"])
    if args.offsets:
        out["offsets"] = [list(offset) for offset in call["offset_mapping"]]
    return out


def stdin_lines(errors: str) -> Iterator[str]:
    """The lines of the standard input as they come (a line ends at "\n"; a "\r" before
    it is dropped too), decoded as UTF-8; bad UTF-8 named by byte offset, as in a FILE."""
    offset = 0
    for raw in sys.stdin.buffer:
        line = raw[:-1] if raw.endswith(b"\n") else raw
        line = line[:-1] if line.endswith(b"\r") else line
        try:
            yield line.decode("utf-8", errors=errors)
        except UnicodeDecodeError as e:
            raise ValueError(
                f"-: invalid UTF-8 at byte offset {offset + e.start} (pass --errors replace to replace it)"
            ) from None
        offset += len(raw)


TOKENIZER_HELP = (
    "a model directory (as from_pretrained reads it), a tokenizer file (.json: any of the family) or a BERT vocab.txt"
)


def check_tokenizer(path: Path, command: str, then: str) -> None:
    """Fails before any work when the TOKENIZER of ``command`` is a word counts file."""
    if is_counts_file(path):
        raise ValueError(
            f"{path}: a word counts file (from `count`), not a tokenizer: {command} takes a model directory, "
            f"a tokenizer file (.json) or a BERT vocab.txt, then {then}"
        )


def load_tokenizer(path: Path) -> Any:
    """A TOKENIZER argument: a model directory or a tokenizer file (.json) as ``load_any``
    reads them, any other file as a BERT vocab.txt."""
    if path.suffix == ".json" or path.is_dir():
        return load_any(path)
    try:
        # Read without post-processing, so that a vocab.txt without [CLS] or [SEP] serves every command
        # that adds no special tokens; the tokenizer made of its tokens adds them when they are there.
        vocab = PyTokenizer.from_vocab_file(path, post_processor="none").get_vocab()
    except ValueError as e:
        raise ValueError(f"{e}; a TOKENIZER not ending in .json is read as a BERT vocab.txt") from None
    return PyTokenizer(sorted(vocab, key=vocab.__getitem__))


def load_any(path: Path) -> Any:
    """A tokenizer file of any tokenizer of the family: WordPiece (ours or Hugging Face's),
    byte-level BPE or Unigram (Hugging Face's tokenizer.json), or our character tokenizer.
    A directory is a model directory: ``UnigramTokenizer.from_pretrained`` when its
    tokenizer.json is a Unigram model's, the file alone when it is a BPE or character
    tokenizer's (they have no ``from_pretrained``), else ``PyTokenizer.from_pretrained``
    (a tokenizer.json, or a vocab.txt, and the configuration beside it)."""
    unigram = getattr(fast_wordpiece, "UnigramTokenizer", None)
    if path.is_dir():
        inner = path / "tokenizer.json"
        kind = family_of(inner) if inner.is_file() else None
        if kind == "Unigram" and unigram is not None:
            return unigram.from_pretrained(path)
        if kind in ("BPE", "CharTokenizer"):
            return load_any(inner)
        return PyTokenizer.from_pretrained(path)
    kind = family_of(path)
    if kind == "CharTokenizer":
        return CharTokenizer.load(path)
    if kind == "BPE":
        return BPETokenizer.load(path)
    if kind == "Unigram" and unigram is not None:
        return unigram.load(path)
    return PyTokenizer.load(path)


def family_of(path: Path) -> str | None:
    """Which tokenizer of the family a tokenizer file holds, as its JSON says:
    ``"CharTokenizer"``, or the model's type (``"BPE"``, ``"Unigram"``, ``"WordPiece"``, ...)."""
    try:
        root = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not UTF-8 text (invalid byte at offset {e.start})") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not valid JSON: {e}") from None
    if not isinstance(root, dict):
        return None
    if root.get("type") == "CharTokenizer":
        return "CharTokenizer"
    model = root.get("model")
    model_type = model.get("type") if isinstance(model, dict) else None
    return model_type if isinstance(model_type, str) else None


def count(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="fast-wordpiece count",
        description="Count the words of text files into a word counts file, to train on later "
        "with `fast-wordpiece train --counts`.",
    )
    parser.add_argument("files", nargs="+", type=path_argument, metavar="FILE",
                        help="UTF-8 text files (- for the standard input)")  # fmt: skip
    parser.add_argument("--out", type=path_argument, required=True, metavar="FWC",
                        help="the word counts file to write (.fwc)")  # fmt: skip
    parser.add_argument("--errors", choices=["strict", "replace"], default="strict",
                        help="bytes that are not UTF-8: fail (default) or replace them")  # fmt: skip
    parser.add_argument("--no-lowercase", action="store_true", help="keep case (and accents)")
    parser.add_argument("--pre-tokenizer", choices=PRE_TOKENIZERS, default="bert",
                        help="how text is split into words (default: bert)")  # fmt: skip
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    args = parser.parse_intermixed_args(argv)
    files = stdin_as_file(args.files)
    check_output(args.out, "--out")
    check_text_files(files, "count")
    # The engine ends its progress line when the work fails part-way.
    counts = WordCounts.from_files(files, errors=args.errors, show_progress=not args.no_progress,
                                   lowercase=not args.no_lowercase, pre_tokenizer=args.pre_tokenizer)  # fmt: skip
    counts.save(args.out)
    print(f"Counted {counts.total:,} words ({len(counts):,} distinct) into {args.out}.")
    return 0


def load_counts(paths: Sequence[Path]) -> WordCounts:
    """The word counts files, added up."""
    counts = WordCounts.load(paths[0])
    for path in paths[1:]:
        more = WordCounts.load(path)  # its errors name the file already
        try:
            counts.update(more)
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
    return counts


def save_own_format(tokenizer: PyTokenizer, path: Path) -> None:
    """Writes ``tokenizer.to_json()`` to ``path`` atomically (a file beside it, then renamed), as
    ``save`` writes a tokenizer.json."""
    text = tokenizer.to_json().encode("utf-8")
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        partial.write_bytes(text)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def train(argv: Sequence[str], prog: str) -> int:
    args = parse_args(argv, prog)
    files = stdin_as_file(args.files)
    if args.save_dir:
        check_save_dir(args.save, args.pre_tokenizer)
    else:
        check_output(args.save, "--save")
    check_sizes(vocab_size=(args.vocab_size, 1), min_frequency=(args.min_frequency, 0),
                limit_alphabet=(args.limit_alphabet, 1))  # fmt: skip
    if args.counts and args.files:
        raise UsageError("give text files or --counts, not both")
    if args.counts and args.errors == "replace":
        raise UsageError("--errors replace is for text files: word counts files hold words, not bytes to decode")
    training: dict[str, Any] = {
        "objective": args.objective,
        "limit_alphabet": args.limit_alphabet,
        "initial_alphabet": list(args.initial_alphabet),
        "continuing_subword_prefix": args.continuing_subword_prefix,
        "show_progress": not args.no_progress,
    }
    # Given only when asked for: word counts files bring their own (and must agree).
    if args.no_lowercase:
        training["lowercase"] = False
    if args.pre_tokenizer is not None:
        training["pre_tokenizer"] = args.pre_tokenizer
    vocab_size = args.vocab_size
    check_training_args(vocab_size, args.min_frequency, training)
    check_text_files(files, "train")
    if args.counts:
        counts = load_counts(args.counts)
        if args.save_dir:
            check_save_dir(args.save, args.pre_tokenizer or str(counts.options["pre_tokenizer"]))
        # What the counts' options refuse (an explicit option that differs) is found
        # before the progress line is drawn: the same training on one of their words.
        PyTokenizer.train_from_counts(WordCounts({"a": 1}, **counts.options), vocab_size, args.min_frequency,
                                      **{**training, "show_progress": False})  # fmt: skip
        source = f"{len(args.counts)} word counts files ({counts.total:,} words, {len(counts):,} distinct)"
        started = time.perf_counter()
        tokenizer = PyTokenizer.train_from_counts(counts, vocab_size, args.min_frequency, **training)
    elif files:
        source = ", ".join(shown(f) for f in files)
        started = time.perf_counter()
        tokenizer = PyTokenizer.train_from_files(files, vocab_size, args.min_frequency, errors=args.errors, **training)
    else:
        corpus = list(stdlib_docstrings())
        source = f"the standard library's docstrings ({sum(map(len, corpus)) / 1e6:.1f} MB)"
        started = time.perf_counter()
        tokenizer = PyTokenizer.train(corpus, vocab_size, args.min_frequency, **training)
    seconds = time.perf_counter() - started
    print(f"Trained {tokenizer!r} on {source} in {seconds:.1f} s.")
    if tokenizer.vocab_size < vocab_size and args.no_progress:  # else the progress on stderr said so
        rare = f" (none occurs --min-frequency={args.min_frequency} times)" if args.min_frequency > 1 else ""
        print(f"Stopped at {tokenizer.vocab_size:,} tokens of the {vocab_size:,} asked: no pairs left to merge{rare}.")
    if args.save and args.save_dir:
        written = tokenizer.save_pretrained(args.save)
        names = ", ".join(Path(name).name for name in written)
        print(f"Saved to {args.save}/, a transformers model directory ({names}).")
    elif args.save:
        if tokenizer.options["pre_tokenizer"] == "regex":
            save_own_format(tokenizer, args.save)
            print(f"Saved to {args.save}, in fast-wordpiece's own JSON (the regex pre-tokenizer has no Hugging "
                  "Face tokenizer.json form; PyTokenizer.from_file reads it).")  # fmt: skip
        else:
            tokenizer.save(args.save)
            print(f"Saved to {args.save}.")
    encoding = tokenizer.encode(args.sentence)
    print(f"\n{args.sentence!r} encodes as:")
    width = max(len(t) for t in encoding.tokens)
    for token, id_, (start, end) in zip(encoding.tokens, encoding.ids, encoding.offsets):
        print(f"  {token:<{width}}  id={id_:<6} text={args.sentence[start:end]!r}")
    print(f"\nDecoded: {tokenizer.decode(encoding.ids, skip_special_tokens=True)!r}")
    return 0


def run(argv: list[str]) -> int:
    first = argv[0] if argv else ""
    if first == "analyze":
        return analyze(argv[1:])
    if first == "count":
        return count(argv[1:])
    if first == "compare":
        from fast_wordpiece.compare import main as compare

        return compare(argv[1:])
    if first == "train":
        return train(argv[1:], "fast-wordpiece train")
    if first == "encode":
        return encode(argv[1:])
    # A bare list of FILEs trains; a first argument that is no file is a command mistyped
    # (or one of another version) when it looks like a word. A missing file (a name with a
    # dot or a slash) is told as missing, below.
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", first) and not os.path.exists(first):
        close = difflib.get_close_matches(first, COMMANDS, n=1)
        if close:
            raise UsageError(f"unknown command {first!r} (did you mean {close[0]!r}?)")
        raise UsageError(f"unknown command {first!r} (commands: {', '.join(COMMANDS)})")
    return train(argv, "fast-wordpiece")


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line. An error is one line on stderr, no traceback: a mistake seen
    in the command line itself (a wrong argument, a size out of range, an argument the
    library refuses, options that do not go together, an unknown command) has exit status
    2, as argparse's own, and is told before any work; a failure (a missing or unreadable
    file, a file of the wrong kind, text that is not UTF-8, a training that cannot be done,
    memory that runs out) has exit status 1."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        try:
            status = run(argv)
        except BrokenPipeError:
            raise
        except (OSError, ValueError, TypeError, MemoryError) as e:
            message = describe(e)
            if STDIN in argv:  # a FILE - is read through /dev/stdin: named as it was given
                message = re.sub(r"\A/dev/stdin: ", f"{STDIN}: ", message)
            print(f"fast-wordpiece: {message}", file=sys.stderr)
            status = 2 if isinstance(e, UsageError) else 1
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`fast-wordpiece ... | head`): what is left to
        # print goes nowhere (so that Python's own flush at exit does not fail).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
