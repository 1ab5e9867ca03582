"""Prebuilt binaries: ELF files (DT_NEEDED on CUDA libraries, ``.nv_fatbin`` sections, undefined CUDA
symbols), static archives, wheels containing them, and NVIDIA device code (cubin/fatbin/PTX)."""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass, field
from typing import BinaryIO

from elftools.common.exceptions import ELFError
from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

from cuda2rocm.results import BinaryArtifact
from cuda2rocm.scan import rules
from cuda2rocm.scan.filefacts import FileFacts

CUDA_LIB = re.compile(r"lib(cuda|cudart|cublas|cublasLt|cudnn\w*|cufft\w*|curand|cusparse\w*|cusolver\w*|nccl|nvrtc"
                      r"|nvinfer\w*|nvToolsExt|nvidia-ml|cupti|npp\w*|nvjpeg|cutensor)\.(so|a)")
_FATBIN_SECTIONS = frozenset({".nv_fatbin", "__nv_relfatbin", ".nvFatBinSegment"})
_SYMBOL_LIBS = (("cudnn", "libcudnn"), ("cublasLt", "libcublasLt"), ("cublas", "libcublas"), ("nccl", "libnccl"),
                ("cufft", "libcufft"), ("curand", "libcurand"), ("cusparse", "libcusparse"),
                ("cusolver", "libcusolver"), ("nvrtc", "libnvrtc"), ("cuda", "libcudart"))
_MAX_MEMBER = 512 * 2**20
_KIND_BY_SUFFIX = {".cubin": "cubin", ".fatbin": "fatbin", ".ptx": "ptx", ".whl": "wheel"}


@dataclass
class _Facts:
    libs: set[str] = field(default_factory=set)
    fatbin: bool = False
    kind: str = ""


def scan_binary(report: FileFacts, abspath: str) -> None:
    suffix = "." + abspath.rsplit(".", 1)[-1].lower() if "." in abspath.rsplit("/", 1)[-1] else ""
    facts = _Facts(kind=_KIND_BY_SUFFIX.get(suffix, ""))
    try:
        with open(abspath, "rb") as f:
            _dispatch(report, f, facts)
    except OSError as exc:
        report.problem(rules.E101, f"cannot read binary: {exc.strerror or exc}")
        return
    if facts.kind:
        report.binary = BinaryArtifact(report.path, facts.kind, tuple(sorted(facts.libs)), facts.fatbin, False)


def _dispatch(report: FileFacts, f: BinaryIO, facts: _Facts) -> None:
    magic = f.read(8)
    f.seek(0)
    if facts.kind in ("ptx", "fatbin"):
        facts.fatbin = facts.kind == "fatbin"
        return
    if facts.kind == "wheel":
        _wheel(report, f, facts)
    elif magic[:4] == b"\x7fELF":
        _elf(report, f, facts)
    elif magic == b"!<arch>\n":
        facts.kind = "elf-static"
        _archive(report, f.read(), facts)


def _elf(report: FileFacts, f: BinaryIO, facts: _Facts) -> None:
    try:
        elf = ELFFile(f)
        if elf["e_machine"] == "EM_CUDA":
            facts.kind, facts.fatbin = "cubin", True
            return
        facts.kind = facts.kind or {"ET_DYN": "elf-shared", "ET_REL": "elf-object"}.get(elf["e_type"], "elf-exec")
        _elf_facts(elf, facts)
    except (ELFError, ValueError, KeyError, IndexError, OSError) as exc:
        report.problem(rules.E105, f"malformed ELF file: {exc}")


def _elf_facts(elf: ELFFile, facts: _Facts) -> None:
    for section in elf.iter_sections():
        if section.name in _FATBIN_SECTIONS:
            facts.fatbin = True
        if isinstance(section, DynamicSection):
            for tag in section.iter_tags("DT_NEEDED"):
                needed = str(getattr(tag, "needed", ""))
                if CUDA_LIB.match(needed):
                    facts.libs.add(needed)
        elif isinstance(section, SymbolTableSection) and elf["e_type"] == "ET_REL":
            facts.libs.update(_undefined_cuda(section))


def _undefined_cuda(symtab: SymbolTableSection) -> set[str]:
    libs: set[str] = set()
    for sym in symtab.iter_symbols():
        if sym["st_shndx"] != "SHN_UNDEF" or not sym.name:
            continue
        lib = next((lib for prefix, lib in _SYMBOL_LIBS if sym.name.startswith(prefix)), None)
        if lib:
            libs.add(lib)
    return libs


def _archive(report: FileFacts, data: bytes, facts: _Facts) -> None:
    """Walk the members of an ``ar`` archive; ELF members are analysed like objects."""
    pos = 8
    while pos + 60 <= len(data):
        try:
            size = int(data[pos + 48:pos + 58].strip() or b"0")
        except ValueError:
            report.problem(rules.E105, "malformed ar archive header")
            return
        member = data[pos + 60:pos + 60 + size]
        if member[:4] == b"\x7fELF":
            _elf_member(member, facts)
        pos += 60 + size + (size & 1)


def _elf_member(data: bytes, facts: _Facts) -> None:
    try:
        _elf_facts(ELFFile(io.BytesIO(data)), facts)
    except (ELFError, ValueError, KeyError, IndexError):
        return


def _wheel(report: FileFacts, f: BinaryIO, facts: _Facts) -> None:
    try:
        with zipfile.ZipFile(f) as zf:
            for info in zf.infolist():
                if re.search(r"\.so(\.\d+)*$", info.filename) and info.file_size <= _MAX_MEMBER:
                    _elf_member(zf.read(info), facts)
    except (zipfile.BadZipFile, OSError, RuntimeError) as exc:
        report.problem(rules.E105, f"not a valid wheel (zip): {exc}")
