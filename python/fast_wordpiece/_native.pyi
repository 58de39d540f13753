"""Type stubs for the Rust engine (checked by ``python -m mypy.stubtest``)."""

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal, Protocol, SupportsIndex, TypeVar, final, overload

from typing_extensions import TypeAlias, TypedDict, Unpack

from fast_wordpiece.added_token import AddedToken
from fast_wordpiece.backend import BackendTokenizer
from fast_wordpiece.batch_encoding import BatchEncoding
from fast_wordpiece.ragged import RaggedBatch

_StrPath = str | bytes | os.PathLike[str] | os.PathLike[bytes]
_Truncation = Literal["longest_first", "only_first", "only_second", "do_not_truncate"]
_Side = Literal["left", "right"]
_Padding = Literal["longest", "max_length"]
_Objective = Literal["likelihood", "pmi", "frequency"]
# A training corpus: texts, and batches of texts (a list, tuple or other iterable of str, as the
# batches of tokenizers' `train_from_iterator` generators), read as their texts.
_Corpus: TypeAlias = Iterable[str | Iterable[str]]
# An item of encode_batch: a text or a pair of texts; with is_pretokenized=True, a list of words or a
# pair of lists, the pair a tuple or (as in tokenizers) a list of two lists.
_EncodeInput: TypeAlias = (
    str | tuple[str, str] | Sequence[str] | tuple[Sequence[str], Sequence[str]] | Sequence[Sequence[str]]
)
# An integer argument: an int or any integer `operator.index` takes, such as numpy's integer
# scalars and 0-d integer arrays, as the engine reads them. A bool type-checks (it is an int) but
# is a TypeError at run time.
_Int: TypeAlias = SupportsIndex
# The integers of an argument that must be a dict: a type variable, since dict[str, int] is no
# dict[str, SupportsIndex] (dicts are invariant), yet dict[str, numpy.int64] is taken too.
_IntT = TypeVar("_IntT", bound=SupportsIndex)

__all__ = [
    "DEFAULT_SPECIAL_TOKENS",
    "BPETokenizer",
    "CharTokenizer",
    "Decoder",
    "Encoding",
    "Normalizer",
    "PreTokenizer",
    "PyTokenizer",
    "UnigramEncoding",
    "UnigramTokenizer",
    "WordCounts",
    "__version__",
    "count_words",
]

DEFAULT_SPECIAL_TOKENS: tuple[str, ...]
__version__: str

# Every `train_from_counts` takes a mapping of str to int or an iterable of (str, int) pairs: one
# overload each, as mypy infers a dict literal of mixed integer types against one but not a union.

@final
class BPETokenizer:
    """Byte-level BPE (GPT-2 style): the GPT-2 pre-tokenizer, merges by rank."""

    def __new__(
        cls,
        vocab: dict[str, _IntT],
        merges: Iterable[tuple[str, str] | list[str] | str],
        *,
        special_tokens: Iterable[str] | None = None,
        unk_token: str | None = None,
    ) -> BPETokenizer: ...
    @staticmethod
    def train(
        corpus: _Corpus,
        vocab_size: _Int = 30000,
        min_frequency: _Int | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        show_progress: bool = True,
    ) -> BPETokenizer: ...
    @staticmethod
    def train_from_files(
        paths: _StrPath | Iterable[_StrPath],
        vocab_size: _Int = 30000,
        min_frequency: _Int | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        show_progress: bool = True,
    ) -> BPETokenizer: ...
    @overload
    @staticmethod
    def train_from_counts(
        counts: Mapping[str, _Int],
        vocab_size: _Int = 30000,
        min_frequency: _Int | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        show_progress: bool = True,
    ) -> BPETokenizer: ...
    @overload
    @staticmethod
    def train_from_counts(
        counts: Iterable[tuple[str, _Int]],
        vocab_size: _Int = 30000,
        min_frequency: _Int | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        show_progress: bool = True,
    ) -> BPETokenizer: ...
    def encode(self, text: str, pair: str | None = None, *, add_special_tokens: bool = True) -> list[int]: ...
    def tokenize(
        self, text: str, pair: str | None = None, *, add_special_tokens: bool = False, **kwargs: Any
    ) -> list[str]: ...
    def encode_batch(
        self,
        texts: Iterable[str | tuple[str, str] | list[str]],
        *,
        add_special_tokens: bool = True,
        padding: bool = True,
        num_threads: _Int | None = None,
    ) -> list[list[int]]: ...
    @overload
    def decode(
        self,
        token_ids: Mapping[str, Any],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: _IdArray,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str | list[str]: ...
    @overload
    def decode(
        self,
        token_ids: _Int,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: Iterable[_Int],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: Sequence[Sequence[_Int]],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> list[str]: ...
    def decode_batch(self, sequences: Iterable[Iterable[_Int]], skip_special_tokens: bool = False) -> list[str]: ...
    def analyze(self, texts: Iterable[str]) -> dict[str, int | float]: ...
    def get_vocab(self) -> dict[str, int]: ...
    @property
    def vocab_size(self) -> int: ...
    @property
    def merges(self) -> list[tuple[str, str]]: ...
    @property
    def template(self) -> tuple[str, str] | None: ...
    @property
    def padding(self) -> dict[str, object] | None: ...
    def get_added_vocab(self) -> dict[str, int]: ...
    @property
    def special_tokens_strip(self) -> dict[str, tuple[bool, bool]]: ...
    @property
    def special_tokens(self) -> list[str]: ...
    @property
    def unk_token(self) -> str | None: ...
    @property
    def trim_offsets(self) -> bool:
        """Whether ``return_offsets_mapping`` leaves out the spaces at either end of a token, as
        the ``ByteLevel`` post-processor of the loaded file says (true when the file leaves it out);
        False for a tokenizer built or trained here. ``to_json`` and ``save`` write it."""
    @property
    def trim_keeps_prefix_space(self) -> bool:
        """Whether trimmed offsets keep the single leading space of the first token (the
        ``ByteLevel`` post-processor's ``add_prefix_space``); always False without ``trim_offsets``."""
    def token_to_id(self, token: str) -> int | None: ...
    def id_to_token(self, id: _Int) -> str | None: ...  # noqa: A002  (Hugging Face's name)
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(json: str) -> BPETokenizer: ...
    def save(self, path: _StrPath) -> None: ...
    @staticmethod
    def load(path: _StrPath) -> BPETokenizer: ...
    def __reduce__(self) -> tuple[object, tuple[str], tuple[str | None, bool] | None]: ...
    def __setstate__(self, state: tuple[str | None, bool] | str, /) -> None: ...
    def __eq__(self, other: object, /) -> bool: ...
    # transformers' calling conventions (fast_wordpiece.batch_encoding.family_call, family_pad); the
    # options the family lacks are accepted at the value that asks for nothing (0, False, None)
    def __call__(
        self,
        text: str | Sequence[str | tuple[str, str] | list[str]],
        text_pair: str | Sequence[str] | None = None,
        *,
        add_special_tokens: bool = True,
        padding: bool | Literal["longest", "max_length", "do_not_pad"] = False,
        truncation: bool | Literal["longest_first", "only_first", "only_second", "do_not_truncate"] | None = None,
        max_length: _Int | None = None,
        stride: Literal[0] = 0,
        is_split_into_words: Literal[False] = False,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side | None = None,
        return_tensors: Literal["np", "pt"] | None = None,
        return_token_type_ids: bool | None = None,
        return_attention_mask: bool | None = None,
        return_overflowing_tokens: Literal[False] = False,
        return_special_tokens_mask: bool = False,
        return_offsets_mapping: bool = False,
        return_length: bool = False,
        verbose: bool = True,
        text_target: None = None,
        text_pair_target: None = None,
        split_special_tokens: Literal[False] | None = None,
        max_target_length: None = None,
    ) -> BatchEncoding: ...
    def pad(
        self,
        encoded_inputs: Mapping[str, Any] | Sequence[Mapping[str, Any]],
        padding: bool | Literal["longest", "max_length", "do_not_pad"] = True,
        max_length: _Int | None = None,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side | None = None,
        return_attention_mask: bool | None = None,
        return_tensors: Literal["np", "pt"] | None = None,
        verbose: bool = True,
    ) -> BatchEncoding: ...
    def __len__(self) -> int: ...
    @property
    def pad_token(self) -> str | None: ...
    @pad_token.setter
    def pad_token(self, value: str | None) -> None: ...
    @pad_token.deleter
    def pad_token(self) -> None: ...
    @property
    def pad_token_id(self) -> int | None: ...
    @pad_token_id.setter
    def pad_token_id(self, value: _Int | None) -> None: ...
    @pad_token_id.deleter
    def pad_token_id(self) -> None: ...
    def batch_decode(
        self,
        sequences: Any,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> list[str]: ...
    @property
    def clean_up_tokenization_spaces(self) -> bool: ...
    @clean_up_tokenization_spaces.setter
    def clean_up_tokenization_spaces(self, value: bool) -> None: ...
    @overload
    def convert_ids_to_tokens(self, ids: SupportsIndex, skip_special_tokens: bool = False) -> str | None: ...
    @overload
    def convert_ids_to_tokens(self, ids: Iterable[_Int], skip_special_tokens: bool = False) -> list[str | None]: ...
    @overload
    def convert_tokens_to_ids(self, tokens: str) -> int | None: ...  # type: ignore[overload-overlap]
    @overload
    def convert_tokens_to_ids(self, tokens: Iterable[str]) -> list[int | None]: ...

@final
class CharTokenizer:
    """One token per character: the special tokens, then every character kept in training."""

    def __new__(
        cls, vocab: dict[str, _IntT], *, special_tokens: Iterable[str] | None = None, unk_token: str = "[UNK]"
    ) -> CharTokenizer: ...
    @staticmethod
    def train(
        corpus: _Corpus,
        vocab_size: _Int | None = None,
        min_frequency: _Int | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        unk_token: str = "[UNK]",
        show_progress: bool = True,
    ) -> CharTokenizer: ...
    @staticmethod
    def train_from_files(
        paths: _StrPath | Iterable[_StrPath],
        vocab_size: _Int | None = None,
        min_frequency: _Int | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        unk_token: str = "[UNK]",
        show_progress: bool = True,
    ) -> CharTokenizer: ...
    @overload
    @staticmethod
    def train_from_counts(
        counts: Mapping[str, _Int],
        vocab_size: _Int | None = None,
        min_frequency: _Int | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        unk_token: str = "[UNK]",
        show_progress: bool = True,
    ) -> CharTokenizer: ...
    @overload
    @staticmethod
    def train_from_counts(
        counts: Iterable[tuple[str, _Int]],
        vocab_size: _Int | None = None,
        min_frequency: _Int | None = None,
        *,
        special_tokens: Iterable[str] | None = None,
        unk_token: str = "[UNK]",
        show_progress: bool = True,
    ) -> CharTokenizer: ...
    def encode(self, text: str, *, add_special_tokens: bool = True) -> list[int]: ...
    def tokenize(self, text: str, *, add_special_tokens: bool = False, **kwargs: Any) -> list[str]: ...
    def encode_batch(
        self, texts: Iterable[str], *, add_special_tokens: bool = True, num_threads: _Int | None = None
    ) -> list[list[int]]: ...
    @overload
    def decode(
        self,
        token_ids: Mapping[str, Any],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: _IdArray,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str | list[str]: ...
    @overload
    def decode(
        self,
        token_ids: _Int,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: Iterable[_Int],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: Sequence[Sequence[_Int]],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> list[str]: ...
    def decode_batch(self, sequences: Iterable[Iterable[_Int]], skip_special_tokens: bool = False) -> list[str]: ...
    def analyze(self, texts: Iterable[str]) -> dict[str, int | float]: ...
    def get_vocab(self) -> dict[str, int]: ...
    @property
    def vocab_size(self) -> int: ...
    @property
    def special_tokens(self) -> list[str]: ...
    @property
    def unk_token(self) -> str: ...
    def token_to_id(self, token: str) -> int | None: ...
    def id_to_token(self, id: _Int) -> str | None: ...  # noqa: A002  (Hugging Face's name)
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(json: str) -> CharTokenizer: ...
    def save(self, path: _StrPath) -> None: ...
    @staticmethod
    def load(path: _StrPath) -> CharTokenizer: ...
    def __reduce__(self) -> tuple[object, tuple[str], tuple[str | None, bool] | None]: ...
    def __setstate__(self, state: tuple[str | None, bool] | str, /) -> None: ...
    def __eq__(self, other: object, /) -> bool: ...
    # transformers' calling conventions (fast_wordpiece.batch_encoding.family_call, family_pad); the
    # options the family lacks are accepted at the value that asks for nothing (0, False, None)
    def __call__(
        self,
        text: str | Sequence[str],
        text_pair: None = None,
        *,
        add_special_tokens: bool = True,
        padding: bool | Literal["longest", "max_length", "do_not_pad"] = False,
        truncation: bool | Literal["longest_first", "only_first", "do_not_truncate"] | None = None,
        max_length: _Int | None = None,
        stride: Literal[0] = 0,
        is_split_into_words: Literal[False] = False,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side | None = None,
        return_tensors: Literal["np", "pt"] | None = None,
        return_token_type_ids: bool | None = None,
        return_attention_mask: bool | None = None,
        return_overflowing_tokens: Literal[False] = False,
        return_special_tokens_mask: bool = False,
        return_offsets_mapping: bool = False,
        return_length: bool = False,
        verbose: bool = True,
        text_target: None = None,
        text_pair_target: None = None,
        split_special_tokens: Literal[False] | None = None,
        max_target_length: None = None,
    ) -> BatchEncoding: ...
    def pad(
        self,
        encoded_inputs: Mapping[str, Any] | Sequence[Mapping[str, Any]],
        padding: bool | Literal["longest", "max_length", "do_not_pad"] = True,
        max_length: _Int | None = None,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side | None = None,
        return_attention_mask: bool | None = None,
        return_tensors: Literal["np", "pt"] | None = None,
        verbose: bool = True,
    ) -> BatchEncoding: ...
    def __len__(self) -> int: ...
    @property
    def pad_token(self) -> str | None: ...
    @pad_token.setter
    def pad_token(self, value: str | None) -> None: ...
    @pad_token.deleter
    def pad_token(self) -> None: ...
    @property
    def pad_token_id(self) -> int | None: ...
    @pad_token_id.setter
    def pad_token_id(self, value: _Int | None) -> None: ...
    @pad_token_id.deleter
    def pad_token_id(self) -> None: ...
    def batch_decode(
        self,
        sequences: Any,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> list[str]: ...
    @property
    def clean_up_tokenization_spaces(self) -> bool: ...
    @clean_up_tokenization_spaces.setter
    def clean_up_tokenization_spaces(self, value: bool) -> None: ...
    @overload
    def convert_ids_to_tokens(self, ids: SupportsIndex, skip_special_tokens: bool = False) -> str | None: ...
    @overload
    def convert_ids_to_tokens(self, ids: Iterable[_Int], skip_special_tokens: bool = False) -> list[str | None]: ...
    @overload
    def convert_tokens_to_ids(self, tokens: str) -> int | None: ...  # type: ignore[overload-overlap]
    @overload
    def convert_tokens_to_ids(self, tokens: Iterable[str]) -> list[int | None]: ...

class _PipelineOptions(TypedDict, total=False):
    lowercase: bool
    strip_accents: bool | None
    clean_text: bool
    handle_chinese_chars: bool
    pre_tokenizer: Literal["bert", "whitespace", "regex", "wordpunct"]
    unk_token: str
    cls_token: str
    sep_token: str
    pad_token: str
    max_input_chars_per_word: _Int
    continuing_subword_prefix: str
    decoder_cleanup: bool
    # or Hugging Face's TemplateProcessing object, as json.loads gives it
    post_processor: Literal["bert", "none"] | dict[str, Any]
    decoder: Literal["wordpiece", "none"]
    strip_all_marks: bool
    split_special_tokens: bool

class _IdArray(Protocol):
    """An array of ids (numpy's, a torch tensor): ``decode`` gives the text of one of one
    dimension, the list of the texts of its rows for two (with a row; without, ""), as
    transformers does; which one, only the array's shape at run time tells."""

    @property
    def ndim(self) -> int: ...
    def tolist(self) -> Any: ...
    def __len__(self) -> int: ...  # an array, not one of numpy's integers

class _ArrowArray(Protocol):
    """An Arrow array (the Arrow PyCapsule interface): pyarrow, polars, ..."""

    def __arrow_c_array__(self, requested_schema: object = None, /) -> tuple[object, object]: ...

class _ArrowStream(Protocol):
    """An Arrow stream of arrays (the Arrow PyCapsule interface): a pyarrow ChunkedArray, ..."""

    def __arrow_c_stream__(self, requested_schema: object = None, /) -> object: ...

class _CountOptions(TypedDict, total=False):
    lowercase: bool
    strip_accents: bool | None
    clean_text: bool
    handle_chinese_chars: bool
    pre_tokenizer: Literal["bert", "whitespace", "regex", "wordpunct"]
    strip_all_marks: bool

@final
class WordCounts:
    """Words (normalized and pre-tokenized) and their counts, with the options they were counted with."""

    def __new__(
        cls, counts: Mapping[str, _Int] | Iterable[tuple[str, _Int]] | None = None, **options: Unpack[_CountOptions]
    ) -> WordCounts: ...
    @staticmethod
    def from_files(
        paths: _StrPath | Iterable[_StrPath],
        *,
        errors: Literal["strict", "replace"] = "strict",
        show_progress: bool = False,
        **options: Unpack[_CountOptions],
    ) -> WordCounts: ...
    @staticmethod
    def load(path: _StrPath) -> WordCounts: ...
    def save(self, path: _StrPath) -> None: ...
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes) -> WordCounts: ...
    def __reduce__(self) -> tuple[Any, tuple[bytes]]: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def total(self) -> int: ...
    def __len__(self) -> int: ...
    def __getitem__(self, word: str, /) -> int: ...
    def __contains__(self, word: object, /) -> bool: ...
    @overload
    def get(self, word: str, default: None = None) -> int | None: ...
    @overload
    def get(self, word: str, default: Any) -> Any: ...
    def keys(self) -> list[str]: ...
    def values(self) -> list[int]: ...
    def items(self) -> list[tuple[str, int]]: ...
    def __iter__(self) -> Iterator[str]: ...
    def most_common(self, n: _Int | None = None) -> list[tuple[str, int]]: ...
    def prune(self, min_count: _Int | None = None, *, max_words: _Int | None = None) -> None: ...
    def split(self, n: _Int) -> list[WordCounts]: ...
    def update(self, other: WordCounts) -> None: ...
    def __add__(self, other: WordCounts, /) -> WordCounts: ...
    def __radd__(self, other: WordCounts, /) -> WordCounts: ...
    def __iadd__(self, other: WordCounts, /) -> WordCounts: ...
    def __eq__(self, other: object, /) -> bool: ...

def count_words(
    texts: Iterable[str | _ArrowArray | _ArrowStream] | _ArrowArray | _ArrowStream,
    *,
    show_progress: bool = False,
    **options: Unpack[_CountOptions],
) -> WordCounts: ...

@final
class Encoding:
    """The tokens of one encoded text or pair."""

    @property
    def ids(self) -> list[int]: ...
    @property
    def tokens(self) -> list[str]: ...
    @property
    def offsets(self) -> list[tuple[int, int]]: ...
    def offsets_array(self, dtype: Any = None) -> Any: ...
    @property
    def attention_mask(self) -> list[int]: ...
    @property
    def special_tokens_mask(self) -> list[int]: ...
    @property
    def type_ids(self) -> list[int]: ...
    @property
    def overflowing(self) -> list[Encoding]: ...
    @property
    def word_ids(self) -> list[int | None]: ...
    @property
    def words(self) -> list[int | None]: ...  # deprecated: word_ids, with a DeprecationWarning
    @property
    def sequence_ids(self) -> list[int | None]: ...
    @property
    def n_sequences(self) -> int: ...
    # Indices: an int or an integer such as numpy's (SupportsIndex), not a bool (TypeError);
    # out of range, whatever their size: None.
    def token_to_sequence(self, token_index: SupportsIndex) -> int | None: ...
    def token_to_word(self, token_index: SupportsIndex) -> int | None: ...
    def token_to_chars(self, token_index: SupportsIndex) -> tuple[int, int] | None: ...
    def word_to_tokens(
        self, word_index: SupportsIndex, sequence_index: SupportsIndex = 0
    ) -> tuple[int, int] | None: ...
    def word_to_chars(self, word_index: SupportsIndex, sequence_index: SupportsIndex = 0) -> tuple[int, int] | None: ...
    def char_to_token(self, char_pos: SupportsIndex, sequence_index: SupportsIndex = 0) -> int | None: ...
    def char_to_word(self, char_pos: SupportsIndex, sequence_index: SupportsIndex = 0) -> int | None: ...
    def __getitem__(self, key: str, /) -> list[int] | list[str] | list[tuple[int, int]]: ...
    def __contains__(self, key: object, /) -> bool: ...
    def keys(self) -> list[str]: ...
    # The field names, as keys() (len() is the number of tokens).
    def __iter__(self) -> Iterator[str]: ...
    def to_dict(self) -> dict[str, list[int] | list[str] | list[tuple[int, int]]]: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    # Pickling and copy.copy/deepcopy: the columns as bytes and the str of each distinct id.
    def __reduce__(self) -> tuple[Any, tuple[bytes, list[str], tuple[Any, ...]]]: ...

@final
class Normalizer:
    def __new__(
        cls,
        clean_text: bool = True,
        handle_chinese_chars: bool = True,
        strip_accents: bool | None = None,
        lowercase: bool = True,
        strip_all_marks: bool = False,
    ) -> Normalizer: ...
    def normalize_str(self, sequence: str) -> str: ...
    @property
    def clean_text(self) -> bool: ...
    @property
    def handle_chinese_chars(self) -> bool: ...
    @property
    def strip_accents(self) -> bool | None: ...
    @property
    def lowercase(self) -> bool: ...
    @property
    def strip_all_marks(self) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    # Pickling and copy.copy/deepcopy: the switches.
    def __reduce__(self) -> tuple[type[Normalizer], tuple[bool, bool, bool | None, bool, bool]]: ...

@final
class Decoder:
    def __new__(cls, prefix: str = "##", cleanup: bool = True) -> Decoder: ...
    def decode(self, tokens: Iterable[str]) -> str: ...
    @property
    def prefix(self) -> str: ...
    @property
    def cleanup(self) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> tuple[type[Decoder], tuple[str, bool]]: ...

@final
class PreTokenizer:
    def __new__(cls, name: Literal["bert", "whitespace", "regex", "wordpunct"] = "bert") -> PreTokenizer: ...
    def pre_tokenize_str(self, sequence: str) -> list[tuple[str, tuple[int, int]]]: ...
    @property
    def name(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> tuple[type[PreTokenizer], tuple[str]]: ...

@final
class PyTokenizer:
    """A WordPiece tokenizer with BERT's pipeline."""

    def __new__(
        cls,
        vocab: Sequence[str],
        *,
        merges: Iterable[tuple[str, str] | list[str]] | None = None,
        special_tokens: Sequence[str] | None = None,
        **options: Unpack[_PipelineOptions],
    ) -> PyTokenizer: ...
    @staticmethod
    def train(
        corpus: _Corpus,
        vocab_size: _Int = 30000,
        min_frequency: _Int | None = None,
        *,
        special_tokens: Sequence[str] | None = None,
        objective: _Objective | None = None,
        limit_alphabet: _Int | None = None,
        initial_alphabet: Iterable[str] | None = None,
        show_progress: bool = True,
        **options: Unpack[_PipelineOptions],
    ) -> PyTokenizer: ...
    @staticmethod
    def train_from_files(
        paths: _StrPath | Iterable[_StrPath],
        vocab_size: _Int = 30000,
        min_frequency: _Int | None = None,
        *,
        errors: Literal["strict", "replace"] = "strict",
        special_tokens: Sequence[str] | None = None,
        objective: _Objective | None = None,
        limit_alphabet: _Int | None = None,
        initial_alphabet: Iterable[str] | None = None,
        show_progress: bool = True,
        **options: Unpack[_PipelineOptions],
    ) -> PyTokenizer: ...
    @overload
    @staticmethod
    def train_from_counts(
        counts: WordCounts | Mapping[str, _Int],
        vocab_size: _Int = 30000,
        min_frequency: _Int | None = None,
        *,
        special_tokens: Sequence[str] | None = None,
        objective: _Objective | None = None,
        limit_alphabet: _Int | None = None,
        initial_alphabet: Iterable[str] | None = None,
        show_progress: bool = True,
        **options: Unpack[_PipelineOptions],
    ) -> PyTokenizer: ...
    @overload
    @staticmethod
    def train_from_counts(
        counts: Iterable[tuple[str, _Int]],
        vocab_size: _Int = 30000,
        min_frequency: _Int | None = None,
        *,
        special_tokens: Sequence[str] | None = None,
        objective: _Objective | None = None,
        limit_alphabet: _Int | None = None,
        initial_alphabet: Iterable[str] | None = None,
        show_progress: bool = True,
        **options: Unpack[_PipelineOptions],
    ) -> PyTokenizer: ...
    def train_new_from_iterator(
        self,
        text_iterator: _Corpus,
        vocab_size: _Int,
        length: _Int | None = None,
        new_special_tokens: Iterable[str | AddedToken] | None = None,
        special_tokens_map: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> PyTokenizer: ...
    @staticmethod
    def from_vocab_file(
        path: _StrPath, *, special_tokens: Sequence[str] | None = None, **options: Unpack[_PipelineOptions]
    ) -> PyTokenizer: ...
    def encode(
        self,
        text: str | Sequence[str],
        pair: str | Sequence[str] | None = None,
        add_special_tokens: bool = True,
        *,
        is_pretokenized: bool = False,
        max_length: _Int | None = None,
        truncation: bool | _Truncation | None = "longest_first",
        stride: _Int = 0,
        truncation_side: _Side = "right",
        padding: _Padding | None = None,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side = "right",
    ) -> Encoding: ...
    @overload
    def encode_batch(
        self,
        inputs: Iterable[_EncodeInput],
        add_special_tokens: bool = True,
        *,
        is_pretokenized: bool = False,
        max_length: _Int | None = None,
        truncation: bool | _Truncation | None = "longest_first",
        stride: _Int = 0,
        truncation_side: _Side = "right",
        padding: _Padding | None = None,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side = "right",
        return_tensors: None = None,
        num_threads: _Int | None = None,
    ) -> list[Encoding]: ...
    @overload
    def encode_batch(
        self,
        inputs: Iterable[_EncodeInput],
        add_special_tokens: bool = True,
        *,
        is_pretokenized: bool = False,
        max_length: _Int | None = None,
        truncation: bool | _Truncation | None = "longest_first",
        stride: _Int = 0,
        truncation_side: _Side = "right",
        padding: _Padding,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side = "right",
        return_tensors: Literal["np"],
        num_threads: _Int | None = None,
        return_offsets: bool = False,
        return_token_type_ids: bool = False,
        return_special_tokens_mask: bool = False,
    ) -> dict[str, Any]: ...
    @overload
    def encode_batch(
        self,
        inputs: Iterable[_EncodeInput],
        add_special_tokens: bool = True,
        *,
        is_pretokenized: bool = False,
        max_length: _Int | None = None,
        truncation: bool | _Truncation | None = "longest_first",
        stride: _Int = 0,
        truncation_side: _Side = "right",
        padding: None = None,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side = "right",
        return_tensors: Literal["np"],
        num_threads: _Int | None = None,
        return_offsets: bool = False,
        return_token_type_ids: bool = False,
        return_special_tokens_mask: bool = False,
    ) -> RaggedBatch | dict[str, Any]: ...
    def encode_batch_fast(
        self, inputs: Iterable[_EncodeInput], is_pretokenized: bool = False, add_special_tokens: bool = True
    ) -> list[Encoding]: ...
    @overload
    def decode(
        self,
        token_ids: Mapping[str, Any],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: _IdArray,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str | list[str]: ...
    @overload
    def decode(
        self,
        token_ids: SupportsIndex | Encoding,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: Iterable[_Int],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: Sequence[Sequence[_Int] | Encoding],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> list[str]: ...
    def decode_batch(
        self,
        sequences: Iterable[Iterable[_Int] | Encoding],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
    ) -> list[str]: ...
    def analyze(self, texts: Iterable[str]) -> dict[str, int | float]: ...
    def get_vocab(self, with_added_tokens: bool = True) -> dict[str, int]: ...
    def get_vocab_size(self, with_added_tokens: bool = True) -> int: ...
    def add_tokens(
        self, new_tokens: str | AddedToken | Iterable[str | AddedToken], special_tokens: bool = False
    ) -> int: ...
    def add_special_tokens(
        self,
        special_tokens_dict: str
        | AddedToken
        | Iterable[str | AddedToken]
        | Mapping[str, str | AddedToken | Iterable[str | AddedToken]],
        replace_extra_special_tokens: bool = True,
    ) -> int: ...
    @property
    def vocab_size(self) -> int: ...
    @property
    def word_cache(self) -> bool: ...
    @word_cache.setter
    def word_cache(self, value: bool) -> None: ...
    @property
    def merges(self) -> list[tuple[str, str]]: ...
    @property
    def objective(self) -> _Objective | None: ...
    @property
    def special_tokens(self) -> list[str]: ...
    @property
    def options(self) -> dict[str, object]: ...
    @property
    def truncation(self) -> dict[str, Any] | None: ...
    @property
    def padding(self) -> dict[str, Any] | None: ...
    def enable_truncation(
        self,
        max_length: _Int,
        stride: _Int = 0,
        strategy: Literal["longest_first", "only_first", "only_second"] = "longest_first",
        direction: _Side = "right",
    ) -> None: ...
    def enable_padding(
        self,
        direction: _Side = "right",
        pad_id: _Int | None = None,
        pad_type_id: _Int = 0,
        pad_token: str | None = None,
        length: _Int | None = None,
        pad_to_multiple_of: _Int | None = None,
    ) -> None: ...
    def no_truncation(self) -> PyTokenizer: ...
    def no_padding(self) -> PyTokenizer: ...
    def token_to_id(self, token: str) -> int | None: ...
    def id_to_token(self, id: _Int) -> str | None: ...  # noqa: A002  (Hugging Face's name)
    def save(self, path: _StrPath, pretty: bool = True) -> None: ...
    @staticmethod
    def from_file(path: _StrPath) -> PyTokenizer: ...
    @staticmethod
    def load(path: _StrPath) -> PyTokenizer: ...
    @staticmethod
    def from_pretrained(pretrained_model_name_or_path: _StrPath, **kwargs: Any) -> PyTokenizer: ...
    def save_pretrained(
        self,
        save_directory: _StrPath,
        legacy_format: bool | None = None,
        filename_prefix: str | None = None,
        push_to_hub: bool = False,
        save_format: Literal["hf"] | None = None,
    ) -> list[str]: ...
    def to_str(self, pretty: bool = False) -> str: ...
    @staticmethod
    def from_str(json: str) -> PyTokenizer: ...
    def save_vocab(self, path: _StrPath) -> None: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(json: str) -> PyTokenizer: ...
    def __reduce__(self) -> tuple[object, tuple[str], dict[str, Any]]: ...
    def __setstate__(self, state: dict[str, Any], /) -> None: ...
    def __eq__(self, other: object, /) -> bool: ...
    # transformers' calling conventions (fast_wordpiece.batch_encoding)
    def __call__(
        self,
        text: str | Sequence[str] | Sequence[tuple[str, str]] | Sequence[Sequence[str]] | None = None,
        text_pair: str | Sequence[str] | Sequence[Sequence[str]] | None = None,
        text_target: str | Sequence[str] | Sequence[tuple[str, str]] | Sequence[Sequence[str]] | None = None,
        text_pair_target: str | Sequence[str] | Sequence[Sequence[str]] | None = None,
        *,
        add_special_tokens: bool = True,
        padding: bool | Literal["longest", "max_length", "do_not_pad"] = False,
        truncation: bool | Literal["longest_first", "only_first", "only_second", "do_not_truncate"] | None = None,
        max_length: _Int | None = None,
        stride: _Int = 0,
        is_split_into_words: bool = False,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side | None = None,
        return_tensors: Literal["np", "pt"] | None = None,
        return_token_type_ids: bool | None = None,
        return_attention_mask: bool | None = None,
        return_overflowing_tokens: bool = False,
        return_special_tokens_mask: bool = False,
        return_offsets_mapping: bool = False,
        return_length: bool = False,
        verbose: bool = True,
        split_special_tokens: bool | None = None,
        max_target_length: _Int | None = None,
    ) -> BatchEncoding: ...
    def pad(
        self,
        encoded_inputs: Mapping[str, Any] | Sequence[Mapping[str, Any]],
        padding: bool | Literal["longest", "max_length", "do_not_pad"] = True,
        max_length: _Int | None = None,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side | None = None,
        return_attention_mask: bool | None = None,
        return_tensors: Literal["np", "pt"] | None = None,
        verbose: bool = True,
    ) -> BatchEncoding: ...
    def _call_batch(
        self,
        inputs: Sequence[Any],
        add_special_tokens: bool,
        overflowing: bool,
        tensors: bool,
        split_into_words: bool = False,
        split_special_tokens: bool | None = None,
        **kwargs: Any,
    ) -> tuple[list[Encoding], dict[str, Any] | None, list[int], int]: ...
    def tokenize(
        self,
        text: str,
        pair: str | None = None,
        add_special_tokens: bool = False,
        *,
        split_special_tokens: bool | None = None,
        **kwargs: Any,
    ) -> list[str]: ...
    @overload
    def convert_tokens_to_ids(self, tokens: str) -> int | None: ...  # type: ignore[overload-overlap]
    @overload
    def convert_tokens_to_ids(self, tokens: Sequence[str]) -> list[int | None]: ...
    @overload
    def convert_ids_to_tokens(self, ids: SupportsIndex, skip_special_tokens: bool = False) -> str | None: ...
    @overload
    def convert_ids_to_tokens(self, ids: Iterable[_Int], skip_special_tokens: bool = False) -> list[str | None]: ...
    def convert_tokens_to_string(self, tokens: Sequence[str]) -> str: ...
    # One sequence (ids, a 1-D array, an Encoding) gives [its text], with a FutureWarning.
    def batch_decode(
        self,
        sequences: Iterable[SupportsIndex | Iterable[_Int] | Encoding] | Encoding,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> list[str]: ...
    def get_special_tokens_mask(
        self,
        token_ids_0: Sequence[_Int],
        token_ids_1: Sequence[_Int] | None = None,
        already_has_special_tokens: bool = False,
    ) -> list[int]: ...
    def __len__(self) -> int: ...
    @property
    def is_fast(self) -> bool: ...
    @property
    def model_input_names(self) -> list[str]: ...
    @model_input_names.setter
    def model_input_names(self, value: Iterable[str]) -> None: ...
    @property
    def model_max_length(self) -> int: ...
    @model_max_length.setter
    def model_max_length(self, value: _Int) -> None: ...
    @property
    def clean_up_tokenization_spaces(self) -> bool: ...
    @clean_up_tokenization_spaces.setter
    def clean_up_tokenization_spaces(self, value: bool) -> None: ...
    @property
    def split_special_tokens(self) -> bool: ...
    @split_special_tokens.setter
    def split_special_tokens(self, value: bool) -> None: ...
    @property
    def padding_side(self) -> str: ...
    @padding_side.setter
    def padding_side(self, value: _Side) -> None: ...
    @property
    def truncation_side(self) -> str: ...
    @truncation_side.setter
    def truncation_side(self, value: _Side) -> None: ...
    @property
    def unk_token(self) -> str | None: ...
    @property
    def unk_token_id(self) -> int | None: ...
    @property
    def sep_token(self) -> str | None: ...
    @property
    def sep_token_id(self) -> int | None: ...
    @property
    def cls_token(self) -> str | None: ...
    @property
    def cls_token_id(self) -> int | None: ...
    @property
    def pad_token(self) -> str | None: ...
    @pad_token.setter
    def pad_token(self, value: str) -> None: ...
    @property
    def pad_token_id(self) -> int | None: ...
    @property
    def pad_token_type_id(self) -> int: ...
    @property
    def mask_token(self) -> str | None: ...
    @mask_token.setter
    def mask_token(self, value: str | None) -> None: ...
    @property
    def mask_token_id(self) -> int | None: ...
    @property
    def bos_token(self) -> str | None: ...
    @bos_token.setter
    def bos_token(self, value: str | None) -> None: ...
    @property
    def bos_token_id(self) -> int | None: ...
    @property
    def eos_token(self) -> str | None: ...
    @eos_token.setter
    def eos_token(self, value: str | None) -> None: ...
    @property
    def eos_token_id(self) -> int | None: ...
    @property
    def extra_special_tokens(self) -> list[str]: ...
    @extra_special_tokens.setter
    def extra_special_tokens(self, value: Iterable[str]) -> None: ...
    def num_special_tokens_to_add(self, pair: bool = False, *, is_pair: bool | None = None) -> int: ...
    @property
    def all_special_tokens(self) -> list[str]: ...
    @property
    def all_special_ids(self) -> list[int]: ...
    @property
    def special_tokens_map(self) -> dict[str, str]: ...
    @property
    def added_tokens_decoder(self) -> dict[int, AddedToken]: ...
    def get_added_tokens_decoder(self) -> dict[int, AddedToken]: ...
    @property
    def added_tokens_encoder(self) -> dict[str, int]: ...
    def get_added_vocab(self) -> dict[str, int]: ...
    @property
    def backend_tokenizer(self) -> BackendTokenizer: ...
    def clean_up_tokenization(self, text: str) -> str: ...
    @property
    def vocab(self) -> dict[str, int]: ...
    @property
    def normalizer(self) -> Normalizer: ...
    @property
    def pre_tokenizer(self) -> PreTokenizer: ...
    @property
    def decoder(self) -> Decoder | None: ...
    @property
    def encode_special_tokens(self) -> bool: ...
    @encode_special_tokens.setter
    def encode_special_tokens(self, value: bool) -> None: ...
    @property
    def do_lower_case(self) -> bool: ...
    @property
    def strip_accents(self) -> bool | None: ...
    @property
    def tokenize_chinese_chars(self) -> bool: ...
    @property
    def name_or_path(self) -> str: ...
    @name_or_path.setter
    def name_or_path(self, value: str) -> None: ...
    @property
    def max_len_single_sentence(self) -> int: ...
    @property
    def max_len_sentences_pair(self) -> int: ...
    def save_vocabulary(self, save_directory: _StrPath, filename_prefix: str | None = None) -> tuple[str]: ...

@final
class UnigramEncoding:
    """A Unigram encoding: ids, tokens, character offsets, type ids and special tokens mask."""

    @property
    def ids(self) -> list[int]: ...
    @property
    def tokens(self) -> list[str]: ...
    @property
    def offsets(self) -> list[tuple[int, int]]: ...
    @property
    def type_ids(self) -> list[int]: ...
    @property
    def special_tokens_mask(self) -> list[int]: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    # Pickling and copy.copy/deepcopy: ids, offsets, the distinct tokens and each token's, and each
    # token's type id and special mask.
    def __reduce__(self) -> tuple[Any, tuple[bytes, bytes, list[str], bytes, bytes]]: ...

@final
class UnigramTokenizer:
    """A Unigram tokenizer, SentencePiece style (Metaspace pre-tokenization, Viterbi)."""

    def __new__(
        cls,
        vocab: Iterable[tuple[str, float]],
        *,
        unk_token: str = "<unk>",
        special_tokens: Sequence[str] | None = None,
    ) -> UnigramTokenizer: ...
    @staticmethod
    def train(
        corpus: _Corpus,
        vocab_size: _Int = 8000,
        *,
        special_tokens: Sequence[str] | None = None,
        max_piece_length: _Int | None = None,
        seed_size: _Int | None = None,
        shrinking_factor: float | None = None,
        num_sub_iterations: _Int | None = None,
        show_progress: bool = True,
    ) -> UnigramTokenizer: ...
    @staticmethod
    def train_from_files(
        paths: _StrPath | Iterable[_StrPath],
        vocab_size: _Int = 8000,
        *,
        special_tokens: Sequence[str] | None = None,
        max_piece_length: _Int | None = None,
        seed_size: _Int | None = None,
        shrinking_factor: float | None = None,
        num_sub_iterations: _Int | None = None,
        show_progress: bool = True,
    ) -> UnigramTokenizer: ...
    @overload
    @staticmethod
    def train_from_counts(
        counts: Mapping[str, _Int],
        vocab_size: _Int = 8000,
        *,
        special_tokens: Sequence[str] | None = None,
        max_piece_length: _Int | None = None,
        seed_size: _Int | None = None,
        shrinking_factor: float | None = None,
        num_sub_iterations: _Int | None = None,
        show_progress: bool = True,
    ) -> UnigramTokenizer: ...
    @overload
    @staticmethod
    def train_from_counts(
        counts: Iterable[tuple[str, _Int]],
        vocab_size: _Int = 8000,
        *,
        special_tokens: Sequence[str] | None = None,
        max_piece_length: _Int | None = None,
        seed_size: _Int | None = None,
        shrinking_factor: float | None = None,
        num_sub_iterations: _Int | None = None,
        show_progress: bool = True,
    ) -> UnigramTokenizer: ...
    def encode(
        self,
        text: str,
        pair: str | None = None,
        *,
        add_special_tokens: bool = True,
        alpha: float | None = None,
        nbest: _Int = -1,
        seed: _Int | None = None,
    ) -> UnigramEncoding: ...
    def encode_batch(
        self,
        texts: Iterable[str | tuple[str, str] | list[str]],
        *,
        add_special_tokens: bool = True,
        num_threads: _Int | None = None,
    ) -> list[UnigramEncoding]: ...
    @overload
    def decode(
        self,
        token_ids: Mapping[str, Any],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: _IdArray,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str | list[str]: ...
    @overload
    def decode(
        self,
        token_ids: _Int,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: Iterable[_Int],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> str: ...
    @overload
    def decode(
        self,
        token_ids: Sequence[Sequence[_Int]],
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> list[str]: ...
    def get_vocab(self) -> dict[str, int]: ...
    def get_added_vocab(self) -> dict[str, int]: ...
    def get_pieces(self) -> list[tuple[str, float]]: ...
    @property
    def vocab_size(self) -> int: ...
    @property
    def unk_token(self) -> str: ...
    @property
    def special_tokens(self) -> list[str]: ...
    @property
    def template(self) -> tuple[str, str] | None: ...
    def token_to_id(self, token: str) -> int | None: ...
    def id_to_token(self, id: _Int) -> str | None: ...  # noqa: A002  (Hugging Face's name)
    def word_ids(self, texts: Iterable[str], *, num_threads: _Int | None = None) -> list[list[int]]: ...
    def analyze(self, texts: Iterable[str]) -> dict[str, int | float]: ...
    def save(self, path: _StrPath) -> None: ...
    @staticmethod
    def from_file(path: _StrPath) -> UnigramTokenizer: ...
    @staticmethod
    def load(path: _StrPath) -> UnigramTokenizer: ...
    def to_str(self) -> str: ...
    @staticmethod
    def from_str(json: str) -> UnigramTokenizer: ...
    def __reduce__(self) -> tuple[Any, tuple[Any], tuple[str | None, bool] | None]: ...
    def __setstate__(self, state: tuple[str | None, bool] | str, /) -> None: ...
    def __eq__(self, other: object, /) -> bool: ...
    @staticmethod
    def from_pretrained(pretrained_model_name_or_path: _StrPath, **kwargs: Any) -> UnigramTokenizer: ...
    def save_pretrained(
        self,
        save_directory: _StrPath,
        legacy_format: bool | None = None,
        filename_prefix: str | None = None,
        push_to_hub: bool = False,
        save_format: Literal["hf"] | None = None,
    ) -> list[str]: ...
    @property
    def padding_side(self) -> str: ...
    @padding_side.setter
    def padding_side(self, value: _Side) -> None: ...
    @property
    def truncation_side(self) -> str: ...
    @truncation_side.setter
    def truncation_side(self, value: _Side) -> None: ...
    @property
    def model_input_names(self) -> list[str]: ...
    @model_input_names.setter
    def model_input_names(self, value: Iterable[str]) -> None: ...
    @property
    def model_max_length(self) -> int: ...
    @model_max_length.setter
    def model_max_length(self, value: _Int) -> None: ...
    # transformers' calling conventions (fast_wordpiece.batch_encoding.family_call, family_pad); the
    # options the family lacks are accepted at the value that asks for nothing (0, False, None)
    def __call__(
        self,
        text: str | Sequence[str | tuple[str, str] | list[str]],
        text_pair: str | Sequence[str] | None = None,
        *,
        add_special_tokens: bool = True,
        padding: bool | Literal["longest", "max_length", "do_not_pad"] = False,
        truncation: bool | Literal["longest_first", "only_first", "only_second", "do_not_truncate"] | None = None,
        max_length: _Int | None = None,
        stride: Literal[0] = 0,
        is_split_into_words: Literal[False] = False,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side | None = None,
        return_tensors: Literal["np", "pt"] | None = None,
        return_token_type_ids: bool | None = None,
        return_attention_mask: bool | None = None,
        return_overflowing_tokens: Literal[False] = False,
        return_special_tokens_mask: bool = False,
        return_offsets_mapping: bool = False,
        return_length: bool = False,
        verbose: bool = True,
        text_target: None = None,
        text_pair_target: None = None,
        split_special_tokens: Literal[False] | None = None,
        max_target_length: None = None,
    ) -> BatchEncoding: ...
    def pad(
        self,
        encoded_inputs: Mapping[str, Any] | Sequence[Mapping[str, Any]],
        padding: bool | Literal["longest", "max_length", "do_not_pad"] = True,
        max_length: _Int | None = None,
        pad_to_multiple_of: _Int | None = None,
        padding_side: _Side | None = None,
        return_attention_mask: bool | None = None,
        return_tensors: Literal["np", "pt"] | None = None,
        verbose: bool = True,
    ) -> BatchEncoding: ...
    def __len__(self) -> int: ...
    @property
    def pad_token(self) -> str | None: ...
    @pad_token.setter
    def pad_token(self, value: str | None) -> None: ...
    @pad_token.deleter
    def pad_token(self) -> None: ...
    @property
    def pad_token_id(self) -> int | None: ...
    @pad_token_id.setter
    def pad_token_id(self, value: _Int | None) -> None: ...
    @pad_token_id.deleter
    def pad_token_id(self) -> None: ...
    def batch_decode(
        self,
        sequences: Any,
        skip_special_tokens: bool = False,
        clean_up_tokenization_spaces: bool | None = None,
        spaces_between_special_tokens: bool = True,
    ) -> list[str]: ...
    @property
    def clean_up_tokenization_spaces(self) -> bool: ...
    @clean_up_tokenization_spaces.setter
    def clean_up_tokenization_spaces(self, value: bool) -> None: ...
    @overload
    def convert_ids_to_tokens(self, ids: SupportsIndex, skip_special_tokens: bool = False) -> str | None: ...
    @overload
    def convert_ids_to_tokens(self, ids: Iterable[_Int], skip_special_tokens: bool = False) -> list[str | None]: ...
    @overload
    def convert_tokens_to_ids(self, tokens: str) -> int | None: ...  # type: ignore[overload-overlap]
    @overload
    def convert_tokens_to_ids(self, tokens: Iterable[str]) -> list[int | None]: ...
