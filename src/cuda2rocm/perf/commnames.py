"""The collectives and dtypes ``comm`` accepts, as names only: no torch, so ``comm --help`` and the argument
checks work where torch is missing (``collectives`` and ``commbench`` hold the torch objects, in this order)."""

from __future__ import annotations

COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "sendrecv")
DTYPES = ("float32", "float16", "bfloat16", "float64", "int32", "int8", "uint8")
