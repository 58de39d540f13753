"""The pipeline options and the keyword arguments of ``encode``, checked."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any, Union

from fast_wordpiece.reference.args import _flag, _integer, _quoted, _text
from fast_wordpiece.reference.common import CONTINUATION
from fast_wordpiece.reference.normalizer import Normalizer
from fast_wordpiece.reference.pre_tokenizer import PRE_TOKENIZERS, pre_tokenize
from fast_wordpiece.reference.template import parse as parse_template

POST_PROCESSORS = ("bert", "none")
DECODERS = ("wordpiece", "none")
TRUNCATIONS = ("longest_first", "only_first", "only_second", "do_not_truncate")
PADDINGS = ("longest", "max_length")
SIDES = ("left", "right")
PAD_TOKEN = "[PAD]"  # the token padding inserts unless the options name another


@dataclass(frozen=True)
class Options:
    """The pipeline options, which every constructor takes as keyword arguments."""

    clean_text: bool = True
    handle_chinese_chars: bool = True
    strip_accents: bool | None = None  # None: the same as lowercase
    lowercase: bool = True
    strip_all_marks: bool = False  # accent stripping drops every mark (M), as Hugging Face's StripAccents
    pre_tokenizer: str = "bert"
    unk_token: str = "[UNK]"
    cls_token: str = "[CLS]"
    sep_token: str = "[SEP]"
    pad_token: str = PAD_TOKEN  # the token padding inserts
    max_input_chars_per_word: int = 100
    continuing_subword_prefix: str = CONTINUATION
    decoder_cleanup: bool = True
    #: "bert", "none" (add_special_tokens adds nothing), or Hugging Face's TemplateProcessing object
    post_processor: Union[str, dict[str, Any]] = "bert"  # noqa: UP007 (a dataclass field on Python 3.9)
    split_special_tokens: bool = False  # special tokens written in the text are plain text
    decoder: str = "wordpiece"  # or "none": decode joins the tokens with spaces

    def __post_init__(self) -> None:
        """Each option checked on its own (its type, then its value) in the order of the fields, as
        the engine checks them."""
        for name in ("clean_text", "handle_chinese_chars"):
            _flag(getattr(self, name), name)
        if self.strip_accents is not None:
            _flag(self.strip_accents, "strip_accents")
        for name in ("lowercase", "strip_all_marks"):
            _flag(getattr(self, name), name)
        if _text(self.pre_tokenizer, "pre_tokenizer") not in PRE_TOKENIZERS:
            choices = ", ".join(map(_quoted, PRE_TOKENIZERS))
            raise ValueError(f"unknown pre_tokenizer {_quoted(self.pre_tokenizer)}: expected one of {choices}")
        for name in ("unk_token", "cls_token", "sep_token", "pad_token"):
            if not _text(getattr(self, name), name):
                raise ValueError(f"{name} must not be empty")
        number = _integer(self.max_input_chars_per_word, "max_input_chars_per_word", 1)
        object.__setattr__(self, "max_input_chars_per_word", number)
        _text(self.continuing_subword_prefix, "continuing_subword_prefix")
        _flag(self.decoder_cleanup, "decoder_cleanup")
        if isinstance(self.post_processor, dict):
            if self.post_processor.get("type") != "TemplateProcessing":
                raise ValueError('post_processor.type: expected "TemplateProcessing" (the only post-processor given '
                                 "as an object)")  # fmt: skip
            object.__setattr__(self, "post_processor", parse_template(self.post_processor))
        elif _text(self.post_processor, "post_processor") not in POST_PROCESSORS:
            raise ValueError(f"unknown post_processor {_quoted(self.post_processor)}: "
                             'expected "bert", "none" or a TemplateProcessing object')  # fmt: skip
        _flag(self.split_special_tokens, "split_special_tokens")
        if _text(self.decoder, "decoder") not in DECODERS:
            raise ValueError(f'unknown decoder {_quoted(self.decoder)}: expected "wordpiece" or "none"')

    @cached_property
    def normalizer(self) -> Normalizer:
        """The normalizer these options make (``strip_accents`` None following ``lowercase``)."""
        strip = self.lowercase if self.strip_accents is None else self.strip_accents
        return Normalizer(self.clean_text, self.handle_chinese_chars, strip, self.lowercase, self.strip_all_marks)

    def words(self, text: str) -> list[str]:
        """Step 1 of spec section 4 for one text: its normalized, pre-tokenized words."""
        normalized, _ = self.normalizer.normalize(text)
        return [normalized[start:end] for start, end in pre_tokenize(self.pre_tokenizer, normalized)]


def pipeline_options(options: Mapping[str, Any], function: str) -> Options:
    """The pipeline options of ``function``'s keyword arguments, checked: an unexpected keyword (the
    first in the call's order) is a TypeError naming ``function`` and the keyword as Python does, as
    the engine's is."""
    names = {field.name for field in fields(Options)}
    for key in options:
        if key not in names:
            raise TypeError(f"{function}() got an unexpected keyword argument {key!r}")
    return Options(**options)


@dataclass(frozen=True)
class EncodeOptions:
    """The keyword arguments of ``encode`` and ``encode_batch``, checked (spec section 9)."""

    add_special_tokens: bool = True
    max_length: int | None = None
    truncation: str = "longest_first"
    stride: int = 0
    truncation_side: str = "right"
    padding: str | None = None
    pad_to_multiple_of: int | None = None
    padding_side: str = "right"
    pad_length: int | None = None  # padding="max_length" to this length instead of max_length (a default)

    def __post_init__(self) -> None:
        """Each argument checked on its own in the order of the signature (``check_each``), then what
        they ask together."""
        _flag(self.add_special_tokens, "add_special_tokens")
        checked = check_each(self.max_length, self.truncation, self.stride, self.truncation_side, self.padding,
                             self.pad_to_multiple_of, self.padding_side)  # fmt: skip
        # Integers are kept as the ints they stand for (a numpy int64 becomes an int).
        for name, value in checked.items():
            object.__setattr__(self, name, value)
        # The stride is checked by the tokenizer, which knows its special tokens.
        if not self.truncates and self.stride > 0:
            raise ValueError('stride needs max_length (and a truncation other than "do_not_truncate")')
        if self.padding == "max_length" and self.max_length is None and self.pad_length is None:
            raise ValueError('padding="max_length" needs max_length')
        if self.pad_to_multiple_of is not None and self.padding is None:
            raise ValueError('pad_to_multiple_of needs padding="longest" or padding="max_length"')

    @property
    def truncates(self) -> bool:
        """Whether encoding truncates: a ``max_length`` and a strategy other than "do_not_truncate"."""
        return self.max_length is not None and self.truncation != "do_not_truncate"


def check_each(max_length: object, truncation: object, stride: object, truncation_side: object, padding: object,
               pad_to_multiple_of: object, padding_side: object) -> dict[str, Any]:  # fmt: skip
    """The keyword arguments of ``encode`` (``truncation`` as a strategy's name), each checked on its
    own, its type then its value, in the order of the signature (spec section 9); the integers as
    ints."""
    out: dict[str, Any] = {}
    if max_length is not None:
        out["max_length"] = _integer(max_length, "max_length", 0)
    strategy = _text(truncation, "truncation")
    if strategy not in TRUNCATIONS:
        choices = ", ".join(map(json.dumps, TRUNCATIONS))
        raise ValueError(f"unknown truncation {_quoted(strategy)}: expected one of {choices}")
    out["stride"] = _integer(stride, "stride", 0)
    _side(truncation_side, "truncation_side")
    if padding is not None:
        to = _text(padding, "padding")
        if to not in PADDINGS:
            raise ValueError(f'padding must be None, "longest" or "max_length", not {_quoted(to)}')
    if pad_to_multiple_of is not None:
        out["pad_to_multiple_of"] = _integer(pad_to_multiple_of, "pad_to_multiple_of", 1)
    _side(padding_side, "padding_side")
    return out


def _side(value: object, name: str) -> None:
    """``"left"`` or ``"right"``."""
    side = _text(value, name)
    if side not in SIDES:
        raise ValueError(f'{name} must be "left" or "right", not {_quoted(side)}')
