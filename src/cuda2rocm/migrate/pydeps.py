"""Python dependencies for ROCm (C2R-B6xx): requirements files, pyproject.toml, Pipfile, conda environment files.

One decision per requirement string (:func:`plan_spec`, on the lossless requirements reader), placed into each
file format by offset: requirements files through :mod:`~cuda2rocm.source.formats.requirements`, TOML through
:mod:`~cuda2rocm.source.formats.tomldoc` spans, conda files through :mod:`~cuda2rocm.source.formats.yamlnodes`
spans. Nothing is dumped: every edit replaces the few characters it changes (a version, a URL segment, a name),
or removes a whole line or array element, so comments, quoting and order stay byte for byte.

What comes from where: the ROCm wheel indexes of PyTorch and the torch releases each carries, with the
torchvision/torchaudio releases that go with them (:mod:`cuda2rocm.knowledge.wheels`); packages to drop or
replace (``migrate/data/python_packages.csv``); the ROCm status and caveats of GPU plugins
(:func:`cuda2rocm.knowledge.get_plugin`).
"""

from __future__ import annotations

import fnmatch
import functools
import posixpath
import re
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from cuda2rocm import knowledge
from cuda2rocm.knowledge import versions, wheels
from cuda2rocm.knowledge.lookup import norm_pip
from cuda2rocm.migrate import rules as R
from cuda2rocm.migrate.base import BuildOptions, Collector, FileMigration, _rows
from cuda2rocm.model import Applicability, Edit, Fix, Severity
from cuda2rocm.rules import Rule
from cuda2rocm.source.formats.requirements import REQUIREMENT_NAME, RequirementLine, read_requirements
from cuda2rocm.source.formats.tomldoc import TomlDocument, read_toml
from cuda2rocm.source.formats.yamlnodes import MAPPING, SCALAR, SEQUENCE, Node, read_yaml

#: scan's file kinds this module migrates
KINDS = ("requirements", "pyproject", "pipfile", "conda")
TORCH = "torch"
COMPANIONS = ("torchvision", "torchaudio")
INDEX_OPTIONS = frozenset({"-i", "--index-url", "--extra-index-url", "-f", "--find-links"})
INCLUDE_OPTIONS = frozenset({"-r", "--requirement", "-c", "--constraint"})
_SUPPORT_SEVERITY = {"none": Severity.HIGH, "deprecated_project": Severity.HIGH, "amd_fork": Severity.MEDIUM,
                     "alternative": Severity.MEDIUM, "upstream_partial": Severity.MEDIUM,
                     "native_upstream": Severity.LOW, "native_amd": Severity.LOW}
_SUPPORT_WORDS = {"none": "has no ROCm support", "deprecated_project": "is no longer maintained",
                  "amd_fork": "runs on ROCm from AMD's fork", "alternative": "is replaced by another package on ROCm",
                  "upstream_partial": "supports ROCm in part", "native_upstream": "supports ROCm upstream",
                  "native_amd": "has an AMD-maintained ROCm build"}
#: conda packages that select CUDA (removed) and conda's PyTorch packages (reported)
CONDA_CUDA = frozenset({"pytorch-cuda", "cudatoolkit", "cudatoolkit-dev", "cuda-toolkit", "cuda-version",
                        "cuda-nvcc", "cuda-runtime", "cuda-cudart", "cuda-libraries", "cuda-libraries-dev",
                        "cudnn", "nccl"})
CONDA_TORCH = frozenset({"pytorch", "torchvision", "torchaudio"})


# ---- the target -----------------------------------------------------------------------------------------------

@dataclass
class Target:
    """The wheel index of one run and what a file has used of it (for the once-per-file findings)."""

    choice: wheels.IndexChoice
    used_at: int | None = None  # first offset where the index or a pin was rewritten

    @property
    def index(self) -> wheels.WheelIndex:
        return self.choice.index


def target(options: BuildOptions) -> Target:
    """The wheel index of the run's target stack."""
    return Target(wheels.index_for(options.stack.rocm))


# ---- the package table ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PackageRow:
    name: str
    action: str
    replacement: str
    rocm: tuple[str, ...]
    note: str


@functools.lru_cache(maxsize=1)
def package_rows() -> tuple[PackageRow, ...]:
    return tuple(PackageRow(r["name"], r["action"], r["replacement"], tuple(filter(None, r["rocm"].split("|"))),
                            r["note"]) for r in _rows("python_packages.csv"))


def package_row(name: str) -> PackageRow | None:
    pip = norm_pip(name)
    return next((r for r in package_rows() if fnmatch.fnmatchcase(pip, r.name)), None)


# ---- one requirement ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Change:
    """Replace ``spec[start:end]``; ``start``/``end`` relative to the requirement string."""

    start: int
    end: int
    replacement: str
    rule: Rule
    message: str
    severity: Severity | None = None


@dataclass
class SpecPlan:
    """What to do with one requirement string: edits inside it, or drop it whole; findings without edits."""

    changes: list[Change] = field(default_factory=list)
    drop: tuple[Rule, str] | None = None
    reports: list[tuple[Rule, int, str, Severity | None]] = field(default_factory=list)
    torch_family: bool = False

    @property
    def pinned_release_changed(self) -> bool:
        return bool(self.changes)


def rewrite_url(url: str, tgt: Target) -> Change | None:
    """The ``cuXXX`` segment of a PyTorch CUDA wheel index URL -> ``rocmX.Y`` (offsets inside ``url``)."""
    m = wheels.CUDA_INDEX.search(url)
    if m is None:
        return None
    cuda = f"{m.group(2)[:-1]}.{m.group(2)[-1]}"
    rocm = tgt.index.rocm
    return Change(m.start(1), m.end(1), f"rocm{rocm}", R.PY_WHEEL_INDEX,
                  f"PyTorch's CUDA {cuda} wheel index -> its ROCm {rocm} index")


def _exact(ln: RequirementLine) -> tuple[str, int] | None:
    """The version of an ``==``/``===`` pin and its offset inside the requirement string."""
    req = ln.requirement
    if req is None or ln.specifier is None or ln.spec is None:
        return None
    specs = list(req.specifier)
    if len(specs) != 1 or specs[0].operator not in ("==", "===") or specs[0].version.endswith(".*"):
        return None
    version = specs[0].version
    at = ln.specifier.src.find(version) if version else -1
    if at < 0:
        return None
    return version, ln.specifier.offset - ln.spec.offset + at


def plan_spec(spec: str, tgt: Target) -> SpecPlan | None:
    """The decision for one requirement string (``None``: not a requirement this module reads)."""
    doc = read_requirements(spec)
    reqs = doc.requirements
    if doc.problems or len(reqs) != 1 or reqs[0].name is None or reqs[0].spec is None:
        return None
    ln = reqs[0]
    assert ln.name is not None and ln.spec is not None
    name = norm_pip(ln.name.src)
    base = ln.spec.offset
    out = SpecPlan(torch_family=name == TORCH or name in COMPANIONS)
    if out.torch_family:
        _torch_pin(ln, name, base, tgt, out)
        return out
    row = package_row(name)
    if row is not None and row.action == "drop":
        out.drop = (R.PY_NVIDIA_WHEEL, f"{ln.name.src} is {row.note}: removed")
        return out
    if row is not None and row.action == "replace":
        want = versions.key(tgt.choice.target)
        if not row.rocm or any(want[:len(versions.key(r))] == versions.key(r) for r in row.rocm):
            stop = max(p.end for p in (ln.name, ln.extras, ln.specifier) if p is not None) - base
            out.changes.append(Change(ln.name.offset - base, stop, row.replacement, R.PY_PACKAGE_REPLACED,
                                      f"{ln.name.src}: {row.note}; replaced by {row.replacement}"))
            return out
        out.reports.append((R.PY_GPU_PLUGIN, ln.name.offset - base, _plugin_message(
            name, ln.name.src, f"{ln.name.src} is {row.note}, not for ROCm {tgt.choice.target}: not replaced"),
            Severity.MEDIUM))
        return out
    plugin = knowledge.get_plugin(name)
    if plugin is not None:
        support = _SUPPORT_SEVERITY.get(plugin.rocm_support, Severity.MEDIUM)
        out.reports.append((R.PY_GPU_PLUGIN, ln.name.offset - base, _plugin_message(name, ln.name.src), support))
        return out
    pin = _exact(ln)
    if pin is not None and "+" in pin[0] and wheels.CUDA_LOCAL.search(pin[0].split("+", 1)[1]):
        out.reports.append((R.PY_GPU_PLUGIN, ln.name.offset - base, f"{ln.name.src}=={pin[0]} is a CUDA build; "
                            "cuda2rocm knows no ROCm build of it: build it from source or find its ROCm wheels",
                            Severity.MEDIUM))
    return out


def wheel_file(url: str) -> tuple[str, str, str] | None:
    """(name, version, file name) of a wheel file's URL (PEP 427 names: ``torch-2.4.1+cu124-cp311-...whl``); None
    when ``url`` names no wheel file."""
    path = urllib.parse.unquote(url.split("#", 1)[0].split("?", 1)[0])
    filename = path.rsplit("/", 1)[-1]
    parts = filename[:-4].split("-") if filename.endswith(".whl") else []
    return (norm_pip(parts[0]), parts[1], filename) if len(parts) >= 5 else None


def cuda_wheel(url: str, tgt: Target) -> tuple[str, Rule, str] | None:
    """A CUDA build's wheel file named by its URL: (the requirement that replaces it, "" when none is known; the
    rule; the message). PyTorch's own wheels become a pin of the ROCm index's release; any other is reported."""
    found = wheel_file(url)
    if found is None:
        return None
    name, version, filename = found
    local = version.partition("+")[2]
    if not (wheels.CUDA_INDEX.search(url) or (local and wheels.CUDA_LOCAL.search(local))):
        return None
    if name == TORCH or name in COMPANIONS:
        spec = f"{name}=={version}"
        plan = plan_spec(spec, tgt)
        for ch in sorted(plan.changes if plan is not None else [], key=lambda c: -c.start):
            spec = spec[:ch.start] + ch.replacement + spec[ch.end:]
        if "+cu" in spec:  # no release known for it: the index's own
            spec = f"{name}=={tgt.index.torch[0]}" if name == TORCH else name
        rule = R.PY_TORCH_BUILD if name == TORCH else R.PY_TORCH_COMPANION
        return spec, rule, (f"{filename} is a CUDA build's wheel file: {spec} from PyTorch's ROCm index "
                            f"({tgt.index.url}) instead")
    lead = f"{filename} is a CUDA build's wheel file; cuda2rocm knows no ROCm wheel of {name}"
    return "", R.PY_GPU_PLUGIN, _plugin_message(name, name, lead) or f"{lead}: build it from source or find its " \
        "ROCm wheels"


def _plugin_message(name: str, written: str, lead: str = "") -> str:
    """``written`` (the package as the file names it) with its ROCm status, replacement and first caveat."""
    plugin = knowledge.get_plugin(name)
    head = f"{lead}; " if lead else ""
    if plugin is None:
        return lead
    parts = [f"{head}{written} {_SUPPORT_WORDS.get(plugin.rocm_support, plugin.rocm_support)} (knowledge base: "
             f"{plugin.key})"]
    if plugin.replacement:
        parts.append(f"ROCm: {plugin.replacement}")
    if plugin.caveats:
        parts.append(plugin.caveats[0])
    elif plugin.facts:
        parts.append(plugin.facts[0])
    return "; ".join(p.rstrip(". ") for p in parts)


def _torch_pin(ln: RequirementLine, name: str, base: int, tgt: Target, out: SpecPlan) -> None:
    assert ln.name is not None
    index = tgt.index
    rule = R.PY_TORCH_BUILD if name == TORCH else R.PY_TORCH_COMPANION
    if ln.url is not None:
        if wheels.CUDA_INDEX.search(ln.url.src) or re.search(r"(?:\+|%2B)cu\d", ln.url.src):
            out.reports.append((rule, ln.name.offset - base, f"{ln.name.src} is installed from a CUDA wheel's URL: pin "
                                f"a release of {index.url} instead", None))
        return
    pin = _exact(ln)
    if pin is None:
        req = ln.requirement
        if req is not None and name == TORCH and str(req.specifier) and not any(
                req.specifier.contains(v, prereleases=True) for v in index.torch):
            out.reports.append((rule, ln.name.offset - base, f"{ln.name.src}{req.specifier}: no torch release on "
                                f"{index.url} satisfies it (it carries {', '.join(index.torch)})", None))
        return
    version, at = pin
    release, _, local = version.partition("+")
    if local.startswith("rocm"):
        return  # a ROCm build already
    if name == TORCH:
        wanted: str | None = release
    else:
        wanted = wheels.torch_for(name, release)
        if wanted is None:
            out.reports.append((rule, ln.name.offset - base, f"{ln.name.src}=={version}: cuda2rocm does not know which "
                                f"torch release it goes with; pin the one for {index.url}", None))
            return
    assert wanted is not None
    chosen = wheels.nearest_torch(index, wanted)
    if name == TORCH:
        new_release = chosen
    else:
        pair = wheels.companions(chosen)
        if pair is None:
            return
        new_release = pair[COMPANIONS.index(name)]
    new = new_release + (index.local_tag if local else "")
    if new == version:
        return
    if chosen == wanted:
        message = f"{ln.name.src} {version}: the ROCm {index.rocm} build is {new}"
        severity: Severity | None = Severity.LOW
    else:
        carried = ", ".join(index.torch)
        message = (f"{ln.name.src} {version}: the ROCm {index.rocm} index has no build of torch {wanted} (it carries "
                   f"{carried}); pinned to {new}, the nearest: check what changed between the releases")
        severity = None
    out.changes.append(Change(at, at + len(version), new, rule, message, severity))


# ---- shared placement -----------------------------------------------------------------------------------------

class _File:
    """A Collector plus the per-file bookkeeping of the B609/B610 findings."""

    def __init__(self, rel: str, text: str, options: BuildOptions, urls: Iterable[str] = ()) -> None:
        """``urls``: the index URLs the file names. A file that names a ROCm index of PyTorch and no CUDA one is
        on ROCm already: its pins follow that index, not the target."""
        self.out = Collector(rel, text)
        self.text = text
        self.tgt = target(options)
        self.stack = options.stack
        urls = list(urls)
        rocm = [m.group(1) for u in urls if (m := wheels.ROCM_INDEX.search(u))]
        if rocm and not any(wheels.CUDA_INDEX.search(u) for u in urls):
            self.tgt = Target(wheels.IndexChoice(wheels.index_for(rocm[0]).index, rocm[0], True))
        self.torch_at: int | None = None  # first torch-family requirement
        self.rocm_index = False  # the file names a ROCm index of PyTorch (after migration)

    def apply(self, base: int, plan: SpecPlan, drop: tuple[int, int] | None = None) -> bool:
        """Place ``plan`` for a requirement starting at ``base``; ``drop``: the span that removes it (None: it
        cannot be removed, so it is reported). True when a pinned release or name changed."""
        if plan.torch_family and self.torch_at is None:
            self.torch_at = base
        for ch in plan.changes:
            if self.edit(ch.rule, base + ch.start, base + ch.end, ch.replacement, ch.message, ch.severity):
                self._used(base + ch.start)
        for rule, at, message, severity in plan.reports:
            self.out.report(rule, base + at, message, severity=severity)
        if plan.drop is not None:
            rule, message = plan.drop
            if drop is None:
                self.out.report(rule, base, message.replace(": removed", ": remove it"))
            else:
                self.out.edit(rule, drop[0], drop[1], "", message)
        return plan.pinned_release_changed

    def edit(self, rule: Rule, start: int, end: int, replacement: str, message: str,
             severity: Severity | None = None) -> bool:
        """An edit and its finding (at ``severity`` when given); False when it overlaps an earlier edit."""
        if not self.out.free(start, end):
            return False
        edit = Edit(start, end, replacement, rule.id)
        self.out.add_edit(edit)
        self.out.report(rule, start, message, edit=edit, severity=severity)
        return True

    def url(self, base: int, url: str) -> None:
        if (m := wheels.ROCM_INDEX.search(url)) is not None:
            self.rocm_index = True
            if wheels.index_for(m.group(1)).index.rocm != self.stack.index_rocm:
                self.out.report(R.PY_OTHER_ROCM, base + m.start(1), f"PyTorch's ROCm {m.group(1)} index; the target "
                                f"stack is ROCm {self.stack.rocm} (torch {self.stack.torch} from "
                                f"{self.stack.index_url}): move the index and the pins, or give --target-rocm "
                                f"{m.group(1)}")
            return
        ch = rewrite_url(url, self.tgt)
        if ch is not None and self.out.edit(ch.rule, base + ch.start, base + ch.end, ch.replacement, ch.message):
            self.rocm_index = True
            self._used(base + ch.start)

    def _used(self, offset: int) -> None:
        if self.tgt.used_at is None or offset < self.tgt.used_at:
            self.tgt.used_at = offset

    def result(self, index_hint: str) -> FileMigration:
        tgt = self.tgt
        if tgt.used_at is not None and not tgt.choice.exact:
            self.out.report(R.PY_NEAREST_ROCM, tgt.used_at, f"the knowledge base lists no PyTorch wheel index for "
                            f"ROCm {tgt.choice.target}; the nearest, {tgt.index.url}, stands in")
        if self.torch_at is not None and not self.rocm_index:
            self.out.report(R.PY_NO_INDEX, self.torch_at, "torch comes from PyPI here (CUDA builds on Linux) unless "
                            "the install or an including file names the ROCm index: "
                            + index_hint.format(url=tgt.index.url))
        return self.out.result()


def _line_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``[start, end)`` widened to whole lines when nothing else is on them but blanks, a ``-`` list marker and
    a trailing comment; ``None`` otherwise."""
    head = text.rfind("\n", 0, start) + 1
    if text[head:start].strip(" \t-") != "" or text[head:start].count("-") > 1:
        return None
    j = end
    while j < len(text) and text[j] in " \t,":
        j += 1
    if j < len(text) and text[j] == "#":
        nl = text.find("\n", j)
        j = len(text) if nl < 0 else nl
    if j < len(text) and text[j] == "\r":
        j += 1
    if j < len(text) and text[j] != "\n":
        return None
    return head, min(j + 1, len(text))


# ---- requirements files ---------------------------------------------------------------------------------------

def migrate_requirements(rel: str, text: str, options: BuildOptions) -> FileMigration:
    doc = read_requirements(text)
    if doc.problems:
        return FileMigration(rel, problems=doc.problems)
    f = _File(rel, text, options, (opt.value.src for ln in doc.lines for opt in ln.options
                                   if opt.name.src in INDEX_OPTIONS and opt.value is not None))
    for ln in doc.lines:
        if ln.kind == "option" or ln.editable:
            for opt in ln.options:
                if opt.name.src in INDEX_OPTIONS and opt.value is not None:
                    f.url(opt.value.offset, opt.value.src)
            continue
        if ln.spec is not None and ln.name is None:  # a bare URL: a wheel file of a CUDA build?
            _wheel_line(f, text, ln)
            continue
        if ln.spec is None or ln.name is None:
            continue
        plan = plan_spec(ln.spec.src, f.tgt)
        if plan is None:
            continue
        if f.apply(ln.spec.offset, plan, _requirement_line(text, ln)) and ln.hashes:
            _drop_hashes(f.out, text, ln)
    return f.result("add `--extra-index-url {url}`")


def _wheel_line(f: _File, text: str, ln: RequirementLine) -> None:
    """A requirement given as a wheel file's URL: PyTorch's CUDA wheels become the ROCm index's pins, others of
    CUDA builds are reported."""
    assert ln.spec is not None
    found = cuda_wheel(ln.spec.src, f.tgt)
    if found is None:
        return
    spec, rule, message = found
    if not spec:
        f.out.report(rule, ln.spec.offset, message, severity=Severity.MEDIUM)
        return
    if f.torch_at is None:
        f.torch_at = ln.spec.offset
    if f.edit(rule, ln.spec.offset, ln.spec.end, spec, message) and ln.hashes:
        _drop_hashes(f.out, text, ln)


def _requirement_line(text: str, ln: RequirementLine) -> tuple[int, int] | None:
    """The whole logical line of a requirement, with the indented comment lines after it (pip-compile's
    ``# via`` annotations)."""
    span = _line_span(text, ln.offset, ln.end)
    if span is None:
        return None
    head, end = span
    while end < len(text):
        nl = text.find("\n", end)
        line = text[end: len(text) if nl < 0 else nl]
        if not (line[:1] in (" ", "\t") and line.lstrip().startswith("#")):
            break
        end = len(text) if nl < 0 else nl + 1
    return head, end


def _drop_hashes(out: Collector, text: str, ln: RequirementLine) -> None:
    """Remove the ``--hash`` options of a requirement whose release changed (each with the blanks and line
    continuations before it), and say that they must be regenerated."""
    assert ln.spec is not None
    items: list[tuple[int, int, bool]] = [(ln.spec.offset, ln.spec.end, False)]
    for opt in ln.options:
        stop = opt.value.end if opt.value is not None else opt.name.end
        items.append((opt.name.offset, stop, opt.name.src == "--hash"))
    edits: list[Edit] = []
    for k, (_, stop, is_hash) in enumerate(items):
        if k and is_hash:  # consecutive hashes are one edit, from the end of what they follow
            if edits and edits[-1].end == items[k - 1][1]:
                edits[-1] = Edit(edits[-1].start, stop, "", R.PY_HASHES.id)
            else:
                edits.append(Edit(items[k - 1][1], stop, "", R.PY_HASHES.id))
    edits = [e for e in edits if out.add_edit(e) is not None]
    if edits:
        count = len(ln.hashes)
        _fixed(out, R.PY_HASHES, ln.spec.offset, f"{count} --hash option(s) of {ln.spec.src.split()[0]} pinned "
               "the old release's files and were removed: regenerate the hashes (pip-compile --generate-hashes)",
               f"removed {count} --hash option(s)", edits)


def _fixed(out: Collector, rule: Rule, offset: int, message: str, fix: str, edits: list[Edit]) -> None:
    """A finding whose safe fix is several edits already added (hashes of one requirement, a renamed entry)."""
    line, col = out.lines.line_col(offset)
    out.findings.append(rule.finding(out.path, line, col, message, fix=fix,
                                     remedy=Fix(fix, tuple(edits), Applicability.SAFE)))


def includes(text: str) -> Iterator[str]:
    """The files a requirements file includes (``-r``/``-c``), as written."""
    for ln in read_requirements(text).lines:
        for opt in ln.options:
            if opt.name.src in INCLUDE_OPTIONS and opt.value is not None and "://" not in opt.value.src:
                yield opt.value.src


@dataclass(frozen=True)
class Includes:
    """``extra``: included files the plan did not hold (named otherwise: ``-r base.txt``); ``covered``: files
    included from a file that names a PyTorch wheel index, whose own lack of one is then no finding (pip applies
    an index option of any file to the whole install)."""

    extra: frozenset[str] = frozenset()
    covered: frozenset[str] = frozenset()

    def adjust(self, migration: FileMigration) -> FileMigration:
        if migration.path not in self.covered:
            return migration
        kept = tuple(f for f in migration.findings if f.rule != R.PY_NO_INDEX.id)
        return FileMigration(migration.path, migration.edits, kept, migration.problems)


def names_torch_index(text: str) -> bool:
    """Whether a requirements file names a wheel index of PyTorch (CUDA or ROCm)."""
    return any(opt.name.src in INDEX_OPTIONS and opt.value is not None and (
        wheels.CUDA_INDEX.search(opt.value.src) or wheels.ROCM_INDEX.search(opt.value.src))
        for ln in read_requirements(text).lines for opt in ln.options)


def follow_includes(roots: Iterable[str], planned: set[str], read: Callable[[str], str | None]) -> Includes:
    """Follow ``-r``/``-c`` from the requirements files ``roots`` (paths relative to the tree; ``read`` gives a
    file's text, None when it cannot be read or does not exist)."""
    extra: set[str] = set()
    covered: set[str] = set()
    seen: set[tuple[str, bool]] = set()
    texts: dict[str, str | None] = {}

    def text_of(rel: str) -> str | None:
        if rel not in texts:
            texts[rel] = read(rel)
        return texts[rel]

    todo = [(rel, False) for rel in roots]
    while todo:
        rel, inherited = todo.pop()
        text = text_of(rel)
        if (rel, inherited) in seen or text is None:
            continue
        seen.add((rel, inherited))
        if inherited:
            covered.add(rel)
        has_index = inherited or names_torch_index(text)
        for written in includes(text):
            child = include_path(rel, written)
            if child is None or text_of(child) is None:
                continue
            if child not in planned:
                extra.add(child)
            todo.append((child, has_index))
    return Includes(frozenset(extra), frozenset(covered))


def include_path(rel: str, written: str) -> str | None:
    """An include relative to the including file (pip's rule), '/' separated; ``None`` outside the tree."""
    path = posixpath.normpath(posixpath.join(posixpath.dirname(rel), written))
    return None if path.startswith("../") or path == ".." or posixpath.isabs(path) else path


# ---- TOML: pyproject.toml and Pipfile -------------------------------------------------------------------------

def _toml_string(doc: TomlDocument, path: tuple[str | int, ...]) -> tuple[int, str, int, int] | None:
    """(offset of the content, content, start, end of the string with its quotes) of a one-line TOML string
    without escapes; None for any other value."""
    span = doc.span(*path)
    if span is None or len(span.src) < 2 or span.src[:3] in ('"""', "'''") or span.src[0] not in "\"'":
        return None
    content = span.src[1:-1]
    if span.src[0] == '"' and "\\" in content:
        return None
    return span.offset + 1, content, span.offset, span.end


def _array_element(text: str, start: int, end: int) -> tuple[int, int]:
    """The span that removes one element of a TOML array: its whole line, or the element with one comma."""
    line = _line_span(text, start, end)
    if line is not None:
        return line
    j = end
    while j < len(text) and text[j] in " \t":
        j += 1
    if j < len(text) and text[j] == ",":
        j += 1
        while j < len(text) and text[j] in " \t":
            j += 1
        return start, j
    k = start
    while k > 0 and text[k - 1] in " \t":
        k -= 1
    return (k - 1, end) if k > 0 and text[k - 1] == "," else (start, end)


def _toml_array(f: _File, doc: TomlDocument, path: tuple[str | int, ...]) -> None:
    items = doc.item(*path)
    if not isinstance(items, list):
        return
    for i in range(len(items)):
        found = _toml_string(doc, (*path, i))
        if found is None:
            continue
        at, spec, start, end = found
        plan = plan_spec(spec, f.tgt)
        if plan is not None:
            drop = _array_element(f.text, start, end)
            # the comma before a last element may be gone with the element before it: then the element alone
            f.apply(at, plan, drop if f.out.free(*drop) else (start, end))


def _toml_urls(doc: TomlDocument, paths: Iterable[tuple[str | int, ...]]) -> list[tuple[int, str]]:
    """(offset, URL) of each string at ``paths`` (a URL string or an array of them)."""
    out = []
    for path in paths:
        value = doc.item(*path)
        for p in [(*path, i) for i in range(len(value))] if isinstance(value, list) else [path]:
            found = _toml_string(doc, p)
            if found is not None:
                out.append((found[0], found[1]))
    return out


def _toml_file(rel: str, text: str, options: BuildOptions, doc: TomlDocument,
               paths: Iterable[tuple[str | int, ...]]) -> _File:
    urls = _toml_urls(doc, paths)
    f = _File(rel, text, options, (u for _, u in urls))
    for at, url in urls:
        f.url(at, url)
    return f


def _tables(doc: TomlDocument, path: tuple[str | int, ...]) -> int:
    value = doc.item(*path)
    return len(value) if isinstance(value, list) else 0


def _name_table(f: _File, doc: TomlDocument, path: tuple[str | int, ...]) -> None:
    """``name = "==1.0"`` / ``name = {version = "1.0", index = "x"}`` tables (Pipfile packages, Poetry
    dependencies): versions rewritten inside their string, entries removed as whole lines."""
    table = doc.item(*path)
    if not isinstance(table, dict):
        return
    for name in list(table):
        if name == "python" or not isinstance(name, str):
            continue
        key = doc.key_span(*path, name)
        if key is None:
            continue
        value = table[name]
        vpath = (*path, name) if isinstance(value, str) else (*path, name, "version")
        found = _toml_string(doc, vpath) if isinstance(value, str) or (
            isinstance(value, dict) and isinstance(value.get("version"), str)) else None
        version = found[1].strip() if found is not None else "*"
        op = "" if version == "*" else "==" if version[:1].isdigit() else ""
        poetry_range = version[:1] == "^" or (version[:1] == "~" and version[:2] != "~=")
        spec = name if version == "*" or poetry_range else f"{name}{op}{version}"  # ^2.1: classified, not pinned
        plan = plan_spec(spec, f.tgt)
        if plan is None:
            continue
        end = f.text.find("\n", key.offset)
        changes, plan.changes = plan.changes, []
        f.apply(key.offset, plan, _line_span(f.text, key.offset, len(f.text) if end < 0 else end))
        if not changes or found is None:
            continue
        ch = changes[0]
        if ch.rule is R.PY_PACKAGE_REPLACED:  # the key is renamed; the version (the old package's) freed
            edits = [Edit(key.offset, key.end, ch.replacement, ch.rule.id),
                     Edit(found[0], found[0] + len(found[1]), "*", ch.rule.id)]
            if key.src == name and all(f.out.free(e.start, e.end) for e in edits):
                for e in edits:
                    f.out.add_edit(e)
                _fixed(f.out, ch.rule, key.offset, ch.message, f"`{name}` -> `{ch.replacement}`, any version", edits)
            continue
        lead = len(found[1]) - len(found[1].lstrip())
        f.apply(found[0] + lead - len(name) - len(op), SpecPlan(changes=changes))


def migrate_pyproject(rel: str, text: str, options: BuildOptions) -> FileMigration:
    doc = read_toml(text)
    if doc.document is None:
        return FileMigration(rel, problems=doc.problems)
    data = doc.data()
    uv = (data.get("tool") or {}).get("uv") or {}
    f = _toml_file(rel, text, options, doc, [
        *(("tool", "uv", key) for key in ("index-url", "extra-index-url", "find-links") if key in uv),
        *(("tool", "uv", "index", i, "url") for i in range(_tables(doc, ("tool", "uv", "index")))),
        *(("tool", "poetry", "source", i, "url") for i in range(_tables(doc, ("tool", "poetry", "source"))))])
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    _toml_array(f, doc, ("project", "dependencies"))
    for extra in (project or {}).get("optional-dependencies", {}) or {}:
        _toml_array(f, doc, ("project", "optional-dependencies", extra))
    for group in data.get("dependency-groups", {}) or {}:
        _toml_array(f, doc, ("dependency-groups", group))
    _toml_array(f, doc, ("tool", "uv", "dev-dependencies"))
    poetry = (data.get("tool") or {}).get("poetry") or {}
    _name_table(f, doc, ("tool", "poetry", "dependencies"))
    for group in poetry.get("group", {}) or {}:
        _name_table(f, doc, ("tool", "poetry", "group", group, "dependencies"))
    return f.result("add a `[[tool.uv.index]]` with `url = \"{url}\"` (or the install's `--extra-index-url`)")


def migrate_pipfile(rel: str, text: str, options: BuildOptions) -> FileMigration:
    doc = read_toml(text)
    if doc.document is None:
        return FileMigration(rel, problems=doc.problems)
    f = _toml_file(rel, text, options, doc, [("source", i, "url") for i in range(_tables(doc, ("source",)))])
    for section in ("packages", "dev-packages"):
        _name_table(f, doc, (section,))
    return f.result("add a `[[source]]` with `url = \"{url}\"`")


# ---- conda environment files ----------------------------------------------------------------------------------

def _scalar_at(text: str, node: Node) -> int | None:
    """Where a scalar's value is written (plain or quoted without escapes); None when it is not verbatim."""
    if node.kind != SCALAR:
        return None
    at = node.offset + (1 if node.style in ("'", '"') else 0)
    return at if text[at: at + len(node.value)] == node.value and node.style in ("", "'", '"') else None


def migrate_conda(rel: str, text: str, options: BuildOptions) -> FileMigration:
    stream = read_yaml(text)
    if stream.problems:
        return FileMigration(rel, problems=stream.problems)
    f = _File(rel, text, options, (url for _, url in _pip_options(stream.documents, text)))
    for doc in stream.documents:
        root = doc.resolved()
        if root.kind != MAPPING:
            continue
        channels = root.get("channels")
        for item in channels.resolved().items if channels is not None and channels.kind == SEQUENCE else []:
            if item.kind == SCALAR and item.value.split("/")[0] == "nvidia":
                _conda_drop(f, item, f"the {item.value} channel serves NVIDIA's CUDA packages: removed")
        deps = root.get("dependencies")
        moved: list[str] = []
        for item in deps.resolved().items if deps is not None and deps.resolved().kind == SEQUENCE else []:
            if item.kind == SCALAR:
                moved += _conda_package(f, item)
        if moved and deps is not None:
            _to_pip(f, root.key_node("dependencies"), deps.resolved(), moved)
    for entry in _pip_lists(stream.documents):
        _pip_entry(f, entry)
    return f.result("add `- --extra-index-url {url}` to the pip: list")


def _to_pip(f: _File, deps_key: Node | None, deps: Node, moved: list[str]) -> None:
    """conda's PyTorch packages, removed, as pins of the ROCm index in the environment's ``pip:`` list (made when
    there is none), with the index unless the list names one. The lines go right after the ``pip:`` (or
    ``dependencies:``) key's line: no other edit touches it."""
    holder = next((i for i in deps.items if i.kind == MAPPING and i.get("pip") is not None), None)
    pips = holder.get("pip") if holder is not None else None
    listed = pips.resolved().items if pips is not None and pips.resolved().kind == SEQUENCE else []
    named = {norm_pip(m.group(0)) for n in listed if n.kind == SCALAR and (m := REQUIREMENT_NAME.match(n.value))}
    moved = [p for p in moved if norm_pip(p.split("=")[0]) not in named]  # the pip: list has its own pin
    options = [_pip_option(f.text, n) for n in listed]
    entries = ([] if any(o is not None for o in options) else [f"--extra-index-url {f.tgt.index.url}"]) + moved
    key = holder.key_node("pip") if holder is not None else deps_key
    items = listed if holder is not None else deps.items
    first = items[0] if items else None
    if not moved or key is None or first is None or first.kind != SCALAR or \
            _line_span(f.text, first.offset, first.end) is None:
        return
    prefix = f.text[f.text.rfind("\n", 0, first.offset) + 1:first.offset]
    if holder is not None:
        lines = [f"{prefix}{e}" for e in entries]
    else:
        inner = " " * (len(prefix) + 2) + "- "
        has_pip = any(i.kind == SCALAR and i.value.split("=")[0] == "pip" for i in deps.items)
        lines = ([] if has_pip else [f"{prefix}pip"]) + [f"{prefix}pip:"] + [f"{inner}{e}" for e in entries]
    nl = f.text.find("\n", key.end)
    at = len(f.text) if nl < 0 else nl
    if f.out.edit(R.PY_CONDA_CUDA, at, at, "".join(f"\n{ln}" for ln in lines), f"{', '.join(moved)} from PyTorch's "
                  f"ROCm index ({f.tgt.index.url}) in the pip: list: conda has no ROCm build of PyTorch"):
        f.rocm_index = True


def _conda_drop(f: _File, node: Node, message: str) -> None:
    span = _line_span(f.text, node.offset, node.end) if node.kind == SCALAR else None
    if span is None:
        f.out.report(R.PY_CONDA_CUDA, node.offset, message.replace(": removed", ": remove it"))
    else:
        f.out.edit(R.PY_CONDA_CUDA, span[0], span[1], "", message)


def _conda_package(f: _File, node: Node) -> list[str]:
    """One conda dependency; the pip requirements a conda PyTorch package moves to (removed here)."""
    channel, _, spec = node.value.rpartition("::")
    name = re.split(r"[=<>!~\s\[]", spec.strip(), maxsplit=1)[0].lower()
    if name in CONDA_CUDA or channel == "nvidia":
        _conda_drop(f, node, f"conda package {node.value} selects CUDA: removed")
    elif name in CONDA_TORCH:
        if f.torch_at is None:
            f.torch_at = node.offset
        pip = _conda_pin(name, spec.strip(), f.tgt)
        span = _line_span(f.text, node.offset, node.end) if _scalar_at(f.text, node) is not None else None
        if span is not None and f.out.edit(R.PY_CONDA_CUDA, span[0], span[1], "", f"conda's {name} ({node.value}) "
                                           f"is a CUDA or CPU build; conda has no ROCm build: moved to the pip: list "
                                           f"as {pip}, from PyTorch's ROCm index"):
            return [pip]
        f.out.report(R.PY_CONDA_CUDA, node.offset, f"conda's {name} ({node.value}) is a CUDA or CPU build: install "
                     f"PyTorch for ROCm with pip from {f.tgt.index.url} (the pip: list: {pip})")
    else:
        plugin = knowledge.get_plugin(name)
        if plugin is not None and package_row(name) is None:
            f.out.report(R.PY_GPU_PLUGIN, node.offset, _plugin_message(name, f"conda package {name}"),
                         severity=_SUPPORT_SEVERITY.get(plugin.rocm_support, Severity.MEDIUM))
    return []


def _conda_pin(name: str, spec: str, tgt: Target) -> str:
    """The pip pin of a conda PyTorch package (``pytorch=2.4.1`` -> ``torch==<the ROCm index's nearest>``; no
    exact version: the index's newest torch, its companions)."""
    pip = TORCH if name == "pytorch" else name
    version = re.fullmatch(r"[a-z]+\s*==?\s*([\d.]+)", spec.lower())
    torch = wheels.nearest_torch(tgt.index, version.group(1)) if version and pip == TORCH else tgt.index.torch[0]
    if pip == TORCH:
        return f"{pip}=={torch}"
    if version is not None and (wanted := wheels.torch_for(pip, version.group(1))) is not None:
        torch = wheels.nearest_torch(tgt.index, wanted)
    pair = wheels.companions(torch)
    return f"{pip}=={pair[COMPANIONS.index(pip)]}" if pair is not None else pip


def _pip_lists(documents: Iterable[Node]) -> Iterator[Node]:
    """The entries of the ``pip:`` lists of a conda file's dependencies."""
    for doc in documents:
        root = doc.resolved()
        deps = root.get("dependencies") if root.kind == MAPPING else None
        for item in deps.resolved().items if deps is not None and deps.resolved().kind == SEQUENCE else []:
            pips = item.get("pip") if item.kind == MAPPING else None
            if pips is not None and pips.resolved().kind == SEQUENCE:
                yield from pips.resolved().items


def _pip_option(text: str, node: Node) -> tuple[int, str] | None:
    """(offset, URL) of an index option in a pip list (``--extra-index-url URL``, ``-f=URL``)."""
    at = _scalar_at(text, node)
    if at is None or not node.value.startswith("-"):
        return None
    value, words = node.value, node.value.split()
    if words[0].startswith("--") and "=" in words[0]:
        name, url = words[0].split("=", 1)
    elif len(words) >= 2:
        name, url = words[0], words[1]
    else:
        return None
    return (at + value.find(url, len(name)), url) if name in INDEX_OPTIONS else None


def _pip_options(documents: Iterable[Node], text: str) -> list[tuple[int, str]]:
    return [found for node in _pip_lists(documents) if (found := _pip_option(text, node)) is not None]


def _pip_entry(f: _File, node: Node) -> None:
    at = _scalar_at(f.text, node)
    if at is None:
        return
    value = node.value
    if value.startswith("-"):
        found = _pip_option(f.text, node)
        if found is not None:
            f.url(*found)
        return
    plan = plan_spec(value, f.tgt)
    if plan is not None:
        f.apply(at, plan, _line_span(f.text, node.offset, node.end))


def migrate_pydeps(kind: str, rel: str, text: str, options: BuildOptions) -> FileMigration:
    """The migration of one Python dependency file of scan's ``kind`` (one of :data:`KINDS`)."""
    if kind == "pyproject":
        return migrate_pyproject(rel, text, options)
    if kind == "pipfile":
        return migrate_pipfile(rel, text, options)
    if kind == "conda":
        return migrate_conda(rel, text, options)
    return migrate_requirements(rel, text, options)
