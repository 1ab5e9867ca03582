import torch


def check_environment():
    if not torch.cuda.is_available():
        raise RuntimeError("a GPU is required")
    if torch.version.cuda is None:
        raise RuntimeError("this package needs a CUDA build of PyTorch")
    return torch.cuda.device_count()
