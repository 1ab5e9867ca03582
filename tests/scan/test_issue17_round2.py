"""Issue 17, round two: device printf and std:: calls, #pragma weak aliases and NVML as scan reports them.

Each class has positives and precision cases (look-alikes that must not be reported); the C library facts are
proved with the real hipcc where it is installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cuda2rocm.files.classify import classify
from cuda2rocm.files.walk import Candidate
from cuda2rocm.hazards import analyze, apply_edits, fixes
from cuda2rocm.model import Finding
from cuda2rocm.scan.filescan import scan_file
from cuda2rocm.source.tokens import tokenize


def _scan(tmp_path: Path, name: str, text: str) -> list[Finding]:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    cand = Candidate(str(path), name, classify(name) or "yaml", path.stat().st_size)
    report = scan_file(cand, "MI300X", 2**24)
    assert not report.problems, report.problems
    return report.findings


def _project(tmp_path: Path, name: str, text: str) -> list[Finding]:
    """Findings of a whole-project scan (first uses of names the mapping does not know are judged there)."""
    from cuda2rocm.scan.api import scan

    (tmp_path / name).write_text(text, encoding="utf-8")
    return list(scan(tmp_path).findings)


def _hits(findings: list[Finding], rule: str) -> list[tuple[int, str]]:
    return sorted((f.line, f.message) for f in findings if f.rule == rule)


# --- device printf and std:: C library calls (C2R-K509) ---

PRINTF = """#include <cstdio>
#include <cstdlib>
struct Log { __device__ void printf(const char*); };
__global__ void k(float* p, Log& log) {
  printf("a %f\\n", p[0]);
  std::printf("b\\n");
  void* q = std::malloc(16); ::std::free(q);
  log.printf("member");
  int printf_calls = 0; p[1] = printf_calls;
}
void host() { printf("host\\n"); std::printf("h\\n"); void* q = std::malloc(3); std::free(q); }
"""


def test_device_printf_every_site_and_not_host_or_members(tmp_path: Path) -> None:
    found = _scan(tmp_path, "k.cu", PRINTF)
    lines = [line for line, _ in _hits(found, "C2R-K509")]
    assert sorted(set(lines)) == [5, 6, 7], lines  # device printf, std::printf, std::malloc/free; not 8-11
    std_printf = [m for line, m in _hits(found, "C2R-K509") if line == 6 and "std::printf" in m]
    assert std_printf == ["'std::printf' in device code names the host function under hipcc; convert rewrites it "
                          "to HIP's device 'printf'"], "scan says what convert's dialect pass does"
    malloc = [m for line, m in _hits(found, "C2R-K509") if line == 7]
    assert len(malloc) == 2 and all("call the global" in m for m in malloc)


def test_std_malloc_fix_is_safe_and_idempotent() -> None:
    text = PRINTF.split("void host()")[0]
    fixed = apply_edits(text, fixes(tokenize(text), text, "k.cu"))
    assert "void* q = malloc(16); free(q);" in fixed
    assert 'std::printf("b\\n")' in fixed, "std::printf is convert's rewrite, not a hazard fix (no overlap)"
    assert fixes(tokenize(fixed), fixed, "k.cu") == []


def test_convert_rewrites_are_read_from_convert() -> None:
    from cuda2rocm.hazards import devicecalls
    from cuda2rocm.translate.passes import dialect

    assert devicecalls.convert_rewrites() is dialect.DEVICE_GLOBAL
    assert devicecalls.convert_rewrites() <= devicecalls.HOST_ONLY_STD


@pytest.mark.hipcc
@pytest.mark.skipif(shutil.which("hipcc") is None, reason="needs a real hipcc")
def test_std_c_library_calls_fail_under_hipcc_and_the_fix_compiles(tmp_path: Path) -> None:
    kernel = ("#include <hip/hip_runtime.h>\n#include <cstdlib>\n"
              "__global__ void k(float** out) {\n  float* b = static_cast<float*>(std::malloc(16));\n"
              "  out[0] = b;\n  std::free(b);\n}\n")
    env = {**os.environ, "HIP_PLATFORM": "amd"}

    def build(text: str) -> subprocess.CompletedProcess[str]:
        src = tmp_path / "k.hip"
        src.write_text(text, encoding="utf-8")
        return subprocess.run(["hipcc", "--offload-arch=gfx90a", "-c", str(src), "-o", str(tmp_path / "k.o")],
                              capture_output=True, text=True, timeout=300, check=False, env=env)

    before = build(kernel)
    assert before.returncode != 0 and "__host__ function 'malloc'" in before.stderr
    fixed = apply_edits(kernel, fixes(tokenize(kernel), kernel, "k.cu"))
    after = build(fixed)
    assert after.returncode == 0, after.stderr


def test_printf_outside_device_code_and_in_comments_is_not_reported() -> None:
    text = ('#include <cstdio>\n// printf("x") in a kernel comment\n__global__ void k(int* p) { p[0] = 1; }\n'
            'int main() { const char* s = "printf("; printf("%s", s); }\n')
    assert not [f for f in analyze(tokenize(text), text, "k.cu") if f.rule == "C2R-K509"]


# --- #pragma weak aliases (convert's C2R-A115) ---

def test_weak_alias_of_host_entity_reported_as_convert_does(tmp_path: Path) -> None:
    text = ("int real_counter = 0;\n#pragma weak counter_alias = real_counter\n"
            "__device__ int dev_counter;\n#pragma weak dev_alias = dev_counter\n#pragma weak lone_symbol\n"
            "__global__ void k(int* p) { p[0] = 1; }\n")
    found = _scan(tmp_path, "w.cu", text)
    a115 = _hits(found, "C2R-A115")
    assert [line for line, _ in a115] == [2], a115  # a device entity's alias and a plain weak symbol are fine
    assert "kept for the host pass" in a115[0][1]


def test_weak_pragma_in_host_only_cpp_is_not_reported(tmp_path: Path) -> None:
    text = "#include <cuda_runtime.h>\nint real = 0;\n#pragma weak alias_of_real = real\n"
    assert not _hits(_scan(tmp_path, "h.cpp", text), "C2R-A115")


# --- NVML -> AMD SMI (C2R-S114) ---

NVML = """#include <nvml.h>
int main() {
  nvmlInit_v2();
  nvmlDevice_t dev;
  nvmlDeviceGetHandleByIndex(0, &dev);
  nvmlUtilization_t u; nvmlDeviceGetUtilizationRates(dev, &u);
  nvmlDeviceGetUtilizationRates(dev, &u);
  nvmlDeviceGetSomethingNew(dev);
  nvmlShutdown();
}
"""


def test_nvml_names_get_their_amdsmi_rewrite(tmp_path: Path) -> None:
    found = _project(tmp_path, "mon.cpp", NVML)
    s114 = dict(_hits(found, "C2R-S114"))
    assert s114[1].startswith("NVML nvml.h -> AMD SMI amd_smi/amdsmi.h")
    assert s114[3] == "NVML nvmlInit_v2 -> AMD SMI amdsmi_init: amdsmi_init(AMDSMI_INIT_AMD_GPUS)"
    assert s114[4] == "NVML nvmlDevice_t -> AMD SMI amdsmi_processor_handle"
    assert any("amdsmi_get_gpu_activity" in m for line, m in _hits(found, "C2R-S114") if line == 6)
    assert 7 not in s114, "first use per file only"
    assert "not in the NVML -> AMD SMI table" in s114[8]
    assert not [f for f in found if f.rule in ("C2R-S109", "C2R-S112")], "no unknown/info findings for NVML"


def test_nvml_look_alikes_are_not_reported(tmp_path: Path) -> None:
    text = ('#include <cuda_runtime.h>\n// nvmlInit() is not called here\nconst char* s = "nvmlShutdown";\n'
            "int nvml_enabled = 0;\nvoid f() { cudaDeviceSynchronize(); }\n")
    found = _project(tmp_path, "x.cpp", text)
    assert not _hits(found, "C2R-S114")


def test_every_nvml_row_names_an_amdsmi_identifier_or_says_why_not() -> None:
    from cuda2rocm.scan.analyzers.apinames import nvml_to_amdsmi

    table = nvml_to_amdsmi()
    assert len(table) >= 30
    for nvml, (amd, note) in table.items():
        assert nvml.startswith(("nvml", "NVML_")), nvml
        assert amd.startswith(("amdsmi_", "AMDSMI_", "TEMPERATURE_TYPE_", "amd_smi/")) or (not amd and note), nvml


# --- CUDA Graphs at every site (C2R-K704 in C++, C2R-P107 in Python), with the knowledge base's ROCm facts ---

GRAPHS_PY = """import torch
import networkx as nx
from torch.cuda import graph as cuda_graph, make_graphed_callables


class Runner:
    def __init__(self, model):
        self.graph = torch.cuda.CUDAGraph()

    def capture(self):
        with torch.cuda.graph(self.graph):
            self.out = self.model(self.static)

    def step(self):
        self.graph.replay()


def other(model, x):
    graph = nx.Graph()
    graph.add_edge(1, 2)
    dag = build_graph()
    dag.replay()
    g2 = torch.cuda.CUDAGraph()
    with cuda_graph(g2):
        pass
    g2.replay()
    fn = make_graphed_callables(model, (x,))
    text = "torch.cuda.graph(g)"  # g2.replay() in a comment
    return fn, text
"""


def test_python_graph_sites_follow_the_data_flow(tmp_path: Path) -> None:
    found = _scan(tmp_path, "runner.py", GRAPHS_PY)
    p107 = _hits(found, "C2R-P107")
    assert [line for line, _ in p107] == [8, 11, 15, 23, 24, 26, 27], p107  # not nx / dag / strings / comments
    assert all("pytorch/pytorch#88202" in m and "beta" in m for _, m in p107), "ROCm facts from the knowledge base"
    assert dict(p107)[15].startswith("replay/capture of a CUDA graph (CUDAGraph.replay())")


def test_graph_named_objects_that_are_not_cuda_graphs(tmp_path: Path) -> None:
    text = ("import torch\nfrom mylib import graph\n\ndef f(g, model):\n    graph(model)\n    g.replay()\n"
            "    model.graph.replay()\n    torch.fx.graph.Graph()\n    x = torch.zeros(1).cuda()\n")
    assert not _hits(_scan(tmp_path, "f.py", text), "C2R-P107")


def test_cpp_graph_sites_quote_the_knowledge_base() -> None:
    from cuda2rocm import knowledge

    text = ("void run(cudaStream_t s, cudaGraph_t graph, cudaGraphExec_t e) {\n"
            "  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n  cudaStreamEndCapture(s, &graph);\n"
            "  cudaGraphInstantiate(&e, graph, 0);\n  cudaGraphLaunch(e, s);\n"
            "  cudaGraphExecUpdate(e, graph, nullptr);\n  cudaGraphExecDestroy(e);\n  cudaGraphDestroy(graph);\n"
            "  int graph_count = 0; (void)graph_count;\n}\n")
    found = [f for f in analyze(tokenize(text), text, "g.cu") if f.rule == "C2R-K704"]
    assert [f.line for f in found] == [2, 3, 4, 5, 6, 7, 8]
    lib = knowledge.get_library("CUDA Graphs")
    assert lib is not None and lib.source and lib.date
    assert all(lib.notes[0] in f.message for f in found)


# --- .bazelrc CUDA configuration (C2R-S115, S110, S101 with inventory) ---

BAZELRC = """# TensorFlow-style rc
build --config=cuda
build:cuda --repo_env=TF_NEED_CUDA=1
build:cuda --crosstool_top=@local_config_cuda//crosstool:toolchain
build:cuda --@local_config_cuda//:enable_cuda
build:cuda --repo_env TF_CUDA_COMPUTE_CAPABILITIES=sm_80,compute_90
build:cuda --action_env=TF_CUDA_VERSION=12.3 \\
    --action_env=TF_CUDNN_VERSION=8.9
build:release_gpu --config=cuda
build:opt --copt=-O3
build --repo_env=TF_NCCL_VERSION=2.18
build --@local_config_cuda//:enable_cuda
build --flag_alias=cuda_archs=@rules_cuda//cuda:archs
test --test_env=SOME_FLAG=1
# build --config=cuda in a comment
try-import %workspace%/.tf_configure.bazelrc
"""


def test_bazelrc_cuda_settings_versions_and_archs(tmp_path: Path) -> None:
    path = tmp_path / ".bazelrc"
    path.write_text(BAZELRC, encoding="utf-8")
    cand = Candidate(str(path), ".bazelrc", "bazelrc", path.stat().st_size)
    report = scan_file(cand, "MI300X", 2**24)
    assert not report.problems, report.problems
    got = {(f.rule, f.line) for f in report.findings}
    assert got == {("C2R-S115", 2), ("C2R-S115", 3), ("C2R-S110", 6), ("C2R-S101", 7), ("C2R-S101", 8),
                   ("C2R-S115", 9), ("C2R-S101", 11), ("C2R-S115", 12)}, sorted(got)
    config = next(f for f in report.findings if f.line == 3)
    assert "config cuda (5 lines from line 3)" in config.message and "C2R-B508" in config.message
    inv = {(c.kind, c.version, c.line) for c in report.components}
    assert {("cuda", "12.3", 7), ("cudnn", "8.9", 8), ("nccl", "2.18", 11)} <= inv


def test_bazelrc_without_cuda_and_broken_quotes(tmp_path: Path) -> None:
    clean = tmp_path / "a" / ".bazelrc"
    clean.parent.mkdir()
    clean.write_text("build --copt=-O2\nbuild:rocm --repo_env=TF_NEED_ROCM=1\n# cuda is mentioned here only\n",
                     encoding="utf-8")
    report = scan_file(Candidate(str(clean), "a/.bazelrc", "bazelrc", clean.stat().st_size), "MI300X", 2**24)
    assert not report.findings and not report.problems
    broken = tmp_path / "b" / ".bazelrc"
    broken.parent.mkdir()
    broken.write_text("build:cuda --copt='-DX\nbuild --config=cuda\n", encoding="utf-8")
    report = scan_file(Candidate(str(broken), "b/.bazelrc", "bazelrc", broken.stat().st_size), "MI300X", 2**24)
    assert [p.line for p in report.problems] == [1], "an unterminated quote is an input problem with its line"


# --- the NVIDIA stack inside NGC images (scan/data/ngc_images.csv) ---

@pytest.mark.parametrize(("ref", "expected"), [
    ("nvcr.io/nvidia/pytorch:24.05-py3", {("cuda", "12.4.1"), ("cudnn", "9.1.0.70"), ("nccl", "2.21.5")}),
    ("nvcr.io/nvidia/tensorflow:21.05-tf2-py3", {("cuda", "11.3.0"), ("cudnn", "8.2.0.51"), ("nccl", "2.9.8")}),
    ("nvcr.io/nvidia/tritonserver:24.05-py3", {("cuda", "12.4")}),
    ("nvcr.io/nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04", {("cuda", "12.4.1"), ("cudnn", "")}),
    ("nvcr.io/nvidia/pytorch:99.01-py3", set()),  # a release the table does not hold: no guess
])
def test_ngc_image_stack_is_inventoried(tmp_path: Path, ref: str, expected: set[tuple[str, str]]) -> None:
    path = tmp_path / "Dockerfile"
    path.write_text(f"FROM {ref}\nRUN echo ok\n", encoding="utf-8")
    report = scan_file(Candidate(str(path), "Dockerfile", "dockerfile", path.stat().st_size), "MI300X", 2**24)
    got = {(c.kind, c.version) for c in report.components if c.kind in ("cuda", "cudnn", "nccl")}
    assert got == expected
    d101 = next(f for f in report.findings if f.rule == "C2R-D101")
    if expected and "nvidia/cuda" not in ref:
        assert "inside, per NVIDIA's release notes" in d101.message and next(iter(sorted(expected)))[1] in d101.message


def test_every_ngc_row_has_its_source_and_date() -> None:
    from cuda2rocm.scan.analyzers.images import ngc_table

    table = ngc_table()
    assert len(table) >= 25
    assert {image for image, _ in table} >= {"nvcr.io/nvidia/pytorch", "nvcr.io/nvidia/tensorflow",
                                              "nvcr.io/nvidia/tritonserver"}
    for (image, tag), stack in table.items():
        assert image.startswith("nvcr.io/nvidia/") and len(tag) == 5 and tag[2] == ".", (image, tag)
        assert stack.cuda[0].isdigit(), (image, tag)
        assert stack.source.startswith("https://docs.nvidia.com/"), stack.source
        assert stack.source.endswith(("(2026-12-01)", "(2026-11-30)")), stack.source


# --- tensor cores at every site (C2R-K501) and async-copy PTX (C2R-K502) ---

def _lines(text: str, rule: str) -> list[int]:
    return sorted({f.line for f in analyze(tokenize(text), text, "k.cu") if f.rule == rule})


def test_wmma_through_using_declarations_every_site() -> None:
    text = ("#include <mma.h>\nusing nvcuda::wmma::mma_sync;\nusing nvcuda::wmma::fill_fragment;\n"
            "template <class F> __device__ void go(F& a, F& c) {\n  fill_fragment(c, 0.0f);\n"
            "  mma_sync(c, a, a, c);\n  load_matrix_sync(a, nullptr, 16);\n}\n")
    # line 7: load_matrix_sync was not brought in by a using-declaration, so it is not nvcuda's here
    assert _lines(text, "C2R-K501") == [1, 2, 3, 5, 6]


def test_own_wmma_like_names_without_the_namespace_are_not_tensor_cores() -> None:
    text = ("namespace mine { struct fragment { float v; }; __device__ void mma_sync(fragment& f) { f.v = 1; } }\n"
            "using namespace mine;\n__global__ void k() { fragment f; mma_sync(f); }\n")
    assert _lines(text, "C2R-K501") == []


def test_cp_async_ptx_is_an_async_copy_finding_as_well_as_ptx() -> None:
    text = ('__device__ void f(unsigned s, const void* g, unsigned bar) {\n'
            '  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(g));\n'
            '  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];"'
            ' :: "r"(s), "l"(g), "r"(bar));\n'
            '  asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(*(float*)0) : "l"(g));\n}\n')
    assert _lines(text, "C2R-K502") == [2, 3]
    found = {f.line: f.message for f in analyze(tokenize(text), text, "k.cu") if f.rule == "C2R-K502"}
    assert "Ampere" in found[2] and "TMA" in found[3]
    assert {2, 3} <= set(_lines(text, "C2R-K301") + _lines(text, "C2R-K303"))


# --- compute-capability arithmetic and SM-version tables (C2R-K804) ---

def test_cc_arithmetic_tables_and_their_comparisons() -> None:
    text = ("#include <cuda_runtime.h>\nbool sm80(const cudaDeviceProp& p) {\n  int cc = p.major * 10 + p.minor;\n"
            "  return cc >= 80;\n}\nint cores(int major, int minor) {\n"
            "  struct E { int sm; int c; };\n  E t[] = {{0x70, 64}, {0x80, 64}, {0x90, 128}, {-1, -1}};\n"
            "  for (int i = 0; t[i].sm != -1; ++i) if (t[i].sm == ((major << 4) + minor)) return t[i].c;\n"
            "  return 0;\n}\n")
    assert _lines(text, "C2R-K804") == [3, 4, 8, 9]


def test_version_arithmetic_that_is_not_a_compute_capability() -> None:
    semver = ("struct Version { int major, minor; };\n"
              "int code(const Version& v) { return v.major * 10 + v.minor; }\n"
              "int plain(int major, int minor) { return major * 10 + minor; }\n")  # no CUDA in the file
    assert _lines(semver, "C2R-K804") == []
    lut = ("#include <cuda_runtime.h>\nconst unsigned char lut[] = {0x70, 0x75, 0x80, 0x86};\n"
           "int pack(int hi, int lo) { return (hi << 4) + lo; }\n")
    assert _lines(lut, "C2R-K804") == []
