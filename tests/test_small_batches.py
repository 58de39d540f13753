"""Small batches (the calls of a model server: 1 to 32 short texts) are encoded
holding the GIL, in one chunk on the calling thread, and padded there; larger
ones release the GIL and may use the pool. Either way every output is the one
each text gets alone, on each side of the sizes where the way changes (4 KB
of text for the GIL, 16 KB for the pool, 32 KB of array for the copies)."""

from __future__ import annotations

import signal
import threading

import pytest

np = pytest.importorskip("numpy")

import fast_wordpiece  # noqa: E402

WORDS = ["The quick brown fox", "naïve café, 中文字符!", "[CLS] a [SEP]", "jumps over 12.5 lazy dogs;", ""]


def texts_of(total: int) -> list[str]:
    """Texts of about 30 bytes each, `total` bytes of UTF-8 in all (give or take one text)."""
    out: list[str] = []
    size = 0
    while size < total:
        text = " ".join(WORDS[(len(out) + k) % len(WORDS)] for k in range(len(out) % 3 + 1))
        out.append(text)
        size += len(text.encode())
    return out


SIZES = [0, 1, 30, 4000, 4200, 16000, 17000, 40000]


@pytest.fixture(scope="module")
def tok() -> fast_wordpiece.PyTokenizer:
    return fast_wordpiece.PyTokenizer.train(texts_of(3000) * 3, 300, 2, show_progress=False)


@pytest.mark.parametrize("threads", [None, 1, 2])
@pytest.mark.parametrize("total", SIZES)
def test_every_way_gives_each_text_its_own_encoding(tok, total, threads):
    texts = texts_of(total) if total else []
    alone = [tok.encode(t) for t in texts]
    batch = tok.encode_batch(texts, num_threads=threads)
    assert [e.ids for e in batch] == [e.ids for e in alone]
    assert [e.offsets for e in batch] == [e.offsets for e in alone]
    ragged = tok.encode_batch(texts, return_tensors="np", num_threads=threads)
    assert ragged.tolist() == [e.ids for e in alone]
    full = tok.encode_batch(
        texts, return_tensors="np", num_threads=threads, return_offsets=True, return_token_type_ids=True
    )
    assert full.tolist() == [e.ids for e in alone]
    assert full.offsets.tolist() == [list(o) for e in alone for o in e.offsets]
    padded = tok.encode_batch(texts, padding="longest", return_tensors="np", num_threads=threads)
    longest = max((len(e.ids) for e in alone), default=0)
    assert padded["input_ids"].shape == (len(texts), longest)
    for row, mask, e in zip(padded["input_ids"], padded["attention_mask"], alone):
        assert row[: len(e.ids)].tolist() == e.ids
        assert mask.tolist() == [1] * len(e.ids) + [0] * (longest - len(e.ids))
    listed = tok.encode_batch(texts, padding="longest", num_threads=threads)
    assert [e.ids for e in listed] == padded["input_ids"].tolist()


@pytest.mark.parametrize("total", [30, 4000, 17000])
def test_a_bad_num_threads_is_an_error_whatever_the_size(tok, total):
    with pytest.raises(ValueError, match="num_threads"):
        tok.encode_batch(texts_of(total), num_threads=100_000)
    with pytest.raises(ValueError, match="num_threads"):
        tok.encode_batch(texts_of(total), padding="longest", num_threads=100_000)


def test_small_batches_from_many_threads_at_once(tok):
    """Holding the GIL for a small batch, threads still take turns and each gets its own result."""
    texts = texts_of(600)
    expected = [e.ids for e in tok.encode_batch(texts)]
    failures: list[str] = []

    def work(k: int) -> None:
        for i in range(200):
            mine = texts[(k + i) % len(texts) :] or texts
            got = tok.encode_batch(mine, return_tensors="np").tolist()
            if got != expected[len(texts) - len(mine) :]:
                failures.append(f"thread {k}, call {i}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_a_signal_during_small_batches_is_raised(tok):
    """Ctrl-C (here SIGALRM's handler) still stops a loop of small calls."""

    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop

    texts = texts_of(100)

    def loop() -> None:
        for _ in range(10_000_000):
            tok.encode_batch(texts, return_tensors="np")

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(Stop):
            loop()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
