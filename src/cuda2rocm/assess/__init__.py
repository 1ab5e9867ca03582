"""assess package."""
