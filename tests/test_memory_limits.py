"""Outputs too large for memory (spec section 8): encoding a text whose tokens do not fit, or
decoding ids whose text does not, is a MemoryError that says what did not fit, never an abort
of the interpreter, and the tokenizer works as before afterwards.

Each case runs in a child whose address space is limited (``RLIMIT_AS``) to what it holds once
its tokenizer and text are ready, and a little more: the output cannot fit, and an allocation
that fails aborts the child alone."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="optional: address-space limits (RLIMIT_AS) as Linux has them"
)

#: Made before the limit is set: `tok`, the tokenizer; `calls`, what to run with the limit 32 MB
#: above what the child holds then (or `(call, MB)`: that many MB above); `again`, what must give
#: the same afterwards. The text is 24 MB: 4 million WordPiece tokens, 64 MB as they are
#: collected and 76 MB as an encoding.
SETUP = {
    "wordpiece": """
        tok = fw.PyTokenizer(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "x" * 1000])
        numpy = pytest_numpy()
        big = "hello world " * 2_000_000
        calls = {
            "encode": lambda: tok.encode(big),
            "encode without special tokens": lambda: tok.encode(big, add_special_tokens=False),
            "encode_batch": lambda: tok.encode_batch([big]),
            "encode_batch of 8 on 2 threads": lambda: tok.encode_batch([big[:6_000_000]] * 8, num_threads=2),
            "call": lambda: tok(big),
            "call on a list": lambda: tok([big, "hello"]),
            "decode": lambda: tok.decode([7] * 100_000),
            # Room for the text, but not for its str too.
            "decode to a str": (lambda: tok.decode([7] * 300_000), 400),
        }
        if numpy is not None:
            calls["encode_batch numpy"] = lambda: tok.encode_batch([big], return_tensors="np")
            calls["encode_batch numpy with offsets"] = lambda: tok.encode_batch(
                [big], return_tensors="np", return_offsets=True
            )
            calls["encode_batch numpy padded"] = lambda: tok.encode_batch(
                [big, "hello"], return_tensors="np", padding="longest"
            )
            calls["call numpy"] = lambda: tok([big], return_tensors="np")
        again = lambda: (tok.encode("hello world").ids, tok.encode_batch(["world"] * 3, num_threads=2)[2].ids)
    """,
    "family": """
        corpus = ["hello world there"] * 50
        bpe = fw.BPETokenizer.train(corpus, 300)
        chars = fw.CharTokenizer.train(corpus, 300)
        pieces = [("<unk>", -10.0), ("▁", -1.0), ("h", -2.0), ("hh", -3.0)]
        pieces += [(c, -2.0) for c in "elowrdt"] + [("▁hello", -3.0), ("▁world", -3.0)]
        uni = fw.UnigramTokenizer(pieces, unk_token="<unk>")
        big = "hello world " * 2_000_000
        # A byte each: "q" is not merged with anything.
        qs = "q" * 12_000_000
        calls = {
            "BPETokenizer.encode": lambda: bpe.encode(qs),
            # Two tokens a piece ("Ġ", "q"): 12 million ids.
            "BPETokenizer.encode of many pieces": lambda: bpe.encode(" q" * 6_000_000),
            "BPETokenizer.encode_batch": lambda: bpe.encode_batch([qs, "hello"], num_threads=2),
            "CharTokenizer.encode": lambda: chars.encode(big),
            "CharTokenizer.encode_batch": lambda: chars.encode_batch([big, "hello"], num_threads=2),
            "UnigramTokenizer.encode": lambda: uni.encode(big),
            "UnigramTokenizer.encode_batch": lambda: uni.encode_batch([big, "hello"], num_threads=2),
            "UnigramTokenizer call": lambda: uni(big),
            # 10,000 best paths to each of 10,000 positions: 2.4 GB, known before the search.
            "UnigramTokenizer.encode nbest": lambda: uni.encode("h" * 10_000, alpha=0.5, nbest=10_000, seed=1),
        }
        again = lambda: (
            bpe.encode("hello world"),
            bpe.encode_batch(["world"] * 3, num_threads=2),
            chars.encode_batch(["world"] * 3, num_threads=2),
            uni.encode("hello world").ids,
            uni.encode_batch(["world"] * 3, num_threads=2)[2].ids,
            uni.encode("hello", alpha=0.5, nbest=4, seed=1).ids,
        )
    """,
}

CHILD = """
import json, resource, sys

def vm_bytes():
    with open("/proc/self/status") as f:
        return 1024 * int(next(line for line in f if line.startswith("VmSize:")).split()[1])

# Limited before the allocator starts: unlimited, it would reserve a gigabyte of address space
# at once (unused, but where the limit does not reach).
hard = vm_bytes() + (768 << 20)
resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
import fast_wordpiece as fw

def pytest_numpy():
    try:
        import numpy
    except ImportError:
        return None
    return numpy

{setup}
before = again()
held = vm_bytes()
out = {{}}
for name, call in calls.items():
    call, room = call if isinstance(call, tuple) else (call, 32)
    resource.setrlimit(resource.RLIMIT_AS, (held + (room << 20), hard))
    try:
        call()
        outcome = "returned"
    except Exception as e:
        outcome = type(e).__name__ + ": " + str(e)
    out[name] = [outcome, again() == before]
print(json.dumps(out))
"""


def _run(setup: str) -> dict[str, list]:
    code = CHILD.format(setup=textwrap.dedent(setup))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=REPO)
    assert run.returncode == 0, f"the child died ({run.returncode}): {run.stderr[-3000:]}"
    return json.loads(run.stdout)


#: What each MemoryError names: the encoding, list, text, str or paths that did not fit.
NAMED = r"(encoding|tokens|ids|list|text|str|paths|batch)"


@pytest.mark.parametrize("tokenizers", sorted(SETUP))
def test_outputs_beyond_memory_are_memory_errors_and_the_tokenizer_goes_on(tokenizers: str) -> None:
    results = _run(SETUP[tokenizers])
    assert len(results) >= 7
    for name, (outcome, same_after) in results.items():
        assert outcome.startswith("MemoryError: "), f"{name}: {outcome}"
        assert re.search(NAMED, outcome), f"{name}: {outcome}"
        assert "needs more memory than can be reserved" in outcome, f"{name}: {outcome}"
        assert same_after, f"{name}: the tokenizer encodes otherwise afterwards"
