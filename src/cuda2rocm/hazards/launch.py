"""K7xx: launch configuration and occupancy assumptions that do not hold on AMD GPUs."""

from __future__ import annotations

import functools
from collections.abc import Iterator

from cuda2rocm.hazards.common import FAMILY, GPU_SPECS, HIP_GUIDE, LAYER, first_per_line, first_per_scope
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.dims import block_threads
from cuda2rocm.hazards.symbols import file_env
from cuda2rocm.model import Confidence, Severity
from cuda2rocm.rules import rule
from cuda2rocm.source.consteval import evaluate
from cuda2rocm.source.directives import directives, function_macro, object_macro
from cuda2rocm.source.structure import Function
from cuda2rocm.source.tokens import TRIVIA, Token

HIP_GRAPHS = "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/hipgraph.html"


@rule(
    "C2R-K701", "Block size above 1024 threads",
    family=FAMILY, severity=Severity.HIGH, confidence=Confidence.HIGH, layer=LAYER,
    what="Evaluates `__launch_bounds__(N)` (written out or through a macro, as C2R-K702 reads it) and the block "
         "argument of `<<<g, B>>>` launches and reports totals above 1024 threads.",
    why="AMD GPUs allow at most 1024 work-items per workgroup (hip-clang also assumes 1024 when no bound is "
        "given); larger blocks fail to launch.",
    example="__global__ void __launch_bounds__(2048) k(float* p) { p[threadIdx.x] = 0.0f; }\n",
    instead="Use at most 1024 threads per block.\n"
            "__global__ void __launch_bounds__(1024) k(float* p) { p[threadIdx.x] = 0.0f; }\n",
    references=(GPU_SPECS,),
    # hits are __launch_bounds__ arguments (written out, or through a macro: the file's own #define holds the
    # word, a header's is reported at a __global__ kernel) or the config of a launch, found at a <<< token
    requires=("__launch_bounds__", "<<<", "__global__"),
)
def check_block_size(src: Source) -> Iterator[Hit]:
    env = file_env(src)
    for i, args, via in _bounds(src):
        value = evaluate(args[0], env)
        if value is not None and value > 1024:
            yield Hit("C2R-K701", i, f"__launch_bounds__({value}){via} exceeds 1024 threads per workgroup")
    for launch in src.launches:
        size = block_threads(src, launch.config[1], env) if len(launch.config) > 1 else None
        if size is not None and size > 1024:
            yield Hit("C2R-K701", src.range_code(*launch.config[1])[0], f"block of {size} threads exceeds 1024")


def _bounds(src: Source) -> Iterator[tuple[int, list[list[Token]], str]]:
    """Every ``__launch_bounds__(...)`` of the file's code: (where to report it, its arguments' tokens, and for
    one reached through a macro, `` through LB(256, 2)``). Written out, it is reported at itself; through a macro
    (``#define LB(n, b) __launch_bounds__(n, b)``, ``#define KERNEL_BOUNDS __launch_bounds__(1024, 2)``, of the
    file or a header it includes), at the kernel whose declaration uses the macro."""
    for i in src.idents(frozenset({"__launch_bounds__"})):
        args = src.args(i)
        if args:
            yield i, [[src.tokens[k] for k in src.range_code(a, b)] for a, b in args], ""
    macros, own = _bounds_macros(src)
    for i in src.idents(frozenset(macros)) if macros else ():
        params, body = macros[src.src(i)]
        end = i
        if params is not None:  # LB(256, 2): the body with the parameters replaced by the arguments
            call = src.args(i)
            if len(call) != len(params):
                continue
            bound = {p: [src.tokens[k] for k in src.range_code(a, b)] for p, (a, b) in zip(params, call, strict=True)}
            body = [t for tok in body for t in bound.get(tok.src, [tok])]
            end = src.pairs.get(src.next(i), i)
        found = _bounds_args(body)
        kernel = _kernel_after(src, i, end)
        if found and (kernel is not None or src.src(i) in own):
            via = f" through {src.text_of(i, end + 1)}" if end != i else f" through {src.src(i)}"
            yield (kernel.name_index if kernel is not None else i), found, via


def _bounds_macros(src: Source) -> tuple[dict[str, tuple[list[str] | None, list[Token]]], set[str]]:
    """The macros whose body holds ``__launch_bounds__``: name -> (parameters, None for an object-like macro;
    the body's tokens), and the names the file defines itself (those win). A header's come through
    :attr:`Source.inherited`."""
    found: dict[str, tuple[list[str] | None, list[Token]]] = {
        name: (None, list(toks)) for name, toks in src.inherited.env.items()
        if any(t.src == "__launch_bounds__" for t in toks)}
    found.update((name, (list(params), list(body))) for name, (params, body) in src.inherited.bounds_macros.items())
    own: set[str] = set()
    if "__launch_bounds__" not in src.text:
        return found, own
    for d in directives(src.tokens):
        if (macro := object_macro(src.tokens, d)) is not None:
            name, params, body = src.src(macro[0]), None, macro[1]
        elif (fmacro := function_macro(src.tokens, d)) is not None:
            name, params, body = src.src(fmacro[0]), fmacro[1], fmacro[2]
        else:
            continue
        if any(t.src == "__launch_bounds__" for t in body):
            found[name] = (params, body)
            own.add(name)
    return found, own


def _bounds_args(body: list[Token]) -> list[list[Token]]:
    """The arguments of the ``__launch_bounds__(...)`` in ``body``, split at its top-level commas."""
    code = [t for t in body if t.kind not in TRIVIA]
    at = next((k for k, t in enumerate(code) if t.src == "__launch_bounds__"), -1)
    if at < 0 or at + 1 >= len(code) or code[at + 1].src != "(":
        return []
    args: list[list[Token]] = [[]]
    depth = 0
    for t in code[at + 2:]:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(t.src, 0)
        if depth < 0:
            return args if args[0] else []
        if depth == 0 and t.src == ",":
            args.append([])
        else:
            args[-1].append(t)
    return []


def _kernel_after(src: Source, use: int, end: int) -> Function | None:
    """The kernel (a ``__global__`` function definition) whose declaration holds the macro use ``use..end``, or
    None. A macro of a header is reported only there (the file then holds ``__global__``); the file's own also
    at the use when no kernel definition follows it (a declaration)."""
    for fn in src.functions:
        if fn.name_index > end:
            between = src.range_code(end + 1, fn.name_index)
            if fn.is_kernel and not any(src.src(k) in (";", "{", "}") for k in between):
                return fn
            break
    return None


@rule(
    "C2R-K702", "__launch_bounds__ with a minimum-blocks argument",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds `__launch_bounds__(maxThreads, minBlocksPerSM)` with the second argument, written out or through a "
         "macro (`#define LB(n, b) __launch_bounds__(n, b)`, `#define KERNEL_BOUNDS __launch_bounds__(1024, 2)`, "
         "in the file or a header it includes), reported at the kernel that uses the macro.",
    why="In HIP the second parameter means minimum *waves per execution unit*, not minimum blocks per "
        "multiprocessor. The CUDA value asks the AMD compiler for a different register budget (often far "
        "too tight or meaningless), changing occupancy and spilling.",
    example="__global__ void __launch_bounds__(256, 2) k(float* p) { p[threadIdx.x] = 0.0f; }\n",
    instead="Drop the second argument, or recompute it as waves per EU for the target "
            "(`__attribute__((amdgpu_waves_per_eu(...)))`).\n"
            "__global__ void __launch_bounds__(256) k(float* p) { p[threadIdx.x] = 0.0f; }\n",
    references=(HIP_GUIDE,),
    # hits are __launch_bounds__ identifiers, or uses of a macro holding one: the file's own #define holds the
    # word, a header's is reported at a __global__ kernel
    requires=("__launch_bounds__", "__global__"),
)
def check_min_blocks(src: Source) -> Iterator[Hit]:
    for i, args, via in _bounds(src):
        if len(args) >= 2:
            yield Hit("C2R-K702", i, f"second __launch_bounds__ argument{via} means min waves per EU in HIP, not "
                      "min blocks per SM")


_COOP = frozenset({"cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernelMultiDevice", "this_grid",
                   "this_multi_grid", "cudaLaunchAttributeCooperative"})
_GRID_GROUPS = frozenset({"this_grid", "this_multi_grid"})


@rule(
    "C2R-K703", "Cooperative launch / grid-wide synchronisation",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds cooperative launches, and `cooperative_groups::this_grid()` in functions that call `.sync()` "
         "(a grid used only for `thread_rank()`/`size()` in a grid-stride loop needs no co-residency).",
    why="A grid-wide barrier needs every block resident at once. How many blocks fit differs on AMD (64-wide "
        "waves, 64 KiB LDS, different register files), so grid sizes computed for NVIDIA GPUs deadlock or fail "
        "with `hipErrorCooperativeLaunchTooLarge`.",
    example="#include <cooperative_groups.h>\n__global__ void k(float* p) {\n"
            "  cooperative_groups::this_grid().sync();\n}\n",
    instead="Size the grid with `hipOccupancyMaxActiveBlocksPerMultiprocessor` x CU count at run time, or split "
            "the kernel in two launches.\n__global__ void k1(float* p) { }\n__global__ void k2(float* p) { }\n",
    references=(HIP_GUIDE,),
    # every name of _COOP holds Cooperative or is this_grid/this_multi_grid
    requires=("Cooperative", "this_grid", "this_multi_grid"),
)
def check_cooperative(src: Source) -> Iterator[Hit]:
    for i in first_per_scope(src, (i for i in src.idents(_COOP) if _needs_coresidency(src, i))):
        yield Hit("C2R-K703", i, f"'{src.src(i)}': co-resident block count differs on AMD; size the grid "
                  "from occupancy queries")


def _needs_coresidency(src: Source, i: int) -> bool:
    """A cooperative launch always; a grid group only where its function synchronises (``g.sync()``)."""
    if src.src(i) not in _GRID_GROUPS:
        return True
    fn = src.function_at(i)
    start, end = (fn.body_open, fn.body_close) if fn is not None else (0, len(src.tokens))
    return any(src.src(src.prev(k)) in (".", "->") for k in src.idents(frozenset({"sync"}), start, end))


#: CUDA Graph API calls: capture, building, instantiation, launch, update, destroy (runtime and driver API)
_GRAPH_PREFIXES = ("cudaGraph", "cuGraph", "cudaStreamBeginCapture", "cudaStreamEndCapture", "cudaStreamIsCapturing",
                   "cudaStreamGetCaptureInfo", "cudaStreamUpdateCaptureDependencies", "cuStreamBeginCapture",
                   "cuStreamEndCapture", "cudaThreadExchangeStreamCaptureMode", "cudaUserObject")


@rule(
    "C2R-K704", "CUDA Graph API (capture, instantiation, launch, update, destroy)",
    family=FAMILY, severity=Severity.LOW, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds every CUDA Graph call site, one report per line: stream capture (`cudaStreamBeginCapture`, "
         "`cudaStreamEndCapture`, `cudaStreamIsCapturing`), graph building (`cudaGraphCreate`, "
         "`cudaGraphAdd*Node`, conditional nodes), instantiation, launch (`cudaGraphLaunch`), exec update and "
         "destroy. Types (`cudaGraph_t`) and a project's own `graph` variables are not reported.",
    why="hipGraph implements most of the API, but some node types, update rules and capture of library calls "
        "differ by ROCm release (the HIP API reference marks capture, instantiation and exec update beta through "
        "ROCm 6.4); launch-overhead savings are smaller. Every site needs testing on the target (and translation "
        "to its hipGraph name). The message quotes the knowledge base's facts (`cuda2rocm kb show library "
        "'CUDA Graphs'`).",
    example="void run(cudaStream_t s) { cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); }\n",
    instead="Keep graphs optional (a flag to run eagerly) and test capture on the target ROCm release.\n"
            "void run(cudaStream_t s, bool graphs) { }\n",
    references=(HIP_GRAPHS,),
    # identifiers starting with a _GRAPH_PREFIXES prefix: each holds one of these
    requires=("cudaGraph", "cuGraph", "Captur", "cudaUserObject"),
)
def check_graphs(src: Source) -> Iterator[Hit]:
    for i in first_per_line(src, (k for k in src.idents_prefixed(_GRAPH_PREFIXES) if src.is_call(k))):
        yield Hit("C2R-K704", i, f"'{src.src(i)}': {graph_notes()[0]}; test on the target ROCm release")


@functools.lru_cache(maxsize=1)
def graph_notes() -> tuple[str, ...]:
    """What differs for CUDA Graphs on ROCm (hipGraph per release, PyTorch's ROCm graphs): the knowledge base's
    facts (``libraries.yaml``, entry ``CUDA Graphs``, each with its source), shared by C2R-K704 and C2R-P107."""
    from cuda2rocm import knowledge

    lib = knowledge.get_library("CUDA Graphs")
    notes = lib.notes if lib is not None else ()
    return notes or ("CUDA Graph support differs in hipGraph",)
