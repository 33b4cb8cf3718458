// GemmBlas: blocked(tm=128,tn=128,tk=16,l0=16,l1=16,v=4,u=0,pad=2)
// launch GemmBlas global [(M + 127) / 128 * 16, (N + 127) / 128 * 16] local [16, 16] local memory 16384 bytes
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
kernel void GemmBlas(float alpha, float beta, const global float* restrict a, const global float* restrict b, const global float* restrict c, global float* out, lift_idx lift_size_N, lift_idx lift_size_K, lift_idx lift_size_M) {
#ifdef LIFT_SIZE_N
  const lift_idx N = LIFT_SIZE_N;
#else
  const lift_idx N = lift_size_N;
#endif
#ifdef LIFT_SIZE_K
  const lift_idx K = LIFT_SIZE_K;
#else
  const lift_idx K = lift_size_K;
#endif
#ifdef LIFT_SIZE_M
  const lift_idx M = LIFT_SIZE_M;
#else
  const lift_idx M = lift_size_M;
#endif
  local float tmp_l_10[2048];
  local float tmp_l_12[2048];
  {
    lift_idx wg1 = get_group_id(1);
    {
      lift_idx wg0 = get_group_id(0);
      float tmp_p_8[64];
      {
        lift_idx l0 = get_local_id(0);
        {
          lift_idx l1 = get_local_id(1);
          {
            {
              tmp_p_8[0] = 0.0f;
            }
            {
              tmp_p_8[1] = 0.0f;
            }
            {
              tmp_p_8[2] = 0.0f;
            }
            {
              tmp_p_8[3] = 0.0f;
            }
            {
              tmp_p_8[4] = 0.0f;
            }
            {
              tmp_p_8[5] = 0.0f;
            }
            {
              tmp_p_8[6] = 0.0f;
            }
            {
              tmp_p_8[7] = 0.0f;
            }
          }
          {
            {
              tmp_p_8[8] = 0.0f;
            }
            {
              tmp_p_8[9] = 0.0f;
            }
            {
              tmp_p_8[10] = 0.0f;
            }
            {
              tmp_p_8[11] = 0.0f;
            }
            {
              tmp_p_8[12] = 0.0f;
            }
            {
              tmp_p_8[13] = 0.0f;
            }
            {
              tmp_p_8[14] = 0.0f;
            }
            {
              tmp_p_8[15] = 0.0f;
            }
          }
          {
            {
              tmp_p_8[16] = 0.0f;
            }
            {
              tmp_p_8[17] = 0.0f;
            }
            {
              tmp_p_8[18] = 0.0f;
            }
            {
              tmp_p_8[19] = 0.0f;
            }
            {
              tmp_p_8[20] = 0.0f;
            }
            {
              tmp_p_8[21] = 0.0f;
            }
            {
              tmp_p_8[22] = 0.0f;
            }
            {
              tmp_p_8[23] = 0.0f;
            }
          }
          {
            {
              tmp_p_8[24] = 0.0f;
            }
            {
              tmp_p_8[25] = 0.0f;
            }
            {
              tmp_p_8[26] = 0.0f;
            }
            {
              tmp_p_8[27] = 0.0f;
            }
            {
              tmp_p_8[28] = 0.0f;
            }
            {
              tmp_p_8[29] = 0.0f;
            }
            {
              tmp_p_8[30] = 0.0f;
            }
            {
              tmp_p_8[31] = 0.0f;
            }
          }
          {
            {
              tmp_p_8[32] = 0.0f;
            }
            {
              tmp_p_8[33] = 0.0f;
            }
            {
              tmp_p_8[34] = 0.0f;
            }
            {
              tmp_p_8[35] = 0.0f;
            }
            {
              tmp_p_8[36] = 0.0f;
            }
            {
              tmp_p_8[37] = 0.0f;
            }
            {
              tmp_p_8[38] = 0.0f;
            }
            {
              tmp_p_8[39] = 0.0f;
            }
          }
          {
            {
              tmp_p_8[40] = 0.0f;
            }
            {
              tmp_p_8[41] = 0.0f;
            }
            {
              tmp_p_8[42] = 0.0f;
            }
            {
              tmp_p_8[43] = 0.0f;
            }
            {
              tmp_p_8[44] = 0.0f;
            }
            {
              tmp_p_8[45] = 0.0f;
            }
            {
              tmp_p_8[46] = 0.0f;
            }
            {
              tmp_p_8[47] = 0.0f;
            }
          }
          {
            {
              tmp_p_8[48] = 0.0f;
            }
            {
              tmp_p_8[49] = 0.0f;
            }
            {
              tmp_p_8[50] = 0.0f;
            }
            {
              tmp_p_8[51] = 0.0f;
            }
            {
              tmp_p_8[52] = 0.0f;
            }
            {
              tmp_p_8[53] = 0.0f;
            }
            {
              tmp_p_8[54] = 0.0f;
            }
            {
              tmp_p_8[55] = 0.0f;
            }
          }
          {
            {
              tmp_p_8[56] = 0.0f;
            }
            {
              tmp_p_8[57] = 0.0f;
            }
            {
              tmp_p_8[58] = 0.0f;
            }
            {
              tmp_p_8[59] = 0.0f;
            }
            {
              tmp_p_8[60] = 0.0f;
            }
            {
              tmp_p_8[61] = 0.0f;
            }
            {
              tmp_p_8[62] = 0.0f;
            }
            {
              tmp_p_8[63] = 0.0f;
            }
          }
        }
      }
      for (lift_idx i_9 = 0; i_9 < (K + 15) / 16; i_9 += 1) {
        {
          lift_idx l1 = get_local_id(1);
          for (lift_idx i_11 = 0; i_11 < 8; i_11 += 1) {
            {
              lift_idx l0 = get_local_id(0);
              tmp_l_10[256 * i_11 + l0 + 16 * l1] = (16 * i_9 + l0 >= K) ? 0.0f : a[K * lift_min(N - 1, 16 * i_11 + l1 + 128 * wg1) + 16 * i_9 + l0];
            }
          }
        }
        {
          lift_idx l1 = get_local_id(1);
          for (lift_idx i_13 = 0; i_13 < 8; i_13 += 1) {
            {
              lift_idx l0 = get_local_id(0);
              tmp_l_12[16 * i_13 + l0 + 128 * l1] = (16 * i_9 + l1 >= K) ? 0.0f : b[16 * M * i_9 + M * l1 + lift_min(M - 1, 16 * i_13 + l0 + 128 * wg0)];
            }
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        {
          lift_idx l0 = get_local_id(0);
          {
            lift_idx l1 = get_local_id(1);
            for (lift_idx i_18 = 0; i_18 < 4; i_18 += 1) {
              float4 tmp_p_19[8];
              {
                tmp_p_19[0] = vload4(0, tmp_l_10 + 4 * i_18 + 16 * l1);
              }
              {
                tmp_p_19[1] = vload4(0, tmp_l_10 + 4 * i_18 + 16 * l1 + 256);
              }
              {
                tmp_p_19[2] = vload4(0, tmp_l_10 + 4 * i_18 + 16 * l1 + 512);
              }
              {
                tmp_p_19[3] = vload4(0, tmp_l_10 + 4 * i_18 + 16 * l1 + 768);
              }
              {
                tmp_p_19[4] = vload4(0, tmp_l_10 + 4 * i_18 + 16 * l1 + 1024);
              }
              {
                tmp_p_19[5] = vload4(0, tmp_l_10 + 4 * i_18 + 16 * l1 + 1280);
              }
              {
                tmp_p_19[6] = vload4(0, tmp_l_10 + 4 * i_18 + 16 * l1 + 1536);
              }
              {
                tmp_p_19[7] = vload4(0, tmp_l_10 + 4 * i_18 + 16 * l1 + 1792);
              }
              {
                float4 tmp_p_22[2];
                {
                  tmp_p_22[0] = vload4(0, tmp_l_12 + 512 * i_18 + 4 * l0);
                }
                {
                  tmp_p_22[1] = vload4(0, tmp_l_12 + 512 * i_18 + 4 * l0 + 64);
                }
                {
                  {
                    tmp_p_8[0] = tmp_p_8[0] + tmp_p_19[0].s0 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_8[1] = tmp_p_8[1] + tmp_p_19[1].s0 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_8[2] = tmp_p_8[2] + tmp_p_19[2].s0 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_8[3] = tmp_p_8[3] + tmp_p_19[3].s0 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_8[4] = tmp_p_8[4] + tmp_p_19[4].s0 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_8[5] = tmp_p_8[5] + tmp_p_19[5].s0 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_8[6] = tmp_p_8[6] + tmp_p_19[6].s0 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_8[7] = tmp_p_8[7] + tmp_p_19[7].s0 * tmp_p_22[0].s0;
                  }
                }
                {
                  {
                    tmp_p_8[8] = tmp_p_8[8] + tmp_p_19[0].s0 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_8[9] = tmp_p_8[9] + tmp_p_19[1].s0 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_8[10] = tmp_p_8[10] + tmp_p_19[2].s0 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_8[11] = tmp_p_8[11] + tmp_p_19[3].s0 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_8[12] = tmp_p_8[12] + tmp_p_19[4].s0 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_8[13] = tmp_p_8[13] + tmp_p_19[5].s0 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_8[14] = tmp_p_8[14] + tmp_p_19[6].s0 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_8[15] = tmp_p_8[15] + tmp_p_19[7].s0 * tmp_p_22[0].s1;
                  }
                }
                {
                  {
                    tmp_p_8[16] = tmp_p_8[16] + tmp_p_19[0].s0 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_8[17] = tmp_p_8[17] + tmp_p_19[1].s0 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_8[18] = tmp_p_8[18] + tmp_p_19[2].s0 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_8[19] = tmp_p_8[19] + tmp_p_19[3].s0 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_8[20] = tmp_p_8[20] + tmp_p_19[4].s0 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_8[21] = tmp_p_8[21] + tmp_p_19[5].s0 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_8[22] = tmp_p_8[22] + tmp_p_19[6].s0 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_8[23] = tmp_p_8[23] + tmp_p_19[7].s0 * tmp_p_22[0].s2;
                  }
                }
                {
                  {
                    tmp_p_8[24] = tmp_p_8[24] + tmp_p_19[0].s0 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_8[25] = tmp_p_8[25] + tmp_p_19[1].s0 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_8[26] = tmp_p_8[26] + tmp_p_19[2].s0 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_8[27] = tmp_p_8[27] + tmp_p_19[3].s0 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_8[28] = tmp_p_8[28] + tmp_p_19[4].s0 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_8[29] = tmp_p_8[29] + tmp_p_19[5].s0 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_8[30] = tmp_p_8[30] + tmp_p_19[6].s0 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_8[31] = tmp_p_8[31] + tmp_p_19[7].s0 * tmp_p_22[0].s3;
                  }
                }
                {
                  {
                    tmp_p_8[32] = tmp_p_8[32] + tmp_p_19[0].s0 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_8[33] = tmp_p_8[33] + tmp_p_19[1].s0 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_8[34] = tmp_p_8[34] + tmp_p_19[2].s0 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_8[35] = tmp_p_8[35] + tmp_p_19[3].s0 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_8[36] = tmp_p_8[36] + tmp_p_19[4].s0 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_8[37] = tmp_p_8[37] + tmp_p_19[5].s0 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_8[38] = tmp_p_8[38] + tmp_p_19[6].s0 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_8[39] = tmp_p_8[39] + tmp_p_19[7].s0 * tmp_p_22[1].s0;
                  }
                }
                {
                  {
                    tmp_p_8[40] = tmp_p_8[40] + tmp_p_19[0].s0 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_8[41] = tmp_p_8[41] + tmp_p_19[1].s0 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_8[42] = tmp_p_8[42] + tmp_p_19[2].s0 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_8[43] = tmp_p_8[43] + tmp_p_19[3].s0 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_8[44] = tmp_p_8[44] + tmp_p_19[4].s0 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_8[45] = tmp_p_8[45] + tmp_p_19[5].s0 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_8[46] = tmp_p_8[46] + tmp_p_19[6].s0 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_8[47] = tmp_p_8[47] + tmp_p_19[7].s0 * tmp_p_22[1].s1;
                  }
                }
                {
                  {
                    tmp_p_8[48] = tmp_p_8[48] + tmp_p_19[0].s0 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_8[49] = tmp_p_8[49] + tmp_p_19[1].s0 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_8[50] = tmp_p_8[50] + tmp_p_19[2].s0 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_8[51] = tmp_p_8[51] + tmp_p_19[3].s0 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_8[52] = tmp_p_8[52] + tmp_p_19[4].s0 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_8[53] = tmp_p_8[53] + tmp_p_19[5].s0 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_8[54] = tmp_p_8[54] + tmp_p_19[6].s0 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_8[55] = tmp_p_8[55] + tmp_p_19[7].s0 * tmp_p_22[1].s2;
                  }
                }
                {
                  {
                    tmp_p_8[56] = tmp_p_8[56] + tmp_p_19[0].s0 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_8[57] = tmp_p_8[57] + tmp_p_19[1].s0 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_8[58] = tmp_p_8[58] + tmp_p_19[2].s0 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_8[59] = tmp_p_8[59] + tmp_p_19[3].s0 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_8[60] = tmp_p_8[60] + tmp_p_19[4].s0 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_8[61] = tmp_p_8[61] + tmp_p_19[5].s0 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_8[62] = tmp_p_8[62] + tmp_p_19[6].s0 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_8[63] = tmp_p_8[63] + tmp_p_19[7].s0 * tmp_p_22[1].s3;
                  }
                }
              }
              {
                float4 tmp_p_23[2];
                {
                  tmp_p_23[0] = vload4(0, tmp_l_12 + 512 * i_18 + 4 * l0 + 128);
                }
                {
                  tmp_p_23[1] = vload4(0, tmp_l_12 + 512 * i_18 + 4 * l0 + 192);
                }
                {
                  {
                    tmp_p_8[0] = tmp_p_8[0] + tmp_p_19[0].s1 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_8[1] = tmp_p_8[1] + tmp_p_19[1].s1 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_8[2] = tmp_p_8[2] + tmp_p_19[2].s1 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_8[3] = tmp_p_8[3] + tmp_p_19[3].s1 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_8[4] = tmp_p_8[4] + tmp_p_19[4].s1 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_8[5] = tmp_p_8[5] + tmp_p_19[5].s1 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_8[6] = tmp_p_8[6] + tmp_p_19[6].s1 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_8[7] = tmp_p_8[7] + tmp_p_19[7].s1 * tmp_p_23[0].s0;
                  }
                }
                {
                  {
                    tmp_p_8[8] = tmp_p_8[8] + tmp_p_19[0].s1 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_8[9] = tmp_p_8[9] + tmp_p_19[1].s1 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_8[10] = tmp_p_8[10] + tmp_p_19[2].s1 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_8[11] = tmp_p_8[11] + tmp_p_19[3].s1 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_8[12] = tmp_p_8[12] + tmp_p_19[4].s1 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_8[13] = tmp_p_8[13] + tmp_p_19[5].s1 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_8[14] = tmp_p_8[14] + tmp_p_19[6].s1 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_8[15] = tmp_p_8[15] + tmp_p_19[7].s1 * tmp_p_23[0].s1;
                  }
                }
                {
                  {
                    tmp_p_8[16] = tmp_p_8[16] + tmp_p_19[0].s1 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_8[17] = tmp_p_8[17] + tmp_p_19[1].s1 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_8[18] = tmp_p_8[18] + tmp_p_19[2].s1 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_8[19] = tmp_p_8[19] + tmp_p_19[3].s1 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_8[20] = tmp_p_8[20] + tmp_p_19[4].s1 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_8[21] = tmp_p_8[21] + tmp_p_19[5].s1 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_8[22] = tmp_p_8[22] + tmp_p_19[6].s1 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_8[23] = tmp_p_8[23] + tmp_p_19[7].s1 * tmp_p_23[0].s2;
                  }
                }
                {
                  {
                    tmp_p_8[24] = tmp_p_8[24] + tmp_p_19[0].s1 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_8[25] = tmp_p_8[25] + tmp_p_19[1].s1 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_8[26] = tmp_p_8[26] + tmp_p_19[2].s1 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_8[27] = tmp_p_8[27] + tmp_p_19[3].s1 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_8[28] = tmp_p_8[28] + tmp_p_19[4].s1 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_8[29] = tmp_p_8[29] + tmp_p_19[5].s1 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_8[30] = tmp_p_8[30] + tmp_p_19[6].s1 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_8[31] = tmp_p_8[31] + tmp_p_19[7].s1 * tmp_p_23[0].s3;
                  }
                }
                {
                  {
                    tmp_p_8[32] = tmp_p_8[32] + tmp_p_19[0].s1 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_8[33] = tmp_p_8[33] + tmp_p_19[1].s1 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_8[34] = tmp_p_8[34] + tmp_p_19[2].s1 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_8[35] = tmp_p_8[35] + tmp_p_19[3].s1 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_8[36] = tmp_p_8[36] + tmp_p_19[4].s1 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_8[37] = tmp_p_8[37] + tmp_p_19[5].s1 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_8[38] = tmp_p_8[38] + tmp_p_19[6].s1 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_8[39] = tmp_p_8[39] + tmp_p_19[7].s1 * tmp_p_23[1].s0;
                  }
                }
                {
                  {
                    tmp_p_8[40] = tmp_p_8[40] + tmp_p_19[0].s1 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_8[41] = tmp_p_8[41] + tmp_p_19[1].s1 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_8[42] = tmp_p_8[42] + tmp_p_19[2].s1 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_8[43] = tmp_p_8[43] + tmp_p_19[3].s1 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_8[44] = tmp_p_8[44] + tmp_p_19[4].s1 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_8[45] = tmp_p_8[45] + tmp_p_19[5].s1 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_8[46] = tmp_p_8[46] + tmp_p_19[6].s1 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_8[47] = tmp_p_8[47] + tmp_p_19[7].s1 * tmp_p_23[1].s1;
                  }
                }
                {
                  {
                    tmp_p_8[48] = tmp_p_8[48] + tmp_p_19[0].s1 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_8[49] = tmp_p_8[49] + tmp_p_19[1].s1 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_8[50] = tmp_p_8[50] + tmp_p_19[2].s1 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_8[51] = tmp_p_8[51] + tmp_p_19[3].s1 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_8[52] = tmp_p_8[52] + tmp_p_19[4].s1 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_8[53] = tmp_p_8[53] + tmp_p_19[5].s1 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_8[54] = tmp_p_8[54] + tmp_p_19[6].s1 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_8[55] = tmp_p_8[55] + tmp_p_19[7].s1 * tmp_p_23[1].s2;
                  }
                }
                {
                  {
                    tmp_p_8[56] = tmp_p_8[56] + tmp_p_19[0].s1 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_8[57] = tmp_p_8[57] + tmp_p_19[1].s1 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_8[58] = tmp_p_8[58] + tmp_p_19[2].s1 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_8[59] = tmp_p_8[59] + tmp_p_19[3].s1 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_8[60] = tmp_p_8[60] + tmp_p_19[4].s1 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_8[61] = tmp_p_8[61] + tmp_p_19[5].s1 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_8[62] = tmp_p_8[62] + tmp_p_19[6].s1 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_8[63] = tmp_p_8[63] + tmp_p_19[7].s1 * tmp_p_23[1].s3;
                  }
                }
              }
              {
                float4 tmp_p_24[2];
                {
                  tmp_p_24[0] = vload4(0, tmp_l_12 + 512 * i_18 + 4 * l0 + 256);
                }
                {
                  tmp_p_24[1] = vload4(0, tmp_l_12 + 512 * i_18 + 4 * l0 + 320);
                }
                {
                  {
                    tmp_p_8[0] = tmp_p_8[0] + tmp_p_19[0].s2 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_8[1] = tmp_p_8[1] + tmp_p_19[1].s2 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_8[2] = tmp_p_8[2] + tmp_p_19[2].s2 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_8[3] = tmp_p_8[3] + tmp_p_19[3].s2 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_8[4] = tmp_p_8[4] + tmp_p_19[4].s2 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_8[5] = tmp_p_8[5] + tmp_p_19[5].s2 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_8[6] = tmp_p_8[6] + tmp_p_19[6].s2 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_8[7] = tmp_p_8[7] + tmp_p_19[7].s2 * tmp_p_24[0].s0;
                  }
                }
                {
                  {
                    tmp_p_8[8] = tmp_p_8[8] + tmp_p_19[0].s2 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_8[9] = tmp_p_8[9] + tmp_p_19[1].s2 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_8[10] = tmp_p_8[10] + tmp_p_19[2].s2 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_8[11] = tmp_p_8[11] + tmp_p_19[3].s2 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_8[12] = tmp_p_8[12] + tmp_p_19[4].s2 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_8[13] = tmp_p_8[13] + tmp_p_19[5].s2 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_8[14] = tmp_p_8[14] + tmp_p_19[6].s2 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_8[15] = tmp_p_8[15] + tmp_p_19[7].s2 * tmp_p_24[0].s1;
                  }
                }
                {
                  {
                    tmp_p_8[16] = tmp_p_8[16] + tmp_p_19[0].s2 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_8[17] = tmp_p_8[17] + tmp_p_19[1].s2 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_8[18] = tmp_p_8[18] + tmp_p_19[2].s2 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_8[19] = tmp_p_8[19] + tmp_p_19[3].s2 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_8[20] = tmp_p_8[20] + tmp_p_19[4].s2 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_8[21] = tmp_p_8[21] + tmp_p_19[5].s2 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_8[22] = tmp_p_8[22] + tmp_p_19[6].s2 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_8[23] = tmp_p_8[23] + tmp_p_19[7].s2 * tmp_p_24[0].s2;
                  }
                }
                {
                  {
                    tmp_p_8[24] = tmp_p_8[24] + tmp_p_19[0].s2 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_8[25] = tmp_p_8[25] + tmp_p_19[1].s2 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_8[26] = tmp_p_8[26] + tmp_p_19[2].s2 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_8[27] = tmp_p_8[27] + tmp_p_19[3].s2 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_8[28] = tmp_p_8[28] + tmp_p_19[4].s2 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_8[29] = tmp_p_8[29] + tmp_p_19[5].s2 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_8[30] = tmp_p_8[30] + tmp_p_19[6].s2 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_8[31] = tmp_p_8[31] + tmp_p_19[7].s2 * tmp_p_24[0].s3;
                  }
                }
                {
                  {
                    tmp_p_8[32] = tmp_p_8[32] + tmp_p_19[0].s2 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_8[33] = tmp_p_8[33] + tmp_p_19[1].s2 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_8[34] = tmp_p_8[34] + tmp_p_19[2].s2 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_8[35] = tmp_p_8[35] + tmp_p_19[3].s2 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_8[36] = tmp_p_8[36] + tmp_p_19[4].s2 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_8[37] = tmp_p_8[37] + tmp_p_19[5].s2 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_8[38] = tmp_p_8[38] + tmp_p_19[6].s2 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_8[39] = tmp_p_8[39] + tmp_p_19[7].s2 * tmp_p_24[1].s0;
                  }
                }
                {
                  {
                    tmp_p_8[40] = tmp_p_8[40] + tmp_p_19[0].s2 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_8[41] = tmp_p_8[41] + tmp_p_19[1].s2 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_8[42] = tmp_p_8[42] + tmp_p_19[2].s2 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_8[43] = tmp_p_8[43] + tmp_p_19[3].s2 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_8[44] = tmp_p_8[44] + tmp_p_19[4].s2 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_8[45] = tmp_p_8[45] + tmp_p_19[5].s2 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_8[46] = tmp_p_8[46] + tmp_p_19[6].s2 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_8[47] = tmp_p_8[47] + tmp_p_19[7].s2 * tmp_p_24[1].s1;
                  }
                }
                {
                  {
                    tmp_p_8[48] = tmp_p_8[48] + tmp_p_19[0].s2 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_8[49] = tmp_p_8[49] + tmp_p_19[1].s2 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_8[50] = tmp_p_8[50] + tmp_p_19[2].s2 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_8[51] = tmp_p_8[51] + tmp_p_19[3].s2 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_8[52] = tmp_p_8[52] + tmp_p_19[4].s2 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_8[53] = tmp_p_8[53] + tmp_p_19[5].s2 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_8[54] = tmp_p_8[54] + tmp_p_19[6].s2 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_8[55] = tmp_p_8[55] + tmp_p_19[7].s2 * tmp_p_24[1].s2;
                  }
                }
                {
                  {
                    tmp_p_8[56] = tmp_p_8[56] + tmp_p_19[0].s2 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_8[57] = tmp_p_8[57] + tmp_p_19[1].s2 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_8[58] = tmp_p_8[58] + tmp_p_19[2].s2 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_8[59] = tmp_p_8[59] + tmp_p_19[3].s2 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_8[60] = tmp_p_8[60] + tmp_p_19[4].s2 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_8[61] = tmp_p_8[61] + tmp_p_19[5].s2 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_8[62] = tmp_p_8[62] + tmp_p_19[6].s2 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_8[63] = tmp_p_8[63] + tmp_p_19[7].s2 * tmp_p_24[1].s3;
                  }
                }
              }
              {
                float4 tmp_p_25[2];
                {
                  tmp_p_25[0] = vload4(0, tmp_l_12 + 512 * i_18 + 4 * l0 + 384);
                }
                {
                  tmp_p_25[1] = vload4(0, tmp_l_12 + 512 * i_18 + 4 * l0 + 448);
                }
                {
                  {
                    tmp_p_8[0] = tmp_p_8[0] + tmp_p_19[0].s3 * tmp_p_25[0].s0;
                  }
                  {
                    tmp_p_8[1] = tmp_p_8[1] + tmp_p_19[1].s3 * tmp_p_25[0].s0;
                  }
                  {
                    tmp_p_8[2] = tmp_p_8[2] + tmp_p_19[2].s3 * tmp_p_25[0].s0;
                  }
                  {
                    tmp_p_8[3] = tmp_p_8[3] + tmp_p_19[3].s3 * tmp_p_25[0].s0;
                  }
                  {
                    tmp_p_8[4] = tmp_p_8[4] + tmp_p_19[4].s3 * tmp_p_25[0].s0;
                  }
                  {
                    tmp_p_8[5] = tmp_p_8[5] + tmp_p_19[5].s3 * tmp_p_25[0].s0;
                  }
                  {
                    tmp_p_8[6] = tmp_p_8[6] + tmp_p_19[6].s3 * tmp_p_25[0].s0;
                  }
                  {
                    tmp_p_8[7] = tmp_p_8[7] + tmp_p_19[7].s3 * tmp_p_25[0].s0;
                  }
                }
                {
                  {
                    tmp_p_8[8] = tmp_p_8[8] + tmp_p_19[0].s3 * tmp_p_25[0].s1;
                  }
                  {
                    tmp_p_8[9] = tmp_p_8[9] + tmp_p_19[1].s3 * tmp_p_25[0].s1;
                  }
                  {
                    tmp_p_8[10] = tmp_p_8[10] + tmp_p_19[2].s3 * tmp_p_25[0].s1;
                  }
                  {
                    tmp_p_8[11] = tmp_p_8[11] + tmp_p_19[3].s3 * tmp_p_25[0].s1;
                  }
                  {
                    tmp_p_8[12] = tmp_p_8[12] + tmp_p_19[4].s3 * tmp_p_25[0].s1;
                  }
                  {
                    tmp_p_8[13] = tmp_p_8[13] + tmp_p_19[5].s3 * tmp_p_25[0].s1;
                  }
                  {
                    tmp_p_8[14] = tmp_p_8[14] + tmp_p_19[6].s3 * tmp_p_25[0].s1;
                  }
                  {
                    tmp_p_8[15] = tmp_p_8[15] + tmp_p_19[7].s3 * tmp_p_25[0].s1;
                  }
                }
                {
                  {
                    tmp_p_8[16] = tmp_p_8[16] + tmp_p_19[0].s3 * tmp_p_25[0].s2;
                  }
                  {
                    tmp_p_8[17] = tmp_p_8[17] + tmp_p_19[1].s3 * tmp_p_25[0].s2;
                  }
                  {
                    tmp_p_8[18] = tmp_p_8[18] + tmp_p_19[2].s3 * tmp_p_25[0].s2;
                  }
                  {
                    tmp_p_8[19] = tmp_p_8[19] + tmp_p_19[3].s3 * tmp_p_25[0].s2;
                  }
                  {
                    tmp_p_8[20] = tmp_p_8[20] + tmp_p_19[4].s3 * tmp_p_25[0].s2;
                  }
                  {
                    tmp_p_8[21] = tmp_p_8[21] + tmp_p_19[5].s3 * tmp_p_25[0].s2;
                  }
                  {
                    tmp_p_8[22] = tmp_p_8[22] + tmp_p_19[6].s3 * tmp_p_25[0].s2;
                  }
                  {
                    tmp_p_8[23] = tmp_p_8[23] + tmp_p_19[7].s3 * tmp_p_25[0].s2;
                  }
                }
                {
                  {
                    tmp_p_8[24] = tmp_p_8[24] + tmp_p_19[0].s3 * tmp_p_25[0].s3;
                  }
                  {
                    tmp_p_8[25] = tmp_p_8[25] + tmp_p_19[1].s3 * tmp_p_25[0].s3;
                  }
                  {
                    tmp_p_8[26] = tmp_p_8[26] + tmp_p_19[2].s3 * tmp_p_25[0].s3;
                  }
                  {
                    tmp_p_8[27] = tmp_p_8[27] + tmp_p_19[3].s3 * tmp_p_25[0].s3;
                  }
                  {
                    tmp_p_8[28] = tmp_p_8[28] + tmp_p_19[4].s3 * tmp_p_25[0].s3;
                  }
                  {
                    tmp_p_8[29] = tmp_p_8[29] + tmp_p_19[5].s3 * tmp_p_25[0].s3;
                  }
                  {
                    tmp_p_8[30] = tmp_p_8[30] + tmp_p_19[6].s3 * tmp_p_25[0].s3;
                  }
                  {
                    tmp_p_8[31] = tmp_p_8[31] + tmp_p_19[7].s3 * tmp_p_25[0].s3;
                  }
                }
                {
                  {
                    tmp_p_8[32] = tmp_p_8[32] + tmp_p_19[0].s3 * tmp_p_25[1].s0;
                  }
                  {
                    tmp_p_8[33] = tmp_p_8[33] + tmp_p_19[1].s3 * tmp_p_25[1].s0;
                  }
                  {
                    tmp_p_8[34] = tmp_p_8[34] + tmp_p_19[2].s3 * tmp_p_25[1].s0;
                  }
                  {
                    tmp_p_8[35] = tmp_p_8[35] + tmp_p_19[3].s3 * tmp_p_25[1].s0;
                  }
                  {
                    tmp_p_8[36] = tmp_p_8[36] + tmp_p_19[4].s3 * tmp_p_25[1].s0;
                  }
                  {
                    tmp_p_8[37] = tmp_p_8[37] + tmp_p_19[5].s3 * tmp_p_25[1].s0;
                  }
                  {
                    tmp_p_8[38] = tmp_p_8[38] + tmp_p_19[6].s3 * tmp_p_25[1].s0;
                  }
                  {
                    tmp_p_8[39] = tmp_p_8[39] + tmp_p_19[7].s3 * tmp_p_25[1].s0;
                  }
                }
                {
                  {
                    tmp_p_8[40] = tmp_p_8[40] + tmp_p_19[0].s3 * tmp_p_25[1].s1;
                  }
                  {
                    tmp_p_8[41] = tmp_p_8[41] + tmp_p_19[1].s3 * tmp_p_25[1].s1;
                  }
                  {
                    tmp_p_8[42] = tmp_p_8[42] + tmp_p_19[2].s3 * tmp_p_25[1].s1;
                  }
                  {
                    tmp_p_8[43] = tmp_p_8[43] + tmp_p_19[3].s3 * tmp_p_25[1].s1;
                  }
                  {
                    tmp_p_8[44] = tmp_p_8[44] + tmp_p_19[4].s3 * tmp_p_25[1].s1;
                  }
                  {
                    tmp_p_8[45] = tmp_p_8[45] + tmp_p_19[5].s3 * tmp_p_25[1].s1;
                  }
                  {
                    tmp_p_8[46] = tmp_p_8[46] + tmp_p_19[6].s3 * tmp_p_25[1].s1;
                  }
                  {
                    tmp_p_8[47] = tmp_p_8[47] + tmp_p_19[7].s3 * tmp_p_25[1].s1;
                  }
                }
                {
                  {
                    tmp_p_8[48] = tmp_p_8[48] + tmp_p_19[0].s3 * tmp_p_25[1].s2;
                  }
                  {
                    tmp_p_8[49] = tmp_p_8[49] + tmp_p_19[1].s3 * tmp_p_25[1].s2;
                  }
                  {
                    tmp_p_8[50] = tmp_p_8[50] + tmp_p_19[2].s3 * tmp_p_25[1].s2;
                  }
                  {
                    tmp_p_8[51] = tmp_p_8[51] + tmp_p_19[3].s3 * tmp_p_25[1].s2;
                  }
                  {
                    tmp_p_8[52] = tmp_p_8[52] + tmp_p_19[4].s3 * tmp_p_25[1].s2;
                  }
                  {
                    tmp_p_8[53] = tmp_p_8[53] + tmp_p_19[5].s3 * tmp_p_25[1].s2;
                  }
                  {
                    tmp_p_8[54] = tmp_p_8[54] + tmp_p_19[6].s3 * tmp_p_25[1].s2;
                  }
                  {
                    tmp_p_8[55] = tmp_p_8[55] + tmp_p_19[7].s3 * tmp_p_25[1].s2;
                  }
                }
                {
                  {
                    tmp_p_8[56] = tmp_p_8[56] + tmp_p_19[0].s3 * tmp_p_25[1].s3;
                  }
                  {
                    tmp_p_8[57] = tmp_p_8[57] + tmp_p_19[1].s3 * tmp_p_25[1].s3;
                  }
                  {
                    tmp_p_8[58] = tmp_p_8[58] + tmp_p_19[2].s3 * tmp_p_25[1].s3;
                  }
                  {
                    tmp_p_8[59] = tmp_p_8[59] + tmp_p_19[3].s3 * tmp_p_25[1].s3;
                  }
                  {
                    tmp_p_8[60] = tmp_p_8[60] + tmp_p_19[4].s3 * tmp_p_25[1].s3;
                  }
                  {
                    tmp_p_8[61] = tmp_p_8[61] + tmp_p_19[5].s3 * tmp_p_25[1].s3;
                  }
                  {
                    tmp_p_8[62] = tmp_p_8[62] + tmp_p_19[6].s3 * tmp_p_25[1].s3;
                  }
                  {
                    tmp_p_8[63] = tmp_p_8[63] + tmp_p_19[7].s3 * tmp_p_25[1].s3;
                  }
                }
              }
            }
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      {
        lift_idx l0 = get_local_id(0);
        {
          lift_idx l1 = get_local_id(1);
          {
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = alpha * tmp_p_8[0] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1) + lift_min(M - 1, 4 * l0 + 128 * wg0)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = alpha * tmp_p_8[1] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 16) + lift_min(M - 1, 4 * l0 + 128 * wg0)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = alpha * tmp_p_8[2] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 32) + lift_min(M - 1, 4 * l0 + 128 * wg0)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = alpha * tmp_p_8[3] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 48) + lift_min(M - 1, 4 * l0 + 128 * wg0)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = alpha * tmp_p_8[4] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 64) + lift_min(M - 1, 4 * l0 + 128 * wg0)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = alpha * tmp_p_8[5] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 80) + lift_min(M - 1, 4 * l0 + 128 * wg0)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = alpha * tmp_p_8[6] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 96) + lift_min(M - 1, 4 * l0 + 128 * wg0)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = alpha * tmp_p_8[7] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 112) + lift_min(M - 1, 4 * l0 + 128 * wg0)];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = alpha * tmp_p_8[8] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 1)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = alpha * tmp_p_8[9] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 16) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 1)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = alpha * tmp_p_8[10] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 32) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 1)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = alpha * tmp_p_8[11] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 48) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 1)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = alpha * tmp_p_8[12] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 64) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 1)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = alpha * tmp_p_8[13] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 80) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 1)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = alpha * tmp_p_8[14] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 96) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 1)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = alpha * tmp_p_8[15] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 112) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 1)];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = alpha * tmp_p_8[16] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 2)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = alpha * tmp_p_8[17] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 16) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 2)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = alpha * tmp_p_8[18] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 32) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 2)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = alpha * tmp_p_8[19] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 48) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 2)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = alpha * tmp_p_8[20] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 64) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 2)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = alpha * tmp_p_8[21] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 80) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 2)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = alpha * tmp_p_8[22] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 96) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 2)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = alpha * tmp_p_8[23] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 112) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 2)];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = alpha * tmp_p_8[24] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 3)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = alpha * tmp_p_8[25] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 16) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 3)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = alpha * tmp_p_8[26] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 32) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 3)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = alpha * tmp_p_8[27] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 48) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 3)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = alpha * tmp_p_8[28] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 64) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 3)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = alpha * tmp_p_8[29] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 80) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 3)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = alpha * tmp_p_8[30] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 96) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 3)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = alpha * tmp_p_8[31] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 112) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 3)];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = alpha * tmp_p_8[32] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 64)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = alpha * tmp_p_8[33] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 16) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 64)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = alpha * tmp_p_8[34] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 32) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 64)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = alpha * tmp_p_8[35] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 48) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 64)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = alpha * tmp_p_8[36] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 64) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 64)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = alpha * tmp_p_8[37] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 80) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 64)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = alpha * tmp_p_8[38] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 96) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 64)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = alpha * tmp_p_8[39] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 112) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 64)];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = alpha * tmp_p_8[40] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 65)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = alpha * tmp_p_8[41] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 16) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 65)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = alpha * tmp_p_8[42] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 32) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 65)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = alpha * tmp_p_8[43] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 48) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 65)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = alpha * tmp_p_8[44] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 64) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 65)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = alpha * tmp_p_8[45] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 80) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 65)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = alpha * tmp_p_8[46] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 96) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 65)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = alpha * tmp_p_8[47] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 112) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 65)];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = alpha * tmp_p_8[48] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 66)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = alpha * tmp_p_8[49] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 16) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 66)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = alpha * tmp_p_8[50] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 32) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 66)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = alpha * tmp_p_8[51] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 48) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 66)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = alpha * tmp_p_8[52] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 64) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 66)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = alpha * tmp_p_8[53] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 80) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 66)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = alpha * tmp_p_8[54] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 96) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 66)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = alpha * tmp_p_8[55] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 112) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 66)];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = alpha * tmp_p_8[56] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 67)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = alpha * tmp_p_8[57] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 16) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 67)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = alpha * tmp_p_8[58] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 32) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 67)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = alpha * tmp_p_8[59] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 48) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 67)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = alpha * tmp_p_8[60] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 64) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 67)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = alpha * tmp_p_8[61] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 80) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 67)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = alpha * tmp_p_8[62] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 96) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 67)];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = alpha * tmp_p_8[63] + beta * c[M * lift_min(N - 1, l1 + 128 * wg1 + 112) + lift_min(M - 1, 4 * l0 + 128 * wg0 + 67)];
                }
              }
            }
          }
        }
      }
    }
  }
}
