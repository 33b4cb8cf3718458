// Sum: map
// launch Sum global [1] local [1] local memory 0 bytes
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

__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void Sum(const global float* restrict x, global float* out, lift_idx lift_size_N) {
#ifdef LIFT_SIZE_N
  const lift_idx N = LIFT_SIZE_N;
#else
  const lift_idx N = lift_size_N;
#endif
  float acc_1 = 0.0f;
  for (lift_idx i_2 = 0; i_2 < N; i_2 += 1) {
    acc_1 = acc_1 + x[i_2];
  }
  out[0] = acc_1;
}
