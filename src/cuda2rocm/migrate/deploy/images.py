"""Container facts ``migrate deploy`` shares between Dockerfiles, compose files and CI: which ROCm image replaces a
CUDA image (``data/images.csv``, ``data/os.csv``), the ``docker run`` options a ROCm container needs
(``data/runtime_flags.csv``) and their rewrite on a ``docker run`` command line (:func:`docker_run_flags`), and the
PyTorch wheel index that replaces a CUDA one (the knowledge base's ``torch_wheels.yaml``, as ``migrate build``
reads it).

Every table carries its sources and date in its header; docs/migrate.md shows each conversion.
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from cuda2rocm import knowledge
from cuda2rocm.datafiles import packaged_csv
from cuda2rocm.knowledge import versions, wheels
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.project.images import CUDA_TAG, PYTORCH_TAG, is_nvidia_image, split_ref
from cuda2rocm.rules import Rule
from cuda2rocm.source.formats.shell import WORD, Word


def rows(name: str) -> list[dict[str, str]]:
    """The rows of ``data/<name>`` (``#`` lines are the table's documentation and sources)."""
    return packaged_csv("cuda2rocm.migrate.deploy", f"data/{name}")


@dataclass(frozen=True)
class ImageRow:
    cuda_repo: str
    flavor: str
    rocm_repo: str
    tag: str
    known_tags: tuple[tuple[str, str], ...]
    fidelity: str  # exact | nearest | none
    note: str


@functools.lru_cache(maxsize=1)
def image_rows() -> tuple[ImageRow, ...]:
    out = []
    for r in rows("images.csv"):
        known = tuple(tuple(x.split("=", 1)) for x in r["known_tags"].split("|") if x)
        out.append(ImageRow(r["cuda_repo"], r["flavor"], r["rocm_repo"], r["tag"], known,  # type: ignore[arg-type]
                            r["fidelity"], r["note"]))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def os_rows() -> dict[str, dict[str, str]]:
    return {r["os"]: r for r in rows("os.csv")}


@dataclass(frozen=True)
class ImageChoice:
    """The ROCm image for a CUDA image reference: ``ref`` ("" when there is none), how close it is (``exact``,
    ``nearest``, ``none``), why (``notes``), and the facts the image manifest labels record."""

    original: str
    ref: str
    fidelity: str
    notes: tuple[str, ...]
    framework: str = ""

    @property
    def exact(self) -> bool:
        return self.fidelity == "exact" and not self.notes[1:]


def _repo(ref: str) -> str:
    repo = split_ref(ref)[0]
    for prefix in ("docker.io/", "index.docker.io/", "library/"):
        repo = repo.removeprefix(prefix)
    return repo


def is_rocm_image(ref: str) -> bool:
    return _repo(ref).startswith("rocm/")


_ROCM_PYTORCH_TAG = re.compile(r"^rocm(\d+(?:\.\d+)*)_.*_pytorch_release_(\d+\.\d+(?:\.\d+)?)")
_ROCM_DEV_TAG = re.compile(r"^(\d+\.\d+(?:\.\d+)?)(?:-complete)?$")


def rocm_image_stack(ref: str) -> tuple[str, str] | None:
    """(ROCm release, PyTorch release or "") that a ROCm image's tag names: ``rocm/dev-ubuntu-22.04:6.2-complete``
    -> ("6.2", ""), ``rocm/pytorch:rocm6.4_ubuntu22.04_py3.10_pytorch_release_2.6.0`` -> ("6.4", "2.6.0"); None
    for another image or a tag that names no release (``latest``)."""
    repo, tag = _repo(ref), split_ref(ref)[1]
    if repo == "rocm/pytorch":
        m = _ROCM_PYTORCH_TAG.match(tag)
        return (m.group(1), m.group(2)) if m else None
    if repo.startswith("rocm/dev-"):
        m = _ROCM_DEV_TAG.match(tag)
        return (m.group(1), "") if m else None
    return None


def _os_parts(os_name: str) -> tuple[str, str]:
    m = re.match(r"([a-z]+)(\d+(?:\.\d+)?)$", os_name)
    return (m.group(1), m.group(2)) if m else (os_name, "")


def _flavor(repo: str, tag: str) -> str:
    m = CUDA_TAG.match(tag)
    return (m.group(4) or "") if m and repo.endswith("nvidia/cuda") else ""


def rocm_image(ref: str, options: DeployOptions) -> ImageChoice | None:
    """The ROCm image that replaces the CUDA image ``ref`` for ``options.rocm_version`` and ``options.os``, or
    None when ``ref`` is not a CUDA image the table knows."""
    ref = ref.strip().strip("\"'")
    repo, tag = _repo(ref), split_ref(ref)[1]
    if repo == "pytorch/pytorch" and not PYTORCH_TAG.match(tag):
        return None  # a CPU build of the PyTorch image
    flavor = _flavor(repo, tag)
    row = next((r for r in image_rows() if r.cuda_repo == repo and r.flavor in (flavor, "*")), None)
    if row is None:
        return None
    notes = [row.note] if row.note else []
    if row.fidelity == "none":
        return ImageChoice(ref, "", "none", tuple(notes))
    rocm = options.rocm_version
    os_row = os_rows().get(options.os)
    if os_row is None:
        notes.append(f"the knowledge base has no ROCm image for {options.os}: using ubuntu22.04")
        os_row = os_rows()["ubuntu22.04"]
    os_kind, os_version = _os_parts(os_row["os"])
    release = knowledge.get_release(rocm)
    if release is not None and not any(o.startswith(os_row["release_os"]) for o in release.os):
        notes.append(f"ROCm {rocm} does not list {os_row['release_os']} among its supported systems")
    source_os = CUDA_TAG.match(tag) if repo.endswith("nvidia/cuda") else None
    if source_os and source_os.group(5) and f"{source_os.group(5)}{source_os.group(6)}" != os_row["os"]:
        notes.append(f"the CUDA image was {source_os.group(5)}{source_os.group(6)}; the ROCm image is {os_row['os']}")
    torch = options.stack.image_torch
    framework = ""
    if row.rocm_repo == "rocm/pytorch":
        if os_kind != "ubuntu":
            notes.append(f"rocm/pytorch tags are Ubuntu builds: using ubuntu22.04 instead of {os_row['os']}")
            os_row, os_version = os_rows()["ubuntu22.04"], "22.04"
        m = PYTORCH_TAG.match(tag)
        if m and torch and versions.key(m.group(1))[:2] != versions.key(torch)[:2]:
            notes.append(f"PyTorch {m.group(1)} becomes {torch}, the newest ROCm {rocm} lists")
        framework = f"PyTorch {torch}" if torch else "PyTorch"
        notes.append("tag built from rocm/pytorch's tag pattern: check it exists (docker manifest inspect) and pin "
                     "its digest")
    rocm_repo = row.rocm_repo.format(os_repo=os_row["os_repo"])
    if row.known_tags:
        tag_out = _nearest_known(row.known_tags, rocm)
        if tag_out != dict(row.known_tags).get(rocm):
            notes.append(f"{rocm_repo}:{tag_out} is the nearest tag the knowledge base names for ROCm {rocm}")
        if "vllm" in rocm_repo:
            framework = "vLLM " + tag_out.split("_vllm_")[1].split("_")[0] if "_vllm_" in tag_out else "vLLM"
    else:
        tag_out = row.tag.format(rocm=rocm, os_version=os_version, py=os_row["python"] or "3.10", torch=torch)
    if row.tag == "latest":
        notes.append(f"{rocm_repo} has no tag pattern in the knowledge base: latest must be pinned by digest")
    return ImageChoice(ref, f"{rocm_repo}:{tag_out}", row.fidelity, tuple(notes), framework)


def _nearest_known(known: Sequence[tuple[str, str]], rocm: str) -> str:
    at_or_below = [(v, t) for v, t in known if versions.key(v) <= versions.key(rocm)]
    pool = at_or_below or list(known)
    order = sorted(pool, key=lambda vt: versions.key(vt[0]))
    return (order[-1] if at_or_below else order[0])[1]


# ---- docker run options --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuntimeFlag:
    flag: str  # --device
    value: str  # /dev/kfd
    compose_key: str  # devices
    required: bool
    note: str

    @property
    def cli(self) -> str:
        return f"{self.flag}={self.value}"


@functools.lru_cache(maxsize=1)
def runtime_flags() -> tuple[RuntimeFlag, ...]:
    """The options a ROCm container runs with, in order (``data/runtime_flags.csv``)."""
    return tuple(RuntimeFlag(r["flag"], r["value"], r["compose_key"], r["required"] == "yes", r["note"])
                 for r in rows("runtime_flags.csv"))


def container_options() -> str:
    """The flags as one ``docker run`` option string (a CI job's ``container.options``)."""
    return " ".join(f.cli for f in runtime_flags())


#: ``docker run`` options of the NVIDIA runtime (each takes a value)
_NVIDIA_OPTIONS = ("--gpus", "--runtime")
_NVIDIA_ENV = ("NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_REQUIRE_CUDA", "NVIDIA_DISABLE_REQUIRE")


@dataclass(frozen=True)
class FlagEdit:
    """One change to a ``docker run`` command line: replace ``[start, end)`` (offsets of the words given) by
    ``replacement``; ``message`` says why; ``review``: what a person must still check ("" when nothing)."""

    start: int
    end: int
    replacement: str
    message: str
    review: str = ""
    rule: Rule | None = None  # the finding's rule when it is not the docker-runtime one (an environment change)


def docker_run_flags(words: Sequence[Word], gfx: Sequence[str] = DeployOptions().gfx) -> list[FlagEdit]:
    """The edits that make one ``docker run`` command (its words, as :func:`read_shell` gives them, offsets into
    the caller's text) run on AMD GPUs: ``--gpus X`` becomes the ROCm device options (:func:`runtime_flags`,
    those already present left out), ``--runtime nvidia`` and ``-e NVIDIA_*`` options go. ``--gpus device=0,1``
    also sets ``ROCR_VISIBLE_DEVICES`` (the devices are all passed; the runtime hides the others). Any other
    ``-e NAME=VALUE`` goes through :func:`~cuda2rocm.migrate.deploy.environment.env_change` (``gfx``: the AMD
    targets) as in every deploy file: ``-e CUDA_VISIBLE_DEVICES=0`` becomes ``-e HIP_VISIBLE_DEVICES=0``,
    ``-e TORCH_CUDA_ARCH_LIST=...`` the ``PYTORCH_ROCM_ARCH`` of the targets, an NVIDIA-only NCCL setting goes.
    Nothing is changed when the words are not a ``docker run``/``docker create``/``docker container run``
    command."""
    values = [w.value for w in words]
    start = _run_start(values)
    if start < 0:
        return []
    present = set()
    for i in range(start, len(values)):
        v = values[i]
        for f in runtime_flags():
            if v in (f.cli, f.flag) and (v == f.cli or (i + 1 < len(values) and values[i + 1] == f.value)):
                present.add(f.cli)
            if f.flag == "--ipc" and v.startswith("--ipc"):
                present.add(f.cli)
            if f.flag == "--shm-size" and v.startswith("--shm-size"):
                present.add(f.cli)
    out: list[FlagEdit] = []
    added = False
    i = start
    while i < len(values):
        v = values[i]
        if not v.startswith("-") or v == "--":
            break  # the image: options end
        name, eq, val = v.partition("=")
        nxt = i + (0 if eq else 1)
        if not eq and name not in _NVIDIA_OPTIONS and name not in ("-e", "--env"):
            i += 1 if _is_switch(name) else 2  # an option's value (-v SRC:DST) is not the image
            continue
        if name in _NVIDIA_OPTIONS and nxt < len(words):
            val = val if eq else values[nxt]
            end = words[nxt].end
            if name == "--gpus":
                flags = [f.cli for f in runtime_flags() if f.cli not in present] if not added else []
                m = re.search(r"device=([\d,]+)", val)
                if m:
                    flags.append(f"--env=ROCR_VISIBLE_DEVICES={m.group(1)}")
                added = True
                out.append(FlagEdit(words[i].offset, end, " ".join(flags),
                                    f"`--gpus {val}` is the NVIDIA runtime's: ROCm containers get /dev/kfd and "
                                    "/dev/dri",
                                    "ROCR_VISIBLE_DEVICES hides GPUs inside the container; pass single "
                                    "/dev/dri/renderD<N> nodes to keep the others out of it" if m else ""))
            elif val == "nvidia":
                out.append(FlagEdit(words[i].offset, end, "", "`--runtime nvidia` is the NVIDIA container runtime: "
                                    "ROCm uses Docker's default runtime with device options"))
            i = nxt + 1
            continue
        if name in ("-e", "--env") and nxt < len(words):
            val = val if eq else values[nxt]
            if val.split("=", 1)[0] in _NVIDIA_ENV:
                out.append(FlagEdit(words[i].offset, words[nxt].end, "",
                                    f"{val.split('=', 1)[0]} is read by the NVIDIA container runtime only"))
            elif "=" in val:
                out.extend(_env_option(words, i, nxt, val, gfx))
            i = nxt + 1
            continue
        i += 1
    return out


def _env_option(words: Sequence[Word], i: int, nxt: int, assignment: str, gfx: Sequence[str]) -> list[FlagEdit]:
    """``-e NAME=VALUE`` (words ``i``..``nxt``) renamed or removed as :func:`env_change` decides; a quoted or
    expanded word, or any other decision, is left (``migrate deploy`` reports what it keeps elsewhere)."""
    from cuda2rocm.migrate.deploy.environment import DROP, RENAME, env_change

    name, _, value = assignment.partition("=")
    change = env_change(name, value, gfx=gfx)
    word = words[nxt]
    if change is None:
        return []
    if change.action == DROP:
        return [FlagEdit(words[i].offset, word.end, "", change.message, rule=change.rule)]
    if change.action != RENAME or len(change.new) != 1 or word.src != word.value:
        return []
    new_name, new_value = change.new[0]
    text = shlex.quote(f"{new_name}={value if new_value is None else new_value}")  # unchanged when plain
    start = word.offset + (len(words[i].src) - len(assignment) if i == nxt else 0)
    return [FlagEdit(start, word.end, text, change.message, rule=change.rule)]


@functools.lru_cache(maxsize=1)
def _switches() -> frozenset[str]:
    return frozenset(r["option"] for r in rows("docker_run_switches.csv"))


def _is_switch(option: str) -> bool:
    """Whether a ``docker run`` option takes no value (``--rm``, ``-it``: ``data/docker_run_switches.csv``)."""
    if option in _switches():
        return True
    return len(option) > 2 and option[0] == "-" and option[1] != "-" and all(f"-{c}" in _switches()
                                                                            for c in option[1:])


def image_index(values: Sequence[str]) -> int:
    """Index of the image word of a ``docker run``/``create`` command (its words' values), -1 when there is none."""
    i = _run_start(values)
    if i < 0:
        return -1
    while i < len(values):
        v = values[i]
        if v == "--":
            return i + 1 if i + 1 < len(values) else -1
        if not v.startswith("-"):
            return i
        i += 1 if "=" in v or _is_switch(v) else 2
    return -1


def _run_start(values: Sequence[str]) -> int:
    """Index of the first option of a ``docker run`` command, -1 when the words are not one."""
    for i, v in enumerate(values):
        if v.rsplit("/", 1)[-1] not in ("docker", "podman", "nerdctl"):
            continue
        rest = values[i + 1:]
        if rest[:1] in (["run"], ["create"]):
            return i + 2
        if rest[:2] == ["container", "run"] or rest[:2] == ["container", "create"]:
            return i + 3
    return -1


# ---- PyTorch wheel indexes ------------------------------------------------------------------------------------



def rocm_wheel_index(rocm: str) -> tuple[str, bool]:
    """PyTorch's ROCm wheel index for the target ROCm (``rocm6.4``, from the knowledge base's index table, as
    ``migrate build`` uses it) and whether it is that very release series (False: the nearest stands in)."""
    choice = wheels.index_for(rocm)
    return f"rocm{choice.index.rocm}", choice.exact


def cuda_index(word: str) -> re.Match[str] | None:
    """Where ``word`` names a CUDA wheel index of PyTorch (group 1: ``cu121``), or None."""
    return wheels.CUDA_INDEX.search(word)


def wheel_index_edits(words: Sequence[Word], rocm: str) -> list[FlagEdit]:
    """The edits that point a pip command's PyTorch CUDA wheel indexes (``--index-url .../whl/cu121``, also
    ``--extra-index-url``, ``-f``) at the ROCm index for ``rocm`` (offsets of the words given)."""
    index, same = rocm_wheel_index(rocm)
    near = "" if same else f" (the newest PyTorch ROCm index at or below ROCm {rocm})"
    out = []
    for w in words:
        m = cuda_index(w.src)
        if m is not None and not w.value.split("#")[0].split("?")[0].endswith(".whl"):  # a wheel file: pydeps
            out.append(FlagEdit(w.offset + m.start(1), w.offset + m.end(1), index,
                                f"PyTorch's CUDA wheel index {m.group(1)} -> {index}{near}"))
    return out


def is_pip_install(values: Sequence[str]) -> bool:
    """Whether a command's words (values, wrappers stripped) are a pip install (``pip3``, ``python -m pip``,
    ``uv pip``)."""
    if not values or "install" not in values:
        return False
    program = values[0].rsplit("/", 1)[-1]
    return program.startswith("pip") or (program.startswith("python") and "pip" in values) or (
        program == "uv" and "pip" in values)


def matches(name: str, pattern: str) -> bool:
    return fnmatchcase(name, pattern)


def default_image(options: DeployOptions) -> ImageChoice:
    """The ROCm development image of the target (what a GPU job with no CUDA image of its own runs in)."""
    choice = rocm_image("nvidia/cuda:12.0-devel", options)
    assert choice is not None  # the table's first row
    return choice


def command_words(cmd: Sequence[Word], first: Word) -> list[Word]:
    """The words of one simple command (``cmd``: its words and operators, as ``LogicalLine.commands`` gives them)
    from ``first`` up to its first redirection (``> log``, ``2>&1``): a program's own arguments."""
    out: list[Word] = []
    for w in cmd:
        if w.offset < first.offset:
            continue
        if w.kind != WORD or (w.src.isdigit() and any(o.kind != WORD and o.offset == w.end for o in cmd)):
            break
        out.append(w)
    return out


def docker_run_image(words: Sequence[Word], options: DeployOptions) -> tuple[Word, ImageChoice | None] | None:
    """The image word of a ``docker run``/``create`` command and its ROCm image (None: an NVIDIA image with no
    counterpart, to report); None when the command runs no CUDA/NVIDIA image (or is no ``docker run``)."""
    at = image_index([w.value for w in words])
    if at < 0 or words[at].src != words[at].value:
        return None
    ref = words[at].value
    choice = rocm_image(ref, options)
    if choice is not None and choice.ref:
        return words[at], choice
    if choice is not None or is_nvidia_image(ref):
        return words[at], None
    return None
