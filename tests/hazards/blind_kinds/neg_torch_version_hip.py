import torch

IS_ROCM = torch.version.hip is not None


def backend_name() -> str:
    if not torch.cuda.is_available():
        return "cpu"
    return "rocm" if IS_ROCM else "cuda"
