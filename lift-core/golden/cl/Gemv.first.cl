// Gemv: tree(rows=1,wg=256)
// launch Gemv global [256 * N] local [256] local memory 2040 bytes
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

__attribute__((reqd_work_group_size(256, 1, 1)))
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
  local float tmp_l_1[2];
  local float tmp_l_2[4];
  local float tmp_l_3[8];
  local float tmp_l_4[16];
  local float tmp_l_5[32];
  local float tmp_l_6[64];
  local float tmp_l_7[128];
  local float tmp_l_8[256];
  {
    lift_idx wg0 = get_group_id(0);
    {
      lift_idx l0 = get_local_id(0);
      float acc_10 = ((l0 >= M - M / 256 * 256) ? false : true) ? 0.0f + a[M * wg0 + lift_max(0, M - l0 - 1)] * x[lift_max(0, M - l0 - 1)] : 0.0f;
      for (lift_idx i_11 = l0; i_11 < l0 + M / 256 * 256; i_11 += 256) {
        acc_10 = acc_10 + a[M * wg0 + i_11] * x[i_11];
      }
      tmp_l_8[l0] = acc_10;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 128) {
      lift_idx l0 = get_local_id(0);
      float acc_12 = 0.0f;
      for (lift_idx i_13 = 0; i_13 < 2; i_13 += 1) {
        acc_12 = acc_12 + tmp_l_8[128 * i_13 + l0];
      }
      tmp_l_7[l0] = acc_12;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 64) {
      lift_idx l0 = get_local_id(0);
      float acc_14 = 0.0f;
      for (lift_idx i_15 = 0; i_15 < 2; i_15 += 1) {
        acc_14 = acc_14 + tmp_l_7[64 * i_15 + l0];
      }
      tmp_l_6[l0] = acc_14;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 32) {
      lift_idx l0 = get_local_id(0);
      float acc_16 = 0.0f;
      for (lift_idx i_17 = 0; i_17 < 2; i_17 += 1) {
        acc_16 = acc_16 + tmp_l_6[32 * i_17 + l0];
      }
      tmp_l_5[l0] = acc_16;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 16) {
      lift_idx l0 = get_local_id(0);
      float acc_18 = 0.0f;
      for (lift_idx i_19 = 0; i_19 < 2; i_19 += 1) {
        acc_18 = acc_18 + tmp_l_5[16 * i_19 + l0];
      }
      tmp_l_4[l0] = acc_18;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 8) {
      lift_idx l0 = get_local_id(0);
      float acc_20 = 0.0f;
      for (lift_idx i_21 = 0; i_21 < 2; i_21 += 1) {
        acc_20 = acc_20 + tmp_l_4[8 * i_21 + l0];
      }
      tmp_l_3[l0] = acc_20;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 4) {
      lift_idx l0 = get_local_id(0);
      float acc_22 = 0.0f;
      for (lift_idx i_23 = 0; i_23 < 2; i_23 += 1) {
        acc_22 = acc_22 + tmp_l_3[4 * i_23 + l0];
      }
      tmp_l_2[l0] = acc_22;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 2) {
      lift_idx l0 = get_local_id(0);
      float acc_24 = 0.0f;
      for (lift_idx i_25 = 0; i_25 < 2; i_25 += 1) {
        acc_24 = acc_24 + tmp_l_2[2 * i_25 + l0];
      }
      tmp_l_1[l0] = acc_24;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 1) {
      lift_idx l0 = get_local_id(0);
      float acc_26 = 0.0f;
      for (lift_idx i_27 = 0; i_27 < 2; i_27 += 1) {
        acc_26 = acc_26 + tmp_l_1[i_27];
      }
      out[wg0] = acc_26;
    }
  }
}
