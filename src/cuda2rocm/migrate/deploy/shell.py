"""``migrate deploy`` for shell scripts and Slurm/PBS batch files (kind ``shell``: .sh, .bash, .slurm, .sbatch, .pbs).

Everything goes through the shell reader (:func:`cuda2rocm.source.formats.shell.read_shell`: quoting,
continuations, comments and here-documents respected), and every edit replaces whole words it found there:

- environment assignments (``export A=1``, ``A=1 cmd``, ``env A=1 cmd``, ``mpirun -x A``) as
  :func:`cuda2rocm.migrate.deploy.environment.env_change` decides (rename, add, drop, keep and report);
- ``module load cuda/... nccl/... cudnn/...`` -> ``module load rocm/<version>`` (site module names vary: the
  finding says so);
- ``#SBATCH``/``srun`` GPU requests: counts kept, reported (gres names are the site's);
- ``nvidia-smi ...`` -> ``amd-smi ...`` (:func:`~cuda2rocm.migrate.deploy.environment.smi_change`), also inside
  ``$(...)`` substitutions;
- ``docker run --gpus ...`` -> the ROCm device flags (:func:`cuda2rocm.migrate.deploy.images.docker_run_flags`).

Here-document bodies fed to a shell or written out by ``cat``/``tee`` are migrated as scripts of their own. A
script the reader cannot read (an unterminated quote) is reported with its line and left byte-identical.

``generate`` writes ``cuda2rocm-validation/validate.slurm`` with ``--validation-job``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import PurePosixPath

from cuda2rocm import knowledge
from cuda2rocm.knowledge import versions
from cuda2rocm.migrate.base import Collector, FileMigration
from cuda2rocm.migrate.deploy import environment as E
from cuda2rocm.migrate.deploy import images, profilers
from cuda2rocm.migrate.deploy.buildlines import cmake_edits
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.pipinstall import place_pip_changes
from cuda2rocm.migrate.deploy.rules import containers as CR
from cuda2rocm.migrate.deploy.rules import launch as R
from cuda2rocm.migrate.engine import Generated
from cuda2rocm.model import Applicability, Severity
from cuda2rocm.rewrite.runner import FileOutcome
from cuda2rocm.rules import Rule
from cuda2rocm.source.formats._base import Piece
from cuda2rocm.source.formats.shell import (
    HEREDOC,
    OP,
    SEPARATORS,
    WORD,
    LogicalLine,
    Word,
    _subst_end,
    read_shell,
)

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: words after which a command's own words follow (so an assignment or nvidia-smi there starts a command)
_KEYWORDS = frozenset({"if", "then", "elif", "else", "do", "while", "until", "!", "time", "{"})
#: commands that take assignments as words
_DECLARE = frozenset({"export", "declare", "typeset", "readonly", "local"})
#: commands whose here-document body is itself a script (fed to a shell, or written out as a file)
_HEREDOC_SCRIPT = frozenset({"bash", "sh", "zsh", "dash", "ksh", "cat", "tee", "srun", "sbatch", "ssh"})
#: environment modules of the CUDA stack; the first becomes rocm/<version>, the rest go (RCCL and MIOpen ship in ROCm)
_CUDA_MODULES = frozenset({"cuda", "cudatoolkit", "cuda-toolkit", "nccl", "cudnn", "cutensor", "cudnn-cuda"})
_SMI = "nvidia-smi"
#: commands that run their argument as a command (or look it up): nvidia-smi after them is the tool itself
_WRAPPERS = frozenset({"timeout", "exec", "watch", "srun", "sudo", "nohup", "time", "env", "nice", "which", "command",
                       "type", "mpirun", "mpiexec", "xargs", "singularity", "apptainer", "ssh"})


def migrate(rel: str, text: str, options: DeployOptions) -> FileMigration:
    script = read_shell(text)
    if script.problems:
        return FileMigration(rel, problems=script.problems)
    out = Collector(rel, text)
    migrator = _Migrator(out, options, _references(script.tokens))
    migrator.script(text, 0)
    migrator.name_words()
    return out.result()


class _Migrator:
    def __init__(self, out: Collector, options: DeployOptions, read: set[str]) -> None:
        self.out = out
        self.options = options
        self.read = read  # the variables the script expands itself ($NAME, ${NAME...})
        self.siblings: set[str] = set()  # the names the current command assigns
        self.renamed: dict[str, tuple[tuple[str, ...], Rule]] = {}  # variable -> what its assignments became
        self.pending: list[tuple[Word, int, str]] = []  # `export NAME` / `unset NAME` words, done at the end

    def script(self, text: str, base: int) -> None:
        for ln in read_shell(text).lines:
            self.line(ln, text, base)

    def line(self, ln: LogicalLine, text: str, base: int) -> None:
        if ln.comment is not None and ln.comment.src.startswith(("#SBATCH", "#PBS")):
            self.directive(ln.comment.src, base + ln.comment.offset)
        commands = _commands(ln)
        for words, piped in commands:
            self.command(words, ln, text, base, alone=len(commands) == 1, piped=piped)
        feeders = [w.value for words, _ in commands for w in words[:1]]
        if ln.heredocs and any(PurePosixPath(f).name in _HEREDOC_SCRIPT for f in feeders):
            for body in ln.heredocs:
                self.script(body.src, base + body.offset)

    # -- one simple command -------------------------------------------------------------------------------------
    def command(self, words: tuple[Word, ...], ln: LogicalLine, text: str, base: int, alone: bool,
                piped: bool = False) -> None:
        for w in words:
            if w.kind != OP:
                self.substitutions(w, base)
        plain = [w for w in words if w.kind != OP]
        i = 0
        while i < len(plain) and plain[i].value in _KEYWORDS:
            i += 1
        start = i
        while i < len(plain) and _assignment(plain[i]) is not None:
            i += 1
        prefix = plain[start:i]
        rest = plain[i:]
        self.siblings = {a[0] for w in plain if (a := _assignment(w)) is not None}
        head = PurePosixPath(rest[0].value).name if rest else ""
        if head in _DECLARE or head == "unset":
            for w in rest[1:]:
                if w.src == w.value and _NAME.fullmatch(w.value):
                    self.pending.append((w, base, head))
        if head in _DECLARE:
            assigns = [w for w in rest[1:] if _assignment(w) is not None]
            flags = [w for w in rest[1:] if w.value.startswith("-")]
            for w in assigns:
                self.assignment(w, base, sole=alone and not prefix and len(assigns) == 1 and not flags
                                and len(rest) == 2 and ln.comment is None and not ln.heredocs, ln=ln, text=text,
                                others=len(assigns) + len(flags) > 1)
            return
        if head == "env":
            for w in rest[1:]:
                if _assignment(w) is None:
                    break
                self.assignment(w, base, sole=False, ln=ln, text=text, others=True)
        for w in prefix:
            self.assignment(w, base, sole=alone and not rest and len(prefix) == 1 and ln.comment is None
                            and not ln.heredocs, ln=ln, text=text, others=bool(rest) or len(prefix) > 1)
        if not rest:
            return
        if head in ("module", "ml"):
            self.module(rest, base)
        elif head in ("mpirun", "mpiexec", "orterun"):
            self.mpirun(rest, base)
        elif head == "srun":
            self.gpu_request(rest, base, "srun")
            self.srun_export(rest, base)
        elif head == "docker" and len(rest) > 1 and rest[1].value in ("run", "create"):
            self.docker(rest, base)
        elif profilers.tool_of(head):
            self.profiler(rest, base)
        elif images.is_pip_install([w.value for w in rest]):
            for e in images.wheel_index_edits(rest, self.options.rocm_version):
                self.out.edit(R.WHEEL_INDEX, base + e.start, base + e.end, e.replacement, e.message)
            place_pip_changes(self.out, self.out.text, rest, self.options.stack, R.WHEEL_INDEX, base)
        elif head in ("cmake", "cmake3"):
            edits, reports = cmake_edits(rest, self.options)
            for e in edits:
                self.out.edit(CR.CMAKE_COMMAND, base + e.start, base + e.end, e.replacement, e.message)
            for at, message in reports:
                self.out.report(CR.CMAKE_COMMAND, base + at, message)
        self.smi(words, plain[start] if start < len(plain) else None, bool(prefix), piped, base, head)

    def substitutions(self, w: Word, base: int) -> None:
        """``$(...)`` and backquoted commands inside a word, migrated as scripts of their own."""
        src, i = w.src, 0
        while i < len(src):
            c = src[i]
            if c == "\\":
                i += 2
                continue
            if c == "'" and not _in_double(src, i):
                j = src.find("'", i + 1)
                i = len(src) if j < 0 else j + 1
                continue
            if src.startswith("$(", i) and not src.startswith("$((", i):
                end = _subst_end(src, i + 2, "(")
                if end < 0:
                    return
                self.script(src[i + 2 : end - 1], base + w.offset + i + 2)
                i = end
                continue
            if c == "`":
                close = src.find("`", i + 1)
                if close < 0:
                    return
                inner = src[i + 1 : close]
                if "\\" not in inner:  # backslashes inside backquotes are the outer shell's: left to a person
                    self.script(inner, base + w.offset + i + 1)
                i = close + 1
                continue
            i += 1

    # -- environment ---------------------------------------------------------------------------------------------
    def assignment(self, w: Word, base: int, *, sole: bool, ln: LogicalLine, text: str, others: bool) -> None:
        parsed = _assignment(w)
        if parsed is None:
            return
        name, value_src = parsed
        change = E.env_change(name, _unquoted(value_src), gfx=self.options.gfx)
        if change is None:
            return
        at = base + w.offset
        if change.action == E.RENAME and name in self.read:
            self.out.report(change.rule, at, f"{change.message}; not renamed: the script reads ${name} itself "
                            f"(rename the assignment together with its uses)")
        elif change.action == E.RENAME:
            self.renamed.setdefault(name, (tuple(n for n, _ in change.new), change.rule))
            written = " ".join(change.written(value_src, shlex.quote))
            self.out.edit(change.rule, at, at + len(w.src), written, change.message, change.applicability)
        elif change.action == E.ADD and all(n in self.siblings for n, _ in change.new):
            return  # added by an earlier run
        elif change.action == E.ADD:
            written = " ".join(change.written(value_src, shlex.quote))
            self.out.edit(change.rule, at + len(w.src), at + len(w.src), " " + written, change.message,
                          change.applicability)
        elif change.action == E.DROP and sole:
            start, end = _whole_lines(text, ln)
            self.out.edit(change.rule, base + start, base + end, "", change.message)
        elif change.action == E.DROP and others:
            start, end = _word_and_space(text, w.offset, w.end)
            self.out.edit(change.rule, base + start, base + end, "", change.message)
        elif change.action == E.DROP:
            self.out.report(change.rule, at, change.message.replace(": removed", ": remove it")
                            .replace(" removed:", " can go:"))
        else:
            self.out.report(change.rule, at, change.message)

    def srun_export(self, words: Sequence[Word], base: int) -> None:
        """``srun --export=ALL,NAME=VALUE,NAME``: the names forwarded, as ``mpirun -x`` (a plain word only)."""
        for w in words:
            if not w.src.startswith("--export=") or w.src != w.value:
                continue
            items = w.src[len("--export="):].split(",")
            new_items: list[str] = []
            changes = []
            for item in items:
                name, eq, value = item.partition("=")
                change = E.env_change(name, value, gfx=self.options.gfx) if _NAME.fullmatch(name) else None
                if change is None or change.action not in (E.RENAME, E.DROP) or name in self.read:
                    new_items.append(item)
                    if change is not None:
                        changes.append(change)
                    continue
                changes.append(change)
                if change.action == E.RENAME:
                    new_items += change.written(value) if eq else [n for n, _ in change.new]
            new = "--export=" + ",".join(new_items)
            if new != w.src and shlex.quote(new) != new:  # a new value needs quoting: not inside this list
                self.out.report(R.LAUNCHER_ENV, base + w.offset, f"srun {w.src}: would become {new}, which needs "
                                "quoting: change it by hand")
            elif new != w.src:
                self.out.edit(R.LAUNCHER_ENV, base + w.offset, base + w.end, new,
                              f"srun {w.src} -> {new}: " + "; ".join(c.message for c in changes if c.edits),
                              Applicability.UNSAFE if any(c.applicability is Applicability.UNSAFE for c in changes)
                              else Applicability.SAFE)
            for c in changes:
                if not c.edits:
                    self.out.report(c.rule, base + w.offset, f"srun --export: {c.message}")

    def name_words(self) -> None:
        """``export NAME`` / ``unset NAME`` of a variable whose assignments in this script were renamed: the same
        names (after the whole script is seen, so an ``unset`` before the assignment follows it too)."""
        for w, base, head in self.pending:
            if w.value not in self.renamed:
                continue
            names, rule = self.renamed[w.value]
            new = " ".join(names)
            self.out.edit(rule, base + w.offset, base + w.end, new,
                          f"{head} {w.value} -> {head} {new} (as its assignment)", Applicability.SAFE)

    def mpirun(self, words: Sequence[Word], base: int) -> None:
        """``-x NAME`` / ``-x NAME=VALUE``: the names forwarded to the ranks."""
        for k, w in enumerate(words[:-1]):
            if w.value != "-x":
                continue
            arg = words[k + 1]
            name, eq, _ = arg.value.partition("=")
            if not _NAME.fullmatch(name):
                continue
            change = E.env_change(name, arg.value[len(name) + 1:] if eq else "", gfx=self.options.gfx)
            if change is None:
                continue
            at = base + arg.offset
            if change.action == E.RENAME and arg.src == arg.value and not eq:
                names = [n for n, _ in change.new]
                self.out.edit(R.LAUNCHER_ENV, at, at + len(arg.src), " -x ".join(names),
                              f"mpirun -x {name}: {change.message}", change.applicability)
            elif change.action == E.RENAME and arg.src.startswith(name + "="):
                written = " -x ".join(change.written(arg.src[len(name) + 1:], shlex.quote))
                self.out.edit(R.LAUNCHER_ENV, at, at + len(arg.src), written, f"mpirun -x {name}: {change.message}",
                              change.applicability)
            elif change.action == E.DROP:
                start, end = _word_and_space(self.out.text, base + w.offset, at + len(arg.src))
                self.out.edit(change.rule, start, end, "", f"mpirun -x: {change.message}")
            else:
                self.out.report(change.rule, at, f"mpirun -x: {change.message}")

    # -- modules, Slurm ------------------------------------------------------------------------------------------
    def module(self, words: Sequence[Word], base: int) -> None:
        if len(words) < 3 or words[1].value not in ("load", "add", "try-load", "swap"):
            if len(words) >= 2 and words[0].value == "ml" and words[1].value not in ("unload", "purge", "avail"):
                self._modules(words[1:], base)
            return
        self._modules(words[2:], base)

    def _modules(self, words: Sequence[Word], base: int) -> None:
        stack = [w for w in words if w.src == w.value and w.value.split("/")[0].lower() in _CUDA_MODULES]
        if not stack:
            return
        rocm = f"rocm/{self.options.rocm_version}"
        first = stack[0]
        note = ("site module names vary (check `module avail rocm`); RCCL, MIOpen and the math libraries are part of "
                "the ROCm module")
        self.out.edit(R.MODULE_LOAD, base + first.offset, base + first.end, rocm,
                      f"module {first.value} -> {rocm}: {note}", Applicability.UNSAFE)
        text = self.out.text
        for w in stack[1:]:
            start = base + w.offset
            while start > 0 and text[start - 1] in " \t":
                start -= 1
            self.out.edit(R.MODULE_LOAD, start, base + w.end, "", f"module {w.value} removed: part of {rocm}")

    def directive(self, src: str, at: int) -> None:
        """An ``#SBATCH`` (or ``#PBS``) line: its GPU request."""
        body = src[len("#SBATCH"):] if src.startswith("#SBATCH") else src[len("#PBS"):]
        words = [w for w in read_shell(body).lines[0].words] if body.strip() and read_shell(body).lines else []
        shifted = [Word(w.kind, w.src, w.offset + len(src) - len(body)) for w in words]
        self.gpu_request(shifted, at, "#SBATCH" if src.startswith("#SBATCH") else "#PBS")

    def gpu_request(self, words: Sequence[Word], base: int, where: str) -> None:
        for k, w in enumerate(words):
            opt, eq, val = w.value.partition("=")
            if not eq and k + 1 < len(words) and opt in ("--gres", "--gpus-per-node", "--gpus", "-G",
                                                         "--gpus-per-task"):
                val = words[k + 1].value
            if where == "#PBS":
                for item in w.value.split(":"):
                    if item.startswith(("ngpus=", "gpus=")):
                        self._gres(item, "", base + w.offset, where)
            elif opt == "--gres":
                for item in val.split(","):
                    parts = item.split(":")
                    if parts[0] != "gpu":
                        continue
                    gtype = parts[1] if len(parts) == 3 else (parts[1] if len(parts) == 2 and not
                                                              parts[1].isdigit() else "")
                    self._gres(item, gtype, base + w.offset, where)
            elif opt in ("--gpus-per-node", "--gpus", "-G", "--gpus-per-task") and val:
                gtype = val.split(":")[0] if ":" in val else ""
                self._gres(f"{opt}={val}", gtype, base + w.offset, where)

    def _gres(self, request: str, gtype: str, at: int, where: str) -> None:
        gpu = knowledge.get_gpu(gtype) if gtype else None
        if gpu is not None and gpu.vendor.lower() == "nvidia":
            self.out.report(R.SLURM_GPUS, at, f"{where} {request}: {gtype} is an NVIDIA GPU type; request the AMD "
                            "partition's GPU type (its gres.conf names it) with the same count",
                            severity=Severity.MEDIUM)
        else:
            self.out.report(R.SLURM_GPUS, at, f"{where} {request}: GPU count kept; gres and partition names are "
                            "site-defined: check that the AMD partition's gres is called gpu")

    # -- docker --------------------------------------------------------------------------------------------------
    def docker(self, words: Sequence[Word], base: int) -> None:
        """``docker run``/``create`` through the one mapping of docker's NVIDIA options
        (:func:`cuda2rocm.migrate.deploy.images.docker_run_flags`, ``data/runtime_flags.csv``)."""
        for e in images.docker_run_flags(words, self.options.gfx):
            start, end = base + e.start, base + e.end
            if not e.replacement:
                start, end = _word_and_space(self.out.text, start, end)
            self.out.edit(e.rule or R.DOCKER_GPUS, start, end, e.replacement,
                          e.message + (f"; {e.review}" if e.review else ""))
        image = images.docker_run_image(words, self.options)
        if image is not None:
            word, choice = image
            if choice is None:
                self.out.report(R.DOCKER_GPUS, base + word.offset, f"{word.value} is an NVIDIA image the knowledge "
                                "base has no ROCm counterpart for: run a ROCm build of it")
            else:
                note = f" ({'; '.join(choice.notes)})" if choice.notes else ""
                self.out.edit(R.DOCKER_GPUS, base + word.offset, base + word.end, choice.ref,
                              f"{word.value} -> {choice.ref}: the container runs the ROCm image{note}",
                              Applicability.UNSAFE if not choice.exact else Applicability.SAFE)

    # -- profilers ----------------------------------------------------------------------------------------------
    def profiler(self, words: Sequence[Word], base: int) -> None:
        """``nsys profile`` / ``ncu`` / ``nvprof`` -> ``rocprofv3 ... --`` (``migrate/deploy/profilers.py``)."""
        rocm = self.options.rocm_version
        change = profilers.profiler_change(words, rocm)
        tool = profilers.tool_of(words[0].value)
        if change is None:
            if versions.key(rocm) < versions.key(profilers.ROCPROFV3_SINCE) and len(words) > 1:
                self.out.report(R.PROFILER, base + words[0].offset, f"{tool} profiles NVIDIA GPUs; ROCm {rocm} has "
                                "no rocprofv3 (6.2 and later): use rocprof --hip-trace --stats by hand")
            elif why := profilers.report_reader(words):
                self.out.report(R.PROFILER, base + words[0].offset, why)
            return
        if change.unsure:
            self.out.report(R.PROFILER, base + words[0].offset, f"{tool} option {change.unsure}: cuda2rocm does not "
                            "know whether it takes a value, so where the profiled command starts is unknown: not "
                            "rewritten; write the rocprofv3 line by hand (docs/migrate.md, Profiling commands)")
            return
        start, end = base + words[0].offset, base + words[change.end - 1].end
        text = " ".join(shlex.quote(w) for w in change.replacement)
        if self.out.edit(R.PROFILER, start, end, text, f"{tool} -> rocprofv3: {change.note}",
                         applicability=Applicability.UNSAFE):
            for option, why in change.unmapped:
                self.out.report(R.PROFILER_OPTION, start, f"{tool} {option} left out: {why}")

    # -- nvidia-smi ----------------------------------------------------------------------------------------------
    def smi(self, words: Sequence[Word], first: Word | None, prefixed: bool, piped: bool, base: int,
            head: str) -> None:
        """``nvidia-smi ARGS`` run as the command or through a wrapper (``timeout``, ``srun``, ``command -v``...);
        its arguments end at the first redirection. Named as another command's argument (``grep nvidia-smi``), it
        is reported only."""
        for k, w in enumerate(words):
            if w.kind == OP or PurePosixPath(w.value).name != _SMI:
                continue
            if w is not first and head not in _WRAPPERS:
                self.out.report(R.SMI, base + w.offset, f"nvidia-smi named as an argument of {head}: use amd-smi "
                                "if it runs the tool")
                return
            args = [w]
            for j in range(k + 1, len(words)):
                nxt = words[j]
                if nxt.kind == OP:
                    break
                if nxt.src.isdigit() and j + 1 < len(words) and words[j + 1].kind == OP \
                        and words[j + 1].offset == nxt.end:
                    break  # a file descriptor number (2>&1)
                args.append(nxt)
            at = base + w.offset
            if any("$" in a.src or "`" in a.src for a in args):
                self.out.report(R.SMI_FIELD, at, "nvidia-smi with arguments built at run time: map them to amd-smi "
                                "by hand (amd-smi list / static / metric)")
                return
            change = E.smi_change([a.value for a in args])
            end = base + args[-1].end
            at_start = w is first and not prefixed
            unmapped = change.unmapped
            if change.argv is not None:
                new = " ".join(shlex.quote(a) for a in change.argv)
                if change.header_lines and piped and at_start:  # one line per GPU reaches the pipe, as with -L
                    new += f" | tail -n +{change.header_lines + 1}"
                    unmapped = tuple(u for u in unmapped if u != "--format noheader")
                self.out.edit(R.SMI, at, end, new, change.message, change.applicability)
            elif len(change.commands) > 1 and at_start:
                group = "{ " + "; ".join(" ".join(shlex.quote(a) for a in c) for c in change.commands) + "; }"
                self.out.edit(R.SMI, at, end, group, change.message, change.applicability)
            elif change.commands:
                self.out.report(R.SMI, at, change.message + "; the fields span amd-smi subcommands: split the "
                                "command by hand")
            if unmapped and change.commands:
                self.out.report(R.SMI_FIELD, at, f"no amd-smi counterpart: {', '.join(unmapped)}")
            elif not change.commands:
                self.out.report(R.SMI_FIELD, at, change.message)
            return


def _commands(ln: LogicalLine) -> list[tuple[tuple[Word, ...], bool]]:
    """The simple commands of a logical line, each with whether its output goes into a pipe."""
    out: list[tuple[tuple[Word, ...], bool]] = []
    cur: list[Word] = []
    for w in ln.words:
        if w.kind == OP and w.src in SEPARATORS:
            if cur:
                out.append((tuple(cur), w.src in ("|", "|&")))
            cur = []
        else:
            cur.append(w)
    if cur:
        out.append((tuple(cur), False))
    return out


def _references(tokens: Sequence[Piece]) -> set[str]:
    """The names a script expands (``$NAME``, ``${NAME...}``) in its words and here-document bodies; single-quoted
    text expands nothing."""
    out: set[str] = set()
    for piece in tokens:
        if piece.kind not in (WORD, HEREDOC) or "$" not in piece.src:
            continue
        src, i = piece.src, 0
        while i < len(src):
            c = src[i]
            if c == "\\":
                i += 2
                continue
            if c == "'" and piece.kind == WORD and not _in_double(src, i):
                j = src.find("'", i + 1)
                i = len(src) if j < 0 else j + 1
                continue
            if c == "$":
                m = _NAME.match(src, i + 2 if src.startswith("${", i) else i + 1)
                if m is not None:
                    out.add(m.group(0))
            i += 1
    return out


def _assignment(w: Word) -> tuple[str, str] | None:
    """``(NAME, value source text)`` when the word is an assignment (the name unquoted, before ``=``)."""
    if w.kind == OP:
        return None
    m = _NAME.match(w.src)
    if m is None or not w.src.startswith("=", m.end()):
        return None
    return m.group(0), w.src[m.end() + 1:]


def _unquoted(src: str) -> str:
    lines = read_shell(src).lines
    if not lines or not lines[0].words:
        return ""
    return "".join(w.value for w in lines[0].words)


def _in_double(src: str, i: int) -> bool:
    """Whether position ``i`` of a word's source lies inside double quotes (single quotes are literal there)."""
    inside, k = False, 0
    while k < i:
        c = src[k]
        if c == "\\":
            k += 2
            continue
        if c == '"':
            inside = not inside
        elif c == "'" and not inside:
            j = src.find("'", k + 1)
            k = i if j < 0 else j + 1
            continue
        k += 1
    return inside


def _whole_lines(text: str, ln: LogicalLine) -> tuple[int, int]:
    """The physical lines of a logical line, from the start of its first line through its newline."""
    start = text.rfind("\n", 0, ln.offset) + 1
    nl = text.find("\n", ln.end)
    return start, len(text) if nl < 0 else nl + 1


def _word_and_space(text: str, start: int, end: int) -> tuple[int, int]:
    """``text[start:end]`` (words) with their blanks; a continuation line they held goes with them
    (:func:`cuda2rocm.source.edits.word_removal`)."""
    from cuda2rocm.source.edits import word_removal

    return word_removal(text, start, end, continuation=True)


# -- the Slurm validation job ----------------------------------------------------------------------------------

VALIDATION_PATH = "cuda2rocm-validation/validate.slurm"


def validation_script(options: DeployOptions) -> str:
    """A Slurm batch job: ``options.nodes`` nodes with ``options.gpus_per_node`` GPUs each run ``cuda2rocm comm``
    under torchrun's c10d rendezvous (first node of the allocation as the endpoint), then the project's smoke test
    (``cuda2rocm smoke $SMOKE_TARGET``, once per node), with the RCCL environment set."""
    n, g = options.nodes, options.gpus_per_node
    env = "\n".join(f"# {why}\nexport {name}={value}" for name, value, why in E.RCCL_ENVIRONMENT)
    return f"""#!/bin/bash
# Multi-node validation of the ROCm migration, written by `cuda2rocm migrate deploy --validation-job`.
# Submit on the AMD partition:  sbatch {VALIDATION_PATH}
# Set SMOKE_TARGET to the model factory `cuda2rocm smoke` loads (package.module:factory or script.py:factory).
#SBATCH --job-name=cuda2rocm-validate
#SBATCH --nodes={n}
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node={g}
#SBATCH --exclusive
#SBATCH --time=00:30:00
#SBATCH --output=cuda2rocm-validate-%j.out
set -euo pipefail

# ROCm {options.rocm_version}; GPU targets {';'.join(options.gfx)}
{env}

NODES={n}
GPUS_PER_NODE={g}
RDZV_HOST="$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)"
RDZV_PORT="${{RDZV_PORT:-29500}}"
OUT_DIR="${{OUT_DIR:-cuda2rocm-validation/$SLURM_JOB_ID}}"
# the same job on the CUDA partition with COMM_BACKEND=nccl gives the baseline to compare against
COMM_BACKEND="${{COMM_BACKEND:-rccl}}"
COMM_END="${{COMM_END:-256M}}"
SMOKE_DEVICE="${{SMOKE_DEVICE:-cuda}}"
if [ -z "${{SMOKE_TARGET:-}}" ]; then
    echo "SMOKE_TARGET is not set: export the model factory cuda2rocm smoke should run (package.module:factory)" >&2
    exit 2
fi
mkdir -p "$OUT_DIR"

echo "== GPUs on every node"
srun --ntasks-per-node=1 amd-smi list

echo "== collectives across $NODES nodes x $GPUS_PER_NODE GPUs ($COMM_BACKEND)"
srun --ntasks-per-node=1 bash -c 'exec python -m torch.distributed.run \\
    --nnodes="$0" --nproc-per-node="$1" --node-rank="$SLURM_NODEID" \\
    --rdzv-backend=c10d --rdzv-endpoint="$2" --rdzv-id="cuda2rocm-$SLURM_JOB_ID" \\
    -m cuda2rocm comm --backend "$3" --ops all_reduce,all_gather,reduce_scatter,broadcast \\
    --begin 1M --end "$4" --quiet --out "$5/comm.jsonl" --force' \\
    "$NODES" "$GPUS_PER_NODE" "$RDZV_HOST:$RDZV_PORT" "$COMM_BACKEND" "$COMM_END" "$OUT_DIR"

echo "== smoke test on every node"
srun --ntasks-per-node=1 bash -c \\
    'exec python -m cuda2rocm smoke "$0" --device "$1" --json "$2/smoke-$SLURM_NODEID.json"' \\
    "$SMOKE_TARGET" "$SMOKE_DEVICE" "$OUT_DIR"
echo "validation passed: results in $OUT_DIR"
"""


def generate(outcomes: Sequence[FileOutcome[FileMigration]], options: DeployOptions) -> list[Generated]:
    if not options.validation_job:
        return []
    finding = R.VALIDATION_SCRIPT.finding(
        VALIDATION_PATH, 1, 1, f"Slurm validation job for {options.nodes} nodes x {options.gpus_per_node} GPUs: "
        "cuda2rocm comm over RCCL with torchrun, then cuda2rocm smoke $SMOKE_TARGET on every node")
    return [Generated(VALIDATION_PATH, validation_script(options), (finding,))]
