"""The project model: facts of the whole project that no single file holds.

:mod:`cuda2rocm.project.includes` is the include graph and the constants each C/C++/CUDA file sees from the
headers it includes; ``scan`` and ``convert`` build it once per run and the hazard rules read it.
"""
