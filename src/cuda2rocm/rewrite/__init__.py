"""rewrite package."""
