"""Makefiles: nvcc -> hipcc, nvcc options -> clang's, CUDA paths -> ROCM_PATH, CUDA libraries -> ROCm's.

Read with the lossless Makefile reader (``source/formats/make``): assignments, rules and recipes with the offset
of every word. Options are translated where they are known to reach nvcc: the values of variables that a recipe
passes to nvcc (``$(NVCC) $(NVCCFLAGS) ...``) or that are named as nvcc's (``NVCCFLAGS``, ``CUDAFLAGS``, ...), and
the words of recipes that run nvcc. Nothing is evaluated.
"""

from __future__ import annotations

import posixpath
import re

from cuda2rocm.migrate import flags
from cuda2rocm.migrate import rules as R
from cuda2rocm.migrate.base import BuildOptions, Collector, FileMigration, library_index, report_flags
from cuda2rocm.project.recognise import CUDA_PATH_VARIABLES
from cuda2rocm.source.formats._base import Piece
from cuda2rocm.source.formats.make import Line, MakeFile, read_make

#: variables conventionally holding nvcc's options
NVCC_FLAG_VARIABLES = frozenset({"NVCCFLAGS", "NVCC_FLAGS", "NVFLAGS", "CUDAFLAGS", "CUDA_FLAGS", "CUFLAGS",
                                 "NVCC_OPTS", "NVCCOPTS", "GENCODE_FLAGS", "GENCODE", "ARCH_FLAGS", "CUDA_ARCH",
                                 "SMS", "NVCC_GENCODE"})
_REF = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_.-]*)[)}]")
_CUDA_DIR = re.compile(r"/usr/local/cuda(?:-\d+(?:\.\d+)*)?(?=/|$)")
_LINK = re.compile(r"-l(\S+)")
#: the target of a suffix rule from .cu sources: .cu.o, .cu.obj (or the single-suffix .cu:)
_SUFFIX_RULE = re.compile(r"\.cu(?:\.[A-Za-z0-9_]+)?")
#: .cu in wildcards and substitution references: $(wildcard src/*.cu), $(SRCS:.cu=.o), $(patsubst %.cu,...)
_CU_PATTERN = re.compile(r"([*%:]|^)\.cu(?=[=\s),]|$)")


def migrate_make(path: str, text: str, options: BuildOptions) -> FileMigration:
    doc = read_make(text)
    if doc.problems:
        return FileMigration(path, problems=doc.problems)
    return _Migrator(path, doc, options).run()


class _Migrator:
    def __init__(self, path: str, doc: MakeFile, options: BuildOptions) -> None:
        self.path = path
        self.doc = doc
        self.text = doc.text
        self.options = options
        self.out = Collector(path, doc.text)
        self.arch_done: set[str] = set()  # variables (and recipe lines) whose targets are written already
        self.first_nvcc: Piece | None = None  # the first nvcc word rewritten (where a missing target is reported)
        self.compilers = self._compiler_variables()
        self.toolkit_vars = self._toolkit_variables()
        self.toolkit_dirs = sorted(self.toolkit_vars - set(CUDA_PATH_VARIABLES))  # their $(X)/lib64 follows
        self.flag_vars = self._flag_variables()
        self.suffix = next((posixpath.splitext(new)[1] for old, new in options.renames.items()
                            if old.endswith(".cu")), "")

    def run(self) -> FileMigration:
        for line in self.doc.lines:
            if line.kind == "assignment":
                self._assignment(line)
            elif line.kind == "recipe":
                self._recipe(line)
            elif line.kind == "rule":
                self._rule(line)
            if line.kind in ("assignment", "recipe", "rule", "directive"):
                self._words(line)
        if self.first_nvcc is not None and not self.arch_done and "--offload-arch" not in self.text:
            gfx = ",".join(self.options.gfx)
            self.out.report(R.MAKE_COMPILER, self.first_nvcc.offset, "no GPU architecture option reaches nvcc here, so "
                            "hipcc compiles for the GPU it finds on the build machine (gfx803 where it finds none), "
                            f"not for {gfx}: add --offload-arch={gfx.replace(',', ' --offload-arch=')} to the "
                            "compile and link commands", fix=f"--offload-arch={gfx}")
        return self.out.result()

    # -- what each line kind holds -------------------------------------------------------------------------
    def _compiler_variables(self) -> set[str]:
        out = set()
        for line in self.doc.of_kind("assignment"):
            words = _value_words(line)
            if line.name is not None and words and _is_nvcc(words[0].src):
                out.add(line.name.src)
        return out

    def _toolkit_variables(self) -> set[str]:
        """Variables set to the CUDA toolkit's directory (``CUDA = /usr/local/cuda``): ``$(CUDA)/lib64`` follows."""
        out = set(CUDA_PATH_VARIABLES)
        for line in self.doc.of_kind("assignment"):
            words = _value_words(line)
            if line.name is not None and len(words) == 1 and _CUDA_DIR.fullmatch(words[0].src):
                out.add(line.name.src)
        return out

    def _flag_variables(self) -> set[str]:
        """Variables whose values reach nvcc: by name, or passed after nvcc in a recipe."""
        out = {ln.name.src for ln in self.doc.of_kind("assignment") if ln.name and ln.name.src in NVCC_FLAG_VARIABLES}
        for line in self.doc.of_kind("recipe"):
            words = _code_words(line)
            if any(self._runs_nvcc(_unprefixed(words[i].src)) for i in _command_positions(words)):
                for w in words:
                    out.update(n for n in _REF.findall(w.src) if n not in self.compilers)
        for line in self.doc.of_kind("assignment"):  # NVCCFLAGS = $(GENCODE) $(OPT): the parts are nvcc's too
            if line.name is not None and line.name.src in out:
                for w in _value_words(line):
                    out.update(_REF.findall(w.src))
        return out - set(CUDA_PATH_VARIABLES)

    def _runs_nvcc(self, word: str) -> bool:
        if _is_nvcc(word):
            return True
        refs = _REF.findall(word)
        return (len(refs) == 1 and word == f"$({refs[0]})" and refs[0] in self.compilers) or (
            len(refs) == 1 and word == f"${{{refs[0]}}}" and refs[0] in self.compilers)

    def _assignment(self, line: Line) -> None:
        assert line.name is not None
        words = _value_words(line)
        if line.name.src in CUDA_PATH_VARIABLES:
            self.out.edit(R.MAKE_PATHS, line.name.offset, line.name.end, "ROCM_PATH",
                          f"{line.name.src} pointed at the CUDA toolkit")
        if words and line.name.src in self.compilers:  # NVCC = nvcc -ccbin g++: the options after it are nvcc's
            first = _is_nvcc(words[0].src)
            if first:
                self._compiler_word(words[0])
            self._translate(words[1:] if first else words, key=line.name.src)
        elif line.name.src in self.flag_vars:
            self._translate(words, key=line.name.src)

    def _recipe(self, line: Line) -> None:
        words = _code_words(line)
        starts = [i for i in _command_positions(words) if self._runs_nvcc(_unprefixed(words[i].src))]
        for i in starts:
            if _is_nvcc(_unprefixed(words[i].src)):
                self._compiler_word(words[i])
        if starts:
            self._translate(words[starts[0] + 1:], key=f"line {line.line}")

    def _rule(self, line: Line) -> None:
        if not self.suffix:
            return
        for piece in (*line.targets, *line.prerequisites):
            if piece.src.endswith(".cu") and ("%" in piece.src or self._renamed(piece.src)):
                self.out.edit(R.MAKE_CU_RULE, piece.offset, piece.end, piece.src[:-3] + self.suffix,
                              f"convert renamed the .cu sources to {self.suffix}")
        if not line.prerequisites:  # an old-fashioned suffix rule: .cu.o: (make's .SUFFIXES are renamed too)
            for piece in line.targets:
                if _SUFFIX_RULE.fullmatch(piece.src):
                    self.out.edit(R.MAKE_CU_RULE, piece.offset, piece.offset + 3, self.suffix,
                                  f"a suffix rule for .cu sources; convert renamed them to {self.suffix}")

    def _renamed(self, name: str) -> bool:
        rel = posixpath.normpath(posixpath.join(posixpath.dirname(self.path), name))
        return rel in self.options.renames

    def _compiler_word(self, word: Piece) -> None:
        src = word.src
        self.first_nvcc = self.first_nvcc or word
        new = _rocm_paths(re.sub(r"nvcc$", "hipcc", src))  # a recipe's @/-/+ prefix stays
        self.out.edit(R.MAKE_COMPILER, word.offset, word.end, new, f"{src} is the CUDA compiler")

    def _translate(self, words: list[Piece], key: str) -> None:
        """The nvcc options among ``words``; the first architecture option of each variable (or recipe line,
        ``key``) becomes the gfx targets, the others go: a variable's targets are never lost (a duplicate
        ``--offload-arch`` where two variables meet is harmless)."""
        fw = _shell_words(self.text, words)
        arch = "drop" if key in self.arch_done else "offload"
        _, changes = flags.translate(self.text, fw, self.options.gfx, arch=arch)
        report_flags(self.out, changes, "NVIDIA architectures; the gfx targets replace them")
        if any(ch.row.action == "arch" and ch.replacement for ch in changes):
            self.arch_done.add(key)

    # -- words anywhere: CUDA paths and libraries ------------------------------------------------------------
    def _words(self, line: Line) -> None:
        index = library_index()
        for word in _code_words(line):
            if not self.out.free(word.offset, word.end):
                continue
            new = rocm_dirs(word.src)
            if "/lib64" in new:
                for var in self.toolkit_dirs:
                    new = new.replace(f"$({var})/lib64", f"$({var})/lib")
                    new = new.replace(f"${{{var}}}/lib64", f"${{{var}}}/lib")
            link = _LINK.fullmatch(new)
            lib = index.get(link.group(1)) if link else None
            if lib is not None and link is not None and link.group(1) in lib.names:
                new = f"-l{lib.hip_link}"
                rule = R.MAKE_LIBRARIES
                message = f"{word.src} links the CUDA {lib.library} library" + (f" ({lib.note})" if lib.note else "")
            else:
                rule, message = R.MAKE_PATHS, f"{word.src} points at the CUDA toolkit"
            if self.suffix and new.endswith(".cu") and ("*" in new or self._renamed(new)):
                new, rule, message = new[:-3] + self.suffix, R.MAKE_CU_RULE, "convert renamed the .cu sources"
            elif self.suffix and _CU_PATTERN.search(new):
                new = _CU_PATTERN.sub(lambda m: m.group(1) + self.suffix, new)
                rule, message = R.MAKE_CU_RULE, "convert renamed the .cu sources"
            if new != word.src:
                self.out.edit(rule, word.offset, word.end, new, message)


def _shell_words(text: str, words: list[Piece]) -> list[flags.Word]:
    """Make's blank-separated words joined back where a quote spans them (``-Xcompiler="-Wall -fopenmp"`` is
    one word to the shell that runs the recipe)."""
    out: list[flags.Word] = []
    i = 0
    while i < len(words):
        start = words[i].offset
        j = i
        quote = _open_quote(words[i].src)
        while quote and j + 1 < len(words):
            j += 1
            quote = _open_quote(words[j].src, quote)
        out.append(flags.Word(text[start:words[j].end], start))
        i = j + 1
    return out


def _open_quote(word: str, quote: str = "") -> str:
    """The quote still open after ``word`` (given the one open before it), or ""."""
    for ch in word:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
    return quote


def _value_words(line: Line) -> list[Piece]:
    """The words of an assignment's value (after the name and operator)."""
    if line.value is None:
        return []
    return [w for w in line.words if w.offset >= line.value.offset]


def _rocm_paths(word: str) -> str:
    """``word`` with references to the CUDA toolkit's location (``$(CUDA_HOME)``, ``/usr/local/cuda-12.1``)
    pointing at ROCm's."""
    for var in CUDA_PATH_VARIABLES:
        word = word.replace(f"$({var})", "$(ROCM_PATH)").replace(f"${{{var}}}", "${ROCM_PATH}")
    return _CUDA_DIR.sub("/opt/rocm", word)


def rocm_dirs(word: str) -> str:
    """``word`` with the CUDA toolkit's directories pointing at ROCm's (:func:`_rocm_paths`), its library
    directories at the ones ROCm has: ``lib64`` -> ``lib``, CUPTI's ``extras/CUPTI/lib64`` -> ``lib`` (where the
    ROCm profiler libraries are)."""
    new = _rocm_paths(word)
    if new == word:
        return word
    new = re.sub(r"(ROCM_PATH[)}]|/opt/rocm)/extras/CUPTI/lib(?:64)?\b", r"\1/lib", new)
    return re.sub(r"(ROCM_PATH[)}]|/opt/rocm)/lib64\b", r"\1/lib", new)


def _code_words(line: Line) -> list[Piece]:
    """A line's words up to a shell comment (make hands ``# ...`` in a recipe to the shell, which ignores it)."""
    out = []
    for w in line.words:
        if w.src.startswith("#"):
            break
        out.append(w)
    return out


_SEPARATORS = (";", "&&", "||", "|", "(", "then", "do", "else")


def _command_positions(words: list[Piece]) -> list[int]:
    """Indexes of the words that start a shell command (the first, and those after ; && || |)."""
    out = [0] if words else []
    for i, w in enumerate(words[:-1]):
        if w.src in _SEPARATORS or w.src.endswith((";", "&&", "||", "|")):
            out.append(i + 1)
    return out


def _unprefixed(word: str) -> str:
    return word.lstrip("@-+")


def _is_nvcc(word: str) -> bool:
    return word == "nvcc" or word.endswith("/nvcc")
