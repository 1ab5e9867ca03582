"""Per-language analyzers. Each takes a :class:`~cuda2rocm.scan.filefacts.FileFacts` and the file's text."""
