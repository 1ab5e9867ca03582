"""Write the JSON twin of every packaged YAML data file (see cuda2rocm/datafiles.py).

python tools/gen_data_json.py          # (re)write src/cuda2rocm/*/data/*.yaml.json where stale
python tools/gen_data_json.py --check  # exit 1 if a twin is missing or stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cuda2rocm.datafiles import TWIN_SUFFIX, compile_yaml
from cuda2rocm.fsio import write_text_atomic

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cuda2rocm"


def sources() -> list[Path]:
    return sorted(PACKAGE.glob("*/data/*.yaml"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a twin is missing or stale")
    args = parser.parse_args(argv)
    stale = []
    for src in sources():
        twin = src.with_name(src.name + TWIN_SUFFIX)
        want = compile_yaml(src.read_text(encoding="utf-8"))
        if twin.exists() and twin.read_text(encoding="utf-8") == want:
            continue
        stale.append(twin)
        if not args.check:
            write_text_atomic(twin, want)
    if args.check and stale:
        print("stale JSON twins (run python tools/gen_data_json.py): " + ", ".join(map(str, stale)), file=sys.stderr)
        return 1
    print(f"{len(sources())} YAML data files, {len(stale)} twin(s) {'stale' if args.check else 'written'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
