"""Training on a Dask cluster (``pip install fast-wordpiece[dask]``).

The workers count the words of their partitions (``count_words``, or
``WordCounts.from_files`` for local files), the counts are added up in a tree
reduction (``split_every`` at a time, pickled in the ``.fwc`` format), and the
merge loop runs on the client, whose memory holds the distinct words of the
corpus, never the corpus. The result is the tokenizer that one process would
train on the same texts (docs/spec.md section 13).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any, Literal, Union

from fast_wordpiece import PyTokenizer, WordCounts, count_words
from fast_wordpiece._cluster import check_counting_options, check_parts, check_pruning, require, train_counted

#: Lines streamed from a remote file to ``count_words`` at a time.
BATCH_BYTES = 8 << 20

Objective = Literal["likelihood", "pmi", "frequency"]

#: What makes a path that does not exist as given a glob.
GLOB_CHARS = "*?["

Paths = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]


def _missing(item: Any) -> bool:
    """Whether ``item`` is a missing value of a column: None, a float NaN or pandas' ``NA`` (what a
    dask DataFrame column of strings gives from ``to_bag()``, pyarrow-backed by default)."""
    if item is None:
        return True
    if isinstance(item, float):
        return item != item
    pandas = sys.modules.get("pandas")
    return pandas is not None and item is getattr(pandas, "NA", None)


def _count_texts(texts: Iterable[Any], options: dict[str, Any]) -> WordCounts:
    """One partition of a Bag; missing values (``_missing``) are skipped, as Spark skips SQL
    NULL."""
    return count_words([text for text in texts if type(text) is str or not _missing(text)], **options)


def _count_file(file: Any, errors: str, options: dict[str, Any]) -> WordCounts:
    """One file of ``fsspec.open_files``: read by the engine when local, streamed otherwise."""
    protocol = file.fs.protocol
    if "file" in (protocol if isinstance(protocol, tuple) else (protocol,)):
        return WordCounts.from_files(file.path, errors=errors, **options)  # type: ignore[arg-type]
    counts = WordCounts(**options)
    with file as f:
        tail, offset = b"", 0  # offset: where tail starts in the file
        while True:
            chunk = f.read(BATCH_BYTES)
            data = tail + chunk
            cut = len(data) if not chunk else data.rfind(b"\n") + 1
            if cut:
                try:
                    text = data[:cut].decode("utf-8", errors=errors)
                except UnicodeDecodeError as e:
                    raise ValueError(
                        f"{file.full_name}: invalid UTF-8 at byte offset {offset + e.start} "
                        f'(pass errors="replace" to replace it)'
                    ) from None
                counts.update(count_words([line.removesuffix("\r") for line in text.split("\n")], **options))
            tail, offset = data[cut:], offset + cut
            if not chunk:
                return counts


def _count_files(files: Iterable[Any], errors: str, options: dict[str, Any]) -> WordCounts:
    counts = WordCounts(**options)
    for file in files:
        counts.update(_count_file(file, errors, options))
    return counts


def _paths(texts: Any) -> list[str]:
    """The paths, globs or URLs of ``texts`` (one, or a list or tuple of them); a TypeError for
    anything else, which would otherwise be read as paths (a Series' texts)."""
    if isinstance(texts, (str, os.PathLike)):
        return [os.fspath(texts)]
    if isinstance(texts, (list, tuple)) and all(isinstance(p, (str, os.PathLike)) for p in texts):
        return [os.fspath(p) for p in texts]
    hint = " (a dask DataFrame's column: pass column.to_bag())" if hasattr(texts, "to_bag") else ""
    raise TypeError(
        f"texts must be a dask.bag.Bag of str, or a path, glob or URL or a list of them, not {type(texts).__name__}"
        + hint
    )


def _open_files(fsspec: Any, paths: list[str]) -> list[Any]:
    """The files of ``paths`` to read, opened lazily (``fsspec.core.OpenFile``). A path that
    exists as given is that file, though it holds glob characters (``shard[1].txt``); one that
    does not and holds some (``*?[``) is a glob, expanded here (its files, sorted, no directory;
    none is a FileNotFoundError); another path is that file, read by a worker (whose error it is
    when the file is missing: the workers may mount what the client does not)."""
    if not paths:
        raise FileNotFoundError("no files to count")
    files: list[Any] = []
    for path in paths:
        fs, stripped = fsspec.core.url_to_fs(path)
        if any(c in stripped for c in GLOB_CHARS) and not fs.exists(stripped):
            matches = [match for match in sorted(fs.glob(stripped)) if not fs.isdir(match)]
            if not matches:
                raise FileNotFoundError(f"no file matches {path}")
        else:
            matches = [stripped]
        files.extend(fsspec.core.OpenFile(fs, match, mode="rb") for match in matches)
    return files


def _merge(parts: Iterable[WordCounts], prune: dict[str, Any] | None) -> WordCounts:
    parts = iter(parts)
    total = next(parts)
    for part in parts:
        total.update(part)
    if prune:
        total.prune(prune.get("min_count"), max_words=prune.get("max_words"))
    return total


def count(
    texts: Any,
    *,
    errors: Literal["strict", "replace"] = "strict",
    split_every: int = 8,
    min_count: int | None = None,
    max_words: int | None = None,
    client: Any = None,
    **options: Any,
) -> WordCounts:
    """The word counts of ``texts`` (a ``dask.bag.Bag`` of str, missing values skipped: None,
    NaN, pandas' ``NA``; or file paths, globs or fsspec URLs, one task per file), counted on the
    workers and summed in a tree.

    ``min_count`` / ``max_words`` prune every partial sum (approximate, opt-in:
    see ``WordCounts.prune``). ``client``: a ``distributed.Client`` (default: the
    current one, or Dask's default scheduler when there is none).
    """
    check_counting_options(count, options)  # here rather than on every worker
    if errors not in ("strict", "replace"):
        raise ValueError(f'errors must be "strict" or "replace", not {errors!r}')
    check_parts("split_every", split_every, 2)
    check_pruning(min_count, max_words)
    db = require("dask.bag", "dask")
    prune = {"min_count": min_count, "max_words": max_words} if min_count or max_words is not None else None
    if isinstance(texts, db.Bag):
        total = texts.reduction(
            lambda part: _count_texts(part, options), lambda parts: _merge(parts, prune), split_every=split_every
        )
    else:
        fsspec = require("fsspec", "dask")
        files = _open_files(fsspec, _paths(texts))
        bag = db.from_sequence(files, npartitions=len(files))
        total = bag.reduction(
            lambda part: _count_files(part, errors, options),
            lambda parts: _merge(parts, prune),
            split_every=split_every,
        )
    result: WordCounts = client.compute(total).result() if client is not None else total.compute()
    return result


def train(
    texts: Any,
    vocab_size: int = 30000,
    min_frequency: int | None = None,
    *,
    client: Any = None,
    errors: Literal["strict", "replace"] = "strict",
    split_every: int = 8,
    min_count: int | None = None,
    max_words: int | None = None,
    special_tokens: Sequence[str] | None = None,
    objective: Objective | None = None,
    limit_alphabet: int | None = None,
    initial_alphabet: Iterable[str] | None = None,
    continuing_subword_prefix: str = "##",
    show_progress: bool = False,
    **options: Any,
) -> PyTokenizer:
    """Trains a tokenizer on ``texts`` (see ``count``): counting on the workers,
    the merge loop here. The same vocabulary as ``PyTokenizer.train`` /
    ``train_from_files`` on the same texts (unless pruned); the training arguments, the pipeline
    options and their defaults are theirs (``vocab_size=30000``; but ``show_progress``, False
    here), checked before any work on the cluster. The counting options go to ``count``, the
    others (``unk_token``, ...) to ``PyTokenizer.train_from_counts``."""
    return train_counted(
        train,
        lambda counting: count(
            texts,
            errors=errors,
            split_every=split_every,
            min_count=min_count,
            max_words=max_words,
            client=client,
            **counting,
        ),
        vocab_size,
        min_frequency,
        show_progress,
        options,
        dict(
            special_tokens=special_tokens,
            objective=objective,
            limit_alphabet=limit_alphabet,
            initial_alphabet=initial_alphabet,
            continuing_subword_prefix=continuing_subword_prefix,
        ),
    )
