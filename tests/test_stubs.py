"""The hand-written type stubs match the compiled module, and type-check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "fast_wordpiece"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=600)


def test_stubtest_finds_no_difference_between_stubs_and_engine():
    result = run("mypy.stubtest", "fast_wordpiece._native")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_type_checks_with_its_stubs():
    result = run("mypy", str(PACKAGE))
    assert result.returncode == 0, result.stdout + result.stderr
