"""Hypothesis profiles for the whole suite.

``default`` (what ``python3 -m pytest`` and CI run): derandomized, so a run's examples are the same every time and
a red CI always means a change broke something, never that a random draw found an old bug that day. ``explore``
(``HYPOTHESIS_PROFILE=explore python3 -m pytest ...``): random draws (and 1,000 examples where a test sets no count of
its own), for looking for new failures; a failure it finds becomes an ``@example`` of the test and a fix.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("default", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, max_examples=1000, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
