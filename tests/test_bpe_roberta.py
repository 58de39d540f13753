"""RoBERTa-style byte-level BPE files, as the ``tokenizers`` library writes them: a
``RobertaProcessing`` post-processor (``<s> A </s>``, with its ``trim_offsets`` and
``add_prefix_space``), an added ``<mask>`` with ``lstrip`` (it takes in the whitespace before
it) and others with ``rstrip``, and a ``padding`` section. ``BPETokenizer`` loads them, encodes
as ``tokenizers`` does (the template unless ``add_special_tokens=False``), and its call gives
what transformers' ``PreTrainedTokenizerFast`` gives on the same file: ids, type ids, special
tokens masks, offsets, truncation and padding. It writes the file back. The twin behaves as the
engine."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import fast_wordpiece as fw
from fast_wordpiece.reference import bpe as ref_bpe

tokenizers = pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")

MAKERS = {"engine": fw.BPETokenizer, "twin": ref_bpe.BPETokenizer}
#: Letters and words, runs of spaces and other Unicode whitespace, accents, CJK, emoji, and the
#: added tokens with and without whitespace around them.
PARTS = [*"abcdefgh ijklmnop", "the", " the", "  ", "   ", "\n", "\t", " \t ", "\u3000", "\xa0", "é", "中",
         "😀", ",", "<mask>", " <mask>", "  <mask> ", "<s>", "</s>", " </s> ", "<r>", " <r>  ", "<lr>",
         "\u3000<lr>\u3000"]  # fmt: skip
CORPUS = [
    "the cat sat on the mat, and the dog sat on the log.",
    "Lower, lowest, newer, wider: the words of a small corpus.",
    "Über die Brücke gehen wir; 中文 也 可以。 😀 ok",
] * 4


def random_texts(start: int, n: int) -> list[str]:
    r = random.Random(start)
    return ["".join(r.choice(PARTS) for _ in range(r.randint(0, 20))) for _ in range(n)]


def roberta(trim_offsets: bool = True, add_prefix_space: bool = True, padding: bool = False) -> Any:
    """A RoBERTa-style ``tokenizers.Tokenizer`` trained on :data:`CORPUS`."""
    made = tokenizers.ByteLevelBPETokenizer()
    specials = ["<s>", "<pad>", "</s>", "<unk>"]
    made.train_from_iterator(CORPUS, vocab_size=400, min_frequency=1, special_tokens=specials, show_progress=False)
    added = tokenizers.AddedToken
    made.add_special_tokens([added("<mask>", lstrip=True), added("<r>", rstrip=True)])
    made.add_special_tokens([added("<lr>", lstrip=True, rstrip=True)])
    ids = {t: made.token_to_id(t) for t in specials}
    made.post_processor = tokenizers.processors.RobertaProcessing(
        ("</s>", ids["</s>"]), ("<s>", ids["<s>"]), trim_offsets=trim_offsets, add_prefix_space=add_prefix_space
    )
    if padding:
        made.enable_padding(pad_id=ids["<pad>"], pad_token="<pad>", pad_to_multiple_of=4)
    return made


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[bool, bool], Path]:
    """RoBERTa-style files by the post-processor's ``(trim_offsets, add_prefix_space)``."""
    folder = tmp_path_factory.mktemp("roberta")
    out = {}
    for trim in (True, False):
        for keep in (True, False):
            out[trim, keep] = folder / f"roberta-{trim}-{keep}.json"
            roberta(trim, keep).save(str(out[trim, keep]))
    return out


@pytest.mark.parametrize("make", ["engine", "twin"])
def test_a_roberta_file_encodes_as_tokenizers_encodes_it(make: str, files: dict[tuple[bool, bool], Path]) -> None:
    ours = MAKERS[make].load(files[True, True])
    theirs = tokenizers.Tokenizer.from_file(str(files[True, True]))
    assert ours.template == ("<s>", "</s>")
    assert ours.special_tokens_strip == {"<mask>": (True, False), "<r>": (False, True), "<lr>": (True, True)}
    texts = [*random_texts(3, 400), "", " ", "hello <mask> world", "<r>  <mask>", "x <lr>  y"]
    for text in texts:
        want = theirs.encode(text)
        assert ours.encode(text) == want.ids, text
        assert ours.tokenize(text, add_special_tokens=True) == [theirs.id_to_token(i) for i in want.ids], text
        plain = theirs.encode(text, add_special_tokens=False).ids
        assert ours.tokenize(text) == [theirs.id_to_token(i) for i in plain], text  # transformers' tokenize
        assert ours.encode(text, add_special_tokens=False) == theirs.encode(text, add_special_tokens=False).ids
    assert ours.encode_batch(texts) == [e.ids for e in theirs.encode_batch(texts)]
    assert ours.encode_batch(texts, add_special_tokens=False) == [
        e.ids for e in theirs.encode_batch(texts, add_special_tokens=False)
    ]
    # the whitespace around <mask> and <lr> is taken in, not encoded
    assert ours.encode("a  <mask>", add_special_tokens=False) == ours.encode("a<mask>", add_special_tokens=False)
    assert ours.decode(ours.encode("a <mask>")) == "<s>a<mask></s>"


def call(tokenizer: Any, texts: list[str], **options: Any) -> dict[str, Any]:
    result = tokenizer(texts, return_offsets_mapping=True, return_special_tokens_mask=True,
                       return_token_type_ids=True, **options)  # fmt: skip
    out = dict(result)
    out["offset_mapping"] = [[tuple(pair) for pair in row] for row in out["offset_mapping"]]
    return out


OPTIONS = [{}, {"add_special_tokens": False}, {"truncation": True, "max_length": 6}, {"padding": True},
           {"truncation": True, "max_length": 1}, {"truncation": True, "max_length": 2},
           {"padding": "max_length", "max_length": 9, "truncation": True}]  # fmt: skip


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("trim_keep", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("make", ["engine", "twin"])
def test_the_call_gives_what_transformers_gives(
    make: str, trim_keep: tuple[bool, bool], options: dict[str, Any], files: dict[tuple[bool, bool], Path]
) -> None:
    ours = MAKERS[make].load(files[trim_keep])
    backend = tokenizers.Tokenizer.from_file(str(files[trim_keep]))
    theirs = transformers.PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>")
    texts = [*random_texts(11, 150), " <mask>", "<mask>", "  <r> \n<mask>", "é\u3000<mask>", " hello  the"]
    got = call(ours, texts, **options)
    assert got == call(theirs, texts, **options)
    if "add_special_tokens" not in options and "padding" not in options:
        assert all(row[0] == row[-1] == 1 for row in got["special_tokens_mask"])


def test_lstrip_offsets_take_in_the_whitespace_before_trimming(files: dict[tuple[bool, bool], Path]) -> None:
    untrimmed = fw.BPETokenizer.load(files[False, True])
    trimmed = fw.BPETokenizer.load(files[True, True])
    text = "hello  <mask> x"
    at = untrimmed.encode(text).index(untrimmed.token_to_id("<mask>"))
    assert untrimmed(text, return_offsets_mapping=True)["offset_mapping"][at] == (5, 13)
    assert trimmed(text, return_offsets_mapping=True)["offset_mapping"][at] == (7, 13)


@pytest.mark.parametrize("make", ["engine", "twin"])
def test_a_roberta_file_is_written_back(make: str, files: dict[tuple[bool, bool], Path], tmp_path: Path) -> None:
    for key, path in files.items():
        ours = MAKERS[make].load(path)
        root = json.loads(ours.to_json())
        given = json.loads(path.read_text(encoding="utf-8"))
        # add_prefix_space counts only with trim_offsets: without, it is written false
        given["post_processor"]["add_prefix_space"] &= given["post_processor"]["trim_offsets"]
        assert root["post_processor"] == given["post_processor"], key
        strip = [(t["content"], t["lstrip"], t["rstrip"]) for t in root["added_tokens"]]
        assert strip == [(t["content"], t["lstrip"], t["rstrip"]) for t in given["added_tokens"]]
        ours.save(tmp_path / "back.json")
        assert MAKERS[make].load(tmp_path / "back.json") == ours
        back, first = (tokenizers.Tokenizer.from_file(str(p)) for p in (tmp_path / "back.json", path))
        for text in random_texts(5, 50):
            assert back.encode(text).ids == ours.encode(text)
            assert back.encode(text).offsets == first.encode(text).offsets
    # without the template, nothing is added (and the others differ from it)
    ours = MAKERS[make].load(files[True, True])
    root = json.loads(ours.to_json())
    root["post_processor"] = None
    plain = MAKERS[make].from_json(json.dumps(root))
    assert plain.template is None
    assert plain != ours
    assert plain.encode("a b") == ours.encode("a b", add_special_tokens=False) == ours.encode("a b")[1:-1]


@pytest.mark.parametrize("make", ["engine", "twin"])
def test_a_template_token_must_be_in_the_vocabulary_with_its_id(
    make: str, files: dict[tuple[bool, bool], Path]
) -> None:
    root = json.loads(files[True, True].read_text(encoding="utf-8"))
    root["post_processor"]["sep"] = ["</s>", 7]
    with pytest.raises(ValueError, match=r"post_processor\.sep: \"</s>\" must be in the vocabulary with id 7"):
        MAKERS[make].from_json(json.dumps(root))
    root["post_processor"]["sep"] = "</s>"
    with pytest.raises(ValueError, match=r"post_processor\.sep: expected \[token, id\]"):
        MAKERS[make].from_json(json.dumps(root))
    root = json.loads(files[True, True].read_text(encoding="utf-8"))
    root["added_tokens"][-1]["lstrip"] = "yes"
    with pytest.raises(ValueError, match=r"added_tokens\[\d+\]\.lstrip: \"yes\" is not a bool"):
        MAKERS[make].from_json(json.dumps(root))


PADDINGS = [{"pad_to_multiple_of": 4}, {"length": 10, "direction": "left", "pad_to_multiple_of": 4}, {"length": 3}]


@pytest.mark.parametrize("options", PADDINGS)
@pytest.mark.parametrize("make", ["engine", "twin"])
def test_a_padding_section_pads_as_tokenizers_pads(make: str, options: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "padded.json"
    made = roberta(padding=False)
    made.enable_padding(pad_id=made.token_to_id("<pad>"), pad_token="<pad>", **options)
    made.save(str(path))
    ours, theirs = MAKERS[make].load(path), tokenizers.Tokenizer.from_file(str(path))
    unpadded = tokenizers.Tokenizer.from_file(str(path))
    unpadded.no_padding()
    assert ours.padding == theirs.padding
    texts = random_texts(17, 40)
    assert ours.encode_batch(texts) == [e.ids for e in theirs.encode_batch(texts)]
    for text in texts[:10]:
        assert ours.encode(text) == theirs.encode(text).ids
        # tokenize neither pads nor adds the template, as transformers' tokenize
        assert ours.tokenize(text) == [
            unpadded.id_to_token(i) for i in unpadded.encode(text, add_special_tokens=False).ids
        ]
    assert ours.encode_batch(texts, add_special_tokens=False) == [
        e.ids for e in theirs.encode_batch(texts, add_special_tokens=False)
    ]
    # written back as it was
    given = json.loads(path.read_text(encoding="utf-8"))
    assert json.loads(ours.to_json())["padding"] == given["padding"]
    ours.save(tmp_path / "back.json")
    assert MAKERS[make].load(tmp_path / "back.json") == ours
    # the call pads as asked, with the file's padding token and side, as transformers
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tokenizers.Tokenizer.from_file(str(path)))
    for asked in ({}, {"padding": True}, {"padding": True, "padding_side": "right"}):
        assert call(ours, texts, **asked) == call(fast, texts, **asked)
    theirs.no_padding()
    assert ours.encode_batch(texts, padding=False) == [e.ids for e in theirs.encode_batch(texts)]
    # the section is part of the tokenizer: without it, another one
    given["padding"] = None
    assert MAKERS[make].from_json(json.dumps(given)) != ours


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ("longest", r"padding: expected an object \(or null\)"),
        ({"strategy": "Longest"}, r'padding\.strategy: "Longest" is not "BatchLongest" or \{"Fixed": n\}'),
        ({"strategy": {"Fixed": -1}}, r"padding\.strategy: \{"),
        ({"direction": "Up"}, r'padding\.direction: "Up" is not "Right" or "Left"'),
        ({"pad_id": -1}, r"padding\.pad_id: -1 is not a count"),
        ({"pad_to_multiple_of": 1.5}, r"padding\.pad_to_multiple_of: 1\.5 is not a count"),
        ({"pad_token": 3}, r"padding\.pad_token: 3 is not a str"),
        ({"strategy": {"Fixed": 2**64}}, r"padding\.strategy: \{"),
        ({"pad_to_multiple_of": 2**64}, r"padding\.pad_to_multiple_of: .* is not a count"),
        ({"pad_id": 2**32}, r"padding\.pad_id: 4294967296 is too large"),
        ({"pad_type_id": 2**32}, r"padding\.pad_type_id: 4294967296 is too large"),
    ],
)
@pytest.mark.parametrize("make", ["engine", "twin"])
def test_a_bad_padding_section_is_named(make: str, section: Any, message: str, tmp_path: Path) -> None:
    root = json.loads(MAKERS[make].load(Path(roberta_file(tmp_path))).to_json())
    root["padding"] = section
    with pytest.raises(ValueError, match=message):
        MAKERS[make].from_json(json.dumps(root))


def roberta_file(folder: Path) -> str:
    path = str(folder / "roberta.json")
    roberta().save(path)
    return path


def padded_file(folder: Path, **options: Any) -> Path:
    """A RoBERTa-style file with a padding section of ``options``."""
    made = roberta()
    made.enable_padding(pad_id=made.token_to_id("<pad>"), pad_token="<pad>", **options)
    path = folder / "padded.json"
    made.save(str(path))
    return path


@pytest.mark.parametrize("make", ["engine", "twin"])
def test_a_padding_length_past_memory_is_a_memory_error(make: str, tmp_path: Path) -> None:
    root = json.loads(padded_file(tmp_path).read_text(encoding="utf-8"))
    root["padding"]["strategy"] = {"Fixed": 2**64 - 1}
    ours = MAKERS[make].from_json(json.dumps(root))
    with pytest.raises(MemoryError, match=r"^an encoding of 18446744073709551615 tokens needs more memory"):
        ours.encode("hello")


def test_analyze_counts_the_models_tokens_alike_in_engine_and_twin(tmp_path: Path) -> None:
    """No template, no padding: the tokens of the texts, in the engine as in the twin."""
    path = padded_file(tmp_path, length=24)
    engine, twin = fw.BPETokenizer.load(path), ref_bpe.BPETokenizer.load(path)
    texts = random_texts(5, 50)
    assert engine.analyze(texts) == twin.analyze(texts)
    words = sum(len(t.split()) for t in texts)
    tokens = sum(len(engine.tokenize(t)) for t in texts)  # no template, no padding
    assert tokens < sum(len(engine.encode(t)) for t in texts)  # encode pads to 24
    assert engine.analyze(texts)["tokens_per_word"] == pytest.approx(tokens / words)


@pytest.mark.parametrize("make", ["engine", "twin"])
def test_pad_takes_the_side_of_the_files_padding_section(make: str, tmp_path: Path) -> None:
    path = padded_file(tmp_path, direction="left")
    ours = MAKERS[make].load(path)
    theirs = transformers.PreTrainedTokenizerFast(tokenizer_object=tokenizers.Tokenizer.from_file(str(path)))
    assert theirs.padding_side == "left"
    features = {"input_ids": [[0, 5, 2], [0, 2]]}
    assert dict(ours.pad(features)) == dict(theirs.pad(features))
    assert ours.pad(features)["input_ids"][1][0] == theirs.pad_token_id


@pytest.mark.parametrize("make", ["engine", "twin"])
def test_a_pair_is_refused_as_single_texts_only_and_encode_takes_no_pair(make: str, files: Any) -> None:
    ours = MAKERS[make].load(files[True, True])
    with pytest.raises(ValueError, match=r"^BPETokenizer encodes single texts only: text_pair must be None$"):
        ours("hello world", "the cat")
    with pytest.raises(TypeError, match=r"positional argument"):
        ours.encode("hello world", "the cat")  # tokenizers' encode(sequence, pair): not ours


@pytest.mark.parametrize("cls", ["BPETokenizer", "CharTokenizer", "UnigramTokenizer"])
def test_the_family_twins_encode_batch_names_a_bad_text_as_the_engine(cls: str) -> None:
    from fast_wordpiece import reference

    corpus = ["hello world abc def ghi"] * 50
    engine = getattr(fw, cls).train(corpus, None if cls == "CharTokenizer" else 40, show_progress=False)
    if cls == "UnigramTokenizer":
        twin = reference.UnigramTokenizer.from_str(engine.to_str())
    else:
        twin = getattr(reference, cls).from_json(engine.to_json())
    for bad, message in [
        ("abc", r"^texts must be an iterable of str, not str$"),
        (["a", 5], r"^texts\[1\] must be str, not int$"),
    ]:
        for tok in (engine, twin):
            with pytest.raises(TypeError, match=message):
                tok.encode_batch(bad)
