"""Training on Spark (``pip install fast-wordpiece[spark]``).

The executors count the words of their partitions (``count_words``, in batches)
and split the counts by word into as many parts as the shuffle has partitions;
``reduceByKey`` adds part ``i`` of every partition up on one executor (so no
executor holds more than its share of the distinct words), and the driver
collects the parts and runs the merge loop. The result is the tokenizer that one process would train on
the same texts (docs/spec.md section 13).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

from fast_wordpiece import PyTokenizer, WordCounts, count_words

#: Texts counted at a time on an executor.
BATCH_TEXTS = 65536

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
    return enumerate(counts.split(parts))


def _add(a: WordCounts, b: WordCounts) -> WordCounts:
    a.update(b)
    return a


def _identity(key: int) -> int:
    return key


def count(df_or_rdd: Any, *, column: str = "text", num_partitions: int | None = None,
          min_count: int | None = None, max_words: int | None = None, **options: Any) -> WordCounts:  # fmt: skip
    """The word counts of a DataFrame's ``column`` of strings, or of an RDD of str.

    Each partition's counts are split by word into ``num_partitions`` parts
    (default: the input's partitions), ``reduceByKey`` adds up part ``i`` of
    every partition on one executor, and the driver collects the parts (which
    share no word). Pickled ``WordCounts`` travel, not one object per word.
    ``min_count`` / ``max_words`` prune (approximate, opt-in; ``min_count`` is
    applied on the executors after the sums, so the driver never receives the
    words below it).
    """
    WordCounts(**options)  # the options, checked on the driver
    rdd = df_or_rdd
    if hasattr(df_or_rdd, "select") and hasattr(df_or_rdd, "rdd"):  # a DataFrame
        rdd = df_or_rdd.select(column).rdd.map(operator.itemgetter(0))
    parts = num_partitions or max(1, rdd.getNumPartitions())
    summed = rdd.mapPartitions(lambda texts: _count_partition(texts, options, parts)).reduceByKey(
        _add, parts, _identity
    )
    if min_count:
        summed = summed.mapValues(lambda counts: (counts.prune(min_count), counts)[1])
    counts = WordCounts(**options)
    for part in summed.values().collect():
        counts.update(part)
    if max_words is not None:
        counts.prune(max_words=max_words)
    return counts


def train(df_or_rdd: Any, vocab_size: int, min_frequency: int | None = None, *, column: str = "text",
          num_partitions: int | None = None, min_count: int | None = None, max_words: int | None = None,
          special_tokens: Sequence[str] | None = None, objective: Objective | None = None,
          limit_alphabet: int | None = None, show_progress: bool = False, **options: Any) -> PyTokenizer:  # fmt: skip
    """Trains a tokenizer on the texts of a DataFrame's ``column`` or of an RDD (see
    ``count``): counting on the executors, the merge loop on the driver."""
    counts = count(df_or_rdd, column=column, num_partitions=num_partitions, min_count=min_count,
                   max_words=max_words, **options)  # fmt: skip
    return PyTokenizer.train_from_counts(counts, vocab_size, min_frequency, special_tokens=special_tokens,
                                         objective=objective, limit_alphabet=limit_alphabet,
                                         show_progress=show_progress)  # fmt: skip
