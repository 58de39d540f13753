"""transformers' calling conventions on the twin: ``tokenizer(...)``, ``pad``, ``tokenize``, the
conversions between tokens and ids, the special tokens as attributes, and the settings a caller
may change. ``__call__`` and ``pad`` are ``fast_wordpiece.batch_encoding``'s, shared with the
engine; ``_call_batch`` does their work, as the engine's does."""

from __future__ import annotations

import errno
import os
import stat
import warnings
from dataclasses import replace
from typing import Any

from fast_wordpiece import batch_encoding
from fast_wordpiece.added_token import AddedToken
from fast_wordpiece.backend import BackendTokenizer
from fast_wordpiece.reference.args import (
    _any_id,
    _any_ids,
    _flag,
    _is_dict,
    _is_one_id,
    _path,
    _quoted,
    _StrPath,
    _text,
    _texts,
    _type_name,
)
from fast_wordpiece.reference.decoder import clean_up_tokenization
from fast_wordpiece.reference.encoding import Encoding
from fast_wordpiece.reference.options import EncodeOptions
from fast_wordpiece.reference.stages import tokens_to_string

NO_MAXIMUM = int(1e30)  # transformers' VERY_LARGE_INTEGER: a model without a maximum length
MASK_TOKEN = "[MASK]"  # unless a model directory or the caller says otherwise
#: The inputs a BERT model takes (BertTokenizer's model_input_names): those of a tokenizer not read from a
#: model directory.
BERT_INPUTS = ("input_ids", "token_type_ids", "attention_mask")
_ARRAYS = (("input_ids", "ids"), ("token_type_ids", "type_ids"), ("attention_mask", "attention_mask"),
           ("special_tokens_mask", "special_tokens_mask"), ("offset_mapping", "offsets"))  # fmt: skip


def str_list(value: Any, name: str) -> list[str]:
    """A list of str set by the caller (any iterable of str but a str or bytes), as the setting ``name``."""
    if isinstance(value, (str, bytes, bytearray)):
        raise TypeError(f"{name} must be an iterable of str, not {type(value).__name__}")
    try:
        items = [t for t in value]  # never list(value), which asks a length (only a hint)  # noqa: C416
    except TypeError:
        raise TypeError(f"{name} must be a list of str, not {type(value).__name__}") from None
    return [_text(t, f"{name}[{i}]") for i, t in enumerate(items)]


class TransformersCalls:
    """The methods and attributes of transformers' tokenizers (mixed into the twin's PyTokenizer,
    which provides ``_ids``, ``_vocab``, ``_options``, ``_special_tokens``, ``encode`` and
    ``encode_batch``)."""

    _ids: dict[str, int]
    _vocab: list[str]
    _options: Any
    _special_tokens: list[str]
    _model_max_length: int | None = None
    _padding_side = "right"
    _truncation_side = "right"
    _clean_up_tokenization_spaces = False
    _bos_token: str | None = None
    _eos_token: str | None = None
    _mask_token: str | None = MASK_TOKEN
    _extra_special_tokens: list[str] = []  # noqa: RUF012  (replaced whole, never changed in place)
    _model_input_names: tuple[str, ...] | list[str] = BERT_INPUTS
    _name_or_path = ""
    _added: list[dict[str, Any]]
    _plain_special_tokens: Any
    _padding: Any
    get_vocab: Any
    save_vocab: Any
    decode: Any
    encode: Any
    _unpadded_tokens: Any
    encode_batch: Any
    _encode_batch: Any
    decode_batch: Any
    _decode_sequences: Any
    _checked_id: Any
    _checked_ids: Any
    _added_count: Any
    id_to_token: Any

    def __call__(self, *args: Any, **kwargs: Any) -> batch_encoding.BatchEncoding:
        """Tokenizes like a ``transformers`` tokenizer (see ``fast_wordpiece.batch_encoding.call``)."""
        return batch_encoding.call(self, *args, **kwargs)

    def pad(self, *args: Any, **kwargs: Any) -> batch_encoding.BatchEncoding:
        """Pads encoded inputs like transformers' ``tokenizer.pad``."""
        return batch_encoding.pad(self, *args, **kwargs)

    def _warned_too_long(self) -> bool:
        """Whether the call had already warned that a sequence is longer than ``model_max_length``; the
        call's warning comes once per tokenizer, as in transformers, so this marks it as given."""
        warned: bool = vars(self).get("_too_long_warned", False)
        self._too_long_warned = True
        return warned

    def _call_batch(self, inputs: list[Any], add_special_tokens: bool, overflowing: bool, tensors: bool,
                    split_into_words: bool = False, split_special_tokens: bool | None = None,
                    **options: Any) -> tuple[list[Encoding], dict[str, Any] | None, list[int], int]:  # fmt: skip
        """The rows of ``__call__`` (each input's encoding, then its windows when ``overflowing``),
        their numpy arrays when ``tensors`` and they have one length (else None), the input each
        row comes from, and the length of the longest row (0 without rows). With ``split_into_words``,
        each item is a list of words (or a pair of lists). ``split_special_tokens`` (None: the
        tokenizer's) applies to this call only."""
        split = _split_argument(split_special_tokens)
        if split is not None and split != self._options.split_special_tokens:
            copy: TransformersCalls = self._with_split(split)
            return copy._call_batch(inputs, add_special_tokens, overflowing, tensors, split_into_words, **options)
        add_special_tokens = _flag(add_special_tokens, "add_special_tokens")
        overflowing = _flag(overflowing, "return_overflowing_tokens")
        if _flag(split_into_words, "is_split_into_words"):
            encodings = self._encode_batch([_words(item, f"inputs[{i}]") for i, item in enumerate(inputs)],
                                           EncodeOptions(add_special_tokens, **options))  # fmt: skip
        else:
            # Not encode_batch: transformers' call applies no default truncation or padding of the file's.
            encodings = self._encode_batch([_pair(item, f"inputs[{i}]") for i, item in enumerate(inputs)],
                                           EncodeOptions(add_special_tokens, **options))  # fmt: skip
        rows: list[Encoding] = []
        sample: list[int] = []
        for i, encoding in enumerate(encodings):
            # Every row keeps its windows (a pair's windows their nested ones), as transformers'
            # [encoding] + encoding.overflowing do; encodings are immutable, so rows may share them.
            windows = encoding.overflowing if overflowing else []
            rows += [encoding, *windows]
            sample += [i] * (1 + len(windows))
        longest = max(map(len, rows), default=0)
        if not tensors:
            return rows, None, sample, longest
        import numpy as np

        length = len(rows[0]) if rows else 0
        if any(len(row) != length for row in rows):
            return rows, None, sample, longest  # ragged rows: no arrays of one shape
        arrays = {}
        for key, field in _ARRAYS:
            shape = (len(rows), length, 2) if field == "offsets" else (len(rows), length)
            arrays[key] = np.array([getattr(row, field) for row in rows], dtype=np.int64).reshape(shape)
        return rows, arrays, sample, longest

    def tokenize(self, text: str, pair: str | None = None, add_special_tokens: bool = False, *,
                 split_special_tokens: bool | None = None, **kwargs: Any) -> list[str]:  # fmt: skip
        """The token strings of ``text`` (and ``pair``; an empty one is none, as in transformers);
        ``split_special_tokens`` (None: the tokenizer's setting) makes special tokens written in the text
        plain text (True) or not, for this call only. The call's other keyword arguments (``truncation``,
        ``max_length``, ``padding``, ...) are accepted and change nothing, as in transformers 5
        (``batch_encoding.tokenize_keywords``)."""
        add = _flag(add_special_tokens, "add_special_tokens")  # read with the arguments, as the engine's
        batch_encoding.tokenize_keywords(kwargs)
        text = _text(text, "text")  # a str: tokenize takes no list of words
        pair = None if pair is None else _text(pair, "pair")
        split = _split_argument(split_special_tokens)
        tokenizer = self if split is None or split == self._options.split_special_tokens else self._with_split(split)
        tokens: list[str] = tokenizer._unpadded_tokens(text, pair or None, add)
        return tokens

    def _with_split(self, split: bool) -> Any:
        """A copy of this tokenizer with ``split_special_tokens`` set to ``split`` (for one call)."""
        copy = type(self).__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy._options = replace(self._options, split_special_tokens=split)
        return copy

    def convert_tokens_to_ids(self, tokens: str | list[str]) -> int | list[int | None] | None:
        """The id of a token (the unknown token's for one not in the vocabulary), or a list of ids."""
        unk = self._ids.get(self._options.unk_token)
        if isinstance(tokens, str):
            return self._ids.get(_text(tokens, "tokens"), unk)
        if isinstance(tokens, (bytes, bytearray)) or not hasattr(tokens, "__iter__"):
            raise TypeError(f"tokens must be a str or a list of str, not {_type_name(tokens)}")
        return [self._ids.get(token, unk) for token in _texts(tokens, "tokens")]

    def convert_ids_to_tokens(self, ids: int | list[int],
                              skip_special_tokens: bool = False) -> str | list[str | None] | None:  # fmt: skip
        """The token of an id, or the tokens of a list of ids (without those of ``all_special_ids`` when
        ``skip_special_tokens``, as in transformers). ``skip_special_tokens`` is read as true or false
        (``if``), as transformers reads it, and only for a list. An id no token has (past the vocabulary,
        or in a hole of it) gives None, as transformers' ``id_to_token``; a negative id or one of 2**32
        or more is a ValueError."""
        if _is_one_id(ids):
            return self._shown(_any_id(ids, "ids"))
        skipped = set(self.all_special_ids) if skip_special_tokens else set()  # as in transformers, first
        checked = _any_ids(ids, "ids")
        return [self._shown(i) for i in checked if i not in skipped]

    def _shown(self, id_: int) -> str | None:
        """The token of an id as encodings show it (``id_to_token``), or None."""
        token: str | None = self.id_to_token(id_)
        return token

    def convert_tokens_to_string(self, tokens: list[str]) -> str:
        """Tokens joined back into text by the decoder, as transformers' ``convert_tokens_to_string``
        (with ``decoder="none"``, joined with spaces)."""
        return tokens_to_string(self._options, tokens)

    def batch_decode(self, sequences: Any, skip_special_tokens: bool = False,
                     clean_up_tokenization_spaces: bool | None = None,
                     spaces_between_special_tokens: bool = True) -> list[str]:  # fmt: skip
        """``decode`` for each sequence of ids. As in transformers 5, one sequence (a list of ids, a 1-D
        array, or an ``Encoding``) is decoded as one text, giving a list of that text, with a
        FutureWarning (call ``decode`` for one sequence)."""
        if _is_other_iterable(sequences):
            # a range, a deque, a generator, ...: its items tell one sequence from a batch as a list's do
            sequences = list(sequences)
        if _is_one_sequence(sequences):
            warnings.warn(ONE_SEQUENCE, FutureWarning, stacklevel=2)
            return [self.decode(sequences, skip_special_tokens, clean_up_tokenization_spaces,
                                spaces_between_special_tokens)]  # fmt: skip
        # transformers decodes one id among the sequences alone.
        skip = _flag(skip_special_tokens, "skip_special_tokens")
        _flag(spaces_between_special_tokens, "spaces_between_special_tokens")
        result: list[str] = self._decode_sequences(sequences, skip, clean_up_tokenization_spaces, one_ids=True)
        return result

    def get_special_tokens_mask(self, token_ids_0: list[int], token_ids_1: list[int] | None = None,
                                already_has_special_tokens: bool = False) -> list[int]:  # fmt: skip
        """1 for each special token (see the engine's docstring)."""
        already = _flag(already_has_special_tokens, "already_has_special_tokens")
        # The template's ids that no token has are taken, as encodings hold them (not special ids: 0).
        a = self._checked_ids(token_ids_0, "token_ids_0", unassigned=True)
        if already:
            if token_ids_1 is not None:
                raise ValueError("token_ids_1 must be None when already_has_special_tokens=True: the ids already "
                                 "hold the pair")  # fmt: skip
            special = set(self.all_special_ids)
            return [int(i in special) for i in a]
        mask = [1] + [0] * len(a) + [1]
        if token_ids_1 is not None:
            mask += [0] * len(self._checked_ids(token_ids_1, "token_ids_1", unassigned=True)) + [1]
        return mask

    def __len__(self) -> int:
        """The number of tokens, added ones included (transformers' ``len()``, Hugging Face's
        ``get_vocab_size()``; ids no token has are not counted)."""
        return len(self._ids)

    is_fast = False  # the twin is pure Python (its encodings have alignment all the same)

    @property
    def model_input_names(self) -> list[str]:
        """The inputs the model takes, as transformers' ``model_input_names``: the call returns
        ``token_type_ids`` (and ``attention_mask``, which ``pad`` adds too) when they are among them,
        unless it says otherwise. BERT's, unless read from a model directory. A new list each time."""
        return list(self._model_input_names)

    @model_input_names.setter
    def model_input_names(self, value: list[str]) -> None:
        self._model_input_names = str_list(value, "model_input_names")

    @property
    def model_max_length(self) -> int:
        """The longest input the model takes (1e30, transformers' VERY_LARGE_INTEGER: no maximum)."""
        return NO_MAXIMUM if self._model_max_length is None else self._model_max_length

    @model_max_length.setter
    def model_max_length(self, value: int) -> None:
        self._model_max_length = max_length_setting(value)

    @property
    def clean_up_tokenization_spaces(self) -> bool:
        """Whether ``decode`` applies transformers' clean-up when the call does not say (False unless the
        model directory says true)."""
        return self._clean_up_tokenization_spaces

    @clean_up_tokenization_spaces.setter
    def clean_up_tokenization_spaces(self, value: bool) -> None:
        self._clean_up_tokenization_spaces = _flag(value, "clean_up_tokenization_spaces")

    @property
    def split_special_tokens(self) -> bool:
        """Whether special tokens written in the text are plain text (the pipeline option, as transformers'
        attribute); setting it changes every later call, ``tokenize`` and ``encode``."""
        return bool(self._options.split_special_tokens)

    @split_special_tokens.setter
    def split_special_tokens(self, value: bool) -> None:
        self._options = replace(self._options, split_special_tokens=_flag(value, "split_special_tokens"))

    @property
    def encode_special_tokens(self) -> bool:
        """``split_special_tokens`` under Hugging Face ``tokenizers``' name: whether special tokens written
        in the text are plain text. Settable (a bool)."""
        return self.split_special_tokens

    @encode_special_tokens.setter
    def encode_special_tokens(self, value: bool) -> None:
        self._options = replace(self._options, split_special_tokens=_flag(value, "encode_special_tokens"))

    @property
    def padding_side(self) -> str:
        """Where padding goes by default: "right" or "left"."""
        return self._padding_side

    @padding_side.setter
    def padding_side(self, value: str) -> None:
        self._padding_side = _side(value, "padding_side")

    @property
    def truncation_side(self) -> str:
        """Where truncation cuts: "right" or "left"."""
        return self._truncation_side

    @truncation_side.setter
    def truncation_side(self, value: str) -> None:
        self._truncation_side = _side(value, "truncation_side")

    def num_special_tokens_to_add(self, pair: bool = False, *, is_pair: bool | None = None) -> int:
        """How many special tokens post-processing adds to one text, or to a pair with ``pair=True``
        (``is_pair=True``, Hugging Face ``tokenizers``' name, says the same)."""
        pair = _flag(pair, "pair")
        if is_pair is not None:
            pair = _flag(is_pair, "is_pair")
        return int(self._added_count(pair))

    def _present(self, token: str) -> str | None:
        return token if token in self._ids else None

    unk_token = property(
        lambda self: self._present(self._options.unk_token),
        doc="The unknown token (None when it is not in the vocabulary).",
    )
    sep_token = property(
        lambda self: self._present(self._options.sep_token),
        doc="The separator token (None when it is not in the vocabulary).",
    )
    cls_token = property(
        lambda self: self._present(self._options.cls_token),
        doc="The classifier token (None when it is not in the vocabulary).",
    )
    unk_token_id = property(
        lambda self: self._ids.get(self._options.unk_token), doc="The unknown token's id (None without one)."
    )
    sep_token_id = property(
        lambda self: self._ids.get(self._options.sep_token), doc="The separator token's id (None without one)."
    )
    cls_token_id = property(
        lambda self: self._ids.get(self._options.cls_token), doc="The classifier token's id (None without one)."
    )
    pad_token_id = property(
        lambda self: self._ids.get(self._options.pad_token), doc="The padding token's id (None without one)."
    )
    #: The padding token's type id: 0.
    pad_token_type_id = 0

    @property
    def pad_token(self) -> str | None:
        """The token padding inserts: ``[PAD]`` unless the model directory, ``add_special_tokens`` or the
        caller names another (None when it is not in the vocabulary). Settable (a non-empty str), as in
        transformers: the vocabulary does not change; padding then needs the token in it."""
        return self._present(self._options.pad_token)

    @pad_token.setter
    def pad_token(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"pad_token must be a str, not {_type_name(value)}")
        token = _token_setting(value, "pad_token")
        assert token is not None
        if self._padding is not None and token not in self._ids:
            raise ValueError(f"pad_token {_quoted(token)} is not in the vocabulary, and the default padding "
                             "(enable_padding) inserts it")  # fmt: skip
        self._pad_with(token)

    def _pad_with(self, token: str) -> None:
        """Pads with ``token`` from now on (the vocabulary does not change)."""
        self._options = replace(self._options, pad_token=token)

    @property
    def mask_token(self) -> str | None:
        """The mask token: ``[MASK]`` unless the model directory or the caller names another (None when it
        is not in the vocabulary). Settable (a str or None), as in transformers: the vocabulary does not
        change."""
        return None if self._mask_token is None else self._present(self._mask_token)

    @mask_token.setter
    def mask_token(self, value: str | None) -> None:
        self._mask_token = _token_setting(value, "mask_token")

    mask_token_id = property(
        lambda self: None if self._mask_token is None else self._ids.get(self._mask_token),
        doc="The mask token's id (None when it is not in the vocabulary).",
    )

    @property
    def bos_token(self) -> str | None:
        """The beginning-of-sequence token: None (BERT has none) unless the model directory or the caller
        names one that is in the vocabulary. Settable (a str or None)."""
        return None if self._bos_token is None else self._present(self._bos_token)

    @bos_token.setter
    def bos_token(self, value: str | None) -> None:
        self._bos_token = _token_setting(value, "bos_token")

    bos_token_id = property(
        lambda self: None if self._bos_token is None else self._ids.get(self._bos_token),
        doc="The beginning-of-sequence token's id (None without one).",
    )

    @property
    def eos_token(self) -> str | None:
        """The end-of-sequence token: None (BERT has none) unless the model directory or the caller names
        one that is in the vocabulary. Settable (a str or None)."""
        return None if self._eos_token is None else self._present(self._eos_token)

    @eos_token.setter
    def eos_token(self, value: str | None) -> None:
        self._eos_token = _token_setting(value, "eos_token")

    eos_token_id = property(
        lambda self: None if self._eos_token is None else self._ids.get(self._eos_token),
        doc="The end-of-sequence token's id (None without one).",
    )

    @property
    def extra_special_tokens(self) -> list[str]:
        """transformers' extra special tokens (those without a name of their own) that are in the
        vocabulary: a model directory's ``extra_special_tokens`` (or ``additional_special_tokens``), and
        those given to ``add_special_tokens``. Settable (a list of str), as in transformers: the vocabulary
        does not change."""
        return [t for t in self._extra_special_tokens if t in self._ids]

    @extra_special_tokens.setter
    def extra_special_tokens(self, value: list[str]) -> None:
        self._extra_special_tokens = str_list(value, "extra_special_tokens")

    @property
    def all_special_tokens(self) -> list[str]:
        """The special tokens in the vocabulary, as transformers lists them: the named ones (bos, eos, unk,
        sep, pad, cls, mask), then the extra ones, each once."""
        o = self._options
        named = (self._bos_token, self._eos_token, o.unk_token, o.sep_token, o.pad_token, o.cls_token, self._mask_token)
        out: list[str] = []
        for t in [t for t in named if t is not None] + self._extra_special_tokens:
            if t in self._ids and t not in out:
                out.append(t)
        return out

    @property
    def all_special_ids(self) -> list[int]:
        """The ids of ``all_special_tokens``, in the same order."""
        return [self._ids[t] for t in self.all_special_tokens]

    def _call_settings(self) -> dict[str, Any]:
        """What pickling keeps of the settings."""
        return {"model_max_length": self.model_max_length, "padding_side": self.padding_side,
                "truncation_side": self.truncation_side,
                "clean_up_tokenization_spaces": self.clean_up_tokenization_spaces, "bos_token": self.bos_token,
                "eos_token": self.eos_token, "mask_token": self.mask_token,
                "extra_special_tokens": self.extra_special_tokens,
                "model_input_names": self.model_input_names, "name_or_path": self.name_or_path,
                # (`PyTokenizer`'s, this mixin's one user; the mixin does not declare it)
                "word_cache": getattr(self, "word_cache", True)}  # fmt: skip

    # -- more of transformers' attributes (the engine's src/python/compat.rs) -----

    @property
    def special_tokens_map(self) -> dict[str, str]:
        """The named special tokens that are set, as transformers 5's ``special_tokens_map``, in its
        order (bos, eos, unk, sep, pad, cls, mask), without the extra ones."""
        named = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")
        return {name: str(getattr(self, name)) for name in named if getattr(self, name) is not None}

    def _added_vocabulary(self) -> list[tuple[int, AddedToken]]:
        """The special tokens given to the constructor (special, not normalized) and the added tokens,
        with their ids, in id order, as Hugging Face's added vocabulary."""
        plain = [{"content": t, "special": True, "normalized": False} for t in self._plain_special_tokens()]
        tokens = [(self._ids[t["content"]], t) for t in [*plain, *self._added] if t["content"] in self._ids]
        return [(i, AddedToken(t["content"], single_word=bool(t.get("single_word")), lstrip=bool(t.get("lstrip")),
                               rstrip=bool(t.get("rstrip")), normalized=bool(t["normalized"]),
                               special=bool(t["special"])))
                for i, t in sorted(tokens, key=lambda item: item[0])]  # fmt: skip

    @property
    def added_tokens_decoder(self) -> dict[int, AddedToken]:
        """``{id: AddedToken}`` for the added vocabulary, in id order, as transformers'
        ``added_tokens_decoder`` (a new dict of new ``AddedToken`` objects each time)."""
        return dict(self._added_vocabulary())

    def get_added_tokens_decoder(self) -> dict[int, AddedToken]:
        """``added_tokens_decoder``, under Hugging Face ``tokenizers``' name."""
        return self.added_tokens_decoder

    @property
    def added_tokens_encoder(self) -> dict[str, int]:
        """``{token: id}`` for the added vocabulary, in id order, as transformers'."""
        return self.get_added_vocab()

    def get_added_vocab(self) -> dict[str, int]:
        """``{token: id}`` for the added vocabulary, in id order, as transformers' ``get_added_vocab()``."""
        return {t.content: i for i, t in self._added_vocabulary()}

    @property
    def backend_tokenizer(self) -> BackendTokenizer:
        """The tokenizer under Hugging Face ``tokenizers``' defaults, as transformers'
        ``backend_tokenizer`` (``decode`` drops special tokens unless told otherwise, ``encode``
        takes ``is_pretokenized`` second by position; the rest is this tokenizer's)."""
        return BackendTokenizer(self)

    def clean_up_tokenization(self, text: str) -> str:
        """``text`` with transformers' clean-up rules applied (``" ."`` to ``"."``, ``" n't"`` to
        ``"n't"``, ...), as transformers' ``clean_up_tokenization``: what ``decode(...,
        clean_up_tokenization_spaces=True)`` does to its text."""
        return clean_up_tokenization(_text(text, "text"))

    @property
    def vocab(self) -> dict[str, int]:
        """``{token: id}`` for the whole vocabulary (``get_vocab()``)."""
        result: dict[str, int] = self.get_vocab()
        return result

    @property
    def do_lower_case(self) -> bool:
        """Whether the normalizer lowercases (the ``lowercase`` option), as transformers' BERT tokenizers'
        ``do_lower_case``."""
        return bool(self._options.lowercase)

    @property
    def strip_accents(self) -> bool | None:
        """Whether the normalizer strips accents (the ``strip_accents`` option; None: when it lowercases),
        as transformers' BERT tokenizers' ``strip_accents``."""
        strip: bool | None = self._options.strip_accents
        return strip

    @property
    def tokenize_chinese_chars(self) -> bool:
        """Whether the normalizer puts spaces around CJK ideographs (the ``handle_chinese_chars``
        option), as transformers' BERT tokenizers' ``tokenize_chinese_chars``."""
        return bool(self._options.handle_chinese_chars)

    @property
    def name_or_path(self) -> str:
        """The directory ``from_pretrained`` read (as given, as ``os.fsdecode`` gives it), else ``""``.
        Settable (any str: the directory's, surrogate escapes and all, as pickling sets it back)."""
        return self._name_or_path

    @name_or_path.setter
    def name_or_path(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"name_or_path must be a str, not {_type_name(value)}")
        self._name_or_path = value

    @property
    def max_len_single_sentence(self) -> int:
        """``model_max_length`` minus the special tokens one text gets, as in transformers."""
        return self.model_max_length - self.num_special_tokens_to_add(False)

    @property
    def max_len_sentences_pair(self) -> int:
        """``model_max_length`` minus the special tokens a pair of texts gets, as in transformers."""
        return self.model_max_length - self.num_special_tokens_to_add(True)

    def save_vocabulary(self, save_directory: _StrPath,
                        filename_prefix: str | None = None) -> tuple[str]:  # fmt: skip
        """Writes the vocabulary (as ``save_vocab``) to ``vocab.txt`` in ``save_directory`` (or
        ``{filename_prefix}-vocab.txt``), which must exist; returns a tuple of that path."""
        directory = _path(save_directory, "save_directory")
        if filename_prefix is not None and not isinstance(filename_prefix, str):
            raise TypeError(f"filename_prefix must be a str or None, not {_type_name(filename_prefix)}")
        name = f"{_text(filename_prefix, 'filename_prefix')}-vocab.txt" if filename_prefix else "vocab.txt"
        try:
            is_dir = stat.S_ISDIR(os.stat(directory).st_mode)
        except FileNotFoundError:
            raise FileNotFoundError(errno.ENOENT, "save_directory does not exist", directory) from None
        if not is_dir:
            raise NotADirectoryError(errno.ENOTDIR, "save_directory is not a directory", directory)
        path = os.path.join(directory, name)
        self.save_vocab(path)
        return (path,)

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            setattr(self, key, value)


#: What ``batch_decode`` says when it is given one sequence of ids (the engine's words).
ONE_SEQUENCE = ("batch_decode was given one sequence of ids, not a list of sequences: it is decoded as one text, "
                "as transformers 5 does (transformers deprecates this); call decode for one sequence")  # fmt: skip


def _is_other_iterable(value: object) -> bool:
    """Whether ``batch_decode`` reads ``value`` as the list of its items: an iterable other than a
    list, a tuple, an array, an ``Encoding``, a dict, text or bytes (whose own rules apply)."""
    kinds = (list, tuple, str, bytes, bytearray, memoryview, Encoding)
    if isinstance(value, kinds) or hasattr(value, "ndim") or _is_dict(value):
        return False
    try:
        iter(value)  # type: ignore[call-overload]
    except TypeError:
        return False
    return True


def _is_one_sequence(sequences: object) -> bool:
    """Whether ``batch_decode`` was given one sequence rather than a batch: an ``Encoding``, a dict or
    a ``BatchEncoding`` (its ``"input_ids"``), a non-empty list or tuple whose first item is one id, or
    a non-empty array of one dimension."""
    if isinstance(sequences, Encoding) or _is_dict(sequences):
        return True
    if isinstance(sequences, (list, tuple)):
        return len(sequences) > 0 and _is_one_id(sequences[0])
    return getattr(sequences, "ndim", None) == 1 and len(sequences) > 0  # type: ignore[arg-type]


def _split_argument(value: object) -> bool | None:
    """A call's ``split_special_tokens``: None (the tokenizer's own) or a bool."""
    return None if value is None else _flag(value, "split_special_tokens")


def _token_setting(value: object, name: str) -> str | None:
    """A special token set by the caller: a str, or None for none. An empty str is a ValueError
    (transformers would list it with the unknown token's id)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str or None, not {_type_name(value)}")
    if not _text(value, name):
        raise ValueError(f"{name} must not be empty")
    return value


def max_length_setting(value: object) -> int | None:
    """A ``model_max_length`` set by a caller: the int, or None (no maximum) for transformers'
    ``LARGE_INTEGER`` (1e20) and beyond."""
    number = batch_encoding._integer(value, "model_max_length", 0, None)
    if 2**64 <= number < batch_encoding.LARGE_INTEGER:  # the engine holds a u64
        raise ValueError("model_max_length is too large")
    return None if number >= batch_encoding.LARGE_INTEGER else number


def _side(value: object, name: str) -> str:
    """``"left"`` or ``"right"`` as a plain str, with the engine's errors."""
    text = str(_text(value, name))
    if text not in ("right", "left"):
        raise ValueError(f'{name} must be "left" or "right", not {_quoted(text)}')
    return text


def _pair(item: Any, name: str) -> tuple[str, str | None]:
    """An input of the call: a str, or a pair (a tuple or a list of two str)."""
    if isinstance(item, str):
        return _text(item, name), None
    return _text(item[0], f"{name}[0]"), _text(item[1], f"{name}[1]")


def _words(item: object, name: str) -> tuple[list[str], list[str] | None]:
    """An input given as words: a list (or tuple) of str, or a pair of two such lists (a tuple or, as
    Hugging Face accepts, a list of two)."""
    if isinstance(item, (tuple, list)) and len(item) == 2 and not isinstance(item[0], str):
        return _word_list(item[0], f"{name}[0]"), _word_list(item[1], f"{name}[1]")
    return _word_list(item, name), None


def _word_list(words: object, name: str) -> list[str]:
    if isinstance(words, str) or not isinstance(words, (list, tuple)):
        raise TypeError(f"{name} must be a list of words (str), not {_type_name(words)}")
    try:
        return [_text(word, f"{name}[{j}]") for j, word in enumerate(words)]
    except MemoryError as e:
        if str(e):
            raise
        # Python's own, raised where the list cannot grow, says nothing: named, as the engine's is.
        raise MemoryError(f"a list of {len(words)} words ({name}) needs more memory than can be reserved") from None
