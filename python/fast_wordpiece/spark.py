"""Training on Spark (``pip install fast-wordpiece[spark]``).

The executors count the words of their partitions and split the counts by word
into as many parts as the shuffle has partitions; the shuffle brings part ``i``
of every partition to one executor, which adds them up (so no executor holds
more than its share of the distinct words: ``reduceByKey`` for RDDs and files,
``repartition`` by part for a DataFrame), and the driver collects the parts and
runs the merge loop. The result is the tokenizer that one process would train on the
same texts (docs/spec.md section 13).

What the executors count from:

- a DataFrame: its string ``column``, handed over as Arrow record batches
  (``mapInArrow``) that ``count_words`` reads in place, with no Python object
  per row;
- file paths or globs on a filesystem that every executor mounts (local
  disks, NFS): each file is read and counted by the engine
  (``WordCounts.from_files``), one task per file. For HDFS, S3 and the like,
  pass ``spark.read.text(urls)`` (a DataFrame with a ``value`` column);
- an RDD of str: each row goes through Python, the slowest of the three.
"""

from __future__ import annotations

import glob
import operator
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

from fast_wordpiece import PyTokenizer, WordCounts, count_words
from fast_wordpiece._cluster import check_counting_options, check_parts, check_pruning, require, train_counted

#: Texts counted at a time on an executor (RDD of str).
BATCH_TEXTS = 65536

#: What makes a path that does not exist as given a glob.
GLOB_CHARS = "*?["

Objective = Literal["likelihood", "pmi", "frequency"]


def _count_partition(texts: Iterable[Any], options: dict[str, Any], parts: int) -> Iterator[tuple[int, WordCounts]]:
    """The counts of one partition, split into ``parts`` by word (``WordCounts.split``):
    ``(i, part i)``. Rows that are None (SQL NULL) are skipped."""
    counts = WordCounts(**options)
    batch: list[str] = []
    for text in texts:
        if text is not None:
            batch.append(text)
            if len(batch) >= BATCH_TEXTS:
                counts.update(count_words(batch, **options))
                batch.clear()
    if batch:
        counts.update(count_words(batch, **options))
    return _nonempty(counts, parts)


def _nonempty(counts: WordCounts, parts: int) -> Iterator[tuple[int, WordCounts]]:
    """``(i, part i)`` of ``counts`` split into ``parts`` by word, but for the empty parts: the
    shuffle carries no record for them (else ``parts`` records per input partition, most of them
    empty when the words are few)."""
    return ((i, part) for i, part in enumerate(counts.split(parts)) if len(part))


def _default_parts(partitions: int, sc: Any) -> int:
    """The parts of the shuffle when ``num_partitions`` is None: one per input partition, but no
    more than the cluster's parallelism (every part is summed at once then; more parts would
    only multiply the records, up to partitions x parts)."""
    parallelism: int = sc.defaultParallelism
    return max(1, min(partitions, parallelism))


def _replaced(column: Any) -> Any:
    """A batch's string column with the bytes that are not UTF-8 (``spark.read.text`` leaves
    them) replaced with U+FFFD as Python's decoding replaces them; as it is when it is valid."""
    import pyarrow as pa

    try:
        column.validate(full=True)
    except pa.ArrowInvalid:
        raw = column.cast(pa.large_binary() if pa.types.is_large_string(column.type) else pa.binary())
        return pa.array([None if b is None else b.decode("utf-8", "replace") for b in raw.to_pylist()], pa.string())
    return column


def _count_arrow(batches: Iterable[Any], options: dict[str, Any], parts: int, errors: str, name: str) -> Iterator[Any]:
    """``mapInArrow``: the counts of one partition's record batches (column 0,
    nulls skipped), as record batches of ``(part, counts)``: part ``i`` of the
    counts split by word, in the ``.fwc`` format. ``count_words`` reads the
    batches in place into one count, each gathered group on a thread of its
    own (GIL released) while the next arrive from the JVM; with
    ``errors="replace"`` each batch is checked for UTF-8 first (``_replaced``)."""
    import pyarrow as pa

    columns = (batch.column(0) for batch in batches)
    try:
        counts = count_words(map(_replaced, columns) if errors == "replace" else columns, **options)
    except ValueError as e:
        if "invalid UTF-8" not in str(e):
            raise
        raise ValueError(f'column {name!r} holds text that is not UTF-8 ({e}): pass errors="replace"') from None
    for i, part in _nonempty(counts, parts):
        yield pa.RecordBatch.from_arrays(
            [pa.array([i], pa.int32()), pa.array([part.to_bytes()], pa.binary())], names=["part", "counts"]
        )


def _add_arrow(batches: Iterable[Any], min_count: int | None) -> Iterator[Any]:
    """``mapInArrow`` after the shuffle: rows ``(part, counts)`` sorted by part; adds
    up the counts of each part (pruned to ``min_count``), one part at a time."""
    import pyarrow as pa

    def done(part: int, counts: WordCounts) -> Any:
        if min_count:
            counts.prune(min_count)
        return pa.RecordBatch.from_arrays(
            [pa.array([part], pa.int32()), pa.array([counts.to_bytes()], pa.binary())], names=["part", "counts"]
        )

    part, total = -1, None
    for batch in batches:
        for i, data in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist()):
            counts = WordCounts.from_bytes(data)
            if total is None or i != part:
                if total is not None:
                    yield done(part, total)
                part, total = i, counts
            else:
                total.update(counts)
    if total is not None:
        yield done(part, total)


def _count_files(
    paths: Iterable[str], errors: str, options: dict[str, Any], parts: int
) -> Iterator[tuple[int, WordCounts]]:
    """The counts of one partition's files, read by the engine, split into ``parts`` by word."""
    files = list(paths)
    counts = WordCounts(**options)
    if files:
        counts = WordCounts.from_files(files, errors=errors, **options)  # type: ignore[arg-type]
    return _nonempty(counts, parts)


def _local_paths(texts: Any) -> list[str]:
    """The files of paths and globs (expanded here, on the driver)."""
    patterns = [texts] if isinstance(texts, (str, os.PathLike)) else list(texts)
    paths: list[str] = []
    for pattern in patterns:
        pattern = os.fspath(pattern)
        if "://" in pattern and not pattern.startswith("file://"):
            raise ValueError(
                f"{pattern}: fast_wordpiece.spark reads files that every executor mounts; "
                f"for other filesystems pass spark.read.text(urls)"
            )
        if pattern.startswith("file:"):  # file:///a and Hadoop's file:/a
            pattern = pattern.removeprefix("file:").removeprefix("//")
        # A path that exists is read as given, though it holds glob characters (shard[1].txt).
        is_glob = any(c in pattern for c in GLOB_CHARS) and not os.path.exists(pattern)
        # A glob's files, as Dask's fsspec expands it: a directory it matches is left out.
        matches = sorted(m for m in glob.glob(pattern) if not os.path.isdir(m)) if is_glob else [pattern]
        if not is_glob:
            os.stat(pattern)  # a file that cannot be read is named as open() names it (missing, under a file, ...)
        if not matches:
            raise FileNotFoundError(f"no file matches {pattern}")
        for match in matches:
            if os.path.isdir(match):
                raise IsADirectoryError(f"{match} is a directory: pass the files in it ({match}/*)")
        paths.extend(os.path.abspath(p) for p in matches)
    if not paths:
        raise FileNotFoundError("no files to count")
    return paths


def _is_paths(texts: Any) -> bool:
    if isinstance(texts, (str, os.PathLike)):
        return True
    return isinstance(texts, (list, tuple)) and all(isinstance(p, (str, os.PathLike)) for p in texts)


def _add(a: WordCounts, b: WordCounts) -> WordCounts:
    a.update(b)
    return a


def _identity(key: int) -> int:
    return key


def count(
    df_or_rdd: Any,
    *,
    column: str = "text",
    num_partitions: int | None = None,
    min_count: int | None = None,
    max_words: int | None = None,
    errors: Literal["strict", "replace"] = "strict",
    spark_context: Any = None,
    **options: Any,
) -> WordCounts:
    """The word counts of a DataFrame's ``column`` of strings, of an RDD of str, or of
    text files (paths or globs on a filesystem every executor mounts, a path that exists
    read as given though it holds glob characters; ``errors`` as
    in ``WordCounts.from_files``, and for a column that is not valid UTF-8, as
    ``spark.read.text`` leaves bad bytes; ``spark_context``: default the active one).

    Each partition's counts are split by word into ``num_partitions`` parts
    (default: the input's partitions, at most ``defaultParallelism``; an empty
    part is not sent), the shuffle adds up part ``i`` of every
    partition on one executor (``reduceByKey``; for a DataFrame, ``repartition``
    by part, all in the JVM), and the driver collects the parts (which share no
    word). Pickled ``WordCounts`` travel, not one object per word.
    ``min_count`` / ``max_words`` prune (approximate, opt-in; ``min_count`` is
    applied on the executors after the sums, so the driver never receives the
    words below it).
    """
    check_counting_options(count, options)  # on the driver
    if errors not in ("strict", "replace"):
        raise ValueError(f'errors must be "strict" or "replace", not {errors!r}')
    if num_partitions is not None:
        check_parts("num_partitions", num_partitions, 1)
    check_pruning(min_count, max_words)
    if _is_paths(df_or_rdd):
        pyspark = require("pyspark", "spark")
        paths = _local_paths(df_or_rdd)
        sc = spark_context or pyspark.SparkContext.getOrCreate()
        parts = num_partitions or _default_parts(len(paths), sc)
        files = sc.parallelize(paths, len(paths))
        counted = files.mapPartitions(lambda paths: _count_files(paths, errors, options, parts))
    elif hasattr(df_or_rdd, "select") and hasattr(df_or_rdd, "mapInArrow"):  # a DataFrame
        # What mapInArrow needs besides Spark, asked for here rather than by a failing task.
        require("pyarrow", "spark")
        require("pandas", "spark")
        df = df_or_rdd.select(column)
        kind = df.schema.fields[0].dataType.typeName()
        if kind not in ("string", "varchar", "char"):
            raise TypeError(
                f"column {df.columns[0]!r} must be of strings, not of {df.schema.fields[0].dataType.simpleString()}"
            )
        rows = df.rdd
        parts = num_partitions or _default_parts(rows.getNumPartitions(), rows.context)
        schema = "part int, counts binary"
        name = column if isinstance(column, str) else str(column)
        counted_df = df.mapInArrow(lambda batches: _count_arrow(batches, options, parts, errors, name), schema)
        # The shuffle stays in the JVM: rows (part, counts) go by part to
        # `parts` tasks, which add up each part in turn (Python workers
        # of one kind, reused from stage to stage).
        by_part = counted_df.repartition(parts, "part").sortWithinPartitions("part")
        summed_df = by_part.mapInArrow(lambda batches: _add_arrow(batches, min_count), schema)
        counts = WordCounts(**options)
        for row in summed_df.collect():
            counts.update(WordCounts.from_bytes(bytes(row[1])))
        if max_words is not None:
            counts.prune(max_words=max_words)
        return counts
    else:
        rdd = df_or_rdd
        if hasattr(rdd, "select") and hasattr(rdd, "rdd"):  # a DataFrame of a Spark without mapInArrow
            rdd = rdd.select(column).rdd.map(operator.itemgetter(0))
        if not (hasattr(rdd, "mapPartitions") and hasattr(rdd, "getNumPartitions")):
            raise TypeError(
                "df_or_rdd must be a Spark DataFrame, an RDD of str, or a path or glob or a list of them, "
                f"not {type(df_or_rdd).__name__}"
            )
        parts = num_partitions or _default_parts(rdd.getNumPartitions(), rdd.context)
        counted = rdd.mapPartitions(lambda texts: _count_partition(texts, options, parts))
    summed = counted.reduceByKey(_add, parts, _identity)
    if min_count:
        summed = summed.mapValues(lambda counts: (counts.prune(min_count), counts)[1])
    counts = WordCounts(**options)
    for part in summed.values().collect():
        counts.update(part)
    if max_words is not None:
        counts.prune(max_words=max_words)
    return counts


def train(
    df_or_rdd: Any,
    vocab_size: int = 30000,
    min_frequency: int | None = None,
    *,
    column: str = "text",
    num_partitions: int | None = None,
    min_count: int | None = None,
    max_words: int | None = None,
    special_tokens: Sequence[str] | None = None,
    objective: Objective | None = None,
    limit_alphabet: int | None = None,
    initial_alphabet: Iterable[str] | None = None,
    continuing_subword_prefix: str = "##",
    show_progress: bool = False,
    errors: Literal["strict", "replace"] = "strict",
    spark_context: Any = None,
    **options: Any,
) -> PyTokenizer:
    """Trains a tokenizer on the texts of a DataFrame's ``column``, of an RDD or of
    files (see ``count``): counting on the executors, the merge loop on the driver. The training
    arguments, the pipeline options and their defaults are ``PyTokenizer.train``'s
    (``vocab_size=30000``; but ``show_progress``, False here), checked before any work on the
    cluster. The counting options go to ``count``, the others (``unk_token``, ...) to
    ``PyTokenizer.train_from_counts``."""
    return train_counted(
        train,
        lambda counting: count(
            df_or_rdd,
            column=column,
            num_partitions=num_partitions,
            min_count=min_count,
            max_words=max_words,
            errors=errors,
            spark_context=spark_context,
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
