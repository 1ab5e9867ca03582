"""``migrate deploy`` for CI pipelines (GitHub Actions workflows, ``.gitlab-ci.yml``): every job that runs on a GPU
runner or in a CUDA image gets a parallel ROCm job beside it, and the CUDA job stays (the migration guide's
separate CUDA and ROCm pipelines).

The ROCm job is the CUDA job's own text, copied with a few edits (its key ``<job>-rocm``, the AMD runner labels
``DeployOptions.runner_labels``, the ROCm image, the ROCm container options; ``docker run --gpus`` and bare
``nvidia-smi`` in its commands rewritten) and inserted right after it: one insertion edit, comments, anchors,
aliases and ``<<:`` merge keys kept as written. A job whose ``-rocm`` twin exists is left alone, so a second run
adds nothing. Read with :func:`cuda2rocm.source.formats.yamlnodes.read_yaml`; commands with
:func:`cuda2rocm.source.formats.shell.read_shell`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cuda2rocm.migrate.base import Collector, FileMigration
from cuda2rocm.migrate.deploy import images
from cuda2rocm.migrate.deploy.buildlines import cmake_edits
from cuda2rocm.migrate.deploy.environment import smi_change
from cuda2rocm.migrate.deploy.images import ImageChoice
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.rules import containers as R
from cuda2rocm.model import Edit
from cuda2rocm.project.images import is_nvidia_image
from cuda2rocm.project.recognise import nvidia_runner
from cuda2rocm.rules import Rule
from cuda2rocm.source.edits import apply_edits
from cuda2rocm.source.formats.shell import WORD, read_shell
from cuda2rocm.source.formats.yamlnodes import MAPPING, SCALAR, SEQUENCE, Node, read_yaml

#: the repository name of the GitHub actions that install NVIDIA's CUDA toolkit on a runner (Jimver/cuda-toolkit,
#: GitHub Marketplace "cuda-toolkit", inputs cuda: '12.1.0', method: network; checked 2026-12-07)
CUDA_TOOLKIT_ACTION = "cuda-toolkit"
#: what a copied job's cache keys start with, so the ROCm job never restores the CUDA job's cache
CACHE_PREFIX = "rocm-"
#: GitLab CI keywords that are not jobs at the top level
GITLAB_KEYWORDS = frozenset({"default", "include", "stages", "variables", "workflow", "image", "services", "cache",
                             "before_script", "after_script", "spec"})


def migrate(rel: str, text: str, options: DeployOptions) -> FileMigration:
    stream = read_yaml(text)
    if stream.problems:
        return FileMigration(rel, problems=stream.problems)
    out = Collector(rel, text)
    gitlab = rel.rsplit("/", 1)[-1].endswith(".gitlab-ci.yml")
    for doc in stream.documents:
        if doc.kind != MAPPING:
            continue
        if gitlab:
            _gitlab(out, text, doc, options)
        else:
            jobs = doc.get("jobs")
            if jobs is not None and jobs.kind == MAPPING and jobs.style == "block":
                _github(out, text, jobs, options)
    return out.result()


class _Copy:
    """Edits on a copy of one job's lines (offsets of the original text, applied to the copy)."""

    def __init__(self, out: Collector, text: str, start: int, end: int, options: DeployOptions) -> None:
        self.out = out
        self.options = options
        self.text = text
        self.start = start
        self.end = end
        self.edits: list[Edit] = []
        self.notes: list[str] = []

    def edit(self, start: int, end: int, new: str) -> None:
        if not any((e.start < end and start < e.end) or (start == end == e.start == e.end) for e in self.edits):
            self.edits.append(Edit(start - self.start, end - self.start, new, ""))

    def review(self, rule: Rule, offset: int, message: str) -> None:
        self.out.report(rule, offset, message)

    def result(self) -> str:
        return apply_edits(self.text[self.start:self.end], sorted(self.edits, key=lambda e: (e.start, e.end)))


def _labels(options: DeployOptions) -> str:
    return "[" + ", ".join(options.runner_labels) + "]"


def _gpu_labels(node: Node | None) -> bool:
    if node is None:
        return False
    node = node.resolved()
    values = [node.value] if node.kind == SCALAR else [i.resolved().value for i in node.items]
    return nvidia_runner(values) is not None  # the recogniser of scan's C2R-D107


def _cuda_choice(ref: str, options: DeployOptions) -> ImageChoice | None:
    choice = images.rocm_image(ref, options)
    if choice is not None and choice.ref:
        return choice
    if choice is not None or is_nvidia_image(ref):
        return images.default_image(options)
    return None


# ---- GitHub Actions ---------------------------------------------------------------------------------------


def _github(out: Collector, text: str, jobs: Node, options: DeployOptions) -> None:
    names = {k.value for k, _ in jobs.pairs}
    for key, job in jobs.pairs:
        if key.kind != SCALAR or job.kind != MAPPING or job.style != "block":
            continue
        if key.value.endswith("-rocm") or f"{key.value}-rocm" in names or "rocm" in str(_python(job.get("runs-on"))):
            continue
        container = job.get("container")
        ref = ""
        if container is not None:
            image = container if container.kind == SCALAR else container.get("image")
            ref = image.value if image is not None and image.kind == SCALAR else ""
        options_node = container.get("options") if container is not None and container.kind == MAPPING else None
        choice = _cuda_choice(ref, options) if ref else None
        gpu_options = options_node is not None and "--gpus" in options_node.value
        gpu_job = gpu_options or _gpu_labels(job.get("runs-on")) or _steps_use_gpus(job)
        toolkit = [step for step in _items(job.get("steps")) if _toolkit_action(step)]
        if not (choice or gpu_job or toolkit):
            continue
        start, end = _line_start(text, key.offset), _block_end(text, job.end)
        copy = _Copy(out, text, start, end, options)
        copy.edit(key.offset, key.end, f"{key.value}-rocm")
        name = job.get("name")
        if name is not None and name.kind == SCALAR and name.style == "":
            copy.edit(name.end, name.end, " (ROCm)")
        indent = " " * (job.pairs[0][0].col - 1)
        runs_on = job.get("runs-on")
        if runs_on is not None and gpu_job:  # a compile-only job keeps its (hosted) runner: no GPU is needed
            copy.edit(runs_on.offset, runs_on.end, _labels(options))
        rocm_ref = (choice or images.default_image(options)).ref
        # the device options only where GPU tests run: a hosted runner has no /dev/kfd for docker to pass
        flags = f"\n{indent}  options: {images.container_options()}" if gpu_job else ""
        if container is None:
            at = _after_line(text, runs_on.end) if runs_on is not None else _after_line(text, key.end)
            copy.edit(at, at, f"{indent}container:\n{indent}  image: {rocm_ref}{flags}\n")
        elif container.kind == SCALAR:
            ckey = job.key_node("container")
            assert ckey is not None
            copy.edit(ckey.end, container.end, f":\n{indent}  image: {rocm_ref}{flags}")
        else:
            image_node = container.get("image")
            if image_node is not None:
                copy.edit(image_node.offset, image_node.end, rocm_ref)
            if options_node is not None and options_node.kind == SCALAR and gpu_job:
                copy.edit(options_node.offset, options_node.end, _merged_options(options_node.value))
            elif image_node is not None and gpu_job:
                sub = " " * (container.pairs[0][0].col - 1)
                at = _after_line(text, image_node.end)
                copy.edit(at, at, f"{sub}options: {images.container_options()}\n")
        _review_github(copy, job)
        dropped = [step for step in toolkit if _drop_step(copy, step)]
        for step in _items(job.get("steps")):
            run = step.get("run") if step.kind == MAPPING else None
            if run is not None:
                _commands(copy, run)
            _cache_key(copy, step)
        where = f"runs-on {_labels(options)}" if gpu_job else \
            f"compile-only: runs-on {_python(runs_on)} kept, no GPU devices passed"
        note = f"; the CUDA toolkit step ({', '.join(str(_python(s.get('uses'))) for s in dropped)}) left out: " \
               "the ROCm image carries ROCm" if dropped else ""
        _insert(out, text, copy, key, R.GITHUB_ROCM_JOB,
                f"{key.value}: a parallel ROCm job {key.value}-rocm added ({where}, {rocm_ref}){note}; "
                "the CUDA job stays")


def _steps_use_gpus(job: Node) -> bool:
    for step in _items(job.get("steps")):
        run = step.get("run") if step.kind == MAPPING else None
        if run is not None and run.kind == SCALAR and ("--gpus" in run.value or "nvidia-smi" in run.value):
            return True
    return False


def _uses(step: Node) -> str:
    """The action a step uses, lower case and without its version (``actions/cache``), else ""."""
    uses = step.get("uses") if step.kind == MAPPING else None
    return uses.value.split("@", 1)[0].lower() if uses is not None and uses.kind == SCALAR else ""


def _toolkit_action(step: Node) -> bool:
    """A step that installs NVIDIA's CUDA toolkit on the runner (``Jimver/cuda-toolkit``: any action whose
    repository is named ``cuda-toolkit``)."""
    return _uses(step).split("/")[1:2] == [CUDA_TOOLKIT_ACTION]


def _drop_step(copy: _Copy, step: Node) -> bool:
    """Remove a step's lines (``- uses: ...`` and its ``with:``) from the copy; False when they are not whole
    lines of their own."""
    start = _line_start(copy.text, step.offset)
    if copy.text[start:step.offset].strip(" \t") != "-":
        copy.review(R.CI_ROCM_JOB_REVIEW, step.offset, "the copied job installs the CUDA toolkit here: remove the "
                    "step (the ROCm image carries ROCm)")
        return False
    copy.edit(start, _block_end(copy.text, step.end), "")
    return True


def _cache_key(copy: _Copy, step: Node) -> None:
    """The ROCm job's own cache: ``rocm-`` before the ``key`` and each ``restore-keys`` line of a caching step's
    ``with:`` (the CUDA job's build outputs are not the ROCm job's)."""
    if "cache" not in _uses(step):
        return
    inputs = step.get("with")
    if inputs is None or inputs.kind != MAPPING:
        return
    for name in ("key", "restore-keys"):
        node = inputs.get(name)
        if node is None or node.kind != SCALAR:
            continue
        if node.style in ("", "'", '"'):
            at = node.offset + (node.style != "")
            copy.edit(at, at, CACHE_PREFIX)
        elif node.style in ("|", ">"):
            raw = copy.text[node.offset:node.end]
            first = raw.find("\n") + 1
            for line_at in _line_starts(raw, first):
                line = raw[line_at:raw.find("\n", line_at) if "\n" in raw[line_at:] else len(raw)]
                if line.strip():
                    at = node.offset + line_at + len(line) - len(line.lstrip())
                    copy.edit(at, at, CACHE_PREFIX)


def _line_starts(raw: str, first: int) -> Iterable[int]:
    at = first
    while 0 < at < len(raw):
        yield at
        nl = raw.find("\n", at)
        at = nl + 1 if nl >= 0 else len(raw)


def _review_github(copy: _Copy, job: Node) -> None:
    strategy = job.get("strategy")
    matrix = strategy.get("matrix") if strategy is not None and strategy.kind == MAPPING else None
    if matrix is not None and "cuda" in str(_python(matrix)).lower():
        copy.review(R.CI_ROCM_JOB_REVIEW, matrix.offset, "the copied job's matrix is over CUDA versions: give the "
                    "ROCm job its own (ROCm releases)")
    container = job.get("container")
    envs = [job.get("env"), container.get("env") if container is not None and container.kind == MAPPING else None]
    for env in envs:
        if env is not None and env.kind == MAPPING:
            for k, _ in env.pairs:
                if k.value.startswith(("CUDA_", "NVIDIA_", "NCCL_")):
                    copy.review(R.CI_ROCM_JOB_REVIEW, k.offset, f"{k.value} in the copied job's env: its ROCm "
                                "counterpart (docs/migrate.md, launch scripts and environment)")
    services = job.get("services")
    if services is not None and "nvidia" in str(_python(services)):
        copy.review(R.CI_ROCM_JOB_REVIEW, services.offset, "the copied job's services use NVIDIA images")


def _merged_options(value: str) -> str:
    """A container options string with the NVIDIA runtime's options replaced by the ROCm ones."""
    prefix = "docker run "
    script = read_shell(prefix + value)
    words = [w for line in script.lines for w in line.words if w.kind == WORD]
    edits = images.docker_run_flags(words)
    new = apply_edits(prefix + value, [Edit(e.start, e.end, e.replacement, "") for e in edits])[len(prefix):]
    present = new.split()
    missing = [f.cli for f in images.runtime_flags() if f.cli not in present
               and not (f.compose_key in ("ipc", "shm_size") and any(p.startswith(f.flag) for p in present))]
    return " ".join([*new.split(), *missing])


# ---- GitLab CI --------------------------------------------------------------------------------------------


def _gitlab(out: Collector, text: str, root: Node, options: DeployOptions) -> None:
    names = {k.value for k, _ in root.pairs if k.kind == SCALAR}
    hidden = {k.value: v for k, v in root.pairs if k.kind == SCALAR and k.value.startswith(".")}
    default = _python(root.get("default")) or {}
    top_image = _image_ref(_python(root.get("image"))) or _image_ref(default.get("image") if isinstance(default, dict)
                                                                      else None)
    for key, job in root.pairs:
        if key.kind != SCALAR or key.value in GITLAB_KEYWORDS or key.value.startswith("."):
            continue
        if job.kind != MAPPING or job.style != "block" or key.value.endswith("-rocm") or f"{key.value}-rocm" in names:
            continue
        merged = _effective(job, hidden)
        ref = _image_ref(merged.get("image")) or top_image
        choice = _cuda_choice(ref, options) if ref else None
        tags = merged.get("tags") or []
        gpu_tags = nvidia_runner(tags if isinstance(tags, list) else [tags]) is not None
        if choice is None and not gpu_tags:
            continue
        if "rocm" in str(tags).lower():
            continue
        start, end = _line_start(text, key.offset), _block_end(text, job.end)
        copy = _Copy(out, text, start, end, options)
        copy.edit(key.offset, key.end, f"{key.value}-rocm")
        indent = " " * (job.pairs[0][0].col - 1)
        image = (choice or images.default_image(options)).ref
        after_key = _after_line(text, key.end)
        added = ""  # keys the copy gets right after its key line (its own keys win over merged ones)
        own_image = job.get("image")
        name = own_image.get("name") if own_image is not None and own_image.kind == MAPPING else None
        if own_image is not None and own_image.kind == SCALAR:
            copy.edit(own_image.offset, own_image.end, image)
        elif name is not None:
            copy.edit(name.offset, name.end, image)
        else:
            added += f"{indent}image: {image}\n"
        own_tags = job.get("tags")
        if not gpu_tags:  # compile-only: the job's own runners (shared ones), no GPU needed
            pass
        elif own_tags is not None:
            copy.edit(own_tags.offset, own_tags.end, _labels(options))
        else:
            added += f"{indent}tags: {_labels(options)}\n"
        if added:
            copy.edit(after_key, after_key, added)
        variables = job.get("variables")
        if variables is not None and variables.kind == MAPPING:
            for k, _ in variables.pairs:
                if k.value.startswith(("CUDA_", "NVIDIA_", "NCCL_")):
                    copy.review(R.CI_ROCM_JOB_REVIEW, k.offset, f"{k.value} in the copied job's variables: its ROCm "
                                "counterpart (docs/migrate.md, launch scripts and environment)")
        for section in ("before_script", "script", "after_script"):
            for item in _items(job.get(section)):
                _commands(copy, item)
        runner = ("; the runner passes the GPUs: devices = [\"/dev/kfd\", \"/dev/dri\"] and group_add = "
                  "[\"video\", \"render\"] under [runners.docker] in its config.toml") if gpu_tags else ""
        where = f"tags {_labels(options)}" if gpu_tags else "compile-only: its own runners, no GPU devices"
        _insert(out, text, copy, key, R.GITLAB_ROCM_JOB,
                f"{key.value}: a parallel ROCm job {key.value}-rocm added ({where}, {image}); the CUDA job stays"
                + runner)


def _effective(job: Node, hidden: dict[str, Node]) -> dict[str, Any]:
    """The job's keys with merge keys applied and ``extends`` templates (one level each) under its own."""
    data = job.to_python()
    if not isinstance(data, dict):
        return {}
    extends = data.get("extends") or []
    for name in [extends] if isinstance(extends, str) else list(extends):
        template = hidden.get(str(name))
        base = template.to_python() if template is not None else None
        if isinstance(base, dict):
            data = {**base, **data}
    return data


def _image_ref(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("name"), str):
        return str(value["name"])
    return ""


# ---- shared -----------------------------------------------------------------------------------------------


def _commands(copy: _Copy, node: Node) -> None:
    """Rewrite ``docker run --gpus`` and bare ``nvidia-smi`` in one command scalar of the copy (plain or ``|``
    block scalars: their text is the command text at its offsets); others are reported."""
    if node.kind != SCALAR:
        return
    raw = copy.text[node.offset:node.end]
    base = node.offset
    if node.style == "|":
        nl = raw.find("\n")
        if nl < 0:
            return
        raw, base = raw[nl + 1:], node.offset + nl + 1
    elif node.style != "":
        if "--gpus" in node.value or "nvidia-smi" in node.value:
            copy.review(R.CI_ROCM_JOB_REVIEW, node.offset, "a quoted command with --gpus or nvidia-smi in the copied "
                        "job: rewrite it for ROCm")
        return
    for line in read_shell(raw).lines:
        for cmd in line.commands():
            words = [w for w in cmd if w.kind == WORD]
            if not words:
                continue
            for e in images.docker_run_flags(words, copy.options.gfx):
                copy.edit(base + e.start, base + e.end, e.replacement)
                copy.review(e.rule or R.DOCKER_RUN_GPUS, base + e.start, e.message + " (in the ROCm job)"
                            + (f"; {e.review}" if e.review else ""))
            if images.is_pip_install([w.value for w in words]):
                for e in images.wheel_index_edits(words, copy.options.rocm_version):
                    copy.edit(base + e.start, base + e.end, e.replacement)
            edits, reports = cmake_edits(words, copy.options)
            for e in edits:
                copy.edit(base + e.start, base + e.end, e.replacement)
                copy.review(R.CMAKE_COMMAND, base + e.start, e.message + " (in the ROCm job)")
            for at, message in reports:
                copy.review(R.CMAKE_COMMAND, base + at, message + " (in the ROCm job)")
            image = images.docker_run_image(words, copy.options)
            if image is not None and image[1] is not None:
                copy.edit(base + image[0].offset, base + image[0].end, image[1].ref)
            elif image is not None:
                copy.review(R.DOCKER_RUN_GPUS, base + image[0].offset, f"{image[0].value} in the ROCm job: an NVIDIA "
                            "image the knowledge base has no ROCm counterpart for")
            values = [w.value for w in words]
            if values[0].rsplit("/", 1)[-1] == "nvidia-smi":
                args = images.command_words(cmd, words[0])
                smi = smi_change([w.value for w in args], probe=True)
                if smi.argv is not None and all(w.src == w.value for w in args):
                    copy.edit(base + words[0].offset, base + args[-1].end, " ".join(smi.argv))
                else:
                    copy.review(R.CI_ROCM_JOB_REVIEW, base + words[0].offset, f"in the copied job: {smi.message} "
                                "(docs/migrate.md)")
            elif any(v.startswith("CUDA_VISIBLE_DEVICES=") for v in values):
                copy.review(R.CI_ROCM_JOB_REVIEW, base + words[0].offset, "CUDA_VISIBLE_DEVICES in the copied job: "
                            "HIP_VISIBLE_DEVICES on ROCm")


def _insert(out: Collector, text: str, copy: _Copy, key: Node, rule: Rule, message: str) -> None:
    new = copy.result()
    lead = "" if text[:copy.end].endswith("\n") else "\n"
    header = f"{' ' * (key.col - 1)}# {key.value}-rocm: the ROCm counterpart of {key.value} " \
             "(cuda2rocm migrate deploy)\n"
    out.edit(rule, copy.end, copy.end, lead + header + new, message)


def _items(node: Node | None) -> Iterable[Node]:
    if node is None:
        return ()
    node = node.resolved()
    return [i.resolved() for i in node.items] if node.kind == SEQUENCE else [node] if node.kind == SCALAR else []


def _python(node: Node | None) -> Any:
    return node.to_python() if node is not None else None


def _block_end(text: str, end: int) -> int:
    """Where the lines of a node ending at ``end`` end (a block scalar's end is the next line's start)."""
    return end if end > 0 and text[end - 1] == "\n" else _after_line(text, end)


def _after_line(text: str, offset: int) -> int:
    nl = text.find("\n", offset)
    return len(text) if nl < 0 else nl + 1


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1
