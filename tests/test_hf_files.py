"""Hugging Face ``tokenizer.json`` files, in and out (spec section 10).

Real files (bert-base-uncased's, and the ones in ../shared/data/hf-tokenizers,
see its SOURCES.md): loaded by ``PyTokenizer.from_file``, they encode real
English and multilingual lines and pairs exactly as Hugging Face ``tokenizers``
loading the same file (ids, tokens, offsets, type ids, special-tokens and
attention masks), and decode the same. Our export loads in ``tokenizers`` and
``transformers`` and encodes the same, and comes back to an equal tokenizer.
Every file that describes something we do not run is refused with a
ValueError naming the component and its JSON path. The pure-Python twin gives
the engine's results and errors.
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
from fast_wordpiece.reference.pre_tokenizer import pre_tokenize  # noqa: E402

FIELDS = ("ids", "tokens", "offsets", "type_ids", "special_tokens_mask", "attention_mask")
REAL = ("baai-bge-small-en", "bert-base-chinese", "bert-base-multilingual-cased", "issue-100")
#: Small configs that load (the others are refused, see test_refused_real_configs).
CONFIGS = (
    "added-token-order",
    "minimal",
    "dont-clean-text",
    "dont-handle-chinese-chars",
    "dont-strip-accents",
    "with-empty-token",
    "with-single-word-added-token",
    "missing-sep-in-vocab",
)
N_LINES, N_PAIRS, N_TWIN = 400, 60, 25


def fields(encoding: Any) -> dict[str, list]:
    return {name: [tuple(o) if name == "offsets" else o for o in getattr(encoding, name)] for name in FIELDS}


@pytest.fixture(scope="module")
def texts(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[str]:
    """English and German/Russian/Chinese lines, with literal special tokens and odd characters."""
    step = max(1, len(shakespeare_lines) // N_LINES)
    english = shakespeare_lines[::step][: N_LINES // 2]
    others = multilingual_lines[: N_LINES // 2]
    made = ["[CLS]x[SEP] [MASK]y", "Ünïcödé naïve café İstanbul ﬁ", "tab\there\u00a0nbsp\u200bzw", "", "   "]
    return [*made, *english, *others]


def pairs(texts: list[str]) -> list[tuple[str, str]]:
    return list(zip(texts[::2], texts[1::2]))[:N_PAIRS]


def assert_same(ours: Any, hf: Any, texts: list[str], *, decode: bool = True) -> None:
    """``ours`` encodes (and decodes) ``texts`` and their pairs exactly as the HF tokenizer ``hf``."""
    for text in texts:
        got, want = ours.encode(text), hf.encode(text)
        assert fields(got) == fields(want), text
        if decode:
            for skip in (False, True):
                assert ours.decode(got.ids, skip) == hf.decode(want.ids, skip_special_tokens=skip), text
    for a, b in pairs(texts):
        assert fields(ours.encode(a, b)) == fields(hf.encode(a, b)), (a, b)
    batch = pairs(texts)[:10]
    assert [fields(e) for e in ours.encode_batch(batch)] == [fields(e) for e in hf.encode_batch(batch)]


def real_files(hf_dir: Path, bert_json: Path) -> dict[str, Path]:
    files = {name: hf_dir / name / "tokenizer.json" for name in REAL}
    files.update({name: hf_dir / "configs" / f"{name}.json" for name in CONFIGS})
    return {"bert-base-uncased": bert_json, **files}


@pytest.fixture(scope="module")
def files(hf_tokenizers_dir: Path, bert_tokenizer_json: Path) -> dict[str, Path]:
    return real_files(hf_tokenizers_dir, bert_tokenizer_json)


@pytest.mark.parametrize("name", ["bert-base-uncased", *REAL, *CONFIGS])
def test_real_files_encode_like_hugging_face(name: str, files: dict[str, Path], texts: list[str]) -> None:
    path = files[name]
    hf = tokenizers.Tokenizer.from_file(str(path))
    engine = fast_wordpiece.PyTokenizer.from_file(path)
    assert_same(engine, hf, texts)
    assert engine.get_vocab() == hf.get_vocab()
    twin = reference.PyTokenizer.from_file(path)
    assert_same(twin, hf, texts[:N_TWIN])
    assert twin == fast_wordpiece.reference.PyTokenizer.from_json(engine.to_json())
    assert json.loads(twin.to_str()) == json.loads(engine.to_str())


@pytest.mark.parametrize("name", ["bert-base-uncased", *REAL, *CONFIGS])
def test_our_export_encodes_the_same_in_hugging_face(
    name: str, files: dict[str, Path], texts: list[str], tmp_path: Path
) -> None:
    engine = fast_wordpiece.PyTokenizer.from_file(files[name])
    engine.save(tmp_path / "tokenizer.json")
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    assert_same(engine, hf, texts)
    again = fast_wordpiece.PyTokenizer.from_file(tmp_path / "tokenizer.json")
    assert again == engine
    assert fast_wordpiece.PyTokenizer.from_str(engine.to_str()) == engine


def test_transformers_loads_our_export(files: dict[str, Path], texts: list[str], tmp_path: Path) -> None:
    transformers = pytest.importorskip("transformers")
    engine = fast_wordpiece.PyTokenizer.from_file(files["bert-base-multilingual-cased"])
    engine.save(tmp_path / "tokenizer.json")
    fast = transformers.PreTrainedTokenizerFast(tokenizer_file=str(tmp_path / "tokenizer.json"))
    for text in texts[:100]:
        assert fast(text)["input_ids"] == engine.encode(text).ids
    for a, b in [(a, b) for a, b in pairs(texts) if a.strip() and b.strip()][:20]:  # transformers drops "" pairs
        out = fast(a, b, return_token_type_ids=True)
        ours = engine.encode(a, b)
        assert (out["input_ids"], out["token_type_ids"]) == (ours.ids, ours.type_ids)


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_trained_tokenizer_round_trips_with_its_merges(impl: Any, shakespeare_lines: list[str], tmp_path: Path) -> None:
    trained = impl.PyTokenizer.train(shakespeare_lines[:3000], 600, show_progress=False, lowercase=False)
    trained.save(tmp_path / "tokenizer.json")
    loaded = impl.PyTokenizer.from_file(tmp_path / "tokenizer.json")
    assert loaded == trained
    assert loaded.merges == trained.merges
    assert loaded.merges
    assert loaded.options == trained.options
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    assert_same(loaded, hf, shakespeare_lines[3000 : 3000 + (200 if impl is fast_wordpiece else 20)])
    assert pickle.loads(pickle.dumps(loaded)) == loaded


# ----------------------------------------------------------------------------- hand-made files


def hf_file(**changes: Any) -> dict[str, Any]:
    """A small HF tokenizer.json (what ``tokenizers`` writes for a BERT WordPiece), with changes."""
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "sat", "on", "mat", "!", ",", "a", "t", "s"]
    vocab += ["##at", "##s", "##t", "##a", "@@at", "@@s", "@@t", "Cat", "ca"]
    doc: dict[str, Any] = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {
                "id": i,
                "content": t,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
            for i, t in enumerate(vocab[:5])
        ],
        "normalizer": {
            "type": "BertNormalizer",
            "clean_text": True,
            "handle_chinese_chars": True,
            "strip_accents": None,
            "lowercase": True,
        },
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 3], "cls": ["[CLS]", 2]},
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {
            "type": "WordPiece",
            "unk_token": "[UNK]",
            "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 100,
            "vocab": {t: i for i, t in enumerate(vocab)},
        },
    }
    for path, value in changes.items():
        *parents, last = path.split("__")
        target = doc
        for p in parents:
            target = target[p]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value
    return doc


SAMPLES = ["The cat sat on the mat!", "Cats, a mat, the CAT's hat", "  catsat ca\tt", "[CLS] the [SEP]", "Ünï"]
SAMPLES += ["cat!!, a_t--s ?! €$ mat...", "e\u0301t \u200dt ‿s"]

VALID = {
    "bert-processing": {},
    "no-model-type": {"model__type": KeyError},
    "template": {
        "post_processor": json.loads(
            '{"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, '
            '{"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "[SEP]", "type_id": 0}}], '
            '"pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, '
            '{"SpecialToken": {"id": "[SEP]", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}, '
            '{"SpecialToken": {"id": "[SEP]", "type_id": 1}}], "special_tokens": {'
            '"[CLS]": {"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]}, '
            '"[SEP]": {"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}}}'
        )
    },
    "no-post-processor": {"post_processor": None},
    "other-prefix-no-cleanup": {
        "model__continuing_subword_prefix": "@@",
        "decoder__prefix": "@@",
        "decoder__cleanup": False,
    },
    "whitespace-split": {"pre_tokenizer": {"type": "WhitespaceSplit"}},
    "whitespace": {"pre_tokenizer": {"type": "Whitespace"}},
    "no-decoder": {"decoder": None},
    "sequence-strip-lowercase": {
        "normalizer": {
            "type": "Sequence",
            "normalizers": [{"type": "Strip", "strip_left": True, "strip_right": True}, {"type": "Lowercase"}],
        }
    },
    "bert-then-lowercase": {
        "normalizer": {
            "type": "Sequence",
            "normalizers": [
                {
                    "type": "BertNormalizer",
                    "clean_text": True,
                    "handle_chinese_chars": False,
                    "strip_accents": None,
                    "lowercase": False,
                },
                {"type": "Lowercase"},
            ],
        }
    },
    "no-normalizer": {"normalizer": None},
    "nfd-strip-accents-lowercase": {
        "normalizer": {
            "type": "Sequence",
            "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}, {"type": "Lowercase"}],
        }
    },
    "nfd-strip-accents": {
        "normalizer": {"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}]}
    },
    # The Hugging Face course's WordPiece normalizer: the same text and offsets as BERT's order.
    "nfd-lowercase-strip-accents": {
        "normalizer": {
            "type": "Sequence",
            "normalizers": [{"type": "NFD"}, {"type": "Lowercase"}, {"type": "StripAccents"}],
        }
    },
    "lowercase-nfd-strip-accents": {
        "normalizer": {
            "type": "Sequence",
            "normalizers": [{"type": "Lowercase"}, {"type": "NFD"}, {"type": "StripAccents"}],
        }
    },
    "nfd-strip-between-strip-accents": {
        "normalizer": {
            "type": "Sequence",
            "normalizers": [
                {"type": "NFD"},
                {"type": "Strip", "strip_left": True, "strip_right": False},
                {"type": "StripAccents"},
                {"type": "Lowercase"},
            ],
        }
    },
    "short-words": {"model__max_input_chars_per_word": 3},
    "default-truncation-and-padding": {
        "truncation": {"direction": "Left", "max_length": 8, "strategy": "LongestFirst", "stride": 1},
        "padding": {
            "strategy": {"Fixed": 9},
            "direction": "Left",
            "pad_to_multiple_of": 4,
            "pad_id": 0,
            "pad_type_id": 0,
            "pad_token": "[PAD]",
        },
    },
    "default-padding-longest": {
        "padding": {
            "strategy": "BatchLongest",
            "direction": "Right",
            "pad_to_multiple_of": None,
            "pad_id": 0,
            "pad_type_id": 0,
            "pad_token": "[PAD]",
        }
    },
    "added-normalized-and-not": {
        "added_tokens": [
            {
                "id": 0,
                "content": "[PAD]",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            },
            {
                "id": 1,
                "content": "[UNK]",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            },
            {
                "id": 6,
                "content": "cat",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": True,
                "special": False,
            },
            {
                "id": 24,
                "content": "<x>",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": False,
            },
            {
                "id": 25,
                "content": "at!",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": True,
                "special": True,
            },
        ]
    },
    "added-outside-model": {
        "added_tokens": [
            {
                "id": 24,
                "content": "<x>",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
        ]
    },
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_supported_components_encode_like_hugging_face(name: str) -> None:
    text = json.dumps(hf_file(**VALID[name]))
    hf = tokenizers.Tokenizer.from_str(text)
    samples = [*SAMPLES, "a<x>cat", "the cat sat on the mat on the mat"]
    for impl in (fast_wordpiece, reference):
        ours = impl.PyTokenizer.from_str(text)
        assert_same(ours, hf, samples)
        assert ours.get_vocab() == hf.get_vocab()
        assert impl.PyTokenizer.from_str(ours.to_str()) == ours
        assert_same(ours, tokenizers.Tokenizer.from_str(ours.to_str()), samples)
        assert (ours.truncation, ours.padding) == (hf.truncation, hf.padding)


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_defaults_apply_when_a_call_gives_none(impl: Any) -> None:
    text = json.dumps(hf_file(**VALID["default-truncation-and-padding"]))
    tok, hf = impl.PyTokenizer.from_str(text), tokenizers.Tokenizer.from_str(text)
    long = "the cat sat on the mat on the mat"
    assert len(tok.encode(long)) == 12  # truncated to 8, padded to 9, rounded up to 12
    untruncated = copy.deepcopy(tok)
    untruncated.no_truncation()
    assert fields(tok.encode(long, max_length=20)) == fields(untruncated.encode(long))  # the call's own
    assert len(tok.encode(long, padding="longest")) == 8
    assert impl.PyTokenizer.from_json(tok.to_json()) == tok
    # As Hugging Face's, no_truncation() and no_padding() change the tokenizer itself (and chain).
    hf.no_truncation()
    hf.no_padding()
    unpadded = copy.deepcopy(tok)
    assert unpadded.no_padding() is unpadded
    assert (unpadded.padding, unpadded.truncation) == (None, tok.truncation)
    bare = tok.no_truncation().no_padding()
    assert bare is tok
    assert (tok.truncation, tok.padding) == (None, None) == (hf.truncation, hf.padding)
    assert fields(tok.encode(long)) == fields(hf.encode(long))
    assert tok != impl.PyTokenizer.from_str(text)


INVALID = {
    'model: "BPE" is not supported': {"model__type": "BPE"},
    'version: "2.0" is not supported': {"version": "2.0"},
    'normalizer.normalizers[1]: "Replace" is not supported': {
        "normalizer": {
            "type": "Sequence",
            "normalizers": [{"type": "Lowercase"}, {"type": "Replace", "pattern": {"String": "a"}, "content": "b"}],
        }
    },
    'normalizer.normalizers[2]: "NFD" is not supported after a BertNormalizer that lowercases or strips accents, '
    "or after another NFD": {
        "normalizer": {
            "type": "Sequence",
            "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}, {"type": "NFD"}, {"type": "StripAccents"}],
        }
    },
    'normalizer.normalizers[1]: "NFD" is not supported after a BertNormalizer that lowercases': {
        "normalizer": {
            "type": "Sequence",
            "normalizers": [
                {
                    "type": "BertNormalizer",
                    "clean_text": True,
                    "handle_chinese_chars": True,
                    "strip_accents": None,
                    "lowercase": True,
                },
                {"type": "NFD"},
                {"type": "StripAccents"},
            ],
        }
    },
    'normalizer: "NFD" is supported only before StripAccents': {"normalizer": {"type": "NFD"}},
    "normalizer.normalizers[1]": {
        "normalizer": {
            "type": "Sequence",
            "normalizers": [{"type": "Lowercase"}, {"type": "Strip", "strip_left": "yes", "strip_right": True}],
        }
    },
    'normalizer.normalizers[1]: "NFD" is supported only before StripAccents, with at most Lowercase steps': {
        "normalizer": {"type": "Sequence", "normalizers": [{"type": "Lowercase"}, {"type": "NFD"}]}
    },
    'normalizer.normalizers[0]: "NFD" is supported only before StripAccents': {
        "normalizer": {
            "type": "Sequence",
            "normalizers": [{"type": "NFD"}, {"type": "Lowercase"}, {"type": "NFD"}, {"type": "StripAccents"}],
        }
    },
    'normalizer.normalizers[0]: "StripAccents" is not supported without an NFD right before it': {
        "normalizer": {"type": "Sequence", "normalizers": [{"type": "StripAccents"}, {"type": "NFD"}]}
    },
    'normalizer: "StripAccents" is not supported': {"normalizer": {"type": "StripAccents"}},
    'pre_tokenizer: "Metaspace" is not supported': {
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True}
    },
    'pre_tokenizer: "ByteLevel" is not supported': {
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
    },
    'post_processor: "RobertaProcessing" is not supported': {"post_processor": {"type": "RobertaProcessing"}},
    'post_processor.sep: "[SEP]" has id 4 here but id 3': {"post_processor__sep": ["[SEP]", 4]},
    'decoder: "BPEDecoder" is not supported': {"decoder": {"type": "BPEDecoder", "suffix": "</w>"}},
    'decoder.prefix: "@@" differs from model.continuing_subword_prefix': {"decoder__prefix": "@@"},
    'truncation.strategy: "Bogus" is not supported': {
        "truncation": {"direction": "Right", "max_length": 8, "strategy": "Bogus", "stride": 0}
    },
    'padding.pad_token: "<pad>" is not in the vocabulary': {
        "padding": {
            "strategy": "BatchLongest",
            "direction": "Right",
            "pad_to_multiple_of": None,
            "pad_id": 0,
            "pad_type_id": 0,
            "pad_token": "<pad>",
        }
    },
    'padding.pad_id: 1 is not the id of "[PAD]", which is 0': {
        "padding": {
            "strategy": "BatchLongest",
            "direction": "Right",
            "pad_to_multiple_of": None,
            "pad_id": 1,
            "pad_type_id": 0,
            "pad_token": "[PAD]",
        }
    },
    "padding.pad_type_id: 1 is not supported": {
        "padding": {
            "strategy": "BatchLongest",
            "direction": "Right",
            "pad_to_multiple_of": None,
            "pad_id": 0,
            "pad_type_id": 1,
            "pad_token": "[PAD]",
        }
    },
    "model.unk_token": {"model__unk_token": "<unk>"},
}


@pytest.mark.parametrize("message", sorted(INVALID))
def test_unsupported_components_are_refused_by_path(message: str) -> None:
    text = json.dumps(hf_file(**INVALID[message]))
    for impl in (fast_wordpiece, reference):
        with pytest.raises(ValueError, match="^" + re.escape(message)):
            impl.PyTokenizer.from_str(text)


def test_refused_real_configs(hf_tokenizers_dir: Path) -> None:
    """The invalid configs, and those with features not supported yet, give a ValueError naming the problem."""
    configs = hf_tokenizers_dir / "configs"
    expected = {
        "invalid/wrong-model-type.json": 'model: "NotWordPiece" is not supported',
        "invalid/wrong-normalizer.json": 'normalizer: "NotBertNormalizer" is not supported',
        "invalid/wrong-pretokenizer.json": 'pre_tokenizer: "NotBertPreTokenizer" is not supported',
        "invalid/wrong-version.json": 'version: "2.0" is not supported',
    }
    for name, message in expected.items():
        for impl in (fast_wordpiece, reference):
            with pytest.raises(ValueError, match="^" + re.escape(f"{configs / name}: {message}")):
                impl.PyTokenizer.from_file(configs / name)


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_the_minimal_vocab_file_encodes_like_hugging_face(impl: Any, hf_tokenizers_dir: Path) -> None:
    """configs/minimal.txt holds only the four special tokens: every word is [UNK]."""
    path = hf_tokenizers_dir / "configs" / "minimal.txt"
    ours, hf = impl.PyTokenizer.from_vocab_file(path), tokenizers.BertWordPieceTokenizer(str(path))
    assert ours.get_vocab() == hf.get_vocab()
    for a, b in [("hello world", None), ("Hello, World!", "[SEP] x"), ("", None)]:
        assert fields(ours.encode(a, b)) == fields(hf.encode(a, b))
    batch = ours.encode_batch(["a b c", "a"], padding="longest")
    hf.enable_padding(pad_id=hf.token_to_id("[PAD]"))
    assert [fields(e) for e in batch] == [fields(e) for e in hf.encode_batch(["a b c", "a"])]


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_vocab_files_without_a_needed_token_fail_when_it_is_needed(impl: Any, hf_tokenizers_dir: Path) -> None:
    """The invalid vocab.txt files: [UNK] is needed at load, [CLS] and [SEP] too with BERT's post-processing,
    [PAD] when padding is asked for."""
    invalid = hf_tokenizers_dir / "configs" / "invalid"
    said = f'{invalid / "no-unk.txt"}: unk_token "[UNK]" is not in the vocabulary'
    with pytest.raises(ValueError, match="^" + re.escape(said) + "$"):
        impl.PyTokenizer.from_vocab_file(invalid / "no-unk.txt")
    # Another unk_token the file has loads; one it lacks is named by the file too.
    assert impl.PyTokenizer.from_vocab_file(invalid / "no-unk.txt", unk_token="[SEP]").encode("x").tokens
    with pytest.raises(ValueError, match="^" + re.escape(f'{invalid / "no-cls.txt"}: unk_token "<unk>"')):
        impl.PyTokenizer.from_vocab_file(invalid / "no-cls.txt", unk_token="<unk>")
    for name, token in (("no-cls", "[CLS]"), ("no-sep", "[SEP]")):
        said = f'{invalid / name}.txt: "{token}" is not in the vocabulary, and BERT\'s post-processing adds it'
        with pytest.raises(ValueError, match="^" + re.escape(said)):
            impl.PyTokenizer.from_vocab_file(invalid / f"{name}.txt")
        plain = impl.PyTokenizer.from_vocab_file(invalid / f"{name}.txt", post_processor="none")
        assert plain.encode("[UNK]").tokens == ["[UNK]"]
    tok = impl.PyTokenizer.from_vocab_file(invalid / "no-pad.txt")
    assert len(tok.encode_batch(["a b", "a"])[1]) < len(tok.encode_batch(["a b", "a"])[0])
    with pytest.raises(ValueError, match=r'^padding needs "\[PAD\]" in the vocabulary'):
        tok.encode_batch(["a b", "a"], padding="longest")
    with pytest.raises(ValueError, match=r"^asking to pad, but the vocabulary has no padding token"):
        tok(["a b", "a"], padding=True)


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_export_refuses_what_hugging_face_cannot_run(impl: Any) -> None:
    tok = impl.PyTokenizer(["[UNK]", "a"], pre_tokenizer="regex")
    with pytest.raises(ValueError, match='pre_tokenizer="regex" has no Hugging Face equivalent'):
        tok.to_str()
    assert impl.PyTokenizer.from_json(tok.to_json()) == tok  # our own format keeps it


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_holes_survive_our_own_format_and_vocab_txt_refuses_them(impl: Any, tmp_path: Path) -> None:
    text = json.dumps(hf_file(model__vocab={"[UNK]": 3, "a": 0, "##b": 7}, added_tokens=[], post_processor=None))
    tok = impl.PyTokenizer.from_str(text)
    assert tok.id_to_token(5) is None
    assert tok.id_to_token(7) == "##b"
    assert tok.encode("ab c").ids == [0, 7, 3]
    assert impl.PyTokenizer.from_json(tok.to_json()) == tok
    assert pickle.loads(pickle.dumps(tok)) == tok
    with pytest.raises(ValueError, match=r"no token has id 1: a vocab\.txt cannot skip ids"):
        tok.save_vocab(tmp_path / "vocab.txt")
    hole = re.escape("id 5 is not in the vocabulary: no token has it (the vocabulary's 8 ids skip it)")
    with pytest.raises(ValueError, match=f"^{hole}$"):
        tok.decode([5])
    with pytest.raises(ValueError, match=r"^token_ids\[0\] = 8 is out of range for a vocabulary of 8 tokens$"):
        tok.decode([8])
    # The id-taking calls refuse a hole as decode does, rather than drop it from their answer, but
    # convert_ids_to_tokens, which gives None for it as transformers' (id_to_token) does.
    with pytest.raises(ValueError, match=hole):
        tok.get_special_tokens_mask([0, 5, 7], already_has_special_tokens=True)
    assert tok.convert_ids_to_tokens([0, 5, 7]) == ["a", None, "##b"]
    assert tok.convert_ids_to_tokens(5) is None
    assert tok.convert_ids_to_tokens([0, 7]) == ["a", "##b"]


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
@pytest.mark.parametrize("special", ["x\ny", "x\ry", "[X]\r\n"])
def test_a_vocab_txt_refuses_a_token_with_a_line_break(impl: Any, special: str, tmp_path: Path) -> None:
    """A token with a line break would come back from a vocab.txt as two lines, every id after it shifted:
    save_vocab refuses it, save_pretrained leaves the file out."""
    tok = impl.PyTokenizer.train(["hello world"], 30, 1, special_tokens=["[UNK]", special, "[CLS]", "[SEP]"],
                                 show_progress=False)  # fmt: skip
    assert tok.token_to_id(special) == 1
    quoted = re.escape(json.dumps(special, ensure_ascii=False))
    message = (
        f"^token 1 \\({quoted}\\) holds a line break: a line of a vocab\\.txt cannot hold it \\(save the tokenizer"
    )
    with pytest.raises(ValueError, match=message):
        tok.save_vocab(tmp_path / "vocab.txt")
    assert not (tmp_path / "vocab.txt").exists()
    written = tok.save_pretrained(tmp_path / "model")
    names = ["special_tokens_map.json", "tokenizer.json", "tokenizer_config.json"]
    assert sorted(Path(p).name for p in written) == names
    again = impl.PyTokenizer.from_pretrained(tmp_path / "model").get_vocab()  # [PAD] and [MASK] added after
    assert {token: again[token] for token in tok.get_vocab()} == tok.get_vocab()


def test_an_id_far_past_the_tokens_is_refused_at_once_and_a_few_holes_load(
    hf_tokenizers_dir: Path, tmp_path: Path
) -> None:
    """Every id up to the largest takes room: ids past 65,536 + 5 per token are a ValueError naming the id and
    its token, at once (a slot per id took 5 s and 565 MB at 10**7 and was killed by the OOM killer at 10**9);
    Hugging Face's own files, with a hundred holes in five tokens, load."""
    path = hf_tokenizers_dir / "configs" / "minimal.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert len(doc["model"]["vocab"]) == 5
    for impl in (fast_wordpiece, reference):
        assert impl.PyTokenizer.from_file(path).id_to_token(50) is None  # a hole
    for largest in (65_561, 10**7, 10**9, 2**32 - 1):
        doc["model"]["vocab"]["[MASK]"] = largest
        text = json.dumps(doc)
        said = (f'model.vocab: "[MASK]" has id {largest}, too large for 5 tokens: ids must be below 65561 '
                "(65536 + 5 per token; the ids no token has take room too)")  # fmt: skip
        for impl in (fast_wordpiece, reference):
            with pytest.raises(ValueError, match="^" + re.escape(said) + "$"):
                impl.PyTokenizer.from_str(text)
        (tmp_path / "big.json").write_text(text, encoding="utf-8")
        for impl in (fast_wordpiece, reference):
            with pytest.raises(ValueError, match="^" + re.escape(f"{tmp_path / 'big.json'}: {said}") + "$"):
                impl.PyTokenizer.from_file(tmp_path / "big.json")
    # The largest id allowed loads, alike, with its holes.
    doc["model"]["vocab"]["[MASK]"] = 65_560
    loaded = [impl.PyTokenizer.from_str(json.dumps(doc)) for impl in (fast_wordpiece, reference)]
    assert [t.token_to_id("[MASK]") for t in loaded] == [65_560, 65_560]
    assert [t.get_vocab_size() for t in loaded] == [5, 5]
    assert tokenizers.Tokenizer.from_str(json.dumps(doc)).token_to_id("[MASK]") == 65_560
    # Of two tokens with the largest id, the first is named; the id is checked before the two are.
    doc["model"]["vocab"] = {"[UNK]": 0, "b": 70_000, "a": 70_000}
    for impl in (fast_wordpiece, reference):
        with pytest.raises(ValueError, match=r'^model\.vocab: "a" has id 70000, too large for 3 tokens'):
            impl.PyTokenizer.from_str(json.dumps(doc))


def test_a_file_without_a_version_loads_as_in_hugging_face(hf_tokenizers_dir: Path) -> None:
    doc = json.loads((hf_tokenizers_dir / "configs" / "minimal.json").read_text(encoding="utf-8"))
    del doc["version"]
    text = json.dumps(doc)
    expected = tokenizers.Tokenizer.from_str(text).encode("Hello there").tokens
    for impl in (fast_wordpiece, reference):
        assert impl.PyTokenizer.from_str(text).encode("Hello there").tokens == expected
    # A null one is refused, as Hugging Face refuses it.
    doc["version"] = None
    with pytest.raises(Exception, match="invalid type: null"):
        tokenizers.Tokenizer.from_str(json.dumps(doc))
    for impl in (fast_wordpiece, reference):
        with pytest.raises(ValueError, match=r'^version: null is not supported \(expected "1\.0"\)$'):
            impl.PyTokenizer.from_str(json.dumps(doc))


def test_a_file_with_max_input_chars_per_word_0_is_refused_naming_the_field() -> None:
    """Hugging Face loads it (every word is then unknown); we refuse it, as the constructor refuses
    0, naming the field by its path in the file as every other import error does."""
    doc = json.loads(fast_wordpiece.PyTokenizer.train(["a b"], 30, show_progress=False).to_str())
    doc["model"]["max_input_chars_per_word"] = 0
    for impl in (fast_wordpiece, reference):
        with pytest.raises(ValueError, match=r"^model\.max_input_chars_per_word: must be >= 1, got 0$"):
            impl.PyTokenizer.from_str(json.dumps(doc))


def test_a_top_level_key_hugging_face_does_not_have_is_refused(hf_tokenizers_dir: Path) -> None:
    """A misspelt ``"normaliser"`` is no normalizer: Hugging Face refuses the file, and so do we,
    rather than encode without the file's normalizer."""
    doc = json.loads((hf_tokenizers_dir / "baai-bge-small-en" / "tokenizer.json").read_text(encoding="utf-8"))
    doc["normaliser"] = doc.pop("normalizer")
    doc["zz_extra"] = 1
    text = json.dumps(doc)
    with pytest.raises(Exception, match="expected `,` or `}`"):
        tokenizers.Tokenizer.from_str(text)
    keys = "version, truncation, padding, added_tokens, normalizer, pre_tokenizer, post_processor, decoder, model"
    for impl in (fast_wordpiece, reference):  # the first by name
        with pytest.raises(ValueError, match=rf'^a tokenizer\.json has no key "normaliser" \(its keys: {keys}\)$'):
            impl.PyTokenizer.from_str(text)
    # The family's readers too.
    corpus = ["hello world, the quick brown fox"] * 20
    bpe = fast_wordpiece.BPETokenizer.train(corpus, 270, show_progress=False)
    unigram = fast_wordpiece.UnigramTokenizer.train(corpus, 30, show_progress=False)
    family = [(bpe.to_json(), "BPETokenizer", "from_json"), (unigram.to_str(), "UnigramTokenizer", "from_str")]
    for saved, cls, load in family:
        doc = {**json.loads(saved), "postprocessor": None}
        tokenizers.Tokenizer.from_str(saved)  # the file as written loads in Hugging Face; with the key it does not
        with pytest.raises(Exception, match="expected `,` or `}`"):
            tokenizers.Tokenizer.from_str(json.dumps(doc))
        for impl in (fast_wordpiece, reference):
            with pytest.raises(ValueError, match=r'^a tokenizer\.json has no key "postprocessor" \(its keys: version'):
                getattr(getattr(impl, cls), load)(json.dumps(doc))
            # Its value unread: a number too large for a double is the key's error, not the number's.
            with pytest.raises(ValueError, match=r'^a tokenizer\.json has no key "zz" \(its keys: version'):
                getattr(getattr(impl, cls), load)(saved.rstrip()[:-1] + ', "zz": 1e400}')


# ----------------------------------------------------------------------------- model directories


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
@pytest.mark.parametrize("name", ["bert-base-uncased", "bert-base-chinese", "issue-100"])
def test_save_pretrained_loads_in_auto_tokenizer(
    impl: Any, name: str, files: dict[str, Path], texts: list[str], tmp_path: Path
) -> None:
    transformers = pytest.importorskip("transformers")
    ours = impl.PyTokenizer.from_file(files.get(name) or files["bert-base-uncased"].parent / "missing")
    written = ours.save_pretrained(tmp_path / "model")
    names = ["tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json"]
    assert [Path(p).name for p in written] == names
    auto = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "model"))
    sample = texts[: 80 if impl is fast_wordpiece else 15]
    plain = copy.deepcopy(ours).no_truncation().no_padding()  # transformers pads and truncates only when asked
    for text in sample:
        out = auto(text, return_token_type_ids=True)
        mine = plain.encode(text)
        assert (out["input_ids"], out["token_type_ids"], out["attention_mask"]) == (
            mine.ids,
            mine.type_ids,
            mine.attention_mask,
        ), text
        assert auto.decode(out["input_ids"]) == ours.decode(mine.ids)
    for a, b in [(a, b) for a, b in pairs(sample) if a.strip() and b.strip()][:10]:
        assert auto(a, b)["input_ids"] == plain.encode(a, b).ids
    assert impl.PyTokenizer.from_pretrained(tmp_path / "model") == ours


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
@pytest.mark.parametrize("lower", [True, False])
def test_from_pretrained_reads_vocab_txt_and_its_config_like_transformers(
    impl: Any, lower: bool, hf_tokenizers_dir: Path, texts: list[str], tmp_path: Path
) -> None:
    transformers = pytest.importorskip("transformers")
    model = tmp_path / "model"
    model.mkdir()
    (model / "vocab.txt").write_bytes((hf_tokenizers_dir / "bert-base-multilingual-cased" / "vocab.txt").read_bytes())
    config = {"tokenizer_class": "BertTokenizer", "do_lower_case": lower, "tokenize_chinese_chars": not lower}
    (model / "tokenizer_config.json").write_text(json.dumps(config))
    (model / "special_tokens_map.json").write_text(
        json.dumps({"unk_token": {"content": "[UNK]"}, "sep_token": "[SEP]"})
    )
    ours = impl.PyTokenizer.from_pretrained(model)
    assert (ours.options["lowercase"], ours.options["handle_chinese_chars"]) == (lower, not lower)
    bert = transformers.AutoTokenizer.from_pretrained(str(model))
    for text in texts[: 60 if impl is fast_wordpiece else 10]:
        assert bert(text)["input_ids"] == ours.encode(text).ids, text


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_from_pretrained_never_downloads(impl: Any, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"never downloads.*snapshot_download"):
        impl.PyTokenizer.from_pretrained("bert-base-uncased")
    (tmp_path / "tokenizer_config.json").write_text('{"mask_token": ""}')
    with pytest.raises(ValueError, match="mask_token: an empty special token is not supported"):
        impl.PyTokenizer.from_pretrained(tmp_path)
    (tmp_path / "tokenizer_config.json").write_text('{"do_lower_case": "yes"}')
    with pytest.raises(ValueError, match="do_lower_case: expected true or false"):
        impl.PyTokenizer.from_pretrained(tmp_path)


def test_a_model_directory_s_bad_files_are_named_alike(hf_tokenizers_dir: Path, tmp_path: Path) -> None:
    """Bytes that are not UTF-8 are the same ValueError in every file of a directory (not an OSError in its
    JSON files); a tokenizer.json that is a directory is an IsADirectoryError naming it."""
    minimal = (hf_tokenizers_dir / "configs" / "minimal.json").read_text(encoding="utf-8")
    for name in ("tokenizer_config.json", "special_tokens_map.json", "tokenizer.json", "added_tokens.json"):
        model = tmp_path / name.replace(".", "-")
        model.mkdir()
        (model / "tokenizer.json").write_text(minimal, encoding="utf-8")
        (model / name).write_bytes(b'{"a": "\xff"}')
        said = f"{model / name}: not UTF-8 text (invalid byte at offset 7)"
        for impl in (fast_wordpiece, reference):
            with pytest.raises(ValueError, match="^" + re.escape(said) + "$"):
                impl.PyTokenizer.from_pretrained(model)
    (tmp_path / "vocab.txt").write_bytes(b"[UNK]\n\xe9\n")
    for impl in (fast_wordpiece, reference):
        with pytest.raises(ValueError, match="^" + re.escape(f"{tmp_path / 'vocab.txt'}: not UTF-8 text")):
            impl.PyTokenizer.from_vocab_file(tmp_path / "vocab.txt")
    model = tmp_path / "dir-json"
    (model / "tokenizer.json").mkdir(parents=True)
    said = (f"[Errno 21] a model directory's tokenizer.json must be a file, and this one is a directory (and "
            f"there is no vocab.txt): '{model / 'tokenizer.json'}'")  # fmt: skip
    for impl in (fast_wordpiece, reference):
        with pytest.raises(IsADirectoryError) as caught:
            impl.PyTokenizer.from_pretrained(model)
        assert str(caught.value) == said
        assert caught.value.filename == str(model / "tokenizer.json")


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_split_special_tokens_treats_them_as_text_like_hugging_face(impl: Any, tmp_path: Path) -> None:
    """Special tokens written in the text are plain text (prompt-injection safety), as Hugging Face's
    ``encode_special_tokens`` and transformers' ``split_special_tokens``; other added tokens still match."""
    added = {"id": 24, "content": "<x>", "single_word": False, "lstrip": False, "rstrip": False, "normalized": False}
    special = {"id": 0, "content": "[SEP]", "single_word": False, "lstrip": False, "rstrip": False,
               "normalized": False, "special": True}  # fmt: skip
    text = json.dumps(
        hf_file(
            added_tokens=[
                special,
                {**added, "special": False},
                {**added, "id": 25, "content": "[MASK]", "special": True},
            ]
        )
    )
    hf = tokenizers.Tokenizer.from_str(text)
    hf.encode_special_tokens = True
    tok = impl.PyTokenizer.from_str(text)
    assert impl.PyTokenizer(["[UNK]"]).options["split_special_tokens"] is False
    split = impl.PyTokenizer.from_json(
        tok.to_json().replace('"split_special_tokens":false', '"split_special_tokens":true')
    )
    assert split.options["split_special_tokens"] is True
    samples = ["the [SEP] cat<x>[MASK] sat", "[SEP][MASK]<x>", "a[SEP]"]
    assert_same(split, hf, samples)
    assert [tok.encode(s).ids for s in samples] != [split.encode(s).ids for s in samples]
    assert impl.PyTokenizer.from_str(split.to_str()) == split
    split.save_pretrained(tmp_path / "model")
    # Read back as transformers reads it: the named special tokens the file's added tokens lack
    # ([UNK], [CLS], [PAD]) become special added tokens; the rest is as saved, and stays so.
    loaded = impl.PyTokenizer.from_pretrained(tmp_path / "model")
    assert loaded.options["split_special_tokens"] is True
    assert [loaded.encode(s).ids for s in samples] == [split.encode(s).ids for s in samples]
    assert set(loaded.get_added_vocab()) == set(split.get_added_vocab()) | {"[UNK]", "[CLS]", "[PAD]"}
    loaded.save_pretrained(tmp_path / "again")
    assert impl.PyTokenizer.from_pretrained(tmp_path / "again") == loaded
    transformers = pytest.importorskip("transformers")
    auto = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "model"))
    assert [auto(s)["input_ids"] for s in samples] == [split.encode(s).ids for s in samples]


# ----------------------------------------------------------------------------- other components on real files


def with_component(path: Path, **changes: Any) -> str:
    """The real file at ``path`` with some top-level components replaced."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc.update(changes)
    return json.dumps(doc)


BERT_OFF = {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True, "strip_accents": False,
            "lowercase": False}  # fmt: skip
#: Components on real files: what they replace, and the option they become.
COMPONENTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # Hugging Face's Whitespace, \\w+|[^\\w\\s]+
    "whitespace": ({"pre_tokenizer": {"type": "Whitespace"}}, {"pre_tokenizer": "wordpunct"}),
    # no decoder: Hugging Face joins the tokens with spaces
    "no-decoder": ({"decoder": None}, {"decoder": "none"}),
    # BERT's order with Hugging Face's StripAccents, which drops every mark
    "bert-nfd-strip-accents-lowercase": (
        {
            "normalizer": {
                "type": "Sequence",
                "normalizers": [BERT_OFF, {"type": "NFD"}, {"type": "StripAccents"}, {"type": "Lowercase"}],
            }
        },
        {"strip_all_marks": True, "strip_accents": True, "lowercase": True, "clean_text": True},
    ),
    # The Hugging Face course's order, and lowercasing first: the same as BERT's order
    "nfd-lowercase-strip-accents": (
        {
            "normalizer": {
                "type": "Sequence",
                "normalizers": [{"type": "NFD"}, {"type": "Lowercase"}, {"type": "StripAccents"}],
            }
        },
        {"strip_all_marks": True, "strip_accents": True, "lowercase": True, "clean_text": False},
    ),
    "lowercase-nfd-strip-accents": (
        {
            "normalizer": {
                "type": "Sequence",
                "normalizers": [{"type": "Lowercase"}, {"type": "NFD"}, {"type": "StripAccents"}],
            }
        },
        {"strip_all_marks": True, "strip_accents": True, "lowercase": True, "clean_text": False},
    ),
    "nfd-strip-accents": (
        {"normalizer": {"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}]}},
        {"strip_all_marks": True, "strip_accents": True, "lowercase": False, "clean_text": False},
    ),
}
RUNS = ["a--b?! ...", "x_y‿z £$€ 1,000.5%", "naïve e\u0301 क्षि \u200c ؟؟", "un##able ## x"]


@pytest.mark.parametrize("component", sorted(COMPONENTS))
@pytest.mark.parametrize("name", ["bert-base-uncased", "bert-base-multilingual-cased"])
def test_components_on_real_files(component: str, name: str, files: dict[str, Path], texts: list[str]) -> None:
    changes, option = COMPONENTS[component]
    text = with_component(files[name], **changes)
    hf = tokenizers.Tokenizer.from_str(text)
    engine = fast_wordpiece.PyTokenizer.from_str(text)
    assert engine.options.items() >= option.items()
    assert_same(engine, hf, [*RUNS, *texts])
    twin = reference.PyTokenizer.from_str(text)
    assert_same(twin, hf, [*RUNS, *texts[:N_TWIN]])
    assert json.loads(twin.to_str()) == json.loads(engine.to_str())
    assert twin.options == engine.options
    exported = tokenizers.Tokenizer.from_str(engine.to_str())
    assert_same(engine, exported, texts[:50])
    assert fast_wordpiece.PyTokenizer.from_str(engine.to_str()) == engine


def test_wordpunct_matches_hugging_face_on_every_code_point() -> None:
    """Every code point after a letter and after a symbol, in the engine, the twin and HF's ``Whitespace``."""
    hf = tokenizers.pre_tokenizers.Whitespace()
    off = {"lowercase": False, "strip_accents": False, "clean_text": False, "handle_chinese_chars": False}
    engine = fast_wordpiece.PyTokenizer(["[UNK]"], pre_tokenizer="wordpunct", post_processor="none", **off)
    code_points = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    for start in range(0, len(code_points), 0x8000):
        text = "".join(f" a{chr(c)} !{chr(c)}" for c in code_points[start : start + 0x8000])
        want = [span for _, span in hf.pre_tokenize_str(text)]
        assert [tuple(o) for o in engine.encode(text).offsets] == want, hex(code_points[start])
        assert pre_tokenize("wordpunct", text) == want, hex(code_points[start])


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_decoder_none_joins_tokens_with_spaces(impl: Any) -> None:
    tok = impl.PyTokenizer(["[UNK]", "[CLS]", "[SEP]", "un", "##able", "!"], decoder="none")
    ids = tok.encode("unable!").ids
    assert tok.decode(ids) == " ".join(tok.encode("unable!").tokens)
    assert tok.decode(ids, skip_special_tokens=True) == " ".join(tok.encode("unable!", add_special_tokens=False).tokens)
    assert impl.PyTokenizer.from_json(tok.to_json()) == tok
    assert json.loads(tok.to_str())["decoder"] is None
    with pytest.raises(ValueError, match='unknown decoder "bpe"'):
        impl.PyTokenizer(["[UNK]"], decoder="bpe")


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_training_counts_wordpunct_words(impl: Any, shakespeare_lines: list[str]) -> None:
    """Training with Hugging Face's Whitespace splitting: punctuation runs are words, as HF splits them."""
    corpus = [line + " --?! ..." for line in shakespeare_lines[:300]]
    tok = impl.PyTokenizer.train(corpus, 300, show_progress=False, pre_tokenizer="wordpunct")
    assert {"--?!", "..."} <= tok.get_vocab().keys()
    hf = tokenizers.Tokenizer.from_str(tok.to_str())
    assert_same(tok, hf, corpus[:20])


@pytest.mark.parametrize("order", ["NFD StripAccents", "NFD StripAccents Lowercase", "NFD Lowercase StripAccents",
                                   "Lowercase NFD StripAccents"])  # fmt: skip
def test_nfd_strip_accents_match_hugging_face_on_every_code_point(order: str) -> None:
    """[BertNormalizer(no strip, no lowercase), *order] on every code point, in context: the text, and the
    tokens, ids and offsets of the engine."""
    steps = [BERT_OFF, *({"type": kind} for kind in order.split())]
    normalizer = {"type": "Sequence", "normalizers": steps}
    hf_normalizer = tokenizers.Tokenizer.from_str(json.dumps(hf_file(normalizer=normalizer))).normalizer
    twin = reference.PyTokenizer.from_str(json.dumps(hf_file(normalizer=normalizer)))
    twin_normalizer = reference.Options(**twin.options).normalizer
    code_points = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    for start in range(0, len(code_points), 0x4000):
        text = "".join(f" a{chr(c)}\u0301{chr(c)}" for c in code_points[start : start + 0x4000])
        want = hf_normalizer.normalize_str(text)
        assert twin_normalizer.normalize(text)[0] == want, hex(code_points[start])
        # The engine through encoding, with a vocabulary of the normalized characters.
        chars = sorted(set(want) - {" "})
        vocab = {t: i for i, t in enumerate(["[UNK]", *chars, *(f"##{c}" for c in chars)])}
        doc = hf_file(normalizer=normalizer, pre_tokenizer={"type": "WhitespaceSplit"}, post_processor=None)
        doc["model"]["vocab"], doc["added_tokens"] = vocab, []
        hf = tokenizers.Tokenizer.from_str(json.dumps(doc))
        engine = fast_wordpiece.PyTokenizer.from_str(json.dumps(doc))
        assert fields(engine.encode(text)) == fields(hf.encode(text)), hex(code_points[start])


def test_lengths_in_a_files_padding_and_truncation_are_read_alike_up_to_2_64() -> None:
    """A length of the ``padding`` (``{"Fixed": n}``, ``pad_to_multiple_of``) and ``truncation``
    (``max_length``, ``stride``) sections is an int from 0 to 2**64 - 1 in the engine and the twin
    alike; a bool, a negative or a larger one is a ValueError."""
    from implementations import outcome

    base = json.loads(fast_wordpiece.PyTokenizer(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "a"]).to_str())
    padding = {"strategy": "BatchLongest", "direction": "Right", "pad_to_multiple_of": None}
    padding |= {"pad_id": 0, "pad_type_id": 0, "pad_token": "[PAD]"}
    truncation = {"direction": "Right", "max_length": 2**64 - 1, "strategy": "LongestFirst", "stride": 0}
    good, bad = [0, 2**32, 2**64 - 1], [2**64, -1, True]
    cases = [("padding", padding, {"strategy": {"Fixed": n}}, n in good) for n in good + bad]
    cases += [("padding", padding, {"pad_to_multiple_of": n}, n in good) for n in good + bad]
    cases += [("truncation", truncation, {"max_length": n}, n in good) for n in [2**64 - 1, *bad]]
    cases += [("truncation", truncation, {"stride": n}, False) for n in bad]

    def read(m: Any, text: str) -> Any:
        tokenizer = m.PyTokenizer.from_str(text)
        return tokenizer.padding, tokenizer.truncation

    for section, fields, change, accepted in cases:
        text = json.dumps({**base, section: {**fields, **change}})
        engine, twin = (outcome(lambda m=m, text=text: read(m, text)) for m in (fast_wordpiece, reference))
        assert engine[0] == ("ok" if accepted else "ValueError"), (section, change, engine)
        assert twin[0] == engine[0], (section, change, twin)
        if accepted:
            assert twin == engine


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_a_strip_normalizer_refuses_the_added_tokens_it_would_change(impl: Any, bert_tokenizer_json: Path) -> None:
    """Hugging Face strips a normalized added token's normalized form with the normalizer's ``Strip``,
    which this pipeline drops: such a token whose form starts or ends with whitespace is refused (it
    would match other text), every other file loads and encodes as Hugging Face does."""
    base = json.loads(bert_tokenizer_json.read_text(encoding="utf-8"))
    bert = base["normalizer"]  # lowercases, and puts spaces around CJK characters
    both = {"type": "Strip", "strip_left": True, "strip_right": True}
    right = {"type": "Strip", "strip_left": False, "strip_right": True}
    texts = ["bar", "foobar", "x bar y", "a 中 b", "中 bar 中", " bar "]
    cases = [  # the normalizer, the ends it strips, whether it puts spaces around CJK characters
        (both, (True, True), False),
        ({"type": "Sequence", "normalizers": [bert, both]}, (True, True), True),
        ({"type": "Sequence", "normalizers": [bert, right]}, (False, True), True),
    ]
    for normalizer, (left, right_end), spaced in cases:
        for content, normalized in (("bar ", True), (" bar", True), ("中", True), ("bar", True), ("bar ", False)):
            j = copy.deepcopy(base)
            j["normalizer"] = normalizer
            i = len(j["added_tokens"])
            flags = dict.fromkeys(("single_word", "lstrip", "rstrip", "special"), False)
            j["added_tokens"].append({"id": 30522, "content": content, **flags, "normalized": normalized})
            text = json.dumps(j)
            form = content.replace("中", " 中 ") if spaced else content
            if normalized and ((left and form.startswith(" ")) or (right_end and form.endswith(" "))):
                message = (f"added_tokens[{i}]: the normalized added token {json.dumps(content, ensure_ascii=False)} "
                           f"(normalized: {json.dumps(form, ensure_ascii=False)}) is not supported with the "
                           'normalizer\'s "Strip", which Hugging Face applies to it')  # fmt: skip
                with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
                    impl.PyTokenizer.from_str(text)
                continue
            assert_same(impl.PyTokenizer.from_str(text), tokenizers.Tokenizer.from_str(text), texts)


@pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
def test_a_vocab_id_that_is_no_u32_is_named_with_its_token(impl: Any, bert_tokenizer_json: Path) -> None:
    """An id that is negative, fractional, too large for 32 bits or not a number: a ValueError naming
    the first such token in order (by code point), as the engine and the twin read the file."""
    base = json.loads(bert_tokenizer_json.read_text(encoding="utf-8"))
    for bad, shown in ((-1, "-1"), (1.5, "1.5"), (2**32, "4294967296"), ("7", '"7"'), (None, "null"), (True, "true")):
        doc = copy.deepcopy(base)
        doc["model"]["vocab"].update({"zzz-bad": bad, "aaa-bad": bad})
        with pytest.raises(ValueError, match=f'^model.vocab: invalid id {re.escape(shown)} for "aaa-bad"$'):
            impl.PyTokenizer.from_str(json.dumps(doc))


def _without_our_extra(text: str, pretty: bool) -> str:
    """``text`` (a tokenizer.json we wrote) without ``model.fast_wordpiece``, the model's last key,
    which Hugging Face's loader ignores and so leaves out when it writes the file again."""
    extra = json.loads(text)["model"].get("fast_wordpiece")
    if extra is None:
        return text
    if pretty:
        shown = ',\n    "fast_wordpiece": ' + json.dumps(extra, ensure_ascii=False, indent=2).replace("\n", "\n    ")
    else:
        shown = ',"fast_wordpiece":' + json.dumps(extra, ensure_ascii=False, separators=(",", ":"))
    assert text.count(shown) == 1
    return text.replace(shown, "")


def _file_texts(impl: Any, kind: str, bert_tokenizer_json: Path, hf_dir: Path) -> dict[bool, str]:
    """The Hugging Face file text ``impl`` writes for the tokenizer ``kind``: {pretty: text} (the
    family's BPETokenizer writes one line only, UnigramTokenizer indented only)."""
    corpus = ["hello world, the quick brown fox", "hello there, world!"] * 5
    if kind == "bpe":
        bpe = impl.BPETokenizer.train(corpus, 280, special_tokens=["<pad>", "<s>"])
        return {False: bpe.to_json()}
    if kind == "bpe-padded":  # a padding section, kept as the file has it, in Hugging Face's order
        doc = json.loads(impl.BPETokenizer.train(corpus, 280, special_tokens=["<pad>"]).to_json())
        doc["padding"] = {"strategy": {"Fixed": 8}, "direction": "Left", "pad_to_multiple_of": None,
                          "pad_id": 0, "pad_type_id": 0, "pad_token": "<pad>"}  # fmt: skip
        return {False: impl.BPETokenizer.from_json(json.dumps(doc)).to_json()}
    if kind == "unigram":
        return {True: impl.UnigramTokenizer.train(corpus, 40, special_tokens=["<unk>", "<pad>", "</s>"]).to_str()}
    if kind == "wordpiece":
        tok = impl.PyTokenizer.train(corpus, 70, show_progress=False)
        tok.add_tokens(["brown fox", impl.AddedToken("zz", single_word=True, lstrip=True)])
        tok.add_special_tokens(["<extra>"])
        tok.enable_truncation(16, stride=2, strategy="only_first", direction="left")
        tok.enable_padding(direction="left", length=16, pad_to_multiple_of=8)
    elif kind == "wordpiece-accents":  # the normalizer as a Sequence
        tok = impl.PyTokenizer.train(corpus, 70, show_progress=False, strip_accents=True, strip_all_marks=True)
        tok.enable_padding(pad_to_multiple_of=4)
    elif kind == "bert-base-uncased":
        tok = impl.PyTokenizer.from_file(bert_tokenizer_json)
    else:
        tok = impl.PyTokenizer.from_file(hf_dir / kind)
    return {pretty: tok.to_str(pretty=pretty) for pretty in (False, True)}


FILE_KINDS = ["wordpiece", "wordpiece-accents", "bert-base-uncased", "bert-base-chinese/tokenizer.json",
              "configs/with-single-word-added-token.json", "configs/added-token-order.json",
              "bpe", "bpe-padded", "unigram"]  # fmt: skip


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_file_text_is_hugging_faces_and_the_twins_to_the_byte(
    kind: str, bert_tokenizer_json: Path, hf_tokenizers_dir: Path
) -> None:
    """The text of a tokenizer.json the engine writes (``to_str``, ``save``, the family's ``to_json`` and
    ``to_str``) is the twin's to the byte, and is what Hugging Face ``tokenizers`` writes for the file it
    loads from it (``to_str(pretty=...)``): its key order, separators and indents, on one line or
    indented (spec section 10); our extra key aside, which its loader ignores."""
    engine = _file_texts(fast_wordpiece, kind, bert_tokenizer_json, hf_tokenizers_dir)
    twin = _file_texts(reference, kind, bert_tokenizer_json, hf_tokenizers_dir)
    for pretty, text in engine.items():
        assert twin[pretty] == text, f"pretty={pretty}"
        again = tokenizers.Tokenizer.from_str(text).to_str(pretty=pretty)
        assert again == _without_our_extra(text, pretty), f"pretty={pretty}"


@pytest.mark.parametrize("kind", ["trained", "bert-base-uncased", "configs/added-token-order.json", "chars"])
def test_our_own_format_text_is_the_twins_to_the_byte(
    kind: str, bert_tokenizer_json: Path, hf_tokenizers_dir: Path
) -> None:
    """``to_json()`` (our own format; CharTokenizer's too): the engine's text is the twin's to the byte,
    its padding and truncation sections in Hugging Face's key order."""

    def text(impl: Any) -> str:
        if kind == "chars":
            return impl.CharTokenizer.train(["hello world", "naïve café"], special_tokens=["[UNK]", "<pad>"]).to_json()
        if kind == "trained":
            tok = impl.PyTokenizer.train(["hello world the quick brown fox"] * 3, 50, show_progress=False)
            tok.add_tokens(["quick fox"])
        else:
            path = bert_tokenizer_json if kind == "bert-base-uncased" else hf_tokenizers_dir / kind
            tok = impl.PyTokenizer.from_file(path)
        tok.enable_truncation(12, direction="left")
        tok.enable_padding(length=12)
        return str(tok.to_json())

    assert text(reference) == text(fast_wordpiece)


@pytest.mark.parametrize("text", ["[1]", '["fast-wordpiece", 1]', "  []", "7", '"tokenizer"'])
def test_json_that_is_no_object_is_named_so(text: str) -> None:
    """A JSON array is no file of ours either (serde would read a struct from one)."""
    for impl in (fast_wordpiece, reference):
        with pytest.raises(ValueError, match=r"^a tokenizer\.json must be a JSON object$"):
            impl.PyTokenizer.from_str(text)
