"""Training on a cluster (spec section 13): a Dask LocalCluster with two worker
processes and Spark in local[2] mode give the tokenizer one process trains."""

from __future__ import annotations

import errno
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from conftest import OPTIONAL

import fast_wordpiece
from fast_wordpiece import PyTokenizer, WordCounts

OBJECTIVES = ["likelihood", "pmi", "frequency"]
VOCAB = 3000
#: Special tokens of another model, and options that do not change counting.
SPECIALS = {
    "special_tokens": ["<pad>", "<unk>", "<s>", "</s>"],
    "unk_token": "<unk>",
    "cls_token": "<s>",
    "sep_token": "</s>",
    "pad_token": "<pad>",
    "max_input_chars_per_word": 50,
}


@pytest.fixture(scope="module")
def lines(shakespeare_text: str, multilingual_lines: list[str]) -> list[str]:
    return shakespeare_text[:700_000].splitlines() + multilingual_lines[:3000]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory, lines: list[str]) -> list[Path]:
    out = tmp_path_factory.mktemp("cluster")
    paths = []
    for i in range(5):
        path = out / f"part{i}.txt"
        path.write_text("\n".join(lines[i::5]) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def single(lines: list[str]) -> dict[str, PyTokenizer]:
    return {o: PyTokenizer.train(lines, VOCAB, objective=o, show_progress=False) for o in OBJECTIVES}


# ----------------------------------------------------------------------------- Dask


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed", reason="dask[distributed] is in the test extra")
    with (
        distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def test_dask_bag_trains_what_one_process_trains(dask_client, lines, single):
    import dask.bag as db

    from fast_wordpiece import dask as fw_dask

    bag = db.from_sequence(lines, npartitions=7)
    counts = fw_dask.count(bag, client=dask_client, split_every=2)
    assert counts == fast_wordpiece.count_words(lines)
    # Missing values are skipped, as Spark skips SQL NULL: None, NaN, and pandas' NA, which a dask
    # DataFrame column of strings (pyarrow-backed by default) gives from to_bag().
    holes = db.from_sequence([None, *lines[:500], float("nan"), *lines[500:1000]], npartitions=3)
    assert fw_dask.count(holes, client=dask_client) == fast_wordpiece.count_words(lines[:1000])
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    column = dd.from_pandas(pd.DataFrame({"text": ["hello world", None, "foo bar", None]}), npartitions=2)["text"]
    assert fw_dask.count(column.to_bag(), client=dask_client) == fast_wordpiece.count_words(["hello world foo bar"])
    for objective in OBJECTIVES:
        trained = PyTokenizer.train_from_counts(counts, VOCAB, objective=objective, show_progress=False)
        assert trained.to_json() == single[objective].to_json()
    tok = fw_dask.train(bag, VOCAB, client=dask_client, objective="pmi")
    assert tok.to_json() == single["pmi"].to_json()
    # The pipeline options that do not change counting go to the training.
    tok = fw_dask.train(bag, VOCAB, client=dask_client, **SPECIALS, lowercase=False)
    assert tok.to_json() == PyTokenizer.train(lines, VOCAB, show_progress=False, **SPECIALS, lowercase=False).to_json()


def test_dask_files_and_globs_train_what_train_from_files_trains(dask_client, files):
    from fast_wordpiece import dask as fw_dask

    expected = PyTokenizer.train_from_files(files, VOCAB, lowercase=False, show_progress=False)
    glob = str(files[0].parent / "part*.txt")
    for texts in ([str(p) for p in files], glob, [f"file://{files[0]}", *files[1:]]):
        tok = fw_dask.train(texts, VOCAB, client=dask_client, lowercase=False)
        assert tok.to_json() == expected.to_json()


def test_dask_worker_errors_reach_the_caller(dask_client, files, tmp_path):
    from fast_wordpiece import dask as fw_dask

    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"good line\nbad \xff byte\n")
    with pytest.raises(ValueError, match=r"bad\.txt: invalid UTF-8 at byte offset 14"):
        fw_dask.train([*files, bad], VOCAB, client=dask_client)
    counts = fw_dask.count([bad], client=dask_client, errors="replace")
    assert counts == WordCounts.from_files(bad, errors="replace")
    with pytest.raises(FileNotFoundError):
        fw_dask.count(str(tmp_path / "none*.txt"), client=dask_client)
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        fw_dask.count(files, client=dask_client, unk_token="[UNK]")


def test_dask_pruning_is_opt_in(dask_client, lines):
    import dask.bag as db

    from fast_wordpiece import dask as fw_dask

    bag = db.from_sequence(lines, npartitions=4)
    pruned = fw_dask.count(bag, client=dask_client, min_count=3)
    whole = fast_wordpiece.count_words(lines)
    whole.prune(3)
    assert pruned == whole  # pruning the total: per-partition counts are summed first


# ----------------------------------------------------------------------------- Spark


@pytest.fixture(scope="module")
def spark():
    try:
        import pyspark  # noqa: F401
    except ImportError:
        pytest.skip(f"{OPTIONAL} pyspark is not installed")
    if shutil.which("java") is None and "JAVA_HOME" not in os.environ:
        pytest.skip(f"{OPTIONAL} no Java (Spark needs Java 17 or later)")
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("fast-wordpiece-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_spark_dataframe_trains_what_one_process_trains(spark, lines, single):
    from fast_wordpiece import spark as fw_spark

    df = spark.createDataFrame([(line,) for line in lines], ["text"]).repartition(5)
    counts = fw_spark.count(df, num_partitions=3)
    assert counts == fast_wordpiece.count_words(lines)
    for objective in OBJECTIVES:
        tok = fw_spark.train(df, VOCAB, objective=objective)
        assert tok.to_json() == single[objective].to_json()
    tok = fw_spark.train(df, VOCAB, **SPECIALS, decoder_cleanup=False)
    expected = PyTokenizer.train(lines, VOCAB, show_progress=False, **SPECIALS, decoder_cleanup=False)
    assert tok.to_json() == expected.to_json()


def test_spark_rdd_and_null_rows(spark, lines):
    from fast_wordpiece import spark as fw_spark

    rdd = spark.sparkContext.parallelize(lines[:2000], 4)
    assert fw_spark.count(rdd, lowercase=False) == fast_wordpiece.count_words(lines[:2000], lowercase=False)
    df = spark.createDataFrame([("a b",), (None,), ("b c",)], "body string")
    assert fw_spark.count(df, column="body").items() == [("a", 1), ("b", 2), ("c", 1)]
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        fw_spark.count(df, column="body", cls_token="[CLS]")


def test_spark_files_and_globs_train_what_train_from_files_trains(spark, files):
    from fast_wordpiece import spark as fw_spark

    tok = fw_spark.train([str(p) for p in files], VOCAB, spark_context=spark.sparkContext, lowercase=False)
    expected = PyTokenizer.train_from_files(files, VOCAB, lowercase=False, show_progress=False)
    assert tok.to_json() == expected.to_json()
    pattern = str(files[0].parent / "*")
    assert fw_spark.count(pattern, num_partitions=2) == WordCounts.from_files(files)
    with pytest.raises(FileNotFoundError, match="no file matches"):
        fw_spark.count(str(files[0].parent / "none*.txt"))
    with pytest.raises(ValueError, match=r"spark\.read\.text"):
        fw_spark.count("s3://bucket/corpus/*.txt")


def test_spark_file_errors_reach_the_driver(spark, tmp_path):
    from fast_wordpiece import spark as fw_spark

    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"good line\nbad \xff byte\n")
    with pytest.raises(Exception, match=r"bad\.txt: invalid UTF-8 at byte offset 14"):
        fw_spark.count([bad])
    assert fw_spark.count([bad], errors="replace") == WordCounts.from_files(bad, errors="replace")


def test_spark_inputs_refused_on_the_driver(spark, files, tmp_path):
    """A missing file, a directory and a column that is not of strings are told on the driver,
    before a job; Hadoop's ``file:/path`` reads as the path."""
    from fast_wordpiece import spark as fw_spark

    missing = tmp_path / "missing.txt"
    with pytest.raises(FileNotFoundError) as raised:  # as open() and WordCounts.from_files name it
        fw_spark.count(str(missing))
    assert (raised.value.errno, raised.value.filename) == (errno.ENOENT, str(missing))
    assert str(raised.value) == f"[Errno 2] No such file or directory: {str(missing)!r}"
    with pytest.raises(NotADirectoryError):  # a path under a file, as open() says
        fw_spark.count(str(files[0] / "x.txt"))
    with pytest.raises(IsADirectoryError, match="is a directory"):
        fw_spark.count(str(tmp_path))
    assert fw_spark.count(f"file:{files[0]}") == WordCounts.from_files(files[0])
    df = spark.createDataFrame([(1, "a b"), (2, "c")], "n int, text string")
    with pytest.raises(TypeError, match="column 'n' must be of strings, not of int"):
        fw_spark.count(df, column="n")


def test_spark_dataframe_of_text_that_is_not_utf8_takes_errors(spark, tmp_path):
    """``spark.read.text`` leaves bad bytes in its strings: ``errors="replace"`` replaces them as
    ``from_files`` does; without it the error names the column and the remedy."""
    from fast_wordpiece import spark as fw_spark

    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"good line\nbad \xff byte\nmore \xc3 text \xe2\x82\n")
    df = spark.read.text(str(bad))
    assert fw_spark.count(df, column="value", errors="replace") == WordCounts.from_files(bad, errors="replace")
    with pytest.raises(Exception, match=r"column 'value' holds text that is not UTF-8 .*errors=\"replace\""):
        fw_spark.count(df, column="value")


def test_spark_dataframe_of_files_and_small_arrow_batches(spark, files, lines):
    """``spark.read.text`` (the ``value`` column), and Arrow batches of a few rows each,
    gathered into groups and counted in more than one round."""
    from fast_wordpiece import spark as fw_spark

    df = spark.read.text([str(p) for p in files])
    whole = WordCounts.from_files(files)
    assert fw_spark.count(df, column="value") == whole
    pruned = fw_spark.count(df, column="value", num_partitions=3, min_count=3)
    assert pruned == WordCounts({w: n for w, n in whole.items() if n >= 3})
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "10")
    try:
        df = spark.createDataFrame([(line,) for line in lines[:3000]], ["text"]).repartition(3)
        assert fw_spark.count(df) == fast_wordpiece.count_words(lines[:3000])
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    with pytest.raises(TypeError, match="column 'n' must be of strings, not of bigint"):  # on the driver
        fw_spark.count(spark.createDataFrame([(1,), (2,)], "n long"), column="n")


# ----------------------------------------------------------------------------- CLI


def test_cli_count_on_each_machine_then_train_on_the_counts(files, tmp_path, capsys):
    from fast_wordpiece.cli import main

    saved = []
    for i, path in enumerate(files):
        out = tmp_path / f"{i}.fwc"
        assert main(["count", str(path), "--out", str(out), "--no-lowercase", "--no-progress"]) == 0
        saved.append(str(out))
    out = tmp_path / "tok.json"
    argv = ["train", "--counts", *saved, "--vocab-size", str(VOCAB), "--save", str(out), "--no-progress"]
    assert main(argv) == 0
    expected = PyTokenizer.train_from_files(files, VOCAB, lowercase=False, show_progress=False)
    assert PyTokenizer.load(out).to_json() == expected.to_json()
    other = tmp_path / "lower.fwc"
    assert main(["count", str(files[0]), "--out", str(other), "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["train", "--counts", saved[0], str(other), "--no-progress"]) == 1
    assert "lower.fwc: word counts made with different options: lowercase=False and lowercase=True" in (
        capsys.readouterr().err
    )
    (tmp_path / "broken.fwc").write_bytes(Path(saved[0]).read_bytes()[:-3])
    assert main(["train", "--counts", str(tmp_path / "broken.fwc"), "--no-progress"]) == 1
    assert "broken.fwc: truncated: the data ends at byte" in capsys.readouterr().err


def test_spark_task_errors_reach_the_driver(spark):
    from fast_wordpiece import spark as fw_spark

    rdd = spark.sparkContext.parallelize(["fine", 123, "also fine"], 2)
    with pytest.raises(Exception, match=r"texts\[0\] must be str, not int"):
        fw_spark.count(rdd)


def test_dask_streams_remote_files_as_the_engine_reads_local_ones(files, tmp_path, monkeypatch):
    """A file of another fsspec filesystem (here memory://) is streamed in chunks cut at line
    ends: the same counts as the engine's reading of the same bytes, and the same errors."""
    fsspec = pytest.importorskip("fsspec", reason="fsspec comes with dask in the test extra")
    from fast_wordpiece import dask as fw_dask

    monkeypatch.setattr(fw_dask, "BATCH_BYTES", 10_000)  # many chunks, none at a line end
    data = files[0].read_bytes().replace(b"\n", b"\r\n", 500) + b"last line, no line break"
    local = tmp_path / "local.txt"
    local.write_bytes(data)
    with fsspec.open("memory://fwp/remote.txt", "wb") as f:
        f.write(data)
    (remote,) = fsspec.open_files("memory://fwp/remote.txt", mode="rb")
    assert fw_dask._count_file(remote, "strict", {"lowercase": False}) == WordCounts.from_files(local, lowercase=False)
    bad = data[:25_000] + b"\xff" + data[25_000:]
    with fsspec.open("memory://fwp/bad.txt", "wb") as f:
        f.write(bad)
    local.write_bytes(bad)
    (remote,) = fsspec.open_files("memory://fwp/bad.txt", mode="rb")
    with pytest.raises(ValueError, match="invalid UTF-8 at byte offset 25000") as engine:
        WordCounts.from_files(local)
    # named by its URL, with the protocol (fsspec's full_name), not its path on that filesystem
    with pytest.raises(ValueError, match=r"^memory:///fwp/bad\.txt: invalid UTF-8 at byte offset 25000"):
        fw_dask._count_file(remote, "strict", {})
    assert "offset 25000" in str(engine.value)
    assert fw_dask._count_file(remote, "replace", {}) == WordCounts.from_files(local, errors="replace")


# ----------------------------------------------------------------------------- without the extras


@pytest.mark.parametrize(("extra", "module"), [("dask", "dask.bag"), ("spark", "pyspark")])
def test_a_missing_extra_is_named_with_how_to_install_it(extra, module, monkeypatch, tmp_path):
    """Without the extra's packages (here hidden), training says which extra installs them;
    the original ModuleNotFoundError stays the cause."""
    fw_cluster = pytest.importorskip(f"fast_wordpiece.{extra}")
    for name in (module, module.split(".")[0]):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(
        ImportError, match=rf'^fast_wordpiece\.{extra} needs \w+: pip install "fast-wordpiece\[{extra}\]"'
    ) as info:
        fw_cluster.train(str(tmp_path / "corpus.txt"), VOCAB)
    assert f'pip install ".[{extra}]"' in str(info.value)
    assert isinstance(info.value.__cause__, ModuleNotFoundError)


@pytest.mark.parametrize("extra", ["dask", "spark"])
@pytest.mark.parametrize("function", ["train", "count"])
def test_an_unknown_option_names_the_function_and_its_options(extra, function, tmp_path):
    """Told before any cluster work (so with or without the extra installed). ``count`` takes the
    counting options only; ``train`` the pipeline's others too (``unk_token``, ...)."""
    fw_cluster = pytest.importorskip(f"fast_wordpiece.{extra}")
    args = (str(tmp_path / "corpus.txt"), VOCAB) if function == "train" else (str(tmp_path / "corpus.txt"),)
    unknown = "unk_token" if function == "count" else "vocab"
    with pytest.raises(TypeError) as info:
        getattr(fw_cluster, function)(*args, **{unknown: "[UNK]"})
    message = str(info.value)
    assert message.startswith(f"fast_wordpiece.{extra}.{function}() got an unexpected keyword argument {unknown!r} (")
    assert "min_count, max_words" in message
    assert "the counting options clean_text, handle_chinese_chars, lowercase, strip_accents" in message
    if function == "train":
        assert "special_tokens, objective, limit_alphabet" in message
        assert "the pipeline options unk_token, cls_token, sep_token, pad_token" in message
    else:
        assert "pipeline options" not in message
    with pytest.raises(ValueError, match="pre_tokenizer"):
        getattr(fw_cluster, function)(*args, pre_tokenizer="nonsense")


def test_the_pipeline_options_a_cluster_train_takes_are_those_that_do_not_change_counting():
    from fast_wordpiece._cluster import PIPELINE_ONLY

    options = PyTokenizer.train_from_counts({"ab": 2}, 10, show_progress=False).options
    assert set(PIPELINE_ONLY) == set(options) - set(WordCounts().options) - {"continuing_subword_prefix"}


#: Bad arguments of the cluster functions, by the extras that take them: each is refused before any
#: cluster work (the corpus given does not exist, so that work would fail otherwise).
BAD_ARGUMENTS = [
    (("dask", "spark"), "train", {"vocab_size": 0}, ValueError, "vocab_size must be >= 1"),
    (("dask", "spark"), "train", {"objective": "bogus"}, ValueError, "objective"),
    (("dask", "spark"), "train", {"special_tokens": ["<unk>"]}, ValueError, "unk_token"),
    (("dask", "spark"), "train", {"show_progress": 1}, TypeError, "show_progress must be bool, not int"),
    (("dask", "spark"), "train", {"decoder": "bogus"}, ValueError, "decoder"),
    (("dask", "spark"), "train", {"max_input_chars_per_word": 0}, ValueError, "max_input_chars_per_word"),
    (("dask", "spark"), "count", {"min_count": -1}, ValueError, "min_count must be >= 0"),
    (("dask", "spark"), "train", {"max_words": -1}, ValueError, "max_words must be >= 0"),
    (("dask",), "count", {"split_every": 1}, ValueError, "split_every must be between 2 and 1048576, not 1"),
    (("dask",), "train", {"split_every": True}, TypeError, "split_every must be int, not bool"),
    (("dask",), "count", {"split_every": 2.5}, TypeError, "split_every must be int, not float"),
    (("spark",), "count", {"num_partitions": -1}, ValueError, "num_partitions must be between 1 and 1048576, not -1"),
    (("spark",), "train", {"num_partitions": 0}, ValueError, "num_partitions must be between 1 and 1048576, not 0"),
    (("spark",), "count", {"num_partitions": 2**21}, ValueError, "num_partitions must be between 1 and"),
]


@pytest.mark.parametrize(
    ("extra", "function", "kwargs", "error", "message"),
    [(extra, *case) for extras, *case in BAD_ARGUMENTS for extra in extras],
)
def test_bad_arguments_are_refused_before_any_cluster_work(extra, function, kwargs, error, message, tmp_path):
    """Not after an hour of counting (a typo in the training arguments), nor on the workers, nor
    by a scheduler that never ends (``split_every=1``) or a shuffle that drops every part
    (``num_partitions=-1``)."""
    fw_cluster = pytest.importorskip(f"fast_wordpiece.{extra}")
    missing = str(tmp_path / "missing.txt")
    args = (missing, VOCAB) if function == "train" else (missing,)
    if function == "train" and "vocab_size" in kwargs:
        args = (missing,)
    with pytest.raises(error, match=re.escape(message)):
        getattr(fw_cluster, function)(*args, **kwargs)


class _ColumnLike:
    """A collection of texts that is neither a Bag nor paths, as a dask Series is."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts

    def __iter__(self):
        return iter(self.texts)

    def to_bag(self) -> None:
        raise NotImplementedError


@pytest.mark.parametrize("texts", [_ColumnLike(["hello world"]), {"a.txt"}, 3])
def test_dask_texts_that_are_neither_a_bag_nor_paths_are_a_type_error(texts, dask_client):
    """Not read as file names (a Series' texts became paths such as ``./hello world``)."""
    from fast_wordpiece import dask as fw_dask

    with pytest.raises(TypeError, match=r"^texts must be a dask\.bag\.Bag of str, or a path, glob or URL") as info:
        fw_dask.count(texts, client=dask_client)
    assert ("to_bag()" in str(info.value)) == isinstance(texts, _ColumnLike)


# ----------------------------------------------------------------------------- paths and inputs


@pytest.fixture
def bracketed(tmp_path: Path) -> dict[str, Path]:
    """Files whose names hold glob characters, and one that such a name, read as a glob, matches."""
    named = {}
    for name, text in [("shard[1].txt", "hello world\n"), ("a*b?.txt", "star text\n"), ("shard1.txt", "other\n")]:
        named[name] = tmp_path / name
        named[name].write_text(text, encoding="utf-8")
    return named


def test_spark_a_path_that_exists_is_read_as_given_though_it_holds_glob_characters(spark, bracketed):
    """``shard[1].txt`` is that file, not the glob that matches ``shard1.txt``; a path that does not
    exist as given and holds glob characters is still a glob."""
    from fast_wordpiece import spark as fw_spark

    literal = [bracketed["shard[1].txt"], bracketed["a*b?.txt"]]
    assert fw_spark.count([str(p) for p in literal]) == WordCounts.from_files(literal)
    assert fw_spark._local_paths(f"file://{literal[0]}") == [str(literal[0])]
    glob = str(literal[0].parent / "shard[12].txt")
    assert fw_spark._local_paths(glob) == [str(bracketed["shard1.txt"])]
    with pytest.raises(FileNotFoundError, match=r"no file matches .*shard\[3\]\.txt"):
        fw_spark._local_paths(str(literal[0].parent / "shard[3].txt"))


def test_dask_a_path_that_exists_is_read_as_given_though_it_holds_glob_characters(dask_client, bracketed):
    from fast_wordpiece import dask as fw_dask

    literal = [bracketed["shard[1].txt"], bracketed["a*b?.txt"]]
    for texts in (str(literal[0]), [str(p) for p in literal], [f"file://{literal[0]}", literal[1]]):
        expected = WordCounts.from_files(literal[0] if isinstance(texts, str) else literal)
        assert fw_dask.count(texts, client=dask_client) == expected
    glob = str(literal[0].parent / "shard[12].txt")
    assert fw_dask.count(glob, client=dask_client) == WordCounts.from_files(bracketed["shard1.txt"])
    with pytest.raises(FileNotFoundError, match=r"no file matches .*shard\[3\]\.txt$"):
        fw_dask.count([str(literal[0]), str(literal[0].parent / "shard[3].txt")], client=dask_client)


@pytest.mark.parametrize("extra", ["dask", "spark"])
def test_no_paths_are_no_files_to_count(extra):
    """The same error from both (Dask's was fsspec's ``ValueError: empty urlpath sequence``)."""
    fw_cluster = pytest.importorskip(f"fast_wordpiece.{extra}")
    pytest.importorskip("dask.bag" if extra == "dask" else "pyspark")
    for texts in ([], ()):
        with pytest.raises(FileNotFoundError, match=r"^no files to count$"):
            fw_cluster.count(texts)


def _series():
    return pytest.importorskip("pandas").Series(["a b"])


@pytest.mark.parametrize("make", [_series, lambda: iter(["a b"]), lambda: {"text": ["a b"]}, lambda: 42, lambda: None])
@pytest.mark.parametrize("function", ["train", "count"])
def test_spark_inputs_that_are_neither_a_dataframe_an_rdd_nor_paths_are_a_type_error(make, function):
    """Worded as Dask's refusal, not an AttributeError from inside (``getNumPartitions``)."""
    from fast_wordpiece import spark as fw_spark

    texts = make()
    args = (texts, VOCAB) if function == "train" else (texts,)
    with pytest.raises(TypeError) as info:
        getattr(fw_spark, function)(*args)
    assert str(info.value) == (
        "df_or_rdd must be a Spark DataFrame, an RDD of str, or a path or glob or a list of them, "
        f"not {type(texts).__name__}"
    )


# ----------------------------------------------------------------------------- the shuffle's size


def test_spark_partitions_send_no_empty_part():
    """Each input partition sends one record per part that has words: a few words split into many
    parts are a few records, not one per part (P input partitions made P x P records)."""
    from fast_wordpiece import spark as fw_spark

    pa = pytest.importorskip("pyarrow")
    expected = fast_wordpiece.count_words(["a b"])
    records = list(fw_spark._count_partition(["a b", None], {}, 64))
    assert 1 <= len(records) <= 2
    assert all(len(part) for _, part in records)
    assert sum((part for _, part in records), WordCounts()) == expected
    batches = list(
        fw_spark._count_arrow([pa.record_batch([pa.array(["a b", None])], names=["text"])], {}, 64, "strict", "text")
    )
    assert 1 <= len(batches) <= 2
    assert sum((WordCounts.from_bytes(b.column(1)[0].as_py()) for b in batches), WordCounts()) == expected
    assert list(fw_spark._count_partition([], {}, 64)) == []


def test_spark_default_parts_are_at_most_the_parallelism(spark, lines, monkeypatch):
    """With ``num_partitions`` None, many input partitions are summed in as many parts as the
    cluster runs tasks at once (2 in local[2]), not one part per input partition."""
    import pyspark

    from fast_wordpiece import spark as fw_spark

    seen: list[int] = []
    texts = lines[:300]
    df = spark.createDataFrame([(t,) for t in texts], ["text"]).repartition(6)
    reduce_by_key, repartition = pyspark.RDD.reduceByKey, type(df).repartition

    def spy_reduce(self, func, numPartitions=None, partitionFunc=None):
        seen.append(numPartitions)
        return reduce_by_key(self, func, numPartitions, partitionFunc)

    def spy_repartition(self, n, *cols):
        seen.append(n)
        return repartition(self, n, *cols)

    monkeypatch.setattr(pyspark.RDD, "reduceByKey", spy_reduce)
    monkeypatch.setattr(type(df), "repartition", spy_repartition)
    assert spark.sparkContext.defaultParallelism == 2
    assert fw_spark.count(spark.sparkContext.parallelize(texts, 6)) == fast_wordpiece.count_words(texts)
    assert fw_spark.count(df) == fast_wordpiece.count_words(texts)
    assert fw_spark.count(df, num_partitions=3) == fast_wordpiece.count_words(texts)
    assert seen == [2, 2, 3]


def test_a_glob_expands_to_its_files_in_both_leaving_directories_out(tmp_path):
    """A glob's files, sorted, in Spark's driver-side expansion as in Dask's (fsspec's): a
    subdirectory it matches is left out (Spark's made the whole glob an IsADirectoryError)."""
    from fast_wordpiece import dask as fw_dask
    from fast_wordpiece import spark as fw_spark

    fsspec = pytest.importorskip("fsspec")
    (tmp_path / "sub").mkdir()
    for name in ("x2.txt", "x1.txt"):
        (tmp_path / name).write_text("one two\n", "utf-8")
    pattern = str(tmp_path / "*")
    files = [str(tmp_path / "x1.txt"), str(tmp_path / "x2.txt")]
    assert fw_spark._local_paths(pattern) == files
    assert [f.path for f in fw_dask._open_files(fsspec, [pattern])] == files
    with pytest.raises(IsADirectoryError, match="is a directory"):
        fw_spark._local_paths(str(tmp_path / "sub"))  # a directory given by name
    with pytest.raises(FileNotFoundError, match="no file matches"):
        fw_spark._local_paths(str(tmp_path / "s*"))  # a glob that matches a directory only
