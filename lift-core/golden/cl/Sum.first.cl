// Sum: tree(v=4)
// launch Sum_part global [256 * min(1024, max(1, N / 1024))] local [256] local memory 2040 bytes
// launch Sum_final global [1024] local [1024] local memory 8184 bytes
// temporary lift_t0 of 4 * min(1024, max(1, N / 1024)) bytes
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
kernel void Sum_part(const global float* restrict x, global float* out, lift_idx lift_size_N) {
#ifdef LIFT_SIZE_N
  const lift_idx N = LIFT_SIZE_N;
#else
  const lift_idx N = lift_size_N;
#endif
  local float tmp_l_3[2];
  local float tmp_l_4[4];
  local float tmp_l_5[8];
  local float tmp_l_6[16];
  local float tmp_l_7[32];
  local float tmp_l_8[64];
  local float tmp_l_9[128];
  local float tmp_l_10[256];
  {
    lift_idx wg0 = get_group_id(0);
    {
      lift_idx l0 = get_local_id(0);
      float acc5__11 = ((l0 + 256 * wg0 >= N / 4 - N / (1024 * lift_min(1024, lift_max(1, N / 1024))) * lift_min(1024, lift_max(1, N / 1024)) * 256) ? false : true) ? 0.0f + ((const global float4*)x)[lift_max(0, N / 4 - l0 - 256 * wg0 - 1)].s0 + ((const global float4*)x)[lift_max(0, N / 4 - l0 - 256 * wg0 - 1)].s1 + ((const global float4*)x)[lift_max(0, N / 4 - l0 - 256 * wg0 - 1)].s2 + ((const global float4*)x)[lift_max(0, N / 4 - l0 - 256 * wg0 - 1)].s3 : 0.0f;
      float acc_12 = ((l0 + 256 * wg0 >= N - N / 4 * 4) ? false : true) ? acc5__11 + x[lift_max(0, N - l0 - 256 * wg0 - 1)] : acc5__11;
      for (lift_idx i_13 = l0 + 256 * wg0; i_13 < l0 + 256 * wg0 + N / (1024 * lift_min(1024, lift_max(1, N / 1024))) * lift_min(1024, lift_max(1, N / 1024)) * 256; i_13 += 256 * lift_min(1024, lift_max(1, N / 1024))) {
        acc_12 = acc_12 + ((const global float4*)x)[i_13].s0 + ((const global float4*)x)[i_13].s1 + ((const global float4*)x)[i_13].s2 + ((const global float4*)x)[i_13].s3;
      }
      tmp_l_10[l0] = acc_12;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 128) {
      lift_idx l0 = get_local_id(0);
      float acc_14 = 0.0f;
      for (lift_idx i_15 = 0; i_15 < 2; i_15 += 1) {
        acc_14 = acc_14 + tmp_l_10[128 * i_15 + l0];
      }
      tmp_l_9[l0] = acc_14;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 64) {
      lift_idx l0 = get_local_id(0);
      float acc_16 = 0.0f;
      for (lift_idx i_17 = 0; i_17 < 2; i_17 += 1) {
        acc_16 = acc_16 + tmp_l_9[64 * i_17 + l0];
      }
      tmp_l_8[l0] = acc_16;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 32) {
      lift_idx l0 = get_local_id(0);
      float acc_18 = 0.0f;
      for (lift_idx i_19 = 0; i_19 < 2; i_19 += 1) {
        acc_18 = acc_18 + tmp_l_8[32 * i_19 + l0];
      }
      tmp_l_7[l0] = acc_18;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 16) {
      lift_idx l0 = get_local_id(0);
      float acc_20 = 0.0f;
      for (lift_idx i_21 = 0; i_21 < 2; i_21 += 1) {
        acc_20 = acc_20 + tmp_l_7[16 * i_21 + l0];
      }
      tmp_l_6[l0] = acc_20;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 8) {
      lift_idx l0 = get_local_id(0);
      float acc_22 = 0.0f;
      for (lift_idx i_23 = 0; i_23 < 2; i_23 += 1) {
        acc_22 = acc_22 + tmp_l_6[8 * i_23 + l0];
      }
      tmp_l_5[l0] = acc_22;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 4) {
      lift_idx l0 = get_local_id(0);
      float acc_24 = 0.0f;
      for (lift_idx i_25 = 0; i_25 < 2; i_25 += 1) {
        acc_24 = acc_24 + tmp_l_5[4 * i_25 + l0];
      }
      tmp_l_4[l0] = acc_24;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 2) {
      lift_idx l0 = get_local_id(0);
      float acc_26 = 0.0f;
      for (lift_idx i_27 = 0; i_27 < 2; i_27 += 1) {
        acc_26 = acc_26 + tmp_l_4[2 * i_27 + l0];
      }
      tmp_l_3[l0] = acc_26;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 1) {
      lift_idx l0 = get_local_id(0);
      float acc_28 = 0.0f;
      for (lift_idx i_29 = 0; i_29 < 2; i_29 += 1) {
        acc_28 = acc_28 + tmp_l_3[i_29];
      }
      out[wg0] = acc_28;
    }
  }
}
__attribute__((reqd_work_group_size(1024, 1, 1)))
kernel void Sum_final(const global float* restrict x, const global float* restrict lift_t8_, global float* out, lift_idx lift_size_N) {
#ifdef LIFT_SIZE_N
  const lift_idx N = LIFT_SIZE_N;
#else
  const lift_idx N = lift_size_N;
#endif
  local float tmp_l_2[2];
  local float tmp_l_3[4];
  local float tmp_l_4[8];
  local float tmp_l_5[16];
  local float tmp_l_6[32];
  local float tmp_l_7[64];
  local float tmp_l_8[128];
  local float tmp_l_9[256];
  local float tmp_l_10[512];
  local float tmp_l_11[1024];
  {
    lift_idx wg0 = get_group_id(0);
    {
      lift_idx l0 = get_local_id(0);
      tmp_l_11[l0] = ((l0 >= lift_min(1024, lift_max(1, N / 1024))) ? false : true) ? 0.0f + lift_t8_[lift_max(0, lift_min(1024, lift_max(1, N / 1024)) - l0 - 1)] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 512) {
      lift_idx l0 = get_local_id(0);
      float acc_12 = 0.0f;
      for (lift_idx i_13 = 0; i_13 < 2; i_13 += 1) {
        acc_12 = acc_12 + tmp_l_11[512 * i_13 + l0];
      }
      tmp_l_10[l0] = acc_12;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 256) {
      lift_idx l0 = get_local_id(0);
      float acc_14 = 0.0f;
      for (lift_idx i_15 = 0; i_15 < 2; i_15 += 1) {
        acc_14 = acc_14 + tmp_l_10[256 * i_15 + l0];
      }
      tmp_l_9[l0] = acc_14;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 128) {
      lift_idx l0 = get_local_id(0);
      float acc_16 = 0.0f;
      for (lift_idx i_17 = 0; i_17 < 2; i_17 += 1) {
        acc_16 = acc_16 + tmp_l_9[128 * i_17 + l0];
      }
      tmp_l_8[l0] = acc_16;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 64) {
      lift_idx l0 = get_local_id(0);
      float acc_18 = 0.0f;
      for (lift_idx i_19 = 0; i_19 < 2; i_19 += 1) {
        acc_18 = acc_18 + tmp_l_8[64 * i_19 + l0];
      }
      tmp_l_7[l0] = acc_18;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 32) {
      lift_idx l0 = get_local_id(0);
      float acc_20 = 0.0f;
      for (lift_idx i_21 = 0; i_21 < 2; i_21 += 1) {
        acc_20 = acc_20 + tmp_l_7[32 * i_21 + l0];
      }
      tmp_l_6[l0] = acc_20;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 16) {
      lift_idx l0 = get_local_id(0);
      float acc_22 = 0.0f;
      for (lift_idx i_23 = 0; i_23 < 2; i_23 += 1) {
        acc_22 = acc_22 + tmp_l_6[16 * i_23 + l0];
      }
      tmp_l_5[l0] = acc_22;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 8) {
      lift_idx l0 = get_local_id(0);
      float acc_24 = 0.0f;
      for (lift_idx i_25 = 0; i_25 < 2; i_25 += 1) {
        acc_24 = acc_24 + tmp_l_5[8 * i_25 + l0];
      }
      tmp_l_4[l0] = acc_24;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 4) {
      lift_idx l0 = get_local_id(0);
      float acc_26 = 0.0f;
      for (lift_idx i_27 = 0; i_27 < 2; i_27 += 1) {
        acc_26 = acc_26 + tmp_l_4[4 * i_27 + l0];
      }
      tmp_l_3[l0] = acc_26;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 2) {
      lift_idx l0 = get_local_id(0);
      float acc_28 = 0.0f;
      for (lift_idx i_29 = 0; i_29 < 2; i_29 += 1) {
        acc_28 = acc_28 + tmp_l_3[2 * i_29 + l0];
      }
      tmp_l_2[l0] = acc_28;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 1) {
      lift_idx l0 = get_local_id(0);
      float acc_30 = 0.0f;
      for (lift_idx i_31 = 0; i_31 < 2; i_31 += 1) {
        acc_30 = acc_30 + tmp_l_2[i_31];
      }
      out[0] = acc_30;
    }
  }
}
