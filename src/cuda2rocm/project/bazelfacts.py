"""Bazel facts that ``scan`` (C2R-S110/S115 on ``.bazelrc``) and ``migrate build`` (its ``--config=rocm``) share:
the repositories whose labels are CUDA's, the environment variables that configure the CUDA toolkit, the options
the ROCm config replaces, and an option's canonical name (``--flag_alias`` names followed)."""

from __future__ import annotations

#: repositories whose labels are CUDA's (a label of theirs that is not in the table is reported)
CUDA_REPOS = ("@local_config_cuda//", "@local_cuda//", "@rules_cuda//", "@local_config_nccl//", "@cuda//")
#: environment variables (``--action_env``/``--repo_env``) that configure the CUDA toolkit; the value says how the
#: rocm config carries each over ("" when it does not)
CUDA_ENV = {"TF_NEED_CUDA": "rocm", "CUDA_TOOLKIT_PATH": "path", "CUDA_PATH": "path", "CUDA_HOME": "path",
            "TF_CUDA_COMPUTE_CAPABILITIES": "targets", "HERMETIC_CUDA_COMPUTE_CAPABILITIES": "targets",
            "TF_CUDA_VERSION": "", "HERMETIC_CUDA_VERSION": "", "TF_CUDNN_VERSION": "", "HERMETIC_CUDNN_VERSION": "",
            "CUDNN_INSTALL_PATH": "", "TF_CUDA_CLANG": "", "TF_NCCL_VERSION": "", "NCCL_INSTALL_PATH": "",
            "TF_CUDA_PATHS": "", "CLANG_CUDA_COMPILER_PATH": "", "TF_NEED_TENSORRT": ""}
#: options the ROCM_CONFIG lines replace
ROCM_CONFIG_REPLACES = ("--@rules_cuda//cuda:enable", "--define=using_cuda=true", "--define=using_cuda_nvcc=true",
                        "--define=using_cuda_clang=true", "--crosstool_top=@local_config_cuda//crosstool:toolchain")


def canonical(name: str, aliases: dict[str, str]) -> str:
    name = aliases.get(name, name)
    """An option's name with its ``--flag_alias`` followed and rules_cuda's canonical repository spelling."""
    return name.replace("--@@rules_cuda//", "--@rules_cuda//")
