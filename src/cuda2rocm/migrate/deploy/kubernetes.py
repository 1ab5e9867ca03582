"""``migrate deploy`` for Kubernetes manifests, Helm charts, Prometheus configs and Grafana dashboards.

YAML is read with :mod:`cuda2rocm.source.formats.yamlnodes` (node spans: every edit is a replacement of the
bytes of one scalar, comments and layout stay). What a YAML document is, is told by its content: a Kubernetes
object (``apiVersion`` + ``kind``), a Prometheus rule file (``groups`` with ``rules``), a scrape config
(``scrape_configs``), or plain data (Helm ``values.yaml``); the edits are the same kinds of facts wherever they
occur (:file:`data/kubernetes.yaml`, sourced):

- ``nvidia.com/gpu`` resources -> ``amd.com/gpu`` (C2R-M301); NVIDIA node labels in selectors and affinities ->
  the AMD GPU operator / node labeller labels (M302, M303 when no value carries over); tolerations of the
  ``nvidia.com/gpu`` taint (M304); ``runtimeClassName: nvidia`` removed (M305); CUDA/NGC images reported (M307);
- monitoring (:mod:`cuda2rocm.migrate.deploy.monitoring`): the DCGM exporter image and port (M701, M702, M703)
  and DCGM metric names in any scalar (PromQL in rules, relabelling regexes, embedded configs; M704, M705);
  Grafana dashboards (``.json``) go to :func:`cuda2rocm.migrate.deploy.monitoring.migrate_dashboard`.

Helm templates (files with ``{{ }}`` actions): actions are masked with bytes of the same length (a line that is
only actions becomes blank, an inline action a plain scalar), the masked text is read as YAML, and an edit is
made only on lines that contain no action; the others are reported with their line (M306). With ``--canary`` a
GPU Deployment is left as it is (:mod:`cuda2rocm.migrate.deploy.rollout` writes its ROCm canary), and
``--validation-job`` adds the multi-node Job (:mod:`cuda2rocm.migrate.deploy.validation`).

Environment variables in containers (``CUDA_VISIBLE_DEVICES``, ``NCCL_*``) are not rewritten here.

Modules: :mod:`~cuda2rocm.migrate.deploy.yamlfile` (what they share: the fact table, :class:`YamlFile`, template
masking), :mod:`~cuda2rocm.migrate.deploy.manifests` (the walk over a document), ``monitoring``, ``rollout``,
``validation``; this module is the entry the kind registry calls (``migrate``, ``generate``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cuda2rocm.migrate.base import Collector, FileMigration
from cuda2rocm.migrate.deploy import monitoring, rollout, validation
from cuda2rocm.migrate.deploy.manifests import migrate_stream
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.deploy.rules import kubernetes as R
from cuda2rocm.migrate.deploy.yamlfile import YamlFile, read
from cuda2rocm.migrate.engine import Generated
from cuda2rocm.rewrite.runner import FileOutcome


def migrate(rel: str, text: str, options: DeployOptions) -> FileMigration:
    """The migration of one YAML file (Kubernetes, Helm, Prometheus) or Grafana dashboard (``.json``)."""
    if rel.lower().endswith(".json"):
        return monitoring.migrate_dashboard(rel, text, options)
    stream, templated, problem = read(text)
    if problem is not None:
        return FileMigration(rel, problems=(problem,))
    f = YamlFile(Collector(rel, text), options, templated)
    if stream.problems:  # a Helm template that is not YAML even with its actions masked
        p = stream.problems[0]
        f.out.report(R.HELM_TEMPLATE, p.offset if p.offset else 0,
                     f"Helm template not rewritten: not YAML once its actions are set aside ({p.message})",
                     fix="migrate the lines that name NVIDIA resources by hand")
        return f.out.result()
    migrate_stream(f, stream)
    return f.out.result()


def generate(outcomes: Sequence[FileOutcome[FileMigration]], options: DeployOptions) -> list[Generated]:
    """Canary Deployments (``--canary``) and the multi-node validation Job (``--validation-job``)."""
    out: list[Generated] = []
    if options.canary > 0:
        out.extend(rollout.generate(outcomes, options))
    if options.validation_job:
        out.extend(validation.generate(outcomes, options))
    return out
