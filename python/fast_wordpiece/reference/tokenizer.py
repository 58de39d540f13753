"""``PyTokenizer``: the pipeline stages chained, training, files, encoding and decoding."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from fast_wordpiece.reference.args import (
    MAX_THREADS,
    _flag,
    _integer,
    _items,
    _path,
    _special_tokens,
    _text,
    _texts,
    _type_name,
    _vocab_ids,
)
from fast_wordpiece.reference.common import DEFAULT_SPECIAL_TOKENS, FILE_FORMAT, FILE_VERSION, Offsets, Pair
from fast_wordpiece.reference.decoder import decode_tokens
from fast_wordpiece.reference.encoding import Encoding
from fast_wordpiece.reference.model import wordpiece
from fast_wordpiece.reference.options import EncodeOptions, Options
from fast_wordpiece.reference.padding import PAD_TOKEN, _import_numpy, numpy_arrays, pad, padding_length
from fast_wordpiece.reference.pre_tokenizer import pre_tokenize
from fast_wordpiece.reference.training import OBJECTIVES, learn
from fast_wordpiece.reference.truncation import merge, truncate
from fast_wordpiece.reference.unicode import WHITESPACE


@dataclass(frozen=True)
class _TrainingArgs:
    """The checked arguments of the training functions."""

    vocab_size: int
    min_frequency: int
    special_tokens: tuple[str, ...]
    show_progress: bool
    options: Options
    objective: str
    limit_alphabet: int | None

    @staticmethod
    def check(vocab_size: object, min_frequency: object, special_tokens: object, show_progress: object,
              options: dict[str, Any], objective: object = None,
              limit_alphabet: object = None) -> _TrainingArgs:  # fmt: skip
        if objective is not None and not isinstance(objective, str):
            raise TypeError(f"objective must be a str, not {_type_name(objective)}")
        if objective is not None and objective not in OBJECTIVES:
            raise ValueError(f'objective must be "likelihood", "pmi" or "frequency", not "{objective}"')
        args = _TrainingArgs(
            _integer(vocab_size, "vocab_size", 1),
            2 if min_frequency is None else _integer(min_frequency, "min_frequency", 0),
            _special_tokens(special_tokens),
            _flag(show_progress, "show_progress"),
            Options(**options),
            "likelihood" if objective is None else objective,
            None if limit_alphabet is None else _integer(limit_alphabet, "limit_alphabet", 1),
        )
        if args.options.unk_token not in args.special_tokens:
            unk, specials = args.options.unk_token, list(args.special_tokens)
            raise ValueError(f"unk_token {unk!r} must be one of the special tokens {specials}")
        return args

    def learn(self, counts: Mapping[str, int]) -> PyTokenizer:
        vocab, merges = learn(counts, self.vocab_size, self.min_frequency, self.special_tokens, self.show_progress,
                              self.objective, self.limit_alphabet)  # fmt: skip
        tokenizer = PyTokenizer(vocab, merges=merges, special_tokens=self.special_tokens, **asdict(self.options))
        tokenizer._objective = self.objective
        return tokenizer


class PyTokenizer:
    """A WordPiece tokenizer with BERT's pipeline.

    ``vocab`` lists the tokens, the id of a token being its position. Those of
    ``special_tokens`` that are in the vocabulary are kept whole where a text
    contains them, and ``decode(..., skip_special_tokens=True)`` drops them.
    The keyword ``options`` are the fields of :class:`Options`.
    """

    def __init__(self, vocab: Iterable[str], *, merges: Iterable[Pair] | None = None,
                 special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS, **options: Any) -> None:  # fmt: skip
        self._vocab = _texts(vocab, "vocab")
        self._merges = [_pair(pair, f"merges[{i}]") for i, pair in enumerate(_items(merges or [], "merges", "pairs"))]
        given_special_tokens = _special_tokens(special_tokens)
        self._options = Options(**options)
        self._ids = _vocab_ids(self._vocab)
        if self._options.unk_token not in self._ids:
            raise ValueError(f"unk_token {self._options.unk_token!r} is not in the vocabulary")
        self._special_tokens = [token for token in given_special_tokens if token in self._ids]
        longest_first = sorted(self._special_tokens, key=len, reverse=True)  # so the leftmost match is the longest
        self._special_pattern = re.compile("|".join(map(re.escape, longest_first))) if longest_first else None
        self._objective: str | None = None

    # -- training (spec section 4) ---------------------------------------------

    @staticmethod
    def train(corpus: Iterable[str], vocab_size: int, min_frequency: int | None = 2, *,
              special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS, objective: str | None = None,
              limit_alphabet: int | None = None, show_progress: bool = False,
              **options: Any) -> PyTokenizer:  # fmt: skip
        """Learns a vocabulary of ``vocab_size`` tokens from an iterable of texts."""
        args = _TrainingArgs.check(vocab_size, min_frequency, special_tokens, show_progress, options, objective,
                                   limit_alphabet)  # fmt: skip
        counts: Counter[str] = Counter()
        for i, text in enumerate(_items(corpus, "corpus", "str")):
            counts.update(args.options.words(_text(text, f"corpus[{i}]")))
        return args.learn(counts)

    @staticmethod
    def train_from_counts(counts: Mapping[str, int], vocab_size: int, min_frequency: int | None = 2, *,
                          special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS, objective: str | None = None,
                          limit_alphabet: int | None = None, show_progress: bool = False,
                          **options: Any) -> PyTokenizer:  # fmt: skip
        """``train`` on ``{word: count}``, the words being already normalized and pre-tokenized."""
        if not isinstance(counts, Mapping):
            raise TypeError(f"counts must be a dict of str to int, not {_type_name(counts)}")
        checked = {_text(word, "counts keys"): _integer(n, f"counts[{word!r}]", 1) for word, n in counts.items()}
        args = _TrainingArgs.check(vocab_size, min_frequency, special_tokens, show_progress, options, objective,
                                   limit_alphabet)  # fmt: skip
        return args.learn(checked)

    # -- files -----------------------------------------------------------------

    @staticmethod
    def from_vocab_file(path: str | os.PathLike[str], *, special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS,
                        **options: Any) -> PyTokenizer:  # fmt: skip
        """Reads a BERT ``vocab.txt``: one token per line, the id being the line number from 0."""
        path = _path(path)
        with open(path, "rb") as f:
            data = f.read()
        try:
            lines = data.decode("utf-8").split("\n")
        except UnicodeDecodeError as e:
            raise ValueError(f"{path}: not UTF-8 text (invalid byte at offset {e.start})") from None
        if lines[-1] == "":  # the line break that ends the last line
            lines.pop()
        if not lines:
            raise ValueError(f"{path}: empty vocabulary file")
        vocab = [line.rstrip(WHITESPACE) for line in lines]  # as Hugging Face trims them
        try:
            _vocab_ids(vocab)
        except ValueError as e:
            raise ValueError(f"{path}: {e} (ids are line numbers from 0)") from None
        return PyTokenizer(vocab, special_tokens=special_tokens, **options)

    def to_json(self) -> str:
        """The content of the tokenizer file, as the engine writes it too."""
        return json.dumps({"format": FILE_FORMAT, "version": FILE_VERSION, "vocab": self._vocab,
                           "merges": self._merges, "special_tokens": self._special_tokens, "options": self.options,
                           "objective": self._objective},
                          ensure_ascii=False, separators=(",", ":"))  # fmt: skip

    @staticmethod
    def from_json(json_text: str) -> PyTokenizer:
        """The tokenizer that the content of a tokenizer file describes."""
        _text(json_text, "json")
        try:
            return _from_document(json.loads(json_text))
        except (json.JSONDecodeError, TypeError, ValueError) as e:
            raise ValueError(f"not a fast-wordpiece tokenizer file: {e}") from None

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the tokenizer file (JSON), atomically."""
        _write_atomic(_path(path), self.to_json())

    @staticmethod
    def load(path: str | os.PathLike[str]) -> PyTokenizer:
        """Reads a tokenizer file that either implementation saved."""
        path = _path(path)
        with open(path, "rb") as f:
            data = f.read()
        try:
            return PyTokenizer.from_json(data.decode("utf-8"))
        except ValueError as e:  # including UnicodeDecodeError
            raise ValueError(f"{path}: {e}") from None

    def save_vocab(self, path: str | os.PathLike[str]) -> None:
        """Writes the vocabulary as a BERT ``vocab.txt``, atomically."""
        _write_atomic(_path(path), "".join(token + "\n" for token in self._vocab))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return PyTokenizer.from_json, (self.to_json(),)

    # -- encoding (spec sections 5 and 6) --------------------------------------

    def encode(self, text: str, pair: str | None = None, add_special_tokens: bool = True, *,
               max_length: int | None = None, truncation: str = "longest_first", stride: int = 0,
               truncation_side: str = "right", padding: str | None = None, pad_to_multiple_of: int | None = None,
               padding_side: str = "right") -> Encoding:  # fmt: skip
        """The encoding of ``text``, or of the pair; ``[CLS] text [SEP] pair [SEP]`` with special tokens.
        Truncation and padding as in spec section 9."""
        first = _text(text, "text")
        second = None if pair is None else _text(pair, "pair")
        options = EncodeOptions(add_special_tokens, max_length, truncation, stride, truncation_side, padding,
                                pad_to_multiple_of, padding_side)  # fmt: skip
        pad_id = self._pad_id(options)
        return self._pad([self._encode_one(first, second, options)], options, pad_id)[0]

    def encode_batch(self, inputs: Iterable[str | tuple[str, str]], add_special_tokens: bool = True, *,
                     max_length: int | None = None, truncation: str = "longest_first", stride: int = 0,
                     truncation_side: str = "right", padding: str | None = None,
                     pad_to_multiple_of: int | None = None, padding_side: str = "right",
                     return_tensors: str | None = None, num_threads: int | None = None) -> Any:  # fmt: skip
        """``encode`` for each item, a str or a ``(text, pair)`` tuple, then padding of the whole batch;
        a list of Encoding, or with ``return_tensors="np"`` a dict of numpy arrays. ``num_threads`` is
        checked and otherwise ignored: the twin runs on one thread."""
        if num_threads is not None and _integer(num_threads, "num_threads", 1) > MAX_THREADS:
            raise ValueError(f"num_threads must be between 1 and {MAX_THREADS}, not {num_threads}")
        options = EncodeOptions(add_special_tokens, max_length, truncation, stride, truncation_side, padding,
                                pad_to_multiple_of, padding_side)  # fmt: skip
        if return_tensors is not None and _text(return_tensors, "return_tensors") != "np":
            raise ValueError(f'return_tensors must be None or "np", not {return_tensors!r}')
        if return_tensors is not None:
            _import_numpy()
        texts = [_batch_item(item, f"inputs[{i}]") for i, item in enumerate(_items(inputs, "inputs", "str"))]
        if options.add_special_tokens:
            self._cls_and_sep()
        pad_id = self._pad_id(options)
        batch = []
        for i, (text, pair) in enumerate(texts):
            try:
                batch.append(self._encode_one(text, pair, options))
            except ValueError as e:
                raise ValueError(f"inputs[{i}]: {e}") from None
        batch = self._pad(batch, options, pad_id)
        return batch if return_tensors is None else numpy_arrays(batch)

    def _encode_one(self, text: str, pair: str | None, options: EncodeOptions) -> Encoding:
        """One input, truncated (spec section 9) and post-processed."""
        first = self._encode_text(text)
        second = None if pair is None else self._encode_text(pair)
        if not options.truncates:
            return self._post_process(first, second, options.add_special_tokens)
        cls_and_sep = self._cls_and_sep() if options.add_special_tokens else None
        added = 0 if cls_and_sep is None else 2 if second is None else 3
        a, b = truncate(self._sequence(first), None if second is None else self._sequence(second), options, added)
        x = self._post_process_window(a, 0, cls_and_sep)
        return x if b is None else merge(x, self._post_process_window(b, 1, cls_and_sep))

    def _sequence(self, rows: list[tuple[int, Offsets]]) -> Encoding:
        """Raw tokens as an Encoding: type ids 0, masks 0."""
        ids = [id_ for id_, _ in rows]
        return Encoding(ids, [self._vocab[i] for i in ids], [o for _, o in rows], [0] * len(ids), [0] * len(ids))

    def _post_process_window(self, window: Encoding, type_id: int, cls_and_sep: tuple[int, int] | None) -> Encoding:
        """``[CLS] window [SEP]`` (first sequence) or ``window [SEP]`` (second), all with ``type_id``; the same
        for each overflowing window."""
        rows = [(id_, offsets, special) for id_, offsets, special in
                zip(window.ids, window.offsets, window.special_tokens_mask)]  # fmt: skip
        if cls_and_sep is not None:
            cls, sep = cls_and_sep
            rows = ([(cls, (0, 0), 1)] if type_id == 0 else []) + rows + [(sep, (0, 0), 1)]
        ids = [id_ for id_, _, _ in rows]
        overflowing = [self._post_process_window(w, type_id, cls_and_sep) for w in window.overflowing]
        return Encoding(ids, [self._vocab[i] for i in ids], [o for _, o, _ in rows], [s for _, _, s in rows],
                        [type_id] * len(rows), overflowing=overflowing)  # fmt: skip

    def _pad_id(self, options: EncodeOptions) -> int | None:
        if options.padding is None:
            return None
        if PAD_TOKEN not in self._ids:
            raise ValueError(f'padding needs "{PAD_TOKEN}" in the vocabulary')
        return self._ids[PAD_TOKEN]

    def _pad(self, batch: list[Encoding], options: EncodeOptions, pad_id: int | None) -> list[Encoding]:
        if pad_id is None:
            return batch
        length = padding_length(batch, options)
        return [pad(encoding, length, pad_id, options.padding_side) for encoding in batch]

    def _encode_text(self, text: str) -> list[tuple[int, Offsets]]:
        """The ids and offsets of one text: special tokens kept whole, the rest tokenized."""
        out: list[tuple[int, Offsets]] = []
        start = 0
        for match in self._special_pattern.finditer(text) if self._special_pattern else ():
            out += self._encode_segment(text[start : match.start()], start)
            out.append((self._ids[match.group()], match.span()))
            start = match.end()
        return out + self._encode_segment(text[start:], start)

    def _encode_segment(self, segment: str, base: int) -> list[tuple[int, Offsets]]:
        """Normalizes, pre-tokenizes and WordPiece-encodes text without special tokens."""
        o = self._options
        normalized, origins = o.normalizer.normalize(segment)
        out = []
        for word_start, word_end in pre_tokenize(o.pre_tokenizer, normalized):
            word = normalized[word_start:word_end]
            for token, start, end in wordpiece(word, self._ids, o.unk_token, o.max_input_chars_per_word):
                first, last = origins[word_start + start], origins[word_start + end - 1]
                out.append((self._ids[token], (base + first, base + last + 1)))
        return out

    def _post_process(self, first: list[tuple[int, Offsets]], second: list[tuple[int, Offsets]] | None,
                      add_special_tokens: bool) -> Encoding:  # fmt: skip
        """``[CLS] A [SEP] B [SEP]`` (or ``A B``), type ids 0 up to the first ``[SEP]``, then 1."""
        cls, sep = self._cls_and_sep() if add_special_tokens else (None, None)
        rows: list[tuple[int, Offsets, int, int]] = []  # id, offsets, special, type id
        if cls is not None:
            rows.append((cls, (0, 0), 1, 0))
        for type_id, sequence in enumerate([first] if second is None else [first, second]):
            rows += [(id_, offsets, 0, type_id) for id_, offsets in sequence]
            if sep is not None:
                rows.append((sep, (0, 0), 1, type_id))
        ids, offsets, special, type_ids = (list(column) for column in zip(*rows)) if rows else ([], [], [], [])
        return Encoding(ids, [self._vocab[i] for i in ids], offsets, special, type_ids)

    def _cls_and_sep(self) -> tuple[int, int]:
        cls, sep = self._options.cls_token, self._options.sep_token
        if cls not in self._ids or sep not in self._ids:
            raise ValueError(f"cannot add special tokens: {cls!r} and {sep!r} must both be in the vocabulary "
                             "(pass add_special_tokens=False)")  # fmt: skip
        return self._ids[cls], self._ids[sep]

    # -- decoding (spec section 7) ---------------------------------------------

    def decode(self, ids: Iterable[int], skip_special_tokens: bool = False) -> str:
        """Turns ids back into text; an id outside the vocabulary is a ValueError."""
        return self._decode(self._checked_ids(ids, "ids"), _flag(skip_special_tokens, "skip_special_tokens"))

    def decode_batch(self, sequences: Iterable[Iterable[int]], skip_special_tokens: bool = False) -> list[str]:
        """``decode`` for each sequence of ids."""
        skip = _flag(skip_special_tokens, "skip_special_tokens")
        items = enumerate(_items(sequences, "sequences", "sequences of int"))
        return [self._decode(self._checked_ids(ids, f"sequences[{i}]"), skip) for i, ids in items]

    def _decode(self, ids: list[int], skip_special_tokens: bool) -> str:
        tokens = [self._vocab[i] for i in ids]
        return decode_tokens([t for t in tokens if t not in self._special_tokens] if skip_special_tokens else tokens)

    def _checked_ids(self, ids: object, name: str) -> list[int]:
        checked = []
        for i, id_ in enumerate(_items(ids, name, "int")):
            if isinstance(id_, bool) or not isinstance(id_, int):
                raise TypeError(f"{name}[{i}] must be int, not {_type_name(id_)}")
            if not 0 <= id_ < len(self._vocab):
                raise ValueError(f"{name}[{i}] = {id_} is out of range for a vocabulary of {len(self._vocab)} tokens")
            checked.append(id_)
        return checked

    # -- analysis (spec section 10) --------------------------------------------

    def analyze(self, texts: Iterable[str]) -> dict[str, int | float]:
        """What the tokenizer makes of ``texts``: counts and ratios (spec section 10)."""
        texts = [_text(text, f"texts[{i}]") for i, text in enumerate(_items(texts, "texts", "str"))]
        unk = self._ids[self._options.unk_token]
        tokens = unknown = words = characters = 0
        used: set[int] = set()
        for text in texts:
            ids = self.encode(text, add_special_tokens=False).ids
            tokens += len(ids)
            unknown += ids.count(unk)
            used.update(ids)
            for word in self._options.words(text):
                words += 1
                characters += len(word)

        def ratio(x: int, y: int) -> float:
            return x / y if y else 0.0

        vocab_size = len(self._vocab)
        return {"vocab_size": vocab_size, "texts": len(texts), "words": words, "characters": characters,
                "tokens": tokens, "unknown": unknown, "vocab_used": len(used),
                "tokens_per_word": ratio(tokens, words), "characters_per_token": ratio(characters, tokens),
                "unknown_rate": ratio(unknown, tokens), "vocab_used_share": ratio(len(used), vocab_size)}  # fmt: skip

    # -- the vocabulary --------------------------------------------------------

    def get_vocab(self) -> dict[str, int]:
        return dict(self._ids)

    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    @property
    def merges(self) -> list[Pair]:
        """The merges, in the order training made them."""
        return list(self._merges)

    @property
    def objective(self) -> str | None:
        """The training objective that made the vocabulary; None if not trained here."""
        return self._objective

    @property
    def special_tokens(self) -> list[str]:
        """The special tokens that are in the vocabulary, in the given order."""
        return list(self._special_tokens)

    @property
    def options(self) -> dict[str, Any]:
        """The pipeline options, as keyword arguments for the constructors."""
        return asdict(self._options)

    def token_to_id(self, token: str) -> int | None:
        return self._ids.get(_text(token, "token"))

    def id_to_token(self, id: int) -> str | None:  # noqa: A002  (the engine's name)
        """The token with this id; None past the vocabulary, ValueError if negative."""
        return self._vocab[id] if _integer(id, "id", 0) < len(self._vocab) else None

    def __eq__(self, other: object) -> bool:
        return self.to_json() == other.to_json() if isinstance(other, PyTokenizer) else NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        o = self._options
        return (f"PyTokenizer(vocab_size={self.vocab_size}, lowercase={o.lowercase}, strip_accents={o.strip_accents}, "
                f"pre_tokenizer={o.pre_tokenizer!r}, merges={len(self._merges)}, "
                f"objective={self._objective!r})")  # fmt: skip


def _pair(value: object, name: str) -> Pair:
    if not (isinstance(value, (tuple, list)) and len(value) == 2):
        raise TypeError(f"{name} must be a pair of str")
    return _text(value[0], f"{name}[0]"), _text(value[1], f"{name}[1]")


def _batch_item(item: object, name: str) -> tuple[str, str | None]:
    if isinstance(item, tuple) and len(item) != 2:
        raise TypeError(f"{name} must be str or a (str, str) pair")
    if isinstance(item, tuple):
        return _text(item[0], f"{name}[0]"), _text(item[1], f"{name}[1]")
    return _text(item, name), None


def _fields(value: object, names: Iterable[str], what: str) -> dict[str, Any]:
    """A JSON object that has exactly the fields ``names``."""
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a JSON object")
    missing, unknown = set(names) - value.keys(), value.keys() - set(names)
    if missing or unknown:
        raise ValueError(f"{what}: missing fields {sorted(missing)}, unknown fields {sorted(unknown)}")
    return value


def _from_document(document: object) -> PyTokenizer:
    """The tokenizer a parsed tokenizer file describes (TypeError or ValueError if malformed)."""
    names: tuple[str, ...] = ("format", "version", "vocab", "merges", "special_tokens", "options")
    if isinstance(document, dict) and "objective" in document:  # files written before it was recorded: "pmi"
        names += ("objective",)
    doc = _fields(document, names, "the file")
    objective = doc.get("objective", "pmi")
    if objective is not None and objective not in OBJECTIVES:
        raise ValueError(f"not a fast-wordpiece tokenizer file: unknown objective {objective!r}")
    if doc["format"] != FILE_FORMAT or type(doc["version"]) is not int or doc["version"] != FILE_VERSION:
        raise ValueError(f"unsupported format {doc['format']!r} version {doc['version']!r}")
    if not all(isinstance(doc[name], list) for name in ("vocab", "merges", "special_tokens")):
        raise ValueError("vocab, merges and special_tokens must be JSON arrays")
    options = _fields(doc["options"], Options.__dataclass_fields__, "options")
    tokenizer = PyTokenizer(doc["vocab"], merges=doc["merges"], special_tokens=doc["special_tokens"], **options)
    tokenizer._objective = objective
    return tokenizer


def _write_atomic(path: str, content: str) -> None:
    """Writes a temporary file beside ``path``, then renames it to ``path``."""
    directory, name = os.path.split(path)
    temporary = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8", newline="\n") as f:
            f.write(content)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise
