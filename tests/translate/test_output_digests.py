"""Speed-ups keep convert's output byte-identical: digests of every corpus translation, recorded before them.

Each fixture, corpus program, golden input and example source is translated under four option sets, plus
generated files that repeat a unit many times (many includes, many functions: the shapes where a step that
is quadratic in the file size shows). The sha256 of the output text, the edits and the findings must equal
``data/output_digests.json``. After a deliberate change of the translation, regenerate with
``C2R_UPDATE_DIGESTS=1 pytest tests/translate/test_output_digests.py`` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from tests.test_fast_paths import CORPUS, ROOT

from cuda2rocm.translate.engine import translate_text
from cuda2rocm.translate.options import Options

DIGESTS = Path(__file__).parent / "data" / "output_digests.json"
OPTION_SETS = {
    "default": Options(),
    "rocm52": Options(target_rocm="5.2"),
    "fix": Options(fix_hazards=True),
    "ggl-roc": Options(launch_syntax="ggl", roc=True, target_rocm="6.0"),
}
UNIT = """#include <cuda_runtime.h>
#include "common_{i}.cuh"
/* cudaMalloc in a comment */
__global__ void saxpy_{i}(int n, float a, const float* x, float* y) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}}
__device__ float warp_sum_{i}(float v) {{
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}}
__device__ float use_{i}(float v) {{ return warp_sum_{i}(v) + (threadIdx.x & 31); }}
int run_{i}(int n) {{
    float* x; cudaMalloc(&x, n * sizeof(float));
    cudaStream_t s; cudaStreamCreate(&s);
    saxpy_{i}<<<(n + 255) / 256, 256, 0, s>>>(n, 2.0f, x, x);
    cudaStreamSynchronize(s); cudaFree(x); return 0;
}}
"""
GENERATED = {"repeated-units-400.cu": "".join(UNIT.format(i=i) for i in range(400))}


def _digest(text: str, options: Options) -> str:
    outcome = translate_text(text, "f.cu", options)
    r = outcome.result
    payload = repr((type(r).__name__, getattr(r, "text", None), getattr(r, "edits", ()),
                    getattr(r, "findings", ()), getattr(r, "message", "")))
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _inputs() -> dict[str, str]:
    out = {p.relative_to(ROOT).as_posix(): p.read_bytes().decode("utf-8", errors="replace") for p in CORPUS}
    out.update(GENERATED)
    return out


def _all_digests() -> dict[str, dict[str, str]]:
    return {name: {key: _digest(text, opts) for key, opts in OPTION_SETS.items()}
            for name, text in sorted(_inputs().items())}


def test_translation_outputs_are_unchanged() -> None:
    actual = _all_digests()
    if os.environ.get("C2R_UPDATE_DIGESTS"):
        DIGESTS.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert sorted(actual) == sorted(expected), "corpus files added or removed: C2R_UPDATE_DIGESTS=1 to record"
    changed = [f"{name} [{key}]" for name in actual for key in actual[name]
               if actual[name][key] != expected[name].get(key)]
    assert not changed, f"translation output changed for: {changed[:20]}"


@pytest.mark.parametrize("key", sorted(OPTION_SETS))
def test_generated_file_translates(key: str) -> None:
    """The generated inputs are translated, not failed (a digest of a failure would prove little)."""
    for text in GENERATED.values():
        result = translate_text(text, "f.cu", OPTION_SETS[key]).result
        assert type(result).__name__ == "Translated"
