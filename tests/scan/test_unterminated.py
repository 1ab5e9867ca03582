"""Issue 18 item 12: an unterminated comment or literal in a C/C++/CUDA file is reported by scan with its line
(convert reports it as a failed file); the rest of the file is scanned as the compiler would read it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.scan.api import scan


@pytest.mark.parametrize(("text", "what", "line"), [
    ("int f() { return 1; }\n/* never closed\n__global__ void k() {}\n", "unterminated block comment", 2),
    ('#include <cuda_runtime.h>\nconst char* s = "open;\nint g;\n', "unterminated string", 2),
])
def test_unterminated_is_reported_with_its_line(tmp_path: Path, text: str, what: str, line: int) -> None:
    (tmp_path / "a.cu").write_text(text, encoding="utf-8")
    result = scan(tmp_path)
    found = [f for f in result.findings if f.rule == "C2R-E105" and f.path == "a.cu"]
    assert found and found[0].line == line and what in found[0].message
