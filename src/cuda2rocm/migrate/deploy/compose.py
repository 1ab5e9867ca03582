"""``migrate deploy`` for compose files: the NVIDIA runtime, GPU reservations and ``NVIDIA_*`` variables of a
service become the ROCm device options (``data/runtime_flags.csv``), CUDA images the ROCm ones.

Read with :func:`cuda2rocm.source.formats.yamlnodes.read_yaml` and edited by offset: removed entries are whole
lines, added keys one block at the mapping's own indentation, so comments, anchors and aliases stay as written.
Every mapping is looked at, not only ``services.*``: a GPU setting kept in an anchored extension field
(``x-gpu: &gpu``) is migrated there, once, and every service that merges it (``<<: *gpu``) follows.
"""

from __future__ import annotations

from dataclasses import dataclass

from cuda2rocm.migrate.base import Collector, FileMigration
from cuda2rocm.migrate.deploy import images
from cuda2rocm.migrate.deploy.environment import DROP, RENAME, env_change
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.rules import containers as R
from cuda2rocm.model import Edit
from cuda2rocm.rules import Rule
from cuda2rocm.source.formats.yamlnodes import ALIAS, MAPPING, SCALAR, SEQUENCE, Node, read_yaml

NVIDIA_ENV = ("NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_REQUIRE_CUDA", "NVIDIA_DISABLE_REQUIRE")


@dataclass
class _Removal:
    start: int
    end: int
    rule: Rule
    message: str
    top: bool  # an entry of the service mapping itself (its place can take the added keys)


def migrate(rel: str, text: str, options: DeployOptions) -> FileMigration:
    stream = read_yaml(text)
    if stream.problems:
        return FileMigration(rel, problems=stream.problems)
    out = Collector(rel, text)
    scalars = [(n.offset, n.end) for n in stream.nodes() if n.kind == SCALAR]
    mappings = [n for n in stream.nodes() if n.kind == MAPPING and n.style == "block"]
    gpu = {id(m) for m in mappings if _uses_nvidia(m)}
    for m in mappings:
        inherits = any(id(src) in gpu for src in _merged(m))  # the keys come with a merged GPU mapping
        _service(out, text, m, options, scalars, add=not inherits)
    return out.result()


def _uses_nvidia(m: Node) -> bool:
    runtime = m.get("runtime")
    if runtime is not None and runtime.kind == SCALAR and runtime.value == "nvidia":
        return True
    deploy = m.get("deploy")
    if deploy is not None and _nvidia_devices(deploy.resolved()):
        return True
    env = m.get("environment")
    names = [k.value for k, _ in env.pairs] if env is not None and env.kind == MAPPING else \
        [i.value.split("=", 1)[0] for i in env.items] if env is not None and env.kind == SEQUENCE else []
    return any(n in NVIDIA_ENV for n in names)


def _merged(m: Node) -> list[Node]:
    """The mappings ``m`` merges with ``<<:`` (one alias or a sequence of them)."""
    value = m.get("<<")
    if value is None:
        return []
    items = value.items if value.kind == SEQUENCE else [value]
    return [i.resolved() for i in items]


def kept_comments(text: str, start: int, end: int, scalars: list[tuple[int, int]]) -> str:
    """The comments inside the removed lines ``text[start:end]``, each as a line of its own at the indentation
    of the first removed line, so that removing an entry never removes a comment."""
    out = []
    pos = start
    first = text[start:end].split("\n", 1)[0]
    indent = " " * (len(first) - len(first.lstrip(" ")))
    while pos < end:
        nl = text.find("\n", pos, end)
        line_end = end if nl < 0 else nl
        i = text.find("#", pos, line_end)
        while i >= 0:
            if (i == pos or text[i - 1] in " \t") and not any(s <= i < e for s, e in scalars):
                out.append(indent + text[i:line_end].rstrip() + "\n")
                break
            i = text.find("#", i + 1, line_end)
        pos = line_end + 1
    return "".join(out)


def image_edit(out: Collector, node: Node, options: DeployOptions, rule: Rule = R.COMPOSE_CUDA_IMAGE) -> bool:
    """Rewrite a scalar image reference to its ROCm image (quotes kept); a CUDA image without one is reported."""
    if node.kind != SCALAR:
        return False
    choice = images.rocm_image(node.value, options)
    if choice is None:
        return False
    if not choice.ref:
        out.report(R.NO_ROCM_IMAGE, node.offset, f"{node.value}: {choice.notes[0]}")
        return False
    q = node.style if node.style in ("'", '"') else ""
    note = f": {'; '.join(choice.notes)}" if choice.notes else ""
    return out.edit(rule, node.offset, node.end, f"{q}{choice.ref}{q}", f"{node.value} -> {choice.ref}{note}")


def _service(out: Collector, text: str, m: Node, options: DeployOptions, scalars: list[tuple[int, int]],
             add: bool = True) -> None:
    """Migrate one mapping; ``add``: give it the ROCm device keys (not when a merged mapping brings them)."""
    image = m.get("image")
    if image is not None:
        image_edit(out, image, options)
    removals: list[_Removal] = []
    gpu = False
    runtime = m.get("runtime")
    if runtime is not None and runtime.kind == SCALAR and runtime.value == "nvidia":
        gpu = True
        span = _entry_lines(text, m, "runtime")
        if span is not None:
            removals.append(_Removal(*span, R.COMPOSE_RUNTIME, "runtime: nvidia -> the ROCm device options "
                                     "(/dev/kfd, /dev/dri, video/render groups, seccomp=unconfined, ipc, shm)", True))
        else:
            out.report(R.COMPOSE_RUNTIME, runtime.offset, "runtime: nvidia: use the ROCm device options instead")
    gpu |= _reservations(out, text, m, removals)
    gpu |= _environment(text, m, removals)
    _variables(out, m.get("environment"), options)
    build = m.get("build")
    if build is not None and build.resolved().kind == MAPPING:
        _variables(out, build.resolved().get("args"), options)
    gpu |= _nvidia_device_files(out, text, m, removals)
    if not gpu:
        return
    block, appends = _additions(text, m) if add else ("", [])
    rule = min(removals, key=lambda r: r.start).rule if removals else R.COMPOSE_RUNTIME
    placed = False
    for r in sorted(removals, key=lambda r: r.start):
        replacement = kept_comments(text, r.start, r.end, scalars)
        # an item appended to a list that ends right where this removal starts goes first
        replacement = "".join(new for at, new in appends if at == r.start) + replacement
        appends = [(at, new) for at, new in appends if at != r.start]
        # ... and one that goes right where it ends (the removed lines were that list's last items) after it
        replacement += "".join(new for at, new in appends if at == r.end)
        appends = [(at, new) for at, new in appends if at != r.end]
        if not placed and block and (r.top or r.end == _after_line(text, m.end)):
            replacement, placed = replacement + block, True
        out.edit(r.rule, r.start, r.end, replacement, r.message)
    if block and not placed:
        at = _after_line(text, m.end)
        if at > 0 and text[at - 1] == "\n":
            out.edit(rule, at - 1, at, "\n" + block, "the ROCm device options added")
    for offset, new in appends:
        out.edit(rule, offset, offset, new, "the ROCm device options added to the existing list")


def _reservations(out: Collector, text: str, m: Node, removals: list[_Removal]) -> bool:
    """Find NVIDIA device reservations under ``deploy``; remove them (their emptied parents with them)."""
    deploy = m.get("deploy")
    if deploy is None:
        return False
    if deploy.kind == ALIAS:
        target = deploy.resolved()
        if _nvidia_devices(target):
            span = _entry_lines(text, m, "deploy")
            if span is not None:
                removals.append(_Removal(*span, R.COMPOSE_RESERVATION, f"deploy: *{deploy.value} reserves NVIDIA "
                                         "GPUs -> the ROCm device options (the anchor is left for other users)", True))
            return True
        return False
    chain = [m, deploy]
    for key in ("resources", "reservations", "devices"):
        nxt = chain[-1].get(key) if chain[-1].kind == MAPPING else None
        if nxt is None:
            return False
        chain.append(nxt)
    devices = chain[-1]
    if devices.kind != SEQUENCE:
        return False
    nvidia = [d for d in devices.items if _is_nvidia_device(d)]
    if not nvidia:
        return False
    sizes = [_selection(d) for d in nvidia]
    note = "; ".join(s for s in sizes if s)
    message = ("deploy.resources.reservations.devices: the NVIDIA GPU reservation -> the ROCm device options"
               + (f" ({note}: pass the chosen /dev/dri/renderD<N> nodes instead of /dev/dri)" if note else ""))
    if devices.style == "block" and len(nvidia) < len(devices.items):
        for d in nvidia:
            span = _item_lines(text, d)
            if span is None:
                out.report(R.COMPOSE_RESERVATION, d.offset, message)
            else:
                removals.append(_Removal(*span, R.COMPOSE_RESERVATION, message, False))
        return True
    # the whole devices list goes; so does every parent it leaves empty, up to the service's own deploy key
    level = len(chain) - 2  # the mapping that holds "devices"
    names = ["deploy", "resources", "reservations", "devices"]
    while level > 0 and len(chain[level].pairs) == 1:
        level -= 1
    span = _entry_lines(text, chain[level], names[level])
    if span is None:
        out.report(R.COMPOSE_RESERVATION, devices.offset, message)
        return True
    removals.append(_Removal(*span, R.COMPOSE_RESERVATION, message, level == 0))
    return True


def _nvidia_device_files(out: Collector, text: str, m: Node, removals: list[_Removal]) -> bool:
    """``devices:`` entries that pass the NVIDIA device files (``/dev/nvidia0``, ``/dev/nvidiactl``,
    ``/dev/nvidia-uvm``): they do not exist on an AMD host (docker refuses to start the container); removed, the
    ROCm device files take their place."""
    devices = m.get("devices")
    if devices is None or devices.kind != SEQUENCE:
        return False
    nvidia = [d for d in devices.items if d.kind == SCALAR and d.value.split(":", 1)[0].startswith("/dev/nvidia")]
    message = "devices: the NVIDIA device files do not exist on an AMD host -> /dev/kfd and /dev/dri"
    for d in nvidia:
        span = _item_lines(text, d) if devices.style == "block" else None
        if span is None:
            out.report(R.COMPOSE_RUNTIME, d.offset, f"{d.value}: {message}")
        else:
            removals.append(_Removal(*span, R.COMPOSE_RUNTIME, f"{d.value} removed: {message}", False))
    return bool(nvidia)


def _nvidia_devices(node: Node) -> bool:
    return any(n.kind == MAPPING and _is_nvidia_device(n) for n in node.walk())


def _is_nvidia_device(d: Node) -> bool:
    d = d.resolved()
    if d.kind != MAPPING:
        return False
    driver = d.get("driver")
    caps = d.get("capabilities")
    cap_values = {c.resolved().value for c in caps.resolved().items} if caps is not None and \
        caps.resolved().kind == SEQUENCE else set()
    return (driver is not None and driver.resolved().value == "nvidia") or "gpu" in cap_values


def _selection(d: Node) -> str:
    d = d.resolved()
    count = d.get("count")
    ids = d.get("device_ids")
    if ids is not None:
        return "device_ids " + ",".join(i.value for i in ids.resolved().items)
    if count is not None and count.value != "all":
        return f"count {count.value}"
    return ""


def _environment(text: str, m: Node, removals: list[_Removal]) -> bool:
    env = m.get("environment")
    if env is None or env.style != "block":
        return False
    hits: list[tuple[Node, str]] = []
    if env.kind == MAPPING:
        hits = [(k, k.value) for k, _ in env.pairs if k.kind == SCALAR and k.value in NVIDIA_ENV]
        total = len(env.pairs)
    elif env.kind == SEQUENCE:
        hits = [(i, i.value.split("=", 1)[0]) for i in env.items
                if i.kind == SCALAR and i.value.split("=", 1)[0] in NVIDIA_ENV]
        total = len(env.items)
    else:
        return False
    if not hits:
        return False
    names = ", ".join(n for _, n in hits)
    message = f"{names}: read by the NVIDIA container runtime only; removed (a GPU subset is chosen with render nodes)"
    if len(hits) == total:
        span = _entry_lines(text, m, "environment")
        if span is not None:
            removals.append(_Removal(*span, R.COMPOSE_NVIDIA_ENV, message, True))
        return True
    for node, _ in hits:
        span = _key_lines(text, env, node) if env.kind == MAPPING else _item_lines(text, node)
        if span is not None:
            removals.append(_Removal(*span, R.COMPOSE_NVIDIA_ENV, message, False))
    return True


def _variables(out: Collector, node: Node | None, options: DeployOptions) -> None:
    """A service's ``environment`` or ``build.args`` (``NAME: value`` pairs or ``NAME=value`` items) through the one
    decision every deploy file's environment takes (:func:`~cuda2rocm.migrate.deploy.environment.env_change`):
    a rename is edited in place (``TORCH_CUDA_ARCH_LIST`` -> ``PYTORCH_ROCM_ARCH`` with the gfx targets, as the
    Dockerfile's ``ARG``/``ENV`` become), anything else is reported. The NVIDIA runtime's own variables are
    :func:`_environment`'s."""
    if node is None:
        return
    node = node.resolved()
    entries: list[tuple[Node, Node | None]] = []
    if node.kind == MAPPING:
        entries = [(k, v) for k, v in node.pairs if k.kind == SCALAR]
    elif node.kind == SEQUENCE:
        entries = [(i, None) for i in node.items if i.kind == SCALAR]
    for key, value in entries:
        if value is None:  # NAME=value (or NAME: taken from the shell)
            name, _, val = key.value.partition("=")
        else:
            name, val = key.value, value.value if value.kind == SCALAR and value.value is not None else ""
        if name in NVIDIA_ENV:
            continue
        change = env_change(name, val, gfx=options.gfx)
        if change is None:
            continue
        if change.action == RENAME and len(change.new) == 1 and key.style == "" and \
                out.text[key.offset:key.end] == key.value:
            new_name, new_value = change.new[0]
            if value is None:
                written = new_name if "=" not in key.value else f"{new_name}={val if new_value is None else new_value}"
                out.edit(change.rule, key.offset, key.end, written, change.message, change.applicability)
                continue
            quoted = value.style in ("", "'", '"')
            if out.edit(change.rule, key.offset, key.end, new_name, change.message, change.applicability) and \
                    new_value is not None and new_value != val and value.kind == SCALAR and quoted:
                start, end = value.offset + (value.style != ""), value.end - (value.style != "")
                out.add_edit(Edit(start, end, new_value, change.rule.id))
            continue
        span = (_item_lines(out.text, key) if value is None else _key_lines(out.text, node, key)) \
            if change.action == DROP and len(entries) > 1 else None
        if span is not None and out.edit(change.rule, span[0], span[1], "", change.message, change.applicability):
            continue  # the last entry is reported instead: an emptied mapping would read as null
        out.report(change.rule, key.offset, change.message, fix=change.fix_text(val))


def _additions(text: str, m: Node) -> tuple[str, list[tuple[int, str]]]:
    """The block of keys to add to ``m`` (its indentation) and insertions into lists it already has."""
    indent = " " * (m.pairs[0][0].col - 1)
    wanted: dict[str, list[str]] = {}
    for f in images.runtime_flags():
        wanted.setdefault(f.compose_key, []).append(f.value)
    lines: list[str] = []
    appends: list[tuple[int, str]] = []
    for key, values in wanted.items():
        scalar = key in ("ipc", "shm_size")
        have = m.get(key)
        if have is None:
            if scalar:
                lines.append(f"{indent}{key}: {values[0]}")
            else:
                lines.append(f"{indent}{key}:")
                lines.extend(f"{indent}  - {v}" for v in values)
            continue
        have = have.resolved()
        if scalar or have.kind != SEQUENCE:
            continue
        present = {i.resolved().value for i in have.items}
        missing = [v for v in values if v not in present]
        if not missing or not have.items:
            continue
        if have.style == "flow":
            close = text.rfind("]", have.offset, have.end)
            appends.append((close, "".join(f", {v}" for v in missing)))
        else:
            last = have.items[-1]
            item_indent = " " * (last.col - 3) if last.col >= 3 else ""
            at = _after_line(text, last.end)
            if at > 0 and text[at - 1] == "\n":
                appends.append((at, "".join(f"{item_indent}- {v}\n" for v in missing)))
    return ("".join(line + "\n" for line in lines), appends)


# ---- spans -----------------------------------------------------------------------------------------------


def _after_line(text: str, offset: int) -> int:
    """The offset after the newline that ends ``offset``'s line (the text's end when there is none)."""
    nl = text.find("\n", offset)
    return len(text) if nl < 0 else nl + 1


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _entry_lines(text: str, mapping: Node, key: str) -> tuple[int, int] | None:
    """The whole lines of ``key``'s entry in a block mapping (None when the key does not start its line)."""
    k = mapping.key_node(key)
    return _key_lines(text, mapping, k) if k is not None else None


def _key_lines(text: str, mapping: Node, k: Node) -> tuple[int, int] | None:
    value = next(v for kk, v in mapping.pairs if kk is k)
    start = _line_start(text, k.offset)
    if text[start:k.offset].strip():
        return None
    return start, _after_line(text, max(value.end, k.end))


def _item_lines(text: str, item: Node) -> tuple[int, int] | None:
    """The whole lines of a block sequence item (``- ...``)."""
    start = _line_start(text, item.offset)
    if text[start:item.offset].strip() != "-":
        return None
    return start, _after_line(text, item.end)
