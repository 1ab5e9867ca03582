#!/usr/bin/env bash
# Proves on an NVIDIA GPU that cuda2rocm.hazards.fixes() keeps CUDA behaviour: every kernel program in
# tests/hazards/kernels/ is compiled with nvcc as written and after the safe fixes (warpSize for literal
# lane widths, 64-bit masks/ballots, __popcll/__ffsll), both run, and their outputs must be identical.
# Run from the repository root:  OUT=/some/dir PYTHONPATH=$PWD/src:/tmp/site bash scripts/gpu/hazards.sh
# Writes "$OUT/hazards.txt"; exits 1 if any program differs or fails.
set -u -o pipefail
OUT="${OUT:?set OUT to a result folder}"
mkdir -p "$OUT"
report="$OUT/hazards.txt"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
arch="${HAZARDS_ARCH:-sm_90}"
status=0
{
  echo "# cuda2rocm hazards: CUDA behaviour before/after fixes()"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "nvcc: $(nvcc --version | tail -1)"
  echo "arch: $arch"
} >"$report"

for src in tests/hazards/kernels/*.cu; do
  name="$(basename "$src" .cu)"
  fixed="$work/${name}_fixed.cu"
  if ! python3 - "$src" "$fixed" >"$work/$name.fixlog" 2>&1 <<'PY'
import sys
from cuda2rocm.hazards import analyze, apply_edits, fixes
from cuda2rocm.source.tokens import tokenize
text = open(sys.argv[1], encoding="utf-8").read()
edits = fixes(tokenize(text), text, sys.argv[1])
out = apply_edits(text, edits)
open(sys.argv[2], "w", encoding="utf-8").write(out)
left = sorted({f.rule for f in analyze(tokenize(out), out, sys.argv[2])})
print(f"edits={len(edits)} rules_before={sorted({f.rule for f in analyze(tokenize(text), text, sys.argv[1])})} "
      f"rules_after={left}")
PY
  then
    echo "$name: FAIL (fixes() raised) $(tail -3 "$work/$name.fixlog")" >>"$report"; status=1; continue
  fi
  ok=1
  for variant in orig fixed; do
    file="$src"; [ "$variant" = fixed ] && file="$fixed"
    if ! nvcc -arch="$arch" -o "$work/$name.$variant" "$file" >"$work/$name.$variant.build" 2>&1; then
      echo "$name: FAIL (nvcc $variant) $(head -5 "$work/$name.$variant.build")" >>"$report"; ok=0; break
    fi
    if ! "$work/$name.$variant" >"$work/$name.$variant.out" 2>&1; then
      echo "$name: FAIL (run $variant) $(tail -3 "$work/$name.$variant.out")" >>"$report"; ok=0; break
    fi
  done
  if [ "$ok" = 1 ]; then
    lines="$(wc -l <"$work/$name.orig.out")"
    changed="$(diff "$src" "$fixed" | grep -c '^>' || true)"
    if cmp -s "$work/$name.orig.out" "$work/$name.fixed.out" && [ "$lines" -gt 0 ]; then
      echo "$name: IDENTICAL ($lines output lines; $changed source lines changed; $(cat "$work/$name.fixlog"))" >>"$report"
    else
      echo "$name: DIFFERENT ($lines output lines)" >>"$report"
      diff "$work/$name.orig.out" "$work/$name.fixed.out" | head -20 >>"$report"; ok=0
    fi
  fi
  [ "$ok" = 1 ] || status=1
done
echo "result: $([ $status = 0 ] && echo PASS || echo FAIL)" >>"$report"
cat "$report"
exit $status
