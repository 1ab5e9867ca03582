"""``migrate deploy``: find the files that run the application, migrate each by its kind, add generated files.

Which files: scan's classification (:func:`cuda2rocm.files.classify.classify`) of Dockerfiles, compose files,
YAML (Kubernetes manifests, Helm charts, Prometheus rules: told apart by content in the kind's migrator), CI
definitions, shell/Slurm scripts, and Grafana dashboards (``.json`` files whose path names grafana or a
dashboard). Each kind's module (:data:`MIGRATORS`) exposes ``migrate(rel, text, options) -> FileMigration``
and may expose ``generate(outcomes, options) -> list[Generated]``.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path, PurePosixPath
from types import ModuleType

from cuda2rocm.files.classify import classify
from cuda2rocm.migrate.base import FileMigration
from cuda2rocm.migrate.deploy.options import DeployOptions
from cuda2rocm.migrate.engine import Generated, MigrationRun, finish, migrate_jobs, planned
from cuda2rocm.project.buildopts import BuildFacts, gpu_options
from cuda2rocm.rewrite.runner import FileOutcome, Mode

#: deploy file kind -> the module that migrates it
MIGRATORS: dict[str, str] = {
    "dockerfile": "cuda2rocm.migrate.deploy.dockerfile",
    "compose": "cuda2rocm.migrate.deploy.compose",
    "yaml": "cuda2rocm.migrate.deploy.kubernetes",
    "helm": "cuda2rocm.migrate.deploy.kubernetes",
    "dashboard": "cuda2rocm.migrate.deploy.kubernetes",
    "shell": "cuda2rocm.migrate.deploy.shell",
    "ci": "cuda2rocm.migrate.deploy.ci",
}


def deploy_kind(rel: str) -> str | None:
    """The deploy kind of ``rel`` (a key of :data:`MIGRATORS`), or None."""
    p = PurePosixPath(rel)
    if p.suffix.lower() == ".json":
        lower = rel.lower()
        return "dashboard" if "grafana" in lower or "dashboard" in lower else None
    kind = classify(rel)
    if kind == "ci" and p.name == "Jenkinsfile":
        return None  # Groovy: scan reports it; nothing here rewrites it
    return kind if kind in MIGRATORS else None


def is_deploy_file(rel: str) -> bool:
    return deploy_kind(rel) is not None


def _module(kind: str) -> ModuleType:
    return importlib.import_module(MIGRATORS[kind])


def migrate_file(rel: str, text: str, options: DeployOptions) -> FileMigration:
    """The migration of one deploy file, by its kind (``rel``: its path relative to the project root)."""
    kind = deploy_kind(rel)
    if kind is None:
        return FileMigration(rel)
    result: FileMigration = _module(kind).migrate(rel, text, options)
    return result


def generate(outcomes: Sequence[FileOutcome[FileMigration]], options: DeployOptions) -> list[Generated]:
    """The files every kind's module adds for this run (canary manifests, validation jobs), in module order."""
    out: list[Generated] = []
    for name in dict.fromkeys(MIGRATORS.values()):
        hook = getattr(importlib.import_module(name), "generate", None)
        if hook is not None:
            out.extend(hook(outcomes, options))
    return out


def migrate_deploy(path: str | Path, *, mode: Mode = Mode.DIFF, output: str | Path | None = None,
                   options: DeployOptions | None = None, force: bool = False, backup: bool = True,
                   gitignore: bool = True, workers: int = 1) -> MigrationRun:
    """Migrate the deployment files under ``path``; modes as :func:`cuda2rocm.migrate.build.migrate_build`."""
    started = time.perf_counter()
    root = Path(path)
    out = Path(output) if output is not None else None
    options = options or DeployOptions()
    if not options.build.options:
        options = replace(options, build=build_facts(root, gitignore))
    jobs, problems = planned(root, is_deploy_file, mode, out, gitignore)
    files = migrate_jobs(jobs, partial(migrate_file, options=options), mode=mode, force=force, backup=backup,
                         workers=workers)
    return finish(root, files, problems, options, mode=mode, output=out, force=force, started=started,
                  generate=partial(generate, options=options), settled=_informational())


def build_facts(root: Path, gitignore: bool = True) -> BuildFacts:
    """The GPU-selecting CMake options the project's listfiles declare (read once per run, as migrate build reads
    them), for the cmake command lines of Dockerfiles, CI and scripts."""
    from cuda2rocm.migrate.build import listfiles

    jobs, _ = planned(root, lambda rel: classify(rel) == "cmake", Mode.DIFF, None, gitignore)
    return gpu_options(listfiles(jobs).items())


def _informational() -> frozenset[str]:
    """Deploy rules at info severity (a variable RCCL reads as is, a count kept): nothing for a person to decide."""
    from cuda2rocm.model import Severity
    from cuda2rocm.rules import by_family

    return frozenset(r.id for r in by_family("deploy") if r.severity is Severity.INFO)
