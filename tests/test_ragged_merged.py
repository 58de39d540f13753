"""encode_batch(return_tensors="np") for the ids alone: the chunks' ids are
merged, in order, into one int64 vector that the array takes over. Whatever
the threads, the rows are the lists encode_batch gives, also for text with a
token per byte (more tokens than the room reserved ahead), and every call's
arrays are its own."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

import fast_wordpiece  # noqa: E402

LINES = ["The quick brown fox.", "naïve café, 中文字符!", "", "[CLS] a [SEP] b [MASK]"]
# A token per byte: punctuation and digits, split one by one.
DENSE = ["!?.,;:" * (i % 50 + 1) + " 1 2 3 4" * (i % 7) for i in range(3000)]
MIXED = [" ".join(LINES[(i + k) % 4] for k in range(i % 6 + 1)) for i in range(3000)]


@pytest.fixture(scope="module")
def tok():
    return fast_wordpiece.PyTokenizer.train(LINES * 20 + DENSE[:50], 200, 2, show_progress=False)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("texts", [DENSE, MIXED, MIXED[:1], ["", ""]], ids=["dense", "mixed", "one", "empty"])
def test_merged_rows_are_the_lists(tok, threads, texts):
    batch = tok.encode_batch(texts, return_tensors="np", num_threads=threads)
    expected = [e.ids for e in tok.encode_batch(texts)]
    assert batch.tolist() == expected
    assert batch.input_ids.dtype == np.int64
    assert batch.row_offsets.dtype == np.int64
    assert batch.row_offsets.tolist() == [0, *np.cumsum([len(ids) for ids in expected]).tolist()]
    assert batch.token_type_ids is None
    assert batch.offsets is None
    assert batch.special_tokens_mask is None


def test_dense_text_needs_more_room_than_reserved(tok):
    # More tokens than half the bytes: the merged vector grows past its room.
    batch = tok.encode_batch(DENSE, return_tensors="np", add_special_tokens=False)
    assert len(batch.input_ids) > sum(len(t) for t in DENSE) // 2


def test_each_call_owns_its_arrays(tok):
    first = tok.encode_batch(MIXED, return_tensors="np")
    second = tok.encode_batch(MIXED, return_tensors="np")
    assert first.input_ids.flags.writeable
    assert first.input_ids.flags.c_contiguous
    assert not np.shares_memory(first.input_ids, second.input_ids)
    kept = second.input_ids.copy()
    first.input_ids[:] = -1
    del first
    assert (second.input_ids == kept).all()
