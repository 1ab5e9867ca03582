"""A file is "already HIP" by its code (include directives and identifiers), never by its comments or strings."""

from __future__ import annotations

import pytest

from cuda2rocm.model import Skipped, Unchanged
from cuda2rocm.translate.api import convert_source


@pytest.mark.parametrize("src", [
    '#include "hip/hip_runtime.h"\nvoid f(void** p) { hipMalloc(p, 1); }\n',
    "#include <hip/hip_runtime.h>\nint main() { return 0; }\n",
    "# include <hip/hip_fp16.h>\n",
    "void f(void** p) { hipMalloc\n  (p, 1); }\n",
    "#define LAUNCH hipLaunchKernelGGL\n",
])
def test_hip_code_is_skipped(src: str) -> None:
    r = convert_source(src)
    assert isinstance(r, Skipped) and "already HIP" in r.reason


@pytest.mark.parametrize("src", [
    "// ported from hipMalloc(p, n) and #include <hip/hip_runtime.h>\nint main() { return 0; }\n",
    "/* hipLaunchKernelGGL(k, ...) */\nint main() { return 0; }\n",
    'const char* doc = "#include <hip/hip_runtime.h> then hipFree(p)";\n',
    "int hipster(int x);\nint y = hipster(1) + myhipFoo(2);\n",  # not hip[A-Z]..., not a hip* API
    "int hipCount = 0;\n",  # a hip-named variable is not a call
])
def test_comments_strings_and_lookalikes_are_not_hip(src: str) -> None:
    r = convert_source(src)
    assert isinstance(r, Unchanged), r
