"""transformers' parameter names (spec section 10): code written for ``PreTrainedTokenizerFast``
that passes an argument by keyword (``decode(token_ids=...)``, ``add_tokens(new_tokens=...)``,
``save_pretrained(save_directory=...)``, ``from_pretrained(pretrained_model_name_or_path=...)``)
runs on ours and gives what transformers gives. Engine and twin; ``UnigramTokenizer`` too for the
methods it shares."""

from __future__ import annotations

import importlib
import inspect
import shutil
from pathlib import Path
from typing import Any

import pytest
from implementations import IMPLEMENTATIONS

transformers = pytest.importorskip("transformers", reason="transformers is a test dependency")

#: Methods whose parameters differ on purpose: ``encode`` is Hugging Face ``tokenizers``' (it
#: returns an ``Encoding``; transformers' ids are ``tok(text)["input_ids"]``); ``__call__`` and
#: ``pad`` take ``*args, **kwargs`` and check them inside (their own tests).
OWN = {"encode", "__call__", "pad"}

HUB = {"cache_dir": None, "force_download": False, "local_files_only": True, "token": None, "revision": "main",
       "trust_remote_code": False}  # fmt: skip


def _named(function: Any) -> tuple[list[str], set[str], bool]:
    """The positional-or-keyword parameters in order, the keyword-only ones, and whether there is a
    ``**kwargs``."""
    parameters = [p for p in inspect.signature(function).parameters.values() if p.name not in ("self", "cls")]
    positional = [p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
    keyword = {p.name for p in parameters if p.kind is p.KEYWORD_ONLY}
    return positional, keyword, any(p.kind is p.VAR_KEYWORD for p in parameters)


def _shared_methods(ours: type, theirs: type) -> list[str]:
    names = []
    for name in sorted(set(dir(ours)) & set(dir(theirs))):
        if name in OWN or (name.startswith("_") and name != "__call__"):
            continue
        mine, hers = getattr(ours, name), getattr(theirs, name)
        if callable(mine) and callable(hers) and not isinstance(hers, type):
            try:
                inspect.signature(hers)
            except (TypeError, ValueError):
                continue
            names.append(name)
    return names


@pytest.mark.parametrize("cls", ["PyTokenizer", "UnigramTokenizer"])
@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_every_shared_method_takes_transformers_parameters_by_their_names(impl: str, cls: str) -> None:
    """transformers' positional parameters come first in ours, in its order and by its names; its
    keyword-only ones (the hub's, for ``from_pretrained``) are taken, by name or by ``**kwargs``."""
    ours = getattr(importlib.import_module(IMPLEMENTATIONS[impl]), cls)
    methods = _shared_methods(ours, transformers.PreTrainedTokenizerFast)
    assert {"decode", "add_tokens", "save_pretrained", "from_pretrained", "convert_ids_to_tokens"} <= set(methods) or (
        cls == "UnigramTokenizer"
    )
    for name in methods:
        mine, mine_keywords, mine_rest = _named(getattr(ours, name))
        hers, hers_keywords, _ = _named(getattr(transformers.PreTrainedTokenizerFast, name))
        assert mine[: len(hers)] == hers, (name, mine, hers)
        assert mine_rest or hers_keywords <= mine_keywords | set(mine), (name, hers_keywords)


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_calls_by_transformers_keywords_give_what_transformers_gives(
    impl: str, bert_tokenizer_json: Path, tmp_path: Path
) -> None:
    directory = tmp_path / "model"
    directory.mkdir()
    shutil.copy(bert_tokenizer_json, directory / "tokenizer.json")
    module = importlib.import_module(IMPLEMENTATIONS[impl])
    ours = module.PyTokenizer.from_pretrained(pretrained_model_name_or_path=directory, **HUB)
    theirs = transformers.PreTrainedTokenizerFast.from_pretrained(pretrained_model_name_or_path=directory, **HUB)

    ids = theirs("hello world, it's fine")["input_ids"]
    assert ours.decode(token_ids=ids) == theirs.decode(token_ids=ids)
    skipped = theirs.decode(token_ids=ids, skip_special_tokens=True)
    assert ours.decode(token_ids=ids, skip_special_tokens=True) == skipped
    assert ours.add_tokens(new_tokens=["newword1"]) == theirs.add_tokens(new_tokens=["newword1"]) == 1
    added = {"additional_special_tokens": ["<q>"]}
    assert ours.add_special_tokens(special_tokens_dict=added) == theirs.add_special_tokens(special_tokens_dict=added)
    text = "a newword1 <q> b"
    assert ours(text)["input_ids"] == theirs(text)["input_ids"]

    saved = tmp_path / "saved"
    ours.save_pretrained(save_directory=saved, save_format="hf")
    again = transformers.PreTrainedTokenizerFast.from_pretrained(saved)
    assert again(text)["input_ids"] == theirs(text)["input_ids"]
    assert module.PyTokenizer.from_pretrained(saved)(text)["input_ids"] == theirs(text)["input_ids"]


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
def test_unigram_takes_the_same_keywords(impl: str, tmp_path: Path) -> None:
    module = importlib.import_module(IMPLEMENTATIONS[impl])
    tokenizer = module.UnigramTokenizer.train(["hello world"] * 10, 20, special_tokens=["<unk>"], show_progress=False)
    tokenizer.save_pretrained(save_directory=tmp_path, save_format=None)
    loaded = module.UnigramTokenizer.from_pretrained(pretrained_model_name_or_path=tmp_path, **HUB)
    ids = loaded("hello world")["input_ids"]
    assert loaded.decode(token_ids=ids) == tokenizer.decode(ids) == "hello world"


def test_bound_methods_show_no_self() -> None:
    """A ``text_signature`` written ``(self, ...)`` rather than ``($self, ...)`` leaves ``self`` in
    the signature of a bound method, and ``inspect.signature(tok.decode).bind(ids)`` then fails."""
    import fast_wordpiece as fw

    texts = ["hello world"] * 5
    objects = [
        fw.PyTokenizer.train(texts, 30, show_progress=False),
        fw.UnigramTokenizer.train(texts, 10, special_tokens=["<unk>"], show_progress=False),
        fw.BPETokenizer.train(texts, 260, special_tokens=["<pad>"], show_progress=False),
        fw.CharTokenizer.train(texts, special_tokens=["[UNK]"], show_progress=False),
        fw.WordCounts(),
    ]
    objects.append(objects[0].encode("hello"))
    seen = 0
    for obj in objects:
        for name in dir(obj):
            if (name.startswith("_") and name != "__call__") or name == "words":  # a deprecated property
                continue
            method = getattr(obj, name)
            if not inspect.ismethod(method) and not inspect.isbuiltin(method):
                continue
            try:
                parameters = list(inspect.signature(method).parameters)
            except (TypeError, ValueError):
                continue
            assert parameters[:1] != ["self"], f"{type(obj).__name__}.{name}{inspect.signature(method)}"
            seen += 1
    assert seen > 100
