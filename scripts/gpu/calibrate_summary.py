"""Summarise ``calibrate.jsonl`` (scripts/gpu/calibrate.py): per dtype and tensor kind, the worst unperturbed
cross-device error, and whether each perturbation is caught, each tensor judged again under the policy this
checkout ships (``regress/data/tolerances.yaml``; the element tolerances atol/rtol are the recorded run's).

Run: ``python3 scripts/gpu/calibrate_summary.py calibrate.jsonl`` (prints Markdown tables).
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

from cuda2rocm.regress.policy import Policy, default_policy


def _fails(r: dict, policy: Policy) -> bool:  # type: ignore[type-arg]
    tol = policy.for_tensor(r["name"], r["dtype"])
    if tol is None:
        return False
    return (r["mismatch_fraction"] > tol.max_mismatch_fraction or r["rel_l2"] > tol.max_rel_l2
            or r["cosine"] < tol.min_cosine)


def main(path: str) -> int:
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    policy = default_policy()
    for r in rows:
        r["status"] = "fail" if _fails(r, policy) else "pass"
    worst: dict[tuple[str, str], dict] = {}
    fails: dict[tuple[str, str], int] = defaultdict(int)
    total: dict[tuple[str, str], int] = defaultdict(int)
    for r in rows:
        if r["perturb"]:
            continue
        key = (r["dtype"], r["kind"])
        total[key] += 1
        if r["status"] != "pass":
            fails[key] += 1
        w = worst.setdefault(key, {"rel_l2": 0.0, "cosine": 1.0, "mismatch_fraction": 0.0, "at": ""})
        if r["rel_l2"] > w["rel_l2"]:
            w["rel_l2"], w["at"] = r["rel_l2"], f'{r["model"]}:{r["name"]}'
        w["cosine"] = min(w["cosine"], r["cosine"])
        w["mismatch_fraction"] = max(w["mismatch_fraction"], r["mismatch_fraction"])
    print("| dtype | kind | tensors | failing | worst rel L2 | at | min cosine | max mismatch fraction |")
    print("|---|---|---:|---:|---:|---|---:|---:|")
    for (dtype, kind), w in sorted(worst.items()):
        print(f'| {dtype} | {kind} | {total[dtype, kind]} | {fails[dtype, kind]} | {w["rel_l2"]:.2e} | {w["at"]} '
              f'| {w["cosine"]:.6f} | {w["mismatch_fraction"]:.4f} |')
    print()
    caught: dict[tuple[str, float], list[int]] = defaultdict(lambda: [0, 0])
    layer_err: dict[tuple[str, float], float] = defaultdict(float)
    runs: dict[tuple[str, str, int, str, float], bool] = {}
    for r in rows:
        if not r["perturb"]:
            continue
        run = (r["model"], r["dtype"], r["seed"], r["device"], r["perturb"])
        runs[run] = runs.get(run, False) or r["status"] != "pass"
        if r["name"] == f'act/{r["perturbed_layer"]}':
            layer_err[r["dtype"], r["perturb"]] = max(layer_err[r["dtype"], r["perturb"]], r["rel_l2"])
    for (_, dtype, _, _, scale), failed in runs.items():
        caught[dtype, scale][0] += failed
        caught[dtype, scale][1] += 1
    print("| dtype | perturbation (x std) | runs caught | perturbed layer's rel L2 (max) | policy max_rel_l2 |")
    print("|---|---:|---:|---:|---:|")
    for (dtype, scale), (n, of) in sorted(caught.items()):
        limit = policy.classes[policy.class_for(dtype, "act/x")].max_rel_l2
        print(f"| {dtype} | {scale:g} | {n}/{of} | {layer_err[dtype, scale]:.2e} | {limit:g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
