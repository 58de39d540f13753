"""What the tokenizer family shares in the twin: special tokens split out of
the text (docs/spec.md §14), and ``analyze``'s counts (§15.8)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, Protocol, SupportsIndex, TypeVar

from fast_wordpiece.reference.args import (
    _any_id,
    _any_ids,
    _flag,
    _id,
    _ids,
    _input_ids,
    _integer,
    _is_one_id,
    _items,
    _quoted,
    _reject_mapping,
    _special_texts,
    _text,
    _texts,
    _type_name,
)
from fast_wordpiece.reference.decoder import clean_up_tokenization
from fast_wordpiece.reference.unicode import REGEX_WORD

#: The ids of a vocabulary dict, as the engine's stubs type them: dict[str, int] is no
#: dict[str, SupportsIndex] (dicts are invariant), yet dict[str, numpy.int64] is taken too.
IntT = TypeVar("IntT", bound=SupportsIndex)


class IdArray(Protocol):
    """An array of ids (numpy's, a torch tensor), as the engine's stubs type it: ``decode`` gives
    the text of one of one dimension, the texts of its rows for two (with a row), as transformers."""

    @property
    def ndim(self) -> int: ...
    def tolist(self) -> Any: ...
    def __len__(self) -> int: ...  # an array, not one of numpy's integers


_IdArray = IdArray

WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000" + "".join(chr(c) for c in range(0x2000, 0x200B))
)


def split_specials(
    text: str, specials: Sequence[str], strip: Mapping[str, tuple[bool, bool]] | None = None
) -> list[tuple[str, int, bool]]:
    """``(piece, char_start, is_special)`` for the pieces of ``text`` (see :func:`split_matched`)."""
    return [(piece, start, token is not None) for piece, start, token in split_matched(text, specials, strip)]


def split_both(
    text: str,
    raw: Sequence[str],
    normalized: Sequence[str],
    strip: Mapping[str, tuple[bool, bool]] | None = None,
    single_word: Collection[str] = (),
) -> list[tuple[str, int, str | None]]:
    """:func:`split_matched` of ``text`` on the ``raw`` tokens, then of each piece of text on
    the ``normalized`` ones, as Hugging Face's added vocabulary splits a text when there is no
    normalizer: the tokens that are not ``normalized`` are found in the raw text first, the others
    in the (here unchanged) text between them."""
    out: list[tuple[str, int, str | None]] = []
    for piece, start, token in split_matched(text, raw, strip, single_word):
        if token is not None or not normalized:
            out.append((piece, start, token))
            continue
        out += [(p, start + s, t) for p, s, t in split_matched(piece, normalized, strip, single_word)]
    return out


def split_matched(
    text: str,
    specials: Sequence[str],
    strip: Mapping[str, tuple[bool, bool]] | None = None,
    single_word: Collection[str] = (),
) -> list[tuple[str, int, str | None]]:
    """``(piece, char_start, token)`` for the pieces of ``text`` (``token`` the special token
    matched, None for text): at the
    earliest position where a special token starts, the longest one that
    starts there, then on after it; the text between them (never empty).
    ``strip`` gives tokens ``(lstrip, rstrip)``: a match of one takes in the
    White_Space before it (back to the previous match) or after it, and its
    piece is the token with that whitespace. As Hugging Face, a match that
    starts in the whitespace the previous one's ``rstrip`` took in is kept,
    overlapping it. A match of a token of ``single_word`` that a word character (the regex
    crate's ``\\w``) touches is passed over, the search going on after it.

    A regular expression of the tokens, longest first, finds exactly these:
    it tries every position from the left, and at one position the first
    alternative that matches, which is the longest."""
    if "" in specials:
        raise ValueError("a special token must not be empty")
    out: list[tuple[str, int, str | None]] = []
    if not specials:
        return [(text, 0, None)] if text else out
    pattern = "|".join(re.escape(s) for s in sorted(set(specials), key=len, reverse=True))
    done = 0
    # text[run[0]:run[1]] is White_Space, and run[1] is the end of the text or not: the end an
    # rstrip found, for the matches inside that run (the split stays linear in the text)
    run = (0, 0)
    for m in re.finditer(pattern, text):
        start, end = m.span()
        if m.group() in single_word and (
            (start > 0 and text[start - 1] in REGEX_WORD) or (end < len(text) and text[end] in REGEX_WORD)
        ):
            continue
        lstrip, rstrip = (strip or {}).get(m.group(), (False, False))
        while lstrip and start > done and text[start - 1] in WHITE_SPACE:  # not back past the previous token
            start -= 1
        if lstrip:
            start = max(start, done)
        if rstrip and not run[0] <= end <= run[1]:
            stop = end
            while stop < len(text) and text[stop] in WHITE_SPACE:
                stop += 1
            run = (end, stop)
        if rstrip:
            end = run[1]
        if start >= end:  # wholly in the whitespace the previous rstrip took in: no piece, as HF
            continue
        if done < start:
            out.append((text[done:start], done, None))
        # (a token may start in the whitespace the previous one's rstrip took in: it is kept)
        out.append((text[start:end], start, m.group()))
        done = end
    if done < len(text):
        out.append((text[done:], done, None))
    return out


def words(text: str) -> int:
    """The runs of characters other than Unicode White_Space."""
    n, inside = 0, False
    for c in text:
        if c in WHITE_SPACE:
            inside = False
        elif not inside:
            n, inside = n + 1, True
    return n


def analyze(
    texts: Iterable[str], encode: Callable[[str], list[int]], vocab_size: int, unk: int | None
) -> dict[str, int | float]:
    """The family's ``analyze``: ``PyTokenizer.analyze``'s dict, counted over
    ``texts`` encoded by ``encode`` (``unk`` the unknown token's id, or None)."""

    def ratio(x: int, y: int) -> float:
        return x / y if y else 0.0

    c = dict(texts=0, words=0, characters=0, tokens=0, unknown=0)
    used: set[int] = set()
    _reject_mapping(texts, "texts")
    for i, text in enumerate(_items(texts, "texts", "str")):
        ids = encode(_text(text, f"texts[{i}]"))
        c["texts"] += 1
        c["words"] += words(text)
        c["characters"] += len(text)
        c["tokens"] += len(ids)
        c["unknown"] += sum(i == unk for i in ids)
        used.update(ids)
    return {
        "vocab_size": vocab_size,
        **c,
        "vocab_used": len(used),
        "tokens_per_word": ratio(c["tokens"], c["words"]),
        "characters_per_token": ratio(c["characters"], c["tokens"]),
        "unknown_rate": ratio(c["unknown"], c["tokens"]),
        "vocab_used_share": ratio(len(used), vocab_size),
    }


def id_to_token(value: SupportsIndex, vocab_size: int, token: Callable[[int], str]) -> str | None:
    """The family's ``id_to_token``, as every engine tokenizer's: ``token(id)`` for an id in the
    vocabulary, None past it. The id is an int or an integer ``operator.index`` takes (not a
    bool: TypeError); a negative one, or one above 2**64 - 1, is a ValueError."""
    number = _integer(value, "id", 0)
    return token(number) if number < vocab_size else None


def token_to_id(token: str, vocab: Mapping[str, int]) -> int | None:
    """The family's ``token_to_id``: the id of ``token`` in ``vocab``, or None; TypeError unless
    it is a str, ValueError if it holds a lone surrogate."""
    return vocab.get(_text(token, "token"))


def top_ids(token_ids: object) -> tuple[object, str, bool]:
    """``decode``'s argument: the ids (a dict or a ``BatchEncoding`` of one text: its
    ``"input_ids"``), the name errors give them, and whether they are a batch (:func:`is_batch`)."""
    ids, name = _input_ids(token_ids)
    return ids, name, name == "token_ids" and is_batch(ids)


def decode_ids(ids: object, vocab_size: int, name: str = "token_ids") -> list[int]:
    """The ids ``decode`` takes: a sequence of ids, or one id (as transformers' ``decode(5)``),
    each below ``vocab_size``, read as ``convert_ids_to_tokens`` reads them (errors naming
    ``name``)."""
    return [_id(ids, name, vocab_size)] if _is_one_id(ids) else _ids(ids, name, vocab_size)


def _dimensions(value: object) -> int:
    """The number of dimensions of an array (numpy's, a torch tensor: its ``ndim``), 0 for
    anything else."""
    n = getattr(value, "ndim", 0)
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else 0


def is_batch(ids: object) -> bool:
    """Whether ``decode`` was given a batch, as transformers 5 tells one once it made arrays
    lists: a list or tuple whose first item is a list, a tuple or an array, or an array of two
    dimensions or more with a row (one without rows is an empty sequence there)."""
    if isinstance(ids, (list, tuple)):
        return len(ids) > 0 and (isinstance(ids[0], (list, tuple)) or _dimensions(ids[0]) >= 1)
    return _dimensions(ids) >= 2 and len(ids) > 0  # type: ignore[arg-type]


def decode_rows(decode: Callable[[list[int], bool, bool], Any], ids: Any, vocab_size: int,
                skip: bool, clean_up: bool) -> list[str]:  # fmt: skip
    """``decode`` of a batch (:func:`is_batch`): the text of each sequence of ids (``token_ids[i]`` in
    errors; one id among them is a sequence of one), as the engine's ``decode`` gives them."""
    return [decode(decode_ids(row, vocab_size, f"token_ids[{i}]"), skip, clean_up) for i, row in enumerate(ids)]


def decode_batch(decode: Callable[[Any, bool, bool], Any], sequences: object, skip: object) -> list[str]:
    """The family's ``decode_batch``: ``decode`` of each sequence of ids, ``skip`` (the
    ``skip_special_tokens`` flag) checked first, without clean-up (tokenizers' ``decode_batch``
    has none). One id where a sequence goes is a TypeError, as in tokenizers' ``decode_batch``."""
    flag = _flag(skip, "skip_special_tokens")
    out = []
    for i, ids in enumerate(_items(sequences, "sequences", "sequences of int")):
        if _is_one_id(ids):
            raise TypeError(f"sequences[{i}] must be a sequence of int, not {_type_name(ids)} "
                            "(decode one sequence with decode)")  # fmt: skip
        out.append(decode(ids, flag, False))
    return out


def clean_up_flag(value: object, default: bool = False) -> bool:
    """``decode``'s ``clean_up_tokenization_spaces``: a bool (or a numpy bool); None is
    ``default``, the tokenizer's ``clean_up_tokenization_spaces`` (False unless set, as
    transformers has it for a tokenizer made of a tokenizer.json)."""
    if value is None:
        return default
    try:
        return _flag(value, "clean_up_tokenization_spaces")
    except TypeError:
        raise TypeError(f"clean_up_tokenization_spaces must be a bool or None, not {_type_name(value)}") from None


def cleaned_up(text: str, clean_up: bool) -> str:
    """``text`` after transformers' ``clean_up_tokenization`` when ``clean_up``."""
    return clean_up_tokenization(text) if clean_up else text


def train_args(
    vocab_size: object, min_frequency: object, special_tokens: Iterable[str] | None, *, no_size: bool = False
) -> list[str] | None:
    """What BPE's and Char's ``train`` and ``train_from_files`` check before reading the corpus,
    in the engine's order: ``vocab_size`` (an int, at least 1; None too when ``no_size``),
    ``min_frequency`` (None or an int, at least 0) and ``special_tokens`` (None or an iterable of
    str, given back as a list)."""
    if vocab_size is not None or not no_size:
        _integer(vocab_size, "vocab_size", 1)
    if min_frequency is not None:
        _integer(min_frequency, "min_frequency", 0)
    return None if special_tokens is None else _special_texts(special_tokens)


def table_vocab(vocab: object) -> dict[str, int]:
    """The ``vocab`` of BPE's and Char's constructors, checked as the engine checks it: a dict of
    str to int ids 0..n-1, each id once; TypeError or ValueError naming the key otherwise."""
    if not isinstance(vocab, dict):
        raise TypeError(f"vocab must be a dict of str to int, not {_type_name(vocab)}")
    out: dict[str, int] = {}
    taken: set[int] = set()
    for key, value in vocab.items():
        token = _text(key, "a vocab key")
        id_ = _integer(value, f"vocab[{_quoted(token)}]", 0)
        if id_ >= len(vocab):
            raise ValueError(f"vocab[{_quoted(token)}] = {id_}: ids must be 0..{len(vocab)} with no gap")
        if id_ in taken:
            raise ValueError(f"id {id_} is given to two tokens")
        taken.add(id_)
        out[token] = id_
    return out


class TableLookups:
    """``token_to_id``, ``id_to_token`` and ``decode_batch`` of a twin whose vocabulary is a table:
    ``vocab`` (token to id) and ``id_to`` (id to token), as BPE's and Char's are."""

    vocab: dict[str, int]
    id_to: dict[int, str]

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
        """The text of ``token_ids`` (each tokenizer gives its own)."""
        raise NotImplementedError

    def decode_batch(
        self, sequences: Iterable[Iterable[SupportsIndex]], skip_special_tokens: bool = False
    ) -> list[str]:
        """``decode`` of each sequence of ids in ``sequences``: a list of str, as the engine's
        ``decode_batch`` (ValueError or TypeError naming the first bad id)."""
        return decode_batch(self.decode, sequences, skip_special_tokens)

    def token_to_id(self, token: str) -> int | None:
        """The id of ``token``, or None; TypeError unless it is a str."""
        return token_to_id(token, self.vocab)

    def id_to_token(self, id: SupportsIndex) -> str | None:  # noqa: A002  (the engine's name)
        """The token with this id, or None past the vocabulary; a negative id is a ValueError,
        a bool or a non-integer a TypeError, as in the engine."""
        return id_to_token(id, len(self.id_to), self.id_to.__getitem__)


class TransformersCalls:
    """transformers' calling conventions for the family's twins, as the engine has them:
    ``tokenizer(text, ...)`` (``fast_wordpiece.batch_encoding.family_call``), ``len``,
    ``convert_ids_to_tokens`` and ``convert_tokens_to_ids``."""

    @property
    def vocab_size(self) -> int:
        """The number of tokens in the vocabulary (each tokenizer says)."""
        raise NotImplementedError

    def __call__(self, text: Any, text_pair: Any = None, **kwargs: Any) -> Any:
        """Tokenizes like a ``transformers`` tokenizer, as the engine's
        ``__call__``: ``tokenizer(text, *, padding=False, truncation=None,
        max_length=None, pad_to_multiple_of=None, padding_side=None,
        return_tensors=None, return_attention_mask=None, ...)`` for a str or a
        list of str, returning a ``BatchEncoding`` of ``input_ids`` and
        ``attention_mask``; pairs of texts (``text_pair``) for the tokenizers that take them
        (``BPETokenizer``, ``UnigramTokenizer``), a ValueError for the others."""
        from fast_wordpiece import batch_encoding

        return batch_encoding.family_call(self, text, text_pair, **kwargs)

    def __len__(self) -> int:
        """The number of tokens in the vocabulary."""
        return self.vocab_size

    def pad(self, *args: Any, **kwargs: Any) -> Any:
        """Pads encoded inputs (a dict of lists, a ``BatchEncoding``, or a list of dicts, as
        ``tokenizer(text)``, ``datasets`` and ``DataCollatorWithPadding`` give them) like
        transformers' ``tokenizer.pad(encoded_inputs, padding=True, max_length=None,
        pad_to_multiple_of=None, padding_side=None, return_attention_mask=None,
        return_tensors=None, verbose=True)``, with the ``pad_token``, as the engine's."""
        from fast_wordpiece import batch_encoding

        return batch_encoding.family_pad(self, *args, **kwargs)

    def batch_decode(
        self,
        sequences: Any,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
        **kwargs: Any,
    ) -> list[str]:
        """transformers' ``batch_decode``: ``decode`` of each sequence of ids (a list of lists, a
        2-D numpy array or torch tensor), as the engine's."""
        from fast_wordpiece import batch_encoding

        return batch_encoding.family_batch_decode(
            self, sequences, skip_special_tokens, clean_up_tokenization_spaces, spaces_between_special_tokens, **kwargs
        )

    #: The padding token set by the caller (None: the padding token by name).
    _pad_token: str | None = None
    #: ``clean_up_tokenization_spaces`` as set by the caller.
    _clean_up: bool = False

    @property
    def clean_up_tokenization_spaces(self) -> bool:
        """Whether ``decode`` and ``batch_decode`` apply transformers' clean-up (``" ."`` to
        ``"."``, ``" n't"`` to ``"n't"``, ...) when the call does not say: False unless set (a
        tokenizer.json does not say, and transformers' default is False). A BPE tokenizer never
        cleans up, as transformers 5 ignores it there. Pickling and copying keep it; ``to_json``
        and ``save`` do not. Setting anything but a bool is a TypeError."""
        return self._clean_up

    @clean_up_tokenization_spaces.setter
    def clean_up_tokenization_spaces(self, value: bool) -> None:
        self._clean_up = _flag(value, "clean_up_tokenization_spaces")

    @property
    def pad_token(self) -> str | None:
        """The padding token of ``tokenizer(..., padding=...)``: the one set (a token of the
        vocabulary; TypeError unless a str, ValueError if not in the vocabulary), else the first
        special token named ``<pad>``, ``[PAD]``, ``<|pad|>`` or ``<|padding|>``, else None.
        Setting None (or deleting it) goes back to the name rule. Pickling and copying keep it;
        ``to_json`` and ``save`` do not (a tokenizer.json has no place for it)."""
        from fast_wordpiece import batch_encoding

        return self._pad_token if self._pad_token is not None else batch_encoding.family_pad_token(self)

    @pad_token.setter
    def pad_token(self, value: str | None) -> None:
        from fast_wordpiece import batch_encoding

        self._pad_token = batch_encoding.family_checked_pad_token(self, value)

    @pad_token.deleter
    def pad_token(self) -> None:
        self._pad_token = None

    @property
    def pad_token_id(self) -> int | None:
        """The id of ``pad_token``, or None; setting an id sets ``pad_token`` to its token (an id
        outside the vocabulary: ValueError)."""
        from fast_wordpiece import batch_encoding

        return batch_encoding.family_pad_token_id(self)

    @pad_token_id.setter
    def pad_token_id(self, value: SupportsIndex | None) -> None:
        from fast_wordpiece import batch_encoding

        self._pad_token = batch_encoding.family_checked_pad_token_id(self, value)

    @pad_token_id.deleter
    def pad_token_id(self) -> None:
        self._pad_token = None

    def _compared(self) -> object:
        """What ``==`` compares: what tokenizes and decodes (each tokenizer says)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return self._compared() == other._compared() if type(other) is type(self) else NotImplemented

    __hash__ = None  # type: ignore[assignment]

    @property
    def special_tokens(self) -> list[str]:
        """The special tokens (each tokenizer says)."""
        raise NotImplementedError

    def id_to_token(self, id: SupportsIndex) -> str | None:  # noqa: A002  (the engine's name)
        """The token of an id (each tokenizer says)."""
        raise NotImplementedError

    def token_to_id(self, token: str) -> int | None:
        """The id of a token (each tokenizer says)."""
        raise NotImplementedError

    def convert_ids_to_tokens(self, ids: Any, skip_special_tokens: bool = False) -> Any:
        """The token of an id, or the tokens of a sequence of ids (a list, a
        tuple, a range, a numpy array: what ``PyTokenizer.convert_ids_to_tokens``
        takes), without the special tokens when ``skip_special_tokens`` (read as
        true or false, as transformers reads it, and only for a sequence). An id
        past the vocabulary gives None, as in transformers."""
        if _is_one_id(ids):
            return self.id_to_token(_any_id(ids, "ids"))
        # By id, as transformers skips its all_special_ids: in a vocabulary that lists a special
        # token twice (CamemBERT's "<unk>"), the entry token_to_id does not give is kept.
        skipped = {self.token_to_id(t) for t in self.special_tokens} if skip_special_tokens else set()
        return [self.id_to_token(i) for i in _any_ids(ids, "ids") if i not in skipped]

    def convert_tokens_to_ids(self, tokens: Any) -> Any:
        """The id of a token, or the ids of a list of tokens (the unknown
        token's id, or None without one, for a token not in the vocabulary)."""
        from fast_wordpiece import batch_encoding

        return batch_encoding.family_convert_tokens_to_ids(self, tokens)


def batch(texts: object, name: str) -> list[str]:
    """The texts of a batch given as ``name`` (``texts``): ``_texts``, a mapping refused (its keys
    are no batch of texts), as the engine's ``family::batch``."""
    _reject_mapping(texts, name)
    return _texts(texts, name)


def batch_items(texts: object) -> list[tuple[str, str | None]]:
    """The items of ``texts`` for a family ``encode_batch`` that takes pairs: a str, or a pair
    of str (a tuple, or a list of two, as Hugging Face takes them); TypeError naming the item
    otherwise."""
    if isinstance(texts, (str, bytes, bytearray)):
        raise TypeError(f"texts must be an iterable of str or (str, str), not {_type_name(texts)}")
    _reject_mapping(texts, "texts")
    out: list[tuple[str, str | None]] = []
    for i, item in enumerate(_items(texts, "texts", "str")):
        if isinstance(item, (tuple, list)):
            if len(item) != 2:
                raise TypeError(f"texts[{i}] must be str or a (str, str) pair, not a {_type_name(item)} of {len(item)}")
            out.append((_text(item[0], f"texts[{i}][0]"), _text(item[1], f"texts[{i}][1]")))
        else:
            out.append((_text(item, f"texts[{i}]"), None))
    return out
