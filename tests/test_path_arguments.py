"""Path arguments, as Python's ``open`` takes them, in the engine and the twin alike: a str, bytes,
or an ``os.PathLike`` whose ``__fspath__`` gives either (bytes decoded as ``os.fsdecode`` does: on
Linux, bytes that are not UTF-8 name the very file); a NUL character is a ValueError naming the
argument (``open``: ``embedded null byte``), never an OSError."""

from __future__ import annotations

import functools
import os
import pickle
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import pytest
from implementations import TEXTS, outcome, small_tokenizers

import fast_wordpiece
import fast_wordpiece.reference

MODULES = {"engine": fast_wordpiece, "twin": fast_wordpiece.reference}


class BytesPath:
    """An ``os.PathLike`` whose ``__fspath__`` gives bytes."""

    def __init__(self, path: bytes) -> None:
        self._path = path

    def __fspath__(self) -> bytes:
        return self._path


#: One tokenizer of each kind per implementation, made once.
tokenizers = functools.cache(small_tokenizers)


# (what is called, the name its error gives the path, the call given a path); `d` a directory
# that exists, for the calls that take one.
Call = Callable[[ModuleType, Any, Path], Any]
CALLS: list[tuple[str, str, Call]] = [
    ("WordCounts.from_files([p])", "paths[0]", lambda m, p, d: m.WordCounts.from_files([p])),
    ("WordCounts.from_files(p)", "paths", lambda m, p, d: m.WordCounts.from_files(p)),
    ("WordCounts.load", "path", lambda m, p, d: m.WordCounts.load(p)),
    ("WordCounts.save", "path", lambda m, p, d: m.count_words(TEXTS).save(p)),
    ("PyTokenizer.from_file", "path", lambda m, p, d: m.PyTokenizer.from_file(p)),
    ("PyTokenizer.from_vocab_file", "path", lambda m, p, d: m.PyTokenizer.from_vocab_file(p)),
    ("PyTokenizer.save", "path", lambda m, p, d: tokenizers(m)["wordpiece"].save(p)),
    ("PyTokenizer.save_vocab", "path", lambda m, p, d: tokenizers(m)["wordpiece"].save_vocab(p)),
    (
        "PyTokenizer.from_pretrained",
        "pretrained_model_name_or_path",
        lambda m, p, d: m.PyTokenizer.from_pretrained(p),
    ),
    ("subfolder", "subfolder", lambda m, p, d: m.PyTokenizer.from_pretrained(d, subfolder=p)),
    ("PyTokenizer.save_pretrained", "save_directory", lambda m, p, d: tokenizers(m)["wordpiece"].save_pretrained(p)),
    (
        "PyTokenizer.save_vocabulary",
        "save_directory",
        lambda m, p, d: tokenizers(m)["wordpiece"].save_vocabulary(p),
    ),
    ("BPETokenizer.train_from_files", "paths[0]", lambda m, p, d: m.BPETokenizer.train_from_files([p], 270)),
    ("BPETokenizer.save", "path", lambda m, p, d: tokenizers(m)["bpe"].save(p)),
    ("BPETokenizer.load", "path", lambda m, p, d: m.BPETokenizer.load(p)),
    ("CharTokenizer.train_from_files", "paths", lambda m, p, d: m.CharTokenizer.train_from_files(p)),
    ("CharTokenizer.save", "path", lambda m, p, d: tokenizers(m)["chars"].save(p)),
    ("CharTokenizer.load", "path", lambda m, p, d: m.CharTokenizer.load(p)),
    ("UnigramTokenizer.train_from_files", "paths[0]", lambda m, p, d: m.UnigramTokenizer.train_from_files([p], 30)),
    ("UnigramTokenizer.save", "path", lambda m, p, d: tokenizers(m)["unigram"].save(p)),
    ("UnigramTokenizer.from_file", "path", lambda m, p, d: m.UnigramTokenizer.from_file(p)),
    (
        "UnigramTokenizer.from_pretrained",
        "pretrained_model_name_or_path",
        lambda m, p, d: m.UnigramTokenizer.from_pretrained(p),
    ),
    (
        "UnigramTokenizer.save_pretrained",
        "save_directory",
        lambda m, p, d: tokenizers(m)["unigram"].save_pretrained(p),
    ),
]


@pytest.mark.parametrize(
    "given", [str, os.fsencode, lambda p: BytesPath(os.fsencode(p))], ids=["str", "bytes", "pathlike"]
)
@pytest.mark.parametrize(("what", "name", "call"), CALLS, ids=[c[0] for c in CALLS])
def test_a_nul_in_a_path_is_a_value_error_naming_it(
    tmp_path: Path, what: str, name: str, call: Call, given: Callable[[str], Any]
) -> None:
    path = given(str(tmp_path / "a\0b"))
    engine, twin = (outcome(lambda m=m: call(m, path, tmp_path)) for m in MODULES.values())
    assert engine == twin == ("ValueError", f"{name}: embedded null byte")
    with pytest.raises(ValueError, match="embedded null byte"), open(path):  # as Python's own
        pass


@pytest.mark.parametrize("given", [os.fsencode, lambda p: BytesPath(os.fsencode(p))], ids=["bytes", "pathlike"])
def test_a_path_given_as_bytes_is_read_as_python_reads_it(tmp_path: Path, given: Callable[[str], Any]) -> None:
    """bytes, and a PathLike that gives bytes, name the file ``open`` opens with them."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(TEXTS), encoding="utf-8")
    for name, m in MODULES.items():
        counts = m.WordCounts.from_files(given(str(corpus)))
        assert dict(counts.items()) == dict(m.WordCounts.from_files([corpus]).items())
        assert dict(m.WordCounts.from_files([given(str(corpus))]).items()) == dict(counts.items())
        for kind, tokenizer in tokenizers(m).items():
            saved = tmp_path / f"{name}-{kind}.json"
            tokenizer.save(given(str(saved)))
            loaded = type(tokenizer).load(given(str(saved)))
            assert loaded.get_vocab() == tokenizer.get_vocab()
        directory = tmp_path / f"{name}-model"
        directory.mkdir()
        tokenizers(m)["wordpiece"].save_pretrained(given(str(directory)))
        assert (
            m.PyTokenizer.from_pretrained(given(str(directory))).get_vocab() == tokenizers(m)["wordpiece"].get_vocab()
        )


@pytest.mark.skipif(sys.platform == "win32", reason="Windows paths are Unicode")
@pytest.mark.parametrize("given", [lambda p: p, BytesPath], ids=["bytes", "pathlike"])
def test_bytes_that_are_not_utf8_name_the_very_file(tmp_path: Path, given: Callable[[bytes], Any]) -> None:
    """os.fsdecode's surrogateescape: the name's bytes come back as they were."""
    raw = os.fsencode(tmp_path) + b"/caf\xe9.txt"
    with open(raw, "wb") as f:
        f.write(b"odd words\n")
    for m in MODULES.values():
        assert dict(m.WordCounts.from_files(given(raw)).items()) == {"odd": 1, "words": 1}
        assert dict(m.WordCounts.from_files([given(raw)]).items()) == {"odd": 1, "words": 1}


def test_what_is_no_path_is_still_refused(tmp_path: Path) -> None:
    """A bytearray, a memoryview or an int is no path (``open`` refuses the first two, and takes an
    int for a file descriptor); a PathLike whose ``__fspath__`` gives neither str nor bytes gets
    Python's own TypeError."""
    cases: list[tuple[Callable[[ModuleType], Any], tuple[str, str]]] = [
        (
            lambda m: m.WordCounts.from_files(bytearray(b"/p")),
            ("TypeError", "paths must be a path or a list of paths, not bytearray"),
        ),
        (
            lambda m: m.WordCounts.from_files([memoryview(b"/p")]),
            ("TypeError", "paths[0] must be str, bytes or os.PathLike, not memoryview"),
        ),
        (lambda m: m.BPETokenizer.load(3), ("TypeError", "path must be str, bytes or os.PathLike, not int")),
        (
            lambda m: m.WordCounts.from_files([BytesPath(3)]),  # type: ignore[arg-type]
            ("TypeError", "expected BytesPath.__fspath__() to return str or bytes, not int"),
        ),
    ]
    for call, expected in cases:
        engine, twin = (outcome(lambda m=m, call=call: call(m)) for m in MODULES.values())
        assert engine == twin == expected


WORDPIECE_FILES = ["tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json"]
UNIGRAM_FILES = ["tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"]


@pytest.mark.skipif(sys.platform == "win32", reason="Windows paths are Unicode")
@pytest.mark.parametrize("given", [lambda p: p, os.fsdecode, BytesPath], ids=["bytes", "str", "pathlike"])
def test_paths_given_back_name_the_very_files_when_not_utf8(tmp_path: Path, given: Callable[[bytes], Any]) -> None:
    """The paths the engine gives back (the files save_pretrained and save_vocabulary wrote,
    name_or_path) are the str Python gives for them (os.fsdecode: surrogate escapes), as the
    twin's: they name the very files, and from_pretrained reads them back."""
    for name, m in MODULES.items():
        raw = os.fsencode(tmp_path) + f"/{name}-caf".encode() + b"\xe9"
        directory = os.fsdecode(raw)  # "...caf\udce9"
        wordpiece, unigram = tokenizers(m)["wordpiece"], tokenizers(m)["unigram"]
        written = wordpiece.save_pretrained(given(raw))
        assert written == [os.path.join(directory, f) for f in WORDPIECE_FILES]
        assert all(os.path.exists(f) for f in written)
        assert wordpiece.save_vocabulary(given(raw)) == (os.path.join(directory, "vocab.txt"),)
        loaded = m.PyTokenizer.from_pretrained(given(raw))
        assert loaded.name_or_path == directory
        assert loaded.get_vocab() == wordpiece.get_vocab()
        assert pickle.loads(pickle.dumps(loaded)).name_or_path == directory
        assert m.PyTokenizer.from_file(written[0]).get_vocab() == wordpiece.get_vocab()
        written = unigram.save_pretrained(given(raw + b"-unigram"))
        assert written == [os.path.join(directory + "-unigram", f) for f in UNIGRAM_FILES]
        assert all(os.path.exists(f) for f in written)
        assert m.UnigramTokenizer.from_pretrained(directory + "-unigram").get_vocab() == unigram.get_vocab()


@pytest.mark.skipif(sys.platform == "win32", reason="Windows paths are Unicode")
@pytest.mark.parametrize("given", [lambda p: p, os.fsdecode], ids=["bytes", "str"])
def test_the_filename_of_an_oserror_for_a_path_not_utf8_is_pythons(
    tmp_path: Path, given: Callable[[bytes], Any]
) -> None:
    """OSError.filename is the str Python's open gives for the missing path (surrogate escapes),
    in the engine as in the twin; the message may show it lossily."""
    raw = os.fsencode(tmp_path) + b"/missing\xe9"
    # Python's open given the str (the twin decodes a path first, as the engine does).
    with pytest.raises(FileNotFoundError) as opened, open(os.fsdecode(raw)):
        pass
    expected = opened.value.filename
    assert expected == os.fsdecode(raw)
    existing = os.fsencode(tmp_path)
    calls: list[Callable[[ModuleType], Any]] = [
        lambda m: m.PyTokenizer.from_file(given(raw)),
        lambda m: m.BPETokenizer.load(given(raw)),
        lambda m: m.WordCounts.from_files([given(raw)]),
        lambda m: m.PyTokenizer.from_pretrained(given(raw)),
        lambda m: m.UnigramTokenizer.from_pretrained(given(raw)),
    ]
    for call in calls:
        for m in MODULES.values():
            with pytest.raises(FileNotFoundError) as raised:
                call(m)
            assert (raised.value.errno, raised.value.filename) == (2, expected)
    # A subfolder missing from a directory that exists (given as bytes: a str subfolder takes no surrogates).
    for m in MODULES.values():
        with pytest.raises(FileNotFoundError) as raised:
            m.PyTokenizer.from_pretrained(given(existing), subfolder=b"sub\xe9")
        assert (raised.value.errno, raised.value.filename) == (2, os.fsdecode(existing + b"/sub\xe9"))


@pytest.mark.parametrize("given", ["", b""], ids=["str", "bytes"])
def test_an_empty_path_names_no_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: Any) -> None:
    """An empty path names nothing, as for Python's ``os.makedirs`` and ``open``: the
    ``save_pretrained`` of every tokenizer that has one is a FileNotFoundError (ENOENT, ``filename``
    ``''``) that writes nothing, not into the current directory either (transformers'
    ``os.makedirs`` refuses it alike); so is every load from it. (A ``save`` to it is the ValueError
    for a path with no file name: test_saves.py.)"""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError) as python:
        os.makedirs("", exist_ok=True)
    expected = (python.value.errno, python.value.filename)
    assert expected == (2, "")
    for m in MODULES.values():
        saves = {kind: t.save_pretrained for kind, t in tokenizers(m).items() if hasattr(t, "save_pretrained")}
        assert {"wordpiece", "unigram"} <= set(saves)
        loads = [m.PyTokenizer.from_pretrained, m.PyTokenizer.from_file, m.PyTokenizer.from_vocab_file,
                 m.PyTokenizer.load, m.UnigramTokenizer.from_pretrained, m.UnigramTokenizer.from_file,
                 m.UnigramTokenizer.load, m.BPETokenizer.load, m.CharTokenizer.load, m.WordCounts.load]  # fmt: skip
        for call in [*saves.values(), *loads]:
            with pytest.raises(FileNotFoundError) as raised:
                call(given)
            assert (raised.value.errno, raised.value.filename) == expected, call
        assert os.listdir(tmp_path) == []


READERS: list[tuple[str, Callable[[ModuleType, str], Any]]] = [
    ("PyTokenizer.from_file", lambda m, p: m.PyTokenizer.from_file(p)),
    ("PyTokenizer.from_vocab_file", lambda m, p: m.PyTokenizer.from_vocab_file(p)),
    ("WordCounts.from_files", lambda m, p: m.WordCounts.from_files([p])),
    ("WordCounts.load", lambda m, p: m.WordCounts.load(p)),
    ("BPETokenizer.train_from_files", lambda m, p: m.BPETokenizer.train_from_files([p], 270)),
    ("BPETokenizer.load", lambda m, p: m.BPETokenizer.load(p)),
    ("CharTokenizer.train_from_files", lambda m, p: m.CharTokenizer.train_from_files(p)),
    ("UnigramTokenizer.from_file", lambda m, p: m.UnigramTokenizer.from_file(p)),
    ("PyTokenizer.train_from_files", lambda m, p: m.PyTokenizer.train_from_files([p], 30, show_progress=False)),
]


@pytest.mark.parametrize(("what", "call"), READERS, ids=[r[0] for r in READERS])
def test_a_file_that_cannot_be_read_is_described_in_pythons_words(
    tmp_path: Path, what: str, call: Callable[[ModuleType, str], Any]
) -> None:
    """A missing file and a directory give the OSError Python's ``open`` gives: its subclass, errno,
    ``strerror`` (the OS's words, without Rust's "(os error 2)") and filename; engine and twin alike."""
    for path in (str(tmp_path / "missing.txt"), str(tmp_path)):
        try:
            with open(path, encoding="utf-8") as f:
                f.read()
        except OSError as e:
            expected = (type(e), e.errno, e.strerror, e.filename)
        for name, m in MODULES.items():
            if not hasattr(m.PyTokenizer, "train_from_files") and what == "PyTokenizer.train_from_files":
                continue  # the twin has no train_from_files
            with pytest.raises(expected[0]) as raised:
                call(m, path)
            e = raised.value
            assert (type(e), e.errno, e.strerror, e.filename) == expected, (name, path)
