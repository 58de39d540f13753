"""transformers' calling conventions, shared by the engine and the twin.

``tokenizer(text, ...)`` (:func:`call`), ``tokenizer.pad(...)`` (:func:`pad`) and
:class:`BatchEncoding` follow ``transformers``' ``PreTrainedTokenizerFast`` (5.x) argument
for argument, so that a training script, a data collator or ``datasets.Dataset.map`` can use
a fast-wordpiece tokenizer where it used a BERT tokenizer. Only the arguments are turned into
``encode_batch``'s here: the tokenizer's ``_call_batch`` does the work (in the engine, in
parallel with the GIL released, numpy arrays filled without a Python object per token).
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import logging
import sys
from collections import UserDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter, index
from typing import Any, NamedTuple, Optional

# transformers' names for "no maximum": a model_max_length above LARGE_INTEGER has none.
LARGE_INTEGER = 10**20
_PADDINGS = ("longest", "max_length", "do_not_pad")
_TRUNCATIONS = ("only_first", "only_second", "longest_first", "do_not_truncate")
_TENSORS = (None, "np", "pt")
_STR = {str}
# The fields of ``__call__``'s result and the ``Encoding`` attribute each is read from.
_FIELDS = {"input_ids": "ids", "token_type_ids": "type_ids", "attention_mask": "attention_mask",
           "special_tokens_mask": "special_tokens_mask", "offset_mapping": "offsets"}  # fmt: skip


#: The largest integer argument (what the engine's ``u64`` holds).
MAX_INTEGER = 2**64 - 1
#: Where the calls' warnings go, as transformers' go to its own logger.
logger = logging.getLogger("fast_wordpiece")


def _type_name(value: object) -> str:
    """The name of a value's type, for errors; a type named as a builtin type but defined
    elsewhere has its module too (``numpy.bool``, not ``bool``, for a numpy bool scalar)."""
    kind = type(value)
    module = getattr(kind, "__module__", None)
    if module and module != "builtins" and hasattr(builtins, kind.__name__):
        return f"{module}.{kind.__name__}"
    return kind.__name__


def _is_numpy_bool(value: object) -> bool:
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")


def _index(value: object, name: str) -> int:
    """The int an integer argument stands for: an int, or an object that converts to one as an
    index does (``operator.index``: numpy's integer scalars, a 0-d integer array), as
    transformers takes them; a bool (or a numpy bool), a float or a str is a TypeError naming
    the argument. The engine's rule is the same (``src/python/args.rs``)."""
    if isinstance(value, bool) or _is_numpy_bool(value):
        raise TypeError(f"{name} must be int, not {_type_name(value)}")
    if isinstance(value, int):
        return int(value)
    try:
        return index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be int, not {_type_name(value)}") from None


def _integer(value: object, name: str, minimum: int, maximum: int | None = MAX_INTEGER) -> int:
    """An integer argument (:func:`_index`) from ``minimum`` to ``maximum`` (None: no maximum);
    out of that range, however large, is a ValueError naming the argument."""
    number = _index(value, name)
    if number < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {number}")
    if maximum is not None and number > maximum:
        raise ValueError(f"{name} is too large")
    return number


def _multiple(value: object) -> int | None:
    """The call's ``pad_to_multiple_of``: None or 0 (no multiple, as transformers' backend reads
    0), else an integer >= 1."""
    if value is None:
        return None
    return _integer(value, "pad_to_multiple_of", 0) or None


class TokenSpan(NamedTuple):
    """Tokens ``start:end`` of an encoding."""

    start: int
    end: int


class CharSpan(NamedTuple):
    """Characters ``start:end`` of an original text."""

    start: int
    end: int


def _check_batch_index(batch_index: object) -> None:
    """A row's index is an int (not a bool): TypeError naming ``batch_index`` otherwise."""
    if isinstance(batch_index, bool) or not hasattr(type(batch_index), "__index__"):
        raise TypeError(f"batch_index must be an int, not {type(batch_index).__name__}")


class BatchEncoding(dict):  # type: ignore[type-arg]
    """What ``tokenizer(...)`` returns, as transformers' ``BatchEncoding``: a dict of
    ``input_ids``, ``token_type_ids``, ``attention_mask`` (and the other fields asked for)
    whose values are lists or tensors, keys readable as attributes too
    (``batch.input_ids``), with the encodings of its rows (``.encodings``) and their word,
    sequence and character alignment."""

    def __init__(self, data: Mapping[str, Any] | None = None, encodings: Sequence[Any] | None = None,
                 tensor_type: str | None = None, n_sequences: int | None = None) -> None:  # fmt: skip
        super().__init__(data or {})
        # a Unigram call's rows: built when read
        self._encodings: Any = encodings if encodings is None or isinstance(encodings, _FamilyRows) else list(encodings)
        if n_sequences is None and self._encodings:
            n_sequences = self._encodings[0].n_sequences
        self._n_sequences = n_sequences
        self.convert_to_tensors(tensor_type)

    @property
    def encodings(self) -> list[Any] | None:
        """The ``Encoding`` of each row (None for a batch made by ``pad``)."""
        return None if self._encodings is None else list(self._encodings)

    @property
    def n_sequences(self) -> int | None:
        """2 for pairs of texts, 1 for texts; None without encodings."""
        return self._n_sequences

    @property
    def is_fast(self) -> bool:
        """Whether the rows have encodings (and so alignment), as from a fast tokenizer."""
        return self._encodings is not None

    @property
    def data(self) -> dict[str, Any]:
        """The fields, as transformers' ``BatchEncoding.data``: this object itself (a dict), so that
        a change made through ``data`` is a change of the batch, as in transformers."""
        return self

    def copy(self) -> BatchEncoding:
        """A shallow copy that is a ``BatchEncoding`` with the same encodings (so alignment, such as
        ``word_ids()``, still works), as transformers' ``copy()``; the values are shared, not copied."""
        return BatchEncoding(dict(self), self._encodings, n_sequences=self._n_sequences)

    def __getitem__(self, item: Any) -> Any:
        """A field by name, or the ``Encoding`` of row ``item`` (an int or a slice)."""
        if isinstance(item, str):
            return super().__getitem__(item)
        if self._encodings is None:
            raise KeyError(f"{item!r}: a BatchEncoding without encodings is indexed by field names only")
        return self._encodings[item]

    def __getattr__(self, name: str) -> Any:
        try:
            return super().__getitem__(name)
        except KeyError:
            raise AttributeError(f"'BatchEncoding' object has no attribute {name!r}") from None

    def __getstate__(self) -> dict[str, Any]:
        return {"data": dict(self), "encodings": self._encodings, "n_sequences": self._n_sequences}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.update(state["data"])
        self._encodings, self._n_sequences = state["encodings"], state["n_sequences"]

    def __reduce__(self) -> tuple[Any, ...]:
        return (BatchEncoding, (), self.__getstate__())

    # ----------------------------------------------------------------------- alignment

    def _encoding(self, batch_index: int) -> Any:
        """The ``Encoding`` of row ``batch_index`` (an int; a negative one counts from the end)."""
        if self._encodings is None:
            raise ValueError(
                "this BatchEncoding has no encodings (it was made by pad or by the call of a "
                "BPETokenizer or CharTokenizer), so no alignment"
            )
        _check_batch_index(batch_index)
        try:
            return self._encodings[batch_index]
        except IndexError:
            raise IndexError(f"batch_index {batch_index} is out of range for {len(self._encodings)} rows") from None

    def _row_and_index(self, batch_or_index: int, index: int | None) -> tuple[int, int]:
        """transformers' two-argument convention: ``(batch_index, index)``, or ``(index,)`` for
        row 0; a negative batch index counts from the end (in :meth:`_encoding`). The index goes to the row's
        ``Encoding`` as it is (which counts a negative token index from the end of its row, and
        checks the index's type and value)."""
        batch, at = (0, batch_or_index) if index is None else (batch_or_index, index)
        _check_batch_index(batch)
        return batch, at

    def tokens(self, batch_index: int = 0) -> list[str]:
        """The token strings of row ``batch_index``."""
        return list(self._encoding(batch_index).tokens)

    def word_ids(self, batch_index: int = 0) -> list[int | None]:
        """Each token's word in row ``batch_index`` (None for added tokens)."""
        return list(self._encoding(batch_index).word_ids)

    def words(self, batch_index: int = 0) -> list[int | None]:
        """The same as :meth:`word_ids` (transformers' older name)."""
        return self.word_ids(batch_index)

    def sequence_ids(self, batch_index: int = 0) -> list[int | None]:
        """Each token's sequence in row ``batch_index`` (None for added tokens)."""
        return list(self._encoding(batch_index).sequence_ids)

    def token_to_sequence(self, batch_or_token_index: int, token_index: int | None = None) -> int | None:
        """The sequence (0 or 1) of a token, as transformers': ``token_to_sequence(token_index)`` for
        row 0, ``token_to_sequence(batch_index, token_index)`` for another (a negative batch or token
        index counts from the end). None for an added token or an index out of range; ValueError
        without encodings (a batch made by ``pad``). The other alignment methods take a row the
        same way: one index for row 0, or the row's index first."""
        batch, token = self._row_and_index(batch_or_token_index, token_index)
        result: int | None = self._encoding(batch).token_to_sequence(token)
        return result

    def token_to_word(self, batch_or_token_index: int, token_index: int | None = None) -> int | None:
        """The word of a token within its sequence (the row as :meth:`token_to_sequence`); None for
        an added token or an index out of range."""
        batch, token = self._row_and_index(batch_or_token_index, token_index)
        result: int | None = self._encoding(batch).token_to_word(token)
        return result

    def token_to_chars(self, batch_or_token_index: int, token_index: int | None = None) -> CharSpan | None:
        """The ``CharSpan(start, end)`` of a token in its text (the row as :meth:`token_to_sequence`);
        None for an added token or an index out of range."""
        batch, token = self._row_and_index(batch_or_token_index, token_index)
        span = self._encoding(batch).token_to_chars(token)
        return None if span is None else CharSpan(*span)

    def word_to_tokens(self, batch_or_word_index: int, word_index: int | None = None,
                       sequence_index: int = 0) -> TokenSpan | None:  # fmt: skip
        """The ``TokenSpan(start, end)`` of the tokens of a word of sequence ``sequence_index``
        (the row as :meth:`token_to_sequence`); None when no token belongs to it."""
        batch, word = self._row_and_index(batch_or_word_index, word_index)
        span = self._encoding(batch).word_to_tokens(word, sequence_index)
        return None if span is None else TokenSpan(*span)

    def word_to_chars(self, batch_or_word_index: int, word_index: int | None = None,
                      sequence_index: int = 0) -> CharSpan:  # fmt: skip
        """The ``CharSpan(start, end)`` of a word of sequence ``sequence_index`` in its text
        (the row as :meth:`token_to_sequence`); a TypeError when no token belongs to it, as
        transformers' (its ``CharSpan`` of the encoding's None)."""
        batch, word = self._row_and_index(batch_or_word_index, word_index)
        span = self._encoding(batch).word_to_chars(word, sequence_index)
        if span is None:
            raise TypeError(f"word_to_chars: word {word} of sequence {sequence_index} in row {batch} has no tokens, "
                            "so no characters (word_to_tokens gives None for it)")  # fmt: skip
        return CharSpan(*span)

    def char_to_token(self, batch_or_char_index: int, char_index: int | None = None,
                      sequence_index: int = 0) -> int | None:  # fmt: skip
        """The first token of sequence ``sequence_index`` whose offsets hold a character (the row as
        :meth:`token_to_sequence`); None when none does."""
        batch, char = self._row_and_index(batch_or_char_index, char_index)
        result: int | None = self._encoding(batch).char_to_token(char, sequence_index)
        return result

    def char_to_word(self, batch_or_char_index: int, char_index: int | None = None,
                     sequence_index: int = 0) -> int | None:  # fmt: skip
        """The word of sequence ``sequence_index`` that holds a character (the row as
        :meth:`token_to_sequence`); None when none does."""
        batch, char = self._row_and_index(batch_or_char_index, char_index)
        result: int | None = self._encoding(batch).char_to_word(char, sequence_index)
        return result

    # ----------------------------------------------------------------------- tensors

    def convert_to_tensors(self, tensor_type: str | None = None) -> BatchEncoding:
        """Turns every value into a numpy array (``"np"``) or a torch tensor (``"pt"``), in place."""
        if tensor_type is None:
            return self
        convert = _converter(tensor_type)
        for key, value in self.items():
            try:
                self[key] = convert(value)
            except ValueError as e:  # torch: rows of different lengths
                raise ValueError(
                    f"cannot make a tensor of {key!r} ({e}); if its rows differ in length, pass padding=True "
                    "(or 'max_length') and truncation=True"
                ) from e
        return self

    def to(self, device: Any) -> BatchEncoding:
        """Moves every torch tensor to ``device`` (other values stay as they are)."""
        for key, value in self.items():
            if callable(getattr(value, "to", None)):
                self[key] = value.to(device=device)
        return self


def _converter(tensor_type: str) -> Any:
    if tensor_type == "np":
        import numpy as np

        def _integers(array: Any) -> Any:
            # numpy makes float64 of [] and [[], []]: every field here is integers
            return array.astype(np.int64) if array.size == 0 and array.dtype.kind == "f" else array

        def as_array(value: Any) -> Any:
            if isinstance(value, np.ndarray):
                return value
            rows = isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple, np.ndarray))
            if rows and len({len(row) for row in value}) > 1:  # ragged rows: an array of arrays, as transformers 5
                ragged = np.empty(len(value), dtype=object)
                ragged[:] = [np.asarray(row) for row in value]  # an empty row float64, as transformers
                return ragged
            return _integers(np.asarray(value))

        return as_array
    if tensor_type == "pt":
        try:
            torch = importlib.import_module("torch")
        except ImportError as e:
            raise ImportError('return_tensors="pt" needs PyTorch, which could not be imported') from e

        def as_tensor(value: Any) -> Any:
            if isinstance(value, torch.Tensor):
                return value
            tensor = torch.as_tensor(value)
            # torch makes float32 of [] and [[], []]: every field here is integers
            return tensor.to(torch.int64) if tensor.numel() == 0 and tensor.is_floating_point() else tensor

        return as_tensor
    raise ValueError(f'return_tensors must be None, "np" or "pt", not {tensor_type!r}')


# --------------------------------------------------------------------------- strategies


def _strategies(tokenizer: Any, padding: Any, truncation: Any, max_length: Any,
                pad_to_multiple_of: Any) -> tuple[str, str, int | None]:  # fmt: skip
    """transformers' ``_get_padding_truncation_strategies``: the padding and truncation
    strategies by name, and the length they use."""
    if max_length is not None and padding is False and truncation is None:
        truncation = "longest_first"  # max_length alone truncates (transformers' old behaviour)
    # None is no strategy (transformers: "None is not a valid PaddingStrategy"), unlike truncation's.
    padding = "longest" if padding is True else "do_not_pad" if padding is False else padding
    truncation = "longest_first" if truncation is True else truncation
    truncation = "do_not_truncate" if truncation is False or truncation is None else truncation
    if padding not in _PADDINGS:
        raise ValueError(f"padding must be True, False or one of {list(_PADDINGS)}, not {padding!r}")
    if truncation not in _TRUNCATIONS:
        raise ValueError(f"truncation must be True, False, None or one of {list(_TRUNCATIONS)}, not {truncation!r}")
    if max_length is None:
        model_max = tokenizer.model_max_length
        if padding == "max_length":
            padding, max_length = ("do_not_pad", None) if model_max > LARGE_INTEGER else (padding, model_max)
        if truncation != "do_not_truncate":
            truncation, max_length = ("do_not_truncate", None) if model_max > LARGE_INTEGER else (truncation, model_max)
    if padding != "do_not_pad" and tokenizer.pad_token_id is None:
        if isinstance(tokenizer, _FamilyPadding):
            raise _no_family_pad_token(type(tokenizer.tokenizer).__name__)
        raise ValueError("asking to pad, but the vocabulary has no padding token (pad_token is None)")
    if (truncation != "do_not_truncate" and padding != "do_not_pad" and pad_to_multiple_of is not None
            and max_length is not None and max_length % pad_to_multiple_of != 0):  # fmt: skip
        raise ValueError(f"truncation and padding are both on, but the truncation length ({max_length}) is not a "
                         f"multiple of pad_to_multiple_of ({pad_to_multiple_of})")  # fmt: skip
    return padding, truncation, max_length


def _is_pair(item: Any) -> bool:
    return isinstance(item, (tuple, list)) and len(item) == 2 and all(isinstance(x, str) for x in item)


def _batch_of_words(text: Any, text_pair: Any, names: tuple[str, str] = ("text", "text_pair")
                    ) -> tuple[list[Any], bool]:  # fmt: skip
    """``is_split_into_words``: the inputs as lists of words (or tuples of two lists), and whether the
    call was batched (a list of lists of words, as transformers tells them apart). ``names``: the
    arguments' names, for errors."""
    first, second = names
    if not isinstance(text, (list, tuple)):
        raise TypeError(f"with is_split_into_words, {first} must be a list of words, not {type(text).__name__}")
    if not (text and isinstance(text[0], (list, tuple))):
        if text_pair:
            return [(_words(text, first), _words(text_pair, second))], False
        return [_words(text, first)], False
    if text_pair is not None and (not isinstance(text_pair, (list, tuple)) or len(text_pair) != len(text)):
        raise ValueError(f"with is_split_into_words and a batch, {second} must be a list of as many lists of words")
    try:
        if text_pair is None:
            return [
                item if isinstance(item, tuple) and len(item) == 2 else _words(item, f"{first}[{i}]")
                for i, item in enumerate(text)
            ], True
        return [
            (_words(a, f"{first}[{i}]"), _words(b, f"{second}[{i}]")) for i, (a, b) in enumerate(zip(text, text_pair))
        ], True
    except MemoryError as e:
        raise _named(e, f"a batch of {len(text)} lists of words ({first})") from None


def _words(words: Any, what: str) -> list[Any]:
    """``words`` (the argument ``what``) as a new list; a MemoryError that names it when there is
    no room for the list (Python's own says nothing). A str is a TypeError (as transformers'), not
    its characters as words."""
    if isinstance(words, str):
        raise TypeError(f"with is_split_into_words, {what} must be a list of words, not str")
    try:
        return list(words)
    except MemoryError as e:
        size = f"{len(words)} " if isinstance(words, (list, tuple)) else ""
        raise _named(e, f"a list of {size}words ({what})") from None


def _batch(text: Any, text_pair: Any, names: tuple[str, str] = ("text", "text_pair")) -> tuple[list[Any], bool]:
    """The inputs as ``encode_batch`` takes them (str or ``(str, str)``), and whether the call
    was batched. ``names``: the arguments' names, for errors."""
    first, second = names
    if isinstance(text, str):
        if text_pair is not None and not isinstance(text_pair, str):
            raise TypeError(f"{second} must be a str when {first} is a str, not {type(text_pair).__name__}")
        return ([(text, text_pair)] if text_pair else [text]), False  # transformers: "" is no pair
    if not isinstance(text, (list, tuple)):
        raise TypeError(
            f"{first} must be a str, a list of str or a list of (str, str) pairs, not {type(text).__name__}"
        )
    if text_pair is None:
        if set(map(type, text)) <= _STR:  # the common case, checked in C: a list of str
            return list(text), True
        inputs = [tuple(item) if _is_pair(item) else item for item in text]
        for i, item in enumerate(inputs):
            if not isinstance(item, str) and not _is_pair(item):
                raise TypeError(f"{first}[{i}] must be a str or a (str, str) pair, not {type(item).__name__}")
        return inputs, True
    if isinstance(text_pair, str) or not isinstance(text_pair, (list, tuple)):
        raise TypeError(f"when {first} is a batch, {second} must be a list of str of the same length")
    if len(text_pair) != len(text):
        raise ValueError(f"batch length of {first} ({len(text)}) does not match batch length of {second} "
                         f"({len(text_pair)})")  # fmt: skip
    if not set(map(type, text)) | set(map(type, text_pair)) <= _STR:  # the common case, checked in C
        # Each item named as the caller passed it: with a text_pair, every item of both is a str.
        for i, pair in enumerate(zip(text, text_pair)):
            for name, item in zip(names, pair):
                if not isinstance(item, str):
                    raise TypeError(f"{name}[{i}] must be a str, not {type(item).__name__}")
    return list(zip(text, text_pair)), True


# --------------------------------------------------------------------------- the calls


def call(tokenizer: Any, text: Any = None, text_pair: Any = None, text_target: Any = None,
         text_pair_target: Any = None, *, add_special_tokens: bool = True,
         padding: bool | str = False, truncation: bool | str | None = None, max_length: int | None = None,
         stride: int = 0, is_split_into_words: bool = False, pad_to_multiple_of: int | None = None,
         padding_side: str | None = None, return_tensors: str | None = None, return_token_type_ids: bool | None = None,
         return_attention_mask: bool | None = None, return_overflowing_tokens: bool = False,
         return_special_tokens_mask: bool = False, return_offsets_mapping: bool = False,
         return_length: bool = False, verbose: bool = True, split_special_tokens: bool | None = None,
         max_target_length: int | None = None, tokenizer_kwargs: Mapping[str, Any] | None = None,
         ) -> BatchEncoding:  # fmt: skip
    """``tokenizer(text, text_pair, ...)`` with transformers' meanings (see the module). As in
    transformers, ``text_target`` (and ``text_pair_target``) is encoded with the same arguments
    (``max_target_length``, when given, in place of ``max_length``) and its ``input_ids`` become
    ``labels``; without ``text``, the result is the target's encoding itself.
    ``split_special_tokens`` (None: the tokenizer's setting) applies to this call only.
    ``tokenizer_kwargs`` (a dict of these keyword arguments) replaces the values given beside it,
    as transformers 5 merges it."""
    if tokenizer_kwargs is not None:
        given = {key: value for key, value in locals().items() if key in _CALL_OPTIONS}
        return call(tokenizer, text, text_pair, text_target, text_pair_target,
                    **{**given, **_tokenizer_kwargs(tokenizer_kwargs, "call")})  # fmt: skip
    if text is None and text_target is None:
        raise ValueError("tokenizer(...) needs text or text_target")
    # read as true or false, as the other return_* flags and transformers (`if return_overflowing_tokens`)
    return_overflowing_tokens = bool(return_overflowing_tokens)
    _check_tensors(return_tensors)
    max_length = None if max_length is None else _integer(max_length, "max_length", 0)
    if max_target_length is not None:
        max_target_length = _integer(max_target_length, "max_target_length", 0)
    # None and 0 ask for nothing, as transformers reads them (its backend pads to no multiple of 0)
    stride = 0 if stride is None else _integer(stride, "stride", 0)
    pad_to_multiple_of = _multiple(pad_to_multiple_of)
    if split_special_tokens is not None and not isinstance(split_special_tokens, bool):
        raise TypeError(f"split_special_tokens must be a bool or None, not {_type_name(split_special_tokens)}")
    padding, truncation, max_length = _strategies(tokenizer, padding, truncation, max_length, pad_to_multiple_of)
    inputs, labels = _batch_length(text, is_split_into_words), _batch_length(text_target, is_split_into_words)
    if inputs is not None and labels is not None and inputs != labels:
        raise ValueError(f"batch length of text ({inputs}) does not match batch length of text_target ({labels})")
    settings: dict[str, Any] = {
        "add_special_tokens": add_special_tokens, "padding": padding, "truncation": truncation, "stride": stride,
        "is_split_into_words": is_split_into_words, "pad_to_multiple_of": pad_to_multiple_of,
        "padding_side": padding_side, "return_tensors": return_tensors,
        "return_token_type_ids": return_token_type_ids, "return_attention_mask": return_attention_mask,
        "return_overflowing_tokens": return_overflowing_tokens,
        "return_special_tokens_mask": return_special_tokens_mask,
        "return_offsets_mapping": return_offsets_mapping, "return_length": return_length,
        "split_special_tokens": split_special_tokens, "verbose": verbose,
    }  # fmt: skip
    encodings = None if text is None else _call_one(tokenizer, text, text_pair, max_length=max_length, **settings)
    if text_target is None:
        assert encodings is not None
        return encodings
    target_length = max_length if max_target_length is None else max_target_length
    targets = _call_one(tokenizer, text_target, text_pair_target, max_length=target_length, **settings,
                        names=("text_target", "text_pair_target"))  # fmt: skip
    if encodings is None:
        return targets
    encodings["labels"] = targets["input_ids"]
    return encodings


#: The keyword arguments of :func:`call` that its ``tokenizer_kwargs`` may hold.
_CALL_OPTIONS = frozenset(inspect.signature(call).parameters) - {
    "tokenizer", "text", "text_pair", "text_target", "text_pair_target", "tokenizer_kwargs"}  # fmt: skip


#: The keyword arguments of the call that transformers 5's fast ``tokenize`` takes and ignores: it
#: passes them to its ``_encode_plus``, which reads its strategies from ``padding_strategy`` and
#: ``truncation_strategy``, not from these, and returns only the tokens (no windows, no tensors).
TOKENIZE_IGNORES = (_CALL_OPTIONS - {"add_special_tokens", "split_special_tokens", "is_split_into_words"}) | {
    "text_target", "text_pair_target", "tokenizer_kwargs"}  # fmt: skip


def _check_tensors(return_tensors: Any) -> None:
    """ValueError naming a ``return_tensors`` that is not None, ``"np"`` or ``"pt"``, as the call
    and ``tokenize`` refuse it (transformers' ``TensorType`` refuses one it has not)."""
    if return_tensors not in _TENSORS:
        raise ValueError(f'return_tensors must be None, "np" or "pt", not {return_tensors!r}')


def tokenize_keywords(kwargs: Mapping[str, Any], family: str | None = None) -> None:
    """Checks the keyword arguments ``tokenize`` takes beyond its own, as transformers 5's fast
    ``tokenize`` takes them: the call's (``TOKENIZE_IGNORES``: ``truncation``, ``max_length``,
    ``padding``, ``return_*``, ...) are accepted and change nothing, as there;
    ``is_split_into_words`` true is a TypeError (tokenize takes a str; the call takes words), a
    ``return_tensors`` the call refuses a ValueError naming it (transformers' ``tokenize`` makes its
    ``BatchEncoding`` with it, whose ``TensorType`` refuses ``"tf"``); any other keyword, which
    transformers would silently ignore too, a TypeError naming it. ``family``: the class name of a
    family tokenizer (``BPETokenizer``, ...), whose ``tokenize`` has no ``split_special_tokens`` of
    its own: there it is accepted at the values its call accepts (None, False), a TypeError naming
    the class otherwise."""
    for key, value in kwargs.items():
        if key == "is_split_into_words":
            if value:
                raise TypeError("tokenize() takes a str, not words: for a list of words, call "
                                "tokenizer(words, is_split_into_words=True).tokens()")  # fmt: skip
        elif key == "return_tensors":
            _check_tensors(value)
        elif key == "split_special_tokens" and family is not None:
            accepted = _UNSUPPORTED[key]
            if not any(_asks_nothing(value, v) for v in accepted):
                shown = " or ".join(f"{key}={v!r}" for v in accepted)
                raise TypeError(f"{family}.tokenize() does not support {key}={value!r}: it does not split special "
                                f"tokens (only {shown} are accepted)")  # fmt: skip
        elif key not in TOKENIZE_IGNORES:
            raise TypeError(f"tokenize() got an unexpected keyword argument {key!r}")


def _tokenizer_kwargs(value: Any, function: str) -> dict[str, Any]:
    """The ``tokenizer_kwargs`` of a call: a mapping of str keys, as a dict."""
    if not isinstance(value, Mapping):
        raise TypeError(f"tokenizer_kwargs must be a dict, not {_type_name(value)}")
    out = dict(value)
    for key in out:
        if not isinstance(key, str):
            raise TypeError(f"tokenizer_kwargs keys must be str, not {_type_name(key)}")
        if key == "tokenizer_kwargs" or key.startswith("text"):
            raise TypeError(f"{function}() got an unexpected keyword argument {key!r} in tokenizer_kwargs")
    return out


def _batch_length(text: Any, is_split_into_words: Any) -> int | None:
    """How many inputs ``text`` holds when it is a batch (a list of texts or pairs, or of lists of
    words), else None."""
    if not isinstance(text, (list, tuple)):
        return None
    if is_split_into_words and not (text and isinstance(text[0], (list, tuple))):
        return None  # one list of words
    return len(text)


def _call_one(tokenizer: Any, text: Any, text_pair: Any, *, add_special_tokens: bool, padding: str,
              truncation: str, max_length: int | None, stride: int, is_split_into_words: bool,
              pad_to_multiple_of: int | None, padding_side: str | None, return_tensors: str | None,
              return_token_type_ids: bool | None, return_attention_mask: bool | None,
              return_overflowing_tokens: bool, return_special_tokens_mask: bool, return_offsets_mapping: bool,
              return_length: bool, split_special_tokens: bool | None, verbose: Any,
              names: tuple[str, str] = ("text", "text_pair")) -> BatchEncoding:  # fmt: skip
    """One encoding of :func:`call` (its texts, or its targets, ``names`` naming them in errors), with
    the strategies decided."""
    inputs, batched = (_batch_of_words if is_split_into_words else _batch)(text, text_pair, names)
    options: dict[str, Any] = {}
    if truncation != "do_not_truncate":
        # transformers' backend refuses this when truncation is set, special tokens or not
        added = tokenizer.num_special_tokens_to_add(False)
        if max_length is not None and max_length >= added and stride > max_length - added:
            raise ValueError(f"stride ({stride}) is greater than max_length ({max_length}) minus the {added} special "
                             "tokens a text gets")  # fmt: skip
        options.update(max_length=max_length, truncation=truncation, stride=stride,
                       truncation_side=tokenizer.truncation_side)  # fmt: skip
    if padding != "do_not_pad":
        options.update(padding=padding, padding_side=padding_side or tokenizer.padding_side,
                       pad_to_multiple_of=pad_to_multiple_of)  # fmt: skip
        if padding == "max_length":
            options.setdefault("truncation", "do_not_truncate")
            options["max_length"] = max_length
    tensors = return_tensors is not None
    if split_special_tokens is not None:
        options["split_special_tokens"] = split_special_tokens
    try:
        rows, arrays, sample, longest = tokenizer._call_batch(
            inputs, add_special_tokens, return_overflowing_tokens, tensors, is_split_into_words, **options
        )
    except (TypeError, ValueError) as e:
        # A bad word, or a lone surrogate, named as the caller passed it (not as the item of inputs).
        if is_split_into_words:
            _check_words(inputs, batched, text_pair is not None, names)
        elif isinstance(e, ValueError):
            _check_unicode_pairs(inputs, batched, names)
        raise
    _warn_if_too_long(tokenizer, lambda: map(len, rows), max_length, verbose, longest)
    # As transformers: None means "if the model takes them" (read once: the engine makes a new list).
    inputs_taken = tokenizer.model_input_names if return_token_type_ids is None or return_attention_mask is None else ()
    wanted = {
        "input_ids": True,
        "token_type_ids": _returns(inputs_taken, "token_type_ids", return_token_type_ids),
        "attention_mask": _returns(inputs_taken, "attention_mask", return_attention_mask),
        "special_tokens_mask": return_special_tokens_mask,
        "offset_mapping": return_offsets_mapping,
    }
    data: dict[str, Any] = {}
    for key, on in wanted.items():
        if on:
            data[key] = arrays[key] if arrays is not None else list(map(attrgetter(_FIELDS[key]), rows))
    if arrays is not None and return_offsets_mapping and data["offset_mapping"].shape[1] == 0:
        data["offset_mapping"] = data["offset_mapping"].reshape(len(rows), 0)  # as numpy makes [[]]: no last axis
    if return_length:
        data["length"] = [len(row) for row in rows]
    if return_overflowing_tokens:
        data["overflow_to_sample_mapping"] = sample
    if not batched and return_tensors is None and not return_overflowing_tokens:
        data = {key: value[0] if value and isinstance(value[0], list) else value for key, value in data.items()}
    return BatchEncoding(data, rows, tensor_type=return_tensors)


def _warn_if_too_long(tokenizer: Any, lengths: Callable[[], Iterable[int]], max_length: int | None,
                      verbose: Any, longest: int | None = None) -> None:  # fmt: skip
    """transformers' warning for a call that neither truncates nor pads to a length (``max_length`` None
    once the strategies are decided) and gives a row longer than the tokenizer's ``model_max_length``:
    the first such row's length and the maximum, once per tokenizer, unless ``verbose`` is false; on the
    ``fast_wordpiece`` logger (shown on stderr when logging is not configured, as transformers').
    ``lengths`` gives the rows' lengths, asked for only when the tokenizer has a maximum and ``longest``
    (the longest row's length, when known) passes it: reading each row's length costs ~4% of a call of
    10,000 short texts."""
    if max_length is not None or not verbose:
        return
    limit = getattr(tokenizer, "model_max_length", None)
    if not limit or limit > LARGE_INTEGER or (longest is not None and longest <= limit):
        return
    longer = next((n for n in lengths() if n > limit), None)
    if longer is not None and not tokenizer._warned_too_long():
        logger.warning("Token indices sequence length is longer than the specified maximum sequence length for "
                       "this model (%d > %d). Running this sequence through the model will result in indexing "
                       "errors", longer, limit)  # fmt: skip


def _returns(model_input_names: Sequence[str], name: str, asked: bool | None) -> bool:
    """Whether the result has the field ``name`` (``token_type_ids`` or ``attention_mask``): as the call
    asks (``return_token_type_ids``, ``return_attention_mask``), else (None) whether the tokenizer's
    ``model_input_names`` list it, as in transformers."""
    return name in model_input_names if asked is None else bool(asked)


def pad(tokenizer: Any, encoded_inputs: Any, padding: bool | str = True, max_length: int | None = None,
        pad_to_multiple_of: int | None = None, padding_side: str | None = None,
        return_attention_mask: bool | None = None, return_tensors: str | None = None,
        verbose: bool = True) -> BatchEncoding:  # fmt: skip
    """``tokenizer.pad(...)`` with transformers' meanings: pads ``input_ids`` (and the masks and
    type ids present) of one example or a batch, given as a dict of lists, a BatchEncoding, or a
    list of dicts."""
    if isinstance(encoded_inputs, (list, tuple)) and encoded_inputs and isinstance(encoded_inputs[0], Mapping):
        encoded_inputs = {key: [example[key] for example in encoded_inputs] for key in encoded_inputs[0]}
    if not isinstance(encoded_inputs, Mapping):
        what = "an empty " if isinstance(encoded_inputs, (list, tuple)) and not encoded_inputs else ""
        raise TypeError(f"pad takes a dict of lists or a non-empty list of dicts, not {what}"
                        f"{type(encoded_inputs).__name__}")  # fmt: skip
    if "input_ids" not in encoded_inputs:
        raise ValueError(f"pad needs 'input_ids' among the inputs, but they have {list(encoded_inputs)}")
    try:
        return _pad(tokenizer, encoded_inputs, padding, max_length, pad_to_multiple_of, padding_side,
                    return_attention_mask, return_tensors)  # fmt: skip
    except MemoryError as e:
        raise _named(e, "a list of the padded inputs") from None


def _pad(tokenizer: Any, encoded_inputs: Mapping[str, Any], padding: bool | str, max_length: int | None,
         pad_to_multiple_of: int | None, padding_side: str | None, return_attention_mask: bool | None,
         return_tensors: str | None) -> BatchEncoding:  # fmt: skip
    """:func:`pad` once its inputs are known to be a dict with ``input_ids``."""
    inputs = {key: _as_lists(value) for key, value in encoded_inputs.items()}
    required = inputs["input_ids"]
    if not required:  # nothing to pad: the inputs as they are, not made tensors, as transformers
        if return_attention_mask:
            inputs["attention_mask"] = []
        return BatchEncoding(inputs)
    _check_rows(required)
    if return_tensors is None:
        return_tensors = _tensor_type_of(encoded_inputs["input_ids"])
    # No maximum: padding to a length there is no memory for is a MemoryError that says so.
    if max_length is not None:
        max_length = _integer(max_length, "max_length", 0, None)
    if pad_to_multiple_of is not None:
        pad_to_multiple_of = _integer(pad_to_multiple_of, "pad_to_multiple_of", 1, None)
    padding, _, max_length = _strategies(tokenizer, padding, None, max_length, None)
    side = padding_side or tokenizer.padding_side
    names = tokenizer.model_input_names if return_attention_mask is None else ()
    mask = _returns(names, "attention_mask", return_attention_mask)
    if not isinstance(required[0], (list, tuple)):  # one example
        return BatchEncoding(_pad_one(tokenizer, inputs, padding, max_length, pad_to_multiple_of, side, mask),
                             tensor_type=return_tensors)  # fmt: skip
    if any(len(values) != len(required) for values in inputs.values()):
        raise ValueError("every field of the batch must have one row per example")
    if padding == "longest":
        padding, max_length = "max_length", max(len(row) for row in required)
    rows: dict[str, list[Any]] = {}
    for i in range(len(required)):
        example = {key: values[i] for key, values in inputs.items()}
        for key, value in _pad_one(tokenizer, example, padding, max_length, pad_to_multiple_of, side, mask).items():
            rows.setdefault(key, []).append(value)
    return BatchEncoding(rows, tensor_type=return_tensors)


def _check_rows(required: Any) -> None:
    """ValueError (as transformers raises) unless ``input_ids`` (non-empty) is one row of ids or a
    batch of rows: its first item says which, and in a batch every item must be a row."""
    if not isinstance(required, (list, tuple)):
        raise ValueError(f"pad: input_ids must be a row of ids or a list of rows, not {_type_name(required)}")
    if isinstance(required[0], (list, tuple)):
        for i, row in enumerate(required):
            if not isinstance(row, (list, tuple)):
                raise ValueError(f"pad: input_ids[{i}] must be a row of ids, as input_ids[0] is, "
                                 f"not {_type_name(row)}")  # fmt: skip
    elif isinstance(required[0], (str, bytes)) or not hasattr(required[0], "__index__"):
        raise ValueError(f"pad: input_ids[0] must be an id or a row of ids, not {_type_name(required[0])}")
    else:
        _check_ids(required, "input_ids")
        return
    for i, row in enumerate(required):
        _check_ids(row, f"input_ids[{i}]")


def _check_ids(row: list[Any] | tuple[Any, ...], name: str) -> None:
    """ValueError unless every item of ``row`` is an id (an int, or what has ``__index__``, as numpy's
    integers): transformers checks only the first id of the first row, and pads what follows
    whatever it is."""
    # Each type once (ints, bools, numpy's integers), then the items only when one is not an id.
    if all(_is_id_type(kind) for kind in set(map(type, row))):
        return
    for j, x in enumerate(row):
        if not _is_id_type(type(x)):
            raise ValueError(f"pad: {name}[{j}] must be an id (an int), not {_type_name(x)}")


def _is_id_type(kind: type) -> bool:
    """Whether items of type ``kind`` are ids: it has ``__index__`` (int, bool, numpy's integers)
    and is no str or bytes."""
    return hasattr(kind, "__index__") and not issubclass(kind, (str, bytes))


def _pad_one(tokenizer: Any, example: dict[str, Any], padding: str, max_length: int | None,
             pad_to_multiple_of: int | None, side: str, mask: bool) -> dict[str, Any]:  # fmt: skip
    """transformers' ``_pad`` of one example."""
    example = dict(example)
    ids = list(example["input_ids"])
    if padding == "longest":
        max_length = len(ids)
    if max_length is not None and pad_to_multiple_of is not None and max_length % pad_to_multiple_of != 0:
        max_length = (max_length // pad_to_multiple_of + 1) * pad_to_multiple_of
    if mask and "attention_mask" not in example:
        example["attention_mask"] = [1] * len(ids)
    if padding == "do_not_pad" or max_length is None or len(ids) == max_length:
        return example
    if side not in ("right", "left"):
        raise ValueError(f'padding_side must be "right" or "left", not {side!r}')
    n = max_length - len(ids)
    fill = {"input_ids": tokenizer.pad_token_id, "token_type_ids": tokenizer.pad_token_type_id,
            "special_tokens_mask": 1, "attention_mask": 0}  # fmt: skip
    try:
        for key, value in fill.items():
            if key in example and (key != "attention_mask" or mask):
                padded = [value] * n
                example[key] = list(example[key]) + padded if side == "right" else padded + list(example[key])
    except (MemoryError, OverflowError):
        raise MemoryError(f"padding a row to {max_length} tokens needs more memory than can be had") from None
    return example


def _named(error: MemoryError, what: str) -> MemoryError:
    """``error`` when it says what did not fit, else a MemoryError that names ``what`` (Python's
    own, raised where a list cannot grow, says nothing)."""
    if str(error):
        return error
    return MemoryError(f"{what} needs more memory than can be reserved")


def _as_lists(value: Any) -> Any:
    """numpy arrays and torch tensors (or lists of them) as lists; lists of ints stay as they are."""
    if callable(getattr(value, "tolist", None)):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [v.tolist() if callable(getattr(v, "tolist", None)) else v for v in value]
    return value


def _tensor_type_of(value: Any) -> str | None:
    """ "pt" or "np" when ``value`` (or its first row) is a torch tensor or a numpy array."""
    first = value[0] if isinstance(value, (list, tuple)) and value else value
    module = type(first).__module__
    return "pt" if module.startswith("torch") else "np" if module.startswith("numpy") else None


# --------------------------------------------------------------------------- the family's call

#: The names a special token of ``BPETokenizer``, ``CharTokenizer`` or ``UnigramTokenizer``
#: may have to be their padding token (the first of their special tokens with one of them).
PAD_NAMES = ("<pad>", "[PAD]", "<|pad|>", "<|padding|>")


class _NoMaximum:
    """What :func:`_strategies` reads of a family tokenizer: no ``model_max_length``, and a
    padding token checked by :func:`family_call` itself."""

    model_max_length = int(1e30)
    pad_token_id = 0


class _FamilyMaximum(_NoMaximum):
    """:class:`_NoMaximum`, with the ``model_max_length`` of a tokenizer that has one (a
    ``UnigramTokenizer`` read by ``from_pretrained``)."""

    def __init__(self, tokenizer: Any) -> None:
        self.model_max_length = getattr(tokenizer, "model_max_length", _NoMaximum.model_max_length)


def _family_padding_side(tokenizer: Any) -> str:
    """Where a family tokenizer pads when the call does not say: its ``padding_side`` (a
    ``UnigramTokenizer``'s, which ``from_pretrained`` reads), else the side its file's
    ``padding`` section says, else the right."""
    side = getattr(tokenizer, "padding_side", None)
    return str(side or (getattr(tokenizer, "padding", None) or {}).get("direction") or "right")


def _family_inputs(tokenizer: Any) -> Sequence[str]:
    """The inputs a family tokenizer's call returns by default: a ``UnigramTokenizer``'s
    ``model_input_names`` (which ``from_pretrained`` reads), else transformers' generic class's."""
    names: Sequence[str] = getattr(tokenizer, "model_input_names", _GENERIC_INPUTS)
    return names


#: The ``model_input_names`` of transformers' generic class: no segment ids.
_GENERIC_INPUTS = ("input_ids", "attention_mask")


class _FamilyPadding:
    """What :func:`pad` reads of a family tokenizer (``tokenizer``): its ``pad_token_id``, its
    ``model_max_length`` if it has one, padding on its side (:func:`_family_padding_side`) with
    token type 0, as transformers' ``PreTrainedTokenizerFast`` of its tokenizer.json."""

    pad_token_type_id = 0

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.model_input_names = _family_inputs(tokenizer)
        self.pad_token_id = tokenizer.pad_token_id
        self.model_max_length = _FamilyMaximum(tokenizer).model_max_length
        self.padding_side = _family_padding_side(tokenizer)


def family_pad(tokenizer: Any, *args: Any, **kwargs: Any) -> BatchEncoding:
    """``tokenizer.pad(encoded_inputs, padding=True, max_length=None, pad_to_multiple_of=None,
    padding_side=None, return_attention_mask=None, return_tensors=None, verbose=True)`` for
    ``BPETokenizer``, ``CharTokenizer`` and ``UnigramTokenizer``: :func:`pad` with the
    tokenizer's ``pad_token`` (asking to pad without one: ValueError), on the tokenizer's side
    (:func:`_family_padding_side`) unless ``padding_side`` says, with no ``model_max_length``
    but a ``UnigramTokenizer``'s (``"max_length"`` without ``max_length`` then pads nothing),
    as transformers' ``PreTrainedTokenizerFast`` of the
    tokenizer's file pads what ``tokenizer(text)`` gave (``DataCollatorWithPadding`` calls it).
    Arguments that do not bind are a TypeError naming the class's ``pad``."""
    try:
        bound = _PAD_PARAMETERS.bind(*args, **kwargs)
    except TypeError as e:
        why = str(e)
        raise TypeError(f"{type(tokenizer).__name__}.pad(){' ' if why.startswith('got ') else ': '}{why}") from None
    return pad(_FamilyPadding(tokenizer), *bound.args, **bound.kwargs)


#: :func:`pad`'s parameters after ``tokenizer``: those of the family's ``pad``.
_PAD_PARAMETERS = inspect.signature(pad).replace(parameters=list(inspect.signature(pad).parameters.values())[1:])


def _no_family_pad_token(name: str) -> ValueError:
    """The ValueError of asking a family tokenizer (class ``name``) to pad without a padding token."""
    return ValueError(f"asking to pad, but this {name} has no padding token: set its pad_token to one of "
                      f"its tokens (tokenizer.pad_token = ...), give it a special token named one of "
                      f"{list(PAD_NAMES)}, or pass padding=False")  # fmt: skip


def family_pad_token(tokenizer: Any) -> str | None:
    """The padding token a family tokenizer has by name: its first special token named as in
    :data:`PAD_NAMES`, or None (the ``pad_token`` property gives this unless one was set). A
    byte-level BPE file's ``padding`` section names its own, as transformers reads it."""
    section = getattr(tokenizer, "padding", None)
    if section is not None and _token_id(tokenizer, section["pad_token"]) is not None:
        return str(section["pad_token"])
    return next((t for t in tokenizer.special_tokens if t in PAD_NAMES), None)


def _token_id(tokenizer: Any, token: str) -> int | None:
    to_id = getattr(tokenizer, "token_to_id", None)
    result: int | None = to_id(token) if to_id is not None else tokenizer.get_vocab().get(token)
    return result


def family_checked_pad_token(tokenizer: Any, value: Any) -> str | None:
    """What ``tokenizer.pad_token = value`` sets on a family tokenizer: a token of its
    vocabulary (TypeError unless a str; ValueError if not in the vocabulary), or None, which
    gives back the padding token by name (:func:`family_pad_token`)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"pad_token must be a str or None, not {_type_name(value)}")
    _valid_unicode(value, "pad_token")
    if _token_id(tokenizer, value) is None:
        raise ValueError(f"pad_token {value!r} is not a token of this {type(tokenizer).__name__}'s vocabulary "
                         "(pad with a token it has, such as its end-of-text token)")  # fmt: skip
    return value


def family_checked_pad_token_id(tokenizer: Any, value: Any) -> str | None:
    """What ``tokenizer.pad_token_id = value`` sets: the token of that id (an int below the
    vocabulary size: TypeError or ValueError otherwise), or None as for ``pad_token``."""
    if value is None:
        return None
    token: str | None = tokenizer.id_to_token(_integer(value, "pad_token_id", 0))
    if token is None:
        raise ValueError(f"pad_token_id = {value} is out of range for a vocabulary of {tokenizer.vocab_size} tokens")
    return token


def family_pad_token_id(tokenizer: Any) -> int | None:
    """The id of a family tokenizer's ``pad_token``, or None."""
    pad = tokenizer.pad_token
    return None if pad is None else _token_id(tokenizer, pad)


#: transformers' call options the family does not have, each with the values that ask for
#: nothing (accepted, and change nothing).
_UNSUPPORTED: dict[str, tuple[Any, ...]] = {
    "stride": (0, None), "return_overflowing_tokens": (False, None), "is_split_into_words": (False,),
    "text_target": (None,), "text_pair_target": (None,), "max_target_length": (None,),
    "split_special_tokens": (None, False),
}  # fmt: skip


def _check_options(name: str, options: dict[str, Any]) -> None:
    """TypeError for an option of the call that ``name`` does not support, or that transformers
    does not have, naming the class and the option."""
    for key, value in options.items():
        if key not in _UNSUPPORTED:
            raise TypeError(f"{name}.__call__() got an unexpected keyword argument {key!r}")
        accepted = _UNSUPPORTED[key]
        if key == "return_overflowing_tokens":
            if _is_false(value):
                continue  # read by its truth, as in PyTokenizer's call and transformers (`if`)
            shown = f"a false {key}, such as False, None, 0 or '', is"
        elif any(_asks_nothing(value, v) for v in accepted):
            continue
        else:
            shown = f"{' or '.join(f'{key}={v!r}' for v in accepted)} {'is' if len(accepted) == 1 else 'are'}"
        raise TypeError(f"{name}.__call__() does not support {key}={value!r}: it encodes texts, not words, "
                        f"without overflowing windows, targets or split special tokens (only {shown} "
                        "accepted)")  # fmt: skip


def _is_false(value: Any) -> bool:
    """Whether ``value`` is false as ``if`` reads it; an object whose truth is ambiguous (a numpy
    array of several values) is not."""
    try:
        return not value
    except (TypeError, ValueError):
        return False


def _asks_nothing(value: Any, accepted: Any) -> bool:
    """Whether ``value`` is the value ``accepted`` of an option the family does not have: the
    same object or an equal one of its type, or, for an int, any integer equal to it (a numpy
    integer), as integer arguments are taken everywhere."""
    if value is accepted or (type(value) is type(accepted) and value == accepted):
        return True
    if type(accepted) is int and not isinstance(value, bool) and hasattr(type(value), "__index__"):
        return index(value) == accepted
    return False


def _check_unicode_pairs(inputs: list[Any], batched: bool, names: tuple[str, str] = ("text", "text_pair")) -> None:
    """:func:`_check_unicode` of :func:`call`'s inputs (str or ``(text, text_pair)``), naming
    ``text``, ``text_pair`` (or ``text[i]``, ``text_pair[i]``; ``names`` gives other names)."""
    for i, item in enumerate(inputs):
        if isinstance(item, str):  # the common case, without a name made for it
            if not item.isascii():
                _valid_unicode(item, f"{names[0]}[{i}]" if batched else names[0])
            continue
        for name, value in zip(names, item if isinstance(item, tuple) else (item,)):
            if isinstance(value, str) and not value.isascii():
                _valid_unicode(value, f"{name}[{i}]" if batched else name)


def _check_words(
    inputs: list[Any], batched: bool, paired: bool, names: tuple[str, str] = ("text", "text_pair")
) -> None:
    """With ``is_split_into_words``, the error for the first word of :func:`call`'s inputs (lists
    of words, or ``(text, text_pair)`` tuples of them; ``paired``: a ``text_pair`` was given) that
    is not a str (TypeError) or holds a lone surrogate (ValueError), in the order the tokenizer
    reads them, named as the caller passed it: ``text[j]``, ``text_pair[j]`` (``text[i][j]``,
    ``text_pair[i][j]`` in a batch; ``text[i][0][j]`` in a pair given as an item of ``text``);
    ``names`` gives other names. Nothing when every word is good."""
    first, second = names
    for i, item in enumerate(inputs):
        at = f"[{i}]" if batched else ""
        if isinstance(item, tuple) and len(item) == 2 and not isinstance(item[0], str):
            sides = zip(item, (f"{first}{at}", f"{second}{at}") if paired else (f"{first}{at}[0]", f"{first}{at}[1]"))
        else:
            sides = zip((item,), (f"{first}{at}",))
        for words, name in sides:
            if not isinstance(words, (list, tuple)):
                raise TypeError(f"{name} must be a list of words (str), not {_type_name(words)}")
            for j, word in enumerate(words):
                if not isinstance(word, str):
                    raise TypeError(f"{name}[{j}] must be str, not {_type_name(word)}")
                if not word.isascii():
                    _valid_unicode(word, f"{name}[{j}]")


def _check_unicode(texts: list[str], batched: bool, name: str = "text") -> None:
    """ValueError for the first text with a lone surrogate, named as the caller passed it
    (``name``, or ``name[i]`` in a batch)."""
    for i, item in enumerate(texts):
        if not item.isascii():
            _valid_unicode(item, f"{name}[{i}]" if batched else name)


def _valid_unicode(text: str, what: str) -> None:
    """The ValueError naming ``what`` when ``text`` holds a lone surrogate (not valid Unicode)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(
            f"{what} contains a lone surrogate at index {e.start}, which is not valid Unicode text"
        ) from None


def _ids_of(encoding: Any) -> list[int]:
    """The ids of one of ``encode_batch``'s results (a list of ids, or an encoding)."""
    return encoding if isinstance(encoding, list) else list(encoding.ids)


def _offsets(tokenizer: Any, text: str, encoding: Any) -> list[tuple[int, int]]:
    """transformers' ``offset_mapping`` of one text: the ``(start, end)`` characters of each
    token. A Unigram encoding has them; a character tokenizer's token is one character, a
    byte-level BPE token as many bytes as it has characters (a token that covers part of a
    character covers that character); an added token (special or not) is its own text, where the text has it
    (otherwise it is the unknown token of one character or byte), with the whitespace around it
    that its ``lstrip`` or ``rstrip`` took in (with ``lstrip``, only where the text has it after
    that whitespace: otherwise it is the model's token of the same id, as ``Ġthe`` from
    ``" the"``; a special token starting with whitespace may start in the whitespace the previous
    one's ``rstrip`` took in; with ``lstrip``, it then starts where the previous one ends, as
    Hugging Face's split has it). A byte-level BPE loaded from a file whose
    post-processor trims offsets has them trimmed (:func:`_trimmed`)."""
    found = getattr(encoding, "offsets", None)
    if found is not None:
        return list(found)
    # the tokens split out of the text (a BPE file's added tokens, special or not)
    added = getattr(tokenizer, "get_added_vocab", None)
    specials = set(added() if added is not None else tokenizer.special_tokens)
    tokens = tokenizer.convert_ids_to_tokens(_ids_of(encoding))
    out: list[tuple[int, int]] = []
    if not hasattr(tokenizer, "merges"):  # one character per token
        pos = 0
        for token in tokens:
            n = len(token) if token in specials and text.startswith(token, pos) else 1
            out.append((pos, pos + n))
            pos += n
        return out
    data = text.encode("utf-8")
    char_of = list(range(len(text) + 1))
    if not text.isascii():
        char_of = [i for i, c in enumerate(text) for _ in range(len(c.encode("utf-8")))] + [len(text)]
    unk = tokenizer.unk_token
    strip = getattr(tokenizer, "special_tokens_strip", None) or {}
    trimmed = list(tokens)  # a special token's text with the whitespace it took in, for the trimming
    pos = 0
    taken = None  # where the whitespace the previous token's rstrip took in starts
    run = (0, 0)  # data[run[0]:run[1]] is White_Space up to its end or a byte that is not
    for i, token in enumerate(tokens):
        literal = token.encode("utf-8")
        lstrip, rstrip = strip.get(token, (False, False))
        previous_end = pos
        if taken is not None and token in specials and not data.startswith(literal, pos):
            # a token starting with whitespace, split out in the whitespace the rstrip took in
            found = data.find(literal, taken, pos - 1 + len(literal))
            pos = pos if found < 0 else found
        taken = None
        start = pos
        if lstrip and token in specials:  # the whitespace before it, with it
            after = pos
            while after < len(data) and not data.startswith(literal, after) and text[char_of[after]] in _WHITE_SPACE:
                after += len(text[char_of[after]].encode("utf-8"))
            # only where the text has it after that whitespace: otherwise it is the model's token
            # of the same id ("Ġthe", from " the"), which Hugging Face's matcher never found (it
            # looks for "Ġthe" as written), and it takes in no whitespace
            if data.startswith(literal, after):
                pos = after
        special = token in specials and data.startswith(literal, pos)
        n = len(literal) if special else 1 if token == unk else len(token)
        end = pos + n
        if special and rstrip:  # and the whitespace after it (where a run of it ends, found once)
            taken = end
            if not run[0] <= end <= run[1]:
                stop = end
                while stop < len(data) and text[char_of[stop]] in _WHITE_SPACE:
                    stop += len(text[char_of[stop]].encode("utf-8"))
                run = (end, stop)
            end = run[1]
        if special and lstrip:
            # as Hugging Face: lstrip starts no match before the end of the previous one, so one
            # found in the whitespace the previous one's rstrip took in starts where that ends
            start = max(start, previous_end)
        if special and (lstrip or rstrip):
            trimmed[i] = text[char_of[start] : char_of[end]]
        else:
            start = pos
        out.append((char_of[start], char_of[end - 1] + 1 if end > start else char_of[start]))
        pos = end
    if getattr(tokenizer, "trim_offsets", False):
        return _trimmed(trimmed, out, tokenizer.trim_keeps_prefix_space)
    return out


#: Unicode White_Space: what an added token's ``lstrip`` and ``rstrip`` take in.
_WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000" + "".join(chr(c) for c in range(0x2000, 0x200B))
)


#: What Hugging Face's ByteLevel post-processor trims: the byte-level space and Unicode White_Space.
_TRIMMED = "".join(
    ["\u0120\t\n\v\f\r \x85\xa0\u1680", *map(chr, range(0x2000, 0x200B)), "\u2028\u2029\u202f\u205f\u3000"]
)


def _trimmed(tokens: list[str], offsets: list[tuple[int, int]], keeps_prefix_space: bool) -> list[tuple[int, int]]:
    """``offsets`` without the spaces at either end of each token, as Hugging Face's ByteLevel
    post-processor with ``trim_offsets`` has them: the start moves past the leading ones (not
    past the end), the end back before the trailing ones (not before the start; not at all when
    they outnumber it). With ``keeps_prefix_space``, a single leading space of the first token
    (or of one starting at 0) stays."""
    out = []
    for i, (token, (start, end)) in enumerate(zip(tokens, offsets)):
        lead = len(token) - len(token.lstrip(_TRIMMED))
        trail = len(token) - len(token.rstrip(_TRIMMED))
        if lead and not (keeps_prefix_space and lead == 1 and (i == 0 or start == 0)):
            start = min(start + lead, end)
        if trail and end >= trail:
            end = max(end - trail, start)
        out.append((start, end))
    return out


def family_call(tokenizer: Any, text: Any, text_pair: Any = None, *, add_special_tokens: bool = True,
                padding: bool | str = False, truncation: bool | str | None = None, max_length: int | None = None,
                pad_to_multiple_of: int | None = None, padding_side: str | None = None,
                return_tensors: str | None = None, return_token_type_ids: bool | None = None,
                return_attention_mask: bool | None = None, return_special_tokens_mask: bool = False,
                return_offsets_mapping: bool = False, return_length: bool = False, verbose: bool = True,
                tokenizer_kwargs: Mapping[str, Any] | None = None, **unsupported: Any) -> BatchEncoding:  # fmt: skip
    """``tokenizer(text, ...)`` for ``BPETokenizer``, ``CharTokenizer`` and ``UnigramTokenizer``:
    what transformers' ``PreTrainedTokenizerFast(tokenizer_object=...)`` with
    ``model_input_names=["input_ids", "attention_mask"]`` gives for a str or a list of str (a
    ``UnigramTokenizer``'s own ``model_input_names``, which decide whether ``token_type_ids``
    and ``attention_mask`` come back when the call does not say).
    They have special tokens but no template, so ``add_special_tokens`` adds nothing (and
    ``special_tokens_mask`` is 0 but for padding), but for a byte-level BPE with RoBERTa's
    ``template`` (``<s> A </s>``; truncation leaves room for both) and a Unigram file's
    ``TemplateProcessing`` (with its type ids); there is no ``model_max_length`` (but the one a
    ``UnigramTokenizer`` has from ``from_pretrained``), so truncation needs ``max_length``; it
    cuts on the right, but a ``UnigramTokenizer``'s on its ``truncation_side`` (``"left"``: each
    text too long loses its first tokens, as transformers' with ``direction="left"``; the call
    takes no ``truncation_side``); padding uses the tokenizer's ``pad_token``, on its
    ``padding_side`` (a ``UnigramTokenizer``'s) unless the call says. A byte-level BPE and a
    Unigram tokenizer take pairs of texts (``text_pair``, or ``(a, b)`` items) as transformers
    does (:func:`_in_template`); the character tokenizer refuses them. A Unigram tokenizer's rows have encodings, as
    transformers': ``word_ids``, ``sequence_ids``, ``char_to_token`` and the other alignment
    methods (the words its ``word_ids`` gives, asked for when first read; :class:`_FamilyRows`),
    and ``n_sequences``. The encoding is ``encode_batch``'s (GIL released). transformers' options
    for windows, words and targets are a TypeError naming the class and the option.
    ``tokenizer_kwargs`` (a dict of these keyword arguments) replaces the values given beside it,
    as transformers 5 merges it."""
    if tokenizer_kwargs is not None:
        given = {key: value for key, value in locals().items() if key in _FAMILY_OPTIONS}
        merged = {**given, **unsupported, **_tokenizer_kwargs(tokenizer_kwargs, f"{type(tokenizer).__name__}.__call__")}
        return family_call(tokenizer, text, text_pair, **merged)
    name = type(tokenizer).__name__
    _check_options(name, unsupported)
    bpe = hasattr(tokenizer, "merges")
    unigram = hasattr(tokenizer, "get_pieces")
    names = _family_inputs(tokenizer)
    return_token_type_ids = _returns(names, "token_type_ids", return_token_type_ids)
    return_attention_mask = _returns(names, "attention_mask", return_attention_mask)
    if text_pair is not None and not (bpe or unigram):
        raise ValueError(f"{name} takes single texts: text_pair must be None")
    _check_tensors(return_tensors)
    if not isinstance(add_special_tokens, bool):
        raise TypeError(f"add_special_tokens must be a bool, not {type(add_special_tokens).__name__}")
    seconds: list[str | None] = []
    if bpe or unigram:  # texts and pairs of texts, as transformers reads them
        inputs, batched = _batch(text, text_pair)
        texts = [item if isinstance(item, str) else item[0] for item in inputs]
        seconds = [None if isinstance(item, str) else item[1] for item in inputs]
    elif isinstance(text, str):
        texts, batched = [text], False
    elif isinstance(text, (list, tuple)):
        texts, batched = list(text), True
        for i, item in enumerate(texts):
            if not isinstance(item, str):
                raise TypeError(f"text[{i}] must be a str, not {type(item).__name__}")
    else:
        raise TypeError(f"text must be a str or a list of str, not {type(text).__name__}")
    if max_length is not None:
        max_length = _integer(max_length, "max_length", 0)
    pad_to_multiple_of = _multiple(pad_to_multiple_of)
    limits = _FamilyMaximum(tokenizer)
    padding, truncation, max_length = _strategies(limits, padding, truncation, max_length, pad_to_multiple_of)
    if truncation == "only_second" and not (bpe or unigram):
        raise ValueError("truncation='only_second' needs a pair of texts, and this tokenizer takes single texts")
    side = padding_side or _family_padding_side(tokenizer)
    if side not in ("right", "left"):
        raise ValueError(f'padding_side must be "right" or "left", not {side!r}')
    # Only a Unigram tokenizer has a truncation side (BPETokenizer and CharTokenizer cut on the right).
    cut_left = unigram and truncation != "do_not_truncate" and tokenizer.truncation_side == "left"
    pad_id = None
    if padding != "do_not_pad":
        pad = tokenizer.pad_token
        if pad is None:
            raise _no_family_pad_token(name)
        pad_id = _token_id(tokenizer, pad)
    if bpe or unigram:
        _check_unicode_pairs(inputs, batched)
    else:
        _check_unicode(texts, batched)
    template = getattr(tokenizer, "template", None)
    if unigram:  # a loaded file's template added below, as for RoBERTa's
        encoded = tokenizer.encode_batch(texts, add_special_tokens=False)
    elif not bpe:
        encoded = tokenizer.encode_batch(texts)
    else:  # RoBERTa's `<s> A </s>` added below; the padding as asked here, not as the file says
        encoded = tokenizer.encode_batch(texts, add_special_tokens=False, padding=False)
    try:
        offsets = [_offsets(tokenizer, *row) for row in zip(texts, encoded)] if return_offsets_mapping else None
        if template is not None or any(p is not None for p in seconds) or truncation == "only_second":
            pairs = [p for p in seconds if p is not None]
            more = []
            if pairs:
                padding_off = {} if unigram else {"padding": False}
                more = tokenizer.encode_batch(pairs, add_special_tokens=False, **padding_off)
            more_offsets = [_offsets(tokenizer, *row) for row in zip(pairs, more)] if return_offsets_mapping else None
            rows = _Sequences(encoded, offsets, more, more_offsets, seconds)
            paired = [p is not None for p in seconds]
            sources = _Sources(tokenizer, [encoded, more], [texts, pairs], paired) if unigram else None
            encoded, offsets, masks, type_ids, origins = _in_template(
                tokenizer, rows, add_special_tokens, max_length, truncation, cut_left
            )
            out = _family_rows(encoded, batched, max_length, "do_not_truncate", padding, pad_id, pad_to_multiple_of,
                               side, return_tensors, return_token_type_ids, return_attention_mask,
                               return_special_tokens_mask, offsets, return_length, masks, type_ids,
                               sources, origins)  # fmt: skip
        else:
            single = _Sources(tokenizer, [encoded], [texts], [False] * len(texts)) if unigram else None
            out = _family_rows(encoded, batched, max_length, truncation, padding, pad_id, pad_to_multiple_of, side,
                               return_tensors, return_token_type_ids, return_attention_mask,
                               return_special_tokens_mask, offsets, return_length, sources=single,
                               cut_left=cut_left)  # fmt: skip
    except MemoryError as e:
        raise _named(e, f"a BatchEncoding of {len(texts)} text{'' if len(texts) == 1 else 's'}") from None
    _warn_if_too_long(tokenizer, lambda: _row_lengths(out["input_ids"], batched, return_tensors), max_length,
                      verbose)  # fmt: skip
    return out


#: The keyword arguments of :func:`family_call` that its ``tokenizer_kwargs`` may hold.
_FAMILY_OPTIONS = frozenset(inspect.signature(family_call).parameters) - {
    "tokenizer", "text", "text_pair", "tokenizer_kwargs", "unsupported"}  # fmt: skip


def _row_lengths(ids: Any, batched: bool, return_tensors: str | None) -> Iterable[int]:
    """The length of each row of a call's ``input_ids``: lists (one list when not ``batched``), or a
    tensor of rows of one length, or numpy's object array of rows of different lengths."""
    if return_tensors is None:
        return map(len, ids) if batched else [len(ids)]
    shape = tuple(ids.shape)
    return [shape[1]] * min(shape[0], 1) if len(shape) == 2 else map(len, ids)


_Offsets = list[list[tuple[int, int]]]

#: Where a run of tokens of a row of a Unigram call comes from: ``(sequence, text, start, n)``,
#: the ``n`` tokens from ``start`` of the encoding of text ``text`` of the first (0) or second (1)
#: texts (``start`` 0 unless truncation cut on the left), or ``(None, 0, 0, n)`` for ``n`` tokens
#: the template added.
_Run = tuple[Optional[int], int, int, int]


class _Sources:
    """The texts a Unigram call encoded (the first texts and the second ones) and their encodings;
    their word ids asked for (``word_ids``) once, when a row's alignment is first read."""

    def __init__(self, tokenizer: Any, encoded: list[list[Any]], texts: list[list[str]], paired: list[bool]) -> None:
        self.tokenizer, self.encoded, self.texts, self.paired = tokenizer, encoded, texts, paired
        self._words: list[list[list[int]]] | None = None

    def words(self, sequence: int, text: int) -> list[int]:
        if self._words is None:
            self._words = [self.tokenizer.word_ids(texts) for texts in self.texts]
        return self._words[sequence][text]


class _FamilyRows(Sequence[Any]):
    """The encodings of the rows of a Unigram tokenizer's call, as transformers' ``BatchEncoding``
    has them: row ``i`` is a ``fast_wordpiece.reference`` ``Encoding`` of its ids, tokens,
    offsets (into each token's own text), type ids, special tokens and attention masks, word ids
    (each text's words from 0; None for the template's and padding tokens) and sequence ids,
    built when first read (nothing per row or token is made before)."""

    def __init__(self, sources: _Sources, rows: list[list[int]], runs: list[list[_Run]] | None, lengths: list[int],
                 side: str, type_ids: list[list[int]] | None, specials: list[list[int]] | None,
                 cut_left: bool = False) -> None:  # fmt: skip
        self._sources, self._rows, self._runs, self._lengths = sources, rows, runs, lengths
        self._side, self._type_ids, self._specials, self._cut_left = side, type_ids, specials, cut_left
        self._built: dict[int, Any] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled and copied as the built rows, not the tokenizer they are built from.
        return (list, (list(self),))

    def __getitem__(self, item: Any) -> Any:
        if isinstance(item, slice):
            return [self[i] for i in range(len(self))[item]]
        i = index(item)
        if not -len(self) <= i < len(self):
            raise IndexError(f"row {i} is out of range for {len(self)} rows")
        i %= len(self)
        if i not in self._built:
            self._built[i] = self._row(i)
        return self._built[i]

    def _row(self, i: int) -> Any:
        from fast_wordpiece.reference.encoding import Encoding

        sources, ids, side = self._sources, self._rows[i], self._side
        n = self._lengths[i]
        pad = len(ids) - n
        if self._runs is not None:
            runs = self._runs[i]
        else:  # the row is its text's tokens: its first n, or its last n when cut on the left
            runs = [(0, i, len(sources.encoded[0][i].ids) - n if self._cut_left else 0, n)]

        def padded(row: list[Any], value: Any) -> list[Any]:
            return row + [value] * pad if side == "right" else [value] * pad + row

        tokens: list[str] = []
        offsets: list[tuple[int, int]] = []
        words: list[int | None] = []
        sequences: list[int | None] = []
        at = pad if side == "left" else 0
        for sequence, text, start, count in runs:
            if sequence is None:
                tokens += [sources.tokenizer.id_to_token(id_) for id_ in ids[at : at + count]]
                offsets += [(0, 0)] * count
                words += [None] * count
                sequences += [None] * count
            else:
                e, stop = sources.encoded[sequence][text], start + count
                tokens += e.tokens[start:stop]
                offsets += [tuple(o) for o in e.offsets[start:stop]]
                words += sources.words(sequence, text)[start:stop]
                sequences += [sequence] * count
            at += count
        pad_token = sources.tokenizer.id_to_token(ids[-1 if side == "right" else 0]) if pad else None
        specials = [0] * n if self._specials is None else list(self._specials[i])
        types = [0] * n if self._type_ids is None else list(self._type_ids[i])
        pair = 2 if sources.paired[i] else 1
        return Encoding(list(ids), padded(tokens, pad_token), padded(offsets, (0, 0)), padded(specials, 1),
                        padded(types, 0), padded([1] * n, 0), word_ids=padded(words, None),
                        sequence_ids=padded(sequences, None), n_sequences=pair)  # fmt: skip


class _Sequences(NamedTuple):
    """The rows of a call: each first text's ids and offsets (None unless asked for), the second
    texts' (of the rows with one), and each row's second text or None."""

    first: list[Any]
    first_offsets: _Offsets | None
    second: list[Any]
    second_offsets: _Offsets | None
    seconds: list[str | None]


def _pair_lengths(n1: int, n2: int | None, budget: int, truncation: str, row: int) -> tuple[int, int]:
    """How many tokens of a row's first and second text (``n2`` None: no second text) Hugging
    Face's truncation keeps to fit ``budget`` (max_length less the template's tokens):
    ``longest_first`` cuts the longer one down, then both to half each; ``only_first`` and
    ``only_second`` cut that one alone (ValueError when it is too short to)."""
    m2 = n2 or 0
    if budget == 0:
        return 0, 0
    if n1 + m2 <= budget:
        return n1, m2
    if n2 is None and truncation == "only_second":
        raise ValueError(f"truncation='only_second' needs a pair of texts, but row {row} is a single text "
                         "longer than max_length")  # fmt: skip
    if n2 is None or truncation == "longest_first":
        if n2 is None:
            return budget, 0
        short, long_ = min(n1, n2), max(n1, n2)
        long_ = short if short > budget else max(short, budget - short)
        if short + long_ > budget:
            short, long_ = budget // 2, budget // 2 + budget % 2
        k1, k2 = (long_, short) if n1 > n2 else (short, long_)
        return min(n1, k1), min(n2, k2)
    cut = n1 + m2 - budget
    which, n = ("first", n1) if truncation == "only_first" else ("second", m2)
    if n <= cut:
        raise ValueError(f"truncation={truncation!r} cannot fit the pair of texts of row {row} in max_length: "
                         f"its {which} text has {n} tokens, and {cut} must go")  # fmt: skip
    return (n1 - cut, m2) if which == "first" else (n1, m2 - cut)


#: A part of a template: ``("special", id, type_id)``, or ``("text", 0 or 1, type_id)`` for
#: the first or second text.
_Part = tuple[str, int, int]


def _bpe_parts(tokenizer: Any, pair: bool) -> list[_Part]:
    """What a byte-level BPE makes of one text or a pair: RoBERTa's ``<s> A </s>`` and ``<s> A
    </s></s> B </s>`` (type ids all 0) with its template, else the texts one after the other,
    the second of type 1 (Hugging Face's default)."""
    if getattr(tokenizer, "template", None) is None:
        return [("text", 0, 0), ("text", 1, 1)][: 1 + pair]
    cls, sep = (("special", tokenizer.token_to_id(t), 0) for t in tokenizer.template)
    return [cls, ("text", 0, 0), sep, *([sep, ("text", 1, 0), sep] if pair else [])]


def _unigram_parts(tokenizer: Any, pair: bool, add_special_tokens: bool) -> list[_Part]:
    """What a Unigram tokenizer's template makes of one text or a pair, in order: ``("special",
    id, type_id)`` for each of its special tokens' ids, ``("text", 0 or 1, type_id)`` for the
    first or second text. The special tokens' ids and type ids are those the tokenizer puts
    around empty texts, and the template's notation says where the texts go. Without a
    template, the texts one after the other, the second of type 1 (Hugging Face's default).
    ValueError for a template the call cannot lay out: one that does not hold each text once,
    or (with ``add_special_tokens``) one with a special token of several ids."""
    template = tokenizer.template
    if template is None:
        return [("text", 0, 0), ("text", 1, 1)][: 1 + pair]
    items = [part.rpartition(":") for part in template[1 if pair else 0].split(" ")]
    texts = [name for name, _, _ in items if name in ("$A", "$B")]
    if texts not in (["$A", "$B"], ["$B", "$A"]) if pair else texts != ["$A"]:
        raise ValueError(f"{type(tokenizer).__name__}'s {'pair' if pair else 'single'} template "
                         f"{template[1 if pair else 0]!r} does not hold each text once, which the call needs; "
                         "use encode or encode_batch")  # fmt: skip
    specials: Any = iter([(0, 0)] * len(items))  # not added: their ids are not needed
    if add_special_tokens:
        empty = tokenizer.encode_batch([("", "") if pair else ""])[0]
        if len(empty.ids) != len(items) - len(texts):
            raise ValueError(f"{type(tokenizer).__name__}'s template has a special token of several ids, which "
                             "the call does not support; use encode or encode_batch")  # fmt: skip
        specials = iter(zip(empty.ids, empty.type_ids))
    parts: list[_Part] = []
    for name, _, type_id in items:
        if name in ("$A", "$B"):
            parts.append(("text", int(name == "$B"), int(type_id)))
        else:
            parts.append(("special", *next(specials)))
    return parts


def _in_template(
    tokenizer: Any,
    rows: _Sequences,
    add_special_tokens: bool,
    max_length: int | None,
    truncation: str,
    cut_left: bool = False,
) -> tuple[list[list[int]], _Offsets | None, list[list[int]], list[list[int]], list[list[_Run]]]:
    """The rows of a call, single texts and pairs, as Hugging Face makes them: each text and its
    second one truncated (:func:`_pair_lengths`) to leave room for the special tokens the
    template adds (none when max_length is below them, or without ``add_special_tokens``),
    keeping a text's first tokens, or its last ones with ``cut_left`` (``direction="left"``),
    then in the template (:func:`_bpe_parts`, :func:`_unigram_parts`): the special tokens when
    ``add_special_tokens`` (offsets ``(0, 0)``, mask 1), and every text's tokens with the type
    id the template gives them, added or not; with their offsets (None unless asked for),
    special tokens masks, type ids and runs (:data:`_Run`)."""
    pairs = {s is not None for s in rows.seconds}
    if hasattr(tokenizer, "get_pieces"):
        layouts = {pair: _unigram_parts(tokenizer, pair, add_special_tokens) for pair in pairs}
    else:
        layouts = {pair: _bpe_parts(tokenizer, pair) for pair in pairs}
    ids: list[list[int]] = []
    offsets: _Offsets | None = [] if rows.first_offsets is not None else None
    masks: list[list[int]] = []
    type_ids: list[list[int]] = []
    origins: list[list[_Run]] = []
    more = iter(range(len(rows.second)))
    for i, second in enumerate(rows.seconds):
        j = None if second is None else next(more)
        parts = layouts[j is not None]
        texts = [_ids_of(rows.first[i]), [] if j is None else _ids_of(rows.second[j])]
        added = sum(part[0] == "special" for part in parts) if add_special_tokens else 0
        kept = [len(texts[0]), len(texts[1])]
        if truncation != "do_not_truncate" and max_length is not None and max_length >= added:
            kept = list(_pair_lengths(kept[0], None if j is None else kept[1], max_length - added, truncation, i))
        spans = [
            None if rows.first_offsets is None else rows.first_offsets[i],
            None if rows.second_offsets is None or j is None else rows.second_offsets[j],
        ]
        row: list[int] = []
        mask: list[int] = []
        types: list[int] = []
        where: list[tuple[int, int]] = []
        origin: list[_Run] = []
        for kind, value, type_id in parts:
            if kind == "special":
                if add_special_tokens:
                    row.append(value)
                    mask.append(1)
                    types.append(type_id)
                    where.append((0, 0))
                    origin.append((None, 0, 0, 1))
                continue
            n = kept[value]
            start = len(texts[value]) - n if cut_left else 0
            text_index = i if value == 0 else j
            origin.append((value, text_index, start, n))  # type: ignore[arg-type]
            row += texts[value][start : start + n]
            mask += [0] * n
            types += [type_id] * n
            where += (spans[value] or [])[start : start + n]
        ids.append(row)
        masks.append(mask)
        type_ids.append(types)
        origins.append(origin)
        if offsets is not None:
            offsets.append(where)
    return ids, offsets, masks, type_ids, origins


def _family_rows(encoded: list[Any], batched: bool, max_length: int | None, truncation: str, padding: str,
                 pad_id: int | None, pad_to_multiple_of: int | None, side: str, return_tensors: str | None,
                 return_token_type_ids: bool, return_attention_mask: bool,
                 return_special_tokens_mask: bool, offset_mapping: list[list[tuple[int, int]]] | None,
                 return_length: bool, special_masks: list[list[int]] | None = None,
                 type_ids: list[list[int]] | None = None, sources: _Sources | None = None,
                 origins: list[list[_Run]] | None = None, cut_left: bool = False) -> BatchEncoding:  # fmt: skip
    """The BatchEncoding of :func:`family_call` once ``encoded`` (``offset_mapping`` None unless
    asked for; ``special_masks`` the rows' special tokens, None when there are none; ``type_ids``
    the rows' type ids, None when all are 0); with ``sources`` (a Unigram tokenizer's), the
    rows' encodings too (:class:`_FamilyRows`), their tokens' ``origins`` (None: each row's first
    text's tokens). Truncation keeps each row's first ``max_length`` tokens, or its last ones with
    ``cut_left``."""
    rows = [_ids_of(row) for row in encoded]
    offsets = [] if offset_mapping is None else offset_mapping
    if truncation != "do_not_truncate" and max_length is not None:
        keep = max_length  # the last ones: row[len(row) - keep :], as row[-keep:] keeps all for 0
        rows = [row if len(row) <= keep else row[len(row) - keep :] if cut_left else row[:keep] for row in rows]
        offsets = [row if len(row) <= keep else row[len(row) - keep :] if cut_left else row[:keep] for row in offsets]
    lengths = [len(row) for row in rows]
    types = [list(row) for row in type_ids] if type_ids is not None and return_token_type_ids else []
    masks = [[1] * n for n in lengths]
    specials = [[0] * n for n in lengths] if return_special_tokens_mask else []
    if return_special_tokens_mask and special_masks is not None:
        specials = [list(mask) for mask in special_masks]
    if pad_id is not None:
        target = max(lengths, default=0) if padding == "longest" else max_length
        if target is not None and pad_to_multiple_of is not None:
            target = -(-target // pad_to_multiple_of) * pad_to_multiple_of
        if target is not None and target > sys.maxsize // 8:
            raise MemoryError(f"padding every row to {target} tokens cannot fit in memory")
        if target is not None:
            fields: list[tuple[list[Any], Any]] = [(rows, pad_id), (masks, 0), (specials, 1), (offsets, (0, 0)),
                                                   (types, 0)]  # fmt: skip
            for i, n in enumerate(lengths):
                if n < target:
                    for field, value in fields:
                        if field:
                            fill = [value] * (target - n)
                            field[i] = field[i] + fill if side == "right" else fill + field[i]
    data: dict[str, Any] = {"input_ids": rows}
    if return_token_type_ids:
        data["token_type_ids"] = types or [[0] * len(row) for row in rows]
    if return_attention_mask:
        data["attention_mask"] = masks
    if return_special_tokens_mask:
        data["special_tokens_mask"] = specials
    if offset_mapping is not None:
        data["offset_mapping"] = offsets
    if return_length:
        data["length"] = [len(row) for row in rows]
    encodings: _FamilyRows | None = None
    n_sequences = None
    if sources is not None:
        encodings = _FamilyRows(sources, rows, origins, lengths, side, type_ids, special_masks, cut_left)
        n_sequences = 2 if sources.paired and sources.paired[0] else 1
    if not batched and return_tensors is None:
        # as transformers (and PyTokenizer's call): the rows unwrapped, `length` kept a list
        data = {key: value[0] if value and isinstance(value[0], list) else value for key, value in data.items()}
    return BatchEncoding(data, encodings, tensor_type=return_tensors, n_sequences=n_sequences)


def family_clean_up_flag(value: object) -> bool | None:
    """The ``clean_up_tokenization_spaces`` of the family's ``decode`` and ``batch_decode``: a
    bool (or a numpy bool scalar), or None (the tokenizer's ``clean_up_tokenization_spaces``)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if _is_numpy_bool(value):
        return bool(value)
    raise TypeError(f"clean_up_tokenization_spaces must be a bool or None, not {_type_name(value)}")


def family_batch_decode(tokenizer: Any, sequences: Any, skip_special_tokens: bool = False,
                        clean_up_tokenization_spaces: bool | None = None, spaces_between_special_tokens: bool = True,
                        **unexpected: Any) -> list[str]:  # fmt: skip
    """transformers' ``batch_decode`` for the family: ``decode`` of each sequence of ids (a list
    of lists, a 2-D numpy array or torch tensor, another iterable of them; one flat sequence, or a
    dict or ``BatchEncoding`` of one text, gives a list of its text, as transformers), with
    ``skip_special_tokens``, ``clean_up_tokenization_spaces`` and ``spaces_between_special_tokens``
    as ``decode`` takes them (None: the tokenizer's ``clean_up_tokenization_spaces``)."""
    name = type(tokenizer).__name__
    for key in unexpected:
        raise TypeError(f"{name}.batch_decode() got an unexpected keyword argument {key!r}")
    clean = family_clean_up_flag(clean_up_tokenization_spaces)
    if isinstance(sequences, (dict, UserDict)):  # a BatchEncoding of one text: its input_ids, as decode reads them
        return [tokenizer.decode(sequences, skip_special_tokens, clean, spaces_between_special_tokens)]
    rows = _as_lists(sequences)
    if not isinstance(rows, (str, bytes, bytearray, memoryview, list, tuple)) and isinstance(rows, Iterable):
        rows = list(rows)  # a range, a deque, a generator: its items, as a list's
    if isinstance(rows, (str, bytes)) or not isinstance(rows, (list, tuple)):
        raise TypeError(f"{name}.batch_decode() takes a list of sequences of ids (or a 2-D array), "
                        f"not {_type_name(sequences)}")  # fmt: skip
    if rows and not isinstance(rows[0], (list, tuple)) and not hasattr(rows[0], "__iter__"):
        rows = [rows]  # one sequence
    for i, row in enumerate(rows):
        # a sequence of sequences where a sequence goes: `decode` would read it as a batch
        if isinstance(row, (list, tuple)) and row and isinstance(row[0], (list, tuple)):
            raise TypeError(f"sequences[{i}][0] must be int, not {_type_name(row[0])}")
    return [tokenizer.decode(row, skip_special_tokens, clean, spaces_between_special_tokens) for row in rows]


def family_convert_tokens_to_ids(tokenizer: Any, tokens: Any) -> Any:
    """transformers' ``convert_tokens_to_ids`` for the family: the id of a token, or the ids
    of an iterable of tokens (a list, a tuple, a generator, ...; for a token not in the
    vocabulary, the unknown token's id, or None when the tokenizer has no unknown token, as
    transformers). Anything else is a TypeError, as ``PyTokenizer.convert_tokens_to_ids``."""
    unk = getattr(tokenizer, "unk_token", None)
    default = _token_id(tokenizer, unk) if isinstance(unk, str) else None

    def one(t: Any, what: str) -> int | None:
        if not isinstance(t, str):
            raise TypeError(f"{what} must be str, not {type(t).__name__}")
        _valid_unicode(t, what)
        found = _token_id(tokenizer, t)
        return default if found is None else found

    if isinstance(tokens, str):
        return one(tokens, "tokens")
    try:
        items = iter(tokens)
    except TypeError:
        raise TypeError(f"tokens must be a str or an iterable of str, not {type(tokens).__name__}") from None
    return [one(t, f"tokens[{i}]") for i, t in enumerate(items)]
