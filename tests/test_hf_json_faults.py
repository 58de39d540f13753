"""A faulty ``tokenizer.json`` is refused alike by the engine and the twin (spec section 10).

Every section the engine reads as a serde struct (the normalizer, the model and our data in it, the
added tokens, the decoder, truncation, padding) names its fault by JSON path in serde's words: an
unknown field with the fields expected, a missing one, a value of the wrong type with what it is and
what was expected. The twin reads them the same way, so both give the same message for the same
file; fields that serde reads as an ``Option`` may be left out, as in Hugging Face. A BERT-shaped
template whose [CLS] or [SEP] has a count of ids other than one is refused as any template with
that fault is, not read as BERT's.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import fast_wordpiece
from fast_wordpiece import reference

tokenizers = pytest.importorskip("tokenizers")


def base() -> dict[str, Any]:
    """A file of ours with every struct section present: truncation, padding, our own data."""
    tok = fast_wordpiece.PyTokenizer.train(["the cat sat on the mat", "a cat, a hat"] * 4, 60, show_progress=False)
    tok.enable_truncation(16)
    tok.enable_padding()
    doc = json.loads(tok.to_str())
    assert doc["model"]["fast_wordpiece"] is not None
    assert doc["padding"] is not None
    return doc


BASE = base()
SECTIONS = [("model",), ("normalizer",), ("decoder",), ("added_tokens", 0), ("truncation",), ("padding",)]
SECTIONS.append(("model", "fast_wordpiece"))


def at(doc: dict[str, Any], path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def messages(doc: dict[str, Any]) -> tuple[str, str]:
    """What the engine and the twin say of ``doc`` ("loaded" when they take it)."""
    text = json.dumps(doc)
    out = []
    for impl in (fast_wordpiece, reference):
        try:
            impl.PyTokenizer.from_str(text)
            out.append("loaded")
        except ValueError as e:
            out.append(str(e))
    return out[0], out[1]


def changed(path: tuple[Any, ...], change: Any) -> dict[str, Any]:
    doc = copy.deepcopy(BASE)
    change(at(doc, path))
    return doc


CASES = []
for section in SECTIONS:
    name = ".".join(str(k) for k in section)
    CASES.append((f"{name}: unknown", section, lambda s: s.update(zz=1, aa=2)))
    for field in at(BASE, section):
        if field == "type":
            continue
        CASES.append((f"{name}.{field}: missing", section, lambda s, f=field: s.pop(f)))
        for bad in ([], "x", 1.5, True, -1, 2**40, None, {}, [1], [["a"]], ["a", "b", "c"], 1e-7, {"pmi": 1}):
            CASES.append((f"{name}.{field} = {bad!r}", section, lambda s, f=field, b=bad: s.__setitem__(f, b)))


@pytest.mark.parametrize(("case", "section", "change"), CASES, ids=[c[0] for c in CASES])
def test_engine_and_twin_name_a_fault_alike(case: str, section: tuple[Any, ...], change: Any) -> None:
    engine, twin = messages(changed(section, change))
    assert engine == twin


@pytest.mark.parametrize(
    ("section", "change", "expected"),
    [
        (("model",), lambda s: s.update(zz=1), "model: unknown field `zz`, expected one of `type`, `unk_token`, "
         "`continuing_subword_prefix`, `max_input_chars_per_word`, `vocab`, `fast_wordpiece`"),
        (("model",), lambda s: s.update(unk_token=[]), "model.unk_token: invalid type: sequence, expected a string"),
        (("model",), lambda s: s.update(max_input_chars_per_word=1.5),
         "model.max_input_chars_per_word: invalid type: floating point `1.5`, expected usize"),
        (("added_tokens", 0), lambda s: s.update(id=-1),
         "added_tokens[0].id: invalid value: integer `-1`, expected u32"),
        (("added_tokens", 0), lambda s: s.pop("special"), "added_tokens[0]: missing field `special`"),
        (("normalizer",), lambda s: s.update(lowercase="x"),
         'normalizer.lowercase: invalid type: string "x", expected a boolean'),
        (("padding",), lambda s: s.update(pad_id=True), "padding.pad_id: invalid type: boolean `true`, expected u32"),
        (("truncation",), lambda s: s.update(stride=1e-7),
         "truncation.stride: invalid type: floating point `1e-7`, expected usize"),
        (("model", "fast_wordpiece"), lambda s: s.update(objective="bpe"),
         "model.fast_wordpiece.objective: unknown variant `bpe`, expected one of `likelihood`, `pmi`, `frequency`"),
        (("model", "fast_wordpiece"), lambda s: s.update(merges=[["a"]]),
         "model.fast_wordpiece.merges: invalid length 1, expected a tuple of size 2"),
        (("model",), lambda s: s.update(fast_wordpiece=[]), "model.fast_wordpiece: expected an object"),
    ],
)  # fmt: skip
def test_a_fault_is_named_by_its_path_in_serdes_words(section: tuple[Any, ...], change: Any, expected: str) -> None:
    assert messages(changed(section, change)) == (expected, expected)


@pytest.mark.parametrize(
    ("section", "field"), [(("normalizer",), "strip_accents"), (("padding",), "pad_to_multiple_of")]
)
def test_an_optional_field_may_be_left_out_as_in_hugging_face(section: tuple[Any, ...], field: str) -> None:
    doc = changed(section, lambda s: s.pop(field))
    text = json.dumps(doc)
    hf = tokenizers.Tokenizer.from_str(text)
    for impl in (fast_wordpiece, reference):
        ours = impl.PyTokenizer.from_str(text)
        for line in ["The cat sat on the Mât!", "a hat"]:
            assert ours.encode(line).ids == hf.encode(line).ids


@pytest.mark.parametrize("ids", [[], [2, 5]], ids=["no id", "two ids"])
def test_a_bert_shaped_template_needs_one_id_per_special_token(ids: list[int]) -> None:
    """Read as BERT's, such a template lost the ids the file gives (two ids) or failed inside (none)."""
    doc = copy.deepcopy(BASE)
    vocab = doc["model"]["vocab"]
    cls, sep = ("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])
    doc["post_processor"] = {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": cls[0], "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                   {"SpecialToken": {"id": sep[0], "type_id": 0}}],
        "pair": [{"SpecialToken": {"id": cls[0], "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                 {"SpecialToken": {"id": sep[0], "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}},
                 {"SpecialToken": {"id": sep[0], "type_id": 1}}],
        "special_tokens": {cls[0]: {"id": cls[0], "ids": ids, "tokens": [cls[0]]},
                           sep[0]: {"id": sep[0], "ids": [sep[1]], "tokens": [sep[0]]}},
    }  # fmt: skip
    expected = f"post_processor.special_tokens.{cls[0]}: {len(ids)} ids but 1 tokens: they must be as many"
    assert [m.startswith(expected) for m in messages(doc)] == [True, True], messages(doc)
