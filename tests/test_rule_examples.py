"""Every registered rule's example runs through the engine that emits the rule, and the rule fires on it.

How each family runs (one table per way, so a new rule without a way to run fails ``test_every_rule_runs``):
  * device (C2R-K): the example is CUDA code, analysed by ``cuda2rocm.hazards.analyze``;
  * api (C2R-A): the example is CUDA code, translated by ``convert``'s engine with the options in ``API_OPTIONS``
    (the example's comment names the same command-line options);
  * scan text rules (C2R-S1xx/S2xx, P, D): the example is the content of the file named in ``EXAMPLE_PATHS``
    (the kind of file the rule reads), scanned as a one-file project;
  * rules on what cannot be written as text (closed binaries C2R-S3xx, input problems C2R-E, numerical
    regressions C2R-R): ``BUILT`` builds the input of the rule's own kind (an ELF library, a malformed file, two
    small tensor captures, two curves, ...) and runs the engine on it. Their documented example is the message.

Exceptions, explicit: ``NEEDS_GPU`` (the smoke checks that compare against an accelerator device; they run on a
machine with a GPU, marked ``gpu``).
"""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from cuda2rocm.hazards import analyze
from cuda2rocm.rules import RULES, Rule, load_all
from cuda2rocm.scan.api import scan
from cuda2rocm.source.tokens import tokenize
from cuda2rocm.translate.engine import translate_text
from cuda2rocm.translate.options import Options

load_all()

API_OPTIONS = {
    "C2R-A103": Options(target_rocm="5.1"),
    "C2R-A105": Options(target_rocm="5.2"),
    "C2R-A108": Options(roc=True),
    "C2R-A109": Options(fix_hazards=True, target_rocm="5.2"),
    "C2R-A120": Options(roc=True),
    "C2R-A121": Options(target_rocm="5.2"),
    "C2R-A116": Options(launch_syntax="ggl"),
}

#: the file a scan rule's example is the content of
EXAMPLE_PATHS = {
    "C2R-S101": "Dockerfile", "C2R-S102": "requirements.txt", "C2R-S103": "kernels/scale.cu",
    "C2R-S104": "src/engine.cpp", "C2R-S105": "setup.py", "C2R-S106": "kernels.py", "C2R-S107": "kernels.py",
    "C2R-S108": "kernels.py", "C2R-S109": "src/arrays.cu", "C2R-S110": "CMakeLists.txt",
    "C2R-S111": "CMakeLists.txt", "C2R-S112": "src/gemm.cu", "C2R-S113": "CMakeLists.txt",
    "C2R-S114": "src/mon.cpp", "C2R-S115": ".bazelrc",
    "C2R-S201": "requirements.txt", "C2R-S202": "requirements.txt", "C2R-S203": "requirements.txt",
    "C2R-S204": "requirements.txt",
    "C2R-P101": "app.py", "C2R-P102": "app.py", "C2R-P103": "app.py", "C2R-P104": "app.py", "C2R-P105": "app.py",
    "C2R-P106": "app.py", "C2R-P107": "app.py", "C2R-P108": "app.py", "C2R-P109": "app.py", "C2R-P110": "app.py",
    "C2R-P111": "app.py", "C2R-P112": "app.py", "C2R-P113": "app.py", "C2R-P114": "kernels.py",
    "C2R-D101": "Dockerfile", "C2R-D102": "k8s/deploy.yaml", "C2R-D103": "Dockerfile", "C2R-D104": "Dockerfile",
    "C2R-D105": "docker-compose.yml", "C2R-D106": "launch.sh", "C2R-D107": ".github/workflows/ci.yml",
    "C2R-D108": "launch.sh", "C2R-D109": "Dockerfile", "C2R-D110": "Dockerfile",
}

CC = shutil.which("gcc") or shutil.which("cc")


def _scanned(root: Path) -> set[str]:
    return {f.rule for f in scan(root).findings}


def _run(cwd: Path, *args: str) -> None:
    subprocess.run(args, check=True, cwd=cwd, capture_output=True)


def _elf_library(root: Path, name: str, needed: str = "libcublas.so.12") -> Path:
    """A real shared library (built with the C compiler) that links ``needed`` (a stub with that soname)."""
    if not CC:
        pytest.skip("needs a C compiler")
    work = root / ".build"
    work.mkdir(parents=True, exist_ok=True)
    (work / "stub.c").write_text("int cublasCreate_v2(void** h) { return 0; }\n")
    (work / "use.c").write_text("int cublasCreate_v2(void**);\nint f(void) { return cublasCreate_v2(0); }\n")
    _run(work, CC, "-shared", "-fPIC", "-o", needed, f"-Wl,-soname,{needed}", "stub.c")
    out = root / name
    out.parent.mkdir(parents=True, exist_ok=True)
    _run(work, CC, "-shared", "-fPIC", "-o", str(out), "use.c", "-L.", f"-l:{needed}")
    shutil.rmtree(work)
    return out


def _with_fatbin(root: Path, name: str) -> Path:
    lib = _elf_library(root, "plain.so")
    if not shutil.which("objcopy"):
        pytest.skip("needs objcopy")
    (root / "blob").write_bytes(b"\x50\xed\x55\xba" + bytes(60))  # the fatbin magic
    out = root / name
    out.parent.mkdir(parents=True, exist_ok=True)
    _run(root, "objcopy", "--add-section", ".nv_fatbin=blob", str(lib), str(out))
    lib.unlink()
    (root / "blob").unlink()
    return out


def s301(tmp: Path) -> set[str]:
    _elf_library(tmp, "third_party/libfastgemm.so")
    return _scanned(tmp)


def s302(tmp: Path) -> set[str]:
    _with_fatbin(tmp, "lib/_kernels.cpython-311-x86_64-linux-gnu.so")
    return _scanned(tmp)


def s303(tmp: Path) -> set[str]:
    (tmp / "kernels").mkdir()
    (tmp / "kernels" / "attention_sm80.cubin").write_bytes(b"\x7fELF" + bytes(60))
    return _scanned(tmp)


def s304(tmp: Path) -> set[str]:
    lib = _with_fatbin(tmp / "build", "libops.so")
    (tmp / "wheels").mkdir()
    with zipfile.ZipFile(tmp / "wheels" / "fused_ops-0.3-cp311-cp311-linux_x86_64.whl", "w") as zf:
        zf.write(lib, "fused_ops/libops.so")
    shutil.rmtree(tmp / "build")
    return _scanned(tmp)


def e101(tmp: Path) -> set[str]:
    """A path the walker lists as a file but that cannot be read (a directory where a file is expected)."""
    from cuda2rocm.files.walk import Candidate
    from cuda2rocm.scan.filescan import scan_file

    (tmp / "secret.cu").mkdir()
    report = scan_file(Candidate(str(tmp / "secret.cu"), "secret.cu", "cuda", 10), "MI300X", 2**20)
    return {p.extra["rule"] for p in report.problems}


def e102(tmp: Path) -> set[str]:
    (tmp / "old.cu").write_bytes(b"\x00\x01\x02\x7fELF" + bytes(range(256)) * 8)
    return _scanned(tmp)


def e103(tmp: Path) -> set[str]:
    (tmp / "legacy.cpp").write_bytes(b"// caf\xe9\nint main() { return 0; }\n")
    return _scanned(tmp)


def e104(tmp: Path) -> set[str]:
    with open(tmp / "generated_tables.cu", "wb") as f:
        f.truncate(200 * 2**20)  # sparse: 200 MB on paper, nothing on disk
    return _scanned(tmp)


def e105(tmp: Path) -> set[str]:
    (tmp / "k8s").mkdir()
    (tmp / "k8s" / "deploy.yaml").write_text("apiVersion: v1\nkind: Pod\nspec: [a, b\n  c: d\n")
    return _scanned(tmp)


def e106(tmp: Path) -> set[str]:
    (tmp / "vendor").mkdir()
    (tmp / "vendor" / "self").symlink_to("..")
    (tmp / "main.cu").write_text("__global__ void k() {}\n")
    return _scanned(tmp)


def _compare(tmp: Path, base: dict[str, np.ndarray], cand: dict[str, np.ndarray]) -> set[str]:
    from cuda2rocm.regress.compare import compare
    from cuda2rocm.regress.findings import compare_findings

    np.savez(tmp / "base.npz", **base)  # type: ignore[arg-type]
    np.savez(tmp / "cand.npz", **cand)  # type: ignore[arg-type]
    return {f.rule for f in compare_findings(compare(tmp / "base.npz", tmp / "cand.npz"))}


X = np.linspace(-1.0, 1.0, 64, dtype=np.float32)


def r101(tmp: Path) -> set[str]:
    return _compare(tmp, {"layer3": X}, {"layer3": X * np.float32(1.02)})


def r102(tmp: Path) -> set[str]:
    y = X.copy()
    y[7] = np.nan
    return _compare(tmp, {"softmax": X}, {"softmax": y})


def r103(tmp: Path) -> set[str]:
    return _compare(tmp, {"output": X}, {"output": X.astype(np.float16)})


def r104(tmp: Path) -> set[str]:
    return _compare(tmp, {"output": X, "flash_attn.core": X}, {"output": X})


def r105(tmp: Path) -> set[str]:
    torch = pytest.importorskip("torch")  # captures are written with safetensors' torch API
    from cuda2rocm.regress.compare import compare
    from cuda2rocm.regress.findings import compare_findings
    from cuda2rocm.regress.store import write_capture
    from cuda2rocm.results.regress import Entry, Manifest

    entries = (Entry(name="x", dtype="F32", shape=(64,)),)
    x = torch.from_numpy(X)
    write_capture(tmp / "a", Manifest(entries=entries, seed=0, inputs_sha256="3f2a"), {"x": x})
    write_capture(tmp / "b", Manifest(entries=entries, seed=0, inputs_sha256="9bc1"), {"x": x})
    return {f.rule for f in compare_findings(compare(tmp / "a", tmp / "b"))}


def _smoke(model: object, inputs: object) -> set[str]:
    from cuda2rocm.regress.findings import smoke_findings
    from cuda2rocm.regress.smoke import smoke

    return {f.rule for f in smoke_findings(smoke(model, inputs, "cpu", oom_check=False))}


def r202(tmp: Path) -> set[str]:
    torch = pytest.importorskip("torch")

    class Fp8Add(torch.nn.Module):
        def forward(self, x: object) -> object:
            return x.to(torch.float8_e4m3fn) + 1  # type: ignore[attr-defined]

    return _smoke(Fp8Add(), torch.randn(4))


def r204(tmp: Path) -> set[str]:
    torch = pytest.importorskip("torch")

    class LuOfLinear(torch.nn.Module):  # autocast runs the Linear in bf16/fp16; the CPU LU has no such kernel
        def __init__(self) -> None:
            super().__init__()
            self.proj = torch.nn.Linear(4, 4)

        def forward(self, x: object) -> object:
            return torch.linalg.lu_factor(self.proj(x))[0]

    return _smoke(LuOfLinear(), torch.randn(2, 4, 4))


def r205(tmp: Path) -> set[str]:
    torch = pytest.importorskip("torch")

    class StackRows(torch.nn.Module):  # torch.stack of nothing: an empty batch crashes
        def forward(self, x: object) -> object:
            return torch.stack([row.sum() for row in x])  # type: ignore[attr-defined]

    return _smoke(StackRows(), torch.randn(3, 4))


def _curves(tmp: Path, cand: list[float]) -> set[str]:
    from cuda2rocm.regress.curves import compare_curves, read_curves
    from cuda2rocm.regress.findings import curve_findings

    base = [2.0 - 0.005 * i for i in range(200)]
    (tmp / "base.csv").write_text("step,loss\n" + "".join(f"{i},{v}\n" for i, v in enumerate(base)))
    (tmp / "cand.csv").write_text("step,loss\n" + "".join(f"{i},{v}\n" for i, v in enumerate(cand)))
    report = compare_curves(read_curves(tmp / "base.csv")["loss"], read_curves(tmp / "cand.csv")["loss"])
    return {f.rule for f in curve_findings("cand.csv", report)}


def r301(tmp: Path) -> set[str]:  # leaves the band from step 120, ends where the baseline ends
    return _curves(tmp, [2.0 - 0.005 * i + (0.3 if 120 <= i < 157 else 0.0) for i in range(200)])


def r302(tmp: Path) -> set[str]:  # stops improving: final 1.6 against the baseline's 1.0
    return _curves(tmp, [max(2.0 - 0.005 * i, 1.6) for i in range(200)])


def r303(tmp: Path) -> set[str]:
    from cuda2rocm.regress.findings import metric_findings
    from cuda2rocm.regress.metrics import Threshold, compare_metrics

    reports = compare_metrics({"accuracy": 0.912}, {"accuracy": 0.871}, {"accuracy": Threshold(max_drop_abs=0.005)})
    return {f.rule for f in metric_findings("metrics.json", reports)}


def r304(tmp: Path) -> set[str]:
    pytest.importorskip("torch")
    from cuda2rocm.regress.capture import CaptureOptions
    from cuda2rocm.regress.findings import repro_findings
    from cuda2rocm.regress.run import repro_check

    (tmp / "model.py").write_text(
        "import numpy as np\nimport torch\n\n\n"
        "class Noisy(torch.nn.Module):  # a numpy Generator made without a seed: not covered by the run's seed\n"
        "    def forward(self, x):\n"
        "        noise = np.random.default_rng().standard_normal(x.shape).astype('float32')\n"
        "        return x + torch.from_numpy(noise)\n\n\n"
        "def factory():\n    return Noisy(), torch.ones(2, 3)\n")
    result = repro_check(f"{tmp / 'model.py'}:factory", CaptureOptions(device="cpu", seed=0))
    return {f.rule for f in repro_findings("model.py", 0, result)}


BUILT: dict[str, Callable[[Path], set[str]]] = {
    "C2R-S301": s301, "C2R-S302": s302, "C2R-S303": s303, "C2R-S304": s304,
    "C2R-E101": e101, "C2R-E102": e102, "C2R-E103": e103, "C2R-E104": e104, "C2R-E105": e105, "C2R-E106": e106,
    "C2R-R101": r101, "C2R-R102": r102, "C2R-R103": r103, "C2R-R104": r104, "C2R-R105": r105,
    "C2R-R202": r202, "C2R-R204": r204, "C2R-R205": r205,
    "C2R-R301": r301, "C2R-R302": r302, "C2R-R303": r303, "C2R-R304": r304,
}

#: smoke checks that compare against an accelerator: on the CPU every op is on the device and the math
#: attention path is the normal one, so these run only where a GPU is (``gpu`` marker)
NEEDS_GPU = {
    "C2R-R201": "an op that runs on the CPU while the model runs on the GPU",
    "C2R-R203": "scaled_dot_product_attention forced onto the math path on the GPU",
}


def _device_rules() -> list[Rule]:
    return sorted((r for r in RULES.values() if r.family == "device"), key=lambda r: r.id)


def _api_rules() -> list[Rule]:
    return sorted((r for r in RULES.values() if r.family == "api"), key=lambda r: r.id)


def _build_rules() -> list[Rule]:
    return sorted((r for r in RULES.values() if r.family == "build"), key=lambda r: r.id)


def _build_input(rule: Rule) -> tuple[str, str]:
    """(file name, text) for a build rule's example: CMake for B1xx (and B7xx, --dual), a Makefile for B2xx,
    setup.py for B4xx, Bazel for B5xx; nvcc options (B3xx) as a Makefile's NVCCFLAGS, or a recipe when the example
    is a whole nvcc command."""
    if rule.id.startswith(("C2R-B1", "C2R-B7")):  # B7xx: --dual, shown on CMake
        return "CMakeLists.txt", rule.example + "\n"
    if rule.id.startswith("C2R-B2"):
        return "Makefile", rule.example + "\n"
    if rule.id.startswith("C2R-B4"):
        return "setup.py", rule.example + "\n"
    if rule.id.startswith("C2R-B5"):  # Bazel: a BUILD file, MODULE.bazel for repositories, .bazelrc for configs
        name = {"C2R-B505": "MODULE.bazel", "C2R-B508": ".bazelrc", "C2R-B509": ".bazelrc"}.get(rule.id, "BUILD.bazel")
        return name, rule.example + "\n"
    if rule.id.startswith("C2R-B6"):  # Python dependencies: a requirements file, or a conda file for B608
        return ("environment.yml" if rule.id == "C2R-B608" else "requirements.txt"), rule.example + "\n"
    if rule.example.startswith("nvcc "):
        return "Makefile", f"k.ptx: k.cu\n\t{rule.example}\n"
    return "Makefile", f"NVCCFLAGS = {rule.example}\n"


#: build rules whose example needs a non-default option: a target ROCm without PyTorch wheels of its own
BUILD_OPTIONS: dict[str, dict[str, str]] = {"C2R-B609": {"rocm": "7.2"}}


@pytest.mark.parametrize("rule", _build_rules(), ids=lambda r: r.id)
def test_build_rule_example_fires(rule: Rule) -> None:
    from cuda2rocm.migrate.base import BuildOptions
    from cuda2rocm.migrate.build import migrate_file

    name, text = _build_input(rule)
    renames = {"k.cu": "k.hip", "reduce.cu": "reduce.hip", "csrc/kernels.cu": "csrc/kernels.hip"}
    result = migrate_file(name, text, BuildOptions(renames=renames, dual=rule.id.startswith("C2R-B7"),
                                                   **BUILD_OPTIONS.get(rule.id, {})))
    assert not result.problems, result.problems
    assert rule.id in {f.rule for f in result.findings}, (text, [f.rule for f in result.findings])


def _deploy_rules() -> list[Rule]:
    return sorted((r for r in RULES.values() if r.family == "deploy"), key=lambda r: r.id)


def _deploy_input(rule: Rule) -> tuple[str, str, dict[str, object]]:
    """(file name, text, DeployOptions fields) for a deploy rule's example: a Dockerfile unless the first line
    is ``# file: <path>``; a ``# options: canary=2 validation_job=true`` line sets options (both lines stay in
    the text: they are comments in every kind that has them)."""
    name, options = "Dockerfile", {}
    for line in rule.example.splitlines()[:2]:
        if line.startswith("# file: "):
            name = line[len("# file: "):].strip()
        elif line.startswith("# options: "):
            for word in line[len("# options: "):].split():
                key, _, value = word.partition("=")
                options[key] = int(value) if value.isdigit() else value.lower() in ("1", "true", "yes")
    return name, rule.example + "\n", options


@pytest.mark.parametrize("rule", _deploy_rules(), ids=lambda r: r.id)
def test_deploy_rule_example_fires(rule: Rule, tmp_path: Path) -> None:
    from cuda2rocm.migrate.deploy.options import DeployOptions
    from cuda2rocm.migrate.deploy.run import migrate_deploy

    name, text, options = _deploy_input(rule)
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text)
    run = migrate_deploy(tmp_path, options=DeployOptions(**options))  # type: ignore[arg-type]
    assert not run.failed and not run.problems, [o.detail.problems for o in run.failed]
    assert rule.id in {f.rule for f in run.findings}, (text, [f.rule for f in run.findings])


def test_build_options_matter() -> None:
    """The options in BUILD_OPTIONS are what makes those examples fire (with defaults they do not)."""
    from cuda2rocm.migrate.base import BuildOptions
    from cuda2rocm.migrate.build import migrate_file

    for rule_id in BUILD_OPTIONS:
        name, text = _build_input(RULES[rule_id])
        assert rule_id not in {f.rule for f in migrate_file(name, text, BuildOptions()).findings}


def test_every_rule_runs() -> None:
    ways = [{r.id for r in _device_rules()}, {r.id for r in _api_rules()}, set(EXAMPLE_PATHS), set(BUILT),
            set(NEEDS_GPU), {r.id for r in _build_rules()}, {r.id for r in _deploy_rules()}]
    assert sum(len(w) for w in ways) == len(set().union(*ways)), "a rule is run two ways"
    assert set().union(*ways) == set(RULES), f"rules without a way to run: {sorted(set(RULES) - set().union(*ways))}"


@pytest.mark.parametrize("rule", _device_rules(), ids=lambda r: r.id)
def test_device_rule_example_fires(rule: Rule) -> None:
    found = {f.rule for f in analyze(tokenize(rule.example), rule.example, "example.cu")}
    assert rule.id in found, (rule.example, found)


@pytest.mark.parametrize("rule", _api_rules(), ids=lambda r: r.id)
def test_api_rule_example_fires(rule: Rule) -> None:
    result = translate_text(rule.example, "example.cu", API_OPTIONS.get(rule.id, Options())).result
    found = {f.rule for f in getattr(result, "findings", ())}
    assert rule.id in found, (rule.example, result)


def test_api_options_matter() -> None:
    """The options in API_OPTIONS are what makes those examples fire (with defaults they do not)."""
    for rule_id in API_OPTIONS:
        result = translate_text(RULES[rule_id].example, "example.cu", Options()).result
        assert rule_id not in {f.rule for f in getattr(result, "findings", ())}, rule_id


@pytest.mark.parametrize("rule_id", sorted(EXAMPLE_PATHS))
def test_scan_rule_example_fires(rule_id: str, tmp_path: Path) -> None:
    path = tmp_path / EXAMPLE_PATHS[rule_id]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(RULES[rule_id].example + "\n", encoding="utf-8")
    found = _scanned(tmp_path)
    assert rule_id in found, (RULES[rule_id].example, found)


@pytest.mark.parametrize("rule_id", sorted(BUILT))
def test_built_example_fires(rule_id: str, tmp_path: Path) -> None:
    found = BUILT[rule_id](tmp_path)
    assert rule_id in found, found


@pytest.mark.gpu
@pytest.mark.parametrize("rule_id", sorted(NEEDS_GPU))
def test_gpu_smoke_example_fires(rule_id: str) -> None:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip(f"needs a GPU: {NEEDS_GPU[rule_id]}")
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from cuda2rocm.regress.findings import smoke_findings
    from cuda2rocm.regress.smoke import smoke

    class Attn(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.proj = torch.nn.Linear(16, 48)

        def forward(self, x: object) -> object:
            q, k, v = self.proj(x).view(2, 5, 3, 2, 8).permute(2, 0, 3, 1, 4)  # type: ignore[operator]
            if rule_id == "C2R-R201":
                return (q.cpu() + 1).sum()  # the sum runs on the CPU
            return torch.nn.functional.scaled_dot_product_attention(q, k, v)

    x = torch.randn(2, 5, 16)
    if rule_id == "C2R-R203":
        with sdpa_kernel(SDPBackend.MATH):
            report = smoke(Attn(), x, "cuda", oom_check=False)
    else:
        report = smoke(Attn(), x, "cuda", oom_check=False)
    assert rule_id in {f.rule for f in smoke_findings(report)}


def test_examples_are_not_empty_and_gpu_exceptions_are_regress_smoke_rules() -> None:
    assert all(r.example.strip() for r in RULES.values())
    assert all(RULES[r].family == "regress" and r.startswith("C2R-R2") for r in NEEDS_GPU)
