import os


def configure_network(iface: str = "eth0"):
    os.environ.setdefault("NCCL_SOCKET_IFNAME", iface)
