// GemvT: tree(rows=16,wg=256)
// launch GemvT global [(N + 15) / 16 * 16, 16] local [16, 16] local memory 2304 bytes
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

__attribute__((reqd_work_group_size(16, 16, 1)))
kernel void GemvT(const global float* restrict a, const global float* restrict x, global float* out, lift_idx lift_size_N, lift_idx lift_size_M) {
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
  local float tmp_l_1[32];
  local float tmp_l_2[96];
  local float tmp_l_3[160];
  local float tmp_l_4[288];
  {
    lift_idx wg0 = get_group_id(0);
    {
      lift_idx wg1 = get_group_id(1);
      {
        lift_idx l0 = get_local_id(0);
        {
          lift_idx l1 = get_local_id(1);
          float acc_6 = ((l1 >= M - M / 16 * 16) ? false : true) ? 0.0f + a[N * lift_max(0, M - l1 - 1) + l0 + lift_min(N - 16, 16 * wg0)] * x[lift_max(0, M - l1 - 1)] : 0.0f;
          for (lift_idx i_7 = l1; i_7 < l1 + M / 16 * 16; i_7 += 16) {
            acc_6 = acc_6 + a[N * i_7 + l0 + lift_min(N - 16, 16 * wg0)] * x[i_7];
          }
          tmp_l_4[18 * l0 + l1] = acc_6;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
        lift_idx l0 = get_local_id(0);
        if (get_local_id(1) < 8) {
          lift_idx l1 = get_local_id(1);
          float acc_8 = 0.0f;
          for (lift_idx i_9 = 0; i_9 < 2; i_9 += 1) {
            acc_8 = acc_8 + tmp_l_4[8 * i_9 + 18 * l0 + l1];
          }
          tmp_l_3[10 * l0 + l1] = acc_8;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
        lift_idx l0 = get_local_id(0);
        if (get_local_id(1) < 4) {
          lift_idx l1 = get_local_id(1);
          float acc_10 = 0.0f;
          for (lift_idx i_11 = 0; i_11 < 2; i_11 += 1) {
            acc_10 = acc_10 + tmp_l_3[4 * i_11 + 10 * l0 + l1];
          }
          tmp_l_2[6 * l0 + l1] = acc_10;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
        lift_idx l0 = get_local_id(0);
        if (get_local_id(1) < 2) {
          lift_idx l1 = get_local_id(1);
          float acc_12 = 0.0f;
          for (lift_idx i_13 = 0; i_13 < 2; i_13 += 1) {
            acc_12 = acc_12 + tmp_l_2[2 * i_13 + 6 * l0 + l1];
          }
          tmp_l_1[2 * l0 + l1] = acc_12;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
        lift_idx l0 = get_local_id(0);
        if (get_local_id(1) < 1) {
          lift_idx l1 = get_local_id(1);
          float acc_14 = 0.0f;
          for (lift_idx i_15 = 0; i_15 < 2; i_15 += 1) {
            acc_14 = acc_14 + tmp_l_1[i_15 + 2 * l0];
          }
          if (16 * wg0 <= l0 + lift_min(N - 16, 16 * wg0)) {
            out[l0 + lift_min(N - 16, 16 * wg0)] = acc_14;
          }
        }
      }
    }
  }
}
