"""perf package."""
