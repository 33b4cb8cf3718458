// Gemv: map
// launch Gemv global [N] local [any] local memory 0 bytes
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

kernel void Gemv(const global float* restrict a, const global float* restrict x, global float* out, lift_idx lift_size_N, lift_idx lift_size_M) {
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
  if (get_global_id(0) < N) {
    lift_idx gid0 = get_global_id(0);
    float acc_1 = 0.0f;
    for (lift_idx i_2 = 0; i_2 < M; i_2 += 1) {
      acc_1 = acc_1 + a[M * gid0 + i_2] * x[i_2];
    }
    out[gid0] = acc_1;
  }
}
