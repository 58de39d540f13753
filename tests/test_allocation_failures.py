"""Python's allocator failing inside a call (spec section 8): whichever of the call's Python
allocations fails, the call raises MemoryError (or returns), never a ``PanicException``. Building
the list a call returns (the texts of ``decode_batch``, the tokens of ``tokenize``, a batch's
encodings) was a panic in the bindings when Python had no room for it, as was building what the
word counts, the vocabularies and an encoding's other fields are read back as (lists, dicts,
tuples, strs and ints made one by one). A keyword argument's name that could not be read for want of memory
was a TypeError (`got an unexpected keyword argument`) in the training methods.

Each call is made once for every allocation it makes, with that one allocation made to fail by
CPython's own hook for its tests (``_testcapi.set_nomemory``)."""

from __future__ import annotations

import functools
import json
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


def _templated(uni: fw.UnigramTokenizer) -> fw.UnigramTokenizer:
    """`uni` with a `TemplateProcessing` post-processor: `</s>` after each text."""
    doc = json.loads(uni.to_str())
    end = {"SpecialToken": {"id": "</s>", "type_id": 0}}
    doc["post_processor"] = {
        "type": "TemplateProcessing",
        "single": [{"Sequence": {"id": "A", "type_id": 0}}, end],
        "pair": [{"Sequence": {"id": "A", "type_id": 0}}, end, {"Sequence": {"id": "B", "type_id": 1}}, end],
        "special_tokens": {"</s>": {"id": "</s>", "ids": [uni.token_to_id("</s>")], "tokens": ["</s>"]}},
    }
    return fw.UnigramTokenizer.from_str(json.dumps(doc))


@functools.cache  # one tokenizer of 70,000 tokens for all the tests
def _special_token_calls() -> dict[str, Callable[[], object]]:
    # Ids above 65,536: each id read back is a new int.
    big = fw.PyTokenizer([f"w{i}" for i in range(70_000)] + VOCAB)
    big.bos_token, big.eos_token = "w69998", "w69999"
    calls: dict[str, Callable[[], object]] = {"vocab_size": lambda: big.vocab_size}
    for name in ("unk", "sep", "cls", "pad", "mask", "bos", "eos"):
        calls[f"{name}_token"] = functools.partial(getattr, big, f"{name}_token")
        calls[f"{name}_token_id"] = functools.partial(getattr, big, f"{name}_token_id")
    return calls


@functools.cache  # one tokenizer of 70,000 pieces for all the tests
def _unigram_calls() -> dict[str, Callable[[], object]]:
    uni = _templated(fw.UnigramTokenizer.train(CORPUS, 30, show_progress=False))
    # Ids above 65,536: each int read back is a new object.
    big = fw.UnigramTokenizer([("<unk>", 0.0)] + [(f"p{i}", -1.0 - i / 1e5) for i in range(70_000)])
    encoding = uni.encode("hello world", "world hello")
    return {
        "UnigramTokenizer.special_tokens": lambda: uni.special_tokens,
        "UnigramTokenizer.unk_token": lambda: uni.unk_token,
        "UnigramTokenizer.vocab_size": lambda: big.vocab_size,
        "UnigramTokenizer.template": lambda: uni.template,
        "UnigramTokenizer.get_vocab": lambda: uni.get_vocab(),
        "UnigramTokenizer.get_pieces": lambda: uni.get_pieces(),
        "UnigramTokenizer.token_to_id": lambda: big.token_to_id("p69999"),
        "UnigramTokenizer.id_to_token": lambda: uni.id_to_token(5),
        "UnigramTokenizer.convert_ids_to_tokens": lambda: uni.convert_ids_to_tokens(list(range(len(uni)))),
        "UnigramTokenizer.word_ids": lambda: uni.word_ids(["hello world there"] * 20),
        "UnigramTokenizer.encode": lambda: uni.encode("hello world", "world hello").ids,
        "UnigramTokenizer.encode_batch": lambda: [e.ids for e in uni.encode_batch(["hello world"] * 50)],
        "UnigramTokenizer.to_str": lambda: uni.to_str(),
        "UnigramTokenizer.analyze": lambda: uni.analyze(["hello world"] * 5),
        "UnigramTokenizer.train": lambda: fw.UnigramTokenizer.train(CORPUS, 30).get_pieces(),
        # A keyword's name is read into a new bytes object (the stable ABI before Python 3.10):
        # no room for it is a MemoryError, not "got an unexpected keyword argument".
        "UnigramTokenizer.train with keywords": lambda: fw.UnigramTokenizer.train(
            CORPUS, vocab_size=30, show_progress=False
        ).get_pieces(),
        "UnigramTokenizer.train_from_counts with keywords": lambda: fw.UnigramTokenizer.train_from_counts(
            {"hello world there": 50}, 30, special_tokens=["<unk>"], show_progress=False
        ).get_pieces(),
        "UnigramEncoding.tokens": lambda: encoding.tokens,
        "UnigramEncoding.type_ids": lambda: encoding.type_ids,
    }


def _calls() -> dict[str, Callable[[], object]]:
    tok = fw.PyTokenizer(VOCAB)
    bpe = fw.BPETokenizer.train(CORPUS, 300)
    chars = fw.CharTokenizer.train(CORPUS, 300)
    seqs = [[5, 6]] * 50
    # Counts above 65,536 and words never made as strs before: each item is a new object.
    counts = fw.WordCounts({f"word{i}": 70_000 + i for i in range(50)})
    trained = fw.PyTokenizer.train(CORPUS, 40)
    encoding = tok.encode("hello world", "world hello")
    # an id of 65,536 or more: an int made for the call, not a shared one
    big = fw.PyTokenizer(VOCAB + [f"w{i}" for i in range(66_000)])
    return {
        "convert_tokens_to_ids of one token": lambda: big.convert_tokens_to_ids("w65999"),
        "decode_batch": lambda: tok.decode_batch(seqs),
        "decode of a batch": lambda: tok.decode(seqs),
        "batch_decode": lambda: tok.batch_decode(seqs),
        "tokenize": lambda: tok.tokenize("hello world " * 50),
        "encode_batch": lambda: tok.encode_batch(["hello world"] * 50),
        "BPETokenizer.decode_batch": lambda: bpe.decode_batch(seqs),
        "BPETokenizer.tokenize": lambda: bpe.tokenize("hello world " * 50),
        "CharTokenizer.decode_batch": lambda: chars.decode_batch(seqs),
        # What training counts and vocabularies are read back as.
        "WordCounts.keys": lambda: counts.keys(),
        "WordCounts.values": lambda: counts.values(),
        "WordCounts.items": lambda: counts.items(),
        "WordCounts.most_common": lambda: counts.most_common(),
        "WordCounts.get": lambda: counts.get("word7"),
        "WordCounts.options": lambda: counts.options,
        "get_vocab": lambda: tok.get_vocab(),
        "get_added_vocab": lambda: tok.get_added_vocab(),
        "added_tokens_decoder": lambda: {i: str(t) for i, t in tok.added_tokens_decoder.items()},
        "merges": lambda: trained.merges,
        "special_tokens": lambda: tok.special_tokens,
        "id_to_token": lambda: tok.id_to_token(6),
        "analyze": lambda: tok.analyze(["hello world"] * 5),
        "Encoding.word_ids": lambda: encoding.word_ids,
        "Encoding.sequence_ids": lambda: encoding.sequence_ids,
        "Encoding.tokens": lambda: encoding.tokens,
        "Encoding.keys": lambda: encoding.keys(),
        "Encoding.to_dict": lambda: encoding.to_dict(),
        "BPETokenizer.get_vocab": lambda: bpe.get_vocab(),
        "BPETokenizer.merges": lambda: bpe.merges,
        "BPETokenizer.special_tokens": lambda: bpe.special_tokens,
        "BPETokenizer.id_to_token": lambda: bpe.id_to_token(0),
        "CharTokenizer.get_vocab": lambda: chars.get_vocab(),
        "CharTokenizer.id_to_token": lambda: chars.id_to_token(0),
        "WordCounts.split": lambda: [dict(part.items()) for part in counts.split(3)],
        "WordCounts.to_bytes": lambda: counts.to_bytes(),
        "WordCounts.total": lambda: counts.total,
        "WordCounts[word]": lambda: counts["word7"],
        "all_special_tokens": lambda: tok.all_special_tokens,
        "BPETokenizer.convert_ids_to_tokens": lambda: bpe.convert_ids_to_tokens(list(range(40))),
        "CharTokenizer.convert_ids_to_tokens": lambda: chars.convert_ids_to_tokens(list(range(10))),
        "to_str": lambda: tok.to_str(),
        "to_json": lambda: tok.to_json(),
        "BPETokenizer.to_json": lambda: bpe.to_json(),
        "CharTokenizer.to_json": lambda: chars.to_json(),
        "convert_ids_to_tokens": lambda: tok.convert_ids_to_tokens([5, 6] * 20),
        "convert_tokens_to_ids": lambda: tok.convert_tokens_to_ids(["hello", "nope"] * 20),
        "convert_tokens_to_string": lambda: tok.convert_tokens_to_string(["hello", "world"] * 20),
        **_special_token_calls(),
        **_unigram_calls(),
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


def test_a_list_being_filled_is_hidden_from_a_collector_hook() -> None:
    """A collection started while a returned list is filled (its items allocate) must not show a
    `gc.callbacks` hook the list's empty slots (reading them crashed the interpreter)."""
    import subprocess
    import sys

    script = """
import gc, fast_wordpiece as fw
counts = fw.WordCounts({f"w{i}": 70000 + i for i in range(3000)})
bpe = fw.BPETokenizer.train([" ".join(f"w{i}x{i % 7}" for i in range(3000))] * 3, 600)
lengths = {len(counts), len(bpe.merges)}
seen = []
def hook(phase, info):
    if phase == "start":
        for o in gc.get_objects():
            if type(o) is list and len(o) in lengths:
                seen.append(sum(1 for _ in o))
gc.callbacks.append(hook)
gc.set_threshold(50)
got = [counts.items(), counts.most_common(), counts.values(), bpe.merges]
gc.callbacks.clear()
assert gc.is_tracked(got[0]) and gc.is_tracked(got[3])
print(len(seen) > 0 or "no collection", [len(x) for x in got])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
