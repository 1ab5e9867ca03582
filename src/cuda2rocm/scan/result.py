"""``cuda2rocm.scan.result``: the public name of the scan result contract, defined in :mod:`cuda2rocm.results`
(below scan, assess and report, so that assess grades a result without importing the scanner)."""

from cuda2rocm.results import (
    SCHEMA_VERSION,
    ApiUse,
    BinaryArtifact,
    Deployment,
    FileInfo,
    LayerAssessment,
    PluginUse,
    RiskAssessment,
    ScanResult,
)

__all__ = [
    "SCHEMA_VERSION", "ApiUse", "BinaryArtifact", "Deployment", "FileInfo", "LayerAssessment", "PluginUse",
    "RiskAssessment", "ScanResult",
]
