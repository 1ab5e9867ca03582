"""Rules ``migrate deploy`` emits (family ``deploy``, ids ``C2R-M``): M1xx Dockerfiles, M2xx docker run and
compose, M3xx Kubernetes and Helm, M4xx launch scripts and environment variables, M5xx NCCL -> RCCL, M6xx CI,
M7xx monitoring, M8xx rollout and validation. One module per area; importing this package registers them all.
"""

from cuda2rocm.migrate.deploy.rules import containers, kubernetes, launch  # noqa: F401  (registers the rules)
