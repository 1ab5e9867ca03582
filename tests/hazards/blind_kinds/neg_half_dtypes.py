import torch


def autocast_dtype() -> torch.dtype:
    return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16


def cast_weights(model: torch.nn.Module) -> torch.nn.Module:
    return model.to(dtype=autocast_dtype())
