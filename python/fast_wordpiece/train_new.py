"""``PyTokenizer.train_new_from_iterator``: transformers' "train a new tokenizer from an old one".

Shared by the engine's ``PyTokenizer`` (a method that calls this function) and
the twin's: a new tokenizer with the old one's pipeline, special tokens and call
settings, its vocabulary learned by the tokenizer class's own ``train`` (the
native trainer, GIL released, for the engine). docs/spec.md section 4 states
the rules.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from fast_wordpiece.added_token import AddedToken

#: The keyword arguments of Hugging Face's ``WordPieceTrainer`` that ``train`` takes too,
#: plus ``objective`` (ours), with the defaults ``train_new_from_iterator`` gives them
#: (``min_frequency`` 0 as ``WordPieceTrainer``'s, not ``train``'s 2).
TRAINER_KWARGS: dict[str, Any] = {
    "min_frequency": 0,
    "limit_alphabet": None,
    "initial_alphabet": None,
    "show_progress": True,
    "continuing_subword_prefix": None,
    "objective": None,
}

#: The named special tokens that the call settings hold (unk/cls/sep/pad are pipeline options too).
_NAMED = ("pad_token", "mask_token", "bos_token", "eos_token")

#: The ValueError of ``train`` (engine and twin) for a corpus without a word.
NO_WORDS = "the corpus has no words to train on"


def _type_name(value: object) -> str:
    return type(value).__name__


def _renames(special_tokens_map: object) -> dict[str, str]:
    if special_tokens_map is None:
        return {}
    if not isinstance(special_tokens_map, Mapping):
        raise TypeError(
            f"special_tokens_map must be a dict of str to str or None, not {_type_name(special_tokens_map)}"
        )
    for old, new in special_tokens_map.items():
        if not isinstance(old, str) or not isinstance(new, str):
            what, bad = ("a key", old) if not isinstance(old, str) else (f"the value of {old!r}", new)
            raise TypeError(f"special_tokens_map must map str to str: {what} is {_type_name(bad)}")
    return dict(special_tokens_map)


def _new_special_tokens(tokens: object) -> list[AddedToken]:
    """``new_special_tokens`` as special AddedTokens (a str: default flags)."""
    if tokens is None:
        return []
    if isinstance(tokens, (str, AddedToken)) or not isinstance(tokens, Iterable):
        raise TypeError(f"new_special_tokens must be a list of str or AddedToken, not {_type_name(tokens)}")
    out = []
    for i, token in enumerate(tokens):
        if isinstance(token, str):
            token = AddedToken(token, special=True)
        if not isinstance(token, AddedToken):
            raise TypeError(f"new_special_tokens[{i}] must be a str or AddedToken, not {_type_name(token)}")
        out.append(_renamed(token, token.content))
    return out


def _renamed(token: Any, content: str) -> AddedToken:
    """A special AddedToken with ``token``'s flags and ``content``."""
    return AddedToken(content, single_word=token.single_word, lstrip=token.lstrip, rstrip=token.rstrip,
                      normalized=token.normalized, special=True)  # fmt: skip


def _with_flags(new: Any, tokens: list[AddedToken]) -> None:
    """Gives ``new``'s special tokens the flags of ``tokens`` (lstrip, ..., as transformers keeps them);
    a token given twice keeps the flags of its first place (an old special token's over a new one's)."""
    current = {t.content: t for t in new.added_tokens_decoder.values()}
    first: dict[str, AddedToken] = {}
    for t in tokens:
        first.setdefault(t.content, t)
    changed = [t for t in first.values() if t.content in current and current[t.content] != t]
    if changed:
        new.add_special_tokens(changed)


def _trainer_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    # The first unexpected one in the call's order, named as Python names it (spec section 8).
    unknown = next((name for name in kwargs if name not in TRAINER_KWARGS), None)
    if unknown is not None:
        raise TypeError(
            f"train_new_from_iterator() got an unexpected keyword argument {unknown!r} "
            f"(it takes {', '.join(TRAINER_KWARGS)})"
        )
    return {**TRAINER_KWARGS, **kwargs}


def _template(post_processor: dict[str, Any], renames: dict[str, str]) -> dict[str, Any]:
    """A TemplateProcessing (as json.loads gives it) with its special tokens renamed, ids to be set."""
    template = copy.deepcopy(post_processor)
    for key in ("single", "pair"):
        for piece in template.get(key) or []:
            special = piece.get("SpecialToken") if isinstance(piece, dict) else None
            if isinstance(special, dict) and isinstance(special.get("id"), str):
                special["id"] = renames.get(special["id"], special["id"])
    tokens = template.get("special_tokens")
    if isinstance(tokens, dict):
        renamed = {}
        for name, entry in tokens.items():
            entry = dict(entry)
            if isinstance(entry.get("id"), str):
                entry["id"] = renames.get(entry["id"], entry["id"])
            entry["tokens"] = [renames.get(t, t) for t in entry.get("tokens", [])]
            renamed[renames.get(name, name)] = entry
        template["special_tokens"] = renamed
    return template


def _with_template_ids(template: dict[str, Any], tokenizer: Any) -> dict[str, Any]:
    """``template`` with the ids of its special tokens in ``tokenizer``'s vocabulary (ValueError if absent)."""
    for entry in (template.get("special_tokens") or {}).values():
        ids = []
        for token in entry.get("tokens", []):
            token_id = tokenizer.token_to_id(token)
            if token_id is None:
                raise ValueError(
                    f"the post-processor's special token {token!r} is not in the new vocabulary "
                    "(give it in new_special_tokens or rename it with special_tokens_map)"
                )
            ids.append(token_id)
        entry["ids"] = ids
    return template


def _special_added_tokens(tokenizer: Any) -> list[AddedToken]:
    """The old tokenizer's special tokens as transformers' ``added_tokens_decoder`` holds them: the
    special added tokens, and every named special token (``all_special_tokens``) that is not one,
    which transformers adds when it loads a tokenizer.json without them (a bare WordPiece file);
    in the order of their ids (a named one not in the vocabulary after them, in its own order)."""
    added = tokenizer.added_tokens_decoder
    ranked = [(i, 0, added[i]) for i in sorted(added) if added[i].special]
    have = {t.content for _, _, t in ranked}
    late = len(tokenizer.get_vocab()) + len(added)
    for n, name in enumerate(dict.fromkeys(tokenizer.all_special_tokens)):
        if name not in have:
            token_id = tokenizer.token_to_id(name)
            ranked.append((late + n if token_id is None else token_id, 1, AddedToken(name, special=True)))
    return [t for _, _, t in sorted(ranked, key=lambda r: (r[0], r[1]))]


def _untrained(
    cls: Any, special_tokens: list[str], initial_alphabet: Any, objective: Any, options: dict[str, Any]
) -> Any:
    """What ``train`` learns from a corpus without a word, by its rules (section 4, steps 2 and 5):
    the special tokens, then ``initial_alphabet`` in code point order; no merge."""
    alphabet = sorted(set(initial_alphabet or ()))
    vocab = list(dict.fromkeys([*special_tokens, *alphabet]))
    new = cls(vocab, special_tokens=special_tokens, **options)
    state = json.loads(new.to_json())
    state["objective"] = "likelihood" if objective is None else objective
    return cls.from_json(json.dumps(state))


def train_new_from_iterator(
    tokenizer: Any,
    text_iterator: Any,
    vocab_size: Any,
    length: Any = None,
    new_special_tokens: Any = None,
    special_tokens_map: Any = None,
    **kwargs: Any,
) -> Any:
    """Trains a new tokenizer like ``tokenizer`` (its pipeline, special tokens, call settings) on
    ``text_iterator``; see ``PyTokenizer.train_new_from_iterator``."""
    renames = _renames(special_tokens_map)
    extra = _new_special_tokens(new_special_tokens)
    if length is not None and (isinstance(length, bool) or not isinstance(length, int)):
        raise TypeError(f"length must be an int or None, not {_type_name(length)}")
    trainer = _trainer_kwargs(kwargs)

    options = dict(tokenizer.options)
    for name in ("unk_token", "cls_token", "sep_token", "pad_token"):
        options[name] = renames.get(options[name], options[name])
    prefix = trainer.pop("continuing_subword_prefix")
    if prefix is not None:
        options["continuing_subword_prefix"] = prefix
    template = options["post_processor"]
    if isinstance(template, dict):
        template = _template(template, renames)
        options["post_processor"] = "none"

    # The special added tokens in the order of their ids, renamed; then the new ones (as transformers).
    added = tokenizer.added_tokens_decoder
    olds = _special_added_tokens(tokenizer)
    # The others come back after the vocabulary, as transformers' AutoTokenizer has them again.
    plain = [added[i] for i in sorted(added) if not added[i].special]
    special = [_renamed(t, renames.get(t.content, t.content)) for t in olds] + extra
    special_tokens = list(dict.fromkeys(t.content for t in special))
    alphabet = trainer["initial_alphabet"]
    if isinstance(alphabet, Iterator):
        trainer["initial_alphabet"] = alphabet = list(alphabet)  # read again for an empty corpus

    try:
        new = type(tokenizer).train(
            text_iterator,
            vocab_size,
            trainer.pop("min_frequency"),
            special_tokens=special_tokens,
            **trainer,
            **options,
        )
    except ValueError as error:
        if str(error) != NO_WORDS:
            raise
        # transformers' tokenizer of an empty corpus: the special tokens only (every argument is
        # checked by then).
        new = _untrained(type(tokenizer), special_tokens, alphabet, trainer["objective"], options)

    # What the old tokenizer's file holds beyond the vocabulary: the template (with the new ids),
    # the default truncation and padding.
    old_state, state = json.loads(tokenizer.to_json()), json.loads(new.to_json())
    if isinstance(template, dict):
        state["options"]["post_processor"] = _with_template_ids(template, new)
    for key in ("truncation", "padding"):
        if old_state.get(key) is not None:
            state[key] = old_state[key]
            if key == "padding":
                state[key]["pad_token"] = options["pad_token"]
                state[key]["pad_id"] = new.token_to_id(options["pad_token"])
    if state != json.loads(new.to_json()):
        new = type(tokenizer).from_json(json.dumps(state))

    # The call settings, as transformers carries its init_kwargs over.
    new.model_max_length = tokenizer.model_max_length
    new.padding_side = tokenizer.padding_side
    new.truncation_side = tokenizer.truncation_side
    new.clean_up_tokenization_spaces = tokenizer.clean_up_tokenization_spaces
    new.model_input_names = tokenizer.model_input_names
    new.name_or_path = tokenizer.name_or_path
    for name in _NAMED:
        token = getattr(tokenizer, name)
        if token is not None:
            setattr(new, name, renames.get(token, token))
    _with_flags(new, special)
    extras = [renames.get(t, t) for t in tokenizer.extra_special_tokens]
    new.extra_special_tokens = list(dict.fromkeys(extras + [t.content for t in extra]))
    if plain:
        new.add_tokens(plain)
    return new
