"""``#pragma weak alias = target`` on host entities (issue 16 bug 5): hipcc's device pass emits no host globals,
so the alias points at nothing and the unit fails to compile. convert keeps the pragma for the host pass behind
``#if !defined(__HIP_DEVICE_COMPILE__)`` and reports it (C2R-A115). hipcc proves both halves."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.model import Translated
from cuda2rocm.translate.api import convert_source
from cuda2rocm.translate.options import Options

needs_hipcc = pytest.mark.skipif(shutil.which("hipcc") is None, reason="needs a real hipcc")

SOURCE = """#include <cuda_runtime.h>
int real_counter = 0;
extern "C" int impl() { return real_counter; }
__device__ int dev_value = 3;
#pragma weak counter_alias = real_counter
#pragma weak api = impl
#pragma weak dev_alias = dev_value
#pragma weak lonely
__global__ void k(int* p) { p[0] = dev_value; }
int main() { return impl(); }
"""


def _convert(text: str) -> Translated:
    result = convert_source(text, "weak.cu", Options(target_rocm="5.2"))
    assert isinstance(result, Translated)
    return result


def test_host_aliases_are_kept_for_the_host_pass_and_reported() -> None:
    out = _convert(SOURCE)
    assert ("#if !defined(__HIP_DEVICE_COMPILE__)\n#pragma weak counter_alias = real_counter\n#endif\n"
            "#if !defined(__HIP_DEVICE_COMPILE__)\n#pragma weak api = impl\n#endif\n"
            "#pragma weak dev_alias = dev_value\n#pragma weak lonely\n") in out.text  # device entity, no alias: kept
    a115 = [f for f in out.findings if f.rule == "C2R-A115"]
    assert [(f.line, f.message.split(":")[0]) for f in a115] == [
        (5, "#pragma weak counter_alias = real_counter"), (6, "#pragma weak api = impl")]
    assert "host variable" in a115[0].message and "host function" in a115[1].message


def test_guarding_is_idempotent() -> None:
    once = _convert(SOURCE).text.replace("<hip/hip_runtime.h>", "<cuda_runtime.h>")
    again = _convert(once)
    assert again.text.count("#if !defined(__HIP_DEVICE_COMPILE__)") == 2
    assert "C2R-A115" not in {f.rule for f in again.findings}


def test_host_only_files_are_left_alone() -> None:
    text = "int real_counter = 0;\n#pragma weak counter_alias = real_counter\n"
    assert not isinstance(convert_source(text, "lib.cpp", Options()), Translated)  # g++ builds it: no device pass


def _hipcc(text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    source = tmp_path / "weak.hip"
    source.write_text(text)
    return subprocess.run(["hipcc", "--offload-arch=gfx90a", "-x", "hip", "-c", str(source), "-o",
                           str(tmp_path / "weak.o")], capture_output=True, text=True, check=False,
                          env={"HIP_PLATFORM": "amd", "PATH": "/usr/bin:/bin"})


@needs_hipcc
@pytest.mark.hipcc
def test_the_fixed_unit_compiles_and_the_original_does_not(tmp_path: Path) -> None:
    plain = _hipcc(SOURCE.replace("<cuda_runtime.h>", "<hip/hip_runtime.h>"), tmp_path)
    assert plain.returncode != 0 and "alias must point to a defined variable or function" in plain.stderr
    fixed = _hipcc(_convert(SOURCE).text, tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    symbols = subprocess.run(["nm", str(tmp_path / "weak.o")], capture_output=True, text=True, check=True).stdout
    weak = {line.split()[-1] for line in symbols.splitlines() if line.split()[-2:-1] in (["V"], ["W"])}
    assert "counter_alias" in weak and any("api" in name for name in weak)  # the host object keeps the aliases
