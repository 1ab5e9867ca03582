"""``compat --from-scan``: check what a scanned project uses (frameworks, plugins) against a ROCm target."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cuda2rocm import knowledge
from cuda2rocm.knowledge import versions
from cuda2rocm.knowledge.compat import recommend
from cuda2rocm.knowledge.support import framework_verdict
from cuda2rocm.results.compat import SUPPORTED, UNKNOWN, UNSUPPORTED, Query, Verdict

#: inventory names (as the scanner writes them) -> matrix framework key
FRAMEWORK_NAMES = {"torch": "pytorch", "pytorch": "pytorch", "tensorflow": "tensorflow", "tensorflow-gpu": "tensorflow",
                   "jax": "jax", "jaxlib": "jax", "onnxruntime": "onnxruntime", "onnxruntime-gpu": "onnxruntime"}
_PLUGIN_ACTIONS = {
    "native_upstream": "keep; install the ROCm build",
    "native_amd": "keep (AMD project)",
    "amd_fork": "switch to the AMD fork",
    "upstream_partial": "check feature coverage on ROCm",
    "alternative": "replace",
    "none": "replace",
    "deprecated_project": "replace (project deprecated)",
}


class ScanFileError(Exception):
    """The scan JSON cannot be read or is not a ScanResult."""


@dataclass(frozen=True)
class Item:
    what: str  # "pytorch 2.1.0" or "plugin flash-attn 2.5.6"
    where: str  # "requirements.txt:3"
    verdict: Verdict
    action: str  # "" when nothing has to change


@dataclass(frozen=True)
class ScanCompat:
    rocm: str
    gpu: str
    items: tuple[Item, ...]

    @property
    def must_change(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i.action and not i.action.startswith("keep"))


def load_scan(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ScanFileError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ScanFileError(f"{path}:{exc.lineno}: malformed JSON: {exc.msg}") from None
    if not isinstance(data, dict) or not isinstance(data.get("inventory", []), list):
        raise ScanFileError(f"{path}: not a cuda2rocm scan result (no 'inventory' list)")
    return data


def check_scan(scan: dict[str, Any], rocm: str = "", gpu: str = "") -> ScanCompat:
    """Target: ``rocm`` if given, else the newest release supporting ``gpu`` (default: the scan's target GPU)."""
    gpu = gpu or str(scan.get("target_gpu") or "")
    release = knowledge.get_release(rocm) if rocm else None
    if release is None and not rocm:
        rec = recommend(Query(gpu=gpu)) if gpu and knowledge.get_gpu(gpu) else None
        release = knowledge.get_release(rec.rocm) if rec else next(iter(knowledge.rocm_releases().values()))
    if release is None:
        raise ScanFileError(f"ROCm {rocm} is not in the knowledge base")
    items = [_framework_item(c, release) for c in scan.get("inventory", []) if _is_framework(c)]
    items += [_plugin_item(p) for p in scan.get("plugins", []) if isinstance(p, dict)]
    return ScanCompat(release.version, gpu, tuple(items))


def _is_framework(component: Any) -> bool:
    return isinstance(component, dict) and component.get("kind") == "framework" \
        and str(component.get("name", "")).lower() in FRAMEWORK_NAMES


def _where(entry: dict[str, Any]) -> str:
    return f"{entry.get('path', '?')}:{entry.get('line', 0)}"


def _framework_item(component: dict[str, Any], release: knowledge.RocmRelease) -> Item:
    name = FRAMEWORK_NAMES[str(component["name"]).lower()]
    version = str(component.get("version") or "")
    if not versions.key(version):
        verdict = Verdict(f"{name} (unpinned) / rocm {release.version}", UNKNOWN, "no version pinned in the project")
    else:
        verdict = framework_verdict(name, version, release)
    action = _framework_action(name, verdict, release)
    return Item(f"{name} {version or '(unpinned)'}", _where(component), verdict, action)


def _framework_action(name: str, verdict: Verdict, release: knowledge.RocmRelease) -> str:
    listed = versions.newest_first(release.frameworks.get(name, ()))
    if verdict.status == SUPPORTED:
        return "keep"
    if not listed:
        return f"no {name} version is listed for ROCm {release.version}"
    return f"pin {name} {' or '.join(listed)} (listed for ROCm {release.version}); install the ROCm build"


def _plugin_item(use: dict[str, Any]) -> Item:
    package = str(use.get("package") or use.get("name") or "")
    plugin = knowledge.get_plugin(str(use.get("name") or "")) or knowledge.get_plugin(package)
    what = f"plugin {package} {use.get('version') or ''}".strip()
    if plugin is None:
        unknown = Verdict(what, UNKNOWN, "not in the knowledge base")
        return Item(what, _where(use), unknown, "check ROCm support by hand")
    status = SUPPORTED if plugin.rocm_support in {"native_upstream", "native_amd"} else UNSUPPORTED \
        if plugin.rocm_support in {"none", "deprecated_project", "alternative"} else UNKNOWN
    verdict = Verdict(what, status, f"ROCm support: {plugin.rocm_support}", f"{plugin.source} ({plugin.date})")
    action = _PLUGIN_ACTIONS.get(plugin.rocm_support, "check")
    if plugin.replacement and action in {"replace", "switch to the AMD fork", "replace (project deprecated)"}:
        action += f": {plugin.replacement}"
    return Item(what, _where(use), verdict, action)
