"""Decoder model wrapper: picks attention and quantisation kernels from what the GPU supports."""

from __future__ import annotations

import bitsandbytes as bnb
import torch
import torch.nn as nn
from flash_attn import flash_attn_func
from llm_service import _C
from transformers import AutoModelForCausalLM, AutoTokenizer

from service.triton_kernels import softmax

torch.backends.cudnn.benchmark = True
torch.backends.cuda.matmul.allow_tf32 = True


def use_flash_attention() -> bool:
    major, _ = torch.cuda.get_device_capability()
    return major >= 8


def is_hopper() -> bool:
    return "H100" in torch.cuda.get_device_name()


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _C.rms_norm(x.contiguous(), self.weight, self.eps)


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    if use_flash_attention():
        return flash_attn_func(q, k, v, causal=True)
    scores = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    return softmax(scores.flatten(0, -2)).view_as(scores) @ v


class Generator:
    def __init__(self, path: str) -> None:
        self.tokenizer = AutoTokenizer.from_pretrained(path)
        self.model = AutoModelForCausalLM.from_pretrained(path, torch_dtype=torch.float16, device_map="cuda")
        if not is_hopper():
            bnb.nn.Linear8bitLt(4096, 4096, has_fp16_weights=False)

    @torch.inference_mode()
    def generate(self, prompt: str, max_new_tokens: int) -> str:
        ids = self.tokenizer(prompt, return_tensors="pt").input_ids.to("cuda")
        out = self.model.generate(ids, max_new_tokens=max_new_tokens)
        return self.tokenizer.decode(out[0], skip_special_tokens=True)


def load_model(path: str) -> Generator:
    return Generator(path)
