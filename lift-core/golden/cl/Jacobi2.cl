// Jacobi2: strips(s=8,pad=1)
// launch Jacobi2 global [M, (N + 7) / 8] local [any] local memory 0 bytes
#ifdef LIFT_IDX64
typedef long lift_idx;
#else
typedef int lift_idx;
#endif
#define lift_min(a, b) min((lift_idx)(a), (lift_idx)(b))
#define lift_max(a, b) max((lift_idx)(a), (lift_idx)(b))
float uf_add(float x, float y);

float uf_add(float x, float y) {
  return x + y;
}

kernel void Jacobi2(const global float* restrict x, global float* out, lift_idx lift_size_N, lift_idx lift_size_M) {
#ifdef LIFT_SIZE_N
  const lift_idx N = LIFT_SIZE_N;
#else
  const lift_idx N = lift_size_N;
#endif
#ifdef LIFT_SIZE_M
  const lift_idx M = LIFT_SIZE_M;
#else
  const lift_idx M = lift_size_M;
#endif
  if (get_global_id(1) < (N + 7) / 8) {
    lift_idx gid1 = get_global_id(1);
    if (get_global_id(0) < M) {
      lift_idx gid0 = get_global_id(0);
      {
        out[8 * M * gid1 + gid0] = 0.2f * (x[M * lift_max(0, 8 * gid1 - 1) + gid0] + x[8 * M * gid1 + lift_max(0, gid0 - 1)] + x[8 * M * gid1 + gid0] + x[8 * M * gid1 + lift_min(M - 1, gid0 + 1)] + x[M * lift_min(N - 1, 8 * gid1 + 1) + gid0]);
      }
      {
        if (8 * gid1 + 1 < N) {
          out[M + 8 * M * gid1 + gid0] = 0.2f * (x[M * lift_max(0, lift_min(N - 1, 8 * gid1 + 1) - 1) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 1) + lift_max(0, gid0 - 1)] + x[M * lift_min(N - 1, 8 * gid1 + 1) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 1) + lift_min(M - 1, gid0 + 1)] + x[M * lift_min(N - 1, lift_min(N - 1, 8 * gid1 + 1) + 1) + gid0]);
        }
      }
      {
        if (8 * gid1 + 2 < N) {
          out[2 * M + 8 * M * gid1 + gid0] = 0.2f * (x[M * lift_max(0, lift_min(N - 1, 8 * gid1 + 2) - 1) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 2) + lift_max(0, gid0 - 1)] + x[M * lift_min(N - 1, 8 * gid1 + 2) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 2) + lift_min(M - 1, gid0 + 1)] + x[M * lift_min(N - 1, lift_min(N - 1, 8 * gid1 + 2) + 1) + gid0]);
        }
      }
      {
        if (8 * gid1 + 3 < N) {
          out[3 * M + 8 * M * gid1 + gid0] = 0.2f * (x[M * lift_max(0, lift_min(N - 1, 8 * gid1 + 3) - 1) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 3) + lift_max(0, gid0 - 1)] + x[M * lift_min(N - 1, 8 * gid1 + 3) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 3) + lift_min(M - 1, gid0 + 1)] + x[M * lift_min(N - 1, lift_min(N - 1, 8 * gid1 + 3) + 1) + gid0]);
        }
      }
      {
        if (8 * gid1 + 4 < N) {
          out[4 * M + 8 * M * gid1 + gid0] = 0.2f * (x[M * lift_max(0, lift_min(N - 1, 8 * gid1 + 4) - 1) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 4) + lift_max(0, gid0 - 1)] + x[M * lift_min(N - 1, 8 * gid1 + 4) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 4) + lift_min(M - 1, gid0 + 1)] + x[M * lift_min(N - 1, lift_min(N - 1, 8 * gid1 + 4) + 1) + gid0]);
        }
      }
      {
        if (8 * gid1 + 5 < N) {
          out[5 * M + 8 * M * gid1 + gid0] = 0.2f * (x[M * lift_max(0, lift_min(N - 1, 8 * gid1 + 5) - 1) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 5) + lift_max(0, gid0 - 1)] + x[M * lift_min(N - 1, 8 * gid1 + 5) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 5) + lift_min(M - 1, gid0 + 1)] + x[M * lift_min(N - 1, lift_min(N - 1, 8 * gid1 + 5) + 1) + gid0]);
        }
      }
      {
        if (8 * gid1 + 6 < N) {
          out[6 * M + 8 * M * gid1 + gid0] = 0.2f * (x[M * lift_max(0, lift_min(N - 1, 8 * gid1 + 6) - 1) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 6) + lift_max(0, gid0 - 1)] + x[M * lift_min(N - 1, 8 * gid1 + 6) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 6) + lift_min(M - 1, gid0 + 1)] + x[M * lift_min(N - 1, lift_min(N - 1, 8 * gid1 + 6) + 1) + gid0]);
        }
      }
      {
        if (8 * gid1 + 7 < N) {
          out[7 * M + 8 * M * gid1 + gid0] = 0.2f * (x[M * lift_max(0, lift_min(N - 1, 8 * gid1 + 7) - 1) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 7) + lift_max(0, gid0 - 1)] + x[M * lift_min(N - 1, 8 * gid1 + 7) + gid0] + x[M * lift_min(N - 1, 8 * gid1 + 7) + lift_min(M - 1, gid0 + 1)] + x[M * lift_min(N - 1, lift_min(N - 1, 8 * gid1 + 7) + 1) + gid0]);
        }
      }
    }
  }
}
