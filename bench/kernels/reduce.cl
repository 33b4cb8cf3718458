// NVIDIA's reduction "version 7" (Harris, "Optimizing Parallel Reduction in CUDA"):
// grid-stride loop, two loads per step, tree in local memory, fully unrolled for WG = 256.
//
// Fixes against the published version 7:
//  1. Stride bug: the loop `while (i < n) { sum += x[i] + x[i + blockSize]; i += gridSize; }`
//     reads x[i + blockSize] past the end whenever n is not a multiple of 2 * blockSize
//     (the SDK sample guards it with `nIsPow2 || i + blockSize < n`); here it is guarded.
//  2. The last-warp unroll relies on warp-synchronous execution through a `volatile` pointer,
//     which OpenCL does not guarantee (nor does CUDA since Volta); here every step has a barrier.
#define WG 256

inline float ld(const int mode, __global const float* restrict x, __global const float* restrict y, const uint i) {
    const float v = x[i];
    return mode == 0 ? v : (mode == 1 ? fabs(v) : v * y[i]);
}

inline void reduce7(const int mode, __global const float* restrict x, __global const float* restrict y,
                    __global float* restrict out, const uint n, __local float* s) {
    const uint tid = get_local_id(0);
    uint i = get_group_id(0) * (WG * 2) + tid;
    const uint grid = WG * 2 * get_num_groups(0);
    float sum = 0.0f;
    while (i < n) {
        sum += ld(mode, x, y, i);
        if (i + WG < n) sum += ld(mode, x, y, i + WG);
        i += grid;
    }
    s[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint st = WG / 2; st > 0; st >>= 1) {
        if (tid < st) s[tid] += s[tid + st];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0) out[get_group_id(0)] = s[0];
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void sum7(__global const float* restrict x, __global float* restrict out, const uint n) {
    __local float s[WG];
    reduce7(0, x, x, out, n, s);
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void asum7(__global const float* restrict x, __global float* restrict out, const uint n) {
    __local float s[WG];
    reduce7(1, x, x, out, n, s);
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void dot7(__global const float* restrict x, __global const float* restrict y, __global float* restrict out, const uint n) {
    __local float s[WG];
    reduce7(2, x, y, out, n, s);
}

// GEMV, y = A x (A row-major n x m): one work-group per row, coalesced strided loads, local tree.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void gemv_row(__global const float* restrict a, __global const float* restrict x, __global float* restrict y, const uint m) {
    __local float s[WG];
    const uint tid = get_local_id(0);
    __global const float* row = a + (size_t)get_group_id(0) * m;
    float sum = 0.0f;
    for (uint j = tid; j < m; j += WG) sum += row[j] * x[j];
    s[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint st = WG / 2; st > 0; st >>= 1) {
        if (tid < st) s[tid] += s[tid + st];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0) y[get_group_id(0)] = s[0];
}
