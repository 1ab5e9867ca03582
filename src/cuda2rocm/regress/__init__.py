"""regress package."""
