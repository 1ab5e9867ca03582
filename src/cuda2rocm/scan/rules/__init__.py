"""Rules of the scan engine (C2R-S inventory/custom code/plugins/binaries, C2R-P Python, C2R-D deployment,
C2R-E input problems). Importing this package registers them. Each rule is a module-level object named by its id
without the ``C2R-`` prefix (``rules.D101``): analyzers reference these objects, so a misspelt rule is an import
or attribute error, never a finding of an unknown rule."""

from __future__ import annotations

from cuda2rocm.files.inputs import E101, E102, E103, E104, E105, E106
from cuda2rocm.model import Finding
from cuda2rocm.rules import RULES, Rule
from cuda2rocm.scan.rules._binaries import S201, S202, S203, S204, S301, S302, S303, S304
from cuda2rocm.scan.rules._deploy import D101, D102, D103, D104, D105, D106, D107, D108, D109, D110
from cuda2rocm.scan.rules._inventory import (
    S101,
    S102,
    S103,
    S104,
    S105,
    S106,
    S107,
    S108,
    S109,
    S110,
    S111,
    S112,
    S113,
    S114,
    S115,
)
from cuda2rocm.scan.rules._python import (
    P101,
    P102,
    P103,
    P104,
    P105,
    P106,
    P107,
    P108,
    P109,
    P110,
    P111,
    P112,
    P113,
    P114,
)

__all__ = [
    "D101",
    "D102",
    "D103",
    "D104",
    "D105",
    "D106",
    "D107",
    "D108",
    "D109",
    "D110",
    "E101",
    "E102",
    "E103",
    "E104",
    "E105",
    "E106",
    "P101",
    "P102",
    "P103",
    "P104",
    "P105",
    "P106",
    "P107",
    "P108",
    "P109",
    "P110",
    "P111",
    "P112",
    "P113",
    "P114",
    "S101",
    "S102",
    "S103",
    "S104",
    "S105",
    "S106",
    "S107",
    "S108",
    "S109",
    "S110",
    "S111",
    "S112",
    "S113",
    "S114",
    "S115",
    "S201",
    "S202",
    "S203",
    "S204",
    "S301",
    "S302",
    "S303",
    "S304",
    "emit",
]


def emit(rule: Rule | str, path: str, line: int, col: int, message: str, *, fix: str = "") -> Finding:
    """A finding of ``rule``: a rule object in code (a misspelt rule is then an import error); a registered id
    only where the rule travels as data (an ``InputProblem``'s ``extra["rule"]`` from the walker)."""
    return (rule if isinstance(rule, Rule) else RULES[rule]).finding(path, line, col, message, fix=fix)
