def is_available() -> bool:
    return False


def _is_compiled() -> bool:
    return True
