"""The extension takes no static TLS (glibc's small reserve for libraries loaded at run time):
several copies load into one process, as ``benches/compare_builds.py`` loads several builds,
and importing it cannot fail for want of that reserve after other libraries used it up."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import fast_wordpiece._native as native

LOAD_COPIES = """
import importlib.util, sys
for k, path in enumerate(sys.argv[1:]):
    spec = importlib.util.spec_from_file_location(f"fwp_copy{k}._native", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tok = module.PyTokenizer(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello"])
    print(tok.encode("hello").ids)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="optional: glibc's static TLS is Linux's")
def test_four_copies_of_the_extension_load_and_encode_in_one_process(tmp_path: Path) -> None:
    copies = []
    for k in range(4):
        copy = tmp_path / f"copy{k}" / Path(native.__file__).name
        copy.parent.mkdir()
        shutil.copy(native.__file__, copy)
        copies.append(str(copy))
    result = subprocess.run([sys.executable, "-c", LOAD_COPIES, *copies], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:4] == ["[2, 5, 3]"] * 4
