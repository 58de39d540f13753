"""The family's twins (``fast_wordpiece.reference``'s BPETokenizer, CharTokenizer and
UnigramTokenizer) are called as the engine is: every method and property of the engine class has a
twin with the same parameters (names, kinds, defaults) as the engine reports them, and the same
annotations as the engine's stubs (``_native.pyi``) give them.

The transformers-style members (``__call__``, ``batch_decode``, ``convert_ids_to_tokens``, ...)
are left out: both implementations run the same Python code for them
(``fast_wordpiece.batch_encoding``)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pytest

import fast_wordpiece
import fast_wordpiece.reference
from fast_wordpiece.reference.family import TransformersCalls

FAMILY = ["BPETokenizer", "CharTokenizer", "UnigramTokenizer"]
STUBS = Path(fast_wordpiece.__file__).parent / "_native.pyi"
#: The stubs' type aliases, written out as the twin writes them.
ALIASES = {
    "_Int": "SupportsIndex",
    "_StrPath": "str | bytes | os.PathLike[str] | os.PathLike[bytes]",
    "_Corpus": "Iterable[str | Iterable[str]]",
}
#: Where the twin still differs, and why; each entry is a test expected to fail until it is fixed.


def stub_functions(cls: str) -> dict[str, list[ast.FunctionDef]]:
    """The functions the stubs declare in class ``cls``, by name (an overloaded one several times)."""
    tree = ast.parse(STUBS.read_text(encoding="utf-8"))
    (node,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    out: dict[str, list[ast.FunctionDef]] = {}
    for item in node.body:
        if isinstance(item, ast.FunctionDef):
            setters = [d for d in item.decorator_list if isinstance(d, ast.Attribute)]  # @x.setter, @x.deleter
            if not setters:
                out.setdefault(item.name, []).append(item)
    return out


def shown(annotation: str | ast.expr | None) -> str | None:
    """An annotation in one spelling: parsed and written back, the stubs' aliases written out."""
    if annotation is None:
        return None
    tree = ast.parse(annotation, mode="eval").body if isinstance(annotation, str) else annotation
    return ast.unparse(WriteOutAliases().visit(tree))


class WriteOutAliases(ast.NodeTransformer):
    """Replaces each name of ``ALIASES`` by what it stands for."""

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return ast.parse(ALIASES[node.id], mode="eval").body if node.id in ALIASES else node


def union(annotations: list[str | None]) -> str | None:
    """The annotations of one parameter across a function's overloads, as one annotation."""
    distinct = list(dict.fromkeys(annotations))
    if len(distinct) == 1 or None in distinct:
        return distinct[0] if len(distinct) == 1 else shown(" | ".join(f"({a})" for a in distinct))
    # A union of unions is one union of their members, each once ("str | list[str]").
    members = [ast.unparse(m) for a in distinct for m in _members(ast.parse(str(a), mode="eval").body)]
    return shown(" | ".join(dict.fromkeys(members)))


def _members(node: ast.expr) -> list[ast.expr]:
    """The members of a union written with ``|``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _members(node.left) + _members(node.right)
    return [node]


def stub_parameters(overloads: list[ast.FunctionDef]) -> list[tuple[str, str, str | None, str | None]]:
    """(name, kind, default, annotation) of each parameter of the stubs' function (``*args`` and
    ``**kwargs`` too), ``self`` and ``cls`` left out; an overloaded function's annotations joined into a union."""
    shapes = []
    for f in overloads:
        a = f.args
        positional = a.posonlyargs + a.args
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        rows = [
            (p.arg, "POSITIONAL_ONLY" if p in a.posonlyargs else "POSITIONAL_OR_KEYWORD", d, p.annotation)
            for p, d in zip(positional, defaults)
        ]
        if a.vararg is not None:
            rows.append((a.vararg.arg, "VAR_POSITIONAL", None, a.vararg.annotation))
        rows += [(p.arg, "KEYWORD_ONLY", d, p.annotation) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
        if a.kwarg is not None:
            rows.append((a.kwarg.arg, "VAR_KEYWORD", None, a.kwarg.annotation))
        shapes.append([(n, k, None if d is None else ast.unparse(d), shown(t)) for n, k, d, t in rows])
    first = [row for row in shapes[0] if row[0] not in ("self", "cls")]
    kept = [[row for row in shape if row[0] not in ("self", "cls")] for shape in shapes]
    return [(n, k, d, union([shape[i][3] for shape in kept])) for i, (n, k, d, _) in enumerate(first)]


def twin_parameters(function: Any) -> list[tuple[str, str, str | None, str | None]]:
    """The same for the twin's function (its annotations are text: the module defers them)."""
    rows = []
    for p in inspect.signature(function).parameters.values():
        if p.name in ("self", "cls"):
            continue
        default = None if p.default is p.empty else repr(p.default)
        rows.append((p.name, p.kind.name, default, shown(None if p.annotation is p.empty else p.annotation)))
    return rows


def members(*, constructors: bool = True, properties: bool = True) -> list[Any]:
    """(class, name) of each member compared; without ``constructors`` (which return their
    class, while the twin's ``__init__`` returns None) or ``properties`` (which have no
    signature in the engine) when asked."""
    out = []
    for cls in FAMILY:
        engine = getattr(fast_wordpiece, cls)
        for name in stub_functions(cls):
            if (name.startswith("__") and name != "__new__") or name in vars(TransformersCalls):
                continue
            if name == "__new__" and not constructors:
                continue
            if (
                name != "__new__"
                and not properties
                and inspect.isgetsetdescriptor(inspect.getattr_static(engine, name))
            ):
                continue
            out.append(pytest.param(cls, name, id=f"{cls}.{name}"))
    return out


def twin_function(cls: str, name: str) -> Any:
    member = inspect.getattr_static(getattr(fast_wordpiece.reference, cls), "__init__" if name == "__new__" else name)
    return member.fget if isinstance(member, property) else getattr(member, "__func__", member)


@pytest.mark.parametrize(("cls", "name"), members())
def test_the_twin_takes_the_parameters_the_stubs_declare(cls: str, name: str) -> None:
    assert twin_parameters(twin_function(cls, name)) == stub_parameters(stub_functions(cls)[name])


@pytest.mark.parametrize(("cls", "name"), members(constructors=False))
def test_the_twin_returns_what_the_stubs_declare(cls: str, name: str) -> None:
    returns = union([shown(f.returns) for f in stub_functions(cls)[name]])
    assert shown(inspect.signature(twin_function(cls, name)).return_annotation) == returns


@pytest.mark.parametrize(("cls", "name"), members(properties=False))
def test_the_twin_has_the_signature_the_engine_reports(cls: str, name: str) -> None:
    engine = getattr(fast_wordpiece, cls)
    engine_signature = inspect.signature(engine if name == "__new__" else getattr(engine, name))
    engine_rows = [(p.name, p.kind.name, p.default) for p in engine_signature.parameters.values() if p.name != "self"]
    twin_rows = [
        (p.name, p.kind.name, p.default)
        for p in inspect.signature(twin_function(cls, name)).parameters.values()
        if p.name != "self"
    ]
    assert twin_rows == engine_rows


def test_every_public_member_of_the_engines_family_classes_is_in_the_stubs() -> None:
    # So that comparing the twin with the stubs compares it with all of the engine.
    for cls in FAMILY:
        public = {n for n in dir(getattr(fast_wordpiece, cls)) if not n.startswith("_")}
        assert public <= set(stub_functions(cls)), cls
