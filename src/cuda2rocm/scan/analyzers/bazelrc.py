"""``.bazelrc`` files: the CUDA configuration a Bazel build selects, read with the lossless rc reader.

What counts as CUDA and what ``migrate build`` does with it are :mod:`cuda2rocm.migrate.bazel`'s (its option and
environment tables, imported only for an rc file that mentions CUDA): scan reports each CUDA setting where it is
written, the NVIDIA architectures it pins and the CUDA/cuDNN/NCCL versions it names.
"""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.project.bazelfacts import CUDA_ENV, CUDA_REPOS, ROCM_CONFIG_REPLACES, canonical
from cuda2rocm.scan import rules
from cuda2rocm.scan.filefacts import Bad, Fact, Hit, Record
from cuda2rocm.source.formats.bazelrc import ENV_OPTIONS, RcLine, flag_aliases, option_values, read_bazelrc
from cuda2rocm.source.tokens import LineIndex

_WORDS = ("cuda", "CUDA", "nccl", "NCCL", "nvcc", "cudnn", "CUDNN")
#: environment variables that name a version: -> (component kind, component name)
_VERSIONS = {"TF_CUDA_VERSION": ("cuda", "CUDA"), "HERMETIC_CUDA_VERSION": ("cuda", "CUDA"),
             "TF_CUDNN_VERSION": ("cudnn", "cuDNN"), "HERMETIC_CUDNN_VERSION": ("cudnn", "cuDNN"),
             "TF_NCCL_VERSION": ("nccl", "NCCL")}
_ARCH_VARS = ("TF_CUDA_COMPUTE_CAPABILITIES", "HERMETIC_CUDA_COMPUTE_CAPABILITIES")
_MIGRATE = "migrate build adds a rocm config beside the cuda config (C2R-B508)"


def scan_bazelrc(text: str) -> Iterator[Record]:
    if not any(w in text for w in _WORDS):
        return
    rc = read_bazelrc(text)
    for problem in rc.problems:
        yield Bad(rules.E105, problem.message, problem.line)
    index = LineIndex(text)
    aliases = flag_aliases(rc.lines)
    seen_configs: set[str] = set()
    for line in rc.lines:
        if line.kind != "options":
            continue
        if line.config == "cuda" and "cuda" not in seen_configs:
            seen_configs.add("cuda")
            n = len(rc.configs("cuda"))
            yield Hit(rules.S115, line.line, index.line_col(line.offset)[1],
                      f"config cuda ({n} line{'s' if n != 1 else ''} from line {line.line}): {_MIGRATE}")
        yield from _line(line, aliases, index)


def _line(line: RcLine, aliases: dict[str, str], index: LineIndex) -> Iterator[Record]:
    for name, value, first, _last in option_values(line):
        canon = canonical(name, aliases)
        if canon == "--flag_alias":
            continue  # a name for a flag, not a setting
        whole = f"{canon}={value}" if value else canon
        at = index.line_col(first.offset)
        where = f"config {line.config}" if line.config else f"every `{line.command}`"
        var, _, setting = value.partition("=")
        if canon in ENV_OPTIONS:
            if var in _ARCH_VARS:
                yield Hit(rules.S110, *at, f"{canon}={var}={setting}: NVIDIA compute capabilities for {where}; the "
                          "rocm config takes gfx targets (TF_ROCM_AMDGPU_TARGETS)")
            elif var in _VERSIONS:
                kind, component = _VERSIONS[var]
                yield Fact(kind, component, setting, at[0], f"{canon}={value}")
                yield Hit(rules.S101, *at, f"{var}={setting} pins {component} {setting} for {where}")
            elif var in CUDA_ENV and line.config != "cuda":
                yield Hit(rules.S115, *at, f"{canon}={value}: configures the CUDA toolkit for {where}")
        elif canon == "--config" and "cuda" in value:
            what = "makes every build a CUDA one" if not line.config else f"builds config {line.config} on it"
            yield Hit(rules.S115, *at, f"`{line.command} --config={value}` {what}; build AMD GPUs with --config=rocm")
        elif whole in ROCM_CONFIG_REPLACES or any(r in whole for r in CUDA_REPOS):
            if "archs" in canon:
                yield Hit(rules.S110, *at, f"{whole}: NVIDIA architectures for {where}")
            elif line.config != "cuda":  # inside the cuda config the config's own finding says what happens
                yield Hit(rules.S115, *at, f"{whole} selects the CUDA toolchain for {where}")
