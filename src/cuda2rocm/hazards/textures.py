"""K508: textures and surfaces, at every site: objects, descriptors, fetches, references, surfaces, arrays."""

from __future__ import annotations

from collections.abc import Iterator

from cuda2rocm.hazards.common import CUDA_GUIDE, FAMILY, LAYER, first_per_line
from cuda2rocm.hazards.context import Hit, Source
from cuda2rocm.model import Confidence, Severity
from cuda2rocm.rules import rule

HIP_TEXTURES = ("https://rocm.docs.amd.com/projects/HIP/en/latest/reference/hip_runtime_api/modules/"
                "texture_management.html")

_OBJECT_CALLS = frozenset({
    "cudaCreateTextureObject", "cudaDestroyTextureObject", "cudaGetTextureObjectResourceDesc",
    "cudaGetTextureObjectTextureDesc", "cudaGetTextureObjectResourceViewDesc", "cudaCreateSurfaceObject",
    "cudaDestroySurfaceObject", "cudaGetSurfaceObjectResourceDesc", "cudaCreateChannelDesc",
    "cudaMallocArray", "cudaMalloc3DArray", "cudaMallocMipmappedArray", "cudaMemcpyToArray",
    "cudaMemcpy2DToArray", "cudaMemcpy2DToArrayAsync", "cudaMemcpyFromArray"})
_REFERENCE_CALLS = frozenset({
    "cudaBindTexture", "cudaBindTexture2D", "cudaBindTextureToArray", "cudaBindTextureToMipmappedArray",
    "cudaUnbindTexture", "cudaGetTextureReference", "cudaGetTextureAlignmentOffset", "cudaBindSurfaceToArray",
    "cudaGetSurfaceReference"})
_FETCHES = frozenset({
    "tex1Dfetch", "tex1D", "tex2D", "tex3D", "tex1DLayered", "tex2DLayered", "texCubemap", "texCubemapLayered",
    "tex2Dgather", "tex1DLod", "tex2DLod", "tex3DLod", "tex1DGrad", "tex2DGrad", "tex3DGrad",
    "tex2DLayeredLod", "texCubemapLod"})
_SURFACES = frozenset({
    "surf1Dread", "surf1Dwrite", "surf2Dread", "surf2Dwrite", "surf3Dread", "surf3Dwrite", "surf1DLayeredread",
    "surf1DLayeredwrite", "surf2DLayeredread", "surf2DLayeredwrite", "surfCubemapread", "surfCubemapwrite"})
#: descriptor types: a site where a variable of the type is set up in a function body
_DESCRIPTORS = frozenset({"cudaResourceDesc", "cudaTextureDesc", "cudaResourceViewDesc", "cudaChannelFormatDesc"})
#: sampling settings whose results differ on AMD (members of cudaTextureDesc, and their values)
_SAMPLING = frozenset({"cudaFilterModeLinear", "normalizedCoords", "sRGB", "maxAnisotropy", "mipmapFilterMode"})
_TEMPLATES = frozenset({"texture", "surface"})  # texture<float, 1, ...> tex; (texture/surface references)

_SAMPLE_NOTE = ("linear filtering and normalized coordinates are computed by different hardware: NVIDIA "
                "interpolates with 8-bit fixed-point weights, so filtered values differ in the low bits")
_CACHE_NOTE = "on AMD texture fetches share the vector L1/L2 with plain loads (no separate read-only path)"


@rule(
    "C2R-K508", "Texture and surface use (objects, descriptors, fetches, references)",
    family=FAMILY, severity=Severity.MEDIUM, confidence=Confidence.MEDIUM, layer=LAYER,
    what="Finds every texture and surface site, one report per line: texture and surface object creation and "
         "destruction (`cudaCreateTextureObject`, `cudaCreateSurfaceObject`), descriptor set-up "
         "(`cudaResourceDesc`, `cudaTextureDesc`, `cudaCreateChannelDesc` in a function body; "
         "`cudaFilterModeLinear`, `.normalizedCoords`), CUDA arrays, fetches (`tex1Dfetch<T>`, `tex2D`, "
         "`tex3D`...), surface reads and writes (`surf2Dwrite`), and texture references (`texture<T, N> ref;`, "
         "`cudaBindTexture`). Handle types alone (`cudaTextureObject_t` parameters) and a project's own names "
         "(`texture` as a variable, `tex_width`) are not reported.",
    why="HIP supports texture and surface objects, but what they compute and cost differs on AMD: "
        + _SAMPLE_NOTE + "; " + _CACHE_NOTE + ", so code that used textures for caching gains nothing; some "
        "channel formats (block-compressed, NV12) and mipmapped/layered variants depend on the ROCm release. "
        "Texture references (`texture<...>`, `cudaBindTexture`) were removed in CUDA 12 and are deprecated in "
        "HIP: they must be ported to texture objects.",
    example="__global__ void k(cudaTextureObject_t t, float* o) { o[threadIdx.x] = tex1Dfetch<float>(t, "
            "threadIdx.x); }\n",
    instead="For point sampling of linear memory use plain (`const __restrict__`) loads; keep texture objects "
            "where hardware filtering is needed and validate the filtered results on the target; port texture "
            "references to texture objects.\n"
            "__global__ void k(const float* __restrict__ t, float* o) { o[threadIdx.x] = t[threadIdx.x]; }\n",
    references=(HIP_TEXTURES, CUDA_GUIDE),
    # every name the check matches (calls, fetches, surfaces, descriptors, sampling, templates) holds one
    requires=("Texture", "Surface", "Array", "Channel", "Resource", "tex1D", "tex2D", "tex3D", "texCubemap", "texture",
              "surf", "FilterMode", "normalizedCoords", "sRGB", "maxAnisotropy"),
)
def check_textures(src: Source) -> Iterator[Hit]:
    found: list[tuple[int, str]] = []
    for i in src.idents(_OBJECT_CALLS | _FETCHES | _SURFACES | _REFERENCE_CALLS):
        if _called(src, i):
            found.append((i, _message(src.src(i))))
    for i in src.idents(_DESCRIPTORS):
        if src.function_at(i) is not None and src.kind(src.next(i)) == "IDENT":
            found.append((i, f"{src.src(i)} set-up: texture/surface resource; " + _CACHE_NOTE))
    for i in src.idents(_SAMPLING):
        if src.src(i).startswith("cuda") or src.src(src.prev(i)) in (".", "->"):
            found.append((i, f"'{src.src(i)}': {_SAMPLE_NOTE}"))
    for i in src.idents(_TEMPLATES):
        if _reference_declaration(src, i):
            found.append((i, f"{src.src(i)} reference: removed in CUDA 12 and deprecated in HIP; port to "
                          f"{src.src(i)} objects"))
    messages = dict(found)
    for i in first_per_line(src, iter(sorted(messages))):
        yield Hit("C2R-K508", i, messages[i])


def _called(src: Source, i: int) -> bool:
    """``f(...)`` or ``f<T>(...)``."""
    j = src.next(i)
    if src.src(j) == "<":
        close = _template_close(src, j)
        j = src.next(close) if close >= 0 else j
    return src.src(j) == "(" and j in src.pairs


def _template_close(src: Source, j: int) -> int:
    depth = 0
    for k in src.range_code(j, min(len(src.tokens), j + 64)):
        s = src.src(k)
        depth += s == "<"
        depth -= s == ">"
        depth -= 2 * (s == ">>")
        if depth <= 0 and s in (">", ">>"):
            return k
        if s in (";", "{", "}"):
            return -1
    return -1


def _reference_declaration(src: Source, i: int) -> bool:
    """``texture<float, 1, cudaReadModeElementType> name`` / ``surface<void, 2> name`` (not a member or call)."""
    if src.src(src.next(i)) != "<" or src.src(src.prev(i)) in (".", "->", "::"):
        return False
    close = _template_close(src, src.next(i))
    return close >= 0 and src.kind(src.next(close)) == "IDENT"


def _message(name: str) -> str:
    if name in _REFERENCE_CALLS:
        return f"{name}: texture/surface references were removed in CUDA 12 and are deprecated in HIP"
    if name in _FETCHES:
        return f"{name}: texture fetch; {_CACHE_NOTE}; filtered fetches differ ({_SAMPLE_NOTE})"
    if name in _SURFACES:
        return f"{name}: surface access; check the array's channel format is supported by the target ROCm"
    return f"{name}: texture/surface object set-up; HIP supports it, check formats and filtering on the target"
