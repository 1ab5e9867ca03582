"""``migrate deploy``: everything that runs the application (containers, Kubernetes/Helm, CI, launch scripts,
monitoring, rollout), rewritten for ROCm as minimal edits on the shared engine (:mod:`cuda2rocm.migrate.engine`).

One module per file kind (:data:`cuda2rocm.migrate.deploy.run.MIGRATORS`), each with ``migrate(rel, text,
options) -> FileMigration`` and optionally ``generate(outcomes, options) -> list[Generated]`` for the files a
migration adds (canary Deployments, validation jobs). Rules: family ``deploy``, ids ``C2R-M``
(:mod:`cuda2rocm.migrate.deploy.rules`).
"""
