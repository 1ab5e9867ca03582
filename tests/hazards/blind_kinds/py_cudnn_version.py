import torch


def pick_conv_impl():
    if torch.backends.cudnn.version() < 8200:
        return "im2col"
    return "cudnn"
