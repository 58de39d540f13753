"""The engine against its pure-Python twin, trained on REAL corpora.

The twin (``fast_wordpiece.reference``) is the oracle for training (spec
section 4, which Hugging Face does not implement). On slices of Shakespeare,
German/Russian/Chinese fortunes and GCIDE, at several vocabulary sizes and
minimum frequencies, both must learn the same vocabulary (same ids, same order)
and the same merges, write the same tokenizer file, and encode held-out lines
identically. ``train_from_counts`` too. The engine must also give the same
result whatever its thread count (``RAYON_NUM_THREADS``).

The twin recounts every pair after every merge, so the slices are small; the
whole file is sized to run in well under a minute on a 2-core machine.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Sequence
from typing import Any, Callable

import pytest

import fast_wordpiece

reference = pytest.importorskip("fast_wordpiece.reference")

FIELDS = ("ids", "tokens", "offsets", "type_ids", "special_tokens_mask", "attention_mask")
HELD_OUT = 300  # held-out lines encoded by both trained tokenizers


def head_bytes(lines: Sequence[str], max_bytes: int) -> list[str]:
    """The first lines whose UTF-8 size (newline included) fits in ``max_bytes``."""
    out, total = [], 0
    for line in lines:
        total += len(line.encode("utf-8")) + 1
        if total > max_bytes:
            break
        out.append(line)
    return out


def spread(lines: Sequence[Any], n: int) -> list[Any]:
    if len(lines) <= n:
        return list(lines)
    step = len(lines) / n
    return [lines[int(i * step)] for i in range(n)]


# ----------------------------------------------------------------------------- training configurations
#
# name -> (corpus key, slice bytes, vocab_size, min_frequency). Twin CPU times on the 2-core
# box: ~1.5 s for the 20 KB/300 runs, ~5 s for 60 KB/300, ~6 s for 20 KB/1000, ~10 s for
# 30 KB/2000 with min_frequency 5 (which stops near 830 tokens: no pair left occurs 5
# times, the "nothing eligible" exit), a few seconds for the multilingual and GCIDE runs.
CONFIGS = {
    "shakespeare-20KB-v300-f0": ("shakespeare", 20_000, 300, 0),
    "shakespeare-20KB-v300-f5": ("shakespeare", 20_000, 300, 5),
    "shakespeare-60KB-v300-f2": ("shakespeare", 60_000, 300, 2),
    "shakespeare-20KB-v1000-f2": ("shakespeare", 20_000, 1000, 2),
    "shakespeare-30KB-v2000-f5": ("shakespeare", 30_000, 2000, 5),
    "multilingual-12KB-v1000-f2": ("multilingual", 12_000, 1000, 2),
    "multilingual-12KB-v600-f0": ("multilingual", 12_000, 600, 0),
    "gcide-20KB-v600-f2": ("gcide", 20_000, 600, 2),
}


@pytest.fixture(scope="session")
def corpus_lines(shakespeare_text: str, multilingual_lines: list[str], gcide_lines: list[str]) -> dict[str, list[str]]:
    """Each corpus as lines, in order: the training slices are prefixes, held-out lines come from past them."""
    return {
        "shakespeare": shakespeare_text.splitlines(),
        "multilingual": multilingual_lines,  # de, ru, zh interleaved
        "gcide": gcide_lines,
    }


_TRAINED: dict[str, tuple[Any, Any, list[str], list[str]]] = {}


@pytest.fixture
def trained(corpus_lines: dict[str, list[str]]) -> Callable[[str], tuple]:
    """``trained(config) -> (engine, twin, training lines, held-out lines)``, trained once per session."""

    def get(name: str) -> tuple[Any, Any, list[str], list[str]]:
        if name not in _TRAINED:
            corpus, nbytes, vocab_size, min_frequency = CONFIGS[name]
            lines = corpus_lines[corpus]
            train = head_bytes(lines, nbytes)
            held_out = spread([x for x in lines[len(train) : len(train) + 20 * HELD_OUT] if x.strip()], HELD_OUT)
            engine = fast_wordpiece.PyTokenizer.train(train, vocab_size, min_frequency, show_progress=False)
            twin = reference.PyTokenizer.train(train, vocab_size, min_frequency, show_progress=False)
            _TRAINED[name] = (engine, twin, train, held_out)
        return _TRAINED[name]

    return get


# ----------------------------------------------------------------------------- readable differences


def ordered_vocab(tok: Any) -> list[str]:
    vocab = tok.get_vocab()
    tokens = sorted(vocab, key=vocab.__getitem__)
    assert [vocab[t] for t in tokens] == list(range(len(tokens))), "ids are not 0..n-1"
    return tokens


def describe_list_difference(what: str, engine: Sequence[Any], twin: Sequence[Any], context: int = 3) -> str:
    i = next((k for k, (a, b) in enumerate(zip(engine, twin)) if a != b), min(len(engine), len(twin)))
    lo = max(0, i - context)
    return (
        f"{what} differ at index {i} (lengths: engine {len(engine)}, twin {len(twin)})\n"
        f"  engine[{lo}:{i + context + 1}] = {list(engine[lo : i + context + 1])!r}\n"
        f"  twin  [{lo}:{i + context + 1}] = {list(twin[lo : i + context + 1])!r}"
    )


def assert_same_training(engine: Any, twin: Any, label: str) -> None:
    ev, tv = ordered_vocab(engine), ordered_vocab(twin)
    assert ev == tv, f"[{label}] " + describe_list_difference("vocabularies (by id)", ev, tv)
    em, tm = [tuple(m) for m in engine.merges], [tuple(m) for m in twin.merges]
    assert em == tm, f"[{label}] " + describe_list_difference("merges", em, tm)
    assert engine.vocab_size == twin.vocab_size == len(ev)


def fields(enc: Any) -> dict[str, list]:
    out = {f: list(getattr(enc, f)) for f in FIELDS}
    out["offsets"] = [tuple(o) for o in out["offsets"]]
    return out


def encoding_problems(engine: Any, twin: Any, inputs: Sequence[Any]) -> list[str]:
    problems = []
    for x, e, t in zip(inputs, engine.encode_batch(list(inputs)), twin.encode_batch(list(inputs))):
        fe, ft = fields(e), fields(t)
        if fe != ft:
            bad = [f for f in FIELDS if fe[f] != ft[f]]
            problems.append(
                f"input {x!r}: {bad} differ\n  "
                + describe_list_difference("tokens", fe["tokens"], ft["tokens"])
                + "\n  "
                + describe_list_difference("offsets", fe["offsets"], ft["offsets"])
            )
            continue
        for skip in (False, True):
            de, dt = (
                engine.decode(fe["ids"], skip_special_tokens=skip),
                twin.decode(ft["ids"], skip_special_tokens=skip),
            )
            if de != dt:
                problems.append(f"input {x!r}: decode(skip_special_tokens={skip}) engine {de!r} twin {dt!r}")
    return problems


# ----------------------------------------------------------------------------- training on real text


@pytest.mark.parametrize("config", list(CONFIGS))
def test_same_vocab_and_merges(config, trained):
    engine, twin, train, _ = trained(config)
    _, _, vocab_size, _ = CONFIGS[config]
    assert_same_training(engine, twin, config)
    assert len(engine.merges) > 0, f"[{config}] nothing was learned from {len(train)} lines"
    assert engine.vocab_size <= vocab_size or not engine.merges


@pytest.mark.parametrize("config", list(CONFIGS))
def test_same_tokenizer_file(config, trained, tmp_path):
    engine, twin, _, _ = trained(config)
    assert json.loads(engine.to_json()) == json.loads(twin.to_json())
    engine.save_vocab(str(tmp_path / "engine.txt"))
    twin.save_vocab(str(tmp_path / "twin.txt"))
    assert (tmp_path / "engine.txt").read_bytes() == (tmp_path / "twin.txt").read_bytes()


@pytest.mark.parametrize("config", list(CONFIGS))
def test_same_encodings_of_held_out_lines(config, trained):
    engine, twin, _, held_out = trained(config)
    pairs = list(zip(held_out[:50:2], held_out[1:50:2]))
    problems = encoding_problems(engine, twin, held_out + pairs)
    assert not problems, (
        f"[{config}] {len(problems)} of {len(held_out) + len(pairs)} inputs differ; first:\n" + "\n".join(problems[:3])
    )


# ----------------------------------------------------------------------------- train_from_counts


@pytest.fixture(scope="session")
def real_counts(shakespeare_text: str, multilingual_lines: list[str]) -> dict[str, int]:
    """Word counts of real text, counted here by a plain ``str.split`` (punctuation stays attached)."""
    counts = Counter(shakespeare_text[200_000:230_000].lower().split())
    counts.update(" ".join(multilingual_lines[3000:3200]).split())
    return dict(counts)


@pytest.mark.parametrize(("vocab_size", "min_frequency"), [(500, 2), (400, 0)])
def test_train_from_counts_matches(real_counts, vocab_size, min_frequency):
    engine = fast_wordpiece.PyTokenizer.train_from_counts(real_counts, vocab_size, min_frequency, show_progress=False)
    twin = reference.PyTokenizer.train_from_counts(real_counts, vocab_size, min_frequency, show_progress=False)
    assert_same_training(engine, twin, f"train_from_counts v{vocab_size} f{min_frequency}")


def test_train_from_counts_with_large_counts_matches(real_counts):
    """Counts as a web-scale counter produces them (x 10**12): sums stay below 2**64."""
    scaled = {w: n * 10**12 + i for i, (w, n) in enumerate(sorted(real_counts.items())[:3000])}
    engine = fast_wordpiece.PyTokenizer.train_from_counts(scaled, 400, 2, show_progress=False)
    twin = reference.PyTokenizer.train_from_counts(scaled, 400, 2, show_progress=False)
    assert_same_training(engine, twin, "train_from_counts x 10**12")


def test_train_from_counts_whose_sums_pass_2_to_the_64():
    """Each count fits in 64 bits but their sums do not: the engine and the twin refuse them alike,
    in every trainer of the family (the Unigram trainer's pieces' counts wrapped silently, and
    gave scores that were not finite, or another model).

    Silently wrapping the frequency sums would learn different merges.
    """
    big = 2**63
    counts = {"ab": big, "abc": big, "bcd": 3, "cd": 7}
    message = "the word counts add up to more than 2**64 - 1 character occurrences: scale them down"
    trainers = {
        "wordpiece": lambda impl, c: impl.PyTokenizer.train_from_counts(c, 40, 2, show_progress=False),
        "bpe": lambda impl, c: impl.BPETokenizer.train_from_counts(c, 270, show_progress=False),
        # (its words as the model sees them: "▁hello", 6 characters)
        "unigram": lambda impl, c: impl.UnigramTokenizer.train_from_counts(c, 20, show_progress=False),
    }
    for train in trainers.values():
        for impl in (fast_wordpiece, reference):
            with pytest.raises(ValueError, match=re.escape(message) + "$"):
                train(impl, counts)
            with pytest.raises(ValueError, match=re.escape(message) + "$"):
                train(impl, {"hello": 2**62})
    # Below the bound, a Unigram seed's count times its length passes 2**64 (a run of 15 "a": its
    # substrings are counted many times a word), and engine and twin (Python's integers) still
    # give the same model.
    near = {"a" * 15: 2**59, "hello": 2**57 + 12345, "his": 3}
    for name, train in trainers.items():
        engine, twin = (train(impl, near) for impl in (fast_wordpiece, reference))
        text = [tok.to_str() if name == "unigram" else tok.to_json() for tok in (engine, twin)]
        assert json.loads(text[0]) == json.loads(text[1]), name


def test_train_from_counts_equals_train_on_the_same_words(shakespeare_text):
    """``train(texts)`` equals ``train_from_counts`` of the words ``train`` would count (lowercase, one word a line)."""
    text = shakespeare_text[300_000:310_000]
    words = [w for w in text.lower().split() if w.isalpha() and w.isascii()]
    for impl in (fast_wordpiece, reference):
        a = impl.PyTokenizer.train(words, 300, 2, show_progress=False)
        b = impl.PyTokenizer.train_from_counts(dict(Counter(words)), 300, 2, show_progress=False)
        assert_same_training(a, b, f"{impl.__name__}: train vs train_from_counts")


# ----------------------------------------------------------------------------- thread counts

THREAD_SCRIPT = textwrap.dedent(
    """
    import json, sys
    import fast_wordpiece
    args = json.loads(sys.stdin.read())
    tok = fast_wordpiece.PyTokenizer.train(args["lines"], args["vocab_size"], 2, show_progress=False)
    files = fast_wordpiece.PyTokenizer.train_from_files(args["files"], args["vocab_size"], 2, errors="replace",
                                                       show_progress=False)
    vocab = tok.get_vocab()
    fvocab = files.get_vocab()
    encs = tok.encode_batch(args["encode"])
    print(json.dumps({
        "vocab": sorted(vocab, key=vocab.get), "merges": tok.merges,
        "files_vocab": sorted(fvocab, key=fvocab.get), "files_merges": files.merges,
        "ids": [e.ids for e in encs], "offsets": [e.offsets for e in encs],
    }))
    """
)


def run_engine(threads: str | None, payload: dict) -> dict:
    env = dict(os.environ)
    env.pop("RAYON_NUM_THREADS", None)
    if threads is not None:
        env["RAYON_NUM_THREADS"] = threads
    proc = subprocess.run(
        [sys.executable, "-c", THREAD_SCRIPT],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert proc.returncode == 0, f"RAYON_NUM_THREADS={threads}: {proc.stderr[-2000:]}"
    return json.loads(proc.stdout)


def test_same_result_whatever_the_thread_count(shakespeare_text, multilingual_lines, tmp_path):
    import corpora

    lines = shakespeare_text[:1_000_000].splitlines() + multilingual_lines[:10_000]
    files = [str(p) for p in corpora.shakespeare_files()[:12]] + [str(p) for p in corpora.fortune_files("ru")[:20]]
    payload = {"lines": lines, "vocab_size": 8000, "files": files, "encode": spread(lines, 3000)}
    results = {threads: run_engine(threads, payload) for threads in (None, "1", "3")}
    base = results[None]
    assert len(base["vocab"]) == 8000
    for threads, got in results.items():
        for key in ("vocab", "merges", "files_vocab", "files_merges", "ids", "offsets"):
            assert got[key] == base[key], f"RAYON_NUM_THREADS={threads} vs default: " + describe_list_difference(
                key, got[key], base[key]
            )
