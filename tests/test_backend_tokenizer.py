"""``backend_tokenizer`` and ``clean_up_tokenization``: transformers code that reaches through its
tokenizer to the Hugging Face ``tokenizers`` object, or cleans up a decoded text, works on ours the
same (spec section 11). Compared with ``BertTokenizerFast`` on bert-base-uncased, for the engine and
the twin alike.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS, outcome, tokenizer_class

transformers = pytest.importorskip("transformers")

CLEAN_UP_PIECES = [" .", " ?", " !", " ,", " ' ", " n't", " 'm", " do not", " 's", " 've", " 're", " ", "a", "'", "n"]


@pytest.fixture(scope="module")
def theirs(bert_vocab_file) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return transformers.BertTokenizerFast.from_pretrained(str(bert_vocab_file.parent))


@pytest.fixture(scope="module", params=sorted(IMPLEMENTATIONS))
def ours(request: pytest.FixtureRequest, bert_vocab_file) -> Any:
    return tokenizer_class(request.param).from_pretrained(bert_vocab_file.parent)


def test_backend_tokenizer_has_the_tokenizers_api_and_defaults(ours, theirs, multilingual_lines) -> None:
    """What transformers code reads of ``backend_tokenizer`` (the normalizer and pre-tokenizer
    stages, the vocabulary, encoding and decoding with ``tokenizers``' defaults and positional
    order) gives what Hugging Face's gives."""
    backend, their_backend = ours.backend_tokenizer, theirs.backend_tokenizer
    texts = ["Héllo, WORLD! Don't stop", "naïve café 北京 ... ok?", *multilingual_lines[:200]]
    for text in texts:
        assert backend.normalizer.normalize_str(text) == their_backend.normalizer.normalize_str(text)
        assert backend.pre_tokenizer.pre_tokenize_str(text) == their_backend.pre_tokenizer.pre_tokenize_str(text)
        mine, hers = backend.encode(text), their_backend.encode(text)
        assert (mine.ids, mine.offsets) == (hers.ids, hers.offsets)
        # decode drops the special tokens by default, as tokenizers' does (transformers' keeps them)
        assert backend.decode(mine.ids) == their_backend.decode(hers.ids)
        assert backend.decode(mine.ids, False) == their_backend.decode(hers.ids, False)
    words = ["Hello", "world"]
    mine, hers = backend.encode(words, None, True, False), their_backend.encode(words, None, True, False)
    assert (mine.ids, mine.offsets) == (hers.ids, hers.offsets)
    batch = [e.ids for e in backend.encode_batch(texts[:20])]
    assert batch == [e.ids for e in their_backend.encode_batch(texts[:20])]
    assert backend.decode_batch(batch) == their_backend.decode_batch(batch)
    assert backend.decode_batch(batch, False) == their_backend.decode_batch(batch, False)
    assert [e.ids for e in backend.encode_batch([words], True)] == [
        e.ids for e in their_backend.encode_batch([words], True)
    ]
    assert backend.get_vocab_size() == their_backend.get_vocab_size()
    assert backend.token_to_id("[MASK]") == their_backend.token_to_id("[MASK]")
    assert backend == ours.backend_tokenizer


def test_backend_tokenizer_changes_the_tokenizer(ours) -> None:
    """As transformers' ``backend_tokenizer`` is its tokenizer's: truncation set there applies to
    the call."""
    copy = type(ours).from_str(ours.to_str())
    copy.backend_tokenizer.enable_truncation(5)
    assert sum(copy.encode("a b c d e f g h").attention_mask) == 5  # the file also pads
    copy.backend_tokenizer.no_truncation()
    assert copy.truncation is None


def test_clean_up_tokenization_as_transformers(ours, theirs) -> None:
    """Every clean-up rule, alone and in random mixes of the pieces the rules match, overlapping
    ones too: transformers 5's rules, applied once each in its order."""
    rng = random.Random(7)
    texts = ["", "Hello , world . Is n't it ? I 'm sure you 've seen it 're not ' s !", "do not", " do not go"]
    texts += ["".join(rng.choices(CLEAN_UP_PIECES, k=rng.randrange(1, 20))) for _ in range(2000)]
    for text in texts:
        assert ours.clean_up_tokenization(text) == theirs.clean_up_tokenization(text), repr(text)


def test_clean_up_tokenization_is_what_decode_cleans_up(ours) -> None:
    ids = ours("Hello , world . Is n't it ? I 'm sure", add_special_tokens=False)["input_ids"]
    raw = ours.decode(ids, clean_up_tokenization_spaces=False)
    assert ours.clean_up_tokenization(raw) == ours.decode(ids, clean_up_tokenization_spaces=True) != raw


@pytest.mark.parametrize("text", [None, b"text", 3, ["a"]])
def test_clean_up_tokenization_wants_a_str(text: Any, bert_vocab_file) -> None:
    results = {
        name: outcome(lambda name=name: tokenizer_class(name).from_pretrained(bert_vocab_file.parent)
                      .clean_up_tokenization(text))
        for name in sorted(IMPLEMENTATIONS)
    }  # fmt: skip
    assert results["engine"] == results["twin"]
    kind, message = results["engine"]
    assert kind == "TypeError"
    assert message.startswith("text must be str, not ")


def test_clean_up_tokenization_refuses_a_lone_surrogate_alike(bert_vocab_file) -> None:
    results = {
        name: outcome(lambda name=name: tokenizer_class(name).from_pretrained(bert_vocab_file.parent)
                      .clean_up_tokenization("a \ud800 ."))
        for name in sorted(IMPLEMENTATIONS)
    }  # fmt: skip
    assert results["engine"] == results["twin"]
    assert results["engine"][0] == "ValueError"
    assert "lone surrogate at index 2" in results["engine"][1]
