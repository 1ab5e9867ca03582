"""What kind of file is this? By name first (cheap), refined by content where the name is not enough."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

CUDA_EXT = frozenset({".cu", ".cuh"})
CPP_EXT = frozenset({".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h", ".inl", ".ipp", ".tpp"})
C_EXT = frozenset({".c"})
#: C/C++/CUDA headers: included by other files, so a rewrite of what they define reaches files not seen here
HEADER_EXT = frozenset({".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".ipp", ".tpp"})
BINARY_EXT = {".so": "elf-shared", ".a": "elf-static", ".o": "elf-object", ".whl": "wheel",
              ".cubin": "cubin", ".fatbin": "fatbin", ".ptx": "ptx"}
SHELL_EXT = frozenset({".sh", ".bash", ".slurm", ".sbatch", ".pbs"})
YAML_EXT = frozenset({".yml", ".yaml"})


def is_header(path: str) -> bool:
    """Whether ``path`` names a C/C++/CUDA header (:data:`HEADER_EXT`, any case)."""
    return PurePosixPath(path).suffix.lower() in HEADER_EXT


_SO_VERSIONED = re.compile(r"\.so(\.\d+)+$")
_NAMES = {
    "CMakeLists.txt": "cmake", "Makefile": "make", "makefile": "make", "GNUmakefile": "make",
    "BUILD": "bazel", "BUILD.bazel": "bazel", "WORKSPACE": "bazel", "WORKSPACE.bazel": "bazel",
    "MODULE.bazel": "bazel", "pyproject.toml": "pyproject", "Pipfile": "pipfile", "Jenkinsfile": "ci",
    "Containerfile": "dockerfile", ".gitlab-ci.yml": "ci", "devcontainer.json": "devcontainer",
    ".devcontainer.json": "devcontainer", ".bazelrc": "bazelrc",
}
#: languages whose files are binary and analysed from the file itself
BINARY_LANGS = frozenset({"binary"})


def classify(rel: str) -> str | None:
    """Language of a file from its path alone; ``None`` when the scanner has nothing to say about it."""
    p = PurePosixPath(rel)
    name, suffix = p.name, p.suffix.lower()
    if name in _NAMES:
        return _NAMES[name]
    if suffix in CUDA_EXT:
        return "cuda"
    if suffix in CPP_EXT:
        return "cpp"
    if suffix in C_EXT:
        return "c"
    if suffix == ".py":
        return "python"
    if suffix in BINARY_EXT or _SO_VERSIONED.search(name):
        return "binary"
    return _by_pattern(p, name, suffix)


def _by_pattern(p: PurePosixPath, name: str, suffix: str) -> str | None:
    lower = name.lower()
    if lower.startswith(("dockerfile", "containerfile")) or lower.endswith(".dockerfile"):
        return "dockerfile"
    if suffix == ".cmake":
        return "cmake"
    if suffix == ".mk":
        return "make"
    if suffix == ".bzl":
        return "bazel"
    if suffix == ".bazelrc":
        return "bazelrc"
    if lower.startswith(("requirements", "constraints")) and suffix in (".txt", ".in"):
        return "requirements"
    if p.parent.name == "requirements" and suffix in (".txt", ".in"):
        return "requirements"
    if suffix in SHELL_EXT:
        return "shell"
    if suffix in YAML_EXT:
        return _yaml_kind(p, lower)
    return None


def _yaml_kind(p: PurePosixPath, lower: str) -> str:
    parts = p.parts
    if len(parts) >= 3 and parts[-3] == ".github" and parts[-2] == "workflows":
        return "ci"
    if lower.startswith(("environment", "conda")):
        return "conda"
    if lower.startswith(("docker-compose", "compose")):
        return "compose"
    if lower.startswith("values") or "charts" in parts or "templates" in parts:
        return "helm"
    return "yaml"


_K8S = re.compile(r"^apiVersion:\s*\S+", re.MULTILINE)


def refine_yaml(language: str, text: str) -> str:
    """Plain ``yaml`` files that are Kubernetes manifests become ``k8s``."""
    if language == "yaml" and _K8S.search(text) and re.search(r"^kind:\s*\S+", text, re.MULTILINE):
        return "k8s"
    return language


def is_test_path(rel: str) -> bool:
    p = PurePosixPath(rel)
    stem = p.stem.lower()
    in_tests = any(part in ("tests", "test", "testing") for part in p.parts[:-1])
    return in_tests or stem.startswith("test_") or stem.endswith(("_test", "_tests"))


def is_benchmark_path(rel: str) -> bool:
    lower = rel.lower()
    return any(word in lower for word in ("benchmark", "bench/", "benches/", "perf/", "bench_"))
