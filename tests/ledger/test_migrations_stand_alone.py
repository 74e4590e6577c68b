"""Migrations stand alone (issue 46, item 6): no migration, and no frozen code they share
(ledger/migrations/_frozen), imports ``scoring`` or any module of ``ledger`` but
``ledger.migrations``, so a change to the engine or to a model's helper never changes what an
old migration does. Every file is read as it is, so a new migration is held to it too; and
what a model's field names by path (its class, a default, a choice), which ``makemigrations``
writes into the next migration as an import, is Django's, Python's or the migrations' own."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps

MIGRATIONS = Path(__file__).resolve().parents[2] / "ledger" / "migrations"
OWN = "ledger.migrations"


def _module(path: Path) -> str:
    parts = path.relative_to(MIGRATIONS.parents[1]).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """Each module ``path`` imports, anywhere in it, with its line: relative imports resolved,
    and a call of ``__import__`` or ``import_module`` reported as such."""
    package = _module(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            yield node.lineno, ".".join([*base, *([node.module] if node.module else [])])
        elif isinstance(node, ast.Call):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else node.func
            if getattr(called, "id", called) in ("__import__", "import_module"):
                yield node.lineno, "a module named at run time"


def refused(module: str) -> bool:
    top = module.split(".")[0]
    own = module == OWN or module.startswith(OWN + ".")
    return top == "scoring" or (top == "ledger" and not own) or module.startswith("a module")


FILES = sorted(MIGRATIONS.rglob("*.py"))


def test_the_migrations_and_their_frozen_code_are_all_read():
    names = {path.relative_to(MIGRATIONS).as_posix() for path in FILES}
    assert {"0001_initial.py", "0030_append_only_data.py", "_frozen/__init__.py"} <= names
    assert "_frozen/scoring_rev5/games/ce_deng.py" in names


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.relative_to(MIGRATIONS).as_posix())
def test_a_migration_imports_neither_the_engine_nor_the_ledger_but_its_own(path):
    found = [f"line {line}: {module}" for line, module in imports(path) if refused(module)]

    assert found == [], f"{path.name} imports live code; copy it into ledger/migrations/_frozen"


def _named(value: Any) -> Iterator[Any]:
    """The functions and classes in a field's deconstructed arguments, which a migration
    imports by their path."""
    if inspect.isfunction(value) or inspect.isclass(value) or inspect.isbuiltin(value):
        yield value
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _named(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _named(item)
    elif hasattr(value, "deconstruct") and not isinstance(value, type):
        yield type(value)
        _, args, kwargs = value.deconstruct()
        yield from _named([*args, *kwargs.values()])


FIELDS = [
    pytest.param(field, id=f"{model.__name__}.{field.name}")
    for model in apps.get_app_config("ledger").get_models()
    for field in [*model._meta.local_fields, *model._meta.local_many_to_many]
]


@pytest.mark.parametrize("field", FIELDS)
def test_what_a_model_field_names_by_path_a_migration_may_import(field):
    _, path, args, kwargs = field.deconstruct()
    modules = [path.rpartition(".")[0]] + [thing.__module__ for thing in _named([args, kwargs])]

    assert [module for module in modules if refused(module)] == []
