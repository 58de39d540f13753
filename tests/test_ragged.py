"""encode_batch(return_tensors="np") without padding: a RaggedBatch of flat
int64 columns. Whatever the threads, the chunks and the columns asked for,
every row is the list encode_batch gives, for texts and for pairs, in the
engine and in the twin; and against Hugging Face on real text."""

from __future__ import annotations

import pytest
from implementations import IMPLEMENTATIONS, tokenizer_class

np = pytest.importorskip("numpy")

import fast_wordpiece  # noqa: E402
from fast_wordpiece import RaggedBatch  # noqa: E402

LINES = [
    "The quick brown fox jumps over the lazy dog.",
    "Hugging, hugs and puns: the pug hugged the bun!",
    "Café déjà vu — naïve coöperation; ÜBER straße.",
    "中文字符 与 English mixed, да и русский тоже.",
    "",
]
# About 400 KB: many chunks on any number of threads; empty texts among them.
TEXTS = [" ".join(LINES[(i + k) % 5] for k in range(i % 9 + 1)) for i in range(2500)]
PAIRS = [(TEXTS[i], TEXTS[-1 - i]) for i in range(0, 2500, 3)]
ALL = dict(return_offsets=True, return_token_type_ids=True, return_special_tokens_mask=True)


@pytest.fixture(scope="module", params=list(IMPLEMENTATIONS))
def tok(request):
    return tokenizer_class(request.param).train(LINES * 20, 150, 2, show_progress=False)


def rows(batch: RaggedBatch, field: str) -> list[list]:
    return [batch.row(field, i).tolist() for i in range(len(batch))]


def check(batch: RaggedBatch, encodings: list, columns: bool) -> None:
    assert isinstance(batch, RaggedBatch)
    assert len(batch) == len(encodings)
    assert batch.input_ids.dtype == np.int64
    assert batch.row_offsets.dtype == np.int64
    assert batch.row_offsets[0] == 0
    assert batch.row_offsets[-1] == len(batch.input_ids)
    assert batch.tolist() == [e.ids for e in encodings]
    assert [row.tolist() for row in batch] == [e.ids for e in encodings]
    assert batch.lengths.tolist() == [len(e.ids) for e in encodings]
    if columns:
        assert batch.offsets.shape == (len(batch.input_ids), 2)
        assert rows(batch, "offsets") == [[list(o) for o in e.offsets] for e in encodings]
        assert rows(batch, "token_type_ids") == [e.type_ids for e in encodings]
        assert rows(batch, "special_tokens_mask") == [e.special_tokens_mask for e in encodings]
    else:
        assert batch.offsets is None
        assert batch.token_type_ids is None
        assert batch.special_tokens_mask is None


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("columns", [False, True])
def test_rows_are_the_lists_encode_batch_gives(tok, threads, columns):
    texts = TEXTS if isinstance(tok, fast_wordpiece.PyTokenizer) else TEXTS[:300]
    extra = ALL if columns else {}
    batch = tok.encode_batch(texts, return_tensors="np", num_threads=threads, **extra)
    check(batch, tok.encode_batch(texts), columns)


@pytest.mark.parametrize("options", [{}, {"add_special_tokens": False}, {"max_length": 9, "stride": 2}])
def test_pairs_and_options(tok, options):
    pairs = PAIRS if isinstance(tok, fast_wordpiece.PyTokenizer) else PAIRS[:100]
    batch = tok.encode_batch(pairs, return_tensors="np", num_threads=2, **ALL, **options)
    check(batch, tok.encode_batch(pairs, **options), True)
    assert set(batch.token_type_ids.tolist()) == {0, 1}


def test_engine_and_twin_agree():
    engine, twin = (tokenizer_class(n).train(LINES * 20, 150, 2, show_progress=False) for n in IMPLEMENTATIONS)
    for inputs in (TEXTS[:200], PAIRS[:100], []):
        a, b = (t.encode_batch(inputs, return_tensors="np", **ALL) for t in (engine, twin))
        for field in ("input_ids", "row_offsets", "token_type_ids", "offsets", "special_tokens_mask"):
            assert np.array_equal(getattr(a, field), getattr(b, field)), field


def test_an_empty_batch_has_one_row_offset(tok):
    batch = tok.encode_batch([], return_tensors="np", **ALL)
    assert len(batch) == 0
    assert batch.row_offsets.tolist() == [0]
    assert batch.offsets.shape == (0, 2)
    assert batch.tolist() == []


def test_padding_still_gives_the_padded_dict(tok):
    padded = tok.encode_batch(TEXTS[:50], return_tensors="np", padding="longest")
    assert isinstance(padded, dict)
    assert padded["input_ids"].shape[0] == 50


def test_rows_are_indexed_like_a_list(tok):
    batch = tok.encode_batch(TEXTS[:10], return_tensors="np", return_offsets=True)
    assert batch[-1].tolist() == batch.tolist()[-1]
    with pytest.raises(IndexError, match="out of range"):
        batch[10]
    with pytest.raises(TypeError, match="int"):
        batch["input_ids"]
    with pytest.raises(ValueError, match="return_token_type_ids"):
        batch.row("token_type_ids", 0)
    assert "10 rows" in repr(batch)
    # what operator.index takes, as every integer argument (numpy.argmax gives an int64); not a bool
    longest = np.argmax(batch.lengths)
    assert batch[longest].tolist() == batch.tolist()[int(longest)]
    assert batch.row("offsets", np.int64(-1)).tolist() == batch.row("offsets", 9).tolist()
    for bad in (True, np.bool_(False), 1.0, "0"):
        with pytest.raises(TypeError, match=rf"^rows are indexed by int, not {type(bad).__name__}$"):
            batch[bad]
    with pytest.raises(IndexError, match=r"^row -11 is out of range for 10 rows$"):
        batch.row("input_ids", np.int64(-11))


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"return_offsets": True}, ValueError),
        ({"return_offsets": True, "padding": "longest"}, ValueError),
        ({"return_offsets": 1, "return_tensors": "np"}, TypeError),
        ({"return_offsets": 1, "return_tensors": "np", "padding": "longest"}, TypeError),
    ],
)
def test_column_flags_need_numpy_output(tok, kwargs, error):
    with pytest.raises(error, match="return_offsets"):
        tok.encode_batch(TEXTS[:3], **kwargs)


@pytest.mark.parametrize("default_padding", [False, True])
def test_padded_arrays_hold_the_special_tokens_mask_on_request(tok, default_padding):
    """Padding in the call or the tokenizer's own: the flags are accepted, and
    the mask asked for is there, each row the padded Encoding's."""
    tok = tok.from_str(tok.to_str())
    texts = [LINES[0], (LINES[1], LINES[2]), ""]
    call = {}
    if default_padding:
        tok.enable_padding(length=48)
    else:
        call = {"padding": "max_length", "max_length": 48}
    encodings = tok.encode_batch(texts, **call)
    arrays = tok.encode_batch(texts, return_tensors="np", **call, **ALL)
    assert sorted(arrays) == ["attention_mask", "input_ids", "offsets", "special_tokens_mask", "token_type_ids"]
    assert arrays["special_tokens_mask"].dtype == np.int64
    assert arrays["special_tokens_mask"].tolist() == [e.special_tokens_mask for e in encodings]
    assert arrays["input_ids"].tolist() == [e.ids for e in encodings]
    assert arrays["offsets"].tolist() == [[list(o) for o in e.offsets] for e in encodings]
    # Not asked for: not there.
    assert "special_tokens_mask" not in tok.encode_batch(texts, return_tensors="np", **call)


def test_ragged_ids_equal_hf(bert_vocab_file, shakespeare_lines, multilingual_lines):
    tokenizers = pytest.importorskip("tokenizers")
    hf = tokenizers.BertWordPieceTokenizer(str(bert_vocab_file))
    ours = fast_wordpiece.PyTokenizer.from_vocab_file(str(bert_vocab_file))
    texts = shakespeare_lines[:3000] + multilingual_lines[:3000]
    expected = hf.encode_batch(texts)
    batch = ours.encode_batch(texts, return_tensors="np", return_offsets=True, num_threads=2)
    assert batch.tolist() == [e.ids for e in expected]
    assert rows(batch, "offsets") == [[list(o) for o in e.offsets] for e in expected]
