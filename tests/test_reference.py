"""The pure-Python twin (fast_wordpiece.reference), specified by example.

Each test states one rule of docs/spec.md. The twin is the oracle the engine
is compared with, so the values here are worked out by hand from the spec
(training) or checked against Hugging Face `tokenizers` (encoding, decoding).
"""

from __future__ import annotations

import importlib
import inspect
import json
import pickle
import random
import string
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fast_wordpiece.reference import DEFAULT_SPECIAL_TOKENS, Encoding, PyTokenizer
from fast_wordpiece.reference.training import Word

SPECIALS = list(DEFAULT_SPECIAL_TOKENS)
SEED_WORDS = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def train_words(counts: dict[str, int], vocab_size: int = 100, min_frequency: int = 0, **kwargs) -> PyTokenizer:
    """Trains with the ``pmi`` objective unless told otherwise: the worked examples below are pmi's."""
    return PyTokenizer.train_from_counts(counts, vocab_size, min_frequency, **{"objective": "pmi", **kwargs})


def learned(tok: PyTokenizer) -> list[str]:
    """The vocabulary in id order, without the special tokens."""
    vocab = tok.get_vocab()
    return [t for t in sorted(vocab, key=vocab.get) if t not in tok.special_tokens]


# --- Training (spec section 4) ---------------------------------------------------------------------------------------


def test_seed_corpus_initial_vocabulary_is_special_tokens_then_sorted_alphabet():
    tok = train_words(SEED_WORDS, vocab_size=1)
    # First characters as they are, later ones with ##, in code point order: '#' (0x23) sorts before letters.
    assert sorted(tok.get_vocab(), key=tok.get_vocab().get) == [*SPECIALS, "##g", "##n", "##s", "##u", "b", "h", "p"]
    assert tok.merges == []


def test_seed_corpus_first_merges_follow_the_formula():
    # Words: h ##u ##g (10), p ##u ##g (5), p ##u ##n (12), b ##u ##n (4), h ##u ##g ##s (5).
    # freq: h 15, p 17, b 4, ##u 36, ##g 20, ##n 16, ##s 5.
    # 1. Every pair through ##u scores exactly 1/36 (e.g. h ##u: 15/(15*36), ##u ##g: 20/(36*20));
    #    ##g ##s scores 5/(20*5) = 1/20, the best.
    # 2. Now ##g = 15, ##gs = 5 and every pair scores 1/36 again (##u ##gs: 5/(36*5)); the tie goes to
    #    the largest pair_freq: p ##u (17) over ##u ##n (16), h ##u (15), ##u ##g (15).
    # 3. ##u = 19, pu = 17: h ##u 15/(15*19) = 1/19 ties b ##u 4/(4*19) and ##u ##gs 5/(19*5);
    #    h ##u has the largest pair_freq (15). pu ##n is only 12/(17*16) = 3/68 < 1/19.
    # 4. ##u = 4 (in bun only): b ##u scores 4/(4*4) = 1/4, far above hu ##gs 5/(15*5) = 1/15.
    # 5. hu ##gs 1/15 beats bu ##n 4/(4*16) = 1/16, hu ##g 10/(15*15) = 2/45 and pu ##n 3/68.
    tok = train_words(SEED_WORDS, vocab_size=len(SPECIALS) + 7 + 5, min_frequency=2)
    assert tok.merges == [("##g", "##s"), ("p", "##u"), ("h", "##u"), ("b", "##u"), ("hu", "##gs")]
    assert learned(tok)[7:] == ["##gs", "pu", "hu", "bu", "hugs"]
    assert tok.encode("hugs bun pug", add_special_tokens=False).tokens == ["hugs", "bu", "##n", "pu", "##g"]


def test_train_counts_the_normalized_pre_tokenized_words_of_the_corpus():
    corpus = ["Hug hug HUG! pug.", "Pun pun, pun bun hugs", "hug HUG hug hug hug hug hug pug pug pug pug",
              "pun pun pun pun pun pun pun pun pun bun bun bun hugs hugs hugs hugs"]  # fmt: skip
    from_text = PyTokenizer.train(corpus, 17, 2, objective="pmi")
    punctuation = {"!": 1, ".": 1, ",": 1}
    from_counts = train_words({**SEED_WORDS, **punctuation}, vocab_size=17, min_frequency=2)
    assert from_text == from_counts
    assert from_text.merges[0] == ("##g", "##s")


def test_ties_on_score_and_pair_frequency_go_to_the_smaller_first_token():
    # a ##b and c ##d both score 1/(1*1) with pair_freq 1: the smaller a wins ("a" < "c").
    assert train_words({"cd": 1, "ab": 1}).merges == [("a", "##b"), ("c", "##d")]


def test_ties_on_first_token_go_to_the_smaller_second_token():
    # a ##c and a ##b both score 1/(2*1) with pair_freq 1: "##b" < "##c".
    assert train_words({"ac": 1, "ab": 1}).merges[0] == ("a", "##b")


def test_tie_breaks_use_code_point_order_not_locale_order():
    # "Z" (U+005A) < "z" (U+007A) < "é" (U+00E9).
    tok = train_words({"éq": 1, "zq": 1, "Zq": 1}, lowercase=False)
    assert [a for a, _ in tok.merges] == ["Z", "z", "é"]


def test_scores_are_compared_exactly_not_as_floats():
    # 1/2**60 and 1/(2**60 + 1) are the same double; as fractions the first is larger, so "ab" merges
    # first even though "cd" has the larger pair frequency (which would win a float tie).
    big = 2**60
    assert 1 / big == 1 / (big + 1)
    assert train_words({"ab": big, "cd": big + 1}).merges[0] == ("a", "##b")


def test_an_alphabet_larger_than_vocab_size_is_kept_whole():
    tok = train_words({"abc": 5, "xyz": 5}, vocab_size=3)
    assert learned(tok) == ["##b", "##c", "##y", "##z", "a", "x"]
    assert tok.vocab_size == len(SPECIALS) + 6
    assert tok.merges == []


def test_a_merge_can_produce_a_token_already_in_the_vocabulary():
    # The word "##a" (kept whole by the whitespace pre-tokenizer) starts as  # ### ##a.
    # Merge 1: "#" + "###" gives "##" (new). Merge 2: "##" + "##a" gives "#" + "#" + "a" = "##a", already
    # there: the merge is recorded, the vocabulary does not grow.
    tok = PyTokenizer.train(["##a ##a"], 50, 1, pre_tokenizer="whitespace")
    assert tok.merges == [("#", "###"), ("##", "##a")]
    assert learned(tok) == ["#", "###", "##a", "##"]


def test_a_merge_can_produce_a_special_token():
    tok = train_words({"ab": 3}, special_tokens=["[UNK]", "ab"], cls_token="[UNK]", sep_token="[UNK]")
    assert tok.merges == [("a", "##b")]
    assert sorted(tok.get_vocab(), key=tok.get_vocab().get) == ["[UNK]", "ab", "##b", "a"]


def test_repeated_tokens_merge_left_to_right_without_overlap():
    word = Word("xaaaaa", 1)
    word.merge("##a", "##a", "##aa")
    assert word.tokens == ["x", "##aa", "##aa", "##a"]
    assert word.pair_counts == {("x", "##aa"): 1, ("##aa", "##aa"): 1, ("##aa", "##a"): 1}


def test_a_equal_to_b_pairs_are_counted_and_merged_like_any_other():
    # x is frequent: x ##a scores 1/(11*4); ##a ##a occurs 3 times in x ##a ##a ##a ##a and scores 3/(4*4).
    tok = train_words({"xaaaa": 1, "x": 10}, vocab_size=len(SPECIALS) + 2 + 2)
    # After x ##aa ##aa: x ##aa scores 1/(11*2), ##aa ##aa 1/(2*2).
    assert tok.merges == [("##a", "##a"), ("##aa", "##aa")]


def test_min_frequency_zero_and_one_are_the_same_every_counted_pair_occurs():
    counts = {"hello": 1, "help": 2, "yellow": 1}
    assert train_words(counts, 40, 0) == train_words(counts, 40, 1)


def test_min_frequency_skips_rare_pairs_even_with_the_best_score():
    # a ##b scores 1/(1*1) but occurs once; x ##y scores 3/(6*3) = 1/6 and occurs 3 times.
    assert train_words({"ab": 1, "xy": 3, "xz": 3}, min_frequency=1).merges[0] == ("a", "##b")
    assert train_words({"ab": 1, "xy": 3, "xz": 3}, min_frequency=2).merges[0] == ("x", "##y")
    assert train_words({"ab": 1, "cd": 1}, min_frequency=2).merges == []


def test_a_corpus_without_words_is_a_value_error():
    calls = (lambda: PyTokenizer.train([], 100), lambda: PyTokenizer.train(["", "   "], 100), lambda: train_words({}))
    for call in calls:
        with pytest.raises(ValueError, match="the corpus has no words to train on"):
            call()


def test_training_stops_at_vocab_size():
    tok = PyTokenizer.train(["the quick brown fox jumps over the lazy dog"] * 3, 40, 2)
    assert tok.vocab_size == 40
    assert len(learned(tok)) == 40 - len(SPECIALS)


# --- Normalizer and pre-tokenizers (spec sections 1-3)


@pytest.fixture(scope="module")
def every_char() -> PyTokenizer:
    """A vocabulary holding every character of the texts below, alone and with ##."""
    chars = sorted(set(string.ascii_letters + string.digits + string.punctuation +
                       "éÉİißﬁ中文字Жжкл\u0301\u0307\u302e\u302f😀µ"))  # fmt: skip
    return PyTokenizer(SPECIALS + chars + ["##" + c for c in chars], strip_accents=False)


def encode(tok: PyTokenizer, text: str) -> list[tuple[str, tuple[int, int]]]:
    enc = tok.encode(text, add_special_tokens=False)
    return list(zip(enc.tokens, enc.offsets))


def test_expansions_point_to_their_one_original_character(every_char):
    # İ lowercases to i + U+0307; both come from character 1.
    assert encode(every_char, "xİy") == [("x", (0, 1)), ("##i", (1, 2)), ("##\u0307", (1, 2)), ("##y", (2, 3))]
    # A CJK character becomes " 中 ": a word of its own.
    assert encode(every_char, "a中b") == [("a", (0, 1)), ("中", (1, 2)), ("b", (2, 3))]


def test_clean_text_drops_controls_and_maps_whitespace():
    tok = PyTokenizer([*SPECIALS, "a", "##a", "b"])
    # NUL, U+FFFD, BEL and the zero-width space go; tab, NBSP and U+3000 separate words.
    assert encode(tok, "a\x00a\ufffd\x07\u200b\ta\u00a0b\u3000b") == [
        ("a", (0, 1)), ("##a", (2, 3)), ("a", (7, 8)), ("b", (9, 10)), ("b", (11, 12))]  # fmt: skip


def test_strip_accents_follows_lowercase_unless_given():
    def words(text: str, **options) -> list[str]:
        return PyTokenizer.train([text], 1, **options).get_vocab().keys() - set(SPECIALS)

    assert words("É", lowercase=True) == {"e"}
    assert words("É", lowercase=False) == {"É"}
    assert words("É", lowercase=True, strip_accents=False) == {"é"}
    assert words("É", lowercase=False, strip_accents=True) == {"E"}


def test_reordered_marks_take_the_origin_of_the_place_they_move_to(every_char):
    # NFD sorts U+302F (class 224) before U+0301 (class 230); the accent is then dropped. Hugging Face
    # moves the characters but not their origins, so U+302F reports the place of U+0301 (2, 3).
    tok = PyTokenizer(every_char.get_vocab().keys(), strip_accents=True, lowercase=False)
    assert encode(tok, "x\u302e\u0301\u302f") == [("x", (0, 1)), ("##\u302e", (1, 2)), ("##\u302f", (2, 3))]


@pytest.mark.parametrize(
    ("pre_tokenizer", "words"),
    [
        # "€" is a symbol (Sc), not punctuation, so BERT keeps "42€" whole.
        ("bert", ["snake", "_", "case", "+", "x", "don", "'", "t", "42€", "y", "中"]),
        ("whitespace", ["snake_case+x", "don't", "42€", "y", "中"]),
        ("regex", ["snake_case", "+", "x", "don", "'", "t", "42", "€", "y", "中"]),
    ],
)
def test_pre_tokenizers(pre_tokenizer, words):
    tok = PyTokenizer.train(["snake_case+x don't\u00a042€ y中"], 1, pre_tokenizer=pre_tokenizer)
    first_chars = [w[0] for w in words]
    assert set(learned(tok)) == {*first_chars, *("##" + c for w in words for c in w[1:])}


# --- Encoding (spec sections 5 and 6)

BERT_VOCAB = [*SPECIALS, "hello", "world", "!", "##s", ",", "un", "##aff", "##able", "a", "##a"]


@pytest.fixture(scope="module")
def bert() -> PyTokenizer:
    return PyTokenizer(BERT_VOCAB)


def test_greedy_longest_match_first(bert):
    enc = bert.encode("Hello, WORLDS! unaffable")
    assert enc.tokens == ["[CLS]", "hello", ",", "world", "##s", "!", "un", "##aff", "##able", "[SEP]"]
    assert enc.offsets == [(0, 0), (0, 5), (5, 6), (7, 12), (12, 13), (13, 14), (15, 17), (17, 20), (20, 24), (0, 0)]
    assert enc.special_tokens_mask == [1, 0, 0, 0, 0, 0, 0, 0, 0, 1]


def test_a_word_with_an_unmatched_part_is_one_unknown_token(bert):
    assert encode(bert, "hellox worlds") == [("[UNK]", (0, 6)), ("world", (7, 12)), ("##s", (12, 13))]


def test_a_word_longer_than_max_input_chars_per_word_is_one_unknown_token(bert):
    assert encode(bert, "a" * 100) == [("a", (0, 1))] + [("##a", (i, i + 1)) for i in range(1, 100)]
    assert encode(bert, "a" * 101) == [("[UNK]", (0, 101))]
    assert encode(PyTokenizer(BERT_VOCAB, max_input_chars_per_word=3), "aaaa aaa") == [
        ("[UNK]", (0, 4)), ("a", (5, 6)), ("##a", (6, 7)), ("##a", (7, 8))]  # fmt: skip


def test_a_million_character_word_is_unknown_without_matching(bert):
    enc = bert.encode("a" * 1_000_000 + " hello")
    assert enc.tokens == ["[CLS]", "[UNK]", "hello", "[SEP]"]
    assert enc.offsets[1:3] == [(0, 1_000_000), (1_000_001, 1_000_006)]


def test_special_tokens_in_text_are_kept_whole_with_their_span(bert):
    enc = bert.encode("hello[SEP]world [MASK]!", add_special_tokens=False)
    assert list(zip(enc.tokens, enc.offsets)) == [
        ("hello", (0, 5)), ("[SEP]", (5, 10)), ("world", (10, 15)), ("[MASK]", (16, 22)), ("!", (22, 23))]  # fmt: skip
    assert enc.special_tokens_mask == [0] * 5
    assert encode(bert, "[sep]")[0][0] == "[UNK]"  # matched before normalization: case matters


def test_special_tokens_match_leftmost_then_longest():
    tok = PyTokenizer(["[UNK]", "[A]", "[A][B]", "[B]", "x"], special_tokens=["[UNK]", "[A]", "[A][B]", "[B]"])
    assert [t for t, _ in encode(tok, "x[B][A][B][A]")] == ["x", "[B]", "[A][B]", "[A]"]


def test_only_special_tokens_in_the_vocabulary_count():
    tok = PyTokenizer(["[UNK]", "[", "##mask", "]", "mask"])
    assert tok.special_tokens == ["[UNK]"]
    assert [t for t, _ in encode(tok, "[MASK]")] == ["[", "mask", "]"]


def test_pairs_get_type_ids_and_offsets_into_their_own_text(bert):
    enc = bert.encode("hello world", "un, hello")
    assert enc.tokens == ["[CLS]", "hello", "world", "[SEP]", "un", ",", "hello", "[SEP]"]
    assert enc.type_ids == [0, 0, 0, 0, 1, 1, 1, 1]
    assert enc.offsets == [(0, 0), (0, 5), (6, 11), (0, 0), (0, 2), (2, 3), (4, 9), (0, 0)]
    assert enc.special_tokens_mask == [1, 0, 0, 1, 0, 0, 0, 1]
    plain = bert.encode("hello world", "un, hello", add_special_tokens=False)
    assert plain.type_ids == [0, 0, 1, 1, 1]
    assert plain.special_tokens_mask == [0] * 5
    assert plain.attention_mask == [1] * 5


def test_empty_and_whitespace_only_texts(bert):
    assert bert.encode("").tokens == ["[CLS]", "[SEP]"]
    assert bert.encode(" \t\n ", "").tokens == ["[CLS]", "[SEP]", "[SEP]"]
    assert bert.encode("", add_special_tokens=False) == Encoding([], [], [], [], [])


def test_encoding_reads_like_the_seed_dict(bert):
    enc = bert.encode("hello!")
    assert enc.keys() == ["ids", "tokens", "offsets", "attention_mask", "special_tokens_mask", "type_ids"]
    assert enc["tokens"] == enc.tokens
    assert "ids" in enc
    assert "input_ids" not in enc
    assert len(enc) == 4
    assert enc == bert.encode("hello!")
    assert enc != bert.encode("hello")
    assert repr(enc) == "Encoding(n_tokens=4, tokens=['[CLS]', 'hello', '!', '[SEP]'])"
    enc.tokens.append("changed")
    assert enc.tokens == ["[CLS]", "hello", "!", "[SEP]"]  # a read-only record
    with pytest.raises(KeyError, match="input_ids"):
        enc["input_ids"]


def test_encode_batch_equals_encode(bert):
    inputs = ["hello", ("hello", "world!"), ""]
    assert bert.encode_batch(inputs, add_special_tokens=False) == [
        bert.encode("hello", add_special_tokens=False), bert.encode("hello", "world!", add_special_tokens=False),
        bert.encode("", add_special_tokens=False)]  # fmt: skip


# --- Offsets and decoding, for any text (hypothesis)

TEXT_CHARS = st.sampled_from([*list("abcxyzABCé É\tİß中Жж.,!?'-́\x00�\u200b😀"), "[SEP]", "[MASK]", "  "])


def bert_normalize(text: str) -> str:
    """BERT's default normalization, from unicodedata alone: good enough for TEXT_CHARS."""
    text = "".join(c for c in text if c not in "\x00\ufffd\u200b")
    text = "".join(f" {c} " if "\u4e00" <= c <= "\u9fff" else c for c in text)
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn").lower()


@pytest.fixture(scope="module")
def chars_tok() -> PyTokenizer:
    chars = sorted({c for c in bert_normalize("abcxyzABCéÉİß中Жж.,!?'-😀") if c != " "})
    return PyTokenizer(SPECIALS + chars + ["##" + c for c in chars])


@settings(max_examples=200, deadline=None)
@given(st.lists(TEXT_CHARS, max_size=30).map("".join))
def test_offsets_slice_back_to_the_original_text(chars_tok, text):
    enc = chars_tok.encode(text, add_special_tokens=False)
    assert enc.offsets == sorted(enc.offsets)
    for token, (start, end) in zip(enc.tokens, enc.offsets):
        assert 0 <= start < end <= len(text)
        if token in ("[SEP]", "[MASK]"):
            assert text[start:end] == token
        else:
            assert token.removeprefix("##") in bert_normalize(text[start:end])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([*list("abcxyzéÉß中Жж "), "\t", "\n", "\xa0"]), max_size=30).map("".join))
def test_decode_inverts_encode_up_to_normalization(chars_tok, text):
    # Without punctuation (and without "do not") decoding just joins the normalized words with spaces.
    enc = chars_tok.encode(text)
    assert chars_tok.decode(enc.ids, skip_special_tokens=True) == " ".join(bert_normalize(text).split())
    assert chars_tok.decode(enc.ids) == " ".join(["[CLS]", *bert_normalize(text).split(), "[SEP]"])


# --- Decoding (spec section 7)


def test_decode_glues_pieces_and_cleans_up_each_token():
    # Each token but the first loses its ## or gains a leading space; then the clean-up rules apply to that
    # token alone (so "do" + "not" stays "do not", but a token "do not" becomes "don't").
    tok = PyTokenizer(["[UNK]", "[CLS]", "[SEP]", "i", "'m", "here", ",", "it", "'s", "do", "n't", "do not", "!", "##s",
                       "'", "not", "s"])  # fmt: skip
    tokens = ["[CLS]", "i", "'m", "here", ",", "it", "'s", "do", "n't", "do not", "do", "not", "it", "'", "s", "!",
              "[SEP]"]  # fmt: skip
    ids = [tok.token_to_id(t) for t in tokens]
    assert tok.decode(ids) == "[CLS] i'm here, it's don't don't do not it ' s! [SEP]"
    assert tok.decode(ids, skip_special_tokens=True) == "i'm here, it's don't don't do not it ' s!"
    assert tok.decode([tok.token_to_id("##s"), tok.token_to_id("it")]) == "##s it"  # the first token keeps its ##
    assert tok.decode_batch([ids[:2], []], skip_special_tokens=True) == ["i", ""]


# --- Files and pickling


@pytest.fixture(scope="module")
def trained() -> PyTokenizer:
    corpus = ["Café déjà vu — naïve coöperation; ÜBER straße.", "中文字符 与 English mixed, да и русский тоже."] * 3
    return PyTokenizer.train(corpus, 90, 2, lowercase=False, strip_accents=True, max_input_chars_per_word=50)


def test_to_json_writes_the_documented_json_and_load_reads_save_back(trained, tmp_path):
    doc = json.loads(trained.to_json())
    assert doc["format"] == "fast-wordpiece"
    assert doc["version"] == 1
    assert doc["vocab"] == sorted(trained.get_vocab(), key=trained.get_vocab().get)
    assert doc["merges"] == [list(m) for m in trained.merges]
    assert doc["special_tokens"] == SPECIALS
    assert doc["options"] == {"clean_text": True, "handle_chinese_chars": True, "strip_accents": True,
                              "lowercase": False, "pre_tokenizer": "bert", "unk_token": "[UNK]", "cls_token": "[CLS]",
                              "sep_token": "[SEP]", "pad_token": "[PAD]", "max_input_chars_per_word": 50,
                              "continuing_subword_prefix": "##",
                              "decoder_cleanup": True, "post_processor": "bert",
                              "split_special_tokens": False, "decoder": "wordpiece",
                              "strip_all_marks": False}  # fmt: skip
    trained.save(tmp_path / "tok.json")
    assert json.loads((tmp_path / "tok.json").read_text(encoding="utf-8"))["version"] == "1.0"  # Hugging Face's
    loaded = PyTokenizer.load(tmp_path / "tok.json")
    assert loaded == trained
    assert loaded.merges == trained.merges
    assert loaded.options == trained.options
    assert [p.name for p in tmp_path.iterdir()] == ["tok.json"]  # no temporary file left


def test_pickle_round_trip(trained):
    clone = pickle.loads(pickle.dumps(trained))
    assert clone == trained
    assert clone.encode("Café 中").to_dict() == trained.encode("Café 中").to_dict()


def test_vocab_file_round_trip(trained, tmp_path):
    trained.save_vocab(tmp_path / "vocab.txt")
    again = PyTokenizer.from_vocab_file(tmp_path / "vocab.txt", **trained.options)
    assert again.get_vocab() == trained.get_vocab()
    assert again.merges == []


def test_vocab_file_lines_lose_trailing_whitespace_as_in_rust(tmp_path):
    path = tmp_path / "vocab.txt"
    # CRLF, tabs and U+3000 are trimmed (Rust's trim_end); U+001C is not whitespace there, though Python's
    # str.rstrip() would remove it. An empty line is the token "".
    path.write_bytes("[UNK]\r\nab \t\nc\u3000\nd\x1c\n\n##e".encode())
    tok = PyTokenizer.from_vocab_file(path, post_processor="none")
    assert sorted(tok.get_vocab(), key=tok.get_vocab().get) == ["[UNK]", "ab", "c", "d\x1c", "", "##e"]
    assert tok.special_tokens == ["[UNK]"]


# --- Errors (spec section 8)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: PyTokenizer.train("text", 10), TypeError, "corpus must be an iterable of str, not str"),
        (lambda: PyTokenizer.train(b"text", 10), TypeError, "corpus"),
        (lambda: PyTokenizer.train(None, 10), TypeError, "corpus"),
        (lambda: PyTokenizer.train(7, 10), TypeError, "corpus"),
        (lambda: PyTokenizer.train(["ok", 3], 10), TypeError, r"corpus\[1\] must be str, not int"),
        (lambda: PyTokenizer.train(["ok", "a\udc80"], 10), ValueError, r"corpus\[1\].*index 1"),
        (lambda: PyTokenizer.train([], 0), ValueError, "vocab_size"),
        (lambda: PyTokenizer.train([], True), TypeError, "vocab_size"),
        (lambda: PyTokenizer.train([], 10.0), TypeError, "vocab_size"),
        (lambda: PyTokenizer.train([], 10, -1), ValueError, "min_frequency"),
        (lambda: PyTokenizer.train([], 10, False), TypeError, "min_frequency"),
        (lambda: PyTokenizer.train([], 10, max_input_chars_per_word=0), ValueError, "max_input_chars_per_word"),
        (lambda: PyTokenizer.train([], 10, max_input_chars_per_word=True), TypeError, "max_input_chars_per_word"),
        (lambda: PyTokenizer.train([], 10, pre_tokenizer="bpe"), ValueError, '"bert", "whitespace", "regex"'),
        (lambda: PyTokenizer.train([], 10, lowercase=1), TypeError, "lowercase"),
        (lambda: PyTokenizer.train([], 10, strip_accents="no"), TypeError, "strip_accents"),
        (lambda: PyTokenizer.train([], 10, lowercas=True), TypeError, "lowercas"),
        (lambda: PyTokenizer.train([], 10, special_tokens=["[PAD]"]), ValueError, "unk_token"),
        (lambda: PyTokenizer.train([], 10, special_tokens="[UNK]"), TypeError, "special_tokens"),
        (lambda: PyTokenizer.train([], 10, special_tokens=["[UNK]", 1]), TypeError, r"special_tokens\[1\]"),
        (lambda: PyTokenizer.train([], 10, special_tokens=["[UNK]", ""]), ValueError, "empty"),
        (lambda: PyTokenizer.train([], 10, special_tokens=["[UNK]", "[UNK]"]), ValueError, "twice"),
        (lambda: PyTokenizer.train_from_counts(["a"], 10), TypeError, r"counts\[0\] must be a \(str, int\) pair"),
        (lambda: PyTokenizer.train_from_counts({1: 2}, 10), TypeError, r"the word of counts\[0\]"),
        (lambda: PyTokenizer.train_from_counts({"a": -1}, 10), ValueError, 'the count of "a"'),
        (lambda: PyTokenizer.train_from_counts({"a": 1.5}, 10), TypeError, 'the count of "a"'),
        (lambda: PyTokenizer(["a"]), ValueError, "unk_token"),
        (lambda: PyTokenizer(["[UNK]", "a", "a"]), ValueError, 'duplicate token "a" at ids 1 and 2'),
        (lambda: PyTokenizer("[UNK]"), TypeError, "vocab"),
        (lambda: PyTokenizer(["[UNK]", None]), TypeError, r"vocab\[1\]"),
        (lambda: PyTokenizer(["[UNK]"], merges=[("a",)]), TypeError, r"merges\[0\]"),
        (lambda: PyTokenizer(["[UNK]"]).encode(None), TypeError, "text"),
        (lambda: PyTokenizer(["[UNK]"]).encode(b"x"), TypeError, "text"),
        (lambda: PyTokenizer(["[UNK]"]).encode("x", 5), TypeError, "pair"),
        (lambda: PyTokenizer(["[UNK]"]).encode("ab\ud800"), ValueError, "index 2"),
        (lambda: PyTokenizer(["[UNK]"]).encode("x"), ValueError, r'"\[CLS\]" and "\[SEP\]"'),
        (lambda: PyTokenizer(["[UNK]"]).encode_batch("x"), TypeError, "inputs"),
        (lambda: PyTokenizer(["[UNK]"]).encode_batch(["x", ("a", "b", "c")]), TypeError, r"inputs\[1\]"),
        (lambda: PyTokenizer(["[UNK]"]).decode([0, -1]), ValueError, r"token_ids\[1\] = -1"),
        (lambda: PyTokenizer(["[UNK]"]).decode([1]), ValueError, "out of range"),
        (lambda: PyTokenizer(["[UNK]"]).decode([True]), TypeError, r"token_ids\[0\]"),
        (lambda: PyTokenizer(["[UNK]"]).decode("0"), TypeError, "ids"),
        (lambda: PyTokenizer(["[UNK]"]).decode_batch([[0], [2]]), ValueError, r"sequences\[1\]"),
        (lambda: PyTokenizer(["[UNK]"]).id_to_token(-1), ValueError, "id"),
        (lambda: PyTokenizer(["[UNK]"]).token_to_id(0), TypeError, "token"),
        (lambda: PyTokenizer.from_vocab_file(3), TypeError, "path"),
        (lambda: PyTokenizer.from_json(b"{}"), TypeError, "json"),
    ],
)
def test_bad_arguments_raise_errors_that_name_them(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_id_to_token_past_the_vocabulary_is_none(bert):
    assert bert.id_to_token(len(BERT_VOCAB)) is None
    assert bert.id_to_token(0) == "[PAD]"
    assert bert.token_to_id("nope") is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty vocabulary file"),
        (b"[UNK]\na\nb\na\n", r'duplicate token "a" at ids 1 and 3 \(ids are line numbers'),
        (b"[UNK]\n\xff\n", "not UTF-8"),
        (b"a\nb\n", "unk_token"),
    ],
)
def test_bad_vocab_files(tmp_path, content, message):
    path = tmp_path / "vocab.txt"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message):
        PyTokenizer.from_vocab_file(path)


def test_missing_files_and_directories(tmp_path):
    with pytest.raises(FileNotFoundError):
        PyTokenizer.from_vocab_file(tmp_path / "missing.txt")
    with pytest.raises(FileNotFoundError):
        PyTokenizer.load(tmp_path / "missing.json")
    with pytest.raises(IsADirectoryError):
        PyTokenizer.load(tmp_path)
    with pytest.raises(FileNotFoundError):
        PyTokenizer(["[UNK]"]).save(tmp_path / "no such dir" / "t.json")


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: "{not json",
        lambda d: "[]",
        lambda d: {**d, "format": "other"},
        lambda d: {**d, "version": 2},
        lambda d: {**d, "version": 1.0},
        lambda d: {**d, "extra": 1},
        lambda d: {k: v for k, v in d.items() if k != "merges"},
        lambda d: {**d, "vocab": {"[UNK]": 0}},
        lambda d: {**d, "vocab": ["[UNK]", 5]},
        lambda d: {**d, "vocab": ["[UNK]", "[UNK]"]},
        lambda d: {**d, "merges": ["ab"]},
        lambda d: {**d, "options": {**d["options"], "lowercase": 1}},
        lambda d: {**d, "options": {**d["options"], "max_input_chars_per_word": 0}},
        lambda d: {**d, "options": {**d["options"], "colour": "red"}},
        lambda d: {**d, "options": {**d["options"], "unk_token": "[NOPE]"}},
    ],
)
def test_corrupt_tokenizer_files_are_value_errors_naming_the_file(tmp_path, edit):
    doc = json.loads(PyTokenizer(["[UNK]", "a"], merges=[("a", "##b")]).to_json())
    edited = edit(doc)
    path = tmp_path / "broken.json"
    path.write_text(edited if isinstance(edited, str) else json.dumps(edited), encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.json"):
        PyTokenizer.load(path)


def test_repr_names_the_configuration(bert):
    assert (
        repr(bert) == "PyTokenizer(vocab_size=15, lowercase=True, strip_accents=None, pre_tokenizer='bert', "
        "merges=0, objective=None)"
    )


# --- Parity with Hugging Face BertWordPieceTokenizer

PIECES = (list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") * 2 + list(string.punctuation)
          + [" "] * 20 + ["\t", "\n", "\r\n", "\u00a0", "\u3000", "\x0b", "\x1c", "\x85"]
          + ["hello", "World", "unaffable", "don't", "I'm", "do not", "it's", "U.S.A.", "3.14"]
          + ["café", "cafe\u0301", "naïve", "ÜBER", "straße", "İstanbul", "ﬁnance", "ΣΑΣ", "Å", "ǅ", "µ"]
          + ["中文", "\uf900", "\U00020000", "日本語", "한국어", "Привет", "مرحبا", "नमस्ते", "สวัสดี"]
          + ["😀", "👨\u200d👩\u200d👧", "🇫🇷", "\u200d", "\u200b", "\ufeff", "\u00ad"]
          + ["\x00", "\x07", "\ufffd", "\ue000"]
          + ["a\u0323\u0301", "e\u0f72\u0f71", "x\u302e\u0301\u302f", "\U0001d165\U0001d16d", "\u0301"]
          + ["[SEP]", "[MASK]", "[CLS]", "[UNK]", "[SEP", "[sep]", "[[SEP]]", "##a", "#"])  # fmt: skip


def generated_lines(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 25))) for _ in range(n)]


def docstring_lines() -> list[str]:
    lines = []
    for name in ("json", "re", "collections", "functools", "itertools", "string", "textwrap", "pathlib"):
        for _, obj in inspect.getmembers(importlib.import_module(name)):
            lines += [line for line in (inspect.getdoc(obj) or "").splitlines() if line.strip()]
    return lines


@pytest.fixture(scope="module")
def hf_vocab_files(tmp_path_factory) -> dict[str, Path]:
    """A hand-made vocab.txt with every character of PIECES, and one Hugging Face trained on docstrings."""
    tokenizers = pytest.importorskip("tokenizers")
    directory = tmp_path_factory.mktemp("vocab")
    forms = {
        form
        for piece in PIECES
        for text in (piece, piece.lower())
        for form in (text, unicodedata.normalize("NFD", text))
    }
    chars = {c for form in forms for c in form}
    chars = sorted(c for c in chars if not c.isspace() and c not in "\x1c\x85")
    (directory / "hand.txt").write_text("\n".join(SPECIALS + chars + ["##" + c for c in chars] + ["hello", "##llo"]))
    trainer = tokenizers.BertWordPieceTokenizer()
    trainer.train_from_iterator(docstring_lines(), vocab_size=600, min_frequency=2, show_progress=False)
    trainer.save_model(str(directory))
    return {"hand": directory / "hand.txt", "trained": directory / "vocab.txt"}


@pytest.mark.parametrize("vocab", ["hand", "trained"])
@pytest.mark.parametrize("options", [{}, {"lowercase": False}, {"strip_accents": False}, {"clean_text": False}])
def test_parity_with_hugging_face(hf_vocab_files, vocab, options):
    from tokenizers import BertWordPieceTokenizer

    hf = BertWordPieceTokenizer(str(hf_vocab_files[vocab]), **options)
    twin = PyTokenizer.from_vocab_file(hf_vocab_files[vocab], **options)
    rng = random.Random(f"{vocab}{options}")
    lines = generated_lines(rng, 150) + rng.sample(docstring_lines(), 50) + ["", "  ", "a" * 101, "[SEP]"]
    for i, text in enumerate(lines):
        pair = lines[-i] if i % 4 == 0 else None
        for add in (True, False):
            ours = twin.encode(text, pair, add)
            theirs = hf.encode(text, pair, add_special_tokens=add)
            assert (ours.ids, ours.tokens, ours.offsets) == (theirs.ids, theirs.tokens, theirs.offsets), (text, pair)
            assert (ours.type_ids, ours.special_tokens_mask, ours.attention_mask) == (
                theirs.type_ids, theirs.special_tokens_mask, theirs.attention_mask)  # fmt: skip
            for skip in (True, False):
                assert twin.decode(ours.ids, skip) == hf.decode(theirs.ids, skip_special_tokens=skip), text
        ids = [rng.randrange(twin.vocab_size) for _ in range(rng.randint(0, 10))]
        assert twin.decode(ids) == hf.decode(ids, skip_special_tokens=False)  # Hugging Face's default is True
