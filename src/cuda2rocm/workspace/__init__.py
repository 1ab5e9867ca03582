"""The migration workspace: ``cuda2rocm.toml`` (targets and policies) and ``.cuda2rocm/`` (the evidence every
command records there). :mod:`cuda2rocm.workspace.store` finds a workspace and reads its records."""
