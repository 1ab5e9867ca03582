"""scan package."""
