"""WordCounts and count_words (spec section 13): the counting training does, merged
from parts, pickled, saved and loaded, in the engine and the twin alike."""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import struct
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path
from types import ModuleType

import pytest

import fast_wordpiece
import fast_wordpiece.reference

MODULES = {"engine": fast_wordpiece, "twin": fast_wordpiece.reference}
OBJECTIVES = ["likelihood", "pmi", "frequency"]


@pytest.fixture(params=sorted(MODULES))
def fw(request: pytest.FixtureRequest) -> ModuleType:
    return MODULES[request.param]


@pytest.fixture(scope="module")
def corpus_files(tmp_path_factory: pytest.TempPathFactory, shakespeare_text: str, multilingual_lines: list[str]):
    """Four files of real text: Shakespeare in three parts (CRLF in one), and de/ru/zh lines."""
    out = tmp_path_factory.mktemp("corpus")
    text = shakespeare_text[:900_000]
    parts = [text[:300_000], text[300_000:600_000].replace("\n", "\r\n"), text[600_000:]]
    parts.append("\n".join(multilingual_lines[:3000]) + "\n")
    paths = []
    for i, part in enumerate(parts):
        path = out / f"part{i}.txt"
        path.write_bytes(part.encode())
        paths.append(path)
    return paths


def test_engine_and_twin_count_alike_and_write_the_same_bytes(shakespeare_lines, multilingual_lines):
    texts = shakespeare_lines[:3000] + multilingual_lines[:1000]
    for options in [{}, {"lowercase": False}, {"pre_tokenizer": "wordpunct", "strip_accents": False}]:
        engine = fast_wordpiece.count_words(texts, **options)
        twin = fast_wordpiece.reference.count_words(texts, **options)
        assert engine.items() == twin.items()
        assert engine.options == twin.options
        assert engine.total == twin.total == sum(n for _, n in engine.items())
        assert engine.to_bytes() == twin.to_bytes()
        assert fast_wordpiece.WordCounts.from_bytes(twin.to_bytes()) == engine
        assert fast_wordpiece.reference.WordCounts.from_bytes(engine.to_bytes()) == twin


def test_counts_of_parts_merge_into_the_counts_of_the_whole(fw, shakespeare_lines):
    texts = shakespeare_lines[:4000]
    whole = fw.count_words(texts)
    parts = [fw.count_words(texts[i : i + 1000]) for i in range(0, 4000, 1000)]
    merged = parts[0] + parts[1]
    merged.update(parts[2])
    merged += parts[3]
    assert merged == whole
    assert merged.items() == whole.items()
    assert parts[0] + parts[1] == parts[1] + parts[0]
    assert len(parts[0]) < len(whole)  # a + b made a new value
    assert (merged.total, len(merged)) == (whole.total, len(whole))


def test_from_files_counts_what_train_from_files_trains_on(corpus_files, fw):
    if fw is fast_wordpiece.reference:
        corpus_files = corpus_files[:1]
    counts = fw.WordCounts.from_files(corpus_files)
    lines = [line.removesuffix("\r") for p in corpus_files for line in p.read_text(encoding="utf-8").split("\n")]
    assert counts == fw.count_words(lines)


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_training_on_merged_file_counts_equals_train_from_files(corpus_files, tmp_path, objective):
    single = fast_wordpiece.PyTokenizer.train_from_files(corpus_files, 3000, objective=objective, show_progress=False)
    saved = []
    for i, path in enumerate(corpus_files):  # one machine per file
        out = tmp_path / f"{i}.fwc"
        fast_wordpiece.WordCounts.from_files(path).save(out)
        saved.append(out)
    counts = fast_wordpiece.WordCounts.load(saved[0])
    for path in saved[1:]:
        counts.update(fast_wordpiece.WordCounts.load(path))
    trained = fast_wordpiece.PyTokenizer.train_from_counts(counts, 3000, objective=objective, show_progress=False)
    assert trained.get_vocab() == single.get_vocab()
    assert trained.to_json() == single.to_json()


def test_training_takes_the_options_of_the_counts(fw):
    texts = ["Größe Straße GRÖSSE", "Café café CAFÉ", "naïve Naïve"] * 3
    counts = fw.count_words(texts, lowercase=False, pre_tokenizer="whitespace")
    tok = fw.PyTokenizer.train_from_counts(counts, 60, show_progress=False)
    expected = fw.PyTokenizer.train(texts, 60, lowercase=False, pre_tokenizer="whitespace", show_progress=False)
    assert tok.get_vocab() == expected.get_vocab()
    assert tok.to_json() == expected.to_json()
    # An explicit option with the same effect is fine, a different one is not.
    fw.PyTokenizer.train_from_counts(counts, 60, lowercase=False, strip_accents=False, show_progress=False)
    with pytest.raises(ValueError, match=r"made with lowercase=False, not lowercase=True"):
        fw.PyTokenizer.train_from_counts(counts, 60, lowercase=True, show_progress=False)
    with pytest.raises(ValueError, match=r'pre_tokenizer="whitespace", not pre_tokenizer="bert"'):
        fw.PyTokenizer.train_from_counts(counts, 60, pre_tokenizer="bert", show_progress=False)
    # Options that do not change counting are the caller's.
    other = fw.PyTokenizer.train_from_counts(counts, 60, unk_token="[UNK]", decoder_cleanup=False, show_progress=False)
    assert other.get_vocab() == tok.get_vocab()


def test_counts_made_with_different_options_do_not_merge(fw):
    a = fw.count_words(["Hello world"])
    with pytest.raises(ValueError, match="lowercase=True and lowercase=False"):
        a + fw.count_words(["Hello world"], lowercase=False)
    with pytest.raises(ValueError, match=r'pre_tokenizer="bert" and pre_tokenizer="regex"'):
        a.update(fw.count_words(["x"], pre_tokenizer="regex"))
    assert a.items() == [("hello", 1), ("world", 1)]  # untouched by the failed update
    a.update(fw.count_words(["hello"], strip_accents=True))  # None follows lowercase: the same effect
    assert a["hello"] == 2
    with pytest.raises(TypeError, match="WordCounts"):
        a.update({"x": 1})
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        fw.count_words(["x"], unk_token="[UNK]")


def test_strip_all_marks_without_strip_accents_is_no_option_at_all(fw):
    """``strip_all_marks`` does nothing when accents are kept (spec section 2), so counts made with
    and without it are the same counts: equal, added up, trained on with either."""
    texts = ["Café naïve Größe", "ab"]
    for kept in ({"lowercase": False}, {"strip_accents": False}):
        marks = fw.count_words(texts, strip_all_marks=True, **kept)
        plain = fw.count_words(texts, **kept)
        assert marks == plain
        assert (marks + plain).items() == [(w, 2 * n) for w, n in plain.items()]
        fw.PyTokenizer.train_from_counts(marks, 60, strip_all_marks=False, show_progress=False, **kept)
    # With accents stripped it is an option, named by its effect.
    with pytest.raises(ValueError, match="strip_all_marks=True and strip_all_marks=False"):
        fw.count_words(texts, strip_all_marks=True, lowercase=False, strip_accents=True) + fw.count_words(
            texts, lowercase=False, strip_accents=True
        )


def test_the_mapping(fw):
    counts = fw.WordCounts({"b": 2, "a": 2, "c": 5, "d": 1}, pre_tokenizer="whitespace")
    assert list(counts) == counts.keys() == ["a", "b", "c", "d"]
    assert counts.values() == [2, 2, 5, 1]
    assert counts["c"] == 5
    assert counts.get("z") is None
    assert counts.get("z", 0) == 0
    assert "a" in counts
    assert "z" not in counts
    assert 3 not in counts
    with pytest.raises(KeyError):
        counts["z"]
    assert counts.most_common(2) == [("c", 5), ("a", 2)]
    assert counts.most_common() == [("c", 5), ("a", 2), ("b", 2), ("d", 1)]
    assert fw.WordCounts([("x", 1), ("x", 2)]).items() == [("x", 3)]
    assert counts.options["pre_tokenizer"] == "whitespace"
    for bad, error in [({"x": -1}, ValueError), ({"": 1}, ValueError), ({1: 1}, TypeError),
                       ({"x": 1.5}, TypeError), ("text", TypeError), ([("x",)], TypeError)]:  # fmt: skip
        with pytest.raises(error):
            fw.WordCounts(bad)


def test_a_count_of_zero_adds_nothing(fw):
    """A word given with a count of 0 (a word not seen) is left out on construction, as
    training ignores it: the counts are those of the other words, every count positive."""
    counts = fw.WordCounts({"b": 2, "a": 0, "c": 0})
    assert counts == fw.WordCounts({"b": 2})
    assert (len(counts), counts.total, list(counts), counts.items()) == (1, 2, ["b"], [("b", 2)])
    assert "a" not in counts
    assert counts.get("a") is None
    assert counts.to_bytes() == fw.WordCounts({"b": 2}).to_bytes()
    assert fw.WordCounts([("x", 0), ("x", 3), ("x", 0)]).items() == [("x", 3)]
    assert len(fw.WordCounts({"x": 0})) == 0
    assert fw.WordCounts({"x": 0}) == fw.WordCounts()


def test_zero_counts_change_no_vocabulary(fw):
    words = {"hugging": 5, "hugs": 3, "puns": 2, "pug": 4, "bun": 1}
    unseen = {**words, "zebra": 0, "quixotic": 0}
    expected = fw.PyTokenizer.train_from_counts(words, 60, 1, show_progress=False).get_vocab()
    assert "z" not in expected
    for counts in [unseen, fw.WordCounts(unseen), fw.WordCounts(words)]:
        assert fw.PyTokenizer.train_from_counts(counts, 60, 1, show_progress=False).get_vocab() == expected


def test_a_negative_count_is_a_value_error_naming_the_word(fw):
    with pytest.raises(ValueError, match=r'^the count of "naïve" must be >= 0, got -1$'):
        fw.WordCounts({"a": 1, "naïve": -1})
    with pytest.raises(ValueError, match=r'^the count of "x" must be >= 0, got -2$'):
        fw.WordCounts([("x", 0), ("x", -2)])


@pytest.mark.parametrize("word", ["", "a b"])
def test_a_word_counted_zero_times_is_still_checked(fw, word):
    with pytest.raises(ValueError, match="must not be empty" if not word else "contains whitespace"):
        fw.WordCounts({word: 0, "ab": 3})


def counts_file(entries: list[tuple[str, int]]) -> bytes:
    """The bytes of a ``.fwc`` file holding ``entries`` as they are (written from the spec, with a
    valid CRC-32), the default counting options."""
    options = b'{"clean_text":true,"handle_chinese_chars":true,"lowercase":true,"strip_accents":null,'
    options += b'"strip_all_marks":false,"pre_tokenizer":"bert"}'
    body = b"FWPCOUNT" + struct.pack("<II", 1, len(options)) + options + bytes([len(entries)])
    for word, n in entries:
        raw = word.encode()
        body += bytes([len(raw)]) + raw + bytes([n])
    return body + struct.pack("<I", zlib.crc32(body))


def test_entries_of_a_counts_file_with_a_count_of_zero_are_left_out(fw, tmp_path):
    """Another tool may write a word it did not see with a count of 0: the file loads, without
    that word (what saving it again writes). Such an entry is checked as any other."""
    data = counts_file([("abc", 0), ("b", 2), ("é", 0)])
    path = tmp_path / "zeros.fwc"
    path.write_bytes(data)
    for counts in [fw.WordCounts.load(path), fw.WordCounts.from_bytes(data)]:
        assert counts.items() == [("b", 2)]
        assert (len(counts), counts.total) == (1, 2)
        assert counts.to_bytes() == counts_file([("b", 2)])
    for entries, message in [
        ([("b", 0), ("a", 1)], r'entry 1 \("a"\): words must be distinct and in code point order'),
        ([("é", 1), ("é", 0)], r'entry 1 \("é"\): words must be distinct and in code point order'),
        ([("a\tb", 0)], r'entry 0: the word "a\\tb" contains whitespace'),
    ]:
        with pytest.raises(ValueError, match=f"^word counts data: {message}"):
            fw.WordCounts.from_bytes(counts_file(entries))


def test_split_parts_add_up_and_agree_across_implementations(fw, shakespeare_lines):
    counts = fw.count_words(shakespeare_lines[:2000])
    parts = counts.split(5)
    assert len(parts) == 5
    assert sum(len(p) for p in parts) == len(counts)
    joined = fw.WordCounts()
    for part in parts:
        joined.update(part)
    assert joined == counts
    engine = fast_wordpiece.count_words(shakespeare_lines[:2000]).split(5)
    twin = fast_wordpiece.reference.count_words(shakespeare_lines[:2000]).split(5)
    assert [p.to_bytes() for p in engine] == [p.to_bytes() for p in twin]
    with pytest.raises(ValueError, match="n must be"):
        counts.split(0)


def test_prune_is_opt_in_and_deterministic(fw):
    counts = fw.WordCounts({"b": 2, "a": 2, "c": 5, "d": 1, "e": 3})
    kept = fw.WordCounts(counts.items())
    kept.prune(2)
    assert kept.items() == [("a", 2), ("b", 2), ("c", 5), ("e", 3)]
    kept.prune(max_words=3)
    assert kept.items() == [("a", 2), ("c", 5), ("e", 3)]
    assert kept.total == 10
    assert len(counts) == 5  # the original is untouched


def test_pickle_round_trips_compactly(fw, shakespeare_lines):
    counts = fw.count_words(shakespeare_lines[:5000])
    data = pickle.dumps(counts)
    back = pickle.loads(data)
    assert back == counts
    assert back.items() == counts.items()
    assert back.options == counts.options
    raw = sum(len(w.encode()) for w in counts)
    assert len(data) < raw + 4 * len(counts) + 400  # a few bytes per word beyond its text
    counts.update(fw.count_words(["more"]))
    assert back != counts


def test_save_and_load(fw, tmp_path):
    counts = fw.count_words(["Größe matters", "中文 text"], strip_accents=False)
    path = tmp_path / "c.fwc"
    counts.save(path)
    assert fw.WordCounts.load(path) == counts
    assert fw.WordCounts.load(str(path)).options == counts.options
    assert os.listdir(tmp_path) == ["c.fwc"]
    with pytest.raises(FileNotFoundError):
        fw.WordCounts.load(tmp_path / "missing.fwc")
    with pytest.raises(FileNotFoundError):
        counts.save(tmp_path / "no" / "such" / "dir.fwc")
    assert os.listdir(tmp_path) == ["c.fwc"]


def damaged(data: bytes) -> dict[str, bytes]:
    """Ways a counts file goes wrong; the CRC is fixed up where the damage is past it."""

    def sealed(body: bytes) -> bytes:
        return body + struct.pack("<I", zlib.crc32(body))

    body = data[:-4]
    return {
        "empty": b"",
        "not a counts file": b'{"vocab": []}' + bytes(20),
        "truncated header": data[:14],
        "truncated": data[: len(data) // 2],
        "one byte short": data[:-1],
        "flipped byte": data[:40] + bytes([data[40] ^ 1]) + data[41:],
        "version 2": sealed(body[:8] + struct.pack("<I", 2) + body[12:]),
        "bad options": sealed(body[:16] + b"#" + body[17:]),
        "trailing bytes": sealed(body + b"\x00"),
    }


def test_a_truncated_file_says_where_its_data_ends(fw, tmp_path):
    """Cut short anywhere: "truncated", the byte where the data ends and what it ends
    inside (or, shorter than the header, how short), the engine and the twin alike."""
    data = fw.count_words(["some words to count, and more words", "ünïcode wörds"]).to_bytes()
    messages = set()
    for cut in range(len(data)):
        with pytest.raises(ValueError, match=r"^word counts data: truncated: ") as info:
            fw.WordCounts.from_bytes(data[:cut])
        message = str(info.value)
        assert message.startswith("word counts data: truncated: "), message
        messages.add(message)
        if cut < 20:
            assert f"{cut} bytes, fewer than the 20" in message
        else:
            assert f"the data ends at byte {cut} inside " in message
    assert any("inside the options" in m for m in messages)
    assert any("inside entry 0 of 8" in m for m in messages)
    assert any("inside entry 7 of 8" in m for m in messages)
    corrupted = bytearray(data)
    corrupted[-8] ^= 1
    with pytest.raises(ValueError, match="corrupted: its CRC-32 is"):
        fw.WordCounts.from_bytes(bytes(corrupted))
    path = tmp_path / "cut.fwc"
    path.write_bytes(data[:-3])
    with pytest.raises(ValueError, match=r"cut\.fwc: truncated: the data ends at byte \d+ inside entry 7 of 8"):
        fw.WordCounts.load(path)


def test_data_shorter_than_the_header_is_truncated_if_a_file_could_start_so(tmp_path):
    """Fewer than the 20 bytes of the smallest file, starting as a word counts file does (with
    "FWPCOUNT" or a part of it, or empty): data cut short. Bytes that start otherwise: not a
    word counts file, whatever their length. The engine and the twin alike."""
    data = fast_wordpiece.count_words(["some words"]).to_bytes()
    path = tmp_path / "short.fwc"
    for module in MODULES.values():
        for cut in range(20):
            path.write_bytes(data[:cut])
            with pytest.raises(ValueError, match="truncated") as info:
                module.WordCounts.load(path)
            message = f"truncated: {cut} bytes, fewer than the 20 of the header, the options' length and the CRC-32"
            assert str(info.value) == f"{path}: {message}"
        for other in [b"FWPX", b"fwpcount", b"FWPCOUNX\x01\x00\x00\x00", b"PK\x03\x04" + bytes(30)]:
            path.write_bytes(other)
            with pytest.raises(ValueError, match="not a word counts file") as info:
                module.WordCounts.load(path)
            assert str(info.value) == f'{path}: not a word counts file (it does not start with "FWPCOUNT")'
        # A version this reader does not know is told even before the rest of the header.
        with pytest.raises(ValueError, match=r"^word counts data: unsupported word counts file version 2 "):
            module.WordCounts.from_bytes(b"FWPCOUNT\x02\x00\x00\x00")


def test_engine_and_twin_tell_damage_alike():
    data = fast_wordpiece.count_words(["some words to count, and more words"]).to_bytes()
    for name, bad in damaged(data).items():
        if name == "bad options":  # JSON parsers word their errors differently
            continue
        errors = []
        for module in (fast_wordpiece, fast_wordpiece.reference):
            with pytest.raises(ValueError, match=r"^word counts data: ") as info:
                module.WordCounts.from_bytes(bad)
            errors.append(str(info.value))
        assert errors[0] == errors[1], name


@pytest.mark.parametrize("damage", list(damaged(b"FWPCOUNT" + bytes(40))))
def test_damaged_files_are_value_errors(fw, tmp_path, damage):
    counts = fw.count_words(["some words to count, and more words"])
    path = tmp_path / "c.fwc"
    bad = damaged(counts.to_bytes())[damage]
    path.write_bytes(bad)
    with pytest.raises(ValueError, match=str(path).replace("\\", "\\\\")) as info:
        fw.WordCounts.load(path)
    if damage == "version 2":
        assert "version 2" in str(info.value)
    with pytest.raises(ValueError, match="word counts data"):
        fw.WordCounts.from_bytes(bad)
    with pytest.raises(TypeError):
        fw.WordCounts.from_bytes("text")


def test_other_tools_can_write_the_format(fw, tmp_path):
    """A file written from docs/spec.md section 13 alone (here, by hand) loads."""
    options = b'{"clean_text":true,"handle_chinese_chars":true,"lowercase":true,"strip_accents":null,'
    options += b'"strip_all_marks":false,"pre_tokenizer":"bert"}'
    body = b"FWPCOUNT" + struct.pack("<II", 1, len(options)) + options
    body += bytes([2]) + bytes([3]) + b"abc" + bytes([0xAC, 0x02]) + bytes([2]) + b"\xc3\xa9" + bytes([1])
    path = tmp_path / "hand.fwc"
    path.write_bytes(body + struct.pack("<I", zlib.crc32(body)))
    counts = fw.WordCounts.load(path)
    assert counts.items() == [("abc", 300), ("é", 1)]
    assert counts == fw.WordCounts({"abc": 300, "é": 1})


@pytest.mark.parametrize("word", ["a b", "a\nb", "\u3000x", "x\r"])
def test_words_with_whitespace_are_refused_wherever_counts_come_from(fw, tmp_path, word):
    """No pre-tokenizer leaves whitespace in a word; counts made by hand that hold one
    are a ValueError (their tokens could not be written one per line in vocab.txt)."""
    with pytest.raises(ValueError, match="contains whitespace"):
        fw.WordCounts({word: 5, "ab": 3})
    with pytest.raises(ValueError, match="contains whitespace"):
        fw.PyTokenizer.train_from_counts({word: 5, "ab": 3}, 40, 1, show_progress=False)
    # A file written by hand from the spec, with a valid CRC.
    options = fw.WordCounts().to_bytes()[16:-4]
    options = options[: options.index(b"}") + 1]
    raw = word.encode()
    body = b"FWPCOUNT" + struct.pack("<II", 1, len(options)) + options + bytes([1, len(raw)]) + raw + bytes([1])
    path = tmp_path / "hand.fwc"
    path.write_bytes(body + struct.pack("<I", zlib.crc32(body)))
    with pytest.raises(ValueError, match=r"entry 0: .*contains whitespace"):
        fw.WordCounts.load(path)
    # Empty words of a plain mapping are dropped, as before.
    tok = fw.PyTokenizer.train_from_counts({"": 3, "ab": 3}, 40, 1, show_progress=False)
    assert "ab" in tok.get_vocab()


def test_split_into_too_many_parts_is_a_value_error(fw):
    counts = fw.WordCounts({"a": 1})
    for n in (2**20 + 1, 10**12, 2**62):
        with pytest.raises(ValueError, match="at most"):
            counts.split(n)
    assert len(counts.split(3)) == 3


def test_a_failed_save_leaves_nothing_behind(fw, tmp_path: Path):
    """The rename that ends a save fails (the target is a directory that is not empty): OSError,
    the target untouched, no temporary file left."""
    target = tmp_path / "c.fwc"
    target.mkdir()
    (target / "inside").write_text("kept")
    with pytest.raises(OSError, match=r"c\.fwc"):
        fw.count_words(["second"]).save(target)
    assert os.listdir(tmp_path) == ["c.fwc"]
    assert (target / "inside").read_text() == "kept"


# ----------------------------------------------------------------------------- Arrow arrays


def test_arrow_string_arrays_count_as_their_texts(fw, shakespeare_lines, multilingual_lines):
    """An Arrow string / large_string array counts as the list of its texts, nulls skipped,
    sliced arrays from their slice only, with the options given."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra")
    texts: list[str | None] = [*shakespeare_lines[:3000], *multilingual_lines[:300]]
    texts[::7] = [None] * len(texts[::7])
    present = [t for t in texts if t is not None]
    for kind in (pa.string(), pa.large_string()):
        array = pa.array(texts, kind)
        assert array.null_count > 0
        assert fw.count_words(array) == fw.count_words(present)
        assert fw.count_words(array, lowercase=False) == fw.count_words(present, lowercase=False)
        part = array.slice(1001, 777)
        assert fw.count_words(part) == fw.count_words([t for t in texts[1001:1778] if t is not None])
        assert len(fw.count_words(array.slice(5, 0))) == 0
        assert len(fw.count_words(pa.array([None, None], kind))) == 0
    chunks = pa.chunked_array([texts[:10], texts[10:20]], pa.string()).combine_chunks()
    assert fw.count_words(chunks) == fw.count_words([t for t in texts[:20] if t is not None])


def test_chunked_arrays_and_iterables_of_arrow_arrays_count_as_their_texts(fw, shakespeare_lines, multilingual_lines):
    """A chunked array (``__arrow_c_stream__``: a table's column), and iterables whose items are
    Arrow arrays, str, or both, in many small chunks (counted in several groups): their texts."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra")
    texts: list[str | None] = [*shakespeare_lines[:4000], *multilingual_lines[:400]]
    texts[3::11] = [None] * len(texts[3::11])
    present = [t for t in texts if t is not None]
    expected = fw.count_words(present)
    chunks = [texts[i : i + 30] for i in range(0, len(texts), 30)]  # 147 chunks: more than one group
    kinds = [pa.string(), pa.large_string()] + ([pa.string_view()] if hasattr(pa, "string_view") else [])
    for kind in kinds:
        chunked = pa.chunked_array(chunks, kind)
        assert fw.count_words(chunked) == expected
        assert fw.count_words(pa.table({"n": range(len(texts)), "text": chunked})["text"]) == expected
        assert fw.count_words(pa.chunked_array([], kind)) == fw.count_words([])
        arrays = [pa.array(chunk, kind) for chunk in chunks]
        assert fw.count_words(iter(arrays)) == expected
        assert fw.count_words(a for a in arrays) == expected
        mixed = [*arrays[:50], *(t for t in texts[1500:2400] if t is not None), *arrays[80:]]
        assert fw.count_words(mixed) == expected
        assert fw.count_words(arrays, lowercase=False) == fw.count_words(present, lowercase=False)


def test_items_that_are_arrow_streams_count_as_their_texts(fw, shakespeare_lines, multilingual_lines):
    """Items of the texts that export an Arrow stream (a chunked array, a pandas Series, a polars
    Series) are read as Arrow, as such texts are: their texts, nulls skipped, in place. Iterated,
    a null would be an item that is not a str."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra")
    pd = pytest.importorskip("pandas", reason="pandas is in the test extra")
    texts: list[str | None] = [*shakespeare_lines[:2000], *multilingual_lines[:200]]
    texts[4::9] = [None] * len(texts[4::9])
    expected = fw.count_words([t for t in texts if t is not None])
    parts = [texts[i : i + 300] for i in range(0, len(texts), 300)]
    streams = [pa.chunked_array([part[:100], part[100:]]) for part in parts]
    assert fw.count_words(streams) == expected
    # pandas exports a Series as a stream from 3.0 on (pandas 2's is iterated: a null is an error)
    pandas_streams = hasattr(pd.Series, "__arrow_c_stream__")
    if pandas_streams:
        assert fw.count_words(iter(pd.Series(part) for part in parts)) == expected
    third = pd.Series(parts[2]) if pandas_streams else streams[2]
    mixed = [streams[0], *(t for t in parts[1] if t is not None), third, *streams[3:]]
    assert fw.count_words(mixed) == expected
    with contextlib.suppress(ImportError):
        import polars as pl

        assert fw.count_words([pl.Series(part) for part in parts]) == expected


NO_PYARROW_SCRIPT = """
import json, sys
sys.modules["pyarrow"] = None  # as if pyarrow were not installed
import pandas as pd
import fast_wordpiece, fast_wordpiece.reference
texts, out = json.loads(sys.stdin.read()), {}
for name, m in [("engine", fast_wordpiece), ("twin", fast_wordpiece.reference)]:
    series = pd.Series(texts)
    got = [m.count_words(series).items(), m.count_words([series[:50], "one more line", series[50:]]).items()]
    try:
        m.count_words(pd.Series(["a text", None]))
        got.append(None)
    except TypeError as e:
        got.append(str(e))
    out[name] = got
print(json.dumps(out))
"""


def test_a_pandas_series_without_pyarrow_counts_as_the_iterable_of_str_it_is(shakespeare_lines):
    """pandas exports Arrow only through pyarrow: without it, a Series (as the texts or as an
    item) is read as the iterable of str it also is, where it raised pandas' ImportError. A
    missing value is then an item that is not a str."""
    pytest.importorskip("pandas", reason="pandas is in the test extra")
    texts = shakespeare_lines[:120]
    proc = subprocess.run(
        [sys.executable, "-c", NO_PYARROW_SCRIPT], input=json.dumps(texts), capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout)
    expected = [list(x) for x in fast_wordpiece.reference.count_words(texts).items()]
    with_one_more = [list(x) for x in fast_wordpiece.reference.count_words([*texts, "one more line"]).items()]
    for name in ("engine", "twin"):
        assert got[name][:2] == [expected, with_one_more], name
    # (the missing value is NaN in pandas 3's str Series, None in pandas 2's object Series)
    assert got["engine"][2] == got["twin"][2]
    assert got["engine"][2] in ("texts[1] must be str, not float", "texts[1] must be str, not NoneType")


def test_polars_strings_are_string_views_read_in_place(fw, shakespeare_lines, multilingual_lines):
    """polars exports its strings as Arrow string views (format "vu"): a Series and a DataFrame's
    column count as their texts do, nulls skipped."""
    pl = pytest.importorskip("polars", reason="optional: polars is not installed")
    texts: list[str | None] = [*shakespeare_lines[:3000], *multilingual_lines[:300]]
    texts[5::13] = [None] * len(texts[5::13])
    expected = fw.count_words([t for t in texts if t is not None])
    series = pl.Series("text", texts)
    assert fw.count_words(series) == expected
    assert fw.count_words(pl.DataFrame({"text": texts})["text"]) == expected


def test_engine_reads_arrow_string_views_that_break_the_format_with_a_value_error():
    """String views assembled by hand: short ones inline, long ones in a data buffer; a negative
    length, a buffer index or bytes beyond the buffers, invalid UTF-8 are ValueErrors, never a
    crash."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra")
    if not hasattr(pa, "string_view"):
        pytest.skip("this pyarrow has no string_view")

    def inline(text: bytes) -> bytes:
        return struct.pack("<i12s", len(text), text)

    def held(length: int, buffer: int, at: int, prefix: bytes = b"") -> bytes:
        return struct.pack("<i4sii", length, prefix, buffer, at)

    data = "a long text of words, ünïcode too".encode()

    def views(*packed: bytes) -> object:
        buffers = [None, pa.py_buffer(b"".join(packed)), pa.py_buffer(data)]
        return pa.Array.from_buffers(pa.string_view(), len(packed), buffers)

    good = views(inline(b"short one"), held(len(data), 0, 0, data[:4]), inline(b""), held(14, 0, 7, data[7:11]))
    assert fast_wordpiece.count_words(good) == fast_wordpiece.count_words(good.to_pylist())
    for broken, message in [
        (views(inline(b"ok"), held(-3, 0, 0)), "a negative length"),
        (views(held(20, 1, 0)), "a buffer index out of range"),
        (views(held(20, 0, len(data) - 5)), "a string beyond its data buffer"),
        (views(held(20, -1, 0)), "a negative buffer index or offset"),
        (views(inline(b"ab\xffd")), "invalid UTF-8"),
        (views(held(13, 0, data.index("ü".encode()) - 12)), "invalid UTF-8"),
    ]:
        with pytest.raises(ValueError, match=message):
            fast_wordpiece.count_words(broken)


def test_arrow_tables_and_record_batches_are_a_type_error_naming_the_column(fw):
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra")
    table = pa.table({"text": ["some text"]})
    for struct_like in (table, table.to_batches()[0]):
        with pytest.raises(TypeError, match=r"not a struct \(a table or record batch\): pass its column of texts"):
            fw.count_words(struct_like)
    with pytest.raises(TypeError, match=r"texts\[1\] must be an Arrow string, large_string or string_view array"):
        fw.count_words([pa.array(["a"]), pa.array([1])])
    with pytest.raises(TypeError, match=r"texts\[2\] must be str, not int"):
        fw.count_words([pa.array(["a"]), "b", 3])
    with pytest.raises(TypeError, match="Arrow string, large_string or string_view array, not one of"):
        fw.count_words(pa.chunked_array([[1, 2]]))
    # Training's corpus is texts only: Arrow arrays there are counted by count_words.
    with pytest.raises(TypeError, match=r"corpus\[0\] must be str, not StringArray"):
        fw.PyTokenizer.train([pa.array(["a"])], 100, show_progress=False)


def test_arrow_arrays_of_other_types_are_a_type_error(fw):
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra")
    for array in (pa.array([1, 2]), pa.array([b"ab"]), pa.array(["a", "b"]).dictionary_encode()):
        with pytest.raises(TypeError, match="Arrow string, large_string or string_view array"):
            fw.count_words(array)


def test_an_arrow_array_of_another_type_is_named_by_its_type(fw):
    """As pyarrow names the type (``int64``, not the C data interface's format ``"l"``); a type
    without a name here by its format, quoted."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra")
    must = "texts must be an Arrow string, large_string or string_view array, not one of"
    for array, shown in [
        (pa.array([1, 2]), "type int64"),
        (pa.chunked_array([[1, 2]]), "type int64"),
        (pa.array([1, 2], pa.uint8()), "type uint8"),
        (pa.array([0.5], pa.float32()), "type float"),
        (pa.array([0.5]), "type double"),
        (pa.array([True]), "type bool"),
        (pa.array([None]), "type null"),
        (pa.array([b"ab"]), "type binary"),
        (pa.array([b"ab"], pa.large_binary()), "type large_binary"),
        (pa.array(["a", "b"]).dictionary_encode(), "type dictionary"),
        (pa.array([[1]]), 'Arrow format "+l"'),
        (pa.array([1], pa.timestamp("s")), 'Arrow format "tss:"'),
    ]:
        with pytest.raises(TypeError) as raised:
            fw.count_words(array)
        assert str(raised.value) == f"{must} {shown}"


def test_engine_reads_arrow_buffers_that_break_the_format_with_a_value_error():
    """Buffers assembled by hand: invalid UTF-8, offsets out of order, a string that
    splits a character are ValueErrors, never a crash."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra")

    def strings(offsets: list[int], data: bytes) -> object:
        buffers = [None, pa.py_buffer(struct.pack(f"<{len(offsets)}i", *offsets)), pa.py_buffer(data)]
        return pa.Array.from_buffers(pa.string(), len(offsets) - 1, buffers)

    assert fast_wordpiece.count_words(strings([0, 2, 5], b"abcde")).items() == [("ab", 1), ("cde", 1)]
    with pytest.raises(ValueError, match="invalid UTF-8"):
        fast_wordpiece.count_words(strings([0, 2, 4], b"ab\xffd"))
    with pytest.raises(ValueError, match="offsets out of order"):
        fast_wordpiece.count_words(strings([0, 3, 2, 4], b"abcd"))
    with pytest.raises(ValueError, match="offsets out of order"):
        fast_wordpiece.count_words(strings([0, 5, 2], b"abcde"))
    with pytest.raises(ValueError, match="splits a UTF-8 character"):
        fast_wordpiece.count_words(strings([0, 1, 2], "é".encode()))


BATCHES_SCRIPT = """
import json, sys
import fast_wordpiece
texts = json.loads(sys.stdin.read())
out = {"items": fast_wordpiece.count_words(texts).items()}
tok = fast_wordpiece.PyTokenizer.train(texts, 400, 2, show_progress=False)
out["vocab"] = sorted(tok.get_vocab().items())
errors = []
for bad, at in ((17, 70_000), ("a\\ud800b", 40_000)):
    broken = list(texts)
    broken[at] = bad
    for call in (lambda: fast_wordpiece.count_words(broken), lambda: fast_wordpiece.PyTokenizer.train(broken, 400)):
        try:
            call()
            errors.append(None)
        except (TypeError, ValueError) as e:
            errors.append(f"{type(e).__name__}: {e}")
out["errors"] = errors
print(json.dumps(out))
"""


def test_lists_over_many_batches_count_alike_at_every_thread_count(shakespeare_lines, multilingual_lines):
    """Over several batches of str (32,768 each): the same counts and
    vocabulary at one and two threads, and an item that is not text (or a
    lone surrogate) in a later batch fails naming its index."""
    texts = shakespeare_lines[:72_000] + multilingual_lines[:3_000]
    results = []
    for threads in ("1", "2"):
        env = {**os.environ, "RAYON_NUM_THREADS": threads}
        proc = subprocess.run(
            [sys.executable, "-c", BATCHES_SCRIPT], input=json.dumps(texts), capture_output=True, text=True, env=env
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        results.append(json.loads(proc.stdout))
    assert results[0] == results[1]
    got = results[0]
    assert [tuple(x) for x in got["items"]] == fast_wordpiece.reference.count_words(texts).items()
    kinds, places = ["TypeError"] * 2 + ["ValueError"] * 2, ["[70000]"] * 2 + ["[40000]"] * 2
    for error, kind, at in zip(got["errors"], kinds, places):
        assert error.startswith(kind), error
        assert at in error, error


class _Stop(Exception):
    """What the generator of the next test raises."""


def test_texts_made_by_a_generator_count_as_a_list_of_them_does(shakespeare_lines, multilingual_lines):
    """A generator that makes each str as it yields it (the only reference to it
    is the engine's), over many pulled batches and with a run of Arrow arrays
    among them: the counts are the twin's, training gives the tokenizer the
    list gives, and an exception the generator raises mid-way comes back as
    that very object."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra")
    texts = shakespeare_lines[:60_000] + multilingual_lines[:6_000]
    expected = fast_wordpiece.reference.count_words(texts + texts[:5_000]).items()

    def corpus(arrow: bool, stop: _Stop | None = None):
        for i, t in enumerate(texts):
            yield (t + "#")[:-1]  # a new str, not the list's
            if i == 25_000:
                yield from [pa.array(texts[:5_000])] if arrow else texts[:5_000]
            # Past the first batch: raised while it is being counted.
            if stop is not None and i == 40_000:
                raise stop

    assert fast_wordpiece.count_words(corpus(True)).items() == expected
    trained = fast_wordpiece.PyTokenizer.train(corpus(False), 500, 2, show_progress=False)
    assert trained == fast_wordpiece.PyTokenizer.train(texts + texts[:5_000], 500, 2, show_progress=False)
    for call in (fast_wordpiece.count_words, lambda c: fast_wordpiece.PyTokenizer.train(c, 500, show_progress=False)):
        stop = _Stop("mid-way")
        with pytest.raises(_Stop) as raised:
            call(corpus(False, stop))
        assert raised.value is stop


def test_counts_added_to_themselves_double(fw):
    """``a.update(a)`` and ``a += a`` add the counts as they were: every count doubles."""
    counts = fw.count_words(["the cat sat", "the mat"])
    counts.update(counts)
    assert dict(counts.items()) == {"the": 4, "cat": 2, "sat": 2, "mat": 2}
    counts += counts
    assert counts.total == 20
    assert counts == counts + fw.WordCounts()


def test_threads_see_whole_counts_while_one_updates(fw, shakespeare_lines):
    """While one thread adds to a WordCounts (the GIL released), others read, add, compare, pickle
    and train on it: each sees the counts before or after a whole update, never an error."""
    big, more = fw.count_words(shakespeare_lines[:20000]), fw.count_words(shakespeare_lines[20000:30000])
    totals = {big.total + k * more.total for k in range(4)}
    errors: list[BaseException] = []

    def read() -> None:
        try:
            for _ in range(20):
                assert big.total in totals
                assert (fw.WordCounts() + big).total in totals
                assert pickle.loads(pickle.dumps(big)).total in totals
                assert big != fw.WordCounts()
            fw.PyTokenizer.train_from_counts(big, 200, show_progress=False)
        except BaseException as e:  # a PanicException is a BaseException
            errors.append(e)

    readers = [threading.Thread(target=read) for _ in range(3)]
    for t in readers:
        t.start()
    for _ in range(3):
        big.update(more)
    for t in readers:
        t.join()
    assert errors == []
    assert big.total == max(totals)


def test_from_files_names_a_bad_path_as_train_from_files_does(fw: ModuleType, tmp_path: Path) -> None:
    """``paths`` is one path or an iterable of them: anything else names the argument, a bad item
    its index (a bytearray iterates as ints: named as a bytearray; bytes are a path, as to
    ``open``)."""
    good = tmp_path / "a.txt"
    good.write_text("a b\n", encoding="utf-8")
    for value, message in [
        (bytearray(b"/p"), "paths must be a path or a list of paths, not bytearray"),
        (3, "paths must be a path or a list of paths, not int"),
        (None, "paths must be a path or a list of paths, not NoneType"),
        ([good, 3], "paths[1] must be str, bytes or os.PathLike, not int"),
        ([bytearray(b"/p")], "paths[0] must be str, bytes or os.PathLike, not bytearray"),
    ]:
        with pytest.raises(TypeError) as raised:
            fw.WordCounts.from_files(value)
        assert str(raised.value) == message
    assert fw.WordCounts.from_files(p for p in [good, str(good)]).total == 4
    assert fw.WordCounts.from_files(bytes(good)).total == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_whose_writer_comes_late_is_read_whole(fw: ModuleType, tmp_path: Path, corpus_files) -> None:
    """A FIFO is read as a file of what its writer writes, however late the writer opens it and
    however it writes (here in pieces, with pauses between): the engine waits for the writer without
    blocking, then reads as a file opened the plain way, counting what the twin counts in the file
    itself. ``load`` reads a counts file written into a FIFO likewise."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    text = corpus_files[3].read_bytes() + corpus_files[0].read_bytes()[:200_000]

    def write(data: bytes, pieces: int) -> None:
        time.sleep(0.3)
        with open(fifo, "wb") as f:
            step = len(data) // pieces + 1
            for i in range(0, len(data), step):
                f.write(data[i : i + step])
                f.flush()
                time.sleep(0.05)

    def through_fifo(data: bytes, pieces: int, read):
        writer = threading.Thread(target=write, args=(data, pieces), daemon=True)
        writer.start()
        try:
            return read()
        finally:
            writer.join(10)

    regular = tmp_path / "text.txt"
    regular.write_bytes(text)
    counted = through_fifo(text, 5, lambda: fw.WordCounts.from_files([fifo]))
    assert counted.total > 50_000
    assert counted == fw.WordCounts.from_files([regular])
    assert counted.to_bytes() == fast_wordpiece.reference.WordCounts.from_files([regular]).to_bytes()
    # A writer that comes and goes without writing: an empty file.
    assert through_fifo(b"", 1, lambda: fw.WordCounts.from_files([fifo])).total == 0
    # A counts file written through the FIFO.
    assert through_fifo(counted.to_bytes(), 3, lambda: fw.WordCounts.load(fifo)) == counted


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifos_a_writer_opens_all_before_writing_are_read(tmp_path: Path) -> None:
    """The engine opens every file of ``from_files`` before it reads any, each FIFO as ``open``
    does (until its writer opens it): a writer that opens all its FIFOs, then writes to each, is
    served. (Waiting for data instead of a writer deadlocked here. The twin reads the files one
    after another, so such a writer keeps it waiting on the first.)"""
    fifos = [tmp_path / "f1", tmp_path / "f2"]
    for f in fifos:
        os.mkfifo(f)
    writer = (
        "import sys\n"
        "a, b = open(sys.argv[1], 'w'), open(sys.argv[2], 'w')\n"
        "a.write('hello world\\n'); a.flush(); b.write('hello there\\n'); b.flush()\n"
        "a.close(); b.close()\n"
    )
    child = subprocess.Popen([sys.executable, "-c", writer, *map(str, fifos)])
    try:
        reader = (
            "import signal, sys, fast_wordpiece\n"
            "signal.alarm(20)\n"
            "print(sorted(fast_wordpiece.WordCounts.from_files(sys.argv[1:]).items()))\n"
        )
        done = subprocess.run([sys.executable, "-c", reader, *map(str, fifos)], capture_output=True, text=True,
                              timeout=60, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})  # fmt: skip
    finally:
        child.kill()
        child.wait()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(sorted({"hello": 2, "world": 1, "there": 1}.items()))


class _NeedsAModule:
    """An iterable of str whose Arrow export raises ImportError, as a pandas Series's does
    without pyarrow (or with one too old)."""

    def __init__(self, texts: list[str], method: str) -> None:
        self.texts = texts
        setattr(self, method, self._export)

    def _export(self, requested_schema: object = None) -> object:
        raise ImportError("no module to export with")

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.texts)


@pytest.mark.parametrize("method", ["__arrow_c_array__", "__arrow_c_stream__"])
def test_an_arrow_export_that_needs_a_missing_module_is_iterated(method: str) -> None:
    """Its export raising ImportError, an iterable is read as the iterable of str it is, as the
    texts or as an item among Arrow arrays, engine and twin alike (the twin decided by whether it
    could import pyarrow, and the engine refused such an item when it exported an array)."""
    pa = pytest.importorskip("pyarrow", reason="pyarrow is in the test extra")
    expected = fast_wordpiece.reference.count_words(["x y", "q", "x z"]).items()
    for m in MODULES.values():
        assert m.count_words(_NeedsAModule(["x y", "x z", "q"], method)).items() == expected, m
        items = [pa.array(["q"]), _NeedsAModule(["x y"], method), "x z"]
        assert m.count_words(items).items() == expected, m
    not_iterable = type("Bare", (), {method: lambda self, requested_schema=None: _NeedsAModule._export(self)})()
    for m in MODULES.values():
        with pytest.raises(ImportError, match="no module to export with"):
            m.count_words(not_iterable)
