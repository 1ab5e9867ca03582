"""The shipped tables must agree with the gathered reference facts; every disagreement is either fixed or
explained in the data file (``reference_differences`` of the entry)."""

from __future__ import annotations

import re

import pytest

from cuda2rocm import knowledge
from cuda2rocm.knowledge import _load


def _explained(table: str, key: str) -> dict[str, str]:
    raw = _load.merged(table).get(key) or {}
    return dict(raw.get("reference_differences") or {})


def _report(problems: list[tuple[str, str, str, str]]) -> None:
    unexplained = [p for p in problems if p[2] not in _explained(p[0], p[1])]
    assert not unexplained, "unexplained disagreements with ../shared/reference:\n" + "\n".join(
        f"  {t}.{k}.{f}: {why}" for t, k, f, why in unexplained)


def _num(text) -> float:
    return float(re.search(r"[\d.]+", str(text)).group())


def test_amd_gpu_facts_match_reference(reference):
    problems = []
    for name, ref in reference("gpus")["amd"].items():
        gpu = knowledge.gpus().get(name)
        if gpu is None:
            problems.append(("gpus", name, "*", "missing"))
            continue
        expected = {"gfx_target": ref["gfx_target"], "architecture": ref["architecture"], "family": ref["family"],
                    "memory_gib": ref.get("vram_gib"), "compute_units": int(_num(ref["compute_units"])),
                    "lds_kib": ref.get("lds_kib_per_cu", ref.get("lds_kib_per_wgp_or_cu")),
                    "max_workgroup_size": ref.get("max_workgroup_size"),
                    "bandwidth_tbs": ref.get("memory_bandwidth_tbps")}
        for field, want in expected.items():
            if want is not None and getattr(gpu, field) != want:
                problems.append(("gpus", name, field, f"ours {getattr(gpu, field)!r}, reference {want!r}"))
        sizes = {int(s) for s in re.findall(r"\d+", str(ref["wavefront_size"]))}
        if set(gpu.wavefront_sizes) != sizes or gpu.wavefront_size not in sizes:
            problems.append(("gpus", name, "wavefront_size", f"ours {gpu.wavefront_sizes}, reference {sizes}"))
    _report(problems)


def test_nvidia_gpu_facts_match_reference(reference):
    problems = []
    for name, ref in reference("gpus")["nvidia"].items():
        if name.startswith("_"):
            continue
        gpu = knowledge.get_gpu(name)
        assert gpu is not None and gpu.vendor == "nvidia", name
        expected = {"compute_capability": ref["compute_capability"], "wavefront_size": ref["warp_size"],
                    "max_workgroup_size": ref["max_threads_per_block"], "lds_kib": ref["shared_mem_per_sm_kb"],
                    "compute_units": ref.get("sm_count"), "architecture": ref["arch"]}
        for field, want in expected.items():
            if want is not None and getattr(gpu, field) != want:
                problems.append(("gpus", name, field, f"ours {getattr(gpu, field)!r}, reference {want!r}"))
        if gpu.links[0].aggregate_gbs != ref["nvlink_gbps"]:
            problems.append(("gpus", name, "links", f"ours {gpu.links[0].aggregate_gbs}, ref {ref['nvlink_gbps']}"))
        if _num(str(ref["memory_bandwidth_tbps"]).split("/")[-1]) != gpu.bandwidth_tbs:
            problems.append(("gpus", name, "bandwidth_tbs", f"ours {gpu.bandwidth_tbs}"))
    _report(problems)


def test_every_named_gpu_maps_to_the_reference_target(reference):
    table = reference("compat")["gpu_name_to_target"]
    problems = []
    for family in ("instinct", "radeon_pro", "radeon"):
        for name, (gfx, _arch) in table[family].items():
            gpu = knowledge.get_gpu(name)
            ours = gpu.gfx_target if gpu and gpu.name == name else knowledge.gfx_names().get(name)
            if ours != gfx:
                problems.append(("gpus", name, "gfx_target", f"ours {ours!r}, reference {gfx!r}"))
    _report(problems)


def _expand_os(items):
    out = set()
    for item in items:
        head, _, rest = item.partition(", ")
        out.add(head)
        prefix = head.rsplit(" ", 1)[0]
        out |= {f"{prefix} {v}" for v in rest.split(", ") if v}
    return out


@pytest.mark.parametrize("field", ["gfx_targets", "os", "frameworks", "components", "driver_compat"])
def test_rocm_releases_match_reference(reference, field):
    problems = []
    for version, ref in reference("compat")["releases"].items():
        rel = knowledge.rocm_releases().get(str(version))
        if rel is None:
            problems.append(("releases", str(version), "*", "missing"))
            continue
        if field == "gfx_targets" and set(rel.gfx_targets) != set(ref["gfx_targets"]):
            problems.append(("releases", version, field, f"{rel.gfx_targets} vs {ref['gfx_targets']}"))
        if field == "os" and set(rel.os) != _expand_os(ref["os"]):
            problems.append(("releases", version, field, f"{sorted(rel.os)} vs {sorted(_expand_os(ref['os']))}"))
        if field == "frameworks":
            want = {k: tuple(str(x) for x in v) for k, v in ref["frameworks"].items() if k != "jax_alt_later_doc"}
            if rel.frameworks != want:
                problems.append(("releases", version, field, f"{rel.frameworks} vs {want}"))
        if field == "components":
            want_c = {k: str(v) for k, v in (ref.get("component_versions") or {}).items()}
            if rel.components != want_c:
                problems.append(("releases", version, field, "component versions differ"))
        if field == "driver_compat" and rel.driver_compat != tuple(str(d) for d in ref.get("driver_compat", [])):
            problems.append(("releases", version, field, f"{rel.driver_compat}"))
    _report(problems)


def test_reference_releases_cover_5_7_to_newest(reference):
    ours = set(knowledge.rocm_releases())
    theirs = {str(v) for v in reference("compat")["releases"]}
    assert theirs <= ours
    assert min(ours, key=knowledge.versions.key).startswith("5.7")


def test_plugin_support_levels_match_reference(reference):
    problems = []
    for key, ref in reference("plugins")["packages"].items():
        plugin = knowledge.plugins().get(key)
        if plugin is None or plugin.rocm_support != ref["rocm_support"]:
            problems.append(("plugins", key, "rocm_support", f"ours {plugin and plugin.rocm_support}"))
    _report(problems)


def test_library_mapping_matches_reference(reference):
    problems = []
    for ref in reference("libraries")["libraries"]:
        key = ref["cuda"].split(" (")[0].split(" /")[0]
        hip = ref.get("hip_portable") or {}
        lib = knowledge.libraries().get(key)
        if "nvcc" in key:
            continue
        if lib is None:
            problems.append(("libraries", key, "*", "missing"))
            continue
        for field in ("header", "link", "cmake_package", "cmake_target"):
            if hip.get(field) and (lib.hip is None or getattr(lib.hip, field) != hip[field]):
                problems.append(("libraries", key, f"hip.{field}", f"reference {hip[field]!r}"))
    _report(problems)


def test_nccl_variables_match_reference(reference):
    nccl = reference("env_vars")["nccl_rccl"]
    problems = []
    names = [v["name"] for v in nccl["honored_documented"]["vars"]] + nccl["honored_in_source"]["names"]
    for name in names:
        var = knowledge.get_env_var(name)
        if var is None or var.status != "honored" or name not in var.rocm:
            problems.append(("env_vars", name, "status", "RCCL reads this name; ours disagrees"))
    for entry in nccl["no_effect_on_amd"]["vars"]:
        var = knowledge.get_env_var(entry["name"])
        if var is None or var.status != "no_effect":
            problems.append(("env_vars", entry["name"], "status", "no effect on AMD per reference"))
    _report(problems)


def test_every_shipped_fact_has_source_and_date():
    tables = {"gpus": knowledge.gpus(), "releases": knowledge.rocm_releases(), "plugins": knowledge.plugins(),
              "libraries": knowledge.libraries(), "env_vars": knowledge.env_vars(), "images": knowledge.containers()}
    missing = [f"{t}.{k}" for t, rows in tables.items() for k, v in rows.items()
               if not v.source or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v.date)]
    assert not missing, missing


def test_a_changed_fact_is_reported_as_a_disagreement(reference, isolated_kb):
    isolated_kb.mkdir(parents=True)
    (isolated_kb / "overlay.yaml").write_text(
        "gpus:\n  MI300X: {memory_gib: 999.0, source: test, date: '2026-11-30'}\n", encoding="utf-8")
    knowledge.reload()
    with pytest.raises(AssertionError, match=r"gpus\.MI300X\.memory_gib"):
        test_amd_gpu_facts_match_reference(reference)


def test_an_explained_difference_is_accepted(reference, isolated_kb):
    isolated_kb.mkdir(parents=True)
    (isolated_kb / "overlay.yaml").write_text(
        "gpus:\n  MI300X:\n    memory_gib: 999.0\n    reference_differences: {memory_gib: newer spec sheet}\n",
        encoding="utf-8")
    knowledge.reload()
    test_amd_gpu_facts_match_reference(reference)
