"""Every original corpus program compiles with the real nvcc (CUDA 13 here, ``-arch=sm_90``).

All programs compile once per session on a small thread pool; a result is cached (pytest cache) under
the hash of the sources, headers and nvcc version, so only changed programs recompile. Programs whose
library headers are not installed on this machine (cuBLAS, cuFFT, ... on a toolkit-only install) skip
with the missing header named; the GPU script scripts/gpu/corpus.sh builds and runs all of them."""

from __future__ import annotations

import hashlib
import os
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from cuda2rocm.toolchain import compile_cuda, find_nvcc, nvcc_version

from .corpus import CUDA_DIR, Program, load_programs

pytestmark = [pytest.mark.nvcc, pytest.mark.skipif(find_nvcc() is None, reason="nvcc not installed")]
PROGRAMS = load_programs()
_MISSING = re.compile(r"fatal error: ([\w/.]+): No such file")


def _key(program: Program) -> str:
    digest = hashlib.sha256(str(nvcc_version()).encode())
    for path in sorted([*program.sources, *CUDA_DIR.rglob("*.cuh")]):
        digest.update(path.read_bytes())
    return f"cuda2rocm/corpus-nvcc/{program.name}/{digest.hexdigest()[:20]}"


def _compile(program: Program) -> tuple[str, str]:
    """("ok", "") or ("missing", header) or ("error", first diagnostics)."""
    for source in program.sources:
        result = compile_cuda(source, arch="sm_90", extra_flags=["-std=c++17"], timeout=600)
        if not result.ok:
            missing = _MISSING.search(result.stderr)
            if missing:
                return ("missing", missing.group(1))
            return ("error", "\n".join(map(str, result.errors[:5])) or result.stderr[-2000:])
    return ("ok", "")


@pytest.fixture(scope="session")
def nvcc_results(pytestconfig) -> dict[str, tuple[str, str]]:
    cache = getattr(pytestconfig, "cache", None)  # absent under -p no:cacheprovider
    results: dict[str, tuple[str, str]] = {}
    todo = []
    for program in PROGRAMS:
        cached = cache.get(_key(program), None) if cache is not None else None
        if cached == ["ok", ""]:
            results[program.name] = ("ok", "")
        else:
            todo.append(program)
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        for program, outcome in zip(todo, pool.map(_compile, todo), strict=True):
            results[program.name] = outcome
            if outcome[0] == "ok" and cache is not None:
                cache.set(_key(program), list(outcome))
    return results


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_original_compiles_with_nvcc(program, nvcc_results):
    status, detail = nvcc_results[program.name]
    if status == "missing":
        assert set(program.libraries) - {"runtime", "device"}, f"{program.name}: {detail} missing"
        pytest.skip(f"{detail} not installed here (needs {', '.join(program.libraries)})")
    assert status == "ok", detail
