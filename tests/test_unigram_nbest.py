"""UnigramTokenizer's n-best sampling (spec section 14, "Sampling"): the engine keeps the `n`
best paths to each position in one merge per lattice node, and draws exactly what the twin's
insertion, one path at a time, draws: the same paths, in the same order, ties to the earlier
candidate, also when `n` cuts the candidates and when many paths tie."""

from __future__ import annotations

import random

import pytest

import fast_wordpiece as fw
from fast_wordpiece.reference.unigram import UnigramTokenizer as Twin

#: Scores that make many segmentations tie: each letter -1, each pair -2, each triple -3.
TIED = [("<unk>", -10.0), ("▁", -1.0)] + [
    (p, -float(len(p))) for p in ["a", "b", "ab", "ba", "aa", "bb", "aba", "bab", "▁a", "▁b", "▁ab"]
]
#: The same pieces, scores apart (few ties).
APART = [("<unk>", -10.0), ("▁", -1.3)] + [
    (p, -1.7 * len(p) + 0.11 * i) for i, p in enumerate(["a", "b", "ab", "ba", "aa", "bb", "aba", "bab", "▁a", "▁b"])
]


def _texts(n: int) -> list[str]:
    rng = random.Random(n)
    return [" ".join("".join(rng.choice("ab") for _ in range(rng.randint(1, 14))) for _ in range(3)) for _ in range(30)]


@pytest.mark.parametrize("pieces", [TIED, APART], ids=["tied", "apart"])
@pytest.mark.parametrize("nbest", [1, 2, 7, 64, 1000])
def test_nbest_samples_match_the_twin_draw_for_draw(pieces, nbest: int) -> None:
    engine = fw.UnigramTokenizer(pieces, unk_token="<unk>")
    twin = Twin(pieces, unk_token="<unk>")
    for k, text in enumerate(_texts(nbest)):
        for alpha in (0.05, 1.0):
            e = engine.encode(text, alpha=alpha, nbest=nbest, seed=k)
            t = twin.sample(text, alpha, nbest, k)
            assert (e.ids, e.offsets) == (t.ids, t.offsets), (text, alpha)


def test_nbest_one_is_the_viterbi_segmentation_even_with_ties() -> None:
    engine = fw.UnigramTokenizer(TIED, unk_token="<unk>")
    for text in _texts(3):
        assert engine.encode(text, alpha=0.5, nbest=1, seed=4).ids == engine.encode(text).ids
