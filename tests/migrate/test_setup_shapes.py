"""setup.py shapes seen in public PyTorch extensions (our own minimal cases from a sweep of real setup.py files):
a computed nvcc option inside the options list was silently kept (hipcc rejects ``-gencode``), and a list whose
options all went kept an empty indented line."""

from __future__ import annotations

import libcst as cst

from cuda2rocm.migrate.base import BuildOptions
from cuda2rocm.migrate.build import migrate_file
from cuda2rocm.source.edits import apply_edits

SETUP = """\
import os
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

cc = os.environ.get("CUDA_CC", "61")
flags = [
    '-gencode',
    'arch=compute_70,code=sm_70',
]
flags.extend(('-Xcompiler', '-Wall', '--use_fast_math'))
setup(
    name='demo',
    ext_modules=[
        CUDAExtension('a', ['a.cc', 'k.cu'], extra_compile_args={'cxx': ['-O2'], 'nvcc': flags}),
        CUDAExtension(name='b', sources=['b.cu'],
                      extra_compile_args={'nvcc': ["-gencode=arch=compute_{},code=sm_{}".format(cc, cc), "-O3"]}),
    ],
    cmdclass={'build_ext': BuildExtension},
)
"""


def test_computed_option_is_reported_and_emptied_list_has_no_blank_line() -> None:
    done = migrate_file("setup.py", SETUP, BuildOptions())
    out = apply_edits(SETUP, done.edits)
    cst.parse_module(out)
    assert "flags = [\n]\n" in out
    assert "flags.extend(('-Wall', '-ffast-math'))" in out
    computed = [f for f in done.findings if f.rule == "C2R-B402"]
    assert [f.line for f in computed] == [16] and ".format(cc, cc)" in computed[0].message
    assert apply_edits(out, migrate_file("setup.py", out, BuildOptions()).edits) == out
