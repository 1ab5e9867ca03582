"""The collectives ``comm`` measures: buffers with a checkable pattern, the call, the expected result.

Every rank fills its input so that the exact result is known (small integers, exact in fp16/bf16/fp32
and integer types for up to 64 ranks), so correctness is checked element by element at every size.
``size`` is nccl-tests' size (bytes of the largest per-rank buffer); counts are rounded down to a
multiple of the rank count so the buffers split evenly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.distributed as dist

from cuda2rocm.perf import commnames

_PERIOD = 5

# torch >= 2.13 renames the tensor forms; older releases (2.11 on the GPU machines) only have the old names
_ALL_GATHER = getattr(dist, "all_gather_single", None) or dist.all_gather_into_tensor
_REDUCE_SCATTER = getattr(dist, "reduce_scatter_single", None) or dist.reduce_scatter_tensor


@dataclass
class Buffers:
    """One rank's buffers for one (op, size, dtype, in-place) case; ``output`` is what gets checked."""

    input: torch.Tensor
    output: torch.Tensor
    expected: torch.Tensor
    call: Callable[[], None]


@dataclass(frozen=True)
class Case:
    op: str
    count: int  # elements in nccl-tests' size
    dtype: torch.dtype
    in_place: bool
    rank: int
    world: int
    device: torch.device


def pattern(count: int, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """0,1,2,3,4,0,1,... of length ``count``: position-dependent, so misplaced blocks are caught."""
    base = torch.arange(_PERIOD, device=device).to(dtype)
    return base.repeat(-(-count // _PERIOD))[:count].contiguous()


def _all_reduce(c: Case) -> Buffers:
    n, p = c.world, pattern(c.count, c.dtype, c.device)
    buf = p + (c.rank + 1)
    expected = p * n + n * (n + 1) // 2
    return Buffers(buf, buf, expected, lambda: _wait(dist.all_reduce(buf)))


def _all_gather(c: Case) -> Buffers:
    n, chunk = c.world, c.count // c.world
    p = pattern(chunk, c.dtype, c.device)
    expected = torch.cat([p + (j + 1) for j in range(n)])
    out = torch.zeros_like(expected)
    inp = out[c.rank * chunk : (c.rank + 1) * chunk] if c.in_place else torch.empty_like(p)
    inp.copy_(p + (c.rank + 1))
    return Buffers(inp, out, expected, lambda: _wait(_ALL_GATHER(out, inp)))


def _reduce_scatter(c: Case) -> Buffers:
    n, chunk = c.world, c.count // c.world
    p = pattern(chunk * n, c.dtype, c.device)
    inp = p + (c.rank + 1)
    full = p * n + n * (n + 1) // 2
    expected = full[c.rank * chunk : (c.rank + 1) * chunk].clone()
    out = inp[c.rank * chunk : (c.rank + 1) * chunk] if c.in_place else torch.empty_like(expected)
    return Buffers(inp, out, expected, lambda: _wait(_REDUCE_SCATTER(out, inp)))


def _all_to_all(c: Case) -> Buffers:
    n, chunk, r = c.world, c.count // c.world, c.rank
    p = pattern(chunk, c.dtype, c.device)
    inp = torch.cat([p + (r * n + j + 1) for j in range(n)])
    expected = torch.cat([p + (j * n + r + 1) for j in range(n)])
    out = torch.empty_like(inp)
    return Buffers(inp, out, expected, lambda: _wait(dist.all_to_all_single(out, inp)))


def _broadcast(c: Case) -> Buffers:
    p = pattern(c.count, c.dtype, c.device)
    expected = p + 1
    buf = expected.clone() if c.rank == 0 else torch.zeros_like(p)
    return Buffers(buf, buf, expected, lambda: _wait(dist.broadcast(buf, src=0)))


def _sendrecv(c: Case) -> Buffers:
    n, r = c.world, c.rank
    p = pattern(c.count, c.dtype, c.device)
    inp = p + (r + 1)
    expected = p + ((r - 1) % n + 1)
    out = torch.empty_like(inp)

    def call() -> None:
        ops = [dist.P2POp(dist.isend, inp, (r + 1) % n), dist.P2POp(dist.irecv, out, (r - 1) % n)]
        for work in dist.batch_isend_irecv(ops):
            work.wait()

    return Buffers(inp, out, expected, call)


def _wait(work: object) -> None:
    """Blocking calls return None; async ones a Work whose wait() orders the current stream after it."""
    if work is not None and hasattr(work, "wait"):
        work.wait()


_BUILDERS: dict[str, Callable[[Case], Buffers]] = {
    "all_reduce": _all_reduce,
    "all_gather": _all_gather,
    "reduce_scatter": _reduce_scatter,
    "all_to_all": _all_to_all,
    "broadcast": _broadcast,
    "sendrecv": _sendrecv,
}

#: which placements torch.distributed offers for each op (all_reduce/broadcast are in-place by API;
#: all-to-all and send/recv need distinct buffers)
PLACEMENTS: dict[str, tuple[bool, ...]] = {
    "all_reduce": (True,),
    "all_gather": (False, True),
    "reduce_scatter": (False, True),
    "all_to_all": (False,),
    "broadcast": (True,),
    "sendrecv": (False,),
}

COLLECTIVES = commnames.COLLECTIVES  # the torch-free names; a test holds them equal to _BUILDERS


def element_count(op: str, size_bytes: int, dtype: torch.dtype, world: int) -> int:
    """Elements in the nccl-tests size, rounded down so per-rank chunks are equal (0 if too small)."""
    count = size_bytes // torch.empty((), dtype=dtype).element_size()
    split = op in ("all_gather", "reduce_scatter", "all_to_all")
    return count - count % world if split else count


def build(case: Case) -> Buffers:
    return _BUILDERS[case.op](case)


def mismatches(buffers: Buffers) -> int:
    """Number of wrong elements in the output (nccl-tests' #wrong column)."""
    return int((buffers.output != buffers.expected).sum().item())
