"""Load what to capture: ``package.module:factory`` or ``path/to/script.py[:factory]``.

Contract: the factory takes no required arguments and returns one of
  * ``(model, inputs)`` or ``(model, inputs, loss_fn)``;
  * a dict with keys ``model``, ``inputs`` and optionally ``loss_fn``;
  * just the model (then inputs come from ``--inputs FILE`` or ``--input-shape``).
``inputs`` is a tensor (called as ``model(x)``), a tuple (``model(*inputs)``) or a dict (``model(**inputs)``).
The seed is set before the factory runs, so random initialisation is reproducible. A script is loaded
with ``__name__ == "__cuda2rocm_capture__"``, so its ``if __name__ == "__main__":`` block does not run.
A module is found from the working directory and a script's siblings from its directory, as ``python -m`` and
``python script.py`` find them (:mod:`cuda2rocm.usercode`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cuda2rocm.regress.errors import RegressInputError
from cuda2rocm.usercode import import_user_module, run_user_script

DEFAULT_FACTORY = "factory"


@dataclass(frozen=True)
class Target:
    model: Any
    inputs: Any
    loss_fn: Any = None


def load_factory(spec: str) -> Any:
    """Resolve ``spec`` to the factory callable (raises RegressInputError naming the spec)."""
    path_part, _, name = spec.rpartition(":") if _has_factory(spec) else (spec, "", "")
    name = name or DEFAULT_FACTORY
    if path_part.endswith(".py") or Path(path_part).is_file():
        namespace = _run_script(Path(path_part))
        func = namespace.get(name)
    else:
        func = getattr(_import(path_part), name, None)
    if not callable(func):
        raise RegressInputError(spec, f"no callable {name!r} found (see 'capture --help' for the contract)")
    return func


def _has_factory(spec: str) -> bool:
    head, sep, tail = spec.rpartition(":")
    return bool(sep) and bool(head) and "/" not in tail and "\\" not in tail


def _run_script(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise RegressInputError(str(path), "no such script")
    try:
        return run_user_script(path, "__cuda2rocm_capture__")
    except SyntaxError as exc:
        raise RegressInputError(str(path), f"syntax error: {exc.msg}", exc.lineno or 0) from None


def _import(module: str) -> Any:
    try:
        return import_user_module(module)
    except ModuleNotFoundError as exc:
        raise RegressInputError(module, f"cannot import: {exc}") from None


def build(factory: Any, spec: str = "") -> Target:
    """Call the factory and normalise its result."""
    result = factory()
    if isinstance(result, dict) and "model" in result:
        return Target(result["model"], result.get("inputs"), result.get("loss_fn"))
    if isinstance(result, tuple) and len(result) in (2, 3):
        return Target(*result)
    if hasattr(result, "named_modules"):
        return Target(result, None)
    raise RegressInputError(spec or "factory", f"factory returned {type(result).__name__}; want (model, inputs), "
                            "(model, inputs, loss_fn), a dict with 'model', or a model")
