"""The project's files, below every command that reads them: which files a run takes (``walk``: ``.gitignore``,
include/exclude patterns, size limits, links), what kind each is (``classify``: cuda, cmake, dockerfile, ci, ...),
the settings of the walk (``config``), and the input-problem rules a file that cannot be read is reported with
(``inputs``: C2R-E1xx). ``scan``, ``rewrite`` (and so ``convert`` and ``migrate``) walk and classify through here.
"""
