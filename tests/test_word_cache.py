"""The chunk cache (``PyTokenizer.word_cache``): with it on, every encoding is
the one it is off, on any number of threads, across calls, after add_tokens,
with added tokens that take in whitespace or are matched in the normalized
text, around every kind of whitespace and removed character, and in a forked
child whose parent filled the cache; on real text, equal to Hugging Face's."""

from __future__ import annotations

import os
import sys

import pytest
from implementations import IMPLEMENTATIONS, tokenizer_class

import fast_wordpiece

LINES = [
    "The quick brown fox jumps over the lazy dog.",
    "Hugging, hugs and puns: the pug hugged the bun!",
    "Café déjà vu — naïve coöperation; ÜBER straße.",
    "中文字符 与 English mixed, да и русский тоже. Unaffable antidisestablishment",
]
TEXTS = [" ".join(LINES[(i + k) % 4] for k in range(i % 9 + 1)) for i in range(1500)]


def dicts(batch: list) -> list[dict]:
    return [e.to_dict() for e in batch]


@pytest.fixture(scope="module")
def pair():
    on = fast_wordpiece.PyTokenizer.train(LINES * 20, 150, 2, show_progress=False)
    off = fast_wordpiece.PyTokenizer.train(LINES * 20, 150, 2, show_progress=False)
    on.word_cache = True
    off.word_cache = False
    return on, off


@pytest.mark.parametrize("impl", list(IMPLEMENTATIONS))
def test_the_switch_is_a_bool_and_on_by_default(impl):
    tok = tokenizer_class(impl).train(LINES, 60, 1, show_progress=False)
    assert tok.word_cache is True
    tok.word_cache = False
    assert tok.word_cache is False
    with pytest.raises(TypeError, match="word_cache must be bool"):
        tok.word_cache = 1


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_on_equals_off_across_calls_and_threads(pair, threads):
    on, off = pair
    expected = dicts(off.encode_batch(TEXTS, num_threads=threads))
    for _ in range(3):  # the first call fills the cache, the next ones read it
        assert dicts(on.encode_batch(TEXTS, num_threads=threads)) == expected
    assert [on.encode(t).ids for t in TEXTS[:50]] == [e["ids"] for e in expected[:50]]
    ragged = on.encode_batch(TEXTS, return_tensors="np", return_offsets=True, num_threads=threads)
    assert ragged.tolist() == [e["ids"] for e in expected]


def test_on_equals_off_with_other_pipelines():
    for options in (dict(lowercase=False), dict(pre_tokenizer="whitespace"), dict(max_input_chars_per_word=4)):
        on = fast_wordpiece.PyTokenizer.train(LINES * 20, 150, 2, show_progress=False, **options)
        off = fast_wordpiece.PyTokenizer.from_str(on.to_str())
        on.word_cache, off.word_cache = True, False
        for _ in range(2):
            assert dicts(on.encode_batch(TEXTS[:300], num_threads=2)) == dicts(off.encode_batch(TEXTS[:300]))


#: Chunks cut at each kind of whitespace, next to what normalization removes,
#: inserts (spaces around Chinese characters) or reorders (combining marks).
EDGES = [
    "a\tb\nc\rd  e\x0bf\x0cg\u00a0h\u3000i\u2028j",
    "x\x00y \ufffdz \x07 \u200bw\u200b cafe\u0301 e\u0301\u0327 \u0301start",
    "中文字符中 a中b (hug)! [SEP]x [SEP] y [MASK]z" + " <x> <x>y z<x>" * 3,
    "Hello HELLO hello héllo HÉLLO " * 3 + "unaffable" * 12,
    "",
    "   ",
    "\t\n",
]


@pytest.mark.parametrize(
    "options",
    [{}, dict(lowercase=False), dict(clean_text=False), dict(handle_chinese_chars=False), dict(pre_tokenizer="regex")],
)
@pytest.mark.parametrize("added", ["none", "plain", "lstrip", "normalized"])
def test_on_equals_off_at_chunk_edges(options, added):
    texts = [t * k for t in EDGES + LINES for k in (1, 2)]
    on = fast_wordpiece.PyTokenizer.train(LINES * 20 + EDGES, 150, 2, show_progress=False, **options)
    if added != "none":
        flags = dict(lstrip=True, rstrip=True) if added == "lstrip" else {}
        if added == "normalized":
            flags["normalized"] = True
        on.add_tokens([fast_wordpiece.AddedToken("<x>", **flags), fast_wordpiece.AddedToken("hug!", **flags)])
    off = fast_wordpiece.PyTokenizer.from_json(on.to_json())
    on.word_cache, off.word_cache = True, False
    for _ in range(2):
        assert dicts(on.encode_batch(texts, num_threads=2)) == dicts(off.encode_batch(texts))
        pairs = list(zip(texts, texts[::-1]))
        assert dicts(on.encode_batch(pairs)) == dicts(off.encode_batch(pairs))
        words = [t.split(" ") for t in texts]
        got = on(words, is_split_into_words=True, return_offsets_mapping=True)
        assert dict(got) == dict(off(words, is_split_into_words=True, return_offsets_mapping=True))
        assert [got.word_ids(i) for i in range(len(words))] == [
            off(w, is_split_into_words=True).word_ids() for w in words
        ]


def test_the_setting_survives_add_tokens(pair):
    on, _ = pair
    tok = fast_wordpiece.PyTokenizer.from_str(on.to_str())
    tok.word_cache = True
    tok.encode_batch(TEXTS[:100])
    tok.add_tokens(["<x>"])
    assert tok.word_cache is True
    plain = fast_wordpiece.PyTokenizer.from_str(on.to_str())
    plain.word_cache = False
    plain.add_tokens(["<x>"])
    assert dicts(tok.encode_batch(TEXTS[:100])) == dicts(plain.encode_batch(TEXTS[:100]))


@pytest.mark.skipif(sys.platform == "win32", reason="needs os.fork")
def test_a_forked_child_reads_the_parents_cache_exactly(pair):
    on, off = pair
    expected = dicts(off.encode_batch(TEXTS, num_threads=2))
    on.encode_batch(TEXTS, num_threads=2)  # the parent fills the cache (and starts its pool)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            ok = dicts(on.encode_batch(TEXTS, num_threads=2)) == expected
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.waitpid(pid, 0)
    assert answer == b"1"


def test_on_equals_hf(bert_vocab_file, shakespeare_lines, multilingual_lines):
    tokenizers = pytest.importorskip("tokenizers")
    hf = tokenizers.BertWordPieceTokenizer(str(bert_vocab_file))
    ours = fast_wordpiece.PyTokenizer.from_vocab_file(str(bert_vocab_file))
    ours.word_cache = True
    texts = shakespeare_lines[:3000] + multilingual_lines[:3000]
    expected = [(e.ids, e.offsets) for e in hf.encode_batch(texts)]
    for _ in range(2):
        assert [(e.ids, e.offsets) for e in ours.encode_batch(texts, num_threads=2)] == expected


@pytest.mark.parametrize("first", ["ids", "columns"])
@pytest.mark.parametrize("added", ["none", "plain", "normalized"])
def test_ids_only_equals_every_column_whichever_fills_the_cache_first(first, added):
    # return_tensors="np" with no other column asked keeps only ids; a chunk
    # it misses is cached with every column, so the other mode reads it back.
    texts = [t * k for t in EDGES + LINES for k in (1, 2)] + TEXTS[:300]
    on = fast_wordpiece.PyTokenizer.train(LINES * 20 + EDGES, 150, 2, show_progress=False)
    if added != "none":
        flags = {"normalized": True} if added == "normalized" else {}
        on.add_tokens([fast_wordpiece.AddedToken("<x>", **flags), fast_wordpiece.AddedToken("hug!", **flags)])
    off = fast_wordpiece.PyTokenizer.from_json(on.to_json())
    on.word_cache, off.word_cache = True, False
    expected = dicts(off.encode_batch(texts))
    ids = [e["ids"] for e in expected]
    modes = ["ids", "columns"] if first == "ids" else ["columns", "ids"]
    for mode in modes * 2:
        for tok in (on, off):
            if mode == "ids":
                assert tok.encode_batch(texts, return_tensors="np").tolist() == ids
                batch = tok.encode_batch(list(zip(texts, texts[::-1])), return_tensors="np", num_threads=2)
                assert batch.tolist() == [e.ids for e in off.encode_batch(list(zip(texts, texts[::-1])))]
            else:
                assert dicts(tok.encode_batch(texts)) == expected
                columns = tok.encode_batch(texts, return_tensors="np", return_offsets=True)
                assert columns.tolist() == ids
                assert columns.offsets.tolist() == [list(o) for e in expected for o in e["offsets"]]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("add_special_tokens", [True, False])
def test_ids_rows_written_in_place_equal_the_encodings(pair, threads, add_special_tokens):
    # return_tensors="np" with ids only writes each row's ids right after
    # the previous row's: empty rows, short lines and long texts, in chunks
    # on each thread, read from the cache and missed.
    on, off = pair
    texts = ["", "a", " ", *LINES, "", *TEXTS[:400], "\t\n", *EDGES]
    pairs = list(zip(texts, texts[::-1]))
    for batch in (texts, pairs):
        expected = [e.ids for e in off.encode_batch(batch, add_special_tokens)]
        for tok in (on, off, on):
            ragged = tok.encode_batch(batch, add_special_tokens, return_tensors="np", num_threads=threads)
            assert ragged.tolist() == expected
            assert ragged.row_offsets.tolist() == [sum(map(len, expected[:i])) for i in range(len(batch) + 1)]
