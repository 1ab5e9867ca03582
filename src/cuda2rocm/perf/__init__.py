"""Performance measurement and comparison: ``bench`` (any metric) and ``comm`` (collectives).

Modules, lowest first: ``stats`` (medians, bootstrap, Mann-Whitney U), ``thresholds`` and ``compare``
(verdicts), ``ingest`` (pytest-benchmark JSON, our JSONL, nccl-tests text), ``runner`` / ``service`` /
``telemetry`` (measuring), and for collectives ``bandwidth``, ``collectives``, ``timing``, ``commbench``
(the per-rank worker, launched by torchrun), ``topology`` and ``links``.
"""

from __future__ import annotations
