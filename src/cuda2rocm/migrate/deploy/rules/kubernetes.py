"""Rules of ``migrate deploy``: Kubernetes and Helm (M3xx), monitoring (M7xx), rollout and validation (M8xx)."""

from __future__ import annotations

from cuda2rocm.migrate.deploy.rules._base import deploy_rule
from cuda2rocm.model import Severity

_PLUGIN = "https://github.com/ROCm/k8s-device-plugin"
_OPERATOR = "https://instinct.docs.amd.com/projects/gpu-operator/en/latest/overview.html"
_EXPORTER = "https://github.com/ROCm/device-metrics-exporter"

GPU_RESOURCE = deploy_rule(
    "C2R-M301", "nvidia.com/gpu resource -> amd.com/gpu", severity=Severity.HIGH,
    what="A container requests or limits `nvidia.com/gpu`.",
    why="AMD GPUs are advertised by the AMD device plugin as `amd.com/gpu`; a pod asking for nvidia.com/gpu never "
        "schedules on an AMD node.",
    example="# file: k8s/pod.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
            "    - name: c\n      image: app:1\n      resources:\n        limits:\n          nvidia.com/gpu: 1",
    instead="`amd.com/gpu: 1` (same count)", references=(_PLUGIN,))

NODE_LABEL = deploy_rule(
    "C2R-M302", "NVIDIA node label in a selector -> AMD node label", severity=Severity.HIGH,
    what="A nodeSelector, node affinity or matchLabels uses an NVIDIA GPU feature discovery label "
         "(`nvidia.com/gpu.present`, `nvidia.com/gpu.product`).",
    why="AMD GPU nodes carry `feature.node.kubernetes.io/amd-gpu=true` (GPU operator) and `amd.com/gpu.*` labels "
        "(node labeller); NVIDIA labels are absent there, so the pod stays Pending.",
    example="# file: k8s/pod.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  nodeSelector:\n"
            "    nvidia.com/gpu.present: \"true\"\n  containers:\n    - name: c\n      image: app:1",
    instead="`feature.node.kubernetes.io/amd-gpu: \"true\"`; pin a model with `amd.com/gpu.product-name`",
    references=(_OPERATOR, _PLUGIN + "/tree/master/cmd/k8s-node-labeller"))

NODE_LABEL_REVIEW = deploy_rule(
    "C2R-M303", "NVIDIA node label with no direct AMD counterpart", severity=Severity.MEDIUM,
    what="An NVIDIA node label whose values do not carry over (`nvidia.com/gpu.family`, `gpu.memory`, "
         "`gpu.count`, `mig.*`, `cuda.driver.*`, ...).",
    why="The AMD node labeller's labels have other values (family acronyms, its own VRAM format) or do not "
        "exist (GPU count, MIG); a mechanical rename would select no node.",
    example="# file: k8s/pod.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  nodeSelector:\n"
            "    nvidia.com/gpu.family: ampere\n  containers:\n    - name: c\n      image: app:1",
    instead="choose the AMD label and value from `kubectl get nodes --show-labels` on the AMD pool",
    references=(_PLUGIN + "/tree/master/cmd/k8s-node-labeller",))

TOLERATION = deploy_rule(
    "C2R-M304", "toleration of the nvidia.com/gpu taint -> amd.com/gpu", severity=Severity.MEDIUM,
    what="A toleration (or a node-affinity expression) names the key `nvidia.com/gpu`.",
    why="GPU node pools are usually tainted with the GPU resource name; the AMD pool's taint is `amd.com/gpu` "
        "when the administrator follows the same convention.",
    example="# file: k8s/pod.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  tolerations:\n"
            "    - key: nvidia.com/gpu\n      operator: Exists\n      effect: NoSchedule\n  containers:\n"
            "    - name: c\n      image: app:1",
    instead="`key: amd.com/gpu` (check the taint the AMD nodes carry)", references=(_PLUGIN,))

RUNTIME_CLASS = deploy_rule(
    "C2R-M305", "runtimeClassName: nvidia removed", severity=Severity.HIGH,
    what="A pod selects the `nvidia` RuntimeClass.",
    why="The NVIDIA container runtime is not installed on AMD nodes (the pod fails to start); the AMD device plugin "
        "gives GPU pods /dev/kfd and /dev/dri under the default runtime.",
    example="# file: k8s/pod.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n"
            "  runtimeClassName: nvidia\n  containers:\n    - name: c\n      image: app:1",
    instead="no runtimeClassName (the default runtime)", references=(_PLUGIN,))

HELM_TEMPLATE = deploy_rule(
    "C2R-M306", "Helm template line left alone", severity=Severity.MEDIUM,
    what="Text of a Helm template that needs migrating overlaps a template action (`{{ ... }}`; a literal key "
         "beside an action is rewritten), or a Helm template cannot be read as YAML once its actions are set aside.",
    why="Rewriting text that Go templates produce could corrupt the chart; only plain YAML lines are rewritten, "
        "templated ones are listed for a person (usually the value belongs in values.yaml).",
    example="# file: chart/templates/deploy.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n"
            "  name: {{ .Release.Name }}\nspec:\n  containers:\n    - name: c\n      image: app:1\n"
            "  nodeSelector:\n    nvidia.com/gpu.product: {{ .Values.gpuProduct }}",
    instead="edit the templated line (or the value it reads) by hand", references=("https://helm.sh/docs/chart_template_guide/",))

CUDA_IMAGE = deploy_rule(
    "C2R-M307", "CUDA container image in a workload", severity=Severity.HIGH,
    what="A container of a Kubernetes workload (or a Helm value) runs an NVIDIA CUDA or NGC image.",
    why="A CUDA image has no ROCm runtime or libraries; the pod starts on an AMD node and fails at the first GPU "
        "call. The ROCm image depends on the framework and the target ROCm release (see Dockerfiles).",
    example="# file: k8s/pod.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
            "    - name: c\n      image: nvcr.io/nvidia/pytorch:24.01-py3",
    instead="the ROCm image of the same framework (rocm/pytorch:..., rocm/vllm:..., rocm/dev-ubuntu-...)",
    references=("https://hub.docker.com/u/rocm",))

EXPORTER_IMAGE = deploy_rule(
    "C2R-M701", "DCGM exporter -> AMD device metrics exporter", severity=Severity.HIGH,
    what="A DaemonSet, Deployment or Helm value runs NVIDIA's DCGM exporter image.",
    why="DCGM talks to NVIDIA drivers only; AMD GPUs are exported by ROCm's device metrics exporter.",
    example="# file: k8s/exporter.yaml\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: gpu-metrics\n"
            "spec:\n  selector:\n    matchLabels:\n      app: gpu-metrics\n  template:\n    metadata:\n      labels:\n"
            "        app: gpu-metrics\n    spec:\n      containers:\n        - name: exporter\n"
            "          image: nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04\n          ports:\n"
            "            - containerPort: 9400",
    instead="`rocm/device-metrics-exporter` on port 5000", references=(_EXPORTER,))

EXPORTER_PORT = deploy_rule(
    "C2R-M702", "DCGM exporter port 9400 -> 5000", severity=Severity.MEDIUM,
    what="The exporter's container port, or a Prometheus scrape target, is DCGM exporter's 9400.",
    why="The AMD device metrics exporter listens on 5000 by default.",
    example="# file: prometheus/prometheus.yml\nscrape_configs:\n  - job_name: gpu\n    static_configs:\n"
            "      - targets: ['gpu-node-1:9400']",
    instead="port 5000", references=(_EXPORTER,))

EXPORTER_CONFIG = deploy_rule(
    "C2R-M703", "DCGM exporter configuration not carried over", severity=Severity.MEDIUM,
    what="DCGM exporter arguments or its counters CSV (`-f`, `--collectors`, `DCGM_EXPORTER_*`, a `.csv` of fields).",
    why="The AMD exporter takes a JSON config of field names (GPUConfig.Fields), not DCGM's CSV or flags.",
    example="# file: k8s/exporter.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: e\nspec:\n  containers:\n"
            "    - name: exporter\n      image: nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04\n"
            "      args: [\"-f\", \"/etc/dcgm-exporter/dcp-metrics-included.csv\"]",
    instead="an exporter config.json listing the AMD fields", references=(_EXPORTER,))

METRIC = deploy_rule(
    "C2R-M704", "DCGM metric name -> AMD device metrics exporter name", severity=Severity.HIGH,
    what="A Prometheus rule, scrape config or Grafana dashboard query uses a DCGM metric (`DCGM_FI_DEV_GPU_UTIL`).",
    why="The AMD exporter publishes other names (`gpu_gfx_activity`, `gpu_used_vram`, ...) with other labels "
        "(`gpu_id`, `gpu_uuid`, `hostname`); alerts on DCGM names never fire on AMD nodes.",
    example="# file: monitoring/gpu-rules.yaml\ngroups:\n  - name: gpu\n    rules:\n      - alert: GpuIdle\n"
            "        expr: avg(DCGM_FI_DEV_GPU_UTIL) < 10",
    instead="`avg(gpu_gfx_activity) < 10` (check units and label names)", references=(_EXPORTER,))

METRIC_MISSING = deploy_rule(
    "C2R-M705", "DCGM metric with no AMD counterpart", severity=Severity.HIGH,
    what="A DCGM metric that the AMD device metrics exporter does not publish (XID errors, NVLink, tensor pipe "
         "activity, SM occupancy, ...), or a DCGM name this tool does not know.",
    why="The query or alert would silently return nothing on AMD GPUs.",
    example="# file: monitoring/gpu-rules.yaml\ngroups:\n  - name: gpu\n    rules:\n      - alert: Xid\n"
            "        expr: DCGM_FI_DEV_XID_ERRORS > 0",
    instead="drop the panel/alert or rebuild it on an AMD metric (see the note)", references=(_EXPORTER,))

CANARY = deploy_rule(
    "C2R-M801", "canary Deployment on AMD nodes written, CUDA Deployment kept", severity=Severity.LOW,
    what="With `--canary N`, a GPU Deployment is left as it is and a ROCm canary (N replicas, `track: canary-rocm`, "
         "amd.com/gpu, AMD node selector) is written to `<file>.rocm-canary.yaml`.",
    why="Production moves to AMD gradually: the Service selects both, the canary's share of traffic grows with "
        "its replicas, and rolling back is deleting it.",
    example="# file: k8s/app.yaml\n# options: canary=2\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
            "  name: app\nspec:\n  replicas: 3\n  selector:\n    matchLabels:\n      app: app\n  template:\n"
            "    metadata:\n      labels:\n        app: app\n    spec:\n      containers:\n        - name: c\n"
            "          image: app:1\n          resources:\n            limits:\n              nvidia.com/gpu: 1",
    instead="scale the canary up and the CUDA Deployment down as the canary proves itself (docs/migrate.md)",
    references=("https://kubernetes.io/docs/concepts/workloads/management/#canary-deployments",))

VALIDATION = deploy_rule(
    "C2R-M802", "multi-node validation job written", severity=Severity.LOW,
    what="With `--validation-job`, an indexed Job (and a Kubeflow PyTorchJob when the project uses Kubeflow) "
         "that runs `cuda2rocm comm` and the smoke test with torchrun across the nodes is written.",
    why="A collective-communication and smoke run across nodes proves RCCL, the network settings and the image "
        "before production traffic moves.",
    example="# file: k8s/app.yaml\n# options: validation_job=true\napiVersion: v1\nkind: Pod\nmetadata:\n"
            "  name: p\nspec:\n  containers:\n    - name: c\n      image: app:1",
    instead="set the image (the ROCm build of the application, with this toolkit installed) and SMOKE_TARGET, then "
            "kubectl apply",
    references=("https://kubernetes.io/docs/concepts/workloads/controllers/job/#completion-mode",
                "https://www.kubeflow.org/docs/components/trainer/legacy-v1/user-guides/pytorch/"))
