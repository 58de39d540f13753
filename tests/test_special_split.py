"""Special tokens in the family's text (docs/spec.md §14): at the earliest
position where one starts, the longest one that starts there is split out,
then the search goes on after it. The BPE, character and Unigram tokenizers
share one splitter in the engine and one in the twin; each must give the
tokens this rule gives, with overlapping and nested special tokens."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fast_wordpiece as fw
from fast_wordpiece import reference as ref
from fast_wordpiece.reference.family import split_specials

#: Special tokens that nest ("<s>" in "<s>x>"), overlap ("<s>x>" and "x><")
#: and share first characters, so that the earliest and the longest differ.
SPECIALS = ["<s>", "<s>x>", "x><", "é<", "<<"]
PIECES = ["<", ">", "s", "x", "é", " ", "a", "<s>", "x>", "é<"]
CORPUS = ["a sx é a x s", "<s> xa é", "s a x é"]


def rule(text: str, specials: list[str]) -> list[tuple[str, bool]]:
    """The rule as spec.md states it, one position at a time."""
    out: list[tuple[str, bool]] = []
    i = done = 0
    while i < len(text):
        found = [s for s in specials if text.startswith(s, i)]
        if not found:
            i += 1
            continue
        longest = max(found, key=len)
        if done < i:
            out.append((text[done:i], False))
        out.append((longest, True))
        i = done = i + len(longest)
    if done < len(text):
        out.append((text[done:], False))
    return out


texts = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


@given(texts)
@settings(max_examples=300, deadline=None)
def test_the_twins_splitter_follows_the_rule(text: str) -> None:
    pieces = split_specials(text, SPECIALS)
    assert [(p, s) for p, _, s in pieces] == rule(text, SPECIALS)
    assert [start for _, start, _ in pieces] == [sum(len(p) for p, _, _ in pieces[:k]) for k in range(len(pieces))]


@pytest.fixture(scope="module")
def family() -> list[tuple[object, object]]:
    """(engine, twin) pairs of the three tokenizers, with the same vocabulary."""
    chars = fw.CharTokenizer.train(CORPUS, special_tokens=["[UNK]", *SPECIALS])
    bpe = fw.BPETokenizer.train(CORPUS, 300, special_tokens=SPECIALS)
    unigram = fw.UnigramTokenizer.train(CORPUS * 20, 60, special_tokens=["<unk>", *SPECIALS])
    return [
        (chars, ref.CharTokenizer(chars.get_vocab(), special_tokens=["[UNK]", *SPECIALS])),
        (bpe, ref.BPETokenizer(bpe.get_vocab(), bpe.merges, special_tokens=SPECIALS)),
        (unigram, ref.UnigramTokenizer(unigram.get_pieces(), special_tokens=unigram.special_tokens)),
    ]


@given(texts)
@settings(max_examples=150, deadline=None)
def test_every_family_member_splits_special_tokens_by_the_rule(family, text: str) -> None:
    expected = [piece for piece, special in rule(text, SPECIALS) if special]
    for engine, twin in family:
        ids = engine.encode(text)
        ids = ids.ids if hasattr(ids, "ids") else ids
        special_ids = {engine.token_to_id(s) for s in SPECIALS}
        found = [engine.id_to_token(i) for i in ids if i in special_ids]
        assert found == expected, type(engine).__name__
        twin_ids = twin.encode(text)
        assert (twin_ids.ids if hasattr(twin_ids, "ids") else twin_ids) == ids, type(engine).__name__


def test_an_empty_special_token_is_refused() -> None:
    with pytest.raises(ValueError, match="must not be empty"):
        split_specials("abc", ["a", ""])
    with pytest.raises(ValueError, match="empty"):
        fw.BPETokenizer.train(CORPUS, 300, special_tokens=[""])
    with pytest.raises(ValueError, match="empty"):
        ref.BPETokenizer.train(CORPUS, 300, special_tokens=[""])
