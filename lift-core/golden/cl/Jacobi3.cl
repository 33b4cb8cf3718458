// Jacobi3: strips(s=8,pad=1)
// launch Jacobi3 global [L, M, (N + 7) / 8] local [any] local memory 0 bytes
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

kernel void Jacobi3(const global float* restrict x, global float* out, lift_idx lift_size_N, lift_idx lift_size_M, lift_idx lift_size_L) {
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
#ifdef LIFT_SIZE_L
  const lift_idx L = LIFT_SIZE_L;
#else
  const lift_idx L = lift_size_L;
#endif
  if (get_global_id(2) < (N + 7) / 8) {
    lift_idx gid2 = get_global_id(2);
    if (get_global_id(1) < M) {
      lift_idx gid1 = get_global_id(1);
      if (get_global_id(0) < L) {
        lift_idx gid0 = get_global_id(0);
        {
          out[8 * L * M * gid2 + L * gid1 + gid0] = 0.142857f * (x[L * M * lift_max(0, 8 * gid2 - 1) + L * gid1 + gid0] + x[8 * L * M * gid2 + L * lift_max(0, gid1 - 1) + gid0] + x[8 * L * M * gid2 + L * gid1 + lift_max(0, gid0 - 1)] + x[8 * L * M * gid2 + L * gid1 + gid0] + x[8 * L * M * gid2 + L * gid1 + lift_min(L - 1, gid0 + 1)] + x[8 * L * M * gid2 + L * lift_min(M - 1, gid1 + 1) + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 1) + L * gid1 + gid0]);
        }
        {
          if (8 * gid2 + 1 < N) {
            out[L * M + 8 * L * M * gid2 + L * gid1 + gid0] = 0.142857f * (x[L * M * lift_max(0, lift_min(N - 1, 8 * gid2 + 1) - 1) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 1) + L * lift_max(0, gid1 - 1) + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 1) + L * gid1 + lift_max(0, gid0 - 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 1) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 1) + L * gid1 + lift_min(L - 1, gid0 + 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 1) + L * lift_min(M - 1, gid1 + 1) + gid0] + x[L * M * lift_min(N - 1, lift_min(N - 1, 8 * gid2 + 1) + 1) + L * gid1 + gid0]);
          }
        }
        {
          if (8 * gid2 + 2 < N) {
            out[2 * L * M + 8 * L * M * gid2 + L * gid1 + gid0] = 0.142857f * (x[L * M * lift_max(0, lift_min(N - 1, 8 * gid2 + 2) - 1) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 2) + L * lift_max(0, gid1 - 1) + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 2) + L * gid1 + lift_max(0, gid0 - 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 2) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 2) + L * gid1 + lift_min(L - 1, gid0 + 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 2) + L * lift_min(M - 1, gid1 + 1) + gid0] + x[L * M * lift_min(N - 1, lift_min(N - 1, 8 * gid2 + 2) + 1) + L * gid1 + gid0]);
          }
        }
        {
          if (8 * gid2 + 3 < N) {
            out[3 * L * M + 8 * L * M * gid2 + L * gid1 + gid0] = 0.142857f * (x[L * M * lift_max(0, lift_min(N - 1, 8 * gid2 + 3) - 1) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 3) + L * lift_max(0, gid1 - 1) + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 3) + L * gid1 + lift_max(0, gid0 - 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 3) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 3) + L * gid1 + lift_min(L - 1, gid0 + 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 3) + L * lift_min(M - 1, gid1 + 1) + gid0] + x[L * M * lift_min(N - 1, lift_min(N - 1, 8 * gid2 + 3) + 1) + L * gid1 + gid0]);
          }
        }
        {
          if (8 * gid2 + 4 < N) {
            out[4 * L * M + 8 * L * M * gid2 + L * gid1 + gid0] = 0.142857f * (x[L * M * lift_max(0, lift_min(N - 1, 8 * gid2 + 4) - 1) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 4) + L * lift_max(0, gid1 - 1) + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 4) + L * gid1 + lift_max(0, gid0 - 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 4) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 4) + L * gid1 + lift_min(L - 1, gid0 + 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 4) + L * lift_min(M - 1, gid1 + 1) + gid0] + x[L * M * lift_min(N - 1, lift_min(N - 1, 8 * gid2 + 4) + 1) + L * gid1 + gid0]);
          }
        }
        {
          if (8 * gid2 + 5 < N) {
            out[5 * L * M + 8 * L * M * gid2 + L * gid1 + gid0] = 0.142857f * (x[L * M * lift_max(0, lift_min(N - 1, 8 * gid2 + 5) - 1) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 5) + L * lift_max(0, gid1 - 1) + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 5) + L * gid1 + lift_max(0, gid0 - 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 5) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 5) + L * gid1 + lift_min(L - 1, gid0 + 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 5) + L * lift_min(M - 1, gid1 + 1) + gid0] + x[L * M * lift_min(N - 1, lift_min(N - 1, 8 * gid2 + 5) + 1) + L * gid1 + gid0]);
          }
        }
        {
          if (8 * gid2 + 6 < N) {
            out[6 * L * M + 8 * L * M * gid2 + L * gid1 + gid0] = 0.142857f * (x[L * M * lift_max(0, lift_min(N - 1, 8 * gid2 + 6) - 1) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 6) + L * lift_max(0, gid1 - 1) + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 6) + L * gid1 + lift_max(0, gid0 - 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 6) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 6) + L * gid1 + lift_min(L - 1, gid0 + 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 6) + L * lift_min(M - 1, gid1 + 1) + gid0] + x[L * M * lift_min(N - 1, lift_min(N - 1, 8 * gid2 + 6) + 1) + L * gid1 + gid0]);
          }
        }
        {
          if (8 * gid2 + 7 < N) {
            out[7 * L * M + 8 * L * M * gid2 + L * gid1 + gid0] = 0.142857f * (x[L * M * lift_max(0, lift_min(N - 1, 8 * gid2 + 7) - 1) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 7) + L * lift_max(0, gid1 - 1) + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 7) + L * gid1 + lift_max(0, gid0 - 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 7) + L * gid1 + gid0] + x[L * M * lift_min(N - 1, 8 * gid2 + 7) + L * gid1 + lift_min(L - 1, gid0 + 1)] + x[L * M * lift_min(N - 1, 8 * gid2 + 7) + L * lift_min(M - 1, gid1 + 1) + gid0] + x[L * M * lift_min(N - 1, lift_min(N - 1, 8 * gid2 + 7) + 1) + L * gid1 + gid0]);
          }
        }
      }
    }
  }
}
