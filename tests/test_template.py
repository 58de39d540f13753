"""Hugging Face's ``TemplateProcessing`` of any shape (spec sections 6, 9 and 10).

A template of special tokens around ``$A`` / ``$B`` with their type ids, read from a
tokenizer.json (or given as ``post_processor=``), encodes single texts and pairs exactly as
Hugging Face ``tokenizers`` loading the same file: ids, tokens, offsets, type ids, special-tokens
masks, word and sequence ids, and the overflowing windows of truncation, whose length counts the
template's special tokens. The export writes the template back, and ``tokenizers``,
``transformers`` and ``AutoTokenizer`` (through ``save_pretrained``) encode the same. Templates
Hugging Face loads but that cannot be run the same way are a ValueError naming the JSON path.
The engine and the pure-Python twin agree on all of it.
"""

from __future__ import annotations

import copy
import json
import pickle
import re
from pathlib import Path
from typing import Any

import pytest

tokenizers = pytest.importorskip("tokenizers")
import fast_wordpiece  # noqa: E402
from fast_wordpiece import reference  # noqa: E402

IMPLS = {"engine": fast_wordpiece, "twin": reference}
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "<s>", "</s>", "<q>", "the", "cat", "sat", "on", "mat"]
VOCAB += ["!", ",", "a", "t", "s", "##at", "##s", "##t", "##a", "dog", "##g", "do"]
FIELDS = ("ids", "tokens", "offsets", "type_ids", "special_tokens_mask", "attention_mask", "word_ids", "sequence_ids")


def special(name: str, type_id: int = 0) -> dict[str, Any]:
    return {"SpecialToken": {"id": name, "type_id": type_id}}


def seq(name: str, type_id: int = 0) -> dict[str, Any]:
    return {"Sequence": {"id": name, "type_id": type_id}}


def entry(name: str, *tokens: str) -> dict[str, Any]:
    tokens = tokens or (name,)
    return {"id": name, "ids": [VOCAB.index(t) for t in tokens], "tokens": list(tokens)}


def template(single: list[Any], pair: list[Any], *entries: dict[str, Any]) -> dict[str, Any]:
    return {"type": "TemplateProcessing", "single": single, "pair": pair,
            "special_tokens": {e["id"]: e for e in entries}}  # fmt: skip


S, E = entry("<s>"), entry("</s>")
TEMPLATES = {
    # RoBERTa's shape: </s> twice between the sequences, all type id 0.
    "roberta": template(
        [special("<s>"), seq("A"), special("</s>")],
        [special("<s>"), seq("A"), special("</s>"), special("</s>"), seq("B"), special("</s>")],
        S,
        E,
    ),
    # Type ids other than 0 / 1, $B before $A, a name standing for three tokens.
    "typed": template(
        [special("<s>", 2), seq("A", 1), special("</s>", 3)],
        [seq("B", 0), special("both", 4), seq("A", 1), special("</s>", 1)],
        S,
        E,
        entry("both", "<s>", "[MASK]", "</s>"),
    ),
    # Special tokens only around a pair; a single text is bare but typed 1.
    "pair-only": template([seq("A", 1)], [special("<q>"), seq("A"), special("<q>", 1), seq("B", 1)], entry("<q>")),
    # No special tokens at all.
    "plain": template([seq("A")], [seq("A"), seq("B", 1)]),
    # A name that is not its token, and an unused entry.
    "named": template(
        [special("cls"), seq("A"), special("sep")],
        [special("cls"), seq("A"), special("sep"), seq("B", 1), special("sep", 1)],
        {"id": "cls", "ids": [2], "tokens": ["[CLS]"]},
        {"id": "sep", "ids": [3], "tokens": ["[SEP]"]},
        {"id": "unused", "ids": [99], "tokens": ["nothing"]},
    ),
}
TRUNCATIONS = {
    "none": None,
    "right-stride": {"direction": "Right", "max_length": 9, "strategy": "LongestFirst", "stride": 2},
    "left-only-first": {"direction": "Left", "max_length": 11, "strategy": "OnlyFirst", "stride": 1},
    "only-second": {"direction": "Right", "max_length": 12, "strategy": "OnlySecond", "stride": 0},
}
TEXTS = ["The cat sat on the mat!", "a dog, the dogs sat", "cats sat on mats on cats on dogs, the end", "", "t"]
TEXTS += ["[CLS] the <s> cat </s> [SEP]", "Ünï c\u0301at\tsat\u00a0on"]


def hf_json(post_processor: Any, truncation: Any = None) -> str:
    """A small tokenizer.json: BERT's pipeline with this post-processor and truncation."""
    return json.dumps(
        {
            "version": "1.0",
            "truncation": truncation,
            "padding": None,
            "added_tokens": [
                {"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False}
                | {"normalized": False, "special": True}
                for i, t in enumerate(VOCAB[:8])
            ],
            "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True}
            | {"strip_accents": None, "lowercase": True},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "post_processor": post_processor,
            "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##"}
            | {"max_input_chars_per_word": 100, "vocab": {t: i for i, t in enumerate(VOCAB)}},
        }
    )


def fields(encoding: Any) -> dict[str, Any]:
    """Every per-token field, and the overflowing windows (recursively)."""
    out = {name: [tuple(x) if name == "offsets" else x for x in getattr(encoding, name)] for name in FIELDS}
    out["overflowing"] = [fields(o) for o in encoding.overflowing]
    return out


def encoded(tok: Any, a: str, b: str | None, add_special_tokens: bool) -> Any:
    """The fields of an encoding, or "error" (Hugging Face panics on some truncations we refuse)."""
    try:
        return fields(tok.encode(a, b, add_special_tokens=add_special_tokens))
    except BaseException as e:  # pyo3's PanicException is a BaseException
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        return "error"


@pytest.fixture(scope="module")
def texts(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[str]:
    return TEXTS + shakespeare_lines[1000:1012] + multilingual_lines[:8]


@pytest.mark.parametrize("truncation", sorted(TRUNCATIONS))
@pytest.mark.parametrize("name", sorted(TEMPLATES))
@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_templates_encode_like_hugging_face(impl: str, name: str, truncation: str, texts: list[str]) -> None:
    text = hf_json(TEMPLATES[name], TRUNCATIONS[truncation])
    hf = tokenizers.Tokenizer.from_str(text)
    ours = IMPLS[impl].PyTokenizer.from_str(text)
    sample = texts if impl == "engine" else texts[:10]
    inputs = [(a, None) for a in sample] + list(zip(sample[::2], sample[1::2]))
    checked = 0
    for a, b in inputs:
        for add in (True, False):
            want = encoded(hf, a, b, add)
            got = encoded(ours, a, b, add)
            # We refuse with a ValueError what Hugging Face refuses with a panic; otherwise equal.
            assert got == want, (a, b, add)
            checked += want != "error"
    assert checked > len(inputs)
    hf.no_truncation()
    for a in sample[:5]:
        ids = hf.encode(a).ids
        for skip in (False, True):
            assert ours.decode(ids, skip) == hf.decode(ids, skip_special_tokens=skip)


@pytest.mark.parametrize("name", sorted(TEMPLATES))
@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_the_template_is_written_back(impl: str, name: str, tmp_path: Path) -> None:
    text = hf_json(TEMPLATES[name])
    hf = tokenizers.Tokenizer.from_str(text)
    ours = IMPLS[impl].PyTokenizer.from_str(text)
    ours.save(tmp_path / "tokenizer.json")
    again = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    assert json.loads(again.to_str())["post_processor"] == json.loads(hf.to_str())["post_processor"]
    for a, b in [(TEXTS[0], None), (TEXTS[1], TEXTS[2]), ("", TEXTS[5])]:
        assert fields(again.encode(a, b)) == fields(ours.encode(a, b))
    assert IMPLS[impl].PyTokenizer.from_file(tmp_path / "tokenizer.json") == ours
    assert IMPLS[impl].PyTokenizer.from_json(ours.to_json()) == ours
    assert pickle.loads(pickle.dumps(ours)) == ours
    engine, twin = fast_wordpiece.PyTokenizer.from_str(text), reference.PyTokenizer.from_str(text)
    assert engine.options == twin.options
    assert json.loads(engine.to_str()) == json.loads(twin.to_str())


@pytest.mark.parametrize("name", ["roberta", "typed"])
def test_transformers_encodes_our_template_the_same(name: str, tmp_path: Path) -> None:
    transformers = pytest.importorskip("transformers")
    ours = fast_wordpiece.PyTokenizer.from_str(hf_json(TEMPLATES[name]))
    ours.save(tmp_path / "tokenizer.json")
    fast = transformers.PreTrainedTokenizerFast(tokenizer_file=str(tmp_path / "tokenizer.json"))
    ours.save_pretrained(tmp_path / "model")
    auto = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "model"))
    for a, b in [(TEXTS[0], None), (TEXTS[1], TEXTS[2]), (TEXTS[5], TEXTS[6])]:
        mine = ours.encode(a, b)
        for theirs in (fast, auto):
            out = theirs(a, b, return_token_type_ids=True, return_special_tokens_mask=True)
            assert out["input_ids"] == mine.ids
            assert out["token_type_ids"] == mine.type_ids
            assert out["special_tokens_mask"] == mine.special_tokens_mask
    if name == "roberta":  # X $A Y: cls_token and sep_token name X and Y
        assert (ours.cls_token, ours.sep_token) == ("<s>", "</s>")
        assert (auto.cls_token, auto.sep_token) == ("<s>", "</s>")


def edited(name: str, path: str, value: Any) -> dict[str, Any]:
    """A template with the value at a dotted path (list indices as numbers) replaced."""
    out = copy.deepcopy(TEMPLATES[name])
    *parents, last = path.split(".")
    target: Any = out
    for p in parents:
        target = target[int(p)] if isinstance(target, list) else target[p]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return out


# Templates Hugging Face loads (and then fails on, or encodes in a way our tokens cannot show).
UNRUNNABLE = {
    "post_processor.single: must hold $A once and no $B": edited("roberta", "single.1", seq("B")),
    "post_processor.pair: must hold $A once and $B once": edited("roberta", "pair.4", seq("A")),
    'post_processor.pair[0].SpecialToken.id: "<x>" is not in post_processor.special_tokens': edited(
        "roberta", "pair.0", special("<x>")
    ),
    "post_processor.single[1].Sequence.type_id: 256 is not supported (at most 255)": edited(
        "roberta", "single.1", seq("A", 256)
    ),
    'post_processor.special_tokens.<s>.ids: "<s>" has id 6 here but the vocabulary gives id 6 to "</s>"': edited(
        "roberta", "special_tokens.<s>.ids", [6]
    ),
    'post_processor.special_tokens.both.ids: "[MASK]" has no id here': None,  # filled below
    "post_processor.special_tokens.<s>: 2 ids but 1 tokens": edited("roberta", "special_tokens.<s>.ids", [5, 6]),
    'post_processor.special_tokens.<s>.id: "s" differs from its key "<s>"': edited(
        "roberta", "special_tokens.<s>.id", "s"
    ),
}
del UNRUNNABLE['post_processor.special_tokens.both.ids: "[MASK]" has no id here']
UNRUNNABLE['post_processor.special_tokens.both.ids: "[MASK]" has id 99 here, past the end of the vocabulary\'s 25 '
           "ids"] = edited("typed", "special_tokens.both.ids", [5, 99, 6])  # fmt: skip
# Malformed: Hugging Face refuses these too.
MALFORMED = {
    'post_processor.pair[1].Sequence.id: expected "A" or "B", found "C"': edited("roberta", "pair.1", seq("C")),
    'post_processor.pair[1].Sequence: missing field "type_id"': edited("roberta", "pair.1", {"Sequence": {"id": "A"}}),
    "post_processor.special_tokens: expected an object": edited("roberta", "special_tokens", []),
    "post_processor.single[0]: expected one SpecialToken or Sequence": edited("roberta", "single.0", {}),
}


@pytest.mark.parametrize("message", sorted(UNRUNNABLE) + sorted(MALFORMED))
def test_templates_we_cannot_run_are_refused_by_path(message: str) -> None:
    value = UNRUNNABLE.get(message) or MALFORMED[message]
    text = hf_json(value)
    if message in UNRUNNABLE:
        tokenizers.Tokenizer.from_str(text)  # Hugging Face loads it
    else:
        with pytest.raises(Exception, match=r"\S"):  # Hugging Face's error type is its own
            tokenizers.Tokenizer.from_str(text)
    for impl in IMPLS.values():
        with pytest.raises(ValueError, match="^" + re.escape(message)):
            impl.PyTokenizer.from_str(text)
        # The same template given as an option.
        with pytest.raises(ValueError, match="^" + re.escape(message)):
            impl.PyTokenizer(VOCAB, post_processor=value)


def with_hole(text: str, hole: int) -> str:
    """A tokenizer.json with its vocabulary's token at ``hole`` taken out (no token has that id)."""
    document = json.loads(text)
    token = VOCAB[hole]
    del document["model"]["vocab"][token]
    document["added_tokens"] = [t for t in document["added_tokens"] if t["content"] != token]
    return json.dumps(document)


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_a_template_id_no_token_has_is_shown_and_left_out_of_decoding(impl: str) -> None:
    """A template id in a hole of the vocabulary (a BERT file whose vocabulary lacks its [SEP]) runs as
    Hugging Face runs it: encodings show the template's token and its id; decoding leaves the id out."""
    bert = template(
        [special("[CLS]"), seq("A"), special("[SEP]")],
        [special("[CLS]"), seq("A"), special("[SEP]"), seq("B", 1), special("[SEP]", 1)],
        entry("[CLS]"),
        entry("[SEP]"),
    )
    for post_processor, hole in ((bert, VOCAB.index("[SEP]")), (TEMPLATES["typed"], VOCAB.index("[MASK]"))):
        text = with_hole(hf_json(post_processor), hole)
        hf = tokenizers.Tokenizer.from_str(text)
        tok = IMPLS[impl].PyTokenizer.from_str(text)
        assert hf.id_to_token(hole) is None
        assert tok.id_to_token(hole) is None
        assert hole in tok.encode("the cat", "sat on").ids
        for a, b in [("the cat", None), ("the cat", "sat on"), ("", ""), ("[SEP] [MASK] the", "[CLS]")]:
            got, want = tok.encode(a, b), hf.encode(a, b)
            assert fields(got) == fields(want)
            for skip in (False, True):
                assert tok.decode(got.ids, skip) == hf.decode(want.ids, skip_special_tokens=skip)
        assert json.loads(tok.to_str())["post_processor"] == json.loads(hf.to_str())["post_processor"]
        assert IMPLS[impl].PyTokenizer.from_str(tok.to_str()) == tok
        assert pickle.loads(pickle.dumps(tok)) == tok
        assert tok.tokenize("the cat", "sat on", add_special_tokens=True) == hf.encode("the cat", "sat on").tokens
        # Decoding and the special-tokens mask take the id; asking for its token is told no token has it.
        ids = tok.encode("the cat", "sat on").ids
        mask = tok.get_special_tokens_mask(ids, already_has_special_tokens=True)
        assert mask == [int(i in tok.all_special_ids and i != hole) for i in ids]
        assert tok.get_special_tokens_mask(ids, ids) == [1] + [0] * len(ids) + [1] + [0] * len(ids) + [1]
        # No token has it: None, as transformers' convert_ids_to_tokens (id_to_token) gives.
        assert tok.convert_ids_to_tokens([hole]) == [None]
    # An id that the vocabulary gives another token, or past its end, is still refused.
    for ids, message in (([9], 'has id 9 here but the vocabulary gives id 9 to "cat"'),
                         ([99], "has id 99 here, past the end of the vocabulary's 25 ids")):  # fmt: skip
        bad = copy.deepcopy(bert)
        bad["special_tokens"]["[SEP]"]["ids"] = ids
        with pytest.raises(ValueError, match=re.escape(f'post_processor.special_tokens.[SEP].ids: "[SEP]" {message}')):
            IMPLS[impl].PyTokenizer.from_str(with_hole(hf_json(bad), 3))
    # One hole standing for two tokens cannot show both.
    two = copy.deepcopy(bert)
    two["special_tokens"]["[CLS]"]["ids"] = [3]
    with pytest.raises(ValueError, match=re.escape('id 3 stands for "[SEP]" here and for "[CLS]" elsewhere')):
        IMPLS[impl].PyTokenizer.from_str(with_hole(hf_json(two), 3))


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_post_processor_option_takes_a_template(impl: str) -> None:
    PyTokenizer = IMPLS[impl].PyTokenizer
    tok = PyTokenizer(VOCAB, post_processor=TEMPLATES["roberta"])
    hf = tokenizers.Tokenizer.from_str(hf_json(TEMPLATES["roberta"]))
    assert tok.options["post_processor"] == json.loads(hf.to_str())["post_processor"]
    assert PyTokenizer(VOCAB, **tok.options) == tok
    assert fields(tok.encode("the cat", "sat")) == fields(hf.encode("the cat", "sat"))
    with pytest.raises(ValueError, match=r'^post_processor\.type: expected "TemplateProcessing"'):
        PyTokenizer(VOCAB, post_processor={"type": "RobertaProcessing"})
    with pytest.raises(ValueError, match=r'^unknown post_processor "roberta"'):
        PyTokenizer(VOCAB, post_processor="roberta")
    with pytest.raises(TypeError, match="post_processor"):
        PyTokenizer(VOCAB, post_processor=5)


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_stride_leaves_room_after_the_template_special_tokens(impl: str) -> None:
    """Hugging Face checks a stride against max_length minus the special tokens of one text."""
    tok = IMPLS[impl].PyTokenizer.from_str(hf_json(TEMPLATES["typed"]))  # 2 around one text, 4 around a pair
    hf = tokenizers.Tokenizer.from_str(hf_json(TEMPLATES["typed"]))
    assert hf.post_processor.num_special_tokens_to_add(False) == 2
    with pytest.raises(ValueError, match=r"stride must be at most max_length minus the 2 special tokens \(3\)"):
        tok.encode("the cat sat", max_length=5, stride=4)
    with pytest.raises(Exception, match="stride"):
        hf.enable_truncation(5, stride=4)
    plain = tok.encode("the cat sat", max_length=5, stride=4, add_special_tokens=False)
    assert plain.ids == [VOCAB.index(w) for w in ("the", "cat", "sat")]
    bad = hf_json(TEMPLATES["typed"], {"direction": "Right", "max_length": 5, "strategy": "LongestFirst", "stride": 4})
    with pytest.raises(ValueError, match=r"^truncation: stride must be at most max_length minus the 2 special"):
        IMPLS[impl].PyTokenizer.from_str(bad)
    hf.enable_truncation(9, stride=1)
    e = tok.encode("the cat sat on the mat", "a dog", max_length=9, stride=1)
    assert len(e) == 9
    assert e.overflowing
    assert fields(e) == fields(hf.encode("the cat sat on the mat", "a dog"))


@pytest.mark.parametrize("name", ["pair-only", "plain", "typed"])
def test_the_call_checks_stride_against_the_template_special_tokens(name: str) -> None:
    """transformers' call refuses a stride above max_length minus the special tokens of one text,
    as the template adds them (not BERT's 2): a stride of the whole room is taken."""
    transformers = pytest.importorskip("transformers")
    text = hf_json(TEMPLATES[name])
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tokenizers.Tokenizer.from_str(text))
    for impl in sorted(IMPLS):
        tok = IMPLS[impl].PyTokenizer.from_str(text)
        for pair in (False, True):
            assert tok.num_special_tokens_to_add(pair) == fast.num_special_tokens_to_add(pair), (impl, pair)
        room = 6 - tok.num_special_tokens_to_add()
        kwargs = {"max_length": 6, "stride": room, "truncation": True, "return_token_type_ids": True}
        assert tok("the cat", **kwargs) == fast("the cat", **kwargs)
        with pytest.raises(ValueError, match="stride"):
            tok("the cat", max_length=6, stride=room + 1, truncation=True)
