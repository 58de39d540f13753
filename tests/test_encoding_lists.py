"""The lists an `Encoding` hands out: each read gets a list of its own (the
one `encode_batch` made ahead goes to one reader only, whichever thread reads
first), unread ones are freed with their encoding, and every field has one
entry per token however the encoding was made."""

from __future__ import annotations

import sys
import threading

import pytest

import fast_wordpiece

LINES = [
    "The quick brown fox jumps over the lazy dog.",
    "Hugging, hugs and puns: the pug hugged the bun!",
    "Café déjà vu — naïve coöperation; ÜBER straße.",
]
TEXTS = [LINES[i % 3][: 5 + i % 40] for i in range(600)]
FIELDS = ["ids", "tokens", "offsets", "attention_mask", "special_tokens_mask", "type_ids"]


@pytest.fixture(scope="module")
def engine() -> fast_wordpiece.PyTokenizer:
    return fast_wordpiece.PyTokenizer.train(LINES * 20, 120, 2, show_progress=False)


def test_every_read_gets_a_list_of_its_own(engine):
    for e, text in zip(engine.encode_batch(TEXTS[:50]), TEXTS):
        first, second = e.ids, e.ids
        assert first == second == engine.encode(text).ids
        assert first is not second
        first.append(-1)
        assert e.ids == second
        offsets = e.offsets
        assert offsets == e.offsets
        assert offsets is not e.offsets


def test_threads_reading_one_batch_get_equal_lists_never_the_same_one(engine):
    batch = engine.encode_batch(TEXTS)
    alone = [engine.encode(t) for t in TEXTS]
    got: list[list[tuple[list, list]]] = [[] for _ in range(4)]
    start = threading.Barrier(4)

    def read(k: int) -> None:
        start.wait()
        got[k] = [(e.ids, e.offsets) for e in batch]

    threads = [threading.Thread(target=read, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for lists in got:
        assert [ids for ids, _ in lists] == [e.ids for e in alone]
        assert [offsets for _, offsets in lists] == [e.offsets for e in alone]
    # All 4 x 600 x 2 lists are alive: distinct objects have distinct ids.
    every = [id(x) for lists in got for pair in lists for x in pair]
    assert len(set(every)) == len(every)


def test_lists_made_ahead_and_never_read_are_freed(engine):
    cls = engine.token_to_id("[CLS]")
    assert cls is not None
    engine.encode_batch(TEXTS)  # warm up: lists of ids are made ahead
    before = sys.getrefcount(cls)
    batch = engine.encode_batch(TEXTS)
    # Each made-ahead list holds the [CLS] id (unless ints are immortal).
    assert sys.getrefcount(cls) in (before, before + len(TEXTS))
    del batch
    assert sys.getrefcount(cls) == before


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"padding": "longest"},
        {"padding": "longest", "padding_side": "left"},
        {"max_length": 10, "stride": 1},
        {"max_length": 7, "padding": "max_length", "truncation_side": "left"},
        {"add_special_tokens": False},
    ],
)
def test_every_field_has_an_entry_per_token(engine, options):
    pairs = [(a, b) for a, b in zip(TEXTS[:40], TEXTS[40:80])]
    for e in engine.encode_batch(TEXTS[:40], **options) + engine.encode_batch(pairs, **options):
        for enc in [e, *e.overflowing]:
            n = len(enc)
            assert [len(enc[f]) for f in FIELDS] == [n] * len(FIELDS)
            assert len(enc.word_ids) == len(enc.sequence_ids) == n
            assert enc.to_dict() == {f: enc[f] for f in FIELDS}
            real = [i for i, m in enumerate(enc.attention_mask) if m]
            assert all(enc.special_tokens_mask[i] == 1 for i in range(n) if i not in real)


@pytest.mark.parametrize("first", ["attribute", "item", "dict"])
def test_ids_read_any_way_first_are_the_same(engine, first):
    # The attribute takes the list made ahead without naming the field; the
    # item and the dict go through the field's name: whichever comes first
    # gets the list made ahead, the others a new one, all equal.
    reads = {
        "attribute": lambda e: e.ids,
        "item": lambda e: e["ids"],
        "dict": lambda e: e.to_dict()["ids"],
    }
    order = [first] + [k for k in reads if k != first]
    for e, text in zip(engine.encode_batch(TEXTS[:40]), TEXTS):
        got = [reads[k](e) for k in order]
        assert got[0] == got[1] == got[2] == engine.encode(text).ids
        assert len({id(x) for x in got}) == 3
