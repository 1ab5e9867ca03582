"""The workspace's settings: ``cuda2rocm.toml`` (top-level keys) or ``[tool.cuda2rocm]`` in ``pyproject.toml``
(the same keys), one loader for both.

Keys (docs/workspace.md; ``cuda2rocm init`` writes them all with a comment each)::

    target-gpu = "MI300X"          # the AMD GPU (knowledge base name); scan reads the same key
    target-rocm = "6.4"            # "" = the newest release the knowledge base knows
    target-os = "ubuntu22.04"      # container OS of the ROCm images
    dual-platform = false          # the team keeps CUDA and ROCm builds side by side
    [frameworks]                   # framework -> version the service runs (compat checks these)
    pytorch = "2.6"
    [tolerances]                   # compare's tolerance policy (regress/data/tolerances.yaml) overrides
    float32 = "fp32"               # or "tf32"
    [tolerances.classes.bf16]
    max_rel_l2 = 0.03
    [performance]                  # bench compare's thresholds and statistics
    thresholds = ["tokens_per_s>=0.95x"]
    alpha = 0.05
    tolerance = 0.05

The keys ``scan`` reads (``include``, ``exclude``, ``max-file-mb``, ``disable``, ``respect-gitignore``) are
accepted and left to scan's own loader (:mod:`cuda2rocm.files.config`). A value that is wrong is a
:class:`ConfigError` naming the file and the line of the key; an unknown key is a warning (``warnings``), so a
newer tool's file still loads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cuda2rocm.source.formats.tomldoc import TomlDocument, read_toml
from cuda2rocm.workspace.store import CONFIG_NAME, find

if TYPE_CHECKING:
    from cuda2rocm.perf.compare import Policy as BenchPolicy
    from cuda2rocm.regress.policy import Policy as TolerancePolicy

FRAMEWORKS = ("pytorch", "tensorflow", "jax", "onnxruntime")
SCAN_KEYS = frozenset({"include", "exclude", "max-file-mb", "disable", "respect-gitignore"})
TOP_KEYS = frozenset({"target-gpu", "target-rocm", "target-os", "dual-platform", "frameworks", "tolerances",
                      "performance"})
TOLERANCE_KEYS = frozenset({"float32", "classes", "layers"})
PERFORMANCE_KEYS = frozenset({"thresholds", "alpha", "tolerance"})


class ConfigError(ValueError):
    """A workspace configuration that cannot be read or has a wrong value; the message names file and line."""


@dataclass(frozen=True)
class WorkspaceConfig:
    target_gpu: str = ""  # "" = not set (each command's own default)
    target_rocm: str = ""
    target_os: str = ""
    dual_platform: bool = False
    frameworks: dict[str, str] = field(default_factory=dict)
    tolerances: dict[str, Any] = field(default_factory=dict)  # compare's config mapping (float32, classes, layers)
    thresholds: tuple[str, ...] = ()
    alpha: float = 0.05
    tolerance: float = 0.05
    source: str = ""  # the file read ("" = defaults)
    warnings: tuple[str, ...] = ()

    def tolerance_policy(self) -> TolerancePolicy:
        """compare's policy: the packaged defaults with this workspace's overrides."""
        from cuda2rocm.regress.policy import apply_config, default_policy

        return apply_config(default_policy(), self.tolerances, self.source or CONFIG_NAME)

    def bench_policy(self) -> BenchPolicy:
        """bench compare's policy: the thresholds, significance level and tolerance."""
        from cuda2rocm.perf.compare import policy_from

        return policy_from(self.thresholds, self.alpha, self.tolerance)


def load(path: str | Path) -> WorkspaceConfig:
    """The settings in ``path``: a ``cuda2rocm.toml`` (top-level keys, or a ``[tool.cuda2rocm]`` table) or a
    ``pyproject.toml`` (``[tool.cuda2rocm]``; none there: the defaults). Raises :class:`ConfigError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    return loads(text, path)


def loads(text: str, path: str | Path = CONFIG_NAME) -> WorkspaceConfig:
    """The settings in ``text``, read as the file ``path`` (its name decides the layout; messages name it)."""
    path = Path(path)
    doc = read_toml(text)
    if doc.problems:
        p = doc.problems[0]
        raise ConfigError(f"{path}:{p.line}: {p.message}" if p.line else f"{path}: {p.message}")
    data = doc.data()
    tool = data.get("tool", {}).get("cuda2rocm") if isinstance(data.get("tool"), dict) else None
    if tool is not None:
        return _Reader(doc, str(path), ("tool", "cuda2rocm")).config(tool)
    if path.name == CONFIG_NAME:
        return _Reader(doc, str(path), ()).config({k: v for k, v in data.items() if k != "tool"})
    return WorkspaceConfig()


def for_project(start: str | Path = ".") -> WorkspaceConfig:
    """The settings that apply at ``start``: the workspace's ``cuda2rocm.toml``, else the nearest
    ``pyproject.toml`` with a ``[tool.cuda2rocm]`` table (from ``start`` up); the defaults when there is none."""
    here = Path(start).resolve()
    ws = find(here)
    if ws is not None and (ws / CONFIG_NAME).is_file():
        return load(ws / CONFIG_NAME)
    for folder in (here, *here.parents):
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and _parses(pyproject):  # a broken pyproject is the project's, reported where read
            cfg = load(pyproject)
            if cfg.source:
                return cfg
    return WorkspaceConfig()


def _parses(path: Path) -> bool:
    """Is ``path`` readable TOML? (An unparsable pyproject.toml holds no settings of ours; ``migrate build``
    reports it with its line as an input problem of the project.)"""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        tomlkit.parse(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, TOMLKitError):
        return False
    return True


@dataclass
class _Reader:
    doc: TomlDocument
    source: str
    prefix: tuple[str, ...]
    warnings: list[str] = field(default_factory=list)

    def where(self, *path: str | int) -> str:
        full = (*self.prefix, *path)
        piece = None
        for cut in range(len(full), 0, -1):
            piece = self.doc.key_span(*full[:cut]) or self.doc.table_span(*full[:cut])
            if piece is not None:
                break
        if piece is None:
            return self.source
        return f"{self.source}:{self.doc.text.count(chr(10), 0, piece.offset) + 1}"

    def fail(self, message: str, *path: str | int) -> ConfigError:
        return ConfigError(f"{self.where(*path)}: {'.'.join(str(p) for p in path)}: {message}")

    def config(self, table: Mapping[str, Any]) -> WorkspaceConfig:
        for key in table:
            if key not in TOP_KEYS and key not in SCAN_KEYS and key.replace("_", "-") not in SCAN_KEYS | TOP_KEYS:
                self.warnings.append(f"{self.where(key)}: unknown key {key!r} (ignored)")
        values: dict[str, Any] = {"source": self.source}
        gpu = self.text(table, "target-gpu")
        if gpu:
            from cuda2rocm.hazards.targets import UnknownTarget, resolve

            try:
                resolve(gpu)
            except UnknownTarget as exc:
                raise self.fail(str(exc), "target-gpu") from None
            values["target_gpu"] = gpu
        rocm = self.text(table, "target-rocm")
        if rocm:
            from cuda2rocm import knowledge

            if knowledge.get_release(rocm) is None:
                known = ", ".join(list(knowledge.rocm_releases())[:6])
                raise self.fail(f"unknown ROCm release {rocm!r} (known: {known}, ...)", "target-rocm")
            values["target_rocm"] = rocm
        values["target_os"] = self.text(table, "target-os")
        if "dual-platform" in table:
            if not isinstance(table["dual-platform"], bool):
                raise self.fail("must be true or false", "dual-platform")
            values["dual_platform"] = table["dual-platform"]
        values["frameworks"] = self.frameworks(table.get("frameworks", {}))
        values["tolerances"] = self.tolerances(table.get("tolerances", {}))
        values.update(self.performance(table.get("performance", {})))
        return WorkspaceConfig(**values, warnings=tuple(self.warnings))

    def text(self, table: Mapping[str, Any], key: str) -> str:
        value = table.get(key, "")
        if not isinstance(value, str):
            raise self.fail(f"must be a string, not {type(value).__name__}", key)
        return value.strip()

    def frameworks(self, raw: Any) -> dict[str, str]:
        if not isinstance(raw, Mapping):
            raise self.fail("must be a table of framework = \"version\"", "frameworks")
        out = {}
        for name, version in raw.items():
            if name not in FRAMEWORKS:
                raise self.fail(f"unknown framework (known: {', '.join(FRAMEWORKS)})", "frameworks", name)
            if not isinstance(version, str):
                raise self.fail("the version must be a string, e.g. \"2.6\"", "frameworks", name)
            if version.strip():  # "" = not decided yet
                out[name] = version.strip()
        return out

    def tolerances(self, raw: Any) -> dict[str, Any]:
        from cuda2rocm.regress.errors import RegressInputError
        from cuda2rocm.regress.policy import apply_config, default_policy

        if not isinstance(raw, Mapping):
            raise self.fail("must be a table (float32, classes, layers)", "tolerances")
        for key in raw:
            if key not in TOLERANCE_KEYS:
                raise self.fail(f"unknown key (known: {', '.join(sorted(TOLERANCE_KEYS))})", "tolerances", key)
        plain = dict(raw)
        try:
            apply_config(default_policy(), plain, self.source)
        except RegressInputError as exc:
            given = raw.get("classes")
            classes: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
            named = [n for n in classes if f"class {n}" in exc.message or f"class {n!r}" in exc.message]
            where = ("tolerances", "classes", named[0]) if named else ("tolerances",)
            raise self.fail(exc.message, *where) from None
        return plain

    def performance(self, raw: Any) -> dict[str, Any]:
        from cuda2rocm.perf.thresholds import parse

        if not isinstance(raw, Mapping):
            raise self.fail("must be a table (thresholds, alpha, tolerance)", "performance")
        out: dict[str, Any] = {}
        for key in raw:
            if key not in PERFORMANCE_KEYS:
                raise self.fail(f"unknown key (known: {', '.join(sorted(PERFORMANCE_KEYS))})", "performance", key)
        items = raw.get("thresholds", [])
        if not isinstance(items, list):
            raise self.fail("must be a list of strings such as \"tokens_per_s>=0.95x\"", "performance", "thresholds")
        for item in items:
            try:
                parse(item) if isinstance(item, str) else parse(repr(item))
            except ValueError as exc:
                raise self.fail(str(exc), "performance", "thresholds") from None
        out["thresholds"] = tuple(items)
        for key in ("alpha", "tolerance"):
            if key in raw:
                value = raw[key]
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
                    raise self.fail("must be a number between 0 and 1", "performance", key)
                out[key] = float(value)
        return out


def template(*, target_gpu: str = "MI300X", target_rocm: str = "", target_os: str = "ubuntu22.04",
             pytorch: str = "", dual_platform: bool = False) -> str:
    """The text ``cuda2rocm init`` writes: every key with a comment saying what it is and who reads it."""
    import tomlkit

    from cuda2rocm.regress.policy import default_policy

    policy = default_policy()
    doc = tomlkit.document()
    doc.add(tomlkit.comment("cuda2rocm workspace settings (docs/workspace.md). The same keys work under"))
    doc.add(tomlkit.comment("[tool.cuda2rocm] in pyproject.toml. Results of every cuda2rocm command run here are"))
    doc.add(tomlkit.comment("recorded in .cuda2rocm/records/ (opt out per run with `cuda2rocm --no-record ...`)."))
    doc.add(tomlkit.nl())
    doc.add(tomlkit.comment("The AMD GPU the migration targets, by name (`cuda2rocm kb list gpus` lists them)."))
    doc.add(tomlkit.comment("scan checks device code against it; migrate build/deploy compile for its gfx target."))
    doc.add("target-gpu", target_gpu)
    doc.add(tomlkit.comment("The ROCm release to target, X.Y; empty: the newest release the knowledge base knows."))
    doc.add("target-rocm", target_rocm)
    doc.add(tomlkit.comment("The container OS of the ROCm images migrate deploy writes (e.g. ubuntu24.04)."))
    doc.add("target-os", target_os)
    doc.add(tomlkit.comment("true: the team keeps CUDA and ROCm builds side by side (platform macros, two CI"))
    doc.add(tomlkit.comment("pipelines, two baselines); the report then has a dual-platform section."))
    doc.add("dual-platform", dual_platform)
    doc.add(tomlkit.nl())

    fw = tomlkit.table()
    fw.add(tomlkit.comment("Framework -> the version the service runs on ROCm; `cuda2rocm compat` checks these."))
    fw.add(tomlkit.comment(f"Known frameworks: {', '.join(FRAMEWORKS)}."))
    fw.add("pytorch", pytorch)
    doc.add("frameworks", fw)

    tol = tomlkit.table()
    tol.add(tomlkit.comment("compare's dtype-aware tolerance policy: the packaged defaults per dtype class with"))
    tol.add(tomlkit.comment("these overrides. Classes: " + ", ".join(policy.classes) + "."))
    tol.add(tomlkit.comment("float32: the class FP32 tensors are compared under (tf32 when the CUDA baseline ran"))
    tol.add(tomlkit.comment("with TF32 matmuls)."))
    tol.add("float32", policy.class_for("F32"))
    classes = tomlkit.table()
    classes.add(tomlkit.comment("Per class, any of: atol, rtol, max_mismatch_fraction, max_rel_l2, min_cosine,"))
    classes.add(tomlkit.comment("max_ulp. These are the defaults for BF16; change a value to loosen or tighten it."))
    bf16 = policy.classes["bf16"]
    body = tomlkit.table()
    for key in ("atol", "rtol", "max_mismatch_fraction", "max_rel_l2", "min_cosine"):
        body.add(key, getattr(bf16, key))
    classes.add("bf16", body)
    tol.add("classes", classes)
    doc.add("tolerances", tol)

    perf = tomlkit.table()
    perf.add(tomlkit.comment("bench compare's gates: each threshold is METRIC OP VALUE, relative to the CUDA"))
    perf.add(tomlkit.comment("baseline's median with x (tokens_per_s>=0.95x, p99_ms<=1.10x) or absolute"))
    perf.add(tomlkit.comment("(mem_gb<=70). A threshold that matches no metric is an error, never a pass."))
    perf.add("thresholds", tomlkit.array('["tokens_per_s>=0.95x", "*busbw_gbps>=0.95x"]'))
    perf.add(tomlkit.comment("Significance level of the Mann-Whitney U test, and the relative change below which"))
    perf.add(tomlkit.comment("a difference is never flagged."))
    perf.add("alpha", 0.05)
    perf.add("tolerance", 0.05)
    doc.add("performance", perf)
    return tomlkit.dumps(doc)
