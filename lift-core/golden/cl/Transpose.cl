// Transpose: tiles(t=32,r=8,pad=1)
// launch Transpose global [(N + 31) / 32 * 32, (M + 31) / 32 * 8] local [32, 8] local memory 4224 bytes
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

__attribute__((reqd_work_group_size(32, 8, 1)))
kernel void Transpose(const global float* restrict x, global float* out, lift_idx lift_size_N, lift_idx lift_size_M) {
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
  local float tmp_l_6[1056];
  {
    lift_idx wg1 = get_group_id(1);
    {
      lift_idx wg0 = get_group_id(0);
      {
        lift_idx l1 = get_local_id(1);
        for (lift_idx i_7 = 0; i_7 < 4; i_7 += 1) {
          {
            lift_idx l0 = get_local_id(0);
            tmp_l_6[33 * i_7 + l0 + 132 * l1] = x[M * lift_min(N - 1, i_7 + 4 * l1 + 32 * wg0) + lift_min(M - 1, l0 + 32 * wg1)];
          }
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
        lift_idx l1 = get_local_id(1);
        for (lift_idx i_8 = 0; i_8 < 4; i_8 += 1) {
          {
            lift_idx l0 = get_local_id(0);
            if (l0 + 32 * wg0 < N) {
              if (i_8 + 4 * l1 + 32 * wg1 < M) {
                out[N * i_8 + 4 * N * l1 + 32 * N * wg1 + l0 + 32 * wg0] = tmp_l_6[i_8 + 33 * l0 + 4 * l1];
              }
            }
          }
        }
      }
    }
  }
}
