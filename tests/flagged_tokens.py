"""Hypothesis strategies shared by the tests of added tokens with random flags."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st


def flagged_tokens(contents: Sequence[str], flags: int) -> st.SearchStrategy[list[tuple[str, tuple[bool, ...]]]]:
    """One to five distinct contents, each with ``flags`` drawn booleans."""
    return st.lists(
        st.tuples(st.sampled_from(contents), st.tuples(*[st.booleans()] * flags)),
        min_size=1,
        max_size=5,
        unique_by=lambda t: t[0],
    )


def texts_of(parts: Sequence[str]) -> st.SearchStrategy[list[str]]:
    """One to six texts, each of up to twelve of ``parts``."""
    return st.lists(st.lists(st.sampled_from(parts), max_size=12).map("".join), min_size=1, max_size=6)
