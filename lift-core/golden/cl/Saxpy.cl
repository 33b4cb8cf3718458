// Saxpy: vector(w=4,k=1,tail=1)
// launch Saxpy global [(N + 3) / 4] local [any] local memory 0 bytes
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

kernel void Saxpy(float a, const global float* restrict x, const global float* restrict y, global float* out, lift_idx lift_size_N) {
#ifdef LIFT_SIZE_N
  const lift_idx N = LIFT_SIZE_N;
#else
  const lift_idx N = lift_size_N;
#endif
  if (get_global_id(0) < (N + 3) / 4) {
    lift_idx gid0 = get_global_id(0);
    {
      const float4 v_0 = a * ((4 * gid0 + 4 <= N) ? ((const global float4*)x)[gid0] : (float4)(x[4 * gid0], x[lift_min(N - 1, 4 * gid0 + 1)], x[lift_min(N - 1, 4 * gid0 + 2)], x[lift_min(N - 1, 4 * gid0 + 3)])) + ((4 * gid0 + 4 <= N) ? ((const global float4*)y)[gid0] : (float4)(y[4 * gid0], y[lift_min(N - 1, 4 * gid0 + 1)], y[lift_min(N - 1, 4 * gid0 + 2)], y[lift_min(N - 1, 4 * gid0 + 3)]));
      if (4 * gid0 + 4 <= N) {
        ((global float4*)out)[gid0] = v_0;
      }
      else {
        if (4 * gid0 < N) {
          out[4 * gid0] = v_0.s0;
        }
        if (4 * gid0 + 1 < N) {
          out[4 * gid0 + 1] = v_0.s1;
        }
        if (4 * gid0 + 2 < N) {
          out[4 * gid0 + 2] = v_0.s2;
        }
        if (4 * gid0 + 3 < N) {
          out[4 * gid0 + 3] = v_0.s3;
        }
      }
    }
  }
}
