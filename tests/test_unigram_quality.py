"""Unigram vocabularies are as compact as sentencepiece's (issue #18).

Both trainers see the same Shakespeare lines, without normalization and with
every character kept; sentencepiece may build pieces across scripts and
numbers as ours does. On held-out lines our tokens must stay within 3% of
sentencepiece's (benches/bench_unigram.py measures the same on all of
Shakespeare and on the multilingual fortunes, with timings).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import fast_wordpiece as fw

spm = pytest.importorskip("sentencepiece", reason="optional: sentencepiece is not installed")

VOCAB = 2000


def test_held_out_tokens_within_three_percent_of_sentencepiece(shakespeare_lines: list[str], tmp_path: Path) -> None:
    lines = shakespeare_lines[:40_000]
    train = [line for i, line in enumerate(lines) if i % 10 != 0]
    held = [line for i, line in enumerate(lines) if i % 10 == 0]

    ours = fw.UnigramTokenizer.train(train, VOCAB)
    our_tokens = sum(len(e) for e in ours.encode_batch(held))

    prefix = str(tmp_path / "spm")
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(train),
        model_prefix=prefix,
        model_type="unigram",
        vocab_size=VOCAB,
        character_coverage=1.0,
        normalization_rule_name="identity",
        remove_extra_whitespaces=False,
        split_by_unicode_script=False,
        split_by_number=False,
        num_threads=1,
        minloglevel=2,
    )
    sp = spm.SentencePieceProcessor(model_file=prefix + ".model")
    their_tokens = sum(len(ids) for ids in sp.encode(held))

    assert ours.vocab_size == sp.get_piece_size() == VOCAB
    assert our_tokens <= 1.03 * their_tokens, (our_tokens, their_tokens)
    # Both segment: far fewer tokens than characters.
    assert their_tokens < sum(map(len, held)) / 2
