import torch


def supports_bf16_kernels(device_index: int = 0) -> bool:
    return torch.cuda.get_device_properties(device_index).major >= 8


COMPUTE_DTYPE = torch.bfloat16 if supports_bf16_kernels() else torch.float16
