"""What every trainer takes as its corpus and options, in the engine and the twin alike:
batches of texts (the lists of str that Hugging Face's ``train_from_iterator`` examples
yield), ``show_progress`` on every trainer, ``vocab_size`` defaults as in Hugging Face's
trainers, and a ValueError for a corpus without a word."""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from implementations import IMPLEMENTATIONS, LazyBatch, outcome

import fast_wordpiece
import fast_wordpiece.reference

MODULES = {"engine": fast_wordpiece, "twin": fast_wordpiece.reference}
TEXTS = ["hello world the quick brown fox", "hello there world", "jumps over the lazy dog"] * 7

#: Each trainer with arguments that make the same vocabulary in the engine and the twin.
TRAINERS: dict[str, Callable[..., Any]] = {
    "wordpiece": lambda m, corpus, **kw: m.PyTokenizer.train(corpus, 80, show_progress=False, **kw),
    "bpe": lambda m, corpus, **kw: m.BPETokenizer.train(corpus, 270, show_progress=False, **kw),
    "chars": lambda m, corpus, **kw: m.CharTokenizer.train(corpus, show_progress=False, **kw),
    "unigram": lambda m, corpus, **kw: m.UnigramTokenizer.train(corpus, 40, show_progress=False, **kw),
}


def batches(texts: list[str], size: int) -> Iterator[list[str]]:
    """The batch iterator of the tokenizers documentation: lists of ``size`` texts."""
    for i in range(0, len(texts), size):
        yield texts[i : i + size]


class ArrowArrayLike(list):  # type: ignore[type-arg]
    """Exports an Arrow array, as pyarrow's arrays do: ``count_words`` reads those, training
    refuses them (they are not batches of str)."""

    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[object, object]:
        raise NotImplementedError


class SeriesLike(list):  # type: ignore[type-arg]
    """A Series of str, as pandas' and polars' export an Arrow stream: a batch like any other."""

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        raise NotImplementedError


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def module(request: pytest.FixtureRequest) -> Any:
    return MODULES[request.param]


# --- batches of texts


@pytest.mark.parametrize("trainer", sorted(TRAINERS))
def test_a_corpus_of_batches_trains_as_its_texts(module: Any, trainer: str) -> None:
    train = TRAINERS[trainer]
    flat = train(module, TEXTS).get_vocab()
    assert train(module, batches(TEXTS, 4)).get_vocab() == flat
    # Tuples, numpy arrays and other iterables of str are batches too, among plain texts.
    mixed = [
        TEXTS[0],
        tuple(TEXTS[1:5]),
        np.array(TEXTS[5:9]),
        iter(TEXTS[9:12]),
        SeriesLike(TEXTS[12:15]),
        *TEXTS[15:],
    ]
    assert train(module, mixed).get_vocab() == flat
    # A numpy array of str is still a corpus of texts, and a 2-d one a corpus of batches.
    assert train(module, np.array(TEXTS)).get_vocab() == flat
    assert train(module, np.array(TEXTS, dtype=object)).get_vocab() == flat
    assert train(module, np.array(TEXTS).reshape(7, 3)).get_vocab() == flat


def test_the_engine_and_the_twin_train_alike_on_batches() -> None:
    for trainer, train in TRAINERS.items():
        engine, twin = (train(m, batches(TEXTS, 5)).get_vocab() for m in MODULES.values())
        assert engine == twin, trainer


def test_count_words_reads_batches_as_their_texts(module: Any) -> None:
    flat = module.count_words(TEXTS)
    assert dict(module.count_words(batches(TEXTS, 4)).items()) == dict(flat.items())


BAD_ITEMS = [
    (["a", ["b", 3]], TypeError, "corpus[1][1] must be str, not int"),
    (["a", 3], TypeError, "corpus[1] must be str, not int"),
    ([["a", ["b"]]], TypeError, "corpus[0][1] must be str, not list"),
    ([{"text": "a"}], TypeError, "corpus[0] must be str, not dict"),  # a dataset's row, not a batch
    ([b"ab"], TypeError, "corpus[0] must be str, not bytes"),
    ([bytearray(b"ab")], TypeError, "corpus[0] must be str, not bytearray"),
    ([memoryview(b"ab")], TypeError, "corpus[0] must be str, not memoryview"),  # not a batch of ints
    ([None], TypeError, "corpus[0] must be str, not NoneType"),
    ([ArrowArrayLike(["a"])], TypeError, "corpus[0] must be str, not ArrowArrayLike"),
    ([("a", "b\udc80")], ValueError, "corpus[0][1] contains a lone surrogate at index 1"),
]


@pytest.mark.parametrize("trainer", sorted(TRAINERS))
@pytest.mark.parametrize(("corpus", "error", "message"), BAD_ITEMS)
def test_an_item_that_is_neither_text_nor_batch_is_named(
    trainer: str, corpus: list[Any], error: type[Exception], message: str
) -> None:
    engine, twin = (outcome(lambda m=m: TRAINERS[trainer](m, corpus)) for m in MODULES.values())
    assert engine == twin
    assert engine[0] == error.__name__
    assert engine[1].startswith(message)


@pytest.mark.parametrize("trainer", [*sorted(TRAINERS), "count_words"])
@pytest.mark.parametrize("kind", [dict, LazyBatch, lambda d: Counter(d["text"])])
def test_a_mapping_as_the_corpus_is_refused_naming_what_to_pass(trainer: str, kind: Any) -> None:
    """Iterating a mapping reads its keys: a dataset's batch ``{"text": [...]}`` would train on the
    one word "text". Refused instead, in the engine and the twin alike."""
    corpus = kind({"text": TEXTS})
    call = (lambda m: m.count_words(corpus)) if trainer == "count_words" else (lambda m: TRAINERS[trainer](m, corpus))
    engine, twin = (outcome(lambda m=m: call(m)) for m in MODULES.values())
    assert engine == twin
    name = "texts" if trainer == "count_words" else "corpus"
    assert engine[0] == "TypeError"
    assert engine[1].startswith(f"{name} must be an iterable of texts, not a mapping ({type(corpus).__name__})")
    assert 'batch["text"]' in engine[1]


@pytest.mark.parametrize("library", ["pandas", "polars"])
@pytest.mark.parametrize("trainer", [*sorted(TRAINERS), "count_words"])
def test_a_dataframe_as_the_corpus_or_a_batch_is_refused_naming_its_column(trainer: str, library: str) -> None:
    """Iterating a DataFrame goes over its columns: pandas' would train on the one word "text".
    Refused as a mapping is, as the corpus and as a batch of it, pointing at its column."""
    lib = pytest.importorskip(library, reason=f"optional: {library} is not installed")
    df = lib.DataFrame({"text": TEXTS})

    def train(m: Any, corpus: Any) -> Any:
        return m.count_words(corpus) if trainer == "count_words" else TRAINERS[trainer](m, corpus)

    hint = (
        f"not a {library} DataFrame: iterating it goes over its columns, not its rows; pass its column of texts "
        '(df["text"])'
    )
    name = "texts" if trainer == "count_words" else "corpus"
    for corpus, message in [
        (df, f"{name} must be an iterable of texts, {hint}"),
        ([df], f"{name}[0] must be str or a batch of texts, {hint}"),
    ]:
        engine, twin = (outcome(lambda m=m, corpus=corpus: train(m, corpus)) for m in MODULES.values())
        assert engine == twin == ("TypeError", message)
    if trainer != "count_words":  # (count_words reads a Series as Arrow: pyarrow's, or polars' string views)
        for m in MODULES.values():  # its column is what to pass, as the corpus or as a batch
            assert train(m, df["text"]).get_vocab() == train(m, [df["text"]]).get_vocab() == train(m, TEXTS).get_vocab()


@pytest.mark.parametrize("paths", [bytearray(b"corpus.txt"), memoryview(b"corpus.txt")])
def test_paths_given_as_bytes_are_named_as_bytes(paths: Any) -> None:
    """A bytearray or a memoryview is no path (bytes are one, as to ``open``: see
    test_path_arguments.py), and iterates as ints: not ``paths[0] must be ..., not int``."""
    calls = [
        lambda m: m.BPETokenizer.train_from_files(paths, 300),
        lambda m: m.UnigramTokenizer.train_from_files(paths, 30),
    ]
    for call in calls:
        engine, twin = (outcome(lambda m=m, call=call: call(m)) for m in MODULES.values())
        assert engine == twin == ("TypeError", f"paths must be a path or a list of paths, not {type(paths).__name__}")
    assert outcome(lambda: fast_wordpiece.PyTokenizer.train_from_files(paths, 30)) == engine


@pytest.mark.parametrize("trainer", [*sorted(TRAINERS), "count_words"])
def test_word_counts_as_the_corpus_point_to_train_from_counts(trainer: str) -> None:
    """Iterating word counts gives each word once: their counts would be lost."""

    def call(m: Any) -> Any:
        counts = m.count_words(TEXTS)
        return m.count_words(counts) if trainer == "count_words" else TRAINERS[trainer](m, counts)

    engine, twin = (outcome(lambda m=m: call(m)) for m in MODULES.values())
    assert engine == twin
    name = "texts" if trainer == "count_words" else "corpus"
    message = f"{name} must be an iterable of texts, not word counts (WordCounts): pass them to train_from_counts"
    assert engine == ("TypeError", message)


def test_count_words_names_a_str_as_training_does() -> None:
    engine, twin = (outcome(lambda m=m: m.count_words("some text")) for m in MODULES.values())
    assert engine == twin == ("TypeError", "texts must be an iterable of str, not str")


def test_an_exception_raised_by_a_batch_comes_back_unchanged(module: Any) -> None:
    class Broken(Exception):
        pass

    def failing() -> Iterator[str]:
        yield "fine"
        raise Broken("from the batch")

    for train in TRAINERS.values():
        with pytest.raises(Broken, match="from the batch"):
            train(module, [TEXTS[0], failing()])


# --- show_progress


def family_calls(module: Any, show_progress: object) -> list[Callable[[], Any]]:
    kw = {"show_progress": show_progress}
    return [
        lambda: module.BPETokenizer.train(TEXTS, 270, **kw),
        lambda: module.BPETokenizer.train_from_counts({"Ġab": 3, "ab": 2}, 270, **kw),
        lambda: module.CharTokenizer.train(TEXTS, **kw),
        lambda: module.CharTokenizer.train_from_counts({"a": 2}, **kw),
        lambda: module.UnigramTokenizer.train(TEXTS, 40, **kw),
        lambda: module.UnigramTokenizer.train_from_counts({"ab ba": 3}, 8, **kw),
    ]


def test_the_family_trainers_take_show_progress(module: Any, capfd: pytest.CaptureFixture[str]) -> None:
    for call in family_calls(module, False):
        call()
    assert capfd.readouterr().err == ""
    for call in family_calls(module, np.bool_(True)):
        call()
    for call in family_calls(module, "yes"):
        with pytest.raises(TypeError, match="show_progress"):
            call()


def test_the_family_trainers_show_progress_on_stderr_by_default(capfd: pytest.CaptureFixture[str]) -> None:
    fast_wordpiece.BPETokenizer.train(TEXTS, 270)
    err = capfd.readouterr().err
    assert "[counting pieces]" in err
    assert "[merging]" in err
    fast_wordpiece.UnigramTokenizer.train(TEXTS, 40)
    err = capfd.readouterr().err
    assert "[counting words]" in err
    assert "[training (EM)]" in err
    fast_wordpiece.CharTokenizer.train(TEXTS)
    assert "[counting characters]" in capfd.readouterr().err
    for cls in (fast_wordpiece.BPETokenizer, fast_wordpiece.CharTokenizer, fast_wordpiece.UnigramTokenizer):
        assert inspect.signature(cls.train).parameters["show_progress"].default is True


def test_the_family_train_from_files_take_show_progress(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(TEXTS), encoding="utf-8")
    fast_wordpiece.BPETokenizer.train_from_files([path], 270, show_progress=False)
    fast_wordpiece.CharTokenizer.train_from_files([path], show_progress=False)
    fast_wordpiece.UnigramTokenizer.train_from_files([path], 40, show_progress=False)
    assert capfd.readouterr().err == ""


# --- vocab_size defaults (Hugging Face's: WordPiece and BPE 30,000, Unigram 8,000)

DEFAULTS = [
    ("PyTokenizer", "train", 30000),
    ("PyTokenizer", "train_from_counts", 30000),
    ("BPETokenizer", "train", 30000),
    ("BPETokenizer", "train_from_counts", 30000),
    ("UnigramTokenizer", "train", 8000),
    ("UnigramTokenizer", "train_from_counts", 8000),
    ("CharTokenizer", "train", None),
]


@pytest.mark.parametrize(("cls", "method", "default"), DEFAULTS)
def test_vocab_size_has_hugging_faces_default(module: Any, cls: str, method: str, default: int | None) -> None:
    train = getattr(getattr(module, cls), method)
    assert inspect.signature(train).parameters["vocab_size"].default == default
    corpus: Any = TEXTS if method == "train" else {"hello": 3, "world": 2}
    kw: dict[str, Any] = {"show_progress": False}
    assert train(corpus, **kw).get_vocab() == train(corpus, default, **kw).get_vocab()
    if default is not None:
        # Passing None is still a TypeError (as for any int), not the default.
        with pytest.raises(TypeError, match="vocab_size"):
            train(corpus, None, **kw)


def test_the_engine_s_train_from_files_defaults_too(tmp_path: Path) -> None:
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(TEXTS), encoding="utf-8")
    for cls, default in ((fast_wordpiece.PyTokenizer, 30000), (fast_wordpiece.BPETokenizer, 30000)):
        assert inspect.signature(cls.train_from_files).parameters["vocab_size"].default == default
        trained = cls.train_from_files([path], show_progress=False).get_vocab()
        assert trained == cls.train_from_files([path], default, show_progress=False).get_vocab()
    assert inspect.signature(fast_wordpiece.UnigramTokenizer.train_from_files).parameters["vocab_size"].default == 8000


def test_positional_calls_keep_their_meaning_with_the_default(module: Any) -> None:
    # vocab_size stays the second positional argument, min_frequency the third.
    a = module.PyTokenizer.train(TEXTS, 60, 3, show_progress=False)
    b = module.PyTokenizer.train(TEXTS, vocab_size=60, min_frequency=3, show_progress=False)
    assert a.get_vocab() == b.get_vocab()
    c = module.PyTokenizer.train(TEXTS, min_frequency=3, show_progress=False)
    assert c.get_vocab() == module.PyTokenizer.train(TEXTS, 30000, 3, show_progress=False).get_vocab()


# --- a corpus without a word


def used_up() -> Iterator[str]:
    """An iterator already read to its end: the mistake of reusing a file object or generator."""
    texts = iter(TEXTS)
    list(texts)
    return texts


NO_WORDS = {
    "wordpiece": "the corpus has no words to train on",
    "bpe": "the corpus has no words to train on",
    "chars": "the corpus has no characters to train on",
    "unigram": "the corpus has no words to train on",
}


@pytest.mark.parametrize("trainer", sorted(TRAINERS))
def test_a_corpus_without_a_word_is_a_value_error(module: Any, trainer: str) -> None:
    for corpus in ([], used_up(), [[]], [[], ()]):
        with pytest.raises(ValueError, match=NO_WORDS[trainer]):
            TRAINERS[trainer](module, corpus)
    # A corpus with words, however few, still trains.
    assert TRAINERS[trainer](module, ["ab ab ba"]).vocab_size > 1


def test_counts_without_a_word_are_a_value_error(module: Any) -> None:
    calls: list[tuple[Callable[[], Any], str]] = [
        (lambda: module.PyTokenizer.train_from_counts({}, 100, show_progress=False), "words"),
        (lambda: module.PyTokenizer.train_from_counts(module.count_words([]), 100, show_progress=False), "words"),
        (lambda: module.BPETokenizer.train_from_counts({"ab": 0}, 300), "words"),
        (lambda: module.CharTokenizer.train_from_counts({"a": 0}), "characters"),
        (lambda: module.UnigramTokenizer.train_from_counts({}, 100), "words"),
    ]
    for call, what in calls:
        with pytest.raises(ValueError, match=f"the corpus has no {what} to train on"):
            call()
    # Errors in the other arguments come first.
    with pytest.raises(ValueError, match="unk_token"):
        module.PyTokenizer.train([], 10, special_tokens=["[PAD]"], show_progress=False)
    with pytest.raises(ValueError, match="unk_token"):
        module.CharTokenizer.train_from_counts({}, special_tokens=["<pad>"])


def test_the_engine_s_files_without_a_word_are_a_value_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("", encoding="utf-8")
    fw = fast_wordpiece
    calls: list[tuple[Callable[[], Any], str]] = [
        (lambda: fw.PyTokenizer.train_from_files([path], 100, show_progress=False), "words"),
        (lambda: fw.BPETokenizer.train_from_files([path], 300, show_progress=False), "words"),
        (lambda: fw.CharTokenizer.train_from_files([path], show_progress=False), "characters"),
        (lambda: fw.UnigramTokenizer.train_from_files([path], 100, show_progress=False), "words"),
    ]
    for call, what in calls:
        with pytest.raises(ValueError, match=f"the corpus has no {what} to train on"):
            call()


@pytest.mark.parametrize("texts", [5, None, 2.5])
def test_count_words_names_texts_that_are_not_iterable_before_its_options(texts: Any) -> None:
    """As ``train`` does (spec section 4: the corpus's type, then the pipeline options): the
    engine checked the options first, so ``count_words(5, lowercase=1)`` blamed ``lowercase``."""
    for options in [{"lowercase": 1}, {"pre_tokenizer": "nope"}]:
        engine, twin = (outcome(lambda m=m, kw=options: m.count_words(texts, **kw)) for m in MODULES.values())
        assert engine == twin
        assert engine[0] == "TypeError"
        assert engine[1].startswith("texts must be an iterable of str"), engine


@pytest.mark.parametrize(
    "call",
    [
        lambda m, s: m.PyTokenizer.train(TEXTS, 80, special_tokens=s, show_progress=False),
        lambda m, s: m.PyTokenizer(["[UNK]", "[CLS]", "a"], special_tokens=s),
        lambda m, s: m.BPETokenizer.train(TEXTS, 270, special_tokens=s, show_progress=False),
        lambda m, s: m.CharTokenizer.train(TEXTS, special_tokens=s, show_progress=False),
        lambda m, s: m.UnigramTokenizer.train(TEXTS, 40, special_tokens=s, show_progress=False),
    ],
)
def test_special_tokens_given_as_a_mapping_are_refused(call: Callable[[Any, Any], Any]) -> None:
    """A dict (transformers' special_tokens_map, say) was read as its keys: ``{"cls_token":
    "[CLS]"}`` made ``cls_token`` a special token. Refused, naming the argument, engine and twin."""
    message = "special_tokens must be an iterable of str, not a mapping (dict): its keys would be read as the tokens"
    for tokens in [{"[UNK]": 0, "[CLS]": 1}, {"unk_token": "[UNK]"}]:
        engine, twin = (outcome(lambda m=m, s=tokens: call(m, s)) for m in MODULES.values())
        assert engine == twin == ("TypeError", message)
