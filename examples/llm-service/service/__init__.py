"""llm-service: a small tensor-parallel text-generation server."""
