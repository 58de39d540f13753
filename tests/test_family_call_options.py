"""More of the family's transformers call (``BPETokenizer``, ``UnigramTokenizer``,
``CharTokenizer``): ``return_offsets_mapping`` and ``return_special_tokens_mask`` as
transformers' ``PreTrainedTokenizerFast`` on the same tokenizer.json, a settable ``pad_token``
(a GPT-2-style tokenizer pads with its end-of-text token, as ``hf.pad_token = hf.eos_token``),
integer arrays when every row is empty, ``length`` of one text a list, errors naming ``text``,
and options the family lacks refused with a TypeError naming the class and the option.
The twins behave as the engine."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
from implementations import call_fields as outcome

import fast_wordpiece as fw
from fast_wordpiece.reference import bpe as ref_bpe
from fast_wordpiece.reference import chars as ref_chars
from fast_wordpiece.reference import tokenizer as ref_tokenizer
from fast_wordpiece.reference import unigram as ref_unigram

np = pytest.importorskip("numpy")
tokenizers = pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")

EOT = "<|endoftext|>"
#: Characters of the random texts: ASCII, accents, CJK (rare: split into bytes by BPE), emoji,
#: whitespace runs, and pieces of the special tokens.
ALPHABET = [*list("abcdefghij klmnop  qrstuvwxyz,.'"), "é", "ü", "ß", "中", "語", "😀", "\n", "\t", "<", "|", ">"]


def random_texts(start: int, n: int, specials: list[str]) -> list[str]:
    r = random.Random(start)
    out = []
    for _ in range(n):
        parts = [r.choice(ALPHABET) for _ in range(r.randint(0, 30))]
        for _ in range(r.randint(0, 2) if specials else 0):
            parts.insert(r.randint(0, len(parts)), r.choice(specials))
        out.append("".join(parts))
    return out


@pytest.fixture(scope="module")
def training(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[str]:
    return shakespeare_lines[:3000] + multilingual_lines[:600]


@pytest.fixture(scope="module")
def family(training: list[str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any, Any]]:
    """(engine, twin, transformers' tokenizer of its saved file) of a GPT-2-style BPE (no pad
    token of its own) and a Unigram tokenizer with an unknown token and "<pad>"."""
    folder = tmp_path_factory.mktemp("family-call-options")
    bpe = fw.BPETokenizer.train(training, 800, special_tokens=[EOT])
    unigram = fw.UnigramTokenizer.train(training, 800, special_tokens=["<unk>", "<pad>"])
    out = {}
    for name, engine, twin in [
        ("bpe", bpe, ref_bpe.BPETokenizer.from_json(bpe.to_json())),
        ("unigram", unigram, ref_unigram.UnigramTokenizer(unigram.get_pieces(), special_tokens=unigram.special_tokens)),
    ]:
        path = folder / f"{name}.json"
        engine.save(path)
        hf = transformers.PreTrainedTokenizerFast(
            tokenizer_object=tokenizers.Tokenizer.from_file(str(path)),
            model_input_names=["input_ids", "attention_mask"],
        )
        out[name] = (engine, twin, hf)
    return out


@pytest.mark.filterwarnings("ignore:`max_length` is ignored")
@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_offsets_and_special_tokens_mask_match_transformers(name: str, family: dict[str, Any]) -> None:
    engine, twin, hf = family[name]
    specials = engine.special_tokens
    hf.pad_token = engine.pad_token = twin.pad_token = specials[-1]  # BPE: its end-of-text token
    texts = random_texts(1, 400, specials)
    r = random.Random(2)
    compared = 0
    for i in range(0, len(texts), 4):
        kwargs: dict[str, Any] = {"return_offsets_mapping": True, "return_special_tokens_mask": True}
        kwargs["padding"] = r.choice([False, True, "max_length"])
        kwargs["truncation"] = r.choice([None, True])
        kwargs["max_length"] = r.choice([None, 3, 12])
        kwargs["padding_side"] = r.choice(["left", "right"])
        kwargs["return_tensors"] = r.choice([None, "np"])
        for text in [texts[i : i + 4], texts[i]]:
            theirs = outcome(hf, text, **kwargs)
            assert outcome(engine, text, **kwargs) == theirs, (text, kwargs)
            assert outcome(twin, text, **kwargs) == theirs, (text, kwargs)
            compared += isinstance(theirs, dict) and "offset_mapping" in theirs
    assert compared > 150
    # the offsets are real: a rare character split into bytes covers that character
    rare = engine("ab 語", return_offsets_mapping=True)
    assert rare["offset_mapping"][-1][1] == 4


def test_char_offsets_are_each_tokens_characters(training: list[str]) -> None:
    chars = fw.CharTokenizer.train(training[:500], special_tokens=["[UNK]", "[PAD]", "<s>"])
    twin = ref_chars.CharTokenizer.from_json(chars.to_json())
    texts = ["<s>hello 😀 wörld[PAD]", "", "語<s><s>x", "[UNK] 中"]
    batch = chars(texts, return_offsets_mapping=True, return_special_tokens_mask=True, padding=True)
    assert batch == twin(texts, return_offsets_mapping=True, return_special_tokens_mask=True, padding=True)
    for text, ids, spans, mask in zip(texts, batch["input_ids"], batch["offset_mapping"], batch["attention_mask"]):
        for token_id, (start, end), real in zip(ids, spans, mask):
            if not real:
                assert (start, end) == (0, 0)
            elif token_id != chars.token_to_id("[UNK]") or text[start:end] == "[UNK]":
                assert text[start:end] == chars.id_to_token(token_id)
            else:
                assert end == start + 1
    assert batch["offset_mapping"][0][:4] == [(0, 3), (3, 4), (4, 5), (5, 6)]
    assert batch["special_tokens_mask"][1] == [1] * len(batch["input_ids"][1])


@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_a_set_pad_token_pads_as_transformers_pad_token(name: str, family: dict[str, Any]) -> None:
    engine, twin, hf = family[name]
    token = engine.special_tokens[0]  # BPE: "<|endoftext|>", Unigram: "<unk>" (not named as a pad token)
    texts = random_texts(3, 12, [])
    for tokenizer in (engine, twin):
        tokenizer.pad_token = token
        assert tokenizer.pad_token == token
        assert tokenizer.pad_token_id == engine.token_to_id(token)
    hf.pad_token = token
    for kwargs in [{"padding": True}, {"padding": "max_length", "max_length": 40, "truncation": True}]:
        theirs = outcome(hf, texts, **kwargs)
        assert outcome(engine, texts, **kwargs) == outcome(twin, texts, **kwargs) == theirs
        assert token_used(theirs, engine.token_to_id(token))


def token_used(result: dict[str, Any], token_id: int) -> bool:
    return any(token_id in row for row in result["input_ids"])


@pytest.mark.parametrize("make", ["engine", "twin"])
def test_pad_token_is_checked_kept_by_pickle_and_not_by_to_json(make: str, training: list[str]) -> None:
    engine = fw.BPETokenizer.train(training[:500], 400, special_tokens=[EOT])
    tok = engine if make == "engine" else ref_bpe.BPETokenizer.from_json(engine.to_json())
    assert tok.pad_token is None
    assert tok.pad_token_id is None
    with pytest.raises(ValueError, match="no padding token: set its pad_token"):
        tok(["a", "bb"], padding=True)
    with pytest.raises(TypeError, match=r"^pad_token must be a str or None, not int$"):
        tok.pad_token = 3  # type: ignore[assignment]
    with pytest.raises(ValueError, match=r"^pad_token 'no such token' is not a token of this BPETokenizer's"):
        tok.pad_token = "no such token"
    with pytest.raises(ValueError, match=r"^pad_token contains a lone surrogate at index 0"):
        tok.pad_token = "\ud800"
    with pytest.raises(ValueError, match=r"^pad_token_id = 400 is out of range for a vocabulary of 400 tokens$"):
        tok.pad_token_id = 400
    with pytest.raises(TypeError, match=r"^pad_token_id must be int, not str$"):
        tok.pad_token_id = "0"  # type: ignore[assignment]
    assert tok.pad_token is None
    tok.pad_token = EOT
    eot = tok.token_to_id(EOT)
    assert tok(["a", "bb cc"], padding=True)["input_ids"][0][1:] == [eot] * (len(tok.encode("bb cc")) - 1)
    for other in (pickle.loads(pickle.dumps(tok)), copy.copy(tok), copy.deepcopy(tok)):
        assert other.pad_token == EOT
        assert other.pad_token_id == eot
    assert type(tok).from_json(tok.to_json()).pad_token is None
    tok.pad_token_id = 65
    assert tok.pad_token == tok.id_to_token(65)
    tok.pad_token = None
    assert tok.pad_token is None
    tok.pad_token = EOT
    del tok.pad_token
    assert tok.pad_token is None
    assert pickle.loads(pickle.dumps(tok)).pad_token is None


def test_a_pad_token_by_name_is_the_default_and_can_be_overridden(training: list[str]) -> None:
    unigram = fw.UnigramTokenizer.train(training[:500], 300, special_tokens=["<unk>", "<pad>"])
    assert unigram.pad_token == "<pad>"
    assert unigram.pad_token_id == 1
    unigram.pad_token = "<unk>"
    assert unigram(["a", "bb cc dd"], padding=True)["input_ids"][0][-1] == 0
    unigram.pad_token = None
    assert unigram.pad_token == "<pad>"
    assert unigram(["a", "bb cc dd"], padding=True)["input_ids"][0][-1] == 1


@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_all_empty_rows_give_int64_arrays_as_transformers(name: str, family: dict[str, Any]) -> None:
    engine, twin, hf = family[name]
    hf.pad_token = engine.pad_token = twin.pad_token = engine.special_tokens[-1]
    for text, kwargs in [
        ("", {}),
        (["", ""], {}),
        (["x" * 50], {"max_length": 0, "truncation": True}),
        (["", "abc"], {}),
        ("", {"return_offsets_mapping": True, "return_special_tokens_mask": True, "return_length": True}),
        (["", ""], {"padding": True, "return_offsets_mapping": True, "return_token_type_ids": True}),
    ]:
        theirs = outcome(hf, text, return_tensors="np", **kwargs)
        assert outcome(engine, text, return_tensors="np", **kwargs) == theirs, (text, kwargs)
        assert outcome(twin, text, return_tensors="np", **kwargs) == theirs, (text, kwargs)
    result = engine("", return_tensors="np")
    assert result["input_ids"].dtype == result["attention_mask"].dtype == np.int64
    assert engine(["", ""], return_tensors="np")["input_ids"].shape == (2, 0)


@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_length_of_one_text_is_a_list_as_transformers(name: str, family: dict[str, Any]) -> None:
    engine, twin, hf = family[name]
    for text in ["hello world", ""]:
        theirs = hf(text, return_length=True)["length"]
        assert engine(text, return_length=True)["length"] == twin(text, return_length=True)["length"] == theirs
        assert isinstance(theirs, list)


@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_tokenizer_kwargs_replace_the_arguments_as_in_transformers(name: str, family: dict[str, Any]) -> None:
    """transformers 5's call merges ``tokenizer_kwargs`` over the arguments given beside it."""
    engine, twin, hf = family[name]
    engine.pad_token = twin.pad_token = hf.pad_token = engine.special_tokens[0]  # padding="max_length" pads
    texts = ["hello world", "a"]
    for kwargs in [
        {"tokenizer_kwargs": {"padding": "max_length", "max_length": 6, "truncation": True}},
        {"padding": True, "tokenizer_kwargs": {"padding": False}},
        {"return_length": True, "tokenizer_kwargs": {}},
    ]:
        theirs = {k: list(v) for k, v in hf(texts, **kwargs).items()}
        for ours in (engine, twin):
            assert {k: list(v) for k, v in ours(texts, **kwargs).items()} == theirs, kwargs
    for ours in (engine, twin):
        with pytest.raises(TypeError, match=r"^tokenizer_kwargs must be a dict, not list$"):
            ours(texts, tokenizer_kwargs=[("padding", True)])


@pytest.mark.parametrize("make", ["engine", "twin"])
def test_errors_name_the_argument_the_caller_passed(make: str, training: list[str]) -> None:
    unigram = fw.UnigramTokenizer.train(training[:500], 300)
    chars = fw.CharTokenizer.train(training[:500])
    bpe = fw.BPETokenizer.train(training[:500], 400)
    if make == "twin":
        twins = [
            ref_unigram.UnigramTokenizer(unigram.get_pieces(), special_tokens=unigram.special_tokens),
            ref_chars.CharTokenizer.from_json(chars.to_json()),
            ref_bpe.BPETokenizer.from_json(bpe.to_json()),
        ]
        unigram, chars, bpe = twins  # type: ignore[assignment]
    for tok in (unigram, chars, bpe):
        name = type(tok).__name__
        with pytest.raises(ValueError, match=r"^text contains a lone surrogate at index 1, which is not valid"):
            tok("a\ud800")
        with pytest.raises(ValueError, match=r"^text\[1\] contains a lone surrogate at index 2"):
            tok(["ok", "ab\udfff"])
        for option, value in [("stride", 2), ("return_overflowing_tokens", True), ("is_split_into_words", True),
                              ("text_target", "x"), ("split_special_tokens", True)]:  # fmt: skip
            with pytest.raises(TypeError, match=rf"^{name}\.__call__\(\) does not support {option}="):
                tok("abc", **{option: value})
        with pytest.raises(TypeError, match=rf"^{name}\.__call__\(\) got an unexpected keyword argument 'colour'$"):
            tok("abc", colour=1)
        # transformers' values that ask for nothing are accepted
        plain_call = tok("abc")
        assert tok("abc", stride=0, return_overflowing_tokens=False, is_split_into_words=False, text_target=None,
                   split_special_tokens=False) == plain_call  # fmt: skip
        # return_overflowing_tokens is read by its truth, as in PyTokenizer's call and transformers
        for false in (None, 0, "", np.int64(0)):
            assert tok("abc", return_overflowing_tokens=false) == plain_call
        for true in (1, "yes"):
            with pytest.raises(TypeError, match=rf"does not support return_overflowing_tokens={true!r}"):
                tok("abc", return_overflowing_tokens=true)


def test_pt_tensors_of_empty_rows_are_int64(family: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Without torch installed, a stand-in with torch's float default for empty lists."""
    import sys
    import types

    fake = types.ModuleType("torch")

    class Tensor:
        def __init__(self, value: Any, dtype: str) -> None:
            self.value, self.dtype = value, dtype

        def numel(self) -> int:
            return int(np.asarray(self.value).size)

        def is_floating_point(self) -> bool:
            return self.dtype == "float32"

        def to(self, dtype: str) -> Tensor:
            return Tensor(self.value, dtype)

    def as_tensor(value: Any) -> Tensor:
        return Tensor(value, "float32" if np.asarray(value).size == 0 else "int64")

    fake.Tensor, fake.as_tensor, fake.int64 = Tensor, as_tensor, "int64"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", fake)
    engine = family["bpe"][0]
    assert engine("", return_tensors="pt")["input_ids"].dtype == "int64"
    assert (
        engine(["a", "bc"], return_tensors="pt", padding=False, truncation=True, max_length=0)["attention_mask"].dtype
        == "int64"
    )
    assert engine("abc", return_tensors="pt")["input_ids"].dtype == "int64"


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_batch_decode_as_transformers(name: str, family: dict[str, Any]) -> None:
    engine, twin, hf = family[name]
    texts = [t + " , isn't it ?" for t in random_texts(6, 12, engine.special_tokens)]
    rows = engine(texts)["input_ids"]
    square = np.array([row[:3] for row in rows if len(row) >= 3])
    for sequences in [rows, square, rows[1], []]:
        for kwargs in [{}, {"skip_special_tokens": True}, {"clean_up_tokenization_spaces": True}]:
            theirs = hf.batch_decode(sequences, **kwargs)
            assert engine.batch_decode(sequences, **kwargs) == theirs, kwargs
            assert twin.batch_decode(sequences, **kwargs) == theirs, kwargs
    assert engine.batch_decode(rows) == [engine.decode(row) for row in rows]
    for tokenizer in (engine, twin):
        with pytest.raises(TypeError, match=r"^\w+Tokenizer\.batch_decode\(\) takes a list of sequences"):
            tokenizer.batch_decode(3)
        with pytest.raises(TypeError, match=r"^\w+Tokenizer\.batch_decode\(\) got an unexpected keyword argument"):
            tokenizer.batch_decode(rows, colour=1)
        with pytest.raises(TypeError, match=r"^clean_up_tokenization_spaces must be a bool or None, not int$"):
            tokenizer.batch_decode(rows, clean_up_tokenization_spaces=1)


@pytest.mark.parametrize("name", ["bpe", "unigram"])
def test_decode_of_one_id_as_transformers(name: str, family: dict[str, Any]) -> None:
    engine, twin, hf = family[name]
    for token_id in [0, 1, 5, 200, engine.vocab_size - 1, np.int64(7)]:
        theirs = hf.decode(token_id)
        assert engine.decode(token_id) == twin.decode(token_id) == theirs
        assert engine.decode(token_id, skip_special_tokens=True) == hf.decode(token_id, skip_special_tokens=True)
    for tokenizer in (engine, twin):
        with pytest.raises(ValueError, match=rf"^token_ids = {engine.vocab_size} is out of range for a vocabulary of"):
            tokenizer.decode(engine.vocab_size)
        with pytest.raises(TypeError, match=r"^token_ids must be int, not bool$"):
            tokenizer.decode(True)


@pytest.mark.parametrize("make", [fw.PyTokenizer, ref_tokenizer.PyTokenizer])
def test_wordpiece_call_names_text_and_text_pair_too(make: Any) -> None:
    """``PyTokenizer``'s call names a text with a lone surrogate as the family's does."""
    tok = make(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b", "##b"])
    for text, kwargs, name in [
        ("a\ud800", {}, r"text contains a lone surrogate at index 1"),
        (["a", "b\ud800"], {}, r"text\[1\] contains a lone surrogate at index 1"),
        ("a", {"text_pair": "b\udc00"}, r"text_pair contains a lone surrogate at index 1"),
        (["a", "b"], {"text_pair": ["a", "\ud800"]}, r"text_pair\[1\] contains a lone surrogate at index 0"),
        (["a\ud800"], {"padding": True, "return_tensors": "np"}, r"text\[0\] contains a lone surrogate"),
    ]:
        with pytest.raises(ValueError, match=f"^{name}"):
            tok(text, **kwargs)
    assert tok("ab", "b")["input_ids"] == [2, 5, 7, 3, 6, 3]
