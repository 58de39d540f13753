"""``PyTokenizer``: the pipeline stages chained, training, files, encoding and decoding."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal, Union

from fast_wordpiece.batch_encoding import _is_numpy_bool
from fast_wordpiece.reference import hf_json, template
from fast_wordpiece.reference.args import (
    MAX_THREADS,
    TEXT_COUNTS,
    _corpus_texts,
    _flag,
    _id,
    _input_ids,
    _integer,
    _is_one_id,
    _items,
    _json_loads,
    _path,
    _quoted,
    _reject_mapping,
    _reject_mapping_corpus,
    _special_tokens,
    _StrPath,
    _text,
    _text_counts,
    _texts,
    _type_name,
    _vocab_ids,
)
from fast_wordpiece.reference.calling import BERT_INPUTS, TransformersCalls, _word_list, _words, str_list
from fast_wordpiece.reference.common import (
    CONTINUATION,
    DEFAULT_SPECIAL_TOKENS,
    FILE_FORMAT,
    FILE_VERSION,
    Offsets,
    Pair,
)
from fast_wordpiece.reference.counts import COUNT_OPTIONS, WordCounts, check_word, differing, effect, show
from fast_wordpiece.reference.decoder import clean_up_tokenization, decode_tokens
from fast_wordpiece.reference.encoding import Encoding
from fast_wordpiece.reference.files import load_parsed, read_utf8, write_atomic
from fast_wordpiece.reference.json_text import NotJson, shown
from fast_wordpiece.reference.model import wordpiece
from fast_wordpiece.reference.options import EncodeOptions, Options, check_each, pipeline_options
from fast_wordpiece.reference.padding import PAD_TOKEN, _import_numpy, numpy_arrays, pad, padding_length, ragged_batch
from fast_wordpiece.reference.pre_tokenizer import pre_tokenize
from fast_wordpiece.reference.stages import Decoder, Normalizer, PreTokenizer
from fast_wordpiece.reference.training import (
    OBJECTIVES,
    check_initial_alphabet,
    check_prefix,
    learn,
)
from fast_wordpiece.reference.truncation import merge, truncate
from fast_wordpiece.reference.unicode import REGEX_WORD, WHITESPACE
from fast_wordpiece.train_new import train_new_from_iterator as _train_new

# A token of one text before post-processing: its id, offsets and word.
#: id, offsets, word, and for an added token the text it was matched as (Hugging Face shows it as the token)
Row = tuple[int, Offsets, int, Union[str, None]]
_ENCODE_RETURN_TENSORS = (
    "encode() got an unexpected keyword argument 'return_tensors': encode returns a tokenizers-style "
    "Encoding; call the tokenizer, tok(text, return_tensors=...), for transformers' arrays"
)

# One text of an input: as written, or split into words.
Text = Union[str, Sequence[str]]


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
    initial_alphabet: tuple[str, ...]

    @staticmethod
    def check(vocab_size: object, min_frequency: object, special_tokens: object, show_progress: object,
              options: dict[str, Any], objective: object = None, limit_alphabet: object = None,
              initial_alphabet: object = None, function: str = "train") -> _TrainingArgs:  # fmt: skip
        """The arguments in the engine's order (after ``show_progress`` and the corpus, which the
        callers check first): the sizes, the special tokens, the objective, the alphabet, then
        the pipeline options (an unexpected one named as ``function``'s) and the continuation prefix."""
        sizes = (_integer(vocab_size, "vocab_size", 1),
                 2 if min_frequency is None else _integer(min_frequency, "min_frequency", 0))  # fmt: skip
        specials = _special_tokens(special_tokens)
        if objective is not None and not isinstance(objective, str):
            raise TypeError(f"objective must be a str, not {_type_name(objective)}")
        if objective is not None and _text(objective, "objective") not in OBJECTIVES:  # a lone surrogate named
            raise ValueError(f'objective must be "likelihood", "pmi" or "frequency", not {_quoted(objective)}')
        limit = None if limit_alphabet is None else _integer(limit_alphabet, "limit_alphabet", 1)
        initial = check_initial_alphabet(initial_alphabet)
        checked = pipeline_options(options, function)
        check_prefix(checked.continuing_subword_prefix)
        objective = "likelihood" if objective is None else objective
        return _TrainingArgs(*sizes, specials, _flag(show_progress, "show_progress"), checked, objective, limit,
                             initial)  # fmt: skip

    def learn(self, counts: Mapping[str, int], counted: bool = True) -> PyTokenizer:
        """Trains on ``counts``; ``counted``: the words come from counting (else each is checked,
        after the special tokens, as the engine does)."""
        if self.options.unk_token not in self.special_tokens:
            unk, specials = _quoted(self.options.unk_token), ", ".join(_quoted(t) for t in self.special_tokens)
            raise ValueError(f"unk_token {unk} must be one of the special tokens [{specials}]")
        for word in counts:
            if not counted and word:  # empty words are dropped: they hold no pair
                check_word(word)
        vocab, merges = learn(counts, self.vocab_size, self.min_frequency, self.special_tokens, self.show_progress,
                              self.objective, self.limit_alphabet, self.initial_alphabet,
                              self.options.continuing_subword_prefix)  # fmt: skip
        tokenizer = PyTokenizer(vocab, merges=merges, special_tokens=self.special_tokens, **asdict(self.options))
        tokenizer._objective = self.objective
        return tokenizer


class PyTokenizer(TransformersCalls):
    """A WordPiece tokenizer with BERT's pipeline.

    ``vocab`` lists the tokens, the id of a token being its position. Those of
    ``special_tokens`` that are in the vocabulary are kept whole where a text
    contains them, and ``decode(..., skip_special_tokens=True)`` drops them.
    The keyword ``options`` are the fields of :class:`Options`.
    """

    def __init__(self, vocab: Iterable[str], *, merges: Iterable[Pair | list[str]] | None = None,
                 special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS, **options: Any) -> None:  # fmt: skip
        self._setup(_texts(vocab, "vocab"), set(), set(), merges, special_tokens, options, "PyTokenizer")

    @staticmethod
    def _from_parts(slots: list[str | None], outside_model: set[int], merges: Iterable[Pair] | None,
                    special_tokens: Sequence[str] | None, options: dict[str, Any]) -> PyTokenizer:  # fmt: skip
        """A tokenizer whose vocabulary may skip ids (``None`` slots) and hold tokens that the
        model does not match inside words (``outside_model``), as a Hugging Face file may."""
        tokenizer = PyTokenizer.__new__(PyTokenizer)
        holes = {id_ for id_, token in enumerate(slots) if token is None}
        tokenizer._setup([token or "" for token in slots], holes, outside_model, merges, special_tokens, options)
        return tokenizer

    def _setup(self, vocab: list[str], holes: set[int], outside_model: set[int],
               merges: Iterable[Pair | list[str]] | None, special_tokens: Sequence[str] | None, options: dict[str, Any],
               function: str = "PyTokenizer") -> None:  # fmt: skip
        self._vocab = vocab
        self._holes, self._outside_model = frozenset(holes), frozenset(outside_model)
        given_merges = _items([] if merges is None else merges, "merges", "pairs")  # never asked for its truth
        self._merges = [_pair(pair, f"merges[{i}]") for i, pair in enumerate(given_merges)]
        given_special_tokens = _special_tokens(special_tokens)
        self._options = pipeline_options(options, function)
        self._ids = _vocab_ids(vocab, self._holes)
        bad = next((id_ for id_ in sorted(outside_model) if id_ >= len(vocab) or id_ in holes), None)
        if bad is not None:
            raise ValueError(f"no token has id {bad}, which is listed outside the model")
        self._model_ids = {token: id_ for token, id_ in self._ids.items() if id_ not in self._outside_model}
        self._truncation: dict[str, Any] | None = None
        self._padding: dict[str, Any] | None = None
        if self._options.unk_token not in self._ids:
            raise ValueError(f"unk_token {_quoted(self._options.unk_token)} is not in the vocabulary")
        # The post-processor's template; without its special tokens when BERT's are missing.
        o, self._missing_specials = self._options, False
        # The template's ids that are holes of the vocabulary, with its token of each (see compile_template).
        self._unassigned: dict[int, str] = {}
        if isinstance(o.post_processor, dict):
            slots = [None if id_ in self._holes else token for id_, token in enumerate(vocab)]
            single, pair, self._unassigned = template.compile_template(o.post_processor, slots)
            self._template = (single, pair)
        elif o.post_processor == "bert" and o.cls_token in self._ids and o.sep_token in self._ids:
            self._template = template.bert(self._ids[o.cls_token], self._ids[o.sep_token])
        else:
            self._template, self._missing_specials = template.PLAIN, o.post_processor == "bert"
        self._special_tokens = [token for token in given_special_tokens if token in self._ids]
        self._added: list[dict[str, Any]] = []  # added tokens other than the plain special tokens
        self._special_pattern = _Matcher.of([(t, {"content": t}) for t in self._special_tokens])
        self._normalized_pattern: _Matcher | None = None
        self._decoded_as: dict[int, str] = {}  # a normalized added token the normalizer changes: its normalized form
        # What earlier add_tokens calls left behind, as in Hugging Face's added vocabulary (not saved in files):
        # contents once added as special (still special for decoding and split_special_tokens), and once added
        # normalized (still decoded in their normalized form).
        self._history: dict[str, list[str]] = {"specials": [], "normalized": []}
        self._objective: str | None = None

    def _with_added_tokens(self, tokens: list[dict[str, Any]]) -> PyTokenizer:
        """This tokenizer with more added tokens ``{"content", "special", "normalized"}`` and the flags
        ``single_word``, ``lstrip``, ``rstrip`` when true (spec section 10): each in the vocabulary, a
        normalized one matched by its normalized form; special ones join ``special_tokens``."""
        for t in tokens:
            self._append_added(t)
        return self._rematched()

    def _append_added(self, t: dict[str, Any]) -> None:
        """Appends one added token to ``_added`` (``_with_added_tokens`` without matching it yet)."""
        content = t["content"]
        if content not in self._ids:
            raise ValueError(f"added token {_quoted(content)} is not in the vocabulary")
        if not content or content in self._special_tokens or any(a["content"] == content for a in self._added):
            raise ValueError(f"added token {_quoted(content)} is empty or listed twice")
        self._added.append(_added_dict(t))

    def _rematched(self) -> PyTokenizer:
        """The special tokens and the matchers of the added tokens, made again from ``_added``."""
        # In the order they were added (a file's order when read): of two tokens that match the same text, the
        # first one added wins, as in Hugging Face's added vocabulary.
        added = {a["content"] for a in self._added}
        self._special_tokens = [t for t in self._special_tokens if t not in added]
        self._special_tokens += [a["content"] for a in self._added if a["special"]]
        raw = [(t, {"content": t}) for t in self._special_tokens if t not in added]
        raw += [(a["content"], a) for a in self._added if not a["normalized"]]
        self._special_pattern = _Matcher.of(raw)
        normalize = self._options.normalizer.normalize
        normalized = [(normalize(a["content"])[0], a) for a in self._added if a["normalized"]]
        self._normalized_pattern = _Matcher.of(normalized)
        once = [(normalize(t)[0], {"content": t}) for t in self._history["normalized"]]
        self._decoded_as = {self._ids[a["content"]]: n for n, a in normalized + once if n != a["content"]}
        return self

    def _is_special(self, token: str) -> bool:
        """A special token, or an added token that was special once (for decoding and split_special_tokens)."""
        return token in self._special_tokens or token in self._history["specials"]

    def add_tokens(self, new_tokens: object, special_tokens: bool = False) -> int:
        """Hugging Face's ``add_tokens`` (spec section 10): ``new_tokens``, each a str or an ``AddedToken``; a token the
        vocabulary lacks gets the next id, outside the model; one it has keeps its id. Returns how many
        were added: all but the empty ones and those already added alike."""
        return self._add(_added_tokens(new_tokens, _flag(special_tokens, "special_tokens"), "add_tokens", "new_tokens"))

    def add_special_tokens(self, special_tokens_dict: object, replace_extra_special_tokens: bool = True) -> int:
        """``add_tokens`` with every token of ``special_tokens_dict`` special (not normalized unless an
        ``AddedToken`` says so); a list
        extends ``extra_special_tokens``. Also transformers' dict: "additional_special_tokens" /
        "extra_special_tokens" (a list, which replaces ``extra_special_tokens`` as in transformers),
        "mask_token", "bos_token", "eos_token", "pad_token" (a token, which becomes that token: padding
        inserts the pad token), and the pipeline's "unk_token", "sep_token", "cls_token" only as they are.
        An empty named token is a ValueError. ``replace_extra_special_tokens=False`` (transformers 5's
        keyword) makes a dict's list extend ``extra_special_tokens`` instead, leaving out (not adding again, flags
        and all) the tokens already among them."""
        replace = _flag(replace_extra_special_tokens, "replace_extra_special_tokens")
        if not isinstance(special_tokens_dict, dict):
            given = _added_tokens(special_tokens_dict, True, "add_special_tokens", "special_tokens_dict")
            count = self._add(given)
            contents = [t["content"] for t in given]
            self._extra_special_tokens = self._extra_special_tokens + [
                t for i, t in enumerate(contents) if t not in self._extra_special_tokens and t not in contents[:i]
            ]
            return count
        to_add: list[dict[str, Any]] = []
        named: dict[str, str] = {}
        extra: list[str] = []
        o = self._options
        current = {"unk_token": o.unk_token, "sep_token": o.sep_token, "cls_token": o.cls_token}
        for key, value in _in_transformers_order(special_tokens_dict):
            if not isinstance(key, str):
                raise TypeError(f"add_special_tokens: the keys must be str, not {type(key).__name__}")
            if key in ("additional_special_tokens", "extra_special_tokens"):
                if isinstance(value, (str, bytes, bytearray)):
                    raise TypeError(f"add_special_tokens: {key} must be an iterable of str or AddedToken, "
                                    f"not {type(value).__name__}")  # fmt: skip
                given = _added_tokens(value, True, "add_special_tokens", key)
                if not replace:  # those it has already stay as they are
                    given = [t for t in given if t["content"] not in self._extra_special_tokens]
                extra += [t["content"] for t in given]
                to_add += given
                continue
            if key not in ("mask_token", "bos_token", "eos_token", "pad_token", *current):
                raise ValueError(f"add_special_tokens: unknown key {_quoted(key)} (the keys are "
                                 "additional_special_tokens, extra_special_tokens, mask_token, bos_token, "
                                 "eos_token, unk_token, sep_token, cls_token and pad_token)")  # fmt: skip
            if not (isinstance(value, str) or hasattr(value, "content")):
                raise TypeError(f"add_special_tokens: {key} must be a str or an AddedToken, not {_type_name(value)}")
            token = _added_tokens(value, True, "add_special_tokens", key)[0]
            if not token["content"]:
                raise ValueError(f"add_special_tokens: {key} must not be empty")
            if key in current:
                if token["content"] != current[key]:
                    raise ValueError(f"add_special_tokens: {key} {_quoted(token['content'])} "
                                     f"is not supported: it is the pipeline's, {_quoted(current[key])} (the keys "
                                     "that add tokens are additional_special_tokens, extra_special_tokens, "
                                     "mask_token, bos_token, eos_token and pad_token)")  # fmt: skip
                continue
            named[key] = token["content"]
            to_add.append(token)
        count = self._add(to_add)
        for key, content in named.items():
            if key == "pad_token":
                self._pad_with(content)
            else:
                setattr(self, "_" + key, content)
        if extra and replace:
            self._extra_special_tokens = extra
        elif extra:
            self._extra_special_tokens = self._extra_special_tokens + [
                t for i, t in enumerate(extra) if t not in self._extra_special_tokens and t not in extra[:i]
            ]
        return count

    def _add(self, tokens: list[dict[str, Any]]) -> int:
        history = {key: list(values) for key, values in self._history.items()}
        added = [dict(a) for a in self._added]
        plain = self._plain_special_tokens()
        appended: list[str] = []
        count = 0
        for t in tokens:
            content = t["content"]
            if not content:
                continue
            at = next((i for i, a in enumerate(added) if a["content"] == content), None)
            current = added[at] if at is not None else {"content": content, "special": True, "normalized": False} \
                if content in plain else None  # fmt: skip
            if current == t:
                continue
            count += 1
            if content not in self._ids and content not in appended:
                appended.append(content)
            if current is not None:
                for key, flag in (("specials", "special"), ("normalized", "normalized")):
                    if current[flag] and content not in history[key]:
                        history[key].append(content)
            t = _added_dict(t)
            if at is not None:
                added[at] = t
            else:
                plain = [p for p in plain if p != content]
                added.append(t)
        if count == 0:
            return 0
        slots: list[str | None] = [None if id_ in self._holes else token for id_, token in enumerate(self._vocab)]
        outside = set(self._outside_model) | set(range(len(slots), len(slots) + len(appended)))
        new = PyTokenizer._from_parts(slots + list(appended), outside, self._merges, plain, asdict(self._options))
        new = new._with_defaults(self._truncation, self._padding)
        new._history = history
        new = new._with_added_tokens(added)
        new._objective = self._objective
        self.__dict__.update(new.__dict__)
        return count

    def _with_options(self, options: dict[str, Any]) -> PyTokenizer:
        """This tokenizer with other pipeline options: the same vocabulary, special and added tokens (normalized
        ones matched by what the new normalizer makes of them), default truncation and padding."""
        slots: list[str | None] = [None if id_ in self._holes else token for id_, token in enumerate(self._vocab)]
        new = PyTokenizer._from_parts(slots, set(self._outside_model), self._merges, self._plain_special_tokens(),
                                      options)  # fmt: skip
        new = new._with_defaults(self._truncation, self._padding)
        new._history = {key: list(values) for key, values in self._history.items()}
        new = new._with_added_tokens([dict(a) for a in self._added])
        new._objective = self._objective
        return new

    def _plain_special_tokens(self) -> list[str]:
        """The special tokens that are not added tokens (those given to the constructor)."""
        added = {a["content"] for a in self._added}
        return [t for t in self._special_tokens if t not in added]

    # -- training (spec section 4) ---------------------------------------------

    @staticmethod
    def train(corpus: Iterable[str] | Iterable[Iterable[str]], vocab_size: int = 30000,
              min_frequency: int | None = 2, *,
              special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS, objective: str | None = None,
              limit_alphabet: int | None = None, initial_alphabet: Iterable[str] | None = None,
              show_progress: bool = True, **options: Any) -> PyTokenizer:  # fmt: skip
        """Learns a vocabulary of ``vocab_size`` tokens (default 30,000) from an iterable of texts and
        of batches of texts (a list of str is read as its texts)."""
        _flag(show_progress, "show_progress")
        items = _items(corpus, "corpus", "str")
        _reject_mapping_corpus(corpus, "corpus")
        args = _TrainingArgs.check(vocab_size, min_frequency, special_tokens, show_progress, options, objective,
                                   limit_alphabet, initial_alphabet)  # fmt: skip
        counts: Counter[str] = Counter()
        for text in _corpus_texts(items, "corpus"):
            counts.update(args.options.words(text))
        return args.learn(counts)

    @staticmethod
    def train_from_counts(counts: WordCounts | Mapping[str, int] | Iterable[tuple[str, int]],
                          vocab_size: int = 30000, min_frequency: int | None = 2, *,
                          special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS, objective: str | None = None,
                          limit_alphabet: int | None = None, initial_alphabet: Iterable[str] | None = None,
                          show_progress: bool = True, **options: Any) -> PyTokenizer:  # fmt: skip
        """``train`` on ``{word: count}`` or ``(word, count)`` pairs (a word given twice is summed, a count
        of 0 is a word not seen), the words being already normalized and pre-tokenized, or on a
        ``WordCounts``, whose counting options training takes (an explicit one that differs: ValueError)."""
        _flag(show_progress, "show_progress")
        if isinstance(counts, WordCounts):
            made_with = counts.options
            args = _TrainingArgs.check(vocab_size, min_frequency, special_tokens, show_progress,
                                       {**made_with, **options}, objective, limit_alphabet,
                                       initial_alphabet, "train_from_counts")  # fmt: skip
            given = {name: getattr(args.options, name) for name in COUNT_OPTIONS}
            for name in differing(made_with, given):
                raise ValueError(f"the word counts were made with {name}={show(effect(made_with, name))}, "
                                 f"not {name}={show(effect(given, name))}")  # fmt: skip
            return args.learn(dict(counts.items()))
        checked: dict[str, int] = {}
        for word, n in sorted(_text_counts(counts, "counts", f"a WordCounts, {TEXT_COUNTS}", 0)):
            checked[word] = checked.get(word, 0) + n
            if checked[word] >= 2**64:
                raise ValueError(f"the counts of {_quoted(word)} add up to more than 2**64 - 1")
        args = _TrainingArgs.check(vocab_size, min_frequency, special_tokens, show_progress, options, objective,
                                   limit_alphabet, initial_alphabet, "train_from_counts")  # fmt: skip
        return args.learn(checked, counted=False)

    def train_new_from_iterator(self, text_iterator: Any, vocab_size: int, length: int | None = None,
                                new_special_tokens: Iterable[Any] | None = None,
                                special_tokens_map: Mapping[str, str] | None = None,
                                **kwargs: Any) -> PyTokenizer:  # fmt: skip
        """transformers' ``train_new_from_iterator``: this tokenizer's pipeline, special tokens and call
        settings, a vocabulary learned by ``train`` (fast_wordpiece.train_new, shared with the engine)."""
        new: PyTokenizer = _train_new(self, text_iterator, vocab_size, length, new_special_tokens,
                                      special_tokens_map, **kwargs)  # fmt: skip
        return new

    # -- files -----------------------------------------------------------------

    @staticmethod
    def from_vocab_file(path: _StrPath, *, special_tokens: Sequence[str] | None = DEFAULT_SPECIAL_TOKENS,
                        **options: Any) -> PyTokenizer:  # fmt: skip
        """Reads a BERT ``vocab.txt``: one token per line, the id being the line number from 0. With BERT's
        post-processing (the default), a vocabulary without its ``cls_token`` or ``sep_token`` is a ValueError
        at once."""
        unk = pipeline_options(options, "from_vocab_file").unk_token  # an unexpected keyword before the file
        file = _path(path)
        vocab = _read_vocab(file)
        try:
            tokenizer = PyTokenizer(vocab, special_tokens=special_tokens, **options)
        except ValueError as e:  # the unk_token the file lacks is named by the file, as its other errors
            if not str(e).startswith("unk_token ") or unk in vocab:
                raise
            raise ValueError(f"{os.fsdecode(file)}: {e}") from None
        if tokenizer._missing_specials:  # a vocab.txt is BERT's: the tokens its post-processing adds are needed
            o = tokenizer._options
            token = o.cls_token if o.cls_token not in tokenizer._ids else o.sep_token
            raise ValueError(f"{os.fsdecode(file)}: {_quoted(token)} is not in the vocabulary, and BERT's "
                             'post-processing adds it (pass post_processor="none" to load the vocabulary '
                             "without it)")  # fmt: skip
        return tokenizer

    def to_json(self) -> str:
        """The tokenizer in our own format (every option, any pre-tokenizer), as the engine writes it too."""
        document: dict[str, Any] = {"format": FILE_FORMAT, "version": FILE_VERSION, "vocab": self._vocab,
                                    "merges": self._merges, "special_tokens": self._plain_special_tokens(),
                                    "options": self.options}  # fmt: skip
        if self._holes:
            document["holes"] = sorted(self._holes)
        if self._outside_model:
            document["outside_model"] = sorted(self._outside_model)
        if self._added:  # after the holes, as the engine writes it
            document["added_tokens"] = self._added
        if self._truncation is not None:
            document["truncation"] = hf_json.truncation_json(self._truncation)
        if self._padding is not None:
            document["padding"] = hf_json.padding_json(self.padding)
        document["objective"] = self._objective
        return json.dumps(document, ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def from_json(json_text: str) -> PyTokenizer:
        """The tokenizer that the content of a tokenizer file describes (either format)."""
        return PyTokenizer.from_str(json_text)

    @staticmethod
    def from_str(json_text: str) -> PyTokenizer:
        """A tokenizer from a Hugging Face ``tokenizer.json`` or a file in our own format (spec section 10).
        Its ``padding_side`` and ``truncation_side`` are the ``direction`` of the file's ``padding`` and
        ``truncation`` sections, else ``"right"``, as transformers takes them from a tokenizer file."""
        tokenizer = PyTokenizer._read(json_text)
        if tokenizer.padding is not None:
            tokenizer.padding_side = tokenizer.padding["direction"]
        if tokenizer.truncation is not None:
            tokenizer.truncation_side = tokenizer.truncation["direction"]
        return tokenizer

    @staticmethod
    def _read(json_text: str) -> PyTokenizer:
        """``from_str`` but for the call's sides."""
        _text(json_text, "json")
        try:
            document = _json_loads(json_text)
        except json.JSONDecodeError as e:
            document = None
            if isinstance(e, NotJson) and e.surrogate:
                # The engine looks for "format" without reading the strings, then reads its format.
                with contextlib.suppress(json.JSONDecodeError):
                    peek = _json_loads(json_text, lone_surrogates=True)
                    if isinstance(peek, dict) and "format" in peek:
                        raise ValueError(f"not a fast-wordpiece tokenizer file: {e}") from None
        if not (isinstance(document, dict) and "format" in document):
            parsed = hf_json.parse(json_text)
            tokenizer = PyTokenizer._from_parts(parsed.slots, parsed.outside_model, parsed.merges,
                                                parsed.special_tokens, parsed.options)  # fmt: skip
            for path, token in parsed.added:
                try:
                    tokenizer._append_added(token)
                except ValueError as e:
                    raise ValueError(f"{path}: {e}") from None
            tokenizer._rematched()  # once: matching them as each is read took minutes for 1,644 tokens
            tokenizer = tokenizer._with_defaults(parsed.truncation, parsed.padding)
            tokenizer._objective = parsed.objective
            return tokenizer
        try:
            return _from_document(document)
        except (TypeError, ValueError) as e:
            raise ValueError(f"not a fast-wordpiece tokenizer file: {e}") from None

    def to_str(self, pretty: bool = False) -> str:
        """The Hugging Face ``tokenizer.json`` that ``save`` writes: on one line unless ``pretty=True``,
        as Hugging Face's ``to_str``."""
        pretty = _flag(pretty, "pretty")
        slots = [None if id_ in self._holes else token for id_, token in enumerate(self._vocab)]
        return hf_json.dump(slots, set(self._outside_model), self._plain_special_tokens(), self._added, self._merges,
                            self.options, self._truncation, self.padding, self._objective, pretty)  # fmt: skip

    def save(self, path: _StrPath, pretty: bool = True) -> None:
        """Writes the tokenizer as a Hugging Face ``tokenizer.json``, atomically; indented unless
        ``pretty=False``, as Hugging Face's ``save``."""
        path, pretty = _path(path), _flag(pretty, "pretty")
        _write_atomic(path, self.to_str(pretty))

    @staticmethod
    def from_file(path: _StrPath) -> PyTokenizer:
        """Reads a Hugging Face ``tokenizer.json`` or a file in our own format."""
        return load_parsed(_path(path), PyTokenizer.from_str)

    @staticmethod
    def load(path: _StrPath) -> PyTokenizer:
        """``from_file``, the older name."""
        return PyTokenizer.from_file(path)

    def save_vocab(self, path: _StrPath) -> None:
        """Writes the vocabulary as a BERT ``vocab.txt``, atomically. The file holds the tokens
        only: a ``continuing_subword_prefix`` other than ``"##"`` is read back by
        ``from_vocab_file(path, continuing_subword_prefix=...)``."""
        path = _path(path)
        if self._holes:
            raise ValueError(f"no token has id {min(self._holes)}: a vocab.txt cannot skip ids "
                             "(save the tokenizer.json instead)")  # fmt: skip
        i = _unwritable_line(self._vocab)
        if i is not None:
            raise ValueError(f"token {i} ({_quoted(self._vocab[i])}) holds a line break: a line of a vocab.txt "
                             "cannot hold it (save the tokenizer.json instead)")  # fmt: skip
        _write_atomic(path, "".join(token + "\n" for token in self._vocab))

    # -- model directories (spec section 10) -------------------------------------

    @staticmethod
    def from_pretrained(pretrained_model_name_or_path: _StrPath, **kwargs: Any) -> PyTokenizer:
        """A tokenizer from a local model directory (``pretrained_model_name_or_path``, transformers'
        name): its ``tokenizer.json``, or its ``vocab.txt`` with
        ``tokenizer_config.json`` (and ``special_tokens_map.json``, ``added_tokens.json``), with the added and
        special tokens the directory configures (those the vocabulary lacks get the next ids, as in
        transformers); ``model_max_length``, ``padding_side``, ``truncation_side`` and
        ``clean_up_tokenization_spaces`` from ``tokenizer_config.json``. A directory that transformers loads
        with a BERT class rebuilds the pipeline of its ``tokenizer.json`` from ``do_lower_case``,
        ``strip_accents`` and ``tokenize_chinese_chars``, as transformers does. Keyword arguments override the
        config's keys, as in transformers: those keys, the special tokens, ``model_max_length``,
        ``padding_side``, ``truncation_side``, ``clean_up_tokenization_spaces``, ``split_special_tokens``,
        ``model_input_names`` (a list of str: the inputs the call returns by default; without it, those of
        transformers' class for the directory, ``token_type_ids`` left out for DistilBERT's and the generic
        one); ``subfolder`` reads the directory's subdirectory of that name (a model repository's
        ``tokenizer/``); the hub's (``use_fast``, ``local_files_only``, ``revision``, ``cache_dir``, ...) are
        ignored. Never downloads."""
        path = model_dir(pretrained_model_name_or_path, kwargs)
        overrides = _pretrained_overrides(kwargs)
        tokenizer = PyTokenizer._from_directory(path, overrides)
        for key, value in _call_settings(path, overrides).items():
            setattr(tokenizer, key, value)
        tokenizer._model_input_names = _model_input_names(path, overrides)
        named, extra = _configured(path, overrides)
        content = {key: None if t is None else t["content"] for key, t, _ in named}
        tokenizer._bos_token, tokenizer._eos_token = content["bos_token"], content["eos_token"]
        tokenizer._mask_token = content["mask_token"]
        tokenizer._extra_special_tokens = [t["content"] for t in extra]
        tokenizer._name_or_path = _path(pretrained_model_name_or_path)
        return tokenizer

    @staticmethod
    def _from_directory(directory: _StrPath, overrides: dict[str, Any]) -> PyTokenizer:
        path = _path(directory)
        check_directory(path)
        named, extra = _configured(path, overrides)
        configured = [t for _, t, _ in named if t is not None] + extra
        config_path = os.path.join(path, "tokenizer_config.json")
        config = {**_read_object(config_path), **overrides}
        if os.path.isfile(os.path.join(path, "tokenizer.json")):
            tokenizer = PyTokenizer.from_file(os.path.join(path, "tokenizer.json"))
            if _loads_as_bert(path, config):
                # transformers' BERT classes keep the file's vocabulary, added tokens and default truncation and
                # padding, and build the rest as BertTokenizer does, from the configuration.
                tokens = {key: t["content"] for key, t, _ in named if t is not None}
                normalizer = _bert_normalizer(config, config_path)
                split = _optional_bool(config.get("split_special_tokens"), config_path, "split_special_tokens")
                options = {**asdict(Options()), **normalizer,
                           "unk_token": tokens["unk_token"], "cls_token": tokens["cls_token"],
                           "sep_token": tokens["sep_token"],
                           "split_special_tokens": split if split is not None
                           else tokenizer._options.split_special_tokens}  # fmt: skip
                tokenizer = tokenizer._with_options(options)
            # As transformers does: the directory's added tokens (in id order, with the next ids) and the
            # configured special tokens that the file lacks among its added tokens are added (a token its
            # vocabulary has keeps its id, and is then matched in raw text as a special token, as
            # transformers' add_tokens makes it).
            missing: list[dict[str, Any]] = [t for _, t, _ in _directory_added_tokens(path, config)]
            for t in configured:
                known = t["content"] in tokenizer._special_tokens or any(
                    a["content"] == t["content"] for a in tokenizer._added
                )
                if not known and all(m["content"] != t["content"] for m in missing):
                    missing.append(t)
            if missing:
                tokenizer._add(missing)
            pad = next(t for key, t, _ in named if key == "pad_token")
            if pad is not None and _names_pad_token(path, overrides):
                tokenizer._pad_with(pad["content"])
            return tokenizer

        def flag(key: str, default: bool) -> bool:
            value = _optional_bool(config.get(key), config_path, key)
            return default if value is None else value

        strip_accents = _optional_bool(config.get("strip_accents"), config_path, "strip_accents")
        options = {"lowercase": flag("do_lower_case", True), "strip_accents": strip_accents,
                   "handle_chinese_chars": flag("tokenize_chinese_chars", True),
                   "split_special_tokens": flag("split_special_tokens", False)}  # fmt: skip
        content = {key: t["content"] for key, t, _ in named if t is not None}
        added = _directory_added_tokens(path, config)
        file = os.path.join(path, "vocab.txt")
        if not os.path.exists(file):
            json_path = os.path.join(path, "tokenizer.json")
            if os.path.isdir(json_path):
                raise IsADirectoryError(errno.EISDIR, "a model directory's tokenizer.json must be a file, and this "
                                        "one is a directory (and there is no vocab.txt)", json_path)  # fmt: skip
            raise FileNotFoundError(errno.ENOENT, "a model directory needs a tokenizer.json or a vocab.txt, and this "
                                    "one has neither", file)  # fmt: skip
        vocab = _read_vocab(file)
        ids = set(vocab)
        # transformers appends what the vocabulary lacks: the added tokens in id order, then the named
        # special tokens, then the extra ones.
        appended: list[str] = []
        for t in [t for _, t, _ in added] + configured:
            if t["content"] not in ids and t["content"] not in appended:
                appended.append(t["content"])
        # Named tokens the vocabulary has, given as plain strings, are the plain special tokens.
        plain: list[str] = []
        for key in ("pad_token", "unk_token", "cls_token", "sep_token", "mask_token", "bos_token", "eos_token"):
            token, flagged = next((t, f) for k, t, f in named if k == key)
            if token is not None and not flagged and token["content"] in ids and token["content"] not in plain:
                plain.append(token["content"])
        # The directory's added tokens keep their flags; the other configured tokens become special added
        # tokens, unless they are plain.
        in_added = {t["content"] for _, t, _ in added}
        to_add = [t for _, t, _ in added] + [t for t in configured if t["content"] not in in_added | set(plain)]
        options.update(unk_token=content["unk_token"], cls_token=content["cls_token"], sep_token=content["sep_token"],
                       pad_token=content["pad_token"])  # fmt: skip
        outside = set(range(len(vocab), len(vocab) + len(appended)))
        slots: list[str | None] = [*vocab, *appended]
        tokenizer = PyTokenizer._from_parts(slots, outside, None, plain, options)
        if to_add:
            tokenizer._add(to_add)
        for id_, t, file in added:
            got = tokenizer._ids[t["content"]]
            if got != id_:
                raise ValueError(f"{file}: added token {shown(t['content'])} has id {id_}, "
                                 f"but the vocabulary and the added tokens before it give it {got}")  # fmt: skip
        return tokenizer

    def save_pretrained(
        self,
        save_directory: _StrPath,
        legacy_format: bool | None = None,
        filename_prefix: str | None = None,
        push_to_hub: bool = False,
        save_format: Literal["hf"] | None = None,
    ) -> list[str]:
        """Writes ``tokenizer.json``, ``vocab.txt`` (unless the ids have holes, the continuation prefix is not
        ``"##"``, which a vocab.txt cannot record, or a token holds a line break), ``tokenizer_config.json`` (with
        ``model_max_length`` when set, ``padding_side``, ``truncation_side``, the special tokens,
        ``extra_special_tokens`` among them, and the model's inputs) and ``special_tokens_map.json`` into
        ``save_directory`` (created if needed); returns their paths. transformers' ``legacy_format`` is taken and
        ignored (None or a bool); a ``filename_prefix`` other than None or ``""`` and ``push_to_hub=True`` are
        ValueErrors."""
        path = _path(save_directory, "save_directory")
        save_keywords(legacy_format, filename_prefix, push_to_hub, save_format)
        os.makedirs(path, exist_ok=True)
        written = [os.path.join(path, "tokenizer.json")]
        self.save(written[0])
        if (not self._holes and self._options.continuing_subword_prefix == CONTINUATION
                and _unwritable_line(self._vocab) is None):  # fmt: skip
            written.append(os.path.join(path, "vocab.txt"))
            self.save_vocab(written[-1])
        o = self._options
        tokens = {"pad_token": o.pad_token, "unk_token": o.unk_token, "cls_token": o.cls_token,
                  "sep_token": o.sep_token, "mask_token": self._mask_token, "bos_token": self._bos_token,
                  "eos_token": self._eos_token}  # fmt: skip
        special_map: dict[str, Any] = {key: token for key, token in tokens.items() if token in self._ids}
        extra = [token for token in self._extra_special_tokens if token in self._ids]
        config: dict[str, Any] = {"tokenizer_class": "PreTrainedTokenizerFast", "do_lower_case": o.lowercase,
                                  "strip_accents": o.strip_accents, "tokenize_chinese_chars": o.handle_chinese_chars,
                                  "clean_up_tokenization_spaces": self.clean_up_tokenization_spaces,
                                  "split_special_tokens": o.split_special_tokens,
                                  "padding_side": self.padding_side, "truncation_side": self.truncation_side,
                                  "model_input_names": self.model_input_names}  # fmt: skip
        if self._model_max_length is not None:
            config["model_max_length"] = self._model_max_length
        elif self._truncation is not None:
            config["model_max_length"] = self._truncation["max_length"]
        return written + write_config_files(path, config, special_map, extra)

    def __reduce__(self) -> tuple[Any, tuple[str], dict[str, Any]]:
        return PyTokenizer.from_json, (self.to_json(),), self._call_settings()

    # -- encoding (spec sections 5 and 6) --------------------------------------

    def encode(self, text: str | Sequence[str], pair: str | Sequence[str] | None = None,
               add_special_tokens: bool = True, *, is_pretokenized: bool = False, max_length: int | None = None,
               truncation: bool | str | None = "longest_first", stride: int = 0, truncation_side: str = "right",
               padding: str | None = None, pad_to_multiple_of: int | None = None, padding_side: str = "right",
               **unexpected: Any) -> Encoding:  # fmt: skip
        """The encoding of ``text``, or of the pair; ``[CLS] text [SEP] pair [SEP]`` with special tokens.
        Truncation and padding as in spec section 9 (``truncation`` also transformers' bools); with
        ``is_pretokenized``, ``text`` and ``pair`` are lists of words. The arguments are checked in
        order, the positional ones first (an ``is_pretokenized`` that is no bool leaves the texts unread
        until its error), then an unexpected keyword, then the keywords in the order of the signature,
        then what they ask together."""
        early = None
        if isinstance(is_pretokenized, bool) or _is_numpy_bool(is_pretokenized):
            early = _encode_input(text, pair, bool(is_pretokenized))
        _flag(add_special_tokens, "add_special_tokens")
        for key in unexpected:
            if key == "return_tensors":
                if unexpected[key] is None:
                    continue  # transformers' default: nothing asked
                raise TypeError(_ENCODE_RETURN_TENSORS)
            raise TypeError(f"encode() got an unexpected keyword argument {key!r}")
        pretokenized = _flag(is_pretokenized, "is_pretokenized")
        strategy, max_length = self._truncation_argument(truncation, max_length)
        options = EncodeOptions(add_special_tokens, max_length, strategy, stride, truncation_side, padding,
                                pad_to_multiple_of, padding_side)  # fmt: skip
        first, second = _encode_input(text, pair, pretokenized) if early is None else early
        options = self._processed(options)
        self._check_stride(options)
        pad_id = self._pad_id(options)
        return self._pad([self._encode_one(first, second, options)], options, pad_id)[0]

    def _truncation_argument(self, truncation: object, max_length: Any) -> tuple[str, Any]:
        """``truncation`` and ``max_length`` as strategies name them: transformers' True is
        ``"longest_first"``, to ``model_max_length`` (when set) without ``max_length``; False is
        ``"do_not_truncate"``; None is the default. ``max_length`` is checked first, as it comes first
        in the signature."""
        if max_length is not None:
            max_length = _integer(max_length, "max_length", 0)
        if truncation is None:
            return "longest_first", max_length
        if isinstance(truncation, bool) or _is_numpy_bool(truncation):
            if not truncation:
                return "do_not_truncate", max_length
            return "longest_first", self._model_max_length if max_length is None else max_length
        if not isinstance(truncation, str):
            raise TypeError(f"truncation must be bool, str or None, not {_type_name(truncation)}")
        return truncation, max_length

    def _processed(self, options: EncodeOptions) -> EncodeOptions:
        """``options`` with the default truncation and padding where the call gives none (spec section
        10), and without ``add_special_tokens`` when the post-processor adds nothing."""
        t, p = self._truncation, self._padding
        if t is not None and options.max_length is None and options.truncation != "do_not_truncate":
            options = replace(options, max_length=t["max_length"], truncation=t["strategy"], stride=t["stride"],
                              truncation_side=t["direction"])  # fmt: skip
        if p is not None and options.padding is None:
            options = replace(options, padding="longest" if p["length"] is None else "max_length",
                              pad_length=p["length"], pad_to_multiple_of=p["pad_to_multiple_of"],
                              padding_side=p["direction"])  # fmt: skip
        return options

    def _check_stride(self, options: EncodeOptions) -> None:
        """A stride of at most max_length minus the special tokens this tokenizer's post-processor
        adds to one text (Hugging Face's check; a window that must then be cut is refused when
        truncating, and so is a max_length below the special tokens)."""
        if options.truncates and options.stride > 0:
            added = self._added_count(False) if options.add_special_tokens else 0
            room = options.max_length - added  # type: ignore[operator]
            if 0 < room < options.stride:  # no room at all cuts no windows: the stride is moot
                raise ValueError(f"stride must be at most max_length minus the {added} special tokens ({room}), "
                                 f"got {options.stride}")  # fmt: skip

    # -- the pipeline's first stages as objects -------------------------------

    @property
    def normalizer(self) -> Normalizer:
        """The normalizer (a ``Normalizer``, read-only), as Hugging Face's ``Tokenizer.normalizer``."""
        return Normalizer.of(self._options)

    @property
    def pre_tokenizer(self) -> PreTokenizer:
        """The pre-tokenizer (a ``PreTokenizer``, read-only), as Hugging Face's
        ``Tokenizer.pre_tokenizer``."""
        return PreTokenizer(self._options.pre_tokenizer)

    @property
    def decoder(self) -> Decoder | None:
        """The decoder (a ``Decoder``, read-only), or None for ``decoder="none"`` (the tokens joined with
        spaces), as Hugging Face's ``Tokenizer.decoder``."""
        return Decoder.of(self._options)

    # -- defaults from a Hugging Face file (spec section 10) --------------------

    @property
    def truncation(self) -> dict[str, Any] | None:
        """The truncation used when a call gives none."""
        return None if self._truncation is None else dict(self._truncation)

    @property
    def padding(self) -> dict[str, Any] | None:
        """The padding used when a call gives none (``length`` None: the longest of the batch), with the
        pad token padding inserts now."""
        if self._padding is None:
            return None
        token = self._options.pad_token
        return {**self._padding, "pad_id": self._ids.get(token), "pad_token": token}

    def enable_truncation(self, max_length: int, stride: int = 0, strategy: str = "longest_first",
                          direction: str = "right") -> None:  # fmt: skip
        """Truncates to ``max_length`` tokens by default from now on, as Hugging Face's
        ``enable_truncation`` does (a call's own ``max_length`` or ``truncation=False`` still wins)."""
        checked_length, checked_stride = _integer(max_length, "max_length", 0), _integer(stride, "stride", 0)
        name = str.__str__(_text(strategy, "strategy"))
        if name not in ("longest_first", "only_first", "only_second"):
            raise ValueError(f'strategy must be "longest_first", "only_first" or "only_second", not {_quoted(name)}')
        truncation: dict[str, Any] = {"max_length": checked_length, "stride": checked_stride, "strategy": name,
                                      "direction": _direction(direction)}  # fmt: skip
        if error := self._stride_error(truncation):
            raise ValueError(error)
        self._set_defaults(self._with_defaults(truncation, self._padding))

    def enable_padding(self, direction: str = "right", pad_id: int | None = None, pad_type_id: int = 0,
                       pad_token: str | None = None, length: int | None = None,
                       pad_to_multiple_of: int | None = None) -> None:  # fmt: skip
        """Pads by default from now on, as Hugging Face's ``enable_padding`` does: to ``length`` tokens,
        or without one to the longest of the batch, then up to a multiple of ``pad_to_multiple_of`` (None
        or 0: none); with ``pad_token`` (the tokenizer's pad token when left out, which it then becomes).
        ``pad_id``, when given, must be the pad token's id, and ``pad_type_id`` 0."""
        side = _direction(direction)
        given_id = None if pad_id is None else _integer(pad_id, "pad_id", 0)
        if _integer(pad_type_id, "pad_type_id", 0) != 0:
            raise ValueError("pad_type_id must be 0: padding gives the pad token type id 0, as transformers does")
        token = self._options.pad_token if pad_token is None else str.__str__(_text(pad_token, "pad_token"))
        fixed = None if length is None else _integer(length, "length", 0)
        # 0 pads to no multiple, as in Hugging Face (and in a file's padding section)
        multiple = None if pad_to_multiple_of is None else _integer(pad_to_multiple_of, "pad_to_multiple_of", 0) or None
        if token == "":
            raise ValueError("pad_token must not be empty")
        token_id = self._ids.get(token)
        if token_id is None:
            raise ValueError(f"pad_token {_quoted(token)} is not in the vocabulary: padding inserts it")
        if given_id is not None and given_id != token_id:
            raise ValueError(f"pad_id {given_id} is not the id of the pad token {_quoted(token)} ({token_id}): "
                             "padding inserts the token with its id")  # fmt: skip
        padding = {"length": fixed, "pad_to_multiple_of": multiple, "pad_id": token_id, "pad_token": token,
                   "pad_type_id": 0, "direction": side}  # fmt: skip
        changed = self._with_defaults(self._truncation, padding)
        changed._pad_with(token)
        self._set_defaults(changed)

    def no_truncation(self) -> PyTokenizer:
        """Truncates no more by default (Hugging Face's ``no_truncation``); returns this tokenizer, so
        that calls chain."""
        self._set_defaults(self._with_defaults(None, self._padding))
        return self

    def no_padding(self) -> PyTokenizer:
        """Pads no more by default (Hugging Face's ``no_padding``); returns this tokenizer, so that
        calls chain."""
        self._set_defaults(self._with_defaults(self._truncation, None))
        return self

    def _set_defaults(self, changed: PyTokenizer) -> None:
        """Takes the defaults and the pad token of ``changed`` (a checked copy of this tokenizer)."""
        self._truncation, self._padding, self._options = changed._truncation, changed._padding, changed._options

    def _with_defaults(self, truncation: dict[str, Any] | None, padding: dict[str, Any] | None) -> PyTokenizer:
        if truncation is not None and (error := self._stride_error(truncation)):
            raise ValueError(f"truncation: {error}")
        copy = PyTokenizer.__new__(PyTokenizer)
        copy.__dict__.update(self.__dict__)
        copy._truncation, copy._padding = truncation, padding
        return copy

    def _stride_error(self, truncation: dict[str, Any]) -> str | None:
        """What is wrong with the stride of a default truncation: it must be at most max_length minus the
        special tokens of one text (Hugging Face's check)."""
        added, stride = self._added_count(False), truncation["stride"]
        room = truncation["max_length"] - added
        if stride > 0 and 0 <= room < stride:
            return f"stride must be at most max_length minus the {added} special tokens ({room}), got {stride}"
        return None

    def _added_count(self, pair: bool) -> int:
        """The special tokens post-processing adds to one text or a pair (0 when BERT's are missing)."""
        return 0 if self._missing_specials else template.added(self._template[pair])

    def encode_batch_fast(self, inputs: Iterable[Any], is_pretokenized: bool = False,
                          add_special_tokens: bool = True) -> list[Encoding]:  # fmt: skip
        """``encode_batch`` with Hugging Face's ``encode_batch_fast`` signature (``is_pretokenized``
        before ``add_special_tokens``): a list of Encoding, with the default truncation and padding.
        Hugging Face's leaves out the offsets and tokens; these are whole."""
        return self.encode_batch(inputs, add_special_tokens, is_pretokenized=is_pretokenized)  # type: ignore[no-any-return]

    def encode_batch(self, inputs: Iterable[Any], add_special_tokens: bool = True, *,
                     is_pretokenized: bool = False, max_length: int | None = None,
                     truncation: bool | str | None = "longest_first", stride: int = 0,
                     truncation_side: str = "right", padding: str | None = None,
                     pad_to_multiple_of: int | None = None, padding_side: str = "right",
                     return_tensors: str | None = None, num_threads: int | None = None,
                     return_offsets: bool = False, return_token_type_ids: bool = False,
                     return_special_tokens_mask: bool = False, **unexpected: Any) -> Any:  # fmt: skip
        """``encode`` for each item, a str or a ``(text, pair)`` tuple (with ``is_pretokenized``, a list
        of words or a pair of them), then padding of the whole batch;
        a list of Encoding, or with ``return_tensors="np"`` a dict of numpy arrays (padded; the
        special-tokens mask on request) or a RaggedBatch (not padded: flat columns, the ``return_*``
        ones on request). ``num_threads`` is
        checked and otherwise ignored: the twin runs on one thread."""
        # Checked as encode checks them: add_special_tokens, an unexpected keyword, the keywords in the
        # order of the signature, then what they ask together.
        _flag(add_special_tokens, "add_special_tokens")
        for key in unexpected:
            raise TypeError(f"encode_batch() got an unexpected keyword argument {key!r}")
        pretokenized = _flag(is_pretokenized, "is_pretokenized")
        strategy, max_length = self._truncation_argument(truncation, max_length)
        check_each(max_length, strategy, stride, truncation_side, padding, pad_to_multiple_of, padding_side)
        if return_tensors is not None and _text(return_tensors, "return_tensors") != "np":
            raise ValueError(f'return_tensors must be None or "np", not {return_tensors!r}')
        if num_threads is not None and _integer(num_threads, "num_threads", 1) > MAX_THREADS:
            raise ValueError(f"num_threads must be between 1 and {MAX_THREADS}, not {num_threads}")
        fields = {"offsets": return_offsets, "token_type_ids": return_token_type_ids,
                  "special_tokens_mask": return_special_tokens_mask}  # fmt: skip
        for name, value in fields.items():
            fields[name] = _flag(value, f"return_{name}")
        options = EncodeOptions(add_special_tokens, max_length, strategy, stride, truncation_side, padding,
                                pad_to_multiple_of, padding_side)  # fmt: skip
        options = self._processed(options)
        if any(fields.values()) and return_tensors is None:
            raise ValueError(
                "return_offsets, return_token_type_ids and return_special_tokens_mask are for "
                'return_tensors="np" (an Encoding holds every field)'
            )
        if return_tensors is not None:
            _import_numpy()
        texts: list[tuple[Text, Text | None]]
        _reject_mapping(inputs, "inputs")
        if pretokenized:
            texts = [_words(item, f"inputs[{i}]") for i, item in enumerate(_items(inputs, "inputs", "list of words"))]
        else:
            texts = [_batch_item(item, f"inputs[{i}]") for i, item in enumerate(_items(inputs, "inputs", "str"))]
        batch = self._encode_batch(texts, options)
        if return_tensors is None:
            return batch
        if options.padding is None:
            return ragged_batch(batch, **fields)
        return numpy_arrays(batch, special_tokens_mask=fields["special_tokens_mask"])

    def _encode_batch(self, inputs: Sequence[tuple[Text, Text | None]], options: EncodeOptions) -> list[Encoding]:
        """Each input (texts, or lists of words) encoded, truncated and post-processed, then padded."""
        self._check_stride(options)
        self._specials(options.add_special_tokens)
        pad_id = self._pad_id(options)
        batch = []
        for i, (text, pair) in enumerate(inputs):
            try:
                batch.append(self._encode_one(text, pair, options))
            except ValueError as e:
                raise ValueError(f"inputs[{i}]: {e}") from None
        return self._pad(batch, options, pad_id)

    def _unpadded_tokens(self, text: str, pair: str | None, add_special_tokens: bool) -> list[str]:
        """The tokens of ``text`` (and ``pair``), neither truncated nor padded (``tokenize``'s)."""
        first, second = _encode_input(text, pair, False)
        return list(self._encode_one(first, second, EncodeOptions(add_special_tokens)).tokens)

    def _encode_one(self, text: Text, pair: Text | None, options: EncodeOptions) -> Encoding:
        """One input, truncated (spec section 9) and post-processed."""
        first = self._encode_input(text)
        second = None if pair is None else self._encode_input(pair)
        specials = self._specials(options.add_special_tokens)
        if not options.truncates:
            return self._post_process(first, second, specials)
        added = self._added_count(second is not None) if specials else 0
        a, b = truncate(self._sequence(first), None if second is None else self._sequence(second), options, added)
        return self._process_windows(a, b, specials)

    def _sequence(self, rows: list[Row]) -> Encoding:
        """Raw tokens as an Encoding: type ids 0, masks 0, sequence 0."""
        ids = [row[0] for row in rows]
        return Encoding(ids, self._tokens(rows), [row[1] for row in rows], [0] * len(ids), [0] * len(ids),
                        word_ids=[row[2] for row in rows], sequence_ids=[0] * len(ids))  # fmt: skip

    def _tokens(self, rows: list[Row]) -> list[str]:
        """Each row's token: the text an added token was matched as, else the vocabulary's."""
        return [self._vocab[id_] if shown is None else shown for id_, _, _, shown in rows]

    def _process_windows(self, a: Encoding, b: Encoding | None, specials: bool) -> Encoding:
        """The template's pieces joined left to right by ``merge`` (Hugging Face's ``Encoding::merge``), a
        sequence's windows being its overflowing encodings. In a window, a sequence's tokens keep type id 0
        (first) or 1 (second) whatever the template says; only the kept window gets the template's."""
        n_sequences = 1 if b is None else 2

        def part(e: Encoding, k: int, type_id: int) -> Encoding:
            columns = e._columns()
            columns["type_ids"], columns["sequence_ids"] = [type_id] * len(e), [k] * len(e)
            windows = [part(w, k, k) for w in e.overflowing]
            return Encoding._from_columns(columns, windows, n_sequences=n_sequences)

        out: Encoding | None = None
        for kind, what, type_id in self._template[b is not None]:
            if kind == "sequence":
                sequence = a if what == 0 else b
                assert sequence is not None
                piece = part(sequence, what, type_id)  # type: ignore[arg-type]
            elif specials:
                ids: list[int] = what  # type: ignore[assignment]
                n = len(ids)
                piece = Encoding(ids, [self._unassigned.get(i, self._vocab[i]) for i in ids], [(0, 0)] * n, [1] * n,
                                 [type_id] * n,
                                 n_sequences=n_sequences)  # fmt: skip
            else:
                continue
            out = piece if out is None else merge(out, piece, n_sequences)
        assert out is not None
        return out

    def _pad_id(self, options: EncodeOptions) -> int | None:
        if options.padding is None:
            return None
        token = self._options.pad_token
        if token not in self._ids:
            raise ValueError(f"padding needs {_quoted(token)} in the vocabulary")
        return self._ids[token]

    def _pad(self, batch: list[Encoding], options: EncodeOptions, pad_id: int | None) -> list[Encoding]:
        if pad_id is None:
            return batch
        length = padding_length(batch, options)
        token = self._options.pad_token
        return [pad(encoding, length, pad_id, options.padding_side, token) for encoding in batch]

    def _encode_input(self, text: Text) -> list[Row]:
        """A text, or a text split into words: each word encoded on its own, all its tokens word number
        ``i`` and their offsets into the word (an empty word keeps its number)."""
        if isinstance(text, str):
            return self._encode_text(text)
        return [(id_, offsets, i, shown) for i, word in enumerate(text)
                for id_, offsets, _, shown in self._encode_text(word)]  # fmt: skip

    def _encode_text(self, text: str) -> list[Row]:
        """The ids, offsets and words of one text: special tokens kept whole (each a word of its own), the
        rest tokenized; words are numbered from 0 in order."""
        out: list[Row] = []
        start = 0
        for content, (begin, end) in self._special_pattern.kept(text, self._is_split) if self._special_pattern else ():
            self._encode_segment(text[start:begin], start, out)
            out.append((self._ids[content], (begin, end), _next_word(out), text[begin:end]))
            start = end
        self._encode_segment(text[start:], start, out)
        return out

    def _encode_segment(self, segment: str, base: int, out: list[Row]) -> None:
        """Normalizes, pre-tokenizes and WordPiece-encodes text without special tokens, appending to ``out``;
        added tokens matched in the normalized text are kept whole, each a word (spec section 10)."""
        normalized, origins = self._options.normalizer.normalize(segment)
        start = 0
        matches = self._normalized_pattern.kept(normalized, self._is_split) if self._normalized_pattern else ()
        for content, (begin, end) in matches:
            self._encode_words(normalized, origins, start, begin, base, out)
            first, last = origins[begin], origins[end - 1]
            out.append((self._ids[content], (base + first, base + last + 1), _next_word(out), normalized[begin:end]))
            start = end
        self._encode_words(normalized, origins, start, len(normalized), base, out)

    def _is_split(self, token: str) -> bool:
        """Whether a match of this added token is plain text (a special token, with ``split_special_tokens``)."""
        return self._options.split_special_tokens and self._is_special(token)

    def _encode_words(self, normalized: str, origins: list[int], begin: int, stop: int, base: int,
                      out: list[Row]) -> None:  # fmt: skip
        """Pre-tokenizes and WordPiece-encodes ``normalized[begin:stop]``, each word numbered in turn."""
        o = self._options
        for word_start, word_end in pre_tokenize(o.pre_tokenizer, normalized[begin:stop]):
            word_start, word_end = word_start + begin, word_end + begin
            word, word_index = normalized[word_start:word_end], _next_word(out)
            pieces = wordpiece(word, self._model_ids, o.unk_token, o.max_input_chars_per_word,
                               o.continuing_subword_prefix)  # fmt: skip
            for token, start, end in pieces:
                first, last = origins[word_start + start], origins[word_start + end - 1]
                out.append((self._ids[token], (base + first, base + last + 1), word_index, None))

    def _post_process(self, first: list[Row], second: list[Row] | None, specials: bool) -> Encoding:
        """The template's pieces in order: each sequence's tokens with the piece's type id, and the special
        tokens (when ``specials``) with theirs."""
        # id, offsets, special, type id, word, sequence, token
        rows: list[tuple[int, Offsets, int, int, int | None, int | None, str]] = []
        for kind, what, type_id in self._template[second is not None]:
            if kind == "sequence":
                sequence = first if what == 0 else second
                assert sequence is not None
                tokens = self._tokens(sequence)
                rows += [(id_, offsets, 0, type_id, word, what, token)  # type: ignore[misc]
                         for (id_, offsets, word, _), token in zip(sequence, tokens)]  # fmt: skip
            elif specials:
                special_ids: list[int] = what  # type: ignore[assignment]
                shown = [self._unassigned.get(id_, self._vocab[id_]) for id_ in special_ids]
                rows += [(id_, (0, 0), 1, type_id, None, None, token) for id_, token in zip(special_ids, shown)]
        ids = [row[0] for row in rows]
        return Encoding(ids, [row[6] for row in rows], [row[1] for row in rows], [row[2] for row in rows],
                        [row[3] for row in rows], word_ids=[row[4] for row in rows],
                        sequence_ids=[row[5] for row in rows], n_sequences=1 if second is None else 2)  # fmt: skip

    def _specials(self, add_special_tokens: bool) -> bool:
        """Whether post-processing adds the special tokens; an error if BERT's are missing and it should."""
        if add_special_tokens and self._missing_specials:
            cls, sep = self._options.cls_token, self._options.sep_token
            raise ValueError(f"cannot add special tokens: {_quoted(cls)} and {_quoted(sep)} must both be in the "
                             "vocabulary (pass add_special_tokens=False)")  # fmt: skip
        return add_special_tokens

    # -- decoding (spec section 7) ---------------------------------------------

    def decode(self, token_ids: Any, skip_special_tokens: bool = False,
               clean_up_tokenization_spaces: bool | None = None,
               spaces_between_special_tokens: bool = True) -> Any:  # fmt: skip
        """Turns ids back into text; an id outside the vocabulary is a ValueError. As in transformers,
        ``token_ids`` may also be one int, or a batch (a list of sequences, or a 2-D array: then a list of
        texts); an ``Encoding`` (what ``encode`` returns) is decoded as its ids, a dict or a
        ``BatchEncoding`` of one text as its ``"input_ids"``;
        ``clean_up_tokenization_spaces`` (None: the tokenizer's) applies transformers' clean-up;
        ``spaces_between_special_tokens`` (a bool) changes nothing, as in transformers 5's fast tokenizers."""
        skip = _flag(skip_special_tokens, "skip_special_tokens")
        _flag(spaces_between_special_tokens, "spaces_between_special_tokens")
        ids, name = _input_ids(token_ids)
        if name == "token_ids" and _is_batch(ids):
            return self._decode_sequences(ids, skip, clean_up_tokenization_spaces, one_ids=True)
        text = self._decode(self._one_or_more_ids(ids, name), skip)
        return clean_up_tokenization(text) if self._cleans_up(clean_up_tokenization_spaces) else text

    def decode_batch(self, sequences: Iterable[Iterable[int]], skip_special_tokens: bool = False,
                     clean_up_tokenization_spaces: bool | None = None) -> list[str]:  # fmt: skip
        """``decode`` for each sequence of ids (or ``Encoding``) of ``sequences``. One id where a
        sequence goes is a TypeError, as in Hugging Face ``tokenizers`` (decode one sequence with
        ``decode``)."""
        skip = _flag(skip_special_tokens, "skip_special_tokens")
        return self._decode_sequences(sequences, skip, clean_up_tokenization_spaces, one_ids=False)

    def _decode_sequences(self, sequences: object, skip: bool, clean_up_tokenization_spaces: object,
                          one_ids: bool) -> list[str]:  # fmt: skip
        """The texts of ``sequences``, each decoded as ``decode`` decodes it; with ``one_ids``, an item
        may be one id (transformers' ``decode`` of a batch decodes it alone), else that is a
        TypeError (``decode_batch``)."""
        clean_up = self._cleans_up(clean_up_tokenization_spaces)
        texts = []
        for i, ids in enumerate(_items(sequences, "sequences", "sequences of int")):
            if not one_ids and _is_one_id(ids):
                raise TypeError(f"sequences[{i}] must be a sequence of int, not {_type_name(ids)} "
                                "(decode one sequence with decode)")  # fmt: skip
            texts.append(self._decode(self._one_or_more_ids(ids, f"sequences[{i}]"), skip))
        return [clean_up_tokenization(text) for text in texts] if clean_up else texts

    def _cleans_up(self, clean_up_tokenization_spaces: object) -> bool:
        if clean_up_tokenization_spaces is None:
            return bool(self.clean_up_tokenization_spaces)
        return _flag(clean_up_tokenization_spaces, "clean_up_tokenization_spaces")

    def _decode(self, ids: list[int], skip_special_tokens: bool) -> str:
        # A special token shown in its normalized form is not skipped (Hugging Face looks the shown
        # string up among the special tokens).
        specials = self._special_tokens + self._history["specials"]
        special = {self._ids[t] for t in specials} - set(self._decoded_as) if skip_special_tokens else set()
        # The template's ids that no token has are left out, as Hugging Face does.
        kept = [self._decoded_as.get(i, self._vocab[i]) for i in ids if i not in special and i not in self._unassigned]
        if self._options.decoder == "none":
            return " ".join(kept)
        return decode_tokens(kept, self._options.continuing_subword_prefix, self._options.decoder_cleanup)

    def _one_or_more_ids(self, ids: object, name: str) -> list[int]:
        """One id (an int or an integer scalar, as ``_is_one_id`` tells) as a list, an ``Encoding``'s ids,
        or a sequence of ids."""
        if isinstance(ids, Encoding):
            found: list[int] = ids.ids
            bad = next((i for i in found if i >= len(self._vocab)), None)
            if bad is not None:
                raise ValueError(f"{name}: id {bad} is out of range for a vocabulary of {len(self._vocab)} tokens")
            return found
        if _is_one_id(ids):
            return [self._checked_id(ids, name, unassigned=True)]
        return self._checked_ids(ids, name, unassigned=True)

    def _checked_ids(self, ids: object, name: str, unassigned: bool = False) -> list[int]:
        return [self._checked_id(id_, f"{name}[{i}]", unassigned) for i, id_ in enumerate(_items(ids, name, "int"))]

    def _checked_id(self, id_: object, name: str, unassigned: bool = False) -> int:
        """An id of a token; with ``unassigned`` (decoding), also an id the template adds that no token has."""
        # An integer scalar is taken as an index is (numpy's int64, a 0-d integer array), as the engine takes it.
        id_ = _id(id_, name, len(self._vocab))
        if id_ in self._holes and not (unassigned and id_ in self._unassigned):
            raise ValueError(f"id {id_} is not in the vocabulary: no token has it (the vocabulary's "
                             f"{len(self._vocab)} ids skip it)")  # fmt: skip
        return id_

    # -- analysis (spec section 12) --------------------------------------------

    def analyze(self, texts: Iterable[str]) -> dict[str, int | float]:
        """What the tokenizer makes of ``texts``: counts and ratios (spec section 12)."""
        items = _items(texts, "texts", "str")
        _reject_mapping(texts, "texts")
        texts = [_text(text, f"texts[{i}]") for i, text in enumerate(items)]
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

    def get_vocab(self, with_added_tokens: bool = True) -> dict[str, int]:
        """``{token: id}`` for the whole vocabulary; without ``with_added_tokens``, only the model's
        (as Hugging Face ``tokenizers``' ``get_vocab``)."""
        return dict(self._ids) if _flag(with_added_tokens, "with_added_tokens") else dict(self._model_ids)

    def get_vocab_size(self, with_added_tokens: bool = True) -> int:
        """The number of tokens, as Hugging Face ``tokenizers``' ``get_vocab_size``: with
        ``with_added_tokens`` (the default) every token of ``get_vocab()``; without, only the model's
        vocabulary (not the added tokens outside it, such as those ``add_tokens`` appends)."""
        return len(self._ids) if _flag(with_added_tokens, "with_added_tokens") else len(self._model_ids)

    @property
    def vocab_size(self) -> int:
        """The number of tokens in the model's vocabulary, as transformers' ``vocab_size``: the added
        tokens outside it (those ``add_tokens`` appends) are left out, and so are ids no token has.
        ``len()`` counts every token."""
        return len(self._model_ids)

    @property
    def word_cache(self) -> bool:
        """The engine's cache of chunks already encoded, on or off. The twin has no cache: the
        setting is kept and changes nothing (the output is the same either way)."""
        return getattr(self, "_word_cache", True)

    @word_cache.setter
    def word_cache(self, value: bool) -> None:
        self._word_cache = _flag(value, "word_cache")

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
        """The id of ``token``, or None; TypeError unless it is a str."""
        return self._ids.get(_text(token, "token"))

    def id_to_token(self, id: int) -> str | None:  # noqa: A002  (the engine's name)
        """The token with this id; None past the vocabulary, ValueError if negative. An added token the
        normalizer changes is given in its normalized form, as encodings show it."""
        number = _integer(id, "id", 0)
        if number >= len(self._vocab) or number in self._holes:
            return None
        return self._decoded_as.get(number, self._vocab[number])

    def __eq__(self, other: object) -> bool:
        return self._compared() == other._compared() if isinstance(other, PyTokenizer) else NotImplemented

    def _compared(self) -> dict[str, Any]:
        """What equality compares, as the engine: the file, with only what tokenizes differently of the
        special and added tokens. The plain special tokens are matched together whatever their order, so
        they are sorted; of the added tokens, the order they were added in decides only between tokens that
        match the same text (the same content in the raw text, or the same normalized form in the
        normalized text), so they are sorted by what they match, stably."""
        normalize = self._options.normalizer.normalize
        document: dict[str, Any] = json.loads(self.to_json())
        document["special_tokens"] = sorted(document["special_tokens"])
        document["added_tokens"] = sorted(
            self._added,
            key=lambda a: (a["normalized"], normalize(a["content"])[0] if a["normalized"] else a["content"]),
        )
        return document

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        o = self._options
        return (f"PyTokenizer(vocab_size={self.vocab_size}, lowercase={o.lowercase}, strip_accents={o.strip_accents}, "
                f"pre_tokenizer={o.pre_tokenizer!r}, merges={len(self._merges)}, "
                f"objective={self._objective!r})")  # fmt: skip


def _leftmost_longest(tokens: list[str]) -> re.Pattern[str] | None:
    """A pattern whose leftmost match is the longest of ``tokens`` there (longest alternatives first)."""
    longest_first = sorted(tokens, key=lambda t: len(t.encode()), reverse=True)
    return re.compile("|".join(map(re.escape, longest_first))) if longest_first else None


_FLAGS = ("single_word", "lstrip", "rstrip")


def _direction(value: object) -> str:
    """``"left"`` or ``"right"`` (the ``direction`` of ``enable_truncation`` and ``enable_padding``)."""
    side = str.__str__(_text(value, "direction"))
    if side not in ("left", "right"):
        raise ValueError(f'direction must be "left" or "right", not {_quoted(side)}')
    return side


def _unwritable_line(vocab: Sequence[str]) -> int | None:
    """The id of the first token that a line of a ``vocab.txt`` cannot hold: one with a line break (``\\n``,
    or ``\\r``, which Python's text files also break at). A token ending in whitespace is written as it is."""
    return next((i for i, token in enumerate(vocab) if "\n" in token or "\r" in token), None)


def _read_vocab(path: str) -> list[str]:
    """The tokens of a BERT ``vocab.txt``, in id order."""
    lines = read_utf8(path).split("\n")
    if lines[-1] == "":  # the line break that ends the last line
        lines.pop()
    if not lines:
        raise ValueError(f"{path}: empty vocabulary file")
    vocab = [line.rstrip(WHITESPACE) for line in lines]  # as Hugging Face trims them
    try:
        _vocab_ids(vocab)
    except ValueError as e:
        raise ValueError(f"{path}: {e} (ids are line numbers from 0)") from None
    return vocab


# transformers' named special tokens, in its order, with BERT's defaults.
_NAMED_KEYS = (("bos_token", None), ("eos_token", None), ("unk_token", "[UNK]"), ("sep_token", "[SEP]"),
               ("pad_token", PAD_TOKEN), ("cls_token", "[CLS]"), ("mask_token", "[MASK]"))  # fmt: skip


def _optional_bool(value: object, path: str, key: str) -> bool | None:
    """An optional bool of a model directory's JSON file ``path``: absent or null is None; anything but true
    or false is a ValueError naming the file and ``key``."""
    if value is None or isinstance(value, bool):
        return value
    raise ValueError(f"{path}: {key}: expected true or false, found {shown(value)}")


def _non_empty(token: dict[str, Any], path: str, key: str) -> dict[str, Any]:
    """A configured special token, unless it is empty: transformers would list an empty one among the
    special tokens with the unknown token's id (and pad or begin sequences with that id), so it is refused."""
    if not token["content"]:
        raise ValueError(f"{path}: {key}: an empty special token is not supported")
    return token


def _special_token(value: object, path: str, key: str) -> dict[str, Any]:
    """A special token as a model directory gives it: a string, or an object with "content" and the flags.
    Special, and not normalized unless the object says so."""
    if isinstance(value, str):
        return _added_dict({"content": value, "special": True, "normalized": False})
    if not isinstance(value, dict) or not isinstance(value.get("content"), str):
        raise ValueError(f'{path}: {key}: expected a string or an object with "content", found '
                         f"{shown(value)}")  # fmt: skip

    def flag(name: str) -> bool:
        return bool(_optional_bool(value.get(name), path, f"{key}.{name}"))

    return _added_dict({"content": value["content"], "special": True, "normalized": flag("normalized"),
                        **{name: flag(name) for name in _FLAGS}})  # fmt: skip


#: from_pretrained's keyword arguments that only say where to find a model on the hub (or how to run its code),
#: and mean nothing for a local directory: accepted and ignored, as transformers 5 ignores ``use_fast``.
LOADER_KEYWORDS = ("use_fast", "local_files_only", "revision", "trust_remote_code", "cache_dir", "force_download",
                   "token", "proxies", "use_auth_token", "resume_download", "_from_auto", "_from_pipeline",
                   "_commit_hash")  # fmt: skip


def model_dir(directory: _StrPath, kwargs: Mapping[str, Any]) -> str:
    """from_pretrained's directory: ``directory`` (its ``pretrained_model_name_or_path``), or its
    subdirectory named by the ``subfolder`` keyword (a str
    or os.PathLike; None or ``""``: none), as transformers reads a model repository's ``tokenizer/``. A
    subfolder missing from a directory that exists is a FileNotFoundError saying so."""
    path = _path(directory, "pretrained_model_name_or_path")
    sub = kwargs.get("subfolder")
    if sub is None:
        return path
    if isinstance(sub, str):
        _text(sub, "subfolder")  # a lone surrogate: the ValueError naming it
    sub = _path(sub, "subfolder")
    if sub == "":
        return path
    joined = os.path.join(path, sub)
    if os.path.isdir(path) and not os.path.exists(joined):
        raise FileNotFoundError(errno.ENOENT, f"{_quoted(path)} has no subfolder {_quoted(sub)}", joined)
    return joined


def save_keywords(legacy_format: Any, filename_prefix: Any, push_to_hub: Any, save_format: Any = None) -> None:
    """save_pretrained's transformers keywords: ``legacy_format`` (None or a bool, ignored), ``filename_prefix``
    (None or ``""``: transformers would write ``prefix-tokenizer.json``, which no loader reads back),
    ``push_to_hub`` (None or a bool; nothing is uploaded) and ``save_format`` (None or ``"hf"``;
    transformers' ``"mistral"`` is a ValueError)."""
    if legacy_format is not None:
        _flag(legacy_format, "legacy_format")
    if filename_prefix is not None and _text(filename_prefix, "filename_prefix") != "":
        raise ValueError(f"filename_prefix {_quoted(filename_prefix)} is not supported: from_pretrained (ours and "
                         "transformers') reads the files without a prefix; save into a directory of its own "
                         "instead")  # fmt: skip
    if push_to_hub is not None and _flag(push_to_hub, "push_to_hub"):
        raise ValueError("push_to_hub=True is not supported: save_pretrained never uploads; upload the directory "
                         "with huggingface_hub.upload_folder(repo_id=..., folder_path=directory)")  # fmt: skip
    if save_format is not None:
        if not isinstance(save_format, str):
            raise TypeError(f"save_format must be str or None, not {_type_name(save_format)}")
        if _text(save_format, "save_format") == "mistral":
            raise ValueError(
                'save_format "mistral" is not supported: save_pretrained writes Hugging Face\'s files ("hf")'
            )
        if save_format != "hf":
            raise ValueError(f'save_format must be "hf" (or transformers\' "mistral"), not {_quoted(save_format)}')


_TOKEN_KEYWORDS = ("unk_token", "sep_token", "pad_token", "cls_token", "mask_token", "bos_token", "eos_token")
_FLAG_KEYWORDS = ("do_lower_case", "tokenize_chinese_chars", "clean_up_tokenization_spaces", "split_special_tokens")


def _pretrained_overrides(kwargs: dict[str, Any]) -> dict[str, Any]:
    """from_pretrained's keyword arguments as tokenizer_config.json values."""
    out: dict[str, Any] = {}
    for key, value in kwargs.items():
        if key in LOADER_KEYWORDS or key == "subfolder":
            continue
        if key in _FLAG_KEYWORDS or (key == "strip_accents" and value is not None):
            out[key] = _flag(value, key)
        elif key in ("strip_accents", "model_max_length") and value is None:
            out[key] = None
        elif key == "model_max_length":
            out[key] = _integer(value, key, 0)
        elif key in ("padding_side", "truncation_side"):
            if _text(value, key) not in ("left", "right"):
                raise ValueError(f'{key} must be "right" or "left", got {_quoted(value)}')
            out[key] = value
        elif key == "model_input_names":
            out[key] = str_list(value, key)
        elif key in _TOKEN_KEYWORDS:
            out[key] = _token_value(value, key)
        elif key in ("additional_special_tokens", "extra_special_tokens"):
            if isinstance(value, str) or not isinstance(value, Iterable):
                raise TypeError(f"{key} must be a list of str or AddedToken, not {type(value).__name__}")
            out[key] = [_token_value(item, f"{key}[{i}]") for i, item in enumerate(value)]
        else:
            raise TypeError(f"from_pretrained() got an unexpected keyword argument {key!r}")
    return out


def _token_value(value: Any, name: str) -> Any:
    """A special token keyword argument as tokenizer_config.json gives it: a string, an object with the flags of
    an ``AddedToken``, or null."""
    if value is None:
        return None
    token = _added_token(value, True, name)
    if isinstance(value, str):
        return value
    return {key: token.get(key, False) for key in ("content", "normalized", "single_word", "lstrip", "rstrip")}


#: The tokenizer classes of transformers 5 that rebuild BERT's pipeline from the configuration (BertTokenizer,
#: its aliases and subclasses that keep its pipeline), without transformers' "Fast" suffix.
BERT_CLASSES = ("BertTokenizer", "ConvBertTokenizer", "DistilBertTokenizer", "ElectraTokenizer", "LayoutLMTokenizer",
                "LxmertTokenizer", "MobileBertTokenizer", "SqueezeBertTokenizer")  # fmt: skip
#: The model_types of config.json for which transformers 5's AutoTokenizer picks BertTokenizer when no
#: tokenizer_class is given (not nezha, qdqbert, realm, retribert: its table maps them there, but it has no
#: configuration class for them any more, so it loads such a directory with its generic class).
BERT_MODEL_TYPES = ("align", "bark", "bert", "blip", "bros", "chinese_clip", "convbert", "distilbert", "electra",
                    "ernie", "flava", "git", "grounding-dino", "layoutlm", "megatron-bert", "mm-grounding-dino",
                    "nomic_bert", "squeezebert", "tvp", "vilt", "visual_bert")  # fmt: skip
#: The model_input_names of transformers' generic class (and of every class that does not set its own).
GENERIC_INPUTS = ("input_ids", "attention_mask")
#: The model_input_names class attribute of each of BERT_CLASSES in transformers 5, and of DPR's classes
#: (subclasses of BertTokenizer that keep the lowercasing whatever do_lower_case says, so not among them).
BERT_CLASS_INPUTS = {"BertTokenizer": BERT_INPUTS, "ConvBertTokenizer": BERT_INPUTS,
                     "DPRContextEncoderTokenizer": BERT_INPUTS, "DPRQuestionEncoderTokenizer": BERT_INPUTS,
                     "DPRReaderTokenizer": GENERIC_INPUTS,
                     "DistilBertTokenizer": GENERIC_INPUTS, "ElectraTokenizer": BERT_INPUTS,
                     "LayoutLMTokenizer": BERT_INPUTS, "LxmertTokenizer": BERT_INPUTS,
                     "MobileBertTokenizer": BERT_INPUTS, "SqueezeBertTokenizer": BERT_INPUTS}  # fmt: skip
#: DeBERTa's inputs (and those of the other classes of OTHER_CLASS_INPUTS but FNet's): segment ids last.
MASK_THEN_TYPES = ("input_ids", "attention_mask", "token_type_ids")
#: The classes of transformers 5 outside BERT_CLASS_INPUTS whose model_input_names hold token_type_ids (every
#: other class of its table takes input_ids and attention_mask alone), each with the model_type that picks it:
#: DeBERTa-v2's and FNet's Unigram models, and the others for a directory that names them.
OTHER_CLASS_INPUTS = {"CanineTokenizer": ("canine", MASK_THEN_TYPES), "DebertaTokenizer": ("deberta", MASK_THEN_TYPES),
                      "DebertaV2Tokenizer": ("deberta-v2", MASK_THEN_TYPES),
                      "FNetTokenizer": ("fnet", ("input_ids", "token_type_ids")),
                      "LayoutLMv2Tokenizer": ("layoutlmv2", MASK_THEN_TYPES),
                      "MarkupLMTokenizer": ("markuplm", BERT_INPUTS),
                      "TapasTokenizer": ("tapas", MASK_THEN_TYPES)}  # fmt: skip


def _loads_as_bert(path: str, config: dict[str, Any]) -> bool:
    """Whether transformers 5's AutoTokenizer loads the directory with a BERT class."""
    return _loads_as(path, config, BERT_CLASSES, BERT_MODEL_TYPES)


def _class_hint(path: str, config: dict[str, Any]) -> tuple[str | None, Any]:
    """What transformers 5's AutoTokenizer goes by to pick the class of a directory: the config's
    tokenizer_class, else config.json's tokenizer_class (either without the "Fast" suffix), as
    ``(class, None)``; else ``(None, model_type)`` (config.json's, or None)."""
    model = _read_object(os.path.join(path, "config.json"))
    name = config.get("tokenizer_class")
    if not isinstance(name, str):
        name = model.get("tokenizer_class")
    if isinstance(name, str):
        return (name[: -len("Fast")] if name.endswith("Fast") else name), None
    return None, model.get("model_type")


def _loads_as(path: str, config: dict[str, Any], classes: Sequence[str], model_types: Sequence[str]) -> bool:
    """Whether transformers 5's AutoTokenizer loads the directory with one of ``classes`` (without the "Fast"
    suffix): the config's tokenizer_class, else config.json's tokenizer_class, else whether config.json's
    model_type is one of ``model_types``."""
    name, model_type = _class_hint(path, config)
    return name in classes if name is not None else model_type in model_types


def _model_input_names(path: str, overrides: dict[str, Any]) -> list[str]:
    """The inputs of the model a directory configures, as transformers 5 takes them: tokenizer_config.json's
    ``model_input_names`` (or the keyword argument among ``overrides``), a list of str; else the class
    attribute of the class AutoTokenizer picks: that of BERT_CLASS_INPUTS or OTHER_CLASS_INPUTS (by class or
    model type), BertTokenizer's for BERT_MODEL_TYPES and for a vocab.txt without a tokenizer.json, class or
    model type (only BERT's classes load it), the generic class's (no token_type_ids) for any other class or
    none."""
    config_path = os.path.join(path, "tokenizer_config.json")
    config = {**_read_object(config_path), **overrides}
    if "model_input_names" in config:
        value = config["model_input_names"]
        if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
            found = shown(value)
            raise ValueError(f"{config_path}: model_input_names: expected a list of str, found {found}")
        return list(value)
    name, model_type = _class_hint(path, config)
    if name is not None:
        other = OTHER_CLASS_INPUTS.get(name)
        return list(BERT_CLASS_INPUTS.get(name, other[1] if other else GENERIC_INPUTS))
    if model_type in BERT_MODEL_TYPES:
        return list(BERT_INPUTS)
    if model_type is None and not os.path.isfile(os.path.join(path, "tokenizer.json")):
        return list(BERT_INPUTS)  # a vocab.txt alone loads with BERT's classes only
    return list(next((names for t, names in OTHER_CLASS_INPUTS.values() if t == model_type), GENERIC_INPUTS))


#: The tokenizer classes of transformers 5 that pad on the left unless the configuration says otherwise.
LEFT_PADDING_CLASSES = ("CodeLlamaTokenizer", "CohereTokenizer", "CpmAntTokenizer", "GemmaTokenizer",
                        "LlamaTokenizer", "Siglip2Tokenizer", "XLNetTokenizer")  # fmt: skip
#: The model_types of config.json for which transformers 5's AutoTokenizer picks one of them.
LEFT_PADDING_MODEL_TYPES = ("aya_vision", "cohere", "cohere2", "cpmant", "diffusion_gemma", "gemma",
                            "gemma2", "gemma3", "gemma3_text", "gemma3n", "gemma3n_text", "idefics", "idefics2",
                            "recurrent_gemma", "shieldgemma2", "siglip2", "t5gemma", "xlnet", "zaya")  # fmt: skip


def _file_sides(path: str) -> dict[str, str | None]:
    """The directions of the ``padding`` and ``truncation`` sections of the directory's tokenizer.json,
    where it has them (transformers 5 takes the sides from there when tokenizer_config.json does not
    give them); none from a file that cannot be read (loading it says what is wrong)."""
    try:
        with open(os.path.join(path, "tokenizer.json"), encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        doc = None
    return _sections_sides(doc)


def _sections_sides(doc: Any) -> dict[str, str | None]:
    """The directions of the ``padding`` and ``truncation`` sections of a tokenizer.json document (any
    case), where it has them."""

    def side(section: str) -> str | None:
        value = doc.get(section) if isinstance(doc, dict) else None
        direction = value.get("direction") if isinstance(value, dict) else None
        name = direction.lower() if isinstance(direction, str) else None
        return name if name in ("left", "right") else None

    return {"padding_side": side("padding"), "truncation_side": side("truncation")}


def _call_settings(path: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """The call settings a model directory's tokenizer_config.json gives (with ``overrides`` in place of its
    keys), as attributes to set: ``model_max_length``, ``padding_side`` and ``truncation_side`` (null is an
    error, as in transformers; when the file does not say, what tokenizer.json's ``padding`` or
    ``truncation`` section says, else ``"left"`` for the padding side when transformers loads the directory
    with a class of ``LEFT_PADDING_CLASSES``) and ``clean_up_tokenization_spaces``, each when given."""
    config_path = os.path.join(path, "tokenizer_config.json")
    config = {**_read_object(config_path), **overrides}
    out: dict[str, Any] = {}
    max_length = config.get("model_max_length")
    if max_length is not None:
        if isinstance(max_length, float) and max_length >= 1e20:
            max_length = int(max_length)
        if isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 0:
            raise ValueError(f"{config_path}: model_max_length: expected a length, found {shown(max_length)}")
        out["model_max_length"] = max_length
    file_sides = _file_sides(path)
    for key in ("padding_side", "truncation_side"):
        if key in config:  # null too: an error, as in transformers
            side = config[key]
            if side not in ("right", "left"):
                raise ValueError(f'{config_path}: {key}: expected "right" or "left", found {shown(side)}')
            out[key] = side
        elif file_sides[key] is not None:
            out[key] = file_sides[key]
        elif key == "padding_side" and _loads_as(path, config, LEFT_PADDING_CLASSES, LEFT_PADDING_MODEL_TYPES):
            out[key] = "left"
    key = "clean_up_tokenization_spaces"
    clean_up = _optional_bool(config.get(key), config_path, key)
    if clean_up is not None:
        out[key] = clean_up
    return out


def check_directory(path: str) -> None:
    """FileNotFoundError (NotADirectoryError for a file) unless ``path`` is a local directory:
    from_pretrained never downloads."""
    if not os.path.isdir(path):
        # A file there is not a directory; nothing there is not found.
        exists = os.path.exists(path)
        error, code = (NotADirectoryError, errno.ENOTDIR) if exists else (FileNotFoundError, errno.ENOENT)
        raise error(code, "not a local directory: from_pretrained never downloads; fetch the "
                                "model first, e.g. huggingface_hub.snapshot_download(repo_id), and pass its "
                                "directory", path)  # fmt: skip


def write_config_files(path: str, config: dict[str, Any], special_map: dict[str, Any], extra: list[str]) -> list[str]:
    """Writes tokenizer_config.json (``config`` with the named special tokens of ``special_map`` and the
    ``extra`` ones as extra_special_tokens) and special_tokens_map.json (the extra ones as
    additional_special_tokens) into ``path``, keys sorted as the engine writes them; returns their paths."""
    config = {**config, **special_map}
    special_map = dict(special_map)
    if extra:
        config["extra_special_tokens"] = special_map["additional_special_tokens"] = extra
    written = []
    for name, value in (("tokenizer_config.json", config), ("special_tokens_map.json", special_map)):
        written.append(os.path.join(path, name))
        _write_atomic(written[-1], json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True))
    return written


def _bert_normalizer(config: dict[str, Any], config_path: str) -> dict[str, Any]:
    """The normalizer options a BERT class builds from the configuration: do_lower_case (default true),
    strip_accents (default null), tokenize_chinese_chars (default true), text cleaning on."""
    out: dict[str, Any] = {}
    for key, option in (("do_lower_case", "lowercase"), ("tokenize_chinese_chars", "handle_chinese_chars")):
        value = config.get(key)
        if value is not None and not isinstance(value, bool):
            raise ValueError(f"{config_path}: {key}: expected true or false, found {shown(value)}")
        out[option] = True if value is None else value
    strip_accents = config.get("strip_accents")
    if strip_accents is not None and not isinstance(strip_accents, bool):
        raise ValueError(f"{config_path}: strip_accents: expected true or false, found {shown(strip_accents)}")
    return {**out, "strip_accents": strip_accents, "clean_text": True, "strip_all_marks": False}


def _configured(
    path: str, overrides: dict[str, Any] | None = None, defaults: bool = True
) -> tuple[list[tuple[str, dict[str, Any] | None, bool]], list[dict[str, Any]]]:
    """The special tokens a model directory configures, as transformers reads them (special_tokens_map.json
    wins over tokenizer_config.json, unless that has an ``added_tokens_decoder``): the named ones in
    ``_NAMED_KEYS`` order (absent: the default, or None without ``defaults``; null: None), each with whether
    the file gave flags (an object), and the extra ones."""
    config_path = os.path.join(path, "tokenizer_config.json")
    map_path = os.path.join(path, "special_tokens_map.json")
    overrides = overrides or {}
    config = {**_read_object(config_path), **overrides}
    # transformers reads special_tokens_map.json only for directories whose tokenizer_config.json has no
    # added_tokens_decoder; keyword arguments override both files.
    special_map = {} if config.get("added_tokens_decoder") is not None else _read_object(map_path)
    special_map = {key: value for key, value in special_map.items() if key not in overrides}
    named: list[tuple[str, dict[str, Any] | None, bool]] = []
    for key, default in _NAMED_KEYS:
        default = default if defaults else None
        file, where = (special_map, map_path) if key in special_map else (config, config_path)
        if key not in file or (file[key] is None and default is not None and key != "mask_token"):
            # The pipeline needs an unknown, classifier, separator and padding token.
            token = None if default is None else _special_token(default, where, key)
            named.append((key, token, False))
        elif file[key] is None:
            named.append((key, None, False))
        else:
            token = _non_empty(_special_token(file[key], where, key), where, key)
            named.append((key, token, isinstance(file[key], dict)))

    # tokenizer_config.json's extra_special_tokens (or, without them, its additional_special_tokens), extended
    # by special_tokens_map.json's extra_special_tokens; its additional_special_tokens only when the config has
    # none.
    def tokens(file: dict[str, Any], where: str, key: str) -> list[dict[str, Any]]:
        value = file.get(key)
        if value is None:
            return []
        if isinstance(value, dict):  # transformers also takes a mapping of names to tokens
            value = list(value.values())
        if not isinstance(value, list):
            found = shown(value)
            raise ValueError(f"{where}: {key}: expected a list of tokens, found {found}")
        return [_non_empty(_special_token(item, where, f"{key}[{i}]"), where, f"{key}[{i}]")
                for i, item in enumerate(value)]  # fmt: skip

    extra = (tokens(config, config_path, "extra_special_tokens")
             or tokens(config, config_path, "additional_special_tokens")
             or tokens(special_map, map_path, "additional_special_tokens"))  # fmt: skip
    for t in tokens(special_map, map_path, "extra_special_tokens"):
        if all(e["content"] != t["content"] for e in extra):
            extra.append(t)
    return named, extra


def _names_pad_token(path: str, overrides: dict[str, Any]) -> bool:
    """Whether a model directory, or ``from_pretrained``'s keyword arguments (``overrides``), name a
    pad token (as ``_configured`` reads them)."""
    config = {**_read_object(os.path.join(path, "tokenizer_config.json")), **overrides}
    special_map = {} if config.get("added_tokens_decoder") is not None else _read_object(
        os.path.join(path, "special_tokens_map.json"))  # fmt: skip
    special_map = {key: value for key, value in special_map.items() if key not in overrides}
    return special_map.get("pad_token", config.get("pad_token")) is not None


def _directory_added_tokens(path: str, config: dict[str, Any]) -> list[tuple[int, dict[str, Any], str]]:
    """The added tokens of a vocab.txt directory in id order, with the ids the directory gives them:
    tokenizer_config.json's ``added_tokens_decoder`` (with their flags), else added_tokens.json (normalized,
    not special, as transformers reads them); each with its file."""
    config_path = os.path.join(path, "tokenizer_config.json")
    out: list[tuple[int, dict[str, Any], str]] = []
    decoder = config.get("added_tokens_decoder")
    if decoder is not None:
        if not isinstance(decoder, dict):
            raise ValueError(f"{config_path}: added_tokens_decoder: expected an object, "
                             f"found {shown(decoder)}")  # fmt: skip
        for key, entry in decoder.items():
            what = f"added_tokens_decoder[{shown(key)}]"
            if not (key.isascii() and key.isdigit()):
                raise ValueError(f"{config_path}: {what}: the key is not an id")
            token = _special_token(entry, config_path, what)
            special = entry.get("special") if isinstance(entry, dict) else None
            token["special"] = bool(_optional_bool(special, config_path, f"{what}.special"))
            if not isinstance(entry, dict) or entry.get("normalized") is None:
                token["normalized"] = not token["special"]
            out.append((int(key), token, config_path))
    else:
        added_path = os.path.join(path, "added_tokens.json")
        for content, id_ in _read_object(added_path).items():
            if isinstance(id_, bool) or not isinstance(id_, int) or id_ < 0:
                raise ValueError(f"{added_path}: {shown(content)}: expected an id, "
                                 f"found {shown(id_)}")  # fmt: skip
            out.append((id_, _added_dict({"content": content, "special": False, "normalized": True}), added_path))
    out = [entry for entry in out if entry[1]["content"]]  # an empty token is never added (add_tokens skips it)
    out.sort(key=lambda entry: entry[0])
    return out


def _added_dict(t: dict[str, Any]) -> dict[str, Any]:
    """An added token as our file writes it: content, special, normalized, then the flags that are true."""
    return {"content": t["content"], "special": t["special"], "normalized": t["normalized"],
            **{flag: True for flag in _FLAGS if t.get(flag)}}  # fmt: skip


def _is_word_char(c: str) -> bool:
    return c in REGEX_WORD  # the regex crate's \w, which Hugging Face's added vocabulary tests neighbours with


class _Matcher:
    """Added tokens found in a text as Hugging Face's added vocabulary finds them (spec section 10)."""

    def __init__(self, pattern: re.Pattern[str], tokens: dict[str, dict[str, Any]]) -> None:
        self.pattern, self.tokens = pattern, tokens

    @staticmethod
    def of(entries: list[tuple[str, dict[str, Any]]]) -> _Matcher | None:
        """``(text to match, added token)``; the first of equal texts wins."""
        tokens: dict[str, dict[str, Any]] = {}
        for text, token in entries:
            if text:
                tokens.setdefault(text, token)
        pattern = _leftmost_longest(list(tokens))
        return None if pattern is None else _Matcher(pattern, tokens)

    def kept(self, text: str, skip: Any) -> Iterable[tuple[str, tuple[int, int]]]:
        """``(content, (start, end))`` of each match kept: leftmost-longest; passed over when ``skip(content)``
        or, for ``single_word``, when a word character touches it; then widened over the whitespace on its
        left (``lstrip``, not into the last kept match) and right (``rstrip``). The search goes on after the
        match itself, not after the whitespace ``rstrip`` took in: no shorter token inside a passed-over one
        is found, and the next match may start in that whitespace, overlapping the last kept one (as in
        Hugging Face). A match that ``lstrip``'s limit leaves empty is passed over."""
        pos = done = 0
        while (match := self.pattern.search(text, pos)) is not None:
            start, end = match.span()
            pos = end
            token = self.tokens[match.group()]
            if skip(token["content"]):
                continue
            if token.get("single_word") and (
                (start > 0 and _is_word_char(text[start - 1])) or (end < len(text) and _is_word_char(text[end]))
            ):
                continue
            if token.get("lstrip"):
                while start > 0 and text[start - 1] in WHITESPACE:
                    start -= 1
                start = max(start, done)
            if token.get("rstrip"):
                while end < len(text) and text[end] in WHITESPACE:
                    end += 1
            if start >= end:
                continue
            yield token["content"], (start, end)
            done = end


def _in_transformers_order(tokens: dict[Any, Any]) -> list[tuple[Any, Any]]:
    """The items of ``add_special_tokens``' dict in the order transformers 5 adds them:
    "additional_special_tokens" takes the place of an empty or None "extra_special_tokens", or goes
    last without one (its ids come after the named tokens'); with a non-empty "extra_special_tokens"
    as well it is a ValueError, as in transformers."""
    items = list(tokens.items())
    keys = [key for key, _ in items]
    if "additional_special_tokens" not in keys:
        return items
    additional = keys.index("additional_special_tokens")
    if "extra_special_tokens" not in keys:
        items.append(items.pop(additional))
        return items
    extra = keys.index("extra_special_tokens")
    if tokens["extra_special_tokens"]:
        raise ValueError("add_special_tokens: give additional_special_tokens or extra_special_tokens, not both")
    items[extra] = items[additional]
    del items[additional]
    return items


def _added_tokens(tokens: object, special: bool, function: str, what: str) -> list[dict[str, Any]]:
    """The tokens of ``add_tokens`` / ``add_special_tokens`` as added-token dicts, given to
    ``function`` as the argument ``what``, both named in the errors (see the engine's args)."""
    if isinstance(tokens, str) or hasattr(tokens, "content"):
        return [_added_token(tokens, special, what)]
    expected = (
        "a dict or a list of str or AddedToken" if what == "special_tokens_dict" else "a list of str or AddedToken"
    )
    if isinstance(tokens, (bytes, bytearray, memoryview, dict)):  # they iterate as ints, as keys
        raise TypeError(f"{function}: {what} must be {expected}, not {_type_name(tokens)}")
    try:
        # iterated, never asked its length (spec section 8: a length is only a hint, which
        # list() would ask, raising what a failing __len__ raises)
        items = [t for t in tokens]  # type: ignore[attr-defined]  # noqa: C416
    except TypeError:
        raise TypeError(f"{function}: {what} must be {expected}, not {_type_name(tokens)}") from None
    return [_added_token(t, special, f"{what}[{i}]") for i, t in enumerate(items)]


def _added_token(token: object, force_special: bool, what: str) -> dict[str, Any]:
    if isinstance(token, str):
        content = _text(token, what)
        return _added_dict({"content": content, "special": force_special, "normalized": not force_special})
    if not hasattr(token, "content"):
        raise TypeError(f"{what} must be a str or an AddedToken, not {_type_name(token)}")

    def flag(name: str) -> bool:
        value = getattr(token, name)
        if not isinstance(value, bool):
            raise TypeError(f"{what}.{name} must be a bool")
        return value

    content = _text(token.content, f"{what}.content")
    special = force_special or flag("special")
    field = "_normalized" if hasattr(token, "_normalized") else "normalized"  # ours keeps whether it was given
    given = getattr(token, field)
    if given is not None and not isinstance(given, bool):
        raise TypeError(f"{what}.normalized must be a bool")
    normalized = (not special) if given is None else given
    return _added_dict({"content": content, "special": special, "normalized": normalized,
                        **{name: flag(name) for name in _FLAGS}})  # fmt: skip


def _pair(value: object, name: str) -> Pair:
    if not (isinstance(value, (tuple, list)) and len(value) == 2):
        raise TypeError(f"{name} must be a pair of str")
    return _text(value[0], f"{name}[0]"), _text(value[1], f"{name}[1]")


def _is_words(value: object) -> bool:
    """Whether ``value`` is a list or tuple of str: words, given where a text goes."""
    return isinstance(value, (list, tuple)) and all(isinstance(word, str) for word in value)


def _words_hint(keyword: str) -> str:
    """What a TypeError about words given where a str goes adds: ``keyword`` takes words."""
    return f"for a list of words, pass {keyword}=True"


def _text_input(value: object, name: str, keyword: str = "is_pretokenized") -> str:
    """A text of ``encode`` or ``encode_batch``; words get a TypeError that says to pass ``keyword``."""
    if _is_words(value):
        raise TypeError(f"{name} must be str, not {_type_name(value)} ({_words_hint(keyword)})")
    return _text(value, name)


def _encode_input(text: object, pair: object, pretokenized: bool) -> tuple[Text, Text | None]:
    """``encode``'s ``text`` and ``pair``: texts or, when ``pretokenized``, lists of words."""
    if pretokenized:
        return _word_list(text, "text"), None if pair is None else _word_list(pair, "pair")
    return _text_input(text, "text"), None if pair is None else _text_input(pair, "pair")


def _batch_item(item: object, name: str, keyword: str = "is_pretokenized") -> tuple[str, str | None]:
    """A str, or a pair given as a tuple or (as Hugging Face accepts) a list of two; ``keyword`` takes
    lists of words instead."""
    if isinstance(item, (tuple, list)) and len(item) != 2:
        hint = f" ({_words_hint(keyword)})" if _is_words(item) else ""
        raise TypeError(f"{name} must be str or a (str, str) pair{hint}")
    if isinstance(item, (tuple, list)):
        return _text_input(item[0], f"{name}[0]", keyword), _text_input(item[1], f"{name}[1]", keyword)
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
    optional: dict[str, Any] = {"holes": [], "outside_model": [], "truncation": None, "padding": None,
                                "added_tokens": []}  # fmt: skip
    names: tuple[str, ...] = ("format", "version", "vocab", "merges", "special_tokens", "options", *optional)
    if isinstance(document, dict) and "objective" in document:  # files written before it was recorded: "pmi"
        names += ("objective",)
    document = {**optional, **document} if isinstance(document, dict) else document
    doc = _fields(document, names, "the file")
    objective = doc.get("objective", "pmi")
    if objective is not None and objective not in OBJECTIVES:
        raise ValueError(f"not a fast-wordpiece tokenizer file: unknown objective {objective!r}")
    if doc["format"] != FILE_FORMAT or type(doc["version"]) is not int or doc["version"] != FILE_VERSION:
        raise ValueError(f"unsupported format {doc['format']!r} version {doc['version']!r}")
    if not all(isinstance(doc[name], list) for name in ("vocab", "merges", "special_tokens")):
        raise ValueError("vocab, merges and special_tokens must be JSON arrays")
    defaults = {"continuing_subword_prefix": CONTINUATION, "decoder_cleanup": True, "post_processor": "bert"}
    defaults |= {"split_special_tokens": False, "decoder": "wordpiece", "strip_all_marks": False}
    defaults["pad_token"] = PAD_TOKEN
    given = {**defaults, **doc["options"]} if isinstance(doc["options"], dict) else doc["options"]
    options = _fields(given, Options.__dataclass_fields__, "options")
    holes, vocab = set(doc["holes"]), _texts(doc["vocab"], "vocab")
    slots = [None if id_ in holes else token for id_, token in enumerate(vocab)]
    tokenizer = PyTokenizer._from_parts(slots, set(doc["outside_model"]), doc["merges"], doc["special_tokens"], options)
    flags = {"single_word": False, "lstrip": False, "rstrip": False}
    tokenizer._with_added_tokens([_fields({**flags, **t} if isinstance(t, dict) else t,
                                          ("content", "special", "normalized", *flags), "added_tokens[]")
                                  for t in doc["added_tokens"]])  # fmt: skip
    truncation = hf_json.truncation_from_json(doc["truncation"])
    padding = hf_json.padding_from_json(doc["padding"], tokenizer._ids)
    if padding is not None and padding["pad_token"] != tokenizer._options.pad_token:
        pads = (padding["pad_token"], tokenizer._options.pad_token)
        given, option = (shown(t) for t in pads)
        raise ValueError(f"padding.pad_token: {given} is not options.pad_token, {option}")
    tokenizer = tokenizer._with_defaults(truncation, padding)
    tokenizer._objective = objective
    return tokenizer


def _read_object(path: str) -> dict[str, Any]:
    """A JSON object file of a model directory; an absent file is empty."""
    if not os.path.isfile(path):
        return {}
    text = read_utf8(path)
    try:
        value = _json_loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not JSON: {e}") from None
    if not isinstance(value, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return value


def _write_atomic(path: str, content: str) -> None:
    """Writes ``content`` to ``path`` as UTF-8, atomically (see ``files.write_atomic``)."""
    write_atomic(path, content.encode("utf-8"))


def _next_word(rows: list[Row]) -> int:
    """The index of the word that starts after ``rows``."""
    return rows[-1][2] + 1 if rows else 0


def _is_batch(ids: object) -> bool:
    """Whether ``decode`` was given a batch, as transformers 5 tells one once it made arrays lists:
    a list or tuple whose first item is a list, a tuple, an array (``[np.array([5, 6]), ...]``) or
    an ``Encoding``, or an array of two dimensions or more with a row (one without rows, ``(0, n)``,
    is an empty sequence there: its text is "")."""
    if isinstance(ids, (list, tuple)):
        return len(ids) > 0 and (isinstance(ids[0], (list, tuple, Encoding)) or _dimensions(ids[0]) >= 1)
    return _dimensions(ids) >= 2 and len(ids) > 0  # type: ignore[arg-type]


def _dimensions(value: object) -> int:
    """The number of dimensions of an array (its ``ndim``), 0 for anything else."""
    n = getattr(value, "ndim", 0)
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else 0
