"""``migrate deploy`` for Dockerfiles: CUDA base images, packages, variables, wheel indexes and ``nvidia-smi``
rewritten for ROCm, and the image manifest recorded as labels; every change one word, pair or inserted block.

Read with :func:`cuda2rocm.source.formats.dockerfile.read_dockerfile` (stage by stage; ``${ARG}`` references in
``FROM`` resolved with scan's :func:`~cuda2rocm.scan.analyzers.dockerfile.expand`); shell-form ``RUN``/``CMD``/
``HEALTHCHECK`` arguments and here-documents through :func:`cuda2rocm.source.formats.shell.read_shell`. The tables
are ``data/images.csv``, ``data/apt_packages.csv`` and ``data/labels.csv`` (wheel indexes: the knowledge base's
``torch_wheels.yaml``).
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from cuda2rocm.knowledge import versions, wheels
from cuda2rocm.knowledge.lookup import norm_pip
from cuda2rocm.migrate.base import Collector, FileMigration
from cuda2rocm.migrate.deploy import images
from cuda2rocm.migrate.deploy.buildlines import cmake_edits
from cuda2rocm.migrate.deploy.environment import ADD, DROP, RENAME, SmiChange, env_change, smi_change
from cuda2rocm.migrate.deploy.images import ImageChoice, command_words, rocm_image
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.pipinstall import place_pip_changes
from cuda2rocm.migrate.deploy.rules import containers as R
from cuda2rocm.migrate.make import rocm_dirs
from cuda2rocm.migrate.pydeps import CONDA_TORCH
from cuda2rocm.project.images import is_nvidia_image
from cuda2rocm.project.recognise import CUDA_PATH_VARIABLES
from cuda2rocm.rules import Rule
from cuda2rocm.source.formats._base import Piece
from cuda2rocm.source.formats.dockerfile import Dockerfile, Instruction, expand, read_dockerfile
from cuda2rocm.source.formats.requirements import REQUIREMENT_NAME
from cuda2rocm.source.formats.shell import WORD, Word, read_shell

#: variables only the NVIDIA container runtime reads
NVIDIA_RUNTIME_VARIABLES = ("NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_REQUIRE_CUDA",
                            "NVIDIA_DISABLE_REQUIRE")
_INSTALLERS = ("apt-get", "apt", "yum", "dnf", "microdnf", "zypper")
_WRAPPERS = ("sudo", "exec", "env", "command", "time", "nice")
_LABEL_MARK = "io.cuda2rocm.image."
_NGC_ENTRYPOINT = "/opt/nvidia/"  # where NGC images keep their entrypoint scripts
#: conda packages and channels of CUDA builds (PyTorch for ROCm is published as pip wheels only)
_CONDA_CUDA = ("pytorch-cuda", "cudatoolkit", "cuda-toolkit", "cuda-nvcc", "cuda-runtime", "nvidia::")


@dataclass(frozen=True)
class AptRow:
    pattern: str
    rocm: tuple[str, ...]
    unknown: bool
    note: str


@functools.lru_cache(maxsize=1)
def apt_rows() -> tuple[AptRow, ...]:
    return tuple(AptRow(r["pattern"], tuple(r["rocm"].split()) if r["rocm"] != "?" else (), r["rocm"] == "?",
                        r["note"]) for r in images.rows("apt_packages.csv"))


def rocm_packages(name: str) -> AptRow | None:
    """The row for a CUDA system package (``libnccl-dev``), or None when it is not a CUDA package."""
    return next((r for r in apt_rows() if images.matches(name, r.pattern)), None)


def migrate(rel: str, text: str, options: DeployOptions) -> FileMigration:
    df = read_dockerfile(text)
    if df.problems:
        return FileMigration(rel, problems=df.problems)
    return _Migrator(rel, df, options).run()


class _Migrator:
    def __init__(self, rel: str, df: Dockerfile, options: DeployOptions) -> None:
        self.df = df
        self.text = df.text
        self.options = options
        self.out = Collector(rel, df.text)
        self.args: dict[str, str] = {}
        self.arg_values: dict[str, Piece] = {}  # ARG name -> its default as written (the last definition)
        self.stage_names: dict[str, str] = {}  # stage name -> its base image (after migration)
        self.stage_rocm = False  # the current stage's base is a ROCm image
        self.stage_ref = ""  # the current stage's base image (after migration)
        self.final: tuple[Instruction, str, ImageChoice | None] | None = None
        self.migrated = False

    def run(self) -> FileMigration:
        for ins in self.df.instructions:
            if ins.name == "FROM":
                self.from_(ins)
            elif ins.name in ("ENV", "ARG"):
                self.env(ins)
            elif ins.name in ("RUN", "CMD", "ENTRYPOINT", "HEALTHCHECK"):
                self.commands(ins)
        if self.migrated:
            self.labels()
        return self.out.result()

    # ---- FROM ----------------------------------------------------------------------------------------------

    def from_(self, ins: Instruction) -> None:
        words = ins.words()
        image = next((w for w in words if not w.src.startswith("--")), None)
        if image is None:
            return
        rest = [w.src for w in words[words.index(image) + 1:]]
        name = rest[1].lower() if len(rest) >= 2 and rest[0].lower() == "as" else ""
        ref = expand(image.src, self.args)
        base = self.stage_names.get(ref.lower())
        choice = None if base is not None else rocm_image(ref, self.options)
        final_ref = base if base is not None else ref
        if choice is not None and choice.fidelity == "none":
            self.out.report(R.NO_ROCM_IMAGE, image.offset, f"{ref}: {choice.notes[0]}")
            choice = None
        elif choice is None and base is None and is_nvidia_image(ref):
            self.out.report(R.NO_ROCM_IMAGE, image.offset, f"{ref} is an NVIDIA image the knowledge base has no ROCm "
                            "counterpart for")
        if choice is not None:
            self.migrated = True
            final_ref = choice.ref
            target = self._template_arg(image.src)
            note = f": {choice.notes[0]}" if choice.notes else ""
            if target is not None:
                q = target.src[:1] if target.src[:1] in "\"'" else ""
                self.out.edit(R.CUDA_BASE_IMAGE, target.offset, target.offset + len(target.src), q + choice.ref + q,
                              f"{ref} -> {choice.ref} (the default of the ARG this FROM names){note}")
            else:
                self.out.edit(R.CUDA_BASE_IMAGE, image.offset, image.end, choice.ref, f"{ref} -> {choice.ref}{note}")
            if choice.fidelity != "exact" or len(choice.notes) > 1:
                self.out.report(R.BASE_IMAGE_REVIEW, image.offset, f"{choice.ref} for {ref}: "
                                + "; ".join(choice.notes[1:] or choice.notes))
        if choice is None and base is None:
            self._other_rocm(ref, image.offset)
        self.stage_rocm = images.is_rocm_image(final_ref)
        self.stage_ref = final_ref
        if name:
            self.stage_names[name] = final_ref
        self.final = (ins, final_ref, choice if choice is not None else self._stage_choice(base))

    def _other_rocm(self, ref: str, at: int) -> None:
        """A ROCm base image the project already names, of another ROCm release than the target stack."""
        named = images.rocm_image_stack(ref)
        stack = self.options.stack
        if named is not None and not versions.same_release(named[0], stack.rocm):
            self.out.report(R.STACK_CONFLICT, at, f"{ref} is ROCm {named[0]}; the target stack is ROCm {stack.rocm} "
                            f"(torch {stack.torch} from {stack.index_url}, as migrate build pins it): move the image "
                            f"to {stack.rocm}, or give --target-rocm {named[0]} to both migrate commands")

    def _stage_choice(self, base: str | None) -> ImageChoice | None:
        if base is None or self.final is None:
            return None
        return self.final[2] if self.final[1] == base else None

    def _template_arg(self, word: str) -> Piece | None:
        """The ARG default to rewrite when the FROM word is one ``${NAME}`` (``$NAME``) reference."""
        m = re.fullmatch(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", word)
        return self.arg_values.get(m.group(1)) if m else None

    # ---- ENV / ARG -----------------------------------------------------------------------------------------

    def env(self, ins: Instruction) -> None:
        pairs = ins.pairs()
        for key, value in pairs:
            name = key.src
            if value is not None:
                self.args[name] = expand(value.src.strip("\"'"), self.args)
                if ins.name == "ARG":
                    self.arg_values[name] = value
            if name in CUDA_PATH_VARIABLES:
                new_value = rocm_dirs(value.src) if value is not None else ""
                self._pair(ins, key, value, "ROCM_PATH", new_value, R.CUDA_HOME,
                           f"{name} -> ROCM_PATH: ROCm is found through ROCM_PATH (/opt/rocm)")
            elif name in NVIDIA_RUNTIME_VARIABLES:
                self._drop_pair(ins, pairs, key, value, f"{name} is read by the NVIDIA container runtime only")
            elif name == "TORCH_CUDA_ARCH_LIST":
                gfx = ";".join(self.options.gfx)
                q = value.src[:1] if value is not None and value.src[:1] in "\"'" else '"'
                self._pair(ins, key, value, "PYTORCH_ROCM_ARCH", f"{q}{gfx}{q}" if value is not None else "",
                           R.TORCH_ARCH_LIST, f"TORCH_CUDA_ARCH_LIST -> PYTORCH_ROCM_ARCH={gfx}: ROCm extension builds "
                           "read the gfx targets from PYTORCH_ROCM_ARCH")
            elif value is not None and rocm_dirs(value.src) != value.src:
                self.out.edit(R.CUDA_HOME, value.offset, value.offset + len(value.src), rocm_dirs(value.src),
                              f"{name}: CUDA toolkit paths -> /opt/rocm")
            elif ins.name == "ENV":
                self._environment(ins, pairs, key, value)

    def _environment(self, ins: Instruction, pairs: Sequence[tuple[Piece, Piece | None]], key: Piece,
                     value: Piece | None) -> None:
        """Any other ``ENV`` assignment: the one decision of every deploy file's environment
        (:func:`cuda2rocm.migrate.deploy.environment.env_change`: CUDA_VISIBLE_DEVICES, NCCL_*, ...)."""
        change = env_change(key.src, value.src.strip("\"'") if value is not None else "", gfx=self.options.gfx)
        if change is None:
            return
        end = value.offset + len(value.src) if value is not None else key.offset + len(key.src)
        legacy = value is not None and "=" not in self.text[key.offset + len(key.src):value.offset]
        original = value.src if value is not None else ""
        if change.action == RENAME and not (legacy and len(change.new) > 1):
            if legacy:
                between = self.text[key.offset + len(key.src):value.offset] if value is not None else " "
                new_name, new_value = change.new[0]
                text = new_name + between + (original if new_value is None else new_value)
            else:
                text = " ".join(change.written(original, _docker_quote))
            self.out.edit(change.rule, key.offset, end, text, change.message, applicability=change.applicability)
        elif change.action == ADD and not legacy:
            self.out.edit(change.rule, end, end, " " + " ".join(change.written(original, _docker_quote)),
                          change.message, applicability=change.applicability)
        elif change.action == DROP and len(pairs) > 1 and not legacy:
            start, stop = _word_span(self.text, key.offset, end)
            self.out.edit(change.rule, start, stop, "", change.message, applicability=change.applicability)
        elif change.action == DROP:
            start, stop = _whole_lines(self.text, ins.offset, ins.end)
            kept = "".join(c.src + "\n" for c in self.df.comments if start <= c.offset < stop)
            self.out.edit(change.rule, start, stop, kept, change.message, applicability=change.applicability)
        else:  # keep, or a form this instruction cannot take in place
            self.out.report(change.rule, key.offset, change.message)

    def _pair(self, ins: Instruction, key: Piece, value: Piece | None, new_key: str, new_value: str,
              rule: Rule, message: str) -> None:
        end = value.offset + len(value.src) if value is not None else key.offset + len(key.src)
        between = self.text[key.offset + len(key.src):value.offset] if value is not None else ""
        self.out.edit(rule, key.offset, end, new_key + between + new_value, message)

    def _drop_pair(self, ins: Instruction, pairs: Sequence[tuple[Piece, Piece | None]], key: Piece,
                   value: Piece | None, message: str) -> None:
        nvidia = [k for k, _ in pairs if k.src in NVIDIA_RUNTIME_VARIABLES]
        if len(nvidia) == len(pairs):  # the whole instruction goes, once
            if key is nvidia[0]:
                start, end = _whole_lines(self.text, ins.offset, ins.end)
                names = ", ".join(k.src for k in nvidia)
                kept = "".join(c.src + "\n" for c in self.df.comments if start <= c.offset < end)
                self.out.edit(R.NVIDIA_RUNTIME_ENV, start, end, kept, f"{names}: read by the NVIDIA container runtime "
                              "only; removed")
            return
        end = value.offset + len(value.src) if value is not None else key.offset + len(key.src)
        start, end = _word_span(self.text, key.offset, end)
        self.out.edit(R.NVIDIA_RUNTIME_ENV, start, end, "", message + "; removed")

    # ---- RUN / CMD / HEALTHCHECK ---------------------------------------------------------------------------

    def commands(self, ins: Instruction) -> None:
        listed = ins.json_form()
        if ins.name in ("ENTRYPOINT", "CMD") and _NGC_ENTRYPOINT in ins.value and self.stage_rocm:
            at = ins.offset + max(0, self.text[ins.offset:ins.end].find(_NGC_ENTRYPOINT))
            self.out.report(R.BASE_IMAGE_REVIEW, at, f"{ins.name} runs a script under {_NGC_ENTRYPOINT} (the NGC "
                            "images' entrypoint, nvidia_entrypoint.sh): the ROCm image has no such script and the "
                            f"container would not start; remove the {ins.name} or point it at your own script")
        if ins.name == "HEALTHCHECK":
            words = ins.words()
            cmd = next((i for i, w in enumerate(words) if w.src.upper() == "CMD"), -1)
            rest = self.text[words[cmd].end:ins.end].strip() if cmd >= 0 else ""
            if rest.startswith("["):
                try:
                    data = json.loads(" ".join(s.src for s in ins.segments)[
                        " ".join(s.src for s in ins.segments).find("["):])
                except ValueError:
                    data = None
                listed = ["CMD", *data] if isinstance(data, list) and all(isinstance(x, str) for x in data) else None
        if listed is not None:
            self._exec_form(ins, listed)
            return
        if not ins.segments or self.df.escape != "\\":
            return
        start = ins.segments[0].offset
        end = ins.segments[-1].offset + len(ins.segments[-1].src)
        if any(start <= c.offset < end for c in self.df.comments):
            return  # a comment line inside the continuation: Docker drops it, a shell would not
        self._script(self.text[start:end], start, ins)
        for doc in ins.heredocs:
            self._script(doc.body.src, doc.body.offset, ins)

    def _exec_form(self, ins: Instruction, listed: list[str]) -> None:
        if not listed:
            return
        first = listed[1] if ins.name == "HEALTHCHECK" and listed[0] == "CMD" and len(listed) > 1 else listed[0]
        if first != "nvidia-smi":
            return
        lit = json.dumps("nvidia-smi")
        for seg in ins.segments:
            at = seg.src.find(lit)
            if at >= 0:
                change = smi_change(listed[listed.index("nvidia-smi"):], probe=True)
                end = seg.offset + at + len(lit) + _tail_len(seg.src, at + len(lit))
                if change.argv is not None:
                    self._smi_edit(seg.offset + at, end, ", ".join(json.dumps(a) for a in change.argv), change)
                else:
                    self.out.report(R.NVIDIA_SMI, seg.offset + at, f"{change.message} (docs/migrate.md)")
                return

    def _script(self, script: str, base: int, ins: Instruction) -> None:
        nvidia_repo = False
        for line in read_shell(script).lines:
            for command in line.commands():
                cmd = [Word(w.kind, w.src, w.offset + base) for w in command]
                words = [w for w in cmd if w.kind == WORD]
                if ins.name == "HEALTHCHECK":
                    words = _after_cmd(words)
                elif ins.name == "RUN":
                    while words and words[0].src.startswith("--"):  # RUN --mount=... --network=...
                        words = words[1:]
                words = _strip_prefix(words)
                if not words:
                    continue
                values = [w.value for w in words]
                if not nvidia_repo and any("developer.download.nvidia.com" in v or "cuda-keyring" in v for v in values):
                    nvidia_repo = True
                    self.out.report(R.NVIDIA_REPOSITORY, words[0].offset, "NVIDIA's package repository is set up "
                                    "here: on a rocm/* base it is not needed (AMD's repository is configured)")
                program = values[0].rsplit("/", 1)[-1]
                edits, reports = cmake_edits(words, self.options)
                for e in edits:
                    self.out.edit(R.CMAKE_COMMAND, e.start, e.end, e.replacement, e.message)
                for at, message in reports:
                    self.out.report(R.CMAKE_COMMAND, at, message)
                if program in _INSTALLERS and "install" in values:
                    self._packages(words, values.index("install") + 1, rpm=program not in ("apt-get", "apt"))
                elif images.is_pip_install(values):
                    self._pip(words)
                elif program in ("conda", "mamba", "micromamba") and "install" in values:
                    self._conda(words)
                elif program == "nvidia-smi":
                    args = command_words(cmd, words[0])
                    change = smi_change([w.value for w in args], probe=True)
                    if change.argv is not None and all(w.src == w.value for w in args):
                        self._smi_edit(words[0].offset, args[-1].end, " ".join(change.argv), change)
                    else:
                        self.out.report(R.NVIDIA_SMI, words[0].offset, f"{change.message} (docs/migrate.md)")

    def _smi_edit(self, start: int, end: int, new: str, change: SmiChange) -> None:
        """``nvidia-smi ...`` -> its amd-smi command (:func:`~cuda2rocm.migrate.deploy.environment.smi_change`, the
        one mapping of every deploy file); what has no counterpart is reported beside the edit."""
        self.out.edit(R.NVIDIA_SMI, start, end, new, change.message, applicability=change.applicability)

    def _packages(self, words: list[Word], first: int, rpm: bool = False) -> None:
        """CUDA packages of one install command -> ROCm ones (``rpm``: yum/dnf/zypper, whose development packages
        end in ``-devel``, as the ROCm package documentation says)."""
        have = {w.value.split("=")[0] for w in words[first:] if not w.value.startswith("-")}
        made: set[str] = set()
        skip = False
        for w in words[first:]:
            if skip:
                skip = False
                continue
            if w.value.startswith("-"):
                skip = w.value in ("-o", "-t", "--option", "--target-release")
                continue
            name = w.value.split("=")[0]
            row = rocm_packages(name)
            if row is None:
                continue
            if row.unknown:
                self.out.report(R.CUDA_PACKAGES, w.offset, f"{name}: {row.note}")
                continue
            names = [p[:-4] + "-devel" if rpm and p.endswith("-dev") else p for p in row.rocm]
            new = [p for p in names if p not in made and p not in have]
            made.update(names)
            where = "" if self.stage_rocm else " (this stage's base is not a ROCm image: add AMD's package " \
                                               "repository)"
            if new:
                pinned = " (its CUDA version pin dropped)" if "=" in w.value else ""
                self.out.edit(R.CUDA_PACKAGES, w.offset, w.end, " ".join(new),
                              f"{name} -> {' '.join(new)}{pinned}{where}")
            else:
                start, end = _word_span(self.text, w.offset, w.end)
                why = row.note or f"{' '.join(names)} is installed already"
                self.out.edit(R.CUDA_PACKAGES, start, end, "", f"{name} removed: {why}")

    def _conda(self, words: list[Word]) -> None:
        """A conda install of CUDA builds (``pytorch-cuda=12.1``, ``cudatoolkit``, ``-c nvidia``): reported once;
        PyTorch's ROCm builds are pip wheels from its ROCm index (or the rocm/pytorch image)."""
        values = [w.value for w in words]
        channel = any(a in ("-c", "--channel") and b == "nvidia" for a, b in itertools.pairwise(values))
        hit = next((w for w in words if w.value.startswith(_CONDA_CUDA)), None)
        packages, skip = [], False
        for w in words[2:]:
            if not skip and not w.value.startswith("-"):
                packages.append(w)
            skip = w.value in ("-c", "--channel", "-n", "--name", "-p", "--prefix")
        torch = [w for w in packages if _conda_name(w.value) in CONDA_TORCH]
        if hit is None and not channel and not torch:
            return
        stack = self.options.stack
        pair = wheels.companions(stack.torch) or ("", "")
        release = {"pytorch": stack.torch, "torchvision": pair[0], "torchaudio": pair[1]}
        pins = " ".join(dict.fromkeys(
            ("torch" if name == "pytorch" else name) + (f"=={release[name]}" if release[name] else "")
            for name in ["pytorch", *(_conda_name(w.value) for w in torch)]))
        self.out.report(R.CUDA_WHEEL_INDEX, (hit or (torch[0] if torch else words[0])).offset,
                        f"{' '.join(values[:2])} installs CUDA or CPU builds (conda has no ROCm build of PyTorch): "
                        f"install PyTorch with pip from the target stack's ROCm index instead, `pip install "
                        f"--index-url {stack.index_url} {pins}` (or base on the rocm/pytorch image), and drop "
                        "pytorch-cuda, cudatoolkit and the nvidia channel")

    def _pip(self, words: list[Word]) -> None:
        self._image_torch(words)
        for e in images.wheel_index_edits(words, self.options.rocm_version):
            self.out.edit(R.CUDA_WHEEL_INDEX, e.start, e.end, e.replacement, e.message)
        place_pip_changes(self.out, self.text, words, self.options.stack, R.CUDA_WHEEL_INDEX)

    def _image_torch(self, words: list[Word]) -> None:
        """A pip install of requirements or torch over a rocm/pytorch base carrying another PyTorch release."""
        named = images.rocm_image_stack(self.stage_ref) if self.stage_ref else None
        stack = self.options.stack
        if named is None or not stack.torch_differs(named[1]):
            return
        values = [w.value for w in words]
        torch = any((m := REQUIREMENT_NAME.match(v)) is not None and norm_pip(m.group(0)) == "torch" for v in values)
        if not torch and not any(v in ("-r", "--requirement") or v.startswith("--requirement=") for v in values):
            return
        what = "torch" if torch else "the requirements"
        self.out.report(R.STACK_CONFLICT, words[0].offset, f"{self.stage_ref} carries PyTorch {named[1]}; this pip "
                        f"install of {what} brings torch {stack.torch} from {stack.index_url} (the target stack, as "
                        f"migrate build pins it) over it: pin torch=={named[1]} there, or base on the stack's "
                        f"rocm/dev image and keep the pin")

    # ---- LABEL ---------------------------------------------------------------------------------------------

    def labels(self) -> None:
        if self.final is None:
            return
        ins, base, choice = self.final
        stage = next(s for s in self.df.stages() if s[0] is ins)
        if any(i.name == "LABEL" and _LABEL_MARK in i.value for i in stage):
            return
        declared = next(((i, k.src) for i in stage if i.name == "ARG" for k, _ in i.pairs()
                         if k.src in ("APP_VERSION", "VERSION")), None)
        version_arg = declared[1] if declared is not None else ""
        after = declared[0] if declared is not None else ins  # the labels go where the version is declared
        named = images.rocm_image_stack(base)  # an image the project already had names its own release
        rocm = named[0] if named is not None else self.options.rocm_version
        framework = choice.framework if choice is not None else ""
        facts = {"base": base, "gfx": ";".join(self.options.gfx), "os": self.options.os, "rocm": rocm,
                 "framework": framework, "compiler": f"amdclang++/hipcc (ROCm {rocm})"}
        pairs = []
        for row in images.rows("labels.csv"):
            value = row["value"].format(**facts) if "{" in row["value"] and "$" not in row["value"] else row["value"]
            if "APP_VERSION" in value:
                value = "${" + (version_arg or "APP_VERSION") + "}"
            if value:
                pairs.append(f"{row['key']}={json.dumps(value)}")
        esc = self.df.escape
        lines = ["", "# image manifest (cuda2rocm migrate deploy): build with --build-arg "
                 f"{version_arg or 'APP_VERSION'}=<version>"]
        if not version_arg:
            lines.append("ARG APP_VERSION=unknown")
        lines.append(f"LABEL {pairs[0]}" + "".join(f" {esc}\n      {p}" for p in pairs[1:]))
        if not self.text.startswith("\n", after.end):
            return  # the instruction ends the file without a newline: nothing to insert after
        # the newline after it is replaced, so the edit touches neither its last word nor the next line
        self.out.edit(R.IMAGE_MANIFEST, after.end, after.end + 1, "\n".join(lines) + "\n",
                      f"image manifest labels added: base {base}, ROCm {rocm}, targets {facts['gfx']}")


def _conda_name(spec: str) -> str:
    """The package of a conda spec (``pytorch::pytorch=2.1``, ``torchvision>=0.16``)."""
    return re.split(r"[=<>!~\s\[]", spec.rpartition("::")[2], maxsplit=1)[0].lower()


def _after_cmd(words: list[Word]) -> list[Word]:
    """A HEALTHCHECK's command: the words after ``CMD`` (its options come first)."""
    for i, w in enumerate(words):
        if w.value.upper() == "CMD":
            return words[i + 1:]
    return []


def _strip_prefix(words: list[Word]) -> list[Word]:
    """A command's words without leading ``NAME=value`` assignments and wrappers (``sudo``, ``exec``)."""
    i = 0
    while i < len(words) and (re.match(r"[A-Za-z_][A-Za-z0-9_]*=", words[i].src) or words[i].value in _WRAPPERS):
        i += 1
    return words[i:]


def _tail_len(src: str, at: int) -> int:
    """Length of the JSON list items after ``"nvidia-smi"`` up to the closing bracket (``, "-L"``)."""
    close = src.find("]", at)
    return (close if close >= 0 else at) - at


def _word_span(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` widened to take the blanks before it (or, at a line's start, after it) along
    (:func:`cuda2rocm.source.edits.word_removal`)."""
    from cuda2rocm.source.edits import word_removal

    return word_removal(text, start, end)


def _whole_lines(text: str, start: int, end: int) -> tuple[int, int]:
    """The lines ``[start, end)`` lies on, with the newline that ends the last one."""
    s = text.rfind("\n", 0, start) + 1
    e = end + 1 if end < len(text) and text[end] == "\n" else end
    return s, e


def _docker_quote(value: str) -> str:
    """A new ENV value as Dockerfile ``ENV`` reads it: bare when it has no blank or quote, else double-quoted."""
    if value and not any(c in value for c in " \t\"'\\$"):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
