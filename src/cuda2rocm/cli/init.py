"""``cuda2rocm init [PATH]``: make PATH a migration workspace (``cuda2rocm.toml`` and ``.cuda2rocm/``)."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("init")
@click.argument("path", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option("--target-gpu", default="MI300X", show_default=True, metavar="GPU",
              help="The AMD GPU to target (knowledge base name).")
@click.option("--target-rocm", default="", metavar="X.Y", help="ROCm release (default: the newest known).")
@click.option("--target-os", default="ubuntu22.04", show_default=True, metavar="OS", help="Container OS.")
@click.option("--pytorch", default="", metavar="VERSION", help="PyTorch version the service runs on ROCm.")
@click.option("--dual-platform", is_flag=True, help="The team keeps CUDA and ROCm builds side by side.")
@click.option("--force", is_flag=True, help="Replace an existing cuda2rocm.toml (records are kept).")
@click.option("--parents", is_flag=True, help="Create PATH and its missing parent folders (else PATH's parent must "
              "exist).")
def command(path: Path, target_gpu: str, target_rocm: str, target_os: str, pytorch: str, dual_platform: bool,
            force: bool, parents: bool) -> int:
    """Write PATH/cuda2rocm.toml (target GPU, ROCm, OS, framework, tolerance policies, performance thresholds,
    dual-platform; each key with a comment) and the PATH/.cuda2rocm/ folder, where every command run inside
    PATH records its result (docs/workspace.md). Refuses to replace a cuda2rocm.toml without --force, and to
    create more than PATH itself without --parents (a mistyped path is an error, exit 2)."""
    from cuda2rocm.fsio import write_text_atomic
    from cuda2rocm.workspace import config, store

    target = path / store.CONFIG_NAME
    parent = path.absolute().parent
    if not path.exists() and not parents and not parent.is_dir():
        click.echo(f"error: {parent} does not exist; create it first, or give --parents to create "
                   f"{path} with its missing parents", err=True)
        return 2
    if target.exists() and not force:
        click.echo(f"error: {target} exists (use --force to replace it; records are kept)", err=True)
        return 2
    text = config.template(target_gpu=target_gpu, target_rocm=target_rocm, target_os=target_os, pytorch=pytorch,
                           dual_platform=dual_platform)
    try:
        config.loads(text, target)  # the values given on the command line are checked like any file's
    except config.ConfigError as exc:
        raise click.BadParameter(str(exc).split(": ", 1)[-1]) from None
    path.mkdir(parents=True, exist_ok=True)
    write_text_atomic(target, text)
    for sub in (store.records_dir(path), store.artifacts_dir(path)):
        sub.mkdir(parents=True, exist_ok=True)
    click.echo(f"initialised the cuda2rocm workspace {path.resolve()}: {target.name}, {store.STATE_DIR}/ "
               f"(records/, artifacts/)", err=True)
    return 0
