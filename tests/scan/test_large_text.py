"""Issue 31, item 11: a scan with very many findings. The text report lists the most severe 500 after a count of
every finding per rule, unless ``--all``; JSON keeps every finding. (The hazard analysis of a kernel with
thousands of lane variables was quadratic: docs/benchmarks.md, "Large inputs".)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cuda2rocm.cli.main import main

LANES = 620


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    body = "".join(f"  int l{i} = threadIdx.x & 31; o[l{i}] = {i};\n" for i in range(LANES))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.cu").write_text("__global__ void k(int* o) {\n" + body +
                                           "  o[0] = __shfl_xor_sync(0xffffffff, o[1], 1);\n}\n")
    return tmp_path / "src"


def _total(tree: Path, tmp_path: Path) -> int:
    data = tmp_path / "scan.json"
    assert main(["scan", str(tree), "-o", str(data), "-q", "--format", "json"]) == 0
    found = json.loads(data.read_text())["findings"]
    assert sum(f["rule"] == "C2R-K101" for f in found) == LANES  # JSON keeps every finding
    return len(found)


def test_text_lists_the_most_severe_and_counts_the_rest(tree: Path, tmp_path: Path) -> None:
    total = _total(tree, tmp_path)
    out = tmp_path / "scan.txt"
    assert main(["scan", str(tree), "-o", str(out), "-q"]) == 0
    text = out.read_text()
    assert f"Findings: 500 listed of {total} (500 high)" in text
    assert "Findings per rule" in text and f"│ C2R-K101 │ high     │ {LANES}" in text
    assert f"{total - 500} more findings not listed" in text and "--all" in text
    assert text.count("C2R-K101 │ lane index") == 500


def test_all_lists_every_finding(tree: Path, tmp_path: Path) -> None:
    total = _total(tree, tmp_path)
    out = tmp_path / "all.txt"
    assert main(["scan", str(tree), "-o", str(out), "-q", "--all"]) == 0
    text = out.read_text()
    assert f"Findings: {total} (" in text and "not listed" not in text
    assert text.count("C2R-K101 │ lane index") == LANES
