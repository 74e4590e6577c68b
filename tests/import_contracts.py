"""A contract import-linter has no type for: which modules may import one name from a module.
Its graph knows modules, not the names taken from them, so this one reads each module's
imports itself. pyproject.toml states with it who may import ``django.db.connection``: the
modules where a database's own ways are spoken to (docs/development.md, "Layers")."""

from __future__ import annotations

import ast
import importlib.util
from typing import Any

from importlinter import Contract, ContractCheck, fields, output


class NameImportContract(Contract):
    """Among the root packages' modules, only ``allowed`` (and the modules below them) import
    ``imported_name`` from ``from_module``."""

    from_module = fields.StringField()
    imported_name = fields.StringField()
    allowed = fields.ListField(subfield=fields.StringField())

    def check(self, graph: Any, verbose: bool) -> ContractCheck:
        found = []
        for module in sorted(graph.modules):
            if module.split(".")[0] not in self._roots() or self._allowed(module):
                continue
            spec = importlib.util.find_spec(module)
            if spec is None or not (spec.origin or "").endswith(".py"):
                continue
            with open(str(spec.origin), encoding="utf-8") as source:
                tree = ast.parse(source.read())
            found += [(module, line) for line in self._imports(tree)]
        return ContractCheck(kept=not found, metadata={"found": found})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for module, line in check.metadata["found"]:
            output.print_error(
                f"{module}:{line} imports {self.imported_name} from {self.from_module}"
            )

    def _roots(self) -> list[str]:
        return list(self.session_options["root_packages"])

    def _allowed(self, module: str) -> bool:
        return any(module == a or module.startswith(f"{a}.") for a in self.allowed)

    def _imports(self, tree: ast.AST) -> list[int]:
        whole = f"{self.from_module}.{self.imported_name}"
        lines = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == self.from_module:
                lines += [node.lineno for alias in node.names if alias.name == self.imported_name]
            elif isinstance(node, ast.Import):
                lines += [node.lineno for alias in node.names if alias.name == whole]
        return lines
