"""Tolerance policies: per-dtype defaults (``data/tolerances.yaml``) plus per-layer overrides by glob."""

from __future__ import annotations

import dataclasses
import fnmatch
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from cuda2rocm.datafiles import load_packaged_yaml
from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.results.regress import TOLERANCE_FIELDS, Tolerance


@dataclass(frozen=True)
class LayerRule:
    match: str
    skip: bool = False
    policy: str = ""
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Policy:
    classes: Mapping[str, Tolerance]
    dtype_class: Mapping[str, str]
    layers: tuple[LayerRule, ...] = ()
    #: tensor kind (the name's prefix before '/': ``grad``) -> dtype -> class, over ``dtype_class``
    kind_class: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def class_for(self, dtype: str, name: str = "") -> str:
        """The class of a tensor of ``dtype``; ``name`` (``grad/conv1.weight``) picks its kind's class if any."""
        kind = name.split("/", 1)[0] if "/" in name else ""
        return self.kind_class.get(kind, {}).get(dtype) or self.dtype_class.get(dtype, "exact")

    def for_tensor(self, name: str, dtype: str) -> Tolerance | None:
        """The tolerance for one tensor; None when a layer rule says to skip it. First matching rule wins."""
        base = self.classes[self.class_for(dtype, name)]
        for layer in self.layers:
            if fnmatch.fnmatchcase(name, layer.match):
                if layer.skip:
                    return None
                start = self.classes[layer.policy] if layer.policy else base
                return start.with_overrides(layer.values)
        return base


def _load_yaml_text(text: str, path: str) -> Any:
    try:
        return YAML(typ="safe").load(text)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        raise RegressInputError(path, f"malformed YAML: {getattr(exc, 'problem', exc)}", line) from None


def _tolerance(name: str, raw: Mapping[str, Any], path: str) -> Tolerance:
    try:
        values = {k: (None if raw.get(k) is None else float(raw[k])) for k in TOLERANCE_FIELDS}
        ulp = values.pop("max_ulp")
        return Tolerance(name=name, max_ulp=None if ulp is None else int(ulp), **values)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise RegressInputError(path, f"class {name!r}: bad tolerance value ({exc})") from None


def default_policy() -> Policy:
    _, raw = load_packaged_yaml("cuda2rocm.regress", "data/tolerances.yaml")
    classes = {name: _tolerance(name, body, "tolerances.yaml") for name, body in raw["classes"].items()}
    kinds = {kind: dict(by_dtype) for kind, by_dtype in (raw.get("kind_class") or {}).items()}
    return Policy(classes=classes, dtype_class=dict(raw["dtype_class"]), kind_class=kinds)


def load_policy(path: str | Path | None = None, *, float32: str = "") -> Policy:
    """Defaults, then the config file (YAML or JSON) if given, then ``float32`` (e.g. ``tf32``)."""
    policy = default_policy()
    if path is not None:
        policy = apply_config(policy, read_config(Path(path)), str(path))
    if float32:
        policy = _set_float32(policy, float32, "--float32")
    return policy


def read_config(path: Path) -> Mapping[str, Any]:
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RegressInputError(str(path), f"cannot read config: {exc}") from None
    if path.suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RegressInputError(str(path), f"malformed JSON: {exc.msg}", exc.lineno) from None
    else:
        data = _load_yaml_text(text, str(path))
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise RegressInputError(str(path), "config must be a mapping (keys: float32, classes, layers)")
    return data


def _set_float32(policy: Policy, name: str, where: str) -> Policy:
    if name not in policy.classes:
        raise RegressInputError(where, f"unknown policy class {name!r} (known: {', '.join(policy.classes)})")
    return dataclasses.replace(policy, dtype_class={**policy.dtype_class, "F32": name})


def apply_config(policy: Policy, config: Mapping[str, Any], path: str) -> Policy:
    unknown = set(config) - {"float32", "classes", "layers", "curves", "metrics"}
    if unknown:
        raise RegressInputError(path, f"unknown config keys: {', '.join(sorted(unknown))}")
    classes = dict(policy.classes)
    for name, raw in (config.get("classes") or {}).items():
        start = classes.get(name) or _tolerance(name, raw, path)
        classes[name] = start.with_overrides(_numbers(raw, path, f"class {name}"))
    policy = dataclasses.replace(policy, classes=classes, layers=_layer_rules(config, classes, path))
    return _set_float32(policy, str(config["float32"]), path) if config.get("float32") else policy


def _numbers(raw: Mapping[str, Any], path: str, what: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in TOLERANCE_FIELDS:
        if key in raw:
            try:
                out[key] = int(raw[key]) if key == "max_ulp" else float(raw[key])
            except (TypeError, ValueError):
                raise RegressInputError(path, f"{what}: {key} must be a number, got {raw[key]!r}") from None
    return out


def _layer_rules(config: Mapping[str, Any], classes: Mapping[str, Tolerance], path: str) -> tuple[LayerRule, ...]:
    rules = []
    for i, raw in enumerate(config.get("layers") or []):
        if not isinstance(raw, Mapping) or "match" not in raw:
            raise RegressInputError(path, f"layers[{i}] needs a 'match' glob")
        name = str(raw.get("policy", ""))
        if name and name not in classes:
            raise RegressInputError(path, f"layers[{i}]: unknown policy class {name!r}")
        values = _numbers(raw, path, f"layers[{i}]")
        rules.append(LayerRule(str(raw["match"]), bool(raw.get("skip", False)), name, values))
    return tuple(rules)
