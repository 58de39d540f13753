"""Spec section 7: decoding ids back to text."""

from __future__ import annotations

from collections.abc import Sequence

from fast_wordpiece.reference.common import CONTINUATION

CLEANUP = ((" .", "."), (" ?", "?"), (" !", "!"), (" ,", ","), (" ' ", "'"), (" n't", "n't"), (" 'm", "'m"),
           (" do not", " don't"), (" 's", "'s"), (" 've", "'ve"), (" 're", "'re"))  # fmt: skip


def decode_tokens(tokens: Sequence[str], prefix: str = CONTINUATION, cleanup: bool = True) -> str:
    """Hugging Face's ``decoders.WordPiece(prefix, cleanup)``."""
    out = []
    for i, token in enumerate(tokens):
        if i > 0:
            token = token[len(prefix) :] if token.startswith(prefix) else " " + token
        for dirty, clean in CLEANUP if cleanup else ():
            token = token.replace(dirty, clean)
        out.append(token)
    return "".join(out)


def clean_up_tokenization(text: str) -> str:
    """transformers' ``clean_up_tokenization`` (its decode's ``clean_up_tokenization_spaces=True``): the
    clean-up rules but ``" do not"``, in the same order, over a whole decoded text."""
    for dirty, clean in CLEANUP:
        if dirty != " do not":
            text = text.replace(dirty, clean)
    return text
