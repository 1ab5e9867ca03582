"""Python/conda package pins: frameworks, CUDA builds (+cu121, cu121 indexes, nvidia-*-cu12), plugins."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cuda2rocm.knowledge import wheels
from cuda2rocm.scan import rocm_path, rules
from cuda2rocm.scan.filefacts import Count, Fact, Hit, PluginRef, Record
from cuda2rocm.source.formats.requirements import read_requirements
from cuda2rocm.source.tokens import LineIndex

REQ = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(?:(===|==|~=|>=|<=|!=|>|<|=)\s*([^\s;,#]+))?")
_DIRECT_URL = re.compile(r"^\s*@\s*(https?://\S+)")
_WHEEL_VERSION = re.compile(r"/[A-Za-z0-9_.]+-(\d[\w.%+]*?)-(?:cp|py)\d")
_CU_INDEX = re.compile(r"/(?:whl/)?cu(\d{2,3})\b")
NVIDIA_WHEEL = re.compile(r"^nvidia-([a-z0-9-]+?)-cu(\d+)$")
_CUPY = re.compile(r"^cupy-cuda(\d+)x?$")
FRAMEWORKS = {"torch": "PyTorch", "pytorch": "PyTorch", "tensorflow": "TensorFlow", "tensorflow-gpu": "TensorFlow",
              "jax": "JAX", "jaxlib": "JAX", "vllm": "vLLM", "triton": "Triton", "paddlepaddle-gpu": "PaddlePaddle",
              "mxnet": "MXNet", "onnxruntime-gpu": "ONNX Runtime", "torchvision": "torchvision",
              "torchaudio": "torchaudio", "transformers": "Transformers", "deepspeed": "DeepSpeed"}
_NV_COMPONENT = {"cudnn": "cudnn", "nccl": "nccl", "cuda-runtime": "cuda", "cuda-nvcc": "cuda"}
NVML_PACKAGES = frozenset({"pynvml", "nvidia-ml-py", "nvidia-ml-py3", "py3nvml"})
_CONDA_CUDA = {"pytorch-cuda": "cuda", "cudatoolkit": "cuda", "cuda-version": "cuda", "cuda-toolkit": "cuda",
               "cudnn": "cudnn", "nccl": "nccl"}


def cuda_version(tag: str) -> str:
    """``121`` -> ``12.1``, ``118`` -> ``11.8``, ``12`` -> ``12``."""
    return f"{tag[:-1]}.{tag[-1]}" if len(tag) == 3 else tag


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.lower())


def scan_requirement(spec: str, line: int, col: int = 1, *, conda: bool = False) -> Iterator[Record]:
    """Analyse one requirement string (nothing when it is not a requirement at all)."""
    m = REQ.match(spec)
    if not m or (m.group(3) == "=" and not conda):
        return
    name, extras, op, version = norm(m.group(1)), m.group(2) or "", m.group(3) or "", m.group(4) or ""
    url = _DIRECT_URL.search(spec[m.end():]) if not op else None
    if url:  # xformers @ https://download.pytorch.org/whl/cu121/xformers-0.0.28.post1-cp311-...whl
        wheel = _WHEEL_VERSION.search(url.group(0))
        version = wheel.group(1).replace("%2B", "+") if wheel else ""
        if not wheels.CUDA_LOCAL_TAG.search(version):  # a +cu118 wheel is reported as a CUDA build below
            yield from scan_index_option(url.group(0), line)
    if any(t in version for t in ("${", "$(", "{{", "%")):
        version = ""  # a template (CI matrix, shell variable): the version is not written here
    yield Count("requirements")
    if op in ("==", "===") or (conda and op == "=" and version):
        yield Count("pinned")
    if conda and name in _CONDA_CUDA:
        yield from _conda_cuda(name, version, spec, line, col)
        return
    yield from _package(name, extras, version, spec, line, col)


def _package(name: str, extras: str, version: str, spec: str, line: int, col: int) -> Iterator[Record]:
    tag = wheels.CUDA_LOCAL_TAG.search(version)
    base_version = version.split("+")[0]
    if name in FRAMEWORKS:
        yield Fact("framework", FRAMEWORKS[name], base_version, line, spec)
    if tag:
        yield Fact("cuda", "CUDA", cuda_version(tag.group(1)), line, spec)
        yield Hit(rules.S102, line, col, f"{name}=={version} is a CUDA {cuda_version(tag.group(1))} build")
    elif "cuda" in extras.lower():
        yield Hit(rules.S102, line, col, f"{name}{extras} selects the CUDA build of {name}")
    nv = NVIDIA_WHEEL.match(name)
    cupy = _CUPY.match(name)
    if nv:
        kind = _NV_COMPONENT.get(nv.group(1))
        if kind:
            yield Fact(kind, kind.upper() if kind != "cudnn" else "cuDNN", base_version, line, spec)
        yield Hit(rules.S102, line, col, f"{name} is an NVIDIA CUDA {nv.group(2)} library wheel")
    elif cupy:
        yield Hit(rules.S102, line, col, f"{name} is the CUDA {cupy.group(1)} build of CuPy")
    if name in NVML_PACKAGES:
        yield Hit(rules.P103, line, col, f"{name} provides NVML bindings (NVIDIA only; use amdsmi)")
    yield (PluginRef(name, base_version, line, "requirement"))


def _conda_cuda(name: str, version: str, spec: str, line: int, col: int) -> Iterator[Record]:
    kind = _CONDA_CUDA[name]
    yield Fact(kind, kind.upper() if kind != "cudnn" else "cuDNN", version, line, spec)
    if kind == "cuda":
        yield Hit(rules.S102, line, col, f"conda package {spec.strip()} selects a CUDA {version} build")
    else:
        yield Hit(rules.S101, line, col, f"conda package {spec.strip()} pins {kind} {version}")


_ROCM_INDEX = re.compile(r"/whl/(?:nightly/)?rocm(\d+\.\d+(?:\.\d+)?)")


def scan_index_option(text: str, line: int) -> Iterator[Record]:
    """``--extra-index-url``/``--index-url``/``-f`` pointing at a CUDA wheel index."""
    m = _CU_INDEX.search(text)
    if m:
        ver = cuda_version(m.group(1))
        yield Fact("cuda", "CUDA", ver, line, text)
        yield Hit(rules.S102, line, m.start() + 2, f"wheel index for CUDA {ver} builds ({text.strip()[:80]})")
    rocm = _ROCM_INDEX.search(text)
    if rocm:  # the project already installs ROCm builds (PyTorch's /whl/rocm6.2 index)
        yield Fact("rocm", "ROCm", rocm.group(1), line, text)
        yield from rocm_path.sign(line, rocm.start() + 1, f"ROCm {rocm.group(1)} wheel index")


def scan_requirements_file(text: str) -> Iterator[Record]:
    """A pip requirements file, read by :func:`cuda2rocm.source.formats.requirements.read_requirements`."""
    index = LineIndex(text)
    for ln in read_requirements(text).lines:
        if ln.kind == "option" or ln.editable:
            yield from scan_index_option(_joined(ln.code.src), ln.line)
        elif ln.spec is not None:
            line, col = index.line_col(ln.spec.offset)
            yield from scan_requirement(_joined(ln.spec.src), line, col)


def _joined(src: str) -> str:
    """A logical line's text with its continuations joined."""
    return re.sub(r"\\\r?\n\s*", " ", src) if "\\" in src else src


def scan_conda_args(args: str, line: int) -> Iterator[Record]:
    """The package specs of a ``conda install``/``mamba install`` command line (``pytorch=2.1.1``,
    ``"pytorch-cuda=12.1"``); options and their values (``-c nvidia``, ``-n env``) are skipped."""
    words = [w.strip("'\"") for w in args.split()]
    for i, word in enumerate(words):
        if word.startswith("-") or (i > 0 and words[i - 1] in ("-c", "--channel", "-n", "--name", "-p", "--prefix")):
            continue
        if word in ("&&", ";", "|", "||"):
            break
        name, _, rest = word.partition("=")
        if rest.count("=") == 1 and not rest.startswith("="):  # name=version=build: the build string is not a pin
            word = f"{name}={rest.split('=')[0]}"
        yield from scan_requirement(word, line, conda=True)


_GIT_URL = re.compile(r"(?:[\w-]+\s*@\s*)?git\+https?://[^/]+/([\w.-]+/[\w.-]+?)(?:\.git)?(?:@([\w.+-]+))?(?:[#&].*)?$")


def _git_requirement(url: str, line: int) -> Iterator[Record]:
    """``pip install git+https://github.com/state-spaces/mamba@v2.2.4``: the plugin that repository is."""
    m = _GIT_URL.match(url)
    if m is None:
        return
    yield from git_repository_requirement(m.group(1), line, (m.group(2) or "").removeprefix("v"))


def git_repository_requirement(repository: str, line: int, version: str = "") -> Iterator[Record]:
    """A plugin installed from its repository (``pip install git+...``, ``git clone ... && pip install .``)."""
    from cuda2rocm import knowledge

    plugin = knowledge.plugin_for_repository(repository)
    if plugin is not None:
        yield (PluginRef(plugin.key, version if re.fullmatch(r"\d[\w.]*", version) else "", line,
                                            "requirement"))


_TEMPLATE = re.compile(r"\$?\{\{.*?\}\}")


def scan_pip_args(args: str, line: int) -> Iterator[Record]:
    """The arguments of a ``pip install`` command line (Dockerfile RUN, scripts, CI)."""
    words = _TEMPLATE.sub(" $TEMPLATE ", args).split()  # ${{ matrix.x }} is one (unknown) word, not a package
    for i, word in enumerate(words):
        if word.startswith("-"):
            if word.startswith(("--index-url", "--extra-index-url", "-f", "--find-links", "-i")):
                yield from scan_index_option(" ".join(words[i:i + 2]), line)
            continue
        if i > 0 and words[i - 1] in ("-r", "-c", "--requirement", "--constraint", "-e", "--editable"):
            continue
        word = word.strip("'\"")
        if _GIT_URL.match(word):
            yield from _git_requirement(word, line)
        elif REQ.fullmatch(word) or (REQ.match(word) and ("==" in word or "+" in word)):
            yield from scan_requirement(word, line)


def plugin_import(module: str, line: int) -> Iterator[Record]:
    yield (PluginRef(module, "", line, "import"))
