import os

import torch.distributed as dist


def init_distributed(rank: int, world: int):
    os.environ["NCCL_IB_DISABLE"] = "1"
    dist.init_process_group("nccl", rank=rank, world_size=world)
