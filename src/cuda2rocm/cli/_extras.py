"""Optional dependencies of some commands: checked when the command runs, never when its ``--help`` is shown."""

from __future__ import annotations

import click

TORCH_HINT = "pip install 'cuda2rocm[torch]'"


class MissingExtra(click.ClickException):
    """A command's optional dependency is not installed (an input error of the environment: exit 2)."""

    exit_code = 2


def require_torch(command: str) -> None:
    """Raise :class:`MissingExtra` naming what to install when PyTorch cannot be imported."""
    try:
        import torch  # noqa: F401
    except ImportError as exc:
        detail = "is not installed" if getattr(exc, "name", None) == "torch" else f"cannot be imported ({exc})"
        raise MissingExtra(f"`cuda2rocm {command}` needs PyTorch, which {detail} here: {TORCH_HINT}") from None
