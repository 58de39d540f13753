"""`Encoding` objects are left out of the cyclic garbage collector (they can
hold no cycle), are freed as soon as they are dropped, and the encodings of
one batch stay independent of each other."""

from __future__ import annotations

import gc
import tracemalloc

import pytest

import fast_wordpiece

LINES = [
    "The quick brown fox jumps over the lazy dog.",
    "Hugging, hugs and puns: the pug hugged the bun!",
    "Café déjà vu — naïve coöperation; ÜBER straße.",
]
TEXTS = [LINES[i % 3][: 10 + i % 30] for i in range(3000)]


@pytest.fixture(scope="module")
def engine() -> fast_wordpiece.PyTokenizer:
    return fast_wordpiece.PyTokenizer.train(LINES * 20, 120, 2, show_progress=False)


def test_no_encoding_is_tracked_by_the_collector(engine):
    made = [
        engine.encode(LINES[0]),
        engine.encode(LINES[0] + LINES[1], max_length=8, stride=2),
        *engine.encode_batch(TEXTS[:50]),
        *engine.encode_batch(TEXTS[:50], padding="longest"),
        *engine(TEXTS[:5]).encodings,
    ]
    made += made[1].overflowing
    assert len(made) > 100
    assert not any(gc.is_tracked(e) for e in made)
    # The lists read from them are new and independent, as before.
    ids = made[0].ids
    ids.append(ids)
    assert made[0].ids == ids[:-1]


def test_batches_leave_nothing_behind(engine):
    def batch() -> None:
        for e in engine.encode_batch(TEXTS):
            e.ids, e.offsets  # noqa: B018 - reading makes the lists made ahead

    batch()
    tracemalloc.start()
    try:
        batch()
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(10):
            batch()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # Ten batches of 3,000 encodings: a leak of one object each is > 500 KB.
    assert grown < 100_000


def test_encodings_of_one_batch_are_independent(engine):
    batch = engine.encode_batch(TEXTS[:40])
    alone = [engine.encode(t) for t in TEXTS[:40]]
    assert batch == alone
    padded = engine.encode_batch(TEXTS[:40], padding="longest")
    cut = engine.encode_batch(TEXTS[:40], max_length=5)
    for i, e in enumerate(batch):
        assert e.ids == alone[i].ids
        assert padded[i].ids[: len(e)] == e.ids
        assert cut[i].ids == e.ids[:4] + e.ids[-1:] if len(e) > 5 else e.ids
    assert [e.ids for e in batch] == [e.ids for e in alone]
