"""The engine in the situations a training job puts it in: forked worker
processes (a PyTorch DataLoader) and garbage collections that run Python
code while results are being built. Each case runs in a child interpreter, so
that a hang or a crash fails the test instead of the test run."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs os.fork")

SETUP = """
import gc, os, sys
from fast_wordpiece import PyTokenizer
tok = PyTokenizer.train(["hello world, hello there"] * 50, 60, 1, show_progress=False)
"""


def run(body: str) -> subprocess.CompletedProcess[str]:
    code = textwrap.dedent(SETUP) + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_a_forked_child_can_encode_and_train_after_its_parent_did():
    result = run("""
        texts = ["hello world"] * 100
        expected = [e.ids for e in tok.encode_batch(texts)]
        tok.encode_batch(texts, num_threads=1)
        padded = [e.ids for e in tok.encode_batch(texts + ["hello"], padding="longest")]
        try:
            import numpy
        except ImportError:
            numpy = None
        if numpy is not None:
            arrays = tok.encode_batch(texts + ["hello"], padding="longest", return_tensors="np")
        pid = os.fork()
        if pid == 0:
            import signal
            signal.alarm(60)  # a hung child ends itself: the parent's timeout cannot reach it
            ok = [e.ids for e in tok.encode_batch(texts)] == expected
            ok &= [e.ids for e in tok.encode_batch(texts, num_threads=2)] == expected
            ok &= [e.ids for e in tok.encode_batch(texts + ["hello"], padding="longest")] == padded
            if numpy is not None:
                again = tok.encode_batch(texts + ["hello"], padding="longest", return_tensors="np")
                ok &= all(numpy.array_equal(again[k], arrays[k]) for k in arrays)
            ok &= PyTokenizer.train(texts, 40, 1, show_progress=False).vocab_size > 0
            os._exit(0 if ok else 3)
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
    """)
    assert result.returncode == 0, result.stderr


def test_a_collection_during_conversion_never_sees_a_half_built_list():
    # A callback that reads every list the collector knows, with collections
    # after every allocation: it must not meet a list whose slots are empty.
    result = run("""
        enc = tok.encode("hello world " * 20)
        keep = [(i, i) for i in range(100_000)]  # empty the free list of 2-tuples
        def look(phase, info):
            if phase == "stop":
                for o in gc.get_objects():
                    if type(o) is list and o is not keep and len(o) == len(enc):
                        [type(x) for x in o]
        gc.callbacks.append(look)
        gc.set_threshold(1)
        offsets, ids, mask = enc.offsets, enc.ids, enc.attention_mask
        gc.callbacks.clear()
        assert len(offsets) == len(ids) == len(mask) == len(enc)
    """)
    assert result.returncode == 0, result.stderr
