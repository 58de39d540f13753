"""encode_batch on batches big enough to be cut into chunks: the engine hands
out each chunk's encodings, with their lists already made, while it encodes
the rest. Whatever the threads, the chunks and the fields read, every
encoding is the one `encode` gives."""

from __future__ import annotations

import subprocess
import sys

import pytest

import fast_wordpiece

LINES = [
    "The quick brown fox jumps over the lazy dog.",
    "Hugging, hugs and puns: the pug hugged the bun!",
    "Café déjà vu — naïve coöperation; ÜBER straße.",
    "中文字符 与 English mixed, да и русский тоже.",
]
# About 400 KB: many chunks on any number of threads.
TEXTS = [" ".join(LINES[(i + k) % 4] for k in range(i % 9 + 1)) for i in range(2500)]
FIELDS = ("ids", "tokens", "offsets", "attention_mask", "special_tokens_mask", "type_ids")


@pytest.fixture(scope="module")
def engine() -> fast_wordpiece.PyTokenizer:
    return fast_wordpiece.PyTokenizer.train(LINES * 20, 150, 2, show_progress=False)


@pytest.fixture(scope="module")
def expected(engine: fast_wordpiece.PyTokenizer) -> list[dict]:
    return [engine.encode(t).to_dict() for t in TEXTS]


@pytest.mark.parametrize("threads", [1, 2, 3, None])
def test_every_encoding_is_what_encode_gives(engine, expected, threads):
    batch = engine.encode_batch(TEXTS, num_threads=threads)
    assert [e.to_dict() for e in batch] == expected


@pytest.mark.parametrize("reads", [("ids",), ("offsets",), ("ids", "offsets"), (), ("offsets", "tokens", "ids")])
def test_any_pattern_of_reads_over_consecutive_batches_gives_the_right_lists(engine, expected, reads):
    # The engine makes ahead the lists its callers read (ids at first, then
    # offsets once read); every pattern, and every change of pattern, must
    # still give each read the right list.
    for _ in range(3):
        batch = engine.encode_batch(TEXTS, num_threads=2)
        for e, want in zip(batch, expected):
            for field in reads:
                assert getattr(e, field) == want[field]
    batch = engine.encode_batch(TEXTS, num_threads=2)
    assert [{f: getattr(e, f) for f in FIELDS} for e in batch] == expected


def test_each_read_gets_a_list_of_its_own(engine):
    for e in engine.encode_batch(TEXTS[:50], num_threads=2):
        first_ids, first_offsets, first_tokens = e.ids, e.offsets, e.tokens
        first_ids.append(-1)
        first_offsets.clear()
        first_tokens[0] = "changed"
        assert e.ids == first_ids[:-1]
        assert e.ids is not e.ids
        assert len(e.offsets) == len(e)
        assert e["offsets"] == e.offsets
        assert e.tokens[0] == "[CLS]"
        assert e.tokens is not e.tokens


def test_tokens_are_the_vocabulary_strings_of_the_ids(engine):
    vocab = engine.get_vocab()
    by_id = {i: t for t, i in vocab.items()}
    for e in engine.encode_batch(TEXTS[:200], num_threads=2):
        assert e.tokens == [by_id[i] for i in e.ids]


def test_pairs_and_truncation_with_overflowing_windows(Tokenizer):
    tok = Tokenizer.train(LINES * 20, 150, 2, show_progress=False)
    inputs = [(t, LINES[i % 4]) if i % 3 == 0 else t for i, t in enumerate(TEXTS[:600])]
    settings = {"max_length": 24, "stride": 4}
    batch = tok.encode_batch(inputs, num_threads=2, **settings)
    for item, e in zip(inputs, batch):
        a, b = item if isinstance(item, tuple) else (item, None)
        assert e == tok.encode(a, b, **settings)
        assert len(e) <= 24
        assert all(len(w) <= 24 for w in e.overflowing)


def test_a_bad_input_deep_in_the_batch_is_named(Tokenizer):
    tok = Tokenizer.train(LINES * 20, 150, 2, show_progress=False)
    inputs: list = [(t, "the pug") for t in TEXTS]
    inputs[2222] = " ".join([TEXTS[2222]] * 5)  # too long, and no second text to cut
    with pytest.raises(ValueError, match=r"^inputs\[2222\]: truncation=\"only_second\""):
        tok.encode_batch(inputs, max_length=400, truncation="only_second", num_threads=2)


@pytest.mark.parametrize("kwargs", ["", "padding='longest'", "return_tensors='np'"])
def test_ctrl_c_interrupts_a_long_batch_from_inside(kwargs):
    # The call stops between chunks instead of finishing the batch: it is
    # interrupted well before a whole batch's time has gone by. (Times are
    # relative to the same batch run to the end just before.) Padded batches
    # and numpy arrays need the whole batch first, and stop the same way.
    if "np" in kwargs:
        pytest.importorskip("numpy")
    child = r"""
import signal, sys, time, fast_wordpiece
signal.signal(signal.SIGINT, signal.default_int_handler)
tok = fast_wordpiece.PyTokenizer.train(["the quick brown fox jumps over the lazy dog"] * 50, 60, 2, show_progress=False)
texts = ["the quick brown fox jumps over the lazy dog " * 20] * 40_000
t0 = time.perf_counter()
tok.encode_batch(texts, num_threads=1, KWARGS)
whole = time.perf_counter() - t0
print(whole, flush=True)
t0 = time.perf_counter()
try:
    tok.encode_batch(texts, num_threads=1, KWARGS)
except KeyboardInterrupt:
    print("interrupted after", (time.perf_counter() - t0) / whole, flush=True)
    sys.exit(0)
print("finished", flush=True)
"""
    import signal
    import time

    child = child.replace("KWARGS", kwargs)
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    whole = float(proc.stdout.readline())
    time.sleep(whole / 10)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    assert out.startswith("interrupted after"), out
    assert float(out.split()[-1]) < 0.6, out


def test_pairs_may_be_lists_of_two_as_in_hugging_face(Tokenizer):
    tok = Tokenizer.train(LINES * 20, 150, 2, show_progress=False)
    pairs = [(LINES[0], LINES[1]), (LINES[2], LINES[3])]
    as_tuples = tok.encode_batch([*pairs, LINES[0]], max_length=24)
    as_lists = tok.encode_batch([[a, b] for a, b in pairs] + [LINES[0]], max_length=24)
    assert [e.to_dict() for e in as_lists] == [e.to_dict() for e in as_tuples]
    assert as_lists[0].to_dict() == tok.encode(LINES[0], LINES[1], max_length=24).to_dict()
    for bad in (["a"], ["a", "b", "c"], ("a",)):
        with pytest.raises(TypeError, match=r"inputs\[1\] must be str or a \(str, str\) pair"):
            tok.encode_batch(["x", bad])
    with pytest.raises(TypeError, match=r"inputs\[0\]\[1\]"):
        tok.encode_batch([["x", 3]])
