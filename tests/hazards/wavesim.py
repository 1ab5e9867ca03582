"""A small SIMT model of CUDA device code, for checking warp-width fixes by executing them.

It runs one kernel of a source text (read with the project's lossless tokenizer) over a grid of blocks, each
block as one vector of threads split into wavefronts of ``width`` lanes (32 as on NVIDIA, 64 as on AMD
CDNA). What it models is what warp-width fixes touch:

- ``threadIdx``/``blockIdx``/``blockDim``/``gridDim``, ``warpSize`` (= the width), object-like ``#define``s;
- ``int``/``unsigned``/``unsigned long long``/``float``/``bool``/``size_t`` values (unsigned types wrap, so a
  64-lane ballot stored in ``unsigned`` loses lanes 32-63), pointers into global and ``__shared__`` arrays;
- divergence: ``if``/``?:``/``&&``/``||``/``for``/``while``/``return`` run under a mask of active threads;
- ``__shfl_sync``/``__shfl_up_sync``/``__shfl_down_sync``/``__shfl_xor_sync`` (and the mask-less forms) with
  CUDA's source-lane rules and ``width``; ``__ballot_sync``, ``__activemask``, ``__popc``/``__popcll``,
  ``__ffs``/``__ffsll``, ``atomicAdd``, ``__syncthreads`` (must be reached by every thread of the block);
- *undefined values*: shared memory starts undefined, a shuffle that reads an inactive lane yields an
  undefined value; undefined values propagate through arithmetic, and the model records every read of an
  unwritten shared slot, every store of an undefined value to global memory and every branch on one.

Threads of a block advance in lock step (a stronger ordering than hardware gives between wavefronts, which is
enough for warp-width questions: the model is not a race detector). Anything outside this subset raises
:class:`Unsupported`, never a guess.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cuda2rocm.source.tokens import IDENT, NL, NUMBER, TRIVIA, tokenize


class Unsupported(Exception):
    """The kernel uses something outside the modelled subset."""


class SimError(Exception):
    """The kernel did something undefined (out-of-bounds access, divergent barrier, undefined branch)."""


@dataclass(frozen=True)
class Type:
    kind: str  # "i" (integer, bool included) or "f"
    bits: int = 32
    unsigned: bool = False
    pointer: bool = False


INT, UINT, ULL, LL, FLOAT, BOOL, SIZE_T = (Type("i"), Type("i", 32, True), Type("i", 64, True), Type("i", 64),
                                           Type("f"), Type("i", 8, True), Type("i", 64, True))
_TYPE_WORDS = {"int": INT, "unsigned": UINT, "float": FLOAT, "double": FLOAT, "bool": BOOL, "size_t": SIZE_T,
               "uint32_t": UINT, "int32_t": INT, "uint64_t": ULL, "int64_t": LL, "long": LL, "short": INT,
               "char": INT, "signed": INT}
_QUALIFIERS = frozenset({"const", "volatile", "__restrict__", "static", "register", "std", "::", "auto",
                         "__shared__", "struct"})


def _wrap(data: np.ndarray, t: Type) -> np.ndarray:
    if t.kind == "f" or t.pointer:
        return data
    if t.bits == 8:
        return np.array([1 if x else 0 for x in data], dtype=object)
    mod = 1 << t.bits
    if t.unsigned:
        return np.array([int(x) % mod for x in data], dtype=object)
    half = 1 << (t.bits - 1)
    return np.array([(int(x) + half) % mod - half for x in data], dtype=object)


@dataclass
class Buffer:
    """A global or shared array: values and which of them were ever written."""

    name: str
    data: np.ndarray
    ok: np.ndarray
    elem: Type
    written: np.ndarray | None = None  # shared memory: slots some thread stored to


@dataclass
class V:
    """A per-thread value: ``data`` (a float64 or object array), ``ok`` (defined), the C type; pointers carry
    ``buf`` and an element offset in ``data``."""

    data: np.ndarray
    ok: np.ndarray
    t: Type
    buf: Buffer | None = None


@dataclass
class Report:
    uninitialised_reads: list[str] = field(default_factory=list)
    undefined_stores: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.uninitialised_reads and not self.undefined_stores


# ---------------------------------------------------------------- parsing (into tuples) --------------------


@dataclass
class Func:
    name: str
    params: list[tuple[str, Type]]
    body: Any
    ret: Type | None


class _Parser:
    def __init__(self, toks: list[tuple[str, str]]) -> None:
        self.toks = toks
        self.i = 0

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.toks[j][1] if j < len(self.toks) else ""

    def kind(self, k: int = 0) -> str:
        j = self.i + k
        return self.toks[j][0] if j < len(self.toks) else ""

    def take(self, want: str | None = None) -> str:
        s = self.peek()
        if want is not None and s != want:
            raise Unsupported(f"expected {want!r}, found {s!r} near token {self.i}")
        self.i += 1
        return s

    def at_type(self) -> bool:
        return self.peek() in _TYPE_WORDS or self.peek() in _QUALIFIERS

    def parse_type(self) -> Type:
        t: Type | None = None
        words = []
        while self.at_type():
            w = self.take()
            words.append(w)
            if w in _TYPE_WORDS:
                base = _TYPE_WORDS[w]
                if w == "long" and t is not None and t.unsigned:
                    t = ULL
                elif w in ("int",) and t is not None:
                    pass  # unsigned int, long int
                elif w == "unsigned" or t is None:
                    t = base
                elif w == "long":
                    t = Type("i", 64, t.unsigned)
        if t is None:
            raise Unsupported(f"unknown type {' '.join(words)!r}")
        while self.peek() in ("*", "&", "__restrict__", "const"):
            if self.take() == "*":
                t = Type(t.kind, t.bits, t.unsigned, True)
        return t

    # statements
    def block(self) -> Any:
        self.take("{")
        out = []
        while self.peek() != "}":
            out.append(self.statement())
        self.take("}")
        return ("block", out)

    def statement(self) -> Any:
        s = self.peek()
        if s == "{":
            return self.block()
        if s == ";":
            self.take()
            return ("block", [])
        if s == "if":
            self.take()
            self.take("(")
            cond = self.expr()
            self.take(")")
            then = self.statement()
            other = None
            if self.peek() == "else":
                self.take()
                other = self.statement()
            return ("if", cond, then, other)
        if s == "for":
            self.take()
            self.take("(")
            init = None if self.peek() == ";" else self.simple()
            self.take(";")
            cond = None if self.peek() == ";" else self.expr()
            self.take(";")
            step = None if self.peek() == ")" else self.expr()
            self.take(")")
            return ("for", init, cond, step, self.statement())
        if s == "while":
            self.take()
            self.take("(")
            cond = self.expr()
            self.take(")")
            return ("for", None, cond, None, self.statement())
        if s == "return":
            self.take()
            value = None if self.peek() == ";" else self.expr()
            self.take(";")
            return ("return", value)
        if s in ("break", "continue", "goto", "switch", "do", "asm"):
            raise Unsupported(s)
        node = self.simple()
        self.take(";")
        return node

    def simple(self) -> Any:
        """A declaration or an expression (no trailing ``;``)."""
        if self.peek() == "#pragma":
            raise Unsupported("pragma")
        if self.at_type():
            shared = self.peek() == "__shared__"
            t = self.parse_type()
            decls = []
            while True:
                name = self.take()
                dims = []
                while self.peek() == "[":
                    self.take()
                    dims.append(self.expr())
                    self.take("]")
                init = None
                if self.peek() == "=":
                    self.take()
                    init = self.assign()
                decls.append((name, dims, init))
                if self.peek() != ",":
                    break
                self.take()
                while self.peek() == "*":
                    self.take()
            return ("decl", t, decls, shared)
        return ("expr", self.expr())

    # expressions
    def expr(self) -> Any:
        return self.assign()

    def assign(self) -> Any:
        lhs = self.ternary()
        if self.peek() in ("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="):
            op = self.take()
            return ("assign", op, lhs, self.assign())
        return lhs

    def ternary(self) -> Any:
        c = self.binary(0)
        if self.peek() == "?":
            self.take()
            a = self.assign()
            self.take(":")
            b = self.assign()
            return ("cond", c, a, b)
        return c

    _LEVELS: Sequence[tuple[str, ...]] = (("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="),
                                          ("<", ">", "<=", ">="), ("<<", ">>"), ("+", "-"), ("*", "/", "%"))

    def binary(self, level: int) -> Any:
        if level == len(self._LEVELS):
            return self.unary()
        a = self.binary(level + 1)
        while self.peek() in self._LEVELS[level]:
            op = self.take()
            b = self.binary(level + 1)
            a = ("bin", op, a, b)
        return a

    def unary(self) -> Any:
        s = self.peek()
        if s in ("-", "!", "~", "+"):
            self.take()
            return ("un", s, self.unary())
        if s in ("++", "--"):
            self.take()
            return ("assign", "+=" if s == "++" else "-=", self.unary(), ("num", 1, INT))
        if s == "*":
            self.take()
            return ("index", self.unary(), ("num", 0, INT))
        if s == "&":
            self.take()
            return ("addr", self.unary())
        if s == "(" and (self.peek(1) in _TYPE_WORDS or self.peek(1) in _QUALIFIERS):
            self.take()
            t = self.parse_type()
            self.take(")")
            return ("cast", t, self.unary())
        return self.postfix()

    def postfix(self) -> Any:
        e = self.primary()
        while True:
            s = self.peek()
            if s == "[":
                self.take()
                e = ("index", e, self.expr())
                self.take("]")
            elif s == ".":
                self.take()
                e = ("member", e, self.take())
            elif s in ("++", "--"):
                self.take()
                e = ("post", "+=" if s == "++" else "-=", e)
            else:
                return e

    def primary(self) -> Any:
        s, kind = self.peek(), self.kind()
        if s == "(":
            self.take()
            e = self.expr()
            self.take(")")
            return e
        if kind == NUMBER:
            self.take()
            return _number(s)
        if s in ("static_cast", "reinterpret_cast"):
            self.take()
            self.take("<")
            t = self.parse_type()
            self.take(">")
            self.take("(")
            e = self.expr()
            self.take(")")
            return ("cast", t, e)
        if s in ("true", "false"):
            self.take()
            return ("num", int(s == "true"), BOOL)
        if kind == IDENT:
            self.take()
            if self.peek() == "(":
                self.take()
                args = []
                while self.peek() != ")":
                    args.append(self.assign())
                    if self.peek() == ",":
                        self.take()
                self.take(")")
                return ("call", s, args)
            return ("var", s)
        raise Unsupported(f"unexpected {s!r}")


def _number(s: str) -> Any:
    low = s.lower()
    if low.startswith("0x"):
        digits = low.rstrip("ul")
        value = int(digits, 16)
        long = "ll" in low
        unsigned = "u" in low or (not long and value > 0x7FFFFFFF)
        bits = 64 if long or value > 0xFFFFFFFF else 32
        return ("num", value, Type("i", bits, unsigned))
    if any(c in low for c in ".e") or (low.endswith("f") and not low.startswith("0x")):
        return ("num", float(low.rstrip("f")), FLOAT)
    digits = low.rstrip("ul")
    return ("num", int(digits), Type("i", 64 if "ll" in low else 32, "u" in low))


def _code(text: str) -> tuple[list[tuple[str, str]], dict[str, list[tuple[str, str]]]]:
    """Code tokens outside directives, and the object-like ``#define``s."""
    toks = tokenize(text)
    macros: dict[str, list[tuple[str, str]]] = {}
    code: list[tuple[str, str]] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.pp:
            line = []
            while i < len(toks) and toks[i].pp and toks[i].kind != NL:
                if toks[i].kind not in TRIVIA:
                    line.append((toks[i].kind, toks[i].src))
                i += 1
            if len(line) >= 3 and line[1][1] == "define" and not (len(line) > 3 and line[3][1] == "("):
                macros[line[2][1]] = line[3:]
            continue
        if t.kind not in TRIVIA:
            code.append((t.kind, t.src))
        i += 1
    return code, macros


def _expand(code: list[tuple[str, str]], macros: dict[str, list[tuple[str, str]]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for kind, s in code:
        if kind == IDENT and s in macros:
            out.extend(_expand(macros[s], {k: v for k, v in macros.items() if k != s}))
        else:
            out.append((kind, s))
    return out


def parse(text: str) -> dict[str, Func]:
    """The ``__global__``/``__device__`` functions of ``text``, parsed."""
    code, macros = _code(text)
    toks = _expand(code, macros)
    funcs: dict[str, Func] = {}
    i = 0
    while i < len(toks):
        if toks[i][1] not in ("__global__", "__device__"):
            i += 1
            continue
        j = i
        while j < len(toks) and toks[j][1] not in ("(", ";", "{"):
            j += 1
        if j >= len(toks) or toks[j][1] != "(":
            i = j + 1
            continue
        name = toks[j - 1][1]
        words = [s for _, s in toks[i:j - 1] if s in _TYPE_WORDS]
        p = _Parser(toks)
        p.i = j + 1
        params: list[tuple[str, Type]] = []
        while p.peek() != ")":
            t = p.parse_type()
            params.append((p.take(), t))
            if p.peek() == ",":
                p.take()
        p.take(")")
        if p.peek() != "{":
            i = p.i
            continue
        body = p.block()
        ret = _Parser([(IDENT, w) for w in words]).parse_type() if words else None
        funcs[name] = Func(name, params, body, ret)
        i = p.i
    return funcs


# ---------------------------------------------------------------- execution -------------------------------


class _Return(Exception):
    pass


@dataclass
class _Frame:
    scopes: list[dict[str, V]]
    alive: np.ndarray
    ret: V | None = None


class Block:
    """One block's execution: ``n`` threads, wavefronts of ``width`` lanes."""

    def __init__(self, sim: Simulator, block: tuple[int, int]) -> None:
        self.sim = sim
        bx, by = sim.block
        self.n = bx * by
        t = np.arange(self.n)
        self.tx, self.ty = t % bx, t // bx
        self.lane = t % sim.width
        self.base = t - self.lane
        self.block_idx = block
        self.frames: list[_Frame] = []

    # values
    def const(self, value: Any, t: Type) -> V:
        dtype = float if t.kind == "f" else object
        return V(np.full(self.n, value, dtype=dtype), np.ones(self.n, dtype=bool), t)

    def undefined(self, t: Type) -> V:
        v = self.const(0.0 if t.kind == "f" else 0, t)
        v.ok[:] = False
        return v

    def convert(self, v: V, t: Type) -> V:
        if t.pointer or v.t.pointer:
            return V(v.data, v.ok, t if v.buf is None else Type(v.buf.elem.kind, v.buf.elem.bits,
                                                                 v.buf.elem.unsigned, True), v.buf)
        if t.kind == "f":
            return V(np.array([float(x) for x in v.data], dtype=float), v.ok.copy(), t)
        data = v.data if v.t.kind == "i" else np.array([math.trunc(x) if math.isfinite(x) else 0
                                                        for x in v.data], dtype=object)
        return V(_wrap(data, t), v.ok.copy(), t)

    # variables
    def lookup(self, name: str) -> V:
        for scope in reversed(self.frames[-1].scopes):
            if name in scope:
                return scope[name]
        if name in self.sim.shared:
            buf = self.sim.shared[name]
            return V(np.zeros(self.n, dtype=object), np.ones(self.n, dtype=bool), Type("i", pointer=True), buf)
        if name == "warpSize":
            return self.const(self.sim.width, INT)
        raise Unsupported(f"unknown name {name!r}")

    def run(self, func: Func, args: list[V], m: np.ndarray) -> V | None:
        frame = _Frame([{}], m.copy())
        for (name, t), a in zip(func.params, args, strict=True):
            frame.scopes[0][name] = self.convert(a, t)
        self.frames.append(frame)
        try:
            self.stmt(func.body, m)
        finally:
            self.frames.pop()
        return frame.ret

    def stmt(self, node: Any, m: np.ndarray) -> None:
        frame = self.frames[-1]
        m = m & frame.alive
        if not m.any():
            return
        kind = node[0]
        if kind == "block":
            frame.scopes.append({})
            try:
                for s in node[1]:
                    self.stmt(s, m & frame.alive)
            finally:
                frame.scopes.pop()
        elif kind == "decl":
            self.declare(node, m)
        elif kind == "expr":
            self.eval(node[1], m)
        elif kind == "if":
            c = self.truth(node[1], m)
            self.stmt(node[2], m & c)
            if node[3] is not None:
                self.stmt(node[3], m & ~c)
        elif kind == "for":
            frame.scopes.append({})
            try:
                if node[1] is not None:
                    self.stmt(node[1], m)
                live = m.copy()
                for _ in range(1 << 16):
                    live &= frame.alive
                    if node[2] is not None:
                        live &= self.truth(node[2], live)
                    if not live.any():
                        break
                    self.stmt(node[4], live)
                    if node[3] is not None:
                        self.eval(node[3], live & frame.alive)
                else:
                    raise SimError("loop does not end")
            finally:
                frame.scopes.pop()
        elif kind == "return":
            if node[1] is not None:
                v = self.eval(node[1], m)
                if frame.ret is None:
                    frame.ret = self.undefined(v.t)
                self.store_var(frame.ret, v, m)
            frame.alive &= ~m
        else:
            raise Unsupported(kind)

    def truth(self, e: Any, m: np.ndarray) -> np.ndarray:
        v = self.eval(e, m)
        if not v.ok[m].all():
            raise SimError("branch on an undefined value")
        return m & np.array([bool(x) for x in v.data], dtype=bool)

    def declare(self, node: Any, m: np.ndarray) -> None:
        _, t, decls, shared = node
        scope = self.frames[-1].scopes[-1]
        for name, dims, init in decls:
            if shared or dims:
                if not shared:
                    raise Unsupported("local arrays")
                size = 1
                for d in dims:
                    size *= int(self.eval(d, m).data[0])
                if name not in self.sim.shared:
                    dtype = float if t.kind == "f" else object
                    self.sim.shared[name] = Buffer(name, np.zeros(size, dtype=dtype), np.zeros(size, dtype=bool), t,
                                                   np.zeros(size, dtype=bool))
                if len(dims) > 1:
                    raise Unsupported("multi-dimensional shared arrays")
                continue
            var = self.undefined(t)
            if init is not None:
                self.store_var(var, self.eval(init, m), m)
            scope[name] = var

    def store_var(self, var: V, v: V, m: np.ndarray) -> None:
        c = self.convert(v, var.t)
        var.data[m] = c.data[m]
        var.ok[m] = c.ok[m]
        if c.buf is not None:
            var.buf = c.buf
            var.t = c.t

    # expressions
    def eval(self, e: Any, m: np.ndarray) -> V:
        kind = e[0]
        if kind == "num":
            return self.const(e[1], e[2])
        if kind == "var":
            return self.lookup(e[1])
        if kind == "member":
            base = e[1]
            if base[0] == "var" and base[1] in ("threadIdx", "blockIdx", "blockDim", "gridDim"):
                return self.builtin(base[1], e[2])
            raise Unsupported("member access")
        if kind == "bin":
            return self.binary(e[1], e[2], e[3], m)
        if kind == "un":
            v = self.eval(e[2], m)
            if e[1] == "-":
                return V(_wrap(-v.data, v.t), v.ok, v.t)
            if e[1] == "!":
                return V(np.array([int(not x) for x in v.data], dtype=object), v.ok, BOOL)
            if e[1] == "~":
                return V(_wrap(np.array([~int(x) for x in v.data], dtype=object), v.t), v.ok, v.t)
            return v
        if kind == "cond":
            c = self.truth(e[1], m)
            a, b = self.eval(e[2], m & c), self.eval(e[3], m & ~c)
            t = FLOAT if FLOAT in (a.t, b.t) else a.t
            a, b = self.convert(a, t), self.convert(b, t)
            return V(np.where(c, a.data, b.data), np.where(c, a.ok, b.ok), t)
        if kind == "assign":
            return self.assign(e[1], e[2], e[3], m)
        if kind == "post":
            old = self.eval(e[2], m)
            old = V(old.data.copy(), old.ok.copy(), old.t, old.buf)
            self.assign(e[1], e[2], ("num", 1, INT), m)
            return old
        if kind == "cast":
            return self.convert(self.eval(e[2], m), e[1])
        if kind == "index":
            return self.load(*self.address(e, m), m)
        if kind == "addr":
            buf, off, t = self.address(e[1], m)
            return V(off, np.ones(self.n, dtype=bool), Type(t.kind, t.bits, t.unsigned, True), buf)
        if kind == "call":
            return self.call(e[1], e[2], m)
        raise Unsupported(kind)

    def builtin(self, name: str, axis: str) -> V:
        k = "xyz".index(axis)
        if name == "threadIdx":
            value: Any = (self.tx, self.ty, np.zeros(self.n, dtype=int))[k]
        elif name == "blockIdx":
            value = (*self.block_idx, 0)[k]
        elif name == "blockDim":
            value = (*self.sim.block, 1)[k]
        else:
            value = (*self.sim.grid, 1)[k]
        v = self.const(0, UINT)
        v.data = np.array([int(x) for x in np.broadcast_to(value, (self.n,))], dtype=object)
        return v

    def binary(self, op: str, ea: Any, eb: Any, m: np.ndarray) -> V:
        a = self.eval(ea, m)
        if op in ("&&", "||"):
            ta = np.array([bool(x) for x in a.data], dtype=bool)
            rest = m & (ta if op == "&&" else ~ta)
            b = self.eval(eb, rest)
            tb = np.array([bool(x) for x in b.data], dtype=bool)
            out = (ta & tb) if op == "&&" else (ta | tb)
            ok = a.ok & np.where(rest, b.ok, True)
            return V(np.array([int(x) for x in out], dtype=object), ok, BOOL)
        b = self.eval(eb, m)
        ok = a.ok & b.ok
        if a.buf is not None and op in ("+", "-"):  # pointer arithmetic
            step = self.convert(b, LL).data
            return V(a.data + step if op == "+" else a.data - step, ok, a.t, a.buf)
        t = self.common(a.t, b.t)
        if op in ("<<", ">>"):
            t = a.t if a.t.bits >= 32 else INT
        x, y = self.convert(a, t).data, self.convert(b, t).data
        if op in ("==", "!=", "<", ">", "<=", ">="):
            fn: Callable[[Any, Any], Any] = {"==": lambda p, q: p == q, "!=": lambda p, q: p != q,
                                             "<": lambda p, q: p < q, ">": lambda p, q: p > q,
                                             "<=": lambda p, q: p <= q, ">=": lambda p, q: p >= q}[op]
            return V(np.array([int(fn(p, q)) for p, q in zip(x, y, strict=True)], dtype=object), ok, BOOL)
        if op in ("/", "%"):
            zero = np.array([q == 0 for q in y], dtype=bool)
            ok = ok & ~zero
            y = np.where(zero, 1, y)
            if t.kind == "f":
                data = x / y if op == "/" else np.fmod(x, y)
            else:
                q = np.array([abs(int(p)) // abs(int(r)) * (1 if (p >= 0) == (r > 0) else -1)
                              for p, r in zip(x, y, strict=True)], dtype=object)
                data = q if op == "/" else x - q * y
            return V(_wrap(data, t) if t.kind == "i" else data, ok, t)
        ops: dict[str, Callable[[Any, Any], Any]] = {
            "+": lambda p, q: p + q, "-": lambda p, q: p - q, "*": lambda p, q: p * q,
            "&": lambda p, q: int(p) & int(q), "|": lambda p, q: int(p) | int(q), "^": lambda p, q: int(p) ^ int(q),
            "<<": lambda p, q: int(p) << int(q), ">>": lambda p, q: int(p) >> int(q)}
        if op in ("&", "|", "^", "<<", ">>") and t.kind == "f":
            raise SimError(f"bitwise {op} on float")
        data = np.array([ops[op](p, q) for p, q in zip(x, y, strict=True)], dtype=float if t.kind == "f" else object)
        return V(_wrap(data, t), ok, t)

    @staticmethod
    def common(a: Type, b: Type) -> Type:
        if a.kind == "f" or b.kind == "f":
            return FLOAT
        bits = max(a.bits, b.bits, 32)
        unsigned = (a.unsigned and a.bits >= bits) or (b.unsigned and b.bits >= bits)
        return Type("i", bits, unsigned)

    def address(self, e: Any, m: np.ndarray) -> tuple[Buffer, np.ndarray, Type]:
        if e[0] != "index":
            raise Unsupported("address of a non-element")
        p = self.eval(e[1], m)
        if p.buf is None:
            raise Unsupported("indexing a non-pointer")
        i = self.convert(self.eval(e[2], m), LL)
        if not i.ok[m].all() or not p.ok[m].all():
            raise SimError(f"{p.buf.name}: undefined index")
        off = np.array([int(a) + int(b) for a, b in zip(p.data, i.data, strict=True)], dtype=object)
        bad = [int(o) for o, on in zip(off, m, strict=True) if on and not 0 <= int(o) < len(p.buf.data)]
        if bad:
            raise SimError(f"{p.buf.name}[{bad[0]}] is out of bounds (size {len(p.buf.data)})")
        return p.buf, off, p.buf.elem

    def load(self, buf: Buffer, off: np.ndarray, t: Type, m: np.ndarray) -> V:
        v = self.undefined(t)
        for k in np.flatnonzero(m):
            o = int(off[k])
            v.data[k] = buf.data[o]
            v.ok[k] = buf.ok[o]
            if buf.written is not None and not buf.written[o]:
                self.sim.report.uninitialised_reads.append(f"block {self.block_idx}: {buf.name}[{o}]")
        return v

    def store(self, buf: Buffer, off: np.ndarray, v: V, m: np.ndarray) -> None:
        c = self.convert(v, buf.elem)
        for k in np.flatnonzero(m):
            o = int(off[k])
            buf.data[o] = c.data[k]
            buf.ok[o] = c.ok[k]
            if buf.written is not None:
                buf.written[o] = True
            if not c.ok[k] and buf.name not in self.sim.shared:
                self.sim.report.undefined_stores.append(f"block {self.block_idx}: {buf.name}[{o}]")

    def assign(self, op: str, lhs: Any, rhs: Any, m: np.ndarray) -> V:
        value = self.eval(rhs, m)
        if op != "=":
            value = self._bin_values(op[:-1], self.eval(lhs, m), value, m)
        if lhs[0] == "var":
            var = self.lookup(lhs[1])
            self.store_var(var, value, m)
            return var
        buf, off, _ = self.address(lhs, m)
        self.store(buf, off, value, m)
        return value

    def _bin_values(self, op: str, a: V, b: V, m: np.ndarray) -> V:
        key = ("__lhs", "__rhs")
        scope = {key[0]: a, key[1]: b}
        self.frames[-1].scopes.append(scope)
        try:
            return self.binary(op, ("var", key[0]), ("var", key[1]), m)
        finally:
            self.frames[-1].scopes.pop()

    # calls
    def call(self, name: str, args: list[Any], m: np.ndarray) -> V:
        if name in self.sim.funcs:
            func = self.sim.funcs[name]
            ret = self.run(func, [self.eval(a, m) for a in args], m)
            return ret if ret is not None else self.const(0, INT)
        if name == "__syncthreads":
            if not np.array_equal(m, self.frames[0].alive):
                raise SimError("__syncthreads() is not reached by every thread of the block")
            return self.const(0, INT)
        if name == "__syncwarp":
            return self.const(0, INT)
        vals = [self.eval(a, m) for a in args]
        if name.startswith("__shfl"):
            return self.shuffle(name, vals, m)
        if name in ("__ballot_sync", "__ballot", "__activemask"):
            return self.ballot(vals[-1] if vals else None, m)
        if name in ("__popc", "__popcll", "__ffs", "__ffsll"):
            bits = 64 if name.endswith("ll") else 32
            x = [int(d) & ((1 << bits) - 1) for d in vals[0].data]
            out = [bin(d).count("1") for d in x] if "popc" in name else [(d & -d).bit_length() for d in x]
            return V(np.array(out, dtype=object), vals[0].ok, INT)
        if name == "atomicAdd":
            buf, off, t = vals[0].buf, vals[0].data, vals[0].t
            if buf is None:
                raise Unsupported("atomicAdd on a non-pointer")
            old = self.undefined(buf.elem)
            c = self.convert(vals[1], buf.elem)
            for k in np.flatnonzero(m):
                o = int(off[k])
                old.data[k], old.ok[k] = buf.data[o], buf.ok[o]
                buf.data[o] = buf.data[o] + c.data[k]
                buf.ok[o] = buf.ok[o] and c.ok[k]
                if not buf.ok[o]:
                    self.sim.report.undefined_stores.append(f"block {self.block_idx}: {buf.name}[{o}]")
            return old
        maths: dict[str, Callable[..., float]] = {
            "rsqrtf": lambda x: 1 / math.sqrt(x) if x > 0 else math.inf, "sqrtf": math.sqrt, "expf": math.exp,
            "fabsf": abs, "fmaxf": max, "fminf": min, "max": max, "min": min}
        if name in maths:
            t = FLOAT if name.endswith("f") or any(v.t.kind == "f" for v in vals) else vals[0].t
            cs = [self.convert(v, t) for v in vals]
            ok = np.logical_and.reduce([c.ok for c in cs])
            out = [maths[name](*(c.data[k] for c in cs)) if ok[k] else 0 for k in range(self.n)]
            return V(np.array(out, dtype=float if t.kind == "f" else object), ok, t)
        raise Unsupported(f"call to {name}")

    def shuffle(self, name: str, vals: list[V], m: np.ndarray) -> V:
        if name.endswith("_sync"):
            mask, vals = vals[0], vals[1:]
            for k in np.flatnonzero(m):
                if not int(mask.data[k]) >> int(self.lane[k]) & 1:
                    self.sim.report.notes.append(f"{name}: lane {self.lane[k]} is active but not in the mask")
                    break
        v, x = vals[0], vals[1]
        width = int(vals[2].data[0]) if len(vals) > 2 else self.sim.width
        out = self.undefined(v.t)
        for k in np.flatnonzero(m):
            lane, d = int(self.lane[k]), int(x.data[k])
            seg = lane - lane % width
            kind = name.replace("_sync", "")
            if kind == "__shfl_down":
                src = lane + d if lane % width + d < width else lane
            elif kind == "__shfl_up":
                src = lane - d if lane % width >= d else lane
            elif kind == "__shfl_xor":
                src = lane ^ d
                src = src if seg <= src < seg + width else lane
            else:
                src = seg + d % width
            if src >= self.sim.width:
                src = lane
            j = int(self.base[k]) + src
            if j >= self.n or not m[j]:  # reading a lane that is not active: undefined
                out.ok[k] = False
                continue
            out.data[k], out.ok[k] = v.data[j], v.ok[j]
        return out

    def ballot(self, pred: V | None, m: np.ndarray) -> V:
        out = self.const(0, Type("i", 64, True))
        for k in np.flatnonzero(m):
            bits = 0
            for j in range(int(self.base[k]), min(int(self.base[k]) + self.sim.width, self.n)):
                if m[j] and (pred is None or bool(pred.data[j])):
                    bits |= 1 << int(self.lane[j])
            out.data[k] = bits
        return out


class Simulator:
    """Runs kernels of one source text: ``Simulator(text, width=64).launch("k", grid, block, args)``."""

    def __init__(self, text: str, width: int) -> None:
        self.funcs = parse(text)
        self.width = width
        self.block: tuple[int, int] = (1, 1)
        self.grid: tuple[int, int] = (1, 1)
        self.shared: dict[str, Buffer] = {}
        self.report = Report()

    def launch(self, kernel: str, grid: int | tuple[int, int], block: int | tuple[int, int],
               args: dict[str, Any]) -> Report:
        """Run ``kernel``; ``args`` maps parameter names to numpy arrays (global memory, updated in place)
        or scalars."""
        self.grid = (grid, 1) if isinstance(grid, int) else grid
        self.block = (block, 1) if isinstance(block, int) else block
        func = self.funcs[kernel]
        buffers = {name: Buffer(name, a, np.ones(len(a), dtype=bool), t) for (name, t) in func.params
                   if isinstance(a := args[name], np.ndarray)}
        for by in range(self.grid[1]):
            for bx in range(self.grid[0]):
                self.shared = {}
                blk = Block(self, (bx, by))
                values = []
                for name, t in func.params:
                    if name in buffers:
                        buf = buffers[name]
                        buf.elem = Type(t.kind, t.bits, t.unsigned)
                        values.append(V(np.zeros(blk.n, dtype=object), np.ones(blk.n, dtype=bool), t, buf))
                    else:
                        values.append(blk.const(args[name], t))
                blk.run(func, values, np.ones(blk.n, dtype=bool))
        return self.report
