"""CharTokenizer: identical to its twin on real text, files, pickling, bad input."""

from __future__ import annotations

import json
import pickle

import pytest

import fast_wordpiece as fw
from fast_wordpiece.reference.chars import CharTokenizer as Twin

SPECIALS = ["[UNK]", "[PAD]", "<s>"]


@pytest.fixture(scope="module")
def texts(shakespeare_text: str, multilingual_lines: list[str]) -> list[str]:
    return shakespeare_text[:100_000].splitlines(keepends=True) + multilingual_lines[:1500] + ["a<s>b", "👋🏽\r\n"]


@pytest.mark.parametrize(("vocab_size", "min_frequency"), [(None, None), (None, 3), (300, 1), (2, 1)])
def test_engine_equals_twin(texts, multilingual_lines, vocab_size, min_frequency):
    engine = fw.CharTokenizer.train(texts, vocab_size, min_frequency, special_tokens=SPECIALS)
    twin = Twin.train(texts, vocab_size, min_frequency, special_tokens=SPECIALS)
    assert engine.get_vocab() == twin.get_vocab()
    held = [*multilingual_lines[2000:2600], "x<s><s>y[UNK]", "", "\U0010ffff"]
    assert engine.encode_batch(held) == [twin.encode(t) for t in held]
    assert [engine.decode(engine.encode(t), skip_special_tokens=True) for t in held[:50]] == [
        twin.decode(twin.encode(t), skip_special_tokens=True) for t in held[:50]
    ]
    assert json.loads(engine.to_json()) == json.loads(twin.to_json())


def test_every_seen_character_round_trips_and_unknown_ones_count(texts):
    tok = fw.CharTokenizer.train(texts)
    assert tok.vocab_size == 1 + len(set("".join(texts)))
    assert all(tok.decode(tok.encode(t)) == t for t in texts[:500])
    seen = set("".join(texts))
    probe = ["ab", "Ωé\u0378"]
    a = tok.analyze(probe)
    assert a["tokens"] == 5
    assert a["unknown"] == sum(c not in seen for c in "".join(probe)) >= 1  # U+0378 is unassigned
    assert a["characters_per_token"] == 1.0


def test_files_counts_and_pickling(tmp_path, texts):
    path = tmp_path / "c.txt"
    path.write_text("".join(texts), encoding="utf-8")
    tok = fw.CharTokenizer.train(texts, min_frequency=2)
    assert fw.CharTokenizer.train_from_files(path, min_frequency=2) == tok
    counts: dict[str, int] = {}
    for t in texts:
        for c in t:
            counts[c] = counts.get(c, 0) + 1
    assert fw.CharTokenizer.train_from_counts(counts, min_frequency=2) == tok
    tok.save(tmp_path / "chars.json")
    assert fw.CharTokenizer.load(tmp_path / "chars.json") == tok
    assert pickle.loads(pickle.dumps(tok)) == tok
    assert fw.CharTokenizer(tok.get_vocab(), special_tokens=tok.special_tokens) == tok


def test_bad_input():
    tok = fw.CharTokenizer.train(["abc"])
    with pytest.raises(TypeError, match="text must be str"):
        tok.encode(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="corpus must be an iterable of str"):
        fw.CharTokenizer.train("abc")
    with pytest.raises(ValueError, match="unk_token"):
        fw.CharTokenizer.train(["abc"], special_tokens=["<s>"])
    with pytest.raises(ValueError, match="neither one character"):
        fw.CharTokenizer({"[UNK]": 0, "ab": 1})
    with pytest.raises(ValueError, match="out of range"):
        tok.decode([99])
    with pytest.raises(ValueError, match="not one character"):
        fw.CharTokenizer.train_from_counts({"ab": 1})
    with pytest.raises(ValueError, match="vocab_size must be >= 1, got 0"):
        fw.CharTokenizer.train(["a"], 0)


def test_analyze_equals_the_twins(texts, multilingual_lines):
    from fast_wordpiece.reference.bpe import BPETokenizer as BpeTwin

    held = [*multilingual_lines[3000:3300], "a\u2003b\x1cc  d\u3000", ""]
    chars = fw.CharTokenizer.train(texts, min_frequency=2)
    twin = Twin(chars.get_vocab(), special_tokens=chars.special_tokens)
    assert chars.analyze(held) == pytest.approx(twin.analyze(held))
    bpe = fw.BPETokenizer.train(texts, 600)
    bpe_twin = BpeTwin(bpe.get_vocab(), bpe.merges, special_tokens=bpe.special_tokens)
    assert bpe.analyze(held) == pytest.approx(bpe_twin.analyze(held))
