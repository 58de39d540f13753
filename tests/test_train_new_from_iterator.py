"""``PyTokenizer.train_new_from_iterator``: transformers' "train a new tokenizer from an old one".

The new tokenizer is ``train`` on the same corpus with the old tokenizer's options and special
tokens, token for token; it keeps the old pipeline, template, truncation, padding and call
settings; transformers loads what ``save_pretrained`` writes of it and encodes the same.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import corpora
import pytest
from conftest import _corpus

from fast_wordpiece import AddedToken, PyTokenizer
from fast_wordpiece.reference import PyTokenizer as TwinTokenizer

#: Characters the uncased normalizer changes: case, accents, CJK split into characters.
TEXT = "Héllo WÖRLD, naïve Café! 東京タワー über straße"
PAIR = "The quick brown fox"


@pytest.fixture(scope="module")
def lines() -> list[str]:
    """About 1,400 GCIDE lines: fast to train on, enough for a 1,500-token vocabulary."""
    return _corpus(lambda: corpora.gcide_lines(max_bytes=60_000))


@pytest.fixture(scope="module")
def bert_uncased() -> PyTokenizer:
    """bert-base-uncased's tokenizer.json (cached beside its vocab.txt by scripts/corpora.py)."""
    path = _corpus(corpora.bert_vocab_path).parent / "tokenizer.json"
    return PyTokenizer.from_file(str(path))


def _expected(tokenizer: PyTokenizer, corpus: list[str], vocab_size: int, **kwargs: object) -> PyTokenizer:
    return PyTokenizer.train(
        corpus,
        vocab_size,
        kwargs.pop("min_frequency", 0),
        special_tokens=kwargs.pop("special_tokens", tokenizer.special_tokens),
        show_progress=False,
        **{**tokenizer.options, **kwargs},
    )


def unpadded(tokenizer: PyTokenizer) -> PyTokenizer:
    """A copy of ``tokenizer`` without default padding (``no_padding()`` changes the tokenizer itself)."""
    return copy.deepcopy(tokenizer).no_padding()


def _words(tokenizer: PyTokenizer, text: str) -> dict[tuple[int, int], str]:
    """Each word's character span in ``text``, with its tokens joined (without the prefix)."""
    enc = unpadded(tokenizer).encode(text, add_special_tokens=False)
    spans: dict[int, list[int]] = {}
    pieces: dict[int, str] = {}
    for word, (start, end), token in zip(enc.word_ids, enc.offsets, enc.tokens):
        span = spans.setdefault(word, [start, end])
        span[1] = end
        pieces[word] = pieces.get(word, "") + (token.removeprefix("##") if token != "[UNK]" else text[start:end])
    return {(spans[w][0], spans[w][1]): pieces[w] for w in spans}


def test_bert_uncased_is_train_with_its_options(bert_uncased: PyTokenizer, lines: list[str]) -> None:
    new = bert_uncased.train_new_from_iterator(lines, 1500, show_progress=False)
    expected = _expected(bert_uncased, lines, 1500)
    assert new.get_vocab() == expected.get_vocab()
    assert new.vocab_size == 1500
    assert new.get_vocab() != bert_uncased.get_vocab()
    assert new.options == bert_uncased.options
    assert new.special_tokens == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    # The pipeline: lowercased, accents stripped, CJK split (as the old tokenizer does it).
    tokens = new.tokenize(TEXT)
    assert "hello" in "".join(t.removeprefix("##") for t in tokens)
    assert tokens == expected.tokenize(TEXT)
    assert [t for t in tokens if t in "東京"] == ["東", "京"] or "[UNK]" in tokens
    # The same words (pre-tokenization), spelt the same after normalization.
    assert _words(new, TEXT) == _words(bert_uncased, TEXT)
    assert "".join(_words(new, TEXT).values()) == "helloworld,naivecafe!東京タワーuberstraße"
    # The template with the new ids; the old file's truncation and padding (to 128) kept.
    enc = new.encode(TEXT, PAIR)
    cls, sep, pad = new.token_to_id("[CLS]"), new.token_to_id("[SEP]"), new.token_to_id("[PAD]")
    assert (cls, sep, pad) == (2, 3, 0) != (bert_uncased.token_to_id("[CLS]"), bert_uncased.token_to_id("[SEP]"), 1)
    n = sum(enc.attention_mask)
    assert enc.ids[0] == cls
    assert enc.ids[n - 1] == sep
    assert enc.ids[n:] == [pad] * (128 - n)
    assert enc.type_ids[n - 1] == 1
    assert new.truncation == bert_uncased.truncation
    assert new.padding == {**bert_uncased.padding, "pad_id": pad}
    assert new.decode(new.encode("unbelievable things").ids, skip_special_tokens=True) == "unbelievable things"


def test_trainer_kwargs_pass_through(bert_uncased: PyTokenizer, lines: list[str]) -> None:
    kwargs = {"min_frequency": 3, "limit_alphabet": 60, "initial_alphabet": ["ß"], "objective": "pmi"}
    new = bert_uncased.train_new_from_iterator(lines, 800, show_progress=False, **kwargs)
    assert new.get_vocab() == _expected(bert_uncased, lines, 800, **kwargs).get_vocab()
    assert new.objective == "pmi"
    assert "ß" in new.get_vocab()
    at = bert_uncased.train_new_from_iterator(lines, 800, show_progress=False, continuing_subword_prefix="@@")
    assert at.options["continuing_subword_prefix"] == "@@"
    assert any(t.startswith("@@") for t in at.get_vocab())
    assert not any(t.startswith("##") for t in at.get_vocab())


def test_batches_and_generators(bert_uncased: PyTokenizer, lines: list[str]) -> None:
    """As the course feeds it: a generator of batches of texts; ``length`` is accepted."""
    batches = (lines[i : i + 100] for i in range(0, len(lines), 100))
    new = bert_uncased.train_new_from_iterator(batches, 1000, length=len(lines), show_progress=False)
    assert new.get_vocab() == _expected(bert_uncased, lines, 1000).get_vocab()


def test_special_tokens_map_and_new_special_tokens(bert_uncased: PyTokenizer, lines: list[str]) -> None:
    old = PyTokenizer.from_str(bert_uncased.to_json())
    old.add_tokens(["zzyzx"])  # a non-special added token: back after the vocabulary
    old.model_max_length = 512
    old.padding_side = "left"
    old.truncation_side = "left"
    old.clean_up_tokenization_spaces = True
    old.name_or_path = "bert-base-uncased"
    renames = {"[CLS]": "<s>", "[SEP]": "</s>", "[PAD]": "<pad>", "[MASK]": "<mask>", "[UNK]": "<unk>"}
    new = old.train_new_from_iterator(
        lines,
        1200,
        new_special_tokens=["<ent>", AddedToken("<rel>", special=True)],
        special_tokens_map=renames,
        show_progress=False,
    )
    specials = ["<pad>", "<unk>", "<s>", "</s>", "<mask>", "<ent>", "<rel>"]
    assert new.special_tokens == specials
    assert [new.id_to_token(i) for i in range(7)] == specials
    assert {token: i for token, i in new.get_vocab().items() if token != "zzyzx"} == _expected(
        bert_uncased,
        lines,
        1200,
        special_tokens=specials,
        unk_token="<unk>",
        cls_token="<s>",
        sep_token="</s>",
        pad_token="<pad>",
    ).get_vocab()
    assert new.get_added_vocab()["zzyzx"] == 1200
    assert not new.added_tokens_decoder[1200].special
    assert new.model_input_names == old.model_input_names
    assert new.unk_token == "<unk>"
    assert new.mask_token == "<mask>"
    assert new.pad_token == "<pad>"
    assert new.extra_special_tokens == ["<ent>", "<rel>"]
    assert new.tokenize("a <ent> b") == ["a", "<ent>", "b"]
    assert unpadded(new).encode("qqqq\u0378").tokens[-2] == "<unk>"
    enc = unpadded(new).encode("a", "b")
    assert enc.tokens[0] == "<s>"
    assert enc.tokens[-1] == "</s>"
    assert new.padding["pad_token"] == "<pad>"
    assert new.padding["pad_id"] == 0
    assert (new.model_max_length, new.padding_side, new.truncation_side) == (512, "left", "left")
    assert new.clean_up_tokenization_spaces is True
    assert new.name_or_path == "bert-base-uncased"


def test_transformers_loads_the_result(bert_uncased: PyTokenizer, lines: list[str], tmp_path: Path) -> None:
    transformers = pytest.importorskip("transformers")
    new = bert_uncased.train_new_from_iterator(lines, 1500, show_progress=False)
    new.save_pretrained(str(tmp_path))
    hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path))
    for text, pair in [(TEXT, None), (TEXT, PAIR), ("Unbelievably CAFÉ-ish [MASK] things", "ok")]:
        ours = new(text, pair, truncation=True, max_length=40)
        theirs = hf(text, pair, truncation=True, max_length=40)
        assert ours["input_ids"] == theirs["input_ids"]
        assert ours["token_type_ids"] == theirs["token_type_ids"]
    assert hf.convert_ids_to_tokens(new(TEXT)["input_ids"]) == new.convert_ids_to_tokens(new(TEXT)["input_ids"])


@pytest.mark.parametrize("name", ["bert-base-chinese", "bert-base-multilingual-cased", "baai-bge-small-en"])
def test_hf_tokenizer_files(name: str, hf_tokenizers_dir: Path, lines: list[str]) -> None:
    old = PyTokenizer.from_file(str(hf_tokenizers_dir / name / "tokenizer.json"))
    corpus = lines[:600] + ["東京タワーは高い。北京欢迎你。", "Ünïcödé Straße naïve"] * 20
    new = old.train_new_from_iterator(corpus, 900, show_progress=False)
    expected = _expected(old, corpus, 900)
    assert new.get_vocab() == expected.get_vocab()
    assert new.options == old.options
    assert new.encode(TEXT, PAIR).tokens == expected.encode(TEXT, PAIR).tokens
    # The old normalizer decides case: the cased files keep "WÖRLD"'s capitals.
    words = [t for t in new.tokenize(TEXT) if t not in new.special_tokens]
    assert any(c.isupper() for t in words for c in t) == (not old.options["lowercase"])
    assert new.truncation == old.truncation


def test_template_post_processor_takes_the_new_ids(bert_uncased: PyTokenizer, lines: list[str]) -> None:
    doc = json.loads(bert_uncased.to_str())
    doc["post_processor"] = {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                   {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
        "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                 {"SpecialToken": {"id": "[SEP]", "type_id": 0}}, {"SpecialToken": {"id": "[SEP]", "type_id": 0}},
                 {"Sequence": {"id": "B", "type_id": 1}},
                 {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
        "special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [101], "tokens": ["[CLS]"]},
                           "[SEP]": {"id": "[SEP]", "ids": [102], "tokens": ["[SEP]"]}},
    }  # fmt: skip
    old = PyTokenizer.from_str(json.dumps(doc))
    assert isinstance(old.options["post_processor"], dict)
    new = old.train_new_from_iterator(lines, 800, special_tokens_map={"[CLS]": "<cls>"}, show_progress=False)
    template = new.options["post_processor"]
    assert template["special_tokens"]["<cls>"] == {"id": "<cls>", "ids": [2], "tokens": ["<cls>"]}
    assert template["special_tokens"]["[SEP]"]["ids"] == [3]
    enc = unpadded(new).encode("hello", "world")
    assert enc.tokens[0] == "<cls>"
    assert enc.ids[0] == 2
    assert enc.ids[-1] == 3
    assert [t for t in enc.tokens if t == "[SEP]"] == ["[SEP]"] * 3  # the old template's two in the middle


def test_engine_equals_twin(bert_uncased: PyTokenizer, lines: list[str]) -> None:
    small = lines[:150]
    twin_old = TwinTokenizer.from_str(bert_uncased.to_json())
    kwargs = {"new_special_tokens": ["<x>"], "special_tokens_map": {"[MASK]": "<m>"}, "min_frequency": 2}
    engine = bert_uncased.train_new_from_iterator(small, 300, show_progress=False, **kwargs)
    twin = twin_old.train_new_from_iterator(small, 300, show_progress=False, **kwargs)
    assert engine.get_vocab() == twin.get_vocab()
    assert engine.options == twin.options
    assert json.loads(engine.to_json()) == json.loads(twin.to_json())
    assert engine.encode(TEXT, PAIR).ids == twin.encode(TEXT, PAIR).ids
    for name in ("model_max_length", "padding_side", "mask_token", "extra_special_tokens", "special_tokens_map"):
        assert getattr(engine, name) == getattr(twin, name), name


@pytest.mark.parametrize("make", [lambda t: t, lambda t: TwinTokenizer.from_str(t.to_json())], ids=["engine", "twin"])
def test_bad_arguments(make: object, bert_uncased: PyTokenizer) -> None:
    tok = make(bert_uncased)  # type: ignore[operator]
    corpus = ["some text here"] * 3
    with pytest.raises(TypeError, match="vocab_size"):
        tok.train_new_from_iterator(corpus)
    with pytest.raises(TypeError, match="vocab_size"):
        tok.train_new_from_iterator(corpus, "100", show_progress=False)
    with pytest.raises(ValueError, match="vocab_size"):
        tok.train_new_from_iterator(corpus, 0, show_progress=False)
    with pytest.raises(TypeError, match="special_tokens_map must be a dict"):
        tok.train_new_from_iterator(corpus, 100, special_tokens_map=[("[CLS]", "<s>")])
    with pytest.raises(TypeError, match=r"^special_tokens_map must map str to str: the value of '\[CLS\]' is int$"):
        tok.train_new_from_iterator(corpus, 100, special_tokens_map={"[CLS]": 1})
    with pytest.raises(TypeError, match=r"^special_tokens_map must map str to str: a key is bytes$"):
        tok.train_new_from_iterator(corpus, 100, special_tokens_map={b"[CLS]": "<s>"})
    with pytest.raises(TypeError, match="new_special_tokens must be a list"):
        tok.train_new_from_iterator(corpus, 100, new_special_tokens="<x>")
    with pytest.raises(TypeError, match=r"new_special_tokens\[1\] must be a str or AddedToken, not int"):
        tok.train_new_from_iterator(corpus, 100, new_special_tokens=["<x>", 3])
    # The first unexpected keyword in the call's order, named as Python names it, and what it takes.
    unexpected = r"^train_new_from_iterator\(\) got an unexpected keyword argument 'wordpieces_prefix' \(it takes "
    with pytest.raises(TypeError, match=unexpected + r"min_frequency, .*continuing_subword_prefix, objective\)$"):
        tok.train_new_from_iterator(corpus, 100, wordpieces_prefix="##", end_of_word_suffix="</w>")
    with pytest.raises(TypeError, match="length must be an int or None, not str"):
        tok.train_new_from_iterator(corpus, 100, length="3")
    with pytest.raises(TypeError, match="corpus must be an iterable of str"):
        tok.train_new_from_iterator(3, 100, show_progress=False)
    with pytest.raises(ValueError, match="objective must be"):
        tok.train_new_from_iterator(corpus, 100, objective="best", show_progress=False)


def test_added_token_flags_carry_over(bert_uncased: PyTokenizer, lines: list[str]) -> None:
    """As transformers keeps them: the old special tokens' flags (renamed) and the new ones'."""
    old = PyTokenizer.from_str(bert_uncased.to_json())
    old.add_special_tokens([AddedToken("[MASK]", lstrip=True, special=True)])
    new = old.train_new_from_iterator(
        lines[:300],
        400,
        new_special_tokens=[AddedToken("<e>", rstrip=True, special=True), "<f>"],
        special_tokens_map={"[MASK]": "<mask>"},
        show_progress=False,
    )
    flags = {t.content: (t.lstrip, t.rstrip, t.special) for t in new.added_tokens_decoder.values()}
    assert flags["<mask>"] == (True, False, True)
    assert flags["<e>"] == (False, True, True)
    assert flags["<f>"] == flags["[CLS]"] == (False, False, True)
    assert unpadded(new).encode("a <mask> b <e> c", add_special_tokens=False).offsets[1:4] == [
        (1, 8),
        (9, 10),
        (11, 15),
    ]
    # add_special_tokens made [MASK] an extra special token of the old one (as transformers does): renamed.
    assert old.extra_special_tokens == ["[MASK]"]
    assert new.extra_special_tokens == ["<mask>", "<e>", "<f>"]


def test_added_tokens_come_back_as_transformers_has_them(
    bert_uncased: PyTokenizer, lines: list[str], tmp_path: Path
) -> None:
    """As transformers' ``AutoTokenizer`` (the Hugging Face course's way): the added tokens that
    are not special come back after the vocabulary with their flags, and a new special token that
    is already special keeps its old flags."""
    transformers = pytest.importorskip("transformers")
    old = PyTokenizer.from_str(bert_uncased.to_json())
    old.add_tokens(["hello world", AddedToken("<nonspec>", lstrip=True)])
    old.add_special_tokens([AddedToken("<ent>", special=True)])
    old.save_pretrained(str(tmp_path / "old"))
    hf_old = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "old"))
    again = [AddedToken("<ent>", lstrip=True, normalized=True, special=True)]
    new = old.train_new_from_iterator(lines[:400], 300, new_special_tokens=again, show_progress=False)
    tokenizers = pytest.importorskip("tokenizers")
    theirs = [tokenizers.AddedToken("<ent>", lstrip=True, normalized=True, special=True)]
    hf_new = hf_old.train_new_from_iterator(lines[:400], 300, new_special_tokens=theirs)
    plain = {i: t.content for i, t in new.added_tokens_decoder.items() if not t.special}
    assert plain == {i: t.content for i, t in hf_new.added_tokens_decoder.items() if not t.special}
    assert sorted(plain.values()) == ["<nonspec>", "hello world"]
    # (the vocabularies differ: ours and Hugging Face's trainer; the added tokens matched do not)
    added = {"hello world", "<nonspec>", "<ent>"}
    for text in ["say hello world to x   <nonspec> y", "x <ENT> y <ent>"]:
        ours, theirs_tokens = new.tokenize(text), hf_new.tokenize(text)
        assert [t for t in ours if t.strip() in added] == [t for t in theirs_tokens if t.strip() in added], text
    assert new.tokenize("x <ENT> y <ent>").count("<ent>") == 1
    twin = TwinTokenizer.from_str(old.to_json())
    twin.add_special_tokens([AddedToken("<ent>", special=True)])
    twin_new = twin.train_new_from_iterator(lines[:150], 300, new_special_tokens=again, show_progress=False)
    assert {t.content for t in twin_new.added_tokens_decoder.values() if not t.special} == set(plain.values())


EMPTY_CORPORA = {
    "empty list": lambda: [],
    "used-up iterator": lambda: iter([]),
    "empty strings": lambda: ["", ""],
    "whitespace": lambda: ["   ", "\n\t"],
    "empty batches": lambda: [[], []],
}


def _bert_fast(transformers: object, tmp_path: Path, doc: dict[str, object]) -> object:
    """transformers' ``BertTokenizerFast`` of the tokenizer.json ``doc``, built offline."""
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return transformers.BertTokenizerFast(tokenizer_file=str(path))  # type: ignore[attr-defined]


@pytest.mark.parametrize("corpus", list(EMPTY_CORPORA), ids=list(EMPTY_CORPORA))
def test_an_empty_corpus_gives_the_special_tokens_only(corpus: str, bert_uncased: PyTokenizer, tmp_path: Path) -> None:
    """As transformers: no error, a vocabulary of the special tokens in their order, every word unknown."""
    transformers = pytest.importorskip("transformers")
    hf = _bert_fast(transformers, tmp_path, json.loads(bert_uncased.to_str()))
    theirs = hf.train_new_from_iterator(EMPTY_CORPORA[corpus](), 100)  # type: ignore[attr-defined]
    new = bert_uncased.train_new_from_iterator(EMPTY_CORPORA[corpus](), 100, show_progress=False)
    twin = TwinTokenizer.from_str(bert_uncased.to_json())
    twin_new = twin.train_new_from_iterator(EMPTY_CORPORA[corpus](), 100, show_progress=False)
    assert new.get_vocab() == theirs.get_vocab() == {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4}
    assert new.special_tokens == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    assert new.objective == "likelihood"
    assert json.loads(new.to_json()) == json.loads(twin_new.to_json())
    for text in ["hello world", "[MASK] x", ""]:
        assert new(text)["input_ids"] == theirs(text)["input_ids"] == twin_new(text)["input_ids"], text
    assert new.tokenize("hello [MASK] world") == ["[UNK]", "[MASK]", "[UNK]"]
    # The file says the same: saved and loaded by transformers, it encodes the same.
    new.save_pretrained(str(tmp_path / "new"))
    again = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "new"))
    assert again("hello [MASK] x")["input_ids"] == theirs("hello [MASK] x")["input_ids"] == [2, 1, 4, 1, 3]


def test_an_empty_corpus_keeps_the_initial_alphabet_and_checks_the_arguments(bert_uncased: PyTokenizer) -> None:
    """train's rules for no word: the special tokens, then initial_alphabet in code point order (as
    transformers); the arguments are still checked; train itself keeps its ValueError."""
    for tok in (bert_uncased, TwinTokenizer.from_str(bert_uncased.to_json())):
        new = tok.train_new_from_iterator([], 100, initial_alphabet=iter("ba"), show_progress=False)
        assert list(new.get_vocab()) == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b"]
        assert unpadded(new).encode("b a ab c", add_special_tokens=False).tokens == ["b", "a", "[UNK]", "[UNK]"]
        new = tok.train_new_from_iterator([], 2, new_special_tokens=["<x>"], objective="pmi", show_progress=False)
        assert list(new.get_vocab()) == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "<x>"]
        assert new.objective == "pmi"
        with pytest.raises(ValueError, match="objective must be"):
            tok.train_new_from_iterator([], 100, objective="best", show_progress=False)
        with pytest.raises(ValueError, match="initial_alphabet"):
            tok.train_new_from_iterator([], 100, initial_alphabet=[" "], show_progress=False)
        with pytest.raises(TypeError, match=r"corpus\[0\] must be str, not int"):
            tok.train_new_from_iterator([3], 100, show_progress=False)
        with pytest.raises(ValueError, match="the corpus has no words to train on"):
            type(tok).train([], 100, show_progress=False)


def test_a_file_without_added_tokens_trains_as_transformers(bert_uncased: PyTokenizer, lines: list[str],
                                                            tmp_path: Path) -> None:  # fmt: skip
    """A bare WordPiece tokenizer.json (``added_tokens`` empty): transformers' ``BertTokenizerFast``
    takes its named special tokens ([UNK], [SEP], [PAD], [CLS], [MASK]) as special added tokens; the
    new vocabulary starts with them in the order of their old ids, as here."""
    transformers = pytest.importorskip("transformers")
    doc = json.loads(bert_uncased.to_str())
    doc["added_tokens"] = []
    del doc["model"]["fast_wordpiece"]  # as Hugging Face writes it
    old = PyTokenizer.from_str(json.dumps(doc))
    assert old.special_tokens == []
    hf = _bert_fast(transformers, tmp_path, doc)
    corpus = lines[:300]
    new = old.train_new_from_iterator(corpus, 400, show_progress=False)
    theirs = hf.train_new_from_iterator(corpus, 400)  # type: ignore[attr-defined]
    order = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    assert new.special_tokens == order
    assert sorted(theirs.get_vocab(), key=theirs.get_vocab().get)[:5] == order
    assert [new.token_to_id(t) for t in order] == [theirs.convert_tokens_to_ids(t) for t in order] == [0, 1, 2, 3, 4]
    assert new.get_vocab() == _expected(bert_uncased, corpus, 400).get_vocab()
    enc = new("hello € world")
    assert enc["input_ids"][0] == 2
    assert enc["input_ids"][-1] == 3
    assert new.tokenize("€") == ["[UNK]"] == theirs.tokenize("€")
    twin_new = TwinTokenizer.from_str(json.dumps(doc)).train_new_from_iterator(corpus, 400, show_progress=False)
    assert json.loads(twin_new.to_json()) == json.loads(new.to_json())
    # An empty corpus too: the special tokens only.
    assert list(old.train_new_from_iterator([], 100, show_progress=False).get_vocab()) == order


@pytest.mark.parametrize("make", [lambda t: t, lambda t: TwinTokenizer.from_str(t.to_json())], ids=["engine", "twin"])
def test_an_unk_token_that_is_no_added_token_joins_the_special_tokens(make: object, bert_uncased: PyTokenizer) -> None:
    """The model's unk_token, not an added token (the others are): a named special token, trained
    as one, after those of smaller ids (as transformers' BertTokenizerFast adds it when it loads)."""
    tok = make(bert_uncased)  # type: ignore[operator]
    doc = json.loads(tok.to_str())
    doc["added_tokens"] = [t for t in doc["added_tokens"] if t["content"] != "[UNK]"]
    del doc["model"]["fast_wordpiece"]
    doc["model"]["unk_token"] = "<unk>"
    doc["model"]["vocab"]["<unk>"] = len(doc["model"]["vocab"])
    old = type(tok).from_str(json.dumps(doc))
    assert "<unk>" not in old.special_tokens
    new = old.train_new_from_iterator(["some text here"], 100, show_progress=False)
    assert new.special_tokens == ["[PAD]", "[CLS]", "[SEP]", "[MASK]", "<unk>"]
    assert unpadded(new).encode("some €", add_special_tokens=False).tokens == ["some", "<unk>"]


def _counting_lines(err: str) -> list[str]:
    return [line.strip() for line in err.replace("\r", "\n").splitlines() if line.startswith("[counting words]")]


@pytest.mark.parametrize("method", ["train", "train_new_from_iterator"])
def test_progress_total_counts_texts(method: str, bert_uncased: PyTokenizer, lines: list[str],
                                     capfd: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """The counting's total and counter both count texts: a list of batches totals its texts (not
    its batches); a corpus whose length is unknown up front has no total."""
    batches = [lines[i : i + 100] for i in range(0, 1000, 100)]
    corpora_totals = [(batches, "1000/1000"), (tuple(batches), "1000/1000"), (lines[:5] + batches, "1005/1005"),
                      (lines[:1000], "1000/1000"), ((b for b in batches), "1000 texts")]  # fmt: skip
    for corpus, shown in corpora_totals:
        capfd.readouterr()
        if method == "train":
            PyTokenizer.train(corpus, 300)
        else:
            bert_uncased.train_new_from_iterator(corpus, 300)
        counting = _counting_lines(capfd.readouterr().err)
        assert counting[-1].startswith(f"[counting words] {shown}"), counting
        first = counting[0].split()[2]
        assert first == ("0/" + shown.split("/")[1] if "/" in shown else "0"), counting
