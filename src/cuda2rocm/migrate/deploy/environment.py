"""The one place that decides what happens to an environment variable assignment in any deploy file (a shell
``export``, a Dockerfile ``ENV``, a Kubernetes ``env:`` entry, a compose ``environment:`` key, a launcher's
``-x NAME``), and to an ``nvidia-smi`` invocation.

:func:`env_change` answers from three data tables: ``migrate/data/env_rewrites.csv`` (CUDA and NVIDIA names with
a ROCm rewrite or a reason to keep them), ``project/data/nccl_classes.csv`` (how RCCL treats each ``NCCL_*``
variable, through :func:`cuda2rocm.project.recognise.nccl_class`, which scan's C2R-D103 reads too) and the
knowledge base's ``env_vars`` table (the general status: honored, analog, no_effect, ...). :func:`smi_change`
maps an ``nvidia-smi`` command line to ``amd-smi`` through ``migrate/data/smi_map.csv``.
Both are pure: callers turn the answer into edits in their own file format.
"""

from __future__ import annotations

import fnmatch
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cuda2rocm import knowledge
from cuda2rocm.migrate.base import _rows
from cuda2rocm.migrate.deploy.rules import launch as R
from cuda2rocm.model import Applicability
from cuda2rocm.project.recognise import (  # noqa: F401 (re-exported: the classes are part of EnvChange)
    FABRIC,
    HONOURED,
    NVLINK,
    PYTORCH,
    RETUNE,
    UNKNOWN,
    NcclClass,
    is_nccl,
    nccl_class,
    nccl_classes,
)
from cuda2rocm.rules import RULES, Rule

RENAME = "rename"  # write ``new`` instead of the assignment
ADD = "add"  # keep the assignment and add ``new`` beside it
DROP = "drop"  # remove the assignment
KEEP = "keep"  # leave it; the finding says why



@dataclass(frozen=True)
class EnvChange:
    """What to do with ``name=value``. ``new``: the assignments to write (``rename``/``add``), each value either a
    string or None for "the original value text as written" (its quoting and expansions kept). ``nccl_class``:
    for ``NCCL_*``/``TORCH_NCCL_*`` names, how RCCL treats it; ``suggest``: RCCL knobs worth trying instead."""

    name: str
    action: str
    new: tuple[tuple[str, str | None], ...]
    rule: Rule
    message: str
    applicability: Applicability
    nccl_class: str = ""
    suggest: tuple[str, ...] = ()

    @property
    def edits(self) -> bool:
        return self.action in (RENAME, ADD, DROP)

    def written(self, original_value: str, quote: Callable[[str], str] = str) -> list[str]:
        """The ``NAME=VALUE`` texts of ``new``, with ``original_value`` (source text, as written) where the value
        is kept and ``quote`` applied to new values (``shlex.quote`` for shell)."""
        return [f"{n}={original_value if v is None else quote(v)}" for n, v in self.new]

    def fix_text(self, original_value: str) -> str:
        """What a person does where the change is reported instead of edited: remove the entry, add the new
        assignments, or nothing (a kept variable)."""
        if self.action == DROP:
            return "remove this entry"
        return f"add {', '.join(self.written(original_value))}" if self.action in (ADD, RENAME) else ""


@dataclass(frozen=True)
class _Rewrite:
    cuda: str
    value: str
    action: str
    rocm: tuple[tuple[str, str], ...]
    rule: str
    applicability: Applicability
    note: str


@functools.lru_cache(maxsize=1)
def _rewrites() -> dict[str, tuple[_Rewrite, ...]]:
    out: dict[str, list[_Rewrite]] = {}
    for r in _rows("env_rewrites.csv"):
        pairs = tuple(tuple(p.split("=", 1)) for p in r["rocm"].split("|") if p)
        out.setdefault(r["cuda"], []).append(_Rewrite(
            r["cuda"], r["value"], r["action"], pairs, r["rule"],  # type: ignore[arg-type]
            Applicability(r["applicability"]), r["note"]))
    return {k: tuple(v) for k, v in out.items()}


def _nccl(name: str) -> EnvChange:
    c = nccl_class(name)
    note = f" ({c.note})" if c.note else ""
    try_ = f"; try RCCL's {', '.join(c.suggest)}" if c.suggest else ""
    if c.klass == NVLINK:
        return EnvChange(name, DROP, (), R.NCCL_NVLINK, f"{name} configures an NVIDIA-only path{note}; RCCL does "
                         "not act on it on AMD GPUs: removed", Applicability.SAFE, c.klass)
    if c.klass == RETUNE:
        return EnvChange(name, KEEP, (), R.NCCL_RETUNE, f"{name} is NCCL tuning{note}: RCCL reads the name, but a "
                         "value tuned on NVIDIA hardware cannot be applied to RCCL as is; measure without it "
                         f"(cuda2rocm comm){try_}", Applicability.MANUAL, c.klass, c.suggest)
    if c.klass == FABRIC:
        return EnvChange(name, KEEP, (), R.NCCL_FABRIC, f"{name} names the cluster's network{note}: RCCL reads it; "
                         "check the value against the AMD nodes' NICs", Applicability.MANUAL, c.klass)
    if c.klass == PYTORCH:
        return EnvChange(name, KEEP, (), R.NCCL_HONOURED, f"{name} is read by PyTorch's c10d{note}, which drives "
                         "RCCL on ROCm builds: kept", Applicability.SAFE, c.klass)
    if c.klass == HONOURED:
        return EnvChange(name, KEEP, (), R.NCCL_HONOURED, f"{name}: RCCL reads the same name with the same "
                         "meaning: kept", Applicability.SAFE, c.klass)
    return EnvChange(name, KEEP, (), R.NCCL_UNKNOWN, f"{name} is not among RCCL's documented variables: check "
                     "that your RCCL version reads it", Applicability.MANUAL, UNKNOWN)


def _value(text: str, value: str, gfx: Sequence[str]) -> str | None:
    if text == "$":
        return None
    return text.replace("{gfx}", ";".join(gfx)) if "{gfx}" in text else text


def env_change(name: str, value: str = "", *, gfx: Sequence[str] = ("gfx90a", "gfx942")) -> EnvChange | None:
    """What to do with the assignment ``name=value`` (``value`` unquoted, as the program sees it) on the way to
    ROCm; None when the variable is not a GPU-stack setting this knows. ``gfx``: the AMD targets (for
    ``TORCH_CUDA_ARCH_LIST``)."""
    if is_nccl(name):
        return _nccl(name)
    for rw in _rewrites().get(name, ()):
        if not fnmatch.fnmatchcase(value, rw.value):
            continue
        new = tuple((n, _value(v, value, gfx)) for n, v in rw.rocm)
        rule = RULES[rw.rule]
        shown = ", ".join(n if v is None and not value else f"{n}={value if v is None else v}" for n, v in new)
        if rw.action == RENAME:
            msg = f"{name} -> {shown}: {rw.note}"
        elif rw.action == ADD:
            msg = f"{name} kept, {shown} added: {rw.note}"
        elif rw.action == DROP:
            msg = f"{name}={value} removed: {rw.note}"
        else:
            msg = f"{name}: {rw.note}"
        return EnvChange(name, rw.action, new, rule, msg, rw.applicability)
    if name.startswith(("CUDA_", "PYTORCH_CUDA_", "CUBLAS_", "CUDNN_", "NVIDIA_")):
        var = knowledge.get_env_var(name)
        if var is not None and var.status in ("honored", "alias"):
            return EnvChange(name, KEEP, (), R.HONOURED, f"{name}: ROCm reads the same name"
                             + (f" ({var.note})" if var.note else ""), Applicability.SAFE)
        if var is not None and var.rocm:
            return EnvChange(name, KEEP, (), R.NO_COUNTERPART, f"{name} has no direct ROCm counterpart; closest: "
                             f"{'; '.join(var.rocm)}", Applicability.MANUAL)
        return EnvChange(name, KEEP, (), R.NO_COUNTERPART, f"{name} has no known ROCm counterpart"
                         + (f" ({var.note.rstrip('.')})" if var is not None and var.note else "")
                         + ": it does nothing on AMD",
                         Applicability.MANUAL)
    return None


#: the RCCL environment a generated multi-node job starts from (each name documented by RCCL; values explained)
RCCL_ENVIRONMENT: tuple[tuple[str, str, str], ...] = (
    ("NCCL_DEBUG", "WARN", "RCCL's log level (INFO shows the rings, channels and transports it chose)"),
    ("NCCL_SOCKET_IFNAME", "${NCCL_SOCKET_IFNAME:-}", "the bootstrap network interface: set it to the nodes' "
     "interface (e.g. ib0 or eth0) where the default pick is wrong"),
    ("NCCL_IB_HCA", "${NCCL_IB_HCA:-}", "the InfiniBand/RoCE adapters RCCL may use (empty: all)"),
    ("HSA_FORCE_FINE_GRAIN_PCIE", "1", "lets RCCL use peer-to-peer over PCIe where GPUs are not linked by XGMI"),
    ("RCCL_MSCCL_ENABLE", "1", "RCCL's MSCCL algorithms (used where RCCL supports them, e.g. MI300X)"),
)


@dataclass(frozen=True)
class SmiChange:
    """An ``nvidia-smi`` command line mapped to ``amd-smi``: ``argv`` the replacement words (None: no faithful
    translation, keep it), ``commands`` more than one when the fields span amd-smi subcommands, ``unmapped`` the
    options and fields with no counterpart, ``message`` the explanation."""

    argv: tuple[str, ...] | None
    commands: tuple[tuple[str, ...], ...]
    unmapped: tuple[str, ...]
    message: str
    applicability: Applicability
    header_lines: int = 0  # lines amd-smi prints before the per-GPU lines that nvidia-smi has none of


@dataclass(frozen=True)
class _Smi:
    kind: str
    nvidia: str
    amd: str
    flag: str
    column: str
    note: str


@functools.lru_cache(maxsize=1)
def _smi() -> dict[tuple[str, str], _Smi]:
    return {(r["kind"], r["nvidia"]): _Smi(**r) for r in _rows("smi_map.csv")}


def smi_field(field: str) -> _Smi | None:
    """The amd-smi counterpart of an ``nvidia-smi --query-gpu`` field (its ``amd`` is empty when there is none)."""
    return _smi().get(("field", field))


def _split_option(word: str) -> tuple[str, str | None]:
    if word.startswith("--") and "=" in word:
        opt, _, val = word.partition("=")
        return opt, val
    return word, None


def smi_change(argv: Sequence[str], *, probe: bool = False) -> SmiChange:
    """Map ``nvidia-smi ARGS`` (``argv[0]`` the program, the rest unquoted words) to amd-smi: the one mapping of
    every deploy file. ``probe``: the command checks that GPUs are reachable and logs them (a Dockerfile
    ``RUN``/``HEALTHCHECK``, a CI step), where its exit status is what counts and nothing parses its output: bare
    ``nvidia-smi`` and ``nvidia-smi -L`` become ``amd-smi list`` (which fails when no GPU is reachable; the CSV
    form of ``-L`` is for scripts that count or parse the lines)."""
    table = _smi()
    args = list(argv[1:])
    if probe and args in ([], ["-L"], ["--list-gpus"]):
        new = ("amd-smi", "list")
        return SmiChange(new, (new,), (), f"{' '.join(argv)} -> amd-smi list: lists the GPUs and fails when none is "
                         "reachable", Applicability.SAFE)
    unmapped: list[str] = []
    fields: list[str] = []
    options: list[str] = []
    command = table[("command", "")]
    fmt_csv = False
    i = 0
    while i < len(args):
        word = args[i]
        opt, val = _split_option(word)
        takes = opt in ("-i", "--id", "--query-gpu", "--format", "--query-compute-apps", "-f", "--filename") or (
            opt in ("-l", "--loop") and i + 1 < len(args) and args[i + 1].isdigit())
        if val is None and takes and i + 1 < len(args):
            val = args[i + 1]
            i += 1
        i += 1
        if opt == "--query-gpu":
            fields += [f.strip() for f in (val or "").split(",") if f.strip()]
        elif opt == "--format":
            parts = [p.strip() for p in (val or "").split(",")]
            fmt_csv = "csv" in parts
            unmapped += [f"--format {p}" for p in parts if p in ("noheader", "nounits")]
        elif ("command", opt) in table and command is table[("command", "")]:
            command = table[("command", opt)]
        elif ("option", opt) in table:
            row = table[("option", opt)]
            if row.amd:
                options += [row.amd, *([val] if val is not None else [])]
        else:
            unmapped.append(word)
    if not command.amd:
        return SmiChange(None, (), (command.nvidia, *unmapped), f"nvidia-smi {command.nvidia} has no amd-smi "
                         f"counterpart ({command.note})", Applicability.MANUAL)
    tail = [*options, *(["--csv"] if fmt_csv else [])]
    if fields:
        groups: dict[str, list[str]] = {}
        columns: list[str] = []
        for f in fields:
            found = smi_field(f)
            if found is None or not found.amd:
                unmapped.append(f + (f" ({found.note})" if found is not None and found.note else ""))
                continue
            flags = groups.setdefault(found.amd, [])
            if found.flag and found.flag not in flags:
                flags.append(found.flag)
            columns.append(f"{f} -> {found.column}")
        if not groups:
            return SmiChange(None, (), tuple(unmapped), "no queried field has an amd-smi counterpart",
                             Applicability.MANUAL)
        commands = tuple(("amd-smi", sub, *flags, *tail) for sub, flags in groups.items())
        msg = (f"nvidia-smi --query-gpu -> {' ; '.join(' '.join(c) for c in commands)} (columns: "
               f"{', '.join(columns)}); amd-smi prints its own column names and units: re-check what parses the output")
        if unmapped:
            msg += f"; no counterpart: {', '.join(unmapped)}"
        # amd-smi's CSV starts with a header line that ``--format=csv,noheader`` left out: a pipe drops it
        header = 1 if fmt_csv and "--format noheader" in unmapped else 0
        return SmiChange(commands[0] if len(commands) == 1 else None, commands, tuple(unmapped), msg,
                         Applicability.UNSAFE, header)
    # the bare view takes no device or watch options: those belong to a subcommand (metric reports the same values)
    sub = (command.amd,) if command.amd != "amd-smi" else (("metric",) if tail else ())
    always = [command.flag] if command.flag and command.flag not in tail else []
    new = ("amd-smi", *sub, *always, *tail)
    msg = f"{' '.join(argv)} -> {' '.join(new)}" + (f" ({command.note})" if command.note else "")
    if unmapped:
        msg += f"; no counterpart: {', '.join(unmapped)}"
    header = 1 if command.nvidia in ("-L", "--list-gpus") else 0
    return SmiChange(new, (new,), tuple(unmapped), msg, Applicability.UNSAFE, header)
