"""Every device rule is documented, its own example triggers it and its "use instead" does not."""

from __future__ import annotations

import pytest

from cuda2rocm.hazards import analyze
from cuda2rocm.hazards.engine import device_rules
from cuda2rocm.source.tokens import tokenize

RULES = device_rules()


def _ids(code: str, target: str = "MI300X") -> set[str]:
    return {f.rule for f in analyze(tokenize(code), code, "example.cu", target_gpu=target)}


def test_registry_has_every_family() -> None:
    families = {r.id[:6] for r in RULES}
    assert families >= {"C2R-K1", "C2R-K2"}
    assert len(RULES) >= 10


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_is_documented(rule) -> None:
    for text in (rule.title, rule.what, rule.why, rule.example, rule.instead):
        assert text.strip(), rule.id
    assert rule.references and all(r.startswith("https://") for r in rule.references)
    assert rule.family == "device"


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_example_triggers_and_instead_does_not(rule) -> None:
    assert rule.id in _ids(rule.example), f"{rule.id}: its example does not trigger it"
    assert rule.id not in _ids(rule.instead), f"{rule.id}: its 'use instead' still triggers it"
