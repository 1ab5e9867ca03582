// cuda2rocm_simd.h - per-halfword / per-byte SIMD integer functions that CUDA provides as device
// intrinsics (__vadd2, __vmaxs4, __vabsdiffu4, ...) and HIP does not.
//
// Written for cuda2rocm from the semantics in the CUDA Math API ("SIMD Intrinsics"). Each function is a
// plain lane-by-lane computation on 32-bit words; `cuda2rocm convert` copies this header beside the files
// that use the functions and includes it. Checked bit for bit against the CUDA intrinsics on an NVIDIA GPU
// (tests/translate/simd/simd_exact.cu) and against an independent reference on the host.
//
// Under HIP the CUDA names are defined as device functions; under nvcc only the namespaced versions
// (c2r_simd::vadd2, ...) exist, so the CUDA originals stay untouched and can be compared against.
#ifndef CUDA2ROCM_SIMD_H
#define CUDA2ROCM_SIMD_H

#if defined(__HIPCC__) || defined(__HIP__)
#include <hip/hip_runtime.h>
#endif
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
#define C2R_SIMD_FN __host__ __device__ inline
#else
#define C2R_SIMD_FN inline
#endif

namespace c2r_simd {

// Lane access for W-bit lanes (W = 16 or 8) of a 32-bit word.
template <int W> C2R_SIMD_FN unsigned lane_u(unsigned x, int i) {
    return (x >> (i * W)) & ((1u << W) - 1u);
}
template <int W> C2R_SIMD_FN int lane_s(unsigned x, int i) {
    int v = static_cast<int>(lane_u<W>(x, i));
    return v >= (1 << (W - 1)) ? v - (1 << W) : v;
}
template <int W> C2R_SIMD_FN unsigned pack(unsigned acc, int i, int v) {
    return acc | ((static_cast<unsigned>(v) & ((1u << W) - 1u)) << (i * W));
}
template <int W> C2R_SIMD_FN int sat_s(int v) {
    const int hi = (1 << (W - 1)) - 1, lo = -(1 << (W - 1));
    return v > hi ? hi : (v < lo ? lo : v);
}
template <int W> C2R_SIMD_FN int sat_u(int v) {
    const int hi = (1 << W) - 1;
    return v > hi ? hi : (v < 0 ? 0 : v);
}

// Operation kinds, applied lane by lane.
enum Op {
    ADD, ADD_SS, ADD_US, SUB, SUB_SS, SUB_US, AVG_S, AVG_U, HADD_U, ABSDIFF_S, ABSDIFF_U,
    MAX_S, MAX_U, MIN_S, MIN_U, EQ, NE, GE_S, GE_U, GT_S, GT_U, LE_S, LE_U, LT_S, LT_U
};

template <int W> C2R_SIMD_FN int lane_op(Op op, unsigned a, unsigned b, int i) {
    const int sa = lane_s<W>(a, i), sb = lane_s<W>(b, i);
    const int ua = static_cast<int>(lane_u<W>(a, i)), ub = static_cast<int>(lane_u<W>(b, i));
    switch (op) {
    case ADD: return ua + ub;
    case ADD_SS: return sat_s<W>(sa + sb);
    case ADD_US: return sat_u<W>(ua + ub);
    case SUB: return ua - ub;
    case SUB_SS: return sat_s<W>(sa - sb);
    case SUB_US: return sat_u<W>(ua - ub);
    case AVG_S: {  // signed average, rounded half away from zero
        const int s = sa + sb;
        return s >= 0 ? (s + 1) >> 1 : -((-s + 1) >> 1);
    }
    case AVG_U: return (ua + ub + 1) >> 1;
    case HADD_U: return (ua + ub) >> 1;
    case ABSDIFF_S: return sa > sb ? sa - sb : sb - sa;
    case ABSDIFF_U: return ua > ub ? ua - ub : ub - ua;
    case MAX_S: return sa > sb ? sa : sb;
    case MAX_U: return ua > ub ? ua : ub;
    case MIN_S: return sa < sb ? sa : sb;
    case MIN_U: return ua < ub ? ua : ub;
    case EQ: return ua == ub;
    case NE: return ua != ub;
    case GE_S: return sa >= sb;
    case GE_U: return ua >= ub;
    case GT_S: return sa > sb;
    case GT_U: return ua > ub;
    case LE_S: return sa <= sb;
    case LE_U: return ua <= ub;
    case LT_S: return sa < sb;
    case LT_U: return ua < ub;
    }
    return 0;
}

template <int W> C2R_SIMD_FN unsigned map2(Op op, unsigned a, unsigned b) {
    unsigned r = 0;
    for (int i = 0; i < 32 / W; ++i) r = pack<W>(r, i, lane_op<W>(op, a, b, i));
    return r;
}
// Comparisons as masks: every bit of a true lane set.
template <int W> C2R_SIMD_FN unsigned cmp(Op op, unsigned a, unsigned b) {
    unsigned r = 0;
    for (int i = 0; i < 32 / W; ++i) r = pack<W>(r, i, lane_op<W>(op, a, b, i) ? -1 : 0);
    return r;
}
template <int W> C2R_SIMD_FN unsigned sad(Op op, unsigned a, unsigned b) {
    unsigned r = 0;
    for (int i = 0; i < 32 / W; ++i) r += static_cast<unsigned>(lane_op<W>(op, a, b, i));
    return r;
}
template <int W> C2R_SIMD_FN unsigned absv(unsigned a, bool saturate) {
    unsigned r = 0;
    for (int i = 0; i < 32 / W; ++i) {
        const int v = lane_s<W>(a, i);
        const int m = v < 0 ? -v : v;
        r = pack<W>(r, i, saturate ? sat_s<W>(m) : m);
    }
    return r;
}
template <int W> C2R_SIMD_FN unsigned negv(unsigned a, bool saturate) {
    unsigned r = 0;
    for (int i = 0; i < 32 / W; ++i) {
        const int v = -lane_s<W>(a, i);
        r = pack<W>(r, i, saturate ? sat_s<W>(v) : v);
    }
    return r;
}

#define C2R_SIMD_PAIR(name, kind, op)                                                        \
    C2R_SIMD_FN unsigned name##2(unsigned a, unsigned b) { return kind<16>(op, a, b); }     \
    C2R_SIMD_FN unsigned name##4(unsigned a, unsigned b) { return kind<8>(op, a, b); }

C2R_SIMD_PAIR(vadd, map2, ADD)
C2R_SIMD_PAIR(vaddss, map2, ADD_SS)
C2R_SIMD_PAIR(vaddus, map2, ADD_US)
C2R_SIMD_PAIR(vsub, map2, SUB)
C2R_SIMD_PAIR(vsubss, map2, SUB_SS)
C2R_SIMD_PAIR(vsubus, map2, SUB_US)
C2R_SIMD_PAIR(vavgs, map2, AVG_S)
C2R_SIMD_PAIR(vavgu, map2, AVG_U)
C2R_SIMD_PAIR(vhaddu, map2, HADD_U)
C2R_SIMD_PAIR(vabsdiffs, map2, ABSDIFF_S)
C2R_SIMD_PAIR(vabsdiffu, map2, ABSDIFF_U)
C2R_SIMD_PAIR(vmaxs, map2, MAX_S)
C2R_SIMD_PAIR(vmaxu, map2, MAX_U)
C2R_SIMD_PAIR(vmins, map2, MIN_S)
C2R_SIMD_PAIR(vminu, map2, MIN_U)
C2R_SIMD_PAIR(vseteq, map2, EQ)
C2R_SIMD_PAIR(vsetne, map2, NE)
C2R_SIMD_PAIR(vsetges, map2, GE_S)
C2R_SIMD_PAIR(vsetgeu, map2, GE_U)
C2R_SIMD_PAIR(vsetgts, map2, GT_S)
C2R_SIMD_PAIR(vsetgtu, map2, GT_U)
C2R_SIMD_PAIR(vsetles, map2, LE_S)
C2R_SIMD_PAIR(vsetleu, map2, LE_U)
C2R_SIMD_PAIR(vsetlts, map2, LT_S)
C2R_SIMD_PAIR(vsetltu, map2, LT_U)
C2R_SIMD_PAIR(vcmpeq, cmp, EQ)
C2R_SIMD_PAIR(vcmpne, cmp, NE)
C2R_SIMD_PAIR(vcmpges, cmp, GE_S)
C2R_SIMD_PAIR(vcmpgeu, cmp, GE_U)
C2R_SIMD_PAIR(vcmpgts, cmp, GT_S)
C2R_SIMD_PAIR(vcmpgtu, cmp, GT_U)
C2R_SIMD_PAIR(vcmples, cmp, LE_S)
C2R_SIMD_PAIR(vcmpleu, cmp, LE_U)
C2R_SIMD_PAIR(vcmplts, cmp, LT_S)
C2R_SIMD_PAIR(vcmpltu, cmp, LT_U)
C2R_SIMD_PAIR(vsads, sad, ABSDIFF_S)
C2R_SIMD_PAIR(vsadu, sad, ABSDIFF_U)
#undef C2R_SIMD_PAIR

C2R_SIMD_FN unsigned vabs2(unsigned a) { return absv<16>(a, false); }
C2R_SIMD_FN unsigned vabs4(unsigned a) { return absv<8>(a, false); }
C2R_SIMD_FN unsigned vabsss2(unsigned a) { return absv<16>(a, true); }
C2R_SIMD_FN unsigned vabsss4(unsigned a) { return absv<8>(a, true); }
C2R_SIMD_FN unsigned vneg2(unsigned a) { return negv<16>(a, false); }
C2R_SIMD_FN unsigned vneg4(unsigned a) { return negv<8>(a, false); }
C2R_SIMD_FN unsigned vnegss2(unsigned a) { return negv<16>(a, true); }
C2R_SIMD_FN unsigned vnegss4(unsigned a) { return negv<8>(a, true); }

}  // namespace c2r_simd

// The CUDA names, where the compiler does not provide them (HIP, or the host compiler in tests).
#if !defined(__CUDACC__) || defined(__HIP__)
#define C2R_SIMD_ALIAS1(name) C2R_SIMD_FN unsigned __##name(unsigned a) { return c2r_simd::name(a); }
#define C2R_SIMD_ALIAS2(name) \
    C2R_SIMD_FN unsigned __##name(unsigned a, unsigned b) { return c2r_simd::name(a, b); }
#define C2R_SIMD_ALIAS_PAIR(name) C2R_SIMD_ALIAS2(name##2) C2R_SIMD_ALIAS2(name##4)
C2R_SIMD_ALIAS_PAIR(vadd) C2R_SIMD_ALIAS_PAIR(vaddss) C2R_SIMD_ALIAS_PAIR(vaddus)
C2R_SIMD_ALIAS_PAIR(vsub) C2R_SIMD_ALIAS_PAIR(vsubss) C2R_SIMD_ALIAS_PAIR(vsubus)
C2R_SIMD_ALIAS_PAIR(vavgs) C2R_SIMD_ALIAS_PAIR(vavgu) C2R_SIMD_ALIAS_PAIR(vhaddu)
C2R_SIMD_ALIAS_PAIR(vabsdiffs) C2R_SIMD_ALIAS_PAIR(vabsdiffu)
C2R_SIMD_ALIAS_PAIR(vmaxs) C2R_SIMD_ALIAS_PAIR(vmaxu) C2R_SIMD_ALIAS_PAIR(vmins) C2R_SIMD_ALIAS_PAIR(vminu)
C2R_SIMD_ALIAS_PAIR(vseteq) C2R_SIMD_ALIAS_PAIR(vsetne)
C2R_SIMD_ALIAS_PAIR(vsetges) C2R_SIMD_ALIAS_PAIR(vsetgeu) C2R_SIMD_ALIAS_PAIR(vsetgts) C2R_SIMD_ALIAS_PAIR(vsetgtu)
C2R_SIMD_ALIAS_PAIR(vsetles) C2R_SIMD_ALIAS_PAIR(vsetleu) C2R_SIMD_ALIAS_PAIR(vsetlts) C2R_SIMD_ALIAS_PAIR(vsetltu)
C2R_SIMD_ALIAS_PAIR(vcmpeq) C2R_SIMD_ALIAS_PAIR(vcmpne)
C2R_SIMD_ALIAS_PAIR(vcmpges) C2R_SIMD_ALIAS_PAIR(vcmpgeu) C2R_SIMD_ALIAS_PAIR(vcmpgts) C2R_SIMD_ALIAS_PAIR(vcmpgtu)
C2R_SIMD_ALIAS_PAIR(vcmples) C2R_SIMD_ALIAS_PAIR(vcmpleu) C2R_SIMD_ALIAS_PAIR(vcmplts) C2R_SIMD_ALIAS_PAIR(vcmpltu)
C2R_SIMD_ALIAS_PAIR(vsads) C2R_SIMD_ALIAS_PAIR(vsadu)
C2R_SIMD_ALIAS1(vabs2) C2R_SIMD_ALIAS1(vabs4) C2R_SIMD_ALIAS1(vabsss2) C2R_SIMD_ALIAS1(vabsss4)
C2R_SIMD_ALIAS1(vneg2) C2R_SIMD_ALIAS1(vneg4) C2R_SIMD_ALIAS1(vnegss2) C2R_SIMD_ALIAS1(vnegss4)
#undef C2R_SIMD_ALIAS_PAIR
#undef C2R_SIMD_ALIAS2
#undef C2R_SIMD_ALIAS1
#endif

#undef C2R_SIMD_FN
#endif  // CUDA2ROCM_SIMD_H
