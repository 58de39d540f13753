"""Python's allocator failing inside a call (spec section 8): whichever of the call's Python
allocations fails, the call raises MemoryError (or returns), never a ``PanicException``. Building
the list a call returns (the texts of ``decode_batch``, the tokens of ``tokenize``, a batch's
encodings) was a panic in the bindings when Python had no room for it.

Each call is made once for every allocation it makes, with that one allocation made to fail by
CPython's own hook for its tests (``_testcapi.set_nomemory``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import fast_wordpiece as fw

_testcapi = pytest.importorskip("_testcapi", reason="optional: CPython's test hooks (_testcapi)")
if not hasattr(_testcapi, "set_nomemory"):
    pytest.skip("optional: _testcapi.set_nomemory", allow_module_level=True)

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world"]
CORPUS = ["hello world there"] * 50

#: Allocations tried in each call: more than any of these calls makes.
TRIES = 300


def _outcomes(call: Callable[[], object]) -> set[str]:
    """What `call` gives with its n-th Python allocation failing, for each n below TRIES."""
    seen = set()
    for n in range(TRIES):
        try:
            _testcapi.set_nomemory(n, n + 1)
            try:
                call()
            finally:
                _testcapi.remove_mem_hooks()
            seen.add("returned")
        except MemoryError:
            seen.add("MemoryError")
        except BaseException as e:  # a PanicException is a BaseException
            seen.add(f"{type(e).__name__}: {e}")
    return seen


def _calls() -> dict[str, Callable[[], object]]:
    tok = fw.PyTokenizer(VOCAB)
    bpe = fw.BPETokenizer.train(CORPUS, 300)
    chars = fw.CharTokenizer.train(CORPUS, 300)
    seqs = [[5, 6]] * 50
    return {
        "decode_batch": lambda: tok.decode_batch(seqs),
        "decode of a batch": lambda: tok.decode(seqs),
        "batch_decode": lambda: tok.batch_decode(seqs),
        "tokenize": lambda: tok.tokenize("hello world " * 50),
        "encode_batch": lambda: tok.encode_batch(["hello world"] * 50),
        "BPETokenizer.decode_batch": lambda: bpe.decode_batch(seqs),
        "BPETokenizer.tokenize": lambda: bpe.tokenize("hello world " * 50),
        "CharTokenizer.decode_batch": lambda: chars.decode_batch(seqs),
    }


@pytest.mark.parametrize("name", sorted(_calls()))
def test_a_failed_python_allocation_is_a_memory_error_not_a_panic(name: str) -> None:
    call = _calls()[name]
    expected = call()
    outcomes = _outcomes(call)
    assert outcomes <= {"MemoryError", "returned"}, f"{name}: {outcomes}"
    # The hook did make the call fail (it was tested), and the call works as before afterwards.
    assert "MemoryError" in outcomes
    assert call() == expected
