"""Names that every part of the twin shares."""

from __future__ import annotations

DEFAULT_SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
CONTINUATION = "##"
FILE_FORMAT, FILE_VERSION = "fast-wordpiece", 1

Pair = tuple[str, str]
Offsets = tuple[int, int]
