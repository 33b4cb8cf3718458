// Gemm: blocked(tm=128,tn=128,tk=16,l0=16,l1=16,v=4,u=0,pad=2)
// launch Gemm global [(M + 127) / 128 * 16, (N + 127) / 128 * 16] local [16, 16] local memory 16384 bytes
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
kernel void Gemm(const global float* restrict a, const global float* restrict b, global float* out, lift_idx lift_size_N, lift_idx lift_size_K, lift_idx lift_size_M) {
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
  local float tmp_l_9[2048];
  local float tmp_l_11[2048];
  {
    lift_idx wg1 = get_group_id(1);
    {
      lift_idx wg0 = get_group_id(0);
      float tmp_p_7[64];
      {
        lift_idx l0 = get_local_id(0);
        {
          lift_idx l1 = get_local_id(1);
          {
            {
              tmp_p_7[0] = 0.0f;
            }
            {
              tmp_p_7[1] = 0.0f;
            }
            {
              tmp_p_7[2] = 0.0f;
            }
            {
              tmp_p_7[3] = 0.0f;
            }
            {
              tmp_p_7[4] = 0.0f;
            }
            {
              tmp_p_7[5] = 0.0f;
            }
            {
              tmp_p_7[6] = 0.0f;
            }
            {
              tmp_p_7[7] = 0.0f;
            }
          }
          {
            {
              tmp_p_7[8] = 0.0f;
            }
            {
              tmp_p_7[9] = 0.0f;
            }
            {
              tmp_p_7[10] = 0.0f;
            }
            {
              tmp_p_7[11] = 0.0f;
            }
            {
              tmp_p_7[12] = 0.0f;
            }
            {
              tmp_p_7[13] = 0.0f;
            }
            {
              tmp_p_7[14] = 0.0f;
            }
            {
              tmp_p_7[15] = 0.0f;
            }
          }
          {
            {
              tmp_p_7[16] = 0.0f;
            }
            {
              tmp_p_7[17] = 0.0f;
            }
            {
              tmp_p_7[18] = 0.0f;
            }
            {
              tmp_p_7[19] = 0.0f;
            }
            {
              tmp_p_7[20] = 0.0f;
            }
            {
              tmp_p_7[21] = 0.0f;
            }
            {
              tmp_p_7[22] = 0.0f;
            }
            {
              tmp_p_7[23] = 0.0f;
            }
          }
          {
            {
              tmp_p_7[24] = 0.0f;
            }
            {
              tmp_p_7[25] = 0.0f;
            }
            {
              tmp_p_7[26] = 0.0f;
            }
            {
              tmp_p_7[27] = 0.0f;
            }
            {
              tmp_p_7[28] = 0.0f;
            }
            {
              tmp_p_7[29] = 0.0f;
            }
            {
              tmp_p_7[30] = 0.0f;
            }
            {
              tmp_p_7[31] = 0.0f;
            }
          }
          {
            {
              tmp_p_7[32] = 0.0f;
            }
            {
              tmp_p_7[33] = 0.0f;
            }
            {
              tmp_p_7[34] = 0.0f;
            }
            {
              tmp_p_7[35] = 0.0f;
            }
            {
              tmp_p_7[36] = 0.0f;
            }
            {
              tmp_p_7[37] = 0.0f;
            }
            {
              tmp_p_7[38] = 0.0f;
            }
            {
              tmp_p_7[39] = 0.0f;
            }
          }
          {
            {
              tmp_p_7[40] = 0.0f;
            }
            {
              tmp_p_7[41] = 0.0f;
            }
            {
              tmp_p_7[42] = 0.0f;
            }
            {
              tmp_p_7[43] = 0.0f;
            }
            {
              tmp_p_7[44] = 0.0f;
            }
            {
              tmp_p_7[45] = 0.0f;
            }
            {
              tmp_p_7[46] = 0.0f;
            }
            {
              tmp_p_7[47] = 0.0f;
            }
          }
          {
            {
              tmp_p_7[48] = 0.0f;
            }
            {
              tmp_p_7[49] = 0.0f;
            }
            {
              tmp_p_7[50] = 0.0f;
            }
            {
              tmp_p_7[51] = 0.0f;
            }
            {
              tmp_p_7[52] = 0.0f;
            }
            {
              tmp_p_7[53] = 0.0f;
            }
            {
              tmp_p_7[54] = 0.0f;
            }
            {
              tmp_p_7[55] = 0.0f;
            }
          }
          {
            {
              tmp_p_7[56] = 0.0f;
            }
            {
              tmp_p_7[57] = 0.0f;
            }
            {
              tmp_p_7[58] = 0.0f;
            }
            {
              tmp_p_7[59] = 0.0f;
            }
            {
              tmp_p_7[60] = 0.0f;
            }
            {
              tmp_p_7[61] = 0.0f;
            }
            {
              tmp_p_7[62] = 0.0f;
            }
            {
              tmp_p_7[63] = 0.0f;
            }
          }
        }
      }
      for (lift_idx i_8 = 0; i_8 < (K + 15) / 16; i_8 += 1) {
        {
          lift_idx l1 = get_local_id(1);
          for (lift_idx i_10 = 0; i_10 < 8; i_10 += 1) {
            {
              lift_idx l0 = get_local_id(0);
              tmp_l_9[256 * i_10 + l0 + 16 * l1] = (16 * i_8 + l0 >= K) ? 0.0f : a[K * lift_min(N - 1, 16 * i_10 + l1 + 128 * wg1) + 16 * i_8 + l0];
            }
          }
        }
        {
          lift_idx l1 = get_local_id(1);
          for (lift_idx i_12 = 0; i_12 < 8; i_12 += 1) {
            {
              lift_idx l0 = get_local_id(0);
              tmp_l_11[16 * i_12 + l0 + 128 * l1] = (16 * i_8 + l1 >= K) ? 0.0f : b[16 * M * i_8 + M * l1 + lift_min(M - 1, 16 * i_12 + l0 + 128 * wg0)];
            }
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        {
          lift_idx l0 = get_local_id(0);
          {
            lift_idx l1 = get_local_id(1);
            for (lift_idx i_17 = 0; i_17 < 4; i_17 += 1) {
              float4 tmp_p_18[8];
              {
                tmp_p_18[0] = vload4(0, tmp_l_9 + 4 * i_17 + 16 * l1);
              }
              {
                tmp_p_18[1] = vload4(0, tmp_l_9 + 4 * i_17 + 16 * l1 + 256);
              }
              {
                tmp_p_18[2] = vload4(0, tmp_l_9 + 4 * i_17 + 16 * l1 + 512);
              }
              {
                tmp_p_18[3] = vload4(0, tmp_l_9 + 4 * i_17 + 16 * l1 + 768);
              }
              {
                tmp_p_18[4] = vload4(0, tmp_l_9 + 4 * i_17 + 16 * l1 + 1024);
              }
              {
                tmp_p_18[5] = vload4(0, tmp_l_9 + 4 * i_17 + 16 * l1 + 1280);
              }
              {
                tmp_p_18[6] = vload4(0, tmp_l_9 + 4 * i_17 + 16 * l1 + 1536);
              }
              {
                tmp_p_18[7] = vload4(0, tmp_l_9 + 4 * i_17 + 16 * l1 + 1792);
              }
              {
                float4 tmp_p_21[2];
                {
                  tmp_p_21[0] = vload4(0, tmp_l_11 + 512 * i_17 + 4 * l0);
                }
                {
                  tmp_p_21[1] = vload4(0, tmp_l_11 + 512 * i_17 + 4 * l0 + 64);
                }
                {
                  {
                    tmp_p_7[0] = tmp_p_7[0] + tmp_p_18[0].s0 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_7[1] = tmp_p_7[1] + tmp_p_18[1].s0 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_7[2] = tmp_p_7[2] + tmp_p_18[2].s0 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_7[3] = tmp_p_7[3] + tmp_p_18[3].s0 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_7[4] = tmp_p_7[4] + tmp_p_18[4].s0 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_7[5] = tmp_p_7[5] + tmp_p_18[5].s0 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_7[6] = tmp_p_7[6] + tmp_p_18[6].s0 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_7[7] = tmp_p_7[7] + tmp_p_18[7].s0 * tmp_p_21[0].s0;
                  }
                }
                {
                  {
                    tmp_p_7[8] = tmp_p_7[8] + tmp_p_18[0].s0 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_7[9] = tmp_p_7[9] + tmp_p_18[1].s0 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_7[10] = tmp_p_7[10] + tmp_p_18[2].s0 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_7[11] = tmp_p_7[11] + tmp_p_18[3].s0 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_7[12] = tmp_p_7[12] + tmp_p_18[4].s0 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_7[13] = tmp_p_7[13] + tmp_p_18[5].s0 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_7[14] = tmp_p_7[14] + tmp_p_18[6].s0 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_7[15] = tmp_p_7[15] + tmp_p_18[7].s0 * tmp_p_21[0].s1;
                  }
                }
                {
                  {
                    tmp_p_7[16] = tmp_p_7[16] + tmp_p_18[0].s0 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_7[17] = tmp_p_7[17] + tmp_p_18[1].s0 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_7[18] = tmp_p_7[18] + tmp_p_18[2].s0 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_7[19] = tmp_p_7[19] + tmp_p_18[3].s0 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_7[20] = tmp_p_7[20] + tmp_p_18[4].s0 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_7[21] = tmp_p_7[21] + tmp_p_18[5].s0 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_7[22] = tmp_p_7[22] + tmp_p_18[6].s0 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_7[23] = tmp_p_7[23] + tmp_p_18[7].s0 * tmp_p_21[0].s2;
                  }
                }
                {
                  {
                    tmp_p_7[24] = tmp_p_7[24] + tmp_p_18[0].s0 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_7[25] = tmp_p_7[25] + tmp_p_18[1].s0 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_7[26] = tmp_p_7[26] + tmp_p_18[2].s0 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_7[27] = tmp_p_7[27] + tmp_p_18[3].s0 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_7[28] = tmp_p_7[28] + tmp_p_18[4].s0 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_7[29] = tmp_p_7[29] + tmp_p_18[5].s0 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_7[30] = tmp_p_7[30] + tmp_p_18[6].s0 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_7[31] = tmp_p_7[31] + tmp_p_18[7].s0 * tmp_p_21[0].s3;
                  }
                }
                {
                  {
                    tmp_p_7[32] = tmp_p_7[32] + tmp_p_18[0].s0 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_7[33] = tmp_p_7[33] + tmp_p_18[1].s0 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_7[34] = tmp_p_7[34] + tmp_p_18[2].s0 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_7[35] = tmp_p_7[35] + tmp_p_18[3].s0 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_7[36] = tmp_p_7[36] + tmp_p_18[4].s0 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_7[37] = tmp_p_7[37] + tmp_p_18[5].s0 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_7[38] = tmp_p_7[38] + tmp_p_18[6].s0 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_7[39] = tmp_p_7[39] + tmp_p_18[7].s0 * tmp_p_21[1].s0;
                  }
                }
                {
                  {
                    tmp_p_7[40] = tmp_p_7[40] + tmp_p_18[0].s0 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_7[41] = tmp_p_7[41] + tmp_p_18[1].s0 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_7[42] = tmp_p_7[42] + tmp_p_18[2].s0 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_7[43] = tmp_p_7[43] + tmp_p_18[3].s0 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_7[44] = tmp_p_7[44] + tmp_p_18[4].s0 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_7[45] = tmp_p_7[45] + tmp_p_18[5].s0 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_7[46] = tmp_p_7[46] + tmp_p_18[6].s0 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_7[47] = tmp_p_7[47] + tmp_p_18[7].s0 * tmp_p_21[1].s1;
                  }
                }
                {
                  {
                    tmp_p_7[48] = tmp_p_7[48] + tmp_p_18[0].s0 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_7[49] = tmp_p_7[49] + tmp_p_18[1].s0 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_7[50] = tmp_p_7[50] + tmp_p_18[2].s0 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_7[51] = tmp_p_7[51] + tmp_p_18[3].s0 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_7[52] = tmp_p_7[52] + tmp_p_18[4].s0 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_7[53] = tmp_p_7[53] + tmp_p_18[5].s0 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_7[54] = tmp_p_7[54] + tmp_p_18[6].s0 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_7[55] = tmp_p_7[55] + tmp_p_18[7].s0 * tmp_p_21[1].s2;
                  }
                }
                {
                  {
                    tmp_p_7[56] = tmp_p_7[56] + tmp_p_18[0].s0 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_7[57] = tmp_p_7[57] + tmp_p_18[1].s0 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_7[58] = tmp_p_7[58] + tmp_p_18[2].s0 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_7[59] = tmp_p_7[59] + tmp_p_18[3].s0 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_7[60] = tmp_p_7[60] + tmp_p_18[4].s0 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_7[61] = tmp_p_7[61] + tmp_p_18[5].s0 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_7[62] = tmp_p_7[62] + tmp_p_18[6].s0 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_7[63] = tmp_p_7[63] + tmp_p_18[7].s0 * tmp_p_21[1].s3;
                  }
                }
              }
              {
                float4 tmp_p_22[2];
                {
                  tmp_p_22[0] = vload4(0, tmp_l_11 + 512 * i_17 + 4 * l0 + 128);
                }
                {
                  tmp_p_22[1] = vload4(0, tmp_l_11 + 512 * i_17 + 4 * l0 + 192);
                }
                {
                  {
                    tmp_p_7[0] = tmp_p_7[0] + tmp_p_18[0].s1 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_7[1] = tmp_p_7[1] + tmp_p_18[1].s1 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_7[2] = tmp_p_7[2] + tmp_p_18[2].s1 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_7[3] = tmp_p_7[3] + tmp_p_18[3].s1 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_7[4] = tmp_p_7[4] + tmp_p_18[4].s1 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_7[5] = tmp_p_7[5] + tmp_p_18[5].s1 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_7[6] = tmp_p_7[6] + tmp_p_18[6].s1 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_7[7] = tmp_p_7[7] + tmp_p_18[7].s1 * tmp_p_22[0].s0;
                  }
                }
                {
                  {
                    tmp_p_7[8] = tmp_p_7[8] + tmp_p_18[0].s1 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_7[9] = tmp_p_7[9] + tmp_p_18[1].s1 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_7[10] = tmp_p_7[10] + tmp_p_18[2].s1 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_7[11] = tmp_p_7[11] + tmp_p_18[3].s1 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_7[12] = tmp_p_7[12] + tmp_p_18[4].s1 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_7[13] = tmp_p_7[13] + tmp_p_18[5].s1 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_7[14] = tmp_p_7[14] + tmp_p_18[6].s1 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_7[15] = tmp_p_7[15] + tmp_p_18[7].s1 * tmp_p_22[0].s1;
                  }
                }
                {
                  {
                    tmp_p_7[16] = tmp_p_7[16] + tmp_p_18[0].s1 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_7[17] = tmp_p_7[17] + tmp_p_18[1].s1 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_7[18] = tmp_p_7[18] + tmp_p_18[2].s1 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_7[19] = tmp_p_7[19] + tmp_p_18[3].s1 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_7[20] = tmp_p_7[20] + tmp_p_18[4].s1 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_7[21] = tmp_p_7[21] + tmp_p_18[5].s1 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_7[22] = tmp_p_7[22] + tmp_p_18[6].s1 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_7[23] = tmp_p_7[23] + tmp_p_18[7].s1 * tmp_p_22[0].s2;
                  }
                }
                {
                  {
                    tmp_p_7[24] = tmp_p_7[24] + tmp_p_18[0].s1 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_7[25] = tmp_p_7[25] + tmp_p_18[1].s1 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_7[26] = tmp_p_7[26] + tmp_p_18[2].s1 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_7[27] = tmp_p_7[27] + tmp_p_18[3].s1 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_7[28] = tmp_p_7[28] + tmp_p_18[4].s1 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_7[29] = tmp_p_7[29] + tmp_p_18[5].s1 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_7[30] = tmp_p_7[30] + tmp_p_18[6].s1 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_7[31] = tmp_p_7[31] + tmp_p_18[7].s1 * tmp_p_22[0].s3;
                  }
                }
                {
                  {
                    tmp_p_7[32] = tmp_p_7[32] + tmp_p_18[0].s1 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_7[33] = tmp_p_7[33] + tmp_p_18[1].s1 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_7[34] = tmp_p_7[34] + tmp_p_18[2].s1 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_7[35] = tmp_p_7[35] + tmp_p_18[3].s1 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_7[36] = tmp_p_7[36] + tmp_p_18[4].s1 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_7[37] = tmp_p_7[37] + tmp_p_18[5].s1 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_7[38] = tmp_p_7[38] + tmp_p_18[6].s1 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_7[39] = tmp_p_7[39] + tmp_p_18[7].s1 * tmp_p_22[1].s0;
                  }
                }
                {
                  {
                    tmp_p_7[40] = tmp_p_7[40] + tmp_p_18[0].s1 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_7[41] = tmp_p_7[41] + tmp_p_18[1].s1 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_7[42] = tmp_p_7[42] + tmp_p_18[2].s1 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_7[43] = tmp_p_7[43] + tmp_p_18[3].s1 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_7[44] = tmp_p_7[44] + tmp_p_18[4].s1 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_7[45] = tmp_p_7[45] + tmp_p_18[5].s1 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_7[46] = tmp_p_7[46] + tmp_p_18[6].s1 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_7[47] = tmp_p_7[47] + tmp_p_18[7].s1 * tmp_p_22[1].s1;
                  }
                }
                {
                  {
                    tmp_p_7[48] = tmp_p_7[48] + tmp_p_18[0].s1 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_7[49] = tmp_p_7[49] + tmp_p_18[1].s1 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_7[50] = tmp_p_7[50] + tmp_p_18[2].s1 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_7[51] = tmp_p_7[51] + tmp_p_18[3].s1 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_7[52] = tmp_p_7[52] + tmp_p_18[4].s1 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_7[53] = tmp_p_7[53] + tmp_p_18[5].s1 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_7[54] = tmp_p_7[54] + tmp_p_18[6].s1 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_7[55] = tmp_p_7[55] + tmp_p_18[7].s1 * tmp_p_22[1].s2;
                  }
                }
                {
                  {
                    tmp_p_7[56] = tmp_p_7[56] + tmp_p_18[0].s1 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_7[57] = tmp_p_7[57] + tmp_p_18[1].s1 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_7[58] = tmp_p_7[58] + tmp_p_18[2].s1 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_7[59] = tmp_p_7[59] + tmp_p_18[3].s1 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_7[60] = tmp_p_7[60] + tmp_p_18[4].s1 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_7[61] = tmp_p_7[61] + tmp_p_18[5].s1 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_7[62] = tmp_p_7[62] + tmp_p_18[6].s1 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_7[63] = tmp_p_7[63] + tmp_p_18[7].s1 * tmp_p_22[1].s3;
                  }
                }
              }
              {
                float4 tmp_p_23[2];
                {
                  tmp_p_23[0] = vload4(0, tmp_l_11 + 512 * i_17 + 4 * l0 + 256);
                }
                {
                  tmp_p_23[1] = vload4(0, tmp_l_11 + 512 * i_17 + 4 * l0 + 320);
                }
                {
                  {
                    tmp_p_7[0] = tmp_p_7[0] + tmp_p_18[0].s2 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_7[1] = tmp_p_7[1] + tmp_p_18[1].s2 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_7[2] = tmp_p_7[2] + tmp_p_18[2].s2 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_7[3] = tmp_p_7[3] + tmp_p_18[3].s2 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_7[4] = tmp_p_7[4] + tmp_p_18[4].s2 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_7[5] = tmp_p_7[5] + tmp_p_18[5].s2 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_7[6] = tmp_p_7[6] + tmp_p_18[6].s2 * tmp_p_23[0].s0;
                  }
                  {
                    tmp_p_7[7] = tmp_p_7[7] + tmp_p_18[7].s2 * tmp_p_23[0].s0;
                  }
                }
                {
                  {
                    tmp_p_7[8] = tmp_p_7[8] + tmp_p_18[0].s2 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_7[9] = tmp_p_7[9] + tmp_p_18[1].s2 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_7[10] = tmp_p_7[10] + tmp_p_18[2].s2 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_7[11] = tmp_p_7[11] + tmp_p_18[3].s2 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_7[12] = tmp_p_7[12] + tmp_p_18[4].s2 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_7[13] = tmp_p_7[13] + tmp_p_18[5].s2 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_7[14] = tmp_p_7[14] + tmp_p_18[6].s2 * tmp_p_23[0].s1;
                  }
                  {
                    tmp_p_7[15] = tmp_p_7[15] + tmp_p_18[7].s2 * tmp_p_23[0].s1;
                  }
                }
                {
                  {
                    tmp_p_7[16] = tmp_p_7[16] + tmp_p_18[0].s2 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_7[17] = tmp_p_7[17] + tmp_p_18[1].s2 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_7[18] = tmp_p_7[18] + tmp_p_18[2].s2 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_7[19] = tmp_p_7[19] + tmp_p_18[3].s2 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_7[20] = tmp_p_7[20] + tmp_p_18[4].s2 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_7[21] = tmp_p_7[21] + tmp_p_18[5].s2 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_7[22] = tmp_p_7[22] + tmp_p_18[6].s2 * tmp_p_23[0].s2;
                  }
                  {
                    tmp_p_7[23] = tmp_p_7[23] + tmp_p_18[7].s2 * tmp_p_23[0].s2;
                  }
                }
                {
                  {
                    tmp_p_7[24] = tmp_p_7[24] + tmp_p_18[0].s2 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_7[25] = tmp_p_7[25] + tmp_p_18[1].s2 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_7[26] = tmp_p_7[26] + tmp_p_18[2].s2 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_7[27] = tmp_p_7[27] + tmp_p_18[3].s2 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_7[28] = tmp_p_7[28] + tmp_p_18[4].s2 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_7[29] = tmp_p_7[29] + tmp_p_18[5].s2 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_7[30] = tmp_p_7[30] + tmp_p_18[6].s2 * tmp_p_23[0].s3;
                  }
                  {
                    tmp_p_7[31] = tmp_p_7[31] + tmp_p_18[7].s2 * tmp_p_23[0].s3;
                  }
                }
                {
                  {
                    tmp_p_7[32] = tmp_p_7[32] + tmp_p_18[0].s2 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_7[33] = tmp_p_7[33] + tmp_p_18[1].s2 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_7[34] = tmp_p_7[34] + tmp_p_18[2].s2 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_7[35] = tmp_p_7[35] + tmp_p_18[3].s2 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_7[36] = tmp_p_7[36] + tmp_p_18[4].s2 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_7[37] = tmp_p_7[37] + tmp_p_18[5].s2 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_7[38] = tmp_p_7[38] + tmp_p_18[6].s2 * tmp_p_23[1].s0;
                  }
                  {
                    tmp_p_7[39] = tmp_p_7[39] + tmp_p_18[7].s2 * tmp_p_23[1].s0;
                  }
                }
                {
                  {
                    tmp_p_7[40] = tmp_p_7[40] + tmp_p_18[0].s2 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_7[41] = tmp_p_7[41] + tmp_p_18[1].s2 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_7[42] = tmp_p_7[42] + tmp_p_18[2].s2 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_7[43] = tmp_p_7[43] + tmp_p_18[3].s2 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_7[44] = tmp_p_7[44] + tmp_p_18[4].s2 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_7[45] = tmp_p_7[45] + tmp_p_18[5].s2 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_7[46] = tmp_p_7[46] + tmp_p_18[6].s2 * tmp_p_23[1].s1;
                  }
                  {
                    tmp_p_7[47] = tmp_p_7[47] + tmp_p_18[7].s2 * tmp_p_23[1].s1;
                  }
                }
                {
                  {
                    tmp_p_7[48] = tmp_p_7[48] + tmp_p_18[0].s2 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_7[49] = tmp_p_7[49] + tmp_p_18[1].s2 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_7[50] = tmp_p_7[50] + tmp_p_18[2].s2 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_7[51] = tmp_p_7[51] + tmp_p_18[3].s2 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_7[52] = tmp_p_7[52] + tmp_p_18[4].s2 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_7[53] = tmp_p_7[53] + tmp_p_18[5].s2 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_7[54] = tmp_p_7[54] + tmp_p_18[6].s2 * tmp_p_23[1].s2;
                  }
                  {
                    tmp_p_7[55] = tmp_p_7[55] + tmp_p_18[7].s2 * tmp_p_23[1].s2;
                  }
                }
                {
                  {
                    tmp_p_7[56] = tmp_p_7[56] + tmp_p_18[0].s2 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_7[57] = tmp_p_7[57] + tmp_p_18[1].s2 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_7[58] = tmp_p_7[58] + tmp_p_18[2].s2 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_7[59] = tmp_p_7[59] + tmp_p_18[3].s2 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_7[60] = tmp_p_7[60] + tmp_p_18[4].s2 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_7[61] = tmp_p_7[61] + tmp_p_18[5].s2 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_7[62] = tmp_p_7[62] + tmp_p_18[6].s2 * tmp_p_23[1].s3;
                  }
                  {
                    tmp_p_7[63] = tmp_p_7[63] + tmp_p_18[7].s2 * tmp_p_23[1].s3;
                  }
                }
              }
              {
                float4 tmp_p_24[2];
                {
                  tmp_p_24[0] = vload4(0, tmp_l_11 + 512 * i_17 + 4 * l0 + 384);
                }
                {
                  tmp_p_24[1] = vload4(0, tmp_l_11 + 512 * i_17 + 4 * l0 + 448);
                }
                {
                  {
                    tmp_p_7[0] = tmp_p_7[0] + tmp_p_18[0].s3 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_7[1] = tmp_p_7[1] + tmp_p_18[1].s3 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_7[2] = tmp_p_7[2] + tmp_p_18[2].s3 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_7[3] = tmp_p_7[3] + tmp_p_18[3].s3 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_7[4] = tmp_p_7[4] + tmp_p_18[4].s3 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_7[5] = tmp_p_7[5] + tmp_p_18[5].s3 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_7[6] = tmp_p_7[6] + tmp_p_18[6].s3 * tmp_p_24[0].s0;
                  }
                  {
                    tmp_p_7[7] = tmp_p_7[7] + tmp_p_18[7].s3 * tmp_p_24[0].s0;
                  }
                }
                {
                  {
                    tmp_p_7[8] = tmp_p_7[8] + tmp_p_18[0].s3 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_7[9] = tmp_p_7[9] + tmp_p_18[1].s3 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_7[10] = tmp_p_7[10] + tmp_p_18[2].s3 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_7[11] = tmp_p_7[11] + tmp_p_18[3].s3 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_7[12] = tmp_p_7[12] + tmp_p_18[4].s3 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_7[13] = tmp_p_7[13] + tmp_p_18[5].s3 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_7[14] = tmp_p_7[14] + tmp_p_18[6].s3 * tmp_p_24[0].s1;
                  }
                  {
                    tmp_p_7[15] = tmp_p_7[15] + tmp_p_18[7].s3 * tmp_p_24[0].s1;
                  }
                }
                {
                  {
                    tmp_p_7[16] = tmp_p_7[16] + tmp_p_18[0].s3 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_7[17] = tmp_p_7[17] + tmp_p_18[1].s3 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_7[18] = tmp_p_7[18] + tmp_p_18[2].s3 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_7[19] = tmp_p_7[19] + tmp_p_18[3].s3 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_7[20] = tmp_p_7[20] + tmp_p_18[4].s3 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_7[21] = tmp_p_7[21] + tmp_p_18[5].s3 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_7[22] = tmp_p_7[22] + tmp_p_18[6].s3 * tmp_p_24[0].s2;
                  }
                  {
                    tmp_p_7[23] = tmp_p_7[23] + tmp_p_18[7].s3 * tmp_p_24[0].s2;
                  }
                }
                {
                  {
                    tmp_p_7[24] = tmp_p_7[24] + tmp_p_18[0].s3 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_7[25] = tmp_p_7[25] + tmp_p_18[1].s3 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_7[26] = tmp_p_7[26] + tmp_p_18[2].s3 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_7[27] = tmp_p_7[27] + tmp_p_18[3].s3 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_7[28] = tmp_p_7[28] + tmp_p_18[4].s3 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_7[29] = tmp_p_7[29] + tmp_p_18[5].s3 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_7[30] = tmp_p_7[30] + tmp_p_18[6].s3 * tmp_p_24[0].s3;
                  }
                  {
                    tmp_p_7[31] = tmp_p_7[31] + tmp_p_18[7].s3 * tmp_p_24[0].s3;
                  }
                }
                {
                  {
                    tmp_p_7[32] = tmp_p_7[32] + tmp_p_18[0].s3 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_7[33] = tmp_p_7[33] + tmp_p_18[1].s3 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_7[34] = tmp_p_7[34] + tmp_p_18[2].s3 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_7[35] = tmp_p_7[35] + tmp_p_18[3].s3 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_7[36] = tmp_p_7[36] + tmp_p_18[4].s3 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_7[37] = tmp_p_7[37] + tmp_p_18[5].s3 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_7[38] = tmp_p_7[38] + tmp_p_18[6].s3 * tmp_p_24[1].s0;
                  }
                  {
                    tmp_p_7[39] = tmp_p_7[39] + tmp_p_18[7].s3 * tmp_p_24[1].s0;
                  }
                }
                {
                  {
                    tmp_p_7[40] = tmp_p_7[40] + tmp_p_18[0].s3 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_7[41] = tmp_p_7[41] + tmp_p_18[1].s3 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_7[42] = tmp_p_7[42] + tmp_p_18[2].s3 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_7[43] = tmp_p_7[43] + tmp_p_18[3].s3 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_7[44] = tmp_p_7[44] + tmp_p_18[4].s3 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_7[45] = tmp_p_7[45] + tmp_p_18[5].s3 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_7[46] = tmp_p_7[46] + tmp_p_18[6].s3 * tmp_p_24[1].s1;
                  }
                  {
                    tmp_p_7[47] = tmp_p_7[47] + tmp_p_18[7].s3 * tmp_p_24[1].s1;
                  }
                }
                {
                  {
                    tmp_p_7[48] = tmp_p_7[48] + tmp_p_18[0].s3 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_7[49] = tmp_p_7[49] + tmp_p_18[1].s3 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_7[50] = tmp_p_7[50] + tmp_p_18[2].s3 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_7[51] = tmp_p_7[51] + tmp_p_18[3].s3 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_7[52] = tmp_p_7[52] + tmp_p_18[4].s3 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_7[53] = tmp_p_7[53] + tmp_p_18[5].s3 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_7[54] = tmp_p_7[54] + tmp_p_18[6].s3 * tmp_p_24[1].s2;
                  }
                  {
                    tmp_p_7[55] = tmp_p_7[55] + tmp_p_18[7].s3 * tmp_p_24[1].s2;
                  }
                }
                {
                  {
                    tmp_p_7[56] = tmp_p_7[56] + tmp_p_18[0].s3 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_7[57] = tmp_p_7[57] + tmp_p_18[1].s3 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_7[58] = tmp_p_7[58] + tmp_p_18[2].s3 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_7[59] = tmp_p_7[59] + tmp_p_18[3].s3 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_7[60] = tmp_p_7[60] + tmp_p_18[4].s3 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_7[61] = tmp_p_7[61] + tmp_p_18[5].s3 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_7[62] = tmp_p_7[62] + tmp_p_18[6].s3 * tmp_p_24[1].s3;
                  }
                  {
                    tmp_p_7[63] = tmp_p_7[63] + tmp_p_18[7].s3 * tmp_p_24[1].s3;
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
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = tmp_p_7[0];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = tmp_p_7[1];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = tmp_p_7[2];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = tmp_p_7[3];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = tmp_p_7[4];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = tmp_p_7[5];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = tmp_p_7[6];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0] = tmp_p_7[7];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = tmp_p_7[8];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = tmp_p_7[9];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = tmp_p_7[10];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = tmp_p_7[11];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = tmp_p_7[12];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = tmp_p_7[13];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = tmp_p_7[14];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 1] = tmp_p_7[15];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = tmp_p_7[16];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = tmp_p_7[17];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = tmp_p_7[18];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = tmp_p_7[19];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = tmp_p_7[20];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = tmp_p_7[21];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = tmp_p_7[22];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 2] = tmp_p_7[23];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = tmp_p_7[24];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = tmp_p_7[25];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = tmp_p_7[26];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = tmp_p_7[27];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = tmp_p_7[28];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = tmp_p_7[29];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = tmp_p_7[30];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 3] = tmp_p_7[31];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = tmp_p_7[32];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = tmp_p_7[33];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = tmp_p_7[34];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = tmp_p_7[35];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = tmp_p_7[36];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = tmp_p_7[37];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = tmp_p_7[38];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 64] = tmp_p_7[39];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = tmp_p_7[40];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = tmp_p_7[41];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = tmp_p_7[42];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = tmp_p_7[43];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = tmp_p_7[44];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = tmp_p_7[45];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = tmp_p_7[46];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 65] = tmp_p_7[47];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = tmp_p_7[48];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = tmp_p_7[49];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = tmp_p_7[50];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = tmp_p_7[51];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = tmp_p_7[52];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = tmp_p_7[53];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = tmp_p_7[54];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 66] = tmp_p_7[55];
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 < N) {
                  out[M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = tmp_p_7[56];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 16 < N) {
                  out[16 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = tmp_p_7[57];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 32 < N) {
                  out[32 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = tmp_p_7[58];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 48 < N) {
                  out[48 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = tmp_p_7[59];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 64 < N) {
                  out[64 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = tmp_p_7[60];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 80 < N) {
                  out[80 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = tmp_p_7[61];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 96 < N) {
                  out[96 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = tmp_p_7[62];
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < M) {
                if (l1 + 128 * wg1 + 112 < N) {
                  out[112 * M + M * l1 + 128 * M * wg1 + 4 * l0 + 128 * wg0 + 67] = tmp_p_7[63];
                }
              }
            }
          }
        }
      }
    }
  }
}
