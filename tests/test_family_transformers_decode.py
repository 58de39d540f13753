"""transformers 5's decoding conventions in the family (``BPETokenizer``, ``CharTokenizer``,
``UnigramTokenizer``), compared with transformers' ``PreTrainedTokenizerFast`` on the same
tokenizer.json (for ``CharTokenizer``, a tokenizers ``WordLevel`` tokenizer that splits every
character, its equivalent):

- ``decode`` takes a batch (a list or tuple of sequences, a 2-D numpy array) and gives a list
  of texts, as transformers' ``decode`` does; errors name the sequence (``token_ids[1][0]``);
- ``clean_up_tokenization_spaces`` is an attribute, False by default as transformers has it for
  a tokenizer.json, used by ``decode`` and ``batch_decode`` when the call does not say (not by
  tokenizers' ``decode_batch``), kept by pickling and copying, refused unless a bool;
- ``CharTokenizer``'s ``encode``, ``tokenize``, ``encode_batch`` and call take
  ``add_special_tokens``: it has no template, so either value gives what tokenizers and
  transformers give for the equivalent tokenizer.json (the special tokens in the text are still
  split out).

The twins behave as the engine, with the same messages."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

import fast_wordpiece as fw
from fast_wordpiece.reference import bpe as ref_bpe
from fast_wordpiece.reference import chars as ref_chars
from fast_wordpiece.reference import unigram as ref_unigram

np = pytest.importorskip("numpy")
tokenizers = pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")

EOT = "<|endoftext|>"
KINDS = ["bpe", "chars", "unigram"]
#: Words that transformers' clean-up changes (" ." to ".", " n't" to "n't", ...).
CLEAN_UP_TEXT = "Well , is n't it ? I 'm sure . they 've come ! we 're here ' s do not"


@pytest.fixture(scope="module")
def training(shakespeare_lines: list[str]) -> list[str]:
    return [*shakespeare_lines[:1500], CLEAN_UP_TEXT]


def char_tokenizers_json(tok: Any) -> Any:
    """The tokenizers tokenizer that tokenizes as ``tok`` (a CharTokenizer): each character a
    token of a ``WordLevel`` vocabulary (``unk_token`` for the others), the special tokens split
    out first, tokens joined back without spaces."""
    from tokenizers import Regex, decoders, models, pre_tokenizers

    hf = tokenizers.Tokenizer(models.WordLevel(tok.get_vocab(), unk_token=tok.unk_token))
    hf.pre_tokenizer = pre_tokenizers.Split(Regex(r"[\s\S]"), behavior="isolated")
    hf.decoder = decoders.Fuse()
    hf.add_special_tokens(tok.special_tokens)
    return hf


@pytest.fixture(scope="module")
def family(training: list[str]) -> dict[str, tuple[Any, Any, Any]]:
    """(engine, twin, transformers' tokenizer of the same tokenizer.json) of each kind."""
    bpe = fw.BPETokenizer.train(training, 500, special_tokens=[EOT])
    chars = fw.CharTokenizer.train(training, special_tokens=["[UNK]", "<pad>"])
    unigram = fw.UnigramTokenizer.train(training, 400, special_tokens=["<unk>", "<pad>"])
    out = {
        "bpe": (bpe, ref_bpe.BPETokenizer.from_json(bpe.to_json()), tokenizers.Tokenizer.from_str(bpe.to_json())),
        "chars": (chars, ref_chars.CharTokenizer.from_json(chars.to_json()), char_tokenizers_json(chars)),
        "unigram": (
            unigram,
            ref_unigram.UnigramTokenizer(unigram.get_pieces(), special_tokens=unigram.special_tokens),
            tokenizers.Tokenizer.from_str(unigram.to_str()),
        ),
    }
    return {k: (e, t, transformers.PreTrainedTokenizerFast(tokenizer_object=hf)) for k, (e, t, hf) in out.items()}


def batches(tok: Any) -> list[Any]:
    """Batches as transformers users pass them: lists of lists, tuples, 2-D arrays, a list of
    arrays, an int among the sequences, empty sequences."""
    ids = tok.encode(CLEAN_UP_TEXT)
    ids = ids if isinstance(ids, list) else ids.ids
    special = tok.token_to_id(tok.special_tokens[-1])
    r = random.Random(17)
    rows = [[r.randrange(tok.vocab_size) for _ in range(r.randint(0, 12))] for _ in range(6)]
    return [
        [ids, ids[:7], [special, *ids[:4], special]],
        tuple(tuple(row) for row in rows),
        rows,
        np.array([ids[:6], ids[3:9]]),
        np.array([ids[:5], ids[5:10]], dtype=np.int32),
        [np.array(ids[:4]), ids[4:9]],
        [ids[:3], special, ids[3:6]],
        [[]],
        [[], ids[:2]],
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_decode_of_a_batch_is_a_list_of_texts_and_of_one_sequence_a_text_as_in_transformers(
    kind: str, family: dict[str, Any]
) -> None:
    engine, twin, hf = family[kind]
    for batch in batches(engine):
        for skip in (False, True):
            for clean in (None, False, True):
                theirs = hf.decode(batch, skip_special_tokens=skip, clean_up_tokenization_spaces=clean)
                assert isinstance(theirs, list)
                for tok in (engine, twin):
                    assert tok.decode(batch, skip, clean) == theirs, (kind, batch, skip, clean)
                    assert tok.decode(batch, skip_special_tokens=skip, clean_up_tokenization_spaces=clean) == theirs
                    assert tok.batch_decode(batch, skip, clean) == theirs
    # one sequence (an array without rows among them) is still one text
    special = engine.token_to_id(engine.special_tokens[-1])
    for one in ([], (), [5, 6, 7], (5, 6), np.array([5, 6, 7]), np.zeros((0, 3), dtype=np.int64), 5, [special, 5]):
        theirs = hf.decode(one)
        assert isinstance(theirs, str)
        assert engine.decode(one) == twin.decode(one) == theirs, one


@pytest.mark.parametrize("make", ["engine", "twin"])
@pytest.mark.parametrize("kind", KINDS)
def test_errors_in_a_batch_name_the_sequence(kind: str, make: str, family: dict[str, Any]) -> None:
    engine, twin, _ = family[kind]
    tok = engine if make == "engine" else twin
    n = tok.vocab_size
    with pytest.raises(
        ValueError, match=rf"^token_ids\[1\]\[2\] = {n} is out of range for a vocabulary of {n} tokens$"
    ):
        tok.decode([[1, 2], [3, 4, n]])
    with pytest.raises(ValueError, match=rf"^token_ids\[1\] = -1 is out of range for a vocabulary of {n} tokens$"):
        tok.decode([[1, 2], -1])
    with pytest.raises(TypeError, match=r"^token_ids\[0\]\[1\] must be int, not str$"):
        tok.decode([[1, "2"], [3]])
    with pytest.raises(TypeError, match=r"^token_ids\[1\]\[0\] must be int, not list$"):
        tok.decode([[1], [[2]]])
    with pytest.raises(TypeError, match=r"^token_ids\[0\]\[0\] must be int, not bool$"):
        tok.decode([[True], [3]])
    with pytest.raises(TypeError, match=r"^token_ids\[1\] must be an iterable of int, not NoneType$"):
        tok.decode([[1], None])
    with pytest.raises(TypeError, match=r"^sequences\[0\]\[0\] must be int, not list$"):
        tok.batch_decode([[[1]], [2]])
    # the flags are checked first, as for one sequence
    with pytest.raises(TypeError, match=r"^clean_up_tokenization_spaces must be a bool or None, not int$"):
        tok.decode([[n]], clean_up_tokenization_spaces=1)


@pytest.mark.parametrize("kind", KINDS)
def test_clean_up_tokenization_spaces_is_the_default_of_decode_as_in_transformers(
    kind: str, family: dict[str, Any]
) -> None:
    engine, twin, hf = family[kind]
    # a copy, as the attribute is set below
    engine, twin = pickle.loads(pickle.dumps(engine)), copy.deepcopy(twin)
    hf = copy.deepcopy(hf)
    ids = engine.encode(CLEAN_UP_TEXT)
    ids = ids if isinstance(ids, list) else ids.ids
    batch = [ids, ids[: len(ids) // 2]]
    assert hf.clean_up_tokenization_spaces is False
    for tok in (engine, twin):
        assert tok.clean_up_tokenization_spaces is False
        assert tok.decode(ids) == hf.decode(ids)
        tok.clean_up_tokenization_spaces = True
    hf.clean_up_tokenization_spaces = True
    cleaned = hf.decode(ids)
    # transformers 5 ignores the clean-up for BPE; it changes the others' text
    assert (cleaned == engine.decode(ids, clean_up_tokenization_spaces=False)) == (kind == "bpe")
    for tok in (engine, twin):
        assert tok.clean_up_tokenization_spaces is True
        assert tok.decode(ids) == tok.decode(ids, clean_up_tokenization_spaces=None) == cleaned
        assert tok.decode(ids, clean_up_tokenization_spaces=False) == hf.decode(ids, clean_up_tokenization_spaces=False)
        assert tok.decode(batch) == tok.batch_decode(batch) == hf.decode(batch) == hf.batch_decode(batch)
        if kind != "unigram":  # tokenizers' decode_batch knows no clean-up
            assert tok.decode_batch(batch) == hf.backend_tokenizer.decode_batch(batch)
            assert tok.decode_batch(batch) == tok.decode(batch, clean_up_tokenization_spaces=False)
        # pickling and copying keep it, a saved file does not
        for other in (pickle.loads(pickle.dumps(tok)), copy.copy(tok), copy.deepcopy(tok)):
            assert other.clean_up_tokenization_spaces is True
            assert other.decode(ids) == cleaned
        reloaded = type(tok).from_json(tok.to_json()) if kind != "unigram" else type(tok).from_str(tok.to_str())
        assert reloaded.clean_up_tokenization_spaces is False
        tok.clean_up_tokenization_spaces = np.bool_(False)
        assert tok.clean_up_tokenization_spaces is False


@pytest.mark.parametrize("make", ["engine", "twin"])
@pytest.mark.parametrize("kind", KINDS)
def test_spaces_between_special_tokens_is_taken_and_changes_nothing(
    kind: str, make: str, family: dict[str, Any]
) -> None:
    """transformers' slow tokenizers' option, which its fast tokenizers ignore: a bool, checked."""
    engine, twin, theirs = family[kind]
    tok = twin if make == "twin" else engine
    ids = theirs(["a b", "c"])["input_ids"]
    for spaces in (True, False):
        assert tok.decode(ids[0], spaces_between_special_tokens=spaces) == tok.decode(ids[0])
        assert tok.batch_decode(ids, spaces_between_special_tokens=spaces) == tok.batch_decode(ids)
        assert tok.decode(ids[0], False, None, spaces) == theirs.decode(ids[0], spaces_between_special_tokens=spaces)
    for call in (lambda: tok.decode(ids[0], spaces_between_special_tokens=1),
                 lambda: tok.batch_decode(ids, spaces_between_special_tokens="no")):  # fmt: skip
        with pytest.raises(TypeError, match="spaces_between_special_tokens must be bool"):
            call()


@pytest.mark.parametrize("make", ["engine", "twin"])
@pytest.mark.parametrize("kind", KINDS)
def test_clean_up_tokenization_spaces_takes_only_a_bool(kind: str, make: str, family: dict[str, Any]) -> None:
    engine, twin, _ = family[kind]
    tok = copy.deepcopy(twin) if make == "twin" else pickle.loads(pickle.dumps(engine))
    for value, type_name in [(1, "int"), (None, "NoneType"), ("yes", "str")]:
        with pytest.raises(TypeError, match=rf"^clean_up_tokenization_spaces must be bool, not {type_name}$"):
            tok.clean_up_tokenization_spaces = value
    assert tok.clean_up_tokenization_spaces is False


def test_a_pickled_pad_token_and_clean_up_are_both_restored(family: dict[str, Any]) -> None:
    engine = pickle.loads(pickle.dumps(family["chars"][0]))
    engine.pad_token = "<pad>"
    assert engine.__reduce__()[2] == ("<pad>", False)
    engine.clean_up_tokenization_spaces = True
    assert engine.__reduce__()[2] == ("<pad>", True)
    other = pickle.loads(pickle.dumps(engine))
    assert (other.pad_token, other.clean_up_tokenization_spaces) == ("<pad>", True)
    del engine.pad_token
    assert engine.__reduce__()[2] == (None, True)
    engine.clean_up_tokenization_spaces = False
    assert engine.__reduce__()[2] is None


# ------------------------------------------------------------------ CharTokenizer's add_special_tokens


def char_texts(tok: Any) -> list[str]:
    r = random.Random(5)
    alphabet = [*"abc xyz,.'", "\n", "\t", "é", "😀", "<", ">", "[", "]", "<pad>", "[UNK]", "<pad><pad>"]
    return ["", "<pad>", *("".join(r.choice(alphabet) for _ in range(r.randint(1, 25))) for _ in range(60))]


@pytest.mark.parametrize("make", ["engine", "twin"])
def test_char_add_special_tokens_adds_nothing_as_tokenizers_without_a_template(
    make: str, family: dict[str, Any]
) -> None:
    engine, twin, hf = family["chars"]
    tok = engine if make == "engine" else twin
    backend = hf.backend_tokenizer
    texts = char_texts(tok)
    for add in (True, False):
        theirs = [e.ids for e in backend.encode_batch(texts, add_special_tokens=add)]
        assert [tok.encode(t, add_special_tokens=add) for t in texts] == theirs
        assert tok.encode_batch(texts, add_special_tokens=add) == theirs
        assert tok.encode_batch(texts, add_special_tokens=np.bool_(add), num_threads=2) == theirs
        assert [tok.tokenize(t, add_special_tokens=add) for t in texts] == [
            hf.tokenize(t, add_special_tokens=add) for t in texts
        ]
        assert tok(texts, add_special_tokens=add)["input_ids"] == hf(texts, add_special_tokens=add)["input_ids"]
    assert [tok.encode(t) for t in texts] == [e.ids for e in backend.encode_batch(texts)]
    assert [tok.tokenize(t) for t in texts] == [hf.tokenize(t) for t in texts]


@pytest.mark.parametrize("make", ["engine", "twin"])
def test_char_add_special_tokens_must_be_a_bool_and_is_checked_first(make: str, family: dict[str, Any]) -> None:
    engine, twin, _ = family["chars"]
    tok = engine if make == "engine" else twin
    for call in (
        lambda v: tok.encode(3, add_special_tokens=v),
        lambda v: tok.tokenize(3, add_special_tokens=v),
        lambda v: tok.encode_batch(3, add_special_tokens=v),
    ):
        with pytest.raises(TypeError, match=r"^add_special_tokens must be bool, not int"):
            call(1)
        with pytest.raises(TypeError, match=r"^add_special_tokens must be bool, not NoneType"):
            call(None)
    with pytest.raises(TypeError, match=r"^text must be str, not int$"):
        tok.encode(3, add_special_tokens=False)
    with pytest.raises(TypeError):
        tok.encode("a", True)  # keyword-only, as in BPETokenizer
