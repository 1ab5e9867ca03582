"""NVIDIA profiler command lines (``nsys profile``, ``ncu``, ``nvprof``) -> ``rocprofv3`` (``data/profilers.csv``).

:func:`profiler_change` reads the words of one command (as the shell reader gives them) and returns where the
profiler's own part ends (the profiled command starts), the rocprofv3 words that replace it, and the options
that have no counterpart. rocprofv3 takes the profiled command after ``--``. Before ROCm 6.2 (no rocprofv3)
nothing is rewritten; the command is reported.

Where the profiler's options end is read from ``data/profiler_options.csv`` (every option and whether it takes
the next word as its value): an option in neither table is not guessed, the line is reported instead
(:attr:`ProfilerChange.unsure`). :func:`report_reader` names the commands that read a report the rewritten line
no longer writes (``nsys stats rep.nsys-rep``, ``ncu --import rep.ncu-rep``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from cuda2rocm.datafiles import packaged_csv
from cuda2rocm.knowledge import versions
from cuda2rocm.source.formats.shell import Word

TOOLS = ("nsys", "ncu", "nvprof")
#: the first ROCm release with rocprofv3 (rocprofiler-sdk docs start at docs-6.2.0)
ROCPROFV3_SINCE = "6.2"


@dataclass(frozen=True)
class _Row:
    tool: str
    option: str
    value: bool
    action: str
    rocm: str
    note: str


@functools.lru_cache(maxsize=1)
def _table() -> dict[tuple[str, str], _Row]:
    return {(r["tool"], r["option"]): _Row(r["tool"], r["option"], r["value"] == "yes", r["action"], r["rocm"],
                                           r["note"]) for r in packaged_csv("cuda2rocm.migrate.deploy",
                                                                            "data/profilers.csv")}


@functools.lru_cache(maxsize=1)
def _arity() -> dict[tuple[str, str], bool]:
    """(tool, option) -> whether the option takes the next word as its value (``data/profiler_options.csv``)."""
    return {(r["tool"], r["option"]): r["value"] == "yes"
            for r in packaged_csv("cuda2rocm.migrate.deploy", "data/profiler_options.csv")}


def takes_value(tool: str, option: str) -> bool | None:
    """Whether ``option`` of ``tool`` takes a value; None when neither table knows the option."""
    row = _table().get((tool, option))
    return row.value if row is not None else _arity().get((tool, option))


@dataclass(frozen=True)
class ProfilerChange:
    tool: str
    end: int  # index of the first word of the profiled command (len(words) when none)
    replacement: tuple[str, ...]  # rocprofv3 words, ending with "--"
    unmapped: tuple[tuple[str, str], ...] = field(default_factory=tuple)  # (option as written, why)
    note: str = ""
    unsure: str = ""  # an option whose value count no table knows: the line is reported, not rewritten


def tool_of(word: str) -> str:
    """``nsys``, ``ncu`` or ``nvprof`` for a command word (a path to it too), else ""."""
    name = word.rsplit("/", 1)[-1]
    return name if name in TOOLS else ""


def profiler_change(words: Sequence[Word], rocm: str) -> ProfilerChange | None:
    """The rocprofv3 form of ``words`` (``words[0]`` the profiler); None when it is not one or has no
    profiled command, or when ``rocm`` predates rocprofv3."""
    tool = tool_of(words[0].value) if words else ""
    if not tool or versions.key(rocm) < versions.key(ROCPROFV3_SINCE):
        return None
    table = _table()
    base = table[(tool, "")]
    out: list[str] = base.rocm.split()
    unmapped: list[tuple[str, str]] = []
    counters: list[str] = []  # --pmc counters for mapped ncu metrics
    i = 1
    if tool == "nsys":
        if i < len(words) and words[i].value != "profile":
            return None  # nsys stats, nsys export ...: not a profiled run
        i += 1
    while i < len(words) and words[i].value.startswith("-") and words[i].value != "--":
        name, eq, value = words[i].value.partition("=")
        row = table.get((tool, name))
        takes = takes_value(tool, name)
        if takes is None and not eq:  # its value, if any, would be read as the profiled program
            return ProfilerChange(tool, i, (), unsure=name)
        if takes and not eq:
            value = words[i + 1].value if i + 1 < len(words) else ""
            i += 1
        written = f"{name}={value}" if eq or takes else name
        i += 1
        if row is None:
            unmapped.append((written, f"{tool} option with no rocprofv3 counterpart known"))
        elif name in ("-t", "--trace"):
            for part in filter(None, value.split(",")):
                part_row = table.get((tool, f"trace:{part}"))
                if part_row is None or part_row.action == "report":
                    unmapped.append((f"{name} {part}", part_row.note if part_row else "no rocprofv3 trace of it"))
        elif name == "--metrics" and tool == "ncu":
            for metric in filter(None, value.split(",")):
                m_row = table.get((tool, f"metric:{metric}"))
                if m_row is not None and m_row.action == "map":
                    counters.append(m_row.rocm)
                elif m_row is None or m_row.action == "report":
                    unmapped.append((f"--metrics {metric}", m_row.note if m_row else "an Nsight metric with no "
                                     "rocprof counter known: choose counters (rocprofv3 --list-avail) or use "
                                     "rocprof-compute"))
        elif row.action == "map" and not (name == "--stats" and value.lower() in ("false", "0")):
            if tool == "ncu" and name in ("-k", "--kernel-name") and value.startswith("regex:"):
                value = value[len("regex:"):]  # ncu's regular-expression filter; rocprofv3's is one always
            out.extend(token.replace("{v}", value) for token in row.rocm.split())  # a value keeps its blanks
        elif row.action == "report":
            unmapped.append((written, row.note))
    if i < len(words) and words[i].value == "--":
        i += 1
    if i >= len(words):
        return None
    if counters:
        out.extend(["--pmc", *dict.fromkeys(counters)])
    return ProfilerChange(tool, i, ("rocprofv3", *out, "--"), tuple(unmapped), base.note)


#: report files of NVIDIA's profilers (what a rewritten line no longer writes)
REPORT_SUFFIXES = (".nsys-rep", ".qdrep", ".ncu-rep", ".nvvp", ".sqlite")


def report_reader(words: Sequence[Word]) -> str:
    """Why a profiler command that reads a report, not a profiled run, needs a person (``nsys stats|export|analyze
    rep.nsys-rep``, ``ncu -i rep.ncu-rep``, ``nvprof -i f.nvvp``), else ""."""
    tool = tool_of(words[0].value) if words else ""
    values = [w.value for w in words[1:]]
    reads = [v for v in values if v.endswith(REPORT_SUFFIXES)]
    if tool == "nsys" and values and values[0] in ("stats", "export", "analyze", "recipe"):
        what = f"nsys {values[0]}"
    elif tool in ("ncu", "nvprof") and any(v.split("=")[0] in ("-i", "--import", "--import-profile")
                                           for v in values):
        what = f"{tool} --import"
    else:
        return ""
    named = f" {reads[0]}" if reads else ""
    return (f"{what} reads an NVIDIA profiler report{named}; the migrated profiling line (rocprofv3) writes its "
            "own results (--stats: *_stats.csv, --output-format csv|json|pftrace) instead: read those, or open "
            "the pftrace in ui.perfetto.dev")
