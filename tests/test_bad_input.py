"""Bad input gets a clear TypeError, ValueError or OSError that names the
problem, never a crash and never a Rust panic; saves are atomic."""

from __future__ import annotations

import errno
import os

import pytest

import fast_wordpiece
import fast_wordpiece.reference

CORPUS = ["hello world", "hello there, world!"] * 3


@pytest.fixture
def tok(Tokenizer):
    return Tokenizer.train(CORPUS, 40, 1, show_progress=False)


@pytest.mark.parametrize(
    ("corpus", "message"),
    [
        (None, "corpus"),
        (5, "corpus"),
        (b"bytes", "corpus"),
        ("a str, not a list", "corpus must be an iterable of str, not str"),
        (["fine", 3], "corpus[1]"),
        (["fine", None], "corpus[1]"),
        ([b"bytes"], "corpus[0]"),
    ],
)
def test_train_rejects_corpus_of_the_wrong_type(Tokenizer, corpus, message):
    with pytest.raises(TypeError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Tokenizer.train(corpus, 100, 2, show_progress=False)


@pytest.mark.parametrize("vocab_size", [0, -1])
def test_vocab_size_must_be_positive(Tokenizer, vocab_size):
    with pytest.raises(ValueError, match="vocab_size"):
        Tokenizer.train(CORPUS, vocab_size, 2, show_progress=False)


@pytest.mark.parametrize("vocab_size", [None, "100", 10.5, True])
def test_vocab_size_must_be_an_int(Tokenizer, vocab_size):
    with pytest.raises(TypeError, match="vocab_size"):
        Tokenizer.train(CORPUS, vocab_size, 2, show_progress=False)


def test_min_frequency_must_not_be_negative(Tokenizer):
    with pytest.raises(ValueError, match="min_frequency"):
        Tokenizer.train(CORPUS, 100, -1, show_progress=False)
    with pytest.raises(TypeError, match="min_frequency"):
        Tokenizer.train(CORPUS, 100, 2.5, show_progress=False)


def test_unknown_options_and_bad_option_values(Tokenizer):
    with pytest.raises(TypeError, match="lowercas"):
        Tokenizer.train(CORPUS, 100, lowercas=True, show_progress=False)
    with pytest.raises(ValueError, match="pre_tokenizer"):
        Tokenizer.train(CORPUS, 100, pre_tokenizer="bpe", show_progress=False)
    with pytest.raises(TypeError, match="lowercase"):
        Tokenizer.train(CORPUS, 100, lowercase="yes", show_progress=False)
    with pytest.raises(ValueError, match="max_input_chars_per_word"):
        Tokenizer.train(CORPUS, 100, max_input_chars_per_word=0, show_progress=False)


def test_special_tokens_are_checked(Tokenizer):
    with pytest.raises(ValueError, match="twice"):
        Tokenizer.train(CORPUS, 100, special_tokens=["[UNK]", "[UNK]"], show_progress=False)
    with pytest.raises(ValueError, match="unk_token"):
        Tokenizer.train(CORPUS, 100, special_tokens=["[PAD]"], show_progress=False)
    with pytest.raises(TypeError, match="special_tokens"):
        Tokenizer.train(CORPUS, 100, special_tokens="[UNK]", show_progress=False)


def test_a_corpus_without_words_is_a_value_error(Tokenizer):
    # A tokenizer of just the special tokens maps every word to [UNK]: an empty or used-up
    # corpus is a mistake to report, not a vocabulary.
    used_up = iter(["some words"])
    Tokenizer.train(used_up, 100, 2, show_progress=False)
    for corpus in ([], used_up, ["", "   "], [[]]):
        with pytest.raises(ValueError, match="the corpus has no words to train on"):
            Tokenizer.train(corpus, 100, 2, show_progress=False)


@pytest.mark.parametrize("text", [None, 5, b"bytes", ["list"]])
def test_encode_rejects_non_str(tok, text):
    with pytest.raises(TypeError, match="text"):
        tok.encode(text)


def test_encode_rejects_lone_surrogates_naming_the_index(tok):
    with pytest.raises(ValueError, match="index 3"):
        tok.encode("abc\ud800def")
    with pytest.raises(ValueError, match=r"corpus\[1\]"):
        type(tok).train(["ok", "x\udfffy"], 50, show_progress=False)


def test_nul_and_control_characters_are_cleaned_not_fatal(tok):
    enc = tok.encode("hello\x00 world\x07\ufffd")
    assert enc.tokens == ["[CLS]", "hello", "world", "[SEP]"]


def test_a_million_character_word_becomes_one_unknown_token(tok):
    word = "a" * 1_000_000
    enc = tok.encode(word)
    assert enc.tokens == ["[CLS]", "[UNK]", "[SEP]"]
    assert enc.offsets[1] == (0, 1_000_000)


def test_training_on_a_million_character_word_is_not_fatal():
    # Engine only: the twin's merge loop needs ~10 s for this, and it adds nothing
    # to what the property tests already check about the twin.
    word = "a" * 1_000_000
    trained = fast_wordpiece.PyTokenizer.train([word, "hello " + word], 40, 1, show_progress=False)
    assert trained.vocab_size <= 40
    pieces = trained.encode(word[:100], add_special_tokens=False).tokens
    assert "".join(t.removeprefix("##") for t in pieces) == word[:100]


def test_encode_batch_rejects_bad_items(tok):
    with pytest.raises(TypeError, match="inputs"):
        tok.encode_batch("not a list")
    with pytest.raises(TypeError, match=r"inputs\[1\]"):
        tok.encode_batch(["fine", 7])
    with pytest.raises(TypeError, match=r"inputs\[0\]"):
        tok.encode_batch([("a", "b", "c")])


def test_decode_rejects_negative_and_out_of_range_ids(tok):
    with pytest.raises(ValueError, match="-1"):
        tok.decode([1, -1])
    with pytest.raises(ValueError, match="out of range"):
        tok.decode([tok.vocab_size])
    with pytest.raises(ValueError, match="out of range"):
        tok.decode([2**70])
    with pytest.raises(TypeError):
        tok.decode("1 2 3")
    with pytest.raises(TypeError):
        tok.decode([1.0])
    with pytest.raises(TypeError):
        tok.decode(None)
    with pytest.raises(ValueError, match="id must be >= 0"):
        tok.id_to_token(-1)


def test_missing_empty_and_corrupt_files(Tokenizer, tmp_path):
    with pytest.raises(FileNotFoundError):
        Tokenizer.from_vocab_file(tmp_path / "missing.txt")
    with pytest.raises(FileNotFoundError):
        Tokenizer.load(tmp_path / "missing.json")
    (tmp_path / "empty.txt").write_text("")
    with pytest.raises(ValueError, match="empty"):
        Tokenizer.from_vocab_file(tmp_path / "empty.txt")
    (tmp_path / "dup.txt").write_text("[UNK]\na\na\n")
    with pytest.raises(ValueError, match="duplicate"):
        Tokenizer.from_vocab_file(tmp_path / "dup.txt")
    (tmp_path / "binary.txt").write_bytes(b"[UNK]\n\xff\xfe\n")
    with pytest.raises(ValueError, match="UTF-8"):
        Tokenizer.from_vocab_file(tmp_path / "binary.txt")
    (tmp_path / "corrupt.json").write_text('{"format": "fast-wordpiece", "vocab": [')
    with pytest.raises(ValueError, match=r"corrupt\.json"):
        Tokenizer.load(tmp_path / "corrupt.json")
    (tmp_path / "other.json").write_text('{"hello": 1}')
    with pytest.raises(ValueError, match=r"other\.json"):
        Tokenizer.load(tmp_path / "other.json")
    with pytest.raises(TypeError):
        Tokenizer.from_vocab_file(5)
    with pytest.raises(IsADirectoryError):
        Tokenizer.from_vocab_file(tmp_path)


def test_vocab_without_unk_is_rejected(Tokenizer, tmp_path):
    (tmp_path / "v.txt").write_text("a\nb\n")
    with pytest.raises(ValueError, match="unk_token"):
        Tokenizer.from_vocab_file(tmp_path / "v.txt")


def test_a_vocab_file_without_the_special_tokens_bert_adds_fails_at_load(Tokenizer, tmp_path):
    (tmp_path / "v.txt").write_text("[UNK]\nhello\n[CLS]\n")
    with pytest.raises(ValueError, match=r'v\.txt: "\[SEP\]" is not in the vocabulary, and BERT\'s post-processing'):
        Tokenizer.from_vocab_file(tmp_path / "v.txt")
    with pytest.raises(ValueError, match=r'v\.txt: "<s>" is not in the vocabulary'):
        Tokenizer.from_vocab_file(tmp_path / "v.txt", sep_token="[UNK]", cls_token="<s>")
    tok = Tokenizer.from_vocab_file(tmp_path / "v.txt", post_processor="none")
    assert tok.encode("hello").tokens == ["hello"]


def test_special_tokens_missing_from_a_vocabulary_given_as_a_list_only_fail_when_needed(Tokenizer):
    tok = Tokenizer(["[UNK]", "hello"])
    assert tok.encode("hello", add_special_tokens=False).tokens == ["hello"]
    with pytest.raises(ValueError, match=r"CLS.*SEP.*in the vocabulary \(pass add_special_tokens=False\)"):
        tok.encode("hello")


def test_saves_are_atomic(tok, tmp_path):
    target = tmp_path / "tok.json"
    tok.save(target)
    before = target.read_bytes()
    with pytest.raises(FileNotFoundError):
        tok.save(tmp_path / "no such dir" / "tok.json")
    blocker = tmp_path / "a directory"
    blocker.mkdir()
    (blocker / "keep").write_text("x")
    with pytest.raises(IsADirectoryError):
        tok.save(blocker)  # cannot replace a directory: nothing is half-written
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a directory", "tok.json"]
    assert os.listdir(blocker) == ["keep"]


def test_train_from_files_fails_before_work_on_a_missing_file(tmp_path):
    import fast_wordpiece

    good = tmp_path / "good.txt"
    good.write_text("hello world\n")
    with pytest.raises(FileNotFoundError, match=r"missing\.txt"):
        fast_wordpiece.PyTokenizer.train_from_files([good, tmp_path / "missing.txt"], 50, show_progress=False)
    # A directory among the files: IsADirectoryError naming it (errno EISDIR), as the family's and
    # the twin's word counts raise.
    for read in [
        lambda paths: fast_wordpiece.PyTokenizer.train_from_files(paths, 50, show_progress=False),
        fast_wordpiece.WordCounts.from_files,
        fast_wordpiece.reference.WordCounts.from_files,
        lambda paths: fast_wordpiece.BPETokenizer.train_from_files(paths, 300, show_progress=False),
    ]:
        with pytest.raises(IsADirectoryError) as raised:
            read([good, tmp_path])
        assert (raised.value.errno, raised.value.filename) == (errno.EISDIR, str(tmp_path))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"hello\nw\xffrld\n")
    with pytest.raises(ValueError, match=r"bad.txt.*byte offset 7"):
        fast_wordpiece.PyTokenizer.train_from_files(bad, 50, show_progress=False)
    replaced = fast_wordpiece.PyTokenizer.train_from_files(bad, 50, errors="replace", show_progress=False)
    assert replaced.encode("w\ufffdrld", add_special_tokens=False).tokens == ["w", "##r", "##l", "##d"]
    with pytest.raises(ValueError, match="errors"):
        fast_wordpiece.PyTokenizer.train_from_files(bad, 50, errors="ignore", show_progress=False)
    with pytest.raises(TypeError, match="paths"):
        fast_wordpiece.PyTokenizer.train_from_files(5, 50, show_progress=False)


def test_train_from_counts_checks_its_mapping(Tokenizer):
    with pytest.raises(TypeError, match="counts"):
        Tokenizer.train_from_counts(["hello"], 50, show_progress=False)
    with pytest.raises(TypeError):
        Tokenizer.train_from_counts({5: 3}, 50, show_progress=False)
    with pytest.raises(ValueError, match="the corpus has no words"):  # a count of 0: a word not seen
        Tokenizer.train_from_counts({"hello": 0}, 50, show_progress=False)
    with pytest.raises(ValueError, match="hello"):
        Tokenizer.train_from_counts({"hello": -2}, 50, show_progress=False)


@pytest.mark.parametrize("impl", [fast_wordpiece, fast_wordpiece.reference], ids=["engine", "twin"])
def test_ids_beyond_any_integer_type_are_out_of_range(impl):
    """An id too large for 64 or 128 bits is a ValueError like any id past the vocabulary, not a
    TypeError saying an int is not an int (``convert_ids_to_tokens``, which gives None for an id past
    the vocabulary, says it is no token id)."""
    tok = impl.PyTokenizer(["[UNK]", "[CLS]", "[SEP]", "a"])
    for call in (tok.decode, lambda i: tok.decode_batch([i])):
        for big in ([2**63], [2**200], [-(2**64)]):
            with pytest.raises(ValueError, match="out of range"):
                call(big)
    for big in ([2**63], [2**200], [-(2**64)], 2**63):
        with pytest.raises(ValueError, match="is not a token id"):
            tok.convert_ids_to_tokens(big)


class _Id(int):
    """An int subclass whose str is not its number."""

    def __str__(self) -> str:
        return "an id"


def test_ids_at_the_edges_of_64_bits_decode_or_name_their_value_alike_in_engine_and_twin():
    """Ids read as 64-bit ints where they fit and as Python ints where they do not: each edge
    (-1, the vocabulary's size, 2**63 - 1, 2**63, -(2**63) - 1, an int subclass) gives the same
    text or the same error, naming the value, in the engine and the twin."""
    edges = [[3], [-1], [4], [2**63 - 1], [2**63], [-(2**63)], [-(2**63) - 1], [_Id(3)], [_Id(9)], [0, 3, -2]]
    for calls in ("decode", "decode_batch"):
        outcomes = []
        for impl in (fast_wordpiece, fast_wordpiece.reference):
            tok = impl.PyTokenizer(["[UNK]", "[CLS]", "[SEP]", "a"])
            call = tok.decode if calls == "decode" else lambda ids, tok=tok: tok.decode_batch([ids])
            outcomes.append([_outcome(lambda ids=ids, call=call: call(ids)) for ids in edges])
        assert outcomes[0] == outcomes[1], calls
        assert outcomes[0][0] in ("'a'", "['a']"), outcomes[0]
        assert "-1 is out of range" in outcomes[0][1]
        assert f"{2**63} is out of range" in outcomes[0][4]
        assert "= 9 is out of range" in outcomes[0][8]


def _outcome(call) -> str:
    try:
        return repr(call())
    except (TypeError, ValueError) as e:
        return f"{type(e).__name__}: {e}"


def test_the_transformers_side_refuses_bad_tokens_alike_in_engine_and_twin(tmp_path):
    """Lone surrogates, bytes and numpy bools where tokens go are TypeErrors or ValueErrors that name
    the argument, with the same words in the engine and the twin."""
    np = pytest.importorskip("numpy")
    made = [
        impl.PyTokenizer.train(CORPUS, 40, 1, show_progress=False)
        for impl in (fast_wordpiece, fast_wordpiece.reference)
    ]
    for tok in made:
        tok.save_pretrained(tmp_path / type(tok).__module__)
    outcomes = []
    for tok in made:
        directory = tmp_path / type(tok).__module__
        calls = [
            lambda t=tok: t.convert_tokens_to_ids("\ud800"),
            lambda t=tok: t.convert_tokens_to_ids(["a", "\ud800"]),
            lambda t=tok: t.convert_tokens_to_ids(None),
            lambda t=tok: t.convert_tokens_to_ids(b"ab"),
            lambda t=tok: t.add_tokens(["\ud800"]),
            lambda t=tok: t.add_special_tokens(["\ud800"]),
            lambda t=tok: t.add_special_tokens({"mask_token": np.True_}),
            lambda t=tok, d=directory: type(t).from_pretrained(d, mask_token="\ud800"),
            lambda t=tok: t.save_pretrained(None),
            lambda t=tok: t.add_tokens(b"ab"),
            lambda t=tok: t.add_special_tokens(memoryview(b"ab")),
            lambda t=tok: t.tokenize(["hello", "world"]),
            lambda t=tok: t.tokenize("hello", ["world"]),
            lambda t=tok: t.tokenize("hello", 3),
            lambda t=tok: setattr(t, "mask_token", np.True_),
        ]
        outcomes.append([_outcome(call) for call in calls])
    engine, twin = outcomes
    assert engine == twin
    assert all(o.startswith(("TypeError: ", "ValueError: ")) for o in engine), engine
    assert engine[0] == "ValueError: tokens contains a lone surrogate at index 0, which is not valid Unicode text"
    assert engine[3] == "TypeError: tokens must be a str or a list of str, not bytes"
    # bytes iterate as ints: named as bytes, not as their first byte
    assert engine[-6:-4] == ["TypeError: add_tokens: new_tokens must be a list of str or AddedToken, not bytes",
                             "TypeError: add_special_tokens: special_tokens_dict must be a dict or a list of str "
                             "or AddedToken, not memoryview"]  # fmt: skip
    # tokenize takes no list of words, so no hint to pass one
    assert engine[-4:-1] == ["TypeError: text must be str, not list", "TypeError: pair must be str, not list",
                             "TypeError: pair must be str, not int"]  # fmt: skip
    assert engine[-1] == "TypeError: mask_token must be a str or None, not numpy.bool"


@pytest.mark.parametrize(
    ("text", "text_pair", "message"),
    [
        (["a", "b"], [None, "c"], "text_pair[0] must be a str, not NoneType"),
        (["a", "b"], ["c", 3], "text_pair[1] must be a str, not int"),
        (["a", None], ["b", "c"], "text[1] must be a str, not NoneType"),
        ([("a", "b"), "c"], ["d", "e"], "text[0] must be a str, not tuple"),
        (["a", "b"], ["c", ("d", "e")], "text_pair[1] must be a str, not tuple"),
        (["a", 1], [None, "c"], "text_pair[0] must be a str, not NoneType"),  # the first item with a wrong one
        (["a", None], None, r"text[1] must be a str or a (str, str) pair, not NoneType"),
    ],
)
def test_call_names_the_batch_item_that_is_no_str(tok, text, text_pair, message):
    """An item of a batched text or text_pair that is no str is named as the caller passed it, with
    its own type (not the (text, text_pair) tuple the two make)."""
    with pytest.raises(TypeError) as caught:
        tok(text, text_pair)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "text_pair", "error", "message"),
    [
        (["a", 1], None, TypeError, "text[1] must be str, not int"),
        (["a"], ["b", 2], TypeError, "text_pair[1] must be str, not int"),
        (["a", "\ud800"], None, ValueError, "text[1] contains a lone surrogate at index 0"),
        (["a"], ["\ud800"], ValueError, "text_pair[0] contains a lone surrogate at index 0"),
        ([["a"], ["b", 2]], None, TypeError, "text[1][1] must be str, not int"),
        ([["a"]], [["b", None]], TypeError, "text_pair[0][1] must be str, not NoneType"),
        ([["a"], ["b"]], [["c"], [3]], TypeError, "text_pair[1][0] must be str, not int"),
        ([["a"], ["b", 2]], [["c", 3], ["d"]], TypeError, "text_pair[0][1] must be str, not int"),  # the first read
        ([["a"]], [["\ud800"]], ValueError, "text_pair[0][0] contains a lone surrogate at index 0"),
        ([(["a"], ["b", 2])], None, TypeError, "text[0][1][1] must be str, not int"),  # a pair as an item of text
        ([(1, ["b"])], None, TypeError, "text[0][0] must be a list of words (str), not int"),
    ],
)
def test_call_names_the_bad_word_of_words_given_split_as_passed(tok, text, text_pair, error, message):
    """With ``is_split_into_words``, a word that is no str, or holds a lone surrogate, is named as the
    caller passed it (``text_pair[0][1]``), as the texts of a call without it are, not as the item
    of the batch the call encodes (``inputs[0][1][1]``)."""
    with pytest.raises(error) as caught:
        tok(text, text_pair, is_split_into_words=True)
    assert str(caught.value).startswith(message)
    with pytest.raises(error) as caught:  # and the targets by their names
        tok(text_target=text, text_pair_target=text_pair, is_split_into_words=True)
    assert str(caught.value).startswith(
        message.replace("text_pair", "text_pair_target").replace("text[", "text_target[")
    )
