"""The three training objectives (spec section 4): each against a naive
implementation of its formula written here, engine against twin on real
corpora, the same result at every thread count, and the objective kept by
save/load, pickling and ``repr``.

The naive trainer below shares nothing with the twin: at every step it
applies every candidate merge to a copy of the corpus and reads ``k``, the
counts and (for ``likelihood``) the real change of the corpus log-likelihood
off the result.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

import fast_wordpiece

reference = pytest.importorskip("fast_wordpiece.reference")

OBJECTIVES = ("likelihood", "pmi", "frequency")
SPECIALS = ["[UNK]"]

# ----------------------------------------------------------------------------- the naive trainer


def split(word: str) -> list[str]:
    return [c if i == 0 else "##" + c for i, c in enumerate(word)]


def join(a: str, b: str) -> str:
    return a + (b[2:] if b.startswith("##") else b)


def apply_merge(tokens: list[str], a: str, b: str) -> list[str]:
    out, i = [], 0
    while i < len(tokens):
        if i + 1 < len(tokens) and tokens[i] == a and tokens[i + 1] == b:
            out.append(join(a, b))
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


def tallies(corpus: list[tuple[list[str], int]]) -> tuple[Counter[str], Counter[tuple[str, str]]]:
    tokens: Counter[str] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()
    for toks, n in corpus:
        for t in toks:
            tokens[t] += n
        for p in zip(toks, toks[1:]):
            pairs[p] += n
    return tokens, pairs


def log_likelihood(tokens: Counter[str]) -> float:
    """``Σ c(t)·ln(c(t)/N)``: the corpus under its own unigram model."""
    total = sum(tokens.values())
    return math.fsum(c * math.log(c / total) for c in tokens.values() if c)


def xlnx(x: int) -> float:
    return x * math.log(x) if x else 0.0


def naive_train(counts: dict[str, int], vocab_size: int, min_frequency: int, objective: str) -> list[tuple[str, str]]:
    corpus = [(split(w), n) for w, n in counts.items()]
    vocab = list(dict.fromkeys(SPECIALS + sorted({t for toks, _ in corpus for t in toks})))
    merges = []
    while len(vocab) < vocab_size:
        tokens, pairs = tallies(corpus)
        total = sum(tokens.values())
        ranked = []
        for (a, b), freq in pairs.items():
            if freq < min_frequency:
                continue
            merged = [(apply_merge(toks, a, b), n) for toks, n in corpus]
            after, _ = tallies(merged)
            k = total - sum(after.values())  # what the merge actually replaced
            if objective == "pmi":
                score: Any = Fraction(freq, tokens[a] * tokens[b])
                tie = freq
            elif objective == "frequency":
                score, tie = freq, k
            else:
                ca, cb, cab = tokens[a], tokens[b], tokens[join(a, b)]
                first = xlnx(ca - 2 * k) - xlnx(ca) if a == b else (xlnx(ca - k) - xlnx(ca)) + (xlnx(cb - k) - xlnx(cb))
                score = (first + (xlnx(cab + k) - xlnx(cab))) - (xlnx(total - k) - xlnx(total))
                real = log_likelihood(after) - log_likelihood(tokens)
                assert math.isclose(score, real, rel_tol=1e-9, abs_tol=1e-9), (a, b, score, real)
                tie = k
            ranked.append(((score, tie), (a, b)))
        if not ranked:
            break
        best_key = max(key for key, _ in ranked)
        a, b = min(pair for key, pair in ranked if key == best_key)
        merges.append((a, b))
        if join(a, b) not in vocab:
            vocab.append(join(a, b))
        corpus = [(apply_merge(toks, a, b), n) for toks, n in corpus]
    return merges


def random_counts(seed: int) -> dict[str, int]:
    """Small corpora with runs of equal letters (the ``a = b`` case) and
    tokens that two different merges make (``c(ab) > 0``)."""
    rng = random.Random(seed)
    letters = rng.choice(["ab", "aab", "abc", "aabbc", "abcde"])
    words = {"".join(rng.choice(letters) for _ in range(rng.randint(1, 7))) for _ in range(rng.randint(3, 25))}
    return {w: rng.choice([1, 1, 2, 3, 5, 40]) for w in sorted(words)}


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("seed", range(40))
def test_each_objective_follows_its_formula(Tokenizer, objective, seed):
    counts = random_counts(seed)
    min_frequency = seed % 3
    vocab_size = 40
    tok = Tokenizer.train_from_counts(
        counts, vocab_size, min_frequency, special_tokens=SPECIALS, objective=objective, show_progress=False
    )
    assert [tuple(m) for m in tok.merges] == naive_train(counts, vocab_size, min_frequency, objective)
    assert tok.objective == objective


def test_likelihood_counts_what_a_self_merge_replaces():
    # "aaaa" holds three (##a, ##a) windows but a merge replaces two; "aaa" three windows... one.
    counts = {"xaaaa": 3, "xaaa": 2, "x": 5}
    for objective in OBJECTIVES:
        got = fast_wordpiece.PyTokenizer.train_from_counts(
            counts, 8, 0, special_tokens=SPECIALS, objective=objective, show_progress=False
        )
        assert [tuple(m) for m in got.merges] == naive_train(counts, 8, 0, objective)


def test_the_objectives_learn_different_vocabularies(shakespeare_text):
    lines = shakespeare_text[:100_000].splitlines()
    vocabs = {
        o: fast_wordpiece.PyTokenizer.train(lines, 600, 2, objective=o, show_progress=False).get_vocab()
        for o in OBJECTIVES
    }
    assert len({frozenset(v) for v in vocabs.values()}) == 3


# ----------------------------------------------------------------------------- engine vs twin on real text

REAL = {
    "shakespeare-30KB-v600-f0": ("shakespeare", 30_000, 600, 0, None),
    "multilingual-12KB-v600-f2": ("multilingual", 12_000, 600, 2, None),
    "multilingual-20KB-v500-f2-limit200": ("multilingual", 20_000, 500, 2, 200),
    "gcide-20KB-v600-f2": ("gcide", 20_000, 600, 2, None),
}


def head(lines: list[str], max_bytes: int) -> list[str]:
    out, total = [], 0
    for line in lines:
        total += len(line.encode()) + 1
        if total > max_bytes:
            break
        out.append(line)
    return out


@pytest.fixture(scope="session")
def real_lines(shakespeare_text, multilingual_lines, gcide_lines) -> dict[str, list[str]]:
    return {"shakespeare": shakespeare_text.splitlines(), "multilingual": multilingual_lines, "gcide": gcide_lines}


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("config", sorted(REAL))
def test_engine_equals_twin_on_real_text(real_lines, config, objective):
    corpus, nbytes, vocab_size, min_frequency, limit = REAL[config]
    lines = head(real_lines[corpus], nbytes)
    kwargs = {"objective": objective, "limit_alphabet": limit, "show_progress": False}
    engine = fast_wordpiece.PyTokenizer.train(lines, vocab_size, min_frequency, **kwargs)
    twin = reference.PyTokenizer.train(lines, vocab_size, min_frequency, **kwargs)
    assert engine.merges == twin.merges, f"[{config} {objective}] merges differ"
    assert engine.get_vocab() == twin.get_vocab()
    assert engine.to_json() == twin.to_json()
    assert len(engine.merges) >= 50


def test_limit_alphabet_keeps_the_most_frequent_characters(Tokenizer, multilingual_lines):
    lines = head(multilingual_lines, 30_000)
    full = Tokenizer.train(lines, 10, 2, show_progress=False)
    limited = Tokenizer.train(lines, 10, 2, limit_alphabet=150, show_progress=False)

    def alphabet(tok: Any) -> set[str]:
        return {t.removeprefix("##") for t in tok.get_vocab() if t not in tok.special_tokens}

    assert len(alphabet(full)) > 150 >= len(alphabet(limited))
    counts: Counter[str] = Counter()
    for word, n in Counter(w for line in lines for w in reference_words(line)).items():
        for c in word:
            counts[c] += n
    kept = set(sorted(counts, key=lambda c: (-counts[c], c))[:150])
    assert alphabet(limited) <= kept


def reference_words(line: str) -> list[str]:
    from fast_wordpiece.reference.options import Options

    return Options().words(line)


# ----------------------------------------------------------------------------- threads

THREAD_SCRIPT = """
import json, sys
import fast_wordpiece
payload = json.load(sys.stdin)
out = {}
for objective in payload["objectives"]:
    tok = fast_wordpiece.PyTokenizer.train(payload["lines"], payload["vocab_size"], 2, objective=objective,
                                           show_progress=False)
    out[objective] = tok.to_json()
print(json.dumps(out))
"""


def test_same_result_whatever_the_thread_count(shakespeare_text, multilingual_lines):
    lines = shakespeare_text[:400_000].splitlines() + multilingual_lines[:4000]
    payload = {"lines": lines, "vocab_size": 3000, "objectives": list(OBJECTIVES)}
    results = []
    for threads in ("1", "2", "3"):
        env = {**os.environ, "RAYON_NUM_THREADS": threads}
        proc = subprocess.run(
            [sys.executable, "-c", THREAD_SCRIPT], input=json.dumps(payload), capture_output=True, text=True, env=env
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        results.append(json.loads(proc.stdout))
    assert results[0] == results[1] == results[2]
    assert len({results[0][o] for o in OBJECTIVES}) == 3


# ----------------------------------------------------------------------------- recorded objective


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_save_load_pickle_and_repr_keep_the_objective(Tokenizer, objective, tmp_path):
    tok = Tokenizer.train(["hug pug pun bun hugs"] * 3, 30, 1, objective=objective, show_progress=False)
    assert tok.objective == objective
    assert f"objective='{objective}'" in repr(tok)
    assert json.loads(tok.to_json())["objective"] == objective
    tok.save(tmp_path / "t.json")
    clones = [Tokenizer.load(tmp_path / "t.json"), Tokenizer.from_json(tok.to_json()), pickle.loads(pickle.dumps(tok))]
    for clone in clones:
        assert clone.objective == objective
        assert clone == tok


def test_default_objective_is_likelihood(Tokenizer):
    tok = Tokenizer.train(["hug pug pun bun hugs"], 30, 1, show_progress=False)
    assert tok.objective == "likelihood"
    explicit = Tokenizer.train(["hug pug pun bun hugs"], 30, 1, objective="likelihood", show_progress=False)
    assert tok == explicit


def test_files_without_an_objective_load_as_pmi(Tokenizer):
    tok = Tokenizer.train(["hug pug pun bun hugs"], 30, 1, objective="pmi", show_progress=False)
    doc = json.loads(tok.to_json())
    del doc["objective"]
    assert Tokenizer.from_json(json.dumps(doc)).objective == "pmi"


def test_a_vocab_file_has_no_objective(Tokenizer, tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("[UNK]\n[CLS]\n[SEP]\nhug\n##s\n", encoding="utf-8")
    tok = Tokenizer.from_vocab_file(path)
    assert tok.objective is None
    assert "objective=None" in repr(tok)
    assert Tokenizer.from_json(tok.to_json()).objective is None


def test_objective_and_limit_alphabet_are_checked(Tokenizer):
    with pytest.raises(ValueError, match='"bpe"'):
        Tokenizer.train(["a b"], 10, objective="bpe", show_progress=False)
    with pytest.raises(TypeError, match="objective must be a str"):
        Tokenizer.train(["a b"], 10, objective=1, show_progress=False)
    with pytest.raises(ValueError, match="limit_alphabet"):
        Tokenizer.train_from_counts({"ab": 2}, 10, limit_alphabet=0, show_progress=False)
    with pytest.raises(TypeError, match="limit_alphabet"):
        Tokenizer.train_from_counts({"ab": 2}, 10, limit_alphabet="5", show_progress=False)


def test_an_unknown_objective_in_a_file_is_rejected(Tokenizer):
    doc = json.loads(Tokenizer.train(["ab ab"], 10, 1, show_progress=False).to_json())
    doc["objective"] = "bpe"
    with pytest.raises(ValueError, match="bpe"):
        Tokenizer.from_json(json.dumps(doc))


def test_the_command_line_trains_with_the_objective_asked(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("hug pug pun bun hugs\n" * 20 + "the theatre then there\n" * 7, encoding="utf-8")
    for objective in OBJECTIVES:
        saved = tmp_path / f"{objective}.json"
        args = [str(corpus), "--vocab-size", "40", "--objective", objective, "--save", str(saved), "--no-progress"]
        out = subprocess.run(
            [sys.executable, "-m", "fast_wordpiece", *args], capture_output=True, text=True, check=True
        ).stdout
        assert f"objective='{objective}'" in out
        expected = fast_wordpiece.PyTokenizer.train_from_files([corpus], 40, objective=objective, show_progress=False)
        assert fast_wordpiece.PyTokenizer.load(saved) == expected
