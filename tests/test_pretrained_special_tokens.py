"""The special and added tokens of model directories, and the special-token attributes, against
transformers' BertTokenizerFast: what a directory configures (tokenizer_config.json,
special_tokens_map.json, added_tokens.json) gives the same ids, the same mask token and the same
``all_special_tokens``; ``add_special_tokens`` extends ``all_special_tokens`` as transformers' does;
``save_pretrained`` writes the special tokens so that transformers (and ``from_pretrained``) read
them back."""

from __future__ import annotations

import json
import pickle
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

transformers = pytest.importorskip("transformers")

from implementations import tokenizer_class  # noqa: E402

IMPLS = ["engine", "twin"]
TEXTS = [
    "covid19 <ent> x <mask> [MASK] <s> </s> <x> <y> unaffable",
    "Hello [MASK]x  [MASK] <ENT> <ent>",
    "don't [UNK] [PAD]x[SEP] 中国",
]
NAMES = ("unk_token", "sep_token", "pad_token", "cls_token", "mask_token", "bos_token", "eos_token")
ATTRIBUTES = (
    *NAMES,
    *(name + "_id" for name in NAMES),
    "all_special_tokens",
    "all_special_ids",
    "extra_special_tokens",
)
CONFIG, MAP, ADDED = "tokenizer_config.json", "special_tokens_map.json", "added_tokens.json"


def _entry(content: str, special: bool, **flags: bool) -> dict[str, Any]:
    """An entry of added_tokens_decoder, as transformers writes it."""
    return {"content": content, "lstrip": False, "normalized": not special, "rstrip": False, "single_word": False,
            "special": special, **flags}  # fmt: skip


# name: (files beside vocab.txt, tokens appended to the vocabulary, tokens taken out of it)
DIRECTORIES: dict[str, tuple[dict[str, Any], tuple[str, ...], tuple[str, ...]]] = {
    "added_tokens.json": ({ADDED: {"<ent>": 30523, "covid19": 30522}}, (), ()),
    "added_tokens.json with a token also listed as extra": (
        {ADDED: {"covid19": 30522, "<ent>": 30523}, MAP: {"additional_special_tokens": ["<ent>"]}},
        (),
        (),
    ),
    "added_tokens_decoder": (
        {
            CONFIG: {
                "added_tokens_decoder": {"30522": _entry("covid19", False), "30523": _entry("<ent>", True, lstrip=True)}
            }
        },
        (),
        (),
    ),
    "extra_special_tokens in the config": ({CONFIG: {"extra_special_tokens": ["<ent>", "<x>"]}}, (), ()),
    "additional_special_tokens in the config": ({CONFIG: {"additional_special_tokens": ["<ent>"]}}, (), ()),
    "additional_special_tokens in the map": ({MAP: {"additional_special_tokens": ["<ent>", "<y>"]}}, (), ()),
    "config extras win over the map's additional ones": (
        {CONFIG: {"extra_special_tokens": ["<x>"]}, MAP: {"additional_special_tokens": ["<ent>"]}},
        (),
        (),
    ),
    "mask token in the map, in the vocabulary": ({MAP: {"mask_token": "<mask>"}}, ("<mask>",), ()),
    "mask token in the config, not in the vocabulary": ({CONFIG: {"mask_token": "<mask>"}}, (), ()),
    "mask token null": ({CONFIG: {"mask_token": None}}, (), ()),
    "vocabulary without [MASK]": ({}, (), ("[MASK]",)),
    "an empty added token is skipped": ({ADDED: {"": 30522}, CONFIG: {"extra_special_tokens": ["<e>"]}}, (), ()),
    "bos and eos tokens": ({MAP: {"bos_token": "<s>", "eos_token": "</s>"}}, (), ()),
    "mask token with lstrip": ({MAP: {"mask_token": _entry("[MASK]", True, lstrip=True)}}, (), ()),
    "unk, sep and cls tokens not in the vocabulary": (
        {CONFIG: {"unk_token": "<unk>", "sep_token": "<sep>", "cls_token": "<cls>"}},
        (),
        (),
    ),
    "added tokens, a new mask token and extras": (
        {ADDED: {"covid19": 30522}, MAP: {"additional_special_tokens": ["<ent>"], "mask_token": "<mask>"}},
        (),
        (),
    ),
    "pad token not in the vocabulary": ({CONFIG: {"pad_token": "<pad>"}}, (), ()),
    "pad token in the map, in the vocabulary": ({MAP: {"pad_token": "[unused0]"}}, (), ()),
    "pad token in the map wins": ({CONFIG: {"pad_token": "<pad>"}, MAP: {"pad_token": "<p>"}}, (), ()),
    "every named token new": (
        {
            CONFIG: {
                "pad_token": "<pad>",
                "unk_token": "<unk>",
                "cls_token": "<cls>",
                "sep_token": "<sep>",
                "mask_token": "<mask>",
                "bos_token": "<s>",
                "eos_token": "</s>",
            }
        },
        (),
        (),
    ),
    "added_tokens_decoder hides the map": (
        {MAP: {"mask_token": "<mask>"}, CONFIG: {"added_tokens_decoder": {"103": _entry("[MASK]", True)}}},
        ("<mask>",),
        (),
    ),
}


def _directory(root: Path, vocab_file: Path, files: dict[str, Any], appended: tuple[str, ...] = (),
               dropped: tuple[str, ...] = ()) -> Path:  # fmt: skip
    """A slow BERT tokenizer's directory: vocab.txt (bert-base-uncased's, changed as asked) and the
    given JSON files (tokenizer_config.json names BertTokenizer)."""
    root.mkdir(parents=True, exist_ok=True)
    tokens = [t for t in vocab_file.read_text(encoding="utf-8").splitlines() if t not in dropped]
    (root / "vocab.txt").write_text("".join(t + "\n" for t in [*tokens, *appended]), encoding="utf-8")
    files = dict(files)
    files[CONFIG] = {"tokenizer_class": "BertTokenizer", **files.get(CONFIG, {})}
    for name, content in files.items():
        (root / name).write_text(json.dumps(content), encoding="utf-8")
    return root


def _bert(directory: Path | str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return transformers.BertTokenizerFast.from_pretrained(str(directory))


def _auto(directory: Path | str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return transformers.AutoTokenizer.from_pretrained(str(directory))


def assert_same_special_tokens(ours: Any, theirs: Any) -> None:
    """The special-token attributes, the length, and what the texts encode to and decode from."""
    for name in ATTRIBUTES:
        assert getattr(ours, name) == getattr(theirs, name), name
    assert len(ours) == len(theirs)
    for text in TEXTS:
        expected = theirs(text, return_offsets_mapping=True)
        got = ours(text, return_offsets_mapping=True)
        assert got["input_ids"] == expected["input_ids"], text
        assert [tuple(o) for o in got["offset_mapping"]] == [tuple(o) for o in expected["offset_mapping"]], text
        ids = expected["input_ids"]
        for skip in (False, True):
            assert ours.decode(ids, skip_special_tokens=skip) == theirs.decode(ids, skip_special_tokens=skip)
            assert ours.convert_ids_to_tokens(ids, skip_special_tokens=skip) == theirs.convert_ids_to_tokens(
                ids, skip_special_tokens=skip
            )
        assert ours.get_special_tokens_mask(ids, already_has_special_tokens=True) == theirs.get_special_tokens_mask(
            ids, already_has_special_tokens=True
        )
    if theirs.pad_token_id is not None:
        for side in ("right", "left"):
            expected = theirs(TEXTS, padding=True, padding_side=side)
            got = ours(TEXTS, padding=True, padding_side=side)
            assert got["input_ids"] == expected["input_ids"], side
            assert got["attention_mask"] == expected["attention_mask"], side


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("case", sorted(DIRECTORIES))
def test_a_vocab_directory_gives_the_tokens_transformers_gives(impl, case, bert_vocab_file, tmp_path):
    """A directory without tokenizer.json, as slow BERT tokenizers save it: its added tokens, the
    special tokens it names (those the vocabulary lacks get the next ids, in transformers' order) and
    their flags are read as transformers reads them."""
    files, appended, dropped = DIRECTORIES[case]
    directory = _directory(tmp_path, bert_vocab_file, files, appended, dropped)
    assert_same_special_tokens(tokenizer_class(impl).from_pretrained(directory), _bert(directory))


@pytest.mark.parametrize("impl", IMPLS)
def test_a_configured_mask_token_is_the_one_the_mlm_collator_inserts(impl, bert_vocab_file, tmp_path):
    """A mask token named by the directory is ``mask_token`` (not a fixed "[MASK]"), so that
    DataCollatorForLanguageModeling masks with its id, as with transformers' tokenizer."""
    np = pytest.importorskip("numpy")
    directory = _directory(tmp_path, bert_vocab_file, {MAP: {"mask_token": "<mask>"}}, ("<mask>",))
    ours, theirs = tokenizer_class(impl).from_pretrained(directory), _bert(directory)
    assert (ours.mask_token, ours.mask_token_id) == (theirs.mask_token, theirs.mask_token_id) == ("<mask>", 30522)
    features = [{"input_ids": theirs("the quick brown fox jumps over the lazy dog " * 4)["input_ids"]}]
    masked = []
    for tok in (ours, theirs):
        collator = transformers.DataCollatorForLanguageModeling(tok, mlm_probability=0.5, return_tensors="np")
        np.random.seed(0)
        masked.append(collator(features)["input_ids"].tolist())
    assert masked[0] == masked[1]
    assert 30522 in masked[0][0]
    assert 103 not in masked[0][0]


@pytest.mark.parametrize("impl", IMPLS)
def test_add_special_tokens_extends_all_special_tokens_as_transformers_does(impl, bert_vocab_file, tmp_path):
    """``{"additional_special_tokens": [...]}`` replaces the extra special tokens (transformers'
    default); a list extends them; ``add_tokens(..., special_tokens=True)`` leaves them alone. Setting
    ``mask_token`` / ``bos_token`` names a token without changing the vocabulary."""
    directory = _directory(tmp_path, bert_vocab_file, {})
    ours, theirs = tokenizer_class(impl).from_pretrained(directory), _bert(directory)
    assert ours.add_special_tokens({"additional_special_tokens": ["<ent>", "<x>"]}) == theirs.add_special_tokens(
        {"additional_special_tokens": ["<ent>", "<x>"]}
    )
    assert ours.all_special_tokens[-2:] == ["<ent>", "<x>"]
    assert_same_special_tokens(ours, theirs)
    ours.add_special_tokens({"additional_special_tokens": ["<y>"]})
    theirs.add_special_tokens({"additional_special_tokens": ["<y>"]})
    assert ours.extra_special_tokens == theirs.extra_special_tokens == ["<y>"]
    ours.add_special_tokens(["<mask>", "<s>", "<y>"])
    theirs.add_special_tokens({"extra_special_tokens": ["<mask>", "<s>", "<y>"]}, replace_extra_special_tokens=False)
    ours.add_tokens(["<z>"], special_tokens=True)
    theirs.add_tokens(["<z>"], special_tokens=True)
    assert_same_special_tokens(ours, theirs)
    ours.mask_token, ours.bos_token = "<mask>", "<s>"
    theirs.mask_token, theirs.bos_token = "<mask>", "<s>"
    assert_same_special_tokens(ours, theirs)
    again = pickle.loads(pickle.dumps(ours))
    assert_same_special_tokens(again, theirs)
    ours.mask_token = None
    assert (ours.mask_token, ours.mask_token_id) == (None, None)
    assert "[MASK]" not in ours.all_special_tokens  # "<mask>" stays, as an extra special token
    ours.add_special_tokens(token for token in ["<g>"])  # an iterator is read once
    assert ours.extra_special_tokens[-1] == "<g>"


@pytest.mark.parametrize("impl", IMPLS)
def test_add_special_tokens_takes_transformers_named_keys(impl, bert_vocab_file, tmp_path):
    """transformers' ``add_special_tokens({"mask_token": ..., "bos_token": ..., ...})`` adds the tokens
    in the dict's order and names them; the pipeline's own tokens are accepted only as they are."""
    AddedToken = pytest.importorskip("fast_wordpiece").AddedToken
    directory = _directory(tmp_path, bert_vocab_file, {})
    ours, theirs = tokenizer_class(impl).from_pretrained(directory), _bert(directory)
    given = {"mask_token": "<mask>", "extra_special_tokens": ["<ent>"], "eos_token": "</s>", "cls_token": "[CLS]"}
    assert ours.add_special_tokens(given) == theirs.add_special_tokens(given) == 3
    assert_same_special_tokens(ours, theirs)
    ours.add_special_tokens({"bos_token": AddedToken("<s>", lstrip=True)})
    theirs.add_special_tokens({"bos_token": transformers.AddedToken("<s>", lstrip=True, special=True)})
    assert_same_special_tokens(ours, theirs)
    for name in ("unk_token", "sep_token", "cls_token"):
        # transformers adds the token but its post-processor and model keep the old one.
        with pytest.raises(ValueError, match=rf'add_special_tokens: {name} "<t>" is not supported: it is the pipeline'):
            ours.add_special_tokens({name: "<t>"})
    with pytest.raises(ValueError, match=r'add_special_tokens: unknown key "image_token"'):
        ours.add_special_tokens({"image_token": "<img>"})
    with pytest.raises(TypeError, match=r"add_special_tokens: mask_token must be a str or an AddedToken, not list"):
        ours.add_special_tokens({"mask_token": ["<m>"]})
    with pytest.raises(TypeError, match=r"add_special_tokens: additional_special_tokens must be an iterable"):
        ours.add_special_tokens({"additional_special_tokens": "<m>"})
    assert "<m>" not in ours.get_vocab()


@pytest.mark.parametrize("impl", IMPLS)
def test_add_special_tokens_extends_the_extra_ones_when_told_not_to_replace(impl, bert_vocab_file, tmp_path):
    """transformers 5's ``replace_extra_special_tokens=False``: a dict's extra special tokens extend
    ``extra_special_tokens`` (each once) instead of replacing them; either way they are added."""
    directory = _directory(tmp_path, bert_vocab_file, {})
    ours, theirs = tokenizer_class(impl).from_pretrained(directory), _bert(directory)
    for tok in (ours, theirs):
        tok.add_special_tokens({"extra_special_tokens": ["<a>", "<b>"]})
    steps = [
        ({"extra_special_tokens": ["<b>", "<c>"]}, False),
        ({"additional_special_tokens": ["<d>"], "mask_token": "<m>"}, False),
        ({"extra_special_tokens": ["<e>"]}, True),
    ]
    for given, replace in steps:
        assert ours.add_special_tokens(given, replace_extra_special_tokens=replace) == theirs.add_special_tokens(
            given, replace_extra_special_tokens=replace
        )
        assert_same_special_tokens(ours, theirs)
        assert ours.tokenize("x<c>y<a>") == theirs.tokenize("x<c>y<a>")
    assert ours.extra_special_tokens == ["<e>"]
    # One it has already is left as it is, flags and all (transformers drops it before adding): "x <e>y"
    # keeps its space out of the special token's span, and nothing is counted as added.
    ours_token = pytest.importorskip("fast_wordpiece").AddedToken("<e>", lstrip=True)
    theirs_token = transformers.AddedToken("<e>", lstrip=True, special=True)
    assert ours.add_special_tokens({"extra_special_tokens": [ours_token]}, replace_extra_special_tokens=False) == 0
    assert theirs.add_special_tokens({"extra_special_tokens": [theirs_token]}, replace_extra_special_tokens=False) == 0
    for text in ("x <e>y", "x##<e> <e>"):
        mine, hf = (tok(text, return_offsets_mapping=True) for tok in (ours, theirs))
        assert (mine["input_ids"], mine["offset_mapping"]) == (hf["input_ids"], hf["offset_mapping"])
    assert ours.tokenize("x <e>y") == theirs.tokenize("x <e>y") == ["x", "<e>", "y"]
    with pytest.raises(TypeError, match=r"^replace_extra_special_tokens must be bool, not int"):
        ours.add_special_tokens({"extra_special_tokens": ["<f>"]}, replace_extra_special_tokens=0)
    assert "<f>" not in ours.get_vocab()


ORDERS = {
    "additional first": {"additional_special_tokens": ["<sp>"], "bos_token": "<s>"},
    "additional among named": {"eos_token": "</s>", "additional_special_tokens": ["<sp>", "<sq>"],
                               "bos_token": "<s>", "mask_token": "<m>"},
    "additional in an empty extra's place": {"extra_special_tokens": [], "bos_token": "<s>",
                                              "additional_special_tokens": ["<sp>"], "eos_token": "</s>"},
    "extra first": {"extra_special_tokens": ["<e1>"], "pad_token": "<pad>", "eos_token": "</s>"},
}  # fmt: skip


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("case", sorted(ORDERS))
def test_add_special_tokens_gives_the_ids_transformers_gives(impl, case, bert_vocab_file, tmp_path):
    """transformers 5 adds the dict's tokens in its order, except "additional_special_tokens": it
    takes the place of an empty "extra_special_tokens", or goes last without one."""
    directory = _directory(tmp_path, bert_vocab_file, {})
    ours, theirs = tokenizer_class(impl).from_pretrained(directory), _bert(directory)
    given = ORDERS[case]
    assert ours.add_special_tokens(dict(given)) == theirs.add_special_tokens(dict(given))
    assert_same_special_tokens(ours, theirs)
    assert ours.get_added_vocab() == theirs.get_added_vocab()


@pytest.mark.parametrize("impl", IMPLS)
def test_add_special_tokens_refuses_additional_and_extra_tokens_together(impl, bert_vocab_file, tmp_path):
    """Both lists at once are a ValueError, as in transformers (which names the key it refuses)."""
    directory = _directory(tmp_path, bert_vocab_file, {})
    ours, theirs = tokenizer_class(impl).from_pretrained(directory), _bert(directory)
    given = {"extra_special_tokens": ["<e>"], "additional_special_tokens": ["<a>"]}
    with pytest.raises(ValueError, match="additional_special_tokens"):
        theirs.add_special_tokens(dict(given))
    with pytest.raises(ValueError, match="give additional_special_tokens or extra_special_tokens, not both"):
        ours.add_special_tokens(dict(given))
    assert len(ours) == len(theirs)


@pytest.mark.parametrize("impl", IMPLS)
def test_a_pad_token_added_by_add_special_tokens_is_the_one_padding_inserts(impl, bert_vocab_file, tmp_path):
    """``add_special_tokens({"pad_token": "<pad>"})`` adds the token (the next id) and pads with it, as
    transformers does; save_pretrained keeps it for transformers' AutoTokenizer and for from_pretrained."""
    Tokenizer = tokenizer_class(impl)
    base = _directory(tmp_path / "base", bert_vocab_file, {})
    ours, theirs = Tokenizer.from_pretrained(base), _bert(base)
    assert ours.add_special_tokens({"pad_token": "<pad>"}) == theirs.add_special_tokens({"pad_token": "<pad>"}) == 1
    assert (ours.pad_token, ours.pad_token_id, len(ours)) == ("<pad>", 30522, 30523)
    assert ours.all_special_tokens == ["[UNK]", "[SEP]", "<pad>", "[CLS]", "[MASK]"]
    assert ours(["a b c", "a"], padding=True)["input_ids"][1] == [101, 1037, 102, 30522, 30522]
    assert ours.encode_batch(["a b c", "a"], padding="longest")[1].tokens[-1] == "<pad>"
    assert_same_special_tokens(ours, theirs)
    ours.save_pretrained(tmp_path / "ours")
    config = json.loads((tmp_path / "ours" / CONFIG).read_text(encoding="utf-8"))
    assert config["pad_token"] == "<pad>"
    assert_same_special_tokens(_auto(tmp_path / "ours"), theirs)
    assert_same_special_tokens(Tokenizer.from_pretrained(tmp_path / "ours"), theirs)
    assert_same_special_tokens(pickle.loads(pickle.dumps(ours)), theirs)
    theirs.save_pretrained(str(tmp_path / "theirs"))
    assert_same_special_tokens(Tokenizer.from_pretrained(tmp_path / "theirs"), theirs)


@pytest.mark.parametrize("impl", IMPLS)
def test_the_pad_token_setter_names_the_token_padding_inserts(impl, bert_vocab_file, tmp_path):
    """Setting ``pad_token`` to a token of the vocabulary pads with it, as in transformers; the
    vocabulary does not change. A token the vocabulary lacks leaves no padding token: transformers
    would pad with the unknown token's id, here ``pad_token`` is None and padding is a ValueError."""
    Tokenizer = tokenizer_class(impl)
    base = _directory(tmp_path / "base", bert_vocab_file, {})
    ours, theirs = Tokenizer.from_pretrained(base), _bert(base)
    ours.pad_token = theirs.pad_token = "[unused0]"
    assert (ours.pad_token_id, len(ours)) == (1, 30522)
    assert_same_special_tokens(ours, theirs)
    ours.save_pretrained(tmp_path / "ours")
    assert_same_special_tokens(_auto(tmp_path / "ours"), theirs)
    # The tokenizer's own files keep it too (Hugging Face's tokenizer.json alone would not).
    copies = (Tokenizer.from_str(ours.to_str()), Tokenizer.from_json(ours.to_json()), pickle.loads(pickle.dumps(ours)))
    for again in copies:
        assert (again.pad_token, again.options["pad_token"]) == ("[unused0]", "[unused0]")
        assert again == ours
    ours.pad_token = "<new>"
    assert (ours.pad_token, ours.pad_token_id, len(ours)) == (None, None, 30522)
    assert "<new>" not in ours.all_special_tokens
    with pytest.raises(ValueError, match=r"asking to pad, but the vocabulary has no padding token"):
        ours(["a b", "a"], padding=True)
    with pytest.raises(ValueError, match=r'padding needs "<new>" in the vocabulary'):
        ours.encode_batch(["a b", "a"], padding="longest")
    with pytest.raises(TypeError, match=r"pad_token must be a str, not NoneType"):
        ours.pad_token = None
    for name in ("pad_token", "mask_token", "bos_token", "eos_token"):
        with pytest.raises(ValueError, match=rf"{name} must not be empty"):
            setattr(ours, name, "")


@pytest.mark.parametrize("impl", IMPLS)
def test_an_empty_named_token_for_add_special_tokens_is_refused(impl, bert_vocab_file, tmp_path):
    """transformers takes ``add_special_tokens({"mask_token": ""})`` and lists "" among the special
    tokens with the unknown token's id (and pads with that id for an empty pad token): here it is a
    ValueError naming the key, and nothing changes."""
    tok = tokenizer_class(impl).from_pretrained(_directory(tmp_path, bert_vocab_file, {}))
    for name in ("pad_token", "mask_token", "bos_token", "eos_token", "unk_token", "cls_token", "sep_token"):
        with pytest.raises(ValueError, match=rf"add_special_tokens: {name} must not be empty"):
            tok.add_special_tokens({name: ""})
    assert (len(tok), tok.pad_token, tok.mask_token) == (30522, "[PAD]", "[MASK]")
    assert tok.all_special_tokens == ["[UNK]", "[SEP]", "[PAD]", "[CLS]", "[MASK]"]


@pytest.mark.parametrize("impl", IMPLS)
def test_special_tokens_travel_through_save_pretrained_both_ways(impl, bert_vocab_file, tmp_path):
    """Ours → save_pretrained → transformers' AutoTokenizer (and BertTokenizerFast) → save_pretrained
    → from_pretrained keeps the mask, bos and extra special tokens; so does a directory that
    transformers saves with custom special tokens."""
    Tokenizer = tokenizer_class(impl)
    base = _directory(tmp_path / "base", bert_vocab_file, {})
    ours, theirs = Tokenizer.from_pretrained(base), _bert(base)
    for tok in (ours, theirs):
        tok.add_tokens(["covid19"])
        tok.add_special_tokens({"additional_special_tokens": ["<ent>", "<x>", "<mask>", "<s>"]})
        tok.mask_token, tok.bos_token = "<mask>", "<s>"
    assert_same_special_tokens(ours, theirs)
    ours.save_pretrained(tmp_path / "ours")
    config = json.loads((tmp_path / "ours" / CONFIG).read_text(encoding="utf-8"))
    assert config["extra_special_tokens"] == ["<ent>", "<x>", "<mask>", "<s>"]
    assert (config["mask_token"], config["bos_token"]) == ("<mask>", "<s>")
    assert_same_special_tokens(_bert(tmp_path / "ours"), theirs)
    auto = _auto(tmp_path / "ours")
    assert_same_special_tokens(auto, theirs)
    assert_same_special_tokens(Tokenizer.from_pretrained(tmp_path / "ours"), theirs)
    auto.save_pretrained(str(tmp_path / "auto"))
    assert_same_special_tokens(Tokenizer.from_pretrained(tmp_path / "auto"), theirs)
    theirs.save_pretrained(str(tmp_path / "theirs"))
    assert_same_special_tokens(Tokenizer.from_pretrained(tmp_path / "theirs"), theirs)


IN_VOCABULARY = {
    "named and extra": {"mask_token": "[unused7]", "extra_special_tokens": ["[unused5]"]},
    "additional": {"additional_special_tokens": ["[unused3]", "<new>"]},
    "pad": {"pad_token": "[unused2]"},
    "flags": {"mask_token": {"__type": "AddedToken", "content": "[unused7]", "lstrip": True, "rstrip": False,
                             "single_word": False, "normalized": False, "special": True}},
}  # fmt: skip


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("case", sorted(IN_VOCABULARY))
def test_configured_tokens_the_vocabulary_has_are_matched_in_raw_text(impl, case, bert_vocab_file, tmp_path):
    """With a tokenizer.json, a configured special token its vocabulary has but its added tokens lack
    (``"mask_token": "[unused7]"``) is added as transformers adds it: it keeps its id, is matched in
    the raw text as a special token and skipped by ``decode(..., skip_special_tokens=True)``, also
    after ``save_pretrained``."""
    base = _directory(tmp_path / "base", bert_vocab_file, {})
    tokenizer_class(impl).from_pretrained(base).save_pretrained(tmp_path / "d")
    config_path = tmp_path / "d" / CONFIG
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config_path.write_text(json.dumps({**config, **IN_VOCABULARY[case]}), encoding="utf-8")
    (tmp_path / "d" / MAP).unlink()
    text = "a [unused7]  [unused5]b [unused3] <new> [unused2][MASK] z"

    def seen(tok: Any) -> Any:
        ids = tok(text)["input_ids"]
        added = {i: (t.content, t.special, t.normalized, t.lstrip) for i, t in tok.added_tokens_decoder.items()}
        return tok.tokenize(text), ids, tok.decode(ids, skip_special_tokens=True), len(tok), added

    ours, theirs = tokenizer_class(impl).from_pretrained(tmp_path / "d"), _bert(tmp_path / "d")
    expected = seen(theirs)
    assert seen(ours) == expected
    assert_same_special_tokens(ours, theirs)
    assert len(expected[0]) < len(ours.tokenize(text, split_special_tokens=True)), "some are matched whole"
    ours.save_pretrained(tmp_path / "again")
    assert seen(_bert(tmp_path / "again")) == seen(tokenizer_class(impl).from_pretrained(tmp_path / "again"))
    assert seen(tokenizer_class(impl).from_pretrained(tmp_path / "again")) == expected


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("pad", ["[unused3]", "<newpad>"])
def test_a_pad_token_keyword_is_the_one_padding_inserts(impl, pad, bert_vocab_file, tmp_path):
    """``from_pretrained(directory, pad_token=...)`` of a tokenizer.json directory whose files name no
    pad token: the keyword's token is the pad token and padding inserts it, as in transformers."""
    base = _directory(tmp_path / "base", bert_vocab_file, {})
    tokenizer_class(impl).from_pretrained(base).save_pretrained(tmp_path / "d")
    config_path = tmp_path / "d" / CONFIG
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config.pop("pad_token")
    config_path.write_text(json.dumps(config), encoding="utf-8")
    (tmp_path / "d" / MAP).unlink()
    ours = tokenizer_class(impl).from_pretrained(tmp_path / "d", pad_token=pad)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = transformers.BertTokenizerFast.from_pretrained(str(tmp_path / "d"), pad_token=pad)
    assert (ours.pad_token, ours.pad_token_id) == (theirs.pad_token, theirs.pad_token_id)
    texts = ["a b c d", "a", f"x {pad} y"]
    assert ours(texts, padding=True)["input_ids"] == theirs(texts, padding=True)["input_ids"]
    assert ours(texts, padding=True)["input_ids"][1][-1] == theirs.pad_token_id != 0


@pytest.mark.parametrize("impl", IMPLS)
def test_a_tokenizer_json_directory_adds_the_configured_tokens_it_lacks(impl, bert_vocab_file, tmp_path):
    """With a tokenizer.json, the configured special tokens the file lacks get the next ids (named
    ones first, in transformers' order, then the extra ones), as transformers adds them."""
    base = _directory(tmp_path / "base", bert_vocab_file, {})
    tokenizer_class(impl).from_pretrained(base).save_pretrained(tmp_path / "d")
    config_path = tmp_path / "d" / CONFIG
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config.update(mask_token="<mask>", eos_token="</s>", extra_special_tokens=["<ent>", "[SEP]"])
    config_path.write_text(json.dumps(config), encoding="utf-8")
    (tmp_path / "d" / MAP).unlink()
    ours, theirs = tokenizer_class(impl).from_pretrained(tmp_path / "d"), _bert(tmp_path / "d")
    assert (ours.eos_token_id, ours.mask_token_id, ours.convert_tokens_to_ids("<ent>")) == (30522, 30523, 30524)
    assert_same_special_tokens(ours, theirs)


@pytest.mark.parametrize("impl", IMPLS)
def test_a_tokenizer_json_directory_pads_with_the_configured_pad_token(impl, bert_vocab_file, tmp_path):
    """A tokenizer.json directory whose config names a pad token the file lacks: the token gets the
    next id and padding inserts it, as in transformers; a default padding saved with it keeps it."""
    base = _directory(tmp_path / "base", bert_vocab_file, {})
    tokenizer_class(impl).from_pretrained(base).save_pretrained(tmp_path / "d")
    config_path = tmp_path / "d" / CONFIG
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config.update(pad_token="<pad>")
    config_path.write_text(json.dumps(config), encoding="utf-8")
    (tmp_path / "d" / MAP).unlink()
    ours, theirs = tokenizer_class(impl).from_pretrained(tmp_path / "d"), _bert(tmp_path / "d")
    assert (ours.pad_token, ours.pad_token_id) == ("<pad>", 30522)
    assert_same_special_tokens(ours, theirs)
    theirs.backend_tokenizer.enable_padding(length=6, pad_id=30522, pad_token="<pad>")
    theirs.save_pretrained(str(tmp_path / "padded"))
    again = tokenizer_class(impl).from_pretrained(tmp_path / "padded")
    assert again.padding is not None
    assert (again.padding["pad_token"], again.padding["pad_id"]) == ("<pad>", 30522)
    assert again.encode("hello").ids == [101, 7592, 102, 30522, 30522, 30522]
    assert tokenizer_class(impl).from_str(again.to_str()).encode("hello").ids == again.encode("hello").ids
    assert tokenizer_class(impl).from_json(again.to_json()) == again


@pytest.mark.parametrize("impl", IMPLS)
def test_a_call_leaves_out_the_default_padding_of_a_directory_file(impl, bert_vocab_file, tmp_path):
    """A tokenizer.json that pads to a fixed length (as transformers saves bert-base-uncased's) pads
    ``encode`` by default, but ``tokenizer(text)`` pads only when asked, as transformers' call does."""
    base = _directory(tmp_path / "base", bert_vocab_file, {})
    theirs = _bert(base)
    theirs.backend_tokenizer.enable_padding(length=16)
    theirs.save_pretrained(str(tmp_path / "d"))
    ours, theirs = tokenizer_class(impl).from_pretrained(tmp_path / "d"), _bert(tmp_path / "d")
    assert len(ours.encode("hello").ids) == 16
    assert ours("hello")["input_ids"] == theirs("hello")["input_ids"] == [101, 7592, 102]
    assert ours(["hello", "a b"], padding=True)["input_ids"] == theirs(["hello", "a b"], padding=True)["input_ids"]


@pytest.mark.parametrize("impl", IMPLS)
def test_real_model_directories_name_the_tokens_bert_tokenizer_fast_names(impl, hf_tokenizers_dir):
    """The published model directories (tokenizer.json and vocab.txt, no config): the special-token
    attributes are BertTokenizerFast's."""
    for name in ("baai-bge-small-en", "bert-base-chinese", "bert-base-multilingual-cased", "issue-100"):
        directory = hf_tokenizers_dir / name
        ours, theirs = tokenizer_class(impl).from_pretrained(directory), _bert(directory)
        for attribute in ATTRIBUTES:
            assert getattr(ours, attribute) == getattr(theirs, attribute), (name, attribute)
        assert len(ours) == len(theirs)


@pytest.mark.parametrize("impl", IMPLS)
def test_bad_special_tokens_in_a_directory_are_named(impl, bert_vocab_file, tmp_path):
    """Special or added tokens a directory gives in a shape transformers cannot mean are a ValueError
    naming the file and the key; an added token whose id does not follow the vocabulary too."""
    Tokenizer = tokenizer_class(impl)
    bad = [
        ({CONFIG: {"mask_token": 5}}, r"tokenizer_config\.json: mask_token: expected a string"),
        ({MAP: {"mask_token": {"lstrip": True}}}, r"special_tokens_map\.json: mask_token: expected a string"),
        ({MAP: {"mask_token": {"content": "<m>", "lstrip": "yes"}}}, r"special_tokens_map\.json: mask_token\.lstrip"),
        ({CONFIG: {"extra_special_tokens": "<ent>"}}, r"tokenizer_config\.json: extra_special_tokens: expected a list"),
        ({MAP: {"additional_special_tokens": [1]}}, r"special_tokens_map\.json: additional_special_tokens\[0\]"),
        ({ADDED: {"covid19": "x"}}, r"added_tokens\.json: \"covid19\": expected an id"),
        ({ADDED: {"covid19": 30530}}, r"added_tokens\.json: added token \"covid19\" has id 30530, but .* 30522"),
        ({CONFIG: {"added_tokens_decoder": {"x": _entry("a", False)}}}, r"added_tokens_decoder\[\"x\"\]: the key"),
        ({CONFIG: {"added_tokens_decoder": {"7": _entry("a", "no")}}}, r"added_tokens_decoder\[\"7\"\]\.special"),
        ({CONFIG: {"strip_accents": "y"}}, r'tokenizer_config\.json: strip_accents: expected true or false, found "y"'),
        ({CONFIG: {"clean_up_tokenization_spaces": 1}}, r"clean_up_tokenization_spaces: expected true or false, found"),
        ({CONFIG: {"mask_token": ""}}, r"tokenizer_config\.json: mask_token: an empty special token is not supported"),
        ({MAP: {"pad_token": {"content": ""}}}, r"special_tokens_map\.json: pad_token: an empty special token"),
        ({CONFIG: {"extra_special_tokens": ["<x>", ""]}}, r"extra_special_tokens\[1\]: an empty special token"),
    ]  # fmt: skip
    for i, (files, message) in enumerate(bad):
        directory = _directory(tmp_path / str(i), bert_vocab_file, files)
        with pytest.raises(ValueError, match=message):
            Tokenizer.from_pretrained(directory)
        shutil.rmtree(directory)


@pytest.mark.parametrize("impl", IMPLS)
def test_special_token_settings_check_their_type(impl, bert_vocab_file):
    """The settable special tokens take a str (or None); ``extra_special_tokens`` a list of str."""
    tok = tokenizer_class(impl).from_vocab_file(str(bert_vocab_file))
    for name in ("mask_token", "bos_token", "eos_token"):
        with pytest.raises(TypeError, match=rf"{name} must be a str or None, not int"):
            setattr(tok, name, 3)
    with pytest.raises(TypeError, match=r"extra_special_tokens must be an iterable of str, not str"):
        tok.extra_special_tokens = "<ent>"
    with pytest.raises(TypeError, match=r"extra_special_tokens\[1\] must be str, not int"):
        tok.extra_special_tokens = ["<ent>", 3]
    tok.extra_special_tokens = ["[SEP]", "[MASK]", "not-in-the-vocabulary"]
    assert tok.extra_special_tokens == ["[SEP]", "[MASK]"]
    assert tok.all_special_tokens == ["[UNK]", "[SEP]", "[PAD]", "[CLS]", "[MASK]"]
