"""``AddedToken``: a token for ``add_tokens`` / ``add_special_tokens``, as Hugging Face's."""

from __future__ import annotations


class AddedToken:
    """A token matched in the text before the model (docs/spec.md section 10).

    ``single_word``: matched only where no word character touches it;
    ``lstrip`` / ``rstrip``: the match takes in the whitespace on its left /
    right; ``normalized``: matched in the normalized text (by its normalized
    form) rather than the raw text, by default when not ``special``;
    ``special``: dropped by ``decode(..., skip_special_tokens=True)`` and kept
    as text with ``split_special_tokens``.
    """

    __slots__ = {
        "_normalized": "``normalized`` as given (None: follow ``special``).",
        "content": "The token's text.",
        "lstrip": "Whether a match takes in the whitespace on its left.",
        "rstrip": "Whether a match takes in the whitespace on its right.",
        "single_word": "Whether the token is matched only where no word character touches it.",
        "special": "Whether the token is special (dropped by ``skip_special_tokens``).",
    }

    def __init__(self, content: str, single_word: bool = False, lstrip: bool = False, rstrip: bool = False,
                 normalized: bool | None = None, special: bool | None = None) -> None:  # fmt: skip
        if not isinstance(content, str):
            raise TypeError(f"content must be a str, not {type(content).__name__}")
        for name, flag in (("single_word", single_word), ("lstrip", lstrip), ("rstrip", rstrip)):
            if not isinstance(flag, bool):
                raise TypeError(f"{name} must be a bool, not {type(flag).__name__}")
        for name, value in (("normalized", normalized), ("special", special)):
            if value is not None and not isinstance(value, bool):
                raise TypeError(f"{name} must be a bool or None, not {type(value).__name__}")
        self.content = content
        self.single_word = single_word
        self.lstrip = lstrip
        self.rstrip = rstrip
        self.special = bool(special)
        self._normalized = normalized

    @property
    def normalized(self) -> bool:
        """Whether the token is matched in the normalized text (given, else ``not special``)."""
        return (not self.special) if self._normalized is None else self._normalized

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AddedToken):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self.content)

    def _key(self) -> tuple[str, bool, bool, bool, bool, bool]:
        return (self.content, self.single_word, self.lstrip, self.rstrip, self.normalized, self.special)

    def __str__(self) -> str:
        return self.content

    def __repr__(self) -> str:
        return (f"AddedToken({self.content!r}, single_word={self.single_word}, lstrip={self.lstrip}, "
                f"rstrip={self.rstrip}, normalized={self.normalized}, special={self.special})")  # fmt: skip

    def __getstate__(self) -> tuple[str, bool, bool, bool, bool | None, bool]:
        return (self.content, self.single_word, self.lstrip, self.rstrip, self._normalized, self.special)

    def __setstate__(self, state: tuple[str, bool, bool, bool, bool | None, bool]) -> None:
        self.content, self.single_word, self.lstrip, self.rstrip, self._normalized, self.special = state
