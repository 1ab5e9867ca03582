"""The project model: what one run knows of the whole project, built once and handed to every command.

Below ``scan``, ``translate``, ``hazards``, ``migrate`` and ``rewrite``: the walker and file classifier, the
preprocessor facts every translation unit sees across its includes (``includes.py``), the build, environment
and image facts, the one target stack (``stack.py``) and the recognisers that finding and fixing share
(``recognise/``). Modules here import only the floors below them (``source``, ``mapping``, ``knowledge``,
``model``, ``fsio``).
"""
