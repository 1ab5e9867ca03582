"""Python code that requires CUDA (issue 32, class 5; FP8 dtypes of class 6): each case is a file written here,
scanned as a one-file project; hazards must be found on the lines marked ``# <-`` and nowhere else."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuda2rocm.scan.api import scan

MARK = "# <-"


def _lines(tmp: Path, code: str, rule: str, target: str = "MI300X") -> set[int]:
    (tmp / "app.py").write_text(code, encoding="utf-8")
    return {f.line for f in scan(tmp, target_gpu=target).findings if f.rule == rule}


def _marked(code: str) -> set[int]:
    return {n for n, line in enumerate(code.splitlines(), 1) if MARK in line}


CASES = [
    ("C2R-P112", """import torch
major = int(torch.version.cuda.split(".")[0])  # <-
cuda = torch.version.cuda
tag = "cu" + cuda.replace(".", "")  # <-
if float(torch.version.cuda) < 11.8:  # <-
    pass
assert torch.version.cuda is not None, "CUDA build required"  # <-
if torch.version.cuda is None:  # <-
    raise RuntimeError("this package needs a CUDA build of PyTorch")
if not torch.cuda.is_available() or torch.version.cuda is None: raise SystemExit(1)  # <-
from packaging.version import Version
new = Version(torch.version.cuda) >= Version("12.1")  # <-
"""),
    # guarded: a truthiness test before the use, an early return, a platform test, a fallback value
    ("C2R-P112", """import torch
if torch.version.cuda:
    major = int(torch.version.cuda.split(".")[0])
ver = torch.version.cuda.split(".") if torch.version.cuda else []
def cuda_tuple():
    if torch.version.cuda is None:
        return None
    return tuple(int(p) for p in torch.version.cuda.split("."))
build = "rocm" if torch.version.hip else torch.version.cuda.split(".")[0]
text = torch.version.cuda or "none"
same = torch.version.cuda == "12.1"
print("CUDA", torch.version.cuda)
"""),
    ("C2R-P113", """import torch
if torch.backends.cudnn.version() >= 8900:  # <-
    fused = True
v = torch.backends.cudnn.version()
old = v < 8000  # <-
ok = torch.backends.cudnn.is_available()
print(torch.backends.cudnn.version())
torch.backends.cudnn.benchmark = True
"""),
    ("C2R-P101", """import torch
props = torch.cuda.get_device_properties(0)
if props.major >= 8:  # <-
    bf16 = True
if torch.cuda.get_device_properties(0).major == 9:  # <-
    hopper = True
cc = props.major * 10 + props.minor
sm90 = cc >= 90  # <-
mem = props.total_memory > 40 * 2**30
name = props.name
"""),
    ("C2R-P114", """import triton
import triton.language as tl
PTX_CVT = "cvt.rn.f16x2.f32 $0, $2, $1;"
@triton.jit
def k(a, b):
    x = tl.inline_asm_elementwise(asm=PTX_CVT, constraints="=r,r,r", args=[a, b], dtype=tl.int32,  # <-
                                  is_pure=True, pack=1)
    y = tl.inline_asm_elementwise(  # <-
        "prmt.b32 $0, $1, 0, 0x0040;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    z = tl.inline_asm_elementwise(
        "v_cvt_pkrtz_f16_f32 $0, $1, $2", "=v,v,v", [a, b], dtype=tl.int32, is_pure=True, pack=1)
    return x + y + z
"""),
    ("C2R-K505", """import torch
q = x.to(torch.float8_e4m3fn)  # <-
w = torch.empty(4, dtype=torch.float8_e5m2)  # <-
ok = x.to(torch.float8_e4m3fnuz)
dt = torch.float8_e4m3fnuz if torch.version.hip else torch.float8_e4m3fn
name = "float8_e4m3fn"
"""),
    ("C2R-D103", """import os
import torch
os.environ["NCCL_P2P_LEVEL"] = "NVL"  # <-
os.environ.setdefault("NCCL_IB_HCA", "mlx5")  # <-
env = {"NCCL_ALGO": "Tree", "OMP_NUM_THREADS": "4"}  # <-
level = os.environ.get("NCCL_DEBUG")
if "NCCL_SOCKET_IFNAME" in os.environ:
    pass
child = dict(os.environ, NCCL_P2P_DISABLE="1")  # <-
NCCL_TIMEOUT_S = 60
"""),
    ("C2R-D108", """import os
import torch
home = os.environ.get("CUDA_HOME") or os.environ.get("ROCM_PATH")
"""),
]


@pytest.mark.parametrize(("rule", "code"), CASES, ids=[f"{r}-{n}" for n, (r, _) in enumerate(CASES)])
def test_found_on_the_marked_lines_only(rule: str, code: str, tmp_path: Path) -> None:
    assert _lines(tmp_path, code, rule) == _marked(code)


def test_ocp_fp8_is_fine_where_the_target_uses_ocp(tmp_path: Path) -> None:
    code = next(c for r, c in CASES if r == "C2R-K505")
    assert _lines(tmp_path, code, "C2R-K505", target="MI355X") == set()


def test_setting_message_names_the_value(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text('import os\nos.environ["NCCL_P2P_LEVEL"] = "NVL"\n', encoding="utf-8")
    assert any("NCCL_P2P_LEVEL=NVL" in f.message for f in scan(tmp_path).findings)
