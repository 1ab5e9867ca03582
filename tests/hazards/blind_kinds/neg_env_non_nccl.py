import logging
import os

import torch.distributed as dist

log = logging.getLogger(__name__)


def init_distributed(rank: int, world: int):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29500"
    log.info("NCCL_DEBUG is %s", os.environ.get("NCCL_DEBUG", "unset"))
    dist.init_process_group("nccl", rank=rank, world_size=world)
