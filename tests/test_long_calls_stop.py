"""Long calls of every tokenizer stop at a signal handler's exception, which reaches the caller
unchanged, and the tokenizer works as before afterwards.

A handler runs only when the engine lets Python run it, between two chunks of the work. So
these tests tick SIGALRM every few milliseconds with a handler that counts its runs and raises
its own exception at the third: the call must come back with that very exception object, after
the handler ran three times during one call. A call that lets Python run handlers only once
it is done runs the handler once, at the end, and returns normally instead. The inputs are
hundreds of milliseconds of work or more, many ticks."""

from __future__ import annotations

import gc
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import fast_wordpiece as fw

#: The handler raises at this run.
RAISE_AT = 3
TICK = 0.005


class Stop(Exception):
    """What the test's handler raises."""


class Ticks:
    """SIGALRM every `TICK` seconds while a call runs; the handler counts its runs."""

    def __init__(self) -> None:
        self.runs = 0
        self.raised: Stop | None = None

    def handler(self, signum, frame) -> None:
        if self.raised is not None:
            # A tick already pending when the handler raised and stopped the timer runs it once
            # more on a busy machine: not a call into the work after its exception.
            return
        self.runs += 1
        if self.runs == RAISE_AT:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self.raised = Stop("the handler's own exception")
            raise self.raised

    def call(self, work: Callable[[], object]) -> BaseException | None:
        """Runs `work` with the ticks on; what it raised, or None."""
        self.runs, self.raised = 0, None
        signal.setitimer(signal.ITIMER_REAL, TICK, TICK)
        try:
            work()
        except BaseException as e:  # the test looks at whatever came back
            return e
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return None

    def assert_stopped(self, work: Callable[[], object]) -> None:
        """`work` came back with the handler's own exception, raised during the call."""
        raised = self.call(work)
        assert raised is not None, f"the call finished; the handler ran {self.runs} time(s)"
        assert raised is self.raised, repr(raised)
        assert self.runs == RAISE_AT


@pytest.fixture
def ticks() -> Iterator[Ticks]:
    """The cyclic collector is off meanwhile: a handler's exception raised in a ``gc.callbacks``
    function is lost by Python itself, whatever the code it interrupted."""
    t = Ticks()
    previous = signal.signal(signal.SIGALRM, t.handler)
    gc.disable()
    try:
        yield t
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        gc.enable()


def _words(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(3, 12))) for _ in range(n)]


WORDS = _words(20_000)
#: 2,000 texts of 2,000 words (about 30 MB): fewer texts than reading an argument checks
#: signals after, so only the work itself can run the handler.
BIG = [" ".join(WORDS[i : i + 2000]) for i in range(0, 20_000 - 2000, 9)][:2000]


@pytest.fixture(scope="module")
def tokenizers() -> dict[str, object]:
    sample = WORDS[:5000]
    return {
        "bpe": fw.BPETokenizer.train(sample, 1000),
        "chars": fw.CharTokenizer.train(sample),
        "unigram": fw.UnigramTokenizer.train(sample, 500),
        "wordpiece": fw.PyTokenizer.train(sample, 2000, show_progress=False),
    }


#: Few distinct words in much text: counting is most of training (learning from the counts
#: is quick, and stops at signals by itself).
LINE = "ab ba abba " * 700


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """A 19 MB text file (the tests read it many times over)."""
    path = tmp_path_factory.mktemp("corpus") / "corpus.txt"
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(2500):
            f.write(LINE + "\n")
    return path


@pytest.mark.parametrize("name", ["bpe", "chars", "unigram"])
def test_encode_batch_stops_at_the_handlers_exception(ticks, tokenizers, name) -> None:
    tok = tokenizers[name]
    before = tok.encode_batch(BIG[:3])
    ticks.assert_stopped(lambda: tok.encode_batch(BIG * 2, num_threads=2))
    again = tok.encode_batch(BIG[:3])
    if name == "unigram":
        again, before = [e.ids for e in again], [e.ids for e in before]
    assert again == before


@pytest.mark.parametrize("name", ["bpe", "chars", "unigram", "wordpiece"])
def test_analyze_stops_at_the_handlers_exception(ticks, tokenizers, name) -> None:
    tok = tokenizers[name]
    before = tok.analyze(BIG[:3])
    ticks.assert_stopped(lambda: tok.analyze(BIG * 2))
    assert tok.analyze(BIG[:3]) == before


@pytest.mark.parametrize("name", ["bpe", "chars", "unigram"])
def test_train_from_files_stops_at_the_handlers_exception(ticks, corpus, name) -> None:
    train = {
        "bpe": lambda: fw.BPETokenizer.train_from_files([corpus] * 20, 300),
        "chars": lambda: fw.CharTokenizer.train_from_files([corpus] * 40),
        "unigram": lambda: fw.UnigramTokenizer.train_from_files([corpus] * 20, 8),
    }[name]
    ticks.assert_stopped(train)


@pytest.mark.parametrize("name", ["bpe", "chars", "unigram"])
def test_train_stops_at_the_handlers_exception_while_counting(ticks, name) -> None:
    # 4,000 texts (fewer than reading an argument checks signals after), 150 MB in all.
    corpus = [LINE * 5] * 4000
    train = {
        "bpe": lambda: fw.BPETokenizer.train(corpus, 300),
        "chars": lambda: fw.CharTokenizer.train(corpus),
        "unigram": lambda: fw.UnigramTokenizer.train(corpus, 8),
    }[name]
    ticks.assert_stopped(train)


@pytest.mark.parametrize("name", ["bpe", "chars", "wordpiece"])
def test_decode_batch_stops_at_the_handlers_exception(ticks, tokenizers, name) -> None:
    tok = tokenizers[name]
    # 3,000 sequences of 4,000 ids: fewer items than reading an argument checks signals after.
    sequences = [(list(range(5, tok.vocab_size)) * 4000)[:4000]] * 3000
    before = tok.decode_batch(sequences[:2])
    ticks.assert_stopped(lambda: tok.decode_batch(sequences))
    assert tok.decode_batch(sequences[:2]) == before


def test_a_long_nbest_sampling_stops_at_the_handlers_exception(ticks) -> None:
    rng = random.Random(1)
    lines = ["".join(rng.choice("ab") for _ in range(50)) + " hello world" for _ in range(200)]
    tok = fw.UnigramTokenizer.train(lines, 60)
    # 20 words of 500 letters, each with many segmentations: the 2,000 best of each.
    text = " ".join("".join(rng.choice("ab") for _ in range(500)) for _ in range(20))
    before = tok.encode(text[:2000], alpha=0.5, nbest=2000, seed=1)
    ticks.assert_stopped(lambda: tok.encode(text, alpha=0.5, nbest=2000, seed=1))
    assert tok.encode(text[:2000], alpha=0.5, nbest=2000, seed=1) == before


ENDLESS_LINE = """
import resource, signal, sys
import fast_wordpiece as fw
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))  # if it never stops, a MemoryError
class Stop(Exception):
    pass
def handler(signum, frame):
    raise Stop
signal.signal(signal.SIGALRM, handler)
signal.setitimer(signal.ITIMER_REAL, 0.5)
try:
    {"WordCounts": lambda: fw.WordCounts.from_files("/dev/zero"),
     "PyTokenizer": lambda: fw.PyTokenizer.train_from_files("/dev/zero", 100)}[sys.argv[1]]()
except Stop:
    print("stopped")
"""


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("name", ["WordCounts", "PyTokenizer"])
def test_a_line_without_end_stops_at_the_handlers_exception(name: str) -> None:
    """Reading a file that never ends its line (/dev/zero) lets the handler run: it checked only
    at each newline, so nothing but running out of memory ended it."""
    done = subprocess.run([sys.executable, "-c", ENDLESS_LINE, name], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "stopped\n"), done.stderr


#: A child that reads the FIFO `sys.argv[3]` with call `sys.argv[2]` of module `sys.argv[1]`,
#: under a handler that raises `Stop` 0.5 s in. With `sys.argv[4] == "stalls"`, a thread of the
#: child opens the FIFO for writing, writes a line and then nothing more; else no one opens it for
#: writing. The child prints how long the call took to give the handler's exception back. The
#: `from_pretrained` calls read the FIFO's directory (the FIFO one of its files).
FIFO = """
import importlib, os, signal, sys, threading, time
module, call, path, writer = sys.argv[1:]
directory = os.path.dirname(path)
fw = importlib.import_module(module)
class Stop(Exception):
    pass
def handler(signum, frame):
    raise Stop
def stalls():
    with open(path, "w") as f:
        f.write("hello world\\n")
        f.flush()
        time.sleep(60)
if writer == "stalls":
    threading.Thread(target=stalls, daemon=True).start()
calls = {
    "WordCounts.from_files": lambda: fw.WordCounts.from_files([path]),
    "WordCounts.load": lambda: fw.WordCounts.load(path),
    "PyTokenizer.train_from_files": lambda: fw.PyTokenizer.train_from_files([path], 100, show_progress=False),
    "BPETokenizer.train_from_files": lambda: fw.BPETokenizer.train_from_files([path], 100, show_progress=False),
    "CharTokenizer.train_from_files": lambda: fw.CharTokenizer.train_from_files([path], show_progress=False),
    "UnigramTokenizer.train_from_files": lambda: fw.UnigramTokenizer.train_from_files(
        [path], 100, show_progress=False
    ),
    "PyTokenizer.from_file": lambda: fw.PyTokenizer.from_file(path),
    "PyTokenizer.load": lambda: fw.PyTokenizer.load(path),
    "PyTokenizer.from_vocab_file": lambda: fw.PyTokenizer.from_vocab_file(path),
    "PyTokenizer.from_pretrained": lambda: fw.PyTokenizer.from_pretrained(directory),
    "BPETokenizer.load": lambda: fw.BPETokenizer.load(path),
    "CharTokenizer.load": lambda: fw.CharTokenizer.load(path),
    "UnigramTokenizer.from_file": lambda: fw.UnigramTokenizer.from_file(path),
    "UnigramTokenizer.load": lambda: fw.UnigramTokenizer.load(path),
}
signal.signal(signal.SIGALRM, handler)
start = time.monotonic()
signal.setitimer(signal.ITIMER_REAL, 0.5)
try:
    calls[call]()
except Stop:
    print(f"stopped after {time.monotonic() - start:.2f} s")
"""


def _stops_soon_after_the_signal(module: str, call: str, fifo: Path, writer: str, what: str) -> None:
    """Runs ``FIFO``'s child on ``fifo``: the handler's exception, raised by a signal at 0.5 s,
    must end ``call`` within 3 s (30 s: a call that waits for ever fails the test)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", FIFO, module, call, str(fifo), writer], capture_output=True, text=True, timeout=30
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{module} {what} was still waiting on the FIFO 30 s after the signal")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("stopped after "), (done.stdout, done.stderr)
    seconds = float(done.stdout.split()[2])
    assert 0.5 <= seconds < 3, done.stdout


#: The calls that read the files they are given, and whether the twin has them.
READERS = {
    "WordCounts.from_files": True,
    "WordCounts.load": True,
    "PyTokenizer.train_from_files": False,
    "BPETokenizer.train_from_files": True,
    "CharTokenizer.train_from_files": True,
    "UnigramTokenizer.train_from_files": True,
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("writer", ["none", "stalls"])
@pytest.mark.parametrize(
    ("module", "call"),
    [("fast_wordpiece", call) for call in READERS]
    + [("fast_wordpiece.reference", call) for call, twin in READERS.items() if twin],
)
def test_a_fifo_without_a_writer_or_data_stops_at_the_handlers_exception(
    tmp_path: Path, module: str, call: str, writer: str
) -> None:
    """Opening a FIFO no one writes to waits for a writer, and reading one whose writer writes
    nothing more waits for data: both let the handler's exception through, soon after the signal,
    as Python's own ``open`` and reads do. The engine's open waited in the kernel, which opens
    again when a signal interrupts it: nothing but killing the process ended it."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    _stops_soon_after_the_signal(module, call, fifo, writer, call)


#: The calls that load a tokenizer's own files, each with the file of its directory that is the
#: FIFO, and whether the twin reads that FIFO too. (``from_pretrained`` takes a directory's
#: ``tokenizer.json`` and JSON files only when they are regular files, so no FIFO there keeps it
#: waiting: see the next test.)
LOADERS = {
    "PyTokenizer.from_file": ("tokenizer.json", True),
    "PyTokenizer.load": ("tokenizer.json", True),
    "PyTokenizer.from_vocab_file": ("vocab.txt", True),
    "PyTokenizer.from_pretrained vocab.txt": ("vocab.txt", True),
    "BPETokenizer.load": ("tokenizer.json", True),
    "CharTokenizer.load": ("tokenizer.json", True),
    "UnigramTokenizer.from_file": ("tokenizer.json", True),
    "UnigramTokenizer.load": ("tokenizer.json", True),
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="optional: named pipes are POSIX only")
@pytest.mark.parametrize("writer", ["none", "stalls"])
@pytest.mark.parametrize(
    ("module", "loader"),
    [("fast_wordpiece", loader) for loader in LOADERS]
    + [("fast_wordpiece.reference", loader) for loader, (_, twin) in LOADERS.items() if twin],
)
def test_loading_a_tokenizer_from_a_fifo_stops_at_the_handlers_exception(
    tmp_path: Path, module: str, loader: str, writer: str
) -> None:
    """Loading a tokenizer's file from a FIFO no one writes to (or whose writer writes part of it
    and then nothing more) lets the handler's exception through, soon after the signal, as
    training from a FIFO does and as the twin's ``open`` does. The engine read such a file with
    reads a signal never stopped: nothing but killing the process ended the wait."""
    name, _ = LOADERS[loader]
    fifo = tmp_path / "model" / name
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    _stops_soon_after_the_signal(module, loader.split()[0], fifo, writer, loader)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="optional: named pipes are POSIX only")
@pytest.mark.parametrize("cls", ["PyTokenizer", "UnigramTokenizer"])
def test_from_pretrained_takes_no_fifo_for_a_tokenizer_json(tmp_path: Path, cls: str) -> None:
    """A model directory whose ``tokenizer.json`` is a FIFO has no tokenizer file: loading it fails
    at once, engine and twin alike. The engine opened it to read the file's padding and truncation
    sides, and waited there for a writer, though it then loaded no such file."""
    os.mkfifo(tmp_path / "tokenizer.json")
    script = f"""
import sys, fast_wordpiece, fast_wordpiece.reference
for m in (fast_wordpiece, fast_wordpiece.reference):
    try:
        m.{cls}.from_pretrained(sys.argv[1])
    except Exception as e:
        print(type(e).__name__)
"""
    try:
        done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{cls}.from_pretrained was still waiting on the FIFO after 30 s")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["FileNotFoundError", "FileNotFoundError"], done.stdout
