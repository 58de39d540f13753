"""More of transformers' tokenizer surface, compared with transformers 5's BERT tokenizer built
from the same bert-base-uncased files, for the engine and the twin: ``decode`` of what ``encode``
returns (an ``Encoding``, iterable over its keys), ``batch_decode`` of one sequence, the added
vocabulary and the other attributes training code reads (``special_tokens_map``,
``added_tokens_decoder``, ``vocab``, ``name_or_path``, ``max_len_single_sentence``,
``save_vocabulary``), ``BatchEncoding.data`` and ``.copy()``, ``text_target`` (``labels``) and
per-call ``split_special_tokens``.
"""

from __future__ import annotations

import errno
import json
import os
import pickle
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")
transformers = pytest.importorskip("transformers")

from implementations import tokenizer_class  # noqa: E402

TEXTS = ["Hello world, it's a test.", "The quick brown fox jumps over the lazy dog!", "naïve café", ""]


def _hf(directory: str, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return transformers.BertTokenizerFast.from_pretrained(directory, **kwargs)


@pytest.fixture(scope="module")
def hf(bert_vocab_file) -> Any:
    """transformers' BERT tokenizer from bert-base-uncased's files (not changed by the tests)."""
    return _hf(str(bert_vocab_file.parent))


@pytest.fixture(params=["engine", "twin"])
def implementation(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def ours(implementation, bert_vocab_file) -> Any:
    """A fresh tokenizer of ours from the same vocab.txt (tests may add tokens to it)."""
    return tokenizer_class(implementation).from_vocab_file(str(bert_vocab_file))


def plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.name, value.tolist())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def same_fields(ours_out: Any, theirs: Any) -> None:
    """The same keys in the same order, and the same values (arrays: the same dtype too)."""
    assert list(ours_out) == list(theirs)
    for key in theirs:
        assert plain(ours_out[key]) == plain(theirs[key]), key


def added_token_fields(token: Any) -> tuple[Any, ...]:
    return (str(token.content), token.single_word, token.lstrip, token.rstrip, token.normalized, token.special)


# ----------------------------------------------------------------------------- Encoding and decode


class Index:
    """An integer only through ``__index__``, as ``operator.index`` takes it."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_ids_that_are_integers_through_index_are_taken_as_transformers(hf, ours):
    """An id may be anything ``operator.index`` turns into an int, as in transformers."""
    ids = [101, 7592, 2088, 102]
    wrapped = [Index(i) for i in ids]
    assert ours.decode(wrapped) == hf.decode(wrapped) == hf.decode(ids)
    assert ours.decode(Index(7592)) == "hello"  # transformers 5 refuses a lone one (not a Sequence)
    assert ours.convert_ids_to_tokens(Index(7592)) == "hello"  # transformers 5 tries to iterate it
    assert ours.convert_ids_to_tokens(wrapped) == hf.convert_ids_to_tokens(wrapped)
    assert ours.batch_decode([wrapped]) == hf.batch_decode([wrapped])
    assert ours.get_special_tokens_mask(wrapped, already_has_special_tokens=True) == [1, 0, 0, 1]
    with pytest.raises(ValueError, match=r"^token_ids\[0\] = 40000 is out of range"):
        ours.decode([Index(40000)])


def test_decode_takes_what_encode_returns(hf, ours):
    """``tok.decode(tok.encode(text))`` is transformers' round trip: an Encoding is decoded as its
    ids, alone, in a batch or in a list given to decode, batch_decode or decode_batch."""
    encodings = [ours.encode(text) for text in TEXTS]
    ids = [hf.encode(text) for text in TEXTS]
    assert [e.ids for e in encodings] == ids
    for e, i in zip(encodings, ids):
        for skip in (False, True):
            assert ours.decode(e, skip_special_tokens=skip) == hf.decode(i, skip_special_tokens=skip)
    assert ours.batch_decode(encodings) == hf.batch_decode(ids)
    assert ours.decode(encodings) == hf.decode(ids)
    assert ours.decode_batch(encodings, True) == hf.batch_decode(ids, skip_special_tokens=True)
    assert ours.batch_decode(ours.encode_batch(TEXTS)) == hf.batch_decode(ids)
    pair = ours.encode("a question", "its context")
    assert ours.decode(pair) == hf.decode(hf("a question", "its context")["input_ids"])


def test_an_id_among_sequences_is_decoded_alone_by_decode_and_batch_decode_as_transformers(hf, ours):
    """transformers' ``decode`` of a batch and ``batch_decode`` decode an id among the sequences
    alone; ``decode_batch`` (Hugging Face ``tokenizers``' name) refuses it, as ``tokenizers`` does."""
    hello, world = hf.convert_tokens_to_ids(["hello", "world"])
    for batch in ([[hello], world], ([hello, world], np.int64(world)), [[hello], [world, hello], world]):
        assert ours.decode(batch) == hf.decode(batch)
        assert ours.batch_decode(batch) == hf.batch_decode(batch)
        with pytest.raises(TypeError, match=r"^sequences\[\d\] must be a sequence of int, not int"):
            ours.decode_batch(batch)
    with pytest.raises(TypeError):
        hf.backend_tokenizer.decode_batch([hello, world])
    with pytest.raises(TypeError, match=r"^sequences\[0\] must be a sequence of int, not int \(decode one"):
        ours.decode_batch([hello, world])


def test_an_encoding_from_a_larger_vocabulary_is_refused_naming_the_id(implementation, bert_vocab_file):
    big = tokenizer_class(implementation).from_vocab_file(str(bert_vocab_file))
    big.add_tokens(["zzzqqq"])
    small = tokenizer_class(implementation).from_vocab_file(str(bert_vocab_file))
    with pytest.raises(
        ValueError, match=f"^token_ids: id {len(small)} is out of range for a vocabulary of {len(small)}"
    ):
        small.decode(big.encode("zzzqqq"))


def test_an_encoding_iterates_over_its_keys_as_a_mapping(ours):
    """Iterating gives the field names, as ``keys()`` and ``dict(encoding)``; ``len`` stays the
    number of tokens (as in Hugging Face ``tokenizers``)."""
    e = ours.encode("hello world")
    assert list(e) == e.keys() == list(dict(e)) == ["ids", "tokens", "offsets", "attention_mask",
                                                    "special_tokens_mask", "type_ids"]  # fmt: skip
    assert [key for key in e] == list(e)  # noqa: C416  (the for-loop protocol itself)
    assert all(key in e for key in e)
    assert {key: e[key] for key in e} == e.to_dict()
    assert len(e) == len(e.ids) == 4


# ----------------------------------------------------------------------------- batch_decode


def test_batch_decode_of_one_sequence_decodes_it_as_one_text_as_transformers_5(hf, ours):
    """transformers 5 decodes a flat list of ids given to batch_decode as one sequence (with a
    deprecation message); so do we, with a FutureWarning. A batch, an empty list and a 2-D array
    are as before."""
    ids = hf.encode("hello world, again")
    for one in (ids, tuple(ids), np.array(ids), np.array(ids, dtype=np.int32)):
        with pytest.warns(FutureWarning, match="batch_decode was given one sequence of ids"):
            got = ours.batch_decode(one)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert got == hf.batch_decode(one) == [hf.decode(ids)]
    with pytest.warns(FutureWarning, match="one sequence"):
        assert ours.batch_decode(ours.encode("hello world, again")) == [hf.decode(ids)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ours.batch_decode([ids, ids[:2]]) == hf.batch_decode([ids, ids[:2]])
        assert ours.batch_decode(np.array([ids[:3], ids[1:4]])) == hf.batch_decode(np.array([ids[:3], ids[1:4]]))
        assert ours.batch_decode([]) == hf.batch_decode([]) == []
        assert ours.decode_batch([[101], [102]]) == ["[CLS]", "[SEP]"]
    with pytest.raises(TypeError, match=r"^sequences must be an iterable"):
        ours.batch_decode(5)


# ----------------------------------------------------------------------------- attributes


def test_added_vocabulary_and_special_tokens_map_match_transformers(bert_vocab_file, ours):
    """special_tokens_map, get_added_vocab, added_tokens_encoder and added_tokens_decoder (with
    our AddedToken, its flags as transformers' AddedToken's), before and after adding tokens."""
    from fast_wordpiece import AddedToken

    hf = _hf(str(bert_vocab_file.parent))
    for step in range(3):
        if step == 1:
            for tok, kind in ((hf, transformers.AddedToken), (ours, AddedToken)):
                assert tok.add_tokens(["covidx", kind("<x>", lstrip=True, single_word=True)]) == 2
        if step == 2:
            for tok in (hf, ours):
                tok.add_special_tokens({"bos_token": "<s>"})
                tok.add_special_tokens({"additional_special_tokens": ["<sp>"]})
        assert ours.special_tokens_map == hf.special_tokens_map, step
        assert list(ours.special_tokens_map) == list(hf.special_tokens_map)
        assert ours.get_added_vocab() == hf.get_added_vocab(), step
        assert list(ours.get_added_vocab().items()) == list(hf.get_added_vocab().items())
        assert ours.added_tokens_encoder == hf.added_tokens_encoder
        decoder = ours.added_tokens_decoder
        assert all(isinstance(t, AddedToken) for t in decoder.values())
        theirs = {i: added_token_fields(t) for i, t in hf.added_tokens_decoder.items()}
        assert {i: added_token_fields(t) for i, t in decoder.items()} == theirs, step
        assert list(decoder) == list(hf.added_tokens_decoder)
    assert ours.special_tokens_map["bos_token"] == "<s>"
    ours.added_tokens_decoder[0].content = "changed"  # a new dict of new tokens each time
    assert ours.added_tokens_decoder[0].content == "[PAD]"


@pytest.mark.parametrize(
    "model", ["baai-bge-small-en", "bert-base-chinese", "bert-base-multilingual-cased", "issue-100"]
)
def test_attributes_of_real_model_directories_match_transformers(hf_tokenizers_dir, implementation, model):
    """On real Hugging Face files (one with added tokens of every kind of flag), loaded by
    from_pretrained: the added vocabulary, special_tokens_map, vocab, the maximum lengths and
    name_or_path are transformers' BertTokenizerFast's."""
    directory = str(hf_tokenizers_dir / model)
    theirs = _hf(directory)
    ours = tokenizer_class(implementation).from_pretrained(directory)
    assert ours.special_tokens_map == theirs.special_tokens_map
    assert list(ours.get_added_vocab().items()) == list(theirs.get_added_vocab().items())
    assert {i: added_token_fields(t) for i, t in ours.added_tokens_decoder.items()} == {
        i: added_token_fields(t) for i, t in theirs.added_tokens_decoder.items()
    }
    assert ours.vocab == theirs.vocab
    assert (ours.max_len_single_sentence, ours.max_len_sentences_pair) == (
        theirs.max_len_single_sentence,
        theirs.max_len_sentences_pair,
    )
    assert ours.name_or_path == theirs.name_or_path == directory
    # vocab_size counts the model's vocabulary, len() every token: the added ones too
    assert (len(ours), ours.vocab_size) == (len(theirs), theirs.vocab_size)
    assert ours.add_tokens(["zzqx", "[NEW]"]) == theirs.add_tokens(["zzqx", "[NEW]"]) == 2
    assert (len(ours), ours.vocab_size) == (len(theirs), theirs.vocab_size)


def test_ids_no_token_has_are_not_counted_as_in_transformers(implementation, bert_tokenizer_json, tmp_path):
    """A tokenizer.json whose ids skip a thousand numbers: ``len()`` and ``vocab_size`` count the
    tokens, as transformers' do, not one more than the largest id."""
    data = json.loads(bert_tokenizer_json.read_text(encoding="utf-8"))
    data["model"]["vocab"] = {t: i for t, i in data["model"]["vocab"].items() if not 1000 <= i < 2000}
    data["padding"] = data["truncation"] = None
    (tmp_path / "tokenizer.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "tokenizer_config.json").write_text('{"tokenizer_class": "BertTokenizer"}', encoding="utf-8")
    theirs = _hf(str(tmp_path))
    ours = tokenizer_class(implementation).from_pretrained(tmp_path)
    assert (len(ours), ours.vocab_size) == (len(theirs), theirs.vocab_size) == (29522, 29522)
    assert ours.get_vocab_size() == len(ours)


def test_vocab_and_maximum_lengths_match_transformers(hf, ours):
    assert ours.vocab == ours.get_vocab() == hf.vocab
    for limit in (None, 64):
        if limit is not None:
            ours.model_max_length = limit
        theirs = _hf(hf.name_or_path, **({} if limit is None else {"model_max_length": limit}))
        assert ours.max_len_single_sentence == theirs.max_len_single_sentence
        assert ours.max_len_sentences_pair == theirs.max_len_sentences_pair
        assert type(ours.max_len_single_sentence) is int
    assert (ours.max_len_single_sentence, ours.max_len_sentences_pair) == (62, 61)


def test_name_or_path_is_the_directory_from_pretrained_read(implementation, ours, tmp_path):
    assert ours.name_or_path == ""
    ours.save_pretrained(tmp_path / "model")
    loaded = tokenizer_class(implementation).from_pretrained(str(tmp_path / "model"))
    assert loaded.name_or_path == _hf(str(tmp_path / "model")).name_or_path == str(tmp_path / "model")
    assert pickle.loads(pickle.dumps(loaded)).name_or_path == str(tmp_path / "model")
    loaded.name_or_path = "my-model"
    assert loaded.name_or_path == "my-model"
    with pytest.raises(TypeError, match=r"^name_or_path must be a str, not int"):
        loaded.name_or_path = 3


def test_save_vocabulary_writes_vocab_txt_and_returns_its_path(bert_vocab_file, ours, implementation, tmp_path):
    """transformers' BERT tokenizer names the file vocab.txt (or prefix-vocab.txt) and returns a
    tuple of its path; the file holds the vocabulary, one token a line in id order, and reads back
    as the same tokenizer."""
    (path,) = ours.save_vocabulary(str(tmp_path))
    assert path == os.path.join(str(tmp_path), "vocab.txt")
    with open(path, encoding="utf-8") as written:
        assert written.read() == bert_vocab_file.read_text(encoding="utf-8")
    assert ours.save_vocabulary(tmp_path, "mine") == (os.path.join(str(tmp_path), "mine-vocab.txt"),)
    assert tokenizer_class(implementation).from_vocab_file(path).get_vocab() == ours.get_vocab()
    for missing in (tmp_path / "missing", ""):
        with pytest.raises(FileNotFoundError, match=r"^\[Errno 2\] save_directory does not exist: ") as raised:
            ours.save_vocabulary(missing)
        assert (raised.value.errno, raised.value.filename) == (errno.ENOENT, str(missing))
    with pytest.raises(NotADirectoryError, match=r"^\[Errno 20\] save_directory is not a directory: ") as raised:
        ours.save_vocabulary(path)
    assert (raised.value.errno, raised.value.filename) == (errno.ENOTDIR, path)
    with pytest.raises(TypeError, match=r"^filename_prefix must be a str or None, not int"):
        ours.save_vocabulary(tmp_path, 3)
    with pytest.raises(TypeError, match=r"^save_directory must be str, bytes or os\.PathLike, not int"):
        ours.save_vocabulary(3)


# ----------------------------------------------------------------------------- BatchEncoding


def test_batch_encoding_data_and_copy_as_transformers(hf, ours):
    ours_out, theirs = ours(TEXTS[:2]), hf(TEXTS[:2])
    assert dict(ours_out.data) == dict(theirs.data)
    ours_out.data["labels"] = [1, 2]
    assert ours_out["labels"] == [1, 2]  # data is the batch's own fields, as transformers' dict
    del ours_out["labels"]
    copy, their_copy = ours_out.copy(), theirs.copy()
    assert type(copy) is type(ours_out)
    assert type(their_copy) is type(theirs)
    assert copy.word_ids(1) == their_copy.word_ids(1) == ours_out.word_ids(1)
    assert copy.tokens(0) == their_copy.tokens(0)
    assert copy["input_ids"] is ours_out["input_ids"]  # shallow, as transformers'
    assert their_copy["input_ids"] is theirs["input_ids"]
    copy["extra"] = [0]
    assert "extra" not in ours_out
    assert copy.encodings is not None
    assert len(copy.encodings) == 2


# ----------------------------------------------------------------------------- text_target


TARGET_CALLS = [
    ((TEXTS[0],), {"text_target": TEXTS[1]}),
    ((), {"text_target": TEXTS[1]}),
    ((TEXTS[0], TEXTS[2]), {"text_target": TEXTS[1], "text_pair_target": TEXTS[2]}),
    ((TEXTS[:3],), {"text_target": TEXTS[1:4], "padding": True}),
    ((TEXTS[0],), {"text_target": TEXTS[1], "max_length": 5, "truncation": True, "max_target_length": 7}),
    ((TEXTS[0],), {"text_target": TEXTS[1], "max_length": 6}),
    ((TEXTS[:2],), {"text_target": TEXTS[2:4], "return_tensors": "np", "padding": "max_length", "max_length": 12}),
    (([["hello", "world"]],), {"text_target": [["a", "b", "c"]], "is_split_into_words": True}),
    ((), {"text": TEXTS[0], "text_target": TEXTS[1], "return_offsets_mapping": True}),
]


@pytest.mark.parametrize(("args", "kwargs"), TARGET_CALLS)
def test_text_target_gives_labels_as_transformers(hf, ours, args, kwargs):
    """The target is encoded with the call's arguments and its input_ids become labels; without
    text, the result is the target's encoding."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = hf(*args, **kwargs)
    got = ours(*args, **kwargs)
    same_fields(got, theirs)
    assert got.word_ids(0) == theirs.word_ids(0)


def test_a_call_needs_text_or_text_target(ours):
    with pytest.raises(ValueError, match="needs text or text_target"):
        ours()
    with pytest.raises(ValueError, match="needs text or text_target"):
        ours(text_pair="only a pair")


def test_texts_and_targets_of_different_batch_lengths_are_refused(hf, ours):
    """transformers accepts them, giving labels of another batch length than input_ids: a ValueError."""
    message = r"^batch length of text \(3\) does not match batch length of text_target \(1\)$"
    for padding in (False, True):
        with pytest.raises(ValueError, match=message):
            ours(TEXTS[:3], text_target=TEXTS[:1], padding=padding)
    words = [["hello", "world"], ["a"], ["b"]]
    with pytest.raises(ValueError, match=message):
        ours(words, text_target=[["c"]], is_split_into_words=True)
    # One text and a batch of one target, or one list of words and a batch of them, are not batches of two
    # lengths: transformers encodes both, and so do we.
    for args, kwargs in [
        ((TEXTS[0],), {"text_target": TEXTS[:1]}),
        ((["hello", "world"],), {"text_target": [["a", "b"], ["c"]], "is_split_into_words": True}),
    ]:
        same_fields(ours(*args, **kwargs), hf(*args, **kwargs))


def test_errors_about_targets_name_the_target_arguments(ours):
    """A mistake in text_target or text_pair_target is named as the caller passed it."""
    with pytest.raises(ValueError, match=r"^batch length of text_target \(2\) does not match batch length of "
                                         r"text_pair_target \(1\)$"):  # fmt: skip
        ours(["a", "b"], text_target=["x", "y"], text_pair_target=["p"])
    with pytest.raises(TypeError, match=r"^text_pair_target must be a str when text_target is a str, not int$"):
        ours("a", text_target="x", text_pair_target=3)
    with pytest.raises(ValueError, match=r"^text_target\[0\] contains a lone surrogate at index 1"):
        ours("a", text_target=["x\ud800"])
    with pytest.raises(TypeError, match=r"^with is_split_into_words, text_target\[1\] must be a list of words"):
        ours([["a"], ["b"]], text_target=[["x"], "y"], is_split_into_words=True)


def test_tokenizer_kwargs_replace_the_arguments_as_in_transformers(hf, ours):
    """transformers 5's call merges ``tokenizer_kwargs`` over the arguments given beside it (even those
    given by name); a key that is no argument of the call is refused, as the keyword itself would be."""
    for args, kwargs in [
        (("a b",), {"tokenizer_kwargs": {"padding": "max_length", "max_length": 6}}),
        ((TEXTS[:2],), {"padding": True, "tokenizer_kwargs": {"padding": False, "return_length": True}}),
        (
            (TEXTS[0], TEXTS[1]),
            {"truncation": False, "tokenizer_kwargs": {"truncation": "longest_first", "max_length": 9}},
        ),
        ((TEXTS[0],), {"tokenizer_kwargs": {}}),
    ]:
        same_fields(ours(*args, **kwargs), hf(*args, **kwargs))
    with pytest.raises(TypeError, match=r"^tokenizer_kwargs must be a dict, not list$"):
        ours("a b", tokenizer_kwargs=[("padding", True)])
    with pytest.raises(TypeError, match=r"^tokenizer_kwargs keys must be str, not int$"):
        ours("a b", tokenizer_kwargs={1: True})
    with pytest.raises(
        TypeError, match=r"^call\(\) got an unexpected keyword argument 'text_pair' in tokenizer_kwargs$"
    ):
        ours("a b", tokenizer_kwargs={"text_pair": "c"})
    with pytest.raises(TypeError, match=r"^call\(\) got an unexpected keyword argument 'retrun_length'$"):
        ours("a b", tokenizer_kwargs={"retrun_length": True})


def test_a_str_given_as_a_list_of_words_is_refused_as_in_transformers(hf, ours):
    """With is_split_into_words, a str where a list of words goes would be its characters as words:
    transformers raises TypeError, and so do we, naming the argument."""
    for args, name in [((["a", "b"], "hello"), "text_pair"), (([["a", "b"], "hello"],), r"text\[1\]"),
                       (([["a", "b"]], ["hello"]), r"text_pair\[0\]")]:  # fmt: skip
        with pytest.raises(TypeError):
            hf(*args, is_split_into_words=True)
        with pytest.raises(TypeError, match=rf"^with is_split_into_words, {name} must be a list of words, not str$"):
            ours(*args, is_split_into_words=True)


def test_tokenize_takes_an_empty_pair_as_none_as_transformers(hf, ours):
    for text, pair in [("hello world", ""), ("", ""), ("", "x"), ("hello", "world"), ("a", None)]:
        for add in (True, False):
            assert ours.tokenize(text, pair, add_special_tokens=add) == hf.tokenize(text, pair, add_special_tokens=add)
    assert ours.tokenize("hello world", "", add_special_tokens=True).count("[SEP]") == 1


# ----------------------------------------------------------------------------- split_special_tokens


def test_split_special_tokens_per_call_as_transformers(hf, ours, implementation, bert_vocab_file):
    """split_special_tokens=True makes special tokens written in the text plain text for that call
    only, in tokenizer(...) and tokenize(...); False matches them even on a tokenizer made with
    split_special_tokens=True."""
    text = "[CLS] hello [MASK] world [SEP]"
    for split in (True, False, None):
        kw = {} if split is None else {"split_special_tokens": split}
        same_fields(ours(text, **kw), hf(text, **kw))
        same_fields(ours([text, "[PAD]x"], return_offsets_mapping=True, **kw),
                    hf([text, "[PAD]x"], return_offsets_mapping=True, **kw))  # fmt: skip
        assert ours.tokenize(text, **kw) == hf.tokenize(text, **kw)
    assert ours.tokenize(text, split_special_tokens=True)[:4] == ["[", "cl", "##s", "]"]
    assert ours(text)["input_ids"][1] == ours.cls_token_id  # the next call matches them again
    splitting = tokenizer_class(implementation).from_vocab_file(str(bert_vocab_file), split_special_tokens=True)
    their_splitting = _hf(str(bert_vocab_file.parent), split_special_tokens=True)
    for split in (None, False):
        kw = {} if split is None else {"split_special_tokens": split}
        same_fields(splitting(text, **kw), their_splitting(text, **kw))
        assert splitting.tokenize(text, **kw) == their_splitting.tokenize(text, **kw)
    assert splitting.tokenize(text, split_special_tokens=False)[0] == "[CLS]"
    splitting.add_tokens(["zzzqqq"])  # a copy made for one call follows the tokens added since
    assert splitting.tokenize("[CLS] zzzqqq", split_special_tokens=False) == ["[CLS]", "zzzqqq"]
    for bad in ("yes", 1):
        with pytest.raises(TypeError, match="split_special_tokens must be a bool"):
            ours(text, split_special_tokens=bad)
        with pytest.raises(TypeError, match="split_special_tokens must be"):
            ours.tokenize(text, split_special_tokens=bad)


def test_the_split_special_tokens_attribute_as_transformers(hf, ours, bert_vocab_file):
    """Setting the attribute changes every later call and tokenize, as in transformers 5, where a call's
    split_special_tokens=None means the attribute; a call's own value still wins."""
    theirs = _hf(str(bert_vocab_file.parent))
    text = "[CLS] hello [MASK] world [SEP]"
    assert ours.split_special_tokens is theirs.split_special_tokens is False
    for value in (True, False, True):
        ours.split_special_tokens = theirs.split_special_tokens = value
        assert ours.split_special_tokens is value
        same_fields(ours(text), theirs(text))
        same_fields(ours([text, "[PAD]x"], return_offsets_mapping=True),
                    theirs([text, "[PAD]x"], return_offsets_mapping=True))  # fmt: skip
        assert ours.tokenize(text) == theirs.tokenize(text)
        assert ours.tokenize(text, split_special_tokens=not value) == theirs.tokenize(
            text, split_special_tokens=not value
        )
    assert ours.encode(text).tokens[1:4] == ["[", "cl", "##s"]  # the tokenizers-style encode too
    assert ours.options["split_special_tokens"] is True
    for bad in ("yes", 1, None):
        with pytest.raises(TypeError, match=r"^split_special_tokens must be bool, not "):
            ours.split_special_tokens = bad
    assert ours.split_special_tokens is True


def test_tokenize_neither_pads_nor_truncates_as_transformers(implementation, bert_tokenizer_json):
    """bert-base-uncased's tokenizer.json pads every encoding to 128: ``encode`` (tokenizers' method)
    does, ``tokenize`` (transformers') does not, in the engine and the twin alike."""
    ours = tokenizer_class(implementation).from_file(str(bert_tokenizer_json))
    theirs = transformers.PreTrainedTokenizerFast(tokenizer_file=str(bert_tokenizer_json))
    assert len(ours.encode("hello world").ids) == 128
    for text, pair in [("hello world", None), ("hello world", "x"), ("a " * 200, None)]:
        for add in (True, False):
            assert ours.tokenize(text, pair, add_special_tokens=add) == theirs.tokenize(
                text, pair, add_special_tokens=add
            )


def test_decode_takes_spaces_between_special_tokens_and_ignores_it(ours, hf):
    """transformers' slow tokenizers' option (serving code passes it); its fast tokenizers, as ours,
    decode the same either way."""
    ids = hf("hello [MASK] world")["input_ids"]
    for spaces in (True, False):
        kw = {"spaces_between_special_tokens": spaces}
        assert ours.decode(ids, **kw) == hf.decode(ids, **kw)
        assert ours.batch_decode([ids, ids], False, None, spaces) == hf.batch_decode(
            [ids, ids], spaces_between_special_tokens=spaces
        )
    assert ours.decode(ids, spaces_between_special_tokens=False) == ours.decode(ids)
    with pytest.raises(TypeError, match="spaces_between_special_tokens"):
        ours.decode(ids, spaces_between_special_tokens="no")


@pytest.mark.parametrize(("padding", "truncation"), [("left", "left"), ("left", None), (None, "left"), ("right", None)])
def test_a_files_directions_are_the_calls_sides_as_transformers(implementation, bert_tokenizer_json, tmp_path, padding,
                                                                truncation):  # fmt: skip
    """A tokenizer.json read with ``from_file`` (or ``from_str``) pads and truncates the call on the
    ``direction`` of its ``padding`` and ``truncation`` sections, else on the right, as transformers'
    ``PreTrainedTokenizerFast(tokenizer_file=...)``; ``encode_batch`` follows the sections alike."""
    import tokenizers

    backend = tokenizers.Tokenizer.from_file(str(bert_tokenizer_json))
    backend.no_padding()
    backend.no_truncation()
    if padding is not None:
        backend.enable_padding(direction=padding)
    if truncation is not None:
        backend.enable_truncation(6, direction=truncation)
    path = tmp_path / "tokenizer.json"
    backend.save(str(path))
    theirs = transformers.PreTrainedTokenizerFast(tokenizer_file=str(path))
    theirs.pad_token = "[PAD]"  # known to transformers from the padding section only
    for ours in [
        tokenizer_class(implementation).from_file(path),
        tokenizer_class(implementation).from_str(path.read_text()),
    ]:
        assert (ours.padding_side, ours.truncation_side) == (theirs.padding_side, theirs.truncation_side)
        texts = ["hello", "hello world how are you today my friend"]
        for kwargs in [{"padding": True}, {"padding": True, "truncation": True, "max_length": 5}]:
            assert ours(texts, **kwargs)["input_ids"] == theirs(texts, **kwargs)["input_ids"], kwargs
        assert [e.ids for e in ours.encode_batch(texts)] == [e.ids for e in backend.encode_batch(texts)]
