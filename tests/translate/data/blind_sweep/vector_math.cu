// Pattern: particle update with float4/float3 vector types, make_float4/make_float3, rsqrtf, fast-math
// intrinsics (__fdividef, __expf, __sinf, __saturatef), fmaf, norm3df, __ldg loads.
#include <cuda_runtime.h>

__device__ __forceinline__ float3 operator-(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }

__global__ void nbody(const float4* __restrict__ pos, float4* vel, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 pi = __ldg(&pos[i]);
    float3 acc = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; ++j) {
        float4 pj = __ldg(&pos[j]);
        float3 d = make_float3(pj.x, pj.y, pj.z) - make_float3(pi.x, pi.y, pi.z);
        float inv = rsqrtf(d.x * d.x + d.y * d.y + d.z * d.z + 1e-6f);
        float s = pj.w * inv * inv * inv;
        acc.x = fmaf(d.x, s, acc.x); acc.y = fmaf(d.y, s, acc.y); acc.z = fmaf(d.z, s, acc.z);
    }
    float damp = __saturatef(__expf(-dt) + __sinf(dt) * 0.f);
    float len = norm3df(acc.x, acc.y, acc.z);
    float k = __fdividef(dt, 1.f + len);
    float4 v = vel[i];
    vel[i] = make_float4(v.x * damp + acc.x * k, v.y * damp + acc.y * k, v.z * damp + acc.z * k, v.w);
    int2 q = make_int2(__float2int_rn(len), __float_as_int(k));
    uchar4 c = make_uchar4(q.x & 255, 0, 0, 0);
    double2 dd = make_double2(sqrt((double)c.x), rsqrt(2.0));
    if (dd.x < 0) vel[i].w = (float)dd.y;
}

int main() {
    float4 *p, *v;
    cudaMalloc(&p, 1024 * sizeof(float4));
    cudaMalloc(&v, 1024 * sizeof(float4));
    nbody<<<4, 256>>>(p, v, 1024, 0.01f);
    cudaDeviceSynchronize();
    return 0;
}
