"""The command line (``fast-wordpiece``, ``python -m fast_wordpiece``): what its help
shows, and how it treats a user's mistakes: one line on stderr naming the problem, no
traceback, and nothing trained for nothing; exit status 2 for a mistake seen in the
command line itself (as argparse's own), 1 for a failure (a file that does not load or
is of the wrong kind, a training that cannot be done)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import zlib
from pathlib import Path
from typing import Any

import pytest

import fast_wordpiece
from fast_wordpiece import BPETokenizer, CharTokenizer, PyTokenizer, WordCounts, cli
from fast_wordpiece.cli import main

TEXT = """\
The tokenizer splits words into pieces it knows.
Unknown words become familiar pieces: un, believ, ably.
Training counts the words, then merges the most telling pairs of pieces.
A vocabulary of pieces covers words it never saw.
"""

SMALL = ["--vocab-size", "120", "--min-frequency", "1", "--no-progress"]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.txt"
    path.write_text(TEXT * 3, encoding="utf-8")
    return path


@pytest.fixture
def not_utf8(tmp_path: Path) -> Path:
    path = tmp_path / "latin1.txt"
    path.write_bytes("a first line\nan accent: caf\u00e9\n".encode("latin-1"))
    return path


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    """The error the command printed: exactly one line on stderr, and nothing on stdout."""
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("fast-wordpiece"), err
    return err.rstrip("\n")


def run_on_a_pipe(fifo: Path, text: bytes, argv: list[str]) -> subprocess.CompletedProcess[str]:
    """``python -m fast_wordpiece ARGV`` with ``text`` written once into the named pipe
    ``fifo``, as a shell's ``<(zcat corpus.gz)`` does. The timeout only keeps a broken
    command from hanging the tests."""

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError), open(fifo, "wb") as pipe:
            pipe.write(text)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        command = [sys.executable, "-m", "fast_wordpiece", *argv]
        return subprocess.run(command, capture_output=True, text=True, timeout=600)
    finally:
        if writer.is_alive():  # the command never opened the pipe: let the writer go
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="optional: named pipes are POSIX only")
@pytest.mark.parametrize("command", ["count", "analyze"])
def test_a_pipe_is_read_whole(command, corpus, tmp_path):
    """A FILE that is a pipe (``<(zcat corpus.gz)``, ``/dev/stdin``) is read from its first
    byte: checking what kind of file it is must not take bytes from the reader."""
    text = corpus.read_bytes() * 200  # more than any read-ahead buffer
    big = tmp_path / "big.txt"
    big.write_bytes(text)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    if command == "count":
        assert main(["count", str(big), "--out", str(tmp_path / "file.fwc"), "--no-progress"]) == 0
        done = run_on_a_pipe(fifo, text, ["count", str(fifo), "--out", str(tmp_path / "pipe.fwc"), "--no-progress"])
        assert done.returncode == 0, done.stderr
        assert WordCounts.load(tmp_path / "pipe.fwc") == WordCounts.load(tmp_path / "file.fwc")
    else:
        tokenizer = tmp_path / "t.json"
        PyTokenizer.train(TEXT.splitlines(), 120, show_progress=False).save(tokenizer)
        from_file = subprocess.run(
            [sys.executable, "-m", "fast_wordpiece", "analyze", str(tokenizer), str(big)],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert from_file.returncode == 0, from_file.stderr
        done = run_on_a_pipe(fifo, text, ["analyze", str(tokenizer), str(fifo)])
        assert done.returncode == 0, done.stderr
        assert done.stdout.replace(str(fifo), "FILE") == from_file.stdout.replace(str(big), "FILE")


# ----------------------------------------------------------------------------- help


def test_the_top_level_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: fast-wordpiece ")
    for command in ("train", "encode", "count", "analyze", "compare"):
        assert f"\n  {command} " in out, command
    assert "Run `fast-wordpiece COMMAND --help` for a command's options." in out


@pytest.mark.parametrize("command", ["train", "encode", "count", "analyze", "compare"])
def test_a_commands_help_is_under_its_own_name(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: fast-wordpiece {command} ")


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"fast-wordpiece {fast_wordpiece.__version__}\n"


def test_the_module_runs_the_command_line():
    done = subprocess.run([sys.executable, "-m", "fast_wordpiece", "--help"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "compare" in done.stdout


# ----------------------------------------------------------------------------- mistakes


def test_an_output_in_a_missing_directory_is_refused_before_any_work(corpus, tmp_path, capsys):
    missing = tmp_path / "no" / "such"
    assert main([str(corpus), "--save", str(missing / "t.json"), *SMALL]) == 2
    assert (
        one_line_error(capsys) == f"fast-wordpiece: --save {missing / 't.json'}: the directory {missing} does not exist"
    )
    assert main(["count", str(corpus), "--out", str(missing / "c.fwc"), "--no-progress"]) == 2
    assert one_line_error(capsys).endswith(f"--out {missing / 'c.fwc'}: the directory {missing} does not exist")
    assert main(["compare", str(corpus), "--plot", str(missing / "x.png")]) == 2
    assert one_line_error(capsys) == (
        f"fast-wordpiece compare: --plot {missing / 'x.png'}: the directory {missing} does not exist"
    )
    assert main([str(corpus), "--save", str(corpus / "t.json"), *SMALL]) == 2
    assert one_line_error(capsys).endswith(f"the directory {corpus} is not a directory")
    assert main([str(corpus), "--save", str(missing) + "/", *SMALL]) == 2
    assert one_line_error(capsys) == f"fast-wordpiece: --save {missing}/: the directory {missing.parent} does not exist"
    assert main([str(corpus), "--save", f"{corpus}/", *SMALL]) == 2
    assert one_line_error(capsys) == (
        f"fast-wordpiece: --save {corpus}/: not a directory (without the trailing / it names the file to write)"
    )
    assert not missing.parent.exists()


def test_a_save_that_fails_after_training_is_one_line_too(corpus, tmp_path, capsys, monkeypatch):
    def refuse(self, path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(PyTokenizer, "save", refuse)
    assert main([str(corpus), "--save", str(tmp_path / "t.json"), *SMALL]) == 1
    err = capsys.readouterr().err
    assert err == f"fast-wordpiece: {tmp_path / 't.json'}: Permission denied\n"


def test_a_regex_tokenizer_is_saved_in_our_own_format(corpus, tmp_path, capsys):
    """The regex pre-tokenizer has no tokenizer.json form: --save writes what to_json gives, which
    from_file reads back (it used to fail after training, saving nothing)."""
    path = tmp_path / "r.json"
    assert main([str(corpus), "--pre-tokenizer", "regex", "--save", str(path), *SMALL]) == 0
    assert "fast-wordpiece's own JSON" in capsys.readouterr().out
    again = PyTokenizer.from_file(path)
    assert again.options["pre_tokenizer"] == "regex"
    trained = PyTokenizer.train_from_files([corpus], 120, 1, pre_tokenizer="regex", show_progress=False)
    assert again.get_vocab() == trained.get_vocab()
    assert again.encode(TEXT).ids == trained.encode(TEXT).ids
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.txt", "r.json"]


@pytest.mark.parametrize("typo", ["cuont", "trian", "analyse", "comapre"])
def test_a_mistyped_command_is_named_with_the_closest_one(typo, capsys):
    command = {"cuont": "count", "trian": "train", "analyse": "analyze", "comapre": "compare"}[typo]
    assert main([typo, "corpus.txt"]) == 2
    assert one_line_error(capsys) == f"fast-wordpiece: unknown command {typo!r} (did you mean {command!r}?)"


def test_a_missing_file_that_looks_like_no_command_is_a_missing_file(tmp_path, capsys):
    assert main([str(tmp_path / "corpus.txt"), *SMALL]) == 1
    assert one_line_error(capsys) == f"fast-wordpiece: {tmp_path / 'corpus.txt'}: No such file or directory"


@pytest.mark.parametrize("name", ["train.txt", "encode.txt", "count.fwc", "analyze.md"])
def test_a_missing_file_named_like_a_command_is_a_missing_file(name, tmp_path, monkeypatch, capsys):
    """A name with a dot is a file, however close to a command: no "did you mean"."""
    monkeypatch.chdir(tmp_path)
    assert main([name, *SMALL]) == 1
    assert one_line_error(capsys) == f"fast-wordpiece: {name}: No such file or directory"


def test_a_counts_file_on_the_standard_input_is_named_as_given(tmp_path, corpus):
    """``-`` redirected from a word counts file (``< c.fwc``; a pipe's first bytes are not looked at):
    named ``-``, and the cure is a file, as --counts reads files only."""
    counts = tmp_path / "c.fwc"
    assert main(["count", str(corpus), "--out", str(counts), "--no-progress"]) == 0
    with counts.open("rb") as redirected:
        done = subprocess.run([sys.executable, "-m", "fast_wordpiece", "-", *SMALL], stdin=redirected,
                              capture_output=True, timeout=600)  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.decode().strip() == (
        "fast-wordpiece: -: a word counts file (from `count`), not text: train on it with --counts FILE "
        "(save the standard input to a FILE first)"
    )


def test_an_existing_file_named_like_a_command_is_trained_on(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("cuont").write_text(TEXT, encoding="utf-8")
    assert main(["cuont", *SMALL]) == 0
    assert "on cuont in" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["train", "count", "analyze", "compare"])
def test_text_that_is_not_utf8_is_named_with_the_flag_that_accepts_it(command, not_utf8, tmp_path, capsys):
    """The file, the byte offset and the command line's own flag (not the Python API's
    ``errors="replace"``); with ``--errors replace`` the same command succeeds."""
    tokenizer = tmp_path / "t.json"
    PyTokenizer.train(TEXT.splitlines(), 120, show_progress=False).save(tokenizer)
    argv = {
        "train": ["train", str(not_utf8), *SMALL],
        "count": ["count", str(not_utf8), "--out", str(tmp_path / "c.fwc"), "--no-progress"],
        "analyze": ["analyze", str(tokenizer), str(not_utf8)],
        "compare": ["compare", str(not_utf8), "--vocab-size", "300"],
    }[command]
    assert main(argv) == 1
    assert one_line_error(capsys).endswith(
        f"{not_utf8}: invalid UTF-8 at byte offset 27 (pass --errors replace to replace it)"
    )
    assert main([*argv, "--errors", "replace"]) == 0


def test_a_file_that_is_no_word_counts_file_is_named_once(corpus, tmp_path, capsys):
    counts = tmp_path / "a.fwc"
    assert main(["count", str(corpus), "--out", str(counts), "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["train", "--counts", str(counts), str(corpus), *SMALL]) == 1
    assert one_line_error(capsys) == (
        f'fast-wordpiece: {corpus}: not a word counts file (it does not start with "FWPCOUNT")'
    )


def test_text_files_and_counts_files_do_not_mix(corpus, tmp_path, capsys):
    counts = tmp_path / "a.fwc"
    WordCounts.from_files(corpus).save(counts)
    assert main(["train", str(corpus), "--counts", str(counts), *SMALL]) == 2
    assert one_line_error(capsys) == "fast-wordpiece: give text files or --counts, not both"


def test_a_closed_pipe_ends_the_output_quietly(corpus, tmp_path):
    """``fast-wordpiece ... | head -1``: once the reader is gone, no traceback and no
    "Exception ignored" at exit; the status is 1, as Python's own for a closed pipe."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line is written
    try:
        done = subprocess.run(
            [sys.executable, "-m", "fast_wordpiece", str(corpus), *SMALL], stdout=write, stderr=subprocess.PIPE
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (1, b"")


# ----------------------------------------------------------------------------- train


def test_train_takes_the_counting_options_count_takes(corpus, tmp_path, capsys):
    """``--no-lowercase`` and ``--pre-tokenizer`` train as the same options of the Python API,
    on text files or on word counts files made with them (which must agree)."""
    options = dict(lowercase=False, pre_tokenizer="whitespace")
    expected = PyTokenizer.train_from_files(corpus, 120, 1, show_progress=False, **options).to_json()
    flags = ["--no-lowercase", "--pre-tokenizer", "whitespace"]
    assert main([str(corpus), *flags, *SMALL, "--save", str(tmp_path / "a.json")]) == 0
    assert PyTokenizer.load(tmp_path / "a.json").to_json() == expected
    counts = tmp_path / "c.fwc"
    assert main(["count", str(corpus), *flags, "--out", str(counts), "--no-progress"]) == 0
    assert main(["train", "--counts", str(counts), *flags, *SMALL, "--save", str(tmp_path / "b.json")]) == 0
    assert PyTokenizer.load(tmp_path / "b.json").to_json() == expected
    capsys.readouterr()
    assert main(["train", "--counts", str(counts), "--pre-tokenizer", "bert", *SMALL]) == 1
    assert "pre_tokenizer" in one_line_error(capsys)


def test_the_time_reported_is_the_trainings_alone(monkeypatch, capsys):
    """Reading the standard library's docstrings (here made to take 1000 s on a fake clock)
    is not part of the "Trained ... in N s" that the command prints."""
    now = [0.0]
    monkeypatch.setattr(cli.time, "perf_counter", lambda: now[0])

    def slow_docstrings():
        now[0] += 1000.0
        yield from TEXT.splitlines()

    monkeypatch.setattr(cli, "stdlib_docstrings", slow_docstrings)
    assert main(SMALL) == 0
    assert " in 0.0 s." in capsys.readouterr().out.splitlines()[0]


def test_the_quick_check_gets_the_vocabulary_it_asks_for(capsys):
    """``python -m fast_wordpiece`` with no FILE trains on the standard library's docstrings
    at a size their pairs reach (8,000 tokens), as the README says."""
    assert main(["--no-progress"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Trained PyTokenizer(vocab_size=8000, ")
    assert "on the standard library's docstrings" in out[0]
    assert not any("Stopped" in line for line in out)


def test_a_training_that_runs_out_of_pairs_says_where_it_stopped(corpus, capfd):
    """Asked for more tokens than the text has pairs for: the tokenizer has fewer, and the
    command says so once (on stderr with the progress, else after what it trained)."""
    assert main([str(corpus), "--vocab-size", "5000", "--min-frequency", "1", "--no-progress"]) == 0
    out = capfd.readouterr().out.splitlines()
    size = PyTokenizer.train_from_files(corpus, 5000, 1, show_progress=False).vocab_size
    assert size < 5000
    assert out[1] == f"Stopped at {size:,} tokens of the 5,000 asked: no pairs left to merge."
    assert main([str(corpus), "--vocab-size", "5000", "--no-progress"]) == 0
    assert (
        capfd.readouterr().out.splitlines()[1].endswith("no pairs left to merge (none occurs --min-frequency=2 times).")
    )
    assert main([str(corpus), "--vocab-size", "5000", "--min-frequency", "1"]) == 0
    out, err = capfd.readouterr()
    assert "Stopped" not in out
    assert err.count("no pairs left to merge") == 1
    assert f"[merging] stopped at {size} tokens of the 5000 asked: no pairs left to merge\n" in err


def varint(n: int) -> bytes:
    """Unsigned LEB128, as the word counts file writes its numbers."""
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    return bytes(out + bytes([n]))


def test_train_takes_counts_files_with_words_counted_zero_times(corpus, tmp_path, capsys):
    """A counts file written by another tool may list words it did not see, with a count of 0:
    ``train --counts`` trains as if they were not there (``count`` still reads only text)."""
    counts = WordCounts.from_files(corpus, show_progress=False)
    entries = sorted([*counts.items(), ("aardvark", 0), ("zebra", 0)])
    data = WordCounts().to_bytes()
    body = data[: data.index(b"}") + 1] + varint(len(entries))
    for word, n in entries:
        body += varint(len(word.encode())) + word.encode() + varint(n)
    path = tmp_path / "zeros.fwc"
    path.write_bytes(body + zlib.crc32(body).to_bytes(4, "little"))
    assert main(["train", "--counts", str(path), *SMALL, "--save", str(tmp_path / "t.json")]) == 0
    out = capsys.readouterr().out
    assert f"1 word counts files ({counts.total:,} words, {len(counts):,} distinct)" in out
    expected = PyTokenizer.train_from_counts(counts, 120, 1, show_progress=False)
    assert PyTokenizer.load(tmp_path / "t.json").to_json() == expected.to_json()
    assert main(["count", str(path), "--out", str(tmp_path / "c.fwc"), "--no-progress"]) == 1
    assert "a word counts file (from `count`), not text: it is counted already" in one_line_error(capsys)


# ----------------------------------------------------------------------------- files of the wrong kind


@pytest.fixture
def counts_file(corpus: Path, tmp_path: Path) -> Path:
    path = tmp_path / "words.fwc"
    WordCounts.from_files(corpus, show_progress=False).save(path)
    return path


@pytest.mark.parametrize(
    ("command", "cure"),
    [
        ("train", "train on it with --counts {path}"),
        ("count", "it is counted already (train on it with `train --counts {path}`)"),
        ("analyze", "analyze reads text files (train on word counts with `train --counts {path}`)"),
        ("compare", "compare reads text files (train on word counts with `train --counts {path}`)"),
    ],
)
def test_a_word_counts_file_given_as_text_is_named_as_one(command, cure, counts_file, tmp_path, capsys):
    """Not "invalid UTF-8 ... pass --errors replace", which would train on garbage: the file
    is a word counts file, and the command says what reads it; nothing is trained or written."""
    tokenizer = tmp_path / "t.json"
    PyTokenizer.train(TEXT.splitlines(), 120, show_progress=False).save(tokenizer)
    argv = {
        "train": ["train", str(counts_file), *SMALL],
        "count": ["count", str(counts_file), "--out", str(tmp_path / "c.fwc"), "--no-progress"],
        "analyze": ["analyze", str(tokenizer), str(counts_file)],
        "compare": ["compare", str(counts_file), "--vocab-size", "300"],
    }[command]
    assert main(argv) == 1
    prefix = "fast-wordpiece compare" if command == "compare" else "fast-wordpiece"
    assert one_line_error(capsys) == (
        f"{prefix}: {counts_file}: a word counts file (from `count`), not text: {cure.format(path=counts_file)}"
    )
    assert not (tmp_path / "c.fwc").exists()


@pytest.mark.parametrize("name", ["words.fwc", "words.json", "vocab.txt"])
def test_analyze_names_a_word_counts_file_given_as_its_tokenizer(name, counts_file, corpus, tmp_path, capsys):
    tokenizer = tmp_path / name
    tokenizer.write_bytes(counts_file.read_bytes())
    assert main(["analyze", str(tokenizer), str(corpus)]) == 1
    assert one_line_error(capsys) == (
        f"fast-wordpiece: {tokenizer}: a word counts file (from `count`), not a tokenizer: "
        "analyze takes a model directory, a tokenizer file (.json) or a BERT vocab.txt, then text files"
    )


def test_analyze_says_how_it_read_a_tokenizer_that_does_not_load(corpus, tmp_path, capsys):
    """A TOKENIZER that is not .json is read as a vocab.txt: a text file given in its place
    fails as a vocabulary, and the message says why it was read as one."""
    assert main(["analyze", str(corpus), str(corpus)]) == 1
    err = one_line_error(capsys)
    assert err.startswith(f"fast-wordpiece: {corpus}: duplicate token ")
    assert err.endswith("; a TOKENIZER not ending in .json is read as a BERT vocab.txt")
    not_utf8 = tmp_path / "t.json"
    not_utf8.write_bytes(b'\xff{"version": "1.0"}')
    assert main(["analyze", str(not_utf8), str(corpus)]) == 1
    assert one_line_error(capsys) == f"fast-wordpiece: {not_utf8}: not UTF-8 text (invalid byte at offset 0)"


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "{dir}", *SMALL],
        ["train", "--counts", "{dir}", *SMALL],
        ["count", "{dir}", "--out", "{dir}/c.fwc", "--no-progress"],
        ["analyze", "{tokenizer}", "{dir}"],
        ["compare", "{dir}"],
    ],
)
def test_a_directory_given_as_a_file_is_one_line_and_status_1(argv, corpus, tmp_path, capsys):
    tokenizer = tmp_path / "t.json"
    PyTokenizer.train(TEXT.splitlines(), 120, show_progress=False).save(tokenizer)
    folder = tmp_path / "folder"
    folder.mkdir()
    argv = [a.format(dir=folder, corpus=corpus, tokenizer=tokenizer) for a in argv]
    assert main(argv) == 1
    err = one_line_error(capsys)
    assert err.lower().endswith(f": {folder}: is a directory"), err
    assert "Errno" not in err
    assert "os error" not in err


def test_a_file_that_cannot_be_read_is_path_and_reason(tmp_path, capsys):
    """As other commands put it (``cat: x: No such file or directory``): no "[Errno 2]",
    no "(os error 2)", no quotes around the path."""
    missing = tmp_path / "missing.fwc"
    assert main(["train", "--counts", str(missing), *SMALL]) == 1
    assert one_line_error(capsys) == f"fast-wordpiece: {missing}: No such file or directory"
    assert main(["count", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "c.fwc"), "--no-progress"]) == 1
    assert one_line_error(capsys) == f"fast-wordpiece: {tmp_path / 'missing.txt'}: No such file or directory"


def test_running_out_of_memory_is_one_line_and_status_1(corpus, monkeypatch, capsys):
    def too_big(*args, **kwargs):
        raise MemoryError("cannot allocate the word counts (12 GB)")

    monkeypatch.setattr(PyTokenizer, "train_from_files", too_big)
    assert main([str(corpus), *SMALL]) == 1
    assert one_line_error(capsys) == "fast-wordpiece: out of memory: cannot allocate the word counts (12 GB)"


# ----------------------------------------------------------------------------- sizes


SIZES_OUT_OF_RANGE = [
    ("--vocab-size", "0", "--vocab-size must be >= 1, got 0"),
    ("--vocab-size", "-1", "--vocab-size must be >= 1, got -1"),
    ("--vocab-size", str(2**64), "--vocab-size is too large"),
    ("--min-frequency", "-1", "--min-frequency must be >= 0, got -1"),
]


@pytest.mark.parametrize(
    ("command", "flag", "value", "error"),
    [("train", *case) for case in SIZES_OUT_OF_RANGE]
    + [("train", "--limit-alphabet", "0", "--limit-alphabet must be >= 1, got 0")]
    + [("compare", *case) for case in SIZES_OUT_OF_RANGE],
)
def test_a_size_out_of_range_is_named_by_its_flag_before_any_work(command, flag, value, error, monkeypatch, capsys):
    """A usage error (status 2) in the command line's words, told before the corpus (here
    the standard library's docstrings, which take seconds to read) is read."""

    def no_corpus_yet():
        raise AssertionError("the corpus was read before the arguments were checked")

    monkeypatch.setattr(cli, "stdlib_docstrings", no_corpus_yet)
    assert main([command, f"{flag}={value}", "--no-progress" if command == "train" else "--held-out=0.5"]) == 2
    prefix = "fast-wordpiece compare" if command == "compare" else "fast-wordpiece"
    assert one_line_error(capsys) == f"{prefix}: {error}"


# ----------------------------------------------------------------------------- help, read as a new user


def test_each_commands_help_describes_that_command(capsys):
    def help_of(command: str) -> str:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        return " ".join(capsys.readouterr().out.split())  # as read, whatever the terminal's width

    out = help_of("train")
    assert " Train a WordPiece tokenizer on text files (or on word counts files), then show it" in out
    assert "analyze what a tokenizer makes" not in out
    assert "--save FILE|DIR/" in out
    assert "--out FWC the word counts file to write (.fwc)" in help_of("count")
    out = help_of("analyze")
    assert out.startswith("usage: fast-wordpiece analyze [-h] [--errors {strict,replace}] TOKENIZER FILE [FILE ...]")
    assert "FILE UTF-8 text files, analyzed line by line (not word counts files; - for the standard input)" in out
    assert "TOKENIZER a model directory (as from_pretrained reads it), a tokenizer file (.json" in out
    out = help_of("compare")
    assert "--vocab-size N" in out
    assert "the vocabulary size of BPE, WordPiece and Unigram (default: 8000)" in out
    assert "--min-frequency N" in out
    assert "--held-out SHARE" in out


# ----------------------------------------------------------------------------- encode


@pytest.fixture
def tokenizer_file(tmp_path: Path) -> Path:
    path = tmp_path / "t.json"
    PyTokenizer.train(TEXT.splitlines(), 120, show_progress=False).save(path)
    return path


def json_lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def run_module(argv: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "fast_wordpiece", *argv], input=stdin, capture_output=True, timeout=600
    )


def test_encode_prints_each_texts_ids_and_tokens_as_a_json_line(tokenizer_file, capsys):
    """One line per TEXT, in order: the ``input_ids`` of the call ``tokenizer(TEXT)`` and
    their tokens; nothing else unless asked for."""
    tokenizer = PyTokenizer.load(tokenizer_file)
    texts = ["Unknown words become pieces.", "", "naïve ünïcode, 東京"]
    assert main(["encode", str(tokenizer_file), *texts]) == 0
    lines = json_lines(capsys.readouterr().out)
    assert len(lines) == len(texts)
    for text, line in zip(texts, lines):
        ids = tokenizer(text)["input_ids"]
        assert line == {"input_ids": ids, "tokens": [tokenizer.id_to_token(i) for i in ids]}
    assert lines[1]["tokens"] == ["[CLS]", "[SEP]"]


def test_encode_takes_a_pair_no_special_tokens_and_offsets(tokenizer_file, capsys):
    tokenizer = PyTokenizer.load(tokenizer_file)
    argv = ["encode", str(tokenizer_file), "the pieces", "--pair", "words it never saw", "--offsets"]
    assert main(argv) == 0
    [line] = json_lines(capsys.readouterr().out)
    call = tokenizer("the pieces", "words it never saw", return_offsets_mapping=True)
    assert line["input_ids"] == call["input_ids"]
    assert line["token_type_ids"] == call["token_type_ids"]
    assert line["offsets"] == [list(offset) for offset in call["offset_mapping"]]
    assert line["tokens"][0] == "[CLS]"
    assert line["tokens"].count("[SEP]") == 2
    assert main(["encode", str(tokenizer_file), "the pieces", "--no-special-tokens"]) == 0
    [line] = json_lines(capsys.readouterr().out)
    assert line["input_ids"] == tokenizer.encode("the pieces", add_special_tokens=False).ids
    assert "[CLS]" not in line["tokens"]


def test_encode_of_a_lone_dash_reads_the_standard_input(tokenizer_file):
    tokenizer = PyTokenizer.load(tokenizer_file)
    done = run_module(["encode", str(tokenizer_file), "-"], b"the words\n")
    assert done.returncode == 0, done.stderr
    assert json_lines(done.stdout.decode()) == [
        {
            "input_ids": tokenizer("the words")["input_ids"],
            "tokens": tokenizer.tokenize("the words", add_special_tokens=True),
        }
    ]


def test_options_may_come_between_the_arguments(tokenizer_file, capsys):
    """``encode TOK --pair B A``, as a shell user writes it: an option between the positional
    arguments is read (every command parses its arguments intermixed)."""
    assert main(["encode", str(tokenizer_file), "--pair", "words it never saw", "the pieces"]) == 0
    [line] = json_lines(capsys.readouterr().out)
    assert line["input_ids"] == PyTokenizer.load(tokenizer_file)("the pieces", "words it never saw")["input_ids"]


def test_encode_without_text_reads_the_standard_input_line_by_line(tokenizer_file):
    """Each line (ended by "\\n", a "\\r" before it dropped) is one output line, the empty
    ones included, so that output line i is input line i."""
    tokenizer = PyTokenizer.load(tokenizer_file)
    done = run_module(["encode", str(tokenizer_file)], b"the words\r\n\nnever saw")
    assert done.returncode == 0, done.stderr
    lines = json_lines(done.stdout.decode())
    assert [line["input_ids"] for line in lines] == [tokenizer(t)["input_ids"] for t in ["the words", "", "never saw"]]


def test_encode_names_bad_utf8_on_the_standard_input_by_byte_offset(tokenizer_file):
    done = run_module(["encode", str(tokenizer_file)], b"fine\ncaf\xe9\n")
    assert done.returncode == 1
    assert done.stdout.decode().count("\n") == 1  # the first line was encoded before the second was read
    assert done.stderr.decode() == (
        "fast-wordpiece: -: invalid UTF-8 at byte offset 8 (pass --errors replace to replace it)\n"
    )
    done = run_module(["encode", str(tokenizer_file), "--errors", "replace"], b"fine\ncaf\xe9\n")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 2


def test_encode_takes_a_model_directory_a_vocab_txt_and_the_family(tokenizer_file, tmp_path, capsys):
    tokenizer = PyTokenizer.load(tokenizer_file)
    tokenizer.save_pretrained(tmp_path / "model")
    tokenizer.save_vocab(tmp_path / "vocab.txt")
    bpe = BPETokenizer.train(TEXT.splitlines(), 300, show_progress=False)
    bpe.save(tmp_path / "bpe.json")
    expected = tokenizer("the pieces")["input_ids"]
    for source in (tmp_path / "model", tmp_path / "vocab.txt"):
        assert main(["encode", str(source), "the pieces"]) == 0
        assert json_lines(capsys.readouterr().out)[0]["input_ids"] == expected
    assert main(["encode", str(tmp_path / "bpe.json"), "the pieces"]) == 0
    [line] = json_lines(capsys.readouterr().out)
    assert line["input_ids"] == bpe.encode("the pieces")
    assert line["tokens"] == [bpe.id_to_token(i) for i in bpe.encode("the pieces")]


def test_a_vocab_txt_without_sep_serves_the_commands_that_add_no_special_tokens(tmp_path, capsys):
    """A vocab.txt is read without post-processing first: the commands that add no special tokens
    work on one without [CLS] or [SEP]; encoding with them says what is missing."""
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("[PAD]\n[UNK]\n[CLS]\n[MASK]\nhello\n##s\n")
    assert main(["encode", str(vocab), "hellos", "--no-special-tokens"]) == 0
    assert json_lines(capsys.readouterr().out) == [{"input_ids": [4, 5], "tokens": ["hello", "##s"]}]
    (tmp_path / "text.txt").write_text("hellos hello\n")
    assert main(["analyze", str(vocab), str(tmp_path / "text.txt")]) == 0
    capsys.readouterr()
    assert main(["encode", str(vocab), "hellos"]) == 1
    assert one_line_error(capsys) == (
        'fast-wordpiece: cannot add special tokens: "[CLS]" and "[SEP]" must both be in the vocabulary '
        "(pass --no-special-tokens)"
    )


def test_encode_shows_a_template_token_that_no_vocabulary_token_has(tmp_path, capsys):
    """A tokenizer.json whose template adds [SEP] as an id no token has (Hugging Face shows [SEP])."""
    tokenizer = PyTokenizer(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello"])
    document = json.loads(tokenizer.to_str())
    del document["model"]["vocab"]["[SEP]"]
    del document["model"]["fast_wordpiece"]  # a plain Hugging Face file
    document["added_tokens"] = [t for t in document["added_tokens"] if t["content"] != "[SEP]"]
    document["post_processor"] = {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                   {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
        "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
        "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]},
                           "[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}},
    }  # fmt: skip
    (tmp_path / "t.json").write_text(json.dumps(document))
    assert main(["encode", str(tmp_path / "t.json"), "hello"]) == 0
    assert json_lines(capsys.readouterr().out) == [{"input_ids": [2, 4, 3], "tokens": ["[CLS]", "hello", "[SEP]"]}]


def test_encode_prints_an_added_token_as_it_is_not_as_matched(tmp_path, capsys):
    """An added token that strips the whitespace around it is printed as the token (``id_to_token``)."""
    tokenizer = PyTokenizer(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "a", "b"])
    tokenizer.add_tokens([fast_wordpiece.AddedToken("<y>", lstrip=True, rstrip=True)])
    tokenizer.save(tmp_path / "t.json")
    assert main(["encode", str(tmp_path / "t.json"), "a <y> b"]) == 0
    [line] = json_lines(capsys.readouterr().out)
    assert line["tokens"] == ["[CLS]", "a", "<y>", "b", "[SEP]"]


def test_encode_needs_a_tokenizer_and_no_text(capsys):
    with pytest.raises(SystemExit) as info:
        main(["encode"])
    assert info.value.code == 2
    assert capsys.readouterr().err.endswith("error: the following arguments are required: TOKENIZER\n")


def test_encode_refuses_a_pair_for_a_character_tokenizer(tmp_path, capsys):
    CharTokenizer.train(TEXT.splitlines(), show_progress=False).save(tmp_path / "c.json")
    assert main(["encode", str(tmp_path / "c.json"), "a", "--pair", "b"]) == 2
    assert one_line_error(capsys) == "fast-wordpiece: --pair: a character tokenizer encodes one text at a time"


def test_encode_names_a_word_counts_file_given_as_its_tokenizer(counts_file, capsys):
    assert main(["encode", str(counts_file), "text"]) == 1
    assert one_line_error(capsys) == (
        f"fast-wordpiece: {counts_file}: a word counts file (from `count`), not a tokenizer: "
        "encode takes a model directory, a tokenizer file (.json) or a BERT vocab.txt, then texts"
    )


# ----------------------------------------------------------------------------- commands, files, directories


@pytest.mark.parametrize("word", ["frobnicate", "corpus", "tokenize"])
def test_a_word_that_is_no_file_and_no_command_is_an_unknown_command(word, tmp_path, monkeypatch, capsys):
    """A bare list of FILEs trains; a first argument that does not exist and looks like a
    word (no dot, no slash) is a command this version lacks, not a missing corpus."""
    monkeypatch.chdir(tmp_path)
    assert main([word, "t.json", "hello"]) == 2
    assert one_line_error(capsys) == (
        f"fast-wordpiece: unknown command {word!r} (commands: train, encode, count, analyze, compare)"
    )


def test_save_into_a_directory_writes_a_model_directory(corpus, tmp_path, capsys):
    """``--save DIR/`` (or an existing directory) writes what ``save_pretrained`` writes,
    which ``from_pretrained`` reads back as the tokenizer trained."""
    trained = PyTokenizer.train_from_files([corpus], 120, 1, show_progress=False)
    names = ["special_tokens_map.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt"]
    existing = tmp_path / "existing"
    existing.mkdir()
    for given, folder in [(f"{tmp_path / 'new'}/", tmp_path / "new"), (str(existing), existing)]:
        assert main([str(corpus), *SMALL, "--save", given]) == 0
        written = "tokenizer.json, vocab.txt, tokenizer_config.json, special_tokens_map.json"
        assert f"Saved to {folder}/, a transformers model directory ({written}).\n" in capsys.readouterr().out
        assert sorted(p.name for p in folder.iterdir()) == names
        again = PyTokenizer.from_pretrained(folder)
        assert again.get_vocab() == trained.get_vocab()
        assert again.encode(TEXT).ids == trained.encode(TEXT).ids


def test_a_directory_that_cannot_hold_the_tokenizer_is_refused_before_training(corpus, tmp_path, monkeypatch, capsys):
    """The regex pre-tokenizer has no tokenizer.json form: saving it into a model directory is
    a usage error told before training, whether the option is given or comes with word counts."""

    def no_training(*args, **kwargs):
        raise AssertionError("trained before the arguments were checked")

    counts = tmp_path / "r.fwc"
    WordCounts.from_files(corpus, pre_tokenizer="regex").save(counts)
    monkeypatch.setattr(PyTokenizer, "train_from_files", no_training)
    monkeypatch.setattr(PyTokenizer, "train_from_counts", no_training)
    folder = tmp_path / "model"
    error = (
        f"fast-wordpiece: --save {folder}/: a model directory holds a Hugging Face tokenizer.json, which the "
        "regex pre-tokenizer has no form of: save to a FILE instead (fast-wordpiece's own JSON)"
    )
    assert main([str(corpus), *SMALL, "--pre-tokenizer", "regex", "--save", f"{folder}/"]) == 2
    assert one_line_error(capsys) == error
    assert main(["train", "--counts", str(counts), *SMALL, "--save", f"{folder}/"]) == 2
    assert one_line_error(capsys) == error
    assert not folder.exists()


def test_analyze_takes_a_model_directory(corpus, tokenizer_file, tmp_path, capsys):
    PyTokenizer.load(tokenizer_file).save_pretrained(tmp_path / "model")
    assert main(["analyze", str(tokenizer_file), str(corpus)]) == 0
    from_file = capsys.readouterr().out
    assert main(["analyze", str(tmp_path / "model"), str(corpus)]) == 0
    assert capsys.readouterr().out == from_file
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["analyze", str(empty), str(corpus)]) == 1
    assert "a model directory needs a tokenizer.json or a vocab.txt, and this one has neither" in one_line_error(capsys)


# ----------------------------------------------------------------------------- the standard input


def test_a_file_named_dash_is_the_standard_input(corpus, tmp_path):
    """``train -``, ``count -`` and ``analyze TOKENIZER -`` read the standard input as they read a file."""
    data = corpus.read_bytes()
    done = run_module(["train", "-", *SMALL, "--save", str(tmp_path / "t.json")], data)
    assert done.returncode == 0, done.stderr
    assert " on - in " in done.stdout.decode()
    expected = PyTokenizer.train_from_files([corpus], 120, 1, show_progress=False)
    assert PyTokenizer.load(tmp_path / "t.json").to_json() == expected.to_json()
    done = run_module(["count", "-", "--out", str(tmp_path / "c.fwc"), "--no-progress"], data)
    assert done.returncode == 0, done.stderr
    assert WordCounts.load(tmp_path / "c.fwc") == WordCounts.from_files(corpus)
    from_file = run_module(["analyze", str(tmp_path / "t.json"), str(corpus)])
    done = run_module(["analyze", str(tmp_path / "t.json"), "-"], data)
    assert done.returncode == 0, done.stderr
    assert done.stdout == from_file.stdout


@pytest.mark.parametrize("command", ["train", "count", "analyze"])
def test_bad_utf8_on_the_standard_input_is_named_as_given(command, not_utf8, tokenizer_file, tmp_path):
    argv = {
        "train": ["train", "-", *SMALL],
        "count": ["count", "-", "--out", str(tmp_path / "c.fwc"), "--no-progress"],
        "analyze": ["analyze", str(tokenizer_file), "-"],
    }[command]
    done = run_module(argv, not_utf8.read_bytes())
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "fast-wordpiece: -: invalid UTF-8 at byte offset 27 (pass --errors replace to replace it)\n"
    )


def test_the_standard_input_is_read_once(corpus, capsys):
    assert main(["train", "-", str(corpus), "-", *SMALL]) == 2
    assert (
        one_line_error(capsys) == "fast-wordpiece: - (the standard input) is given more than once: it can be read once"
    )


# ----------------------------------------------------------------------------- usage errors the library finds


@pytest.mark.parametrize(
    ("flag", "value", "error"),
    [
        ("--initial-alphabet", " ", "--initial-alphabet[0] is whitespace, which no pre-tokenizer leaves in a word"),
        (
            "--continuing-subword-prefix",
            "a b",
            '--continuing-subword-prefix "a b" contains whitespace, which training keeps out of every token',
        ),
    ],
)
def test_an_argument_the_library_refuses_is_a_usage_error_before_any_work(flag, value, error, monkeypatch, capsys):
    """Status 2, as for the command line's own checks, named by the flag, before the corpus
    (here the standard library's docstrings) is read."""

    def no_corpus_yet():
        raise AssertionError("the corpus was read before the arguments were checked")

    monkeypatch.setattr(cli, "stdlib_docstrings", no_corpus_yet)
    assert main([f"{flag}={value}", "--no-progress"]) == 2
    assert one_line_error(capsys) == f"fast-wordpiece: {error}"


def test_errors_replace_does_not_go_with_word_counts(counts_file, capsys):
    """Word counts files hold words, not bytes to decode: ``--errors replace`` would do nothing."""
    assert main(["train", "--counts", str(counts_file), "--errors", "replace", *SMALL]) == 2
    assert one_line_error(capsys) == (
        "fast-wordpiece: --errors replace is for text files: word counts files hold words, not bytes to decode"
    )


# ----------------------------------------------------------------------------- the progress line


def test_the_standard_input_is_counted_without_a_total(tmp_path):
    """A pipe has no length to count towards: its progress shows the bytes read, not "N/0 bytes"."""
    text = ("the quick brown fox jumps over the lazy dog\n" * 2000).encode()
    done = run_module(["count", "-", "--out", str(tmp_path / "c.fwc")], stdin=text)
    assert done.returncode == 0, done.stderr
    counting = [line for line in done.stderr.decode().replace("\r", "\n").split("\n") if "[counting words]" in line]
    assert counting
    assert all("/0 bytes" not in line for line in counting), counting
    assert any(f"{len(text):,} bytes" in line or f"{len(text)} bytes" in line for line in counting), counting


def test_a_failure_under_the_progress_line_starts_a_line_of_its_own(not_utf8, counts_file, tmp_path):
    """The progress is drawn with "\\r" and no newline until its phase ends: a failure part-way
    ends that line first; a failure found before any progress is drawn is one line alone."""
    done = run_module(["train", str(not_utf8), "--vocab-size", "120"])
    assert done.returncode == 1
    lines = done.stderr.decode().split("\n")
    assert lines[0].startswith("\r[counting words] ")
    assert lines[1:] == [
        f"fast-wordpiece: {not_utf8}: invalid UTF-8 at byte offset 27 (pass --errors replace to replace it)",
        "",
    ]
    done = run_module(["count", str(not_utf8), "--out", str(tmp_path / "c.fwc")])
    assert done.returncode == 1
    assert done.stderr.decode().split("\n")[1].startswith("fast-wordpiece: ")
    for argv in (
        ["train", str(tmp_path / "missing.txt")],
        ["train", "--counts", str(counts_file), "--pre-tokenizer", "whitespace"],
    ):
        done = run_module(argv)
        assert done.returncode == 1
        assert done.stderr.decode().count("\n") == 1, done.stderr
        assert done.stderr.decode().startswith("fast-wordpiece: ")


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "", *SMALL],
        ["train", "{corpus}", "--save", "", *SMALL],
        ["train", "--counts", "", *SMALL],
        ["count", "{corpus}", "--out", "", "--no-progress"],
        ["encode", "", "{corpus}"],
        ["analyze", "{corpus}", ""],
        ["compare", ""],
        ["compare", "{corpus}", "--plot", ""],
    ],
)
def test_an_empty_path_is_refused_as_naming_no_file(argv, corpus, tmp_path, capsys, monkeypatch):
    """``Path("")`` is the working directory: an empty path argument is refused by name, and
    nothing is written there."""
    monkeypatch.chdir(tmp_path)
    argv = [a.format(corpus=corpus) for a in argv]
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.rstrip().splitlines()[-1].endswith(": an empty path names no file"), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.txt"]
