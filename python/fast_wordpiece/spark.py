"""Training on Spark (``pip install fast-wordpiece[spark]``).

The executors count the words of their partitions (``count_words``, in batches),
``reduceByKey`` adds the counts of each word up (so no executor holds more than
its share of the distinct words), and the driver collects the distinct words and
runs the merge loop. The result is the tokenizer that one process would train on
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


def _count_partition(texts: Iterable[Any], options: dict[str, Any]) -> Iterator[tuple[str, int]]:
    """The ``(word, count)`` pairs of one partition; rows that are None (SQL NULL) are skipped."""
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
    return iter(counts.items())


def count(df_or_rdd: Any, *, column: str = "text", num_partitions: int | None = None,
          min_count: int | None = None, max_words: int | None = None, **options: Any) -> WordCounts:  # fmt: skip
    """The word counts of a DataFrame's ``column`` of strings, or of an RDD of str.

    ``num_partitions``: of the ``reduceByKey`` (default: Spark's). ``min_count`` /
    ``max_words`` prune the collected counts (approximate, opt-in; ``min_count``
    is applied on the executors after the combine, so the driver never receives
    the words below it).
    """
    WordCounts(**options)  # the options, checked on the driver
    rdd = df_or_rdd
    if hasattr(df_or_rdd, "select") and hasattr(df_or_rdd, "rdd"):  # a DataFrame
        rdd = df_or_rdd.select(column).rdd.map(operator.itemgetter(0))
    pairs = rdd.mapPartitions(lambda part: _count_partition(part, options)).reduceByKey(operator.add, num_partitions)
    if min_count:
        pairs = pairs.filter(lambda pair: pair[1] >= min_count)
    counts = WordCounts(pairs.collect(), **options)
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
