"""Hugging Face parity on real text: the hard requirement.

For a BERT vocab.txt, ``fast_wordpiece.PyTokenizer.from_vocab_file(path)`` must
produce exactly what ``tokenizers.BertWordPieceTokenizer(path)`` produces: ids,
tokens, offsets, type_ids, special_tokens_mask, attention_mask, word_ids,
sequence_ids, and
``decode(ids)`` with and without ``skip_special_tokens``.

Inputs: thousands of real lines (Shakespeare, GCIDE, fortunes in English,
German, Russian and Chinese), generated lines full of accents, emoji, control
characters, NUL, U+FFFD, zero-width characters and literal special tokens, and
pairs of consecutive lines. Three vocab.txt files: bert-base-uncased's own,
one trained by Hugging Face, one trained by our engine (each loaded by both
tokenizers). Also: four pipeline
option sets, every Unicode code point (in runs of 48 neighbours), and minimal
canonical-decomposition cases (reordered combining marks, marks and
decompositions newer than HF's Unicode tables), the latter for the twin too.
The pure-Python twin is checked on a subset of the real and generated inputs.

The number of inputs checked is printed at the end of the run (section
"Hugging Face parity", from conftest.pytest_terminal_summary) and by
``test_zz_parity_line_count`` (visible with ``-rA``).
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

tokenizers = pytest.importorskip("tokenizers")
import fast_wordpiece  # noqa: E402

FIELDS = ("ids", "tokens", "offsets", "type_ids", "special_tokens_mask", "attention_mask", "word_ids", "sequence_ids")
VOCABS = ("bert-base-uncased", "hf_trained", "engine_trained")
SOURCES = ("shakespeare", "gcide", "fortunes-en", "fortunes-de", "fortunes-ru", "fortunes-zh", "generated")

# How many single lines / pairs each source contributes (per vocab).
N_LINES = {
    "shakespeare": 3000,
    "gcide": 2000,
    "fortunes-en": 1500,
    "fortunes-de": 1500,
    "fortunes-ru": 1500,
    "fortunes-zh": 1500,
    "generated": 2500,
}
N_PAIRS = 300
TWIN_LINES_PER_SOURCE = 40  # the pure-Python twin: a few hundred inputs in all
TWIN_PAIRS_PER_SOURCE = 8
SHOW_MISMATCHES = 3

# ----------------------------------------------------------------------------- readable diffs


def encoding_fields(enc: Any) -> dict[str, list]:
    """The comparable fields of an Encoding (ours or HF's), offsets as tuples."""
    out = {f: list(getattr(enc, f)) for f in FIELDS}
    out["offsets"] = [tuple(o) for o in out["offsets"]]
    return out


def _chars(text: str, lo: int, hi: int) -> str:
    lo, hi = max(0, lo), min(len(text), hi)
    rows = []
    for i in range(lo, hi):
        c = text[i]
        rows.append(f"      [{i}] U+{ord(c):04X} {unicodedata.name(c, '<unnamed ' + unicodedata.category(c) + '>')}")
    return "\n".join(rows)


def diff_encodings(
    text: str,
    pair: str | None,
    ours: dict[str, list],
    theirs: dict[str, list],
    ours_name: str = "fast_wordpiece",
    theirs_name: str = "HF",
    context: int = 4,
) -> str:
    """A readable report of how two encodings (as from ``encoding_fields``) of one input differ."""
    lines = [f"input text: {text!r}"]
    if pair is not None:
        lines.append(f"input pair: {pair!r}")
    first_bad = None
    for f in FIELDS:
        a, b = ours[f], theirs[f]
        if a == b:
            continue
        i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        first_bad = i if first_bad is None else min(first_bad, i)
        lines.append(f"  {f}: first difference at index {i} (lengths {ours_name} {len(a)}, {theirs_name} {len(b)})")
    if first_bad is None:
        lines.append("  (encodings are equal)")
        return "\n".join(lines)
    lo = max(0, first_bad - context)
    hi = first_bad + context + 1
    width = 26
    lines.append(f"  {'':>5} {ours_name:<{width * 2 + 8}} | {theirs_name}")
    for k in range(lo, hi):
        cells = []
        for side in (ours, theirs):
            if k < len(side["ids"]):
                tok = repr(side["tokens"][k])[:width]
                cells.append(
                    f"{side['ids'][k]:>6} {tok:<{width}} {side['offsets'][k]!s:<12} "
                    f"t{side['type_ids'][k]} s{side['special_tokens_mask'][k]} a{side['attention_mask'][k]}"
                )
            else:
                cells.append("-")
        mark = ">>" if k == first_bad else "  "
        lines.append(f"  {mark}{k:>3} {cells[0]:<{width * 2 + 8}} | {cells[1]}")
    # The characters around the first differing offset (in A or B, by type id).
    for side in (ours, theirs):
        if first_bad < len(side["offsets"]):
            s, e = side["offsets"][first_bad]
            src = pair if (pair is not None and side["type_ids"][first_bad] == 1) else text
            if (s, e) != (0, 0) and src:
                lines.append(f"  characters near offset {(s, e)} of the {'pair' if src is pair else 'text'}:")
                if e - s <= 8:
                    lines.append(_chars(src, s - 2, e + 2))
                else:
                    lines.append(_chars(src, s - 2, s + 4))
                    lines.append("      ...")
                    lines.append(_chars(src, e - 3, e + 2))
                break
    lines.append(f"  {ours_name} tokens: {ours['tokens'][:80]}")
    lines.append(f"  {theirs_name} tokens: {theirs['tokens'][:80]}")
    return "\n".join(lines)


def diff_decode(ids: Sequence[int], skip: bool, ours: str, theirs: str, ours_name: str = "fast_wordpiece") -> str:
    i = next((k for k, (x, y) in enumerate(zip(ours, theirs)) if x != y), min(len(ours), len(theirs)))
    return (
        f"decode(ids, skip_special_tokens={skip}) differs at char {i}\n"
        f"  ids: {list(ids)[:80]}\n  {ours_name}: {ours!r}\n  HF: {theirs!r}"
    )


# ----------------------------------------------------------------------------- generated inputs

ASCII_WORDS = [
    "hello",
    "world",
    "The",
    "QUICK",
    "don't",
    "isn't",
    "I'm",
    "we've",
    "they're",
    "it's",
    "unaffable",
    "running",
    "e-mail",
    "U.S.A.",
    "3.14159",
    "1,000,000",
    "$5",
    "50%",
    "C++",
    "foo_bar",
    "a/b",
    "x@y.com",
    "#hashtag",
    "@user",
    "http://example.com/a?b=c&d=e",
    "...",
    "?!",
    "(parens)",
    "{braces}",
    "`tick`",
    "~tilde^",
    "a|b",
    "back\\slash",
    '"quoted"',
    "'single'",
]
ACCENTED = [
    "café",
    "naïve",
    "résumé",
    "Ångström",
    "İstanbul",
    "ıi",
    "Straße",
    "ẞ",
    "ﬁnance",
    "ﬀ",
    "e\u0301",
    "n\u0303o",
    "a\u0308\u0304",
    "\u0301alone",
    "Ω",
    "ΟΔΟΣ",
    "Σίσυφος",
    "ǅemal",
    "Ⅻ",
    "Ǳ",
    "ŉ",
    "\u212a",
    "\u212b",
    "ϓ",
    "ΐ",
    "Ǆ",
    "Ꭰ",
    "ﬓ",
    "Ĳssel",
    "ǰ",
    "Ὀδυσσεύς",
    "crème brûlée",
    "Việt Nam",
    "Łódź",
    "Øre",
    "¿Qué?",
    "¡Hola!",
    "«guillemets»",
    "“curly”",
    "‘single’",
    "—",
    "–",
    "…",
    "·",
    "\u0345",
    "ᾳ",
]
EMOJI = [
    "👍",
    "👍🏽",
    "👨\u200d👩\u200d👧",
    "🇩🇪",
    "❤️",
    "☃",
    "🙂🙃",
    "🏳️\u200d🌈",
    "\U0001f600" * 3,
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "𝟙𝟚",
    "©",
    "®",
    "™",
    "°C",
    "½",
    "²",
    "€",
    "¥",
    "§",
    "¶",
    "★",
    "♪",
    "→",
    "∑",
    "√",
    "∞",
    "≠",
]
CONTROL = [
    "\x00",
    "\x01",
    "\x07",
    "\x1b[31m",
    "\x7f",
    "\x85",
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u00ad",
    "\u202e",
    "\ue000",
    "\U000f0000",
    "\ufffd",
    "\r\n",
    "\t",
    "\u3000",
    "\u00a0",
    "\u2028",
    "\u2029",
    "\u1680",
    "\u202f",
    "\v",
    "\f",
    "\x1c",
    "\x1f",
    "\u0600",
    "\U000e0001",
    "\u0378",
    "\U0010ffff",
    "\ufffe",
    "\u180e",
    "\u2000",
    "\u200a",
    "\u205f",
    "\u061c",
    "\x9f",
    "\x80",
]
SCRIPTS = [
    "中文字符",
    "日本語のテキスト",
    "한국어 텍스트",
    "עברית",
    "العربية",
    "हिन्दी",
    "ไทย",
    "ελληνικά",
    "ქართული",
    "𠀀𠀁",
    "〇",
    "々",
    "㐀",
    "豈",
    "丽",
    "\U0002b81f",
    "\U0002b820",
    "\U0002b91f",
    "\U0002b920",
    "\U00030000",
    "\u9fff",
    "\ua000",
    "ｆｕｌｌｗｉｄｔｈ",
    "ﾊﾝｶｸ",
    "Русский",
    "ЁЖИК",
    "Ўзбек",
    "Հայերեն",
    "አማርኛ",
    "ᚠᛁᚱ",
    "\u4e00\u9fa5",
    "\u3400\u4dbf",
    "\uf900\ufaff",
    "\U0002f800\U0002fa1f",
    "\U0002a6df\U0002a700",
]
SPECIAL = [
    "[SEP]",
    "[MASK]",
    "[CLS]",
    "[UNK]",
    "[PAD]",
    "[sep]",
    "[Sep]",
    "[SEP",
    "SEP]",
    "[[SEP]]",
    "[SEP][SEP]",
    "x[MASK]y",
    "[MASK].",
    "##",
    "##ing",
    "[ SEP ]",
    "[SEP]\u0301",
    "[S\u200bEP]",
    "[MASK][CLS][UNK]",
    "\x00[SEP]\x00",
    "[SEP]]",
    "[[MASK]",
    "word[SEP]word",
    "[MA\u0000SK]",
]
LONG = ["a" * 100, "a" * 101, "é" * 101, "supercalifragilistic" * 6, "1234567890" * 11, "ab" * 49 + "é"]
SEPARATORS = [" ", " ", " ", "", "  ", "\t", "\n", "\u3000", "-", ", ", ". ", "\u00a0", "\u200b"]
FIXED = [
    "",
    " ",
    "   ",
    "\n",
    "\t\t",
    "\x00",
    "\ufffd",
    "\x00\ufffd\u200b",
    "[SEP]",
    "   [MASK]   ",
    ".",
    "..",
    "'",
    "don't stop",
    "I 'm",
    "a . b , c ! d ? e",
    "do not",
    "' s",
    "n't",
    "are n't",
    " ' ",
    "x ' y",
]


def generated_lines(real: Sequence[str], n: int, seed: int = 20240229) -> list[str]:
    """``n`` deterministic nasty lines: fixed cases, each fragment alone, random mixes, mutated real lines."""
    rng = random.Random(seed)
    groups = [ASCII_WORDS, ACCENTED, EMOJI, CONTROL, SCRIPTS, SPECIAL, LONG]
    fragments = [f for g in groups for f in g]
    out = list(FIXED) + fragments + [f"{f} {f}" for f in fragments] + [f"x{f}y" for f in fragments]
    while len(out) < n:
        kind = rng.random()
        if kind < 0.55:
            parts = [rng.choice(rng.choice(groups)) for _ in range(rng.randint(1, 12))]
            out.append("".join(p + rng.choice(SEPARATORS) for p in parts))
        else:  # a real line with fragments inserted at random places
            line = rng.choice(real)
            for _ in range(rng.randint(1, 4)):
                pos = rng.randint(0, len(line))
                line = line[:pos] + rng.choice(rng.choice(groups)) + line[pos:]
            out.append(line)
    return out[:n]


def _spread(lines: Sequence[str], n: int) -> list[str]:
    """``n`` lines taken at an even stride over all of ``lines`` (deterministic)."""
    if len(lines) <= n:
        return list(lines)
    step = len(lines) / n
    return [lines[int(i * step)] for i in range(n)]


def _pairs(lines: Sequence[str], n: int) -> list[tuple[str, str]]:
    """``n`` pairs of consecutive lines, spread over ``lines``."""
    if len(lines) < 2:
        return []
    step = max(1, (len(lines) - 1) // n)
    return [(lines[i], lines[i + 1]) for i in range(0, len(lines) - 1, step)][:n]


@pytest.fixture(scope="session")
def source_lines(
    shakespeare_lines: list[str],
    gcide_lines: list[str],
    fortunes: dict[str, list[str]],
) -> dict[str, list[str]]:
    """All lines of each source (the tests take spread-out samples)."""
    real = (
        _spread(shakespeare_lines, 2000)
        + _spread(fortunes["de"], 500)
        + _spread(fortunes["ru"], 500)
        + _spread(fortunes["zh"], 500)
    )
    gen = generated_lines(real, N_LINES["generated"])
    replaced = [line for line in gcide_lines if "\ufffd" in line]
    return {
        "shakespeare": shakespeare_lines,
        # the U+FFFD lines first so the sample surely holds them
        "gcide": replaced + _spread(gcide_lines, N_LINES["gcide"] - len(replaced)),
        "fortunes-en": fortunes["en"],
        "fortunes-de": fortunes["de"],
        "fortunes-ru": fortunes["ru"],
        "fortunes-zh": fortunes["zh"],
        "generated": gen,
    }


@pytest.fixture(scope="session")
def source_inputs(source_lines: dict[str, list[str]]) -> dict[str, tuple[list[str], list[tuple[str, str]]]]:
    """``{source: (single lines, pairs)}`` as checked for each vocab."""
    return {name: (_spread(lines, N_LINES[name]), _pairs(lines, N_PAIRS)) for name, lines in source_lines.items()}


# ----------------------------------------------------------------------------- tokenizers


@pytest.fixture(scope="session")
def vocab_files(bert_vocab_file: Path, hf_vocab_file: Path, engine_vocab_file: Path) -> dict[str, Path]:
    return {"bert-base-uncased": bert_vocab_file, "hf_trained": hf_vocab_file, "engine_trained": engine_vocab_file}


@pytest.fixture(scope="session")
def tokenizer_pairs(vocab_files: dict[str, Path], parity_stats: dict[str, int]) -> dict[str, tuple[Any, Any]]:
    """``{vocab kind: (our PyTokenizer, HF BertWordPieceTokenizer)}``, both from the same vocab.txt."""
    parity_stats["vocabs"] = len(vocab_files)
    return {
        kind: (fast_wordpiece.PyTokenizer.from_vocab_file(str(path)), tokenizers.BertWordPieceTokenizer(str(path)))
        for kind, path in vocab_files.items()
    }


def _record(stats: dict[str, int], key: str, n: int) -> None:
    stats[key] = stats.get(key, 0) + n


# ----------------------------------------------------------------------------- the checks


def check_parity(
    ours_tok: Any,
    hf_tok: Any,
    inputs: Sequence[Any],
    *,
    add_special_tokens: bool = True,
    ours_name: str = "fast_wordpiece",
    batch: bool = True,
    single_every: int = 10,
) -> list[str]:
    """Compare ``ours_tok`` with HF on ``inputs`` (str or (a, b)); return readable mismatch reports.

    Encodes with ``encode_batch`` on both sides (and ``encode`` one at a time on
    every ``single_every``-th input, or on all when ``batch`` is false), then
    compares the six fields and both decodes of every input.
    """
    problems: list[str] = []
    if batch:
        ours_encs = ours_tok.encode_batch(list(inputs), add_special_tokens=add_special_tokens)
    else:
        ours_encs = [
            ours_tok.encode(x[0], x[1], add_special_tokens=add_special_tokens)
            if isinstance(x, tuple)
            else ours_tok.encode(x, add_special_tokens=add_special_tokens)
            for x in inputs
        ]
    hf_encs = hf_tok.encode_batch(list(inputs), add_special_tokens=add_special_tokens)
    assert len(ours_encs) == len(hf_encs) == len(inputs)
    all_ids = []
    for k, (x, ours, theirs) in enumerate(zip(inputs, ours_encs, hf_encs)):
        text, pair = x if isinstance(x, tuple) else (x, None)
        a, b = encoding_fields(ours), encoding_fields(theirs)
        if a != b:
            problems.append(
                f"[input #{k}, add_special_tokens={add_special_tokens}]\n" + diff_encodings(text, pair, a, b, ours_name)
            )
        elif batch and single_every and k % single_every == 0:
            single = ours_tok.encode(text, pair, add_special_tokens=add_special_tokens)
            s = encoding_fields(single)
            if s != b:
                problems.append(
                    f"[input #{k}: encode() differs from HF though encode_batch() agrees]\n"
                    + diff_encodings(text, pair, s, b, ours_name + ".encode")
                )
        all_ids.append(b["ids"])
    for skip in (False, True):
        theirs_dec = hf_tok.decode_batch(all_ids, skip_special_tokens=skip)
        for ids, expected in zip(all_ids, theirs_dec):
            got = ours_tok.decode(ids, skip_special_tokens=skip)
            if got != expected:
                problems.append(diff_decode(ids, skip, got, expected, ours_name))
    return problems


def _fail_report(problems: list[str], total: int, what: str) -> str:
    shown = min(len(problems), SHOW_MISMATCHES)
    head = f"{len(problems)} mismatch(es) over {total} inputs ({what}); the first {shown}:\n\n"
    return head + "\n\n".join(problems[:SHOW_MISMATCHES])


def test_both_tokenizers_read_the_same_vocab(tokenizer_pairs):
    for kind, (ours, hf) in tokenizer_pairs.items():
        assert ours.get_vocab() == hf.get_vocab(), kind
        assert ours.vocab_size == hf.get_vocab_size(), kind


def test_engine_trained_vocab_is_a_bert_vocab(engine_vocab_file):
    tokens = engine_vocab_file.read_text(encoding="utf-8").splitlines()
    assert tokens[:5] == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    assert len(tokens) == len(set(tokens)) == 8000


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("vocab", VOCABS)
def test_single_lines_match_hf(vocab, source, tokenizer_pairs, source_inputs, parity_stats):
    ours, hf = tokenizer_pairs[vocab]
    lines, _ = source_inputs[source]
    problems = check_parity(ours, hf, lines)
    _record(parity_stats, "engine_inputs", len(lines))
    _record(parity_stats, "engine_lines", len(lines))
    _record(parity_stats, f"source:{source} lines", len(lines))
    _record(parity_stats, "engine_mismatches", len(problems))
    assert not problems, _fail_report(problems, len(lines), f"{vocab} vocab, {source}")


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("vocab", VOCABS)
def test_pairs_match_hf(vocab, source, tokenizer_pairs, source_inputs, parity_stats):
    ours, hf = tokenizer_pairs[vocab]
    _, pairs = source_inputs[source]
    problems = check_parity(ours, hf, pairs)
    _record(parity_stats, "engine_inputs", len(pairs))
    _record(parity_stats, "engine_pairs", len(pairs))
    _record(parity_stats, f"source:{source} pairs", len(pairs))
    _record(parity_stats, "engine_mismatches", len(problems))
    assert not problems, _fail_report(problems, len(pairs), f"{vocab} vocab, {source} pairs")


@pytest.mark.parametrize("vocab", VOCABS)
def test_without_special_tokens_match_hf(vocab, tokenizer_pairs, source_inputs, parity_stats):
    ours, hf = tokenizer_pairs[vocab]
    inputs: list[Any] = []
    for lines, pairs in source_inputs.values():
        inputs += lines[::10] + pairs[::10]
    problems = check_parity(ours, hf, inputs, add_special_tokens=False)
    _record(parity_stats, "engine_inputs", len(inputs))
    _record(parity_stats, "engine_lines", len(inputs))
    _record(parity_stats, "source:add_special_tokens=False", len(inputs))
    _record(parity_stats, "engine_mismatches", len(problems))
    assert not problems, _fail_report(problems, len(inputs), f"{vocab} vocab, add_special_tokens=False")


# Pipeline options HF's BertWordPieceTokenizer takes too, on a quarter of the inputs (HF-trained vocab).
OPTION_SETS = [
    {"lowercase": False},
    {"lowercase": False, "strip_accents": True},
    {"strip_accents": False},
    {"clean_text": False, "handle_chinese_chars": False},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_pipeline_options_match_hf(options, hf_vocab_file, source_inputs, parity_stats):
    ours = fast_wordpiece.PyTokenizer.from_vocab_file(str(hf_vocab_file), **options)
    hf = tokenizers.BertWordPieceTokenizer(str(hf_vocab_file), **options)
    inputs: list[Any] = []
    for lines, pairs in source_inputs.values():
        inputs += lines[::4] + pairs[::4]
    problems = check_parity(ours, hf, inputs, single_every=0)
    _record(parity_stats, "engine_inputs", len(inputs))
    _record(parity_stats, "engine_lines", len(inputs))
    _record(parity_stats, "source:pipeline options", len(inputs))
    _record(parity_stats, "engine_mismatches", len(problems))
    assert not problems, _fail_report(problems, len(inputs), f"options {options}")


def codepoint_lines(width: int = 48) -> list[str]:
    """Every code point but the surrogates, ``width`` consecutive ones per line, twice: packed, and space-separated."""
    cps = [c for c in range(1, 0x110000) if not 0xD800 <= c <= 0xDFFF]
    out = []
    for i in range(0, len(cps), width):
        chunk = [chr(c) for c in cps[i : i + width]]
        out.append("".join(chunk))
        out.append(" ".join(chunk))
    return out


def test_every_code_point_matches_hf(tokenizer_pairs, parity_stats):
    """All of Unicode through the default pipeline, in runs of 48 neighbours (so marks meet each other)."""
    inputs = codepoint_lines()
    problems: list[str] = []
    for kind, (ours, hf) in tokenizer_pairs.items():
        problems += [f"[{kind} vocab] {p}" for p in check_parity(ours, hf, inputs, single_every=0)]
    _record(parity_stats, "engine_inputs", 2 * len(inputs))
    _record(parity_stats, "engine_lines", 2 * len(inputs))
    _record(parity_stats, "source:code point sweep", 2 * len(inputs))
    _record(parity_stats, "engine_mismatches", len(problems))
    assert not problems, _fail_report(problems, 2 * len(inputs), "every code point")


# Minimal inputs where canonical decomposition (NFD, run when strip_accents is on) is
# delicate; each was found by the code-point sweep and shrunk to two or three characters.
UNICODE_EDGE_CASES = {
    # Canonical reordering moves a spacing mark (Mc, ccc > 0) before a non-spacing one that
    # strip_accents then drops: HF gives the survivor the alignment of its new POSITION.
    "reorder-Mc-after-Mn-balinese": "a\u0300\u1b44",
    "reorder-Mc-after-Mn-hangul-tone": "a\u0300\u302f",
    "reorder-Mc-after-Mn-javanese": "a\u0300\ua9c0",
    "reorder-khojki-virama-nukta": "\U00011235\U00011236",
    "reorder-hangul-tone-marks": "\u302c\u302f",
    "reorder-musical-symbols": "\U0001d16d\U0001d180",
    # Marks whose canonical combining class is newer than HF's Unicode tables (reordered by
    # one side only).
    "new-ccc-arabic-u08ce": "\u08ce\u08d0",
    "new-ccc-u1df9": "\u1df9\u1dfa",
    "new-ccc-u1aed": "\u1aed\u1aef",
    # Canonical decompositions newer than HF's tables (Unicode 13 and 16).
    "new-decomposition-dives-akuru-u11938": "a\U00011938",
    "new-decomposition-kirat-rai-u16d68": "a\U00016d68",
    "new-decomposition-kirat-rai-u16d6a": "a\U00016d6a",
    # Controls: precomposed accents, ordinary reordering of two Mn marks.
    "control-vietnamese": "Vi\u1ec7t Nam",
    "control-two-mn": "a\u0301\u0323",
}


@pytest.fixture(scope="session")
def marks_vocab_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A vocab.txt holding every character of UNICODE_EDGE_CASES (and their NFD parts), alone and as ##continuation."""
    chars = sorted({c for text in UNICODE_EDGE_CASES.values() for c in text + unicodedata.normalize("NFD", text)})
    chars += [chr(c) for c in range(0x16D63, 0x16D6B)]  # Kirat Rai vowels (decomposition parts)
    chars += ["\U00011935", "\U00011930"]  # Dives Akuru (decomposition parts)
    tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    for c in dict.fromkeys(chars):
        if c.strip():
            tokens += [c, "##" + c]
    path = tmp_path_factory.mktemp("marks_vocab") / "vocab.txt"
    path.write_text("\n".join(dict.fromkeys(tokens)) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("case", sorted(UNICODE_EDGE_CASES))
@pytest.mark.parametrize("impl", ["engine", "twin"])
def test_unicode_normalization_edge_cases_match_hf(impl, case, marks_vocab_file, hf_vocab_file):
    cls = pytest.importorskip("fast_wordpiece.reference").PyTokenizer if impl == "twin" else fast_wordpiece.PyTokenizer
    text = UNICODE_EDGE_CASES[case]
    problems = []
    for path in (marks_vocab_file, hf_vocab_file):
        ours = cls.from_vocab_file(str(path))
        hf = tokenizers.BertWordPieceTokenizer(str(path))
        problems += [
            f"[{path.parent.name}] {p}"
            for p in check_parity(ours, hf, [text, "x " + text + " y"], batch=False, ours_name=impl)
        ]
    assert not problems, _fail_report(problems, 4, f"{impl}: {case}")


def test_twin_matches_hf(vocab_files, source_inputs, parity_stats):
    reference = pytest.importorskip("fast_wordpiece.reference")
    problems: list[str] = []
    total = 0
    for kind, path in vocab_files.items():
        twin = reference.PyTokenizer.from_vocab_file(str(path))
        hf = tokenizers.BertWordPieceTokenizer(str(path))
        inputs: list[Any] = []
        for lines, pairs in source_inputs.values():
            inputs += _spread(lines, TWIN_LINES_PER_SOURCE) + _spread(pairs, TWIN_PAIRS_PER_SOURCE)
        total += len(inputs)
        problems += [f"[{kind} vocab] {p}" for p in check_parity(twin, hf, inputs, batch=False, ours_name="twin")]
    _record(parity_stats, "twin_inputs", total)
    _record(parity_stats, "twin_mismatches", len(problems))
    assert not problems, _fail_report(problems, total, "twin")


def test_zz_parity_line_count(parity_stats):
    """Runs last: reports how many inputs were checked against HF (see also the terminal summary)."""
    if "engine_inputs" not in parity_stats:
        pytest.skip("no parity test ran")
    n = parity_stats["engine_inputs"]
    print(
        f"HF parity checked on {n:,} inputs ({parity_stats.get('engine_lines', 0):,} lines + "
        f"{parity_stats.get('engine_pairs', 0):,} pairs) over {len(VOCABS)} vocab.txt files; "
        f"{parity_stats.get('engine_mismatches', 0)} mismatching"
    )
    assert n >= 1000
