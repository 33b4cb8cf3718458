// Tiled 2-D stencils with clamped borders: a work-group of 32 x 8 computes a 32 x 8 output
// tile from a (8 + 2 RY) x (32 + 2 RX) input tile staged in local memory. Weights are a
// (2 RY + 1) x (2 RX + 1) row-major __constant array. Build with -DRY=.. -DRX=..
#define BX 32
#define BY 8
#define TW (BX + 2 * RX)
#define TH (BY + 2 * RY)

__kernel __attribute__((reqd_work_group_size(BX, BY, 1)))
void stencil2d(__global const float* restrict in, __global float* restrict out, __constant float* w,
               const int rows, const int cols) {
    __local float tile[TH][TW];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int gx0 = get_group_id(0) * BX - RX, gy0 = get_group_id(1) * BY - RY;
    for (int ty = ly; ty < TH; ty += BY) {
        const int gy = clamp(gy0 + ty, 0, rows - 1);
        for (int tx = lx; tx < TW; tx += BX) {
            const int gx = clamp(gx0 + tx, 0, cols - 1);
            tile[ty][tx] = in[(size_t)gy * cols + gx];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x = get_group_id(0) * BX + lx, y = get_group_id(1) * BY + ly;
    if (x >= cols || y >= rows) return;
    float acc = 0.0f;
#pragma unroll
    for (int dy = 0; dy <= 2 * RY; dy++)
#pragma unroll
        for (int dx = 0; dx <= 2 * RX; dx++) {
            const float wv = w[dy * (2 * RX + 1) + dx];
            if (wv != 0.0f) acc += wv * tile[ly + dy][lx + dx];
        }
    out[(size_t)y * cols + x] = acc;
}

// 3-D Jacobi, 7 points, clamped borders: one work-item per output, neighbours read directly
// from global memory (the caches serve the reuse). x fastest, then y, then z.
__kernel void jacobi3d(__global const float* restrict in, __global float* restrict out, const int nz, const int ny, const int nx) {
    const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    if (x >= nx || y >= ny || z >= nz) return;
#define AT(zz, yy, xx) in[((size_t)clamp(zz, 0, nz - 1) * ny + clamp(yy, 0, ny - 1)) * nx + clamp(xx, 0, nx - 1)]
    const float s = AT(z - 1, y, x) + AT(z, y - 1, x) + AT(z, y, x - 1) + AT(z, y, x) + AT(z, y, x + 1) + AT(z, y + 1, x) + AT(z + 1, y, x);
    out[((size_t)z * ny + y) * nx + x] = 0.142857f * s;
#undef AT
}
