"""Turn raw YAML mappings into the typed records of :mod:`cuda2rocm.knowledge.types`."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from cuda2rocm.knowledge.gpus import Gpu, Link

if TYPE_CHECKING:  # the other records are imported by their builders: a GPU lookup needs none of them
    from cuda2rocm.knowledge.types import Container, EnvVar, Library, LibrarySide, Plugin, RocmRelease

Raw = Mapping[str, Any]


def _strs(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        return tuple(str(v) for v in value)
    return (str(value),)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _int(value: Any) -> int | None:
    return None if value is None else int(float(value))


def _bool(value: Any) -> bool:
    return value is True or str(value).strip().lower() == "true"


def _common(raw: Raw) -> dict[str, Any]:
    return {"source": str(raw.get("source", "")), "date": str(raw.get("date", "")),
            "unverified": _bool(raw.get("unverified", False))}


def link(raw: Raw) -> Link:
    return Link(
        name=str(raw["name"]), count=_int(raw.get("count")), gbs=_float(raw.get("gbs")),
        direction=raw.get("direction"), aggregate_gbs=_float(raw.get("aggregate_gbs")),
        unverified=_bool(raw.get("unverified", False)),
    )


def gpu(name: str, raw: Raw) -> Gpu:
    sizes = tuple(int(float(s)) for s in raw.get("wavefront_sizes") or ())
    return Gpu(
        name=name, vendor=str(raw["vendor"]), family=str(raw.get("family", "")),
        architecture=str(raw.get("architecture", "")), gfx_target=str(raw.get("gfx_target", "")),
        compute_capability=str(raw.get("compute_capability", "")),
        wavefront_size=_int(raw.get("wavefront_size")) or (sizes[0] if sizes else 0),
        wavefront_sizes=sizes or (_int(raw.get("wavefront_size")) or 0,),
        lds_kib=_float(raw.get("lds_kib")), max_lds_per_workgroup_kib=_float(raw.get("max_lds_per_workgroup_kib")),
        max_workgroup_size=int(float(raw.get("max_workgroup_size") or 1024)), memory_gib=_float(raw.get("memory_gib")),
        bandwidth_tbs=_float(raw.get("bandwidth_tbs")), compute_units=_int(raw.get("compute_units")),
        matrix_cores=str(raw.get("matrix_cores") or ""), fp8=str(raw.get("fp8") or ""),
        links=tuple(link(x) for x in raw.get("links") or ()),
        rocm_first_listed=str(raw.get("rocm_first_listed") or ""), notes=_strs(raw.get("notes")), **_common(raw),
    )


def release(version: str, raw: Raw, known_gpus: Iterable[Gpu] = ()) -> RocmRelease:
    """One ROCm release; ``gpus`` names those of ``known_gpus`` it supports."""
    from cuda2rocm.knowledge.types import RocmRelease, gpu_in_release

    made = RocmRelease(
        version=version, gfx_targets=_strs(raw.get("gfx_targets")), architectures=_strs(raw.get("architectures")),
        os=_strs(raw.get("os")),
        frameworks={str(k): _strs(v) for k, v in (raw.get("frameworks") or {}).items()},
        driver_compat=_strs(raw.get("driver_compat")),
        components={str(k): str(v) for k, v in (raw.get("components") or {}).items()},
        kernels={str(k): str(v) for k, v in (raw.get("kernels") or {}).items()},
        notes=_strs(raw.get("notes")), **_common(raw),
    )
    return dataclasses.replace(made, gpus=tuple(g.name for g in known_gpus if gpu_in_release(g, made)))


def plugin(key: str, raw: Raw) -> Plugin:
    from cuda2rocm.knowledge.types import Plugin

    return Plugin(
        key=key, pip_names=_strs(raw.get("pip_names")), import_names=_strs(raw.get("import_names")),
        rocm_support=str(raw.get("rocm_support", "unknown")), replacement=str(raw.get("replacement") or ""),
        install=_strs(raw.get("install")), caveats=_strs(raw.get("caveats")), facts=_strs(raw.get("facts")),
        **_common(raw),
    )


def _side(raw: Raw | None) -> LibrarySide | None:
    from cuda2rocm.knowledge.types import LibrarySide

    if not raw:
        return None
    fields = ("name", "header", "link", "cmake_package", "cmake_target")
    return LibrarySide(**{k: str(raw.get(k) or "") for k in fields})


def library(key: str, raw: Raw) -> Library:
    from cuda2rocm.knowledge.types import Library

    return Library(
        cuda=key, cuda_headers=_strs(raw.get("cuda_headers")), cuda_link=str(raw.get("cuda_link") or ""),
        hip=_side(raw.get("hip")), rocm=_side(raw.get("rocm")), notes=_strs(raw.get("notes")), **_common(raw),
    )


def env_var(key: str, raw: Raw) -> EnvVar:
    from cuda2rocm.knowledge.types import EnvVar

    return EnvVar(
        key=key, cuda=str(raw.get("cuda") or ""), rocm=_strs(raw.get("rocm")), status=str(raw.get("status", "")),
        note=str(raw.get("note") or ""), **_common(raw),
    )


def container(key: str, raw: Raw) -> Container:
    from cuda2rocm.knowledge.types import Container

    return Container(
        key=key, rocm_image=str(raw.get("rocm_image") or key), replaces=str(raw.get("replaces") or ""),
        tags=str(raw.get("tags") or ""), notes=_strs(raw.get("notes")), **_common(raw),
    )
