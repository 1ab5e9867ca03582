"""Our modules import each other without circles, so every package can be read (and loaded) bottom-up.

The graph is built from the source with ``ast``, never by importing it. Every import counts, the ones inside
function bodies too: the project imports lazily on purpose (the CLI loads one command's module, heavy optional
dependencies load on first use), but a lazy import only hides a circle from the interpreter, it does not remove
it. ``from P import n`` is an edge to the submodule ``P.n`` when there is one, otherwise to ``P``; importing a
submodule is not counted as importing its package's ``__init__`` (Python runs it, but nothing is taken from it).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT_PACKAGE = "cuda2rocm"


def _modules(src: Path, root: str) -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package)."""
    found = {}
    for path in sorted((src / root).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts.pop()
        found[".".join(parts)] = (path, package)
    return found


def _imported(name: str, path: Path, package: bool, modules: dict[str, tuple[Path, bool]]) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if package else name.split(".")[:-1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join(here + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield sub if sub in modules else base


def import_graph(src: Path = SRC, root: str = ROOT_PACKAGE) -> dict[str, set[str]]:
    """Module -> the modules of ``root`` it imports (``importlib.import_module`` with a computed name is not
    seen: ``cli/main.py`` loads the command modules that way, and none of them imports ``cli.main``)."""
    modules = _modules(src, root)
    return {name: {m for m in _imported(name, path, package, modules) if m in modules and m != name}
            for name, (path, package) in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one member (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_import_circles_between_our_modules() -> None:
    graph = import_graph()
    assert len(graph) > 100  # the walk found the package
    assert cycles(graph) == []


def package_graph(graph: dict[str, set[str]], root: str = ROOT_PACKAGE) -> dict[str, set[str]]:
    """The graph between the root's top-level packages and modules (``cuda2rocm.scan``, ``cuda2rocm.model``)."""
    def top(name: str) -> str:
        return ".".join(name.split(".")[:2]) if name.startswith(root + ".") else name

    out: dict[str, set[str]] = {}
    for module, deps in graph.items():
        out.setdefault(top(module), set()).update(top(d) for d in deps if top(d) != top(module))
    return out


def test_no_import_circles_between_packages() -> None:
    """Packages stack in floors: a package may use the ones below it, never one that (through others) uses it."""
    packages = package_graph(import_graph())
    assert {"cuda2rocm.scan", "cuda2rocm.migrate", "cuda2rocm.translate", "cuda2rocm.files"} <= set(packages)
    assert cycles(packages) == []


def test_rewriters_share_recognisers_below_scan() -> None:
    """The walker, the classifier and the image recognisers live below scan: rewrite, convert and migrate do not
    reach into scan's analyzers (or, for rewrite, into scan at all)."""
    graph = import_graph()
    for module, deps in graph.items():
        if module.startswith(("cuda2rocm.migrate", "cuda2rocm.translate", "cuda2rocm.rewrite")):
            assert not {d for d in deps if d.startswith("cuda2rocm.scan.analyzers")}, module
        if module.startswith("cuda2rocm.rewrite"):
            assert not {d for d in deps if d.startswith("cuda2rocm.scan")}, module


def test_assess_grades_results_without_importing_the_scanner() -> None:
    graph = import_graph()
    assess = [m for m in graph if m == "cuda2rocm.assess" or m.startswith("cuda2rocm.assess.")]
    assert assess
    assert not {m for a in assess for m in graph[a] if m.startswith("cuda2rocm.scan")}


#: what the results floor may import besides the standard library: itself and the shared model below it
RESULTS_MAY_IMPORT = ("cuda2rocm.results", "cuda2rocm.model")


def foreign_imports(package: str, allowed: tuple[str, ...], src: Path = SRC,
                    root: str = ROOT_PACKAGE) -> dict[str, set[str]]:
    """Module of ``package`` -> what it imports (lazily too) that is neither the standard library nor under one of
    ``allowed``; empty when the package keeps to its floor."""
    def inside(name: str) -> bool:
        return name.split(".")[0] in sys.stdlib_module_names or any(
            name == a or name.startswith(a + ".") for a in allowed)

    modules = _modules(src, root)
    found = {}
    for name, (path, package_file) in modules.items():
        if name != package and not name.startswith(package + "."):
            continue
        if foreign := {m for m in _imported(name, path, package_file, modules) if not inside(m)}:
            found[name] = foreign
    return found


def test_results_import_only_the_model_and_the_standard_library() -> None:
    """The payload types envelopes carry sit on one floor below every engine: ``cuda2rocm.results`` imports
    nothing but itself, ``cuda2rocm.model`` and the standard library (no torch, numpy or engine, not even lazily)."""
    graph = import_graph()
    assert {"cuda2rocm.results", "cuda2rocm.results.scan", "cuda2rocm.results.translate"} <= set(graph)
    assert foreign_imports("cuda2rocm.results", RESULTS_MAY_IMPORT) == {}


def test_foreign_imports_finds_what_leaves_the_floor(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "floor").mkdir(parents=True)
    for name in ("__init__.py", "model.py", "engine.py", "floor/__init__.py"):
        (pkg / name).write_text("")
    (pkg / "floor" / "a.py").write_text("import json\nfrom typing import Any\nfrom pkg import model\n"
                                        "from pkg.floor import b\n")
    (pkg / "floor" / "b.py").write_text("def f():\n    import numpy\n    from pkg.engine import run\n")
    assert foreign_imports("pkg.floor", ("pkg.floor", "pkg.model"), tmp_path, "pkg") == {
        "pkg.floor.b": {"numpy", "pkg.engine"}}


def test_package_graph_folds_modules() -> None:
    graph = {"r.a.x": {"r.b.y", "r.a.z"}, "r.a.z": set(), "r.b.y": {"r.m"}, "r.m": set()}
    assert package_graph(graph, "r") == {"r.a": {"r.b"}, "r.b": {"r.m"}, "r.m": set()}


def test_cycle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"e2"}, "e2": {"e"}, "f": set()}
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["e", "e2"]]


def test_lazy_and_relative_imports_count(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from pkg.sub.b import thing\n")
    (pkg / "sub" / "a.py").write_text("def f():\n    from pkg.sub import b\n    return b\n")
    (pkg / "sub" / "b.py").write_text("from . import a\nfrom ..sub.a import f as thing\n")
    (pkg / "c.py").write_text("import pkg.sub\nfrom pkg import sub\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.sub.a"] == {"pkg.sub.b"}  # inside a function
    assert graph["pkg.sub.b"] == {"pkg.sub.a"}  # relative, twice
    assert graph["pkg.sub"] == {"pkg.sub.b"}
    assert graph["pkg.c"] == {"pkg.sub"}
    assert cycles(graph) == [["pkg.sub.a", "pkg.sub.b"]]


#: what no start-up of the CLI and no single-file convert may load: heavy third-party libraries, and our modules
#: that only other commands (or a recorded run) need
HEAVY = ("rich", "jsonschema", "numpy", "pathspec", "ruamel", "packaging", "tomlkit", "libcst", "torch", "yaml",
         "concurrent.futures", "cuda2rocm.envelope.core", "cuda2rocm.scan", "cuda2rocm.toolchain",
         "cuda2rocm.report", "cuda2rocm.knowledge.compat", "cuda2rocm.knowledge.types")
#: what the listing and a command's --help never need either: the engine
ENGINE = ("cuda2rocm.translate.engine", "cuda2rocm.translate.api", "cuda2rocm.hazards", "cuda2rocm.mapping",
          "cuda2rocm.knowledge", "cuda2rocm.rewrite")


def _loaded_by(code: str, cwd: Path) -> set[str]:
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(SRC)}
    script = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], cwd=cwd, env=env, capture_output=True, text=True,
                          check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def _hits(modules: set[str], prefixes: tuple[str, ...]) -> set[str]:
    return {m for m in modules for p in prefixes if m == p or m.startswith(p + ".")}


def test_cli_start_up_and_help_load_nothing_heavy(tmp_path: Path) -> None:
    """Structural, not timed: the CLI imports only what the invoked subcommand needs (cli/main.py's lazy group)."""
    imported = _loaded_by("import cuda2rocm.cli.main", tmp_path)
    assert "click" in imported and not _hits(imported, HEAVY + ENGINE)
    for argv in (["--help"], ["convert", "--help"]):
        loaded = _loaded_by(f"from cuda2rocm.cli.main import main\nmain({argv!r})", tmp_path)
        assert "cuda2rocm.cli.main" in loaded
        assert not _hits(loaded, HEAVY + ENGINE), argv
        assert ("cuda2rocm.cli.convert" in loaded) == (argv[0] == "convert")
        assert not _hits(loaded, ("cuda2rocm.cli.scan", "cuda2rocm.cli.verify", "cuda2rocm.cli.migrate"))


def test_single_file_convert_loads_only_the_engine(tmp_path: Path) -> None:
    """A convert of one file outside a workspace makes no envelope, and loads no heavy library."""
    (tmp_path / "k.cu").write_text("#include <cuda_runtime.h>\n__global__ void k(int* p) { p[threadIdx.x] = 0; }\n"
                                   "void f(int** p) { cudaMalloc(p, 4); k<<<1, 32>>>(*p); }\n")
    loaded = _loaded_by("from cuda2rocm.cli.main import main\nmain(['convert', 'k.cu', '-o', 'k.hip'])", tmp_path)
    assert "hipMalloc" in (tmp_path / "k.hip").read_text()
    assert "cuda2rocm.translate.engine" in loaded and "cuda2rocm.hazards.engine" in loaded
    assert not _hits(loaded, HEAVY)



def test_every_payload_type_loads_without_torch_or_an_engine(tmp_path: Path) -> None:
    """Importing every kind's payload type in a fresh process loads the envelope's kinds, the model and the results
    floor, nothing else of ours and no heavy library: a record decodes where torch (an optional extra) is missing.
    (``tests/report/test_delivery.py`` decodes them in a process that refuses torch.)"""
    loaded = _loaded_by("from cuda2rocm.envelope import kinds\n"
                        "for k in kinds.KINDS.values():\n"
                        "    k.payload_type()", tmp_path)
    assert {"cuda2rocm.results.translate", "cuda2rocm.results.regress", "cuda2rocm.results.scan"} <= loaded
    ours = {m for m in loaded if m.startswith(ROOT_PACKAGE + ".")}
    allowed = _hits(ours, ("cuda2rocm.envelope", "cuda2rocm.model", "cuda2rocm.results"))
    assert ours == allowed, sorted(ours - allowed)
    assert not _hits(loaded, HEAVY)  # torch and numpy among them


def test_tree_convert_loads_pathspec_only_for_ignore_patterns(tmp_path: Path) -> None:
    """pathspec (~0.1 s to import) is loaded by a tree's walk only when there are patterns: here a .gitignore."""
    tree = tmp_path / "src"
    (tree / "gen").mkdir(parents=True)
    (tree / "a.cu").write_text("void f(int** p) { cudaMalloc(p, 4); }\n")
    (tree / "gen" / "b.cu").write_text("void g(int** p) { cudaMalloc(p, 4); }\n")
    loaded = _loaded_by("from cuda2rocm.cli.main import main\nmain(['convert', 'src', '-o', 'plain'])", tmp_path)
    assert not _hits(loaded, ("pathspec",))
    assert "hipMalloc" in (tmp_path / "plain" / "gen" / "b.hip").read_text()
    (tree / ".gitignore").write_text("gen/\n")
    loaded = _loaded_by("from cuda2rocm.cli.main import main\nmain(['convert', 'src', '-o', 'ignoring'])", tmp_path)
    assert _hits(loaded, ("pathspec",))
    assert (tmp_path / "ignoring" / "a.hip").is_file() and not (tmp_path / "ignoring" / "gen").exists()


#: The dataclasses a single-file convert defines: the shared result model (envelopes encode it as dataclasses),
#: the options, the mutable hazard and translation contexts, the knowledge base's GPU records (``kb`` prints them
#: with ``dataclasses.asdict``), the rules of the registry and the statistics of the convert envelope. Python 3.11
#: compiles six generated methods per frozen dataclass when the class is defined, at import; a small immutable
#: record on the convert path is a ``typing.NamedTuple``, or lives in a module a plain convert does not import.
CONVERT_DATACLASSES = {
    "cuda2rocm.model." + n for n in ("Finding", "Component", "Edit", "Fix", "Translated", "Unchanged", "Skipped",
                                     "Failed", "InputProblem")
} | {"cuda2rocm.translate.options.Options", "cuda2rocm.knowledge.gpus.Link", "cuda2rocm.knowledge.gpus.Gpu",
     "cuda2rocm.hazards.context.Hit", "cuda2rocm.hazards.context.Source", "cuda2rocm.hazards.flow.Flow",
     "cuda2rocm.rules.Rule", "cuda2rocm.translate.context.Context", "cuda2rocm.results.stats.FileStats",
     "cuda2rocm.results.stats.Totals"}


def test_single_file_convert_defines_only_the_listed_dataclasses(tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    (tmp_path / "k.cu").write_text("#include <cuda_runtime.h>\n__global__ void k(int* p) { p[threadIdx.x] = 0; }\n"
                                   "void f(int** p) { cudaMalloc(p, 4); k<<<1, 32>>>(*p); }\n")
    script = (
        "import dataclasses, json\n"
        "made = []\n"
        "process = dataclasses._process_class\n"
        "def record(cls, *args):\n"
        "    made.append(f'{cls.__module__}.{cls.__qualname__}')\n"
        "    return process(cls, *args)\n"
        "dataclasses._process_class = record\n"
        "from cuda2rocm.cli.main import main\n"
        "main(['convert', 'k.cu', '-o', 'k.hip', '-q'])\n"
        "print(json.dumps(made))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(SRC)},
                          capture_output=True, text=True, check=True)
    made = json.loads(done.stdout.splitlines()[-1])
    assert "hipMalloc" in (tmp_path / "k.hip").read_text()
    assert "cuda2rocm.model.Finding" in made  # the hook saw the classes being made
    assert set(made) <= CONVERT_DATACLASSES, sorted(set(made) - CONVERT_DATACLASSES)


def test_lazy_patterns_compile_on_first_use() -> None:
    import re

    import pytest

    from cuda2rocm.lazyre import lazy

    broken = lazy("(")  # nothing is compiled yet: a bad pattern fails only when used
    with pytest.raises(re.error):
        broken()
    word = lazy(r"hip[A-Z]\w*", re.ASCII)
    assert word() is word()
    assert (word().pattern, word().flags) == (r"hip[A-Z]\w*", re.compile(r"hip[A-Z]\w*", re.ASCII).flags)
    assert word().fullmatch("hipMalloc") and not word().fullmatch("cudaMalloc")
