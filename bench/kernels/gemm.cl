// Tiled GEMM, C = A B, row-major, A: M x K, B: K x N. 64 x 64 output tile per work-group of
// 16 x 16 work-items, 4 x 4 register block per work-item, K in steps of 16 through local memory.
// Requires M % 64 == 0, N % 64 == 0, K % 16 == 0.
#define TS 64
#define TK 16
#define WPT 4

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void gemm_tiled(const int M, const int N, const int K, __global const float* restrict A,
                __global const float* restrict B, __global float* restrict C) {
    const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * 16 + tx;
    const int col0 = get_group_id(0) * TS, row0 = get_group_id(1) * TS;
    __local float As[TK][TS + 4];
    __local float Bs[TK][TS];
    float acc[WPT][WPT];
#pragma unroll
    for (int i = 0; i < WPT; i++)
#pragma unroll
        for (int j = 0; j < WPT; j++) acc[i][j] = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TK) {
#pragma unroll
        for (int l = 0; l < 4; l++) {
            const int e = tid + l * 256;
            const int r = e / TK, c = e % TK;
            As[c][r] = A[(size_t)(row0 + r) * K + k0 + c];
            const int rb = e / TS, cb = e % TS;
            Bs[rb][cb] = B[(size_t)(k0 + rb) * N + col0 + cb];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int k = 0; k < TK; k++) {
            float a[WPT], b[WPT];
#pragma unroll
            for (int i = 0; i < WPT; i++) a[i] = As[k][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < WPT; j++) b[j] = Bs[k][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < WPT; i++)
#pragma unroll
                for (int j = 0; j < WPT; j++) acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int i = 0; i < WPT; i++)
#pragma unroll
        for (int j = 0; j < WPT; j++)
            C[(size_t)(row0 + ty + 16 * i) * N + col0 + tx + 16 * j] = acc[i][j];
}
