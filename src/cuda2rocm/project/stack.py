"""The one target stack of a run: the AMD targets, the ROCm release, the PyTorch release and its wheel index.

Every command that writes for the target (``migrate``, ``migrate build``, ``migrate deploy``, and ``convert`` /
``verify`` inside ``migrate``) takes its versions from one :class:`Stack`, decided once by :func:`decide` from
the flags, else ``cuda2rocm.toml``, else the knowledge base, with the reason for each choice::

    from cuda2rocm.project.stack import decide
    stack = decide()
    stack.rocm, stack.torch, stack.index_url   # ('7.1.1', '2.10.0', 'https://download.pytorch.org/whl/rocm7.1')
    print("\\n".join(stack.describe()))

**The default ROCm** is the newest release whose series has a PyTorch wheel index of its own: the Python
dependencies then install a torch built for the very ROCm the images carry. A newer ROCm without an index
(7.2.x today) is taken only when asked for (``--target-rocm``), and the nearest older index stands in, with a
finding. **The PyTorch release** is the newest the index carries. ``image_torch`` is the PyTorch that AMD's
``rocm/pytorch`` images of that release carry (the knowledge base's release matrix): when it is another release
than ``torch``, a Dockerfile that bases on ``rocm/pytorch`` and then installs the pinned requirements replaces
the image's PyTorch, and ``migrate deploy`` says so, naming both.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cuda2rocm import knowledge
from cuda2rocm.hazards.targets import UnknownTarget, known_archs, resolve
from cuda2rocm.knowledge import versions, wheels

#: the AMD targets when nothing names one: MI200 (CDNA2) and MI300 (CDNA3)
DEFAULT_GFX = ("gfx90a", "gfx942")
DEFAULT_OS = "ubuntu22.04"


class TargetError(ValueError):
    """An unknown GPU or architecture name (a usage error)."""


@dataclass(frozen=True)
class Stack:
    """``gfx``: the AMD targets; ``rocm``: the ROCm release; ``torch``/``index_url``/``index_rocm``: the PyTorch
    release pip installs and the wheel index it comes from (``index_exact``: the index is the release's own or
    its series'); ``image_torch``: the PyTorch of the release's ``rocm/pytorch`` images ("" when the knowledge
    base lists none); ``reasons``: (what, why) for each choice."""

    gfx: tuple[str, ...]
    rocm: str
    os: str
    torch: str
    index_url: str
    index_rocm: str
    index_exact: bool
    image_torch: str
    reasons: tuple[tuple[str, str], ...] = field(compare=False)

    @property
    def local_tag(self) -> str:
        """The local version of the index's torch wheels (``+rocm7.1``)."""
        index = wheels.get(self.index_rocm)
        return index.local_tag if index is not None else f"+rocm{self.index_rocm}"

    def torch_differs(self, version: str) -> bool:
        """Whether PyTorch ``version`` is another release (major.minor) than the stack's."""
        return bool(version) and versions.key(version)[:2] != versions.key(self.torch)[:2]

    def describe(self) -> list[str]:
        """One line per choice, with its reason (what ``migrate`` prints before it starts)."""
        return [f"{what}: {why}" for what, why in self.reasons]

    def to_data(self) -> dict[str, Any]:
        """The stack as the envelopes and the journal record it."""
        return {"gfx": list(self.gfx), "rocm": self.rocm, "os": self.os, "torch": self.torch,
                "torch_index": self.index_url, "torch_index_exact": self.index_exact,
                "image_torch": self.image_torch, "reasons": {what: why for what, why in self.reasons}}


def resolve_targets(offload_arch: str = "", target_gpu: str = "") -> tuple[str, ...]:
    """The gfx targets from ``--offload-arch gfx942,gfx90a`` or ``--target-gpu MI300X,MI250X`` (knowledge base),
    else :data:`DEFAULT_GFX`. Raises :class:`TargetError` for a name the knowledge base does not know."""
    if offload_arch:
        archs = tuple(a.strip() for a in offload_arch.split(",") if a.strip())
        known = known_archs()
        bad = [a for a in archs if a.partition(":")[0] not in known]  # gfx90a:xnack+ names gfx90a
        if bad or not archs:
            raise TargetError(f"not an AMD GPU architecture the knowledge base knows: "
                              f"{', '.join(bad) or offload_arch!r} (known: {', '.join(known)})")
        return archs
    if target_gpu:
        out = []
        for name in (n.strip() for n in target_gpu.split(",") if n.strip()):
            try:  # the one resolution of a target GPU name, as scan --target-gpu uses
                out.append(resolve(name).gfx)
            except UnknownTarget as exc:
                raise TargetError(str(exc)) from None
        return tuple(dict.fromkeys(out))
    return DEFAULT_GFX


def default_rocm() -> tuple[str, str]:
    """The newest ROCm release whose series has a PyTorch wheel index of its own, and why."""
    releases = list(knowledge.rocm_releases())
    for release in releases:
        choice = wheels.index_for(release)
        if choice.exact:
            skipped = releases[:releases.index(release)]
            why = f"the newest ROCm release with a PyTorch wheel index of its own, rocm{choice.index.rocm}"
            if skipped:
                why += f"; {skipped[0]} is newer, but PyTorch publishes no index for its series"
            return release, why
    return releases[0], "the newest ROCm release the knowledge base lists (no release has a PyTorch index)"


def decide(*, gfx: Sequence[str] = (), gfx_from: str = "", rocm: str = "", rocm_from: str = "",
           os: str = "", os_from: str = "") -> Stack:
    """The stack for the given choices (each empty: the default), ``*_from`` naming where a given value came from
    (``--target-rocm``, ``cuda2rocm.toml``)."""
    reasons: list[tuple[str, str]] = []
    targets = tuple(gfx) or DEFAULT_GFX
    why = (gfx_from or "as given") if gfx else "default: MI200 and MI300"
    reasons.append(("AMD targets", f"{', '.join(targets)} ({why})"))
    if rocm:
        why = rocm_from or "as given"
    else:
        rocm, why = default_rocm()
    release = knowledge.get_release(rocm)
    if release is not None and release.gfx_targets:
        unlisted = [g for g in targets if g.partition(":")[0] not in release.gfx_targets]
        if unlisted:
            why += f"; it does not list {', '.join(unlisted)} among its supported targets"
    reasons.append(("ROCm", f"{rocm} ({why})"))
    choice = wheels.index_for(rocm)
    index = choice.index
    torch = index.torch[0]
    index_why = f"{torch} from {index.url} (the newest release that index carries"
    index_why += ")" if choice.exact else f"; PyTorch publishes no index for ROCm {rocm}: the nearest stands in)"
    reasons.append(("PyTorch", index_why))
    image_torch = ""
    if release is not None:
        listed = release.frameworks.get("pytorch", ())
        image_torch = versions.padded(listed[0]) if listed else ""
    if image_torch:
        same = versions.key(image_torch)[:2] == versions.key(torch)[:2]
        reasons.append(("rocm/pytorch images", f"PyTorch {image_torch} (ROCm {rocm}'s release matrix)"
                        + ("" if same else f"; not the torch {torch} pip installs: a Dockerfile on rocm/pytorch "
                           "that installs the pinned requirements replaces it")))
    chosen_os = os or DEFAULT_OS
    reasons.append(("container OS", f"{chosen_os} ({(os_from or 'as given') if os else 'default'})"))
    return Stack(targets, rocm, chosen_os, torch, index.url, index.rocm, choice.exact, image_torch, tuple(reasons))


def stack_for(gfx: tuple[str, ...], rocm: str, os: str, decided: Stack | None = None) -> Stack:
    """The stack of options that hold the choices: ``decided`` (the caller's :func:`decide`, with the reasons it
    gave) when it is that stack, else :func:`decide` of the choices (cached: every migrator asks for it)."""
    if decided is not None and decided.gfx == tuple(gfx) and decided.rocm == (rocm or decided.rocm) and (
            decided.os == (os or decided.os)):
        return decided
    return _decided(tuple(gfx), rocm, os)


@functools.lru_cache(maxsize=32)
def _decided(gfx: tuple[str, ...], rocm: str, os: str) -> Stack:
    return decide(gfx=gfx, rocm=rocm, os=os)
