"""Bazel: rules_cuda / TensorFlow-style CUDA targets -> TensorFlow/XLA's ROCm configuration, as minimal edits.

There is no one standard Bazel rule set for ROCm. The target is the one the largest Bazel ROCm users ship:
TensorFlow/XLA's ``@local_config_rocm`` repository (written by their ``rocm_configure`` repository rule), whose
``//rocm:build_defs.bzl`` has ``rocm_library`` (a cc_library with ``rocm_default_copts()``), ``if_rocm``,
``rocm_default_copts`` and ``if_rocm_is_configured``, whose ``//rocm`` package has the HIP runtime and the hip*
libraries as targets, and whose ``.bazelrc`` config is ``--config=rocm``. The labels and names are data
(``migrate/data/bazel_labels.csv``).

BUILD, BUILD.bazel, ``*.bzl``, WORKSPACE and MODULE.bazel are Starlark, read as Python with LibCST (lossless:
every node's position, comments and layout untouched; nothing is evaluated). Rewritten: loads of
``@rules_cuda//cuda:defs.bzl`` / ``@local_config_cuda//cuda:build_defs.bzl`` and the names they bind,
``cuda_library`` targets (nvcc options in their ``copts`` translated with the shared table, also through the
file's variables, ``+``, ``select()`` and ``if_cuda()``), CUDA dependency labels, ``-x cuda`` in copts, and
``.cu`` sources that ``convert`` renamed. Reported with their line: ``cuda_binary``/``cuda_test``/``cuda_objects``,
rules_cuda-only attributes, CUDA ``select()`` conditions, other CUDA labels, and the CUDA repositories of
WORKSPACE/MODULE.bazel. ``.bazelrc`` files (read with :mod:`cuda2rocm.source.formats.bazelrc`) get a ``rocm``
config added after their ``cuda`` config, which stays.
"""

from __future__ import annotations

import fnmatch
import functools
import io
import posixpath
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst
import libcst.matchers as m
from libcst.metadata import MetadataWrapper

from cuda2rocm.migrate import rules as R
from cuda2rocm.migrate.base import CU_SUFFIXES, BuildOptions, Collector, FileMigration, _rows, libraries
from cuda2rocm.migrate.setup_py import _Migrator, _string, _syntax_problem
from cuda2rocm.model import Edit, Severity
from cuda2rocm.project.bazelfacts import CUDA_ENV, CUDA_REPOS, ROCM_CONFIG_REPLACES, canonical
from cuda2rocm.source.formats._base import Problem
from cuda2rocm.source.formats.bazelrc import ENV_OPTIONS, RcLine, flag_aliases, option_values, read_bazelrc
from cuda2rocm.source.tokens import LineIndex

ROCM_DEFS = "@local_config_rocm//rocm:build_defs.bzl"
ROCM_PACKAGE = "@local_config_rocm//rocm"
#: repository-rule and module calls that fetch or configure CUDA (WORKSPACE, MODULE.bazel, .bzl)
REPO_CALLS = frozenset({"rules_cuda_dependencies", "rules_cuda_toolchains", "register_detected_cuda_toolchains",
                        "cuda_configure", "nccl_configure", "tensorrt_configure"})
#: attributes of rules_cuda's cuda_library that cc_library (and so rocm_library) does not take
RULES_CUDA_ATTRS = frozenset({"host_copts", "host_defines", "host_local_defines", "host_linkopts", "rdc",
                              "ptxasopts"})
#: what cc_library's srcs take besides libraries and objects (Bazel's C/C++ source, header and assembler types)
CC_EXTENSIONS = (".cc", ".cpp", ".cxx", ".c++", ".C", ".c", ".h", ".hh", ".hpp", ".ipp", ".hxx", ".h++", ".inc",
                 ".inl", ".tlh", ".tli", ".H", ".S", ".s", ".asm")
_COPTS_CALLS = frozenset({"select", "if_cuda", "if_rocm", "if_cuda_is_configured", "if_rocm_is_configured"})
_ARCH_WHERE = "Bazel's ROCm build takes the targets from TF_ROCM_AMDGPU_TARGETS (the rocm config of .bazelrc)"


@dataclass(frozen=True)
class BazelTable:
    loads: dict[str, str]  # CUDA .bzl label -> ROCm .bzl label
    symbols: dict[str, tuple[str, str]]  # CUDA name -> (ROCm name or "", note)
    labels: dict[str, tuple[str, str]]  # CUDA dependency -> (ROCm target, note)
    conditions: dict[str, str]  # CUDA config_setting -> ROCm one
    repositories: dict[str, str]  # CUDA repository name -> note


@functools.lru_cache(maxsize=1)
def table() -> BazelTable:
    rows = _rows("bazel_labels.csv")
    by_kind: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        by_kind.setdefault(row["kind"], []).append(row)
    targets = {r["cuda"] for r in by_kind.get("target", [])}
    labels: dict[str, tuple[str, str]] = {}
    for lib in libraries():  # @local_config_cuda//cuda:cublas, @local_cuda//:curand -> @local_config_rocm//rocm:hip*
        if lib.hip_package not in targets:
            continue
        for name in lib.names:
            for repo in ("@local_config_cuda//cuda:", "@local_cuda//:"):
                labels[repo + name] = (f"{ROCM_PACKAGE}:{lib.hip_package}", lib.note)
    labels.update({r["cuda"]: (r["rocm"], r["note"]) for r in by_kind.get("label", [])})
    return BazelTable(
        loads={r["cuda"]: r["rocm"] for r in by_kind.get("load", [])},
        symbols={r["cuda"]: (r["rocm"], r["note"]) for r in by_kind.get("symbol", [])},
        labels=labels,
        conditions={r["cuda"]: r["rocm"] for r in by_kind.get("condition", [])},
        repositories={r["cuda"]: r["note"] for r in by_kind.get("repository", [])},
    )


#: a Starlark file with none of these (case-insensitive) has nothing to migrate and is not parsed
_CUDA_WORDS = ("cuda", "nccl", "nvcc", ".cu")


def migrate_bazel(path: str, text: str, options: BuildOptions) -> FileMigration:
    """A BUILD / BUILD.bazel / .bzl / WORKSPACE / MODULE.bazel file (Starlark, parsed as Python by LibCST); one with
    no CUDA word in it (most of a large monorepo's BUILD files) is left as it is without parsing."""
    lower = text.lower()
    if not any(word in lower for word in _CUDA_WORDS):
        return FileMigration(path)
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        masked = _mask_load_aliases(text)
        if masked == text:
            return FileMigration(path, problems=(_syntax_problem(text, exc, "Starlark"),))
        try:
            module = cst.parse_module(masked)
        except cst.ParserSyntaxError as again:  # the error past the aliases (same lines and offsets)
            return FileMigration(path, problems=(_syntax_problem(masked, again, "Starlark"),))
        except RecursionError:
            return FileMigration(path, problems=(Problem(0, "too deeply nested to parse"),))
    except RecursionError:
        return FileMigration(path, problems=(Problem(0, "too deeply nested to parse"),))
    return _Starlark(path, text, MetadataWrapper(module, unsafe_skip_copy=True), options).run()


def _mask_load_aliases(text: str) -> str:
    """Starlark's ``load()`` takes aliases before plain names (``load("x.bzl", a = "b", "c")``), which Python's
    grammar rejects: the ``=`` of those aliases become ``<`` (the same length, so every offset stays) and the alias
    reads as a comparison. Only ``=`` directly inside a ``load(`` at the start of a line are touched."""
    chars = list(text)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return text
    lines = LineIndex(text)
    depth = 0
    in_load = False
    for k, tok in enumerate(tokens):
        if tok.type == tokenize.NAME and tok.string == "load" and tok.start[1] == 0 and depth == 0 and \
                k + 1 < len(tokens) and tokens[k + 1].string == "(":
            in_load = True
        elif tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
            in_load = in_load and depth > 0
        elif in_load and depth == 1 and tok.type == tokenize.OP and tok.string == "=":
            chars[lines.start(tok.start[0]) + tok.start[1]] = "<"
    return "".join(chars)


def _load_arg(arg: cst.Arg) -> tuple[cst.BaseExpression, str]:
    """(the literal naming the loaded symbol, its alias or "") of one argument of ``load()``: ``"x"``,
    ``a = "x"``, or ``a < "x"`` (an alias before plain names, see :func:`_mask_load_aliases`)."""
    if arg.keyword is not None:
        return arg.value, arg.keyword.value
    node = arg.value
    if isinstance(node, cst.Comparison) and isinstance(node.left, cst.Name) and len(node.comparisons) == 1 and \
            isinstance(node.comparisons[0].operator, cst.LessThan):
        return node.comparisons[0].comparator, node.left.value
    return node, ""


def _is_cuda_label(value: str) -> bool:
    return value.startswith(CUDA_REPOS) or value.lstrip("@").startswith(tuple(r.lstrip("@") for r in CUDA_REPOS))


class _Starlark(_Migrator):
    """The string-list machinery of the setup.py migrator (one literal is one word of the compiler's command line;
    removed options go with their commas, comments stay), driven by Bazel's rules."""

    arch_where = _ARCH_WHERE

    def run(self) -> FileMigration:
        t = table()
        self.cuda_names: dict[str, str] = {}  # local name bound by a CUDA load -> the CUDA name
        self.renamed: dict[str, str] = {}  # local name -> the ROCm name that replaces it in the file
        self.rocm_loaded = self._rocm_loaded()
        for call in self._calls("load"):
            self._load(call, t)
        self._references()
        for node in m.findall(self.module, m.Call()):
            assert isinstance(node, cst.Call)
            self._target(node, t)
        self._strings(t)
        return self.out.result()

    # -- loads ----------------------------------------------------------------------------------------------
    def _calls(self, name: str) -> Iterator[cst.Call]:
        for call in m.findall(self.module, m.Call(func=m.Name(name))):
            assert isinstance(call, cst.Call)
            yield call

    def _rocm_loaded(self) -> set[str]:
        """Names already loaded from @local_config_rocm (a person's or an earlier run's)."""
        out: set[str] = set()
        for call in self._calls("load"):
            if call.args and _string(call.args[0].value) == ROCM_DEFS:
                for arg in call.args[1:]:
                    value, local = _load_arg(arg)
                    out.add(local or _string(value) or "")
        return out

    def _load(self, call: cst.Call, t: BazelTable) -> None:
        label_node = call.args[0].value if call.args else None
        label = _string(label_node) if label_node is not None else None
        if label is None or label_node is None:
            return
        rocm = t.loads.get(label)
        if rocm is None:
            if _is_cuda_label(label):
                self.done.add(id(label_node))
                self.out.report(R.BAZEL_REPOSITORY, self.start(call),
                                f"load of {label}: CUDA's; the ROCm build has no counterpart of it",
                                fix="rocm_configure(name = \"local_config_rocm\") provides the ROCm configuration")
            return
        self.done.add(id(label_node))
        loaded = []  # (arg, the literal naming the symbol, CUDA name, local name)
        for arg in call.args[1:]:
            value, local = _load_arg(arg)
            name = _string(value)
            if name is None or not isinstance(value, cst.SimpleString):
                continue
            self.done.add(id(value))
            local = local or name
            self.cuda_names[local] = name
            loaded.append((local != name, value, name, local))
        known = [x for x in loaded if t.symbols.get(x[2], ("", ""))[0]]
        unknown = [x for x in loaded if not t.symbols.get(x[2], ("", ""))[0]]
        for _, lit, name, _local in unknown:
            note = t.symbols.get(name, ("", f"{name} is rules_cuda's"))[1] or f"{name} is CUDA's"
            self.out.report(R.BAZEL_LOAD, self.start(lit), f"{name} has no ROCm counterpart in "
                            f"{ROCM_DEFS}: {note}; it stays loaded from {label}", fix="see the C2R-B502 findings")
        if not known:
            return
        if not unknown:  # the whole load moves to the ROCm build defs
            assert isinstance(label_node, cst.SimpleString)
            self.out.edit(R.BAZEL_LOAD, self.start(label_node), self.end(label_node),
                          f"{label_node.prefix}{label_node.quote}{rocm}{label_node.quote}",
                          f"{label} is CUDA's; TensorFlow/XLA's ROCm configuration has the same macros")
            for aliased, lit, name, local in known:
                new = t.symbols[name][0]
                self.out.edit(R.BAZEL_LOAD, self.start(lit), self.end(lit), f"{lit.prefix}{lit.quote}{new}{lit.quote}",
                              f"{name} -> {new}" + (f" ({t.symbols[name][1]})" if t.symbols[name][1] else ""))
                if not aliased:
                    self.renamed[local] = new
            return
        # some names have no counterpart: they stay loaded from rules_cuda, the others come from a second load
        wanted = [t.symbols[name][0] for aliased, _, name, _ in known if not aliased]
        missing = [w for w in wanted if w not in self.rocm_loaded]
        for aliased, lit, name, local in known:
            if not aliased:
                self.renamed[local] = t.symbols[name][0]
            else:  # an alias beside names that stay: its targets stay CUDA's until a person loads the ROCm name
                del self.cuda_names[local]
                self.out.report(R.BAZEL_LOAD, self.start(lit), f"{local} = {name} is loaded beside names with no "
                                f"ROCm counterpart, so it stays {label}'s",
                                fix=f'{local} = "{t.symbols[name][0]}" from {ROCM_DEFS}')
        if missing and self._top_level(call):  # Starlark loads are top-level statements
            at = self._line_end(call)
            names = ", ".join(f'"{w}"' for w in missing)
            self.out.edit(R.BAZEL_LOAD, at, at, f'load("{ROCM_DEFS}", {names})\n',
                          f"{', '.join(missing)} from {ROCM_DEFS} beside {label}, whose other names have no ROCm "
                          "counterpart")

    def _top_level(self, node: cst.CSTNode) -> bool:
        expr = self.parents.get(node)
        line = self.parents.get(expr) if expr is not None else None
        return isinstance(expr, cst.Expr) and isinstance(line, cst.SimpleStatementLine) and isinstance(
            self.parents.get(line), cst.Module)

    def _line_end(self, node: cst.CSTNode) -> int:
        """Where the line after ``node``'s statement starts (a new statement is inserted there)."""
        end = self.end(node)
        nl = self.text.find("\n", end)
        return len(self.text) if nl < 0 else nl + 1

    def _references(self) -> None:
        """Every use of a name a rewritten load binds follows its new name (``cuda_library(`` -> ``rocm_library(``)."""
        if not self.renamed:
            return
        for node in m.findall(self.module, m.Name()):
            assert isinstance(node, cst.Name)
            new = self.renamed.get(node.value)
            parent = self.parents.get(node)
            if new is None or (isinstance(parent, cst.Arg) and parent.keyword is node) or (
                    isinstance(parent, cst.Attribute) and parent.attr is node) or isinstance(
                    parent, (cst.Param, cst.FunctionDef)):
                continue
            if new == "rocm_library":
                self.out.edit(R.BAZEL_RULE, self.start(node), self.end(node), new,
                              f"{node.value} -> {new}: a cc_library compiled for the GPU under --config=rocm")
            else:
                self.out.edit(R.BAZEL_LOAD, self.start(node), self.end(node), new,
                              f"{node.value} -> {new}, as the rewritten load names it")

    # -- targets ------------------------------------------------------------------------------------------------
    def _rule_of(self, call: cst.Call) -> str:
        """The CUDA rule a call makes (``cuda_library``, ``cuda_binary``, ...), ``rocm_library``, or the name."""
        if isinstance(call.func, cst.Name):
            return self.cuda_names.get(call.func.value, call.func.value)
        return ""

    def _target(self, call: cst.Call, t: BazelTable) -> None:
        rule = self._rule_of(call)
        kwargs = {a.keyword.value: a for a in call.args if a.keyword is not None}
        if rule in ("cuda_binary", "cuda_test", "cuda_objects"):
            self.out.report(R.BAZEL_RULE, self.start(call), f"{rule} has no ROCm counterpart: "
                            f"{t.symbols.get(rule, ('', ''))[1]}", fix="rocm_library + cc_binary/cc_test")
        if rule in ("cuda_library", "rocm_library"):
            for key, arg in kwargs.items():
                if key in RULES_CUDA_ATTRS:
                    self.out.report(R.BAZEL_RULE, self.start(arg), f"{key} is rules_cuda's: rocm_library is a "
                                    "cc_library, which does not take it", fix="move host options to copts, "
                                    "relocatable device code to copts and linkopts (-fgpu-rdc)" if key != "rdc"
                                    else "-fgpu-rdc in copts and linkopts")
        if "copts" in kwargs:
            self._copts(kwargs["copts"].value, nvcc=rule in ("cuda_library", "rocm_library", "cuda_binary",
                                                              "cuda_test", "cuda_objects"))
        for key in ("srcs", "hdrs", "textual_hdrs"):
            if key in kwargs:
                self._bazel_sources(kwargs[key].value, rocm=key == "srcs" and rule in ("cuda_library",
                                                                                       "rocm_library"))
        if isinstance(call.func, cst.Name) and call.func.value == "glob" and call.args:
            self._glob_patterns(call.args[0].value)
        self._repository(call, rule, kwargs, t)

    def _repository(self, call: cst.Call, rule: str, kwargs: dict[str, cst.Arg], t: BazelTable) -> None:
        name_arg = kwargs.get("name")
        repo = _string(name_arg.value) if name_arg is not None else None
        rule = rule or self.module.code_for_node(call.func)  # cuda.local_toolchain(...)
        if rule in REPO_CALLS:
            self.out.report(R.BAZEL_REPOSITORY, self.start(call), f"{rule}() configures the CUDA toolkit",
                            fix="rocm_configure(name = \"local_config_rocm\") for the ROCm build")
        elif repo in t.repositories and rule != "rocm_configure":
            assert name_arg is not None
            self.done.add(id(name_arg.value))
            note = t.repositories[repo]
            self.out.report(R.BAZEL_REPOSITORY, self.start(call), f"{rule}(name = \"{repo}\") brings the CUDA "
                            "rules or toolkit; the ROCm build needs @local_config_rocm" + (f": {note}" if note else ""),
                            fix="rocm_configure(name = \"local_config_rocm\")")
        elif rule == "use_extension" and call.args:
            label = _string(call.args[0].value)
            if label is not None and _is_cuda_label(label):
                self.done.add(id(call.args[0].value))
                self.out.report(R.BAZEL_REPOSITORY, self.start(call), f"the module extension of {label} "
                                "configures the CUDA toolkit", fix="rocm_configure for the ROCm build")

    # -- copts ---------------------------------------------------------------------------------------------------
    def _copts(self, value: cst.BaseExpression, *, nvcc: bool, seen: frozenset[int] = frozenset()) -> None:
        for node in self._resolve(value):
            if id(node) in seen:
                continue
            if isinstance(node, (cst.List, cst.Tuple)):
                self._x_cuda(list(node.elements))
                if nvcc:
                    self._option_list(list(node.elements), isinstance(node, cst.Tuple))
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in _COPTS_CALLS:
                for arg in node.args:
                    if isinstance(arg.value, cst.Dict):
                        for el in arg.value.elements:
                            if isinstance(el, cst.DictElement):
                                self._copts(el.value, nvcc=nvcc, seen=seen | {id(node)})
                    else:
                        self._copts(arg.value, nvcc=nvcc, seen=seen | {id(node)})
            elif nvcc and not (isinstance(node, cst.Call) and self._known_copts(node)) and id(node) not in self.done \
                    and not self._parameter(node):
                self.done.add(id(node))
                src = " ".join(self.module.code_for_node(node).split())
                self.out.report(R.BAZEL_X_CUDA, self.start(node), f"copts from `{src[:60]}` are computed: their nvcc "
                                "options were not checked (hipcc rejects nvcc's spellings)",
                                fix="translate the nvcc options as `cuda2rocm migrate build` would")

    def _parameter(self, node: cst.CSTNode) -> bool:
        """A name that is a parameter of the macro it is used in (its callers' copts are checked where they are)."""
        if not isinstance(node, cst.Name):
            return False
        parent = self.parents.get(node)
        while parent is not None and not isinstance(parent, cst.Module):
            if isinstance(parent, cst.FunctionDef):
                params = parent.params
                names = [p.name.value for p in (*params.params, *params.kwonly_params, *params.posonly_params)]
                star = [p.name.value for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]
                if node.value in names + star:
                    return True
            parent = self.parents.get(parent)
        return False

    @staticmethod
    def _known_copts(node: cst.Call) -> bool:
        """The copts macros of the CUDA and ROCm build defs (no nvcc spellings of the project's own)."""
        return isinstance(node.func, cst.Name) and node.func.value in ("cuda_default_copts", "rocm_default_copts",
                                                                       "rocm_copts", "cuda_copts")

    def _x_cuda(self, elements: list[cst.BaseElement]) -> None:
        """``"-x", "cuda"`` / ``"-xcuda"`` -> ``-x rocm``: the language mode of TensorFlow's ROCm toolchain."""
        for i, el in enumerate(elements):
            lit = el.value if isinstance(el.value, cst.SimpleString) else None
            value = _string(lit) if lit is not None else None
            target = None
            if value in ("-xcuda", "-x cuda"):
                target = value.replace("cuda", "rocm")
            elif value == "cuda" and i > 0 and _string(elements[i - 1].value) == "-x":
                target = "rocm"
            if lit is None or target is None:
                continue
            self.out.edit(R.BAZEL_X_CUDA, self.start(lit), self.end(lit), f"{lit.prefix}{lit.quote}{target}{lit.quote}",
                          "-x cuda is clang's NVIDIA language mode; TensorFlow's ROCm toolchain takes -x rocm")

    # -- sources -------------------------------------------------------------------------------------------------
    def _bazel_sources(self, value: cst.BaseExpression, *, rocm: bool) -> None:
        """Sources ``convert`` renamed follow it; ``rocm``: the srcs of a (future) rocm_library, a cc_library, whose
        extensions Bazel checks."""
        for node in self._resolve(value):
            elements = list(node.elements) if isinstance(node, (cst.List, cst.Tuple)) else []
            for el in elements:
                lit = el.value if isinstance(el.value, cst.SimpleString) else None
                name = _string(lit) if lit is not None else None
                if lit is None or not name or id(lit) in self.done or name.startswith(("@", "/", ":")):
                    continue
                self.done.add(id(lit))
                new = self.options.renames.get(self._relative(name))
                if new is not None:
                    renamed = name[:len(name) - len(posixpath.basename(name))] + posixpath.basename(new)
                    self.out.edit(R.BAZEL_SOURCES, self.start(lit), self.end(lit),
                                  f"{lit.prefix}{lit.quote}{renamed}{lit.quote}", f"convert renamed {name}")
                    name = renamed
                if rocm and not name.endswith(CC_EXTENSIONS):
                    self.out.report(R.BAZEL_SOURCES, self.start(lit), f"{name}: rocm_library is a cc_library, whose "
                                    "srcs take C/C++ extensions only (.cc, .cpp, ...), so Bazel rejects this file",
                                    fix="convert with --cu-suffix .cu.cc (TensorFlow's naming for device sources)",
                                    severity=Severity.HIGH)

    def _glob_patterns(self, value: cst.BaseExpression) -> None:
        if not self.options.renames or not isinstance(value, (cst.List, cst.Tuple)):
            return
        for el in value.elements:
            lit = el.value if isinstance(el.value, cst.SimpleString) else None
            pattern = _string(lit) if lit is not None else None
            if lit is None or not pattern or not pattern.endswith(".cu") or id(lit) in self.done:
                continue
            self.done.add(id(lit))
            where = self._relative(pattern.replace("**/", "*/"))
            matched = [new for old, new in self.options.renames.items() if fnmatch.fnmatchcase(old, where)
                       or fnmatch.fnmatchcase(old, where.replace("*/", "", 1))]
            if matched:
                suffix = next(s for s in CU_SUFFIXES if matched[0].endswith(s))
                self.out.edit(R.BAZEL_SOURCES, self.start(lit), self.end(lit),
                              f"{lit.prefix}{lit.quote}{pattern[:-3]}{suffix}{lit.quote}",
                              f"convert renamed the .cu sources {pattern} matched to {suffix}")

    # -- labels and conditions -----------------------------------------------------------------------------------
    def _strings(self, t: BazelTable) -> None:
        for lit in m.findall(self.module, m.SimpleString()):
            assert isinstance(lit, cst.SimpleString)
            value = _string(lit)
            if value is None or id(lit) in self.done or not _is_cuda_label(value):
                continue
            self.done.add(id(lit))
            if value in t.labels:
                new, note = t.labels[value]
                self.out.edit(R.BAZEL_LABEL, self.start(lit), self.end(lit), f"{lit.prefix}{lit.quote}{new}{lit.quote}",
                              f"{value} is CUDA's; {new} is its ROCm counterpart" + (f" ({note})" if note else ""))
            elif value in t.conditions:
                self.out.report(R.BAZEL_CONDITION, self.start(lit), f"{value} is never true in a ROCm build: the "
                                "branch it selects is left out there", fix=f"a branch on {t.conditions[value]} where "
                                "the ROCm build needs it")
            else:
                self.out.report(R.BAZEL_CONDITION, self.start(lit), f"{value} is CUDA's and has no known ROCm "
                                f"counterpart under {ROCM_PACKAGE}", fix="a target of @local_config_rocm//rocm, or "
                                "drop it for the ROCm build")


# -- .bazelrc ------------------------------------------------------------------------------------------------------
#: options of the added rocm config, as TensorFlow's configure writes its own
ROCM_CONFIG = ("--define=using_rocm=true", "--define=using_rocm_hipcc=true",
               "--crosstool_top=@local_config_rocm//crosstool:toolchain", "--repo_env=TF_NEED_ROCM=1")
#: environment variables of the CUDA configuration -> the ROCm ones (value: "path" = ROCM_PATH's default,
#: "targets" = the gfx list, "" = left out of the rocm config and reported, "rocm" = covered by ROCM_CONFIG)


def migrate_bazelrc(path: str, text: str, options: BuildOptions) -> FileMigration:
    rc = read_bazelrc(text)
    if rc.problems:
        return FileMigration(path, problems=rc.problems)
    out = Collector(path, text)
    aliases = flag_aliases(rc.lines)
    cuda = rc.configs("cuda")
    has_rocm = bool(rc.configs("rocm"))
    for line in rc.lines:
        if line.kind == "options" and line.config != "cuda":
            _outside(out, line, aliases)
    if not cuda or has_rocm:
        return out.result()
    new_lines = [f"build:rocm {o}" for o in ROCM_CONFIG]
    new_lines.append(f"build:rocm --repo_env=TF_ROCM_AMDGPU_TARGETS={','.join(options.gfx)}")
    replaced: list[str] = []
    for line in cuda:
        kept = _translate_line(out, line, aliases, replaced)
        if kept:
            new_lines.append(f"{line.command}:rocm {' '.join(kept)}")
    last = cuda[-1]
    nl = text.find("\n", last.end)
    at = len(text) if nl < 0 else nl + 1
    block = "\n".join(dict.fromkeys(new_lines)) + "\n"
    if at == len(text) and not text.endswith("\n"):
        block = "\n" + block
    message = ("a rocm config beside the cuda config (kept): bazel build --config=rocm builds for "
               f"{','.join(options.gfx)}")
    if replaced:
        message += f"; it replaces {', '.join(dict.fromkeys(replaced))}"
    edit = out.add_edit(Edit(at, at, block, R.BAZELRC_CONFIG.id))
    if edit is not None:
        out.report(R.BAZELRC_CONFIG, at, message, edit=edit,
                   fix=f"{block.count(chr(10))} lines of config rocm after line {last.last_line}")
    return out.result()


def _translate_line(out: Collector, line: RcLine, aliases: dict[str, str], replaced: list[str]) -> list[str]:
    """The options of one cuda-config line as the rocm config has them (CUDA-only ones reported or replaced)."""
    kept: list[str] = []
    for name, value, first, last in option_values(line):
        src = out.text[first.offset:last.end]
        spelled = " ".join(w.src for w in line.options if first.offset <= w.offset <= last.offset)
        canon = canonical(name, aliases)
        whole = f"{canon}={value}" if value else canon
        if whole in ROCM_CONFIG_REPLACES or canon in ("--@rules_cuda//cuda:enable", "--@rules_cuda//cuda:archs") or (
                canon == "--config" and "cuda" in value):
            replaced.append(src)
        elif canon in ENV_OPTIONS:
            var, eq, _ = value.partition("=")
            kind = CUDA_ENV.get(var)
            if kind is None:
                kept.append(spelled)
            elif kind in ("rocm", "targets"):
                replaced.append(src)
            elif kind == "path":
                kept.append(f"{canon}=ROCM_PATH=/opt/rocm" if eq else f"{canon}=ROCM_PATH")
                replaced.append(src)
            else:
                out.report(R.BAZELRC_OPTION, first.offset, f"{src}: the CUDA toolkit's; left out of the rocm config",
                           fix="ROCM_PATH says which ROCm the build uses")
        elif canon.startswith("--@rules_cuda//"):
            out.report(R.BAZELRC_OPTION, first.offset, f"{src} is a rules_cuda flag; left out of the rocm config",
                       fix="rocm_library's copts take clang's options")
        else:
            kept.append(spelled)
    return kept


def _outside(out: Collector, line: RcLine, aliases: dict[str, str]) -> None:
    """CUDA options outside the cuda config: reported (the CUDA build keeps them)."""
    for name, value, first, last in option_values(line):
        canon = canonical(name, aliases)
        src = out.text[first.offset:last.end]
        if canon == "--config" and value == "cuda" and not line.config:
            out.report(R.BAZELRC_OPTION, first.offset, f"`{line.command} --config=cuda` makes every {line.command} a "
                       "CUDA one", fix=f"{line.command} with --config=rocm for AMD GPUs",
                       severity=Severity.MEDIUM)
        elif canon == "--config" and value == "cuda":
            out.report(R.BAZELRC_OPTION, first.offset, f"config {line.config} builds on the cuda config",
                       fix=f"a {line.config} variant on --config=rocm")
        elif canon.startswith("--@rules_cuda//") and canon != "--flag_alias":
            out.report(R.BAZELRC_OPTION, first.offset, f"{src} applies to the CUDA build only",
                       fix="the rocm config sets the ROCm targets")
        elif canon in ENV_OPTIONS and value.partition("=")[0] in CUDA_ENV:
            out.report(R.BAZELRC_OPTION, first.offset, f"{src} configures the CUDA toolkit outside the cuda config",
                       fix="move it into the cuda config")
