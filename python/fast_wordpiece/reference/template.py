"""Spec section 10: Hugging Face's ``TemplateProcessing`` as a ``post_processor`` option.

The JSON object (``single``, ``pair``, ``special_tokens``) is read with errors naming their JSON
path, written back as Hugging Face writes it, and checked against the vocabulary into the pieces
post-processing joins: ``("sequence", k, type_id)`` for sequence ``k`` (0: ``$A``, 1: ``$B``) and
``("special", ids, type_id)`` for special tokens. Refused (Hugging Face loads them, then fails or
encodes in a way the tokens cannot show): ``single`` without ``$A`` once and no ``$B``; ``pair``
without ``$A`` and ``$B`` once each; a special token missing from ``special_tokens``; ids and tokens
that differ in number; an id the vocabulary gives another token, or past its end; a type id above 255.
An id in a hole of the vocabulary is run as Hugging Face runs it: encodings show the template's token, and
decoding leaves the id out.
"""

from __future__ import annotations

from typing import Any, Union

from fast_wordpiece.reference.json_text import shown

#: ("sequence", k, type_id) or ("special", ids, type_id)
Piece = tuple[str, Union[int, list[int]], int]

_U32 = 2**32


def _field(value: dict[str, Any], name: str, path: str) -> Any:
    if name not in value:
        raise ValueError(f'{path}: missing field "{name}"')
    return value[name]


def _string(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{path}: expected a string, found {shown(value)}")
    return value


def _id(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < _U32:
        raise ValueError(f"{path}: expected an integer from 0 to 4294967295, found {shown(value)}")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{path}: expected a list, found {shown(value)}")
    return value


def _piece(item: Any, path: str) -> dict[str, Any]:
    if not (isinstance(item, dict) and len(item) == 1):
        raise ValueError(f"{path}: expected one SpecialToken or Sequence")
    ((key, inner),) = item.items()
    p = f"{path}.{key}"
    if not isinstance(inner, dict):
        raise ValueError(f"{p}: expected an object")
    type_id = _id(_field(inner, "type_id", p), f"{p}.type_id")
    name = _string(_field(inner, "id", p), f"{p}.id")
    if key == "Sequence":
        if name not in ("A", "B"):
            raise ValueError(f'{p}.id: expected "A" or "B", found {shown(name)}')
        return {"Sequence": {"id": name, "type_id": type_id}}
    if key == "SpecialToken":
        return {"SpecialToken": {"id": name, "type_id": type_id}}
    raise ValueError(f"{path}: expected SpecialToken or Sequence, found {shown(key)}")


def parse(value: Any, path: str = "post_processor") -> dict[str, Any]:
    """The template of a ``{"type": "TemplateProcessing", ...}`` object, as Hugging Face writes it
    (fields Hugging Face ignores are dropped; ``special_tokens`` in the order of their names)."""
    if not isinstance(value, dict):
        raise ValueError(f"{path}: expected an object")

    def pieces(key: str) -> list[dict[str, Any]]:
        items = _list(_field(value, key, path), f"{path}.{key}")
        return [_piece(item, f"{path}.{key}[{i}]") for i, item in enumerate(items)]

    single, pair = pieces("single"), pieces("pair")
    p = f"{path}.special_tokens"
    entries = _field(value, "special_tokens", path)
    if not isinstance(entries, dict):
        raise ValueError(f"{p}: expected an object")
    special_tokens = {}
    for name, entry in sorted(entries.items()):
        q = f"{p}.{name}"
        if not isinstance(entry, dict):
            raise ValueError(f"{q}: expected an object")
        own = _string(_field(entry, "id", q), f"{q}.id")
        if own != name:
            raise ValueError(f"{q}.id: {shown(own)} differs from its key {shown(name)}, which is not supported")
        ids = [_id(v, f"{q}.ids[{i}]") for i, v in enumerate(_list(_field(entry, "ids", q), f"{q}.ids"))]
        listed = _list(_field(entry, "tokens", q), f"{q}.tokens")
        tokens = [_string(v, f"{q}.tokens[{i}]") for i, v in enumerate(listed)]
        special_tokens[name] = {"id": name, "ids": ids, "tokens": tokens}
    return {"type": "TemplateProcessing", "single": single, "pair": pair, "special_tokens": special_tokens}


def compile_template(template: dict[str, Any], vocab: list[str | None],
                     path: str = "post_processor") -> tuple[list[Piece], list[Piece], dict[int, str]]:  # fmt: skip
    """The pieces of ``single`` and ``pair`` with the vocabulary ``vocab`` (tokens by id, None in a hole), and
    the ids the template adds that are holes of the vocabulary, each with the template's token (encodings show
    it, decoding leaves the id out, as in Hugging Face)."""
    entries = template["special_tokens"]
    ids = {token: id_ for id_, token in enumerate(vocab) if token is not None}
    unassigned: dict[int, str] = {}

    def checked_ids(name: str) -> list[int]:
        entry, p = entries[name], f"{path}.special_tokens.{name}"
        if len(entry["ids"]) != len(entry["tokens"]):
            raise ValueError(f"{p}: {len(entry['ids'])} ids but {len(entry['tokens'])} tokens: they must be as many "
                             "(Hugging Face fails)")  # fmt: skip
        for token, id_ in zip(entry["tokens"], entry["ids"]):
            if ids.get(token) == id_:
                continue
            quoted = shown(token)
            if id_ >= len(vocab):
                raise ValueError(f"{p}.ids: {quoted} has id {id_} here, past the end of the vocabulary's "
                                 f"{len(vocab)} ids, which is not supported")  # fmt: skip
            other = vocab[id_]
            if other is not None:
                raise ValueError(f"{p}.ids: {quoted} has id {id_} here but the vocabulary gives id {id_} to "
                                 f"{shown(other)}, which is not supported")  # fmt: skip
            first = unassigned.setdefault(id_, token)
            if first != token:
                raise ValueError(f"{p}.ids: id {id_} stands for {quoted} here and for "
                                 f"{shown(first)} elsewhere in the template, "
                                 "which is not supported")  # fmt: skip
        return list(entry["ids"])

    def compiled(key: str) -> list[Piece]:
        out: list[Piece] = []
        for i, item in enumerate(template[key]):
            ((kind, inner),) = item.items()
            at = f"{path}.{key}[{i}].{kind}"
            if inner["type_id"] > 255:
                raise ValueError(f"{at}.type_id: {inner['type_id']} is not supported (at most 255)")
            if kind == "Sequence":
                out.append(("sequence", 0 if inner["id"] == "A" else 1, inner["type_id"]))
            elif inner["id"] not in entries:
                raise ValueError(f"{at}.id: {shown(inner['id'])} is not in "
                                 f"{path}.special_tokens (Hugging Face fails when it encodes)")  # fmt: skip
            else:
                out.append(("special", checked_ids(inner["id"]), inner["type_id"]))
        return out

    single, pair = compiled("single"), compiled("pair")

    def count(pieces: list[Piece], k: int) -> int:
        return sum(1 for kind, what, _ in pieces if kind == "sequence" and what == k)

    if count(single, 0) != 1 or count(single, 1) != 0:
        raise ValueError(f"{path}.single: must hold $A once and no $B")
    if count(pair, 0) != 1 or count(pair, 1) != 1:
        raise ValueError(f"{path}.pair: must hold $A once and $B once")
    return single, pair, unassigned


def bert(cls: int, sep: int) -> tuple[list[Piece], list[Piece]]:
    """BERT's template: ``[CLS] $A:0 [SEP]:0`` and ``[CLS] $A:0 [SEP]:0 $B:1 [SEP]:1``."""
    return ([("special", [cls], 0), ("sequence", 0, 0), ("special", [sep], 0)],
            [("special", [cls], 0), ("sequence", 0, 0), ("special", [sep], 0), ("sequence", 1, 1),
             ("special", [sep], 1)])  # fmt: skip


#: No special tokens: ``$A:0`` and ``$A:0 $B:1``.
PLAIN: tuple[list[Piece], list[Piece]] = ([("sequence", 0, 0)], [("sequence", 0, 0), ("sequence", 1, 1)])


def added(pieces: list[Piece]) -> int:
    """The number of special tokens a template adds (Hugging Face's ``num_special_tokens_to_add``)."""
    return sum(len(what) for kind, what, _ in pieces if kind == "special")  # type: ignore[arg-type,misc]


def as_bert(template: dict[str, Any]) -> tuple[str, str] | None:
    """The [CLS] and [SEP] of a template that is BERT's (each a single token named as itself)."""
    entries = template["special_tokens"]

    def special(item: dict[str, Any], type_id: int) -> str | None:
        inner = item.get("SpecialToken")
        entry = entries.get(inner["id"], {}) if inner is not None else {}
        # one token named as itself, with one id (other counts are refused as any template's are)
        if inner is None or inner["type_id"] != type_id or entry.get("tokens") != [inner["id"]]:
            return None
        if len(entry["ids"]) != 1:
            return None
        return str(inner["id"])

    def seq(item: dict[str, Any], name: str, type_id: int) -> bool:
        return item == {"Sequence": {"id": name, "type_id": type_id}}

    single, pair = template["single"], template["pair"]
    if len(single) != 3 or len(pair) != 5:
        return None
    cls, sep = special(single[0], 0), special(single[2], 0)
    if cls is None or sep is None:
        return None
    same = special(pair[0], 0) == cls and special(pair[2], 0) == sep and special(pair[4], 1) == sep
    ok = seq(single[1], "A", 0) and seq(pair[1], "A", 0) and seq(pair[3], "B", 1) and same
    return (cls, sep) if ok else None


def cls_and_sep(template: dict[str, Any]) -> tuple[str, str] | None:
    """The tokens of ``X $A Y`` (single-token X and Y): what a transformers-style cls_token and
    sep_token name (RoBERTa's ``<s>`` and ``</s>``)."""

    def token(item: dict[str, Any]) -> str | None:
        inner = item.get("SpecialToken")
        tokens = None if inner is None else template["special_tokens"].get(inner["id"], {}).get("tokens")
        return tokens[0] if tokens is not None and len(tokens) == 1 else None

    single = template["single"]
    if len(single) != 3 or "Sequence" not in single[1] or single[1]["Sequence"]["id"] != "A":
        return None
    first, last = token(single[0]), token(single[2])
    return None if first is None or last is None else (first, last)
