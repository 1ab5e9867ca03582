import torch


def cuda_major_minor():
    major, minor = (int(p) for p in torch.version.cuda.split(".")[:2])
    return major, minor
