"""The command line (``fast-wordpiece``, ``python -m fast_wordpiece``): what its help
shows, and how it treats a user's mistakes: one line on stderr naming the problem, exit
status 2, no traceback, and nothing trained for nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import fast_wordpiece
from fast_wordpiece import PyTokenizer, WordCounts, cli
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


# ----------------------------------------------------------------------------- help


def test_the_top_level_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: fast-wordpiece ")
    for command in ("train", "count", "analyze", "compare"):
        assert f"\n  {command} " in out, command
    assert "Run `fast-wordpiece COMMAND --help` for a command's options." in out


@pytest.mark.parametrize("command", ["train", "count", "analyze", "compare"])
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
    assert main([str(corpus), "--save", str(tmp_path), *SMALL]) == 2
    assert one_line_error(capsys) == f"fast-wordpiece: --save {tmp_path}: is a directory"
    assert not missing.parent.exists()


def test_a_save_that_fails_after_training_is_one_line_too(corpus, tmp_path, capsys, monkeypatch):
    def refuse(self, path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(PyTokenizer, "save", refuse)
    assert main([str(corpus), "--save", str(tmp_path / "t.json"), *SMALL]) == 2
    err = capsys.readouterr().err
    assert err == f"fast-wordpiece: [Errno 13] Permission denied: '{tmp_path / 't.json'}'\n"


@pytest.mark.parametrize("typo", ["cuont", "trian", "analyse", "comapre"])
def test_a_mistyped_command_is_named_with_the_closest_one(typo, capsys):
    command = {"cuont": "count", "trian": "train", "analyse": "analyze", "comapre": "compare"}[typo]
    assert main([typo, "corpus.txt"]) == 2
    assert one_line_error(capsys) == f"fast-wordpiece: unknown command {typo!r} (did you mean {command!r}?)"


def test_a_missing_file_that_looks_like_no_command_is_a_missing_file(tmp_path, capsys):
    assert main([str(tmp_path / "corpus.txt"), *SMALL]) == 2
    err = one_line_error(capsys)
    assert "No such file or directory" in err
    assert str(tmp_path / "corpus.txt") in err


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
    assert main(argv) == 2
    assert one_line_error(capsys).endswith(
        f"{not_utf8}: invalid UTF-8 at byte offset 27 (pass --errors replace to replace it)"
    )
    assert main([*argv, "--errors", "replace"]) == 0


def test_a_file_that_is_no_word_counts_file_is_named_once(corpus, tmp_path, capsys):
    counts = tmp_path / "a.fwc"
    assert main(["count", str(corpus), "--out", str(counts), "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["train", "--counts", str(counts), str(corpus), *SMALL]) == 2
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
    assert main(["train", "--counts", str(counts), "--pre-tokenizer", "bert", *SMALL]) == 2
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
