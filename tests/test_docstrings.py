"""Every public class, method, function and property of the engine and the twin
says what it does: ``help()`` never shows a bare signature or Python's generic
text ("Call self as a function.") for one of ours (scripts/check_docstrings.py
walks them)."""

from __future__ import annotations

import check_docstrings
import pytest

import fast_wordpiece
import fast_wordpiece.reference


def test_every_public_member_has_a_docstring_of_its_own() -> None:
    missing = sorted(check_docstrings.gaps())
    assert missing == [], "no docstring of their own:\n" + "\n".join(missing)


def test_the_walk_covers_both_implementations_and_their_members() -> None:
    # The check is only as good as its walk: it sees the members that matter.
    walked = set(check_docstrings.members())
    for module in (fast_wordpiece, fast_wordpiece.reference):
        for name in ("PyTokenizer", "BPETokenizer", "CharTokenizer", "UnigramTokenizer", "WordCounts"):
            assert f"{module.__name__}.{name}" in walked
            for member in ("encode" if name != "WordCounts" else "most_common", "__len__"):
                assert f"{module.__name__}.{name}.{member}" in walked
    assert "fast_wordpiece.UnigramTokenizer.__call__" in walked
    assert "fast_wordpiece.AddedToken.content" in walked  # a slot
    assert "fast_wordpiece.count_words" in walked  # a function
    # Private names and Python's own dunders are left out.
    underscored = {m.rsplit(".", 1)[1] for m in walked if m.rsplit(".", 1)[1].startswith("_")}
    assert underscored == {"__call__", "__len__", "__getitem__"}


@pytest.mark.parametrize(
    ("doc", "generic"),
    [
        (None, True),
        ("  ", True),
        ("Call self as a function.", True),
        ("Return len(self).", True),
        ("Initialize self.  See help(type(self)) for accurate signature.", True),
        ("Alias for field number 0", True),
        ("The number of tokens in the vocabulary.", False),
    ],
)
def test_generic_texts_are_told_apart(doc: str | None, generic: bool) -> None:
    assert check_docstrings.is_generic(doc) is generic


def test_a_dataclass_without_a_docstring_is_a_gap() -> None:
    from dataclasses import dataclass

    @dataclass
    class Bare:
        x: int = 0

    assert check_docstrings.is_generic(Bare.__doc__, Bare)


def test_engine_slots_must_be_shown_in_the_class_docstring() -> None:
    # PyO3 cannot give __call__ / __len__ / __getitem__ a docstring of their
    # own (Python shows a slot's fixed text): the class docstring shows them.
    assert fast_wordpiece.UnigramTokenizer.__call__.__doc__ == "Call self as a function."
    for cls in (fast_wordpiece.BPETokenizer, fast_wordpiece.CharTokenizer, fast_wordpiece.UnigramTokenizer):
        assert "tokenizer(text" in (cls.__doc__ or "")
        assert "len(tokenizer)" in (cls.__doc__ or "")
    assert 'encoding["ids"]' in (fast_wordpiece.Encoding.__doc__ or "")
    assert "counts[word]" in (fast_wordpiece.WordCounts.__doc__ or "")
