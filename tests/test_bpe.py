"""Byte-level BPE: encoding identical to Hugging Face's ByteLevel BPE given the
same merges, training identical to the twin, tokenizer.json both ways, bad input."""

from __future__ import annotations

import json
import pickle
import random
import re

import pytest

import fast_wordpiece as fw
from fast_wordpiece.reference import bpe as ref

tokenizers = pytest.importorskip("tokenizers")

EOT = "<|endoftext|>"

#: Text that exercises every alternative of the GPT-2 regex and the byte mapping.
ADVERSARIAL = [
    "",
    " ",
    "👋🏽 hi 👨‍👩‍👧",
    "e\u0301\u0301x cafe\u0301 Å",
    "  \r\n\t\t x\r\n\r\ny",
    "123456789 3.14 ٣٤٥ ½ Ⅻ",
    "北京欢迎你，東京。한국어",
    "a" * 300,
    "1" * 200,
    " " * 50,
    "\n" * 7 + "x",
    "it's I'M we'll 's 'S ''ll",
    "\u00a0\u3000\u2028x\x85y\u200bz\ufeff",
    "\x00\x01\x7f\x1b[0m",
    f"{EOT}hi{EOT}",
    f"a{EOT}{EOT} b",
    "\U0001f600" * 40,
    "ﬁ ǅ ß ΐ İ",
    "<|endoftext|",
    "  ...!!!???   '  ",
    "tab\there\vvt\fff",
    # Invalid-looking byte sequences: mojibake, replacement characters, the byte characters themselves.
    "Ã©Ã¨ â€™s \ufffd\ufffd ĠĠĊ Ġthe ÿþ\u0100\u0143 \x80\x9f",
]


def hf_trained(texts: list[str], vocab_size: int) -> tokenizers.Tokenizer:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=2,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=[EOT],
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer)
    return tok


def hf_from(vocab: dict[str, int], merges: list[tuple[str, str]]) -> tokenizers.Tokenizer:
    """An HF ByteLevel BPE tokenizer built from the given vocabulary and merges."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(EOT, special=True, normalized=False)])
    return tok


@pytest.fixture(scope="module")
def training_lines(shakespeare_text: str, multilingual_lines: list[str]) -> list[str]:
    return shakespeare_text[:200_000].splitlines() + multilingual_lines[:2000]


@pytest.fixture(scope="module")
def held_out(shakespeare_text: str, multilingual_lines: list[str], gcide_lines: list[str]) -> list[str]:
    return (
        shakespeare_text[300_000:360_000].splitlines(keepends=True)
        + multilingual_lines[3000:3600]
        + gcide_lines[:1500]
        + ADVERSARIAL
    )


@pytest.fixture(scope="module")
def hf_and_ours(training_lines: list[str]) -> tuple[tokenizers.Tokenizer, fw.BPETokenizer]:
    """HF trains; both tokenizers are built from HF's vocabulary and merges."""
    model = json.loads(hf_trained(training_lines, 2000).to_str())["model"]
    merges = [tuple(m) for m in model["merges"]]
    return hf_from(model["vocab"], merges), fw.BPETokenizer(model["vocab"], merges, special_tokens=[EOT])


def test_encoding_matches_hf_given_the_same_merges(hf_and_ours, held_out, parity_stats):
    hf, ours = hf_and_ours
    mismatches = [t for t in held_out if hf.encode(t).ids != ours.encode(t)]
    parity_stats["bpe_inputs"] = len(held_out)
    assert mismatches == [], f"{len(mismatches)} of {len(held_out)} differ, first: {mismatches[0]!r}"
    assert ours.encode_batch(held_out) == [e.ids for e in hf.encode_batch(held_out)]
    assert ours.encode_batch(held_out, num_threads=1) == ours.encode_batch(held_out, num_threads=2)


def test_tokens_and_decoding_match_hf_and_restore_the_text(hf_and_ours, held_out):
    hf, ours = hf_and_ours
    for text in held_out:
        ids = ours.encode(text)
        assert ours.tokenize(text) == hf.encode(text).tokens
        assert ours.decode(ids) == text
        assert ours.decode(ids) == hf.decode(ids, skip_special_tokens=False)
        assert ours.decode(ids, skip_special_tokens=True) == hf.decode(ids, skip_special_tokens=True)


def test_the_twin_encodes_like_the_engine(hf_and_ours, held_out):
    _, ours = hf_and_ours
    twin = ref.BPETokenizer(ours.get_vocab(), ours.merges, special_tokens=[EOT])
    sample = held_out[::7] + ADVERSARIAL
    assert [twin.encode(t) for t in sample] == ours.encode_batch(sample)
    assert [twin.decode(ours.encode(t)) for t in sample] == sample


def test_the_pre_tokenizer_matches_the_seed_regex(held_out):
    regex = pytest.importorskip("regex")
    gpt2 = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")
    for text in held_out:
        assert ref.pre_tokenize(text) == gpt2.findall(text), repr(text)


@pytest.mark.parametrize("corpus", ["shakespeare", "multilingual", "gcide"])
def test_training_matches_the_twin_exactly(corpus, shakespeare_text, multilingual_lines, gcide_lines):
    texts = {
        "shakespeare": shakespeare_text[:25_000].splitlines(keepends=True),
        "multilingual": multilingual_lines[:250],
        "gcide": gcide_lines[:300],
    }[corpus]
    engine = fw.BPETokenizer.train(texts, 256 + 1 + 250, special_tokens=[EOT])
    twin = ref.BPETokenizer.train(texts, 256 + 1 + 250, special_tokens=[EOT])
    assert engine.merges == twin.merges
    assert engine.get_vocab() == twin.get_vocab()
    assert json.loads(engine.to_json()) == json.loads(twin.to_json())


def test_training_is_the_same_on_every_thread_count_and_from_files_and_counts(tmp_path, training_lines):
    import os
    import subprocess
    import sys

    texts = training_lines[:4000]
    code = (
        "import sys, json, fast_wordpiece as fw; texts = json.load(open(sys.argv[1]));"
        "print(fw.BPETokenizer.train(texts, 1000).to_json())"
    )
    (tmp_path / "t.json").write_text(json.dumps(texts))
    outs = set()
    for threads in ("1", "2", "3"):
        env = {**os.environ, "RAYON_NUM_THREADS": threads}
        run = subprocess.run([sys.executable, "-c", code, str(tmp_path / "t.json")], env=env, capture_output=True)
        assert run.returncode == 0, run.stderr
        outs.add(run.stdout)
    assert len(outs) == 1
    trained = fw.BPETokenizer.train(texts, 1000)
    path = tmp_path / "corpus.txt"
    path.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    assert fw.BPETokenizer.train_from_files([path], 1000) == fw.BPETokenizer.train(
        ["".join(t + "\n" for t in texts)], 1000
    )
    counts: dict[str, int] = {}
    for t in texts:
        for p in ref.pre_tokenize(t):
            counts[ref.show(p)] = counts.get(ref.show(p), 0) + 1
    assert fw.BPETokenizer.train_from_counts(counts, 1000) == trained


def test_saved_files_load_in_hf_and_back(tmp_path, training_lines, held_out):
    ours = fw.BPETokenizer.train(training_lines[:3000], 1500, special_tokens=[EOT])
    path = tmp_path / "tokenizer.json"
    ours.save(path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    sample = held_out[::5]
    assert [e.ids for e in hf.encode_batch(sample)] == ours.encode_batch(sample)
    assert [hf.decode(ours.encode(t)) for t in sample] == sample
    assert fw.BPETokenizer.load(path) == ours
    # HF's own file (as HF saves it) loads too.
    hf.save(str(tmp_path / "hf.json"))
    assert fw.BPETokenizer.load(tmp_path / "hf.json") == ours
    assert pickle.loads(pickle.dumps(ours)) == ours


def test_analyze_counts_what_the_seed_counts(hf_and_ours):
    _, ours = hf_and_ours
    texts = ["the cat sat", "", "北京 欢迎"]
    a = ours.analyze(texts)
    ids = ours.encode_batch(texts)
    assert a["tokens"] == sum(map(len, ids))
    assert a["words"] == 5
    assert a["characters"] == sum(map(len, texts))
    assert a["characters_per_token"] == pytest.approx(a["characters"] / a["tokens"])
    assert a["unknown_rate"] == 0.0


def test_bad_input_raises_clear_errors(hf_and_ours, tmp_path):
    _, ours = hf_and_ours
    with pytest.raises(TypeError, match="text must be str"):
        ours.encode(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"texts must be an iterable of str"):
        ours.encode_batch("abc")
    with pytest.raises(TypeError, match=r"texts\[1\] must be str"):
        ours.encode_batch(["a", 3])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="lone surrogate"):
        ours.encode("a\ud800")
    with pytest.raises(ValueError, match="out of range"):
        ours.decode([ours.vocab_size])
    with pytest.raises(ValueError, match="vocab_size must be >= 1, got 0"):
        fw.BPETokenizer.train(["a"], 0)
    with pytest.raises(TypeError, match="vocab must be a dict"):
        fw.BPETokenizer([("a", 0)], [])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not in the vocabulary"):
        fw.BPETokenizer({"a": 0, "b": 1}, [("a", "b")])
    with pytest.raises(ValueError, match="no gap"):
        fw.BPETokenizer({"a": 0, "b": 5}, [])
    with pytest.raises(FileNotFoundError):
        fw.BPETokenizer.load(tmp_path / "missing.json")
    bad = tmp_path / "wp.json"
    bad.write_text(json.dumps({"pre_tokenizer": {"type": "Whitespace"}, "model": {"type": "BPE"}}))
    with pytest.raises(ValueError, match="pre_tokenizer"):
        fw.BPETokenizer.load(bad)
    with pytest.raises(ValueError, match="byte-level string"):
        fw.BPETokenizer.train_from_counts({"€": 3}, 300)


def test_random_unicode_text_encodes_like_hf(hf_and_ours):
    """Generated text from every Unicode category, with whitespace runs and contractions mixed in."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    hf, ours = hf_and_ours
    pieces = st.one_of(
        st.text(min_size=1, max_size=12),
        st.sampled_from([" ", "  ", "\n", "\r\n", "\t", "\u3000", "'s", "'ll", "'", EOT, "1", "a", "é", "👍🏾"]),
    )

    @settings(max_examples=400, deadline=None, derandomize=True)
    @given(st.lists(pieces, max_size=12).map("".join))
    def check(text: str) -> None:
        assert ours.encode(text) == hf.encode(text).ids
        assert ours.decode(ours.encode(text)) == text

    check()


def test_a_gpt2_layout_file_loads(tmp_path, hf_and_ours, held_out):
    """GPT-2's own file: merges as "a b" strings, empty prefix/suffix, a normalized added token."""
    _, ours = hf_and_ours
    root = json.loads(ours.to_json())
    root["model"]["merges"] = [f"{a} {b}" for a, b in root["model"]["merges"]]
    root["model"]["continuing_subword_prefix"] = ""
    root["model"]["end_of_word_suffix"] = ""
    root["added_tokens"][0]["normalized"] = True
    del root["pre_tokenizer"]["use_regex"]
    path = tmp_path / "gpt2.json"
    path.write_text(json.dumps(root), encoding="utf-8")
    loaded = fw.BPETokenizer.load(path)
    # the same tokenizer but for the flag, which is kept (and compared: it orders the search)
    assert json.loads(loaded.to_json())["added_tokens"][0]["normalized"] is True
    assert loaded != ours
    root["added_tokens"][0]["normalized"] = False
    assert fw.BPETokenizer.from_json(json.dumps(root)) == ours
    hf = tokenizers.Tokenizer.from_file(str(path))
    sample = held_out[::11]
    assert loaded.encode_batch(sample) == [e.ids for e in hf.encode_batch(sample)]


@pytest.mark.parametrize("module", [fw, ref], ids=["engine", "twin"])
def test_merges_read_from_a_tokenizer_json_build_the_tokenizer_as_tuples_do(module):
    """A tokenizer.json's merges are JSON arrays: `json.load` gives each as a list of two str,
    which the constructor takes exactly as the tuple (Hugging Face's own files are built so)."""
    trained = fw.BPETokenizer.train(["hello world, hello there"] * 5, 270, special_tokens=[EOT])
    model = json.loads(trained.to_json())["model"]
    assert all(isinstance(m, list) and len(m) == 2 for m in model["merges"])
    from_lists = module.BPETokenizer(model["vocab"], model["merges"], special_tokens=[EOT])
    from_tuples = module.BPETokenizer(model["vocab"], [tuple(m) for m in model["merges"]], special_tokens=[EOT])
    assert from_lists.merges == from_tuples.merges == trained.merges
    text = "hello world, hello there, said the other world"
    assert from_lists.encode(text) == from_tuples.encode(text) == trained.encode(text)


@pytest.mark.parametrize("module", [fw, ref], ids=["engine", "twin"])
def test_a_merge_listed_twice_takes_its_last_rank_as_hugging_faces(module, tmp_path):
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4}
    twice = [("a", "b"), ("b", "c"), ("a", "b")]
    hf = tokenizers.Tokenizer(tokenizers.models.BPE(vocab, twice))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = tokenizers.decoders.ByteLevel()
    ours = module.BPETokenizer(vocab, twice)
    for text in ["abc", "abcabc", "cab", "bcab"]:
        assert [ours.id_to_token(i) for i in ours.encode(text)] == hf.encode(text).tokens, text
    assert ours.encode("abc") == [vocab["a"], vocab["bc"]]  # not "ab" "c": the last rank won
    # listed once, at its last place, as Hugging Face writes it
    assert [tuple(m) for m in ours.merges] == [("b", "c"), ("a", "b")]
    assert json.loads(ours.to_json())["model"]["merges"] == json.loads(hf.to_str())["model"]["merges"]
    # equal to the tokenizer of the merges listed once, and to itself read back
    assert ours == module.BPETokenizer(vocab, twice[1:]) == module.BPETokenizer.from_json(ours.to_json())
    # a tokenizer.json with a merge twice (Hugging Face loads it) loads the same way
    hf.save(str(tmp_path / "hf.json"))
    doc = json.loads((tmp_path / "hf.json").read_text("utf-8"))
    doc["model"]["merges"] = [list(m) for m in twice]
    (tmp_path / "twice.json").write_text(json.dumps(doc), "utf-8")
    loaded = module.BPETokenizer.load(tmp_path / "twice.json")
    assert loaded.encode("abcabc") == tokenizers.Tokenizer.from_file(str(tmp_path / "twice.json")).encode("abcabc").ids


@pytest.mark.parametrize("module", [fw, ref], ids=["engine", "twin"])
@pytest.mark.parametrize(
    ("merge", "kind"), [(["a"], "list"), (["a", "b", "c"], "list"), (["a", 1], "list"), (("a",), "tuple"), (3, "int")]
)
def test_a_merge_that_is_not_two_str_is_a_type_error_naming_it(module, merge, kind):
    with pytest.raises(TypeError, match=rf'^merges\[1\] must be a pair of str or "a b", not {kind}$'):
        module.BPETokenizer({"a": 0, "b": 1, "ab": 2, "c": 3}, [("a", "b"), merge])


@pytest.mark.parametrize("module", [fw, ref], ids=["engine", "twin"])
@pytest.mark.parametrize(
    ("merge", "named", "index"),
    [("\ud800 b", "merges[1]", 0), ("a \udc00", "merges[1]", 2), (("a", "\ud800"), "merges[1][1]", 0),
     (["\udfff", "b"], "merges[1][0]", 0)],
)  # fmt: skip
def test_a_merge_with_a_lone_surrogate_is_a_value_error_naming_it(module, merge, named, index):
    """As for every text argument: the str is of the right type, its text is not valid Unicode."""
    message = rf"^{re.escape(named)} contains a lone surrogate at index {index}, which is not valid Unicode text$"
    with pytest.raises(ValueError, match=message):
        module.BPETokenizer({"a": 0, "b": 1, "ab": 2, "c": 3}, [("a", "b"), merge])


def test_every_code_point_pre_tokenizes_alike_in_engine_twin_and_hf(hf_and_ours):
    """Letters and numbers are the engine's Unicode 16 classes in the twin too, whatever Unicode
    version the interpreter's ``unicodedata`` has (Python 3.11 has 14: U+1E4D0, a letter since
    15, was "other" to the twin). Every code point but the surrogates, between "x" and "'s" and
    before a digit (a letter or number run takes it or not), pre-tokenized as HF does; in the
    twin, every code point whose class this Python's ``unicodedata`` gives otherwise, and every
    97th."""
    import unicodedata

    hf, ours = hf_and_ours
    twin = ref.BPETokenizer.from_json(ours.to_json())
    points = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    texts = [f"x{chr(c)}'s {chr(c)}1" for c in points]
    assert ours.encode_batch(texts) == [e.ids for e in hf.encode_batch(texts)]

    def python_class(c: str) -> tuple[bool, bool]:
        category = unicodedata.category(c)
        return category.startswith("L"), category.startswith("N")

    differ = [c for c in points if python_class(chr(c)) != (ref.is_letter(chr(c)), ref.is_number(chr(c)))]
    checked = sorted({*differ, *points[::97], 0x1E4D0, 0x11F43})
    for c in checked:
        text = f"x{chr(c)}'s {chr(c)}1"
        assert twin.encode(text) == ours.encode(text), hex(c)


#: Added tokens that are also tokens of the model ("Ġthe" is " the" to the model), with their
#: flags: Hugging Face's matcher looks for their content ("Ġthe") in the raw text, where " the"
#: does not have it, so the model's token keeps its own offsets (no whitespace taken in).
MODEL_TOKENS_ADDED = [
    [("Ġthe", {"lstrip": True})],
    [("Ġthe", {"lstrip": True, "normalized": False})],
    [("Ġthe", {"lstrip": True, "rstrip": True})],
    [("Ġthe", {"rstrip": True})],
    [("Ġthe", {"lstrip": True}), ("Ġof", {"lstrip": True, "rstrip": True}), ("Ġmen", {"rstrip": True})],
    [("Ġthe", {"lstrip": True, "special": True}), ("Ġcharge", {"lstrip": True, "special": True})],
]
#: The added tokens' content is in some of these texts as written ("Ġthe"), then it is matched.
MODEL_TOKEN_TEXTS = ["to the", "to the charge of the men", "the", " the the", " the", "the to the",
                     "to  the", "to\tthe ", "to the\n the", "the men of the charge  ", "to Ġthe", "Ġthe",
                     "x  Ġthe the", "to the Ġof men", "  Ġcharge the", "", " ", "é the 中 the"]  # fmt: skip


@pytest.mark.parametrize("added", MODEL_TOKENS_ADDED, ids=lambda a: "+".join(f"{t}{sorted(f)}" for t, f in a))
@pytest.mark.parametrize("module", [fw, ref], ids=["engine", "twin"])
def test_a_models_token_that_is_also_an_lstrip_added_token_keeps_its_offsets(module, added, tmp_path):
    """The model's "Ġthe" (" the" in the text) is no match of the added "Ġthe" with lstrip: its
    offsets are its own bytes, not the whitespace before it and one character past them."""
    path = tmp_path / "added.json"
    fw.BPETokenizer.train(["to the charge of the men"] * 50, vocab_size=300, show_progress=False).save(path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    for content, flags in added:
        assert content in hf.get_vocab()
        token = tokenizers.AddedToken(content, **{k: v for k, v in flags.items() if k != "special"})
        (hf.add_special_tokens if flags.get("special") else hf.add_tokens)([token])
    hf.save(str(path))
    hf = tokenizers.Tokenizer.from_file(str(path))
    ours = module.BPETokenizer.load(path)
    r = random.Random(7)
    parts = ["to", " the", "the", " ", "  ", "\t", "Ġthe", " Ġof", "men", " men", " charge", " of", "é"]
    texts = [*MODEL_TOKEN_TEXTS, *("".join(r.choice(parts) for _ in range(r.randint(1, 8))) for _ in range(100))]
    for text in texts:
        want = hf.encode(text)
        assert ours.encode(text) == want.ids, text
        assert ours.tokenize(text) == want.tokens, text
        got = ours(text, return_offsets_mapping=True)["offset_mapping"]
        assert [tuple(p) for p in got] == want.offsets, text
