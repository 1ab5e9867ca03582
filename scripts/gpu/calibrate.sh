#!/usr/bin/env bash
# Cross-device error figures for the default tolerance policy (issue 31, item 6): see scripts/gpu/calibrate.py.
# Run from the repo root on the GPU machine: OUT=/some/dir bash scripts/gpu/calibrate.sh
set -uo pipefail
OUT="${OUT:?set OUT to the result directory}"
python3 -c 'import torchvision' 2>/dev/null || echo "torchvision missing: resnet18 is skipped"
python3 scripts/gpu/calibrate.py
