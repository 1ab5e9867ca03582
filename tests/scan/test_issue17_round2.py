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

from cuda2rocm.hazards import analyze, apply_edits, fixes
from cuda2rocm.model import Finding
from cuda2rocm.scan.classify import classify
from cuda2rocm.scan.filescan import scan_file
from cuda2rocm.scan.walk import Candidate
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

    assert devicecalls.convert_rewrites() is dialect._DEVICE_GLOBAL
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
