"""WordPiece training options that Hugging Face's trainers take too:
``initial_alphabet``, ``continuing_subword_prefix``; counts of 0; the default
vocabulary size everywhere training is offered (docs/spec.md section 4)."""

from __future__ import annotations

import inspect
import json
import os
import re
from typing import Any

import pytest

import fast_wordpiece
from fast_wordpiece import reference
from fast_wordpiece.cli import parse_args

IMPLS = pytest.mark.parametrize("impl", [fast_wordpiece, reference], ids=["engine", "twin"])
OBJECTIVES = ["likelihood", "frequency", "pmi"]
CORPUS = ["the cat sat on the mat", "a hat that fits", "cats and hats", "the rat ate the oat"] * 3


def vocab_list(tok: Any) -> list[str]:
    vocab = tok.get_vocab()
    return sorted(vocab, key=vocab.__getitem__)


def train(impl: Any, corpus: list[str], vocab_size: int = 60, **kwargs: Any) -> Any:
    return impl.PyTokenizer.train(corpus, vocab_size, 1, show_progress=False, **kwargs)


# ----------------------------------------------------------------------------- initial_alphabet


@IMPLS
def test_initial_alphabet_characters_are_word_initial_tokens_whether_seen_or_not(impl: Any) -> None:
    tok = train(impl, CORPUS, 40, initial_alphabet=["z", "ж", "a"])
    vocab = vocab_list(tok)
    # z and ж are not in the corpus: their word-initial tokens join the sorted alphabet,
    # their continuation forms do not (as Hugging Face's trainer makes them).
    assert {"z", "ж"} <= set(vocab)
    assert not {"##z", "##ж"} & set(vocab)
    assert vocab[:5] == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    alphabet = [t for t in vocab[5:] if len(t.removeprefix("##")) == 1]
    assert alphabet == sorted(alphabet)
    assert tok.encode("zж", add_special_tokens=False).tokens == ["[UNK]"]  # no ##ж
    assert tok.encode("ж z", add_special_tokens=False).tokens == ["ж", "z"]


@IMPLS
def test_limit_alphabet_counts_and_always_keeps_the_initial_alphabet(impl: Any) -> None:
    counts = {"aa": 10, "bb": 8, "cc": 6, "dq": 1}
    limited = impl.PyTokenizer.train_from_counts(
        counts, 100, 1, limit_alphabet=3, initial_alphabet=["q"], show_progress=False
    )
    # q is kept, and with it the two most frequent others (a, b): not c, not d.
    vocab = vocab_list(limited)
    assert [t for t in vocab[5:] if len(t.removeprefix("##")) == 1] == ["##a", "##b", "a", "b", "q"]
    # More initial characters than the limit: all of them, and no other.
    tok = impl.PyTokenizer.train_from_counts(
        counts, 100, 1, limit_alphabet=1, initial_alphabet=["d", "q"], show_progress=False
    )
    assert vocab_list(tok)[5:] == ["##q", "d", "q", "dq"]


@IMPLS
def test_an_initial_alphabet_of_seen_characters_changes_nothing(impl: Any) -> None:
    for objective in OBJECTIVES:
        plain = train(impl, CORPUS, objective=objective)
        given = train(impl, CORPUS, objective=objective, initial_alphabet=("t", "h", "t"))
        assert vocab_list(given) == vocab_list(plain)
        assert given.merges == plain.merges


@IMPLS
@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ("abc", TypeError, "initial_alphabet must be an iterable of one-character str, not str"),
        (5, TypeError, "initial_alphabet must be an iterable of one-character str, not int"),
        (
            {"a": 1},
            TypeError,
            r"initial_alphabet must be an iterable of one-character str, not a mapping \(dict\): its keys would be "
            "read as the characters",
        ),
        (["a", 7], TypeError, "initial_alphabet\\[1\\] must be str, not int"),
        (["a", "bc"], ValueError, 'initial_alphabet\\[1\\] must be one character, not "bc"'),
        ([""], ValueError, 'initial_alphabet\\[0\\] must be one character, not ""'),
        (["a", " "], ValueError, "initial_alphabet\\[1\\] is whitespace, which no pre-tokenizer leaves in a word"),
        (["\n"], ValueError, "initial_alphabet\\[0\\] is whitespace, which no pre-tokenizer leaves in a word"),
        (["\u3000"], ValueError, "initial_alphabet\\[0\\] is whitespace, which no pre-tokenizer leaves in a word"),
    ],
)
def test_a_bad_initial_alphabet_is_named(impl: Any, value: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        train(impl, CORPUS, initial_alphabet=value)
    with pytest.raises(error, match=message):
        impl.PyTokenizer.train_from_counts({"ab": 2}, 10, initial_alphabet=value, show_progress=False)


# ----------------------------------------------------------------------------- continuing_subword_prefix


@IMPLS
@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("prefix", ["@@", "###"])
def test_another_prefix_makes_the_same_vocabulary_with_that_prefix(impl: Any, objective: str, prefix: str) -> None:
    # The corpus holds no "#" or "@", and both sort before its letters as "##" does (ties
    # between merges go to the smaller token): only the prefix differs.
    plain = train(impl, CORPUS, objective=objective)
    tok = train(impl, CORPUS, objective=objective, continuing_subword_prefix=prefix)

    def swap(token: str) -> str:
        return prefix + token[2:] if token.startswith("##") else token

    assert vocab_list(tok) == [swap(t) for t in vocab_list(plain)]
    assert tok.merges == [(swap(a), swap(b)) for a, b in plain.merges]
    # The tokenizer encodes and decodes with it.
    text = "the cats sat on hats teats"
    assert tok.encode(text).tokens == [swap(t) for t in plain.encode(text).tokens]
    assert tok.decode(tok.encode(text).ids, skip_special_tokens=True) == text
    assert any(t.startswith(prefix) for t in tok.encode(text).tokens)


@IMPLS
def test_a_prefixed_tokenizer_saves_and_loads_with_its_prefix(impl: Any, tmp_path: Any) -> None:
    tok = train(impl, CORPUS, continuing_subword_prefix="@@")
    again = impl.PyTokenizer.from_json(tok.to_json())
    assert again.encode("the cats").tokens == tok.encode("the cats").tokens
    assert '"continuing_subword_prefix": "@@"' in tok.to_json().replace('":"', '": "')


@IMPLS
def test_an_empty_prefix_trains_one_token_per_character(impl: Any) -> None:
    tok = impl.PyTokenizer.train_from_counts(
        {"abab": 3, "ba": 2}, 9, 1, continuing_subword_prefix="", show_progress=False
    )
    assert vocab_list(tok)[5:7] == ["a", "b"]
    assert all(not t.startswith("##") for t in vocab_list(tok))


@IMPLS
@pytest.mark.parametrize("char", ["\u200b", "\x1c", "_"])
def test_initial_alphabet_takes_what_the_pre_tokenizers_do_not_split_on(impl: Any, char: str) -> None:
    # Zero-width space and U+001C are no whitespace to the pre-tokenizers (Python's isspace()
    # says U+001C is): a word can hold them, so the alphabet can.
    tok = train(impl, CORPUS, 40, initial_alphabet=[char])
    assert char in tok.get_vocab()


@IMPLS
@pytest.mark.parametrize("prefix", ["a b", "\n", " ", "#\u3000"])
def test_a_prefix_with_whitespace_is_refused_before_training(impl: Any, prefix: str) -> None:
    message = f"continuing_subword_prefix {json.dumps(prefix, ensure_ascii=False)} contains whitespace"
    with pytest.raises(ValueError, match=re.escape(message)):
        train(impl, CORPUS, continuing_subword_prefix=prefix)
    with pytest.raises(ValueError, match=re.escape(message)):
        impl.PyTokenizer.train_from_counts({"ab": 2}, 10, continuing_subword_prefix=prefix, show_progress=False)
    counts = impl.count_words(CORPUS, show_progress=False)
    with pytest.raises(ValueError, match=re.escape(message)):
        impl.PyTokenizer.train_from_counts(counts, 10, continuing_subword_prefix=prefix, show_progress=False)


@IMPLS
def test_a_prefix_with_whitespace_still_loads(impl: Any) -> None:
    # Only training refuses it: a tokenizer made with one encodes with it.
    tok = impl.PyTokenizer(["[UNK]", "[CLS]", "[SEP]", "a", "a bb"], continuing_subword_prefix="a b")
    assert tok.encode("ab", add_special_tokens=False).tokens == ["a", "a bb"]


@IMPLS
@pytest.mark.parametrize("prefix", ["@@", "#", ""])
def test_save_vocab_of_another_prefix_loads_back_given_the_prefix(impl: Any, prefix: str, tmp_path: Any) -> None:
    tok = train(impl, CORPUS, continuing_subword_prefix=prefix)
    tok.save_vocab(tmp_path / "vocab.txt")
    again = impl.PyTokenizer.from_vocab_file(tmp_path / "vocab.txt", continuing_subword_prefix=prefix)
    for text in ["thats the hats", "unhappiness of rats"]:
        assert again.encode(text).tokens == tok.encode(text).tokens


@IMPLS
def test_save_vocab_of_the_default_prefix_loads_back(impl: Any, tmp_path: Any) -> None:
    tok = train(impl, CORPUS)
    tok.save_vocab(tmp_path / "vocab.txt")
    again = impl.PyTokenizer.from_vocab_file(tmp_path / "vocab.txt")
    assert again.encode("thats the hats").tokens == tok.encode("thats the hats").tokens


HELD_OUT = ["thats the cats", "unhappiness of rats", "mathematics", "a hat, a cat; a mat!"]


@IMPLS
def test_save_pretrained_leaves_out_vocab_txt_for_another_prefix(impl: Any, tmp_path: Any) -> None:
    tok = train(impl, CORPUS, continuing_subword_prefix="@@")
    written = tok.save_pretrained(tmp_path)
    names = sorted(os.path.basename(p) for p in written)
    assert names == ["special_tokens_map.json", "tokenizer.json", "tokenizer_config.json"]
    assert sorted(os.listdir(tmp_path)) == names
    again = impl.PyTokenizer.from_pretrained(tmp_path)
    for text in HELD_OUT:
        assert again.encode(text).tokens == tok.encode(text).tokens
    assert any("@@" in t for text in HELD_OUT for t in tok.encode(text).tokens)
    # The default prefix keeps its vocab.txt.
    plain = tmp_path / "plain"
    assert "vocab.txt" in [os.path.basename(p) for p in train(impl, CORPUS).save_pretrained(plain)]


@IMPLS
@pytest.mark.parametrize("prefix", ["@@", ""])
def test_transformers_loads_a_prefixed_directory_from_its_tokenizer_json(impl: Any, prefix: str, tmp_path: Any) -> None:
    transformers = pytest.importorskip("transformers")
    tok = train(impl, CORPUS, continuing_subword_prefix=prefix)
    tok.save_pretrained(tmp_path)
    for cls in (transformers.AutoTokenizer, transformers.PreTrainedTokenizerFast):
        hf = cls.from_pretrained(str(tmp_path))
        for text in HELD_OUT:
            ids = tok.encode(text).ids
            assert hf(text)["input_ids"] == ids
            assert hf.convert_ids_to_tokens(ids) == tok.encode(text).tokens
            assert hf.decode(ids) == tok.decode(ids, skip_special_tokens=False)


# ----------------------------------------------------------------------------- counts of 0


@IMPLS
def test_train_from_counts_ignores_a_count_of_0(impl: Any) -> None:
    with_zeros = impl.PyTokenizer.train_from_counts(
        {"hug": 10, "pug": 0, "hugs": 5, "xyz": 0}, 30, 1, show_progress=False
    )
    without = impl.PyTokenizer.train_from_counts({"hug": 10, "hugs": 5}, 30, 1, show_progress=False)
    assert vocab_list(with_zeros) == vocab_list(without)
    assert with_zeros.merges == without.merges
    pairs = impl.PyTokenizer.train_from_counts([("hug", 10), ("p", 0), ("hugs", 5)], 30, 1, show_progress=False)
    assert vocab_list(pairs) == vocab_list(without)
    with pytest.raises(ValueError, match="the corpus has no words to train on"):
        impl.PyTokenizer.train_from_counts({"a": 0, "b": 0}, 30, show_progress=False)
    with pytest.raises(ValueError, match='the count of "a" must be >= 0, got -1'):
        impl.PyTokenizer.train_from_counts({"a": -1}, 30, show_progress=False)


# ----------------------------------------------------------------------------- default vocabulary sizes


def test_every_wordpiece_trainer_defaults_to_30000_tokens() -> None:
    assert parse_args(["corpus.txt"]).vocab_size == parse_args(["--counts", "a.fwc"]).vocab_size == 30000
    assert parse_args([]).vocab_size == 8000  # the quick check, on the standard library's docstrings
    from fast_wordpiece import dask as fw_dask
    from fast_wordpiece import spark as fw_spark

    for function in (
        fw_dask.train,
        fw_spark.train,
        fast_wordpiece.PyTokenizer.train,
        fast_wordpiece.PyTokenizer.train_from_files,
        fast_wordpiece.PyTokenizer.train_from_counts,
    ):
        assert inspect.signature(function).parameters["vocab_size"].default == 30000, function


def test_the_command_line_passes_the_new_options_on(tmp_path: Any) -> None:
    args = parse_args(["--initial-alphabet", "zж", "--continuing-subword-prefix", "@@"])
    assert (args.initial_alphabet, args.continuing_subword_prefix) == ("zж", "@@")
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(CORPUS), encoding="utf-8")
    saved = tmp_path / "tok.json"
    argv = [str(corpus), "--vocab-size", "50", "--min-frequency", "1", "--no-progress", "--save", str(saved)]
    assert fast_wordpiece.cli.main([*argv, "--initial-alphabet", "zж", "--continuing-subword-prefix", "@@"]) == 0
    tok = fast_wordpiece.PyTokenizer.from_file(str(saved))
    vocab = vocab_list(tok)
    assert {"z", "ж", "@@t"} <= set(vocab)
    assert "##t" not in vocab


# ----------------------------------------------------------------------------- argument checks


@IMPLS
@pytest.mark.parametrize("counts", [[("cat", 2**64 - 1)], [("ab", 2**63)], [("a", 2**63), ("bc", 2**62)]])
def test_counts_beyond_64_bits_of_character_occurrences_are_refused(impl: Any, counts: Any) -> None:
    with pytest.raises(ValueError, match=re.escape("more than 2**64 - 1 character occurrences: scale them down")):
        impl.PyTokenizer.train_from_counts(counts, 30, 1, show_progress=False)


@IMPLS
def test_counts_of_up_to_64_bits_of_character_occurrences_train(impl: Any) -> None:
    tok = impl.PyTokenizer.train_from_counts([("a", 2**64 - 1), ("b", 0)], 30, 1, show_progress=False)
    assert "a" in tok.get_vocab()


# One bad value of each argument, in the order the arguments are checked: show_progress while
# the arguments are taken, then the corpus itself, the sizes, the special tokens, the objective,
# the alphabet, the pipeline options, the texts of the corpus (as they are counted), and
# unk_token among the special tokens last.
BAD_TRAINING_ARGUMENTS: dict[str, tuple[str, Any]] = {
    "show_progress": ("show_progress", "yes"),
    "corpus": ("corpus", 5),
    "vocab_size": ("vocab_size", 0),
    "min_frequency": ("min_frequency", -1),
    "special_tokens": ("special_tokens", ["[UNK]", "[UNK]"]),
    "objective": ("objective", 3),
    "limit_alphabet": ("limit_alphabet", 0),
    "initial_alphabet": ("initial_alphabet", [" "]),
    "options": ("max_input_chars_per_word", 0),
    "prefix": ("continuing_subword_prefix", "a b"),
    "texts": ("corpus", ["fine", 7]),
    "unk_token": ("unk_token", "[NOPE]"),
}
ORDER = list(BAD_TRAINING_ARGUMENTS)
PAIRS = [(a, b) for i, a in enumerate(ORDER) for b in ORDER[i + 1 :] if {a, b} != {"corpus", "texts"}]


def train_error(impl: Any, bad: dict[str, Any], method: str = "train") -> BaseException:
    arguments: dict[str, Any] = {"corpus": CORPUS, "vocab_size": 60, "min_frequency": 1, "show_progress": False}
    if method == "train_from_counts":
        arguments = {**arguments, "counts": {"ab": 2, "cd": 1}}
        del arguments["corpus"]
    arguments.update(bad)
    with pytest.raises((TypeError, ValueError)) as e:
        getattr(impl.PyTokenizer, method)(**arguments)
    return e.value


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_train_names_the_first_bad_argument_in_the_engines_order(first: str, second: str) -> None:
    bad = dict([BAD_TRAINING_ARGUMENTS[first], BAD_TRAINING_ARGUMENTS[second]])
    alone = train_error(fast_wordpiece, dict([BAD_TRAINING_ARGUMENTS[first]]))
    for impl in (fast_wordpiece, reference):
        error = train_error(impl, bad)
        assert (type(error), str(error)) == (type(alone), str(alone)), impl.__name__


COUNTS_ORDER = ["show_progress", "counts", "word", *ORDER[2:10], "unk_token"]
BAD_COUNTS_ARGUMENTS = {**BAD_TRAINING_ARGUMENTS, "counts": ("counts", 5), "word": ("counts", {"a b": 1})}
# The words of counts given by hand are checked with unk_token, after the other arguments.
COUNTS_PAIRS = [(a, b) for i, a in enumerate(COUNTS_ORDER) for b in COUNTS_ORDER[i + 1 :] if "word" not in (a, b)]
COUNTS_PAIRS += [(a, "word") for a in ["show_progress", *ORDER[2:10]]] + [("unk_token", "word")]


@pytest.mark.parametrize(("first", "second"), COUNTS_PAIRS, ids=[f"{a}-{b}" for a, b in COUNTS_PAIRS])
def test_train_from_counts_names_the_first_bad_argument_in_the_engines_order(first: str, second: str) -> None:
    bad = dict([BAD_COUNTS_ARGUMENTS[first], BAD_COUNTS_ARGUMENTS[second]])
    alone = train_error(fast_wordpiece, dict([BAD_COUNTS_ARGUMENTS[first]]), "train_from_counts")
    for impl in (fast_wordpiece, reference):
        error = train_error(impl, bad, "train_from_counts")
        assert (type(error), str(error)) == (type(alone), str(alone)), impl.__name__
