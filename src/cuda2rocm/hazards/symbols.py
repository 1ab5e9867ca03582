"""Names with constant values: ``#define``, ``constexpr``/``const`` declarations, simple local
initialisations, and template arguments taken from the launches of a template kernel."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cuda2rocm.hazards.context import Source
from cuda2rocm.source.directives import directives, object_macro
from cuda2rocm.source.structure import Function, Launch
from cuda2rocm.source.tokens import IDENT, PUNCT, Token

Env = dict[str, Sequence[Token]]

_DECL_WORDS = frozenset({"constexpr", "const"})


def defines(src: Source) -> Env:
    """Object-like macros: ``#define NAME tokens...`` (function-like macros are left out); the first wins."""
    env: Env = {}
    for name, body in define_sites(src):
        env.setdefault(src.src(name), body)
    return env


def define_sites(src: Source) -> list[tuple[int, list[Token]]]:
    """Every object-like ``#define`` of the file in order: the index of its name and its body (cached)."""
    found: list[tuple[int, list[Token]]] | None = src.cache.get("define_sites")
    if found is None:
        found = [] if "define" not in src.text else [
            m for d in directives(src.tokens) if d.word == "define" and (m := object_macro(src.tokens, d))]
        src.cache["define_sites"] = found
    return found


def initialiser(src: Source, eq: int) -> tuple[int, int]:
    """[start, end) of the expression after ``=`` at ``eq`` (to the next top-level ``;`` or ``,``)."""
    j = eq + 1
    while j < len(src.tokens):
        s = src.src(j)
        if src.kind(j) == PUNCT and s in ("(", "[", "{") and j in src.pairs:
            j = src.pairs[j] + 1
            continue
        if src.kind(j) == PUNCT and s in (";", ",", ")", "}"):
            break
        j += 1
    return eq + 1, j


def _assignments(src: Source, start: int, end: int, *, const_only: bool) -> Env:
    env: Env = {}
    for name, value in declarations(src, start, end, const_only=const_only):
        env.setdefault(src.src(name), value)
    return env


def declarations(src: Source, start: int, end: int, *, const_only: bool) -> Iterator[tuple[int, list[Token]]]:
    """``T name = expr`` in ``[start, end)`` (with ``const``/``constexpr`` among the words before the name when
    ``const_only``), in order: the index of the name and the initialiser's code tokens."""
    for i in src.tokens_named(("=",), start, end):  # '=' is always a code token
        if src.tokens[i].pp:
            continue
        name = src.prev(i)
        if src.kind(name) != IDENT:
            continue
        before = src.prev(name)
        if src.kind(before) != IDENT:  # a declaration has a type word before the name
            continue
        if const_only and not _has_const(src, before):
            continue
        a, b = initialiser(src, i)
        yield name, [src.tokens[k] for k in src.range_code(a, b)]


def _has_const(src: Source, i: int) -> bool:
    while i >= 0 and src.kind(i) == IDENT:
        if src.src(i) in _DECL_WORDS:
            return True
        i = src.prev(i)
    return False


def file_env(src: Source) -> Env:
    """Macros and ``const``/``constexpr`` values of the whole file, and those it inherits from the headers it
    includes (:attr:`Source.inherited`; the file's own definition of a name wins). Cached per file."""
    cached: Env | None = src.cache.get("file_env")
    if cached is None:
        own = own_env(src)
        cached = src.cache["file_env"] = {**src.inherited.env, **own} if src.inherited.env else own
    return cached


def own_env(src: Source) -> Env:
    """Macros and ``const``/``constexpr`` values defined in the file itself (cached per file): what a rule that
    points at a definition reads (the definitions of inherited names are in other files)."""
    cached: Env | None = src.cache.get("own_env")
    if cached is None:
        cached = src.cache["own_env"] = _file_env(src)
    return cached


def _file_env(src: Source) -> Env:
    env = defines(src)
    for name, value in _assignments(src, 0, len(src.tokens), const_only=True).items():
        env.setdefault(name, value)
    for _, key, value in constant_members(src):
        env.setdefault(key, value)
    for name, value in alias_sites(src):
        env.setdefault(name, value)
    for name, value in instantiated_members(src):
        env.setdefault(name, value)
    return env


def alias_sites(src: Source) -> list[tuple[str, list[Token]]]:
    """``typedef unsigned int lanemask_t;`` / ``using Traits = BigTraits;``: every alias of a type named by words
    and ``::`` alone, with the tokens it names (cached per file)."""
    found: list[tuple[str, list[Token]]] | None = src.cache.get("alias_sites")
    if found is None:
        found = src.cache["alias_sites"] = []
        if "typedef" not in src.text and "using" not in src.text:
            return found
        for i in src.idents(frozenset({"typedef", "using"})):
            code = src.range_code(i + 1, src.statement_end(i))
            plain = all(src.kind(k) == IDENT or src.src(k) == "::" for k in code)
            if src.src(i) == "typedef" and len(code) >= 2 and plain:
                found.append((src.src(code[-1]), [src.tokens[k] for k in code[:-1]]))
            elif len(code) >= 3 and src.src(code[1]) == "=" and src.kind(code[0]) == IDENT and all(
                    src.kind(k) == IDENT or src.src(k) == "::" for k in code[2:]):
                found.append((src.src(code[0]), [src.tokens[k] for k in code[2:]]))
    return found


def type_aliases(src: Source) -> dict[str, str]:
    """The file's type aliases (:func:`alias_sites`): alias -> the words of the type it names, qualifiers left out
    (``lanemask_t`` -> ``unsigned int``)."""
    return {name: " ".join(t.src for t in toks if t.src not in _QUALIFIERS) for name, toks in alias_sites(src)}


_QUALIFIERS = frozenset({"const", "static", "volatile"})


_RECORDS = frozenset({"struct", "class", "union"})


def constant_members(src: Source) -> list[tuple[int, str, list[Token]]]:
    """Named constants that :func:`declarations` does not see, in order (cached per file): the enumerators
    with a value (``enum { kLanes = 32 };``, also as ``Kind::kLanes`` for a named enum) and the constant members
    of a struct or class, qualified by it (``struct Traits { static constexpr int kTileM = 128; }`` gives
    ``Traits::kTileM``), each with the index of its name. Members of a template (``template <int M> struct T``)
    are left out: their values depend on the arguments."""
    found: list[tuple[int, str, list[Token]]] | None = src.cache.get("constant_members")
    if found is not None:
        return found
    found = []
    if "enum" in src.text:
        for i in src.idents(frozenset({"enum"})):
            found.extend(_enumerators(src, i))
    if "struct" in src.text or "class" in src.text:
        for i in src.idents(_RECORDS):
            found.extend(_record_constants(src, i))
    src.cache["constant_members"] = found
    return found


def _body_after(src: Source, i: int) -> tuple[str, int] | None:
    """``KEYWORD [class] [NAME] [: base...] {``: (NAME or "", index of ``{``), or None (a declaration
    only)."""
    j, name = src.next(i), ""
    while src.kind(j) == IDENT or src.src(j) in ("::",):
        name = src.src(j) if src.kind(j) == IDENT and src.src(j) not in ("class", "struct", "final") else name
        j = src.next(j)
    if src.src(j) == ":":  # a base clause or an enum's underlying type
        while j < len(src.tokens) and src.src(j) not in ("{", ";", "(", ")"):
            j = src.next(j)
    return (name, j) if src.src(j) == "{" and j in src.pairs else None


def _enumerators(src: Source, i: int) -> Iterator[tuple[int, str, list[Token]]]:
    found = _body_after(src, i)
    if found is None:
        return
    name, open_ = found
    for a, b in _commas(src, open_ + 1, src.pairs[open_]):
        code = src.range_code(a, b)
        if len(code) >= 3 and src.kind(code[0]) == IDENT and src.src(code[1]) == "=":
            value = [src.tokens[k] for k in code[2:]]
            yield code[0], src.src(code[0]), value
            if name:
                yield code[0], f"{name}::{src.src(code[0])}", value


def _commas(src: Source, start: int, end: int) -> list[tuple[int, int]]:
    """[start, end) split at its top-level commas."""
    parts, part = [], start
    for k in src.top_level(start, end):
        if src.src(k) == ",":
            parts.append((part, k))
            part = k + 1
    parts.append((part, end))
    return parts


def _record_constants(src: Source, i: int) -> Iterator[tuple[int, str, list[Token]]]:
    if src.src(src.prev(i)) in ("enum", "<", ",") or _templated(src, i):
        return  # enum class (read by _enumerators), a template parameter, a template's members
    found = _body_after(src, i)
    if found is None or not found[0]:
        return
    name, open_ = found
    for at, value in declarations(src, open_, src.pairs[open_], const_only=True):
        if src.function_at(at) is None and value:
            yield at, f"{name}::{src.src(at)}", value


def _templated(src: Source, i: int) -> bool:
    """``template <...> struct X``: the keyword at ``i`` follows a template head."""
    j = src.prev(i)
    if src.src(j) != ">":
        return False
    while j >= 0 and src.src(j) not in (";", "{", "}", "template"):
        j = src.prev(j)
    return src.src(j) == "template"


def where(src: Source, name: str) -> str:
    """Where the constant ``name`` is defined: ``kLanes = 32 at line 4`` in the file, ``WARP_W = 32 at
    include/cfg.h:12`` in a header it includes ("" when neither: a template parameter, a local)."""
    toks = own_env(src).get(name)
    if toks:
        return spelled(src, name, toks)
    return src.inherited.where(name) if name in src.inherited.origins else ""


def spelled(src: Source, name: str, toks: Sequence[Token]) -> str:
    """``smem_bytes = 5 * sizeof(float) at line 7``: a binding whose tokens are the file's own, as written there
    (tokens made elsewhere are joined by spaces, without a line)."""
    first, last = toks[0], toks[-1]
    written = src.text[first.offset:last.end] if first.offset <= last.offset else ""
    if "".join(written.split()) != "".join(t.src for t in toks):  # not one stretch of the file's text
        return f"{name} = {' '.join(t.src for t in toks)}"
    return f"{name} = {written} at line {src.lines.line_col(first.offset)[0]}"


def inherited_uses(src: Source, first: int, last: int) -> list[str]:
    """The names used as code in tokens ``[first, last]`` whose value comes from an included header (not
    defined in the file itself), in order of first use."""
    if not src.inherited.env:
        return []
    own = own_env(src)
    names: list[str] = []
    for k in src.range_code(first, last + 1):
        name = src.src(k)
        if src.kind(k) == IDENT and name in src.inherited.env and name not in own and name not in names:
            names.append(name)
    return names


def local_env(src: Source, fn: Function | None, base: Env) -> Env:
    """``base`` plus the simple declarations-with-initialiser inside ``fn`` (first one wins)."""
    env = dict(base)
    if fn is not None:
        key = ("locals", fn.body_open)
        if key not in src.cache:
            src.cache[key] = _assignments(src, fn.body_open, fn.body_close, const_only=False)
        for name, value in src.cache[key].items():
            env.setdefault(name, value)
    return env


def template_params(src: Source, fn: Function) -> list[tuple[str, Sequence[Token]]]:
    """``template <typename T, int N = 4>`` before ``fn``: [(name, default tokens)]."""
    return template_head(src, fn.name_index)


def enclosing_record(src: Source, i: int) -> tuple[int, str, int] | None:
    """The innermost ``struct``/``class`` whose body holds token ``i``: (its keyword's index, its name, the index of
    its ``{``), or None."""
    inside = [r for r in _records(src) if r[2] < i < src.pairs[r[2]]]
    return max(inside, key=lambda r: r[2]) if inside else None


def _records(src: Source) -> list[tuple[int, str, int]]:
    """Every named ``struct``/``class`` with a body: (keyword index, name, index of ``{``), cached per file."""
    records: list[tuple[int, str, int]] | None = src.cache.get("records")
    if records is None:
        records = src.cache["records"] = [] if "struct" not in src.text and "class" not in src.text else [
            (k, *found) for k in src.idents(_RECORDS) if src.src(src.prev(k)) not in ("enum", "<", ",")
            and (found := _body_after(src, k)) is not None and found[0]]
    return records


def instantiated_members(src: Source) -> list[tuple[str, list[Token]]]:
    """``using BigTile = TileTraits<144, 128>;`` (or the ``typedef``) of a class template of the file: the constant
    members of the template with its parameters replaced by the arguments (defaults for those not given), as
    ``BigTile::kElems`` -> ``144 * 128``."""
    found: list[tuple[str, list[Token]]] = []
    if "<" not in src.text or not ("using" in src.text or "typedef" in src.text):
        return found
    templates = {name: (keyword, open_) for keyword, name, open_ in _records(src) if _templated(src, keyword)}
    for i in src.idents(frozenset({"typedef", "using"})) if templates else ():
        code = src.range_code(i + 1, src.statement_end(i))
        if src.src(i) == "using" and len(code) > 3 and src.src(code[1]) == "=":
            alias, target = src.src(code[0]), code[2]
        elif src.src(i) == "typedef" and len(code) > 2:
            alias, target = src.src(code[-1]), code[0]
        else:
            continue
        if src.src(target) not in templates or src.src(src.next(target)) != "<":
            continue
        keyword, open_ = templates[src.src(target)]
        args = [[src.tokens[k] for k in src.range_code(a, b)] for a, b in angle_args(src, src.next(target))]
        bound = {p: (args[k] if k < len(args) else list(d)) for k, (p, d) in enumerate(template_head(src, keyword))}
        for at, value in declarations(src, open_, src.pairs[open_], const_only=True):
            if src.function_at(at) is None and value:
                found.append((f"{alias}::{src.src(at)}", [t for tok in value for t in bound.get(tok.src, [tok])]))
    return found


def template_head(src: Source, at: int) -> list[tuple[str, Sequence[Token]]]:
    """``template <typename T, int N = 4>`` before the declaration whose name or keyword is at ``at``:
    [(name, default tokens)]."""
    i = src.prev(at)
    while i >= 0 and src.src(i) not in (";", "}", "{", "template"):
        i = src.prev(i)
    if src.src(i) != "template":
        return []
    open_ = src.next(i)
    if src.src(open_) != "<":
        return []
    params: list[tuple[str, Sequence[Token]]] = []
    for a, b in angle_args(src, open_):
        code = src.range_code(a, b)
        eq = next((k for k in code if src.src(k) == "="), None)
        names = [k for k in code if (eq is None or k < eq) and src.kind(k) == IDENT]
        if names:
            default = [src.tokens[k] for k in code if eq is not None and k > eq]
            params.append((src.src(names[-1]), default))
    return params


def angle_args(src: Source, open_: int) -> list[tuple[int, int]]:
    """Top-level comma-separated ranges inside ``<...>`` starting at ``open_``."""
    depth, part, j = 0, open_ + 1, open_
    parts: list[tuple[int, int]] = []
    while j < len(src.tokens):
        s = src.src(j)
        if s in ("(", "[") and j in src.pairs:
            j = src.pairs[j] + 1
            continue
        depth += {"<": 1, ">": -1, ">>": -2}.get(s, 0)
        if depth <= 0 and s in (">", ">>"):
            parts.append((part, j))
            return parts
        if depth == 1 and s == ",":
            parts.append((part, j))
            part = j + 1
        if s in (";", "{", "}"):
            return []
        j += 1
    return []


def instantiations(src: Source, fn: Function, base: Env) -> list[Env]:
    """One environment per distinct ``fn<args...><<<...>>>`` launch, binding template parameters."""
    params = template_params(src, fn)
    if not params:
        return [base]
    envs: list[Env] = []
    bound: set[tuple[tuple[str, ...] | None, ...]] = set()  # the same arguments twice make one environment
    for launch in _launches_by_name(src).get(fn.name, ()):
        if src.src(src.next(launch.name_index)) != "<":
            continue
        args = angle_args(src, src.next(launch.name_index))
        env = dict(base)
        for (name, default), (a, b) in zip(params, args, strict=False):
            env[name] = [src.tokens[k] for k in src.range_code(a, b)] or default
        for name, default in params[len(args):]:
            if default:
                env[name] = default
        key = tuple(tuple(t.src for t in env[name]) if name in env else None for name, _ in params)
        if key not in bound:
            bound.add(key)
            envs.append(env)
    if not envs:
        envs.append({**base, **{n: d for n, d in params if d}})
    return envs


def _launches_by_name(src: Source) -> dict[str, list[Launch]]:
    """The file's kernel launches by kernel name, in order (once per file: one scan per function was
    quadratic in the file size)."""
    found: dict[str, list[Launch]] | None = src.cache.get("launches_by_name")
    if found is None:
        found = {}
        for launch in src.launches:
            found.setdefault(launch.name, []).append(launch)
        src.cache["launches_by_name"] = found
    return found
