"""The character tokenizer, written out plainly: the twin of ``src/chars``
(docs/spec.md, section 16)."""

from __future__ import annotations

import json as _json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, SupportsIndex

from fast_wordpiece import batch_encoding
from fast_wordpiece.reference import family
from fast_wordpiece.reference.args import (
    TEXT_COUNTS,
    _corpus_texts,
    _flag,
    _integer,
    _json_loads,
    _path,
    _quoted,
    _special_texts,
    _StrPath,
    _text,
    _text_counts,
    _threads,
)
from fast_wordpiece.reference.family import IdArray as _IdArray
from fast_wordpiece.reference.family import IntT as _IntT
from fast_wordpiece.reference.files import load_parsed, paths_arg, read_utf8, write_atomic


class CharTokenizer(family.TableLookups, family.TransformersCalls):
    """The twin of ``fast_wordpiece.CharTokenizer``: one token per character
    (docs/spec.md section 16). ``vocab`` maps tokens to ids 0..n: the special
    tokens (``special_tokens``, default ``["[UNK]"]``) and single characters;
    ``unk_token`` (default ``"[UNK]"``) must be a special token. ValueError
    otherwise, or for ids with a gap."""

    def __init__(
        self, vocab: dict[str, _IntT], *, special_tokens: Iterable[str] | None = None, unk_token: str = "[UNK]"
    ) -> None:
        _text(unk_token, "unk_token")
        self.vocab = family.table_vocab(vocab)
        self.id_to = {i: t for t, i in self.vocab.items()}
        # each once, as the engine keeps them (a special token is a token of the vocabulary)
        self.specials = list(dict.fromkeys(_special_texts(special_tokens))) if special_tokens is not None else ["[UNK]"]
        # The engine's order: the tokens in id order, then the special tokens in the order given.
        for t in sorted(self.vocab, key=self.vocab.__getitem__):
            if t not in self.specials and len(t) != 1:
                raise ValueError(f"token {_quoted(t)} is neither one character nor a special token")
        for t in self.specials:
            if not t:
                raise ValueError("a special token must not be empty")
            if t not in self.vocab:
                raise ValueError(f"special token {_quoted(t)} is not in the vocabulary")
        if unk_token not in self.specials:
            raise ValueError(f"unk_token {_quoted(unk_token)} must be one of the special tokens")
        self._unk_token = unk_token

    def _compared(self) -> object:
        """The vocabulary, the special tokens (in any order: the order given changes no split) and the
        unknown token, as the engine compares them."""
        return self.vocab, {t for t in self.specials if t in self.vocab}, self.unk_token

    @staticmethod
    def train(
        corpus: Iterable[str | Iterable[str]],
        vocab_size: SupportsIndex | None = None,
        min_frequency: SupportsIndex | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        unk_token: str = "[UNK]",
        show_progress: bool = True,
    ) -> CharTokenizer:
        """Same as the engine's ``CharTokenizer.train``: counts the characters
        of ``corpus`` (texts, and batches of texts read as their texts) and
        keeps them as ``train_from_counts`` does (``min_frequency`` None means
        1, ``vocab_size`` None keeps all). ``unk_token`` and ``show_progress``
        are checked first, as in the engine; the twin shows no progress."""
        _text(unk_token, "unk_token")
        _flag(show_progress, "show_progress")
        held = list(_corpus_texts(corpus, "corpus"))
        special_tokens = family.train_args(vocab_size, min_frequency, special_tokens, no_size=True)
        counts: Counter[str] = Counter()
        for text in held:
            counts.update(text)
        return CharTokenizer.train_from_counts(
            counts, vocab_size, min_frequency, special_tokens=special_tokens, unk_token=unk_token
        )

    @staticmethod
    def train_from_files(
        paths: _StrPath | Iterable[_StrPath],
        vocab_size: SupportsIndex | None = None,
        min_frequency: SupportsIndex | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        unk_token: str = "[UNK]",
        show_progress: bool = True,
    ) -> CharTokenizer:
        """``train`` on UTF-8 text files: OSError for a file that cannot be read, ValueError for
        one that is not UTF-8. The arguments are checked first, in the engine's order
        (``unk_token``, ``show_progress``, ``paths``, then the others)."""
        _text(unk_token, "unk_token")
        _flag(show_progress, "show_progress")
        files = paths_arg(paths)
        special_tokens = family.train_args(vocab_size, min_frequency, special_tokens, no_size=True)
        texts = [read_utf8(path) for path in files]
        return CharTokenizer.train(texts, vocab_size, min_frequency, special_tokens=special_tokens, unk_token=unk_token)

    @staticmethod
    def train_from_counts(
        counts: Mapping[str, SupportsIndex] | Iterable[tuple[str, SupportsIndex]],
        vocab_size: SupportsIndex | None = None,
        min_frequency: SupportsIndex | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        unk_token: str = "[UNK]",
        show_progress: bool = True,
    ) -> CharTokenizer:
        """Same as the engine's ``CharTokenizer.train_from_counts``: the
        characters counted at least ``min_frequency`` times (None: 1) that
        are not special tokens; with ``vocab_size``, the
        ``vocab_size - len(special_tokens)`` most frequent (ties: smaller code
        point). Vocabulary: ``special_tokens`` (None: ``["[UNK]"]``), then the
        characters in code point order. ``show_progress`` is checked; the twin
        shows none."""
        _text(unk_token, "unk_token")
        _flag(show_progress, "show_progress")
        checked = _text_counts(counts, "counts", TEXT_COUNTS, 0)
        for i, (c, _) in enumerate(checked):
            if len(c) != 1:
                raise ValueError(f"counts[{i}]: {_quoted(c)} is not one character")
        if vocab_size is not None:
            vocab_size = _integer(vocab_size, "vocab_size", 1)
        min_frequency = 1 if min_frequency is None else _integer(min_frequency, "min_frequency", 0)
        specials = _special_texts(special_tokens) if special_tokens is not None else ["[UNK]"]
        # The engine's order: unk_token, repeated special tokens, the counts, then the rest of the
        # vocabulary (an empty special token) when it is built.
        if unk_token not in specials:
            raise ValueError(f"unk_token {_quoted(unk_token)} must be one of the special tokens")
        for i, t in enumerate(specials):
            if t in specials[:i]:
                raise ValueError(f"special token {_quoted(t)} is given twice")
        total: Counter[str] = Counter()
        for c, n in checked:
            total[c] += n
            if total[c] >= 2**64:
                raise ValueError(f"the counts of {_quoted(c)} add up to more than 2**64 - 1")
        if not any(n > 0 for n in total.values()):
            raise ValueError("the corpus has no characters to train on")
        kept = [(c, n) for c, n in total.items() if n > 0 and n >= min_frequency and c not in specials]
        if vocab_size is not None:
            # The most frequent, ties by smaller code point.
            kept = sorted(kept, key=lambda x: (-x[1], x[0]))[: max(vocab_size - len(specials), 0)]
        vocab = {t: i for i, t in enumerate([*specials, *sorted(c for c, _ in kept)])}
        return CharTokenizer(vocab, special_tokens=specials, unk_token=unk_token)

    def tokenize(self, text: str, *, add_special_tokens: bool = False, **kwargs: Any) -> list[str]:
        """The tokens of ``text``: special tokens split out first, then each
        character, or ``unk_token`` for one not in the vocabulary. TypeError
        unless ``text`` is a str, ValueError if it holds a lone surrogate. ``add_special_tokens`` (a bool) adds nothing:
        there is no template. The call's other keyword arguments (``truncation``, ``max_length``,
        ``padding``, ...) are accepted and change nothing, as in transformers 5
        (``batch_encoding.tokenize_keywords``)."""
        _flag(add_special_tokens, "add_special_tokens")
        batch_encoding.tokenize_keywords(kwargs, "CharTokenizer")
        text = _text(text, "text")
        tokens: list[str] = []
        for segment, _, special in family.split_specials(text, self.specials):
            if special:
                tokens.append(segment)
                continue
            tokens.extend(c if c in self.vocab and c not in self.specials else self.unk_token for c in segment)
        return tokens

    def encode(self, text: str, *, add_special_tokens: bool = True) -> list[int]:
        """The ids of ``tokenize(text)``; ``add_special_tokens`` (a bool) adds nothing, as for a
        tokenizer.json without a post-processor in tokenizers and transformers."""
        return [self.vocab[t] for t in self.tokenize(text, add_special_tokens=add_special_tokens)]

    def encode_batch(
        self, texts: Iterable[str], *, add_special_tokens: bool = True, num_threads: SupportsIndex | None = None
    ) -> list[list[int]]:
        """``encode`` of every text, one after the other (``add_special_tokens`` and
        ``num_threads`` are checked, then ignored)."""
        _flag(add_special_tokens, "add_special_tokens")
        _threads(num_threads)
        return [self.encode(t) for t in family.batch(texts, "texts")]

    def decode(
        self,
        token_ids: Mapping[str, Any]
        | _IdArray
        | SupportsIndex
        | Iterable[SupportsIndex]
        | Sequence[Sequence[SupportsIndex]],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str | list[str]:
        """The tokens of ``token_ids`` joined, without the special tokens (``unk_token``
        among them) when ``skip_special_tokens``; with ``clean_up_tokenization_spaces``
        (None: the tokenizer's), transformers' clean-up. An id not in the vocabulary:
        ValueError. A batch (a list of sequences, a 2-D array) gives a list of texts."""
        _flag(skip_special_tokens, "skip_special_tokens")
        clean_up = family.clean_up_flag(clean_up_tokenization_spaces, self.clean_up_tokenization_spaces)
        _flag(spaces_between_special_tokens, "spaces_between_special_tokens")  # as transformers 5: no effect
        ids, name, batch = family.top_ids(token_ids)
        if batch:
            return family.decode_rows(self.decode, ids, self.vocab_size, skip_special_tokens, clean_up)
        out = []
        for i in family.decode_ids(ids, self.vocab_size, name):
            if i not in self.id_to:
                raise ValueError(f"id {i} is not in the vocabulary")
            if not (skip_special_tokens and self.id_to[i] in self.specials):
                out.append(self.id_to[i])
        return family.cleaned_up("".join(out), clean_up)

    def analyze(self, texts: Iterable[str]) -> dict[str, int | float]:
        """Same as the engine's ``CharTokenizer.analyze``: counts over the encoded ``texts``."""
        return family.analyze(texts, self.encode, self.vocab_size, self.vocab[self.unk_token])

    def get_vocab(self) -> dict[str, int]:
        """``{token: id}`` for the whole vocabulary."""
        return dict(self.vocab)

    @property
    def vocab_size(self) -> int:
        """The number of tokens in the vocabulary."""
        return len(self.vocab)

    @property
    def unk_token(self) -> str:
        """The token of a character not in the vocabulary (one of the special tokens)."""
        return self._unk_token

    @property
    def special_tokens(self) -> list[str]:
        """The special tokens, in id order."""
        return sorted(self.specials, key=self.vocab.__getitem__)

    def to_json(self) -> str:
        """The tokenizer as the engine's JSON, to the byte: ``{"special_tokens": [...], "type":
        "CharTokenizer", "unk_token": ..., "vocab": [...]}`` (keys sorted, no spaces)."""
        vocab = sorted(self.vocab, key=self.vocab.__getitem__)
        root = {"type": "CharTokenizer", "vocab": vocab, "special_tokens": self.special_tokens}
        root["unk_token"] = self.unk_token
        return _json.dumps(root, ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    @staticmethod
    def from_json(json: str) -> CharTokenizer:
        """A tokenizer from ``to_json``'s text; ValueError if it is not one."""
        try:
            root = _json_loads(_text(json, "json"))
        except _json.JSONDecodeError as e:
            raise ValueError(f"not valid JSON: {e}") from None
        if not isinstance(root, dict) or root.get("type") != "CharTokenizer":
            raise ValueError('type: expected "CharTokenizer"')
        unk = root.get("unk_token")
        if not isinstance(unk, str):
            raise ValueError("unk_token: missing")

        def strings(key: str) -> list[str]:
            value = root.get(key)
            if not (isinstance(value, list) and all(isinstance(t, str) for t in value)):
                raise ValueError(f"{key}: expected a list of str")
            return value

        tokens, specials = strings("vocab"), strings("special_tokens")
        vocab: dict[str, int] = {}
        for i, t in enumerate(tokens):  # the engine's order: each token once, then what it is
            if vocab.setdefault(t, i) != i:
                raise ValueError(f"token {_quoted(t)} is twice in the vocabulary")
            if t not in specials and len(t) != 1:
                raise ValueError(f"token {_quoted(t)} is neither one character nor a special token")
        return CharTokenizer(vocab, special_tokens=specials, unk_token=unk)

    def save(self, path: _StrPath) -> None:
        """Writes ``to_json``'s text to ``path`` atomically, as the engine does (see ``files.write_atomic``)."""
        write_atomic(_path(path), self.to_json().encode("utf-8"))

    @staticmethod
    def load(path: _StrPath) -> CharTokenizer:
        """Reads a file ``save`` wrote: OSError if it cannot be read, ValueError naming the file
        if it is not UTF-8 or not a character tokenizer's JSON."""
        return load_parsed(_path(path), CharTokenizer.from_json)
