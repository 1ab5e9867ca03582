"""CMake listfiles: CUDA language, architectures, toolkit packages, libraries, sources and nvcc options -> HIP.

Read with the lossless CMake reader (``source/formats/cmake``); every change is an edit of one argument or an
insertion after one command, so comments, layout and everything the migrator does not know stay byte for byte.
Two styles (``BuildOptions.style``, docs/migrate.md): ``language`` uses CMake's HIP language (CMake >= 3.21 and
ROCm's hip-lang package); ``package`` uses ``find_package(hip)`` with ``hip::device`` and compiles device sources
as CXX with hipcc (for installs without hip-lang, such as Debian's ROCm 5.2 packages, and older CMake).

A project is migrated in two steps: :func:`project_facts` reads every listfile once (which CUDA libraries are
linked anywhere, which variables carry nvcc options, whether the toolkit is found with ``find_package``), then
:func:`migrate_cmake` rewrites each file with those facts.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from cuda2rocm.mapping import load as load_mapping
from cuda2rocm.migrate import flags
from cuda2rocm.migrate import rules as R
from cuda2rocm.migrate.base import (
    BuildOptions,
    Collector,
    FileMigration,
    library_index,
    report_flags,
)
from cuda2rocm.model import Severity
from cuda2rocm.project.buildopts import cmake_variables
from cuda2rocm.rules import Rule
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.cmake import Argument, CMakeFile, Command, read_cmake

_PROJECT_KEYWORDS = frozenset({"VERSION", "DESCRIPTION", "HOMEPAGE_URL", "LANGUAGES"})
_TARGET_KEYWORDS = frozenset({"STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE", "EXCLUDE_FROM_ALL", "WIN32",
                              "MACOSX_BUNDLE", "PRIVATE", "PUBLIC", "IMPORTED", "GLOBAL", "ALIAS", "OPTIONS"})
_LINK_KEYWORDS = frozenset({"PRIVATE", "PUBLIC", "INTERFACE", "LINK_PRIVATE", "LINK_PUBLIC",
                            "LINK_INTERFACE_LIBRARIES"})
_FIND_KEYWORDS = frozenset({"REQUIRED", "QUIET"})
_CUDA_PACKAGES = {"cuda": "toolkit", "cudatoolkit": "toolkit", "nccl": "nccl", "cudnn": "cudnn"}
_LEGACY_COMMANDS = {"cuda_add_library": "add_library", "cuda_add_executable": "add_executable",
                    "cuda_include_directories": "include_directories"}
_LEGACY_REPORT = frozenset({"cuda_compile", "cuda_compile_ptx", "cuda_compile_fatbin", "cuda_compile_cubin",
                            "cuda_wrap_srcs", "cuda_add_cufft_to_target", "cuda_add_cublas_to_target",
                            "cuda_build_clean_target", "cuda_select_nvcc_arch_flags"})
_FLAG_COMMANDS = frozenset({"target_compile_options", "add_compile_options", "target_link_options",
                            "add_link_options"})
_COND_COMMANDS = frozenset({"if", "elseif", "while"})
#: variables tested in conditions that are not find results: name -> (language style, package style)
_CONDITION_NAMES = {"CMAKE_CUDA_COMPILER": ("CMAKE_HIP_COMPILER", "hip_FOUND"),
                    "CMAKE_CUDA_COMPILER_LOADED": ("CMAKE_HIP_COMPILER_LOADED", "hip_FOUND")}
#: CUDA libraries linked by name that have no ROCm counterpart: name -> why
_NO_HIP_LIBRARY = {"cudadevrt": "the CUDA device runtime (device-side kernel launches, dynamic parallelism) has no "
                                "HIP counterpart: such kernels must be restructured",
                   "culibos": "CUDA's static-library OS layer; the ROCm libraries need none"}
_ENV_CUDA = re.compile(r"\$ENV\{(CUDA_HOME|CUDA_PATH|CUDA_ROOT|CUDA_TOOLKIT_ROOT_DIR|CUDAToolkit_ROOT)\}")
_STD_FEATURE = re.compile(r"cuda_std_(\d+)")
_LINK_COMMANDS = frozenset({"target_link_libraries", "link_libraries"})
#: nvcc spellings that other compilers use too: translated only where the options are known to be nvcc's
_AMBIGUOUS = frozenset({"-G", "-t", "-x", "-arch", "-code", "-keep", "-Werror", "-Xlinker", "-dc", "-ptx"})
_VAR_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_GENEX_LANG = re.compile(r"\$<(COMPILE_LANGUAGE|LINK_LANGUAGE|COMPILE_LANG_AND_ID|LINK_LANG_AND_ID):([^>]*)>")
_GENEX_CUDA_TEST = re.compile(r"\$<(?:COMPILE|LINK)_(?:LANGUAGE:CUDA|LANG_AND_ID:CUDA,)")
_GENEX_CUDA_BLOCK = re.compile(r"\$<\$<(?:(?:COMPILE|LINK)_LANGUAGE:CUDA|(?:COMPILE|LINK)_LANG_AND_ID:CUDA,[^>]*)>:")


@dataclass
class CMakeFacts:
    """What the whole project says, gathered before any file is rewritten."""

    hip_packages: list[str] = field(default_factory=list)  # in first-use order
    flag_variables: set[str] = field(default_factory=set)  # variables whose values reach nvcc
    finds_toolkit: bool = False  # some listfile has find_package(CUDA|CUDAToolkit)
    found_separately: set[str] = field(default_factory=set)  # packages with a find_package of their own (NCCL)
    enables_cuda: bool = False  # some project() or enable_language() names the CUDA language

    def need(self, package: str) -> None:
        if package and package not in self.hip_packages:
            self.hip_packages.append(package)


def project_facts(files: Iterable[CMakeFile]) -> CMakeFacts:
    facts = CMakeFacts()
    index = library_index()
    for doc in files:
        for cmd in doc.commands:
            name = cmd.lower
            values = cmd.values()
            if name == "find_package" and values and _CUDA_PACKAGES.get(values[0].lower()) == "toolkit":
                facts.finds_toolkit = True
            if name in ("project", "enable_language") and "CUDA" in values[name == "project":]:
                facts.enables_cuda = True
            for arg in cmd.arguments:
                for word in _words_of(arg.value):
                    if name in _LINK_COMMANDS and word.startswith("-l"):
                        word = word[2:]
                    lib = index.get(word)
                    linked = name in _LINK_COMMANDS and word in (lib.names if lib else ())
                    if lib is not None and (word.startswith("CUDA::") or linked):
                        facts.need(lib.hip_package)
                for ref in _VAR_REF.findall(arg.src):
                    lib = index.get(ref)
                    if lib is not None and ref in lib.legacy:
                        facts.need(lib.hip_package)
            if name == "find_package" and values and _CUDA_PACKAGES.get(values[0].lower()) in ("nccl", "cudnn"):
                package = "rccl" if values[0].lower() == "nccl" else "miopen"
                facts.need(package)
                facts.found_separately.add(package)
            if _flag_list_command(cmd):
                for arg in cmd.arguments[1:]:
                    facts.flag_variables.update(_VAR_REF.findall(arg.src))
            for arg in cmd.arguments:
                for block in _GENEX_CUDA_BLOCK.finditer(arg.src):
                    facts.flag_variables.update(_VAR_REF.findall(arg.src[block.end():]))
    facts.flag_variables -= set(cmake_variables())
    return facts


def _words_of(value: str) -> list[str]:
    return [w for w in re.split(r"[;\s]+", value) if w]


def _flag_list_command(cmd: Command) -> bool:
    """set/list/string commands that assign CMAKE_CUDA_FLAGS* or CUDA_NVCC_FLAGS."""
    values = cmd.values()
    if cmd.lower == "set" and values:
        return values[0].startswith("CMAKE_CUDA_FLAGS") or values[0] == "CUDA_NVCC_FLAGS"
    if cmd.lower in ("list", "string") and len(values) > 1 and values[0].upper() in ("APPEND", "PREPEND"):
        return values[1].startswith("CMAKE_CUDA_FLAGS") or values[1] == "CUDA_NVCC_FLAGS"
    return False


def migrate_cmake(path: str, text: str, options: BuildOptions, facts: CMakeFacts | None = None,
                  doc: CMakeFile | None = None) -> FileMigration:
    """The edits that make ``text`` (the listfile at ``path``, relative to the project root) build with HIP;
    ``doc``: ``text`` already read (the project pass reads every listfile once)."""
    doc = doc if doc is not None and doc.text == text else read_cmake(text)
    if doc.problems:
        return FileMigration(path, problems=doc.problems)
    facts = facts if facts is not None else project_facts([doc])
    return _Migrator(path, doc, options, facts).run()


class _Migrator:
    def __init__(self, path: str, doc: CMakeFile, options: BuildOptions, facts: CMakeFacts) -> None:
        self.path = path
        self.doc = doc
        self.text = doc.text
        self.options = options
        self.facts = facts
        self.language = options.style == "language"
        self.out = Collector(path, doc.text)
        self.done: set[int] = set()  # offsets of arguments already rewritten
        self.hip_found = facts.finds_toolkit  # a find_package(hip) will be written where the toolkit was found
        self.signatures = self._link_signatures()
        self.has_language, self.device_linked = self._already_migrated()
        self.cuda_by_property = self._cuda_by_property()
        self.suffix = _renamed_suffix(options.renames)

    # -- driving -------------------------------------------------------------------------------------------
    def run(self) -> FileMigration:
        for cmd in self.doc.commands:
            handler = getattr(self, "_cmd_" + cmd.lower, None)
            if cmd.lower in _LEGACY_COMMANDS:
                self._legacy(cmd)
            elif cmd.lower in _LEGACY_REPORT:
                self.out.report(R.LEGACY_FINDCUDA, cmd.offset, f"{cmd.name}() is a FindCUDA command with no HIP "
                                "form: compile these sources in an ordinary target")
            elif handler is not None:
                handler(cmd)
            if cmd.lower in _FLAG_COMMANDS:
                self._flag_command(cmd)
            self._generic(cmd)
        return self.out.result()

    def _arg_edit(self, rule: Rule, arg: Argument, new_src: str, message: str) -> None:
        if arg.offset in self.done or new_src == arg.src:
            return
        if self.out.edit(rule, arg.offset, arg.end, new_src, message):
            self.done.add(arg.offset)

    def _insert_after(self, cmd: Command, lines: Sequence[str], rule: Rule, message: str) -> None:
        indent = " " * (cmd.col - 1)
        newline = "\r\n" if "\r\n" in self.text else "\n"
        self.out.edit(rule, cmd.end, cmd.end, "".join(newline + indent + line for line in lines), message)

    def _remove_command(self, cmd: Command, rule: Rule, message: str) -> None:
        """Remove a whole command (its line too when nothing else is on it)."""
        start, end = cmd.offset, cmd.end
        line_start = self.text.rfind("\n", 0, start) + 1
        line_end = self.text.find("\n", end)
        line_end = len(self.text) if line_end < 0 else line_end
        if not self.text[line_start:start].strip() and not self.text[end:line_end].strip():
            start, end = line_start, min(len(self.text), line_end + 1)
        if self.out.edit(rule, start, end, "", message):
            self.done.update(a.offset for a in cmd.arguments)

    def _remove_arg(self, rule: Rule, arg: Argument, message: str) -> None:
        if arg.offset in self.done:
            return
        self.done.add(arg.offset)
        start, end = arg.offset, arg.end
        while start > 0 and self.text[start - 1] in " \t":
            start -= 1
        if start > 0 and self.text[start - 1] == "(":  # the first argument: the space after it goes instead
            start = arg.offset
            while end < len(self.text) and self.text[end] in " \t":
                end += 1
        self.out.edit(rule, start, end, "", message)

    # -- languages -----------------------------------------------------------------------------------------
    def _cmd_project(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        langs: list[Argument] = []
        keyword = ""
        for i, arg in enumerate(args[1:], 1):
            if arg.value in _PROJECT_KEYWORDS:
                keyword = arg.value
                continue
            if arg.value == "CUDA" and (keyword == "LANGUAGES" or (not keyword and i >= 1)):
                langs.append(arg)
        if not langs:
            return
        others = [a.value for a in args[1:] if a.value in ("C", "CXX", "HIP", "Fortran", "OBJC", "OBJCXX")]
        for arg in langs:
            self._language(arg, has_cxx="CXX" in others)
        self._find_hip_here(cmd)

    def _cmd_enable_language(self, cmd: Command) -> None:
        values = cmd.values()
        for arg in cmd.arguments:
            if arg.value == "CUDA":
                self._language(arg, has_cxx=len(values) > 1)
                self._find_hip_here(cmd)

    def _cmd_check_language(self, cmd: Command) -> None:
        for arg in cmd.arguments:
            if arg.value != "CUDA":
                continue
            if self.language:
                self._arg_edit(R.CUDA_LANGUAGE, arg, "HIP", "check_language(CUDA) checks for nvcc")
            elif self.out.edit(R.CUDA_LANGUAGE, cmd.offset, cmd.end,
                               ("\r\n" if "\r\n" in self.text else "\n").join(
                                   " " * (cmd.col - 1) * bool(i) + line
                                   for i, line in enumerate(self._find_lines("QUIET"))),
                               "check_language(CUDA) checks for nvcc; hip_FOUND, which the CMAKE_CUDA_COMPILER "
                               "tests after it become, is set by find_package(hip) (GPU_TARGETS before it)"):
                self.done.add(arg.offset)

    def _language(self, arg: Argument, *, has_cxx: bool) -> None:
        if self.language:
            self._arg_edit(R.CUDA_LANGUAGE, arg, "HIP", "the CUDA language becomes HIP")
        elif has_cxx:
            self._remove_arg(R.CUDA_LANGUAGE, arg, "the CUDA language goes: device code is compiled as CXX by hipcc "
                             "(package style)")
        else:
            self._arg_edit(R.CUDA_LANGUAGE, arg, "CXX", "device code is compiled as CXX by hipcc (package style)")

    def _find_hip_here(self, cmd: Command) -> None:
        """Without a find_package(CUDA|CUDAToolkit) in the project, find hip where the language was enabled."""
        if self.hip_found:
            return
        self.hip_found = True
        self._insert_after(cmd, self._find_lines("REQUIRED"), R.FIND_CUDA, "find_package(hip) and the ROCm "
                           "libraries the project links")

    def _find_lines(self, mode: str) -> list[str]:
        suffix = f" {mode}" if mode else ""
        lines = []
        if not self.language:
            lines.append(f'set(GPU_TARGETS "{";".join(self.options.gfx)}" CACHE STRING "AMD GPU targets")')
        lines.append(f"find_package(hip{suffix})")
        lines.extend(f"find_package({p}{suffix})" for p in self.facts.hip_packages
                     if p != "hip" and p not in self.facts.found_separately)
        return lines

    def _legacy_language(self, cmd: Command) -> bool:
        """``find_package(CUDA)`` of a project that never enables the CUDA language (FindCUDA compiles with its
        own commands): the HIP language must be enabled where it is (language style)."""
        values = cmd.values()
        return self.language and not self.facts.enables_cuda and cmd.lower == "find_package" and \
            bool(values) and values[0].lower() == "cuda"

    def _cmd_cmake_minimum_required(self, cmd: Command) -> None:
        if not self.language or not any((c.lower in ("project", "enable_language") and "CUDA" in c.values())
                                        or self._legacy_language(c) for c in self.doc.commands):
            return
        args = cmd.arguments
        for i, arg in enumerate(args[:-1]):
            if arg.value == "VERSION":
                version = args[i + 1]
                low, sep, high = version.value.partition("...")
                if _version_tuple(low) < (3, 21):
                    self._arg_edit(R.MINIMUM_VERSION, version, "3.21" + (sep + high if sep else ""),
                                   f"CMake {low} has no HIP language (3.21 or newer)")

    # -- packages and libraries ----------------------------------------------------------------------------
    def _cmd_find_package(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        if not args:
            return
        kind = _CUDA_PACKAGES.get(args[0].value.lower())
        if kind == "toolkit":
            mode = " ".join(a.value for a in args[1:] if a.value in _FIND_KEYWORDS)
            lines = self._find_lines(mode)
            self.out.edit(R.FIND_CUDA, args[0].offset, args[0].end, "hip",
                          f"find_package({args[0].value}) becomes find_package(hip) and the ROCm libraries' packages")
            for arg in args[1:]:
                if arg.value == "EXACT" or re.fullmatch(r"[\d.]+(\.\.\.[\d.]+)?", arg.value):
                    self._remove_arg(R.FIND_CUDA, arg, f"{arg.value} is a CUDA toolkit version")
            self.done.update(a.offset for a in cmd.arguments)
            newline = "\r\n" if "\r\n" in self.text else "\n"
            indent = " " * (cmd.col - 1)
            before = [ln for ln in lines if ln.startswith("set(")]
            after = [ln for ln in lines if ln.startswith("find_package(") and ln.split("(")[1].split()[0] != "hip"
                     and ln != "find_package(hip)"]
            if self._legacy_language(cmd):
                after.insert(0, "enable_language(HIP)")
            if before:
                self.out.edit(R.CUDA_ARCHITECTURES, cmd.offset, cmd.offset,
                              "".join(b + newline + indent for b in before),
                              "hip::device takes its targets from GPU_TARGETS when hip is found")
            if after:
                self.out.edit(R.FIND_CUDA, cmd.end, cmd.end, "".join(newline + indent + a for a in after),
                              "the packages of the ROCm libraries the project links")
        elif kind in ("nccl", "cudnn"):
            new = "rccl" if kind == "nccl" else "miopen"
            self._arg_edit(R.FIND_CUDA, args[0], new, f"{args[0].value} becomes ROCm's {new} package")

    def _cmd_find_library(self, cmd: Command) -> None:
        index = library_index()
        for arg in cmd.arguments[1:]:
            lib = index.get(arg.value)
            if lib is not None and arg.value in lib.names and arg.kind == "unquoted":
                self._arg_edit(R.CUDA_LIBRARY, arg, lib.hip_link, f"the {lib.library} library is {lib.hip_link} "
                               "on ROCm")

    def _cmd_find_path(self, cmd: Command) -> None:
        mapping = load_mapping()
        for arg in cmd.arguments[1:]:
            entry = mapping.header(arg.value) if arg.kind == "unquoted" and arg.value.endswith(".h") else None
            hip = entry.resolve() if entry is not None else None
            if hip:
                self._arg_edit(R.CUDA_LIBRARY, arg, hip, f"{arg.value} is {hip} on ROCm")

    def _link_command(self, cmd: Command, first: int) -> None:
        index = library_index()
        for arg in cmd.arguments[first:]:
            if arg.kind not in ("unquoted", "quoted"):
                continue
            name = arg.value[2:] if arg.value.startswith("-l") else arg.value
            if name in _NO_HIP_LIBRARY:
                self._remove_arg(R.CUDA_LIBRARY, arg, f"{arg.value}: {_NO_HIP_LIBRARY[name]}")
                continue
            named = index.get(name) if arg.value.startswith("-l") else None
            if named is not None and name in named.names:
                self._arg_edit(R.CUDA_LIBRARY, arg, named.hip_target, f"{arg.value} becomes {named.hip_target}"
                               + (f" ({named.note})" if named.note else ""))
                continue
            lib = index.get(arg.value)
            if lib is not None and (arg.value == lib.cuda_target or arg.value in lib.names):
                new = lib.hip_target if arg.kind == "unquoted" else f'"{lib.hip_target}"'
                self._arg_edit(R.CUDA_LIBRARY, arg, new, f"{arg.value} becomes {lib.hip_target}"
                               + (f" ({lib.note})" if lib.note else ""))

    def _cmd_target_compile_features(self, cmd: Command) -> None:
        for arg in cmd.arguments[1:]:
            m = _STD_FEATURE.fullmatch(arg.value) if arg.kind == "unquoted" else None
            if m:
                new = f"{'hip' if self.language else 'cxx'}_std_{m.group(1)}"
                self._arg_edit(R.CUDA_SETTINGS, arg, new, f"{arg.value} is the CUDA language's standard")

    def _cmd_target_link_libraries(self, cmd: Command) -> None:
        self._link_command(cmd, 1)

    def _cmd_link_libraries(self, cmd: Command) -> None:
        self._link_command(cmd, 0)

    def _link_signatures(self) -> dict[str, bool]:
        """target -> True if its target_link_libraries calls use keywords (PRIVATE/PUBLIC/INTERFACE)."""
        out: dict[str, bool] = {}
        for cmd in self.doc.commands:
            values = cmd.values()
            if cmd.lower == "target_link_libraries" and values:
                out[values[0]] = out.get(values[0], False) or any(v in _LINK_KEYWORDS for v in values[1:])
        return out

    def _already_migrated(self) -> tuple[set[str], set[str]]:
        """Sources that already have a HIP/CXX language property, targets that already link hip::device."""
        sources: set[str] = set()
        linked: set[str] = set()
        for cmd in self.doc.commands:
            values = cmd.values()
            if cmd.lower == "set_source_files_properties" and "LANGUAGE" in values:
                i = values.index("LANGUAGE")
                if i + 1 < len(values) and values[i + 1] in ("HIP", "CXX"):
                    sources.update(values[: values.index("PROPERTIES")] if "PROPERTIES" in values else values)
            if cmd.lower == "target_link_libraries" and values and "hip::device" in values:
                linked.add(values[0])
        return sources, linked

    def _cuda_by_property(self) -> set[str]:
        """Sources that are not .cu files but are compiled as CUDA through their LANGUAGE property
        (``set_source_files_properties(k.cpp PROPERTIES LANGUAGE CUDA)``): their targets need hip::device too."""
        out: set[str] = set()
        for cmd in self.doc.commands:
            values = cmd.values()
            if cmd.lower == "set_source_files_properties" and "PROPERTIES" in values:
                props = values[values.index("PROPERTIES") + 1:]
                if any(a == "LANGUAGE" and b == "CUDA" for a, b in itertools.pairwise(props)):
                    out.update(v for v in values[: values.index("PROPERTIES")] if not v.endswith(".cu"))
            elif cmd.lower == "set_property" and values[:1] == ["SOURCE"] and "PROPERTY" in values:
                i = values.index("PROPERTY")
                if values[i + 1:i + 3] == ["LANGUAGE", "CUDA"]:
                    out.update(v for v in values[1:i] if not v.endswith(".cu") and v != "DIRECTORY")
        return out

    # -- variables and properties --------------------------------------------------------------------------
    def _cmd_set(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        if not args:
            return
        self._set_like(cmd, args[0], args[1:])
        self._sources(cmd, args[1:], target="")

    def _cmd_list(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        if len(args) > 2 and args[0].value.upper() in ("APPEND", "PREPEND", "INSERT"):
            self._set_like(cmd, args[1], args[2:])
            self._sources(cmd, args[2:], target="")

    def _cmd_string(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        if len(args) > 2 and args[0].value.upper() in ("APPEND", "PREPEND"):
            self._set_like(cmd, args[1], args[2:])

    def _set_like(self, cmd: Command, name: Argument, values: Sequence[Argument]) -> None:
        if name.value in ("CMAKE_CUDA_COMPILER", "CMAKE_CUDA_HOST_COMPILER") and cmd.lower == "set" and values and \
                _basename(values[0].value).startswith(("nvcc", "g++", "gcc", "clang", "c++", "cc")):
            self._remove_command(cmd, R.CUDA_SETTINGS, f"{name.value} names {values[0].value}: CMake finds ROCm's "
                                 + ("clang++ for HIP itself (-DCMAKE_HIP_COMPILER=<rocm>/llvm/bin/clang++ to choose)"
                                    if self.language else "hipcc when configured with -DCMAKE_CXX_COMPILER=hipcc"))
            return
        var = cmake_variables().get(name.value)
        values = [v for v in values if v.value not in ("CACHE", "PARENT_SCOPE", "FORCE")] if var else list(values)
        if var is not None and var.kind == "variable":
            hip = var.hip(self.options.style)
            if not hip:
                self.out.report(R.SEPARABLE, name.offset, f"{name.value} has no HIP counterpart: {var.note}")
                return
            self._arg_edit(R.CUDA_ARCHITECTURES if "ARCHITECTURES" in name.value else R.CUDA_SETTINGS, name, hip,
                           f"{name.value} becomes {hip}")
            if "ARCHITECTURES" in name.value:
                self._architectures(values[:1] if cmd.lower == "set" and values and values[0].kind != "unquoted"
                                    else values)
                return
        if name.value.startswith("CMAKE_CUDA_FLAGS") or name.value == "CUDA_NVCC_FLAGS" or \
                name.value in self.facts.flag_variables:
            if name.value == "CUDA_NVCC_FLAGS":
                self.out.report(R.LEGACY_FINDCUDA, name.offset, "CUDA_NVCC_FLAGS is read by FindCUDA's commands only: "
                                "move the options to target_compile_options or CMAKE_HIP_FLAGS")
            self._flags(values, strict=True)

    def _architectures(self, values: Sequence[Argument]) -> None:
        values = [v for v in values if v.value not in ("CACHE", "STRING", "PARENT_SCOPE", "FORCE")]
        if not values:
            return
        gfx = ";".join(self.options.gfx)
        first = values[0]
        if len(values) == 1 and _VAR_REF.fullmatch(first.value if first.kind == "unquoted" else first.src.strip('"')) \
                and _VAR_REF.fullmatch(first.src.strip('"')).group(1) not in cmake_variables():  # type: ignore[union-attr]
            self.out.report(R.CUDA_ARCHITECTURES, first.offset, f"the architectures come from {first.src}: it must "
                            f"now hold AMD targets (e.g. {gfx}), not compute capabilities")
            return
        self._arg_edit(R.CUDA_ARCHITECTURES, first, f'"{gfx}"' if first.kind == "quoted" else gfx,
                       f"NVIDIA architectures {' '.join(v.value for v in values)} become {gfx}")
        for extra in values[1:]:
            if extra.kind != "quoted" or not extra.value.startswith(("STRING", "BOOL")):
                self._remove_arg(R.CUDA_ARCHITECTURES, extra, "one architecture list")

    def _cmd_set_target_properties(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        try:
            start = next(i for i, a in enumerate(args) if a.value == "PROPERTIES") + 1
        except StopIteration:
            return
        for i in range(start, len(args) - 1, 2):
            self._property(args[i], args[i + 1:i + 2])

    def _cmd_set_property(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        for i, arg in enumerate(args[:-1]):
            if arg.value == "PROPERTY":
                self._property(args[i + 1], args[i + 2:])
                return

    def _cmd_set_source_files_properties(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        for i, arg in enumerate(args[:-1]):
            if arg.value == "LANGUAGE" and args[i + 1].value == "CUDA":
                self._arg_edit(R.CUDA_SETTINGS, args[i + 1], "HIP" if self.language else "CXX",
                               "sources compiled as CUDA")

    def _property(self, name: Argument, values: Sequence[Argument]) -> None:
        if name.value in ("LANGUAGE", "LINKER_LANGUAGE") and values and values[0].value == "CUDA":
            self._arg_edit(R.CUDA_SETTINGS, values[0], "HIP" if self.language else "CXX", "sources compiled as CUDA")
            return
        var = cmake_variables().get(name.value)
        if var is None or var.kind != "property":
            return
        hip = var.hip(self.options.style)
        if not hip:
            self.out.report(R.SEPARABLE, name.offset, f"{name.value} has no HIP counterpart: {var.note}")
            return
        rule = R.CUDA_ARCHITECTURES if "ARCHITECTURES" in name.value else R.CUDA_SETTINGS
        self._arg_edit(rule, name, hip, f"{name.value} becomes {hip}")
        if "ARCHITECTURES" in name.value and values:
            self._architectures(values[:1])

    # -- sources -------------------------------------------------------------------------------------------
    def _cmd_add_library(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        if args and not any(a.value in ("IMPORTED", "ALIAS", "INTERFACE") for a in args[1:2]):
            self._sources(cmd, args[1:], target=args[0].value)

    def _cmd_add_executable(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        if args and not any(a.value in ("IMPORTED", "ALIAS") for a in args[1:2]):
            self._sources(cmd, args[1:], target=args[0].value)

    def _cmd_target_sources(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        if args:
            self._sources(cmd, args[1:], target=args[0].value)

    def _cmd_file(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind != "paren"]
        if len(args) < 3 or args[0].value not in ("GLOB", "GLOB_RECURSE"):
            return
        patterns = [a for a in args[2:] if a.value not in ("LIST_DIRECTORIES", "RELATIVE", "CONFIGURE_DEPENDS",
                                                           "FOLLOW_SYMLINKS", "true", "false")]
        cu = [a for a in patterns if a.value.endswith(".cu")]
        if not cu:
            return
        for arg in cu:
            if self.suffix:
                self._arg_edit(R.CU_SOURCES, arg, arg.src.replace(".cu", self.suffix, 1) if arg.kind == "unquoted"
                               else arg.src[:-4] + self.suffix + '"', f"convert renamed .cu sources to {self.suffix}")
        if len(cu) == len(patterns) and not (self.language and self.suffix) and \
                f"${{{args[1].value}}}" not in self.has_language:
            self._insert_after(cmd, [f"set_source_files_properties(${{{args[1].value}}} PROPERTIES LANGUAGE "
                                     f"{'HIP' if self.language else 'CXX'})"], R.CU_SOURCES,
                               "globbed CUDA sources are compiled for AMD")

    def _sources(self, cmd: Command, args: Sequence[Argument], target: str) -> None:
        cu = [a for a in args if a.kind in ("unquoted", "quoted") and a.value.endswith(".cu")
              and a.value not in _TARGET_KEYWORDS]
        as_cuda = [a for a in args if a.kind in ("unquoted", "quoted") and a.value in self.cuda_by_property]
        if not cu and not (as_cuda and target):
            return
        names: list[str] = []
        base = posixpath.dirname(self.path)
        for arg in cu:
            rel = posixpath.normpath(posixpath.join(base, arg.value)) if "$" not in arg.value else ""
            new = self.options.renames.get(rel)
            if new:
                new_name = arg.value[: -len(".cu")] + posixpath.splitext(new)[1]
                self._arg_edit(R.CU_SOURCES, arg, new_name if arg.kind == "unquoted" else f'"{new_name}"',
                               f"{arg.value} was renamed by convert")
                if not self.language:
                    names.append(new_name)
            else:
                names.append(arg.value)
        names = [n for n in names if n not in self.has_language]
        lines = []
        if names:
            lines.append(f"set_source_files_properties({' '.join(names)} PROPERTIES LANGUAGE "
                         f"{'HIP' if self.language else 'CXX'})")
        if target and not self.language and target not in self.device_linked:
            self.device_linked.add(target)
            keyword = "PRIVATE " if self.signatures.get(target, True) else ""
            lines.append(f"target_link_libraries({target} {keyword}hip::device)")
        if lines:
            self._insert_after(cmd, lines, R.CU_SOURCES, "CUDA sources are compiled for AMD "
                               f"({'HIP language' if self.language else 'as CXX by hipcc with hip::device'})")

    def _legacy(self, cmd: Command) -> None:
        new = _LEGACY_COMMANDS[cmd.lower]
        self.out.edit(R.LEGACY_FINDCUDA, cmd.offset, cmd.offset + len(cmd.name), new,
                      f"{cmd.name}() is FindCUDA's: an ordinary {new}()")
        if new != "include_directories":
            args = [a for a in cmd.arguments if a.kind != "paren"]
            self._sources(cmd, args[1:], target=args[0].value if args else "")

    # -- options -------------------------------------------------------------------------------------------
    def _flag_command(self, cmd: Command) -> None:
        args = [a for a in cmd.arguments if a.kind in ("unquoted", "quoted")]
        first = 1 if cmd.lower.startswith("target_") else 0
        self._flags([a for a in args[first:] if a.value not in ("BEFORE", *_LINK_KEYWORDS)], strict=False)

    def _flags(self, args: Sequence[Argument], *, strict: bool) -> None:
        """Translate nvcc options in ``args``; ``strict``: the words are known to be nvcc's."""
        words: list[flags.Word] = []
        for arg in args:
            if arg.offset in self.done or "$<" in arg.src:
                continue
            words.extend(_split_words(arg))
        if not strict:
            words = [w for w in words if not _ambiguous(w.src)]
        self._apply_flags(words)

    def _apply_flags(self, words: list[flags.Word]) -> None:
        _, changes = flags.translate(self.text, words, self.options.gfx, arch="drop", quoted_arguments=True)
        report_flags(self.out, changes, self._arch_where())

    def _arch_where(self) -> str:
        return f"the architectures come from {'HIP_ARCHITECTURES' if self.language else 'GPU_TARGETS'}"

    # -- what applies to every command ---------------------------------------------------------------------
    def _generic(self, cmd: Command) -> None:
        """CUDA variable references, language generator expressions (with the nvcc options inside them) and
        result variables in conditions, wherever they are: each rewritten where it stands."""
        variables = cmake_variables()
        for arg in cmd.arguments:
            if arg.offset in self.done or arg.kind not in ("unquoted", "quoted", "bracket"):
                continue
            src, base = arg.src, arg.offset
            blocks = []
            for start, content, end in _conditional_cuda_blocks(src):
                blocks.append((start, end + 1))
                self._cuda_block(arg, start, content, end)
            for block in _GENEX_CUDA_BLOCK.finditer(src):
                end = _genex_end(src, block.end())
                if end >= 0:
                    blocks.append((block.start(), end + 1))
                    self._cuda_block(arg, block.start(), block.end(), end)
                else:
                    self.out.report(R.CUDA_SETTINGS, base + block.start(), "a generator expression that does not "
                                    "end in its argument: CMake splits unquoted arguments at spaces, so "
                                    f"{_short(src)} is cut short (on CUDA too); quote the whole expression and "
                                    "separate its options with ';', then run migrate again",
                                    severity=Severity.MEDIUM)
            for m in _GENEX_LANG.finditer(src):
                new = _genex_language(m, "HIP" if self.language else "CXX")
                if new != m.group(0) and not _inside(blocks, m.start()):
                    self.out.edit(R.CUDA_SETTINGS, base + m.start(), base + m.end(), new,
                                  "the CUDA language in a generator expression")
            for m in _VAR_REF.finditer(src):
                new = self._var_ref(m.group(1))
                end = m.end()
                if new == "${ROCM_PATH}" and src.startswith("/lib64", end):
                    new, end = new + "/lib", end + len("/lib64")
                if new != m.group(0) and not _inside(blocks, m.start()):
                    lib = library_index().get(m.group(1))
                    self.out.edit(R.CUDA_LIBRARY if lib is not None else R.CUDA_VARIABLE, base + m.start(),
                                  base + end, new, f"{src[m.start():end]} becomes {new}")
            for m in _ENV_CUDA.finditer(src):
                end = m.end() + (len("/lib64") if src.startswith("/lib64", m.end()) else 0)
                new = "$ENV{ROCM_PATH}" + ("/lib" if end > m.end() else "")
                if not _inside(blocks, m.start()):
                    self.out.edit(R.CUDA_VARIABLE, base + m.start(), base + end, new,
                                  f"{src[m.start():end]}: the CUDA toolkit's location; ROCm's is ROCM_PATH")
            if cmd.lower in _COND_COMMANDS and arg.kind == "unquoted":
                var = variables.get(arg.value)
                hip = var.hip(self.options.style) if var is not None and var.kind == "result" else ""
                if arg.value in _CONDITION_NAMES:
                    hip = _CONDITION_NAMES[arg.value][0 if self.language else 1]
                if hip and "}" not in hip:
                    self._arg_edit(R.CUDA_VARIABLE, arg, hip, f"{arg.value} is never set after find_package(hip)")

    def _cuda_block(self, arg: Argument, start: int, content: int, end: int) -> None:
        """``$<$<COMPILE_LANGUAGE:CUDA>:...>`` at ``arg.src[start:end + 1]``: the language and the options inside;
        an argument that was only this expression and keeps no option goes."""
        base, src = arg.offset, arg.src
        inner = src[content:end]
        inner = _VAR_REF.sub(lambda m: self._var_ref(m.group(1)), inner)
        local = [flags.Word(p.group(0), p.start()) for p in re.finditer(r"[^;\s]+", inner)]
        edits, changes = flags.translate(inner, local, self.options.gfx, arch="drop")
        report_flags(self.out, changes, self._arch_where(), offset=base + content, apply=False)
        # one nvcc option that becomes several (-Xcompiler=-Wall,-Wextra): list items, as the other options here
        edits = [replace(e, replacement=";".join(e.replacement.split())) for e in edits]
        new_inner = re.sub(r";{2,}", ";", apply_edits(inner, edits)).strip("; ")
        head = _GENEX_LANG.sub(lambda m: _genex_language(m, "HIP" if self.language else "CXX"), src[start:content])
        new = head + new_inner + ">" if new_inner else ""
        whole = (start, end + 1) == ((1, len(src) - 1) if arg.kind == "quoted" else (0, len(src)))
        if not new and whole:
            self._remove_arg(R.CUDA_SETTINGS, arg, "nvcc options with no HIP counterpart")
            return
        self.out.edit(R.CUDA_SETTINGS, base + start, base + end + 1, new,
                      "nvcc options for the CUDA language" if new else "nvcc options with no HIP counterpart")

    def _var_ref(self, name: str) -> str:
        lib = library_index().get(name)
        if lib is not None and name in lib.legacy:
            return lib.hip_target
        var = cmake_variables().get(name)
        hip = var.hip(self.options.style) if var is not None and var.kind != "property" else ""
        if not hip:
            return "${" + name + "}"
        return "${" + hip + ("" if "}" in hip else "}")


def _basename(value: str) -> str:
    return value.replace("\\", "/").rsplit("/", 1)[-1]


def _inside(blocks: list[tuple[int, int]], pos: int) -> bool:
    return any(a <= pos < b for a, b in blocks)


def _genex_language(m: re.Match[str], lang: str) -> str:
    kind, body = m.group(1), m.group(2)
    parts = body.split(",")
    if kind.endswith("LANG_AND_ID"):
        if parts and parts[0] == "CUDA":
            return f"$<{kind}:{lang},Clang>"
        return m.group(0)
    new = [lang if p == "CUDA" else p for p in parts]
    return f"$<{kind}:{','.join(dict.fromkeys(new))}>"


def _conditional_cuda_blocks(src: str) -> list[tuple[int, int, int]]:
    """``$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G>`` in ``src``: (start, start of the options, the
    closing ``>``) of each expression whose condition is an AND with the CUDA language in it."""
    out = []
    for m in re.finditer(r"\$<\$<AND:", src):
        cond_end = _genex_end(src, m.start() + 4)
        if cond_end < 0 or not src.startswith(":", cond_end + 1) or \
                not _GENEX_CUDA_TEST.search(src, m.start(), cond_end):
            continue
        end = _genex_end(src, m.start() + 2)
        if end > cond_end:
            out.append((m.start(), cond_end + 2, end))
    return out


def _genex_end(src: str, start: int) -> int:
    """Index of the ``>`` closing the generator expression whose content starts at ``start``."""
    depth = 1
    i = start
    while i < len(src):
        if src.startswith("$<", i):
            depth += 1
            i += 2
            continue
        if src[i] == ">":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _split_words(arg: Argument) -> list[flags.Word]:
    """The blank-separated words of one argument, with their offsets in the file (inside quotes for quoted
    arguments; ``;`` separates list items in unquoted ones)."""
    if arg.kind == "quoted":
        inner, base = arg.src[1:-1], arg.offset + 1
    elif arg.kind == "unquoted":
        inner, base = arg.src, arg.offset
    else:
        return []
    return [flags.Word(m.group(0), base + m.start()) for m in re.finditer(r"[^\s;]+", inner)
            if "$" not in m.group(0)]


def _ambiguous(word: str) -> bool:
    return word.split("=", 1)[0] in _AMBIGUOUS


def _renamed_suffix(renames: dict[str, str]) -> str:
    for old, new in renames.items():
        if old.endswith(".cu"):
            return posixpath.splitext(new)[1]
    return ""


def _version_tuple(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in text.split("."))
    except ValueError:
        return (99,)


def _short(src: str) -> str:
    one = " ".join(src.split())
    return one if len(one) <= 60 else one[:57] + "..."
