"""What the found hipcc compiles for, asked of the compiler itself, and `verify` using it (issue 18).

Debian 12's hipcc is HIP 5.2 on clang 15: it knows gfx940 but not gfx942, and ships no device library for
gfx1100, so `verify --offload-arch gfx942` printed one `invalid target ID` per unit and translated for the
newest ROCm, whose `__shfl_down_sync` HIP 5.2 does not have.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cuda2rocm.cli.main import cli
from cuda2rocm.mapping.version import parse_version
from cuda2rocm.toolchain import HipccTargets, hip_version, hipcc_targets, probe_arch
from cuda2rocm.translate.verify import rocm_for_hip

from .conftest import needs_hipcc

SHFL = """#include <cuda_runtime.h>
__global__ void reduce(float* x) {
  float v = x[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x == 0) x[0] = v;
}
"""


def _cli(args: list[str]) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, args, standalone_mode=False)
    code = r.exception.exit_code if hasattr(r.exception, "exit_code") else int(r.return_value or 0)
    if r.exception is not None and not hasattr(r.exception, "exit_code"):
        raise r.exception
    return code, r.stdout, r.stderr


def test_problem_texts_from_literal_lists() -> None:
    t = HipccTargets("hipcc", parse_version("5.2.21153"), "clang", ("gfx90a", "gfx940", "gfx1100"),
                     ("gfx90a", "gfx940"))
    assert t.supported() == ("gfx90a", "gfx940")
    assert t.problem("gfx90a") == "" and t.problem("gfx90a:xnack-") == "" and t.problem("GFX940") == ""
    assert "does not support --offload-arch gfx942" in t.problem("gfx942")
    assert "it compiles for: gfx90a, gfx940" in t.problem("gfx942")
    assert "no device library for gfx1100" in t.problem("gfx1100")
    unknown = HipccTargets("hipcc", None, "", (), ())
    assert unknown.supported() == () and unknown.problem("gfx942") == ""  # then verify probes by compiling


@pytest.mark.parametrize(("hip", "rocm"), [("5.2.21153-0", "5.2"), ("6.4.43482", "6.4"), ("6.1.40091", "6.1"),
                                           ("99.1", "7.2.3"), ("4.5", "")])
def test_the_rocm_release_for_a_hip_version(hip: str, rocm: str) -> None:
    assert rocm_for_hip(parse_version(hip)) == rocm
    assert rocm_for_hip(None) == ""


@needs_hipcc
@pytest.mark.hipcc
@pytest.mark.parametrize("arch", ["gfx90a", "gfx940", "gfx942", "gfx1100", "gfx9999"])
def test_asking_the_compiler_agrees_with_a_real_compile(arch: str) -> None:
    targets = hipcc_targets()
    assert targets.compiler and targets.clang  # Debian's hipcc: its clang could be asked
    assert (targets.problem(arch) == "") == probe_arch(arch)
    assert hipcc_targets() is targets  # cached


@needs_hipcc
@pytest.mark.hipcc
def test_verify_says_once_that_the_target_is_unsupported(tmp_path) -> None:
    for i in range(7):
        (tmp_path / f"k{i}.cu").write_text(SHFL)
    targets = hipcc_targets()
    bad = next(a for a in ("gfx942", "gfx9999") if targets.problem(a))
    code, out, err = _cli(["verify", str(tmp_path), "--offload-arch", bad])
    assert code == 2 and out == ""
    assert err.count(f"does not support --offload-arch {bad}") == 1 and "invalid target ID" not in err
    assert "it compiles for: " in err and "gfx90a" in err
    code, _, err = _cli(["verify", str(tmp_path / "k0.cu"), "--offload-arch", "gfx9999"])
    assert code == 2 and err.count("gfx9999") == 1


@needs_hipcc
@pytest.mark.hipcc
def test_verify_translates_for_the_hip_it_found(tmp_path) -> None:
    (tmp_path / "r.cu").write_text(SHFL)
    hip = hip_version()
    assert hip is not None
    rocm = rocm_for_hip(hip)
    code, out, err = _cli(["verify", str(tmp_path / "r.cu")])
    assert f"(HIP {hip}); translating for ROCm {rocm}, compiling for gfx90a" in err
    assert code == 0 and "PASS r.cu" in out, out + err
    if hip.major_minor < parse_version("6.2"):  # HIP 5.2 has no __shfl_down_sync: the newest ROCm's output fails
        code, out, err = _cli(["verify", str(tmp_path / "r.cu"), "--target-rocm", "7.2"])
        assert code == 1 and "__shfl_down_sync" in out
        assert f"--target-rocm 7.2 is newer than this hipcc's HIP ({rocm})" in err
