"""An exception raised by the caller's own objects while we read them (an ``__iter__`` that opens a
file or queries a server, a mapping's ``items``, a path's ``__fspath__``, an id's ``__index__``), or
by a signal handler meanwhile, reaches the caller unchanged: it is not turned into our TypeError for a wrong type,
in the engine and the twin alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from implementations import small_tokenizers

import fast_wordpiece
from fast_wordpiece import reference

IMPLS = {"engine": fast_wordpiece, "twin": reference}
CORPUS = ["hello world", "hello there, world!"] * 3


class Boom(Exception):
    """Raised by the objects below."""


class RaisingIterable:
    def __iter__(self) -> Any:
        raise Boom("from __iter__")


class RaisingItems(dict):  # type: ignore[type-arg]
    def items(self) -> Any:
        raise Boom("from items")


class RaisingPath:
    def __fspath__(self) -> str:
        raise Boom("from __fspath__")


class RaisingIndex:
    raised: type[Exception] = Boom

    def __index__(self) -> int:
        raise self.raised("from __index__")


class AttributeErrorIndex(RaisingIndex):
    """An AttributeError raised inside ``__index__`` is the caller's too: ``operator.index`` lets it
    through (only a missing ``__index__``, a TypeError, means "not an int")."""

    raised = AttributeError


def calls(fw: Any) -> dict[str, Callable[[Any], Any]]:
    """Each call, given the object to pass where a collection (or path) is expected."""
    tok = fw.PyTokenizer.train(CORPUS, 40, 1, show_progress=False)
    return {
        "train": lambda o: fw.PyTokenizer.train(o, 40, show_progress=False),
        "constructor": lambda o: fw.PyTokenizer(o),
        "special_tokens": lambda o: fw.PyTokenizer.train(CORPUS, 40, special_tokens=o, show_progress=False),
        "encode_batch": lambda o: tok.encode_batch(o),
        "encode_batch np": lambda o: tok.encode_batch(o, return_tensors="np"),
        "decode": lambda o: tok.decode(o),
        "decode_batch": lambda o: tok.decode_batch([o]),
        "analyze": lambda o: tok.analyze(o),
        "count_words": lambda o: fw.count_words(o),
        "WordCounts": lambda o: fw.WordCounts(o),
        "add_tokens": lambda o: tok.add_tokens(o),
        "convert_tokens_to_ids": lambda o: tok.convert_tokens_to_ids(o),
        "convert_ids_to_tokens": lambda o: tok.convert_ids_to_tokens(o),
        "get_special_tokens_mask": lambda o: tok.get_special_tokens_mask(o),
        "BPETokenizer.train": lambda o: fw.BPETokenizer.train(o, 300),
        "CharTokenizer.train": lambda o: fw.CharTokenizer.train(o),
        "UnigramTokenizer.train": lambda o: fw.UnigramTokenizer.train(o, 30),
    } | (
        {"train_from_files": lambda o: fw.PyTokenizer.train_from_files(o, 40, show_progress=False)}
        if hasattr(fw.PyTokenizer, "train_from_files")  # the twin reads no files
        else {}
    )


CASES = [(impl, call) for impl in sorted(IMPLS) for call in sorted(calls(IMPLS[impl]))]


@pytest.mark.parametrize(("impl", "call"), CASES)
def test_an_iterables_own_exception_comes_back_unchanged(impl: str, call: str) -> None:
    with pytest.raises(Boom, match="from __iter__"):
        calls(IMPLS[impl])[call](RaisingIterable())


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_a_mappings_own_exception_comes_back_unchanged(impl: str) -> None:
    fw = IMPLS[impl]
    for call in (lambda o: fw.PyTokenizer.train_from_counts(o, 40, show_progress=False), fw.WordCounts):
        with pytest.raises(Boom, match="from items"):
            call(RaisingItems(a=1))


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_a_paths_own_exception_comes_back_unchanged(impl: str) -> None:
    fw = IMPLS[impl]
    tok = fw.PyTokenizer.train(CORPUS, 40, 1, show_progress=False)
    paths: list[Callable[[Any], Any]] = [tok.save, fw.PyTokenizer.from_file, fw.PyTokenizer.from_vocab_file,
                                         fw.PyTokenizer.from_pretrained, tok.save_pretrained, tok.save_vocab,
                                         fw.WordCounts.load, fw.count_words(CORPUS).save]  # fmt: skip
    if impl == "engine":  # the twin reads no files
        paths.append(lambda o: fw.PyTokenizer.train_from_files([o], 40, show_progress=False))
    for call in paths:
        with pytest.raises(Boom, match="from __fspath__"):
            call(RaisingPath())


def id_calls(fw: Any) -> dict[str, Callable[[Any], Any]]:
    """Each call, of every tokenizer of the family, given the object to pass as an id: alone where
    ids go (``decode(5)``, as transformers takes one id), or as the item of a list that may be one
    sequence or a batch."""
    out: dict[str, Callable[[Any], Any]] = {}
    for kind, tok in small_tokenizers(fw).items():
        out |= {
            f"{kind}.decode": tok.decode,
            f"{kind}.convert_ids_to_tokens": tok.convert_ids_to_tokens,
            f"{kind}.id_to_token": tok.id_to_token,
            f"{kind}.decode([o])": lambda o, tok=tok: tok.decode([o]),
            f"{kind}.convert_ids_to_tokens([o])": lambda o, tok=tok: tok.convert_ids_to_tokens([o]),
            f"{kind}.batch_decode([o])": lambda o, tok=tok: tok.batch_decode([o]),
        }
        if hasattr(tok, "decode_batch"):  # not UnigramTokenizer's
            out[f"{kind}.decode_batch([o])"] = lambda o, tok=tok: tok.decode_batch([o])
    return out


ID_CASES = [(impl, call) for impl in sorted(IMPLS) for call in sorted(id_calls(IMPLS[impl]))]


@pytest.mark.parametrize("index", [RaisingIndex, AttributeErrorIndex])
@pytest.mark.parametrize(("impl", "call"), ID_CASES)
def test_an_ids_own_exception_comes_back_unchanged(impl: str, call: str, index: type[RaisingIndex]) -> None:
    """Whether an object is one id is asked of its ``__index__``, as ``operator.index`` does: only
    a TypeError means "not an id"; anything else it raises is the caller's."""
    with pytest.raises(index.raised, match="from __index__"):
        id_calls(IMPLS[impl])[call](index())


@pytest.mark.parametrize("index", [RaisingIndex, AttributeErrorIndex])
@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_an_integer_arguments_own_exception_comes_back_unchanged(impl: str, index: type[RaisingIndex]) -> None:
    """So is what ``__index__`` raises where an integer argument goes (``max_length``, ``vocab_size``)."""
    fw = IMPLS[impl]
    tok = fw.PyTokenizer.train(CORPUS, 40, 1, show_progress=False)
    for call in (lambda o: tok.encode("a b", truncation=True, max_length=o),
                 lambda o: fw.PyTokenizer.train(CORPUS, o, show_progress=False)):  # fmt: skip
        with pytest.raises(index.raised, match="from __index__"):
            call(index())


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_objects_of_the_wrong_kind_still_get_our_type_error(impl: str) -> None:
    fw = IMPLS[impl]
    with pytest.raises(TypeError, match="corpus must be an iterable of str"):
        fw.PyTokenizer.train(3, 40)
    with pytest.raises(TypeError, match="path"):
        fw.PyTokenizer.from_file(3)


#: A fresh interpreter whose import of numpy raises what a signal handler would raise while it
#: runs (numpy is imported on first use, so a Ctrl-C may land in that import): each use of numpy
#: must give that very exception back, not an ImportError.
NUMPY_IMPORT_INTERRUPTED = """
import sys
from fast_wordpiece import PyTokenizer

class Deadline(Exception):
    pass

class Interrupting:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy":
            raise Deadline("while numpy was being imported")

sys.meta_path.insert(0, Interrupting())
tok = PyTokenizer(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "a"])
for call in (lambda: tok(["a"], return_tensors="np"), lambda: tok.encode("a").offsets_array()):
    try:
        call()
    except Deadline:
        print("Deadline")
    except BaseException as e:
        print(type(e).__name__, e)
"""


def test_an_exception_raised_while_numpy_imports_comes_back_unchanged() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", NUMPY_IMPORT_INTERRUPTED], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["Deadline", "Deadline"], done.stdout
