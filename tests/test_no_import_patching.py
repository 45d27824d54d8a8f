"""The compiled core is chosen, never patched in: after every module of the engine, the games and the bots is
imported (the compiled kernels with them, where built), each class of the package holds, under each name, what its
own class body defined there.

A method or property put on a class from outside (a kernel's ``install(match_class)`` of old, a ``CardSet.__getitem__
= ...`` after the class) is seen two ways: by the source, whose class body does not name it, and by the object
itself, whose qualified name is not ``Class.name``. Where a class body chooses between the Python statement and the
compiled one (``__getitem__ = python_nth_card if ... else nth_card``), the source names both: that is its
definition. Names a decorator adds (a dataclass's ``__init__``, ``__eq__``, ...) are made for the class under its
own name. A class a kernel makes whole (a game's compiled match class, a subclass of the engine's) says so
(``__made_by__``), and its methods are that kernel's.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import clubsuite

PACKAGE = Path(clubsuite.__file__).resolve().parent
INNER = ("cards", "seeding", "engine", "match_base", "view_base", "native", "bots", "runner", "records", "games")
"""The packages and modules imported: the engine, the games (their rules, bots and kernels) and the bots."""
FACES = ("screen", "present", "why", "lesson", "report", "themes", "rl", "benchmark", "schema")
"""A game's outer parts, left out: what is checked is the engine the kernels stand in for."""


def _modules() -> Iterator[Any]:
    for name in INNER:
        module = importlib.import_module(f"clubsuite.{name}")
        yield module
        if hasattr(module, "__path__"):
            for info in pkgutil.walk_packages(module.__path__, module.__name__ + "."):
                if info.name.rsplit(".", 1)[-1] in FACES or info.name.rsplit(".", 1)[-1].startswith("_core"):
                    continue
                yield importlib.import_module(info.name)


def _class_body_bindings(cls: type) -> dict[str, set[str]] | None:
    """What the class body of ``cls`` binds to each name: for a ``def``, nothing more (the method is then known by
    its qualified name); for an assignment (in any branch), the names and attributes its value mentions, one of
    which the bound object must be. None where its source cannot be read."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return None
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.ClassDef)
    bindings: dict[str, set[str]] = {}

    def mentioned(value: ast.expr | None) -> set[str]:
        if value is None:
            return set()
        return {n.id for n in ast.walk(value) if isinstance(n, ast.Name)} | {
            n.attr for n in ast.walk(value) if isinstance(n, ast.Attribute)
        }

    for child in ast.walk(node):
        if isinstance(child, ast.Assign):
            for target in child.targets:
                if isinstance(target, ast.Name):
                    bindings.setdefault(target.id, set()).update(mentioned(child.value))
        elif isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name):
            bindings.setdefault(child.target.id, set()).update(mentioned(child.value))
    return bindings


def _callable_of(value: object) -> Any:
    """The function behind a class attribute (a property's getter, a static or class method's function)."""
    if isinstance(value, property):
        return value.fget
    if isinstance(value, staticmethod | classmethod):
        return value.__func__
    return value


def foreign_attributes(cls: type) -> list[str]:
    """The functions, methods and properties of ``cls`` (of this package or its kernels) that its own class body did
    not define: neither ``def``-ined there (qualified name ``Class.name``) nor bound there by an assignment that
    names them. What Python's own machinery adds (a protocol's hooks, an enum's) is not the package's and is left."""
    bindings = _class_body_bindings(cls)
    wrong = []
    for name, value in vars(cls).items():
        function = _callable_of(value)
        if not callable(function) or isinstance(function, type):
            continue
        if not str(getattr(function, "__module__", "")).startswith(("clubsuite", "test_")):
            continue
        qualname = getattr(function, "__qualname__", "")
        if qualname == f"{cls.__qualname__}.{name}":
            continue
        if bindings is not None and getattr(function, "__name__", None) in bindings.get(name, ()):
            continue
        if function.__module__ == vars(cls).get("__made_by__"):  # a class a kernel makes whole: its own methods
            continue
        wrong.append(f"{cls.__module__}.{cls.__qualname__}.{name} is {qualname or value!r}")
    return wrong


def _classes() -> list[type]:
    found: dict[int, type] = {}
    for module in _modules():
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__:
                found[id(value)] = value
    return sorted(found.values(), key=lambda c: (c.__module__, c.__qualname__))


def test_no_class_of_the_engine_games_or_bots_holds_an_attribute_its_body_did_not_define() -> None:
    classes = _classes()
    assert len(classes) > 100
    wrong = [line for cls in classes for line in foreign_attributes(cls)]
    assert wrong == []


def test_the_check_sees_a_method_put_on_a_class_from_outside() -> None:
    class Engine:
        def apply(self) -> str:
            return "python"

    def compiled_apply(self: Engine) -> str:
        return "compiled"

    assert foreign_attributes(Engine) == []
    Engine.apply = compiled_apply  # type: ignore[method-assign]
    Engine.to_act = property(lambda self: 0)  # type: ignore[attr-defined]
    assert len(foreign_attributes(Engine)) == 2


@pytest.mark.parametrize("game", ["WhistMatch", "PartnershipMatch", "NorthstarMatch"])
def test_the_engines_match_class_keeps_its_own_methods_where_the_kernel_is_built(game: str) -> None:
    module = importlib.import_module(f"clubsuite.games.{game.removesuffix('Match').lower()}.match")
    python = getattr(module, game)
    for name in ("apply", "legal_actions", "view"):
        assert isinstance(getattr(python, name), types.FunctionType), name  # Python's own, not the kernel's
    assert isinstance(python.to_act, property) and isinstance(python.to_act.fget, types.FunctionType)
    compiled = getattr(module, f"Compiled{python.__name__}")
    if compiled is not None:  # the compiled class is a subclass: a match of it is still the engine's kind
        assert issubclass(compiled, python) and compiled.__module__ == module.__name__
