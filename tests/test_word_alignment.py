"""Word and sequence alignment of an Encoding (spec section 6): ``word_ids``, ``sequence_ids``,
``n_sequences`` and the mappings between tokens, words and characters, as Hugging Face's
``tokenizers.Encoding`` gives them. This is what token classification (NER) aligns its labels
with. The fields themselves are compared with HF on every input of test_parity_hf.py and
test_truncation_padding.py; here the mapping methods are, on real lines, pairs, literal special
tokens, truncated windows and padding, engine and twin alike.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

tokenizers = pytest.importorskip("tokenizers")

from implementations import tokenizer_class  # noqa: E402


@pytest.fixture(scope="module")
def hf(hf_vocab_file) -> Any:
    return tokenizers.BertWordPieceTokenizer(str(hf_vocab_file))._tokenizer


@pytest.fixture(scope="module", params=["engine", "twin"])
def ours(request: pytest.FixtureRequest, hf_vocab_file) -> Any:
    return tokenizer_class(request.param).from_vocab_file(str(hf_vocab_file))


@pytest.fixture(scope="module")
def inputs(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[tuple[str, str | None]]:
    rng = random.Random(11)
    lines = rng.sample(shakespeare_lines[:20000], 25) + rng.sample(multilingual_lines, 25)
    lines += ["[CLS] a [SEP]b[MASK]", "", "   ", "\x00\u200b", "unaffable ##ness don't"]
    singles: list[tuple[str, str | None]] = [(line, None) for line in lines]
    return singles + list(zip(lines, reversed(lines)))


def mappings(encoding: Any, text: str, pair: str | None) -> dict[str, Any]:
    """Every mapping method of an Encoding (ours or HF's), asked about every token, every word of
    each sequence and a few past the end, every character and one past the end, and sequence 2,
    which no encoding has (HF then searches all of it)."""
    n = len(encoding.ids)
    words = max((w for w in encoding.word_ids if w is not None), default=-1) + 3
    chars = max(len(text), len(pair or "")) + 1
    out: dict[str, Any] = {
        "n_sequences": encoding.n_sequences,
        "token_to_sequence": [encoding.token_to_sequence(i) for i in range(n)],
        "token_to_word": [encoding.token_to_word(i) for i in range(n)],
        "token_to_chars": [encoding.token_to_chars(i) for i in range(n)],
    }
    for s in (0, 1, 2):
        out[f"word_to_tokens[{s}]"] = [encoding.word_to_tokens(w, s) for w in range(words)]
        out[f"word_to_chars[{s}]"] = [encoding.word_to_chars(w, s) for w in range(words)]
        out[f"char_to_token[{s}]"] = [encoding.char_to_token(c, s) for c in range(chars)]
        out[f"char_to_word[{s}]"] = [encoding.char_to_word(c, s) for c in range(chars)]
    return out


def assert_same_mappings(ours: Any, theirs: Any, text: str, pair: str | None) -> None:
    got, expected = mappings(ours, text, pair), mappings(theirs, text, pair)
    for key in expected:
        assert got[key] == expected[key], f"{key} of {text!r} / {pair!r}: ours {got[key]}, HF {expected[key]}"
    assert [tuple(o) if o else o for o in got["token_to_chars"]] == expected["token_to_chars"]


def test_mappings_match_hf(hf, ours, inputs):
    hf.no_truncation()
    hf.no_padding()
    for text, pair in inputs:
        assert_same_mappings(ours.encode(text, pair), hf.encode(text, pair), text, pair)
        assert_same_mappings(
            ours.encode(text, pair, add_special_tokens=False),
            hf.encode(text, pair, add_special_tokens=False),
            text,
            pair,
        )


@pytest.mark.parametrize("side", ["right", "left"])
def test_mappings_of_truncated_and_padded_windows_match_hf(hf, ours, inputs, side):
    """Windows keep the word numbers of the whole text; padding belongs to no word."""
    hf.enable_truncation(12, stride=3, strategy="longest_first")
    hf.enable_padding(direction=side, pad_id=hf.token_to_id("[PAD]"), pad_token="[PAD]", length=12)
    try:
        for text, pair in inputs[::3]:
            expected = hf.encode(text, pair)
            got = ours.encode_batch([text if pair is None else (text, pair)], max_length=12, stride=3,
                                    padding="max_length", padding_side=side)[0]  # fmt: skip
            hf_windows, our_windows = [expected, *expected.overflowing], [got, *got.overflowing]
            assert len(our_windows) == len(hf_windows)
            for a, b in zip(our_windows, hf_windows):
                assert (a.word_ids, a.sequence_ids) == (b.word_ids, b.sequence_ids)
                assert_same_mappings(a, b, text, pair)
    finally:
        hf.no_truncation()
        hf.no_padding()


def test_a_word_split_into_pieces_shares_its_word_id(ours):
    enc = ours.encode("unaffable", "a b")
    pieces = enc.word_to_tokens(0)
    assert pieces is not None
    assert pieces[1] - pieces[0] == len(enc.ids) - 5
    assert enc.word_ids[pieces[0] : pieces[1]] == [0] * (pieces[1] - pieces[0])
    assert enc.sequence_ids[0] is None
    assert enc.sequence_ids[-1] is None
    assert enc.word_to_chars(0) == (0, len("unaffable"))
    assert enc.char_to_word(0, 1) == 0
    assert enc.char_to_word(2, 1) == 1
    assert enc.token_to_word(-2) == 1
    assert enc.token_to_word(len(enc.ids)) is None


def test_words_is_word_ids_under_its_deprecated_name_as_in_tokenizers(hf, ours):
    """``Encoding.words``: the same list as ``word_ids``, with the DeprecationWarning that Hugging
    Face's ``Encoding.words`` gives."""
    for text, pair in [("unaffable ##ness don't", "[CLS] a b"), ("", None), ("hello world", None)]:
        theirs = hf.encode(text, pair)
        with pytest.warns(DeprecationWarning, match="word_ids"):
            expected = theirs.words
        encoding = ours.encode(text, pair)
        with pytest.warns(DeprecationWarning, match=r"Encoding\.words is deprecated, please use Encoding\.word_ids"):
            assert encoding.words == encoding.word_ids == expected


@pytest.mark.parametrize("call", ["word_to_tokens", "word_to_chars", "char_to_token", "char_to_word"])
def test_negative_positions_are_a_value_error_naming_the_argument(ours, call):
    enc = ours.encode("a b")
    with pytest.raises(ValueError, match=r"(word_index|char_pos) must be >= 0"):
        getattr(enc, call)(-1)
    with pytest.raises(ValueError, match="sequence_index must be >= 0"):
        getattr(enc, call)(0, -1)
    with pytest.raises(TypeError):
        getattr(enc, call)("0")
