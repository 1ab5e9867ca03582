"""The delivery checklist: the ten items of a migration's hand-over, each decided only from the evidence a
workspace recorded (``.cuda2rocm/records/``), and the delivery report built around it.

- :mod:`~cuda2rocm.checklist.evidence`: the records of a workspace, read through ``workspace.store``;
- :mod:`~cuda2rocm.checklist.items`: the registered rules ``CL1`` .. ``CL10`` and their evidence rules;
- :mod:`~cuda2rocm.checklist.delivery`: :func:`build`, the typed :class:`DeliveryReport` the formatters render
  (``cuda2rocm.report``: ``render(report, "html" | "markdown" | "json", kind="delivery")``).

See docs/report.md.
"""

from cuda2rocm.checklist.delivery import SCHEMA, DeliveryReport, build
from cuda2rocm.checklist.items import ITEMS, ItemResult, Status

__all__ = ["ITEMS", "SCHEMA", "DeliveryReport", "ItemResult", "Status", "build"]
