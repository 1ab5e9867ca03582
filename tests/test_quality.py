"""The code base stays ruff-clean and mypy-clean (the settings live in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff not installed (pip install -e '.[test]')")
def test_ruff_clean() -> None:
    result = _run("ruff", "check", "src", "tests", "benchmarks", "tools")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_clean() -> None:
    pytest.importorskip("mypy")
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
