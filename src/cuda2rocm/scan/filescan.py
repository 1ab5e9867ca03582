"""Scan one file: read it (or say why not), pick its analyzer, apply suppressions. Never raises."""

from __future__ import annotations

import traceback
from collections.abc import Callable

from cuda2rocm.model import InputProblem
from cuda2rocm.scan import suppress
from cuda2rocm.scan.analyzers import (
    binary,
    build,
    cxx,
    devcontainer,
    dockerfile,
    manifests,
    packages,
    python,
    shell,
    yamlfiles,
)
from cuda2rocm.scan.classify import refine_yaml
from cuda2rocm.scan.filefacts import FileFacts
from cuda2rocm.scan.reading import read_text
from cuda2rocm.scan.walk import Candidate

TextAnalyzer = Callable[[FileFacts, str], None]
_TEXT: dict[str, TextAnalyzer] = {
    "python": python.scan_python,
    "requirements": packages.scan_requirements_file,
    "pyproject": manifests.scan_pyproject,
    "pipfile": manifests.scan_pipfile,
    "conda": manifests.scan_conda,
    "dockerfile": dockerfile.scan_dockerfile,
    "devcontainer": devcontainer.scan_devcontainer,
    "cmake": build.scan_cmake,
    "make": build.scan_make,
    "bazel": build.scan_bazel,
    "shell": shell.scan_text,
    "ci": yamlfiles.scan_yaml,
    "compose": yamlfiles.scan_yaml,
    "k8s": yamlfiles.scan_yaml,
    "helm": yamlfiles.scan_yaml,
    "yaml": yamlfiles.scan_yaml,
}


def scan_file(cand: Candidate, target_gpu: str, max_bytes: int, disabled: frozenset[str] = frozenset()) -> FileFacts:
    report = FileFacts(cand.rel, cand.language)
    try:
        _scan(report, cand, target_gpu, max_bytes)
    except Exception as exc:  # the per-file boundary: a bug in one analyzer must not stop the scan
        where = traceback.extract_tb(exc.__traceback__)[-1]
        report.problems.append(InputProblem(cand.rel, f"internal error while scanning ({type(exc).__name__}: {exc} "
                                            f"at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})", 0,
                                            {"internal": "1"}))
    if disabled:
        report.findings = [f for f in report.findings if f.rule not in disabled]
    return report


def _scan(report: FileFacts, cand: Candidate, target_gpu: str, max_bytes: int) -> None:
    if cand.language == "binary" or cand.rel.endswith((".ptx", ".whl", ".cubin", ".fatbin")):
        binary.scan_binary(report, cand.abspath)
        report.language = "binary"
        return
    text = read_text(cand.abspath, cand.size, max_bytes, report)
    if text is None:
        return
    report.lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if cand.language == "jenkins" or cand.rel.endswith("Jenkinsfile"):
        shell.scan_text(report, text)
    elif cand.language in ("cuda", "cpp", "c"):
        cxx.scan_cxx(report, text, target_gpu)
    else:
        report.language = refine_yaml(cand.language, text)
        _TEXT[report.language](report, text)
    suppress.apply(report, text)
