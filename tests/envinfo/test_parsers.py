from __future__ import annotations

import pytest

from cuda2rocm.envinfo import amd, nvidia, software
from cuda2rocm.envinfo.probe import run_tool

QUERY = "0, NVIDIA H200, GPU-5d1c, 143771, 580.95.05, 9.0, 00000000:18:00.0\n" \
        "1, NVIDIA H200, GPU-7e2a, 143771, 580.95.05, 9.0, 00000000:2A:00.0\n"
BANNER = "| NVIDIA-SMI 580.95.05   Driver Version: 580.95.05   CUDA Version: 13.0     |\n"


def test_nvidia_query_csv():
    gpus = nvidia.parse_query_csv(QUERY)
    assert [g["name"] for g in gpus] == ["NVIDIA H200", "NVIDIA H200"]
    assert gpus[1] | {} == gpus[1] and gpus[1]["index"] == 1 and gpus[1]["memory_mib"] == 143771
    assert gpus[0]["arch"] == "sm_90" and gpus[0]["driver"] == "580.95.05"


@pytest.mark.parametrize("text", ["", "garbage", "0, only, three"])
def test_nvidia_query_csv_tolerates_junk(text):
    assert nvidia.parse_query_csv(text) == []


def test_nvidia_banner():
    assert nvidia.parse_banner(BANNER) == {"driver": "580.95.05", "cuda": "13.0"}
    assert nvidia.parse_banner("no banner") == {}


def test_nvidia_topology(fixtures):
    topo = nvidia.parse_topology((fixtures / "nvidia-smi-topo-2xh200.txt").read_text())
    assert topo["links"] == {"GPU0-GPU1": "NV18", "GPU1-GPU0": "NV18"}
    assert nvidia.parse_topology("") == {}


def test_nvidia_topology_with_terminal_escapes(fixtures):
    """Captured on the 2 x H200 machine (driver 580.159.04): the header row is underlined with ESC[4m."""
    text = (fixtures / "nvidia-smi-topo-2xh200-ansi.txt").read_text()
    assert "\x1b[4m" in text
    topo = nvidia.parse_topology(text)
    assert topo["links"] == {"GPU0-GPU1": "NV18", "GPU1-GPU0": "NV18"}
    assert "\x1b" not in topo["raw"]


def test_rocminfo_gpu_agents_only(fixtures):
    gpus = amd.parse_rocminfo((fixtures / "rocminfo-mi300x.txt").read_text())
    assert len(gpus) == 1
    assert gpus[0]["arch"] == "gfx942" and gpus[0]["name"] == "AMD Instinct MI300X" and gpus[0]["compute_units"] == 304


def test_rocm_version_file(tmp_path):
    (tmp_path / ".info").mkdir()
    (tmp_path / ".info" / "version").write_text("6.4.1-120\n")
    assert amd.rocm_version(tmp_path) == "6.4.1-120"
    assert amd.rocm_version(tmp_path / "missing") == ""


@pytest.mark.parametrize(
    ("banner", "version"),
    [("Cuda compilation tools, release 13.0, V13.0.88", "13.0"),
     ("HIP version: 5.2.21153-0\nnvcc ... release 13.0", "5.2.21153-0"),
     ("gcc (Debian 12.2.0-14+deb12u1) 12.2.0", "12.2.0"),
     ("Debian clang version 14.0.6", "14.0.6")],
)
def test_compiler_version(banner, version):
    assert software.compiler_version(banner) == version


def test_env_vars_are_filtered_and_secrets_redacted():
    env = software.key_env({"NCCL_DEBUG": "INFO", "HOME": "/root", "HIP_VISIBLE_DEVICES": "0",
                            "NCCL_IB_TOKEN_KEY": "s3cret"})
    assert env == {"HIP_VISIBLE_DEVICES": "0", "NCCL_DEBUG": "INFO", "NCCL_IB_TOKEN_KEY": "<redacted>"}


def test_container_detection(tmp_path):
    assert software.container(tmp_path, {}) == {"detected": False, "evidence": []}
    (tmp_path / ".dockerenv").touch()
    (tmp_path / "proc/1").mkdir(parents=True)
    (tmp_path / "proc/1/cgroup").write_text("0::/kubepods/besteffort/pod1\n")
    found = software.container(tmp_path, {"KUBERNETES_SERVICE_HOST": "10.0.0.1"})
    assert found["detected"] and found["evidence"] == [".dockerenv", "kubepods", "KUBERNETES_SERVICE_HOST"]


def test_os_release(tmp_path):
    path = tmp_path / "os-release"
    path.write_text('PRETTY_NAME="Ubuntu 22.04.5 LTS"\nID=ubuntu\nVERSION_ID="22.04"\n')
    assert software.os_release(path) == {"name": "Ubuntu 22.04.5 LTS", "id": "ubuntu", "version": "22.04"}


def test_missing_failing_and_slow_tools_are_notes():
    assert "not found" in run_tool(["no-such-tool-c2r"]).note
    failed = run_tool(["false"])
    assert not failed.ok and "exit 1" in failed.note
    slow = run_tool(["sleep", "5"], timeout=0.2)
    assert not slow.ok and "timed out" in slow.note
    assert run_tool(["echo", "hi"]).stdout == "hi\n"


def test_torch_answers_are_tidied_on_cuda_builds() -> None:
    """Issue 31, item 8: on the H200, env wrote cuDNN as 91900 and gcn_arch "NVIDIA H200" (torch answers the
    marketing name where no gfx target exists); a ROCm build keeps both as torch gives them."""
    from cuda2rocm.envinfo.software import tidy_torch

    cuda = tidy_torch({"hip": None, "cudnn": "91900", "devices": [{"name": "NVIDIA H200", "gcn_arch": "NVIDIA H200"}]})
    assert cuda["cudnn"] == "9.19.0" and cuda["devices"][0]["gcn_arch"] == ""
    assert tidy_torch({"cudnn": "8906"})["cudnn"] == "8.9.6" and tidy_torch({"cudnn": None})["cudnn"] is None
    rocm = {"hip": "6.2.41133", "cudnn": "3002000", "devices": [{"gcn_arch": "gfx942:sramecc+:xnack-"}]}
    assert tidy_torch(dict(rocm)) == rocm
