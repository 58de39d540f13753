"""transformers' keywords of ``from_pretrained`` and ``save_pretrained`` that say where the files are or
how they are published, not what the tokenizer is (spec section 10): ``subfolder`` reads a model
repository's ``tokenizer/``, as transformers does; ``save_pretrained`` takes ``legacy_format``,
``filename_prefix``, ``push_to_hub`` and ``save_format`` and refuses what it cannot do before writing anything. The same
for ``PyTokenizer`` and ``UnigramTokenizer``, engine and twin.
"""

from __future__ import annotations

import errno
import importlib
import re
from pathlib import Path
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS, outcome

CORPUS = ["hello world the quick brown fox jumps over the lazy dog", "hello there brown world"] * 20
TEXTS = ["hello world fox", "the lazy dog jumps", ""]


def _module(impl: str) -> Any:
    return importlib.import_module(IMPLEMENTATIONS[impl])


def _trained(impl: str, kind: str) -> Any:
    """A small tokenizer of ``kind`` (``"wordpiece"`` or ``"unigram"``) with a maximum length set."""
    module = _module(impl)
    if kind == "wordpiece":
        tokenizer = module.PyTokenizer.train(CORPUS, 60, show_progress=False)
    else:
        tokenizer = module.UnigramTokenizer.train(CORPUS, 40, show_progress=False)
    tokenizer.model_max_length = 7
    return tokenizer


def _loader(impl: str, kind: str) -> Any:
    module = _module(impl)
    return module.PyTokenizer if kind == "wordpiece" else module.UnigramTokenizer


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.mark.parametrize("kind", ["wordpiece", "unigram"])
@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_subfolder_reads_the_tokenizer_folder_of_a_model_repository(impl: str, kind: str, tmp_path: Path) -> None:
    _trained(impl, kind).save_pretrained(tmp_path / "tokenizer")
    loader = _loader(impl, kind)
    direct = loader.from_pretrained(tmp_path / "tokenizer")
    for sub in ("tokenizer", "tokenizer/", Path("tokenizer")):
        nested = loader.from_pretrained(tmp_path, subfolder=sub)
        assert nested.model_max_length == direct.model_max_length == 7
        for text in TEXTS:
            assert dict(nested(text, truncation=True)) == dict(direct(text, truncation=True))
    if kind == "wordpiece":  # transformers keeps the directory given as the name, not the subfolder
        assert loader.from_pretrained(tmp_path, subfolder="tokenizer").name_or_path == str(tmp_path)
    # None and "" mean no subfolder, as in transformers.
    (tmp_path / "tokenizer").rename(tmp_path / "here")
    for sub in (None, ""):
        assert (
            loader.from_pretrained(tmp_path / "here", subfolder=sub)("hello fox")["input_ids"]
            == (direct("hello fox")["input_ids"])
        )


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_subfolder_reads_what_transformers_reads(impl: str, tmp_path: Path) -> None:
    transformers = pytest.importorskip("transformers", reason="optional: transformers is not installed")
    _trained(impl, "wordpiece").save_pretrained(tmp_path / "tokenizer")
    ours = _loader(impl, "wordpiece").from_pretrained(tmp_path, subfolder="tokenizer")
    theirs = transformers.AutoTokenizer.from_pretrained(str(tmp_path), subfolder="tokenizer")
    assert ours.name_or_path == theirs.name_or_path
    assert ours.model_max_length == theirs.model_max_length
    for text in TEXTS:
        assert dict(ours(text, truncation=True)) == dict(theirs(text, truncation=True))


@pytest.mark.parametrize("kind", ["wordpiece", "unigram"])
@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_a_bad_or_missing_subfolder_is_named(impl: str, kind: str, tmp_path: Path) -> None:
    _trained(impl, kind).save_pretrained(tmp_path / "tokenizer")
    loader = _loader(impl, kind)
    with pytest.raises(TypeError, match=r"^subfolder must be str, bytes or os\.PathLike, not int$"):
        loader.from_pretrained(tmp_path, subfolder=3)
    with pytest.raises(ValueError, match=r"^subfolder contains a lone surrogate at index 0, which is not valid"):
        loader.from_pretrained(tmp_path, subfolder="\ud800")
    with pytest.raises(FileNotFoundError) as missing:
        loader.from_pretrained(tmp_path, subfolder="tokenizr")
    assert missing.value.filename == str(tmp_path / "tokenizr")
    assert missing.value.strerror == f'"{tmp_path}" has no subfolder "tokenizr"'
    assert missing.value.errno == errno.ENOENT


@pytest.mark.parametrize("kind", ["wordpiece", "unigram"])
@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_save_pretrained_takes_transformers_keywords(impl: str, kind: str, tmp_path: Path) -> None:
    tokenizer = _trained(impl, kind)
    plain = tmp_path / "plain"
    tokenizer.save_pretrained(plain)
    # transformers 5's fast tokenizers write the same files whatever legacy_format says; so do we.
    for i, keywords in enumerate(
        [
            {"legacy_format": False},
            {"legacy_format": True},
            {"legacy_format": None, "filename_prefix": None, "push_to_hub": False},
            {"push_to_hub": None},
            {"filename_prefix": ""},
            {"save_format": "hf"},
            {"save_format": None},
        ]
    ):
        target = tmp_path / f"saved{i}"
        written = tokenizer.save_pretrained(target, **keywords)
        assert sorted(Path(p).name for p in written) == sorted(_files(plain)), keywords
        assert _files(target) == _files(plain), keywords


@pytest.mark.parametrize("kind", ["wordpiece", "unigram"])
@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_save_pretrained_refuses_what_it_cannot_do_before_writing(impl: str, kind: str, tmp_path: Path) -> None:
    tokenizer = _trained(impl, kind)
    target = tmp_path / "out"
    refused: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"push_to_hub": True}, ValueError, r"^push_to_hub=True is not supported: save_pretrained never uploads; "
                                            r"upload the directory with huggingface_hub\.upload_folder"),
        ({"filename_prefix": "mine"}, ValueError, r'^filename_prefix "mine" is not supported: from_pretrained '
                                                  r"\(ours and transformers'\) reads the files without a prefix"),
        ({"push_to_hub": "yes"}, TypeError, r"^push_to_hub must be bool, not str$"),
        ({"legacy_format": 1}, TypeError, r"^legacy_format must be bool, not int$"),
        ({"filename_prefix": 2}, TypeError, r"^filename_prefix must be str, not int$"),
        ({"save_format": "mistral"}, ValueError, r'^save_format "mistral" is not supported: save_pretrained writes '
                                                 r"Hugging Face's files \(.hf.\)$"),
        ({"save_format": "gguf"}, ValueError,
         r'^save_format must be "hf" \(or transformers\' "mistral"\), not "gguf"$'),
        ({"save_format": 1}, TypeError, r"^save_format must be str or None, not int$"),
    ]  # fmt: skip
    for keywords, error, message in refused:
        with pytest.raises(error, match=message):
            tokenizer.save_pretrained(target, **keywords)
        assert not target.exists(), keywords
    with pytest.raises(TypeError, match=re.escape("unexpected keyword argument 'commit_message'")):
        tokenizer.save_pretrained(target, commit_message="x")


@pytest.mark.parametrize("kind", ["wordpiece", "unigram"])
def test_engine_and_twin_agree_on_the_keywords(kind: str, tmp_path: Path) -> None:
    engine, twin = (_trained(impl, kind) for impl in IMPLEMENTATIONS)
    engine.save_pretrained(tmp_path / "tokenizer")
    cases: list[dict[str, Any]] = [
        {"subfolder": "tokenizer"}, {"subfolder": b"tokenizer"}, {"subfolder": "nothing"}, {"subfolder": 1.5},
        {"subfolder": "tokenizer", "use_auth_token": None, "resume_download": False, "_from_auto": True,
         "_from_pipeline": "fill-mask", "_commit_hash": None},
    ]  # fmt: skip
    for keywords in cases:
        got = [
            outcome(lambda impl=impl, kw=keywords: type(_loader(impl, kind).from_pretrained(tmp_path, **kw)).__name__)
            for impl in IMPLEMENTATIONS
        ]
        assert got[0] == got[1], keywords
    saves: list[dict[str, Any]] = [
        {"legacy_format": "no"},
        {"filename_prefix": "a", "push_to_hub": True},
        {"save_format": "HF"},
        {"save_format": "\ud800"},
    ]
    for i, keywords in enumerate(saves):
        got = [
            outcome(lambda t=t, kw=keywords, i=i: t.save_pretrained(tmp_path / f"s{i}", **kw)) for t in (engine, twin)
        ]
        assert got[0] == got[1], keywords
