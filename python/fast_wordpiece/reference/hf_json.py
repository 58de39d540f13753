"""Spec section 10: Hugging Face's ``tokenizer.json``, read and written.

Import takes the WordPiece pipelines the tokenizer runs exactly and refuses anything
else with a ValueError that names the component and its JSON path. Export writes what
``tokenizers.Tokenizer.from_file`` loads; the merges and the order of the special
tokens go under the extra key ``model.fast_wordpiece``, which Hugging Face ignores.
"""

from __future__ import annotations

import contextlib
import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from fast_wordpiece.reference import template
from fast_wordpiece.reference.args import _json_loads, _quoted
from fast_wordpiece.reference.common import Pair
from fast_wordpiece.reference.json_text import NotJson, float_text, shown
from fast_wordpiece.reference.normalizer import Normalizer
from fast_wordpiece.reference.options import PAD_TOKEN
from fast_wordpiece.reference.training import OBJECTIVES
from fast_wordpiece.reference.unicode import WHITESPACE

EXTRA = "fast_wordpiece"
#: The ids of ``model.vocab`` may skip numbers, but every id up to the largest takes room: the largest must be
#: below ``GAP_BASE + GAP_PER_TOKEN * len(vocab)`` (real files skip none or a few hundred).
GAP_BASE, GAP_PER_TOKEN = 65_536, 5
_NORMALIZERS = "BertNormalizer, NFD then StripAccents, Lowercase, Strip, Sequence of them"


@dataclass
class Parsed:
    """What a tokenizer.json describes, in the terms of ``PyTokenizer``'s constructor."""

    slots: list[str | None]  # token by id; None where no token has the id
    outside_model: set[int]  # added tokens the WordPiece model does not match inside words
    special_tokens: list[str]
    merges: list[Pair] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    #: added tokens other than plain special tokens: (JSON path, {"content", "special", "normalized"} and the
    #: flags "single_word", "lstrip", "rstrip" that are true)
    added: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    truncation: dict[str, Any] | None = None  # the defaults, as the properties show them
    padding: dict[str, Any] | None = None
    objective: str | None = None  # the training objective, when we wrote the file


def _kind(value: Any, path: str, null_is_absent: bool = False) -> str | None:
    """A component's ``"type"`` (None when absent; a null one is an error unless ``null_is_absent``)."""
    kind = value.get("type") if isinstance(value, dict) else None
    if (
        isinstance(value, dict)
        and "type" in value
        and not isinstance(kind, str)
        and not (kind is None and null_is_absent)
    ):
        raise ValueError(f"{path}.type: expected a string, found {shown(kind)}")
    return kind


#: A field's type, as the engine's serde structs declare it: a Python type, ``object`` (any JSON value,
#: checked later), the name of an unsigned integer type (``"usize"``, ``"u32"``), or a tuple of one of
#: those and ``NoneType`` (an ``Option``: null is accepted).
_Type = Any
_EXPECTED = {bool: "a boolean", str: "a string", dict: "a map", list: "a sequence"}
_UNSIGNED_BOUND = {"usize": 2**64, "u32": 2**32}
#: Kinds of ``_Type`` for a list of str, a list of pairs of str, and a training objective's name.
_STRINGS, _PAIRS, _OBJECTIVE = "Vec<String>", "Vec<(String, String)>", "Objective"


def _unexpected(value: Any) -> str:
    """serde's words for a JSON value of the wrong type (``integer `5```, ``sequence``, ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean `{'true' if value else 'false'}`"
    if isinstance(value, int):
        return f"integer `{value}`"
    if isinstance(value, float):
        return f"floating point `{float_text(value)}`"
    if isinstance(value, str):
        return f"string {_rust_debug(value)}"
    return "sequence" if isinstance(value, list) else "map"


def _rust_debug(text: str) -> str:
    """``text`` quoted as Rust's ``{:?}`` quotes a str (escapes for quotes, backslashes and control
    characters)."""
    named = {"\t": "\\t", "\r": "\\r", "\n": "\\n", "\\": "\\\\", '"': '\\"', "\0": "\\0"}
    out = []
    for c in text:
        if c in named:
            out.append(named[c])
        elif unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            out.append("\\u{" + format(ord(c), "x") + "}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _one_of(names: list[str]) -> str:
    """serde's list of the fields a struct expects."""
    quoted = [f"`{name}`" for name in names]
    if not quoted:
        return "there are no fields"
    if len(quoted) == 1:
        return f"expected {quoted[0]}"
    if len(quoted) == 2:
        return f"expected {quoted[0]} or {quoted[1]}"
    return f"expected one of {', '.join(quoted)}"


def _check_type(value: Any, kind: _Type, path: str) -> None:
    """A ValueError in serde's words if ``value`` is not of ``kind`` (see ``_Type``)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if value is None and type(None) in kinds:
        return
    (kind,) = (k for k in kinds if k is not type(None))
    if kind is object:
        return
    if kind in (_STRINGS, _PAIRS):
        _check_type(value, list, path)
        for item in value:
            if kind == _STRINGS:
                _check_type(item, str, path)
            elif not isinstance(item, list):
                raise ValueError(f"{path}: invalid type: {_unexpected(item)}, expected a tuple of size 2")
            else:
                for element in item[:2]:
                    _check_type(element, str, path)
                if len(item) != 2:
                    expected = "a tuple of size 2" if len(item) < 2 else "fewer elements in array"
                    raise ValueError(f"{path}: invalid length {len(item)}, expected {expected}")
        return
    if kind == _OBJECTIVE:  # a name, or serde's map of one name to null
        if isinstance(value, dict) and len(value) != 1:
            raise ValueError(f"{path}: invalid value: map, expected map with a single key")
        if not isinstance(value, (str, dict)):
            raise ValueError(f"{path}: invalid type: {_unexpected(value)}, expected string or map")
        name = value if isinstance(value, str) else next(iter(value))
        if name not in OBJECTIVES:
            raise ValueError(f"{path}: unknown variant `{name}`, {_one_of(list(OBJECTIVES))}")
        if isinstance(value, dict) and value[name] is not None:
            raise ValueError(f"{path}: invalid type: {_unexpected(value[name])}, expected unit")
        return
    if isinstance(kind, str):
        if isinstance(value, int) and not isinstance(value, bool):
            if 0 <= value < _UNSIGNED_BOUND[kind]:
                return
            raise ValueError(f"{path}: invalid value: integer `{value}`, expected {kind}")
        raise ValueError(f"{path}: invalid type: {_unexpected(value)}, expected {kind}")
    if isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool):
        return
    raise ValueError(f"{path}: invalid type: {_unexpected(value)}, expected {_EXPECTED[kind]}")


def _fields(value: Any, path: str, fields: dict[str, _Type], defaults: dict[str, Any] | None = None) -> dict[str, Any]:
    """A JSON object read as the engine's serde struct with these ``fields`` (in its declaration order;
    ``"type"`` among them if the struct has it, checked by ``_kind``) reads it: its keys in sorted order,
    the first unknown one or the first of the wrong type an error; then the first missing field without
    a default (in ``defaults``; an ``Option`` defaults to None), in declaration order."""
    defaults = defaults or {}
    if not isinstance(value, dict):
        raise ValueError(f"{path}: expected an object")
    for name in sorted(value):
        if name not in fields:
            raise ValueError(f"{path}: unknown field `{name}`, {_one_of(list(fields))}")
        if name != "type":
            _check_type(value[name], fields[name], f"{path}.{name}")
    out = {}
    for name, kind in fields.items():
        if name == "type":
            continue
        if name in value:
            out[name] = value[name]
        elif name in defaults:
            out[name] = defaults[name]
        elif isinstance(kind, tuple) and type(None) in kind:
            out[name] = None
        else:
            raise ValueError(f"{path}: missing field `{name}`")
    return out


#: The engine's serde structs, field by field in declaration order (see ``_fields``).
_BERT_NORMALIZER: dict[str, _Type] = {
    "type": str,
    "clean_text": bool,
    "handle_chinese_chars": bool,
    "strip_accents": (bool, type(None)),
    "lowercase": bool,
}
_STRIP: dict[str, _Type] = {"type": str, "strip_left": bool, "strip_right": bool}
_MODEL: dict[str, _Type] = {
    "type": (str, type(None)),
    "unk_token": str,
    "continuing_subword_prefix": str,
    "max_input_chars_per_word": "usize",
    "vocab": dict,
    EXTRA: (object, type(None)),
}
_MODEL_DEFAULTS = {"unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100}
_FLAGS = ("single_word", "lstrip", "rstrip", "normalized", "special")
_ADDED_TOKEN: dict[str, _Type] = {"id": "u32", "content": str, **dict.fromkeys(_FLAGS, bool)}
_DECODER: dict[str, _Type] = {"type": str, "prefix": str, "cleanup": bool}
_EXTRA: dict[str, _Type] = {
    "version": "u32",
    "merges": _PAIRS,
    "special_tokens": _STRINGS,
    "objective": (_OBJECTIVE, type(None)),
    "split_special_tokens": bool,
    "pad_token": (str, type(None)),
}
_TRUNCATION: dict[str, _Type] = {
    "direction": (object, type(None)),
    "max_length": "usize",
    "strategy": str,
    "stride": "usize",
}
_PADDING: dict[str, _Type] = {
    "strategy": object,
    "direction": object,
    "pad_to_multiple_of": ("usize", type(None)),
    "pad_id": "u32",
    "pad_type_id": "u32",
    "pad_token": str,
}


def _normalizer(value: Any) -> dict[str, Any]:
    """BERT's setting that the normalizer equals: BertNormalizer, then NFD with StripAccents, then Lowercase (a
    Lowercase step may also come before NFD or between NFD and StripAccents: the same text and offsets)."""
    off = {"clean_text": False, "handle_chinese_chars": False, "strip_accents": False, "lowercase": False}
    if value is None:
        return {**off, "strip_all_marks": False}
    steps: list[tuple[Any, str]] = []
    _flatten(value, "normalizer", steps)
    steps = [(s, p) for s, p in steps if _kind(s, p) != "Strip" or not _is_fields(s, _STRIP)]
    bert: dict[str, Any] | None = None
    lowercase_after = strip_marks = False
    i = 0
    while i < len(steps):
        step, path = steps[i]
        kind = _kind(step, path)
        if kind == "BertNormalizer":
            if bert is not None or lowercase_after or strip_marks:
                message = "a BertNormalizer after another normalizer (other than Strip) is not supported"
                raise ValueError(f"{path}: {message}")
            bert = _fields(step, path, _BERT_NORMALIZER)
        elif kind == "Lowercase":
            lowercase_after = True
        elif kind == "Strip":
            _fields(step, path, _STRIP)
        elif kind == "NFD":
            # Lowercase steps between NFD and StripAccents (or before NFD) give the same text and offsets as
            # lowercasing after them.
            j = i + 1
            while j < len(steps) and _kind(*steps[j]) == "Lowercase":
                j += 1
            if j == len(steps) or _kind(*steps[j]) != "StripAccents":
                raise ValueError(
                    f'{path}: "NFD" is supported only before StripAccents, with at most Lowercase steps between '
                    "them (BERT decomposes only to strip accents)"
                )
            n = off if bert is None else bert
            stripped = n["lowercase"] if n["strip_accents"] is None else n["strip_accents"]
            if strip_marks or n["lowercase"] or stripped:
                raise ValueError(
                    f'{path}: "NFD" is not supported after a BertNormalizer that lowercases or strips accents, '
                    "or after another NFD"
                )
            strip_marks = True
            lowercase_after = lowercase_after or j > i + 1
            i = j
        elif kind is None:
            raise ValueError(f'{path}: a normalizer needs a "type"')
        else:
            why = " without an NFD right before it" if kind == "StripAccents" else ""
            raise ValueError(f"{path}: {shown(kind)} is not supported{why} (supported: {_NORMALIZERS})")
        i += 1
    n = {**(off if bert is None else bert), "strip_all_marks": strip_marks}
    if strip_marks:
        n["strip_accents"] = True
    if lowercase_after and not n["lowercase"]:
        n["strip_accents"] = n["lowercase"] if n["strip_accents"] is None else n["strip_accents"]
        n["lowercase"] = True
    return n


def _strip_sides(value: Any) -> tuple[bool, bool]:
    """The ends the normalizer's ``Strip`` steps trim (left, right): dropped from the text's
    normalization, but Hugging Face also strips a ``normalized`` added token's normalized form."""
    steps: list[tuple[Any, str]] = []
    try:
        _flatten(value, "normalizer", steps)
    except (TypeError, ValueError):
        return False, False
    strips = [s for s, p in steps if _kind(s, p) == "Strip" and _is_fields(s, _STRIP)]
    return any(s["strip_left"] for s in strips), any(s["strip_right"] for s in strips)


def _refuse_stripped_added_tokens(
    options: dict[str, Any], sides: tuple[bool, bool], added: list[tuple[str, dict[str, Any]]]
) -> None:
    """A ``normalized`` added token whose normalized form starts (ends) with whitespace, under a ``Strip``
    of that end: Hugging Face matches the stripped form, this pipeline (which drops ``Strip``) would not."""
    left, right = sides
    if not (left or right):
        return
    strip_accents = options["lowercase"] if options["strip_accents"] is None else options["strip_accents"]
    normalizer = Normalizer(options["clean_text"], options["handle_chinese_chars"], strip_accents,
                            options["lowercase"], options["strip_all_marks"])  # fmt: skip
    for path, token in added:
        if not token["normalized"]:
            continue
        form = normalizer.normalize(token["content"])[0]
        if (left and form[:1] in WHITESPACE and form) or (right and form[-1:] in WHITESPACE and form):
            raise ValueError(
                f"{path}: the normalized added token {_quoted(token['content'])} (normalized: {_quoted(form)}) "
                'is not supported with the normalizer\'s "Strip", which Hugging Face applies to it'
            )


def _is_fields(value: Any, types: dict[str, Any]) -> bool:
    try:
        _fields(value, "", types)
    except (TypeError, ValueError):
        return False
    return True


def _normalizer_json(o: dict[str, Any]) -> dict[str, Any]:
    strips = o["lowercase"] if o["strip_accents"] is None else o["strip_accents"]
    bert = {"type": "BertNormalizer", "clean_text": o["clean_text"], "handle_chinese_chars": o["handle_chinese_chars"]}
    if not (o["strip_all_marks"] and strips):
        return {**bert, "strip_accents": o["strip_accents"], "lowercase": o["lowercase"]}
    # Hugging Face's StripAccents drops every mark: BERT's order, stripping and lowercasing outside.
    steps = [{**bert, "strip_accents": False, "lowercase": False}, {"type": "NFD"}, {"type": "StripAccents"}]
    return {"type": "Sequence", "normalizers": steps + ([{"type": "Lowercase"}] if o["lowercase"] else [])}


def _flatten(value: Any, path: str, out: list[tuple[Any, str]]) -> None:
    if _kind(value, path) != "Sequence":
        out.append((value, path))
        return
    items = value.get("normalizers")
    if not isinstance(items, list):
        raise ValueError(f"{path}.normalizers: expected a list of normalizers")
    for i, item in enumerate(items):
        _flatten(item, f"{path}.normalizers[{i}]", out)


_HF_PRE_TOKENIZERS = {"bert": "BertPreTokenizer", "whitespace": "WhitespaceSplit", "wordpunct": "Whitespace"}


_SUPPORTED_PRE_TOKENIZERS = "BertPreTokenizer, Whitespace, WhitespaceSplit, Sequence equivalent to one of them"


def _pre_tokenizer(value: Any, path: str = "pre_tokenizer") -> str:
    kind = _kind(value, path)
    for ours, theirs in _HF_PRE_TOKENIZERS.items():
        if kind == theirs:
            return ours
    if kind == "Sequence":
        return _pre_tokenizer_sequence(value, path)
    if kind is not None:
        raise ValueError(f"{path}: {shown(kind)} is not supported (supported: {_SUPPORTED_PRE_TOKENIZERS})")
    if value is None:
        raise ValueError(f"{path}: null (no pre-tokenizer) is not supported")
    raise ValueError(f'{path}: a pre-tokenizer needs a "type"')


def _pre_tokenizer_sequence(value: Any, path: str) -> str:
    """A ``Sequence`` that splits exactly as one pre-tokenizer supported here: a single one, or
    ``[WhitespaceSplit, Punctuation]`` (in either order) with ``behavior`` ``"Isolated"`` (its
    default), which is ``BertPreTokenizer`` (the same whitespace, the same punctuation isolated)."""
    items = value.get("pretokenizers")
    if not isinstance(items, list):
        raise ValueError(f"{path}.pretokenizers: expected a list of pre-tokenizers")
    if len(items) == 1:
        return _pre_tokenizer(items[0], f"{path}.pretokenizers[0]")
    if len(items) == 2:
        # Either order: no punctuation character is whitespace.
        first, second = items
        if (first == {"type": "WhitespaceSplit"} and _isolated_punctuation(second)) or (
            _isolated_punctuation(first) and second == {"type": "WhitespaceSplit"}
        ):
            return "bert"
    raise ValueError(f"{path}: this Sequence of pre-tokenizers is not supported (supported: a Sequence of one "
                     'supported pre-tokenizer, or [WhitespaceSplit, Punctuation with behavior "Isolated"], which '
                     "is BertPreTokenizer)")  # fmt: skip


def _isolated_punctuation(step: Any) -> bool:
    """Whether ``step`` is a ``Punctuation`` pre-tokenizer that isolates each punctuation character."""
    return (isinstance(step, dict) and step.get("type") == "Punctuation"
            and step.get("behavior", "Isolated") == "Isolated" and set(step) <= {"type", "behavior"})  # fmt: skip


def _post_processor(value: Any) -> tuple[str | dict[str, Any], list[tuple[str, int, str]]]:
    """``"bert"``, ``"none"`` or a template; for BERT's, the [CLS] and [SEP] with the ids the file gives them."""
    path = "post_processor"
    kind = _kind(value, path)
    if kind is None and value is None:
        return "none", []
    if kind == "BertProcessing":

        def pair(key: str) -> tuple[str, int, str]:
            got = value.get(key)
            ok = isinstance(got, list) and len(got) == 2 and isinstance(got[0], str) and _is_id(got[1])
            if not ok:
                raise ValueError(f"{path}.{key}: expected a [token, id] pair")
            return got[0], got[1], f"{path}.{key}"

        return "bert", [pair("cls"), pair("sep")]
    if kind == "TemplateProcessing":
        parsed = template.parse(value, path)
        # BERT's own template stays BERT's (the cls_token and sep_token options); any other is kept.
        bert = template.as_bert(parsed)
        if bert is None:
            return parsed, []
        entries = parsed["special_tokens"]
        return "bert", [(token, entries[token]["ids"][0], f"{path}.special_tokens.{token}.ids") for token in bert]
    if kind is not None:
        raise ValueError(
            f"{path}: {shown(kind)} is not supported (supported: BertProcessing, TemplateProcessing, null)"
        )
    raise ValueError(f'{path}: a post-processor needs a "type"')


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**32


def _side(value: Any, path: str) -> str:
    if value is None or value == "Right":
        return "right"
    if value == "Left":
        return "left"
    raise ValueError(f'{path}: expected "Left" or "Right", found {shown(value)}')


_STRATEGIES = {"LongestFirst": "longest_first", "OnlyFirst": "only_first", "OnlySecond": "only_second"}


def truncation_from_json(value: Any, path: str = "truncation") -> dict[str, Any] | None:
    """A ``truncation`` section as the ``truncation`` property shows it (None: no default)."""
    if value is None:
        return None
    t = _fields(value, path, _TRUNCATION)
    if t["strategy"] not in _STRATEGIES:
        raise ValueError(
            f"{path}.strategy: {shown(t['strategy'])} is not supported (supported: LongestFirst, OnlyFirst, OnlySecond)"
        )
    return {
        "max_length": t["max_length"],
        "stride": t["stride"],
        "strategy": _STRATEGIES[t["strategy"]],
        "direction": _side(t["direction"], f"{path}.direction"),
    }


def truncation_json(t: dict[str, Any] | None) -> dict[str, Any] | None:
    if t is None:
        return None
    strategy = {name: key for key, name in _STRATEGIES.items()}[t["strategy"]]
    return {
        "direction": t["direction"].capitalize(),
        "max_length": t["max_length"],
        "strategy": strategy,
        "stride": t["stride"],
    }


def _is_size(value: Any) -> bool:
    """A length as the engine reads one: an int (not a bool) from 0 to 2**64 - 1."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**64


def padding_from_json(value: Any, ids: dict[str, int], path: str = "padding") -> dict[str, Any] | None:
    """A ``padding`` section as the ``padding`` property shows it: any token of the vocabulary, given with its
    id, and type id 0."""
    if value is None:
        return None
    p = _fields(value, path, _PADDING)
    strategy = p["strategy"]
    fixed = strategy.get("Fixed") if isinstance(strategy, dict) and len(strategy) == 1 else None
    if strategy != "BatchLongest" and not _is_size(fixed):
        raise ValueError(f'{path}.strategy: {shown(strategy)} is not supported ("BatchLongest" or {{"Fixed": n}})')
    token = shown(p["pad_token"])
    if p["pad_token"] not in ids:
        raise ValueError(f"{path}.pad_token: {token} is not in the vocabulary")
    if ids[p["pad_token"]] != p["pad_id"]:
        raise ValueError(f"{path}.pad_id: {p['pad_id']} is not the id of {token}, which is {ids[p['pad_token']]}")
    if p["pad_type_id"] != 0:
        raise ValueError(f"{path}.pad_type_id: {p['pad_type_id']} is not supported (only 0)")
    side = _side(p["direction"], f"{path}.direction")
    return {
        "length": fixed,
        "pad_to_multiple_of": p["pad_to_multiple_of"] or None,
        "pad_id": p["pad_id"],
        "pad_token": p["pad_token"],
        "pad_type_id": 0,
        "direction": side,
    }


def padding_json(p: dict[str, Any] | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {
        "strategy": "BatchLongest" if p["length"] is None else {"Fixed": p["length"]},
        "direction": p["direction"].capitalize(),
        "pad_to_multiple_of": p["pad_to_multiple_of"],
        "pad_id": p["pad_id"],
        "pad_type_id": 0,
        "pad_token": p["pad_token"],
    }


#: The keys of a tokenizer.json, in Hugging Face's order; another is refused (a misspelt
#: ``"normaliser"`` would otherwise leave the file's normalizer out).
ROOT_KEYS = ("version", "truncation", "padding", "added_tokens", "normalizer", "pre_tokenizer", "post_processor",
             "decoder", "model")  # fmt: skip


def check_root_keys(root: dict[str, Any]) -> None:
    """ValueError for a top-level key Hugging Face's tokenizer.json has not (the first by name), which
    it refuses: of every reader of the family."""
    if unknown := sorted(set(root) - set(ROOT_KEYS)):
        raise ValueError(f"a tokenizer.json has no key {_quoted(unknown[0])} (its keys: {', '.join(ROOT_KEYS)})")


def load_json(text: str) -> Any:
    """``_json_loads`` of a ``tokenizer.json`` as the family's readers and ``parse`` read it: the
    engine checks the top-level keys first, reading the keys' strings but not the values', so a
    lone surrogate escape in a value (``json_text``) of a file with a key Hugging Face's has not
    is that key's error (``check_root_keys``)."""
    try:
        return _json_loads(text)
    except NotJson as e:
        if e.surrogate:
            with contextlib.suppress(json.JSONDecodeError):
                root = _json_loads(text, lone_surrogates=True)
                if isinstance(root, dict) and all(_is_text(key) for key in root):
                    check_root_keys(root)
        raise


def _is_text(value: str) -> bool:
    """Whether ``value`` is valid Unicode text (no lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse(text: str) -> Parsed:
    """The tokenizer a Hugging Face ``tokenizer.json`` describes; ValueError naming what is not supported."""
    try:
        root = load_json(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e}") from None
    if not isinstance(root, dict):
        raise ValueError("a tokenizer.json must be a JSON object")
    check_root_keys(root)
    if "version" in root and root["version"] != "1.0":  # Hugging Face reads a file without one
        raise ValueError(f'version: {shown(root.get("version"))} is not supported (expected "1.0")')
    if "model" not in root:
        raise ValueError("model: missing")
    kind = _kind(root["model"], "model", null_is_absent=True)  # the engine reads it as an Option
    if kind not in (None, "WordPiece"):
        raise ValueError(f"model: {shown(kind)} is not supported (supported: WordPiece)")
    model = _fields(root["model"], "model", _MODEL, _MODEL_DEFAULTS)
    vocab: dict[str, int] = model["vocab"]
    for token in sorted(vocab):  # the first in order, as the engine names it
        if not _is_id(vocab[token]):
            raise ValueError(f"model.vocab: invalid id {shown(vocab[token])} for {_quoted(token)}")
    largest = max(vocab.values(), default=0)
    bound = GAP_BASE + GAP_PER_TOKEN * len(vocab)
    if largest >= bound:  # named with its token (of two with that id, the first in order)
        token = min(token for token, id_ in vocab.items() if id_ == largest)
        raise ValueError(
            f"model.vocab: {shown(token)} has id {largest}, too large for {len(vocab)} "
            f"tokens: ids must be below {bound} ({GAP_BASE} + {GAP_PER_TOKEN} per token; the ids no token has "
            "take room too)"
        )
    slots: list[str | None] = [None] * (max(vocab.values(), default=-1) + 1)
    for token, id_ in vocab.items():
        other = slots[id_]
        if other is not None:
            a, b = sorted((other, token))
            raise ValueError(f"model.vocab: {shown(a)} and {shown(b)} have the same id {id_}")
        slots[id_] = token
    if model["max_input_chars_per_word"] == 0:
        raise ValueError("model.max_input_chars_per_word: must be >= 1, got 0")
    added = root.get("added_tokens")
    if not isinstance(added, list):
        raise ValueError("added_tokens: expected a list")
    next_id = len(vocab)
    outside_model: set[int] = set()
    special_tokens: list[str] = []
    added_tokens: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    for i, item in enumerate(added):
        path = f"added_tokens[{i}]"
        t = _fields(item, path, _ADDED_TOKEN)
        content = t["content"]
        if not content or content in seen:
            continue  # Hugging Face ignores these
        seen.add(content)
        if content not in vocab:
            id_, next_id = next_id, next_id + 1
            if id_ < len(slots) and slots[id_] is not None:
                raise ValueError(f"{path}: {shown(content)} would get id {id_}, which the model's vocabulary uses")
            slots += [None] * (id_ + 1 - len(slots))
            slots[id_] = content
            outside_model.add(id_)
        if t["special"] and not t["normalized"] and not (t["single_word"] or t["lstrip"] or t["rstrip"]):
            special_tokens.append(content)
        else:
            entry: dict[str, Any] = {"content": content, "special": t["special"], "normalized": t["normalized"]}
            added_tokens.append((path, {**entry, **{flag: True for flag in _FLAGS[:3] if t[flag]}}))
    normalizer = _normalizer(root.get("normalizer"))
    _refuse_stripped_added_tokens(normalizer, _strip_sides(root.get("normalizer")), added_tokens)
    options: dict[str, Any] = {**normalizer, "pre_tokenizer": _pre_tokenizer(root.get("pre_tokenizer"))}
    post, cls_sep = _post_processor(root.get("post_processor"))
    decoder = root.get("decoder")
    kind = _kind(decoder, "decoder")
    prefix = model["continuing_subword_prefix"]
    if decoder is None:  # Hugging Face joins the tokens with spaces
        options.update(decoder="none")
    elif kind is None:
        raise ValueError('decoder: a decoder needs a "type"')
    elif kind != "WordPiece":
        raise ValueError(f"decoder: {shown(kind)} is not supported (supported: WordPiece, null)")
    else:
        d = _fields(decoder, "decoder", _DECODER)
        if d["prefix"] != prefix:
            raise ValueError(
                f"decoder.prefix: {shown(d['prefix'])} differs from model.continuing_subword_prefix "
                f"{shown(prefix)}, which is not supported"
            )
        options.update(decoder_cleanup=d["cleanup"])
    options.update(
        unk_token=model["unk_token"],
        max_input_chars_per_word=model["max_input_chars_per_word"],
        continuing_subword_prefix=prefix,
        post_processor=post,
    )
    ids = {token: id_ for id_, token in enumerate(slots) if token is not None}
    # BERT's template with ids the vocabulary does not give its tokens is run as any other template (which
    # checks its ids).
    if (
        post == "bert"
        and _kind(root.get("post_processor"), "post_processor") == "TemplateProcessing"
        and any(ids.get(token) != id_ for token, id_, _ in cls_sep)
    ):
        post, cls_sep = template.parse(root["post_processor"]), []
        options.update(post_processor=post)
    for token, id_, path in cls_sep:
        if ids.get(token) != id_:
            actual = "no id" if token not in ids else f"id {ids[token]}"
            raise ValueError(
                f"{path}: {shown(token)} has id {id_} here but {actual} in the vocabulary, which is not supported"
            )
    if cls_sep:
        options.update(cls_token=cls_sep[0][0], sep_token=cls_sep[1][0])
    if isinstance(post, dict):  # the tokens a transformers-style cls_token and sep_token name
        names = template.cls_and_sep(post)
        if names is not None:
            options.update(cls_token=names[0], sep_token=names[1])
    parsed = Parsed(slots, outside_model, special_tokens, options=options, added=added_tokens)
    if model[EXTRA] is not None:
        path = f"model.{EXTRA}"
        extra = _fields(model[EXTRA], path, _EXTRA, {"split_special_tokens": False})
        if extra["version"] != 1:
            raise ValueError(f"{path}.version: {extra['version']} is not supported (expected 1)")
        if not set(extra["special_tokens"]) <= set(special_tokens):
            raise ValueError(f"{path}.special_tokens: differ from the special added_tokens")
        # The other special tokens were added by add_special_tokens.
        parsed.added += [("added_tokens", {"content": t, "special": True, "normalized": False})
                         for t in special_tokens if t not in extra["special_tokens"]]  # fmt: skip
        parsed.merges, parsed.special_tokens = extra["merges"], extra["special_tokens"]
        objective = extra["objective"]
        parsed.objective = next(iter(objective)) if isinstance(objective, dict) else objective
        parsed.options["split_special_tokens"] = extra["split_special_tokens"]
        if extra["pad_token"] is not None:  # Hugging Face keeps the pad token in the padding section only
            parsed.options["pad_token"] = extra["pad_token"]
    parsed.truncation = truncation_from_json(root.get("truncation"))
    parsed.padding = padding_from_json(root.get("padding"), ids)
    if parsed.padding is not None:
        parsed.options["pad_token"] = parsed.padding["pad_token"]
    # As the constructor checks it (after every section above).
    if not model["unk_token"]:
        raise ValueError("model.unk_token: unk_token must not be empty")
    if model["unk_token"] not in ids:
        raise ValueError(f"model.unk_token: unk_token {shown(model['unk_token'])} is not in the vocabulary")
    return parsed


def dump(
    slots: list[str | None],
    outside_model: set[int],
    special_tokens: list[str],
    added: list[dict[str, Any]],
    merges: list[Pair],
    options: dict[str, Any],
    truncation: dict[str, Any] | None,
    padding: dict[str, Any] | None,
    objective: str | None = None,
    pretty: bool = True,
) -> str:
    """The Hugging Face ``tokenizer.json`` of a tokenizer (ValueError when it has no equivalent),
    indented (``pretty``) or on one line."""
    o = options
    if o["pre_tokenizer"] == "regex":
        raise ValueError('pre_tokenizer="regex" has no Hugging Face equivalent: save this tokenizer with to_json()')
    ids = {token: id_ for id_, token in enumerate(slots) if token is not None}
    in_model = [(id_, token) for id_, token in enumerate(slots) if token is not None and id_ not in outside_model]
    plain = [{"content": token, "special": True, "normalized": False} for token in special_tokens]
    specials = sorted(((ids[t["content"]], t) for t in plain + added), key=lambda item: item[0])
    next_id = len(in_model)
    for id_, t in specials:
        token = t["content"]
        if id_ in outside_model:
            if id_ != next_id:
                raise ValueError(
                    f"added token {json.dumps(token)} has id {id_}, which Hugging Face would renumber to {next_id} "
                    "(it numbers the tokens outside the model from the count of the model's, holes left out): "
                    "save with to_json() instead"
                )
            next_id += 1
    cls, sep = o["cls_token"], o["sep_token"]
    post_processor: dict[str, Any] | None = None
    if isinstance(o["post_processor"], dict):
        post_processor = o["post_processor"]
    elif o["post_processor"] == "bert" and cls in ids and sep in ids:

        def special(token: str, type_id: int) -> dict[str, Any]:
            return {"SpecialToken": {"id": token, "type_id": type_id}}

        def sequence(name: str, type_id: int) -> dict[str, Any]:
            return {"Sequence": {"id": name, "type_id": type_id}}

        post_processor = {
            "type": "TemplateProcessing",
            "single": [special(cls, 0), sequence("A", 0), special(sep, 0)],
            "pair": [special(cls, 0), sequence("A", 0), special(sep, 0), sequence("B", 1), special(sep, 1)],
            "special_tokens": {
                cls: {"id": cls, "ids": [ids[cls]], "tokens": [cls]},
                sep: {"id": sep, "ids": [ids[sep]], "tokens": [sep]},
            },
        }
    extra: dict[str, Any] = {"version": 1, "merges": [list(pair) for pair in merges], "special_tokens": special_tokens}
    if objective is not None:
        extra["objective"] = objective
    if o["split_special_tokens"]:  # Hugging Face keeps encode_special_tokens out of the file
        extra["split_special_tokens"] = True
    if o["pad_token"] != PAD_TOKEN:  # Hugging Face keeps it in the padding section only, which may be null
        extra["pad_token"] = o["pad_token"]
    document = {
        "version": "1.0",
        "truncation": truncation_json(truncation),
        "padding": padding_json(padding),
        "added_tokens": [
            {
                "id": id_,
                "content": t["content"],
                "single_word": t.get("single_word", False),
                "lstrip": t.get("lstrip", False),
                "rstrip": t.get("rstrip", False),
                "normalized": t["normalized"],
                "special": t["special"],
            }
            for id_, t in specials
        ],
        "normalizer": _normalizer_json(o),
        "pre_tokenizer": {"type": _HF_PRE_TOKENIZERS[o["pre_tokenizer"]]},
        "post_processor": post_processor,
        "decoder": None
        if o["decoder"] == "none"
        else {"type": "WordPiece", "prefix": o["continuing_subword_prefix"], "cleanup": o["decoder_cleanup"]},
        "model": {
            "type": "WordPiece",
            "unk_token": o["unk_token"],
            "continuing_subword_prefix": o["continuing_subword_prefix"],
            "max_input_chars_per_word": o["max_input_chars_per_word"],
            "vocab": {token: id_ for id_, token in in_model},
            # Hugging Face ignores unknown fields of the model (not at the top level).
            EXTRA: extra,
        },
    }
    if not pretty:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(document, ensure_ascii=False, indent=2)
