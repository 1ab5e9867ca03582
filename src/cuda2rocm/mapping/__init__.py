"""mapping package."""
