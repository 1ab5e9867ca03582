"""Launch geometry: the number of threads in a block, from ``<<<g, B>>>`` configs, ``dim3`` values and
``__launch_bounds__``, evaluated as constants where the source makes that possible."""

from __future__ import annotations

from cuda2rocm.hazards.context import Source
from cuda2rocm.hazards.symbols import Env, local_env
from cuda2rocm.source.consteval import evaluate
from cuda2rocm.source.structure import split_args


def block_threads(src: Source, rng: tuple[int, int], env: Env) -> int | None:
    """Threads per block of a launch's block argument: ``256``, ``dim3(32, 8)``, ``{32, 8, 1}`` or a name."""
    code = src.range_code(*rng)
    if not code:
        return None
    fn = src.function_at(code[0])
    scope = local_env(src, fn, env)
    if src.src(code[0]) in ("dim3", "{") or (len(code) == 1 and _dim3_decl(src, code[0]) is not None):
        return _dim3_product(src, code, scope)
    return evaluate([src.tokens[i] for i in code], scope)


def _dim3_product(src: Source, code: list[int], env: Env) -> int | None:
    first = code[0]
    if len(code) == 1:
        decl = _dim3_decl(src, first)
        if decl is None:
            return None
        open_ = decl
    else:
        open_ = first if src.src(first) == "{" else src.next(first)
    if src.src(open_) not in ("(", "{") or open_ not in src.pairs:
        return None
    total = 1
    for a, b in split_args(src.tokens, open_, src.pairs):
        value = evaluate([src.tokens[i] for i in src.range_code(a, b)], env)
        if value is None:
            return None
        total *= value
    return total


def _dim3_decl(src: Source, name_i: int) -> int | None:
    """The ``(`` / ``{`` of ``dim3 NAME(...)`` / ``dim3 NAME{...}`` / ``dim3 NAME = dim3(...)`` before use."""
    name = src.src(name_i)
    fn = src.function_at(name_i)
    start = fn.body_open if fn is not None else 0
    for i in src.idents(frozenset({name}), start, name_i):
        if src.src(src.prev(i)) != "dim3":
            continue
        j = src.next(i)
        if src.src(j) == "=":
            j = src.next(j)
            j = src.next(j) if src.src(j) == "dim3" else j
        if src.src(j) in ("(", "{"):
            return j
    return None
