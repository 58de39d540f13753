"""``PyTokenizer.decode_batch`` takes sequences of ids only, as Hugging Face ``tokenizers``'
``decode_batch`` and the family's do: one id where a sequence goes is a TypeError saying to
decode one sequence with ``decode`` (so ``decode_batch([5, 6])`` is refused, not decoded as two
texts). transformers' methods keep transformers' behaviour: ``decode`` of a batch and
``batch_decode`` decode an id among the sequences alone. The engine and the twin alike."""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS, outcome, tokenizer_class

np = pytest.importorskip("numpy")

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "##s", "!", "it"]


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def tok(request: pytest.FixtureRequest) -> Any:
    return tokenizer_class(request.param)(VOCAB)


@pytest.mark.parametrize(
    ("sequences", "at", "type_name"),
    [
        ([5, 6], 0, "int"),
        ((5,), 0, "int"),
        ([[5], 6], 1, "int"),
        ([[5], np.int64(6)], 1, "int64"),
        ([[5], [], True], 2, "bool"),
        (np.array([4, 5]), 0, "int64"),
    ],
)
def test_decode_batch_refuses_one_id_where_a_sequence_goes(tok: Any, sequences: Any, at: int, type_name: str) -> None:
    assert outcome(lambda: tok.decode_batch(sequences)) == (
        "TypeError",
        f"sequences[{at}] must be a sequence of int, not {type_name} (decode one sequence with decode)",
    )


def test_decode_batch_decodes_each_sequence(tok: Any) -> None:
    encoding = tok.encode("hello world")
    assert tok.decode_batch([[4, 5], (5, 6), np.array([8]), [], encoding]) == [
        "hello world",
        "worlds",
        "it",
        "",
        "[CLS] hello world [SEP]",
    ]
    assert tok.decode_batch(np.array([[4, 5], [5, 7]])) == ["hello world", "world!"]
    assert tok.decode_batch([]) == []


@pytest.mark.parametrize("impl", sorted(IMPLEMENTATIONS))
def test_the_family_and_tokenizers_refuse_the_same_flat_list(impl: str) -> None:
    module = importlib.import_module(IMPLEMENTATIONS[impl])
    ours = module.PyTokenizer(VOCAB)
    chars = module.CharTokenizer.train(["hello world"], special_tokens=["[UNK]"])
    for sequences in ([1, 2], [[1], 2]):
        ours_says = outcome(lambda sequences=sequences: ours.decode_batch(sequences))
        assert ours_says == outcome(lambda sequences=sequences: chars.decode_batch(sequences))
    tokenizers = pytest.importorskip("tokenizers")
    backend = tokenizers.Tokenizer(tokenizers.models.WordLevel({"a": 0, "b": 1}, unk_token="a"))
    with pytest.raises(TypeError):
        backend.decode_batch([0, 1])


def test_transformers_methods_still_decode_an_id_among_the_sequences_alone(tok: Any) -> None:
    # As transformers 5's decode / batch_decode of [[5], 6]: ["world", "##s"] decoded one by one.
    assert tok.decode([[5], 6]) == [tok.decode([5]), tok.decode(6)] == ["world", "##s"]
    assert tok.decode(([4, 5], np.int64(7))) == ["hello world", "!"]
    assert tok.batch_decode([[5], 6]) == ["world", "##s"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert tok.batch_decode([4, 5]) == ["hello world"]  # one sequence, as transformers 5


@pytest.fixture(scope="module")
def bert_fast() -> Any:
    """transformers' BertTokenizerFast of the same vocabulary."""
    transformers = pytest.importorskip("transformers", reason="optional: transformers is not installed")
    return transformers.BertTokenizerFast(vocab={t: i for i, t in enumerate(VOCAB)})


@pytest.mark.parametrize(
    "ids",
    [
        # Arrays as transformers 5 reads them once it made them lists: a list of 1-D arrays is a
        # batch, a 2-D array with rows is a batch, one without rows is one empty sequence ("").
        pytest.param([np.array([4, 5]), np.array([8])], id="a list of 1-D arrays"),
        pytest.param((np.array([4]),), id="a tuple of one 1-D array"),
        pytest.param(np.array([[4, 5], [8, 7]]), id="a 2-D array"),
        pytest.param(np.zeros((0, 3), dtype=np.int64), id="a 2-D array without rows"),
        pytest.param(np.zeros((0,), dtype=np.int64), id="an empty 1-D array"),
        pytest.param([[]], id="one empty sequence in a batch"),
    ],
)
def test_decode_of_arrays_gives_what_transformers_gives(tok: Any, bert_fast: Any, ids: Any) -> None:
    expected = bert_fast.decode(ids)
    assert tok.decode(ids) == expected
    assert type(tok.decode(ids)) is type(expected)


@pytest.mark.parametrize("call", ["decode", "batch_decode"])
def test_an_array_inside_a_sequence_is_a_type_error_as_in_transformers(tok: Any, bert_fast: Any, call: str) -> None:
    # transformers: "'list' object cannot be interpreted as an integer"; never a list of lists.
    ids = [[np.array([4, 5]), 8]]
    with pytest.raises(TypeError):
        getattr(bert_fast, call)(ids)
    assert outcome(lambda: getattr(tok, call)(ids)) == ("TypeError", "sequences[0][0] must be int, not ndarray")
