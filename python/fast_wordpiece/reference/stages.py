"""Stages of a tokenizer's pipeline as objects of their own (``tokenizer.normalizer``,
``tokenizer.pre_tokenizer``, ``tokenizer.decoder``), with Hugging Face ``tokenizers``'
``normalize_str``, ``pre_tokenize_str`` and ``decode``."""

from __future__ import annotations

from collections.abc import Iterable

from fast_wordpiece.reference.args import _flag, _quoted, _text, _texts
from fast_wordpiece.reference.decoder import decode_tokens
from fast_wordpiece.reference.options import Options
from fast_wordpiece.reference.pre_tokenizer import pre_tokenize

#: The normalizer's switches, in the order ``Normalizer`` takes them.
SWITCHES = ("clean_text", "handle_chinese_chars", "strip_accents", "lowercase", "strip_all_marks")


class Normalizer:
    """A tokenizer's normalizer (stage 1, Hugging Face's ``BertNormalizer``): ``normalize_str(text)``
    gives the text the pre-tokenizer splits. Its switches are read-only: a tokenizer's options set
    them, and ``Normalizer(...)`` makes one on its own (the defaults are bert-base-uncased's)."""

    def __init__(
        self,
        clean_text: bool = True,
        handle_chinese_chars: bool = True,
        strip_accents: bool | None = None,
        lowercase: bool = True,
        strip_all_marks: bool = False,
    ) -> None:
        options = Options(
            clean_text=clean_text,
            handle_chinese_chars=handle_chinese_chars,
            strip_accents=strip_accents,
            lowercase=lowercase,
            strip_all_marks=strip_all_marks,
        )
        self._set(options)

    def _set(self, options: Options) -> None:
        self._switches = (options.clean_text, options.handle_chinese_chars, options.strip_accents,
                          options.lowercase, options.strip_all_marks)  # fmt: skip
        self._normalizer = options.normalizer

    @classmethod
    def of(cls, options: Options) -> Normalizer:
        """The normalizer ``options`` give."""
        normalizer = cls.__new__(cls)
        normalizer._set(options)
        return normalizer

    def __reduce__(self) -> tuple[type[Normalizer], tuple[bool | None, ...]]:
        """Pickling and copying keep the switches."""
        return type(self), self._switches

    def normalize_str(self, sequence: str) -> str:
        """The normalized ``sequence`` (a str), as Hugging Face's ``normalize_str``."""
        return str(self._normalizer.normalize(_text(sequence, "sequence"))[0])

    @property
    def clean_text(self) -> bool:
        """Drops NUL, U+FFFD, control and format characters, and makes whitespace a space."""
        return bool(self._switches[0])

    @property
    def handle_chinese_chars(self) -> bool:
        """Puts spaces around CJK ideographs."""
        return bool(self._switches[1])

    @property
    def strip_accents(self) -> bool | None:
        """Strips accents (None: when it lowercases)."""
        strip: bool | None = self._switches[2]
        return strip

    @property
    def lowercase(self) -> bool:
        """Lowercases every character."""
        return bool(self._switches[3])

    @property
    def strip_all_marks(self) -> bool:
        """Accent stripping drops every combining mark, as Hugging Face's ``NFD`` and ``StripAccents``
        do, not only the non-spacing ones."""
        return bool(self._switches[4])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Normalizer) and self._switches == other._switches

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Normalizer({', '.join(f'{n}={v}' for n, v in zip(SWITCHES, self._switches))})"


class PreTokenizer:
    """A tokenizer's pre-tokenizer (stage 2): ``pre_tokenize_str(text)`` splits (normalized) text into
    the words the model encodes. ``name`` is the tokenizer's ``pre_tokenizer`` option;
    ``PreTokenizer(name)`` makes one on its own."""

    def __init__(self, name: str = "bert") -> None:
        self._name = Options(pre_tokenizer=_text(name, "name")).pre_tokenizer

    def __reduce__(self) -> tuple[type[PreTokenizer], tuple[str]]:
        """Pickling and copying keep the name."""
        return type(self), (self._name,)

    def pre_tokenize_str(self, sequence: str) -> list[tuple[str, tuple[int, int]]]:
        """The words of ``sequence`` (a str) with their character offsets in it: ``[(word, (start,
        end)), ...]``, as Hugging Face's ``pre_tokenize_str``."""
        text = _text(sequence, "sequence")
        return [(text[start:end], (start, end)) for start, end in pre_tokenize(self._name, text)]

    @property
    def name(self) -> str:
        """``"bert"``, ``"whitespace"``, ``"regex"`` or ``"wordpunct"``."""
        return self._name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PreTokenizer) and self._name == other._name

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PreTokenizer({self._name!r})"


class Decoder:
    """A tokenizer's decoder (Hugging Face's ``decoders.WordPiece(prefix, cleanup)``): ``decode(tokens)``
    joins tokens into text, gluing the pieces that start with ``prefix`` to the token before them.
    ``Decoder(prefix, cleanup)`` makes one on its own."""

    def __init__(self, prefix: str = "##", cleanup: bool = True) -> None:
        self._prefix, self._cleanup = str(_text(prefix, "prefix")), _flag(cleanup, "cleanup")

    def __reduce__(self) -> tuple[type[Decoder], tuple[str, bool]]:
        """Pickling and copying keep the prefix and the clean-up switch."""
        return type(self), (self._prefix, self._cleanup)

    @classmethod
    def of(cls, options: Options) -> Decoder | None:
        """The decoder ``options`` give, or None for ``decoder="none"``."""
        if options.decoder == "none":
            return None
        return cls(options.continuing_subword_prefix, options.decoder_cleanup)

    def decode(self, tokens: Iterable[str]) -> str:
        """``tokens`` (an iterable of str) joined into text, as Hugging Face's ``decode``."""
        return decode_tokens(_texts(tokens, "tokens"), self._prefix, self._cleanup)

    @property
    def prefix(self) -> str:
        """The prefix of the pieces that continue a word."""
        return self._prefix

    @property
    def cleanup(self) -> bool:
        """Whether the clean-up rules remove the spaces before punctuation and in English contractions."""
        return bool(self._cleanup)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Decoder) and (self._prefix, self._cleanup) == (other._prefix, other._cleanup)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Decoder(prefix={_quoted(self._prefix)}, cleanup={self._cleanup})"


def tokens_to_string(options: Options, tokens: object) -> str:
    """``tokens`` joined as ``options``' decoder joins them: with a ``Decoder``, else
    (``decoder="none"``) with single spaces, as transformers' ``convert_tokens_to_string`` does."""
    texts, decoder = _texts(tokens, "tokens"), Decoder.of(options)
    return " ".join(texts) if decoder is None else decode_tokens(texts, decoder.prefix, decoder.cleanup)
