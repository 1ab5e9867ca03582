"""envinfo package."""
