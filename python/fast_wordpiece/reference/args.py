"""Spec section 8: argument checks, TypeError for a wrong type and ValueError for a wrong value."""

from __future__ import annotations

import contextlib
import json
import operator
import os
from collections import UserDict
from collections.abc import Iterator, Mapping
from typing import Any, Union

# The rules for integer arguments and type names are those of the transformers-style calls,
# which the engine and the twin share.
from fast_wordpiece.batch_encoding import _index as _index
from fast_wordpiece.batch_encoding import _integer as _integer
from fast_wordpiece.batch_encoding import _is_numpy_bool
from fast_wordpiece.batch_encoding import _type_name as _type_name
from fast_wordpiece.reference import json_text
from fast_wordpiece.reference.common import DEFAULT_SPECIAL_TOKENS
from fast_wordpiece.reference.json_numbers import read_float, read_int


def _text(value: object, name: str) -> str:
    """A str that is valid Unicode text (no lone surrogate)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be str, not {_type_name(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        message = f"{name} contains a lone surrogate at index {e.start}, which is not valid Unicode text"
        raise ValueError(message) from None
    return value


def _items(value: object, name: str, of: str) -> Iterator[Any]:
    """The items of a collection argument; a str or bytes is not a collection here."""
    if not isinstance(value, (str, bytes, bytearray)):
        with contextlib.suppress(TypeError):
            return iter(value)  # type: ignore[call-overload, no-any-return]
    raise TypeError(f"{name} must be an iterable of {of}, not {_type_name(value)}")


def _texts(value: object, name: str) -> list[str]:
    return [_text(item, f"{name}[{i}]") for i, item in enumerate(_items(value, name, "str"))]


def _text_batch(item: object, name: str) -> Iterator[Any]:
    """The texts of a corpus item that is not a str: its items when it is a batch of texts (a
    list, a tuple or another iterable, as the batches of a ``train_from_iterator`` generator
    are), else the TypeError that names it as a text. bytes (a bytearray or memoryview too: they
    iterate as ints), a mapping (a dataset's row) and an
    Arrow array (``__arrow_c_array__``, which ``count_words`` reads as such) are not batches, nor
    is a pandas or polars DataFrame (``_dataframe_error``); a pandas or polars Series of str is one."""
    if not (isinstance(item, (str, bytes, bytearray, memoryview, Mapping)) or hasattr(item, "__arrow_c_array__")):
        if (error := _dataframe_error(item, f"{name} must be str or a batch of texts")) is not None:
            raise error
        with contextlib.suppress(TypeError):
            return iter(item)  # type: ignore[call-overload, no-any-return]
    raise TypeError(f"{name} must be str, not {_type_name(item)}")


def _reject_mapping_corpus(value: object, name: str) -> None:
    """A corpus that is a mapping (a dict, a dataset's batch) or word counts is a TypeError:
    iterating it would read its keys (words) as the texts."""
    if type(value).__name__ == "WordCounts":  # the twin's (or the engine's)
        raise TypeError(f"{name} must be an iterable of texts, not word counts (WordCounts): pass them to "
                        "train_from_counts")  # fmt: skip
    _reject_mapping(value, name)


def _reject_mapping(value: object, name: str) -> None:
    """A batch of texts (``encode_batch``'s ``inputs``, ``analyze``'s ``texts``, a corpus) that is a
    mapping (a dict, a ``collections.UserDict`` such as a ``BatchEncoding``, any
    ``collections.abc.Mapping``: a dataset's batch) is a TypeError naming it: iterating it would read
    its keys as the texts. So is a pandas or polars DataFrame (``_dataframe_error``), not a mapping
    but as much a trap."""
    if isinstance(value, Mapping):
        raise TypeError(f"{name} must be an iterable of texts, not a mapping ({_type_name(value)}): its keys would "
                        f'be read as the texts; pass its column of texts (batch["text"])')  # fmt: skip
    if (error := _dataframe_error(value, f"{name} must be an iterable of texts")) is not None:
        raise error


def _dataframe_error(value: object, must: str) -> TypeError | None:
    """For a pandas or polars DataFrame (an instance of a class named ``DataFrame`` from either
    library, subclasses too; neither is imported), the TypeError that says so after ``must``:
    iterating a DataFrame goes over its columns (pandas' names, polars' Series), not its rows, so
    its column names would be read as the texts."""
    for cls in type(value).__mro__:
        module = getattr(cls, "__module__", None)
        if cls.__name__ != "DataFrame" or not isinstance(module, str):
            continue
        library = module.partition(".")[0]
        if library in ("pandas", "polars"):
            return TypeError(f"{must}, not a {library} DataFrame: iterating it goes over its columns, not its rows; "
                             'pass its column of texts (df["text"])')  # fmt: skip
    return None


def _corpus_texts(value: object, name: str) -> Iterator[str]:
    """The texts of a corpus: an iterable of str and of batches of str (``_text_batch``),
    flattened; the errors name the item (``corpus[3]``) or the text of a batch
    (``corpus[3][2]``)."""
    items = _items(value, name, "str")
    _reject_mapping_corpus(value, name)
    for i, item in enumerate(items):
        if isinstance(item, str):
            yield _text(item, f"{name}[{i}]")
        else:
            for j, text in enumerate(_text_batch(item, f"{name}[{i}]")):
                yield _text(text, f"{name}[{i}][{j}]")


#: What ``_text_counts`` takes.
TEXT_COUNTS = "a mapping of str to int or an iterable of (str, int) pairs"


def _quoted(text: str) -> str:
    """A str as the engine quotes it in messages (in double quotes, escapes as JSON's)."""
    return json.dumps(text, ensure_ascii=False)


def _text_counts(value: object, name: str, expected: str, minimum: int) -> list[tuple[str, int]]:
    """Counts given as ``name``, as the engine reads them: a mapping of str to int (anything
    with ``items()``) or an iterable of ``(str, int)`` pairs, else a TypeError saying that
    ``name`` must be ``expected``. The pairs in their order (a word may come more than once),
    each count an integer from ``minimum`` to 2**64 - 1. The errors name the pair
    (``counts[3]``), its word (``the word of counts[3]``) or its count (``the count of
    "abc"``); an exception raised by ``items()`` or the iterator comes back unchanged."""
    items = getattr(value, "items", None)
    if items is None and isinstance(value, (str, bytes, bytearray)):
        raise TypeError(f"{name} must be an iterable of (str, int) pairs, not {_type_name(value)}")
    try:
        pairs = iter(value if items is None else items())  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be {expected}, not {_type_name(value)}") from None
    out = []
    for i, pair in enumerate(pairs):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"{name}[{i}] must be a (str, int) pair, not {_type_name(pair)}")
        word = _text(pair[0], f"the word of {name}[{i}]")
        out.append((word, _integer(pair[1], f"the count of {_quoted(word)}", minimum)))
    return out


#: The engine's limit on ``num_threads`` (``src/threads.rs``).
MAX_THREADS = 1024


def _id(value: object, name: str, vocab_size: int) -> int:
    """One token id: an integer (``_index``) in ``range(vocab_size)``."""
    return _id_below(value, name, vocab_size, f"is out of range for a vocabulary of {vocab_size} tokens")


def _any_id(value: object, name: str) -> int:
    """Any id a token could have, in or out of the vocabulary: an integer from 0 to 2**32 - 1, as
    transformers' ``convert_ids_to_tokens`` takes (None for one no token has, an obscure OverflowError
    past these bounds)."""
    return _id_below(value, name, 1 << 32, "is not a token id (one from 0 to 4294967295)")


def _id_below(value: object, name: str, limit: int, why: str) -> int:
    """One id as ``_id`` reads it: an integer in ``range(limit)``; out of it, ValueError ``"<name> = <id> <why>"``."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be int, not bool")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be int, not {_type_name(value)}") from None
    if not 0 <= number < limit:
        raise ValueError(f"{name} = {number} {why}")
    return number


def _ids(value: object, name: str, vocab_size: int) -> list[int]:
    """Token ids (an iterable of ``_id``), as the engine checks them."""
    return [_id(item, f"{name}[{i}]", vocab_size) for i, item in enumerate(_items(value, name, "int"))]


def _any_ids(value: object, name: str) -> list[int]:
    """Ids as ``_ids`` reads them, each any token id (``_any_id``)."""
    return [_any_id(item, f"{name}[{i}]") for i, item in enumerate(_items(value, name, "int"))]


def _threads(value: object) -> int | None:
    """``num_threads``: None or an integer from 1 to ``MAX_THREADS``."""
    if value is None:
        return None
    number = _integer(value, "num_threads", 1)
    if number > MAX_THREADS:
        raise ValueError(f"num_threads must be between 1 and {MAX_THREADS}, not {number}")
    return number


def _json_loads(text: str, **kwargs: Any) -> Any:
    """``json.loads``, with JSON nested deeper than Python's recursion allows a
    ``json.JSONDecodeError`` (a ValueError), as the engine's parser refuses it: every caller's
    handling of JSON that is not valid applies. ``NaN``, ``Infinity`` and lone surrogate escapes
    are refused as the engine refuses them (``json_text.loads``)."""
    kwargs.setdefault("parse_float", read_float)
    kwargs.setdefault("parse_int", read_int)
    try:
        return json_text.loads(text, **kwargs)
    except RecursionError:
        raise json.JSONDecodeError("recursion limit exceeded", text, 0) from None


def _real(value: object, name: str) -> float:
    """The float a float argument (``alpha``, ``shrinking_factor``) stands for: a float, an int, or
    an object that converts to one as ``float`` converts a number (``__float__``, else
    ``__index__``: numpy's float and integer scalars). A bool or a numpy bool (a flag, not a
    number) and a str are a TypeError naming the argument, an int too large for a float a
    ValueError ``"<name> is too large"``; an exception ``__float__`` raises (other than a
    TypeError or AttributeError) comes back unchanged. The engine's rule is the same (``src/python/args.rs``)."""
    number = hasattr(type(value), "__float__") or hasattr(type(value), "__index__")
    if isinstance(value, bool) or _is_numpy_bool(value) or not number:
        raise TypeError(f"{name} must be float, not {_type_name(value)}")
    try:
        return float(value)  # type: ignore[arg-type]
    except OverflowError:
        raise ValueError(f"{name} is too large") from None
    except (TypeError, AttributeError):  # as the engine takes Python's own (its unless_raised)
        raise TypeError(f"{name} must be float, not {_type_name(value)}") from None


def _flag(value: object, name: str) -> bool:
    """A bool or a numpy bool scalar (not an int or anything else truthy)."""
    if isinstance(value, bool):
        return value
    if _is_numpy_bool(value):
        return bool(value)
    raise TypeError(f"{name} must be bool, not {_type_name(value)}")


def _is_dict(value: object) -> bool:
    """Whether ``value`` is a dict or a ``collections.UserDict`` (transformers' ``BatchEncoding``)."""
    return isinstance(value, (dict, UserDict))


def _input_ids(token_ids: object) -> tuple[object, str]:
    """What ``decode`` reads of ``token_ids`` and the name its errors give it: a dict or a
    ``BatchEncoding`` of one text, its ``"input_ids"`` (without them: ValueError), as transformers 5."""
    if not _is_dict(token_ids):
        return token_ids, "token_ids"
    if "input_ids" not in token_ids:  # type: ignore[operator]
        raise ValueError(f'token_ids: a {_type_name(token_ids)} without "input_ids" '
                         "(decode takes ids, or the BatchEncoding of one text)")  # fmt: skip
    return token_ids["input_ids"], 'token_ids["input_ids"]'  # type: ignore[index]


def _is_one_id(value: object) -> bool:
    """One id rather than a sequence of them: an int (a bool too, which the id check then
    rejects) or an integer scalar that converts to an int as an index does (numpy's
    ``int64``, a 0-d integer array)."""
    if isinstance(value, int):
        return True
    if isinstance(value, (list, tuple)):
        return False
    try:
        operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return False
    return True


def _special_texts(value: object) -> list[str]:
    """The special tokens given: a list of str, not a mapping (whose keys would be read as the
    tokens)."""
    if (
        type(value) not in (list, tuple)
        and not isinstance(value, (str, bytes, bytearray))
        and isinstance(value, Mapping)
    ):
        raise TypeError(
            f"special_tokens must be an iterable of str, not a mapping ({_type_name(value)}): its keys would be "
            "read as the tokens"
        )
    return _texts(value, "special_tokens")


def _special_tokens(value: object) -> tuple[str, ...]:
    """Distinct non-empty strings; None stands for the defaults."""
    tokens = DEFAULT_SPECIAL_TOKENS if value is None else tuple(_special_texts(value))
    for i, token in enumerate(tokens):
        if not token:
            raise ValueError("special tokens must not be empty strings")
        if token in tokens[:i]:
            raise ValueError(f"special token {_quoted(token)} is listed twice")
    return tokens


#: What a path argument takes (``_path``): what Python's ``open`` takes as a path.
_StrPath = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def _path(value: object, name: str = "path") -> str:
    """A path argument, as the engine reads one: a str, bytes, or an ``os.PathLike`` whose
    ``__fspath__`` gives either, as Python's ``open`` takes them, as a str (bytes decoded by
    ``os.fsdecode``); anything else is a TypeError, a NUL character a ValueError, naming the
    argument."""
    if not isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError(f"{name} must be str, bytes or os.PathLike, not {_type_name(value)}")
    path = os.fsdecode(value)
    if "\0" in path:
        raise ValueError(f"{name}: embedded null byte")
    return path


def _vocab_ids(tokens: list[str], holes: frozenset[int] = frozenset()) -> dict[str, int]:
    """``{token: id}``, the id being the position (``holes`` left out); a repeated token is a ValueError."""
    ids: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if i not in holes and ids.setdefault(token, i) != i:
            raise ValueError(f"duplicate token {_quoted(token)} at ids {ids[token]} and {i}")
    return ids
