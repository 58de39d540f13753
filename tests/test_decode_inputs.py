"""What ``decode`` and ``batch_decode`` take besides lists of ids, as transformers 5 takes it.

- ``decode`` of a dict or a ``BatchEncoding`` (ours, a dict; transformers', a ``UserDict``) is the
  text of its ``"input_ids"``: ``tokenizer.decode(tokenizer("some text"))``, for every tokenizer.
- ``batch_decode`` reads another iterable (a range, a deque, an ``array.array``, a generator) as
  the list of its items: a flat one is one sequence, as transformers decodes it.
- A long ``decode`` releases the GIL: other threads run meanwhile.
- One id is what ``operator.index`` takes (but a list or a tuple), whatever else it has.
"""

from __future__ import annotations

import array
import collections
import threading
import time
import warnings
from pathlib import Path
from typing import Any, Callable

import pytest
from implementations import small_tokenizers

import fast_wordpiece
from fast_wordpiece import reference

IMPLS = {"engine": fast_wordpiece, "twin": reference}
TEXTS = ["hello world, it isn't here.", "the quick brown fox jumps", "x"]


@pytest.fixture(scope="module")
def pairs(bert_vocab_file: Path) -> dict[str, Any]:
    """bert-base-uncased, engine and twin, and transformers' tokenizer of the same vocabulary."""
    transformers = pytest.importorskip("transformers")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = transformers.BertTokenizerFast.from_pretrained(str(bert_vocab_file.parent))
    ours = {name: m.PyTokenizer.from_vocab_file(str(bert_vocab_file)) for name, m in IMPLS.items()}
    return {"theirs": theirs, **ours}


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_decode_of_a_batch_encoding_is_the_text_of_its_input_ids(impl: str, pairs: dict[str, Any]) -> None:
    ours, theirs = pairs[impl], pairs["theirs"]
    for text in TEXTS:
        for skip in (False, True):
            for clean in (False, True):
                expected = theirs.decode(theirs(text), skip_special_tokens=skip, clean_up_tokenization_spaces=clean)
                kw = {"skip_special_tokens": skip, "clean_up_tokenization_spaces": clean}
                assert ours.decode(ours(text), **kw) == expected
                assert ours.decode(theirs(text), **kw) == expected  # a UserDict
                assert ours.decode({"input_ids": theirs(text)["input_ids"]}, **kw) == expected
                assert ours.decode(ours(text, return_tensors="np")["input_ids"][0], **kw) == expected
        with pytest.warns(FutureWarning, match="one sequence"):
            assert ours.batch_decode(ours(text)) == theirs.batch_decode(theirs(text))


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_a_dict_that_holds_no_sequence_is_refused(impl: str, pairs: dict[str, Any]) -> None:
    ours = pairs[impl]
    with pytest.raises(ValueError, match=r'^token_ids: a dict without "input_ids" \(decode takes ids'):
        ours.decode({"ids": [1]})
    with pytest.raises(TypeError, match=r'^token_ids\["input_ids"\]\[0\] must be int, not list$'):
        ours.decode(ours(["a", "b"]))  # a batch's BatchEncoding: transformers fails too
    # In a batch, a dict is no sequence of ids.
    with pytest.raises(TypeError, match=r"^sequences\[1\]\[0\] must be int, not str$"):
        ours.decode([[5], {"input_ids": [6]}])


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_batch_decode_reads_another_iterable_as_the_list_of_its_items(impl: str, pairs: dict[str, Any]) -> None:
    ours, theirs = pairs[impl], pairs["theirs"]
    ids = theirs("hello world")["input_ids"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        for flat in (range(101, 104), collections.deque(ids), array.array("i", ids)):
            assert ours.batch_decode(flat) == theirs.batch_decode(flat) == [theirs.decode(list(flat))]
    rows = [ids, ids[:2]]
    assert ours.batch_decode(row for row in rows) == theirs.batch_decode(rows)  # transformers: no len()
    assert ours.batch_decode(collections.deque(rows)) == theirs.batch_decode(rows)
    assert ours.batch_decode(range(0)) == theirs.batch_decode(range(0)) == []

    def failing() -> Any:
        yield ids
        raise KeyError("from the generator")

    with pytest.raises(KeyError, match="from the generator"):
        ours.batch_decode(failing())


def test_the_family_decodes_a_batch_encoding(shakespeare_lines: list[str]) -> None:
    """BPE, characters and Unigram, engine and twin: ``decode(tokenizer(text))`` is the text of its ids."""
    lines = shakespeare_lines[:400]
    for kind, args in (("BPETokenizer", (400,)), ("CharTokenizer", ()), ("UnigramTokenizer", (300,))):
        made = [getattr(m, kind).train(lines, *args, show_progress=False) for m in IMPLS.values()]
        for tok in made:
            for text in ("Romeo, Romeo", "to be or not"):
                ids = tok(text)["input_ids"]
                assert tok.decode(tok(text)) == tok.decode({"input_ids": ids}) == tok.decode(ids)
            with pytest.raises(ValueError, match=r'^token_ids: a dict without "input_ids"'):
                tok.decode({})
            with pytest.raises(TypeError, match=r'^token_ids\["input_ids"\]\[0\] must be int, not list$'):
                tok.decode({"input_ids": [[1]]})
        assert made[0].decode(made[0]("Romeo")) == made[1].decode(made[1]("Romeo"))
        for tok in made:  # batch_decode as transformers' takes them: one text, or another iterable's items
            ids = tok("Romeo")["input_ids"]
            assert tok.batch_decode(tok("Romeo")) == tok.batch_decode({"input_ids": ids}) == [tok.decode(ids)]
            assert tok.batch_decode(collections.deque(ids)) == [tok.decode(ids)]
            assert tok.batch_decode(range(3, 6)) == [tok.decode([3, 4, 5])]
            assert tok.batch_decode(row for row in [ids, ids[:1]]) == [tok.decode(ids), tok.decode(ids[:1])]


def test_a_long_decode_lets_other_threads_run(pairs: dict[str, Any]) -> None:
    """While ``decode`` turns millions of ids into text, a thread that counts keeps counting."""
    ours = pairs["engine"]
    ids = ours.encode("hello world, this is a sentence of a few words. " * 100_000).ids * 4
    count, stop = [0], threading.Event()

    def counting() -> None:
        while not stop.is_set():
            count[0] += 1

    thread = threading.Thread(target=counting)
    thread.start()
    try:
        progress = []
        for _ in range(3):  # the counting thread may not have a core at once on a busy machine
            before = count[0]
            text = ours.decode(ids)
            progress.append(count[0] - before)
            if progress[-1] > 0:
                break
    finally:
        stop.set()
        thread.join()
    assert text.startswith("[CLS] hello world, this is")
    assert max(progress) > 0, progress


def longest_wait_shares(call: Callable[[], Any]) -> tuple[Any, list[float]]:
    """What ``call()`` returns, and, for each call (up to 5, until one is below 0.8: the ticking
    thread may not have a core at once on a busy machine), the longest wait of another thread
    that ticks meanwhile, as a share of the whole call."""
    # The ticks of one call go to a record of its own (the ticking thread may still hold the last one).
    record = [{"last": time.perf_counter(), "longest": 0.0}]
    stop = threading.Event()

    def ticking() -> None:
        while not stop.is_set():
            ticks, now = record[0], time.perf_counter()
            ticks["longest"] = max(ticks["longest"], now - ticks["last"])
            ticks["last"] = now

    thread = threading.Thread(target=ticking)
    thread.start()
    try:
        shares = []
        for _ in range(5):
            started = time.perf_counter()
            ticks = record[0] = {"last": started, "longest": 0.0}
            result = call()
            ended = time.perf_counter()
            longest = max(ticks["longest"], ended - ticks["last"])
            shares.append(longest / (ended - started))
            if shares[-1] < 0.8:
                break
    finally:
        stop.set()
        thread.join()
    return result, shares


@pytest.mark.parametrize("method", ["decode_batch", "batch_decode"])
def test_a_batch_of_many_short_sequences_lets_other_threads_run(pairs: dict[str, Any], method: str) -> None:
    """While ``decode_batch`` turns many short sequences into texts, another thread runs: the
    batch's ids are read holding the GIL, but they are decoded with it released, so the thread's
    longest wait is well below the whole call (holding the GIL throughout, it was 92-99% of it)."""
    ours = pairs["engine"]
    row = ours.encode("hello world, this is a test").ids
    batch = [row] * 300_000
    texts, shares = longest_wait_shares(lambda: getattr(ours, method)(batch))
    assert len(texts) == len(batch)
    assert texts[0] == texts[-1] == ours.decode(row)
    assert min(shares) < 0.8, shares


@pytest.mark.parametrize(
    ("kind", "method"),
    # UnigramTokenizer has no decode_batch, as Hugging Face's has none
    [(kind, method) for kind in ("bpe", "chars", "unigram") for method in ("decode_batch", "batch_decode", "decode")
     if (kind, method) != ("unigram", "decode_batch")],
)  # fmt: skip
def test_a_family_batch_of_many_short_sequences_lets_other_threads_run(kind: str, method: str) -> None:
    """The same for ``decode_batch``, ``batch_decode`` and ``decode`` of a batch of a BPE, a
    character and a Unigram tokenizer: their batch's ids are read holding the GIL, then decoded
    with it released (holding the GIL throughout, the thread's longest wait was 90-95% of the
    call)."""
    tok = small_tokenizers(fast_wordpiece)[kind]
    encoded = tok.encode("the quick brown fox")
    row = list(getattr(encoded, "ids", encoded))[:9]  # UnigramTokenizer's encode gives an encoding
    batch = [row] * 300_000
    texts, shares = longest_wait_shares(lambda: getattr(tok, method)(batch))
    assert len(texts) == len(batch)
    assert texts[0] == texts[-1] == tok.decode(row)
    assert min(shares) < 0.8, shares


class IndexWithItems:
    """An integer through ``__index__`` that also has a length and items of its own."""

    def __index__(self) -> int:
        return 3

    def __len__(self) -> int:
        return 1

    def __iter__(self) -> Any:
        return iter([4])


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_what_operator_index_takes_is_one_id_whatever_else_it_has(impl: str) -> None:
    """``decode`` and ``convert_ids_to_tokens`` read it as the one id ``__index__`` gives, not as
    the sequence of its items; ``decode_batch`` refuses it where a sequence goes; in every tokenizer
    of the family."""
    for kind, tok in small_tokenizers(IMPLS[impl]).items():
        one = IndexWithItems()
        assert tok.decode(one) == tok.decode(3), kind
        assert tok.convert_ids_to_tokens(one) == tok.id_to_token(3), kind
        if hasattr(tok, "decode_batch"):  # not UnigramTokenizer's
            with pytest.raises(TypeError, match=r"^sequences\[0\] must be a sequence of int, not IndexWithItems"):
                tok.decode_batch([one])
