import triton
import triton.language as tl


@triton.jit
def round_to_tf32_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    bits = tl.inline_asm_elementwise("cvt.rna.tf32.f32 $0, $1;", "=r,f", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(y_ptr + offs, bits.to(tl.float32, bitcast=True), mask=m)
