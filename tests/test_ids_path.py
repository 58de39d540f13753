"""The ids-only path (``encode_batch(return_tensors="np")`` with the chunk
cache on) on generated text: chunks that cross the 64-byte blocks the text is
scanned in, runs of whitespace longer than a block, texts whose length is a
multiple of 64, and special tokens among dense lookalikes (``[``); always
the ids the uncached lists give, across calls and on two threads."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fast_wordpiece

LINES = [
    "The quick brown fox jumps over the lazy dog.",
    "[Obs.] [Webster 1913 Suppl.] [SEP] [MASK]x y[CLS] [[SEP]] [SE P]",
    "Café déjà vu — naïve coöperation; ÜBER straße.",
]
PIECES = ["a", "bb", "fox", "the", "[", "]", "[SEP]", "[MASK]", "[SE", " ", "\t", "\n", "\r", "é", "中", ".", "x" * 20]

_on = fast_wordpiece.PyTokenizer.train(LINES * 20, 150, 2, show_progress=False)
_off = fast_wordpiece.PyTokenizer.from_json(_on.to_json())
_on.word_cache, _off.word_cache = True, False


def _texts(draw_pieces: list[list[str]], pad: list[int]) -> list[str]:
    texts = ["".join(p) for p in draw_pieces]
    # Some texts cut or padded to a multiple of 64 bytes (ASCII filler).
    return [t + "y" * (-len(t.encode()) % 64) if k else t for t, k in zip(texts, pad)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pieces=st.lists(st.lists(st.sampled_from(PIECES), max_size=80), min_size=1, max_size=12),
    pad=st.lists(st.integers(0, 1), min_size=12, max_size=12),
    spaces=st.integers(0, 140),
)
def test_ids_only_equals_the_uncached_lists(pieces, pad, spaces):
    texts = [*_texts(pieces, pad), " " * spaces + "fox" + " " * spaces, "[SEP]" * (spaces // 5 + 1)]
    for add_special_tokens in (True, False):
        expected = [e.ids for e in _off.encode_batch(texts, add_special_tokens)]
        for threads in (1, 2, 1):
            got = _on.encode_batch(texts, add_special_tokens, return_tensors="np", num_threads=threads)
            assert got.tolist() == expected


def test_many_short_chunks_of_many_tokens_in_one_batch():
    # 64 chunks looked up together, each of more ids than a slot holds:
    # more ids than the batch's buffer takes at once.
    texts = ["a.b.c.d " * 300, "x,y;z " * 500 + "fox", "[SEP]" + " ([a]) " * 200]
    for _ in range(2):
        expected = [e.ids for e in _off.encode_batch(texts)]
        assert _on.encode_batch(texts, return_tensors="np").tolist() == expected
