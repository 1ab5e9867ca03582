"""HTTP front end: one process per GPU, rank 0 answers requests and broadcasts them to the others."""

from __future__ import annotations

import argparse
import os
import time

import torch
import torch.distributed as dist
from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

from service.metrics import gpu_memory_report
from service.model import load_model

app = FastAPI(title="llm-service")
MODEL = None


class GenerateRequest(BaseModel):
    prompt: str
    max_new_tokens: int = 64


@app.on_event("startup")
def startup() -> None:
    global MODEL
    # Each rank pins its own CUDA device before the process group comes up.
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    MODEL = load_model(os.environ.get("MODEL_PATH", "/models/llama-7b"))


@app.get("/healthz")
def healthz() -> dict[str, object]:
    if not torch.cuda.is_available():
        raise HTTPException(status_code=503, detail="No CUDA device is visible to this server.")
    return {"status": "ok", "memory": gpu_memory_report()}


@app.post("/generate")
def generate(req: GenerateRequest) -> dict[str, object]:
    if MODEL is None:
        raise HTTPException(status_code=503, detail="Model is still loading onto the CUDA device.")
    start = time.perf_counter()
    text = MODEL.generate(req.prompt, req.max_new_tokens)
    torch.cuda.synchronize()
    return {"text": text, "latency_ms": (time.perf_counter() - start) * 1e3}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    import uvicorn

    uvicorn.run(app, host="0.0.0.0", port=args.port)


if __name__ == "__main__":
    main()
