#!/usr/bin/env bash
# Machine fingerprint on the GPU host (issue 6): `cuda2rocm env --format json` for the real H200 machine,
# committed afterwards as tests/envinfo/fixtures/env-h200.json (tests/envinfo/test_h200_fixture.py reads it).
# Run from the repo root:  OUT=/some/dir PYTHONPATH=$PWD/src:/tmp/site bash scripts/gpu/env.sh
# Writes $OUT/$NAME.json (the fingerprint) and $OUT/$NAME.log (table view, raw tool output, stderr);
# NAME defaults to env-h200 (NAME=env-h200x2 on the two-GPU machine).
set -uo pipefail
OUT=${OUT:?set OUT to a folder for the results}
NAME=${NAME:-env-h200}
exec > >(tee "$OUT/$NAME.log") 2>&1
echo "== $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=index,name,driver_version,compute_cap,memory.total --format=csv || true
nvidia-smi topo -m || true
python3 -m cuda2rocm env --format json --timeout 30 -o "$OUT/$NAME.json" --force > /dev/null
rc=$?
echo "== env exit $rc"
COLUMNS=140 python3 -m cuda2rocm env --timeout 30 || true
python3 -m cuda2rocm env --labels --no-torch || true
python3 - "$OUT/$NAME.json" <<'PY' || rc=1
import json, sys
fp = json.load(open(sys.argv[1]))
print("gpus:", [g["name"] for g in fp["gpus"]], "driver:", fp["driver"], "cuda:", fp["cuda"])
print("torch:", fp["frameworks"].get("torch", {}).get("version"), "libraries:", fp["libraries"])
print("links:", fp.get("topology", {}).get("links"), "notes:", fp["notes"])
PY
exit $rc
