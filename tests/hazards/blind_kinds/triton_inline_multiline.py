import triton
import triton.language


@triton.jit
def pack_half2_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: triton.language.constexpr):
    offs = triton.language.program_id(0) * BLOCK + triton.language.arange(0, BLOCK)
    m = offs < n
    a = triton.language.load(a_ptr + offs, mask=m)
    b = triton.language.load(b_ptr + offs, mask=m)
    packed = triton.language.inline_asm_elementwise(
        asm="""
        {
            .reg .b16 lo, hi;
            cvt.rn.f16.f32 lo, $1;
            cvt.rn.f16.f32 hi, $2;
            mov.b32 $0, {lo, hi};
        }
        """,
        constraints="=r,f,f",
        args=[a, b],
        dtype=triton.language.int32,
        is_pure=True,
        pack=1,
    )
    triton.language.store(out_ptr + offs, packed, mask=m)
