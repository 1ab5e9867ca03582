"""map_line: pure mapping of translated lines back to the original CUDA lines."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuda2rocm.model import Edit
from cuda2rocm.toolchain import apply_edits, map_line

ORIGINAL = "#include <cuda_runtime.h>\nint a;\ncudaMalloc(&p, 4);\nint b;\n"


def _edit(text: str, old: str, new: str) -> Edit:
    start = text.index(old)
    return Edit(start, start + len(old), new)


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        pytest.param([], {1: 1, 2: 2, 3: 3, 4: 4}, id="no edits"),
        pytest.param([_edit(ORIGINAL, "cudaMalloc", "hipMalloc")], {1: 1, 2: 2, 3: 3, 4: 4}, id="same-line rename"),
        pytest.param([Edit(0, 0, "// a\n// b\n")], {1: 1, 2: 1, 3: 1, 4: 2, 5: 3, 6: 4}, id="two inserted lines"),
        pytest.param([_edit(ORIGINAL, "int a;\n", "")], {1: 1, 2: 3, 3: 4}, id="deleted line"),
        pytest.param(
            [_edit(ORIGINAL, "cuda_runtime.h", "hip/hip_runtime.h"), _edit(ORIGINAL, "int b;", "int b;\nint c;")],
            {1: 1, 2: 2, 3: 3, 4: 4, 5: 4},
            id="replacement grows a line",
        ),
    ],
)
def test_map_line(edits, expected):
    translated = apply_edits(ORIGINAL, edits)
    got = {line: map_line(edits, ORIGINAL, translated, line) for line in expected}
    assert got == expected


def test_non_ascii_text_uses_character_offsets():
    original = "// héllo wörld\ncudaFree(p);\n"
    edits = [_edit(original, "cudaFree", "hipFree"), Edit(0, 0, "#include <hip/hip_runtime.h>\n")]
    translated = apply_edits(original, edits)
    assert translated.splitlines()[2] == "hipFree(p);"
    assert map_line(edits, original, translated, 3) == 2


@given(st.lists(st.sampled_from(["a", "bb\n", "\n", "cudaX", "é"]), min_size=1, max_size=30), st.data())
def test_unchanged_lines_map_to_themselves(parts, data):
    """Invariant: a line that no edit touched maps to the line with identical text in the original."""
    original = "".join(parts) + "\n"
    cut = data.draw(st.integers(0, len(original)))
    edits = [Edit(cut, cut, data.draw(st.sampled_from(["", "x", "\n", "y\nz\n"])))]
    translated = apply_edits(original, edits)
    insert_line = translated[:cut].count("\n") + 1
    inserted_lines = edits[0].replacement.count("\n")
    for line in range(1, translated.count("\n") + 1):
        if insert_line <= line <= insert_line + inserted_lines:
            continue  # touched by the edit
        mapped = map_line(edits, original, translated, line)
        assert original.splitlines()[mapped - 1] == translated.splitlines()[line - 1]
