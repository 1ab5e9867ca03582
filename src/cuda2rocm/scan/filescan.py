"""Scan one file: read it (or say why not), pick its analyzer, apply suppressions. Never raises."""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable

from cuda2rocm.batch import gc_paused
from cuda2rocm.files.classify import refine_yaml
from cuda2rocm.files.walk import Candidate
from cuda2rocm.model import InputProblem
from cuda2rocm.scan import rocm_path, suppress
from cuda2rocm.scan.analyzers import (
    bazelrc,
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
from cuda2rocm.scan.filefacts import FileFacts, Record
from cuda2rocm.scan.reading import read_text
from cuda2rocm.source.tokens import count_lines

TextAnalyzer = Callable[[FileFacts, str], None]
#: analyzers that yield records: (text, path) -> records
RecordAnalyzer = Callable[[str, str], Iterable[Record]]


def _collected(analyzer: RecordAnalyzer) -> TextAnalyzer:
    """A record analyzer as a text analyzer: its records (one ROCm-path finding at most) go into the report."""
    def run(report: FileFacts, text: str) -> None:
        report.collect(rocm_path.first_sign(analyzer(text, report.path)))

    return run


def _text_only(analyzer: Callable[[str], Iterable[Record]]) -> RecordAnalyzer:
    return lambda text, _path: analyzer(text)


_RECORDS: dict[str, RecordAnalyzer] = {
    "requirements": _text_only(packages.scan_requirements_file),
    "pyproject": _text_only(manifests.scan_pyproject),
    "pipfile": _text_only(manifests.scan_pipfile),
    "conda": _text_only(manifests.scan_conda),
    "dockerfile": _text_only(dockerfile.scan_dockerfile),
    "devcontainer": _text_only(devcontainer.scan_devcontainer),
    "cmake": _text_only(build.scan_cmake),
    "make": _text_only(build.scan_make),
    "bazel": _text_only(build.scan_bazel),
    "bazelrc": _text_only(bazelrc.scan_bazelrc),
    "shell": lambda text, _path: shell.scan_text(text),
    **dict.fromkeys(("ci", "compose", "k8s", "helm", "yaml"), yamlfiles.scan_yaml),
}
_TEXT: dict[str, TextAnalyzer] = {k: _collected(v) for k, v in _RECORDS.items()}  # python: its own call (the target)


def scan_file(cand: Candidate, target_gpu: str, max_bytes: int, disabled: frozenset[str] = frozenset(), *,
              included: bool = False) -> FileFacts:
    """``included``: a CUDA file includes this C/C++ file (its code is read as device code)."""
    report = FileFacts(cand.rel, cand.language)
    try:
        with gc_paused():
            _scan(report, cand, target_gpu, max_bytes, included)
    except Exception as exc:  # the per-file boundary: a bug in one analyzer must not stop the scan
        where = traceback.extract_tb(exc.__traceback__)[-1]
        report.problems.append(InputProblem(cand.rel, f"internal error while scanning ({type(exc).__name__}: {exc} "
                                            f"at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})", 0,
                                            {"internal": "1"}))
    if disabled:
        report.findings = [f for f in report.findings if f.rule not in disabled]
    return report


def _scan(report: FileFacts, cand: Candidate, target_gpu: str, max_bytes: int, included: bool) -> None:
    if cand.language == "binary" or cand.rel.endswith((".ptx", ".whl", ".cubin", ".fatbin")):
        binary.scan_binary(report, cand.abspath)
        report.language = "binary"
        return
    text = read_text(cand.abspath, cand.size, max_bytes, report)
    if text is None:
        return
    report.lines = count_lines(text)
    if cand.language == "jenkins" or cand.rel.endswith("Jenkinsfile"):
        _TEXT["shell"](report, text)
    elif cand.language in ("cuda", "cpp", "c"):
        cxx.scan_cxx(report, text, target_gpu, included=included)
    elif cand.language == "python":
        python.scan_python(report, text, target_gpu)
    else:
        report.language = refine_yaml(cand.language, text)
        _TEXT[report.language](report, text)
    suppress.apply(report, text)
