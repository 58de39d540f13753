"""`fast-wordpiece compare`: the seed's table for the whole family, one command."""

from __future__ import annotations

import pytest

import fast_wordpiece
from fast_wordpiece import compare
from fast_wordpiece.cli import main


@pytest.fixture(scope="module")
def lines(shakespeare_text: str) -> list[str]:
    return [line for line in shakespeare_text[:150_000].splitlines() if line.strip()]


def test_rows_measure_what_the_seed_measures(lines):
    train, held = lines[:-300], lines[-300:]
    rows = {r.name: r for r in compare.compare(train, held, vocab_size=1000)}
    assert {"Character", "BPE (byte-level)", "WordPiece"} <= set(rows)
    bpe = fast_wordpiece.BPETokenizer.train(train, 1000)
    tokens = sum(map(len, bpe.encode_batch(held)))
    r = rows["BPE (byte-level)"]
    assert r.vocab_size == 1000
    assert r.characters_per_token == pytest.approx(sum(map(len, held)) / tokens)
    assert r.tokens_per_word == pytest.approx(tokens / sum(len(t.split()) for t in held))
    assert r.unknown_rate == 0.0
    # Characters the held-out text has and training did not see are unknown.
    char = fast_wordpiece.CharTokenizer.train(train, min_frequency=2)
    assert rows["Character"].unknown_rate == pytest.approx(char.analyze(held)["unknown_rate"])
    assert rows["Character"].characters_per_token == pytest.approx(1.0)
    assert rows["BPE (byte-level)"].tokens_per_word < rows["Character"].tokens_per_word


def test_unigram_is_used_when_the_package_has_it(lines, monkeypatch):
    class FakeUnigram:
        @staticmethod
        def train(texts, vocab_size, show_progress=True):
            return fast_wordpiece.CharTokenizer.train(texts, show_progress=show_progress)

    monkeypatch.setattr(fast_wordpiece, "UnigramTokenizer", FakeUnigram, raising=False)
    rows = compare.compare(lines[:500], lines[500:600], vocab_size=500)
    assert [r.name for r in rows][-1] == "Unigram"


def test_the_command_prints_the_table(tmp_path, lines, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(lines[:3000]), encoding="utf-8")
    assert main(["compare", str(corpus), "--vocab-size", "800"]) == 0
    out = capsys.readouterr().out
    for name in ("Character", "BPE (byte-level)", "WordPiece", "chars/token", "tokens/word", "unknown rate"):
        assert name in out
    assert main(["compare", str(corpus), "--held-out", "1.5"]) == 2
    assert main(["compare", str(tmp_path / "missing.txt")]) == 1


def test_analyze_reads_every_tokenizer_of_the_family(tmp_path, lines, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(lines[:2000]), encoding="utf-8")
    held = [line for line in lines[:2000] if line.strip()]
    for name, tok in [
        ("bpe.json", fast_wordpiece.BPETokenizer.train(lines[:2000], 600)),
        ("chars.json", fast_wordpiece.CharTokenizer.train(lines[:2000])),
    ]:
        tok.save(tmp_path / name)
        assert main(["analyze", str(tmp_path / name), str(corpus)]) == 0
        out = capsys.readouterr().out
        assert f"tokens                {tok.analyze(held)['tokens']:,}" in out
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    assert main(["analyze", str(tmp_path / "bad.json"), str(corpus)]) == 1


def test_a_tokenizer_that_fails_is_named(lines, monkeypatch, capsys, tmp_path):
    """The error says which of the family failed; what it raised is kept as the cause."""
    refusal = ValueError("the merges ran out")

    def refuse(*args, **kwargs):
        raise refusal

    monkeypatch.setattr(fast_wordpiece.BPETokenizer, "train", refuse)
    with pytest.raises(compare.ComparisonError) as info:
        compare.compare(lines[:500], lines[500:600], vocab_size=500)
    assert str(info.value) == "BPE (byte-level): the merges ran out"
    assert info.value.tokenizer == "BPE (byte-level)"
    assert info.value.error is refusal
    assert info.value.__cause__ is refusal
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(lines[:600]), encoding="utf-8")
    assert main(["compare", str(corpus), "--vocab-size", "500"]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == ("", "fast-wordpiece compare: BPE (byte-level): the merges ran out\n")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(fast_wordpiece.BPETokenizer, "train", interrupted)
    with pytest.raises(KeyboardInterrupt):  # not a failure of the tokenizer: it goes through as it is
        compare.compare(lines[:500], lines[500:600], vocab_size=500)


def test_a_vocabulary_too_small_for_one_tokenizer_names_that_one(tmp_path, capsys):
    if not hasattr(fast_wordpiece, "UnigramTokenizer"):
        pytest.skip("this build has no UnigramTokenizer")
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("hello world\nthe quick brown fox\nhello there world\n" * 30, encoding="utf-8")
    assert main(["compare", str(corpus), "--vocab-size", "10"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fast-wordpiece compare: Unigram: vocab_size (10) is too small"), err
    assert err.count("\n") == 1
