"""What ``PyTokenizer.encode`` and ``encode_batch`` say about bad input, in the engine and the twin
alike (same exception type, same message):

- words (a list or tuple of str) where a text goes, as ``tokenizers`` users pass them, are a
  TypeError that says to pass ``is_pretokenized=True``;
- ``encode`` checks its arguments in order, the positional ones first: ``text`` and ``pair``, then
  ``add_special_tokens``, then the other keywords;
- a word, token or option value a message quotes (of a call, or of a tokenizer file) is quoted
  as JSON quotes it (``json.dumps(s, ensure_ascii=False)``), whatever characters it holds; an
  unexpected keyword is named as Python names it (its ``repr``);
- a pair of pretokenized texts may be a tuple or, as in ``tokenizers``, a list of two lists, and
  the stubs say so (mypy --strict passes such calls);
- a batch given as a mapping (a dict, a ``UserDict`` such as a ``BatchEncoding``, a dataset's
  batch) is a TypeError naming the argument, in every tokenizer's ``encode_batch`` and
  ``analyze`` (``tokenizers`` refuses a dict there): iterating it would encode its keys."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import UserDict
from pathlib import Path
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS, LazyBatch, outcome, small_tokenizers, tokenizer_class

import fast_wordpiece
import fast_wordpiece.reference

HINT = "(for a list of words, pass is_pretokenized=True)"
# Characters a quoted word may hold that JSON and other quotings write differently: a double and a
# single quote, a control character, a soft hyphen, a zero-width space, a combining accent.
ODD = "a\"b'c\x01d\u00ade\u200b\u0301"
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "##s"]


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def impl(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def tok(impl: str) -> Any:
    return tokenizer_class(impl)(VOCAB)


def quoted(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def raises(call: Any, kind: type[Exception], message: str) -> None:
    assert outcome(call) == (kind.__name__, message)


# -- words where a text goes ------------------------------------------------------------------


@pytest.mark.parametrize("words", [["hello", "world"], ("hello",), []], ids=repr)
def test_words_given_as_text_say_to_pass_is_pretokenized(tok: Any, words: Any) -> None:
    kind = type(words).__name__
    raises(lambda: tok.encode(words), TypeError, f"text must be str, not {kind} {HINT}")
    raises(lambda: tok.encode("hello", words), TypeError, f"pair must be str, not {kind} {HINT}")
    assert tok.encode(words, is_pretokenized=True).tokens[0] == "[CLS]"
    # A list that is not words gets no hint.
    raises(lambda: tok.encode([1, 2]), TypeError, "text must be str, not list")
    raises(lambda: tok.encode(["hello", 2]), TypeError, "text must be str, not list")


def test_words_as_a_batch_item_say_to_pass_is_pretokenized(tok: Any) -> None:
    raises(lambda: tok.encode_batch(["hello", ["hello", "world", "hello"]]), TypeError,
           f"inputs[1] must be str or a (str, str) pair {HINT}")  # fmt: skip
    raises(lambda: tok.encode_batch([("hello",)]), TypeError, f"inputs[0] must be str or a (str, str) pair {HINT}")
    for pair in [(["hello"], ["world"]), [["hello"], ["world"]], (["hello"], "world")]:
        raises(lambda pair=pair: tok.encode_batch([pair]), TypeError, f"inputs[0][0] must be str, not list {HINT}")
    raises(lambda: tok.encode_batch([("hello", ("world",))]), TypeError, f"inputs[0][1] must be str, not tuple {HINT}")
    raises(lambda: tok.encode_batch([[1, 2, 3]]), TypeError, "inputs[0] must be str or a (str, str) pair")
    # A list of two texts is still a pair, as in tokenizers.
    [encoding] = tok.encode_batch([["hello", "world"]])
    assert encoding.tokens == ["[CLS]", "hello", "[SEP]", "world", "[SEP]"]


# -- the order of the checks ------------------------------------------------------------------


@pytest.mark.parametrize(
    "keywords",
    [{"bogus": 1}, {"max_length": "8"}, {"padding": "nope"}, {"truncation_side": 3}, {"return_tensors": "np"}],
    ids=repr,
)
def test_text_is_checked_before_the_keywords(tok: Any, keywords: dict[str, Any]) -> None:
    raises(lambda: tok.encode(5, **keywords), TypeError, "text must be str, not int")
    raises(lambda: tok.encode("hello", 5, **keywords), TypeError, "pair must be str, not int")
    raises(lambda: tok.encode(["hello"], **keywords), TypeError, f"text must be str, not list {HINT}")
    raises(lambda: tok.encode("hello", is_pretokenized=True, **keywords), TypeError,
           "text must be a list of words (str), not str")  # fmt: skip


def test_add_special_tokens_is_checked_after_the_texts_and_before_the_keywords(tok: Any) -> None:
    raises(lambda: tok.encode(5, None, "yes"), TypeError, "text must be str, not int")
    raises(lambda: tok.encode("hello", None, "yes", bogus=1), TypeError, "add_special_tokens must be bool, not str")
    raises(lambda: tok.encode("hello", add_special_tokens=None), TypeError,
           "add_special_tokens must be bool, not NoneType")  # fmt: skip
    assert tok.encode("hello", None, False).tokens == ["hello"]
    # Good texts leave the keywords' error.
    raises(lambda: tok.encode("hello", bogus=1), TypeError, "encode() got an unexpected keyword argument 'bogus'")
    raises(lambda: tok.encode(["hello"], is_pretokenized=True, max_length="8"), TypeError,
           "max_length must be int, not str")  # fmt: skip
    # An is_pretokenized that is no bool comes first: whether the text should be a str or a list
    # of words cannot be told.
    raises(lambda: tok.encode(5, is_pretokenized="yes"), TypeError, "is_pretokenized must be bool, not str")


# -- quoting ----------------------------------------------------------------------------------


def test_unexpected_keyword_names_are_named_as_python_names_them(tok: Any) -> None:
    name = "bo" + ODD
    for method, call in [("encode", lambda: tok.encode("hello", **{name: 1})),
                         ("encode_batch", lambda: tok.encode_batch(["hello"], **{name: 1}))]:  # fmt: skip
        raises(call, TypeError, f"{method}() got an unexpected keyword argument {name!r}")


def test_keyword_values_are_quoted_as_json(tok: Any) -> None:
    raises(lambda: tok.encode("hello", padding=ODD), ValueError,
           f'padding must be None, "longest" or "max_length", not {quoted(ODD)}')  # fmt: skip
    raises(lambda: tok.encode("hello", max_length=4, truncation=ODD), ValueError,
           f'unknown truncation {quoted(ODD)}: expected one of "longest_first", "only_first", "only_second", '
           '"do_not_truncate"')  # fmt: skip
    for side in ("truncation_side", "padding_side"):
        raises(lambda side=side: tok.encode("hello", **{side: ODD}), ValueError,
               f'{side} must be "left" or "right", not {quoted(ODD)}')  # fmt: skip


def test_tokens_and_options_of_a_new_tokenizer_are_quoted_as_json(impl: str) -> None:
    cls = tokenizer_class(impl)
    raises(lambda: cls(VOCAB, unk_token=ODD), ValueError, f"unk_token {quoted(ODD)} is not in the vocabulary")
    raises(lambda: cls([*VOCAB, ODD, ODD]), ValueError, f"duplicate token {quoted(ODD)} at ids 7 and 8")
    raises(lambda: cls(VOCAB, special_tokens=[ODD, ODD]), ValueError, f"special token {quoted(ODD)} is listed twice")
    raises(lambda: cls(VOCAB, pre_tokenizer=ODD), ValueError,
           f'unknown pre_tokenizer {quoted(ODD)}: expected one of "bert", "whitespace", "regex", '
           '"wordpunct"')  # fmt: skip
    raises(lambda: cls(VOCAB, decoder=ODD), ValueError,
           f'unknown decoder {quoted(ODD)}: expected "wordpiece" or "none"')  # fmt: skip
    raises(lambda: cls(VOCAB, post_processor=ODD), ValueError,
           f'unknown post_processor {quoted(ODD)}: expected "bert", "none" or a TemplateProcessing object')  # fmt: skip


def test_missing_special_tokens_are_quoted_as_json(impl: str) -> None:
    tok = tokenizer_class(impl)(VOCAB, cls_token=ODD, pad_token="[" + ODD)
    raises(lambda: tok.encode("hello"), ValueError,
           f'cannot add special tokens: {quoted(ODD)} and "[SEP]" must both be in the vocabulary '
           "(pass add_special_tokens=False)")  # fmt: skip
    raises(lambda: tok.encode("hello", add_special_tokens=False, padding="longest"), ValueError,
           f"padding needs {quoted('[' + ODD)} in the vocabulary")  # fmt: skip


def test_add_special_tokens_keys_and_tokens_are_quoted_as_json(tok: Any) -> None:
    raises(lambda: tok.add_special_tokens({ODD: "x"}), ValueError,
           f"add_special_tokens: unknown key {quoted(ODD)} (the keys are additional_special_tokens, "
           "extra_special_tokens, mask_token, bos_token, eos_token, unk_token, sep_token, cls_token and "
           "pad_token)")  # fmt: skip
    raises(lambda: tok.add_special_tokens({"unk_token": ODD}), ValueError,
           f'add_special_tokens: unk_token {quoted(ODD)} is not supported: it is the pipeline\'s, "[UNK]" (the keys '
           "that add tokens are additional_special_tokens, extra_special_tokens, mask_token, bos_token, eos_token "
           "and pad_token)")  # fmt: skip


# A word of a tokenizer file, with the characters JSON escapes: a quote, a control character, a
# backslash (the twin names some of a file's words with ASCII-only JSON, so no other character).
FILE_WORD = 'a"b\x01c\\d'
PAD = {"strategy": "BatchLongest", "direction": "Right", "pad_to_multiple_of": None, "pad_id": 0, "pad_type_id": 0}
SUPPORTED_NORMALIZERS = "BertNormalizer, NFD then StripAccents, Lowercase, Strip, Sequence of them"
FILE_ERRORS = {
    f'decoder.prefix: {quoted(FILE_WORD)} differs from model.continuing_subword_prefix "##", which is not supported': (
        "decoder",
        "prefix",
        FILE_WORD,
    ),
    f'model.vocab: {quoted(FILE_WORD)} and "hello" have the same id 4': ("model", "vocab", {**{FILE_WORD: 4}}),
    f"padding.pad_token: {quoted(FILE_WORD)} is not in the vocabulary": (
        "padding",
        None,
        {**PAD, "pad_token": FILE_WORD},
    ),
    f"normalizer: {quoted(FILE_WORD)} is not supported (supported: {SUPPORTED_NORMALIZERS})": (
        "normalizer",
        None,
        {"type": FILE_WORD},
    ),
}


@pytest.mark.parametrize("message", sorted(FILE_ERRORS))
def test_the_words_of_a_tokenizer_file_are_quoted_as_json(message: str) -> None:
    document = json.loads(tokenizer_class("engine")(VOCAB).to_str())
    section, key, value = FILE_ERRORS[message]
    if key is None:
        document[section] = value
    elif isinstance(value, dict):
        document[section][key].update(value)
    else:
        document[section][key] = value
    for impl in sorted(IMPLEMENTATIONS):
        raises(lambda impl=impl: tokenizer_class(impl).from_str(json.dumps(document)), ValueError, message)


# -- pretokenized pairs, and their types ------------------------------------------------------


TYPED_CALLS = """
from __future__ import annotations

from typing import Any

import fast_wordpiece as fw


def calls(tok: fw.PyTokenizer, words: list[list[str]], pairs: list[tuple[list[str], list[str]]]) -> list[Any]:
    return [
        tok.encode(["hello"], ["world", "world"], is_pretokenized=True),
        tok.encode(("hello",), ("world", "world"), is_pretokenized=True),
        *tok.encode_batch([(["hello"], ["world", "world"])], is_pretokenized=True),
        *tok.encode_batch([[["hello"], ["world", "world"]]], is_pretokenized=True),
        *tok.encode_batch([words], is_pretokenized=True),
        *tok.encode_batch(pairs, is_pretokenized=True),
    ]
"""


def test_a_pretokenized_pair_of_lists_runs_and_type_checks(tmp_path: Path) -> None:
    source = tmp_path / "pretokenized_calls.py"
    source.write_text(TYPED_CALLS, encoding="utf-8")
    namespace: dict[str, Any] = {}
    exec(compile(TYPED_CALLS, str(source), "exec"), namespace)
    words, pairs = [["hello"], ["world", "world"]], [(["hello"], ["world", "world"])]
    for impl in sorted(IMPLEMENTATIONS):
        encodings = namespace["calls"](tokenizer_class(impl)(VOCAB), words, pairs)
        assert [e.tokens for e in encodings] == [["[CLS]", "hello", "[SEP]", "world", "world", "[SEP]"]] * 6
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache"),
         str(source)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


# -- a mapping given as a batch -----------------------------------------------------------------


# (what is called, the name of its batch argument, the call given a batch)
BATCH_CALLS: list[tuple[str, str, Any]] = [
    ("PyTokenizer.encode_batch", "inputs", lambda t, b: t["wordpiece"].encode_batch(b)),
    ("encode_batch(is_pretokenized)", "inputs", lambda t, b: t["wordpiece"].encode_batch(b, is_pretokenized=True)),
    ("encode_batch(np)", "inputs", lambda t, b: t["wordpiece"].encode_batch(b, return_tensors="np")),
    ("PyTokenizer.encode_batch_fast", "inputs", lambda t, b: t["wordpiece"].encode_batch_fast(b)),
    ("PyTokenizer.analyze", "texts", lambda t, b: t["wordpiece"].analyze(b)),
    ("BPETokenizer.encode_batch", "texts", lambda t, b: t["bpe"].encode_batch(b)),
    ("BPETokenizer.analyze", "texts", lambda t, b: t["bpe"].analyze(b)),
    ("CharTokenizer.encode_batch", "texts", lambda t, b: t["chars"].encode_batch(b)),
    ("CharTokenizer.analyze", "texts", lambda t, b: t["chars"].analyze(b)),
    ("UnigramTokenizer.encode_batch", "texts", lambda t, b: t["unigram"].encode_batch(b)),
    ("UnigramTokenizer.analyze", "texts", lambda t, b: t["unigram"].analyze(b)),
    ("UnigramTokenizer.word_ids", "texts", lambda t, b: t["unigram"].word_ids(b)),
]


def dataframe(library: str) -> Any:
    """A DataFrame of ``library`` with a column "text" (the test skips when it is not installed)."""
    lib = pytest.importorskip(library, reason=f"optional: {library} is not installed")
    return lib.DataFrame({"text": ["hello world", "hello there"]})


#: Batches whose iteration does not give their texts, and the reason each refusal gives: a
#: dataset's batch ``{"text": [...]}`` would be encoded as the one text "text", as would pandas'
#: DataFrame (polars' gives Series, each no text).
NOT_BATCHES = {
    "dict": (lambda: {"text": ["hello world", "hello there"]}, "a mapping (dict): its keys would be read as the texts",
             'batch["text"]'),
    "UserDict": (lambda: UserDict({"text": ["hello world", "hello there"]}),
                 "a mapping (UserDict): its keys would be read as the texts", 'batch["text"]'),
    "LazyBatch": (lambda: LazyBatch({"text": ["hello world", "hello there"]}),
                  "a mapping (LazyBatch): its keys would be read as the texts", 'batch["text"]'),
    "pandas": (lambda: dataframe("pandas"), "a pandas DataFrame: iterating it goes over its columns, not its rows",
               'df["text"]'),
    "polars": (lambda: dataframe("polars"), "a polars DataFrame: iterating it goes over its columns, not its rows",
               'df["text"]'),
}  # fmt: skip


@pytest.mark.parametrize("kind", NOT_BATCHES)
@pytest.mark.parametrize(("what", "name", "call"), BATCH_CALLS, ids=[c[0] for c in BATCH_CALLS])
def test_a_mapping_or_dataframe_given_as_a_batch_is_refused_naming_its_column(
    what: str, name: str, call: Any, kind: str
) -> None:
    make, reason, column_of = NOT_BATCHES[kind]
    batch = make()
    modules = (fast_wordpiece, fast_wordpiece.reference)
    engine, twin = (outcome(lambda m=m: call(small_tokenizers(m), batch)) for m in modules)
    expected = f"{name} must be an iterable of texts, not {reason}; pass its column of texts ({column_of})"
    assert engine == twin == ("TypeError", expected)
    # Its column is what to pass.
    column = [text.split() for text in batch["text"]] if "pretokenized" in what else batch["text"]
    assert outcome(lambda: call(small_tokenizers(fast_wordpiece), column))[0] == "ok"


def test_a_dataframe_is_told_by_its_class_without_its_library() -> None:
    """Neither pandas nor polars is imported: a class named DataFrame from either (a subclass too)
    is refused, one named so elsewhere is not."""
    frames = {
        "pandas": type("DataFrame", (list,), {"__module__": "pandas.core.frame"}),
        "polars": type("DataFrame", (list,), {"__module__": "polars.dataframe.frame"}),
    }
    subclass = type("GeoDataFrame", (frames["pandas"],), {"__module__": "geopandas"})
    cases = [(frames["pandas"], "pandas"), (frames["polars"], "polars"), (subclass, "pandas")]
    for kind, library in cases:
        texts = kind(["text"])
        for m in (fast_wordpiece, fast_wordpiece.reference):
            got = outcome(lambda m=m, texts=texts: small_tokenizers(m)["wordpiece"].encode_batch(texts))
            assert got[0] == "TypeError"
            assert got[1].startswith(f"inputs must be an iterable of texts, not a {library} DataFrame: ")
    other = type("DataFrame", (list,), {"__module__": "mylib"})(["hello world"])
    for m in (fast_wordpiece, fast_wordpiece.reference):
        assert outcome(lambda m=m: len(small_tokenizers(m)["wordpiece"].encode_batch(other))) == ("ok", 1)
