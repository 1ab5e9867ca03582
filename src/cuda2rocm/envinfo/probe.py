"""Run one optional external tool with a timeout. A missing or failing tool becomes a note, never a crash."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass

DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class ToolOutput:
    ok: bool
    stdout: str = ""
    note: str = ""  # why it failed, for the fingerprint's notes


def run_tool(argv: list[str], timeout: float = DEFAULT_TIMEOUT) -> ToolOutput:
    exe = shutil.which(argv[0])
    if exe is None:
        return ToolOutput(False, note=f"{argv[0]}: not found on PATH")
    try:
        proc = subprocess.run([exe, *argv[1:]], capture_output=True, text=True, timeout=timeout,
                              errors="replace", check=False)
    except subprocess.TimeoutExpired:
        return ToolOutput(False, note=f"{' '.join(argv)}: timed out after {timeout:g}s")
    except OSError as exc:
        return ToolOutput(False, note=f"{' '.join(argv)}: {exc}")
    if proc.returncode != 0:
        first = (proc.stderr or proc.stdout).strip().splitlines()[:1]
        why = f"{' '.join(argv)}: exit {proc.returncode} {first[0] if first else ''}"
        return ToolOutput(False, proc.stdout, why.strip())
    return ToolOutput(True, proc.stdout)
