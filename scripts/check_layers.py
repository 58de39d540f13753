#!/usr/bin/env python3
"""Checks that the Rust modules depend on each other one way only.

Every ``.rs`` file under ``src/`` is a module (``src/a/b.rs`` and
``src/a/b/mod.rs`` are ``crate::a::b``). A module depends on another when it
names it in a path: ``use crate::x::y::Z``, ``use super::y``, an inline
``crate::x::y::f()``, or a path that starts with a child module the file
declares (``mod batch;`` then ``batch::BatchInput`` or ``use batch::Batch``);
the ``mod`` declarations themselves are not dependencies. A file's
``mod tests { ... }`` is a module of its own (``crate::a::b::tests``), which
the file does not use: its tests may use the file's parent. Two checks,
the same as the picture in docs/architecture.md:

1. no cycle between modules (of any length, files inside one top-level module
   included);
2. between top-level modules, every dependency points down ``LAYERS``.

Prints the dependencies between top-level modules and exits 1 on a violation.
Run it from anywhere: ``python scripts/check_layers.py``.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

#: Top-level modules, lowest first; a module may use only those below it.
#: ``lib.rs`` (the crate root, re-exports only) is above them all.
LAYERS: list[set[str]] = [
    {"error"},
    {"hint", "io", "memory", "threads"},
    {"encoding"},
    {"pipeline"},
    {"tokenizer"},
    {"training"},
    {"bpe", "chars", "unigram"},
    {"python"},
]

COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
USE = re.compile(r"\buse\s+([^;]+);")
PATH = re.compile(r"\b(?:crate|super|self)(?:::\w+)+")
#: A path that starts with a bare name (not after ``::``): a child module's when the file declares it.
BARE_PATH = re.compile(r"(?<![\w:])(\w+)(?:::\w+)+")
#: ``mod x;`` (a child module in a file of its own; ``mod tests { ... }`` is not one).
MOD = re.compile(r"^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+(\w+)[ \t]*;", re.M)
TESTS = re.compile(r"^mod tests \{", re.M)


def module_of(path: Path) -> tuple[str, ...]:
    parts = path.relative_to(SRC).with_suffix("").parts
    if parts[-1] in ("lib", "mod"):
        parts = parts[:-1]
    return ("crate", *parts)


def expand(tree: str) -> list[str]:
    """``a::{b, c::{d, e}}`` -> ``["a::b", "a::c::d", "a::c::e"]``."""
    tree = "".join(tree.split())
    brace = tree.find("{")
    if brace < 0:
        return [tree]
    prefix, body = tree[:brace], tree[brace + 1 : tree.rindex("}")]
    items, depth, start = [], 0, 0
    for i, c in enumerate(body):
        depth += c == "{"
        depth -= c == "}"
        if c == "," and depth == 0:
            items.append(body[start:i])
            start = i + 1
    items.append(body[start:])
    return [path for item in items if item for path in expand(prefix + item)]


def resolve(
    path: str, here: tuple[str, ...], modules: set[tuple[str, ...]], children: frozenset[str] = frozenset()
) -> tuple[str, ...] | None:
    """The module a path names (its longest prefix that is a module); ``children``:
    the modules ``here`` declares, which a path may start with."""
    parts = path.split("::")
    if parts[0] in children:
        absolute = [*here, *parts]
    elif parts[0] == "crate":
        absolute = parts
    elif parts[0] in ("self", "super"):
        base = list(here)
        while parts and parts[0] in ("self", "super"):
            if parts.pop(0) == "super":
                base.pop()
        absolute = base + parts
    else:
        return None
    for n in range(len(absolute), 0, -1):
        if tuple(absolute[:n]) in modules:
            return tuple(absolute[:n])
    return None


def dependencies() -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    files = {module_of(p): p for p in sorted(SRC.rglob("*.rs"))}
    modules = set(files)
    deps: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in modules}
    for module, path in files.items():
        text = STRING.sub('""', COMMENT.sub("", path.read_text()))
        tests = TESTS.search(text)
        children = frozenset(MOD.findall(text))
        # The file's own `mod tests` is a module of its own, below the file's
        # (which does not use it): there `super` is the file's module, and a
        # bare name is no child module of the file's.
        parts = (
            [(text, module, children)]
            if tests is None
            else [(text[: tests.start()], module, children), (text[tests.end() :], (*module, "tests"), frozenset())]
        )
        for part, here, declared in parts:
            paths = [p for tree in USE.findall(part) for p in expand(tree.removeprefix("pub "))]
            inline = USE.sub("", part)
            paths += PATH.findall(inline)
            paths += [m.group(0) for m in BARE_PATH.finditer(inline) if m.group(1) in declared]
            for p in paths:
                target = resolve(p, here, modules, declared)
                if target is not None and target != here:
                    deps.setdefault(here, set()).add(target)
    return deps


def cycles(deps: dict[tuple[str, ...], set[tuple[str, ...]]]) -> list[list[tuple[str, ...]]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[tuple[str, ...], int] = {}
    low: dict[tuple[str, ...], int] = {}
    stack: list[tuple[str, ...]] = []
    found: list[list[tuple[str, ...]]] = []

    def visit(v: tuple[str, ...]) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(deps[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(deps):
        if v not in index:
            visit(v)
    return found


def main() -> int:
    deps = dependencies()
    rank = {name: i for i, layer in enumerate(LAYERS) for name in layer}
    name = "::".join
    problems = [f"cycle: {' <-> '.join(name(m) for m in c)}" for c in cycles(deps)]
    top: dict[str, set[str]] = defaultdict(set)
    for source, targets in deps.items():
        for target in targets:
            if len(source) < 2 or len(target) < 2 or source[1] == target[1]:
                continue
            a, b = source[1], target[1]
            top[a].add(b)
            if a not in rank or b not in rank:
                problems.append(f"{name(source)} -> {name(target)}: a top-level module missing from LAYERS")
            elif rank[b] >= rank[a]:
                problems.append(f"{name(source)} -> {name(target)}: points up or sideways ({a} is not above {b})")
    for layer in reversed(LAYERS):
        for a in sorted(layer):
            print(f"{a:<10} -> {', '.join(sorted(top[a], key=lambda b: -rank.get(b, 0))) or '(nothing)'}")
    print(f"{len(deps)} modules, {sum(map(len, deps.values()))} dependencies: ", end="")
    if problems:
        print(f"{len(problems)} problems")
        for p in problems:
            print(f"  {p}")
        return 1
    print("no cycle, every dependency points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
