"""``BackendTokenizer``: what ``backend_tokenizer`` gives, the tokenizer under Hugging Face
``tokenizers``' defaults (docs/spec.md section 11)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class BackendTokenizer:
    """A tokenizer seen as transformers' ``backend_tokenizer`` is (a ``tokenizers.Tokenizer``):
    ``decode`` and ``decode_batch`` drop special tokens unless told otherwise, and ``encode`` /
    ``encode_batch`` take ``is_pretokenized`` before ``add_special_tokens`` when given by
    position, as Hugging Face's. Everything else is the tokenizer's own (``normalizer``,
    ``pre_tokenizer``, ``get_vocab_size()``, ``token_to_id``, ``enable_truncation``, ...); a
    change made here changes it."""

    __slots__ = ("_tokenizer",)

    def __init__(self, tokenizer: Any) -> None:
        object.__setattr__(self, "_tokenizer", tokenizer)

    def __getattr__(self, name: str) -> Any:
        if name == "_tokenizer":  # not set yet (an object being unpickled): no recursion
            raise AttributeError(name)
        return getattr(self._tokenizer, name)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # (its ``__setattr__`` forwards to the tokenizer, which pickle's default rebuild would reach)
        return (type(self), (self._tokenizer,))

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._tokenizer, name, value)

    def __repr__(self) -> str:
        return f"BackendTokenizer({self._tokenizer!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BackendTokenizer):
            return bool(self._tokenizer == other._tokenizer)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def encode(
        self, sequence: Any, pair: Any = None, is_pretokenized: bool = False, add_special_tokens: bool = True
    ) -> Any:
        """``tokenizers``' ``encode``: the tokenizer's, with Hugging Face's positional order."""
        return self._tokenizer.encode(
            sequence, pair, is_pretokenized=is_pretokenized, add_special_tokens=add_special_tokens
        )

    def encode_batch(self, input: Any, is_pretokenized: bool = False, add_special_tokens: bool = True) -> Any:  # noqa: A002
        """``tokenizers``' ``encode_batch``: the tokenizer's, with Hugging Face's positional order."""
        return self._tokenizer.encode_batch(
            input, is_pretokenized=is_pretokenized, add_special_tokens=add_special_tokens
        )

    def decode(self, ids: Iterable[Any], skip_special_tokens: bool = True) -> str:
        """``tokenizers``' ``decode``: special tokens dropped unless ``skip_special_tokens=False``."""
        text: str = self._tokenizer.decode(ids, skip_special_tokens=skip_special_tokens)
        return text

    def decode_batch(self, sequences: Iterable[Iterable[Any]], skip_special_tokens: bool = True) -> list[str]:
        """``tokenizers``' ``decode_batch``: special tokens dropped unless ``skip_special_tokens=False``."""
        texts: list[str] = self._tokenizer.decode_batch(sequences, skip_special_tokens=skip_special_tokens)
        return texts
