"""setup.py / PyTorch C++/CUDA extensions: what breaks ``torch.utils.cpp_extension``'s ROCm build, fixed.

``CUDAExtension`` keeps working on ROCm: PyTorch runs its own hipify over the sources at build time and compiles
them with hipcc (reported, C2R-B401). What breaks it is fixed as minimal edits on LibCST's lossless tree (every
node's position, comments and layout untouched; nothing is executed):

- nvcc options in ``extra_compile_args={"nvcc": [...]}`` (a dict literal or ``dict(...)``, directly or through
  variables assigned in the file): translated with the shared nvcc table, each string literal one word, quoting
  kept; architecture options removed (PyTorch's ROCm build takes the targets from ``PYTORCH_ROCM_ARCH``);
- ``os.environ["TORCH_CUDA_ARCH_LIST"] = "..."`` / ``setdefault(...)`` -> ``PYTORCH_ROCM_ARCH`` with the targets;
- ``CUDA_HOME is None`` checks -> ``CUDA_HOME is None and ROCM_HOME is None`` (``ROCM_HOME`` imported from
  ``torch.utils.cpp_extension``) where the check is a simple comparison; other uses of ``CUDA_HOME`` reported;
- ``libraries=["cublas", ...]`` -> the ROCm link names;
- sources that ``convert`` renamed (``kernels.cu`` -> ``kernels.hip``, also in ``glob("csrc/*.cu")``) follow it.
"""

from __future__ import annotations

import ast
import dataclasses
import fnmatch
import posixpath
from collections.abc import Iterator, Sequence

import libcst as cst
import libcst.matchers as m
from libcst.metadata import CodeRange, MetadataWrapper, ParentNodeProvider, PositionProvider

from cuda2rocm.migrate import flags
from cuda2rocm.migrate import rules as R
from cuda2rocm.migrate.base import BuildOptions, Collector, FileMigration, library_index, report_flags
from cuda2rocm.model import Severity
from cuda2rocm.source.formats._base import Problem

CPP_EXTENSION = "torch.utils.cpp_extension"
_ARCH_WHERE = "PyTorch's ROCm build takes the targets from PYTORCH_ROCM_ARCH"
#: setuptools/PyTorch extension classes whose second positional argument (or ``sources=``) lists the sources
_EXTENSIONS = frozenset({"CUDAExtension", "CppExtension", "Extension", "SyclExtension"})
_Statement = cst.SimpleStatementLine | cst.BaseCompoundStatement
#: the guard migrate build puts CUDA-only module code under (IS_HIP_EXTENSION: cpp_extension's platform flag)
GUARD = "if not IS_HIP_EXTENSION:  # CUDA builds only (cuda2rocm migrate build)"
_NONE_OPS = {cst.Is: ("is", True), cst.Equal: ("==", True), cst.IsNot: ("is not", False),
             cst.NotEqual: ("!=", False)}


def migrate_setup_py(path: str, text: str, options: BuildOptions) -> FileMigration:
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        return FileMigration(path, problems=(_syntax_problem(text, exc),))
    except RecursionError:
        return FileMigration(path, problems=(Problem(0, "too deeply nested to parse"),))
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    return _Migrator(path, text, wrapper, options).run()


def _syntax_problem(text: str, exc: cst.ParserSyntaxError, language: str = "Python") -> Problem:
    """The line and message of a syntax error: Python's own parser (it only parses) places it best."""
    try:
        ast.parse(text)
    except SyntaxError as err:
        return Problem(err.lineno or 0, f"{language} syntax error: {err.msg}")
    except (ValueError, RecursionError, MemoryError):
        pass
    return Problem(exc.raw_line, f"{language} syntax error: {exc.message}")


def _string(node: cst.CSTNode) -> str | None:
    """The value of a plain (not bytes, not f-) string literal."""
    if isinstance(node, cst.SimpleString) and "b" not in node.prefix.lower():
        try:
            value = node.evaluated_value
        except (SyntaxError, ValueError):  # a literal Python's compiler refuses (a NUL byte in it)
            return None
        return value if isinstance(value, str) else None
    return None


def _dotted(node: cst.CSTNode) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr.value}" if base else ""
    return ""


def _is_environ(node: cst.CSTNode) -> bool:
    return _dotted(node) in ("os.environ", "environ")


class _Migrator:
    #: where the targets come from instead of removed architecture options (the Bazel migrator says its own)
    arch_where = _ARCH_WHERE

    def __init__(self, path: str, text: str, wrapper: MetadataWrapper, options: BuildOptions) -> None:
        self.path = path
        self.text = text
        self.module = wrapper.module
        self.pos = wrapper.resolve(PositionProvider)
        self.parents = wrapper.resolve(ParentNodeProvider)
        self.options = options
        self.out = Collector(path, text)
        self.done: set[int] = set()  # ids of nodes already handled
        self.values = self._assigned_values()
        self.comments = [self.start(c) for c in m.findall(self.module, m.Comment())]

    def _cuda_side(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` runs only in CUDA builds: in the body of ``if not IS_HIP_EXTENSION:`` or the ``else``
        of ``if IS_HIP_EXTENSION:`` (CUDA's code, left as written)."""
        child, parent = node, self.parents.get(node)
        while parent is not None and not isinstance(parent, cst.Module):
            if isinstance(parent, cst.If) and child is not parent.test:
                negated = m.matches(parent.test, m.UnaryOperation(operator=m.Not(), expression=m.Name(
                    "IS_HIP_EXTENSION")))
                if (negated and child is parent.body) or (
                        m.matches(parent.test, m.Name("IS_HIP_EXTENSION")) and child is parent.orelse):
                    return True
            child, parent = parent, self.parents.get(parent)
        return False

    # -- positions ----------------------------------------------------------------------------------------
    def _at(self, pos: tuple[int, int]) -> int:
        return self.out.lines.start(pos[0]) + pos[1]

    def start(self, node: cst.CSTNode) -> int:
        r: CodeRange = self.pos[node]
        return self._at((r.start.line, r.start.column))

    def end(self, node: cst.CSTNode) -> int:
        r: CodeRange = self.pos[node]
        return self._at((r.end.line, r.end.column))

    # -- the file -----------------------------------------------------------------------------------------
    def run(self) -> FileMigration:
        guarded = self._cuda_only()  # first: the code it puts under the guard stays CUDA's, as written
        for call in m.findall(self.module, m.Call()):
            assert isinstance(call, cst.Call)
            if not self._cuda_side(call):
                self._call(call)
        self._arch_list()
        self._cuda_home()
        if guarded:
            self._import_flag()
        return self.out.result()

    def _assigned_values(self) -> dict[str, list[cst.BaseExpression]]:
        """name -> every value the file gives it: ``x = v``, ``x += v``, ``x.append(v)``, ``x.extend(v)``."""
        out: dict[str, list[cst.BaseExpression]] = {}
        for node in m.findall(self.module, m.Assign() | m.AugAssign() | m.AnnAssign()):
            if self._cuda_side(node):
                continue  # CUDA builds' own values (under `if not IS_HIP_EXTENSION:`)
            if isinstance(node, cst.Assign):
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        out.setdefault(target.target.value, []).append(node.value)
            elif isinstance(node, (cst.AugAssign, cst.AnnAssign)) and isinstance(node.target, cst.Name) \
                    and node.value is not None:
                out.setdefault(node.target.value, []).append(node.value)
        for node in m.findall(self.module, m.Call(func=m.Attribute(value=m.Name(), attr=m.Name("append")
                                                                    | m.Name("extend")))):
            assert isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            assert isinstance(node.func.value, cst.Name)
            # append("-O3"): the literal stands for a one-word list
            if len(node.args) == 1 and not self._cuda_side(node):
                out.setdefault(node.func.value.value, []).append(node.args[0].value)
        return out

    def _resolve(self, node: cst.BaseExpression, seen: frozenset[str] = frozenset()) -> Iterator[
            cst.BaseExpression]:
        """The literal values (lists, tuples, dicts, strings, dict() calls) ``node`` stands for, through the
        file's variables, ``+`` and ``a if c else b``; anything else is yielded as it is (the caller reports it)."""
        if isinstance(node, cst.Name) and node.value in self.values and node.value not in seen:
            for value in self.values[node.value]:
                yield from self._resolve(value, seen | {node.value})
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            yield from self._resolve(node.left, seen)
            yield from self._resolve(node.right, seen)
        elif isinstance(node, cst.IfExp):
            yield from self._resolve(node.body, seen)
            yield from self._resolve(node.orelse, seen)
        else:
            yield node

    # -- calls: CUDAExtension, extra_compile_args, libraries, environ.setdefault -----------------------------
    def _call(self, call: cst.Call) -> None:
        name = _dotted(call.func)
        if name.rsplit(".", 1)[-1] == "CUDAExtension":
            self.out.report(R.SETUP_CUDA_EXTENSION, self.start(call),
                            "CUDAExtension builds on ROCm: torch.utils.cpp_extension hipifies its sources at build "
                            "time and compiles them with hipcc (PyTorch built for ROCm)")
        extension = name.rsplit(".", 1)[-1] in _EXTENSIONS
        for i, arg in enumerate(call.args):
            key = arg.keyword.value if arg.keyword is not None else ""
            if key == "extra_compile_args":
                self._compile_args(arg.value)
            elif key == "libraries":
                self._libraries(arg.value)
            elif extension and (key == "sources" or (not key and i == 1)):
                self._sources(arg.value)
        if name in ("glob", "glob.glob", "glob.iglob", "iglob") and call.args:
            self._glob(call.args[0].value)

    def _compile_args(self, value: cst.BaseExpression) -> None:
        for node in self._resolve(value):
            if isinstance(node, cst.Dict):
                for el in node.elements:
                    if isinstance(el, cst.DictElement) and _string(el.key) == "nvcc":
                        self._nvcc(el.value)
            elif isinstance(node, cst.Call) and _dotted(node.func) == "dict":
                for arg in node.args:
                    if arg.keyword is not None and arg.keyword.value == "nvcc":
                        self._nvcc(arg.value)
            elif not isinstance(node, (cst.List, cst.Tuple)):  # a list: C++ options only (no nvcc key)
                self._unresolved(node, "extra_compile_args")

    def _unresolved(self, node: cst.CSTNode, what: str) -> None:
        if id(node) in self.done:
            return
        self.done.add(id(node))
        src = " ".join(self.module.code_for_node(node).split())
        self.out.report(R.SETUP_OPTIONS_UNCHECKED, self.start(node),
                        f"{what} from `{src[:60]}` is computed: its nvcc options were not checked (hipcc rejects "
                        "nvcc's spellings)", fix="translate the nvcc options as `cuda2rocm migrate build` would")

    def _nvcc(self, value: cst.BaseExpression) -> None:
        for node in self._resolve(value):
            if isinstance(node, (cst.List, cst.Tuple)):
                self._option_list(list(node.elements), isinstance(node, cst.Tuple))
            elif isinstance(node, cst.SimpleString):  # x.append("--use_fast_math")
                self._option_list([node])
            else:
                self._unresolved(node, "extra_compile_args['nvcc']")

    def _option_list(self, elements: Sequence[cst.BaseElement | cst.SimpleString], tuple_: bool = False) -> None:
        """Translate each run of string literals: one literal is one word of nvcc's command line."""
        if any(id(e) in self.done for e in elements):
            return
        self.done.update(id(e) for e in elements)
        run: list[int] = []
        for i, el in enumerate([*elements, None]):
            lit = _literal(el) if el is not None else None
            if lit is not None or (el is not None and run and run[-1] == i - 1 and _arch_option(elements[i - 1])):
                run.append(i)  # a computed value of -gencode/-arch (f"arch=compute_{cc},...") goes with its option
                continue
            if el is not None:  # "-gencode=...{}".format(cc), f"...", a name: hipcc may still reject it
                self._unresolved(self._node(el), "an nvcc option")
            if run:
                self._translate(elements, run, tuple_)
            run = []

    def _translate(self, elements: Sequence[cst.BaseElement | cst.SimpleString], run: list[int],
                   tuple_: bool) -> None:
        lits = [_literal(elements[i]) for i in run]
        words = []
        for i, lit in zip(run, lits, strict=True):
            if lit is None:  # the computed value of an architecture option, as written
                node = self._node(elements[i])
                words.append(flags.Word(self.text[self.start(node):self.end(node)], self.start(node)))
                continue
            inner = self.start(lit) + len(lit.prefix) + len(lit.quote)
            words.append(flags.Word(lit.raw_value, inner))
        _, changes = flags.translate(self.text, words, self.options.gfx, arch="drop")
        gone: set[int] = set()  # indexes into run of removed literals
        spans = []
        for ch in changes:
            first = next(k for k, w in enumerate(words) if w.offset == ch.offset)
            last = next(k for k, w in enumerate(words) if w.end == ch.offset + len(ch.original))
            spans.append((ch, first, last))
            if not ch.replacement and ch.edit is not None:
                gone.update(range(first, last + 1))
        out = []
        bare = not isinstance(elements[0], cst.BaseElement)  # x.append("..."): one literal, no list around it
        for ch, first, last in spans:
            original = " ".join(w.src for w in words[first:last + 1])
            edit = None
            if bare and ch.edit is not None and len(ch.replacement.split()) != 1:
                self.out.report(R.NVCC_OPTION_DROPPED, ch.offset, f"{original} is nvcc's and hipcc rejects it: "
                                "this call adds one option, so it is not rewritten in place", severity=Severity.MEDIUM,
                                fix=f"`{ch.replacement}`" if ch.replacement else "remove the call")
                continue
            if ch.edit is not None and ch.replacement:
                lit = lits[first]
                assert lit is not None
                new_lits = [f"{lit.prefix}{lit.quote}{w}{lit.quote}" for w in ch.replacement.split()]
                new = ", ".join(new_lits)
                last_lit = lits[last]
                assert last_lit is not None
                gap = self.text[self.end(lit):self.start(last_lit)]  # an option and its value: ",  # note\n  "
                if last == first + 1 and any(self.end(lit) <= c < self.start(last_lit) for c in self.comments):
                    new = (", ".join(new_lits[:-1]) + gap + new_lits[-1] if len(new_lits) > 1
                           else new_lits[0] + gap.replace(",", "", 1).rstrip(" \t"))
                edit = dataclasses.replace(ch.edit, start=self.start(lit), end=self.end(last_lit), replacement=new)
            elif ch.edit is not None:
                edit = self._removal(elements, run, gone, first, last, tuple_)
            out.append(dataclasses.replace(ch, original=original, edit=edit))
        report_flags(self.out, out, self.arch_where + f" ({';'.join(self.options.gfx)})")

    def _removal(self, elements: Sequence[cst.BaseElement | cst.SimpleString], run: list[int],
                 gone: set[int], first: int, last: int, tuple_: bool) -> flags.Edit:
        """Remove list elements ``run[first..last]`` with their separators (the neighbours' edits stay apart);
        comments among them stay."""
        lo, hi = run[first], run[last]
        # elements outside the run are not string literals: they stay
        kept_after = any(k not in gone for k in range(last + 1, len(run))) or run[-1] < len(elements) - 1
        kept_before = any(k not in gone for k in range(first)) or run[0] > 0
        a, b = self._node(elements[lo]), self._node(elements[hi])
        cuts: list[tuple[int, int]] = []  # what goes when comments in the range must stay
        if kept_after:
            start, end = self.start(a), self.start(self._node(elements[hi + 1]))
        elif not kept_before:
            start, end = self.start(a), self._after_comma(elements[hi])
            line_start = self.text.rfind("\n", 0, start) + 1
            if not self.text[line_start:start].strip(" \t") and self.text[end:end + 1] == "\n":
                start, end = line_start, end + 1  # the elements had lines of their own: the lines go
        else:
            before = elements[lo - 1]
            start, end = self.end(self._node(before)), self.end(b)
            last_el = elements[-1]
            trailing = isinstance(last_el, cst.BaseElement) and isinstance(last_el.comma, cst.Comma)
            if isinstance(before, cst.BaseElement) and isinstance(before.comma, cst.Comma):
                if tuple_ and not trailing and (first == 0 or first - 1 not in gone):
                    start = self.end(before.comma)  # ("-O3", "-G") -> ("-O3",): still a tuple
                else:
                    cuts.append((self.start(before.comma), self.end(before.comma)))
        if not any(start <= c < end for c in self.comments):
            return flags.Edit(start, end, "", "nvcc-flag")
        for el in elements[lo:hi + 1]:
            comma = el.comma if isinstance(el, cst.BaseElement) and isinstance(el.comma, cst.Comma) else None
            cuts.append((self.start(self._node(el)), min(end, self.end(comma if comma else self._node(el)))))
        kept, at = [], start
        for cut_start, cut_end in cuts:
            piece = self.text[at:cut_start]
            kept.append(piece if piece.strip(" \t") or at == start else "")  # blanks between cut elements go
            at = cut_end
        kept.append(self.text[at:end])
        replacement = "".join(kept)
        if start == self.start(a):
            replacement = replacement.lstrip(" \t")
        return flags.Edit(start, end, replacement, "nvcc-flag")

    @staticmethod
    def _node(el: cst.BaseElement | cst.SimpleString) -> cst.CSTNode:
        return el.value if isinstance(el, cst.BaseElement) else el

    def _after_comma(self, el: cst.BaseElement | cst.SimpleString) -> int:
        """Where the element's comma and the blanks after it end (a comment after them stays in place)."""
        end = self.end(self._node(el))
        if isinstance(el, cst.BaseElement) and isinstance(el.comma, cst.Comma):
            end = self.end(el.comma)
            while end < len(self.text) and self.text[end] in " \t":
                end += 1
        return end

    def _sources(self, value: cst.BaseExpression) -> None:
        """Sources ``convert`` renamed (``kernels.cu`` -> ``kernels.hip``) follow the rename."""
        if not self.options.renames:
            return
        for node in self._resolve(value):
            elements = node.elements if isinstance(node, (cst.List, cst.Tuple)) else [node]
            for el in elements:
                lit = _literal(el) if isinstance(el, (cst.BaseElement, cst.SimpleString)) else None
                name = _string(lit) if lit is not None else None
                if lit is None or not name or id(lit) in self.done:
                    continue
                self.done.add(id(lit))
                new = self.options.renames.get(self._relative(name))
                if new is not None:
                    renamed = name[:len(name) - len(posixpath.basename(name))] + posixpath.basename(new)
                    self.out.edit(R.SETUP_SOURCES, self.start(lit), self.end(lit),
                                  f"{lit.prefix}{lit.quote}{renamed}{lit.quote}",
                                  f"convert renamed {name}; PyTorch's ROCm build compiles .hip sources with hipcc")

    def _glob(self, value: cst.BaseExpression) -> None:
        """``glob.glob("csrc/*.cu")`` where ``convert`` renamed the files it matched."""
        lit = value if isinstance(value, cst.SimpleString) else None
        pattern = _string(lit) if lit is not None else None
        if lit is None or not pattern or not pattern.endswith(".cu") or not self.options.renames:
            return
        matched = [new for old, new in self.options.renames.items() if fnmatch.fnmatchcase(old, self._relative(
            pattern))]
        if matched:
            suffix = posixpath.splitext(matched[0])[1]
            self.out.edit(R.SETUP_SOURCES, self.start(lit), self.end(lit),
                          f"{lit.prefix}{lit.quote}{pattern[:-3]}{suffix}{lit.quote}",
                          f"convert renamed the .cu sources {pattern} matched to {suffix}")

    def _relative(self, name: str) -> str:
        """A path written in setup.py (relative to its directory) as a path relative to the project root."""
        return posixpath.normpath(posixpath.join(posixpath.dirname(self.path), name))

    def _libraries(self, value: cst.BaseExpression) -> None:
        index = library_index()
        for node in self._resolve(value):
            if not isinstance(node, (cst.List, cst.Tuple)) or id(node) in self.done:
                continue
            self.done.add(id(node))
            for el in node.elements:
                lit = _literal(el)
                name = _string(lit) if lit is not None else None
                lib = index.get(name) if name else None
                if lit is None or lib is None or name not in lib.names or not lib.hip_link:
                    continue
                new = f"{lit.prefix}{lit.quote}{lib.hip_link}{lit.quote}"
                self.out.edit(R.SETUP_LIBRARIES, self.start(lit), self.end(lit), new,
                              f"`{name}` links the CUDA {lib.library} library" + (f" ({lib.note})" if lib.note else ""))

    # -- TORCH_CUDA_ARCH_LIST ---------------------------------------------------------------------------------
    def _arch_list(self) -> None:
        targets = ";".join(self.options.gfx)
        handled: set[int] = set()
        for node in m.findall(self.module, m.Assign(targets=[m.AssignTarget(target=m.Subscript())])):
            assert isinstance(node, cst.Assign)
            target = node.targets[0].target
            assert isinstance(target, cst.Subscript)
            if _is_environ(target.value) and len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index):
                self._arch_pair(target.slice[0].slice.value, node.value, targets, handled)
        for call in m.findall(self.module, m.Call(func=m.Attribute(attr=m.Name("setdefault")))):
            assert isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
            if _is_environ(call.func.value) and len(call.args) == 2:
                self._arch_pair(call.args[0].value, call.args[1].value, targets, handled)
        for lit in m.findall(self.module, m.SimpleString()):
            if id(lit) not in handled and _string(lit) == "TORCH_CUDA_ARCH_LIST":
                self.out.report(R.SETUP_ARCH_LIST, self.start(lit),
                                "TORCH_CUDA_ARCH_LIST names NVIDIA compute capabilities; PyTorch's ROCm build "
                                "reads PYTORCH_ROCM_ARCH", fix=f"PYTORCH_ROCM_ARCH={targets}")

    def _arch_pair(self, key: cst.BaseExpression, value: cst.BaseExpression, targets: str,
                   handled: set[int]) -> None:
        if _string(key) != "TORCH_CUDA_ARCH_LIST":
            return
        assert isinstance(key, cst.SimpleString)
        handled.add(id(key))
        self.out.edit(R.SETUP_ARCH_LIST, self.start(key), self.end(key),
                      f"{key.prefix}{key.quote}PYTORCH_ROCM_ARCH{key.quote}",
                      "TORCH_CUDA_ARCH_LIST names NVIDIA compute capabilities; PyTorch's ROCm build reads "
                      "PYTORCH_ROCM_ARCH")
        if _string(value) is not None:
            assert isinstance(value, cst.SimpleString)
            self.out.edit(R.SETUP_ARCH_LIST, self.start(value), self.end(value),
                          f"{value.prefix}{value.quote}{targets}{value.quote}",
                          f"`{_string(value)}` are NVIDIA architectures; the gfx targets replace them")
        else:
            self.out.report(R.SETUP_ARCH_LIST, self.start(value),
                            "the architecture list is computed: PYTORCH_ROCM_ARCH takes gfx targets",
                            fix=f"\"{targets}\"")

    # -- CUDA_HOME --------------------------------------------------------------------------------------------
    def _cuda_home(self) -> None:
        imported = None  # the ImportAlias of CUDA_HOME in `from torch.utils.cpp_extension import ...`
        rocm_imported = False
        for node in m.findall(self.module, m.ImportFrom()):
            assert isinstance(node, cst.ImportFrom)
            if node.module is None or _dotted(node.module) != CPP_EXTENSION or isinstance(node.names, cst.ImportStar):
                continue
            for alias in node.names:
                local = alias.asname.name if alias.asname is not None else alias.name
                if isinstance(local, cst.Name) and local.value == "ROCM_HOME":
                    rocm_imported = True
                if _dotted(alias.name) == "CUDA_HOME" and alias.asname is None and imported is None:
                    imported = alias
        # a CUDA_HOME the file sets itself (os.environ.get) is checked the same way: ROCM_HOME joins any import
        # from cpp_extension
        anchor = imported if imported is not None else self._cpp_import("ROCM_HOME")
        can_edit = anchor is not None
        names = [n for n in m.findall(self.module, m.Name("CUDA_HOME")) if not self._in_import(n)]
        edited = False
        for name in names:
            assert isinstance(name, cst.Name)
            parent = self.parents[name]
            if isinstance(parent, cst.AssignTarget) or id(name) in self.done or self._already(name):
                continue  # assigned, or a condition that names ROCM_HOME already
            check = self._check(name)
            if check is None and can_edit and self._joined(name):
                edited |= self.out.edit(R.SETUP_CUDA_HOME, self.start(name), self.end(name), "CUDA_HOME or ROCM_HOME",
                                        "a path under CUDA_HOME, which is None on ROCm: under ROCM_HOME there")
                continue
            if check is None:
                self.out.report(R.SETUP_CUDA_HOME, self.start(name),
                                "CUDA_HOME is None in a ROCm build of PyTorch; ROCm builds set ROCM_HOME "
                                "(torch.version.hip says the platform)", fix="ROCM_HOME where torch.version.hip",
                                severity=Severity.MEDIUM)
                continue
            node, replacement = check
            message = ("the check fails on ROCm, where CUDA_HOME is None and ROCM_HOME is set "
                       "(torch.version.hip)")
            if self._already(node):
                continue
            if can_edit:
                edited |= self.out.edit(R.SETUP_CUDA_HOME, self.start(node), self.end(node), replacement, message)
            else:
                self.out.report(R.SETUP_CUDA_HOME, self.start(node), message + f"; nothing is imported from "
                                f"{CPP_EXTENSION} here to import ROCM_HOME beside", fix=f"`{replacement}`")
        if edited and isinstance(anchor, cst.ImportAlias) and not rocm_imported:
            at = self.end(anchor.name)
            self.out.edit(R.SETUP_CUDA_HOME, at, at, ", ROCM_HOME", "ROCM_HOME, for the checks of CUDA_HOME")

    def _joined(self, name: cst.Name) -> bool:
        """``os.path.join(CUDA_HOME, "include")``: a path under the toolkit (not to nvcc, which ROCm lacks)."""
        arg = self.parents[name]
        call = self.parents.get(arg) if isinstance(arg, cst.Arg) else None
        return isinstance(call, cst.Call) and _dotted(call.func) in ("os.path.join", "path.join", "join") and \
            call.args[0] is arg and not any("nvcc" in (_string(a.value) or "") for a in call.args)

    # -- module code that runs nvcc or takes torch.version.cuda for a string ----------------------------------
    def _cuda_only(self) -> bool:
        """Module-level statements that crash on ROCm, where CUDA_HOME and ``torch.version.cuda`` are None: a call
        that runs nvcc (directly or through a function of the file), a use of ``torch.version.cuda`` as a value
        (``parse(torch.version.cuda)``), and every later statement that reads a name they set. Each run of them is
        put under ``if not IS_HIP_EXTENSION:`` (cpp_extension's own platform flag); a run that holds the
        ``setup()`` call, or a multi-line string, is reported instead."""
        runs_nvcc = self._nvcc_functions()
        tainted: set[str] = set()
        defined: set[str] = set()  # names an earlier statement set: they exist on ROCm too
        marked: list[_Statement] = []
        reasons: dict[int, str] = {}
        for stmt in self.module.body:
            sets = _names_set(stmt) | _names_bound(stmt)
            if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) or self._platform_branch(stmt) or (
                    isinstance(stmt, cst.SimpleStatementLine)
                    and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body)):
                defined |= sets
                continue
            why = self._cuda_value(stmt, runs_nvcc) or next((f"reads {n}, set from CUDA-only values"
                                                            for n in sorted(_names_read(stmt) & tainted)), "")
            if why and m.findall(stmt, m.Call(func=m.Name("setup") | m.Attribute(attr=m.Name("setup")))):
                self.out.report(R.SETUP_CUDA_ONLY, self.start(stmt), f"setup() runs under code that {why}: "
                                "it fails on ROCm (CUDA_HOME and torch.version.cuda are None); branch on "
                                "IS_HIP_EXTENSION by hand")
            elif why:
                tainted |= sets - defined
                marked.append(stmt)
                reasons[id(stmt)] = why
            defined |= sets
        if not marked:
            return False
        alias = self._cpp_import("IS_HIP_EXTENSION")
        body: list[_Statement] = list(self.module.body)
        groups: list[list[_Statement]] = []
        for stmt in marked:
            if groups and body.index(groups[-1][-1]) == body.index(stmt) - 1:
                groups[-1].append(stmt)
            else:
                groups.append([stmt])
        wrapped = False
        for group in groups:
            start, end = self.start(group[0]), self.end(group[-1])
            strings = [n for g in group for n in m.findall(g, m.SimpleString() | m.ConcatenatedString()
                                                            | m.FormattedString())]
            if alias is None or "\t" in self.text[start:end] or any(
                    "\n" in self.module.code_for_node(n) for n in strings):  # re-indenting would change them
                self.out.report(R.SETUP_CUDA_ONLY, start, f"it {reasons[id(group[0])]}: this code fails on ROCm; "
                                f"put it under `if not IS_HIP_EXTENSION:` (from {CPP_EXTENSION})")
                continue
            block = "".join(("    " + ln if ln.strip() else ln)
                            for ln in self.text[start:end].splitlines(keepends=True))
            first = " ".join(self.module.code_for_node(group[0]).split())
            wrapped |= self.out.edit(
                R.SETUP_CUDA_ONLY, start, end, f"{GUARD}\n{block}", f"`{first[:60]}` and the {len(group) - 1} "
                f"statement(s) after it run only in CUDA builds: it {reasons[id(group[0])]}")
        return wrapped

    def _import_flag(self) -> None:
        """``IS_HIP_EXTENSION`` beside the file's first import from cpp_extension (the guard's flag)."""
        alias = self._cpp_import("IS_HIP_EXTENSION")
        if not isinstance(alias, cst.ImportAlias):
            return
        at = self.end(alias.name)
        if not self.out.free(at, at):  # ROCM_HOME went there: the flag goes first
            at = self.start(self.parents[alias].names[0].name)  # type: ignore[attr-defined]
            self.out.edit(R.SETUP_CUDA_ONLY, at, at, "IS_HIP_EXTENSION, ", "IS_HIP_EXTENSION, the platform flag of "
                          "the CUDA-only code's guard")
            return
        self.out.edit(R.SETUP_CUDA_ONLY, at, at, ", IS_HIP_EXTENSION", "IS_HIP_EXTENSION, the platform flag of the "
                      "CUDA-only code's guard")

    def _cpp_import(self, name: str = "") -> cst.ImportAlias | bool | None:
        """Where ``name`` can be imported: the last name of the first ``from torch.utils.cpp_extension import ...``
        (True: ``name`` is imported already, or ``*``; None: no such import)."""
        found: cst.ImportAlias | bool | None = None
        for node in m.findall(self.module, m.ImportFrom()):
            assert isinstance(node, cst.ImportFrom)
            if node.module is None or _dotted(node.module) != CPP_EXTENSION:
                continue
            if isinstance(node.names, cst.ImportStar) or any(
                    _dotted(a.name) == name and a.asname is None for a in node.names):
                return True
            found = found or node.names[-1]
        return found

    def _nvcc_functions(self) -> set[str]:
        """The module's functions that run nvcc, directly or through another of them."""
        funcs = {f.name.value: f for f in self.module.body if isinstance(f, cst.FunctionDef)}
        found = {name for name, f in funcs.items() if _runs_nvcc(f, set())}
        while True:
            more = {name for name, f in funcs.items() if name not in found and _runs_nvcc(f, found)}
            if not more:
                return found
            found |= more

    def _cuda_value(self, stmt: cst.CSTNode, runs_nvcc: set[str]) -> str:
        if _runs_nvcc(stmt, runs_nvcc):
            return "runs nvcc (there is none on ROCm, and CUDA_HOME is None)"
        for attr in m.findall(stmt, m.Attribute(value=m.Attribute(value=m.Name("torch"), attr=m.Name("version")),
                                                attr=m.Name("cuda"))):
            parent = self.parents.get(attr)
            if isinstance(parent, (cst.Arg, cst.Attribute, cst.Subscript)) or (
                    isinstance(parent, cst.Comparison) and not m.matches(parent.comparisons[0].comparator,
                                                                         m.Name("None"))):
                return "takes torch.version.cuda for a string (it is None in a ROCm build)"
        return ""

    @staticmethod
    def _platform_branch(stmt: cst.CSTNode) -> bool:
        """An ``if`` that chooses the platform already (it names IS_HIP_EXTENSION, ROCM_HOME, torch.version.hip
        or CUDA_HOME): its code is the author's (or an earlier run's) per-platform code."""
        if not isinstance(stmt, cst.If):
            return False
        names = {n.value for n in m.findall(stmt.test, m.Name()) if isinstance(n, cst.Name)}
        return bool(names & {"IS_HIP_EXTENSION", "ROCM_HOME", "CUDA_HOME", "hip"}) or any(
            "rocm" in n.lower() or "hip" in n.lower() for n in names)

    def _in_import(self, node: cst.CSTNode) -> bool:
        parent = self.parents.get(node)
        while parent is not None and not isinstance(parent, cst.Module):
            if isinstance(parent, (cst.ImportFrom, cst.Import)):
                return True
            if isinstance(parent, cst.BaseStatement):
                return False
            parent = self.parents.get(parent)
        return False

    def _check(self, name: cst.Name) -> tuple[cst.BaseExpression, str] | None:
        """The check ``name`` is part of and its ROCm-aware form, where it is simple enough to rewrite."""
        parent = self.parents[name]
        if isinstance(parent, cst.Comparison) and parent.left is name and len(parent.comparisons) == 1:
            target = parent.comparisons[0]
            op = _NONE_OPS.get(type(target.operator))
            if op is None or not m.matches(target.comparator, m.Name("None")):
                return None
            spelled, is_none = op
            new = f"{self.text[self.start(parent):self.end(parent)]} {'and' if is_none else 'or'} ROCM_HOME " \
                  f"{spelled} None"
            outer = self.parents[parent]
            if not parent.lpar and isinstance(outer, (cst.BooleanOperation, cst.UnaryOperation)):
                new = f"({new})"
            return parent, new
        if isinstance(parent, (cst.If, cst.While)) and parent.test is name:
            return name, "CUDA_HOME or ROCM_HOME"
        if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not) and not parent.lpar \
                and isinstance(self.parents[parent], (cst.If, cst.While)):
            return parent, "not CUDA_HOME and not ROCM_HOME"
        return None

    def _already(self, node: cst.CSTNode) -> bool:
        """The condition ``node`` belongs to names ROCM_HOME already (a person's or an earlier run's edit)."""
        top = node
        parent = self.parents.get(top)
        while isinstance(parent, (cst.BooleanOperation, cst.UnaryOperation, cst.Comparison)):
            top = parent
            parent = self.parents.get(top)
        return bool(m.findall(top, m.Name("ROCM_HOME")))


def _arch_option(el: cst.BaseElement | cst.SimpleString) -> bool:
    """A literal nvcc architecture option whose value is the next word (``"-gencode"``, ``"-arch"``)."""
    lit = _literal(el)
    row = flags.table().get(lit.raw_value) if lit is not None else None
    return row is not None and row.action == "arch" and row.value == "separate"


def _literal(el: cst.BaseElement | cst.SimpleString | None) -> cst.SimpleString | None:
    node = el.value if isinstance(el, cst.BaseElement) else el
    return node if isinstance(node, cst.SimpleString) and _string(node) is not None else None


_SUBPROCESS = ("subprocess.", "os.popen", "os.system", "check_output", "check_call", "Popen", "run", "call")


def _runs_nvcc(node: cst.CSTNode, functions: set[str]) -> bool:
    """Whether ``node`` runs nvcc (a subprocess call with an argument naming it) or calls one of ``functions``."""
    for call in m.findall(node, m.Call()):
        assert isinstance(call, cst.Call)
        name = _dotted(call.func)
        if name in functions:
            return True
        if (name.startswith(_SUBPROCESS) or name in _SUBPROCESS) and any(
                "nvcc" in (_string(s) or "") for a in call.args for s in m.findall(a, m.SimpleString())):
            return True
    return False


def _names_read(stmt: cst.CSTNode) -> set[str]:
    """The plain names a statement reads (not attribute names, keywords or assignment targets)."""
    skip = {id(n) for a in m.findall(stmt, m.Attribute()) if isinstance(a, cst.Attribute) for n in [a.attr]}
    skip |= {id(a.keyword) for a in m.findall(stmt, m.Arg()) if isinstance(a, cst.Arg) and a.keyword is not None}
    for t in m.findall(stmt, m.AssignTarget()):
        assert isinstance(t, cst.AssignTarget)
        skip |= {id(n) for n in m.findall(t.target, m.Name())}
    return {n.value for n in m.findall(stmt, m.Name()) if isinstance(n, cst.Name) and id(n) not in skip}


def _names_bound(stmt: cst.CSTNode) -> set[str]:
    """The names an import, ``def`` or ``class`` binds."""
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return {stmt.name.value}
    out: set[str] = set()
    for alias in m.findall(stmt, m.ImportAlias()):
        assert isinstance(alias, cst.ImportAlias)
        bound = alias.asname.name if alias.asname is not None else alias.name
        out.add(_dotted(bound).split(".")[0])
    return out


def _names_set(stmt: cst.CSTNode) -> set[str]:
    """The names a statement assigns (``x = ``, ``a, b = ``, ``x += ``, ``for x in``)."""
    out: set[str] = set()
    for node in m.findall(stmt, m.AssignTarget() | m.AugAssign() | m.AnnAssign() | m.For()):
        target = node.target  # type: ignore[attr-defined]
        out |= {n.value for n in m.findall(target, m.Name()) if isinstance(n, cst.Name)}
    return out
