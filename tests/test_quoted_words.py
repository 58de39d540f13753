"""Training and word counting quote a word, token or option value in a message as JSON quotes a
string (``json.dumps(s, ensure_ascii=False)``: ``"``, ``\\`` and the control characters below
U+0020 escaped, every other character as it is, a combining accent or U+0085 too), in the engine
and the twin alike; an unexpected keyword is named as Python names it."""

from __future__ import annotations

import importlib
import json
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS, outcome

ACCENTED = "e\u0301"  # a combining accent, which other quotings escape
NEL = "a\x85b"  # U+0085, whitespace that JSON leaves as it is


def q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def fw(request: pytest.FixtureRequest) -> Any:
    return importlib.import_module(IMPLEMENTATIONS[request.param])


def test_training_quotes_words_and_tokens_as_json(fw: Any) -> None:
    token = "<e\u0301\x7f>"
    assert outcome(lambda: fw.PyTokenizer.train(["a b"], 50, special_tokens=["[PAD]", token])) == (
        "ValueError", f'unk_token "[UNK]" must be one of the special tokens ["[PAD]", {q(token)}]')  # fmt: skip
    assert q(token) == '"<e\u0301\x7f>"'  # nothing escaped
    assert outcome(lambda: fw.PyTokenizer.train_from_counts({NEL: 1, "c": 2}, 50)) == (
        "ValueError", f"the word {q(NEL)} contains whitespace, which no pre-tokenizer leaves in a word")  # fmt: skip
    assert q(NEL) == '"a\x85b"'
    assert outcome(lambda: fw.PyTokenizer.train_from_counts({ACCENTED: "x"}, 50)) == (
        "TypeError", f"the count of {q(ACCENTED)} must be int, not str")  # fmt: skip
    assert outcome(lambda: fw.PyTokenizer.train_from_counts([(ACCENTED, 2**64 - 1), (ACCENTED, 1)], 50)) == (
        "ValueError", f"the counts of {q(ACCENTED)} add up to more than 2**64 - 1")  # fmt: skip


def test_an_unknown_objective_is_quoted_as_json(fw: Any) -> None:
    """Not as Rust's ``{:?}`` (``"a\\0b\\u{1}"``), nor with its control characters as they are."""
    odd = 'a\x00b\x01"\\' + NEL
    assert q(odd) == '"a\\u0000b\\u0001\\"\\\\a\x85b"'
    for train in (lambda: fw.PyTokenizer.train(["a"], 10, objective=odd, show_progress=False),
                  lambda: fw.PyTokenizer.train_from_counts({"a": 1}, 10, objective=odd)):  # fmt: skip
        assert outcome(train) == ("ValueError", f'objective must be "likelihood", "pmi" or "frequency", not {q(odd)}')


@pytest.mark.parametrize("option", ["objective", "pre_tokenizer", "unk_token"])
@pytest.mark.parametrize("train", ["train", "train_from_counts"])
def test_an_objective_with_a_lone_surrogate_names_it_as_every_str_option_does(fw: Any, train: str, option: str) -> None:
    corpus: Any = ["a"] if train == "train" else {"a": 1}
    call = getattr(fw.PyTokenizer, train)
    assert outcome(lambda: call(corpus, 10, show_progress=False, **{option: "a\ud800"})) == (
        "ValueError", f"{option} contains a lone surrogate at index 1, which is not valid Unicode text")  # fmt: skip


def test_an_added_token_past_a_bpe_model_is_quoted_as_json(fw: Any) -> None:
    """A byte of the byte-level alphabet given past the model's vocabulary: not Python's ``repr``."""
    tok = fw.BPETokenizer.train(["hello world"] * 3, 270, special_tokens=["<s>"])
    doc = json.loads(tok.to_json())
    doc["added_tokens"].append({**doc["added_tokens"][0], "id": len(doc["model"]["vocab"]), "content": "\u0100"})
    assert outcome(lambda: fw.BPETokenizer.from_json(json.dumps(doc))) == (
        "ValueError", 'added_tokens[1]: "\u0100" has an id past the model\'s vocabulary, but is a token of the model '
        "or a byte")  # fmt: skip


def test_word_counting_quotes_values_as_json_and_keywords_as_python(fw: Any, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("hello world\n", encoding="utf-8")
    odd = "stri\u0301ct"
    assert outcome(lambda: fw.WordCounts.from_files(corpus, errors=odd)) == (
        "ValueError", f'errors must be "strict" or "replace", not {q(odd)}')  # fmt: skip
    kind, message = outcome(lambda: fw.WordCounts.from_files(corpus, unk_token="x"))
    assert kind == "TypeError"
    assert message.startswith("from_files() got an unexpected keyword argument 'unk_token' (word counting takes ")


def counts_file(entries: list[tuple[str, int]]) -> bytes:
    """A word counts file (spec section 12's format) holding ``entries`` as given."""

    def leb128(n: int) -> bytes:
        out = bytearray()
        while True:
            byte, n = n & 0x7F, n >> 7
            out.append(byte | (0x80 if n else 0))
            if not n:
                return bytes(out)

    options = json.dumps({"clean_text": True, "handle_chinese_chars": True, "lowercase": True, "strip_accents": None,
                          "strip_all_marks": False, "pre_tokenizer": "bert"}).encode()  # fmt: skip
    body = b"FWPCOUNT" + struct.pack("<I", 1) + struct.pack("<I", len(options)) + options + leb128(len(entries))
    for word, count in entries:
        raw = word.encode()
        body += leb128(len(raw)) + raw + leb128(count)
    return body + struct.pack("<I", zlib.crc32(body))


def test_a_counts_file_entry_is_quoted_as_json(fw: Any, tmp_path: Path) -> None:
    path = tmp_path / "counts.fwc"
    path.write_bytes(counts_file([("a", 1), (ACCENTED, 1)]))
    assert dict(fw.WordCounts.load(path).items()) == {"a": 1, ACCENTED: 1}  # a good file
    for entries, problem in [
        ([("a", 1), ("b" + ACCENTED, 0), (ACCENTED, 1), ("a", 0)],
         "entry 3 (\"a\"): words must be distinct and in code point order"),
        ([(ACCENTED, 1), ("a", 1)], "entry 1 (\"a\"): words must be distinct and in code point order"),
        ([("a", 1), ("\u00e9\u0301", 1), ("\u00e9\u0301", 1)],
         f"entry 2 ({q(chr(0xE9) + chr(0x301))}): words must be distinct and in code point order"),
    ]:  # fmt: skip
        path.write_bytes(counts_file(entries))
        kind, message = outcome(lambda: fw.WordCounts.load(path))
        assert kind == "ValueError"
        assert problem in message
