"""The stubs type integer arguments as the engine takes them: anything with ``__index__``
(numpy's integer scalars, 0-d integer arrays), not only ``int``. mypy (--strict) passes the
calls of tests/typing_checks/accepted.py, which also run, and flags every marked line of
tests/typing_checks/refused.py (a str where an integer goes, a value the engine refuses), and no
other."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from mypy import api as mypy_api

CHECKS = Path(__file__).resolve().parent / "typing_checks"


@pytest.fixture(scope="module")
def errors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[int]]:
    """The lines mypy flags, by file name."""
    cache = tmp_path_factory.mktemp("mypy-cache")
    paths = [str(CHECKS / "accepted.py"), str(CHECKS / "refused.py")]
    stdout, stderr, _ = mypy_api.run(["--strict", "--no-error-summary", "--cache-dir", str(cache), *paths])
    assert not stderr, stderr
    flagged: dict[str, set[int]] = {"accepted.py": set(), "refused.py": set()}
    for line in stdout.splitlines():
        found = re.match(r"^(.*?):(\d+): error: ", line)
        if found:
            flagged[Path(found[1]).name].add(int(found[2]))
    return flagged


def test_numpy_integers_type_check_wherever_an_integer_goes(errors: dict[str, set[int]]) -> None:
    assert errors["accepted.py"] == set()


def test_a_str_where_an_integer_goes_does_not_type_check(errors: dict[str, set[int]]) -> None:
    lines = (CHECKS / "refused.py").read_text(encoding="utf-8").splitlines()
    marked = {n for n, line in enumerate(lines, 1) if line.endswith("# E")}
    assert len(marked) == 14
    assert errors["refused.py"] == marked


def test_the_calls_that_type_check_run() -> None:
    spec = importlib.util.spec_from_file_location("typing_checks_accepted", CHECKS / "accepted.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert len(module.calls()) == 75
