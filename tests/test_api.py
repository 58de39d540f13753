"""The public API, as a user meets it, on both implementations."""

from __future__ import annotations

import pickle
import subprocess
import sys
import unicodedata

import pytest

import fast_wordpiece
import fast_wordpiece.reference

CORPUS = [
    "The quick brown fox jumps over the lazy dog.",
    "Hugging, hugs and puns: the pug hugged the bun!",
    "Café déjà vu — naïve coöperation; ÜBER straße.",
    "中文字符 与 English mixed, да и русский тоже.",
] * 5

BERT_VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "!", "##s", ",", "un", "##aff", "##able"]


@pytest.fixture
def trained(Tokenizer):
    return Tokenizer.train(CORPUS, 120, 2, show_progress=False)


def test_package_reexports_the_engine():
    assert fast_wordpiece.PyTokenizer.__module__ == "fast_wordpiece"
    assert set(fast_wordpiece.__all__) >= {"PyTokenizer", "Encoding", "DEFAULT_SPECIAL_TOKENS"}
    assert fast_wordpiece.DEFAULT_SPECIAL_TOKENS == ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
    assert fast_wordpiece.DEFAULT_SPECIAL_TOKENS == fast_wordpiece.reference.DEFAULT_SPECIAL_TOKENS


def test_training_starts_with_special_tokens_then_sorted_alphabet(trained):
    vocab = sorted(trained.get_vocab().items(), key=lambda kv: kv[1])
    tokens = [t for t, _ in vocab]
    assert tokens[:5] == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    alphabet = tokens[5 : 5 + len(tokens) - 5 - len(trained.merges)]
    assert alphabet == sorted(alphabet)
    assert trained.vocab_size == len(tokens) <= 120


def test_merges_are_the_learned_tokens_in_order(trained):
    vocab = trained.get_vocab()
    for a, b in trained.merges:
        merged = a + (b[2:] if b.startswith("##") else b)
        assert merged in vocab


def test_merges_given_as_lists_of_two_are_taken_as_pairs(Tokenizer, trained):
    """`merges=` as `json.load` reads pairs (lists of two str) builds the same tokenizer as tuples."""
    vocab = sorted(trained.get_vocab(), key=trained.get_vocab().__getitem__)
    from_lists = Tokenizer(vocab, merges=[list(m) for m in trained.merges])
    assert from_lists.merges == trained.merges
    assert from_lists.encode("The pug hugs!").ids == trained.encode("The pug hugs!").ids
    for bad in (["a"], ["a", "b", "c"], ["a", 1]):
        with pytest.raises(TypeError, match=r"merges\[0\]"):
            Tokenizer(vocab, merges=[bad])


def test_encoding_reads_like_a_dict_and_like_attributes(trained):
    enc = trained.encode("The pug hugs!")
    assert enc["ids"] == enc.ids
    assert enc["tokens"] == enc.tokens
    assert list(enc.keys()) == ["ids", "tokens", "offsets", "attention_mask", "special_tokens_mask", "type_ids"]
    assert enc.to_dict()["offsets"] == enc.offsets
    assert dict(enc.to_dict()) == {k: enc[k] for k in enc.keys()}  # noqa: SIM118  (an Encoding is not iterable)
    assert len(enc) == len(enc.ids)
    assert enc.tokens[0] == "[CLS]"
    assert enc.tokens[-1] == "[SEP]"
    assert enc.special_tokens_mask[0] == enc.special_tokens_mask[-1] == 1
    assert set(enc.attention_mask) == {1}
    assert "Encoding(" in repr(enc)
    with pytest.raises(KeyError):
        enc["input_ids"]


def test_trained_tokenizer_adds_cls_and_sep(trained):
    # Hugging Face's trained BertWordPieceTokenizer forgets this; ours must not.
    enc = trained.encode("the dog")
    assert enc.tokens[0] == "[CLS]"
    assert enc.tokens[-1] == "[SEP]"
    assert trained.encode("the dog", add_special_tokens=False).tokens == enc.tokens[1:-1]


def test_pairs_get_type_ids_and_offsets_into_their_own_text(trained):
    enc = trained.encode("the dog", "a pug")
    sep = enc.tokens.index("[SEP]")
    assert enc.type_ids == [0] * (sep + 1) + [1] * (len(enc) - sep - 1)
    assert enc.tokens[-1] == "[SEP]"
    second = [o for o, t in zip(enc.offsets[sep + 1 : -1], enc.type_ids[sep + 1 : -1])]
    assert second[0][0] == 0


def bert_normalize(text: str) -> str:
    """Lowercase and strip accents, as bert-base-uncased does."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn").lower()


def test_offsets_slice_back_to_the_original_text(trained):
    text = "Café déjà vu — ÜBER straße, 中文!"
    enc = trained.encode(text, add_special_tokens=False)
    assert enc.offsets == sorted(enc.offsets)
    for token, (start, end) in zip(enc.tokens, enc.offsets):
        if token != "[UNK]":
            assert bert_normalize(text[start:end]) == token.removeprefix("##")


def test_encode_batch_equals_encode(trained):
    texts = ["the quick fox", ("a pug", "a bun"), "", "!!!"]
    batch = trained.encode_batch(texts)
    singles = [trained.encode(*t) if isinstance(t, tuple) else trained.encode(t) for t in texts]
    assert [b.to_dict() for b in batch] == [s.to_dict() for s in singles]


def test_num_threads_changes_nothing_but_the_threads(trained):
    texts = [line * (i % 7 + 1) for i, line in enumerate(CORPUS * 10)]
    expected = [e.to_dict() for e in trained.encode_batch(texts)]
    for n in (1, 2, 3, None):
        assert [e.to_dict() for e in trained.encode_batch(texts, num_threads=n)] == expected
    bad_values = (
        (0, ValueError),
        (-2, ValueError),
        (10**6, ValueError),
        (2**70, ValueError),
        (1.5, TypeError),
        ("2", TypeError),
        (True, TypeError),
    )
    for bad, error in bad_values:
        with pytest.raises(error, match="num_threads"):
            trained.encode_batch(texts, num_threads=bad)
    with pytest.raises(TypeError, match="num_threads"):
        trained.encode(texts[0], num_threads=2)  # type: ignore[call-arg]


def test_decode_inverts_encode_for_known_words(trained):
    enc = trained.encode("the quick brown fox jumps over the lazy dog.")
    assert trained.decode(enc.ids, skip_special_tokens=True) == "the quick brown fox jumps over the lazy dog."
    assert trained.decode(enc.ids).startswith("[CLS] the")
    assert (
        trained.decode_batch([enc.ids, enc.ids], skip_special_tokens=True)
        == ["the quick brown fox jumps over the lazy dog."] * 2
    )


def test_vocab_lookups(trained):
    vocab = trained.get_vocab()
    assert all(trained.token_to_id(t) == i and trained.id_to_token(i) == t for t, i in vocab.items())
    assert trained.token_to_id("no such token") is None
    assert trained.id_to_token(trained.vocab_size) is None


def test_from_vocab_file_is_bert_exact(Tokenizer, tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("\n".join(BERT_VOCAB) + "\n", encoding="utf-8")
    tok = Tokenizer.from_vocab_file(path)
    enc = tok.encode("Hello, WORLDS! unaffable")
    assert enc.tokens == ["[CLS]", "hello", ",", "world", "##s", "!", "un", "##aff", "##able", "[SEP]"]
    assert enc.offsets == [(0, 0), (0, 5), (5, 6), (7, 12), (12, 13), (13, 14), (15, 17), (17, 20), (20, 24), (0, 0)]
    assert tok.merges == []


def test_large_ids_and_offsets_convert_exactly(Tokenizer, tmp_path):
    # Ids past 65,535 and offsets past 8,192 take the engine's general
    # conversion path; the lists are ordinary, mutable lists either way.
    words = [f"w{i}" for i in range(70_000)]
    path = tmp_path / "vocab.txt"
    path.write_text("\n".join(BERT_VOCAB + words) + "\n", encoding="utf-8")
    tok = Tokenizer.from_vocab_file(path)
    text = " ".join(words[-3:]) + " hello" * 2000 + " w69999 " + "x" * 40
    enc = tok.encode(text)
    first = len(BERT_VOCAB) + 70_000 - 3
    assert enc.ids[1:4] == [first, first + 1, first + 2]
    assert enc.ids[-3] == first + 2
    assert enc.tokens[-2] == "[UNK]"
    assert enc.offsets[-2] == (len(text) - 40, len(text))
    for (start, end), token in zip(enc.offsets[1:-1], enc.tokens[1:-1]):
        assert text[start:end] == token or token == "[UNK]"
    ids = enc.ids
    ids.append(["anything"])
    assert ids[-1] == ["anything"]
    assert len(ids) == len(enc) + 1
    assert enc.ids == ids[:-1]


def test_save_load_and_pickle_round_trip(trained, tmp_path):
    path = tmp_path / "tok.json"
    trained.save(path)
    loaded = type(trained).load(path)
    assert loaded.get_vocab() == trained.get_vocab()
    assert loaded.merges == trained.merges
    assert loaded.encode("the pug").to_dict() == trained.encode("the pug").to_dict()
    clone = pickle.loads(pickle.dumps(trained))
    assert clone.get_vocab() == trained.get_vocab()
    assert clone.merges == trained.merges
    assert clone.encode("the pug").to_dict() == trained.encode("the pug").to_dict()


def test_engine_and_twin_files_are_interchangeable(tmp_path):
    from fast_wordpiece import reference

    engine = fast_wordpiece.PyTokenizer.train(CORPUS, 100, 2, show_progress=False)
    engine.save(tmp_path / "engine.json")
    twin = reference.PyTokenizer.load(tmp_path / "engine.json")
    assert twin.get_vocab() == engine.get_vocab()
    assert twin.merges == engine.merges
    twin.save(tmp_path / "twin.json")
    assert fast_wordpiece.PyTokenizer.load(tmp_path / "twin.json") == engine


def test_save_vocab_writes_bert_vocab_txt(trained, tmp_path):
    path = tmp_path / "vocab.txt"
    trained.save_vocab(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines == sorted(trained.get_vocab(), key=trained.get_vocab().get)
    again = type(trained).from_vocab_file(path)
    assert again.encode("the lazy dog").ids == trained.encode("the lazy dog").ids


def test_repr_names_the_configuration(trained):
    text = repr(trained)
    assert text.startswith("PyTokenizer(vocab_size=")
    assert "lowercase=True" in text


def test_pipeline_options_change_behaviour(Tokenizer):
    cased = Tokenizer.train(CORPUS, 80, 2, lowercase=False, show_progress=False)
    assert "T" in cased.get_vocab()
    ws = Tokenizer.train(["don't stop"], 50, 1, pre_tokenizer="whitespace", show_progress=False)
    assert "##'" in ws.get_vocab()
    rx = Tokenizer.train(["snake_case+x"], 50, 1, pre_tokenizer="regex", show_progress=False)
    assert "+" in rx.get_vocab()
    assert "##_" in rx.get_vocab()


def test_train_from_counts_equals_train_on_the_same_words(Tokenizer):
    words = ["hug", "hug", "hug", "pug", "pun", "pun", "bun", "hugs"]
    from_texts = Tokenizer.train([" ".join(words)], 30, 1, show_progress=False)
    counts = {w: words.count(w) for w in set(words)}
    from_counts = Tokenizer.train_from_counts(counts, 30, 1, show_progress=False)
    assert from_counts.get_vocab() == from_texts.get_vocab()
    assert from_counts.merges == from_texts.merges


def test_train_from_files_streams_and_equals_train(tmp_path):
    lines = CORPUS * 50
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    from_file = fast_wordpiece.PyTokenizer.train_from_files([path], 150, 2, show_progress=False)
    in_memory = fast_wordpiece.PyTokenizer.train(lines, 150, 2, show_progress=False)
    assert from_file == in_memory


def test_generators_are_consumed_in_batches():
    consumed = []

    def corpus():
        for i in range(20_000):
            consumed.append(i)
            yield f"line {i % 97} of text"

    tok = fast_wordpiece.PyTokenizer.train(corpus(), 60, 2, show_progress=False)
    assert len(consumed) == 20_000
    assert tok.vocab_size <= 60


def test_progress_is_reported_on_stderr_and_can_be_silenced(capfd):
    fast_wordpiece.PyTokenizer.train(CORPUS, 60, 2, show_progress=True)
    err = capfd.readouterr().err
    assert "[counting words]" in err
    assert "[merging]" in err
    fast_wordpiece.PyTokenizer.train(CORPUS, 60, 2, show_progress=False)
    assert capfd.readouterr().err == ""


def merging_lines(err: str) -> list[str]:
    """The merging progress as last drawn: a bar redrawn in place (after a carriage return) is
    its last drawing, and every line of its own stays."""
    return [line.split("\r")[-1].strip() for line in err.splitlines() if "[merging]" in line]


@pytest.mark.parametrize("min_frequency", [1, 2])
def test_progress_of_a_training_that_runs_out_of_pairs_says_so_once(Tokenizer, min_frequency, capfd):
    """Asked for more tokens than the corpus has pairs for, training stops where the pairs run
    out: the progress says so once, in the engine's and the twin's words alike, and the engine's
    bar ends at the merges it made, not at the total it planned."""
    tok = Tokenizer.train(CORPUS, 1000, min_frequency, show_progress=True)
    assert tok.vocab_size < 1000
    lines = merging_lines(capfd.readouterr().err)
    why = " (none occurs min_frequency=2 times)" if min_frequency == 2 else ""
    said = f"[merging] stopped at {tok.vocab_size} tokens of the 1000 asked: no pairs left to merge{why}"
    assert lines[-1] == said
    assert sum("no pairs left" in line for line in lines) == 1
    if Tokenizer is fast_wordpiece.PyTokenizer:
        assert lines[-2].startswith(f"[merging] {len(tok.merges)}/{len(tok.merges)} merges [")
    # A training that gets its size ends at the total it planned, and says nothing more.
    tok = Tokenizer.train(CORPUS, 80, min_frequency, show_progress=True)
    assert tok.vocab_size == 80
    lines = merging_lines(capfd.readouterr().err)
    assert not any("stopped" in line for line in lines)
    if Tokenizer is fast_wordpiece.PyTokenizer:
        assert lines[-1].startswith(f"[merging] {len(tok.merges)}/{len(tok.merges)} merges [")


@pytest.mark.parametrize(
    "call",
    [
        lambda: fast_wordpiece.PyTokenizer.train(["a b"] * 3 + [3], 100, show_progress=True),  # type: ignore[list-item]
        lambda: fast_wordpiece.count_words(["a b"] * 3 + [3], show_progress=True),  # type: ignore[list-item]
    ],
    ids=["train", "count_words"],
)
def test_work_that_fails_part_way_ends_its_progress_line(call, capfd):
    """The progress bar is drawn in place (``\r``); work that fails part-way ends its line, so that
    the error printed after it starts on a line of its own."""
    with pytest.raises(TypeError, match=r"\[3\] must be str, not int"):
        call()
    err = capfd.readouterr().err
    assert "[counting words]" in err
    assert err.endswith("\n")


def test_every_way_of_training_says_when_it_ran_out_of_pairs(tmp_path, capfd):
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(CORPUS), encoding="utf-8")
    Tok = fast_wordpiece.PyTokenizer
    counts = fast_wordpiece.count_words(CORPUS)
    for train in [
        lambda: Tok.train_from_files(path, 1000, 2, show_progress=True),
        lambda: Tok.train_from_counts(counts, 1000, 2, show_progress=True),
        lambda: Tok.train_from_counts(dict(counts.items()), 1000, 2, show_progress=True),
    ]:
        tok = train()
        lines = merging_lines(capfd.readouterr().err)
        assert lines[-1].startswith(f"[merging] stopped at {tok.vocab_size} tokens of the 1000 asked: ")
        assert lines[-2].startswith(f"[merging] {len(tok.merges)}/{len(tok.merges)} merges [")


def test_ctrl_c_stops_training_with_keyboard_interrupt():
    # The child installs Python's own Ctrl-C handler: a shell that starts the
    # test run in the background hands it SIGINT ignored, which Python keeps.
    child = r"""
import random, signal, string, sys, fast_wordpiece
signal.signal(signal.SIGINT, signal.default_int_handler)
rng = random.Random(0)
counts = {"".join(rng.choices(string.ascii_lowercase, k=12)): rng.randint(1, 9) for _ in range(300_000)}
print("ready", flush=True)
try:
    fast_wordpiece.PyTokenizer.train_from_counts(counts, 10_000_000, 0, show_progress=False)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert out.strip() == "interrupted"


def test_cli_trains_on_stdlib_docstrings_and_encodes_a_sentence(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "fast_wordpiece",
            "--vocab-size",
            "2000",
            "--no-progress",
            "--save",
            str(tmp_path / "t.json"),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Trained PyTokenizer(vocab_size=2000" in out
    assert "[CLS]" in out
    assert "Decoded:" in out
    assert fast_wordpiece.PyTokenizer.load(tmp_path / "t.json").vocab_size == 2000
