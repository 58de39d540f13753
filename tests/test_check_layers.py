"""scripts/check_layers.py: which paths make one Rust module depend on another, and the
cycles they close. Each test writes a small crate and reads what the checker makes of it."""

from __future__ import annotations

from pathlib import Path

import check_layers  # scripts/, put on sys.path by conftest.py
import pytest


def dependencies_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> dict[str, set[str]]:
    """The checker's dependencies of a crate made of ``files`` (path under src/ -> text), as
    ``"a::b"`` names without ``crate::``, modules that depend on nothing left out."""
    src = tmp_path / "src"
    for name, text in files.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    monkeypatch.setattr(check_layers, "SRC", src)
    deps = check_layers.dependencies()

    def name(module: tuple[str, ...]) -> str:
        return "::".join(module[1:])

    return {name(m): {name(t) for t in targets} for m, targets in deps.items() if targets}


def cycles_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> list[list[str]]:
    dependencies_of(tmp_path, monkeypatch, files)
    return [["::".join(m[1:]) for m in c] for c in check_layers.cycles(check_layers.dependencies())]


TOKENIZER = "pub mod batch;\npub struct Tokenizer;\n"
BATCH = "use crate::tokenizer::Tokenizer;\npub trait BatchInput {}\n"


def test_a_path_through_a_declared_child_module_is_a_dependency(tmp_path, monkeypatch):
    """``mod batch;`` then ``batch::BatchInput`` (inline or in a ``use``): the file uses
    its child, and the child that uses the file back closes a cycle."""
    inline = TOKENIZER + "fn f<I: batch::BatchInput>(_: I) {}\n"
    files = {"lib.rs": "pub mod tokenizer;\n", "tokenizer.rs": inline, "tokenizer/batch.rs": BATCH}
    assert dependencies_of(tmp_path, monkeypatch, files)["tokenizer"] == {"tokenizer::batch"}
    assert cycles_of(tmp_path, monkeypatch, files) == [["tokenizer", "tokenizer::batch"]]
    files["tokenizer.rs"] = TOKENIZER + "use batch::{BatchInput};\n"
    assert cycles_of(tmp_path, monkeypatch, files) == [["tokenizer", "tokenizer::batch"]]


def test_the_same_names_that_are_no_child_module_are_no_dependency(tmp_path, monkeypatch):
    """Only a name the file declares with ``mod`` counts: ``std::``, a type's ``Vec::new``,
    a path's inner ``::batch::``, and names in comments and strings are not paths to a child."""
    text = TOKENIZER + (
        "use std::mem::take;\n"
        "fn f() { let v: Vec<u8> = Vec::new(); let _ = other::batch::g(); }\n"
        '// batch::BatchInput\nconst S: &str = "batch::BatchInput";\n'
    )
    files = {"lib.rs": "pub mod tokenizer;\n", "tokenizer.rs": text, "tokenizer/batch.rs": BATCH}
    assert "tokenizer" not in dependencies_of(tmp_path, monkeypatch, files)
    assert cycles_of(tmp_path, monkeypatch, files) == []


def test_a_files_tests_may_use_the_files_parent(tmp_path, monkeypatch):
    """A file's ``mod tests { ... }`` is a module below the file: tests of a child that call
    their parent close no cycle; and in them a bare name is no child module of the file's."""
    tests = "#[cfg(test)]\nmod tests {\n    use crate::training::train;\n    fn t() { batch::x(); }\n}\n"
    files = {
        "lib.rs": "pub mod training;\n",
        "training/mod.rs": "pub mod trainer;\npub fn train() { trainer::run() }\n",
        "training/trainer.rs": "mod batch;\npub fn run() {}\n" + tests,
        "training/trainer/batch.rs": "",
    }
    deps = dependencies_of(tmp_path, monkeypatch, files)
    assert deps["training"] == {"training::trainer"}
    assert deps["training::trainer::tests"] == {"training"}
    assert "training::trainer" not in deps
    assert cycles_of(tmp_path, monkeypatch, files) == []


def test_this_crates_modules_have_no_cycle_and_point_down(capsys):
    assert check_layers.main() == 0, capsys.readouterr().out
    assert "no cycle, every dependency points down" in capsys.readouterr().out
