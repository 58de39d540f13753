"""Where a save lands: every save is atomic (a temporary file, then a rename), and goes where opening
the path for writing would. Through a symbolic link it replaces the file the link names and leaves
the link a link; an existing file keeps its permission bits; a FIFO or a device is written
directly, since there is nothing to rename over."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Callable

import pytest

import fast_wordpiece
import fast_wordpiece.reference

CORPUS = ["hello world", "hello there, world!"] * 3
IMPLEMENTATIONS = [fast_wordpiece, fast_wordpiece.reference]

pytestmark = pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not hasattr(os, "symlink"), reason="optional: needs symlinks and FIFOs (POSIX)"
)


def _savers(impl: Any) -> dict[str, Callable[[Path], None]]:
    tok = impl.PyTokenizer.train(CORPUS, 40, show_progress=False)
    counts = impl.count_words(CORPUS)
    bpe = impl.BPETokenizer.train(CORPUS, 300)
    chars = impl.CharTokenizer.train(CORPUS)
    return {
        "save": tok.save,
        "save_vocab": tok.save_vocab,
        "WordCounts.save": counts.save,
        "BPETokenizer.save": bpe.save,
        "CharTokenizer.save": chars.save,
    }


CASES = [(impl, name) for impl in IMPLEMENTATIONS for name in _savers(impl)]
IDS = [f"{'engine' if impl is fast_wordpiece else 'twin'}-{name}" for impl, name in CASES]


@pytest.fixture(params=CASES, ids=IDS)
def save(request: pytest.FixtureRequest) -> Callable[[Path], None]:
    impl, name = request.param
    return _savers(impl)[name]


def _saved(save: Callable[[Path], None], tmp_path: Path) -> bytes:
    """What ``save`` writes to a plain new file."""
    plain = tmp_path / "plain.out"
    save(plain)
    return plain.read_bytes()


def test_a_save_through_links_replaces_the_file_they_name(save, tmp_path):
    expected = _saved(save, tmp_path)
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "file.out"
    real.write_bytes(b"old")
    (tmp_path / "link.out").symlink_to(Path("real") / "file.out")
    (tmp_path / "chain.out").symlink_to("link.out")
    save(tmp_path / "chain.out")
    assert (tmp_path / "chain.out").is_symlink()
    assert (tmp_path / "link.out").is_symlink()
    assert real.read_bytes() == expected
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["file.out"], "no temporary file left"


def test_a_link_to_a_missing_file_creates_that_file(save, tmp_path):
    expected = _saved(save, tmp_path)
    (tmp_path / "dangling.out").symlink_to(tmp_path / "later.out")
    save(tmp_path / "dangling.out")
    assert (tmp_path / "dangling.out").is_symlink()
    assert (tmp_path / "later.out").read_bytes() == expected


def test_a_loop_of_links_is_an_os_error_and_writes_nothing(save, tmp_path):
    (tmp_path / "loop.out").symlink_to("loop.out")
    with pytest.raises(OSError, match=r"loop\.out"):
        save(tmp_path / "loop.out")
    assert [p.name for p in tmp_path.iterdir()] == ["loop.out"]


def test_an_existing_file_keeps_its_permission_bits(save, tmp_path):
    target = tmp_path / "private.out"
    target.write_bytes(b"old")
    target.chmod(0o600)
    save(target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    target.chmod(0o640)
    save(target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.read_bytes() != b"old"


def test_a_fifo_is_written_to_not_replaced(save, tmp_path):
    expected = _saved(save, tmp_path)
    assert len(expected) < 65536, "fits the pipe's buffer, so the save needs no concurrent reader"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        save(fifo)
        received = b""
        while chunk := os.read(reader, 65536):
            received += chunk
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the save replaced the FIFO with a regular file"
    assert received == expected


def test_a_path_that_cannot_be_saved_to_is_named_by_the_error(save, tmp_path):
    """Every save refuses alike a path with no file name (ValueError), a missing directory
    (FileNotFoundError), a directory (IsADirectoryError) and a path through a file
    (NotADirectoryError): the error's ``filename`` is the path given, never a temporary file, and
    nothing is left behind."""
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "keep").write_text("x")
    for path in ["", "/", ".."]:
        with pytest.raises(ValueError, match="not a file path"):
            save(path)
    for path, error in [
        (tmp_path / "missing" / "out", FileNotFoundError),
        (folder, IsADirectoryError),
        (folder / "keep" / "out", NotADirectoryError),
    ]:
        with pytest.raises(error) as raised:
            save(path)
        assert raised.value.filename == str(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]
    assert os.listdir(folder) == ["keep"]
