"""``analyze`` (spec section 10): counts read off the encodings, engine equal
to twin on real text, bad input, and the ``analyze`` command."""

from __future__ import annotations

import subprocess
import sys

import pytest

import fast_wordpiece

reference = pytest.importorskip("fast_wordpiece.reference")

KEYS = {"vocab_size", "texts", "words", "characters", "tokens", "unknown", "vocab_used", "tokens_per_word",
        "characters_per_token", "unknown_rate", "vocab_used_share"}  # fmt: skip


def counted(tok, texts: list[str]) -> dict[str, int]:
    """The counts of spec section 10, from ``encode`` and the twin's word splitter."""
    from fast_wordpiece.reference.options import Options

    unk = tok.token_to_id(tok.options["unk_token"])
    ids = [i for t in texts for i in tok.encode(t, add_special_tokens=False).ids]
    words = [w for t in texts for w in Options(**tok.options).words(t)]
    return {"vocab_size": tok.vocab_size, "texts": len(texts), "words": len(words),
            "characters": sum(map(len, words)), "tokens": len(ids), "unknown": ids.count(unk),
            "vocab_used": len(set(ids))}  # fmt: skip


@pytest.fixture(scope="module")
def held_out(shakespeare_text, multilingual_lines) -> list[str]:
    return shakespeare_text[-60_000:].splitlines() + multilingual_lines[-1500:] + ["", "[UNK] [CLS] x", "\u00e9\u0301"]


@pytest.fixture(scope="module")
def trained_json(shakespeare_text, multilingual_lines) -> str:
    lines = shakespeare_text[:200_000].splitlines() + multilingual_lines[:2000]
    return fast_wordpiece.PyTokenizer.train(lines, 2000, 2, show_progress=False).to_json()


def test_counts_are_those_of_the_encodings(Tokenizer, trained_json, held_out):
    tok = Tokenizer.from_json(trained_json)
    stats = tok.analyze(held_out)
    assert set(stats) == KEYS
    expected = counted(tok, held_out)
    assert {k: stats[k] for k in expected} == expected
    assert stats["tokens_per_word"] == expected["tokens"] / expected["words"]
    assert stats["characters_per_token"] == expected["characters"] / expected["tokens"]
    assert stats["unknown_rate"] == expected["unknown"] / expected["tokens"]
    assert stats["vocab_used_share"] == expected["vocab_used"] / expected["vocab_size"]
    assert 0 < stats["unknown"] < stats["tokens"]


def test_engine_equals_twin_on_a_loaded_vocab(bert_vocab_file, held_out):
    engine = fast_wordpiece.PyTokenizer.from_vocab_file(bert_vocab_file).analyze(held_out)
    twin = reference.PyTokenizer.from_vocab_file(bert_vocab_file).analyze(held_out)
    assert engine == twin
    assert engine["vocab_size"] == 30522


def test_nothing_to_analyze_gives_zeros(Tokenizer, trained_json):
    stats = Tokenizer.from_json(trained_json).analyze([])
    assert stats["tokens"] == stats["words"] == stats["vocab_used"] == 0
    assert stats["tokens_per_word"] == stats["unknown_rate"] == 0.0


def test_generators_work(Tokenizer, trained_json, held_out):
    tok = Tokenizer.from_json(trained_json)
    assert tok.analyze(x for x in held_out[:50]) == tok.analyze(held_out[:50])


def test_bad_input_names_the_problem(Tokenizer, trained_json):
    tok = Tokenizer.from_json(trained_json)
    with pytest.raises(TypeError, match="texts"):
        tok.analyze("one text")
    with pytest.raises(TypeError, match=r"texts\[1\]"):
        tok.analyze(["fine", 3])
    with pytest.raises(TypeError, match="texts"):
        tok.analyze(5)


def test_the_analyze_command(tmp_path, trained_json, bert_vocab_file, held_out):
    text = tmp_path / "held.txt"
    text.write_text("\n".join(held_out[:400]) + "\n", encoding="utf-8")
    (tmp_path / "t.json").write_text(trained_json, encoding="utf-8")
    for source, tok in [
        (tmp_path / "t.json", fast_wordpiece.PyTokenizer.from_json(trained_json)),
        (bert_vocab_file, fast_wordpiece.PyTokenizer.from_vocab_file(bert_vocab_file)),
    ]:
        out = subprocess.run(
            [sys.executable, "-m", "fast_wordpiece", "analyze", str(source), str(text)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        expected = tok.analyze(text.read_text(encoding="utf-8").splitlines())
        assert f"tokens                {expected['tokens']:,}" in out
        assert f"vocab_used_share      {expected['vocab_used_share']:,.4f}" in out
    missing = subprocess.run(
        [sys.executable, "-m", "fast_wordpiece", "analyze", str(tmp_path / "none.json"), str(text)],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 1
    assert "none.json" in missing.stderr
