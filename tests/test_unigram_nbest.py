"""UnigramTokenizer's n-best sampling (spec section 14, "Sampling"): the engine and the twin keep
the `n` best paths to each position in one merge per lattice node (O(n) per node), and keep what
inserting the paths one at a time, as the spec says, keeps: the same paths, in the same order,
ties to the earlier candidate, also when `n` cuts the candidates and when many paths tie. The
engine draws exactly what the twin draws."""

from __future__ import annotations

import random

import pytest

import fast_wordpiece as fw
from fast_wordpiece.reference import unigram
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


def test_a_long_word_with_many_best_paths_samples_alike() -> None:
    # 2000 paths kept at each of 200 positions: one merge per node is quick; inserting the paths
    # one at a time, quadratic per node, was some fifty times slower.
    rng = random.Random(7)
    word = "".join(rng.choice("ab") for _ in range(200))
    for pieces in (TIED, APART):
        engine = fw.UnigramTokenizer(pieces, unk_token="<unk>")
        twin = Twin(pieces, unk_token="<unk>")
        for seed in range(2):
            e = engine.encode(word, alpha=0.1, nbest=2000, seed=seed)
            t = twin.sample(word, 0.1, 2000, seed)
            assert (e.ids, e.offsets) == (t.ids, t.offsets)


def by_insertion(
    kept: list[unigram.ScoredPath], starts: list[unigram.ScoredPath], score: float, node: int, nbest: int
) -> list[unigram.ScoredPath]:
    """The spec's rule, candidate by candidate: each path the node makes goes after the kept paths
    whose score is at least its own, and only the `nbest` first stay."""
    out = list(kept)
    for rank, (start_score, _, _) in enumerate(starts):
        new = (start_score + score, node, rank)
        at = next((j for j, old in enumerate(out) if new[0] > old[0]), len(out))
        out.insert(at, new)
        del out[nbest:]
    return out


@pytest.mark.parametrize("nbest", [1, 2, 3, 8, 100])
def test_the_twin_merge_keeps_what_insertion_keeps(nbest: int) -> None:
    rng = random.Random(nbest)
    for _ in range(300):
        # Scores from a small set, so that many tie; each list best first, as the lattice keeps it.
        kept = sorted(
            (
                (rng.choice([-3.0, -2.0, -1.5, -1.0]), rng.randrange(9), rng.randrange(9))
                for _ in range(rng.randrange(nbest + 1))
            ),
            key=lambda p: -p[0],
        )
        starts = sorted(
            ((rng.choice([-2.0, -1.0, -0.5]), 0, 0) for _ in range(rng.randrange(nbest + 1))), key=lambda p: -p[0]
        )
        score = rng.choice([-1.0, -0.5, 0.0])
        assert unigram.keep_best(kept, starts, score, 42, nbest) == by_insertion(kept, starts, score, 42, nbest)
