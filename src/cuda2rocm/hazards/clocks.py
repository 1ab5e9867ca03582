"""K806: time measured in device clock ticks (``clock64()`` busy-waits, tick counts converted with the SM clock
rate)."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.hazards.atomics import loop_parts
from cuda2rocm.hazards.common import FAMILY, HIP_GUIDE, LAYER, first_per_line
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.flow import mentions
from cuda2rocm.model import Confidence, Severity
from cuda2rocm.rules import rule
from cuda2rocm.source.structure import Function

#: device clock counters (ticks of the shader clock)
_CLOCKS = frozenset({"clock64", "clock"})
#: the clock rate, as an attribute and as a cudaDeviceProp field
_RATE_ATTRS = frozenset({"cudaDevAttrClockRate", "CU_DEVICE_ATTRIBUTE_CLOCK_RATE"})
_RATE_FIELD = "clockRate"
_EXITS = frozenset({"break", "return", "goto"})


def _clock_calls(src: Source, fn: Function) -> list[int]:
    """``clock64()``/``clock()`` calls in the body (not members: ``timer.clock()``)."""
    return [i for i in src.idents(_CLOCKS, fn.body_open, fn.body_close)
            if src.is_call(i) and src.src(src.prev(i)) not in (".", "->")]


def _clock_names(src: Source, fn: Function, calls: list[int]) -> set[str]:
    """Variables of the body that hold a clock reading or a value computed from one (``t0 = clock64()``,
    ``elapsed = clock64() - t0``), in source order."""
    names: set[str] = set()
    call_set = set(calls)
    for eq in src.tokens_named(("=",), fn.body_open, fn.body_close):
        target = src.prev(eq)
        if src.kind(target) != "IDENT":
            continue
        end = src.statement_end(eq)
        if any(k in call_set for k in src.range_code(eq, end)) or mentions(src, eq, end, names):
            names.add(src.src(target))
    return names


def _timed(src: Source, start: int, end: int, calls: set[int], names: set[str]) -> int:
    """The first clock call or clock variable in tokens [start, end); -1 when none."""
    return next((k for k in src.range_code(start, end)
                 if k in calls or (src.kind(k) == "IDENT" and src.src(k) in names)), -1)


def _waits(src: Source, fn: Function) -> Iterator[int]:
    """Loops of the body that wait for clock ticks: a loop condition that reads the clock, or an
    ``if (clock...) break;`` in the loop's body."""
    calls = _clock_calls(src, fn)
    if not calls:
        return
    names, call_set = _clock_names(src, fn, calls), set(calls)
    for loop in src.idents(frozenset({"while", "for"}), fn.body_open, fn.body_close):
        parts = loop_parts(src, loop) if src.src(loop) == "while" else _for_parts(src, loop)
        if parts is None:
            continue
        cond_open, cond_close, body_start, body_end = parts
        at = _timed(src, cond_open + 1, cond_close, call_set, names)
        if at < 0:
            at = _timed_exit(src, body_start, body_end, call_set, names)
        if at >= 0:
            yield at


def _for_parts(src: Source, loop: int) -> tuple[int, int, int, int] | None:
    open_ = src.next(loop)
    if src.src(open_) != "(" or open_ not in src.pairs:
        return None
    body = src.next(src.pairs[open_])
    end = src.pairs.get(body, -1) if src.src(body) == "{" else src.statement_end(body)
    return open_, src.pairs[open_], body, end


def _timed_exit(src: Source, start: int, end: int, calls: set[int], names: set[str]) -> int:
    """``if (clock64() - t0 > limit) break;`` inside a loop body: the clock token of its condition, or -1."""
    for k in src.idents(frozenset({"if"}), start, end):
        cond = src.next(k)
        if src.src(cond) != "(" or cond not in src.pairs:
            continue
        after = src.next(src.pairs[cond])
        exits = src.src(after) in _EXITS or (src.src(after) == "{" and src.src(src.next(after)) in _EXITS)
        at = _timed(src, cond + 1, src.pairs[cond], calls, names) if exits else -1
        if at >= 0:
            return at
    return -1


def _rate_reads(src: Source) -> Iterator[int]:
    yield from src.idents(_RATE_ATTRS)
    for i in src.idents(frozenset({_RATE_FIELD})):
        if src.src(src.prev(i)) in (".", "->"):
            yield i


@rule(
    "C2R-K806", "Time measured in device clock ticks (clock64 waits, SM clock-rate conversions)",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds busy-wait loops in device code whose condition reads `clock64()`/`clock()` (directly or through a "
         "variable computed from it: `while (clock64() - t0 < cycles)`, `do { now = clock64(); } while (now - t0 < "
         "n)`, `if (clock64() - t0 > limit) break;` in a loop), and, in a file that reads the device clock, the clock "
         "rate used to convert ticks (`cudaDevAttrClockRate`, `CU_DEVICE_ATTRIBUTE_CLOCK_RATE`, `prop.clockRate`). "
         "Tick differences that are only stored (profiling) are not reported.",
    why="`clock64()` on AMD reads `s_memtime`, a counter whose rate is not the shader clock that "
        "`hipDeviceAttributeClockRate` reports and that varies by GPU, so a wait or timeout computed as "
        "milliseconds x SM clock lasts a different time (a sleep kernel runs far too short or too long, a "
        "watchdog fires early). AMD has a constant-rate counter for wall time: `wall_clock64()`, whose rate is "
        "`hipDeviceAttributeWallClockRate` (kHz).",
    example="__global__ void spin(long long cycles) {\n  long long t0 = clock64();\n"
            "  while (clock64() - t0 < cycles) { }\n}\n",
    instead="Wait on `wall_clock64()` and convert with `hipDeviceAttributeWallClockRate`.\n"
            "__global__ void spin(long long ticks) {\n  long long t0 = wall_clock64();\n"
            "  while (wall_clock64() - t0 < ticks) { }\n}\n",
    references=(HIP_GUIDE,),
    # every hit needs a call of clock64/clock in the file (a clock-rate read counts only beside one)
    requires=("clock",),
)
def check_clock_waits(src: Source) -> Iterator[Hit]:
    found: dict[int, str] = {}
    reads_clock = False
    for fn in src.device_functions():
        reads_clock = reads_clock or bool(_clock_calls(src, fn))
        for i in _waits(src, fn):
            found[i] = (f"wait measured in {src.src(i)} ticks: AMD's clock64 counts at another rate than the SM "
                        "clock; wait on wall_clock64() and hipDeviceAttributeWallClockRate")
    if reads_clock:
        for i in _rate_reads(src):
            found.setdefault(i, f"'{src.src(i)}' converts device clock ticks to time: on AMD clock64 does not run "
                             "at this rate; use wall_clock64() with hipDeviceAttributeWallClockRate")
    for i in first_per_line(src, iter(sorted(found))):
        yield Hit("C2R-K806", i, found[i])
