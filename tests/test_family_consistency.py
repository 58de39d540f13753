"""The engine and the twin agree on the family (BPETokenizer, CharTokenizer, UnigramTokenizer) and
PyTokenizer where they used to part: ``==`` after a save and a reload, ``convert_tokens_to_ids``
of any iterable of str, the order of Unigram's training checks, and how messages quote a word."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from implementations import outcome
from implementations import small_tokenizers as tokenizers

import fast_wordpiece
import fast_wordpiece.reference

MODULES = [fast_wordpiece, fast_wordpiece.reference]
IDS = ["engine", "twin"]
FAMILY = ["bpe", "chars", "unigram"]


def engine_and_twin(call: Callable[[ModuleType], Any]) -> tuple[str, Any]:
    """The outcome of ``call`` on the engine, asserted to be the twin's."""
    engine, twin = (outcome(lambda m=m: call(m)) for m in MODULES)
    assert engine == twin
    return engine


# ----------------------------------------------------------------------------- == after a reload

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "naive", "##s", "a", "b"]


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_a_reloaded_tokenizer_is_equal_unless_the_order_of_its_added_tokens_matters(
    module: ModuleType, tmp_path: Path
) -> None:
    """The file lists the added tokens in id order, as Hugging Face writes them; read back, the
    tokenizer is equal to the original when the order they were added in changes nothing."""
    tok = module.PyTokenizer(VOCAB)
    tok.add_tokens(["<new>"])  # a new id, after the vocabulary
    tok.add_special_tokens(["world"])  # the vocabulary's id 6, added after
    tok.add_tokens(["hello"])  # id 5, added last
    tok.save(tmp_path / "tokenizer.json")
    again = module.PyTokenizer.from_file(tmp_path / "tokenizer.json")
    assert again == tok
    assert tok == again
    assert module.PyTokenizer.from_str(tok.to_str()) == tok
    assert pickle.loads(pickle.dumps(tok)) == tok
    for text in ["hello <new> world", "helloworld<new>s"]:
        assert again.encode(text).ids == tok.encode(text).ids
    # Equality still tells apart what tokenizes differently.
    other = module.PyTokenizer(VOCAB)
    other.add_tokens(["<new>", "hello"])
    assert other != tok
    # On an uncased tokenizer "naïve" and "naive" both match "naive": the first one added wins, so
    # the order they were added in tokenizes differently, and the tokenizers differ. Read back from
    # its file (the lower id first), the tokenizer is the one that added "naive" first.
    naive_first, accented_first = module.PyTokenizer(VOCAB), module.PyTokenizer(VOCAB)
    naive_first.add_tokens(["naive", "naïve"])
    accented_first.add_tokens(["naïve", "naive"])
    assert naive_first.encode("naive").ids != accented_first.encode("naive").ids
    assert naive_first != accented_first
    accented_first.save(tmp_path / "tokenizer.json")
    again = module.PyTokenizer.from_file(tmp_path / "tokenizer.json")
    assert again != accented_first
    assert again == naive_first


TEXTS = ["hello world the quick brown fox", "hello there world"] * 5


def out_of_id_order(module: ModuleType, name: str) -> Any:
    """A tokenizer of each kind given its special tokens in reverse id order."""
    if name == "bpe":
        bpe = module.BPETokenizer.train(TEXTS, 270, special_tokens=["<pad>", "<s>"])
        return module.BPETokenizer(bpe.get_vocab(), bpe.merges, special_tokens=["<s>", "<pad>"])
    if name == "chars":
        chars = module.CharTokenizer.train(TEXTS, special_tokens=["[UNK]", "<pad>", "<s>"])
        return module.CharTokenizer(chars.get_vocab(), special_tokens=["<s>", "<pad>", "[UNK]"])
    unigram = module.UnigramTokenizer.train(TEXTS, 30, special_tokens=["<unk>", "<pad>", "<s>"])
    return module.UnigramTokenizer(unigram.get_pieces(), special_tokens=["<s>", "<pad>", "<unk>"])


def reloaded(tok: Any) -> Any:
    """``tok`` written to its file's text and read back."""
    if hasattr(tok, "to_json"):
        return type(tok).from_json(tok.to_json())
    return type(tok).from_str(tok.to_str())


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_a_family_tokenizer_is_equal_to_itself_reloaded_and_pickled(module: ModuleType, name: str) -> None:
    tok = out_of_id_order(module, name)
    if hasattr(tok, "to_json") or hasattr(tok, "to_str"):  # the twin's Unigram has no files
        assert reloaded(tok) == tok
    if module is fast_wordpiece:  # the twins do not pickle by their files
        assert pickle.loads(pickle.dumps(tok)) == tok
    assert tok == out_of_id_order(module, name)
    assert tok != tokenizers(module)[name]
    assert tok != "a tokenizer"
    with pytest.raises(TypeError, match="unhashable"):
        hash(tok)


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_special_tokens_in_another_order_make_an_equal_bpe_tokenizer(module: ModuleType, tmp_path: Path) -> None:
    """BPE splits its special tokens out of the text whatever their order: the order given does
    not count, and a file read back (which lists them in id order) is equal to the original."""
    tok = out_of_id_order(module, "bpe")
    same = module.BPETokenizer(tok.get_vocab(), tok.merges, special_tokens=["<pad>", "<s>"])
    assert same == tok
    tok.save(tmp_path / "tokenizer.json")
    assert module.BPETokenizer.load(tmp_path / "tokenizer.json") == tok


# ----------------------------------------------------------------------------- convert_tokens_to_ids


def generated() -> Iterator[str]:
    yield from ["hello", "<pad>", "not a token"]


TOKENS: list[Callable[[], object]] = [
    generated,
    lambda: iter(["hello", "<pad>", "not a token"]),
    lambda: dict.fromkeys(["hello", "<pad>", "not a token"]).keys(),
]


@pytest.mark.parametrize("tokens", TOKENS, ids=["generator", "iterator", "keys"])
@pytest.mark.parametrize("name", FAMILY)
def test_convert_tokens_to_ids_takes_any_iterable_of_str(name: str, tokens: Callable[[], object]) -> None:
    kind, ids = engine_and_twin(lambda m: tokenizers(m)[name].convert_tokens_to_ids(tokens()))
    assert kind == "ok"
    tok = tokenizers(fast_wordpiece)[name]
    unknown = tok.convert_tokens_to_ids("not a token")
    assert ids == [tok.token_to_id("hello") or unknown, tok.token_to_id("<pad>"), unknown]


@pytest.mark.parametrize(
    ("tokens", "error"),
    [
        (lambda: 5, ("TypeError", "tokens must be a str or an iterable of str, not int")),
        (lambda: None, ("TypeError", "tokens must be a str or an iterable of str, not NoneType")),
        (lambda: ["hello", 3], ("TypeError", "tokens[1] must be str, not int")),
        (
            lambda: iter(["hello", "\ud800"]),
            ("ValueError", "tokens[1] contains a lone surrogate at index 0, which is not valid Unicode text"),
        ),
        (
            lambda: "\ud800",
            ("ValueError", "tokens contains a lone surrogate at index 0, which is not valid Unicode text"),
        ),
    ],
    ids=["int", "None", "an int among them", "a lone surrogate among them", "a lone surrogate"],
)
@pytest.mark.parametrize("name", FAMILY)
def test_convert_tokens_to_ids_refuses_what_is_not_str_alike(
    name: str, tokens: Callable[[], object], error: tuple[str, str]
) -> None:
    assert engine_and_twin(lambda m: tokenizers(m)[name].convert_tokens_to_ids(tokens())) == error


# ----------------------------------------------------------------------------- Unigram's checks


@pytest.mark.parametrize(
    ("counts", "options", "error"),
    [
        (5, {"vocab_size": 0}, ("ValueError", "vocab_size must be >= 1, got 0")),
        (
            [("a", -1)],
            {"shrinking_factor": 2.0},
            ("ValueError", "shrinking_factor must be between 0 and 1 (exclusive), not 2"),
        ),
        ([("a", -1)], {"shrinking_factor": True}, ("TypeError", "shrinking_factor must be float, not bool")),
        ({"a": "b"}, {"shrinking_factor": "x"}, ("TypeError", "shrinking_factor must be float, not str")),
        (5, {"special_tokens": []}, ("ValueError", "special_tokens must hold at least the unknown token")),
        (5, {"special_tokens": ["<unk>", "<unk>"]}, ("ValueError", 'special token "<unk>" appears twice')),
        (5, {"special_tokens": ["<unk>", ""]}, ("ValueError", "special_tokens[1] is empty")),
        (
            5,
            {"vocab_size": 2, "special_tokens": ["<unk>", "<s>"]},
            ("ValueError", "vocab_size (2) must exceed the number of special tokens (2)"),
        ),
        ([("a", -1)], {"num_sub_iterations": 0}, ("ValueError", "num_sub_iterations must be >= 1, got 0")),
        ("text", {"max_piece_length": 1.5}, ("TypeError", "max_piece_length must be int, not float")),
    ],
)
def test_unigram_training_checks_the_options_before_the_counts(
    counts: object, options: dict[str, Any], error: tuple[str, str]
) -> None:
    """For input wrong in both its counts and an option, the option's error comes first, in
    ``train_from_counts`` and in ``train`` (before the corpus) alike."""
    kwargs = {"vocab_size": 30, **options}
    assert engine_and_twin(lambda m: m.UnigramTokenizer.train_from_counts(counts, **kwargs)) == error
    assert engine_and_twin(lambda m: m.UnigramTokenizer.train(counts, **kwargs)) == error


# ----------------------------------------------------------------------------- quoting in messages

# A control character and non-ASCII ones: in double quotes, control characters escaped as in
# JSON, "\u0001" (not Rust's "\u{1}" nor Python's "\x01"), every other character as it is.
WORD = "<\x01é\t\u0301>"
SHOWN = '"<\\u0001é\\t\u0301>"'


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda m: m.BPETokenizer({"a": 0}, [], special_tokens=[WORD]),
            f"special token {SHOWN} is not in the vocabulary",
        ),
        (
            lambda m: m.BPETokenizer({"a": 0}, [], unk_token=WORD),
            f"unk_token {SHOWN} is not in the vocabulary",
        ),
        (
            lambda m: m.BPETokenizer.train_from_counts({WORD: 2}, 300),
            f"counts[0]: {SHOWN} is not a byte-level string (every character must show a byte)",
        ),
        (
            lambda m: m.CharTokenizer({"[UNK]": 0, WORD: 1}),
            f"token {SHOWN} is neither one character nor a special token",
        ),
        (
            lambda m: m.CharTokenizer({"[UNK]": 0}, unk_token=WORD),
            f"unk_token {SHOWN} must be one of the special tokens",
        ),
        (
            lambda m: m.CharTokenizer.train_from_counts({WORD: 2}),
            f"counts[0]: {SHOWN} is not one character",
        ),
        (
            lambda m: m.UnigramTokenizer([("<unk>", 0.0), ("a", -1.0)], special_tokens=[WORD]),
            f"special token {SHOWN} is not one of the pieces",
        ),
        (
            lambda m: m.UnigramTokenizer([("<unk>", 0.0), ("a", -1.0)], unk_token=WORD),
            f"unk_token {SHOWN} is not one of the pieces",
        ),
        (
            lambda m: m.UnigramTokenizer.train_from_counts({"a": 1}, 30, special_tokens=["<unk>", WORD, WORD]),
            f"special token {SHOWN} appears twice",
        ),
    ],
)
def test_messages_quote_words_alike_with_control_and_non_ascii_characters(
    call: Callable[[ModuleType], Any], message: str
) -> None:
    assert engine_and_twin(call) == ("ValueError", message)


# ----------------------------------------------------------------------------- vocabulary and special token checks

NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda m: m.CharTokenizer({"a": 0, "[UNK]": 1}, special_tokens=["[UNK]", WORD]),
            f"special token {SHOWN} is not in the vocabulary",
        ),
        (
            lambda m: m.CharTokenizer({"a": 0, "[UNK]": 1}, special_tokens=["[UNK]", WORD, ""]),
            f"special token {SHOWN} is not in the vocabulary",
        ),
        (
            lambda m: m.CharTokenizer({"a": 0, "[UNK]": 1}, special_tokens=["[UNK]", "", WORD]),
            "a special token must not be empty",
        ),
        (
            lambda m: m.CharTokenizer({"[UNK]": 0, "ab": 1}, special_tokens=["[UNK]", ""]),
            'token "ab" is neither one character nor a special token',
        ),
        (
            lambda m: m.CharTokenizer({"[UNK]": 0, "ab": 2, "cd": 1}),
            'token "cd" is neither one character nor a special token',
        ),
        (
            lambda m: m.UnigramTokenizer([(WORD, NAN)], unk_token=WORD),
            f"the score of piece 0 ({SHOWN}) is not finite: NaN",
        ),
        (
            lambda m: m.UnigramTokenizer([("a", -1.0), (WORD, INF)], unk_token="a"),
            f"the score of piece 1 ({SHOWN}) is not finite: inf",
        ),
        (
            lambda m: m.UnigramTokenizer([("a", -1.0), (WORD, -INF)], unk_token="a"),
            f"the score of piece 1 ({SHOWN}) is not finite: -inf",
        ),
        (
            lambda m: m.UnigramTokenizer([("a", -1.0), ("", -2.0)], unk_token="a"),
            "piece 1 is empty",
        ),
        (
            lambda m: m.UnigramTokenizer([(WORD, -1.0), (WORD, -2.0)], unk_token=WORD),
            f"piece {SHOWN} appears twice",
        ),
        (
            lambda m: m.UnigramTokenizer([(WORD, -1.0), (WORD, -2.0), ("b", NAN)], unk_token=WORD),
            'the score of piece 2 ("b") is not finite: NaN',
        ),
        (
            lambda m: m.BPETokenizer.train(["a"], 270, special_tokens=[WORD, WORD]),
            f"special token {SHOWN} is empty or given twice",
        ),
        (
            lambda m: m.BPETokenizer.train_from_counts({"a": 1}, 270, special_tokens=["<s>", WORD, "</s>", WORD]),
            f"special token {SHOWN} is empty or given twice",
        ),
        (
            lambda m: m.BPETokenizer.train_from_counts({}, 270, special_tokens=["<s>", ""]),
            'special token "" is empty or given twice',
        ),
        (
            lambda m: m.CharTokenizer.train(["a"], special_tokens=["[UNK]", WORD, WORD]),
            f"special token {SHOWN} is given twice",
        ),
        (
            lambda m: m.CharTokenizer.train_from_counts({}, special_tokens=["[UNK]", WORD, WORD]),
            f"special token {SHOWN} is given twice",
        ),
        (
            lambda m: m.CharTokenizer.train_from_counts({}, special_tokens=["[UNK]", ""]),
            "the corpus has no characters to train on",
        ),
        (
            lambda m: m.CharTokenizer.train_from_counts({"a": 1}, special_tokens=["[UNK]", ""]),
            "a special token must not be empty",
        ),
    ],
)
def test_the_engine_and_the_twin_refuse_the_same_vocabularies_and_special_tokens(
    call: Callable[[ModuleType], Any], message: str
) -> None:
    """A special token outside the vocabulary, a score that is not finite, a piece or a special
    token given twice: the same ValueError from the engine and the twin, the first problem in
    the engine's order of checks named."""
    assert engine_and_twin(call) == ("ValueError", message)


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        ("BPETokenizer", (270,), f"special token {SHOWN} is empty or given twice"),
        ("CharTokenizer", (), f"special token {SHOWN} is given twice"),
    ],
)
def test_train_from_files_refuses_a_special_token_given_twice(
    tmp_path: Path, name: str, args: tuple[int, ...], message: str
) -> None:
    """As ``train`` does (the twin has no ``train_from_files``)."""
    path = tmp_path / "corpus.txt"
    path.write_text("a b\n", encoding="utf-8")
    specials = ["[UNK]", WORD, WORD]
    cls = getattr(fast_wordpiece, name)
    given = outcome(lambda: cls.train_from_files([str(path)], *args, special_tokens=specials, show_progress=False))
    assert given == ("ValueError", message)
    assert engine_and_twin(lambda m: getattr(m, name).train(["a b"], *args, special_tokens=specials)) == given
