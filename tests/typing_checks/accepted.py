"""Calls with numpy integers where the engine takes an integer: they type-check (mypy --strict,
tests/test_typing.py) and they run, so the stubs promise nothing the engine refuses."""

from __future__ import annotations

import numpy as np
from typing_extensions import assert_type

import fast_wordpiece as fw

TEXTS = ["hello world the quick brown fox", "hello there world"] * 5
i64 = np.int64


def calls() -> list[object]:
    """Every kind of integer argument, given as a numpy integer (or a 0-d array), once."""
    tok = fw.PyTokenizer.train(TEXTS, i64(60), np.int32(1), limit_alphabet=np.uint8(30), show_progress=False)
    ids = tok.encode("hello world").ids
    out: list[object] = [
        tok.encode("hello world there", max_length=i64(5), stride=np.uint8(1), padding="longest"),
        tok.encode_batch(["hello", "world"], max_length=i64(4), num_threads=i64(2)),
        tok.encode("hello", padding="longest", pad_to_multiple_of=i64(8)),
        tok("hello world", max_length=np.array(3), truncation=True, stride=i64(0)),
        tok(["hello"], padding=True, pad_to_multiple_of=i64(4)),
        tok.pad({"input_ids": [[1, 2]]}, padding="max_length", max_length=i64(4), pad_to_multiple_of=i64(2)),
        tok.decode(i64(ids[1])),
        tok.decode([i64(i) for i in ids]),
        tok.decode(np.array(ids)),
        tok.decode([[i64(i) for i in ids], ids]),
        tok.decode_batch([[i64(ids[1])], [np.int32(i) for i in ids]]),
        tok.batch_decode([[i64(ids[1])], i64(ids[1])]),
        tok.batch_decode(np.array([ids, ids])),
        # An array's decode is a str or a list of str (its shape tells which), not a str alone.
        assert_type(tok.decode(np.array([ids, ids], dtype=np.int64)), "str | list[str]"),
        assert_type(tok.decode([i64(i) for i in ids]), str),
        tok.convert_ids_to_tokens(i64(ids[1])),
        tok.convert_ids_to_tokens([i64(i) for i in ids]),
        tok.convert_ids_to_tokens(range(3)),
        tok.id_to_token(i64(ids[1])),
        tok.get_special_tokens_mask([i64(i) for i in ids], [np.int32(ids[1])]),
        fw.PyTokenizer(["[UNK]", "a"], max_input_chars_per_word=i64(3)).tokenize("aaaa"),
        fw.PyTokenizer.train_from_counts({"hello": i64(2), "world": 3}, np.uint16(60), show_progress=False),
    ]
    tok.model_max_length = i64(512)

    counts = fw.WordCounts({"hello": i64(2)}) + fw.WordCounts([("world", np.int32(3))])
    counts.prune(i64(1), max_words=i64(10))
    out += [counts.most_common(i64(1)), counts.split(i64(2))]

    plain: dict[str, int] = {"[UNK]": 0, "a": 1}  # a dict of ints is still taken
    numpy_ids = {"[UNK]": i64(0), "a": i64(1)}
    chars = fw.CharTokenizer.train(TEXTS, i64(20), i64(1), special_tokens=["[UNK]", "<pad>"])
    bpe = fw.BPETokenizer.train(TEXTS, i64(270), i64(2), special_tokens=["<pad>"])
    unigram = fw.UnigramTokenizer.train(
        TEXTS, i64(30), special_tokens=["<unk>", "<pad>"], max_piece_length=i64(4), seed_size=i64(200)
    )
    out += [fw.CharTokenizer(plain), fw.CharTokenizer(numpy_ids), fw.BPETokenizer(numpy_ids, [])]
    out += [
        fw.BPETokenizer.train_from_counts({"ab": i64(2)}, i64(260)),
        fw.CharTokenizer.train_from_counts([("a", i64(2))]),
    ]
    out.append(fw.UnigramTokenizer.train_from_counts({"ab ba": i64(2)}, i64(8), num_sub_iterations=i64(1)))
    for family in (chars, bpe, unigram):
        out += [
            family.encode_batch(["hello"], num_threads=i64(2)),
            family.decode([i64(1), 2]),
            family.decode(np.array([1, 2])),
            assert_type(family.decode(np.array([[1, 2]], dtype=np.int64)), "str | list[str]"),
            family.id_to_token(i64(1)),
            family.convert_ids_to_tokens(i64(1)),
            family.convert_ids_to_tokens([i64(1), np.array(2)]),
            family.convert_ids_to_tokens(range(1, 3)),
            family.convert_tokens_to_ids(token for token in ["hello", "<pad>"]),
            family(["hello world", "hi"], max_length=i64(4), truncation=True, padding=True, pad_to_multiple_of=i64(4)),
            family.pad({"input_ids": [[1, 2], [3]]}, padding="max_length", max_length=i64(4)),
            family.decode([i64(1), 2], clean_up_tokenization_spaces=True),
            # a batch, as transformers 5's decode takes one
            family.decode([[i64(1), 2], (3,)]),
            # the options the family lacks, at the values that ask for nothing
            family(
                "hello",
                stride=0,
                is_split_into_words=False,
                return_overflowing_tokens=False,
                text_target=None,
                text_pair_target=None,
                split_special_tokens=None,
                max_target_length=None,
            ),
        ]
    for pair in (chars, bpe):
        out.append(pair.decode_batch([[i64(1)], np.array([2, 3])]))
    out.append(unigram.encode("hello world", alpha=0.5, nbest=i64(2), seed=np.uint64(3)))
    return out
