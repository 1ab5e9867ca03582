"""K806: time measured in device clock ticks (``clock64()`` busy-waits, tick counts converted with the SM clock
rate)."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.hazards.atomics import loop_parts
from cuda2rocm.hazards.common import FAMILY, HIP_GUIDE, LAYER, first_per_line
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.hazards.flow import mentions
from cuda2rocm.lazyre import lazy
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


#: words of a name that holds a time or a tick count (``timeout_ms``, ``seconds``, ``waitCycles``)
_TIME_WORDS = frozenset({"ms", "us", "ns", "msec", "usec", "nsec", "sec", "secs", "second", "seconds", "millis",
                         "milliseconds", "micros", "microseconds", "nanos", "nanoseconds", "time", "timeout",
                         "duration", "delay", "elapsed", "latency", "cycle", "cycles", "tick", "ticks"})
_WORD = lazy(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_ARITH = frozenset({"*", "/", "*=", "/="})


def _timeish(name: str) -> bool:
    return any(w.lower() in _TIME_WORDS for w in _WORD().findall(name))


def _converts_time(src: Source, i: int) -> bool:
    """The clock rate read at ``i`` scales a time or a tick count: in its own statement (``seconds *
    prop.clockRate``) or, for ``cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d)``, where the variable
    it fills is used (``ms * khz``)."""
    if _scales_time(src, i):
        return True
    call = src.enclosing_call(i)
    args = src.args(call) if call >= 0 else []
    target = [k for k in src.range_code(*args[0]) if src.kind(k) == "IDENT"] if args else []
    if not target:
        return False
    fn = src.function_at(i)
    end = fn.body_close if fn is not None else len(src.tokens)
    return any(_scales_time(src, k) for k in src.idents(frozenset({src.src(target[-1])}), i + 1, end))


def _scales_time(src: Source, i: int) -> bool:
    """Token ``i`` sits in a statement that multiplies or divides with a time- or tick-named variable."""
    start, end = src.prev(i), i
    while start >= 0 and src.src(start) not in _STATEMENT_ENDS:
        start = src.prev(start)
    while end < len(src.tokens) and src.src(end) not in _STATEMENT_ENDS:
        end = src.next(end)
    code = src.range_code(start + 1, end)
    return any(src.src(k) in _ARITH for k in code) and any(
        src.kind(k) == "IDENT" and k != i and _timeish(src.src(k)) for k in code)


_STATEMENT_ENDS = frozenset({";", "{", "}"})


@rule(
    "C2R-K806", "Time measured in device clock ticks (clock64 waits, SM clock-rate conversions)",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds busy-wait loops in device code whose condition reads `clock64()`/`clock()` (directly or through a "
         "variable computed from it: `while (clock64() - t0 < cycles)`, `do { now = clock64(); } while (now - t0 < "
         "n)`, `if (clock64() - t0 > limit) break;` in a loop), and the clock rate (`cudaDevAttrClockRate`, "
         "`CU_DEVICE_ATTRIBUTE_CLOCK_RATE`, `prop.clockRate`) where it converts between time and ticks: in a file "
         "that reads the device clock, or multiplied or divided with a time or tick count (`ms * khz`, `seconds * "
         "prop.clockRate`). Tick differences that are only stored (profiling) and other uses of the rate "
         "(`prop.clockRate * prop.multiProcessorCount` for peak throughput) are not reported.",
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
    # a wait needs a call of clock64/clock; a rate read is clockRate, cudaDevAttrClockRate or the driver's name
    requires=("clock", "ClockRate", "CLOCK_RATE"),
)
def check_clock_waits(src: Source) -> Iterator[Hit]:
    found: dict[int, str] = {}
    reads_clock = False
    for fn in src.device_functions():
        reads_clock = reads_clock or bool(_clock_calls(src, fn))
        for i in _waits(src, fn):
            found[i] = (f"wait measured in {src.src(i)} ticks: AMD's clock64 counts at another rate than the SM "
                        "clock; wait on wall_clock64() and hipDeviceAttributeWallClockRate")
    for i in _rate_reads(src):
        if reads_clock or _converts_time(src, i):
            found.setdefault(i, f"'{src.src(i)}' converts between time and device clock ticks: on AMD clock64 does "
                             "not run at this rate; use wall_clock64() with hipDeviceAttributeWallClockRate")
    for i in first_per_line(src, iter(sorted(found))):
        yield Hit("C2R-K806", i, found[i])
