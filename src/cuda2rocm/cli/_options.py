"""Options that ``convert`` and ``verify`` share: the click decorators and the :class:`Options` they build.

Its own module so that neither command imports the other for them (``convert --verify`` reuses verify's printer).
"""

from __future__ import annotations

import click

from cuda2rocm.model import Severity
from cuda2rocm.translate.options import DEFAULT_EXTENSIONS, Options


def translation_options(f: click.decorators.FC) -> click.decorators.FC:
    """Options shared by ``convert`` and ``verify``."""
    for decorator in reversed([
        click.option("--target-rocm", default="", metavar="X.Y", help="Emit only APIs this ROCm release has "
                     "(default: convert, the newest release in the tables; verify, the release of the HIP that "
                     "hipcc reports, else the newest)."),
        click.option("--roc", is_flag=True, help="Map libraries to roc* (rocBLAS, rocSPARSE, ...) not hip*."),
        click.option("--launch-syntax", type=click.Choice(["keep", "ggl"]), default="keep", show_default=True,
                     help="Keep <<<...>>> launches or rewrite them to hipLaunchKernelGGL."),
        click.option("--experimental", is_flag=True, help="Translate APIs HIP marks experimental."),
        click.option("--use-hip-data-types", is_flag=True, help="cudaDataType/CUDA_R_32F -> hipDataType/HIP_R_32F "
                     "also for targets before ROCm 6.0 (default there: hipBLAS's hipblasDatatype_t/HIPBLAS_R_32F)."),
        click.option("--fix-hazards", is_flag=True, help="Apply the hazard analysis' fixes (the safe ones and "
                     "C2R-K202's unsafe type widening)."),
        click.option("--extensions", default=",".join(DEFAULT_EXTENSIONS), show_default=True,
                     help="Comma-separated file extensions to translate in directories."),
        click.option("--cu-suffix", default=".hip", show_default=True,
                     help="Output suffix for .cu files ('' keeps .cu)."),
        click.option("--max-size", type=click.IntRange(min=1), default=32, show_default=True, metavar="MB",
                     help="Files larger than this are reported, not read."),
        click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
                     help="Worker processes; 0: one per CPU (up to 8) when the inputs add up to 4 MiB or more."),
        click.option("--no-gitignore", is_flag=True, help="Also translate files that .gitignore files ignore."),
    ]):
        f = decorator(f)
    return f


def rocm_release(value: str, *, images: bool = False) -> str:
    """The one check of ``--target-rocm`` for every command: a release the translation tables know, returned as
    given; with ``images``, also one the knowledge base has containers and wheels for (``migrate deploy``).
    Empty stays empty (each command's default). Raises :class:`click.BadParameter` (exit 2)."""
    if not value:
        return value
    from cuda2rocm import knowledge
    from cuda2rocm.mapping import is_known_rocm, newest_rocm

    try:
        known = is_known_rocm(value)
    except ValueError:
        known = False
    if not known:
        raise click.BadParameter(f"unknown ROCm release {value!r} (newest known: {newest_rocm()})",
                                 param_hint="--target-rocm")
    if images and knowledge.get_release(value) is None:
        releases = list(knowledge.rocm_releases())
        raise click.BadParameter(f"the knowledge base has no images for ROCm {value} (known: {', '.join(releases[:8])}"
                                 f", ... {releases[-1]})", param_hint="--target-rocm")
    return value


def build_options(target_rocm: str, roc: bool, launch_syntax: str, experimental: bool, use_hip_data_types: bool,
                  fix_hazards: bool, extensions: str, cu_suffix: str, max_size: int, jobs: int,
                  fail_on: str = "high", no_gitignore: bool = False) -> Options:
    target_rocm = rocm_release(target_rocm)
    if target_rocm:  # convert and verify compare releases: 6.2.0 and 6.2 are one
        from cuda2rocm.mapping import parse_version

        target_rocm = str(parse_version(target_rocm))
    exts = tuple(e if e.startswith(".") else "." + e for e in (x.strip() for x in extensions.split(",")) if e)
    return Options(target_rocm=target_rocm, roc=roc, launch_syntax=launch_syntax, experimental=experimental,
                   use_hip_data_types=use_hip_data_types, fix_hazards=fix_hazards, cu_suffix=cu_suffix,
                   extensions=exts, max_bytes=max_size * 2**20, fail_on=Severity.parse(fail_on), jobs=jobs,
                   respect_gitignore=not no_gitignore)
