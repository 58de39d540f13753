"""Spec section 10: Hugging Face's ``tokenizer.json``, read and written.

Import takes the WordPiece pipelines the tokenizer runs exactly and refuses anything
else with a ValueError that names the component and its JSON path. Export writes what
``tokenizers.Tokenizer.from_file`` loads; the merges and the order of the special
tokens go under the extra key ``model.fast_wordpiece``, which Hugging Face ignores.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

from fast_wordpiece.reference import template
from fast_wordpiece.reference.args import _json_loads, _quoted
from fast_wordpiece.reference.common import Pair
from fast_wordpiece.reference.json_text import NotJson
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


def _kind(value: Any, path: str) -> str | None:
    kind = value.get("type") if isinstance(value, dict) else None
    if kind is not None and not isinstance(kind, str):
        raise ValueError(f"{path}.type: expected a string, found {json.dumps(kind)}")
    return kind


def _fields(
    value: Any,
    path: str,
    required: dict[str, type | tuple[type, ...]],
    optional: dict[str, tuple[type | tuple[type, ...], Any]] | None = None,
) -> dict[str, Any]:
    """A JSON object with these fields of these types (``optional`` ones get their default)."""
    optional = optional or {}
    if not isinstance(value, dict):
        raise ValueError(f"{path}: expected an object")
    unknown = value.keys() - required.keys() - optional.keys() - {"type"}
    if unknown:
        raise ValueError(f"{path}: unknown field {sorted(unknown)[0]!r}")
    out = {}
    for name, (_, default) in optional.items():
        out[name] = value.get(name, default)
    for name in required:
        if name not in value:
            raise ValueError(f"{path}: missing field {name!r}")
        out[name] = value[name]
    for name, got in out.items():
        types = required[name] if name in required else optional[name][0]
        if not isinstance(got, types) or (isinstance(got, bool) and bool not in _tuple(types)):
            raise ValueError(f"{path}.{name}: invalid type {json.dumps(got)}")
    return out


def _tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def _normalizer(value: Any) -> dict[str, Any]:
    """BERT's setting that the normalizer equals: BertNormalizer, then NFD with StripAccents, then Lowercase (a
    Lowercase step may also come before NFD or between NFD and StripAccents: the same text and offsets)."""
    off = {"clean_text": False, "handle_chinese_chars": False, "strip_accents": False, "lowercase": False}
    if value is None:
        return {**off, "strip_all_marks": False}
    steps: list[tuple[Any, str]] = []
    _flatten(value, "normalizer", steps)
    strip: dict[str, Any] = {"strip_left": bool, "strip_right": bool}
    steps = [(s, p) for s, p in steps if _kind(s, p) != "Strip" or not _is_fields(s, strip)]
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
            types: dict[str, Any] = {"clean_text": bool, "handle_chinese_chars": bool, "lowercase": bool}
            bert = _fields(step, path, {**types, "strip_accents": (bool, type(None))})
        elif kind == "Lowercase":
            lowercase_after = True
        elif kind == "Strip":
            _fields(step, path, strip)
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
            raise ValueError(f"{path}: {json.dumps(kind)} is not supported{why} (supported: {_NORMALIZERS})")
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
    strips = [
        s for s, p in steps if _kind(s, p) == "Strip" and _is_fields(s, {"strip_left": bool, "strip_right": bool})
    ]
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
        raise ValueError(f"{path}: {json.dumps(kind)} is not supported (supported: {_SUPPORTED_PRE_TOKENIZERS})")
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
            f"{path}: {json.dumps(kind)} is not supported (supported: BertProcessing, TemplateProcessing, null)"
        )
    raise ValueError(f'{path}: a post-processor needs a "type"')


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**32


def _side(value: Any, path: str) -> str:
    if value is None or value == "Right":
        return "right"
    if value == "Left":
        return "left"
    raise ValueError(f'{path}: expected "Left" or "Right", found {json.dumps(value)}')


_STRATEGIES = {"LongestFirst": "longest_first", "OnlyFirst": "only_first", "OnlySecond": "only_second"}


def truncation_from_json(value: Any, path: str = "truncation") -> dict[str, Any] | None:
    """A ``truncation`` section as the ``truncation`` property shows it (None: no default)."""
    if value is None:
        return None
    t = _fields(
        value, path, {"max_length": int, "strategy": str, "stride": int}, {"direction": ((str, type(None)), None)}
    )
    for name in ("max_length", "stride"):
        if not _is_size(t[name]):
            raise ValueError(f"{path}.{name}: invalid value {t[name]}")
    if t["strategy"] not in _STRATEGIES:
        raise ValueError(
            f"{path}.strategy: {json.dumps(t['strategy'])} is not supported "
            "(supported: LongestFirst, OnlyFirst, OnlySecond)"
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
    p = _fields(
        value,
        path,
        {
            "strategy": (str, dict),
            "direction": str,
            "pad_to_multiple_of": (int, type(None)),
            "pad_id": int,
            "pad_type_id": int,
            "pad_token": str,
        },
    )
    strategy = p["strategy"]
    fixed = strategy.get("Fixed") if isinstance(strategy, dict) and len(strategy) == 1 else None
    if strategy != "BatchLongest" and not _is_size(fixed):
        raise ValueError(
            f"{path}.strategy: {json.dumps(strategy, separators=(',', ':'))} is not supported "
            '("BatchLongest" or {"Fixed": n})'
        )
    if p["pad_to_multiple_of"] is not None and not _is_size(p["pad_to_multiple_of"]):
        raise ValueError(f"{path}.pad_to_multiple_of: invalid value {p['pad_to_multiple_of']}")
    token = json.dumps(p["pad_token"], ensure_ascii=False)
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
        raise ValueError(f'version: {json.dumps(root.get("version"))} is not supported (expected "1.0")')
    if "model" not in root:
        raise ValueError("model: missing")
    kind = _kind(root["model"], "model")
    if kind not in (None, "WordPiece"):
        raise ValueError(f"model: {json.dumps(kind)} is not supported (supported: WordPiece)")
    model = _fields(
        root["model"],
        "model",
        {"vocab": dict},
        {
            "unk_token": (str, "[UNK]"),
            "continuing_subword_prefix": (str, "##"),
            "max_input_chars_per_word": (int, 100),
            EXTRA: ((dict, type(None)), None),
        },
    )
    vocab: dict[str, int] = model["vocab"]
    for token in sorted(vocab):  # the first in order, as the engine names it
        if not _is_id(vocab[token]):
            raise ValueError(f"model.vocab: invalid id {json.dumps(vocab[token])} for {_quoted(token)}")
    largest = max(vocab.values(), default=0)
    bound = GAP_BASE + GAP_PER_TOKEN * len(vocab)
    if largest >= bound:  # named with its token (of two with that id, the first in order)
        token = min(token for token, id_ in vocab.items() if id_ == largest)
        raise ValueError(
            f"model.vocab: {json.dumps(token, ensure_ascii=False)} has id {largest}, too large for {len(vocab)} "
            f"tokens: ids must be below {bound} ({GAP_BASE} + {GAP_PER_TOKEN} per token; the ids no token has "
            "take room too)"
        )
    slots: list[str | None] = [None] * (max(vocab.values(), default=-1) + 1)
    for token, id_ in vocab.items():
        other = slots[id_]
        if other is not None:
            a, b = sorted((other, token))
            raise ValueError(
                f"model.vocab: {json.dumps(a, ensure_ascii=False)} and "
                f"{json.dumps(b, ensure_ascii=False)} have the same id {id_}"
            )
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
    flags = ("single_word", "lstrip", "rstrip", "normalized", "special")
    for i, item in enumerate(added):
        path = f"added_tokens[{i}]"
        t = _fields(item, path, {"id": int, "content": str, **dict.fromkeys(flags, bool)})
        content = t["content"]
        if not content or content in seen:
            continue  # Hugging Face ignores these
        seen.add(content)
        if content not in vocab:
            id_, next_id = next_id, next_id + 1
            if id_ < len(slots) and slots[id_] is not None:
                raise ValueError(
                    f"{path}: {json.dumps(content, ensure_ascii=False)} would get id {id_}, "
                    "which the model's vocabulary uses"
                )
            slots += [None] * (id_ + 1 - len(slots))
            slots[id_] = content
            outside_model.add(id_)
        if t["special"] and not t["normalized"] and not (t["single_word"] or t["lstrip"] or t["rstrip"]):
            special_tokens.append(content)
        else:
            entry: dict[str, Any] = {"content": content, "special": t["special"], "normalized": t["normalized"]}
            added_tokens.append((path, {**entry, **{flag: True for flag in flags[:3] if t[flag]}}))
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
        raise ValueError(f"decoder: {json.dumps(kind)} is not supported (supported: WordPiece, null)")
    else:
        d = _fields(decoder, "decoder", {"prefix": str, "cleanup": bool})
        if d["prefix"] != prefix:
            raise ValueError(
                f"decoder.prefix: {json.dumps(d['prefix'])} differs from model.continuing_subword_prefix "
                f"{json.dumps(prefix)}, which is not supported"
            )
        options.update(decoder_cleanup=d["cleanup"])
    options.update(
        unk_token=model["unk_token"],
        max_input_chars_per_word=model["max_input_chars_per_word"],
        continuing_subword_prefix=prefix,
        post_processor=post,
    )
    ids = {token: id_ for id_, token in enumerate(slots) if token is not None}
    if model["unk_token"] not in ids:
        raise ValueError(f"model.unk_token: unk_token {json.dumps(model['unk_token'])} is not in the vocabulary")
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
                f"{path}: {json.dumps(token)} has id {id_} here but {actual} in the vocabulary, which is not supported"
            )
    if cls_sep:
        options.update(cls_token=cls_sep[0][0], sep_token=cls_sep[1][0])
    if isinstance(post, dict):  # the tokens a transformers-style cls_token and sep_token name
        names = template.cls_and_sep(post)
        if names is not None:
            options.update(cls_token=names[0], sep_token=names[1])
    parsed = Parsed(slots, outside_model, special_tokens, options=options, added=added_tokens)
    parsed.truncation = truncation_from_json(root.get("truncation"))
    parsed.padding = padding_from_json(root.get("padding"), ids)
    if parsed.padding is not None:
        parsed.options["pad_token"] = parsed.padding["pad_token"]
    if model[EXTRA] is not None:
        path = f"model.{EXTRA}"
        extra = _fields(model[EXTRA], path, {"version": int, "merges": list, "special_tokens": list},
                        {"objective": ((str, type(None)), None), "split_special_tokens": (bool, False),
                         "pad_token": ((str, type(None)), None)})  # fmt: skip
        if extra["version"] != 1:
            raise ValueError(f"{path}.version: {extra['version']} is not supported (expected 1)")
        if not set(extra["special_tokens"]) <= set(special_tokens):
            raise ValueError(f"{path}.special_tokens: differ from the special added_tokens")
        # The other special tokens were added by add_special_tokens.
        parsed.added += [("added_tokens", {"content": t, "special": True, "normalized": False})
                         for t in special_tokens if t not in extra["special_tokens"]]  # fmt: skip
        parsed.merges, parsed.special_tokens = extra["merges"], extra["special_tokens"]
        if extra["objective"] is not None and extra["objective"] not in OBJECTIVES:
            raise ValueError(f"{path}.objective: unknown objective {json.dumps(extra['objective'])}")
        parsed.objective = extra["objective"]
        parsed.options["split_special_tokens"] = extra["split_special_tokens"]
        if extra["pad_token"] is not None:  # Hugging Face keeps the pad token in the padding section only
            parsed.options["pad_token"] = extra["pad_token"]
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
