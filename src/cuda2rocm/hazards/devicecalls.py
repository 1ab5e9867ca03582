"""K509: C library calls in device code: ``printf`` at every site, ``std::`` spellings hipcc resolves to the
host function (``std::printf``, ``std::malloc``, ``std::free``)."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.hazards.common import FAMILY, HIP_GUIDE, LAYER, first_per_line
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.model import Confidence, Edit, Severity
from cuda2rocm.rules import rule
from cuda2rocm.source.structure import Function

#: ``std::`` C library functions whose device overload hipcc reaches only through the global name: with
#: HIP_PLATFORM=amd hipcc (HIP 5.2, gfx90a) ``std::printf``/``std::malloc``/``std::free`` in a kernel are
#: "reference to __host__ function ... in __global__ function"; nvcc 12 compiles all three, and hipcc compiles
#: ``printf``/``malloc``/``free`` and ``std::memcpy``/``std::sqrt``/``std::min`` (checked 2026-12-01)
HOST_ONLY_STD = frozenset({"printf", "malloc", "free"})
#: the ``std::`` functions whose device-code spelling is the global one: convert's dialect pass rewrites
#: ``std::printf`` -> ``printf`` in device code (it reads this table), scan reports them, K509 leaves them to convert
DEVICE_GLOBAL = frozenset({"printf"})


def convert_rewrites() -> frozenset[str]:
    """The ``std::`` functions convert itself rewrites in device code."""
    return DEVICE_GLOBAL


def device_function_at(src: Source, i: int) -> Function | None:
    """The device function whose body holds token ``i``, through a lambda's or local class's body inside it."""
    fn = src.function_at(i)
    while fn is not None and not fn.is_device:
        fn = src.function_at(fn.body_open)
    return fn


def device_calls(src: Source, names: frozenset[str]) -> Iterator[int]:
    """Calls of ``names`` inside device function bodies (a lambda's or local class's body inside one too), not
    member calls (``log.printf``)."""
    fns = src.device_functions()
    if not fns:
        return
    for i in src.idents(names):
        if device_function_at(src, i) is None or not src.is_call(i) or src.src(src.prev(i)) in (".", "->"):
            continue
        yield i


def _std_qualifier(src: Source, i: int) -> int:
    """Index of the first token of a ``std::`` (or ``::std::``) qualifier before name ``i``; -1 without one."""
    scope = src.prev(i)
    if src.src(scope) != "::" or src.src(src.prev(scope)) != "std":
        return -1
    std = src.prev(scope)
    return src.prev(std) if src.src(src.prev(std)) == "::" else std


@rule(
    "C2R-K509", "printf and std:: C library calls in device code",
    family=FAMILY, severity=Severity.LOW, confidence=Confidence.HIGH, layer=LAYER,
    what="Finds every `printf` call in a `__global__`/`__device__` body, one report per line (host `printf` and "
         "member functions named `printf` are not reported), and `std::printf`, `std::malloc`, `std::free` (also "
         "`::std::`) there. `convert` rewrites `std::printf` itself (scan reports those sites with what convert "
         "does); `std::malloc`/`std::free` carry a safe fix that drops the `std::`.",
    why="HIP has a device `printf`, but its output goes through a host-call buffer that the host drains while the "
        "kernel runs and at synchronisation: lines from different waves interleave in another order than on "
        "NVIDIA, a kernel that prints much is slowed, and a 64-lane wavefront prints for 64 lanes where a warp "
        "printed for 32. Output compared line by line with a CUDA run will differ. nvcc finds the device "
        "overloads through `std::`; hipcc's `std::printf`, `std::malloc` and `std::free` are the host functions, so "
        "such a kernel does not compile (`reference to __host__ function 'malloc' in __global__ function`).",
    example='#include <cstdio>\n__global__ void k(const float* p) {\n'
            '  if (threadIdx.x == 0) printf("%f\\n", p[blockIdx.x]);\n}\n',
    instead="Keep debug printing behind a flag, or write values to a buffer and print them on the host.\n"
            "__global__ void k(const float* p, float* out) {\n"
            "  if (threadIdx.x == 0) out[blockIdx.x] = p[blockIdx.x];\n}\n",
    references=(HIP_GUIDE,),
    # only calls of printf and of the HOST_ONLY_STD names are read
    requires=tuple(sorted(HOST_ONLY_STD | {"printf"})),
)
def check_device_calls(src: Source) -> Iterator[Hit]:
    for i in first_per_line(src, device_calls(src, frozenset({"printf"}))):
        yield Hit("C2R-K509", i, "device printf: HIP prints through a host-call buffer (order, volume and 64 lanes "
                  "per wavefront differ from a CUDA run)")
    if "std" not in src.text:
        return
    for i in device_calls(src, HOST_ONLY_STD - convert_rewrites()):  # convert's own rewrites: scan reports them
        first = _std_qualifier(src, i)
        if first < 0:
            continue
        name = src.src(i)
        qualified = src.text_of(first, i + 1).replace(" ", "")
        edit = Edit(src.tokens[first].offset, src.tokens[i].offset, "", "C2R-K509")
        yield Hit("C2R-K509", first, f"'{qualified}' in device code names the host function under hipcc (does not "
                  f"compile); call the global '{name}'", (edit,))
