"""Invariants checked on generated input (hypothesis): the engine equals the
pure-Python twin, offsets slice back to the text, decode inverts encode."""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fast_wordpiece
from fast_wordpiece import reference

# Letters from several scripts, accents (precomposed and combining), CJK,
# emoji, punctuation, whitespace and characters that normalization removes.
ALPHABET = (
    "abcdeXYZ"
    + "éüñİıßÆ"
    + "\u0301\u0308"
    + "ёжЯ"
    + "中文字"
    + "한"
    + "🤗"
    + ".,!?'-()[]#"
    + " \t\n\u3000"
    + "\x00\u200b\ufffd"
)
texts = st.text(alphabet=ALPHABET, max_size=40)
corpora = st.lists(texts, max_size=12)
options = st.fixed_dictionaries(
    {},
    optional={
        "lowercase": st.booleans(),
        "strip_accents": st.sampled_from([None, True, False]),
        "clean_text": st.booleans(),
        "handle_chinese_chars": st.booleans(),
        "pre_tokenizer": st.sampled_from(["bert", "whitespace", "regex"]),
    },
)
quick = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def vocab_list(tok) -> list[str]:
    vocab = tok.get_vocab()
    return sorted(vocab, key=vocab.__getitem__)


@quick
@given(corpus=corpora, vocab_size=st.integers(1, 80), min_frequency=st.integers(0, 3), opts=options)
def test_engine_trains_exactly_like_the_twin(corpus, vocab_size, min_frequency, opts):
    engine = fast_wordpiece.PyTokenizer.train(corpus, vocab_size, min_frequency, show_progress=False, **opts)
    twin = reference.PyTokenizer.train(corpus, vocab_size, min_frequency, **opts)
    assert vocab_list(engine) == vocab_list(twin)
    assert engine.merges == twin.merges


@quick
@given(corpus=st.lists(texts, min_size=1, max_size=8), probes=st.lists(texts, max_size=6), opts=options)
def test_engine_encodes_exactly_like_the_twin(corpus, probes, opts):
    engine = fast_wordpiece.PyTokenizer.train(corpus, 60, 1, show_progress=False, **opts)
    twin = reference.PyTokenizer(vocab_list(engine), **opts)
    for text, pair in zip(probes, [None, *probes]):
        assert engine.encode(text, pair).to_dict() == twin.encode(text, pair).to_dict()
        ids = engine.encode(text, pair).ids
        assert engine.decode(ids) == twin.decode(ids)
        assert engine.decode(ids, skip_special_tokens=True) == twin.decode(ids, skip_special_tokens=True)


def every_character_vocab(opts: dict) -> list[str]:
    """A vocabulary holding every character a normalized word can contain,
    at the start of a word and after '##', so no word is unknown."""
    normalizer = reference.Options(**opts).normalizer
    chars = sorted({c for ch in ALPHABET for c in normalizer.normalize(ch)[0]} | set(string.ascii_letters))
    return ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + chars + ["##" + c for c in chars]


@quick
@given(text=texts, opts=options)
def test_offsets_slice_back_to_the_original_text(text, opts):
    tok = fast_wordpiece.PyTokenizer(every_character_vocab(opts), **opts)
    normalizer = reference.Options(**opts).normalizer
    enc = tok.encode(text, add_special_tokens=False)
    assert enc.offsets == sorted(enc.offsets)
    for token, (start, end) in zip(enc.tokens, enc.offsets):
        assert 0 <= start < end <= len(text)
        piece, _ = normalizer.normalize(text[start:end])
        if token != "[UNK]":
            # The original slice normalizes to the token (combining marks that
            # canonical ordering moved may land on a neighbour: compare sets).
            assert set(token.removeprefix("##")) <= set(piece)


@quick
@given(text=texts, opts=options)
def test_decode_inverts_encode_up_to_normalization(text, opts):
    tok = fast_wordpiece.PyTokenizer(every_character_vocab(opts), **opts)
    words = reference.Options(**opts).words(text)
    ids = tok.encode(text, add_special_tokens=False).ids
    assert tok.decode(ids) == reference.decode_tokens(words)
    if all(w.isalnum() for w in words):
        assert tok.decode(ids) == " ".join(words)
