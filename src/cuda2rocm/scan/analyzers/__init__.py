"""Per-language analyzers. Each takes a :class:`~cuda2rocm.scan.report.FileReport` and the file's text."""
