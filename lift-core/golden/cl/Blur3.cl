// Blur3: slides(s=4,pad=1)
// launch Blur3 global [(N + 3) / 4] local [any] local memory 0 bytes
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
  if (get_global_id(0) < (N + 3) / 4) {
    lift_idx gid0 = get_global_id(0);
    float tmp_p_1[3];
    tmp_p_1[0] = input[lift_max(0, 4 * gid0 - 1)];
    tmp_p_1[1] = input[4 * gid0];
    for (lift_idx i_2 = 0; i_2 < 4; i_2 += 1) {
      tmp_p_1[2] = input[lift_min(N - 1, lift_min(N + 1, 4 * gid0 + i_2 + 2) - 1)];
      float acc_3 = 0.0f;
      for (lift_idx i_4 = 0; i_4 < 3; i_4 += 1) {
        acc_3 = acc_3 + tmp_p_1[i_4];
      }
      if (4 * gid0 + i_2 < N) {
        out[4 * gid0 + i_2] = acc_3;
      }
      tmp_p_1[0] = tmp_p_1[1];
      tmp_p_1[1] = tmp_p_1[2];
    }
  }
}
