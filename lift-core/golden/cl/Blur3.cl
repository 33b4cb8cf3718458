// Blur3: map
// launch Blur3 global [N] local [any] local memory 0 bytes
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

kernel void Blur3(const global float* restrict input, global float* out, lift_idx lift_size_N) {
#ifdef LIFT_SIZE_N
  const lift_idx N = LIFT_SIZE_N;
#else
  const lift_idx N = lift_size_N;
#endif
  if (get_global_id(0) < N) {
    lift_idx gid0 = get_global_id(0);
    float acc_1 = 0.0f;
    for (lift_idx i_2 = 0; i_2 < 3; i_2 += 1) {
      acc_1 = acc_1 + input[lift_min(N - 1, lift_max(0, gid0 + i_2 - 1))];
    }
    out[gid0] = acc_1;
  }
}
