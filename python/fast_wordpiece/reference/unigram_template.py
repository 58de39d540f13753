"""The twin of ``src/unigram/template.rs``: Hugging Face's ``TemplateProcessing`` post-processor
for Unigram, the special tokens a template puts around one text (``single``) or a pair of texts
(``pair``), and the type id of every part."""

from __future__ import annotations

from typing import Any

from fast_wordpiece.reference.args import _quoted

#: A part of a template: ``("special", name, ids, type_id, tokens)`` or ``("text", which, type_id)``.
Item = tuple[Any, ...]


def _invalid(what: str) -> ValueError:
    return ValueError(f"the TemplateProcessing post_processor: {what}")


def _name(key: str) -> str:
    """A key as the engine's ``{:?}`` shows it."""
    return '"' + key + '"'


class Template:
    """A ``TemplateProcessing`` post-processor (its special tokens pieces of ``pieces``, each
    token its piece), and its JSON to write back."""

    def __init__(self, value: Any, pieces: list[tuple[str, float]]) -> None:
        kind = value.get("type") if isinstance(value, dict) else None
        kind = kind if isinstance(kind, str) else ""
        if kind != "TemplateProcessing":
            raise ValueError(f"the {_quoted(kind)} post_processor is not supported (only TemplateProcessing)")
        self.json = value
        specials = value.get("special_tokens")
        specials = specials if isinstance(specials, dict) else None
        self.single = self._items(value, "single", 1, specials, pieces)
        self.pair = self._items(value, "pair", 2, specials, pieces)

    @staticmethod
    def _items(
        value: dict[str, Any], key: str, texts: int, specials: dict[str, Any] | None, pieces: list[tuple[str, float]]
    ) -> list[Item]:
        listed = value.get(key)
        if not isinstance(listed, list):
            raise _invalid(f"no {_name(key)} list")
        out: list[Item] = []
        for item in listed:
            item = item if isinstance(item, dict) else {}

            def type_id(x: Any) -> int:
                t = x.get("type_id") if isinstance(x, dict) else None
                if not (isinstance(t, int) and not isinstance(t, bool) and 0 <= t < 2**32):
                    raise _invalid(f"an item of {_name(key)} has no type_id")
                return t

            if "Sequence" in item:
                seq = item["Sequence"]
                which = {"A": 0, "B": 1}.get(str(seq.get("id")) if isinstance(seq, dict) else "")
                if which is None or which >= texts:
                    raise _invalid(f"a Sequence of {_name(key)} is neither $A nor $B (pair only)")
                out.append(("text", which, type_id(seq)))
            elif "SpecialToken" in item:
                special = item["SpecialToken"]
                name = special.get("id") if isinstance(special, dict) else None
                name = name if isinstance(name, str) else ""
                entry = specials.get(name) if specials is not None else None
                if entry is None:
                    raise _invalid(f"{_quoted(name)} is not one of its special_tokens")
                raw_ids = entry.get("ids") if isinstance(entry, dict) else None
                raw_tokens = entry.get("tokens") if isinstance(entry, dict) else None
                ids = [
                    i
                    for i in (raw_ids if isinstance(raw_ids, list) else [])
                    if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 2**32
                ]
                tokens = [t for t in (raw_tokens if isinstance(raw_tokens, list) else []) if isinstance(t, str)]
                matches = len(ids) == len(tokens) and all(
                    i < len(pieces) and pieces[i][0] == t for i, t in zip(ids, tokens)
                )
                if not ids or not matches:
                    raise _invalid(f"the ids of special token {_quoted(name)} are not the pieces of its tokens")
                out.append(("special", name, ids, type_id(special), tokens))
            else:
                raise _invalid(f"an item of {_name(key)} is neither a Sequence nor a SpecialToken")
        return out

    @staticmethod
    def notation(items: list[Item]) -> str:
        """A template in Hugging Face's notation: ``"[CLS]:0 $A:0 [SEP]:0"``."""
        return " ".join(f"{i[1]}:{i[3]}" if i[0] == "special" else f"${'AB'[i[1]]}:{i[2]}" for i in items)


def process(template: Template | None, texts: list[Any], add_special_tokens: bool) -> dict[str, list[Any]]:
    """The ids, tokens, offsets, type ids and special tokens mask of ``texts`` (one encoding or
    two) as ``template`` puts them: each text's tokens with the type id of its part and, when
    ``add_special_tokens``, the special tokens (offsets ``(0, 0)``, mask 1). Without a template,
    the texts' tokens in order, the second text's of type 1."""
    pair = len(texts) == 2
    if template is not None:
        items = template.pair if pair else template.single
    else:
        items = [("text", 0, 0), ("text", 1, 1)][: len(texts)]
    out: dict[str, list[Any]] = {k: [] for k in ("ids", "tokens", "offsets", "type_ids", "special_tokens_mask")}
    for item in items:
        if item[0] == "special":
            if not add_special_tokens:
                continue
            for i, token in zip(item[2], item[4]):
                out["ids"].append(i)
                out["tokens"].append(token)
                out["offsets"].append((0, 0))
                out["type_ids"].append(item[3])
                out["special_tokens_mask"].append(1)
        else:
            e = texts[item[1]]
            out["ids"] += e.ids
            out["tokens"] += e.tokens
            out["offsets"] += e.offsets
            out["type_ids"] += [item[2]] * len(e.ids)
            out["special_tokens_mask"] += [0] * len(e.ids)
    return out
