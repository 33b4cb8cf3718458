// Roofline probes: stream copy, read-only bandwidth, fp32 FMA throughput.

// Copy n4 float4s (16-byte accesses, grid-stride).
__kernel void copy4(__global const float4* restrict src, __global float4* restrict dst, const uint n4) {
    for (uint i = get_global_id(0); i < n4; i += get_global_size(0))
        dst[i] = src[i];
}

// Read n4 float4s, one partial sum per work-item (the write is negligible).
__kernel void read4(__global const float4* restrict src, __global float* restrict out, const uint n4) {
    float4 acc = (float4)(0.0f);
    for (uint i = get_global_id(0); i < n4; i += get_global_size(0))
        acc += src[i];
    out[get_global_id(0)] = acc.x + acc.y + acc.z + acc.w;
}

// 16 independent register-resident FMA chains of `iters` steps: 32 * iters flops per item.
__kernel void fma_chain(__global float* restrict out, const float a, const float b, const int iters) {
    float x0 = get_global_id(0) * 1e-9f, x1 = x0 + 1e-3f, x2 = x0 + 2e-3f, x3 = x0 + 3e-3f;
    float x4 = x0 + 4e-3f, x5 = x0 + 5e-3f, x6 = x0 + 6e-3f, x7 = x0 + 7e-3f;
    float x8 = x0 + 8e-3f, x9 = x0 + 9e-3f, xa = x0 + 1e-2f, xb = x0 + 1.1e-2f;
    float xc = x0 + 1.2e-2f, xd = x0 + 1.3e-2f, xe = x0 + 1.4e-2f, xf = x0 + 1.5e-2f;
    for (int i = 0; i < iters; i++) {
        x0 = fma(x0, a, b); x1 = fma(x1, a, b); x2 = fma(x2, a, b); x3 = fma(x3, a, b);
        x4 = fma(x4, a, b); x5 = fma(x5, a, b); x6 = fma(x6, a, b); x7 = fma(x7, a, b);
        x8 = fma(x8, a, b); x9 = fma(x9, a, b); xa = fma(xa, a, b); xb = fma(xb, a, b);
        xc = fma(xc, a, b); xd = fma(xd, a, b); xe = fma(xe, a, b); xf = fma(xf, a, b);
    }
    out[get_global_id(0)] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9 + xa + xb + xc + xd + xe + xf;
}

// One work-item that does nothing useful: the timing gate in front of multi-kernel runs.
__kernel void gate(__global float* restrict sink) {
    if (get_global_id(0) == 1u) sink[0] = 0.0f;
}
