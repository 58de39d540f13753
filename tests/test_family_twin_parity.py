"""The family's twins do what the engine does, for what they once did otherwise: Unigram's
tokenizer.json (``to_str``, ``save``, ``from_str``, ``from_file``, ``load``), the family's
``train_from_files``, the checks of Unigram's and the table vocabularies' arguments, the order in
which training checks its arguments, and ``unk_token`` being read-only. Each case runs on both and
compares what they give: the result, or the exception's type and message."""

from __future__ import annotations

import json
import random
import re
import struct
import types
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
from implementations import outcome

import fast_wordpiece
import fast_wordpiece.reference
from fast_wordpiece.reference.json_numbers import read_float

MODULES = [fast_wordpiece, fast_wordpiece.reference]
TEXTS = ["the cat sat on the mat", "a dog <s> ate the hat", "über naïve café"] * 4


def both(call: Callable[[Any], Any]) -> tuple[str, Any]:
    """``call(module)`` for the engine and the twin: the same outcome, which is returned."""
    engine, twin = (outcome(lambda m=m: call(m)) for m in MODULES)
    assert engine == twin
    return engine


def some_scores() -> list[float]:
    """Scores of every magnitude a float has, and the ones training makes."""
    rng = random.Random(7)
    scores = [0.0, -0.0, 1e15, 1e16, -1e-4, -1e-5, -3.5e-5, -1e-6, 5e-324, 1.7976931348623157e308, -1e21, 0.1 + 0.2]
    while len(scores) < 600:
        x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if np.isfinite(x):
            scores.append(x)
    scores += [rng.uniform(-20.0, 0.0) for _ in range(200)]
    return scores


PIECES = [("<unk>", 0.0), ("<pad>", -1.0), ('a\n"\\\x01\x7f\u2028é▁', -2.0)] + [
    (f"▁p{i}", x) for i, x in enumerate(some_scores())
]


@pytest.mark.parametrize("special_tokens", [None, ["<unk>", "▁p3", "<pad>"], []])
def test_unigram_to_str_is_the_engines_to_the_byte(special_tokens: list[str] | None) -> None:
    text = both(lambda m: m.UnigramTokenizer(PIECES, special_tokens=special_tokens).to_str())[1]
    assert json.loads(text)["model"]["vocab"] == [list(p) for p in PIECES]


def test_unigram_save_writes_the_engines_file(tmp_path: Path) -> None:
    for m, name in zip(MODULES, ("engine.json", "twin.json")):
        m.UnigramTokenizer.train(TEXTS, 40, show_progress=False).save(tmp_path / name)
    assert (tmp_path / "engine.json").read_bytes() == (tmp_path / "twin.json").read_bytes()


@pytest.mark.parametrize("saved_by", MODULES, ids=["engine", "twin"])
@pytest.mark.parametrize("how", ["load", "from_file", "from_str"])
def test_a_unigram_tokenizer_saved_by_one_loads_in_the_other(saved_by: Any, how: str, tmp_path: Path) -> None:
    """The scores come back as Hugging Face reads them (spec section 14): some one unit in the last
    place off, the same in both."""
    path = tmp_path / "tokenizer.json"
    saved_by.UnigramTokenizer(PIECES, special_tokens=["<unk>", "<pad>"]).save(str(path))
    read_back = [(p, read_float(repr(s))) for p, s in PIECES]
    assert read_back != PIECES
    for m in MODULES:
        made = m.UnigramTokenizer(read_back, special_tokens=["<unk>", "<pad>"])
        loaded = (
            m.UnigramTokenizer.from_str(path.read_text("utf-8"))
            if how == "from_str"
            else getattr(m.UnigramTokenizer, how)(path)
        )
        assert loaded == made
        assert loaded.get_pieces() == read_back
        assert loaded.encode("▁p3 <pad> a").ids == made.encode("▁p3 <pad> a").ids
        assert loaded.to_str() == made.to_str()


def changed(change: Callable[[dict[str, Any]], object]) -> str:
    """A saved tokenizer's JSON, changed."""
    doc = json.loads(fast_wordpiece.UnigramTokenizer([("<unk>", 0.0), ("▁a", -1.0), ("b", -2.0)]).to_str())
    change(doc)
    return json.dumps(doc)


BAD_JSON = {
    "not an object": "[]",
    "a str": '"x"',
    "model not an object": '{"model": 1}',
    "a BPE model": changed(lambda d: d["model"].update(type="BPE")),
    "no model type": changed(lambda d: d["model"].pop("type")),
    "byte fallback": changed(lambda d: d["model"].update(byte_fallback=True)),
    "vocab not a list": changed(lambda d: d["model"].update(vocab={})),
    "a piece without score": changed(lambda d: d["model"]["vocab"].append(["x"])),
    "a score in a str": changed(lambda d: d["model"]["vocab"].append(["x", "1"])),
    "a bool score": changed(lambda d: d["model"]["vocab"].append(["x", True])),
    "no unk_id": changed(lambda d: d["model"].pop("unk_id")),
    "a null unk_id": changed(lambda d: d["model"].update(unk_id=None)),
    "a negative unk_id": changed(lambda d: d["model"].update(unk_id=-1)),
    "a float unk_id": changed(lambda d: d["model"].update(unk_id=1.0)),
    "unk_id past the pieces": changed(lambda d: d["model"].update(unk_id=9)),
    "a normalizer": changed(lambda d: d.update(normalizer={"type": "NFKC"})),
    "no pre-tokenizer": changed(lambda d: d.pop("pre_tokenizer")),
    "no split": changed(lambda d: d["decoder"].update(split=False)),
    "prepend first": changed(lambda d: d["decoder"].update(prepend_scheme="first")),
    "no prefix space": changed(
        lambda d: (d["decoder"].pop("prepend_scheme"), d["decoder"].update(add_prefix_space=False))
    ),
    "an added token past the vocabulary": changed(lambda d: d["added_tokens"].append({"id": 4, "content": "<pad>"})),
    "an added token not its piece": changed(lambda d: d["added_tokens"].append({"id": 1, "content": "<pad>"})),
    "an added token without id": changed(lambda d: d["added_tokens"].append({"content": "<pad>"})),
    "a bool id": changed(lambda d: d["added_tokens"].append({"id": True, "content": "<unk>"})),
    "an empty piece": changed(lambda d: d["model"]["vocab"].append(["", -3])),
}
GOOD_JSON = {
    "a piece twice (Hugging Face reads it: the last entry wins)": changed(
        lambda d: d["model"]["vocab"].append(["▁a", -3])
    ),
    "split not a bool": changed(lambda d: d["decoder"].update(split=1)),
    "no prepend scheme": changed(lambda d: d["decoder"].pop("prepend_scheme")),
    "the next id added": changed(lambda d: d["added_tokens"].append({"id": 3, "content": "<pad>"})),
    "the unknown token added twice": changed(lambda d: d["added_tokens"].append({"id": 0, "content": "<unk>"})),
    "added tokens null": changed(lambda d: d.update(added_tokens=None)),
    "only the added unknown token": changed(lambda d: d["model"].update(vocab=[])),
    "integer scores": changed(lambda d: d["model"].update(vocab=[["<unk>", 0], ["▁a", -1]])),
}


@pytest.mark.parametrize("text", BAD_JSON.values(), ids=BAD_JSON.keys())
def test_unigram_from_str_refuses_what_the_engine_refuses_alike(text: str) -> None:
    kind, _ = both(lambda m: m.UnigramTokenizer.from_str(text))
    assert kind == "ValueError"


@pytest.mark.parametrize("text", ["[1, 2, 3]", "null", "3", '"x"', "true"])
@pytest.mark.parametrize("cls", ["BPETokenizer", "CharTokenizer"])
def test_json_that_is_not_an_object_is_a_value_error_alike(cls: str, text: str) -> None:
    """Not an AttributeError of the twin, nor a message about a missing pre-tokenizer."""
    kind, message = both(lambda m: getattr(m, cls).from_json(text))
    assert kind == "ValueError"
    expected = "a tokenizer.json must be a JSON object" if cls == "BPETokenizer" else 'type: expected "CharTokenizer"'
    assert message == expected


@pytest.mark.parametrize("text", GOOD_JSON.values(), ids=GOOD_JSON.keys())
def test_unigram_from_str_reads_what_the_engine_reads_alike(text: str) -> None:
    def read(m: Any) -> Any:
        tokenizer = m.UnigramTokenizer.from_str(text)
        return tokenizer.get_pieces(), tokenizer.special_tokens, tokenizer.to_str()

    assert both(read)[0] == "ok"


@pytest.mark.parametrize("text", ["{", "NaN", '{"model": {"vocab": [["a", Infinity]]}}'])
def test_unigram_from_str_refuses_what_is_not_json(text: str) -> None:
    for m in MODULES:
        with pytest.raises(ValueError, match=r"^not valid JSON: "):
            m.UnigramTokenizer.from_str(text)


def _wordpiece_json() -> str:
    """A Hugging Face tokenizer.json on several lines, with characters of two and four bytes."""
    vocab = ["[UNK]", "[CLS]", "[SEP]", "[PAD]", "[MASK]", "a", "##b", "é", "\U0001f600"]
    return fast_wordpiece.PyTokenizer(vocab).to_str(pretty=True)


#: Text Python's ``json`` reads but the engine's parser (serde_json) refuses, with what
#: ``PyTokenizer.from_str`` says of it. The escapes are written as JSON has them (a backslash, then
#: ``u`` and four hex digits).
SERDE_REFUSES = {
    "NaN alone": ("NaN", "not JSON: expected value at line 1 column 1"),
    "Infinity": ('{"truncation": Infinity}', "not JSON: expected value at line 1 column 16"),
    "-Infinity on line 2": (
        '{"padding": null,\n "truncation": -Infinity}',
        "not JSON: invalid number at line 2 column 17",
    ),
    "NaN in a list": ('{"model": {"vocab": [["a", NaN]]}}', "not JSON: expected value at line 1 column 28"),
    "a lone leading surrogate": (
        _wordpiece_json().replace('"##b"', '"##b\\ud800x"'),
        "not JSON: unexpected end of hex escape at line .* column .*",
    ),
    "a lone trailing surrogate": (
        _wordpiece_json().replace('"##b"', '"##b\\udc00"'),
        "not JSON: lone leading surrogate in hex escape at line .* column .*",
    ),
    "a leading surrogate at the end of a string": (
        _wordpiece_json().replace('"##b"', '"##b\\ud83d"'),
        "not JSON: unexpected end of hex escape at line .* column .*",
    ),
    "two leading surrogates": (
        _wordpiece_json().replace('"##b"', '"##b\\ud83d\\ud83d"'),
        "not JSON: lone leading surrogate in hex escape at line .* column .*",
    ),
    "a leading surrogate before another escape": (
        _wordpiece_json().replace('"##b"', '"##b\\ud83d\\n"'),
        "not JSON: unexpected end of hex escape at line .* column .*",
    ),
    "a surrogate in a normalizer": (
        _wordpiece_json().replace('"BertNormalizer"', '"BertNormalizer\\udfff"'),
        "not JSON: lone leading surrogate in hex escape at line .* column .*",
    ),
    "a surrogate in a key": ('{"model\\ud800": 1}', "not JSON: unexpected end of hex escape at line 1 column 14"),
    "a surrogate, then NaN": (
        '{"model": ["\\udc00", NaN]}',
        "not JSON: lone leading surrogate in hex escape at line 1 column 18",
    ),
    "NaN, then a surrogate": ('{"model": [NaN, "\\udc00"]}', "not JSON: expected value at line 1 column 12"),
    "a surrogate, then JSON Python refuses": (
        '["\\ud800\\x"]',
        "not JSON: unexpected end of hex escape at line 1 column 10",
    ),
    "a leading surrogate before a new line (JSON Python refuses)": (
        '["\\ud800\n"]',
        "not JSON: unexpected end of hex escape at line 2 column 0",
    ),
    "a trailing surrogate in a string cut short": (
        '["\\udc00',
        "not JSON: lone leading surrogate in hex escape at line 1 column 8",
    ),
    "a leading surrogate in an unterminated string": (
        '["a\\ud800\\\\]',
        "not JSON: unexpected end of hex escape at line 1 column 11",
    ),
    "a surrogate under a key Hugging Face has not": (
        '{"\U0001f600 extra": "\\ud800"}',
        'a tokenizer.json has no key "\U0001f600 extra" .*',
    ),
    "a surrogate in this crate's own format": (
        '{"format": "fast-wordpiece", "vocab": ["\\ud800"]}',
        "not a fast-wordpiece tokenizer file: unexpected end of hex escape at line 1 column 47",
    ),
}


@pytest.mark.parametrize(("text", "expected"), SERDE_REFUSES.values(), ids=SERDE_REFUSES.keys())
def test_what_the_engines_json_parser_refuses_the_twin_refuses_in_its_words(
    text: str, expected: str, tmp_path: Path
) -> None:
    """NaN, Infinity, -Infinity and lone surrogate escapes, which Python's ``json`` reads, are not
    JSON to the engine's parser; the twin refuses them with the same exception and message (the
    parser's reason and position) through every reader of a tokenizer.json."""
    (tmp_path / "tokenizer.json").write_text(text, "utf-8")
    kind, message = both(lambda m: m.PyTokenizer.from_str(text))
    assert kind == "ValueError"
    assert re.fullmatch(expected, message), message
    loads: list[Callable[[Any], Any]] = [
        lambda m: m.PyTokenizer.from_json(text),
        lambda m: m.PyTokenizer.from_file(tmp_path / "tokenizer.json"),
        lambda m: m.PyTokenizer.from_pretrained(tmp_path),
        lambda m: m.BPETokenizer.from_json(text),
        lambda m: m.CharTokenizer.from_json(text),
        lambda m: m.UnigramTokenizer.from_str(text),
        lambda m: m.UnigramTokenizer.from_file(tmp_path / "tokenizer.json"),
    ]
    for load in loads:
        assert both(load)[0] == "ValueError"


def test_surrogate_pairs_and_escaped_backslashes_are_json_to_both() -> None:
    """A surrogate pair is one character, and ``\\\\ud800`` a backslash then ``ud800``."""
    text = _wordpiece_json().replace('"##b"', '"##b\\ud83d\\ude00\\\\ud800"')
    tokens = both(lambda m: m.PyTokenizer.from_str(text).get_vocab())[1]
    assert "##b\U0001f600\\ud800" in tokens


def test_json_nested_deeper_than_recursion_allows_is_a_value_error() -> None:
    """The engine's parser stops at a depth of 128; the twin's ``json.loads`` would raise
    RecursionError. Both refuse it as JSON that is not valid, for every loader."""
    deep = "[" * 100_000 + "]" * 100_000
    for m in MODULES:
        for load in [m.PyTokenizer.from_str, m.PyTokenizer.from_json, m.BPETokenizer.from_json]:
            with pytest.raises(ValueError, match=r"recursion limit exceeded|not a fast-wordpiece tokenizer file"):
                load(deep)
        for load in [m.CharTokenizer.from_json, m.UnigramTokenizer.from_str]:
            with pytest.raises(ValueError, match="recursion limit exceeded"):
                load(deep)


@pytest.mark.parametrize("value", [5, b"{}", None])
def test_unigram_from_str_takes_only_a_str(value: object) -> None:
    assert both(lambda m: m.UnigramTokenizer.from_str(value))[0] == "TypeError"


def test_unigram_from_file_names_the_file_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / "latin1.json").write_bytes(b'{"a": "\xe9"}')
    (tmp_path / "bpe.json").write_text(changed(lambda d: d["model"].update(type="BPE")), "utf-8")
    for name in ("latin1.json", "bpe.json"):
        kind, message = both(lambda m, name=name: m.UnigramTokenizer.from_file(tmp_path / name))
        assert kind == "ValueError"
        assert message.startswith(f"{tmp_path / name}: ")
    for m in MODULES:
        with pytest.raises(FileNotFoundError):
            m.UnigramTokenizer.load(tmp_path / "missing.json")
    refused = ("TypeError", "path must be str, bytes or os.PathLike, not int")
    assert both(lambda m: m.UnigramTokenizer.load(5)) == refused


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.UnigramTokenizer.train(TEXTS, 30, progress=print),
        lambda m: m.UnigramTokenizer.train(TEXTS, 30, shrink=0.5),
        lambda m: m.UnigramTokenizer.train(TEXTS, 30, None),
        lambda m: m.UnigramTokenizer.train_from_counts({"a b": 1}, 30, foo=1),
        lambda m: m.UnigramTokenizer.train_from_counts({"a b": 1}, 30, ["<unk>"]),
        lambda m: m.UnigramTokenizer.train_from_files("x.txt", 30, max_piece=3),
        lambda m: m.UnigramTokenizer.train(),
        lambda m: m.UnigramTokenizer.train(TEXTS, 30, show_progress=1),
        lambda m: m.UnigramTokenizer.train(TEXTS, 30, shrinking_factor="0.5", seed_size=-1),
    ],
)
def test_unigram_training_refuses_unknown_and_bad_arguments_alike(call: Callable[[Any], Any]) -> None:
    assert both(call)[0] == "TypeError"


def test_unigram_says_how_small_a_vocabulary_is_and_shows_an_encoding_alike() -> None:
    """The twin's message for a vocab_size below the characters named neither, and its encoding's
    repr showed every field: both are now the engine's."""
    message = both(lambda m: m.UnigramTokenizer.train(["abcdefgh"], 5, show_progress=False))
    assert message == (
        "ValueError",
        "vocab_size (5) is too small for the 9 characters of the corpus and 3 special tokens",
    )
    shown = both(lambda m: repr(m.UnigramTokenizer.train(TEXTS, 60, show_progress=False).encode("hello 'x' wörld")))
    assert shown[0] == "ok"
    assert shown[1].startswith("UnigramEncoding(ids=[")
    assert "tokens=['" in shown[1]


@pytest.mark.parametrize(
    "vocab",
    [
        "abc",
        5,
        [["<unk>", 1.0]],
        [("<unk>",)],
        [("<unk>", 1.0, 2)],
        [(1, 1.0)],
        [("<unk>", "1")],
        [("<unk>", True)],
        [("<unk>", np.bool_(True))],
        [("<unk>", 10**400)],
        [("\ud800", 1.0)],
        [("<unk>", float("nan"))],
        [("<unk>", np.float32(1.5)), ("a", 1), ("b", np.int64(-3))],
    ],
    ids=repr,
)
def test_unigram_checks_its_vocabulary_as_the_engine_does(vocab: object) -> None:
    both(lambda m: m.UnigramTokenizer(vocab).get_pieces())


@pytest.mark.parametrize("cls", ["BPETokenizer", "CharTokenizer"])
@pytest.mark.parametrize(
    "vocab",
    [
        {"[UNK]": 0, "a": 1, "b": 2},
        types.MappingProxyType({"[UNK]": 0, "a": 1}),
        [("[UNK]", 0)],
        "abc",
        {"[UNK]": np.int64(0), "a": np.uint8(1)},
        {"[UNK]": 0, "a": True},
        {"[UNK]": 0, "a": "1"},
        {"[UNK]": 0, "a": -1},
        {"[UNK]": 0, 5: 1},
        {"[UNK]": 0, "a": 2},
        {"[UNK]": 1, "a": 2},
        {"[UNK]": 0, "a": 0},
        {"[UNK]": 0, "a": 2**70},
    ],
    ids=repr,
)
def test_bpe_and_char_check_their_vocabulary_as_the_engine_does(cls: str, vocab: object) -> None:
    both(lambda m: getattr(m, cls)(vocab, *([[]] if cls == "BPETokenizer" else [])).get_vocab())


@pytest.mark.parametrize(
    ("merges", "options"),
    [
        (5, {}),
        ("a b", {}),
        (b"a b", {}),
        ([5], {}),
        (["ab"], {}),
        ([("a",)], {}),
        ([("a", "b", "c")], {}),
        ([["a", "b"]], {}),
        ([("a", 1)], {}),
        (["\ud800 b"], {}),
        (["a b", ("a", "b")], {}),
        ([("a", "x")], {}),
        ([("b", "b")], {}),
        (["a  b"], {}),
        ([("a", "x")], {"special_tokens": 5}),
        ([("a", "x")], {"unk_token": "zz"}),
        ([], {"unk_token": "zz", "special_tokens": ["qq"]}),
        ([], {"special_tokens": ["", "qq"]}),
        (["a b"], {"special_tokens": ["<s>", "<s>"], "unk_token": "<s>"}),
    ],
    ids=repr,
)
def test_bpe_checks_its_merges_as_the_engine_does_and_in_its_order(merges: object, options: dict[str, Any]) -> None:
    def made(m: Any) -> Any:
        tokenizer = m.BPETokenizer({"a": 0, "b": 1, "ab": 2, "<s>": 3}, merges, **options)
        return tokenizer.merges, tokenizer.special_tokens, tokenizer.unk_token

    both(made)


def test_a_char_vocabulary_with_a_gap_names_the_token() -> None:
    message = 'vocab["a"] = 2: ids must be 0..2 with no gap'
    assert both(lambda m: m.CharTokenizer({"[UNK]": 0, "a": 2})) == ("ValueError", message)


@pytest.mark.parametrize("cls", ["BPETokenizer", "CharTokenizer"])
@pytest.mark.parametrize("function", ["train", "train_from_counts", "train_from_files"])
@pytest.mark.parametrize(
    "options",
    [
        {"vocab_size": "x", "show_progress": 1},
        {"min_frequency": "x", "show_progress": 1},
        {"special_tokens": 1, "show_progress": 1},
        {"vocab_size": "x", "unk_token": 1},
        {"special_tokens": 1, "unk_token": 1},
        {"vocab_size": "x", "special_tokens": 1},
    ],
    ids=repr,
)
@pytest.mark.parametrize("data", [5, ["ab"]], ids=["bad data", "good data"])
def test_training_checks_unk_token_and_show_progress_first_as_the_engine_does(
    cls: str, function: str, options: dict[str, Any], data: object
) -> None:
    if cls == "BPETokenizer" and "unk_token" in options:
        return
    first = {"train": data, "train_from_counts": data if data == 5 else {"a": 1}, "train_from_files": data}
    kind, _ = both(lambda m: getattr(getattr(m, cls), function)(first[function], **options))
    assert kind == "TypeError"


@pytest.fixture
def files(tmp_path: Path) -> list[Any]:
    (tmp_path / "a.txt").write_text("the cat sat\r\non the mat\n\n  a dog <s> ate\r", "utf-8")
    (tmp_path / "b.txt").write_text("über naïve café\nthe hat\n" * 3, "utf-8")
    return [tmp_path / "a.txt", str(tmp_path / "b.txt")]


@pytest.mark.parametrize(
    ("cls", "result"),
    [
        ("BPETokenizer", lambda t: (t.get_vocab(), t.merges)),
        ("CharTokenizer", lambda t: t.to_json()),  # the engine's to the byte
        ("UnigramTokenizer", lambda t: t.to_str()),
    ],
)
def test_train_from_files_trains_as_the_engine_does(files: list[Any], cls: str, result: Callable[[Any], Any]) -> None:
    assert both(lambda m: result(getattr(m, cls).train_from_files(files, 280, show_progress=False)))[0] == "ok"
    assert both(lambda m: result(getattr(m, cls).train_from_files(files[0], 280, show_progress=False)))[0] == "ok"


@pytest.mark.parametrize("cls", ["BPETokenizer", "CharTokenizer", "UnigramTokenizer"])
def test_train_from_files_refuses_bad_paths_and_files_alike(cls: str, tmp_path: Path) -> None:
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9")
    train = getattr(fast_wordpiece, cls).train_from_files, getattr(fast_wordpiece.reference, cls).train_from_files
    for paths in (5, [5], [tmp_path / "latin1.txt", 5], (tmp_path / "latin1.txt",)):
        engine, twin = (outcome(lambda t=t, paths=paths: t(paths, show_progress=False)) for t in train)
        assert engine == twin
        assert engine[0] in ("TypeError", "ValueError")
    for t in train:
        with pytest.raises(FileNotFoundError):
            t([tmp_path / "missing.txt"], show_progress=False)


@pytest.mark.parametrize("cls", ["BPETokenizer", "CharTokenizer", "UnigramTokenizer"])
def test_unk_token_is_read_only(cls: str) -> None:
    def make(m: Any) -> Any:
        if cls == "UnigramTokenizer":
            return m.UnigramTokenizer([("<unk>", 0.0), ("a", -1.0)])
        if cls == "BPETokenizer":
            return m.BPETokenizer({"[UNK]": 0, "a": 1}, [], unk_token="[UNK]")
        return m.CharTokenizer({"[UNK]": 0, "a": 1})

    for m in MODULES:
        tokenizer = make(m)
        with pytest.raises(AttributeError):
            tokenizer.unk_token = "a"
        assert tokenizer.unk_token in ("<unk>", "[UNK]")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"vocab": []}, "unk_token: missing"),
        ({"unk_token": 5, "vocab": ["[UNK]"], "special_tokens": []}, "unk_token: missing"),
        ({"unk_token": "[UNK]", "special_tokens": ["[UNK]"]}, "vocab: expected a list of str"),
        ({"unk_token": "[UNK]", "vocab": {"[UNK]": 0}, "special_tokens": []}, "vocab: expected a list of str"),
        ({"unk_token": "[UNK]", "vocab": ["[UNK]", 7], "special_tokens": []}, "vocab: expected a list of str"),
        ({"unk_token": "[UNK]", "vocab": ["[UNK]"]}, "special_tokens: expected a list of str"),
        (
            {"unk_token": "[UNK]", "vocab": ["[UNK]"], "special_tokens": "[UNK]"},
            "special_tokens: expected a list of str",
        ),
    ],
)
def test_a_char_tokenizer_file_missing_a_field_is_the_same_value_error(fields: dict[str, Any], message: str) -> None:
    """A field missing or of the wrong type is named, in the engine's words (the twin raised
    KeyError or TypeError)."""
    text = json.dumps({"type": "CharTokenizer", **fields})
    assert both(lambda m: m.CharTokenizer.from_json(text)) == ("ValueError", message)


@pytest.mark.parametrize(
    ("vocab", "message"),
    [
        (["[UNK]", "a", "a"], 'token "a" is twice in the vocabulary'),
        (["[UNK]", "ab", "a", "a"], 'token "ab" is neither one character nor a special token'),
        (["[UNK]", "a", "ab", "a"], 'token "ab" is neither one character nor a special token'),
    ],
)
def test_a_char_tokenizer_file_names_its_first_bad_token_alike(vocab: list[str], message: str) -> None:
    """Each token in id order: listed twice, or neither a character nor special (the twin named a
    duplicate as a gap in the ids)."""
    text = json.dumps({"type": "CharTokenizer", "unk_token": "[UNK]", "vocab": vocab, "special_tokens": ["[UNK]"]})
    assert both(lambda m: m.CharTokenizer.from_json(text)) == ("ValueError", message)


def test_a_special_token_listed_twice_is_kept_once_alike() -> None:
    text = json.dumps({"type": "CharTokenizer", "unk_token": "[UNK]", "vocab": ["[UNK]", "a"],
                       "special_tokens": ["[UNK]", "[UNK]"]})  # fmt: skip
    assert both(lambda m: m.CharTokenizer.from_json(text).special_tokens) == ("ok", ["[UNK]"])
    assert both(lambda m: m.CharTokenizer({"[UNK]": 0}, special_tokens=["[UNK]"] * 3).to_json())[0] == "ok"


def _bpe_file(change: Callable[[dict[str, Any]], object]) -> str:
    """A byte-level BPE tokenizer.json the engine wrote (with an added token), changed."""
    tok = fast_wordpiece.BPETokenizer.train(TEXTS, 256 + 20, special_tokens=["<s>"], show_progress=False)
    doc = json.loads(tok.to_json())
    change(doc)
    return json.dumps(doc)


BPE_FAULTS: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "unk_token not a str": (
        lambda d: d["model"].update(unk_token=[1]),
        "model.unk_token: expected a string or null, found [1]",
    ),
    "added_tokens not a list": (lambda d: d.update(added_tokens=1.5), "added_tokens: expected a list"),
    "an added token not an object": (lambda d: d["added_tokens"].append("x"), "added_tokens[1]: no content"),
    "an added token without id": (lambda d: d["added_tokens"][0].pop("id"), "added_tokens[0]: no id"),
    "an id not an integer": (
        lambda d: d["model"]["vocab"].update({"!": 1e-7}),
        'model.vocab: "!": id 1e-7 is not an integer',
    ),
    "an id past the end": (
        lambda d: d["model"]["vocab"].update({"!": 5000}),
        f'model.vocab: "!": id 5000 leaves a gap (ids must be 0..{256 + 20})',
    ),
    "a merge of three": (
        lambda d: d["model"]["merges"].insert(0, ["a", "b", "c"]),
        'model.merges[0]: expected "a b" or [a, b]',
    ),
    "fuse_unk not false": (
        lambda d: d["model"].update(fuse_unk="x"),
        'model.fuse_unk: "x" is not supported (only false)',
    ),
    "ignore_merges 1": (
        lambda d: d["model"].update(ignore_merges=1),
        "model.ignore_merges: 1 is not supported (only false)",
    ),
    "the model not an object": (lambda d: d.update(model="x"), "model.vocab: expected an object"),
}


@pytest.mark.parametrize(("change", "message"), BPE_FAULTS.values(), ids=BPE_FAULTS.keys())
def test_a_bpe_file_fault_is_named_alike(change: Callable[[dict[str, Any]], object], message: str) -> None:
    """The twin reads the model and the added tokens as the engine does, in its words (it raised
    KeyError, TypeError or AttributeError on some, or took a wrong type the engine refused, and the
    engine took an unk_token or added_tokens of the wrong type)."""
    text = _bpe_file(change)
    assert both(lambda m: m.BPETokenizer.from_json(text)) == ("ValueError", message)
