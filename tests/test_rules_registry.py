"""The rule registry loads every rule family it lists, and a missing family is an error, never a silent skip; rules
are made through one front door, ``rules.new_rule``."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from cuda2rocm import rules


def test_every_listed_family_exists_and_registers_rules() -> None:
    for name in rules._RULE_MODULES:
        assert importlib.util.find_spec(name) is not None, name
    registry = rules.load_all()
    families = {r.family for r in registry.values()}
    # one family at least from each listed module: hazards, translate, scan, regress
    assert {"device", "api", "scan-inventory", "regress"} <= families


def test_missing_rule_module_fails_loudly() -> None:
    with pytest.raises(ModuleNotFoundError) as info:
        rules.load_all(("cuda2rocm.hazards.rules", "cuda2rocm.no_such_family.rules"))
    assert info.value.name in ("cuda2rocm.no_such_family", "cuda2rocm.no_such_family.rules")


_SRC = Path(rules.__file__).parent
#: the names in ``cuda2rocm.rules`` that build or register a rule other than through ``new_rule`` / ``@rule``
_BACK_DOORS = {"Rule", "define", "_register"}


def _back_door_calls(path: Path, root: Path = _SRC) -> list[str]:
    """Calls in one module that construct a ``Rule`` or register one behind ``new_rule``'s back: ``Rule(`` and
    ``define(`` by any bare name, a back door imported from ``cuda2rocm.rules`` under its alias too, or one called
    as an attribute of the ``cuda2rocm.rules`` module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = {"Rule", "define"}
    modules = {"rules"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "cuda2rocm.rules":
            names |= {a.asname or a.name for a in node.names if a.name in _BACK_DOORS}
        elif isinstance(node, ast.ImportFrom) and node.module == "cuda2rocm":
            modules |= {a.asname or a.name for a in node.names if a.name == "rules"}
        elif isinstance(node, ast.Import):
            modules |= {a.asname for a in node.names if a.name == "cuda2rocm.rules" and a.asname}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in names:
            found.append(f"{path.relative_to(root)}:{node.lineno}: {func.id}(")
        elif isinstance(func, ast.Attribute) and func.attr in _BACK_DOORS and ast.unparse(func.value) in (
                modules | {"cuda2rocm.rules"}):
            found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(func)}(")
    return found


def test_rules_are_registered_only_through_new_rule() -> None:
    """One front door: outside ``rules.py`` no module constructs a ``Rule`` or calls ``define``/``_register``; a
    rule is made with ``rules.new_rule`` (a family's defaults: a ``functools.partial`` of it) or ``@rule``."""
    offenders = [hit for path in sorted(_SRC.rglob("*.py")) if path != Path(rules.__file__)
                 for hit in _back_door_calls(path)]
    assert offenders == []


def test_back_door_check_sees_each_spelling(tmp_path: Path) -> None:
    module = tmp_path / "family.py"
    module.write_text(
        "from cuda2rocm import rules\n"
        "from cuda2rocm.rules import Rule as R, new_rule\n"
        "import cuda2rocm.rules as reg\n"
        "A = rules.define(R('C2R-X1', 't', 'f', 1, 1, 1, '', '', '', ''))\n"
        "B = reg.Rule('C2R-X2', 't', 'f', 1, 1, 1, '', '', '', '')\n"
        "C = new_rule('C2R-X3', 't', family='f')\n",
        encoding="utf-8",
    )
    hits = _back_door_calls(module, tmp_path)
    assert sorted(h.split(": ", 1)[1] for h in hits) == ["R(", "reg.Rule(", "rules.define("]
