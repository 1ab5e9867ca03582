#!/usr/bin/env bash
# GPU evidence for `capture` / `compare` / `smoke` (issue 5).
#
# Run from the repo root on the GPU machine:  OUT=/some/dir bash scripts/gpu/regress.sh
# (the lead's runner sets PYTHONPATH=$PWD/src:/tmp/site). Needs torch with CUDA or ROCm, torchvision.
#
# What it proves: torchvision resnet18(weights=None) (random init, fixed seed, no download) captured on
# the GPU and on the CPU in FP32, BF16 and FP16 (forward activations of every leaf module, output, loss
# and fc gradients of one training step) passes `compare` CPU-vs-GPU under each dtype's default policy;
# the same capture with a deliberate perturbation (0.1 x std noise on layer3.0.conv1) fails and names
# act/layer3.0.conv1 as the first divergence; two same-seed GPU captures are bit-identical; TF32 vs
# the FP32 CPU reference passes under --float32 tf32; `smoke` reports the GPU's SDPA backend, AMP dtypes,
# peak memory and the NaN / empty-batch / OOM checks.
# Writes: $OUT/regress.txt (summary, PASS/FAIL per check) and $OUT/regress.tar.gz (small captures,
# compare JSON/HTML reports, smoke JSON) - small enough to commit as fixtures.
set -uo pipefail
OUT="${OUT:?set OUT to the result directory}"
mkdir -p "$OUT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
caps="$work/regress"
mkdir -p "$caps"
summary="$OUT/regress.txt"
: > "$summary"
status=0

DEVICE=$(python3 -c 'import torch; print("cuda" if torch.cuda.is_available() else "cpu")')
LAYER=layer3.0.conv1

cat > "$work/target.py" <<'PY'
import torch


def factory():
    import torchvision

    model = torchvision.models.resnet18(weights=None, num_classes=10)
    return model, torch.randn(2, 3, 32, 32)
PY
# REGRESS_TARGET=file.py replaces the model for a dry run on a machine without torchvision.
[ -n "${REGRESS_TARGET:-}" ] && cp "$REGRESS_TARGET" "$work/target.py"

c2r() { python3 -m cuda2rocm "$@"; }
note() { echo "$*" | tee -a "$summary"; }
check() {  # check NAME EXPECTED_RC ACTUAL_RC
  if [ "$2" = "$3" ]; then note "PASS $1"; else note "FAIL $1 (exit $3, expected $2)"; status=1; fi
}
first_divergence() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tensors"]["first_divergence"])' "$1"
}

{
  echo "date: $(date -u +%FT%TZ)  device: $DEVICE"
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "hip",
getattr(torch.version, "hip", None))'
  [ "$DEVICE" = cuda ] && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} 2>&1 | tee -a "$summary"

common=(--train-step --grads 'fc.*' --seed 0)
for dt in float32 bfloat16 float16; do
  c2r capture "$work/target.py" -o "$caps/cpu-$dt" --device cpu --dtype "$dt" "${common[@]}" >>"$summary" 2>&1
  check "capture cpu $dt" 0 $?
  c2r capture "$work/target.py" -o "$caps/gpu-$dt" --device "$DEVICE" --dtype "$dt" "${common[@]}" >>"$summary" 2>&1
  check "capture $DEVICE $dt" 0 $?
  c2r compare "$caps/cpu-$dt" "$caps/gpu-$dt" --json "$caps/compare-$dt.json" --html "$caps/compare-$dt.html" \
    >>"$summary" 2>&1
  check "compare cpu vs $DEVICE $dt under the ${dt} policy passes" 0 $?
  c2r capture "$work/target.py" -o "$work/perturbed-$dt" --device "$DEVICE" --dtype "$dt" "${common[@]}" \
    --perturb "$LAYER=0.1" >>"$summary" 2>&1
  c2r compare "$caps/cpu-$dt" "$work/perturbed-$dt" --json "$caps/perturbed-$dt.json" >>"$summary" 2>&1
  check "compare cpu vs perturbed $DEVICE $dt fails" 1 $?
  got=$(first_divergence "$caps/perturbed-$dt.json" 2>/dev/null)
  check "perturbed $dt: first divergence is act/$LAYER (got $got)" "act/$LAYER" "$got"
done

c2r capture "$work/target.py" -o "$work/repro" --device "$DEVICE" --check-repro "${common[@]}" >>"$summary" 2>&1
check "same seed twice on $DEVICE is bit-identical" 0 $?

c2r capture "$work/target.py" -o "$caps/gpu-tf32" --device "$DEVICE" --tf32 "${common[@]}" >>"$summary" 2>&1
c2r compare "$caps/cpu-float32" "$caps/gpu-tf32" --float32 tf32 --json "$caps/compare-tf32.json" >>"$summary" 2>&1
check "compare cpu fp32 vs $DEVICE tf32 under --float32 tf32 passes" 0 $?

c2r smoke "$work/target.py" --device "$DEVICE" --json "$caps/smoke.json" >>"$summary" 2>&1
check "smoke on $DEVICE has no medium+ findings" 0 $?

cp "$work/target.py" "$caps/target.py"
tar -C "$work" -czf "$OUT/regress.tar.gz" regress
note "archive: $(du -h "$OUT/regress.tar.gz" | cut -f1)  overall: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
