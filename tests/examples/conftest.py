from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "llm-service"


def load_expectations() -> dict[str, Any]:
    data = YAML(typ="safe").load((EXAMPLE / "expectations.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="session")
def expectations() -> dict[str, Any]:
    return load_expectations()
