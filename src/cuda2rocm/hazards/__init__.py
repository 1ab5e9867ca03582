"""hazards package."""
