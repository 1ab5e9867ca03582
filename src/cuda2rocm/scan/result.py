"""``cuda2rocm.scan.result``: the public name of the scan result contract, defined in :mod:`cuda2rocm.results`
(below scan, assess and report, so that assess grades a result without importing the scanner)."""

from cuda2rocm.results import *  # noqa: F403 - the same names under the scanner's name
from cuda2rocm.results import __all__ as __all__
