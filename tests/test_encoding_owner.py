"""The encodings of a batch share one holder of the tokenizer that made
them: they outlive the tokenizer object and keep its vocabulary as it was
when they were made."""

from __future__ import annotations

import gc

import fast_wordpiece

LINES = [
    "The quick brown fox jumps over the lazy dog.",
    "Hugging, hugs and puns: the pug hugged the bun!",
    "Café déjà vu — naïve coöperation; ÜBER straße.",
]
TEXTS = [LINES[i % 3][: 10 + i % 30] for i in range(400)]


def engine() -> fast_wordpiece.PyTokenizer:
    return fast_wordpiece.PyTokenizer.train(LINES * 20, 120, 2, show_progress=False)


def test_batch_encodings_outlive_their_tokenizer():
    tok = engine()
    expected = [(tok.encode(t).ids, tok.encode(t).tokens) for t in TEXTS]
    batch = tok.encode_batch(TEXTS)
    windows = tok.encode_batch(LINES, max_length=6, stride=1)
    expected_windows = [[w.tokens for w in e.overflowing] for e in windows]
    del tok
    gc.collect()
    assert [(e.ids, e.tokens) for e in batch] == expected
    assert [[w.tokens for w in e.overflowing] for e in windows] == expected_windows
    # Windows read from an encoding keep the tokenizer too.
    kept = windows[0].overflowing
    del windows
    gc.collect()
    assert [w.tokens for w in kept] == expected_windows[0]


def test_batch_encodings_keep_the_vocabulary_they_were_made_with():
    tok = engine()
    before = tok.encode_batch(["the pug hugged zzyzx"])[0]
    tokens = before.tokens
    assert tok.add_tokens(["zzyzx"]) == 1
    after = tok.encode_batch(["the pug hugged zzyzx"])[0]
    assert "zzyzx" in after.tokens
    assert before.tokens == tokens
    assert before != after
    # Same tokenizer, same text: equal, whether from a batch or alone.
    assert after == tok.encode("the pug hugged zzyzx")
    assert tok.encode_batch(TEXTS[:20]) == [tok.encode(t) for t in TEXTS[:20]]
