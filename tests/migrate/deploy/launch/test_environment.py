"""environment.py: the decision for every environment variable assignment and every nvidia-smi invocation."""

from __future__ import annotations

import pytest

from cuda2rocm.migrate.deploy import environment as E
from cuda2rocm.model import Applicability


def test_visible_devices_renamed_keeping_the_value_text() -> None:
    c = E.env_change("CUDA_VISIBLE_DEVICES", "0,1")
    assert c is not None and c.action == E.RENAME and c.rule.id == "C2R-M401"
    assert c.new == (("HIP_VISIBLE_DEVICES", None),)
    assert c.written('"${SLURM_LOCALID}"') == ['HIP_VISIBLE_DEVICES="${SLURM_LOCALID}"']
    assert "ROCR_VISIBLE_DEVICES" in c.message  # the semantics difference is explained
    assert c.applicability is Applicability.UNSAFE


@pytest.mark.parametrize("value", ["GPU-8d7e9b2c-0000", "MIG-1234"])
def test_visible_devices_uuids_cannot_carry_over(value: str) -> None:
    c = E.env_change("CUDA_VISIBLE_DEVICES", value)
    assert c is not None and c.action == E.KEEP and c.rule.id == "C2R-M404"


@pytest.mark.parametrize(("name", "value", "action", "new"), [
    ("CUDA_LAUNCH_BLOCKING", "1", E.RENAME, (("AMD_SERIALIZE_KERNEL", "3"),)),
    ("CUDA_LAUNCH_BLOCKING", "0", E.DROP, ()),
    ("CUDA_DEVICE_MAX_CONNECTIONS", "1", E.ADD, (("GPU_MAX_HW_QUEUES", None),)),
    ("CUDA_MODULE_LOADING", "LAZY", E.DROP, ()),
    ("TORCH_CUDA_ARCH_LIST", "8.0;9.0", E.RENAME, (("PYTORCH_ROCM_ARCH", "gfx90a;gfx942"),)),
    ("CUDA_HOME", "/usr/local/cuda-12.1", E.RENAME, (("ROCM_HOME", "/opt/rocm"),)),
    ("CUDA_HOME", "/opt/cuda", E.KEEP, ()),
    ("PYTORCH_CUDA_ALLOC_CONF", "max_split_size_mb:128", E.KEEP, ()),
    ("CUDA_DEVICE_ORDER", "PCI_BUS_ID", E.KEEP, ()),
])
def test_cuda_variables(name: str, value: str, action: str, new: tuple[tuple[str, str | None], ...]) -> None:
    c = E.env_change(name, value)
    assert c is not None and (c.action, c.new) == (action, new), c


def test_alloc_conf_names_the_hip_spelling() -> None:
    c = E.env_change("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True")
    assert c is not None and c.rule.id == "C2R-M403" and "PYTORCH_HIP_ALLOC_CONF" in c.message


def test_not_a_gpu_variable() -> None:
    assert E.env_change("PATH", "/usr/bin") is None
    assert E.env_change("OMP_NUM_THREADS", "8") is None


@pytest.mark.parametrize(("name", "klass", "action", "rule"), [
    ("NCCL_DEBUG", E.HONOURED, E.KEEP, "C2R-M501"),
    ("NCCL_ALGO", E.RETUNE, E.KEEP, "C2R-M502"),
    ("NCCL_MIN_NCHANNELS", E.RETUNE, E.KEEP, "C2R-M502"),
    ("NCCL_IB_HCA", E.FABRIC, E.KEEP, "C2R-M504"),
    ("NCCL_IB_GID_INDEX", E.FABRIC, E.KEEP, "C2R-M504"),
    ("NCCL_SOCKET_IFNAME", E.FABRIC, E.KEEP, "C2R-M504"),
    ("NCCL_NVLS_ENABLE", E.NVLINK, E.DROP, "C2R-M503"),
    ("NCCL_MNNVL_ENABLE", E.NVLINK, E.DROP, "C2R-M503"),
    ("NCCL_ASYNC_ERROR_HANDLING", E.PYTORCH, E.KEEP, "C2R-M501"),
    ("TORCH_NCCL_BLOCKING_WAIT", E.PYTORCH, E.KEEP, "C2R-M501"),
    ("NCCL_NOT_A_REAL_KNOB", E.UNKNOWN, E.KEEP, "C2R-M505"),
])
def test_every_nccl_variable_is_classified(name: str, klass: str, action: str, rule: str) -> None:
    c = E.env_change(name, "1")
    assert c is not None and (c.nccl_class, c.action, c.rule.id) == (klass, action, rule)


def test_retuning_suggests_rccl_knobs_and_quotes_the_guide() -> None:
    c = E.env_change("NCCL_ALGO", "Tree")
    assert c is not None and "RCCL_MSCCL_ENABLE" in c.suggest
    assert "cannot be applied to RCCL as is" in c.message
    p2p = E.env_change("NCCL_P2P_DISABLE", "1")
    assert p2p is not None and "HSA_FORCE_FINE_GRAIN_PCIE" in p2p.suggest


def test_every_knowledge_base_nccl_variable_gets_a_class() -> None:
    from cuda2rocm import knowledge

    names = [k for k in knowledge.env_vars() if E.is_nccl(k)]
    assert len(names) > 50
    for name in names:
        assert E.nccl_class(name).klass != E.UNKNOWN, name
    for name, var in knowledge.env_vars().items():
        if E.is_nccl(name) and var.status == "no_effect":
            assert E.nccl_class(name).klass == E.NVLINK, name


def test_every_table_row_names_a_registered_rule() -> None:
    from cuda2rocm.rules import RULES

    for rows in E._rewrites().values():
        for row in rows:
            assert row.rule in RULES and row.action in (E.RENAME, E.ADD, E.DROP, E.KEEP)
    assert {c.klass for c in E.nccl_classes().values()} <= {E.RETUNE, E.FABRIC, E.NVLINK, E.PYTORCH, E.HONOURED}


@pytest.mark.parametrize(("argv", "expected"), [
    (["nvidia-smi"], ("amd-smi",)),
    (["nvidia-smi", "-L"], ("amd-smi", "list", "--csv")),
    (["nvidia-smi", "--list-gpus"], ("amd-smi", "list", "--csv")),
    (["nvidia-smi", "topo", "-m"], ("amd-smi", "topology")),
    (["nvidia-smi", "--query-gpu=memory.used,memory.total", "--format=csv"],
     ("amd-smi", "metric", "--mem-usage", "--csv")),
    (["nvidia-smi", "--query-gpu", "utilization.gpu,temperature.gpu,power.draw", "--format", "csv"],
     ("amd-smi", "metric", "--usage", "--temperature", "--power", "--csv")),
    (["nvidia-smi", "-i", "0", "-l", "5"], ("amd-smi", "metric", "-g", "0", "-w", "5")),
])
def test_smi_mapped(argv: list[str], expected: tuple[str, ...]) -> None:
    s = E.smi_change(argv)
    assert s.argv == expected, s
    assert s.applicability is Applicability.UNSAFE  # amd-smi prints other columns: review what parses it


def test_smi_fields_across_subcommands_and_unmapped_fields() -> None:
    s = E.smi_change(["nvidia-smi", "--query-gpu=name,memory.used,compute_mode", "--format=csv,noheader"])
    assert s.argv is None
    assert s.commands == (("amd-smi", "static", "--asic", "--csv"), ("amd-smi", "metric", "--mem-usage", "--csv"))
    assert any(u.startswith("compute_mode") for u in s.unmapped) and "--format noheader" in s.unmapped
    assert "name -> market_name" in s.message and "memory.used -> used_vram" in s.message


@pytest.mark.parametrize("argv", [["nvidia-smi", "-pm", "1"], ["nvidia-smi", "-mig", "1"],
                                  ["nvidia-smi", "--query-gpu=compute_mode", "--format=csv"]])
def test_smi_without_counterpart(argv: list[str]) -> None:
    s = E.smi_change(argv)
    assert s.argv is None and not s.commands and s.unmapped and s.applicability is Applicability.MANUAL
