"""Hugging Face ``tokenizers``' setters of the default truncation and padding: ``enable_truncation``,
``enable_padding``, ``no_truncation`` and ``no_padding`` change the tokenizer itself, and it then
encodes, shows and saves its defaults as ``tokenizers.Tokenizer`` does after the same calls, for the
engine and the twin alike. What we do not support (a pad id other than the pad token's, a pad type
id other than 0, a pad token outside the vocabulary) is a ValueError that leaves the tokenizer as
it was.
"""

from __future__ import annotations

import copy
import enum
import itertools
import random
import threading
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS, outcome, tokenizer_class

tokenizers = pytest.importorskip("tokenizers")

TRUNCATIONS = [
    {"max_length": 12},
    {"max_length": 20, "stride": 4, "strategy": "only_first"},
    {"max_length": 16, "stride": 3, "strategy": "only_second", "direction": "left"},
    {"max_length": 9, "strategy": "longest_first", "direction": "left"},
]
PADDINGS = [
    {},
    {"length": 40},
    {"direction": "left", "pad_to_multiple_of": 8},
    {"length": 10, "pad_to_multiple_of": 16, "direction": "right"},
]


@pytest.fixture(scope="module")
def hf_text(bert_vocab_file) -> str:
    """bert-base-uncased's tokenizer as ``tokenizers`` builds it, without defaults."""
    return tokenizers.BertWordPieceTokenizer(str(bert_vocab_file))._tokenizer.to_str()


@pytest.fixture(scope="module")
def texts(shakespeare_lines: list[str]) -> list[str]:
    rng = random.Random(7)
    short = rng.sample(shakespeare_lines[:20000], 12)
    long = [" ".join(shakespeare_lines[i : i + 4]) for i in rng.sample(range(len(shakespeare_lines) - 4), 4)]
    return short + long + [""]


def fields(encoding: Any) -> dict[str, Any]:
    names = ("ids", "tokens", "offsets", "word_ids", "type_ids", "attention_mask", "special_tokens_mask")
    out = {name: list(getattr(encoding, name)) for name in names}
    out["overflowing"] = [fields(o) for o in encoding.overflowing]
    return out


def result(call: Any) -> Any:
    """What a call gives, or "refused" where it raises: our ValueError, where Hugging Face raises a
    bare Exception (a strategy cannot cut enough) or panics (a stride as long as the window)."""
    try:
        return call()
    except ValueError:
        return "refused"
    except BaseException as e:  # tokenizers' bare Exception or pyo3's PanicException
        if type(e) is not Exception and type(e).__name__ != "PanicException":
            raise
        return "refused"


def encodings(tok: Any, texts: list[str]) -> list[Any]:
    pairs = list(zip(texts, reversed(texts)))
    return [
        [result(lambda t=t: fields(tok.encode(t))) for t in texts[:6]],
        [result(lambda a=a, b=b: fields(tok.encode(a, b))) for a, b in pairs[:6]],
        result(lambda: [fields(e) for e in tok.encode_batch(texts)]),
        result(lambda: [fields(e) for e in tok.encode_batch(pairs)]),
    ]


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
@pytest.mark.parametrize(
    ("truncation", "padding"), [*itertools.product([None, *TRUNCATIONS], [None, *PADDINGS])][1:], ids=str
)
def test_defaults_set_by_the_setters_encode_as_tokenizers(
    name: str, truncation: Any, padding: Any, hf_text: str, texts: list[str]
) -> None:
    theirs, ours = tokenizers.Tokenizer.from_str(hf_text), tokenizer_class(name).from_str(hf_text)
    for tok in (theirs, ours):
        if truncation is not None:
            assert tok.enable_truncation(**truncation) is None
        if padding is not None:
            assert tok.enable_padding(**padding) is None
    assert (ours.truncation, ours.padding) == (theirs.truncation, theirs.padding)
    assert encodings(ours, texts) == encodings(theirs, texts)
    # Saved, the defaults load in either library as they are.
    saved = ours.to_str()
    assert (tokenizers.Tokenizer.from_str(saved).truncation, tokenizers.Tokenizer.from_str(saved).padding) == (
        theirs.truncation,
        theirs.padding,
    )
    assert tokenizer_class(name).from_str(theirs.to_str()) == ours
    assert tokenizer_class(name).from_json(ours.to_json()) == ours


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_a_pad_to_multiple_of_zero_pads_to_no_multiple(name: str, hf_text: str, texts: list[str]) -> None:
    """Hugging Face takes ``pad_to_multiple_of=0`` and pads to no multiple, as a file's padding section
    with 0 is read; ours shows it as None."""
    theirs, ours = tokenizers.Tokenizer.from_str(hf_text), tokenizer_class(name).from_str(hf_text)
    for tok in (theirs, ours):
        tok.enable_padding(pad_to_multiple_of=0)
    assert ours.padding == dict(theirs.padding, pad_to_multiple_of=None)
    assert encodings(ours, texts) == encodings(theirs, texts)
    assert tokenizer_class(name).from_str(theirs.to_str()).padding == ours.padding


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
@pytest.mark.parametrize("stride", [0, 1, 4])
def test_a_default_truncation_with_no_room_moves_every_token_to_overflow(
    name: str, stride: int, hf_text: str, texts: list[str]
) -> None:
    """``enable_truncation(0, stride=...)`` is taken (0 is below the 2 special tokens, so Hugging Face
    skips its stride check); an encode without special tokens then has no room at all, and gives
    an empty encoding whose one overflowing window holds every token, whatever the stride."""
    theirs, ours = tokenizers.Tokenizer.from_str(hf_text), tokenizer_class(name).from_str(hf_text)
    for tok in (theirs, ours):
        tok.enable_truncation(0, stride=stride)
    pairs = list(zip(texts, reversed(texts)))

    def unmarked(tok: Any) -> list[Any]:
        return [
            [result(lambda t=t: fields(tok.encode(t, add_special_tokens=False))) for t in texts[:6]],
            [result(lambda a=a, b=b: fields(tok.encode(a, b, add_special_tokens=False))) for a, b in pairs[:6]],
            result(lambda: [fields(e) for e in tok.encode_batch(texts, add_special_tokens=False)]),
        ]

    expected = unmarked(theirs)
    assert unmarked(ours) == expected
    first = expected[0][0]
    assert first["ids"] == []
    assert first["overflowing"][0]["ids"], "every token overflowing"


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_the_setters_change_the_tokenizer_itself_and_no_ones_chain(name: str, hf_text: str, texts: list[str]) -> None:
    tok, theirs = tokenizer_class(name).from_str(hf_text), tokenizers.Tokenizer.from_str(hf_text)
    plain = copy.deepcopy(tok)
    tok.enable_truncation(10)
    tok.enable_padding(length=12)
    theirs.enable_truncation(10)
    theirs.enable_padding(length=12)
    assert [len(e.ids) for e in tok.encode_batch(texts)] == [12] * len(texts)
    assert (plain.truncation, plain.padding) == (None, None)
    assert tok.no_padding() is tok
    theirs.no_padding()
    assert (tok.truncation, tok.padding) == (theirs.truncation, None)
    assert encodings(tok, texts) == encodings(theirs, texts)
    assert tok.no_truncation().no_padding() is tok
    assert encodings(tok, texts) == encodings(plain, texts)
    assert tok == plain
    # A later setter replaces the earlier one whole.
    tok.enable_truncation(30, stride=2)
    tok.enable_truncation(8)
    assert tok.truncation == {"max_length": 8, "stride": 0, "strategy": "longest_first", "direction": "right"}


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_the_calls_own_arguments_win_over_the_defaults(name: str, hf_text: str, texts: list[str]) -> None:
    tok = tokenizer_class(name).from_str(hf_text)
    tok.enable_truncation(6)
    tok.enable_padding(length=7)
    long = texts[-2]
    assert len(tok.encode(long).ids) == 7
    assert len(tok.encode(long, max_length=10).ids) == 10
    assert len(tok.encode(long, truncation=False).ids) == len(tokenizer_class(name).from_str(hf_text).encode(long))
    assert len(tok.encode("a", padding="longest").ids) == 3
    # transformers' call pads and truncates only when it asks, whatever the defaults.
    plain = tokenizer_class(name).from_str(hf_text)
    assert tok(texts)["input_ids"] == plain(texts)["input_ids"]


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_another_pad_token_pads_with_its_id_and_becomes_it(name: str, hf_text: str, texts: list[str]) -> None:
    tok, theirs = tokenizer_class(name).from_str(hf_text), tokenizers.Tokenizer.from_str(hf_text)
    unk = tok.token_to_id("[UNK]")
    tok.enable_padding(pad_token="[UNK]", direction="left")
    theirs.enable_padding(pad_token="[UNK]", pad_id=unk, direction="left")
    assert tok.padding == theirs.padding
    assert tok.pad_token == "[UNK]"
    assert encodings(tok, texts) == encodings(theirs, texts)
    # Left out, the pad token stays the tokenizer's (Hugging Face's goes back to "[PAD]").
    tok.enable_padding(pad_id=unk)
    theirs.enable_padding(pad_token="[UNK]", pad_id=unk)
    assert tok.padding == theirs.padding


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_with_the_default_padding_on_the_pad_token_set_must_be_in_the_vocabulary(
    name: str, hf_text: str, texts: list[str]
) -> None:
    """Setting ``pad_token`` to a token the vocabulary lacks is refused while the default padding is on
    (every ``encode`` would then fail), and changes nothing; off, it is taken, as before."""
    tok = tokenizer_class(name).from_str(hf_text)
    tok.enable_padding()
    before = encodings(tok, texts)
    with pytest.raises(ValueError, match=r'^pad_token "<nope>" is not in the vocabulary, and the default padding'):
        tok.pad_token = "<nope>"
    assert (tok.pad_token, encodings(tok, texts)) == ("[PAD]", before)
    tok.pad_token = "[UNK]"
    assert tok.padding["pad_token"] == "[UNK]"
    tok.no_padding()
    tok.pad_token = "<nope>"
    assert tok.pad_token is None  # not in the vocabulary


BAD_TRUNCATIONS: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"max_length": None}, TypeError, "max_length must be int, not NoneType"),
    ({"max_length": 5.0}, TypeError, "max_length must be int, not float"),
    ({"max_length": True}, TypeError, "max_length must be int, not bool"),
    ({"max_length": -1}, ValueError, "max_length must be >= 0, got -1"),
    ({"max_length": 8, "stride": None}, TypeError, "stride must be int, not NoneType"),
    ({"max_length": 8, "stride": -2}, ValueError, "stride must be >= 0, got -2"),
    ({"max_length": 3, "stride": 5}, ValueError, "stride must be at most max_length minus the 2 special tokens (1)"),
    ({"max_length": 8, "strategy": "both"}, ValueError, 'strategy must be "longest_first", "only_first" or "only_sec'),
    ({"max_length": 8, "strategy": 1}, TypeError, "strategy must be str, not int"),
    ({"max_length": 8, "direction": "up"}, ValueError, 'direction must be "left" or "right", not "up"'),
]
BAD_PADDINGS: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"direction": "up"}, ValueError, 'direction must be "left" or "right", not "up"'),
    ({"direction": None}, TypeError, "direction must be str, not NoneType"),
    ({"pad_id": "0"}, TypeError, "pad_id must be int, not str"),
    ({"pad_id": 3}, ValueError, 'pad_id 3 is not the id of the pad token "[PAD]" (0)'),
    ({"pad_type_id": 1}, ValueError, "pad_type_id must be 0"),
    ({"pad_token": 5}, TypeError, "pad_token must be str, not int"),
    ({"pad_token": ""}, ValueError, "pad_token must not be empty"),
    ({"pad_token": "<nope>"}, ValueError, 'pad_token "<nope>" is not in the vocabulary'),
    ({"length": -1}, ValueError, "length must be >= 0, got -1"),
    ({"length": 2.5}, TypeError, "length must be int, not float"),
    ({"pad_to_multiple_of": -1}, ValueError, "pad_to_multiple_of must be >= 0, got -1"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), BAD_TRUNCATIONS + BAD_PADDINGS, ids=str)
def test_bad_arguments_are_named_and_change_nothing(
    kwargs: dict[str, Any], error: type[Exception], message: str, hf_text: str
) -> None:
    setter = "enable_truncation" if (kwargs, error, message) in BAD_TRUNCATIONS else "enable_padding"
    outcomes = []
    for name in sorted(IMPLEMENTATIONS):
        tok = tokenizer_class(name).from_str(hf_text)
        tok.enable_truncation(64)
        tok.enable_padding(length=64)
        before = (tok.truncation, tok.padding, tok.pad_token)
        with pytest.raises(error) as raised:
            getattr(tok, setter)(**kwargs)
        assert message in str(raised.value)
        assert (tok.truncation, tok.padding, tok.pad_token) == before
        outcomes.append(outcome(lambda tok=tok: getattr(tok, setter)(**kwargs)))
    assert outcomes[0] == outcomes[1]


def test_calls_running_while_the_defaults_change_use_one_or_the_other(hf_text: str, texts: list[str]) -> None:
    tok = tokenizer_class("engine").from_str(hf_text)
    tok.enable_truncation(48)
    batch = texts * 20
    seen: set[tuple[int, ...]] = set()
    errors: list[BaseException] = []

    def encode() -> None:
        try:
            for _ in range(30):
                seen.add(tuple(sorted({len(e.ids) for e in tok.encode_batch(batch)})))
        except BaseException as e:  # reported below
            errors.append(e)

    thread = threading.Thread(target=encode)
    thread.start()
    for i in range(200):
        if i % 2:
            tok.no_padding()
        else:
            tok.enable_padding(length=48)
    thread.join()
    assert not errors
    unpadded = tuple(sorted({len(e.ids) for e in tok.no_padding().encode_batch(batch)}))
    assert seen <= {unpadded, (48,)}
    assert unpadded != (48,)


@pytest.mark.parametrize("name", sorted(IMPLEMENTATIONS))
def test_str_subclasses_are_kept_as_plain_str(name: str, hf_text: str) -> None:
    class Name(str, enum.Enum):
        LEFT = "left"
        ONLY_FIRST = "only_first"
        PAD = "[PAD]"

    tok = tokenizer_class(name).from_str(hf_text)
    tok.enable_truncation(5, strategy=Name.ONLY_FIRST, direction=Name.LEFT)
    tok.enable_padding(direction=Name.LEFT, pad_token=Name.PAD)
    shown = [
        tok.truncation["strategy"],
        tok.truncation["direction"],
        tok.padding["direction"],
        tok.padding["pad_token"],
    ]
    assert [type(s) for s in shown] == [str] * 4
    assert shown == ["only_first", "left", "left", "[PAD]"]
