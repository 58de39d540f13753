"""The twin of the Unigram engine (``src/unigram``): docs/spec.md, "Unigram".

Readable Python, the same rules and the same floating-point operations in the
same order, so that encoding and training agree with the engine exactly.
"""

from __future__ import annotations

import errno
import json as _json
import math
import mmap
import operator
import os
import random
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal, SupportsIndex

from fast_wordpiece.reference import calling, family
from fast_wordpiece.reference import tokenizer as pretrained
from fast_wordpiece.reference.args import (
    TEXT_COUNTS,
    _corpus_texts,
    _flag,
    _index,
    _integer,
    _json_loads,
    _path,
    _quoted,
    _real,
    _special_texts,
    _StrPath,
    _text,
    _text_counts,
    _threads,
    _type_name,
)
from fast_wordpiece.reference.family import IdArray as _IdArray
from fast_wordpiece.reference.files import lines, load_parsed, paths_arg, read_utf8, write_atomic
from fast_wordpiece.reference.hf_json import check_root_keys, load_json
from fast_wordpiece.reference.json_numbers import as_read_back
from fast_wordpiece.reference.json_text import shown
from fast_wordpiece.reference.spm_normalizer import Aligned, Normalizer
from fast_wordpiece.reference.training import check_occurrences
from fast_wordpiece.reference.unicode import PUNCTUATION
from fast_wordpiece.reference.unigram_template import Template, process

REPLACEMENT = "\u2581"
UNK_PENALTY = 10.0
CHUNK = 1024
MIN_EXPECTED = 0.5
DEFAULT_SPECIAL_TOKENS = ("<unk>", "<s>", "</s>")
#: Seeds for sampled encodings made without one: drawn from the OS's random source
#: (``os.urandom``) at each call, so no two runs or processes (forked ones included)
#: repeat each other's draws, as with the engine.
_ENTROPY = random.SystemRandom()


def check_sampling(alpha: object, nbest: SupportsIndex) -> float | None:
    """The engine's checks of ``encode``'s sampling arguments (docs/spec.md
    section 14, "Errors"): ``nbest`` is -1 or 1..10000 whether or not
    ``alpha`` is given, ``alpha`` (when given) a positive finite number (a float argument, section 8),
    returned as the float it stands for."""
    n = _index(nbest, "nbest")
    if not (n == -1 or 1 <= n <= 10_000):
        raise ValueError(f"nbest must be -1 (sample from every segmentation) or between 1 and 10000, not {n}")
    if alpha is None:
        return None
    value = _real(alpha, "alpha")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"alpha must be a positive finite number, not {_shown_float(value)}")
    return value


#: Training's options besides ``vocab_size`` and ``show_progress``.
TRAINING_OPTIONS = ("special_tokens", "max_piece_length", "seed_size", "shrinking_factor", "num_sub_iterations")


def _shown_float(x: float) -> str:
    """A float as the engine writes it in messages: positional digits, no ``.0`` on a whole number."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    shown = format(Decimal(repr(x)), "f")
    return shown.removesuffix(".0")


def training_options(vocab_size: object, options: Mapping[str, Any]) -> dict[str, Any]:
    """``vocab_size`` and the options of ``train``, ``train_from_files`` or ``train_from_counts``
    (``TRAINING_OPTIONS`` and ``show_progress``), checked as the engine checks them and in its
    order, before the corpus or the counts: the special tokens (None: the defaults),
    ``shrinking_factor``'s type, the integers, then the values together. None means the default.
    ``options`` maps names to values (a caller's ``locals()``: other names are ignored). Returns
    them as ``train_counts`` takes them."""
    show_progress = _flag(options.get("show_progress", True), "show_progress")  # the twin shows none
    value = options.get("special_tokens")
    specials = list(DEFAULT_SPECIAL_TOKENS) if value is None else _special_texts(value)
    factor = options.get("shrinking_factor")
    factor = 0.75 if factor is None else _real(factor, "shrinking_factor")

    def positive(name: str, default: int) -> int:
        given = options.get(name)
        return default if given is None else _integer(given, name, 1)

    size = _integer(vocab_size, "vocab_size", 1)
    checked: dict[str, Any] = {
        "vocab_size": size,
        "special_tokens": specials,
        "max_piece_length": positive("max_piece_length", 16),
        "seed_size": positive("seed_size", 1_000_000),
        "shrinking_factor": factor,
        "num_sub_iterations": positive("num_sub_iterations", 2),
        "show_progress": show_progress,
    }
    if not specials:
        raise ValueError("special_tokens must hold at least the unknown token")
    for i, t in enumerate(specials):
        if not t:
            raise ValueError(f"special_tokens[{i}] is empty")
        if t in specials[:i]:
            raise ValueError(f"special token {_quoted(t)} appears twice")
    if size <= len(specials):
        raise ValueError(f"vocab_size ({size}) must exceed the number of special tokens ({len(specials)})")
    if not 0.0 < factor < 1.0:
        raise ValueError(f"shrinking_factor must be between 0 and 1 (exclusive), not {_shown_float(factor)}")
    return checked


def _special_tokens(value: object) -> list[str]:
    """Training's ``special_tokens``, checked as the engine checks them (None or none: the defaults)."""
    return (_special_texts(value) if value is not None else []) or list(DEFAULT_SPECIAL_TOKENS)


# --- pre-tokenization -------------------------------------------------------

#: An added token's flags: ``(lstrip, rstrip, single_word, normalized, special)``.
Flags = tuple[bool, bool, bool, bool, bool]
NO_FLAGS: Flags = (False, False, False, False, True)


def segments(text: str, specials: Sequence[str]) -> list[tuple[str, int, bool]]:
    """``(text, char_start, is_special)`` pieces of ``text``, the special
    tokens split out (``family.split_specials``)."""
    return family.split_specials(text, specials)


def words(text: str) -> list[tuple[str, bool, int]]:
    """``(word, virtual_prefix, char_offset)``: a word begins at every space
    or "▁" (and at the start); "▁" is prepended unless the text starts with one
    (or with a space)."""
    virtual = not text.startswith((" ", REPLACEMENT))
    out = []
    start = 0
    for i, c in enumerate(text):
        if c in (" ", REPLACEMENT) and i > 0:
            out.append((text[start:i], virtual and start == 0, start))
            start = i
    if start < len(text):
        out.append((text[start:], virtual and start == 0, start))
    return out


def word_text(word: str, virtual: bool) -> str:
    if virtual:
        return REPLACEMENT + word
    if word.startswith(" "):
        return REPLACEMENT + word[1:]
    return word


# --- the model ----------------------------------------------------------------


class Model:
    """Pieces with scores; lattice nodes and the Viterbi segmentation."""

    def __init__(
        self, pieces: Sequence[tuple[str, float]], unk_id: int, matched: int | None = None, last_wins: bool = False
    ) -> None:
        self.pieces = [(p, float(s)) for p, s in pieces]
        #: how many of the pieces (the first) the lattice finds in text; the rest are a file's
        #: added tokens past the model's vocabulary, which Hugging Face's model does not have
        self.matched = len(self.pieces) if matched is None else min(matched, len(self.pieces))
        for i, (p, s) in enumerate(self.pieces):
            if not p:
                raise ValueError(f"piece {i} is empty")
            if not math.isfinite(s):
                shown = "NaN" if math.isnan(s) else "inf" if s > 0 else "-inf"  # as the engine shows them
                raise ValueError(f"the score of piece {i} ({_quoted(p)}) is not finite: {shown}")
        #: each piece's id; with ``last_wins`` (a tokenizer.json's vocabulary, read as Hugging Face
        #: reads it), a piece listed twice has the id of its last entry
        self.ids: dict[str, int] = {}
        for i, (p, _) in enumerate(self.pieces):
            if p in self.ids and not last_wins:
                raise ValueError(f"piece {_quoted(p)} appears twice")
            self.ids[p] = i
        self.unk_id = unk_id
        self.min_score = min(s for _, s in self.pieces)
        self.max_bytes = max(len(p.encode()) for p, _ in self.pieces)

    def unk_score(self) -> float:
        return self.min_score - UNK_PENALTY

    def nodes_at(self, word: str, start: int) -> list[tuple[int, int, float]]:
        """``(id, end, score)`` of the nodes starting at character ``start``:
        the pieces found there, shortest first, then the unknown node if no
        piece is one character long."""
        out = []
        single = False
        end = start + 1
        while end <= len(word) and len(word[start:end].encode()) <= self.max_bytes:
            i = self.ids.get(word[start:end])
            if i is not None and i < self.matched:
                out.append((i, end, self.pieces[i][1]))
                single = single or end == start + 1
            end += 1
        if not single:
            out.append((self.unk_id, start + 1, self.unk_score()))
        return out

    def lattice(self, word: str) -> list[tuple[int, int, int, float]]:
        """``(start, end, id, score)``, by start, shortest first."""
        return [(s, e, i, sc) for s in range(len(word)) for i, e, sc in self.nodes_at(word, s)]

    def viterbi(self, word: str, skip: int | None = None) -> list[tuple[int, int, int]]:
        """``(id, start, end)`` of the best segmentation; a later candidate
        replaces the best path ending at a position only if strictly better."""
        n = len(word)
        best: list[tuple[float, int, int] | None] = [None] * (n + 1)
        best[0] = (0.0, 0, 0)
        for start in range(n):
            here = best[start]
            if here is None:
                continue
            for i, end, score in self.nodes_at(word, start):
                if i == skip:
                    continue
                v = score + here[0]
                t = best[end]
                if t is None or v > t[0]:
                    best[end] = (v, start, i)
        out = []
        end = n
        while end > 0 and best[end] is not None:
            _, s, i = best[end]  # type: ignore[misc]
            out.append((i, s, end))
            end = s
        out.reverse()
        return self.fuse_unknown(word, out) if skip is None else out

    def fuse_unknown(self, word: str, pieces: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        out: list[tuple[int, int, int]] = []
        for i, s, e in pieces:
            if i == self.unk_id and out and out[-1][0] == self.unk_id:
                out[-1] = (self.unk_id, out[-1][1], e)
            else:
                out.append((i, s, e))
        return [(self._own(word[s:e], i) if i == self.unk_id else i, s, e) for i, s, e in out]

    def _own(self, piece: str, default: int) -> int:
        """The id of ``piece`` in the model's own vocabulary, else ``default`` (an added token
        past the vocabulary is not the model's)."""
        i = self.ids.get(piece)
        return i if i is not None and i < self.matched else default


@dataclass
class UnigramEncoding:
    """The twin of ``fast_wordpiece.UnigramEncoding``: ``ids``, ``tokens`` (each
    token's piece, or an unknown token's text), ``offsets`` (``(start, end)``
    character spans in the text), ``type_ids`` and ``special_tokens_mask`` (the
    template's). ``len(encoding)`` is the number of tokens."""

    ids: list[int] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    offsets: list[tuple[int, int]] = field(default_factory=list)
    type_ids: list[int] = field(default_factory=list)
    special_tokens_mask: list[int] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"UnigramEncoding(ids={self.ids!r}, tokens={self.tokens!r})"

    def __len__(self) -> int:
        """The number of tokens."""
        return len(self.ids)


class UnigramTokenizer(family.TransformersCalls):
    """The twin of ``fast_wordpiece.UnigramTokenizer`` (encoding, decoding, training).

    ``vocab`` is ``[(piece, score), ...]`` in id order; ``unk_token`` (default
    ``"<unk>"``) and every one of ``special_tokens`` (None: ``[unk_token]``)
    must be pieces (ValueError otherwise)."""

    def __init__(
        self,
        vocab: Iterable[tuple[str, float]],
        *,
        unk_token: str = "<unk>",
        special_tokens: Sequence[str] | None = None,
    ) -> None:
        _text(unk_token, "unk_token")
        checked = vocab_pieces(vocab)
        specials = [unk_token] if special_tokens is None else _special_texts(special_tokens)
        pieces = [p for p, _ in checked]
        if unk_token not in pieces:
            raise ValueError(f"unk_token {_quoted(unk_token)} is not one of the pieces")
        self.model = Model(checked, pieces.index(unk_token))
        self.normalizer: Normalizer | None = None
        self.prepend = "always"
        #: the pre-tokenizer's shape in a file: "Metaspace", "Sequence" (of Metaspace alone) or
        #: "WhitespaceSplit" (a Sequence of WhitespaceSplit then Metaspace, transformers 5's) or
        #: "Punctuation" (a Sequence of Punctuation "isolated" then Metaspace, DeBERTa-v2's)
        self.pre_tokenizer = "Metaspace"
        self._template: Template | None = None
        #: each added token's (lstrip, rstrip, single_word, normalized, special), in the order of
        #: special_ids (a file's added tokens)
        self._flags: list[Flags] = []
        self.special_ids: list[int] = []
        for t in specials:
            if t not in self.model.ids:
                raise ValueError(f"special token {_quoted(t)} is not one of the pieces")
            if self.model.ids[t] not in self.special_ids:
                self.special_ids.append(self.model.ids[t])
                self._flags.append(NO_FLAGS)

    def _compared(self) -> object:
        """The pieces with their scores, the unknown piece and the special pieces in the order given
        (``special_tokens`` lists them so), as the engine compares them."""
        return self.model.pieces, self.model.matched, self.model.unk_id, self.special_ids, self._flags

    @property
    def vocab_size(self) -> int:
        """The number of pieces in the vocabulary."""
        return len(self.model.pieces)

    @property
    def special_tokens(self) -> list[str]:
        """The special tokens, in the order they were given (not the added tokens that are not
        special)."""
        return [self.model.pieces[i][0] for i, f in zip(self.special_ids, self._flags) if f[4]]

    def _added(self) -> list[tuple[str, int, Flags]]:
        """The added tokens (the special ones among them), each ``(content, id, flags)``."""
        return [(self.model.pieces[i][0], i, f) for i, f in zip(self.special_ids, self._flags)]

    def _normalized_tokens(self) -> dict[str, tuple[int, Flags]]:
        """The ``normalized`` added tokens by their normalized form (one the normalizer makes
        empty left out; of two that normalize alike, the first: Hugging Face's choice varies from
        run to run), each ``(id, flags)``."""
        out: dict[str, tuple[int, Flags]] = {}
        for content, i, f in self._added():
            if f[3]:
                a = Aligned(content, 0)
                if self.normalizer is not None:
                    self.normalizer.normalize(a)
                if a.chars:
                    out.setdefault("".join(a.chars), (i, f))
        return out

    def _decoded_as(self) -> dict[int, str]:
        """What a ``normalized`` added token the normalizer changes shows (``id_to_token``,
        ``decode``): its normalized form, as Hugging Face's."""
        return {i: n for n, (i, _) in self._normalized_tokens().items() if self.model.pieces[i][0] != n}

    @property
    def unk_token(self) -> str:
        """The piece of text no other piece covers."""
        return self.model.pieces[self.model.unk_id][0]

    def get_pieces(self) -> list[tuple[str, float]]:
        """The pieces and their scores (log-probabilities), in id order."""
        return list(self.model.pieces)

    def get_vocab(self) -> dict[str, int]:
        """``{piece: id}`` for the whole vocabulary."""
        return dict(self.model.ids)

    def get_added_vocab(self) -> dict[str, int]:
        """``{token: id}`` of the added tokens, special or not, in id order (what transformers'
        ``get_added_vocab`` gives): the tokens split out of the text before the model sees it."""
        return {content: i for content, i, _ in sorted(self._added(), key=lambda a: a[1])}

    @property
    def template(self) -> tuple[str, str] | None:
        """The ``TemplateProcessing`` post-processor of a loaded file as ``(single, pair)`` in
        Hugging Face's notation, or None without one."""
        if self._template is None:
            return None
        return Template.notation(self._template.single), Template.notation(self._template.pair)

    def encode(
        self,
        text: str,
        pair: str | None = None,
        *,
        add_special_tokens: bool = True,
        alpha: float | None = None,
        nbest: SupportsIndex = -1,
        seed: SupportsIndex | None = None,
    ) -> UnigramEncoding:
        """Same as the engine's ``UnigramTokenizer.encode``: the Viterbi
        segmentation of ``text`` (and of ``pair`` after it), or with ``alpha`` a
        sampled one (``sample``; ``seed`` None draws a fresh random seed; the
        pair's with ``seed + 1``), in the file's template unless
        ``add_special_tokens=False``. ``nbest`` other than -1 or 1..10000 is a
        ValueError, with or without ``alpha``."""
        weight = check_sampling(alpha, nbest)
        _flag(add_special_tokens, "add_special_tokens")
        _text(text, "text")
        texts = [text] if pair is None else [text, _text(pair, "pair")]
        if weight is None:
            encoded = [self._encode(t, self.model.viterbi) for t in texts]
        else:
            start = _ENTROPY.getrandbits(64) if seed is None else _integer(seed, "seed", 0)
            n = _index(nbest, "nbest")
            encoded = [self.sample(t, weight, n, (start + k) % 2**64) for k, t in enumerate(texts)]
        return UnigramEncoding(**process(self._template, encoded, add_special_tokens))

    def encode_batch(
        self,
        texts: Iterable[str | tuple[str, str] | list[str]],
        *,
        add_special_tokens: bool = True,
        num_threads: SupportsIndex | None = None,
    ) -> list[UnigramEncoding]:
        """``encode`` (Viterbi) of every item of ``texts`` (str, and pairs of str: a tuple, or a
        list of two), one after the other (``num_threads`` is checked, then ignored)."""
        _flag(add_special_tokens, "add_special_tokens")
        _threads(num_threads)
        items = family.batch_items(texts)
        return [self.encode(t, p, add_special_tokens=add_special_tokens) for t, p in items]

    def _words(self, seg: str, seg_start: int) -> list[tuple[str, list[tuple[int, int]], int | None]]:
        """The words of a piece of text between special tokens, each with the original span of
        every one of its characters, and the ``normalized`` added tokens found in it (id not None):
        the text normalized, the ``normalized`` added tokens split out of it (when there is a
        normalizer: without one, ``_encode`` did), then :meth:`_metaspace` of the text between."""
        a = Aligned(seg, seg_start)
        if self.normalizer is None:
            return [(w, spans, None) for w, spans in self._metaspace(a.chars, a.align)]
        self.normalizer.normalize(a)
        found = self._normalized_tokens()
        if not found:
            return [(w, spans, None) for w, spans in self._metaspace(a.chars, a.align)]
        strip = {n: f[:2] for n, (_, f) in found.items()}
        single = {n for n, (_, f) in found.items() if f[2]}
        out: list[tuple[str, list[tuple[int, int]], int | None]] = []
        for piece, start, token in family.split_matched("".join(a.chars), list(found), strip, single):
            chars, align = a.chars[start : start + len(piece)], a.align[start : start + len(piece)]
            if token is not None:
                out.append((piece, [(align[0][0], align[-1][1])], found[token][0]))
            else:
                out += [(w, spans, None) for w, spans in self._metaspace(chars, align)]
        return out

    def _metaspace(
        self, normalized: list[str], spans: list[tuple[int, int]]
    ) -> list[tuple[str, list[tuple[int, int]]]]:
        """The words of normalized text (its characters, and the original span of each): cut at
        White_Space (dropped) with the ``WhitespaceSplit`` pre-tokenizer, or cut into each
        punctuation character and each run of other characters with ``Punctuation``, then each
        part's spaces "▁", a "▁" put before it as the prepend scheme says (with the span of its
        first character), and the part cut before every "▁" (Hugging Face's ``Metaspace``)."""
        chars = [REPLACEMENT if c == " " else c for c in normalized]
        if self.pre_tokenizer == "WhitespaceSplit":
            parts = _runs([c in family.WHITE_SPACE for c in normalized])
        elif self.pre_tokenizer == "Punctuation":
            parts = _punctuation_parts(chars)
        else:
            parts = [(0, len(chars))] if chars else []
        out = []
        for start, stop in parts:
            part, align = chars[start:stop], spans[start:stop]
            # "first": only when the first normalized character stands for the text's first one
            # (not after a special token, nor when the normalizer removed the first characters)
            prepend = self.prepend == "always" or (self.prepend == "first" and align[0][0] == 0)
            if prepend and part[0] != REPLACEMENT:
                part.insert(0, REPLACEMENT)
                align.insert(0, align[0])
            cuts = [i for i, c in enumerate(part) if c == REPLACEMENT and i > 0]
            bounds = zip([0, *cuts], [*cuts, len(part)])
            out += [("".join(part[s:e]), align[s:e]) for s, e in bounds if e > s]
        return out

    def _encode(
        self, text: str, segment: Callable[[str], list[tuple[int, int, int]]], words: list[int] | None = None
    ) -> UnigramEncoding:
        """The encoding of ``text`` (no template), each token's word appended to ``words`` if given:
        every word of the pre-tokenizer, and every special token found in the text, is the next."""
        out = UnigramEncoding()
        word = 0
        added = self._added()
        strip = {t: f[:2] for t, _, f in added}
        single = {t for t, _, f in added if f[2]}
        # the added tokens that are not normalized, found in the raw text; without a normalizer,
        # the normalized ones too, in the text between those (with one, `_words` finds them)
        raw = [t for t, _, f in added if not f[3]]
        in_text = [t for t, _, f in added if f[3]] if self.normalizer is None else []
        pieces = family.split_both(text, raw, in_text, strip, single)
        for seg, seg_start, token in pieces:
            if token is not None:  # the piece with the whitespace an lstrip or rstrip took in
                out.ids.append(self.model.ids[token])
                out.tokens.append(seg)
                out.offsets.append((seg_start, seg_start + len(seg)))
                if words is not None:
                    words.append(word)
                word += 1
                continue
            for w, spans, special in self._words(seg, seg_start):
                if special is not None:  # a normalized added token found in the normalized text
                    out.ids.append(special)
                    out.tokens.append(w)
                    out.offsets.append(spans[0])
                    if words is not None:
                        words.append(word)
                    word += 1
                    continue
                # a piece spans from its first character's span to its last one's
                for i, s, e in segment(w):
                    out.ids.append(i)
                    out.tokens.append(w[s:e] if i == self.model.unk_id else self.model.pieces[i][0])
                    out.offsets.append((spans[s][0], spans[e - 1][1]) if e > s else (0, 0))
                    if words is not None:
                        words.append(word)
                word += 1
        out.type_ids = [0] * len(out.ids)
        out.special_tokens_mask = [0] * len(out.ids)
        return out

    def sample(self, text: str, alpha: float, nbest: SupportsIndex = -1, seed: SupportsIndex = 0) -> UnigramEncoding:
        """A sampled encoding (spec section 14, "Sampling"): the engine's
        ``encode(text, alpha=alpha, nbest=nbest, seed=seed)``. The arguments
        are checked as there (``check_sampling``)."""
        weight = check_sampling(alpha, nbest)
        if weight is None:  # alpha=None: not a float
            raise TypeError("alpha must be float, not NoneType")
        rng = SplitMix64(_integer(seed, "seed", 0))
        n = _index(nbest, "nbest")
        return self._encode(text, lambda w: sample_word(self.model, w, weight, n, rng))

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
        """The text of ``token_ids``: the pieces joined, the first one's "▁"s dropped
        (unless the prepend scheme is "never") and every other "▁" a space; without the special tokens when
        ``skip_special_tokens``; with ``clean_up_tokenization_spaces``, transformers' clean-up.
        An id out of range: ValueError."""
        _flag(skip_special_tokens, "skip_special_tokens")
        clean_up = family.clean_up_flag(clean_up_tokenization_spaces, self.clean_up_tokenization_spaces)
        _flag(spaces_between_special_tokens, "spaces_between_special_tokens")  # as transformers 5: no effect
        ids, name, batch = family.top_ids(token_ids)
        if batch:
            return family.decode_rows(self.decode, ids, self.vocab_size, skip_special_tokens, clean_up)
        parts: list[str] = []
        # as Hugging Face, by the token's text: another entry of a special token's piece is skipped too
        special = set(self.special_tokens)
        # a normalized added token the normalizer changes shows its normalized form (skipped only
        # when that is a special token's text: Hugging Face skips by the text shown)
        shown = self._decoded_as()
        for i in family.decode_ids(ids, self.vocab_size, name):
            piece = shown.get(i, self.model.pieces[i][0])
            if skip_special_tokens and piece in special:
                continue
            if not parts and self.prepend != "never":  # every "▁" of the first token, as Hugging Face
                piece = piece.replace(REPLACEMENT, "")
            parts.append(piece)
        return family.cleaned_up("".join(parts).replace(REPLACEMENT, " "), clean_up)

    def token_to_id(self, token: str) -> int | None:
        """The id of ``token``, or None; TypeError unless it is a str."""
        return family.token_to_id(token, self.model.ids)

    def id_to_token(self, id: SupportsIndex) -> str | None:  # noqa: A002  (the engine's name)
        """The piece with this id, or None past the vocabulary; a negative id is a ValueError,
        a bool or a non-integer a TypeError, as in the engine."""
        shown = self._decoded_as()
        return family.id_to_token(id, self.vocab_size, lambda i: shown.get(i, self.model.pieces[i][0]))

    def word_ids(self, texts: Iterable[str], *, num_threads: SupportsIndex | None = None) -> list[list[int]]:
        """Same as the engine's ``UnigramTokenizer.word_ids``: for each text, the word each token of
        ``encode(text, add_special_tokens=False)`` comes from (Hugging Face's word ids: every word
        of the pre-tokenizer, and every special token found in the text, is the next word)."""
        _threads(num_threads)
        checked = family.batch(texts, "texts")
        out = []
        for text in checked:
            words: list[int] = []
            self._encode(text, self.model.viterbi, words)
            out.append(words)
        return out

    def analyze(self, texts: Iterable[str]) -> dict[str, int | float]:
        """Same as the engine's ``UnigramTokenizer.analyze``: counts over the encoded ``texts``,
        ``words`` the runs of non-whitespace characters and ``characters`` the code points of the
        texts (docs/spec.md section 15, item 8)."""
        return family.analyze(
            texts, lambda text: self.encode(text, add_special_tokens=False).ids, self.vocab_size, self.model.unk_id
        )

    # --- training ---------------------------------------------------------------

    @staticmethod
    def train(
        corpus: Iterable[str | Iterable[str]],
        vocab_size: SupportsIndex = 8000,
        *,
        special_tokens: Sequence[str] | None = None,
        max_piece_length: SupportsIndex | None = None,
        seed_size: SupportsIndex | None = None,
        shrinking_factor: float | None = None,
        num_sub_iterations: SupportsIndex | None = None,
        show_progress: bool = True,
    ) -> UnigramTokenizer:
        """Same as the engine's ``UnigramTokenizer.train``: counts the words
        of ``corpus`` (texts, and batches of texts read as their texts;
        special tokens split out and dropped) and trains on them. The
        options, None meaning the default: ``special_tokens`` (``["<unk>",
        "<s>", "</s>"]``), ``max_piece_length`` (16), ``seed_size``
        (1,000,000), ``shrinking_factor`` (0.75), ``num_sub_iterations`` (2);
        ``show_progress`` is checked (the twin shows none). The options are
        checked first, as in the engine."""
        checked = training_options(vocab_size, locals())
        return train_counts(_word_counts(_corpus_texts(corpus, "corpus"), checked["special_tokens"]), **checked)

    @staticmethod
    def train_from_files(
        paths: _StrPath | Iterable[_StrPath],
        vocab_size: SupportsIndex = 8000,
        *,
        special_tokens: Sequence[str] | None = None,
        max_piece_length: SupportsIndex | None = None,
        seed_size: SupportsIndex | None = None,
        shrinking_factor: float | None = None,
        num_sub_iterations: SupportsIndex | None = None,
        show_progress: bool = True,
    ) -> UnigramTokenizer:
        """``train`` on the lines of UTF-8 text files (the options checked first, then
        ``paths``): OSError for a file that cannot be read, ValueError for one that is not
        UTF-8."""
        checked = training_options(vocab_size, locals())
        texts = [line for path in paths_arg(paths) for line in lines(read_utf8(path))]
        return train_counts(_word_counts(texts, checked["special_tokens"]), **checked)

    @staticmethod
    def train_from_counts(
        counts: Mapping[str, SupportsIndex] | Iterable[tuple[str, SupportsIndex]],
        vocab_size: SupportsIndex = 8000,
        *,
        special_tokens: Sequence[str] | None = None,
        max_piece_length: SupportsIndex | None = None,
        seed_size: SupportsIndex | None = None,
        shrinking_factor: float | None = None,
        num_sub_iterations: SupportsIndex | None = None,
        show_progress: bool = True,
    ) -> UnigramTokenizer:
        """``train`` on counted texts, a mapping ``{text: count}`` or an iterable of ``(text, count)``
        pairs: each text's words counted ``count`` times. The options are checked first, as in
        the engine."""
        checked = training_options(vocab_size, locals())
        specials = checked["special_tokens"]
        word_counts: dict[str, int] = {}
        for text, n in _text_counts(counts, "counts", TEXT_COUNTS, 0):
            for seg, _, special in segments(text, specials):
                if not special:
                    for word, virtual, _ in words(seg):
                        w = word_text(word, virtual)
                        word_counts[w] = word_counts.get(w, 0) + n
                        if word_counts[w] >= 2**64:
                            raise ValueError(f"the counts of the word {_quoted(w)} add up to more than 2**64 - 1")
        return train_counts(word_counts, **checked)

    # --- tokenizer.json -----------------------------------------------------------

    def to_str(self) -> str:
        """The Hugging Face ``tokenizer.json`` text that ``save`` writes, the engine's to the byte:
        a ``Unigram`` model, the ``Metaspace`` pre-tokenizer and decoder, the special tokens as
        added tokens; in Hugging Face's key order, two-space indents, as its ``to_str(pretty=True)``
        writes it (``tokenizer_json``)."""
        return tokenizer_json(
            self.model, self.special_ids, self.normalizer, self.prepend, self._template, self._flags, self.pre_tokenizer
        )

    @staticmethod
    def from_str(json: str) -> UnigramTokenizer:
        """A tokenizer from ``tokenizer.json`` text, checked as the engine checks it
        (``from_tokenizer_json``): ValueError if it is not a Unigram tokenizer this one can run. The
        ``padding`` and ``truncation`` sections give ``padding_side``, ``truncation_side`` and
        ``pad_token`` (a token of the vocabulary), as the engine's."""
        model, special_ids, flags, normalizer, (prepend, pre), template_json = from_tokenizer_json(_text(json, "json"))
        made = UnigramTokenizer.__new__(UnigramTokenizer)
        made.model, made.special_ids, made._flags = model, special_ids, flags
        made.normalizer, made.prepend, made.pre_tokenizer = normalizer, prepend, pre
        made._template = None if template_json is None else Template(template_json, model.pieces)
        made._take_sections(_json_loads(json))
        return made

    def _take_sections(self, doc: dict[str, Any]) -> None:
        """The sides and padding token of the file's ``padding`` and ``truncation`` sections, as
        transformers' ``PreTrainedTokenizerFast`` of the file takes them for its calls (a padding token
        the vocabulary lacks is left out)."""
        sides = pretrained._sections_sides(doc)
        self._padding_side = sides["padding_side"] or "right"
        self._truncation_side = sides["truncation_side"] or "right"
        padding = doc.get("padding")
        pad = padding.get("pad_token") if isinstance(padding, dict) else None
        if isinstance(pad, str) and pad in self.model.ids:
            self.pad_token = pad

    def save(self, path: _StrPath) -> None:
        """Writes ``to_str``'s text to ``path`` atomically, as the engine does (``files.write_atomic``)."""
        write_atomic(_path(path), self.to_str().encode("utf-8"))

    @staticmethod
    def from_file(path: _StrPath) -> UnigramTokenizer:
        """Reads a ``tokenizer.json`` (``from_str``): OSError if it cannot be read, ValueError
        (naming the file) if it is not UTF-8 or not a Unigram tokenizer."""
        return load_parsed(_path(path), UnigramTokenizer.from_str)

    @staticmethod
    def load(path: _StrPath) -> UnigramTokenizer:
        """The same as ``from_file``."""
        return UnigramTokenizer.from_file(path)

    # -- model directories (spec section 14) -------------------------------------

    #: What a model directory said beside the pipeline (``from_pretrained``): ``model_max_length`` (None: no
    #: maximum), the sides, the named special tokens ``(key, token)`` and the extra ones.
    _model_max_length: int | None = None
    _padding_side = "right"
    _truncation_side = "right"
    _named: tuple[tuple[str, str], ...] = ()
    _extra: tuple[str, ...] = ()
    _model_input_names: tuple[str, ...] | list[str] = pretrained.GENERIC_INPUTS

    @property
    def model_input_names(self) -> list[str]:
        """The inputs the model takes, as transformers' ``model_input_names``: the call returns
        ``token_type_ids`` and ``attention_mask`` by default when they are listed. Those of transformers'
        generic class unless ``from_pretrained`` read otherwise (the config's, else those of the class
        transformers picks: DeBERTa-v2's and FNet's take ``token_type_ids``; FNet's no ``attention_mask``)."""
        return list(self._model_input_names)

    @model_input_names.setter
    def model_input_names(self, value: list[str]) -> None:
        self._model_input_names = calling.str_list(value, "model_input_names")

    @property
    def padding_side(self) -> str:
        """Where padding goes when the call does not say: ``"right"`` or ``"left"`` (``from_pretrained``
        reads it from the model directory; XLNet's pads on the left)."""
        return self._padding_side

    @padding_side.setter
    def padding_side(self, value: str) -> None:
        self._padding_side = calling._side(value, "padding_side")

    @property
    def truncation_side(self) -> str:
        """Where the call's truncation cuts a text that is too long: ``"right"`` (its last tokens go) or
        ``"left"`` (its first ones go), as transformers' ``truncation_side``; ``from_pretrained`` reads it
        from the model directory (tokenizer_config.json, else tokenizer.json's ``truncation`` section)."""
        return self._truncation_side

    @truncation_side.setter
    def truncation_side(self, value: str) -> None:
        self._truncation_side = calling._side(value, "truncation_side")

    @property
    def model_max_length(self) -> int:
        """The longest input the model takes (1e30, transformers' VERY_LARGE_INTEGER: no maximum)."""
        return calling.NO_MAXIMUM if self._model_max_length is None else self._model_max_length

    @model_max_length.setter
    def model_max_length(self, value: int) -> None:
        self._model_max_length = calling.max_length_setting(value)

    def _warned_too_long(self) -> bool:
        """Whether the call had already warned that a sequence is longer than ``model_max_length``; the
        call's warning comes once per tokenizer, as in transformers, so this marks it as given."""
        warned: bool = vars(self).get("_too_long_warned", False)
        self._too_long_warned = True
        return warned

    @staticmethod
    def from_pretrained(pretrained_model_name_or_path: _StrPath, **kwargs: Any) -> UnigramTokenizer:
        """Same as the engine's: a local model directory's ``tokenizer.json``, with the special tokens its
        ``tokenizer_config.json`` and ``special_tokens_map.json`` name made special (a piece keeps its id, a
        token the file lacks gets the next one), the ``pad_token`` they name and the call settings of
        ``tokenizer_config.json``; keyword arguments override the config's keys. Never downloads."""
        path = pretrained.model_dir(pretrained_model_name_or_path, kwargs)
        overrides = pretrained._pretrained_overrides(kwargs)
        for key in ("do_lower_case", "strip_accents", "tokenize_chinese_chars", "split_special_tokens"):
            if key in overrides:  # BERT's pipeline (and transformers' XLNet, ALBERT, DeBERTa-v2 normalizers)
                raise TypeError(f"UnigramTokenizer.from_pretrained() does not take {key}: it keeps the normalizer "
                                "and pre-tokenizer of the directory's tokenizer.json (change them there)")  # fmt: skip
        pretrained.check_directory(path)
        file = os.path.join(path, "tokenizer.json")
        if not os.path.isfile(file):
            raise FileNotFoundError(errno.ENOENT, "a Unigram model directory needs its tokenizer.json (a "
                                    "SentencePiece model alone is not read: transformers' save_pretrained writes "
                                    "the tokenizer.json)", file)  # fmt: skip
        named, extra = pretrained._configured(path, overrides, defaults=False)
        given = [(key, t) for key, t, _ in named if t is not None]
        text = read_utf8(file)
        try:
            doc = _json_loads(text)
        except ValueError as e:
            raise ValueError(f"{file}: not valid JSON: {e}") from None
        if not isinstance(doc, dict):  # as from_file says it (nothing is added to a file that is not an object)
            raise ValueError(f'{file}: no "model" object')
        model = doc.get("model")
        vocab = model.get("vocab") if isinstance(model, dict) else None
        pieces = [e[0] if isinstance(e, list) and e and isinstance(e[0], str) else "" for e in vocab or []]
        listed = doc.get("added_tokens")
        listed = listed if isinstance(listed, list) else []
        ids = [t["id"] for t in listed if isinstance(t, dict) and isinstance(t.get("id"), int) and t["id"] >= 0]
        next_id = max([len(pieces), *(i + 1 for i in ids)])
        added: list[dict[str, Any]] = []
        for t in [t for _, t in given] + extra:
            if any(isinstance(a, dict) and a.get("content") == t["content"] for a in listed + added):
                continue
            if t["content"] in pieces:
                id_ = pieces.index(t["content"])
            else:
                id_, next_id = next_id, next_id + 1
            flags = {flag: t.get(flag, False) for flag in ("single_word", "lstrip", "rstrip")}
            added.append({"id": id_, "content": t["content"], **flags, "normalized": t["normalized"], "special": True})
        if added:
            doc["added_tokens"] = listed + sorted(added, key=lambda a: a["id"])
        try:
            made = UnigramTokenizer.from_str(_json.dumps(doc))
        except ValueError as e:
            raise ValueError(f"{file}: {e}") from None
        settings = pretrained._call_settings(path, overrides)
        made.clean_up_tokenization_spaces = settings.pop("clean_up_tokenization_spaces", False)
        for key, value in settings.items():
            setattr(made, key, value)
        made._model_input_names = pretrained._model_input_names(path, overrides)
        made._named = tuple((key, t["content"]) for key, t in given)
        made._extra = tuple(t["content"] for t in extra)
        pad = next((t["content"] for key, t in given if key == "pad_token"), None)
        if pad is not None:
            made.pad_token = pad
        return made

    def save_pretrained(
        self,
        save_directory: _StrPath,
        legacy_format: bool | None = None,
        filename_prefix: str | None = None,
        push_to_hub: bool = False,
        save_format: Literal["hf"] | None = None,
    ) -> list[str]:
        """Same as the engine's: writes ``tokenizer.json``, ``tokenizer_config.json`` (transformers' generic
        class, the call settings, the model's inputs and the special tokens in the vocabulary) and
        ``special_tokens_map.json`` into ``save_directory`` (created if needed); returns their paths.
        ``legacy_format``, ``filename_prefix`` and ``push_to_hub`` as for ``PyTokenizer.save_pretrained``."""
        path = _path(save_directory, "save_directory")
        pretrained.save_keywords(legacy_format, filename_prefix, push_to_hub, save_format)
        os.makedirs(path, exist_ok=True)
        written = [os.path.join(path, "tokenizer.json")]
        self.save(written[0])
        named = {key: token for key, token in self._named if key != "pad_token"}
        if self.pad_token is not None:
            named["pad_token"] = self.pad_token
        special_map = {key: token for key, token in named.items() if token in self.model.ids}
        extra = [token for token in self._extra if token in self.model.ids]
        config: dict[str, Any] = {"tokenizer_class": "PreTrainedTokenizerFast",
                                  "clean_up_tokenization_spaces": self.clean_up_tokenization_spaces,
                                  "padding_side": self.padding_side, "truncation_side": self.truncation_side,
                                  "model_input_names": self.model_input_names}  # fmt: skip
        if self._model_max_length is not None:
            config["model_max_length"] = self._model_max_length
        return written + pretrained.write_config_files(path, config, special_map, extra)


def _runs(white: list[bool]) -> list[tuple[int, int]]:
    """The ``(start, stop)`` of every run of False in ``white``."""
    out: list[tuple[int, int]] = []
    start = None
    for i, w in enumerate([*white, True]):
        if not w and start is None:
            start = i
        elif w and start is not None:
            out.append((start, i))
            start = None
    return out


def is_punctuation(c: str) -> bool:
    """A character Hugging Face's ``Punctuation`` pre-tokenizer cuts out: ASCII punctuation or
    symbols, or a Unicode punctuation character (P*)."""
    return c in _ASCII_PUNCTUATION if c.isascii() else c in PUNCTUATION


_ASCII_PUNCTUATION = frozenset(string.punctuation)


def _punctuation_parts(chars: list[str]) -> list[tuple[int, int]]:
    """The ``(start, stop)`` of every punctuation character of ``chars`` and every run of other
    characters, in order (``Punctuation`` with the behavior "isolated")."""
    out: list[tuple[int, int]] = []
    start = 0
    for i, c in enumerate(chars):
        if is_punctuation(c):
            if start < i:
                out.append((start, i))
            out.append((i, i + 1))
            start = i + 1
    if start < len(chars):
        out.append((start, len(chars)))
    return out


def _word_counts(texts: Iterable[str], specials: Sequence[str]) -> dict[str, int]:
    """How often each word of ``texts`` occurs, the special tokens split out and dropped."""
    counts: dict[str, int] = {}
    for text in texts:
        for seg, _, special in segments(text, specials):
            if not special:
                for word, virtual, _ in words(seg):
                    w = word_text(word, virtual)
                    counts[w] = counts.get(w, 0) + 1
    return counts


def vocab_pieces(vocab: object) -> list[tuple[str, float]]:
    """The constructor's ``vocab``, checked as the engine checks it: an iterable (not a str) of
    ``(str, float)`` tuples, the score a float or what converts to one (``__float__`` or
    ``__index__``), not a bool; TypeError naming the first bad item otherwise."""
    if isinstance(vocab, (str, bytes, bytearray)):
        raise TypeError(f"vocab must be an iterable of (str, float) pairs, not {_type_name(vocab)}")
    try:
        items = iter(vocab)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"vocab must be a list of (str, float) pairs, not {_type_name(vocab)}") from None
    out = []
    for i, item in enumerate(items):
        if not (isinstance(item, tuple) and len(item) == 2):
            raise TypeError(f"vocab[{i}] must be a (str, float) pair, not {_type_name(item)}")
        out.append((_text(item[0], f"vocab[{i}][0]"), _score(item[1], f"vocab[{i}][1]")))
    return out


def _score(value: object, name: str) -> float:
    """A float argument as the engine takes one: a float, or what ``__float__`` or ``__index__``
    makes one of (numpy's scalars, an int that fits); a bool, a str or an int too large is a
    TypeError that names it."""
    kind = type(value)
    if not isinstance(value, bool) and (hasattr(kind, "__float__") or hasattr(kind, "__index__")):
        try:
            return float(value) if hasattr(kind, "__float__") else float(operator.index(value))  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            pass
    raise TypeError(f"{name} must be float, not {_type_name(value)}")


# --- tokenizer.json -------------------------------------------------------------

#: The pre-tokenizer and the decoder of a saved tokenizer.
METASPACE = {"type": "Metaspace", "replacement": REPLACEMENT, "prepend_scheme": "always", "split": True}


def tokenizer_json(
    model: Model,
    special_ids: Sequence[int],
    normalizer: Normalizer | None = None,
    prepend: str = "always",
    template: Template | None = None,
    flags: Sequence[Flags] | None = None,
    pre_tokenizer: str = "Metaspace",
) -> str:
    """The engine's ``tokenizer.json`` text of a tokenizer (``to_str``); ``flags`` each added
    token's ``(lstrip, rstrip, single_word, normalized, special)`` (default: special, no other
    flag); ``pre_tokenizer`` the pre-tokenizer's shape
    (``UnigramTokenizer.pre_tokenizer``)."""
    metaspace = METASPACE | {"prepend_scheme": prepend}
    pre: dict[str, Any] = metaspace
    if pre_tokenizer != "Metaspace":
        first = {"WhitespaceSplit": [{"type": "WhitespaceSplit"}],
                 "Punctuation": [{"type": "Punctuation", "behavior": "Isolated"}]}.get(pre_tokenizer, [])  # fmt: skip
        pre = {"type": "Sequence", "pretokenizers": [*first, metaspace]}
    keys = ("lstrip", "rstrip", "single_word", "normalized", "special")
    order = ("single_word", "lstrip", "rstrip", "normalized", "special")  # Hugging Face's
    added = [
        {"id": i, "content": model.pieces[i][0]} | {k: dict(zip(keys, f))[k] for k in order}
        for i, f in zip(special_ids, flags or [NO_FLAGS] * len(special_ids))
    ]
    doc = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None if normalizer is None else normalizer.json,
        "pre_tokenizer": pre,
        "post_processor": None if template is None else template.json,
        "decoder": metaspace,
        "model": {
            "type": "Unigram",
            "unk_id": model.unk_id,
            "vocab": [[p, s] for p, s in model.pieces[: model.matched]],
            "byte_fallback": False,
        },
    }
    return _pretty(doc, "")


def _pretty(value: object, indent: str) -> str:
    """``value`` as JSON the way the engine's ``serde_json`` pretty-prints it: objects' keys
    in their order, two spaces an indent, ``[]`` and ``{}`` when empty, no character escaped but the
    control characters, ``"`` and ``\\``, and floats as ``_json_float`` writes them."""
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{_json.dumps(k, ensure_ascii=False)}: {_pretty(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}" if items else "{}"
    if isinstance(value, list):
        items = [inner + _pretty(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + f"\n{indent}]" if items else "[]"
    if isinstance(value, float):
        return _json_float(value)
    return _json.dumps(value, ensure_ascii=False)


def _json_float(x: float) -> str:
    """A finite float as ``serde_json`` writes it: the shortest digits that read back as ``x``
    (Python's ``repr``), written out in full from 1e-5 to below 1e16 and otherwise with an
    exponent that has no leading zeros (``1e-7``, ``1.5e+16``)."""
    shown = repr(x)
    mantissa, exponent_mark, exponent = shown.partition("e")
    if not exponent_mark:
        return shown
    if int(exponent) == -5:
        return format(Decimal(shown), "f")
    return f"{mantissa}e{int(exponent):+d}"


#: What a pre-tokenizer may be besides Metaspace alone.
_SEQUENCE = ' (alone, or in a Sequence alone or after WhitespaceSplit or Punctuation "isolated")'


def _is_isolated_punctuation(part: dict[str, Any]) -> bool:
    """Whether a pre-tokenizer of a ``Sequence`` is ``Punctuation`` with the behavior "isolated"
    (Hugging Face's default when absent), as transformers writes it for DeBERTa-v2."""
    return (
        part.get("type") == "Punctuation"
        and set(part) <= {"type", "behavior"}
        and part.get("behavior", "Isolated") == "Isolated"
    )


def from_tokenizer_json(
    text: str,
) -> tuple[Model, list[int], list[Flags], Normalizer | None, tuple[str, str], Any]:
    """The model, the added tokens' ids and their flags (``Flags``), the normalizer, the
    prepend scheme with the pre-tokenizer's shape, and the post-processor's JSON of
    ``tokenizer.json`` text, checked as the engine checks it, in its order: a ``Unigram`` model
    without byte fallback, its ``vocab`` of ``[piece, score]`` pairs and ``unk_id``, no normalizer
    or one of ``spm_normalizer``'s, ``Metaspace`` (replacement "▁", split, prepend scheme "always",
    "first" or "never", the same in both) as pre-tokenizer and decoder (the pre-tokenizer alone,
    or in a ``Sequence`` alone or after ``WhitespaceSplit`` or ``Punctuation`` "isolated", as
    transformers 5 writes it), and added
    tokens that are pieces (or the next id past the model's vocabulary, a piece of the lowest score, as Hugging Face's
    added vocabulary has them). ValueError otherwise."""
    try:
        doc = load_json(text)
    except _json.JSONDecodeError as e:
        raise ValueError(f"not valid JSON: {e}") from None
    if isinstance(doc, dict):
        check_root_keys(doc)
    model = doc.get("model") if isinstance(doc, dict) else None
    if not isinstance(model, dict):
        raise ValueError('no "model" object')
    kind = model.get("type")
    if kind is None:  # left out, or null
        raise ValueError('the model has no "type" (expected "Unigram")')
    if not isinstance(kind, str):
        raise ValueError('the model\'s "type" is not a str (expected "Unigram")')
    if kind != "Unigram":
        raise ValueError(f'the model is {_quoted(kind)}, not "Unigram"')
    if model.get("byte_fallback") is True:
        raise ValueError("byte_fallback is not supported")
    vocab = model.get("vocab")
    if not isinstance(vocab, list):
        raise ValueError("no model.vocab list")
    pieces: list[tuple[str, float]] = []
    for i, entry in enumerate(vocab):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str) and _is_number(entry[1])):
            raise ValueError(f"model.vocab[{i}] is not a [piece, score] pair")
        pieces.append((_text(entry[0], f"model.vocab[{i}][0]"), float(entry[1])))
    if "unk_id" not in model or not _is_number(model["unk_id"]):
        raise ValueError("model.unk_id is missing (a Unigram model without one is not supported)")
    unk_id = model["unk_id"]
    if not (isinstance(unk_id, int) and 0 <= unk_id < 2**32 - 1):
        raise ValueError("model.unk_id is invalid")
    normalizer = None if doc.get("normalizer") is None else Normalizer(doc["normalizer"])
    prepend = "always"
    pre = "Metaspace"
    for key in ("pre_tokenizer", "decoder"):
        part = doc.get(key)
        part = part if isinstance(part, dict) else {}
        inner = part.get("pretokenizers") if key == "pre_tokenizer" and part.get("type") == "Sequence" else None
        if isinstance(inner, list) and len(inner) in (1, 2) and all(isinstance(p, dict) for p in inner):
            ws = len(inner) == 2 and inner[0] == {"type": "WhitespaceSplit"}
            punctuation = len(inner) == 2 and _is_isolated_punctuation(inner[0])
            if len(inner) == 1 or ws or punctuation:
                pre = "WhitespaceSplit" if ws else "Punctuation" if punctuation else "Sequence"
                part = inner[-1]
        scheme = part.get("prepend_scheme")
        if not isinstance(scheme, str):
            scheme = "never" if part.get("add_prefix_space") is False else "always"
        if not (
            part.get("type") == "Metaspace"
            and part.get("replacement") == REPLACEMENT
            and part.get("split") is not False
            and scheme in ("always", "first", "never")
        ):
            raise ValueError(
                f"{key} must be Metaspace{_SEQUENCE if key == 'pre_tokenizer' else ''} with replacement "
                f'"{REPLACEMENT}", split, and prepend_scheme "always", "first" or "never"'
            )
        if key == "pre_tokenizer":
            prepend = scheme
        elif scheme != prepend:
            raise ValueError(f'the decoder\'s prepend_scheme "{scheme}" is not the pre_tokenizer\'s "{prepend}"')
    special: list[int] = []
    flags: list[Flags] = []
    added = doc.get("added_tokens")
    for i, t in enumerate(added if isinstance(added, list) else []):
        content = t.get("content") if isinstance(t, dict) else None
        id_ = t.get("id") if isinstance(t, dict) else None
        if not (isinstance(content, str) and isinstance(id_, int) and not isinstance(id_, bool) and 0 <= id_ < 2**64):
            raise ValueError(f"added_tokens[{i}] has no content or id")
        if id_ == len(pieces) and id_ >= len(vocab) and all(p != content for p, _ in pieces):
            # Beyond the model's vocabulary, as Hugging Face's added vocabulary has it: a piece of
            # the lowest score, never matched (the special tokens are split out of the text first).
            lowest = min((s for _, s in pieces), default=math.inf)
            pieces.append((content, lowest if math.isfinite(lowest) else 0.0))
        if not (id_ < len(pieces) and pieces[id_][0] == content):
            raise ValueError(f"added token {_quoted(content)} is not piece {id_} of the vocabulary")
        special.append(id_)
        lstrip, rstrip, single_word, normalized = (
            _flag_of(t, k, i) for k in ("lstrip", "rstrip", "single_word", "normalized")
        )
        flags.append((lstrip, rstrip, single_word, normalized, t.get("special") is not False))
    last = dict(zip(special, flags))  # a token listed twice takes its last entry's flags, as HF's
    flags = [last[i] for i in special]
    if len(pieces) >= 2**32 - 1:
        raise ValueError("too many pieces")
    if unk_id >= len(pieces):
        raise ValueError(f"unk_id {unk_id} is not below the number of pieces ({len(pieces)})")
    return (
        Model(pieces, unk_id, len(vocab), last_wins=True),
        special,
        flags,
        normalizer,
        (prepend, pre),
        doc.get("post_processor"),
    )


def _flag_of(token: dict[str, Any], key: str, i: int) -> bool:
    """An added token's ``lstrip``, ``rstrip``, ``single_word`` or ``normalized`` (absent or null:
    False; not a bool: ValueError)."""
    value = token.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ValueError(f"added_tokens[{i}].{key}: {shown(value)} is not a bool")
    return value


def _is_number(value: object) -> bool:
    """A JSON number (not a bool)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


MASK = (1 << 64) - 1


class SplitMix64:
    """The engine's seeded generator."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform(self) -> float:
        return float(self.next_u64() >> 11) * (1.0 / float(1 << 53))


def draw(weights: list[float], rng: SplitMix64) -> int:
    """An index drawn with probability proportional to ``exp(weights[i])``."""
    top = max(weights)
    total = 0.0
    for w in weights:
        total += math.exp(w - top)
    u = rng.uniform() * total
    for i, w in enumerate(weights):
        u -= math.exp(w - top)
        if u < 0.0:
            return i
    return len(weights) - 1


def lse_sample(a: float, b: float) -> float:
    if a == -math.inf:
        return b
    lo, hi = (a, b) if a < b else (b, a)
    return hi + math.log1p(math.exp(lo - hi))


#: A path to a position: (score, index of its last node, rank of the path that node extends).
ScoredPath = tuple[float, int, int]


def keep_best(
    kept: list[ScoredPath], starts: list[ScoredPath], score: float, node: int, nbest: int
) -> list[ScoredPath]:
    """The ``nbest`` best of the paths ``kept`` to a position and of those that ``node`` (of this
    ``score``) makes by extending each path of ``starts`` to its start, best first. A new path goes
    after the kept ones whose score is at least its own, so ties go to the earlier candidate, as
    inserting the new paths one by one would place them. Both lists are best first (the new paths
    too, in the order of ``starts``), so one pass merges them: O(nbest) per node."""
    out: list[ScoredPath] = []
    a = b = 0
    while len(out) < nbest:
        new = (starts[b][0] + score, node, b) if b < len(starts) else None
        if a < len(kept) and (new is None or not new[0] > kept[a][0]):
            out.append(kept[a])
            a += 1
        elif new is not None:
            out.append(new)
            b += 1
        else:
            break
    return out


#: The engine's size of a kept path: a score and two indices.
_PATH_BYTES = 24


def _room_for_paths(nodes: list[tuple[int, int, int, float]], word: str, nbest: int) -> None:
    """The engine's check before an ``nbest`` search: the paths it keeps (at most ``nbest`` to
    each position, as many as there are when fewer) must have room, 24 bytes each, else the search
    is a MemoryError that says so before it starts. The room is asked of the system, as the
    engine asks, by mapping that many bytes (never written) and letting them go."""
    paths = [0] * (len(word) + 1)
    paths[0] = 1
    for s, e, _, _ in nodes:
        paths[e] = min(paths[e] + paths[s], nbest)
    kept = sum(paths)
    try:
        with mmap.mmap(-1, kept * _PATH_BYTES):
            return
    except (OSError, OverflowError, ValueError, MemoryError):
        pass
    raise MemoryError(
        f"nbest={nbest} on a word of {len(word.encode())} bytes ({kept} paths kept) needs more memory than can be "
        "reserved"
    ) from None


def sample_word(model: Model, word: str, alpha: float, nbest: int, rng: SplitMix64) -> list[tuple[int, int, int]]:
    nodes = model.lattice(word)
    n = len(word)
    out: list[tuple[int, int, int]] = []
    if nbest < 0:
        fwd = [-math.inf] * (n + 1)
        fwd[0] = 0.0
        for s, e, _, score in nodes:
            fwd[e] = lse_sample(fwd[e], fwd[s] + alpha * score)
        end = n
        while end > 0:
            ending = [x for x in nodes if x[1] == end]
            s, e, i, _ = ending[draw([fwd[x[0]] + alpha * x[3] for x in ending], rng)]
            out.append((i, s, e))
            end = s
    else:
        _room_for_paths(nodes, word, nbest)
        # best[e]: the nbest best paths to position e, best first, as (score, node, rank of the
        # path at the node's start); nodes in lattice order, each extending the paths to its start.
        best: list[list[ScoredPath]] = [[] for _ in range(n + 1)]
        best[0].append((0.0, -1, 0))
        for k, (s, e, _, score) in enumerate(nodes):
            best[e] = keep_best(best[e], best[s], score, k, nbest)
        end, rank = n, draw([alpha * x[0] for x in best[n]], rng)
        while end > 0:
            _, k, r = best[end][rank]
            s, e, i, _ = nodes[k]
            out.append((i, s, e))
            end, rank = s, r
    out.reverse()
    return model.fuse_unknown(word, out)


def digamma(x: float) -> float:
    result = 0.0
    while x < 7.0:
        result -= 1.0 / x
        x += 1.0
    x -= 1.0 / 2.0
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    result += (
        math.log(x)
        + (1.0 / 24.0) * xx2
        - (7.0 / 960.0) * xx4
        + (31.0 / 8064.0) * xx4 * xx2
        - (127.0 / 30720.0) * xx4 * xx4
    )
    return result


def log_sum_exp(x: float, y: float) -> float:
    lo, hi = (x, y) if x < y else (y, x)
    if hi > lo + 50.0:
        return hi
    return hi + math.log(math.exp(lo - hi) + 1.0)


def seed_pieces(words_: list[tuple[str, int]], max_len: int, seed_size: int) -> list[tuple[str, float]]:
    """Every character, and the ``seed_size`` substrings of 2..max_len
    characters seen at least twice with the highest ``count * length``."""
    chars: dict[str, int] = {}
    subs: dict[str, int] = {}
    for w, n in words_:
        for k, c in enumerate(w):
            chars[c] = chars.get(c, 0) + n
            for length in range(2, min(max_len, len(w) - k) + 1):
                s = w[k : k + length]
                subs[s] = subs.get(s, 0) + n
    ranked = sorted(((n * len(s), s) for s, n in subs.items() if n >= 2), key=lambda x: (-x[0], x[1].encode()))
    all_ = [(n, c) for c, n in chars.items()] + ranked[:seed_size]
    all_.sort(key=lambda x: (-x[0], x[1].encode()))
    total = 0.0
    for n, _ in all_:
        total += float(n)
    log_total = math.log(total)
    return [(s, math.log(float(n)) - log_total) for n, s in all_]


def expected_counts(model: Model, words_: list[tuple[str, int]]) -> list[float]:
    expected = [0.0] * len(model.pieces)
    for c0 in range(0, len(words_), CHUNK):
        local: dict[int, float] = {}
        for w, count in words_[c0 : c0 + CHUNK]:
            nodes = model.lattice(w)
            n = len(w)
            alpha: list[float | None] = [None] * (n + 1)
            beta: list[float | None] = [None] * (n + 1)
            alpha[0] = 0.0
            for s, e, _, score in nodes:
                v = alpha[s] + score  # type: ignore[operator]
                alpha[e] = v if alpha[e] is None else log_sum_exp(alpha[e], v)  # type: ignore[arg-type]
            beta[n] = 0.0
            for s, e, _, score in reversed(nodes):
                v = score + beta[e]  # type: ignore[operator]
                beta[s] = v if beta[s] is None else log_sum_exp(beta[s], v)  # type: ignore[arg-type]
            z = alpha[n]
            c = float(count)
            for s, e, i, score in nodes:
                p = math.exp(alpha[s] + score + beta[e] - z)  # type: ignore[operator]
                local[i] = local.get(i, 0.0) + c * p
        for i, v in local.items():
            expected[i] += v
    return expected


def is_char(piece: str) -> bool:
    return len(piece) == 1


def maximize(pieces: list[tuple[str, float]], expected: list[float]) -> list[tuple[str, float]]:
    kept = []
    for (p, _), e in zip(pieces, expected):
        if e < MIN_EXPECTED:
            if is_char(p):
                kept.append((p, MIN_EXPECTED))
        else:
            kept.append((p, e))
    total = 0.0
    for _, e in kept:
        total += e
    log_total = digamma(total)
    return [(p, digamma(e) - log_total) for p, e in kept]


def prune(model: Model, words_: list[tuple[str, int]], target: int, shrinking_factor: float) -> list[tuple[str, float]]:
    pieces = model.pieces
    freq = [0] * len(pieces)
    for w, n in words_:
        for i, _, _ in model.viterbi(w):
            freq[i] += n
    total = sum(freq)
    total_words = sum(n for _, n in words_)
    log_sum = math.log(float(total))
    decisions: list[float] = []
    for i, (piece, score) in enumerate(pieces):
        if is_char(piece):
            decisions.append(math.inf)
            continue
        f = freq[i]
        if f == 0:
            decisions.append(-math.inf)
            continue
        alt = [a for a, _, _ in model.viterbi(piece, skip=i)]
        alt_score = 0.0
        for a in alt:
            alt_score += pieces[a][1]
        if alt_score > score:
            decisions.append(-math.inf)
            continue
        logsum_alt = math.log(float(total + f * (len(alt) - 1)))
        logprob_sp = math.log(float(f)) - log_sum
        logprob_alt = 0.0
        for a in alt:
            logprob_alt += math.log(float(freq[a] + f)) - logsum_alt
        decisions.append(float(f) / float(total_words) * (logprob_sp - logprob_alt))
    size = max(math.floor(shrinking_factor * float(len(pieces))), target)
    keep = [i for i, d in enumerate(decisions) if d == math.inf]
    candidates = sorted((i for i, d in enumerate(decisions) if d != math.inf), key=lambda i: (-decisions[i], i))
    for i in candidates:
        if len(keep) >= size:
            break
        keep.append(i)
    return [pieces[i] for i in sorted(keep)]


def train_counts(
    counts: Mapping[str, int],
    vocab_size: int,
    *,
    special_tokens: Sequence[str] | None = None,
    max_piece_length: int | None = 16,
    seed_size: int | None = 1_000_000,
    shrinking_factor: float | None = 0.75,
    num_sub_iterations: int | None = 2,
    show_progress: bool = False,
    progress: Callable[[str], None] | None = None,
) -> UnigramTokenizer:
    # The engine's checks of the options, None meaning the default.
    vocab_size = _integer(vocab_size, "vocab_size", 1)
    max_piece_length = 16 if max_piece_length is None else _integer(max_piece_length, "max_piece_length", 1)
    seed_size = 1_000_000 if seed_size is None else _integer(seed_size, "seed_size", 1)
    shrinking_factor = 0.75 if shrinking_factor is None else shrinking_factor
    num_sub_iterations = 2 if num_sub_iterations is None else _integer(num_sub_iterations, "num_sub_iterations", 1)
    specials = _special_tokens(special_tokens)
    _flag(show_progress, "show_progress")
    if vocab_size <= len(specials):
        raise ValueError("vocab_size must exceed the number of special tokens")
    words_ = sorted(((w, n) for w, n in counts.items() if w and n > 0), key=lambda x: (x[0].encode(), x[1]))
    check_occurrences(words_)
    desired = vocab_size - len(specials)
    target = desired * 11 // 10
    if not words_:
        raise ValueError("the corpus has no words to train on")
    pieces = seed_pieces(words_, max_piece_length, seed_size)
    chars = sum(is_char(p) for p, _ in pieces)
    if chars > desired:
        raise ValueError(
            f"vocab_size ({vocab_size}) is too small for the {chars} characters of the corpus and {len(specials)} "
            "special tokens"
        )
    if not pieces:
        raise ValueError("the corpus has no words to train on")
    while True:
        for _ in range(num_sub_iterations):
            model = Model(pieces, 0)
            pieces = maximize(model.pieces, expected_counts(model, words_))
        if len(pieces) <= target:
            break
        model = Model(pieces, 0)
        pruned = prune(model, words_, target, shrinking_factor)
        stuck = len(pruned) == len(pieces)
        pieces = pruned
        if progress:
            progress(f"pruned to {len(pieces)}")
        if stuck:
            break
    # The scores as a saved file gives them back (to Hugging Face too).
    pieces = [(piece, as_read_back(score)) for piece, score in pieces]
    order = sorted(range(len(pieces)), key=lambda i: (not is_char(pieces[i][0]), -pieces[i][1], i))
    chosen: list[tuple[str, float]] = []
    for i in order:
        if len(chosen) == desired:
            break
        if pieces[i][0] not in specials:
            chosen.append(pieces[i])
    chosen.sort(key=lambda x: (-x[1], x[0].encode()))
    vocab = [(t, 0.0) for t in specials] + chosen
    return UnigramTokenizer(vocab, unk_token=specials[0], special_tokens=specials)
