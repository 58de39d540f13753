#!/usr/bin/env python3
"""Lists the public members of the package that have no docstring of their own.

Walks ``fast_wordpiece`` and ``fast_wordpiece.reference`` (the names in their
``__all__``) and, recursively, the members of every public class: methods,
static and class methods, properties, nested classes. A member is reported
when its ``__doc__`` is missing, empty, or one Python gives every object of
its kind ("Call self as a function.", "Initialize self.  See help(type(self))
for accurate signature.", a dataclass's generated signature, a named tuple's
"Alias for field number 0"). Private names (one leading underscore) are not
looked at; of the dunder methods only ``__call__``, ``__len__`` and
``__getitem__`` must say what they do, the others may keep Python's text.

The engine's ``__call__``, ``__len__`` and ``__getitem__`` cannot have a
docstring: PyO3 makes them type slots, and Python shows a slot's fixed text
("Call self as a function.") whatever the source says. For them the class
docstring must show the call instead: ``tokenizer(text``, ``len(x)``,
``x[key]``; the member is reported otherwise.

Prints one ``module.Class.member`` a line and exits 1 if there is any. Run it
from anywhere, with the package installed: ``python scripts/check_docstrings.py``.
tests/test_docstrings.py runs it too.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
import types
from collections.abc import Iterator
from typing import Any

MODULES = ("fast_wordpiece", "fast_wordpiece.reference")

#: The dunder methods whose behaviour is ours to describe, and how a class
#: docstring shows them when the method itself cannot (an engine slot).
DESCRIBED_DUNDERS = {
    "__call__": re.compile(r"\w\(text\b"),
    "__len__": re.compile(r"\blen\(\w+\)"),
    "__getitem__": re.compile(r"\w\[[^\]\s]+\]"),
}

#: Builtin types whose members' texts count as Python's, not ours.
_BUILTINS: tuple[type, ...] = (object, type, int, float, str, bytes, tuple, list, dict, set, frozenset)


def _generic_texts() -> frozenset[str]:
    texts = set()
    for kind in _BUILTINS:
        for name in dir(kind):
            doc = getattr(getattr(kind, name, None), "__doc__", None)
            if isinstance(doc, str):
                texts.add(doc.strip())
        if kind.__doc__:
            texts.add(kind.__doc__.strip())
    return frozenset(texts)


GENERIC = _generic_texts()


def _own_doc(owner: type, name: str) -> str | None:
    """The docstring of ``owner.name`` as the class defines it (not one a
    descriptor or a builtin base hands down)."""
    for klass in owner.__mro__:
        if klass in _BUILTINS:
            return None
        if name in vars(klass):
            raw = vars(klass)[name]
            if isinstance(raw, (staticmethod, classmethod)):
                raw = raw.__func__
            doc = getattr(raw, "__doc__", None)
            return doc if isinstance(doc, str) else None
    return None


def is_generic(doc: str | None, obj: Any = None) -> bool:
    """Whether ``doc`` says nothing of its own: missing, blank, or a text
    Python gives every object of its kind (``obj``: the class it belongs to,
    when it is a class docstring)."""
    if doc is None or not doc.strip():
        return True
    text = doc.strip()
    if text in GENERIC or text.startswith("Alias for field number"):
        return True
    # dataclasses and named tuples write "Name(field, ...)" when given none.
    return inspect.isclass(obj) and text.startswith(f"{obj.__name__}(")


def _documentable(member: Any) -> bool:
    """Methods (of any kind), properties and the engine's getters."""
    if isinstance(member, (staticmethod, classmethod)):
        member = member.__func__
    return inspect.isroutine(member) or inspect.isdatadescriptor(member)


def _walk_class(klass: type, path: str, seen: set[int]) -> Iterator[tuple[str, bool]]:
    """``(path, documented)`` for ``klass`` and its public members."""
    if id(klass) in seen:
        return
    seen.add(id(klass))
    yield path, not is_generic(klass.__doc__ if "__doc__" in vars(klass) else None, klass)
    for name in sorted(dir(klass)):
        dunder = name.startswith("__") and name.endswith("__")
        if (dunder and name not in DESCRIBED_DUNDERS) or (name.startswith("_") and not dunder):
            continue
        defined_by = next((k for k in klass.__mro__ if name in vars(k)), None)
        if defined_by is None or defined_by in _BUILTINS:
            continue  # e.g. list.__len__ of a list subclass: Python's own
        member = vars(defined_by)[name]
        at = f"{path}.{name}"
        if isinstance(member, types.WrapperDescriptorType):
            # An engine slot: the class docstring must show it.
            yield at, bool(DESCRIBED_DUNDERS[name].search(klass.__doc__ or ""))
        elif inspect.isclass(member):
            yield from _walk_class(member, at, seen)
        elif inspect.ismemberdescriptor(member):
            # A slot: its text is the value of a ``__slots__`` dict, as help() shows it.
            slots = vars(defined_by).get("__slots__")
            yield at, isinstance(slots, dict) and not is_generic(slots.get(name))
        elif _documentable(member):
            yield at, not is_generic(_own_doc(klass, name))
        # else a plain value (a dataclass field's default): the class says what it is


def _walk() -> Iterator[tuple[str, bool]]:
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            path = f"{module_name}.{name}"
            if inspect.isclass(obj):
                yield from _walk_class(obj, path, seen=set())
            elif callable(obj):
                yield path, not is_generic(obj.__doc__)


def members() -> list[str]:
    """``module.Name[.member]`` for every public member looked at."""
    return [path for path, _ in _walk()]


def gaps() -> list[str]:
    """``module.Name[.member]`` for every public member without a docstring of its own."""
    return [path for path, documented in _walk() if not documented]


def main() -> int:
    found = gaps()
    for path in found:
        print(path)
    print(f"{len(found)} public members without a docstring of their own", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
