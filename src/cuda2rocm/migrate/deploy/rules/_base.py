"""The one way a deploy rule is defined."""

from __future__ import annotations

from functools import partial

from cuda2rocm.model import Confidence, Layer
from cuda2rocm.rules import new_rule

F = "deploy"

#: a ``migrate deploy`` rule (``rules.new_rule`` with the family's defaults); ``example``: an input that makes
#: ``migrate deploy`` emit it, with its file name as ``# file: <name>`` on the first line when the kind is not a
#: Dockerfile.
deploy_rule = partial(new_rule, family=F, confidence=Confidence.HIGH, layer=Layer.OPS)
