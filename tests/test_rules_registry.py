"""The rule registry loads every rule family it lists, and a missing family is an error, never a silent skip."""

from __future__ import annotations

import importlib.util

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
