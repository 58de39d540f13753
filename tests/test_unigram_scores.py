"""A Unigram file's scores are read as Hugging Face ``tokenizers`` reads them (spec section 14):
``serde_json`` without ``float_roundtrip``, which reads about one number in ten one unit in the last
place away from the nearest double. On a tie between two segmentations that unit decides, so the
engine, the twin and Hugging Face must read the same doubles. Trained scores are ones a saved file
gives back bit for bit.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS

import fast_wordpiece
from fast_wordpiece import reference
from fast_wordpiece.reference.json_numbers import as_read_back, read_float, read_int

tokenizers = pytest.importorskip("tokenizers")

MODULES = {"engine": fast_wordpiece, "twin": reference}


def numbers(n: int) -> list[str]:
    """JSON numbers of every shape: shortest forms of doubles, long fractions, integers past 64
    bits, exponents far out of range of a double, upper-case exponents."""
    rng = random.Random(1)
    out = []
    for _ in range(n):
        k = rng.random()
        if k < 0.4:
            out.append(repr(-rng.random() * 20))
        elif k < 0.55:
            out.append(repr(-rng.expovariate(0.3)))
        elif k < 0.7:
            whole = rng.randrange(1, 10 ** rng.randrange(1, 25))
            out.append(f"-{whole}.{''.join(rng.choices('0123456789', k=rng.randrange(1, 30)))}")
        elif k < 0.8:
            out.append(f"-{rng.randrange(1, 10 ** rng.randrange(1, 22))}e{rng.randrange(-340, 10)}")
        elif k < 0.9:
            out.append(f"{rng.choice(['-', ''])}{rng.random():.{rng.randrange(1, 25)}e}")
        else:
            out.append(f"-{rng.randrange(1, 99999)}.{rng.randrange(0, 999999)}E-{rng.randrange(0, 330)}")
    return out


def unigram_json(scores: list[str]) -> str:
    """A Unigram tokenizer.json whose pieces ``p0``, ``p1``, ... have ``scores`` written as given."""
    vocab = ",".join(f'["p{i}", {s}]' for i, s in enumerate(scores))
    doc = json.loads(fast_wordpiece.UnigramTokenizer([("<unk>", 0.0)]).to_str())
    doc["model"]["vocab"] = "@VOCAB@"
    return json.dumps(doc).replace('"@VOCAB@"', f'[["<unk>", 0.0], {vocab}]')


def test_scores_are_read_as_hugging_face_reads_them() -> None:
    # integers past 64 bits (serde_json reads them as its decimals) and -0 (a double)
    scores = [*numbers(6000), "-575094512269232007900", "-0", "-18446744073709551616", "-18446744073709551615"]
    text = unigram_json(scores)
    theirs = [s for _, s in json.loads(tokenizers.Tokenizer.from_str(text).to_str())["model"]["vocab"]]
    assert sum(float(s) != t for s, t in zip(scores, theirs[1:])) > 300  # what is tested is there
    read = [read_float(s) if "." in s or "e" in s.lower() else float(read_int(s)) for s in scores]
    assert [0.0, *read] == theirs
    assert [str(x) for x in read[-4:]] == [str(x) for x in theirs[-4:]]  # -0.0 too
    for name, module in MODULES.items():
        ours = [s for _, s in module.UnigramTokenizer.from_str(text).get_pieces()]
        assert ours == theirs, name
        assert [str(x) for x in ours] == [str(x) for x in theirs], name


def test_a_tie_decided_by_the_last_place_segments_as_hugging_face() -> None:
    """``c`` is read one unit below Python's ``float("c")``: ``▁x`` and ``▁`` + ``x`` then tie
    exactly, and the lattice's tie rule picks what Hugging Face picks."""
    c, a = "-9.811580358989909", "-1.9423014018921236"
    assert read_float(c) != float(c)
    both = read_float(c) + read_float(a)
    text = unigram_json([a, c, repr(both)]).replace('"p0"', '"\\u2581"').replace('"p1"', '"x"')
    text = text.replace('"p2"', '"\\u2581x"')
    theirs = tokenizers.Tokenizer.from_str(text)
    for name, module in MODULES.items():
        ours = module.UnigramTokenizer.from_str(text)
        for sample in ["x", "x x", "xx x xxx"]:
            assert ours.encode(sample).tokens == theirs.encode(sample).tokens, (name, sample)


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_trained_scores_come_back_bit_for_bit_to_us_and_to_hugging_face(name: str, multilingual_lines) -> None:
    trained = MODULES[name].UnigramTokenizer.train(multilingual_lines[:3000], 1500, show_progress=False)
    pieces = trained.get_pieces()
    assert all(as_read_back(s) == s for _, s in pieces)
    text = trained.to_str()
    assert MODULES[name].UnigramTokenizer.from_str(text).get_pieces() == pieces
    theirs: list[Any] = json.loads(tokenizers.Tokenizer.from_str(text).to_str())["model"]["vocab"]
    assert [tuple(p) for p in theirs] == [tuple(p) for p in pieces]


def test_small_trained_scores_that_read_back_as_a_neighbour_settle_alike() -> None:
    """A score near 0 can read back as a neighbour that reads back as it (``...8185e-09`` and
    ``...818e-09``): training takes the nearest double that stays, in the engine and the twin."""
    counts = {"chceacbbbhg": 1428466570, "z": 4}
    engine, twin = (m.UnigramTokenizer.train_from_counts(counts, 14, show_progress=False) for m in MODULES.values())
    assert engine.get_pieces() == twin.get_pieces()
    assert fast_wordpiece.UnigramTokenizer.from_str(engine.to_str()) == engine
    theirs = json.loads(tokenizers.Tokenizer.from_str(engine.to_str()).to_str())["model"]["vocab"]
    assert [tuple(p) for p in theirs] == [tuple(p) for p in engine.get_pieces()]
    rng = random.Random(5)
    for _ in range(20000):
        x = as_read_back(-rng.random() * 10 ** -rng.uniform(0, 13))
        assert read_float(repr(x)) == x


def test_a_number_too_large_for_a_double_under_an_unknown_key_is_that_keys_error() -> None:
    """The engine skips the number of a key it does not read; the twin reads it as an infinity:
    both name the key, which no tokenizer.json has (Hugging Face refuses it too)."""
    doc = json.loads(fast_wordpiece.PyTokenizer.train(["a b"], 30, show_progress=False).to_str())
    text = json.dumps(doc)[:-1] + ', "extra": 1e400}'
    for module in MODULES.values():
        with pytest.raises(ValueError, match=r'^a tokenizer\.json has no key "extra" \(its keys: version, '):
            module.PyTokenizer.from_str(text)


def test_constructor_scores_are_kept_as_given() -> None:
    """As Hugging Face's ``Unigram(vocab)``: only a file's scores are read its way."""
    given = [("<unk>", 0.0), ("a", -9.811580358989909)]
    for module in MODULES.values():
        assert module.UnigramTokenizer(given).get_pieces() == given
