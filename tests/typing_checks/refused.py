"""Calls that must NOT type-check: a str (or a list of ids) where an integer goes, or a value the
engine refuses. Each line that mypy (--strict) must flag ends with "# E" (tests/test_typing.py)."""

from __future__ import annotations

import fast_wordpiece as fw


def calls(tok: fw.PyTokenizer, bpe: fw.BPETokenizer, unigram: fw.UnigramTokenizer) -> None:
    """Never run: mypy reads it."""
    fw.PyTokenizer.train(["hello"], "60")  # E
    tok.encode("hello", max_length="8")  # E
    tok("hello", max_length="8", truncation=True)  # E
    tok.id_to_token("5")  # E
    tok.decode("5")  # E
    tok.convert_ids_to_tokens(["5"])  # E
    # decode_batch takes sequences of ids only: one id among them is a TypeError at run time.
    tok.decode_batch([5, 6])  # E
    tok.model_max_length = "512"  # E
    fw.WordCounts({"hello": "2"})  # E
    fw.BPETokenizer({"a": "0"}, [])  # E
    bpe.decode(["1"])  # E
    bpe.id_to_token("1")  # E
    # the call takes stride=0 only (it has no overflowing windows): another int is a TypeError.
    bpe("hello", stride=2)  # E
    unigram.encode("hello", alpha=0.5, nbest="2")  # E
