"""UnigramTokenizer: Hugging Face parity on the same pieces, the twin
(fast_wordpiece.reference.unigram) on training and encoding, tokenizer.json
round trips, sampling invariants and bad input."""

from __future__ import annotations

import json
import math
import multiprocessing
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import fast_wordpiece as fw
from fast_wordpiece.reference.unigram import UnigramTokenizer as Twin

tokenizers = pytest.importorskip("tokenizers")

ADVERSARIAL = [
    "",
    " ",
    "   ",
    "a",
    "hello world",
    "  two  spaces  ",
    "▁already▁marked",
    "tab\tand\nnewline",
    "émoji 🤗 and ZWJ 👩‍👩‍👧 done",
    "combining e\u0301 and \u0301 alone",
    "<unk> <s>x</s> literal specials",
    "中文字符 和 mixed",
]


@pytest.fixture(scope="module")
def train_lines(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[str]:
    return shakespeare_lines[:6000] + multilingual_lines[:1500]


@pytest.fixture(scope="module")
def heldout(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[str]:
    return shakespeare_lines[-400:] + multilingual_lines[-200:] + ADVERSARIAL


@pytest.fixture(scope="module")
def trained(train_lines: list[str]) -> fw.UnigramTokenizer:
    return fw.UnigramTokenizer.train(train_lines, 2000)


def hf_from_pieces(pieces: list[tuple[str, float]], unk_id: int = 0):  # type: ignore[no-untyped-def]
    from tokenizers import Tokenizer, decoders, pre_tokenizers
    from tokenizers.models import Unigram

    hf = Tokenizer(Unigram(pieces, unk_id=unk_id))
    hf.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    hf.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    return hf


def assert_same_as_hf(ours: fw.UnigramTokenizer, hf, texts: list[str]) -> None:  # type: ignore[no-untyped-def]
    for text in texts:
        e, h = ours.encode(text), hf.encode(text, add_special_tokens=False)
        assert e.ids == h.ids, text
        assert e.tokens == h.tokens, text
        assert e.offsets == [tuple(o) for o in h.offsets], text
        assert ours.decode(e.ids) == hf.decode(h.ids, skip_special_tokens=False), text


def test_encoding_matches_hf_on_a_trained_vocabulary(trained: fw.UnigramTokenizer, heldout: list[str]) -> None:
    # No special tokens split out: HF's bare model sees every piece, "<unk>" too.
    ours = fw.UnigramTokenizer(trained.get_pieces(), special_tokens=[])
    assert_same_as_hf(ours, hf_from_pieces(trained.get_pieces()), heldout)


def test_encoding_matches_hf_on_random_vocabularies() -> None:
    rng = random.Random(7)
    alphabet = ["a", "b", "c", "é", "中", "▁", "🤗"]
    for _ in range(40):
        pieces = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) for _ in range(30)}
        vocab = [("<unk>", 0.0)] + [(p, -rng.choice([1.0, 2.0, 2.5, 3.0, 7.25])) for p in sorted(pieces)]
        ours = fw.UnigramTokenizer(vocab, special_tokens=[])
        texts = ["".join(rng.choice([*alphabet, " ", "x"]) for _ in range(rng.randint(0, 25))) for _ in range(30)]
        assert_same_as_hf(ours, hf_from_pieces(vocab), texts)


def test_saved_file_loads_in_hf_and_encodes_the_same(
    trained: fw.UnigramTokenizer, heldout: list[str], tmp_path: Path
) -> None:
    from tokenizers import Tokenizer

    path = tmp_path / "tokenizer.json"
    trained.save(path)
    hf = Tokenizer.from_file(str(path))
    for text in heldout:
        e, h = trained.encode(text), hf.encode(text, add_special_tokens=False)
        assert (e.ids, e.tokens) == (h.ids, h.tokens), text
        assert e.offsets == [tuple(o) for o in h.offsets], text
    again = fw.UnigramTokenizer.from_file(path)
    assert again == trained
    assert again.special_tokens == trained.special_tokens
    hf_saved = tmp_path / "hf.json"
    hf.save(str(hf_saved))
    # Trained scores are ones HF's JSON reader (serde_json without float_roundtrip, which rounds
    # some numbers one unit in the last place off) gives back: its file is ours.
    from_hf = fw.UnigramTokenizer.load(hf_saved)
    assert from_hf.special_tokens == trained.special_tokens
    assert from_hf.get_pieces() == trained.get_pieces()
    assert from_hf == trained


def test_training_matches_the_twin_exactly(shakespeare_lines: list[str], multilingual_lines: list[str]) -> None:
    lines = shakespeare_lines[:1200] + multilingual_lines[:60]
    for vocab_size, options in [(600, {}), (900, {"max_piece_length": 6, "shrinking_factor": 0.6})]:
        engine = fw.UnigramTokenizer.train(lines, vocab_size, **options)
        twin = Twin.train(lines, vocab_size, **options)
        assert engine.get_pieces() == twin.get_pieces()
        assert engine.vocab_size == vocab_size
        for text in lines[:200] + ADVERSARIAL:
            e, t = engine.encode(text), twin.encode(text)
            assert (e.ids, e.tokens, e.offsets) == (t.ids, t.tokens, t.offsets), text
            assert engine.decode(e.ids) == twin.decode(t.ids)


def test_train_from_counts_and_files_agree_with_train(tmp_path: Path, shakespeare_lines: list[str]) -> None:
    lines = shakespeare_lines[:800]
    from collections import Counter

    direct = fw.UnigramTokenizer.train(lines, 300)
    counts = Counter(w for line in lines for w in line.split(" ") if w)
    assert fw.UnigramTokenizer.train_from_counts(dict(counts), 300).get_pieces() == (
        Twin.train_from_counts(counts, 300).get_pieces()
    )
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert fw.UnigramTokenizer.train_from_files(path, 300) == direct


def test_trained_vocabulary_keeps_every_character_and_round_trips(
    trained: fw.UnigramTokenizer, train_lines: list[str]
) -> None:
    vocab = trained.get_vocab()
    assert trained.vocab_size == 2000 == len(vocab)
    assert trained.special_tokens == ["<unk>", "<s>", "</s>"]
    for c in {c for line in train_lines for c in line if c != " "}:
        assert c in vocab, c
    for text in train_lines[:300]:
        assert trained.decode(trained.encode(text).ids) == (text if not text.startswith(" ") else text[1:])


def test_encode_batch_equals_encode_and_analyze_counts(trained: fw.UnigramTokenizer, heldout: list[str]) -> None:
    for threads in (1, 3):
        assert trained.encode_batch(heldout, num_threads=threads) == [trained.encode(t) for t in heldout]
    a = trained.analyze(heldout)
    assert a["tokens"] == sum(len(trained.encode(t)) for t in heldout)
    assert a["vocab_size"] == 2000
    assert 1.0 <= a["tokens_per_word"] < 5.0


@pytest.mark.parametrize("Tokenizer", [fw.UnigramTokenizer, Twin], ids=["engine", "twin"])
def test_analyze_counts_words_and_characters_of_the_texts_as_the_rest_of_the_family(Tokenizer) -> None:  # type: ignore[no-untyped-def]
    pieces = [("<unk>", 0.0), ("<s>", 0.0), ("▁ab", -1.0), ("▁", -2.0), ("a", -3.0), ("b", -3.0)]
    tok = Tokenizer(pieces, special_tokens=["<unk>", "<s>"])
    texts = ["ab  ab<s>z", "\u3000ab\tb ", "", "<unk>"]
    a = tok.analyze(texts)
    # Words are the runs of non-whitespace (a special token inside one is part of it), characters
    # the code points of the texts: the "▁" that pre-tokenization puts before a text is neither.
    assert (a["texts"], a["words"], a["characters"]) == (4, 2 + 2 + 0 + 1, 10 + 6 + 0 + 5)
    ids = [i for t in texts for i in tok.encode(t).ids]
    assert (a["tokens"], a["unknown"], a["vocab_used"]) == (len(ids), ids.count(0), len(set(ids)))
    assert a["tokens_per_word"] == len(ids) / 5
    assert a["characters_per_token"] == 21 / len(ids)
    for other in (fw.BPETokenizer.train(texts, 260), fw.CharTokenizer.train(texts)):
        counts = other.analyze(texts)
        assert (counts["words"], counts["characters"]) == (a["words"], a["characters"])


def test_pickling_keeps_the_tokenizer(trained: fw.UnigramTokenizer) -> None:
    again = pickle.loads(pickle.dumps(trained))
    assert again == trained
    assert again.encode("To be, or not to be") == trained.encode("To be, or not to be")


def test_special_tokens_are_split_out_and_skipped_in_decode(trained: fw.UnigramTokenizer) -> None:
    e = trained.encode("<s>hello</s>")
    assert e.tokens[0] == "<s>"
    assert e.tokens[-1] == "</s>"
    assert e.offsets[0] == (0, 3)
    assert trained.decode(e.ids, skip_special_tokens=True) == "hello"


# --- sampling -----------------------------------------------------------------


def segmentation_score(t: fw.UnigramTokenizer, ids: list[int]) -> float:
    scores = dict(t.get_pieces())
    return sum(scores[t.id_to_token(i) or ""] for i in ids)


@pytest.mark.parametrize("nbest", [-1, 1, 5])
def test_samples_are_valid_segmentations(trained: fw.UnigramTokenizer, heldout: list[str], nbest: int) -> None:
    for k, text in enumerate(heldout[:150]):
        viterbi = trained.encode(text)
        sample = trained.encode(text, alpha=0.3, nbest=nbest, seed=k)
        assert trained.decode(sample.ids) == trained.decode(viterbi.ids)
        assert "".join(sample.tokens) == "".join(viterbi.tokens)
        assert [o[1] for o in sample.offsets][-1:] == [o[1] for o in viterbi.offsets][-1:]
        if nbest == 1:
            assert sample == viterbi


def test_sampling_is_deterministic_with_a_seed_and_varies_without(trained: fw.UnigramTokenizer) -> None:
    text = "Whereof one cannot speak, thereof one must be silent, unsubstantiated"
    assert trained.encode(text, alpha=0.1, seed=3) == trained.encode(text, alpha=0.1, seed=3)
    draws = {tuple(trained.encode(text, alpha=0.1, seed=s).ids) for s in range(30)}
    assert len(draws) > 3
    nbest = {tuple(trained.encode(text, alpha=0.1, nbest=4, seed=s).ids) for s in range(60)}
    assert 1 < len(nbest) <= 4 ** len(text.split())


#: Pieces of one or two letters, all equally likely: a word of 40 letters has about 10**8
#: segmentations, and sampling spreads over very many of them.
SPREAD_PIECES = [("<unk>", 0.0), ("\u2581", -1.0)] + [(p, -1.0) for p in ("a", "b", "aa", "ab", "ba", "bb")]
SPREAD_WORD = "abbabaabbaababbabaab" * 2
KINDS = {"engine": fw.UnigramTokenizer, "twin": Twin}


def draws(kind: str, seed: int | None = None) -> list[list[int]]:
    """30 sampled encodings of ``SPREAD_WORD``: unseeded, or with seeds ``seed``, ``seed + 1``, ...
    Two unseeded lists are equal only if 30 draws from ~10**8 segmentations all coincide."""
    tok = KINDS[kind](SPREAD_PIECES)
    return [tok.encode(SPREAD_WORD, alpha=0.1, seed=None if seed is None else seed + k).ids for k in range(30)]


def draws_in_a_new_process(kind: str) -> dict[str, list[list[int]]]:
    code = (
        f"import json, sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); from test_unigram import draws; "
        f"print(json.dumps({{'unseeded': draws({kind!r}), 'seeded': draws({kind!r}, seed=5)}}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def draws_in_a_child(kind: str, queue) -> None:  # type: ignore[no-untyped-def]
    queue.put({"unseeded": draws(kind), "seeded": draws(kind, seed=5)})


@pytest.mark.parametrize("kind", KINDS)
def test_unseeded_sampling_differs_between_runs_and_seeded_sampling_does_not(kind: str) -> None:
    first, second = draws_in_a_new_process(kind), draws_in_a_new_process(kind)
    assert first["unseeded"] != second["unseeded"]
    assert len({tuple(ids) for ids in first["unseeded"]}) > 20
    assert first["seeded"] == second["seeded"] == draws(kind, seed=5) == draws("engine", seed=5)


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork")
@pytest.mark.parametrize("kind", KINDS)
def test_forked_children_sample_apart_from_their_parent_and_each_other(kind: str) -> None:
    # The parent samples before it forks, as a training script does between epochs (a
    # DataLoader starts new workers each epoch): the children must not replay its sequence.
    draws(kind)
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    children = [context.Process(target=draws_in_a_child, args=(kind, queue)) for _ in range(2)]
    for child in children:
        child.start()
    got = [queue.get(timeout=120) for _ in children]
    for child in children:
        child.join(timeout=120)
        assert child.exitcode == 0
    parent = draws(kind)
    assert got[0]["unseeded"] != got[1]["unseeded"]
    assert parent not in (got[0]["unseeded"], got[1]["unseeded"])
    assert got[0]["seeded"] == got[1]["seeded"] == draws(kind, seed=5)


def test_large_alpha_approaches_viterbi(trained: fw.UnigramTokenizer, heldout: list[str]) -> None:
    texts = [t for t in heldout[:200] if t]
    same = sum(trained.encode(t, alpha=50.0, seed=1) == trained.encode(t) for t in texts)
    loose = sum(trained.encode(t, alpha=0.05, seed=1) == trained.encode(t) for t in texts)
    assert same >= 0.97 * len(texts) > loose
    for t in texts[:50]:
        best = segmentation_score(trained, trained.encode(t).ids)
        assert segmentation_score(trained, trained.encode(t, alpha=0.05, seed=2).ids) <= best + 1e-9


# --- bad input ------------------------------------------------------------------


def test_bad_input_raises_clear_errors(trained: fw.UnigramTokenizer, tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="vocab"):
        fw.UnigramTokenizer("abc")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"vocab\[0\]\[1\]"):
        fw.UnigramTokenizer([("<unk>", "x")])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="twice"):
        fw.UnigramTokenizer([("<unk>", 0.0), ("a", -1.0), ("a", -2.0)])
    with pytest.raises(ValueError, match="not finite"):
        fw.UnigramTokenizer([("<unk>", 0.0), ("a", math.nan)])
    with pytest.raises(ValueError, match="unk_token"):
        fw.UnigramTokenizer([("a", 0.0)])
    with pytest.raises(TypeError, match="text"):
        trained.encode(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="surrogate"):
        trained.encode("\ud800")
    with pytest.raises(ValueError, match="alpha"):
        trained.encode("x", alpha=-1.0)
    with pytest.raises(ValueError, match="nbest"):
        trained.encode("x", alpha=0.1, nbest=0)
    with pytest.raises(ValueError, match="vocab_size"):
        fw.UnigramTokenizer.train(["abc"], 3)
    with pytest.raises(ValueError, match="too small"):
        fw.UnigramTokenizer.train(["abcdefgh"], 6)
    with pytest.raises(ValueError, match="shrinking_factor"):
        fw.UnigramTokenizer.train(["abc"], 50, shrinking_factor=1.5)
    with pytest.raises(TypeError, match="corpus"):
        fw.UnigramTokenizer.train("abc", 50)
    with pytest.raises(ValueError, match="ids"):
        trained.decode([trained.vocab_size])
    with pytest.raises(OSError, match="missing"):
        fw.UnigramTokenizer.from_file(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"model": {"type": "BPE"}}')
    with pytest.raises(ValueError, match="Unigram"):
        fw.UnigramTokenizer.from_file(bad)


@pytest.mark.parametrize("implementation", ["engine", "twin"])
@pytest.mark.parametrize("nbest", [0, -2, 10_001, 20_000])
def test_nbest_outside_its_range_is_a_value_error_with_or_without_alpha(
    trained: fw.UnigramTokenizer, implementation: str, nbest: int
) -> None:
    # Spec section 14, "Errors": nbest is -1 or 1..10000; it only matters when
    # sampling, but a value outside that range is refused either way.
    t = trained if implementation == "engine" else Twin(trained.get_pieces(), special_tokens=trained.special_tokens)
    with pytest.raises(ValueError, match=f"nbest must be -1 .* or between 1 and 10000, not {nbest}"):
        t.encode("hello", nbest=nbest)
    with pytest.raises(ValueError, match=f"nbest .* not {nbest}"):
        t.encode("hello", alpha=0.1, nbest=nbest)
    # In range, nbest without alpha changes nothing: the Viterbi segmentation.
    for fine in (-1, 1, 10_000):
        assert t.encode("hello", nbest=fine) == t.encode("hello")


@pytest.mark.parametrize("nbest", [-1, 3])
def test_sampling_matches_the_twin(trained: fw.UnigramTokenizer, heldout: list[str], nbest: int) -> None:
    twin = Twin(trained.get_pieces(), special_tokens=trained.special_tokens)
    for k, text in enumerate(heldout[:120]):
        e = trained.encode(text, alpha=0.2, nbest=nbest, seed=k * 7919)
        t = twin.sample(text, 0.2, nbest, k * 7919)
        assert (e.ids, e.tokens, e.offsets) == (t.ids, t.tokens, t.offsets), text
