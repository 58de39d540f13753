"""Which bad keyword argument ``PyTokenizer`` names, and how, in the engine and the twin alike:

- an unexpected keyword argument is named as Python names it (``got an unexpected keyword
  argument 'foo'``, the name's ``repr``), by ``encode``, ``encode_batch``, the constructors and
  training functions (the pipeline options) and ``from_pretrained``;
- when several keywords are bad, the error is the first of: an unexpected keyword (the first in
  the call's order), then each keyword on its own in the order of the signature, then what
  keywords ask together (spec section 9);
- the pipeline options likewise: an unexpected one first, then each option on its own in the order
  of the fields of the twin's ``Options`` (spec section 8), whatever the call's order."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from implementations import IMPLEMENTATIONS, outcome, tokenizer_class

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "##s"]
TRUNCATIONS = '"longest_first", "only_first", "only_second", "do_not_truncate"'


def tokenizers() -> list[Any]:
    return [tokenizer_class(impl)(VOCAB) for impl in sorted(IMPLEMENTATIONS)]


# Each keyword in the order of the signature: a value that is fine alone (and with the others' fine
# values), and bad values with the error each gives on its own.
ENCODE_KEYWORDS: list[tuple[str, Any, list[tuple[Any, str, str]]]] = [
    ("is_pretokenized", False, [
        ("yes", "TypeError", "is_pretokenized must be bool, not str"),
        (1, "TypeError", "is_pretokenized must be bool, not int"),
    ]),
    ("max_length", 8, [
        ("8", "TypeError", "max_length must be int, not str"),
        (-1, "ValueError", "max_length must be >= 0, got -1"),
    ]),
    ("truncation", "longest_first", [
        (3, "TypeError", "truncation must be bool, str or None, not int"),
        ("sideways", "ValueError", f'unknown truncation "sideways": expected one of {TRUNCATIONS}'),
    ]),
    ("stride", 0, [
        (None, "TypeError", "stride must be int, not NoneType"),
        (-2, "ValueError", "stride must be >= 0, got -2"),
    ]),
    ("truncation_side", "left", [
        (1, "TypeError", "truncation_side must be str, not int"),
        ("up", "ValueError", 'truncation_side must be "left" or "right", not "up"'),
    ]),
    ("padding", "longest", [
        (5, "TypeError", "padding must be str, not int"),
        ("wide", "ValueError", 'padding must be None, "longest" or "max_length", not "wide"'),
    ]),
    ("pad_to_multiple_of", 2, [
        ("2", "TypeError", "pad_to_multiple_of must be int, not str"),
        (0, "ValueError", "pad_to_multiple_of must be >= 1, got 0"),
    ]),
    ("padding_side", "left", [
        (None, "TypeError", "padding_side must be str, not NoneType"),
        ("up", "ValueError", 'padding_side must be "left" or "right", not "up"'),
    ]),
]  # fmt: skip
BATCH_KEYWORDS: list[tuple[str, Any, list[tuple[Any, str, str]]]] = [
    ("return_tensors", None, [
        (1, "TypeError", "return_tensors must be str, not int"),
        ("pt", "ValueError", "return_tensors must be None or \"np\", not 'pt'"),
    ]),
    ("num_threads", 2, [
        ("2", "TypeError", "num_threads must be int, not str"),
        (0, "ValueError", "num_threads must be >= 1, got 0"),
        (5000, "ValueError", "num_threads must be between 1 and 1024, not 5000"),
    ]),
    ("return_offsets", False, [(1, "TypeError", "return_offsets must be bool, not int")]),
    ("return_token_type_ids", False, [(1, "TypeError", "return_token_type_ids must be bool, not int")]),
    ("return_special_tokens_mask", False, [(1, "TypeError", "return_special_tokens_mask must be bool, not int")]),
]  # fmt: skip
UNEXPECTED = ["foo", "max_len", "it's", 'say "hi"', "trunc\u00e9", "return_attention_mask"]


@st.composite
def drawn_keywords(
    draw: st.DrawFn, table: list[tuple[str, Any, list[tuple[Any, str, str]]]], function: str, max_unexpected: int
) -> tuple[dict[str, Any], tuple[str, str] | None]:
    """Keyword arguments of `table`, some fine, some bad, and up to `max_unexpected` unexpected
    ones, in a drawn order; and the error the spec says `function` raises first (None: it
    succeeds): the first unexpected keyword in the call's order, else the first bad one in the
    table's order."""
    chosen: dict[str, Any] = {}
    first_bad = None
    for name, fine, bad in table:
        pick = draw(st.sampled_from(["absent", "fine", *range(len(bad))]))
        if pick == "fine":
            chosen[name] = fine
        elif pick != "absent":
            value, kind, message = bad[pick]  # type: ignore[index]
            chosen[name] = value
            first_bad = first_bad or (kind, message)
    unexpected = draw(st.lists(st.sampled_from(UNEXPECTED), max_size=max_unexpected, unique=True))
    for name in unexpected:
        chosen[name] = 1
    order = draw(st.permutations(sorted(chosen)))
    kwargs = {name: chosen[name] for name in order}
    first_unexpected = next((name for name in order if name in unexpected), None)
    if first_unexpected is not None:
        return kwargs, ("TypeError", f"{function}() got an unexpected keyword argument {first_unexpected!r}")
    return kwargs, first_bad


def keyword_calls(batch: bool) -> st.SearchStrategy[tuple[dict[str, Any], tuple[str, str] | None]]:
    """Keyword calls of encode (or encode_batch, with its own keywords too)."""
    if batch:
        return drawn_keywords(ENCODE_KEYWORDS + BATCH_KEYWORDS, "encode_batch", 3)
    return drawn_keywords(ENCODE_KEYWORDS, "encode", 3)


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(call=keyword_calls(batch=False))
def test_encode_names_the_first_bad_keyword_in_the_order_of_the_spec(call: Any) -> None:
    kwargs, expected = call
    for tok in tokenizers():
        kind, result = outcome(lambda tok=tok: tok.encode("hello worlds", **kwargs))
        if expected is None:
            assert kind == "ok", result
        else:
            assert (kind, result) == expected


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(call=keyword_calls(batch=True))
def test_encode_batch_names_the_first_bad_keyword_in_the_order_of_the_spec(call: Any) -> None:
    kwargs, expected = call
    for tok in tokenizers():
        kind, result = outcome(lambda tok=tok: tok.encode_batch(["hello worlds", "world"], **kwargs))
        if expected is None:
            assert kind == "ok", result
        else:
            assert (kind, result) == expected


@pytest.mark.parametrize("tok", tokenizers(), ids=sorted(IMPLEMENTATIONS))
def test_keywords_that_do_not_go_together_are_named_after_each_keyword_alone(tok: Any) -> None:
    # stride without max_length, but a bad padding_side: padding_side comes first.
    assert outcome(lambda: tok.encode("hello", stride=2, padding_side="up")) == (
        "ValueError", 'padding_side must be "left" or "right", not "up"')  # fmt: skip
    assert outcome(lambda: tok.encode("hello", stride=2)) == (
        "ValueError", 'stride needs max_length (and a truncation other than "do_not_truncate")')  # fmt: skip
    # pad_to_multiple_of without padding, and too many threads: num_threads comes first.
    assert outcome(lambda: tok.encode_batch(["hello"], pad_to_multiple_of=8, num_threads=5000)) == (
        "ValueError", "num_threads must be between 1 and 1024, not 5000")  # fmt: skip
    assert outcome(lambda: tok.encode_batch(["hello"], return_offsets=True, padding="wide")) == (
        "ValueError", 'padding must be None, "longest" or "max_length", not "wide"')  # fmt: skip
    # add_special_tokens comes before the keywords, the keywords before the inputs.
    assert outcome(lambda: tok.encode_batch(["hello"], "yes", foo=1)) == (
        "TypeError", "add_special_tokens must be bool, not str")  # fmt: skip
    assert outcome(lambda: tok.encode_batch([5], max_length="8")) == (
        "TypeError", "max_length must be int, not str")  # fmt: skip


@pytest.mark.parametrize("tok", tokenizers(), ids=sorted(IMPLEMENTATIONS))
def test_unexpected_keywords_of_encode_are_named_as_python_names_them(tok: Any) -> None:
    for name in UNEXPECTED:
        kwargs = {name: 1}
        for function, call in [("encode", lambda kw=kwargs: tok.encode("hello", **kw)),
                               ("encode_batch", lambda kw=kwargs: tok.encode_batch(["hello"], **kw))]:  # fmt: skip
            assert outcome(call) == ("TypeError", f"{function}() got an unexpected keyword argument {name!r}")
    kind, message = outcome(lambda: tok.encode("hello", return_tensors="np"))
    assert kind == "TypeError"
    assert message.startswith("encode() got an unexpected keyword argument 'return_tensors': ")


@pytest.mark.parametrize("impl", sorted(IMPLEMENTATIONS))
def test_an_unexpected_pipeline_option_is_named_first_and_as_python_names_it(impl: str, tmp_path: Any) -> None:
    cls = tokenizer_class(impl)
    vocab_file = tmp_path / "vocab.txt"
    vocab_file.write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    calls = {
        "PyTokenizer": lambda **kw: cls(VOCAB, **kw),
        "from_vocab_file": lambda **kw: cls.from_vocab_file(vocab_file, **kw),
        "train": lambda **kw: cls.train(["hello world"], 60, **kw),
        "train_from_counts": lambda **kw: cls.train_from_counts({"hello": 2}, 60, **kw),
    }
    for function, call in calls.items():
        # A bad value given before it does not hide it: Python binds the keywords first.
        for kwargs in ({"colour": 1}, {"lowercase": "yes", "colour": 1}, {"unk_token": 5, "it's": 1, "colour": 2}):
            name = next(k for k in kwargs if k in ("colour", "it's"))
            assert outcome(lambda call=call, kwargs=kwargs: call(**kwargs)) == (
                "TypeError", f"{function}() got an unexpected keyword argument {name!r}")  # fmt: skip
        assert outcome(lambda call=call: call(lowercase="yes")) == ("TypeError", "lowercase must be bool, not str")


def test_from_pretrained_names_an_unexpected_keyword_as_python_does(tmp_path: Any) -> None:
    (tmp_path / "vocab.txt").write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    for impl in sorted(IMPLEMENTATIONS):
        cls = tokenizer_class(impl)
        assert outcome(lambda cls=cls: cls.from_pretrained(tmp_path, max_len=5)) == (
            "TypeError", "from_pretrained() got an unexpected keyword argument 'max_len'")  # fmt: skip


# The pipeline options in the order they are checked in, each with a fine value and bad ones.
OPTIONS: list[tuple[str, Any, list[tuple[Any, str, str]]]] = [
    ("clean_text", True, [("x", "TypeError", "clean_text must be bool, not str")]),
    ("handle_chinese_chars", True, [(1, "TypeError", "handle_chinese_chars must be bool, not int")]),
    ("strip_accents", None, [("x", "TypeError", "strip_accents must be bool, not str")]),
    ("lowercase", True, [("x", "TypeError", "lowercase must be bool, not str")]),
    ("strip_all_marks", False, [(1, "TypeError", "strip_all_marks must be bool, not int")]),
    ("pre_tokenizer", "bert", [
        (5, "TypeError", "pre_tokenizer must be str, not int"),
        ("zz", "ValueError",
         'unknown pre_tokenizer "zz": expected one of "bert", "whitespace", "regex", "wordpunct"'),
    ]),
    ("unk_token", "[UNK]", [
        (5, "TypeError", "unk_token must be str, not int"),
        ("", "ValueError", "unk_token must not be empty"),
    ]),
    ("cls_token", "[CLS]", [("", "ValueError", "cls_token must not be empty")]),
    ("sep_token", "[SEP]", [(5, "TypeError", "sep_token must be str, not int")]),
    ("pad_token", "[PAD]", [("", "ValueError", "pad_token must not be empty")]),
    ("max_input_chars_per_word", 100, [
        ("x", "TypeError", "max_input_chars_per_word must be int, not str"),
        (0, "ValueError", "max_input_chars_per_word must be >= 1, got 0"),
    ]),
    ("continuing_subword_prefix", "##", [(5, "TypeError", "continuing_subword_prefix must be str, not int")]),
    ("decoder_cleanup", True, [("x", "TypeError", "decoder_cleanup must be bool, not str")]),
    ("post_processor", "bert", [
        ("zz", "ValueError", 'unknown post_processor "zz": expected "bert", "none" or a TemplateProcessing object'),
    ]),
    ("split_special_tokens", False, [(1, "TypeError", "split_special_tokens must be bool, not int")]),
    ("decoder", "wordpiece", [("zz", "ValueError", 'unknown decoder "zz": expected "wordpiece" or "none"')]),
]  # fmt: skip


def option_calls() -> st.SearchStrategy[tuple[dict[str, Any], tuple[str, str] | None]]:
    """Pipeline options of the constructor."""
    return drawn_keywords(OPTIONS, "PyTokenizer", 2)


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(call=option_calls())
def test_the_first_bad_pipeline_option_in_the_order_of_the_fields_is_named(call: Any) -> None:
    kwargs, expected = call
    for impl in sorted(IMPLEMENTATIONS):
        kind, result = outcome(lambda impl=impl: tokenizer_class(impl)(VOCAB, **kwargs))
        if expected is None:
            assert kind == "ok", result
        else:
            assert (kind, result) == expected


@pytest.mark.parametrize("impl", sorted(IMPLEMENTATIONS))
def test_unigram_training_names_an_unexpected_keyword_before_a_bad_value(impl: str, tmp_path: Any) -> None:
    """As Python binds arguments: an unexpected keyword is the error even when a keyword of the
    function (``show_progress``, ``special_tokens``) has a bad value too."""
    cls = importlib.import_module(IMPLEMENTATIONS[impl]).UnigramTokenizer
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("hello world there\n" * 20, encoding="utf-8")
    calls = {
        "UnigramTokenizer.train": lambda **kw: cls.train(["hello world there"] * 20, 30, **kw),
        "UnigramTokenizer.train_from_files": lambda **kw: cls.train_from_files([corpus], 30, **kw),
        "UnigramTokenizer.train_from_counts": lambda **kw: cls.train_from_counts({"hello world there": 5}, 30, **kw),
    }
    for function, call in calls.items():
        bad_too = ({"show_progress": "x", "foo": 1}, {"foo": 1, "show_progress": "x"}, {"special_tokens": 3, "foo": 1})
        for kwargs in bad_too:
            assert outcome(lambda call=call, kwargs=kwargs: call(**kwargs)) == (
                "TypeError", f"{function}() got an unexpected keyword argument 'foo'")  # fmt: skip
        alone = outcome(lambda call=call: call(show_progress="x"))
        assert alone == ("TypeError", "show_progress must be bool, not str")
