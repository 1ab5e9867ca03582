"""Compile HIP with a real hipcc (always ``HIP_PLATFORM=amd``) and CUDA with nvcc; parse diagnostics."""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cuda2rocm.toolchain.diagnostics import Diagnostic, parse_diagnostics
from cuda2rocm.toolchain.discover import ToolNotFound, amd_env, find_hipcc, find_nvcc

DEFAULT_TIMEOUT = 300.0


@dataclass(frozen=True)
class CompileResult:
    ok: bool
    returncode: int
    diagnostics: tuple[Diagnostic, ...]
    stdout: str
    stderr: str
    seconds: float
    command: tuple[str, ...] = ()

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "warning")


def compile_hip(
    source: str | Path,
    arch: str = "gfx90a",
    extra_flags: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT,
    *,
    link: bool = False,
    output: str | Path | None = None,
    hipcc: str | None = None,
) -> CompileResult:
    """Compile a file (a Path, or a one-line str naming it) or source text (a str containing a newline).

    Without ``link`` only the object is built (``-c``), which checks host and device code for ``arch``."""
    tool = hipcc or find_hipcc()
    if tool is None:
        raise ToolNotFound("hipcc not found (install Debian's 'hipcc' or ROCm, or set ROCM_PATH)")
    flags = [f"--offload-arch={arch}", *extra_flags]
    return _compile([tool, *flags], source, ".hip", link, output, timeout, amd_env())


def compile_cuda(
    source: str | Path,
    arch: str = "sm_90",
    extra_flags: Sequence[str] = (),
    timeout: float = DEFAULT_TIMEOUT,
    *,
    link: bool = False,
    output: str | Path | None = None,
    nvcc: str | None = None,
) -> CompileResult:
    """Compile CUDA with nvcc for ``arch`` (``-arch=sm_90`` by default); same contract as compile_hip."""
    tool = nvcc or find_nvcc()
    if tool is None:
        raise ToolNotFound("nvcc not found (install the CUDA toolkit or set CUDA_HOME)")
    return _compile([tool, f"-arch={arch}", *extra_flags], source, ".cu", link, output, timeout, None)


def _compile(
    base: list[str],
    source: str | Path,
    suffix: str,
    link: bool,
    output: str | Path | None,
    timeout: float,
    env: dict[str, str] | None,
) -> CompileResult:
    if not _is_text(source) and not Path(source).is_file():
        return _failure([*base, str(source)], 2, f"{source}: no such file", "", "", time.perf_counter())
    with tempfile.TemporaryDirectory(prefix="c2r-compile-") as tmp:
        path = _source_path(source, Path(tmp), suffix)
        out = str(output) if output else str(Path(tmp, "a.out" if link else "a.o"))
        command = [*base, *([] if link else ["-c"]), str(path), "-o", out]
        return run_compiler(command, timeout, env)


def _is_text(source: str | Path) -> bool:
    return isinstance(source, str) and "\n" in source


def _source_path(source: str | Path, tmp: Path, suffix: str) -> Path:
    if isinstance(source, Path) or not _is_text(source):
        return Path(source)
    path = tmp / f"source{suffix}"
    path.write_text(source, encoding="utf-8")
    return path


def run_compiler(command: Sequence[str], timeout: float, env: dict[str, str] | None) -> CompileResult:
    """Run a compiler command; a timeout or a missing binary is a failed result, never an exception."""
    start = time.perf_counter()
    try:
        done = subprocess.run(
            list(command), capture_output=True, encoding="utf-8", errors="replace", timeout=timeout, env=env
        )
    except subprocess.TimeoutExpired as exc:
        message = f"compiler timed out after {timeout:g} s"
        return _failure(command, 124, message, _text(exc.stdout), _text(exc.stderr), start)
    except OSError as exc:
        return _failure(command, 127, f"cannot run {command[0]}: {exc}", "", "", start)
    diagnostics = parse_diagnostics(done.stdout + "\n" + done.stderr)
    seconds = time.perf_counter() - start
    return CompileResult(done.returncode == 0, done.returncode, diagnostics, done.stdout, done.stderr, seconds,
                         tuple(command))  # fmt: skip


def _failure(command: Sequence[str], code: int, message: str, out: str, err: str, start: float) -> CompileResult:
    diagnostic = Diagnostic("", 0, 0, "error", message)
    return CompileResult(False, code, (diagnostic,), out, err, time.perf_counter() - start, tuple(command))


def _text(data: str | bytes | None) -> str:
    if isinstance(data, bytes):
        return data.decode("utf-8", errors="replace")
    return data or ""


PROBE_KERNEL = "#include <hip/hip_runtime.h>\n__global__ void c2r_probe(int* p) { p[threadIdx.x] = 1; }\n"


def probe_arch(arch: str, timeout: float = 120.0, hipcc: str | None = None) -> bool:
    """True when hipcc really compiles a one-line kernel for ``arch``."""
    return compile_hip(PROBE_KERNEL, arch=arch, timeout=timeout, hipcc=hipcc).ok
