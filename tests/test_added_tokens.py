"""Added tokens (spec section 10): ``add_tokens`` / ``add_special_tokens`` with str or ``AddedToken``.

Each test does the same additions on our tokenizer (engine and twin) and on
Hugging Face ``tokenizers`` loading our exported ``tokenizer.json``, then
compares ids, tokens, offsets, word ids and decodes on real lines into which
the added tokens are written (with and without spaces around them), for every
combination of ``single_word``, ``lstrip``, ``rstrip``, ``normalized`` and
``special``. Our saved file loads in ``tokenizers`` with the same results, and
a tokenizer comes back equal from its file and from pickle.
"""

from __future__ import annotations

import itertools
import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

tokenizers = pytest.importorskip("tokenizers")
import fast_wordpiece  # noqa: E402
from fast_wordpiece import AddedToken, reference  # noqa: E402

IMPLS = {"engine": fast_wordpiece, "twin": reference}
FLAGS = ("single_word", "lstrip", "rstrip", "normalized", "special")
#: In the vocabulary or not; cased (changed by the lowercasing normalizer); with a space; inside words.
CONTENTS = ("love", "[NEW]", "Hello", "thou art", "ing", "<x>", "é!")
N_LINES = 60


def lines_with_tokens(lines: list[str], contents: tuple[str, ...], seed: int) -> list[str]:
    """Real lines with the added tokens written in at random places, glued to words or spaced."""
    rng = random.Random(seed)
    out = []
    for line in lines:
        words = line.split(" ")
        for _ in range(3):
            at = rng.randrange(len(words) + 1)
            token = rng.choice(contents)
            token = rng.choice([token, token.lower(), token.upper()])
            words.insert(at, rng.choice(["", " ", "  ", "\t"]) + token + rng.choice(["", " ", "\n"]))
        out.append(rng.choice([" ", ""]).join(words))
    return out


def hf_token(t: AddedToken) -> Any:
    return tokenizers.AddedToken(
        t.content,
        single_word=t.single_word,
        lstrip=t.lstrip,
        rstrip=t.rstrip,
        normalized=t.normalized,
        special=t.special,
    )


def compare(ours: Any, hf: Any, texts: list[str]) -> None:
    for add_special_tokens in (False, True):
        for text in texts:
            a, b = (
                ours.encode(text, add_special_tokens=add_special_tokens),
                hf.encode(text, add_special_tokens=add_special_tokens),
            )
            where = f"{text!r} add_special_tokens={add_special_tokens}"
            assert a.ids == b.ids, where
            # An added token shows the text it matched: the spaces that lstrip/rstrip take in, the
            # normalized form of a normalized one (spec section 10), as in Hugging Face.
            assert a.tokens == b.tokens, where
            assert a.offsets == b.offsets, where
            assert a.word_ids == b.word_ids, where
            assert a.special_tokens_mask == b.special_tokens_mask, where
            # id_to_token gives an added token as encodings show it, normalized (Hugging Face's too).
            assert [ours.id_to_token(i) for i in a.ids] == [hf.id_to_token(i) for i in b.ids], where
            for skip in (False, True):
                assert ours.decode(a.ids, skip_special_tokens=skip) == hf.decode(b.ids, skip_special_tokens=skip), where


@pytest.fixture(scope="module")
def base(bert_vocab_file: Path) -> dict[str, Any]:
    return {name: impl.PyTokenizer.from_vocab_file(bert_vocab_file) for name, impl in IMPLS.items()}


@pytest.fixture(scope="module")
def texts(shakespeare_lines: list[str], multilingual_lines: list[str]) -> list[str]:
    lines = [line for line in shakespeare_lines[:N_LINES] + multilingual_lines[:N_LINES] if line.strip()]
    return lines_with_tokens(lines, CONTENTS, seed=12)


def fresh(base: Any) -> Any:
    return type(base).from_str(base.to_str())


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("flags", list(itertools.product((False, True), repeat=len(FLAGS))), ids=str)
def test_every_flag_combination_encodes_as_hugging_face(
    impl: str, flags: tuple[bool, ...], base: dict[str, Any], texts: list[str]
) -> None:
    ours = fresh(base[impl])
    hf = tokenizers.Tokenizer.from_str(ours.to_str())
    kw = dict(zip(FLAGS, flags))
    added = [AddedToken(content, **kw) for content in CONTENTS]
    n_ours = ours.add_tokens(added)
    n_hf = hf.add_tokens([hf_token(t) for t in added])
    assert n_ours == n_hf
    assert len(ours) == hf.get_vocab_size(with_added_tokens=True)
    assert ours.vocab_size == hf.get_vocab_size(with_added_tokens=False)
    assert ours.get_vocab() == hf.get_vocab(with_added_tokens=True)
    sample = texts if impl == "engine" else texts[:20]
    compare(ours, hf, sample)
    # Our saved file loads in Hugging Face with the same added tokens.
    from_file = tokenizers.Tokenizer.from_str(ours.to_str())
    compare(ours, from_file, sample[:20])


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_str_tokens_and_counts_as_hugging_face(impl: str, base: dict[str, Any], texts: list[str]) -> None:
    ours = fresh(base[impl])
    hf = tokenizers.Tokenizer.from_str(ours.to_str())
    steps: list[tuple[str, list[Any]]] = [
        ("add_tokens", ["love", "[NEW]", "Hello", "", "[NEW]"]),
        ("add_special_tokens", ["<x>", "[CLS]", "love"]),
        ("add_tokens", [AddedToken("thou art", lstrip=True), "<x>"]),
        ("add_special_tokens", [AddedToken("ing", single_word=True), AddedToken("é!", normalized=True)]),
        ("add_tokens", [AddedToken("thou art", lstrip=True)]),
    ]
    for method, tokens in steps:
        hf_tokens = [hf_token(t) if isinstance(t, AddedToken) else t for t in tokens]
        if method == "add_special_tokens":  # HF makes each special, normalized only when asked
            hf_tokens = [
                tokenizers.AddedToken(
                    t.content,
                    single_word=t.single_word,
                    lstrip=t.lstrip,
                    rstrip=t.rstrip,
                    normalized=bool(t._normalized),
                    special=True,
                )
                if isinstance(t, AddedToken)
                else t
                for t in tokens
            ]
        assert getattr(ours, method)(tokens) == getattr(hf, method)(hf_tokens), (method, tokens)
        assert ours.get_vocab() == hf.get_vocab(with_added_tokens=True)
    compare(ours, hf, texts[:40])
    assert len(ours) == hf.get_vocab_size(with_added_tokens=True)
    assert ours.vocab_size == hf.get_vocab_size(with_added_tokens=False) < len(ours)


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_files_and_pickle_keep_added_tokens(impl: str, base: dict[str, Any], texts: list[str], tmp_path: Path) -> None:
    ours = fresh(base[impl])
    ours.add_tokens([AddedToken("Hello", lstrip=True, rstrip=True), "[NEW]", AddedToken("ing", single_word=True)])
    ours.add_special_tokens(["<x>"])
    path = tmp_path / "tokenizer.json"
    ours.save(path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    compare(ours, hf, texts[:30])
    cls = IMPLS[impl].PyTokenizer
    # The file lists the added tokens in id order, as Hugging Face writes them; read back, they are
    # in that order (not the order they were added in: that matters only for tokens that match the
    # same text), and the file is the same.
    assert cls.from_file(path).to_str() == ours.to_str()
    assert cls.from_json(ours.to_json()) == ours
    assert pickle.loads(pickle.dumps(ours)) == ours
    again = cls.from_file(path)
    for text in texts[:30]:
        assert again.encode(text).ids == ours.encode(text).ids


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_split_special_tokens_as_hugging_face(impl: str, bert_vocab_file: Path, texts: list[str]) -> None:
    ours = IMPLS[impl].PyTokenizer.from_vocab_file(bert_vocab_file, split_special_tokens=True)
    hf = tokenizers.Tokenizer.from_str(ours.to_str())
    hf.encode_special_tokens = True
    added = [AddedToken("<x>", rstrip=True, special=True), AddedToken("love", single_word=True, lstrip=True)]
    assert ours.add_tokens(added) == hf.add_tokens([hf_token(t) for t in added])
    compare(ours, hf, texts[:30])


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_transformers_dict_and_bad_input(impl: str, base: dict[str, Any]) -> None:
    ours = fresh(base[impl])
    n = ours.vocab_size
    assert ours.add_special_tokens({"additional_special_tokens": ["<a>", "<b>"]}) == 2
    assert ours.token_to_id("<b>") == n + 1
    assert ours.special_tokens[-2:] == ["<a>", "<b>"]
    assert ours.decode(ours.encode("x <a> y").ids, skip_special_tokens=True) == "x y"
    assert ours.add_tokens("<c>") == 1
    assert ours.add_tokens([]) == 0
    with pytest.raises(ValueError, match="additional_special_tokens"):
        ours.add_special_tokens({"cls_token": "<p>"})
    with pytest.raises(TypeError, match=r"^new_tokens\[0\] must be a str or an AddedToken, not int$"):
        ours.add_tokens([3])


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_errors_name_transformers_parameters(impl: str, base: dict[str, Any]) -> None:
    """``add_tokens(new_tokens)``, ``add_special_tokens(special_tokens_dict)``: the errors name
    the argument as transformers calls it, or the key of the dict that holds the bad token."""
    ours = fresh(base[impl])
    cases: list[tuple[Any, str]] = [
        (lambda: ours.add_tokens(5), "add_tokens: new_tokens must be a list of str or AddedToken, not int"),
        (lambda: ours.add_tokens({"a": 1}), "add_tokens: new_tokens must be a list of str or AddedToken, not dict"),
        (lambda: ours.add_tokens(["a", 2]), "new_tokens[1] must be a str or an AddedToken, not int"),
        (
            lambda: ours.add_tokens(5, special_tokens=True),  # special tokens, but add_tokens' argument
            "add_tokens: new_tokens must be a list of str or AddedToken, not int",
        ),
        (
            lambda: ours.add_special_tokens(5),
            "add_special_tokens: special_tokens_dict must be a dict or a list of str or AddedToken, not int",
        ),
        (
            lambda: ours.add_special_tokens([None]),
            "special_tokens_dict[0] must be a str or an AddedToken, not NoneType",
        ),
        (
            lambda: ours.add_special_tokens({"additional_special_tokens": [1]}),
            "additional_special_tokens[0] must be a str or an AddedToken, not int",
        ),
        (
            lambda: ours.add_special_tokens({"additional_special_tokens": {"<x>": 1}}),
            "add_special_tokens: additional_special_tokens must be a list of str or AddedToken, not dict",
        ),
    ]
    for call, message in cases:
        with pytest.raises(TypeError) as raised:
            call()
        assert str(raised.value) == message
    assert len(ours) == len(base[impl])
    with pytest.raises(TypeError, match="must be a bool"):
        AddedToken("x", lstrip=1)  # type: ignore[arg-type]


def test_encodings_made_before_keep_their_tokenizer(base: dict[str, Any]) -> None:
    ours = fresh(base["engine"])
    before = ours.encode("hello <y> world")
    ours.add_tokens(["<y>"])
    after = ours.encode("hello <y> world")
    assert "<y>" in after.tokens
    assert "<y>" not in before.tokens
    assert before.tokens == [ours.id_to_token(i) for i in before.ids]


def test_added_token_defaults_follow_hugging_face() -> None:
    for kwargs in ({}, {"special": True}, {"special": True, "normalized": True}, {"normalized": False}):
        ours, theirs = AddedToken("x", **kwargs), tokenizers.AddedToken("x", **kwargs)
        assert (ours.normalized, ours.special) == (theirs.normalized, theirs.special), kwargs
    assert pickle.loads(pickle.dumps(AddedToken("x", rstrip=True))) == AddedToken("x", rstrip=True)


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_save_pretrained_keeps_added_tokens_for_transformers(
    impl: str, base: dict[str, Any], texts: list[str], tmp_path: Path
) -> None:
    transformers = pytest.importorskip("transformers")
    ours = fresh(base[impl])
    ours.add_tokens([AddedToken("Hello", lstrip=True), "[NEW]", AddedToken("ing", single_word=True)])
    ours.add_special_tokens({"additional_special_tokens": ["<x>"]})
    ours.save_pretrained(tmp_path)
    auto = transformers.AutoTokenizer.from_pretrained(str(tmp_path))
    assert len(auto) == len(ours)
    for text in texts[:30]:
        assert auto(text)["input_ids"] == ours.encode(text).ids, text
    # The same files (the added tokens in id order, as Hugging Face writes them).
    assert type(ours).from_pretrained(tmp_path).to_str() == ours.to_str()


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_of_added_tokens_matching_the_same_text_the_first_added_wins(
    impl: str, base: dict[str, Any], tmp_path: Path
) -> None:
    """As in Hugging Face's added vocabulary, which keeps the tokens in the order they were added: on an
    uncased tokenizer "naïve" (added first, new id) and "naive" (in the vocabulary) both match "naive", and
    the first one added wins, with its flags. A saved file lists them in id order, as Hugging Face writes
    it; read back, the one with the lower id comes first (as Hugging Face reads its own file back)."""
    ours = fresh(base[impl])
    naive = ours.token_to_id("naive")
    assert ours.add_tokens(["naïve", "naive"]) == 2
    new = ours.token_to_id("naïve")
    assert new == len(ours) - 1 != naive
    assert ours.encode("naive Naïve").ids == [101, new, new, 102]
    ours.save(tmp_path / "tokenizer.json")
    again = IMPLS[impl].PyTokenizer.from_file(tmp_path / "tokenizer.json")
    assert again.encode("naive Naïve").ids == [101, naive, naive, 102]
    listed = json.loads((tmp_path / "tokenizer.json").read_text(encoding="utf-8"))["added_tokens"]
    assert [t["content"] for t in listed][-2:] == ["naive", "naïve"]
    # The winner's flags apply: "naïve" (no flags) is found inside a word, though "naive" is single_word.
    flagged = fresh(base[impl])
    flagged.add_tokens(["naïve", AddedToken("naive", single_word=True)])
    assert flagged.encode("hellonaive", add_special_tokens=False).tokens == ["hello", "naive"]
    flagged = fresh(base[impl])
    flagged.add_tokens([AddedToken("naive", single_word=True), "naïve"])
    assert flagged.encode("hellonaive", add_special_tokens=False).tokens != ["hello", "naive"]


def test_adding_while_other_threads_encode(base: dict[str, Any], texts: list[str]) -> None:
    """Each encode sees the tokenizer as it was before or after one of the additions, never a mix."""
    import threading

    sample = texts[:40]
    news = [f"<t{i}>" for i in range(10)] + ["love", "Hello"]
    states = [fresh(base["engine"])]
    for token in news:
        states.append(pickle.loads(pickle.dumps(states[-1])))  # keeps the order of additions
        states[-1].add_tokens([token])
    allowed = [{tuple(s.encode(t).ids) for s in states} for t in sample]
    ours = fresh(base["engine"])
    seen: list[tuple[int, tuple[int, ...]]] = []

    def encode() -> None:
        for _ in range(10):
            seen.extend((i, tuple(ours.encode(t).ids)) for i, t in enumerate(sample))

    workers = [threading.Thread(target=encode) for _ in range(3)]
    for w in workers:
        w.start()
    for token in news:
        ours.add_tokens([token])
    for w in workers:
        w.join()
    assert all(ids in allowed[i] for i, ids in seen)
    assert ours == states[-1]


#: Flags a token is added with, then added again with.
READD = [dict(zip(("normalized", "special", "lstrip"), flags)) for flags in itertools.product((False, True), repeat=3)]
SMALL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "love", "a", "h", "##e", "##l", "##o", "##s", ","]


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize("content", ["Hello", "love", "[SEP]", "<x>"])
def test_adding_a_token_again_with_other_flags_as_hugging_face(impl: str, content: str) -> None:
    """Hugging Face keeps the last flags of a token, but a token once special stays special for
    decoding and split_special_tokens, and one once normalized is decoded in its normalized form."""
    PyTokenizer = IMPLS[impl].PyTokenizer
    sample = [f"{content} {content.upper()},{content}", f"a{content}s  {content.lower()} hello", "love hellos"]
    for first, second in itertools.product(READD, READD):
        ours = PyTokenizer(SMALL)
        hf = tokenizers.Tokenizer.from_str(ours.to_str())
        counts = [
            (ours.add_tokens([AddedToken(content, **flags)]), hf.add_tokens([hf_token(AddedToken(content, **flags))]))
            for flags in (first, second, second)
        ]
        assert all(a == b for a, b in counts), (first, second, counts)
        compare(ours, hf, sample)
        # Hugging Face's file keeps only the last flags; so does ours, and both load alike.
        compare(PyTokenizer.from_str(ours.to_str()), tokenizers.Tokenizer.from_str(hf.to_str()), sample)
        # A token once special is still plain text with split_special_tokens.
        split = PyTokenizer(SMALL, split_special_tokens=True)
        split_hf = tokenizers.Tokenizer.from_str(split.to_str())
        split_hf.encode_special_tokens = True
        for flags in (first, second):
            split.add_tokens([AddedToken(content, **flags)])
            split_hf.add_tokens([hf_token(AddedToken(content, **flags))])
        compare(split, split_hf, sample)


@pytest.mark.parametrize("impl", sorted(IMPLS))
def test_added_tokens_need_every_flag_as_in_hugging_face(impl: str) -> None:
    """Hugging Face's added tokens have no serde defaults: a file that leaves a flag out is refused."""
    doc = json.loads(IMPLS[impl].PyTokenizer(SMALL).to_str())
    for flag in ("normalized", "special", "lstrip", "rstrip", "single_word"):
        broken = json.loads(json.dumps(doc))
        del broken["added_tokens"][1][flag]
        with pytest.raises(Exception, match=f"missing field `{flag}`"):
            tokenizers.Tokenizer.from_str(json.dumps(broken))
        with pytest.raises(ValueError, match=rf"^added_tokens\[1\]: missing field .{flag}."):
            IMPLS[impl].PyTokenizer.from_str(json.dumps(broken))


#: Contents whose matches can start in whitespace an ``rstrip`` took in: CJK (BERT's normalizer pads it
#: with spaces, so a normalized match starts with one), a leading space, whitespace itself.
OVERLAPPING = ("中国", "国", " x", "\xa0", "!")


def dense_texts(seed: int, n: int) -> list[str]:
    """Texts made of the contents above, words and whitespace, tightly packed."""
    rng = random.Random(seed)
    parts = [*OVERLAPPING, "中", "x", "a", "hello", " ", "  ", "\xa0\xa0", "\t"]
    return ["".join(rng.choice(parts) for _ in range(rng.randrange(1, 9))) for _ in range(n)]


def hf_or_none(hf: Any, text: str, add_special_tokens: bool) -> Any:
    """Hugging Face's encoding, or None where it panics ("AddedVocabulary bad split": an ``lstrip`` match
    that starts in whitespace an ``rstrip`` match took, ending before that whitespace does)."""
    try:
        return hf.encode(text, add_special_tokens=add_special_tokens)
    except BaseException as e:  # pyo3's PanicException derives from BaseException
        if "bad split" not in str(e):
            raise
        return None


@pytest.mark.parametrize("impl", sorted(IMPLS))
@pytest.mark.parametrize(
    "flags",
    [*itertools.product((False, True), repeat=3), "mixed"],
    ids=str,
)
def test_a_match_in_whitespace_an_rstrip_took_overlaps_as_in_hugging_face(
    impl: str, flags: Any, base: dict[str, Any]
) -> None:
    """The search goes on after a match, not after the whitespace its ``rstrip`` took in, so the next
    match may start in that whitespace and overlap it (spec section 10): ``"中国中国"`` with an
    ``rstrip`` "中国" is two added tokens, as in Hugging Face, not one and two word pieces."""
    ours = fresh(base[impl])
    hf = tokenizers.Tokenizer.from_str(ours.to_str())
    rng = random.Random(str(flags))
    added = []
    for content in OVERLAPPING:
        if flags == "mixed":
            lstrip, rstrip, normalized = (rng.random() < 0.5 for _ in range(3))
        else:
            lstrip, rstrip, normalized = flags
        added.append(AddedToken(content, lstrip=lstrip, rstrip=rstrip, normalized=normalized))
    ours.add_tokens(added)
    hf.add_tokens([hf_token(t) for t in added])
    texts = ["中国中国", "! x", "a\xa0\xa0\xa0b", "中国 国", *dense_texts(seed=7, n=300 if impl == "engine" else 80)]
    compared = 0
    for text in texts:
        for add_special_tokens in (False, True):
            b = hf_or_none(hf, text, add_special_tokens)
            if b is None:
                continue
            a = ours.encode(text, add_special_tokens=add_special_tokens)
            where = f"{text!r} add_special_tokens={add_special_tokens}"
            assert (a.ids, a.tokens, a.offsets, a.word_ids) == (b.ids, b.tokens, b.offsets, b.word_ids), where
            compared += 1
    assert compared >= len(texts), "most texts are compared"
    if flags == (False, True, True):
        overlapping = ours.encode("中国中国", add_special_tokens=False)
        assert overlapping.tokens == [" 中  国  ", " 中  国 "]
        assert overlapping.offsets == [(0, 3), (2, 4)]


@pytest.mark.parametrize("module", [fast_wordpiece, reference], ids=["engine", "twin"])
@pytest.mark.parametrize("content", ["\u200b", "\ufffd", "\x01", "\u0301"])
def test_a_normalized_token_the_normalizer_empties_is_never_found(module: Any, content: str,
                                                                    bert_tokenizer_json: Path) -> None:  # fmt: skip
    """Its normalized form is empty: Hugging Face matches that at every position and splits the text
    into characters (or panics on a 4-byte one), a bug not followed (spec section 10)."""
    tok = module.PyTokenizer.from_file(bert_tokenizer_json)
    tok.no_padding()
    texts = [f"hello{content} world", "naïve café", "👨\u200d👩 family"]
    before = [tok.encode(t, add_special_tokens=False).tokens for t in texts]
    assert tok.add_tokens([AddedToken(content, normalized=True)]) == 1
    assert [tok.encode(t, add_special_tokens=False).tokens for t in texts] == before
    assert before[0] == ["hello", "world"]


def test_the_twin_matches_a_file_s_added_tokens_once_all_are_read(
    base: dict[str, Any], texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file's added tokens are matched once all are read: building the matchers again after each token made the twin
    take minutes to load a real file with 1,644 added tokens. The file loads as the engine's."""
    from fast_wordpiece.reference import tokenizer as twin_tokenizer

    engine = fresh(base["engine"])
    contents = [f"<t{i}>" for i in range(300)]
    engine.add_tokens([AddedToken(c, normalized=i % 2 == 0) for i, c in enumerate(contents)])
    engine.add_special_tokens([f"<s{i}>" for i in range(100)])
    built: list[int] = []
    of = twin_tokenizer._Matcher.of
    monkeypatch.setattr(twin_tokenizer._Matcher, "of", staticmethod(lambda entries: built.append(1) or of(entries)))
    twin = reference.PyTokenizer.from_str(engine.to_str())
    assert len(built) <= 3  # the plain special tokens', then the raw and the normalized added tokens'
    assert twin.to_str() == engine.to_str()
    glued = [f"{line} <t7><s3>{contents[150]} <T8>" for line in texts[:20]]
    assert [e.ids for e in twin.encode_batch(glued)] == [e.ids for e in engine.encode_batch(glued)]
