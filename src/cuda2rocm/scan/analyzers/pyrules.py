"""The Python rules, applied to one logical line of tokens at a time (see :mod:`.python`)."""

from __future__ import annotations

import ast
import re
import tokenize
from dataclasses import dataclass, field

from cuda2rocm.rules import Rule
from cuda2rocm.scan import rocm_path, rules
from cuda2rocm.scan.analyzers import pycuda_only
from cuda2rocm.scan.analyzers.build import ARCH_FLAG
from cuda2rocm.scan.analyzers.envvars import NCCL_NAME, check_env
from cuda2rocm.scan.analyzers.packages import REQ, plugin_import, scan_requirement
from cuda2rocm.scan.filefacts import FileFacts

Tok = tokenize.TokenInfo
_COMPARE = frozenset({"==", "!=", "<", "<=", ">", ">=", "in"})
_MATCHERS = frozenset({"startswith", "endswith", "match", "search", "fullmatch", "find", "index", "count"})
_CUDA_PKGS = {"cupy": "CuPy", "pycuda": "PyCUDA", "numba.cuda": "Numba CUDA", "cuda": "cuda-python",
              "cuda.bindings": "cuda-python", "cuda.cuda": "cuda-python"}
_TRT = frozenset({"tensorrt", "torch_tensorrt", "tensorrt_llm"})
_NVML = frozenset({"pynvml", "nvidia_smi", "pynvml.smi"})
_CUPY_KERNELS = frozenset({"RawKernel", "RawModule", "ElementwiseKernel", "ReductionKernel"})
_ENV_KEY = re.compile(r"[A-Z][A-Z0-9_]*")
_NVCC = re.compile(r"(?:\S*/)?nvcc(?:\.exe)?(?:\s+-.*)?")  # a command: nvcc, .../nvcc, nvcc -flags


@dataclass
class State:
    is_setup: bool = False
    imports: set[str] = field(default_factory=set)  # top-level modules imported
    capability_names: set[str] = field(default_factory=set)
    device_name_names: set[str] = field(default_factory=set)
    load_aliases: set[str] = field(default_factory=lambda: {"load_inline"})
    #: local names of torch.cuda's graph API (``from torch.cuda import graph as cuda_graph``) -> the API name
    graph_api: dict[str, str] = field(default_factory=dict)
    #: names holding a ``torch.cuda.CUDAGraph`` (``g = torch.cuda.CUDAGraph()``, ``with torch.cuda.graph(g)``)
    graphs: set[str] = field(default_factory=set)
    #: what the Python-requires-CUDA checks remember between lines (:mod:`.pycuda_only`)
    requires: pycuda_only.Requires = field(default_factory=pycuda_only.Requires)
    #: names assigned the warp width 32 (``WARP_SIZE = 32``): ``BLOCK // WARP_SIZE`` counts 32-thread warps
    warp_widths: set[str] = field(default_factory=set)


def check_line(report: FileFacts, st: State, toks: list[Tok]) -> None:
    words = [t.string for t in toks]
    if words[0] in ("import", "from"):
        _imports(report, st, toks, words)
        return
    _device_queries(report, st, toks, words)
    pycuda_only.check_line(report, st.requires, toks, words, _guarded(words))
    _num_warps(report, toks, words)
    _warp_widths(report, st, toks, words)
    for i in range(len(words) - 2):
        if words[i] == "version" and words[i + 1] == "." and words[i + 2] == "hip":  # torch.version.hip
            rocm_path.note(report, toks[i].start[0], toks[i].start[1] + 1, "torch.version.hip")
            break
    _calls(report, st, toks, words)
    _attributes(report, toks, words)
    _strings(report, st, toks)
    _env_keywords(report, toks)


def _imports(report: FileFacts, st: State, toks: list[Tok], words: list[str]) -> None:
    line, col = toks[0].start[0], toks[0].start[1] + 1
    for module, names in _imported(words):
        top = module.split(".")[0]
        st.imports.add(top)
        full = {module, top} | {f"{module}.{n}" for n in names}
        if module == "torch.utils.cpp_extension" and "load" in names:
            st.load_aliases.add("load")
        if module in ("torch.cuda", "torch.cuda.graphs") and words[0] == "from":
            st.graph_api.update(_graph_imports(words))
        if full & _NVML:
            report.add(rules.P103, line, col, f"imports {module} (NVML bindings, NVIDIA only; use amdsmi)")
        elif top in _TRT:
            report.add(rules.P108, line, col, f"imports {module} (TensorRT is NVIDIA-only)")
        elif cuda_pkg := next((_CUDA_PKGS[m] for m in sorted(full) if m in _CUDA_PKGS), None):
            report.add(rules.P106, line, col, f"imports {module} ({cuda_pkg})")
        if top == "triton":
            report.tags.add("triton")
        if top not in ("torch", "os", "sys", "typing", "re", "__future__"):
            report.collect(plugin_import(module, line))


#: torch.cuda's CUDA Graph API (capture, replay, graphed callables)
_GRAPH_API = frozenset({"CUDAGraph", "graph", "make_graphed_callables"})
#: methods of a ``torch.cuda.CUDAGraph``
_GRAPH_METHODS = frozenset({"replay", "capture_begin", "capture_end", "reset", "pool", "instantiate"})


def _graph_imports(words: list[str]) -> dict[str, str]:
    """``from torch.cuda import CUDAGraph, graph as g`` -> {"CUDAGraph": "CUDAGraph", "g": "graph"}."""
    rest = [w for w in words[words.index("import") + 1:] if w not in ("(", ")")]
    out: dict[str, str] = {}
    for part in " ".join(rest).split(","):
        bits = part.split()
        if bits and bits[0] in _GRAPH_API:
            out[bits[2] if len(bits) == 3 and bits[1] == "as" else bits[0]] = bits[0]
    return out


def _graph_call(st: State, words: list[str], i: int) -> str:
    """The torch.cuda graph API name called at word ``i`` (``torch.cuda.graph(``, an imported ``CUDAGraph(``),
    or a method of a variable known to hold a CUDAGraph (``g.replay(``); "" for anything else (a project's own
    ``graph(...)``, ``nx.graph``, ``self.graph.replay()`` of an object never made from CUDAGraph)."""
    w = words[i]
    qualified = i >= 2 and words[i - 1] == "." and words[i - 2] in ("cuda", "graphs")
    if w in _GRAPH_API and qualified:
        return w
    if w in st.graph_api and (i == 0 or words[i - 1] != "."):
        return st.graph_api[w]
    if w in _GRAPH_METHODS and i >= 2 and words[i - 1] == ".":
        j = i - 2
        while j >= 2 and words[j - 1] == "." and words[j - 2].isidentifier():
            j -= 2
        if "".join(words[j:i - 1]) in st.graphs:
            return f"CUDAGraph.{w}"
    return ""


def _track_graph(st: State, words: list[str], i: int, api: str) -> None:
    """Remember the names that hold a CUDAGraph: ``g = torch.cuda.CUDAGraph()``, ``torch.cuda.graph(g)``."""
    if api == "CUDAGraph" and "=" in words[:i]:
        target = "".join(words[:words.index("=")])
        if target.replace(".", "").replace("_", "").isalnum():
            st.graphs.add(target)
    elif api == "graph" and i + 2 < len(words):
        end = i + 2
        while end + 2 < len(words) and words[end + 1] == "." and words[end + 2].isidentifier():
            end += 2
        if words[i + 2].isidentifier():
            st.graphs.add("".join(words[i + 2:end + 1]))


def _graph_message(api: str) -> str:
    from cuda2rocm.hazards.launch import graph_notes

    notes = graph_notes()
    torch_note = next((n for n in notes if "PyTorch" in n), "")
    hip_note = notes[0]
    what = {"CUDAGraph": "a CUDA graph (torch.cuda.CUDAGraph)", "graph": "CUDA Graph capture (torch.cuda.graph)",
            "make_graphed_callables": "graphed callables (torch.cuda.make_graphed_callables)"}.get(
        api, f"replay/capture of a CUDA graph ({api}())")
    return f"{what}: {torch_note}; {hip_note}" if torch_note else f"{what}: {hip_note}"


def _imported(words: list[str]) -> list[tuple[str, list[str]]]:
    """[(module, [names imported from it])] for ``import a.b as c, d`` and ``from a.b import x, y``."""
    if words[0] == "from" and "import" in words:
        module = "".join(words[1:words.index("import")])
        names = [w for w in words[words.index("import") + 1:] if w.isidentifier() and w != "as"]
        return [(module, names)]
    out: list[tuple[str, list[str]]] = []
    for part in " ".join(words[1:]).split(","):
        dotted = part.split(" as ")[0].replace(" ", "")
        if dotted:
            out.append((dotted, []))
    return out


def _device_queries(report: FileFacts, st: State, toks: list[Tok], words: list[str]) -> None:
    # `in` compares (`name in ("A100",)`) except in a comprehension or loop (`for i in range(n)`)
    compares = any(w in _COMPARE and not (w == "in" and "for" in words) for w in words) or \
        any(w in _MATCHERS for w in words)
    if compares and _guarded(words):
        return  # `torch.version.hip is None and cap >= (8, 0)`: the NVIDIA-only branch is already fenced off
    for name, tracked, rule in (("get_device_capability", st.capability_names, rules.P101),
                                ("get_device_name", st.device_name_names, rules.P102)):
        idx = _call_index(words, name)
        if idx >= 0:
            _query(report, toks, words, idx, compares, tracked, rule)
        elif compares and tracked:
            hit = next(((i, ref) for i, ref in _dotted(words) if ref in tracked), None)
            if hit is not None:
                tok = toks[hit[0]]
                report.add(rule, tok.start[0], tok.start[1] + 1, f"compares {hit[1]} (from {name}()) with an "
                           "NVIDIA-specific value")


def _dotted(words: list[str]) -> list[tuple[int, str]]:
    """(index of the first word, text) of every maximal dotted name of a line: ``self.cap``, ``cap``."""
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(words):
        if words[i].isidentifier() and (i == 0 or words[i - 1] != "."):
            j = i
            while j + 2 < len(words) and words[j + 1] == "." and words[j + 2].isidentifier():
                j += 2
            out.append((i, "".join(words[i:j + 1])))
            i = j + 1
        else:
            i += 1
    return out


def _num_warps(report: FileFacts, toks: list[Tok], words: list[str]) -> None:
    """``num_warps=32`` / ``num_warps = 32 if ...``: more than 16 wavefronts of 64 lanes per Triton program."""
    for i in range(len(words) - 2):
        if words[i] == "num_warps" and words[i + 1] == "=" and words[i + 2].isdigit() and int(words[i + 2]) > 16:
            if not _guarded(words):
                tok = toks[i + 2]
                report.add(rules.P110, tok.start[0], tok.start[1] + 1, f"num_warps={words[i + 2]} is "
                           f"{int(words[i + 2]) * 64} threads on 64-wide wavefronts (a workgroup holds 1024)")
            return


_WARP_WIDTH_NAME = re.compile(r"(?i)^_?(warp_?size|warp_?width|threads_?per_?warp|warp_?threads|lanes?|num_lanes)$")
_WARP_COUNT_NAME = re.compile(r"(?i)warps")
_LANE_NAME = re.compile(r"(?i)lane")
_ARANGE_0 = ["tl", ".", "arange", "(", "0", ","]


def _warp_widths(report: FileFacts, st: State, toks: list[Tok], words: list[str]) -> None:
    """Triton code that takes a warp to be 32 threads: a warp count ``num_warps = BLOCK // 32`` or
    ``triton.cdiv(BLOCK, 32)`` (assigned to a name that counts warps, or as the ``num_warps=`` argument;
    ``// WARP_SIZE`` with ``WARP_SIZE = 32``), and a
    lane range ``lanes = tl.arange(0, 32)``. On AMD ``num_warps`` counts 64-wide wavefronts."""
    if len(words) == 3 and words[1] == "=" and words[2] == "32" and _WARP_WIDTH_NAME.match(words[0]):
        st.warp_widths.add(words[0])
        return
    if ("//" not in words and "arange" not in words and "cdiv" not in words) or _guarded(words):
        return
    widths = st.warp_widths | {"32"}
    for i in range(2, len(words)):
        divides = words[i - 1] == "//" or (words[i - 1] == "," and words[i + 1:i + 2] == [")"] and "cdiv" in words)
        if words[i] in widths and divides and _counts_warps(words, i):
            tok = toks[i]
            report.add(rules.P110, tok.start[0], tok.start[1] + 1, f"a warp count divided by {words[i]} counts "
                       "warps of 32 threads: Triton's num_warps counts 64-wide wavefronts on AMD (half as many fit)")
            return
    if len(words) >= 10 and words[1] == "=" and _LANE_NAME.search(words[0]) and words[2:8] == _ARANGE_0 \
            and words[8] in widths and words[9] == ")":
        tok = toks[8]
        report.add(rules.P110, tok.start[0], tok.start[1] + 1, f"{words[0]} = tl.arange(0, {words[8]}) takes a "
                   "warp to be 32 lanes: AMD wavefronts are 64 wide")


def _counts_warps(words: list[str], op: int) -> bool:
    """The word at ``op`` is in the value of a name that counts warps (``num_warps = ...``, ``n_warps=...``,
    the keyword argument ``num_warps=max(1, BLOCK // 32)``)."""
    for j in range(1, op):
        if words[j] != "=" or not _WARP_COUNT_NAME.search(words[j - 1]):
            continue
        depth = 0
        for k in range(j + 1, len(words)):  # the value: to a comma or a closing bracket of its own level
            depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(words[k], 0)
            if depth < 0 or (depth == 0 and words[k] == ","):
                break
            if k == op:
                return True
    return False


def _guarded(words: list[str]) -> bool:
    """A line that first asks which platform it is on: ``torch.version.hip``, ``is_hip()``/``is_cuda()``,
    ``backend == "cuda"``."""
    return "hip" in words or "is_hip" in words or "is_cuda" in words or any(
        w in ('"cuda"', "'cuda'") and i > 0 and words[i - 1] in ("==", "!=") for i, w in enumerate(words))


def _query(report: FileFacts, toks: list[Tok], words: list[str], idx: int, compares: bool, tracked: set[str],
           rule: Rule) -> None:
    tok = toks[idx]
    if "=" in words and words.index("=") < idx:  # `cap = ...`, `self.cap = ...`: track the whole target
        tracked.update(t for t in "".join(words[:words.index("=")]).split(",") if t.replace(".", "").isidentifier())
    what = "compared with an NVIDIA-specific value" if compares else "queried; later checks see AMD values"
    report.add(rule, tok.start[0], tok.start[1] + 1, f"{tok.string}() {what}")


def _call_index(words: list[str], name: str) -> int:
    for i, w in enumerate(words[:-1]):
        if w == name and words[i + 1] == "(":
            return i
    return -1


def _calls(report: FileFacts, st: State, toks: list[Tok], words: list[str]) -> None:
    for i, w in enumerate(words[:-1]):
        if words[i + 1] != "(":
            continue
        line, col = toks[i].start[0], toks[i].start[1] + 1
        dotted_load = w == "load" and i >= 2 and words[i - 2] == "cpp_extension"
        if w == "CUDAExtension" or w in st.load_aliases or dotted_load:
            report.add(rules.S105, line, col, f"PyTorch CUDA extension built with {w}(...)")
            report.tags.add("torch-extension")
        elif w in _CUPY_KERNELS and "cupy" in st.imports:
            report.add(rules.S106, line, col, f"CuPy {w} compiles CUDA C source at run time")
            report.tags.add("cupy-rawkernel")
        elif w == "SourceModule" and "pycuda" in st.imports:
            report.add(rules.S108, line, col, "PyCUDA SourceModule compiles CUDA C with nvcc")
            report.tags.add("pycuda")
        elif api := _graph_call(st, words, i):
            _track_graph(st, words, i, api)
            report.add(rules.P107, line, col, _graph_message(api))
            report.count("cuda_graphs")
        elif w in ("init_process_group", "DistributedDataParallel"):
            report.evidence("multi-gpu", line, f"{w}(...)")


def _attributes(report: FileFacts, toks: list[Tok], words: list[str]) -> None:
    n = len(words)
    if words[0] == "@" and "jit" in words:
        _decorator(report, toks, words)
        return
    for i in range(n - 2):
        if words[i] == "backends" and words[i + 1] == "." and words[i + 2] in ("cudnn", "cuda"):
            tail = words[i + 3:]
            if "=" in tail and (words[i + 2] == "cudnn" or "allow_tf32" in tail):
                attr = ".".join(w for w in tail[: tail.index("=")] if w != ".")
                report.add(rules.P104, toks[i].start[0], toks[i].start[1] + 1,
                           f"torch.backends.{words[i + 2]}.{attr} is set; on ROCm this steers MIOpen/hipBLASLt")
            return
    for i in range(n - 2):
        pair = (words[i], words[i + 2]) if words[i + 1] == "." else None
        if pair in (("cuda", "nvtx"), ("ProfilerActivity", "CUDA")):
            report.add(rules.P111, toks[i].start[0], toks[i].start[1] + 1,
                       f"{words[i]}.{words[i + 2]} is portable: ROCm builds of PyTorch record HIP activity and emit "
                       "roctx ranges (rocprofv3 --marker-trace)")
            break
    if any(w == "cuda" and not (i >= 2 and words[i - 2] == "version" and words[i - 1] == ".")
           for i, w in enumerate(words)):  # torch.version.cuda is a build-time string, not GPU use
        report.evidence("single-gpu", toks[0].start[0], "torch.cuda / .cuda() use")


def _decorator(report: FileFacts, toks: list[Tok], words: list[str]) -> None:
    line, col = toks[0].start[0], toks[0].start[1] + 1
    if "triton" in words:
        report.tags.add("triton")
    elif "cuda" in words:
        report.add(rules.S107, line, col, "Numba CUDA kernel (@cuda.jit) generates PTX for NVIDIA GPUs only")
        report.tags.add("numba-cuda")
        report.count("kernels")


def _strings(report: FileFacts, st: State, toks: list[Tok]) -> None:
    for i, tok in enumerate(toks):
        if tok.type != tokenize.STRING:
            continue
        value = _literal(tok.string)
        if value is None:
            continue
        line, col = tok.start[0], tok.start[1] + 1
        if value == "TORCH_CUDA_ARCH_LIST" or NCCL_NAME.fullmatch(value) or _env_key(toks, i, value):
            if not _portable_read(toks, i, value):
                report.collect(check_env(value, line, col, _env_value(toks, i)))
        elif value.startswith("nvidia-smi") and value[10:11] in ("", " "):
            report.add(rules.D104, line, col, "runs nvidia-smi (not available on AMD nodes; use amd-smi)")
        elif ARCH_FLAG.search(value):
            report.add(rules.S110, line, col, f"nvcc architecture flag {value}")
        elif value in ("CUDAExecutionProvider", "TensorrtExecutionProvider"):
            report.add(rules.P109, line, col, f"ONNX Runtime {value} exists only in NVIDIA builds; use "
                       "MIGraphXExecutionProvider with the AMD onnxruntime-migraphx wheel")
        elif _NVCC.fullmatch(value) and not (i + 1 < len(toks) and toks[i + 1].string == ":"):  # {"nvcc": flags}
            report.add(rules.S111, line, col, f"runs nvcc ({value!r}); a ROCm build compiles with hipcc, and "
                       "torch.utils.cpp_extension.CUDA_HOME is None there")
        elif st.is_setup and REQ.fullmatch(value.replace(" ", "")) and any(c in value for c in "=<>~"):
            report.collect(scan_requirement(value, line, col))


def _env_key(toks: list[Tok], i: int, value: str) -> bool:
    """``os.environ["CUDA_X"]`` / ``os.environ.get("CUDA_X")`` / ``os.getenv("CUDA_X")``: a variable name."""
    if not _ENV_KEY.fullmatch(value) or i < 2:
        return False
    before = [t.string for t in toks[max(0, i - 4):i]]
    return "environ" in before or "getenv" in before or "putenv" in before


def _env_keywords(report: FileFacts, toks: list[Tok]) -> None:
    """``dict(os.environ, NCCL_P2P_LEVEL="NVL")``, ``env.update(NCCL_ALGO="Tree")``: an NCCL variable set as a
    keyword argument (a call's, never a module constant's ``NCCL_X = 1``)."""
    depth = 0
    for i, tok in enumerate(toks):
        if tok.type == tokenize.OP and tok.string in ("(", "[", "{"):
            depth += 1
        elif tok.type == tokenize.OP and tok.string in (")", "]", "}"):
            depth -= 1
        elif depth and tok.type == tokenize.NAME and NCCL_NAME.fullmatch(tok.string) and i + 1 < len(toks) \
                and toks[i + 1].string == "=" and toks[i - 1].string in ("(", ","):
            value = _literal(toks[i + 2].string) if i + 2 < len(toks) and toks[i + 2].type == tokenize.STRING else ""
            report.collect(check_env(tok.string, tok.start[0], tok.start[1] + 1, value or ""))


#: variables that locate a ROCm installation: a read of a CUDA variable that falls back to one is portable
_ROCM_VARS = frozenset({"ROCM_PATH", "ROCM_HOME", "HIP_PATH", "ROCM_ROOT"})


def _portable_read(toks: list[Tok], i: int, value: str) -> bool:
    """The variable is read, not set (``os.environ.get("X")``, ``os.getenv("X")``, ``"X" in os.environ``,
    ``os.environ["X"]`` not assigned), and the read changes nothing on ROCm: an NCCL variable (RCCL's own
    setting, set elsewhere), or a CUDA one whose line also reads a ROCm location (``os.environ.get("CUDA_HOME") or
    os.environ.get("ROCM_PATH")``)."""
    before = [t.string for t in toks[max(0, i - 2):i]]
    after = [t.string for t in toks[i + 1:i + 3]]
    read = before[-2:] in (["get", "("], ["getenv", "("]) or after[:1] == ["in"] or (
        before[-1:] == ["["] and after[:1] == ["]"] and after[1:2] != ["="])
    if not read:
        return False
    return bool(NCCL_NAME.fullmatch(value)) or any(_literal(t.string) in _ROCM_VARS for t in toks
                                                   if t.type == tokenize.STRING)


def _env_value(toks: list[Tok], i: int) -> str:
    """The literal value a setting gives the variable named at string ``i``: ``os.environ["X"] = "v"``,
    ``os.environ.setdefault("X", "v")``, ``{"X": "v"}`` ("" when it is not a literal)."""
    after = [t.string for t in toks[i + 1:i + 3]]
    at = i + 3 if after == ["]", "="] else i + 2 if after[:1] in ([","], [":"]) else -1
    if at < 0 or at >= len(toks) or toks[at].type != tokenize.STRING:
        return ""
    if after[:1] == [","] and not {"setdefault", "putenv"} & {t.string for t in toks[max(0, i - 3):i]}:
        return ""
    return _literal(toks[at].string) or ""


def _literal(src: str) -> str | None:
    if src[:1] in "fFbB" or src[:2].lower() in ("rb", "br", "fr", "rf"):
        return None
    try:
        value = ast.literal_eval(src)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None
