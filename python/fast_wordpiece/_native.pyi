"""Type stubs for the Rust engine (checked by ``python -m mypy.stubtest``)."""

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, final, overload

from typing_extensions import TypedDict, Unpack

_StrPath = str | os.PathLike[str]
_Truncation = Literal["longest_first", "only_first", "only_second", "do_not_truncate"]
_Side = Literal["left", "right"]
_Padding = Literal["longest", "max_length"]

__all__ = ["DEFAULT_SPECIAL_TOKENS", "Encoding", "PyTokenizer", "__version__"]

DEFAULT_SPECIAL_TOKENS: tuple[str, ...]
__version__: str

class _PipelineOptions(TypedDict, total=False):
    lowercase: bool
    strip_accents: bool | None
    clean_text: bool
    handle_chinese_chars: bool
    pre_tokenizer: Literal["bert", "whitespace", "regex"]
    unk_token: str
    cls_token: str
    sep_token: str
    max_input_chars_per_word: int
    continuing_subword_prefix: str
    decoder_cleanup: bool
    post_processor: Literal["bert", "none"]
    split_special_tokens: bool

@final
class Encoding:
    """The tokens of one encoded text or pair."""

    @property
    def ids(self) -> list[int]: ...
    @property
    def tokens(self) -> list[str]: ...
    @property
    def offsets(self) -> list[tuple[int, int]]: ...
    @property
    def attention_mask(self) -> list[int]: ...
    @property
    def special_tokens_mask(self) -> list[int]: ...
    @property
    def type_ids(self) -> list[int]: ...
    @property
    def overflowing(self) -> list[Encoding]: ...
    def __getitem__(self, key: str, /) -> list[int] | list[str] | list[tuple[int, int]]: ...
    def __contains__(self, key: str, /) -> bool: ...
    def keys(self) -> list[str]: ...
    def to_dict(self) -> dict[str, list[int] | list[str] | list[tuple[int, int]]]: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...

@final
class PyTokenizer:
    """A WordPiece tokenizer with BERT's pipeline."""

    def __new__(
        cls,
        vocab: Sequence[str],
        *,
        merges: Iterable[tuple[str, str]] | None = None,
        special_tokens: Sequence[str] | None = None,
        **options: Unpack[_PipelineOptions],
    ) -> PyTokenizer: ...
    @staticmethod
    def train(
        corpus: Iterable[str],
        vocab_size: int,
        min_frequency: int | None = None,
        *,
        special_tokens: Sequence[str] | None = None,
        show_progress: bool = True,
        **options: Unpack[_PipelineOptions],
    ) -> PyTokenizer: ...
    @staticmethod
    def train_from_files(
        paths: _StrPath | Iterable[_StrPath],
        vocab_size: int,
        min_frequency: int | None = None,
        *,
        errors: Literal["strict", "replace"] = "strict",
        special_tokens: Sequence[str] | None = None,
        show_progress: bool = True,
        **options: Unpack[_PipelineOptions],
    ) -> PyTokenizer: ...
    @staticmethod
    def train_from_counts(
        counts: Mapping[str, int],
        vocab_size: int,
        min_frequency: int | None = None,
        *,
        special_tokens: Sequence[str] | None = None,
        show_progress: bool = True,
        **options: Unpack[_PipelineOptions],
    ) -> PyTokenizer: ...
    @staticmethod
    def from_vocab_file(
        path: _StrPath, *, special_tokens: Sequence[str] | None = None, **options: Unpack[_PipelineOptions]
    ) -> PyTokenizer: ...
    def encode(
        self,
        text: str,
        pair: str | None = None,
        add_special_tokens: bool = True,
        *,
        max_length: int | None = None,
        truncation: _Truncation = "longest_first",
        stride: int = 0,
        truncation_side: _Side = "right",
        padding: _Padding | None = None,
        pad_to_multiple_of: int | None = None,
        padding_side: _Side = "right",
    ) -> Encoding: ...
    @overload
    def encode_batch(
        self,
        inputs: Iterable[str | tuple[str, str] | list[str]],
        add_special_tokens: bool = True,
        *,
        max_length: int | None = None,
        truncation: _Truncation = "longest_first",
        stride: int = 0,
        truncation_side: _Side = "right",
        padding: _Padding | None = None,
        pad_to_multiple_of: int | None = None,
        padding_side: _Side = "right",
        return_tensors: None = None,
        num_threads: int | None = None,
    ) -> list[Encoding]: ...
    @overload
    def encode_batch(
        self,
        inputs: Iterable[str | tuple[str, str] | list[str]],
        add_special_tokens: bool = True,
        *,
        max_length: int | None = None,
        truncation: _Truncation = "longest_first",
        stride: int = 0,
        truncation_side: _Side = "right",
        padding: _Padding | None = None,
        pad_to_multiple_of: int | None = None,
        padding_side: _Side = "right",
        return_tensors: Literal["np"],
        num_threads: int | None = None,
    ) -> dict[str, Any]: ...
    def decode(self, ids: Iterable[int], skip_special_tokens: bool = False) -> str: ...
    def decode_batch(self, sequences: Iterable[Iterable[int]], skip_special_tokens: bool = False) -> list[str]: ...
    def get_vocab(self) -> dict[str, int]: ...
    @property
    def vocab_size(self) -> int: ...
    @property
    def merges(self) -> list[tuple[str, str]]: ...
    @property
    def special_tokens(self) -> list[str]: ...
    @property
    def options(self) -> dict[str, object]: ...
    @property
    def truncation(self) -> dict[str, Any] | None: ...
    @property
    def padding(self) -> dict[str, Any] | None: ...
    def no_truncation(self) -> PyTokenizer: ...
    def no_padding(self) -> PyTokenizer: ...
    def token_to_id(self, token: str) -> int | None: ...
    def id_to_token(self, id: int) -> str | None: ...  # noqa: A002  (Hugging Face's name)
    def save(self, path: _StrPath) -> None: ...
    @staticmethod
    def from_file(path: _StrPath) -> PyTokenizer: ...
    @staticmethod
    def load(path: _StrPath) -> PyTokenizer: ...
    @staticmethod
    def from_pretrained(directory: _StrPath) -> PyTokenizer: ...
    def save_pretrained(self, directory: _StrPath) -> list[str]: ...
    def to_str(self) -> str: ...
    @staticmethod
    def from_str(json: str) -> PyTokenizer: ...
    def save_vocab(self, path: _StrPath) -> None: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(json: str) -> PyTokenizer: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, other: object, /) -> bool: ...
