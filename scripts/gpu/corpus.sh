#!/usr/bin/env bash
# CUDA baseline for the corpus: build every tests/corpus program with nvcc (-arch=sm_90) and run it on
# the GPU; pack each program's stdout/stderr/exit code into "$OUT/corpus-baseline.tar.gz" (the baseline
# `compare` uses). Usage from the repo root: scripts/gpu/corpus.sh [program ...]   (default: all)
# Needs: nvcc (CUDA 13), a GPU, python3 with ruamel.yaml importable (PYTHONPATH=$PWD/src:/tmp/site).
# Library headers/libs (cuBLAS, cuRAND, cuSPARSE, cuFFT) come from the toolkit or, failing that, from
# the nvidia-* pip wheels next to PyTorch.
set -u
OUT=${OUT:?set OUT to the result folder}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/out" "$work/libs"

# Library headers the toolkit lacks come from the nvidia-* wheels (namespace package 'nvidia'): add the
# include dir holding each missing header and its sibling lib dir, with unversioned .so links.
python3 - "$work/libs" "$(dirname "$(readlink -f "$NVCC")")/.." > "$work/flags" <<'PY'
import glob, os, sys
links = sys.argv[1]
roots = [r for r in {os.path.realpath(r) for r in (sys.argv[2], os.environ.get("CUDA_HOME", ""), "/usr/local/cuda")
                    if r} if os.path.isdir(f"{r}/include")]  # fmt: skip
needed = ["cublas_v2.h", "curand.h", "curand_kernel.h", "cusparse.h", "cufft.h"]
toolkit_inc = [d for r in roots for d in (f"{r}/include", *glob.glob(f"{r}/targets/*/include"))]
try:
    import nvidia
    wheel_inc = sorted(glob.glob(f"{list(nvidia.__path__)[0]}/**/include", recursive=True))
except ImportError:
    wheel_inc = []
flags = []


def link_unversioned(lib):
    for so in glob.glob(f"{lib}/lib*.so.*"):
        base = os.path.basename(so).split(".so.")[0] + ".so"
        if not os.path.exists(os.path.join(lib, base)) and not os.path.exists(os.path.join(links, base)):
            os.symlink(so, os.path.join(links, base))


for lib in (f"{r}/{d}" for r in roots for d in ("lib64", "lib")):  # pip nvcc may lack libX.so links
    if os.path.isdir(lib):
        flags.append(f"-L{lib}")
        link_unversioned(lib)
for header in needed:
    if any(os.path.exists(os.path.join(d, header)) for d in toolkit_inc):
        continue
    for inc in wheel_inc:
        if os.path.exists(os.path.join(inc, header)) and f"-I{inc}" not in flags:
            lib = os.path.join(os.path.dirname(inc), "lib")
            flags += [f"-I{inc}", f"-L{lib}"]
            link_unversioned(lib)
print(" ".join(flags))
PY
libcuda=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 /{print $NF; exit}')
[ -n "$libcuda" ] && [ ! -e "$work/libs/libcuda.so" ] && ln -s "$libcuda" "$work/libs/libcuda.so"
extra=$(cat "$work/flags")
export LD_LIBRARY_PATH="$work/libs:$(echo "$extra" | tr ' ' '\n' | sed -n 's/^-L//p' | paste -sd:)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# name|sources|link flags, from the manifest
python3 - "$@" > "$work/programs" <<'PY'
import sys
from ruamel.yaml import YAML
wanted = set(sys.argv[1:])
for p in YAML(typ="safe").load(open("tests/corpus/manifest.yaml"))["programs"]:
    if not wanted or p["name"] in wanted:
        srcs = " ".join(f"tests/corpus/cuda/{s}" for s in p["sources"])
        print(f"{p['name']}|{srcs}|{' '.join(p.get('link') or [])}")
PY

{ echo "# $(date -u +%FT%TZ)"; "$NVCC" --version | tail -2; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1; } > "$work/out/_environment.txt"
printf 'program\tbuild_rc\trun_rc\tpassed\trun_ms\n' > "$work/out/_summary.tsv"
build() {  # name sources link: compile one program, record its exit code
  # shellcheck disable=SC2086
  "$NVCC" -arch=sm_90 -std=c++17 -O2 $2 -o "$work/bin/$1" $extra -L"$work/libs" $3 > "$work/out/$1.build.txt" 2>&1
  echo $? > "$work/out/$1.build_rc"
}
jobs_max=$(( $(nproc) > 8 ? 8 : $(nproc) ))
while IFS='|' read -r name sources link; do   # builds in parallel (CPU only)
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  build "$name" "$sources" "$link" &
done < "$work/programs"
wait
while IFS='|' read -r name sources link; do   # runs one at a time (the GPU)
  built=$(cat "$work/out/$name.build_rc")
  run=-1
  start=$(date +%s%N)
  if [ "$built" -eq 0 ]; then
    timeout 300 "$work/bin/$name" > "$work/out/$name.stdout" 2> "$work/out/$name.stderr"
    run=$?
  fi
  passed=no
  grep -q "^$name: PASSED" "$work/out/$name.stdout" 2>/dev/null && passed=yes
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$built" "$run" "$passed" $(( ($(date +%s%N) - start) / 1000000 )) \
    | tee -a "$work/out/_summary.tsv"
done < "$work/programs"

tar czf "$OUT/corpus-baseline.tar.gz" -C "$work/out" .
total=$(($(wc -l < "$work/out/_summary.tsv") - 1))
ok=$(grep -c $'\tyes\t' "$work/out/_summary.tsv")
echo "corpus: $ok of $total programs built, ran and PASSED on $(tail -1 "$work/out/_environment.txt")"
[ "$ok" -eq "$total" ]
