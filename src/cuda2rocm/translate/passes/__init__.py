"""Translation passes: each reads a :class:`~cuda2rocm.translate.context.Context` and yields edits."""
