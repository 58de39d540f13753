"""WordPiece training options that Hugging Face's trainers take too:
``initial_alphabet``, ``continuing_subword_prefix``; counts of 0; the default
vocabulary size everywhere training is offered (docs/spec.md section 4)."""

from __future__ import annotations

import inspect
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
        (["a", 7], TypeError, "initial_alphabet\\[1\\] must be str, not int"),
        (["a", "bc"], ValueError, 'initial_alphabet\\[1\\] must be one character, not "bc"'),
        ([""], ValueError, 'initial_alphabet\\[0\\] must be one character, not ""'),
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
    assert parse_args([]).vocab_size == 30000
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
