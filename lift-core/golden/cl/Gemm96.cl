// Gemm96: blocked(tm=128,tn=128,tk=16,l0=16,l1=16,v=4,u=0,pad=1)
// launch Gemm96 global [16, 16] local [16, 16] local memory 16384 bytes
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
kernel void Gemm96(const global float* restrict a, const global float* restrict b, global float* out) {
  local float tmp_l_7[2048];
  local float tmp_l_9[2048];
  {
    lift_idx wg1 = get_group_id(1);
    {
      lift_idx wg0 = get_group_id(0);
      float tmp_p_5[64];
      {
        lift_idx l0 = get_local_id(0);
        {
          lift_idx l1 = get_local_id(1);
          {
            {
              tmp_p_5[0] = 0.0f;
            }
            {
              tmp_p_5[1] = 0.0f;
            }
            {
              tmp_p_5[2] = 0.0f;
            }
            {
              tmp_p_5[3] = 0.0f;
            }
            {
              tmp_p_5[4] = 0.0f;
            }
            {
              tmp_p_5[5] = 0.0f;
            }
            {
              tmp_p_5[6] = 0.0f;
            }
            {
              tmp_p_5[7] = 0.0f;
            }
          }
          {
            {
              tmp_p_5[8] = 0.0f;
            }
            {
              tmp_p_5[9] = 0.0f;
            }
            {
              tmp_p_5[10] = 0.0f;
            }
            {
              tmp_p_5[11] = 0.0f;
            }
            {
              tmp_p_5[12] = 0.0f;
            }
            {
              tmp_p_5[13] = 0.0f;
            }
            {
              tmp_p_5[14] = 0.0f;
            }
            {
              tmp_p_5[15] = 0.0f;
            }
          }
          {
            {
              tmp_p_5[16] = 0.0f;
            }
            {
              tmp_p_5[17] = 0.0f;
            }
            {
              tmp_p_5[18] = 0.0f;
            }
            {
              tmp_p_5[19] = 0.0f;
            }
            {
              tmp_p_5[20] = 0.0f;
            }
            {
              tmp_p_5[21] = 0.0f;
            }
            {
              tmp_p_5[22] = 0.0f;
            }
            {
              tmp_p_5[23] = 0.0f;
            }
          }
          {
            {
              tmp_p_5[24] = 0.0f;
            }
            {
              tmp_p_5[25] = 0.0f;
            }
            {
              tmp_p_5[26] = 0.0f;
            }
            {
              tmp_p_5[27] = 0.0f;
            }
            {
              tmp_p_5[28] = 0.0f;
            }
            {
              tmp_p_5[29] = 0.0f;
            }
            {
              tmp_p_5[30] = 0.0f;
            }
            {
              tmp_p_5[31] = 0.0f;
            }
          }
          {
            {
              tmp_p_5[32] = 0.0f;
            }
            {
              tmp_p_5[33] = 0.0f;
            }
            {
              tmp_p_5[34] = 0.0f;
            }
            {
              tmp_p_5[35] = 0.0f;
            }
            {
              tmp_p_5[36] = 0.0f;
            }
            {
              tmp_p_5[37] = 0.0f;
            }
            {
              tmp_p_5[38] = 0.0f;
            }
            {
              tmp_p_5[39] = 0.0f;
            }
          }
          {
            {
              tmp_p_5[40] = 0.0f;
            }
            {
              tmp_p_5[41] = 0.0f;
            }
            {
              tmp_p_5[42] = 0.0f;
            }
            {
              tmp_p_5[43] = 0.0f;
            }
            {
              tmp_p_5[44] = 0.0f;
            }
            {
              tmp_p_5[45] = 0.0f;
            }
            {
              tmp_p_5[46] = 0.0f;
            }
            {
              tmp_p_5[47] = 0.0f;
            }
          }
          {
            {
              tmp_p_5[48] = 0.0f;
            }
            {
              tmp_p_5[49] = 0.0f;
            }
            {
              tmp_p_5[50] = 0.0f;
            }
            {
              tmp_p_5[51] = 0.0f;
            }
            {
              tmp_p_5[52] = 0.0f;
            }
            {
              tmp_p_5[53] = 0.0f;
            }
            {
              tmp_p_5[54] = 0.0f;
            }
            {
              tmp_p_5[55] = 0.0f;
            }
          }
          {
            {
              tmp_p_5[56] = 0.0f;
            }
            {
              tmp_p_5[57] = 0.0f;
            }
            {
              tmp_p_5[58] = 0.0f;
            }
            {
              tmp_p_5[59] = 0.0f;
            }
            {
              tmp_p_5[60] = 0.0f;
            }
            {
              tmp_p_5[61] = 0.0f;
            }
            {
              tmp_p_5[62] = 0.0f;
            }
            {
              tmp_p_5[63] = 0.0f;
            }
          }
        }
      }
      for (lift_idx i_6 = 0; i_6 < 6; i_6 += 1) {
        {
          lift_idx l1 = get_local_id(1);
          for (lift_idx i_8 = 0; i_8 < 8; i_8 += 1) {
            {
              lift_idx l0 = get_local_id(0);
              tmp_l_7[256 * i_8 + l0 + 16 * l1] = a[16 * i_6 + l0 + 96 * lift_min(63, 16 * i_8 + l1)];
            }
          }
        }
        {
          lift_idx l1 = get_local_id(1);
          for (lift_idx i_10 = 0; i_10 < 8; i_10 += 1) {
            {
              lift_idx l0 = get_local_id(0);
              tmp_l_9[16 * i_10 + l0 + 128 * l1] = b[16 * i_10 + 2048 * i_6 + l0 + 128 * l1];
            }
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        {
          lift_idx l0 = get_local_id(0);
          {
            lift_idx l1 = get_local_id(1);
            for (lift_idx i_15 = 0; i_15 < 4; i_15 += 1) {
              float4 tmp_p_16[8];
              {
                tmp_p_16[0] = vload4(0, tmp_l_7 + 4 * i_15 + 16 * l1);
              }
              {
                tmp_p_16[1] = vload4(0, tmp_l_7 + 4 * i_15 + 16 * l1 + 256);
              }
              {
                tmp_p_16[2] = vload4(0, tmp_l_7 + 4 * i_15 + 16 * l1 + 512);
              }
              {
                tmp_p_16[3] = vload4(0, tmp_l_7 + 4 * i_15 + 16 * l1 + 768);
              }
              {
                tmp_p_16[4] = vload4(0, tmp_l_7 + 4 * i_15 + 16 * l1 + 1024);
              }
              {
                tmp_p_16[5] = vload4(0, tmp_l_7 + 4 * i_15 + 16 * l1 + 1280);
              }
              {
                tmp_p_16[6] = vload4(0, tmp_l_7 + 4 * i_15 + 16 * l1 + 1536);
              }
              {
                tmp_p_16[7] = vload4(0, tmp_l_7 + 4 * i_15 + 16 * l1 + 1792);
              }
              {
                float4 tmp_p_19[2];
                {
                  tmp_p_19[0] = vload4(0, tmp_l_9 + 512 * i_15 + 4 * l0);
                }
                {
                  tmp_p_19[1] = vload4(0, tmp_l_9 + 512 * i_15 + 4 * l0 + 64);
                }
                {
                  {
                    tmp_p_5[0] = tmp_p_5[0] + tmp_p_16[0].s0 * tmp_p_19[0].s0;
                  }
                  {
                    tmp_p_5[1] = tmp_p_5[1] + tmp_p_16[1].s0 * tmp_p_19[0].s0;
                  }
                  {
                    tmp_p_5[2] = tmp_p_5[2] + tmp_p_16[2].s0 * tmp_p_19[0].s0;
                  }
                  {
                    tmp_p_5[3] = tmp_p_5[3] + tmp_p_16[3].s0 * tmp_p_19[0].s0;
                  }
                  {
                    tmp_p_5[4] = tmp_p_5[4] + tmp_p_16[4].s0 * tmp_p_19[0].s0;
                  }
                  {
                    tmp_p_5[5] = tmp_p_5[5] + tmp_p_16[5].s0 * tmp_p_19[0].s0;
                  }
                  {
                    tmp_p_5[6] = tmp_p_5[6] + tmp_p_16[6].s0 * tmp_p_19[0].s0;
                  }
                  {
                    tmp_p_5[7] = tmp_p_5[7] + tmp_p_16[7].s0 * tmp_p_19[0].s0;
                  }
                }
                {
                  {
                    tmp_p_5[8] = tmp_p_5[8] + tmp_p_16[0].s0 * tmp_p_19[0].s1;
                  }
                  {
                    tmp_p_5[9] = tmp_p_5[9] + tmp_p_16[1].s0 * tmp_p_19[0].s1;
                  }
                  {
                    tmp_p_5[10] = tmp_p_5[10] + tmp_p_16[2].s0 * tmp_p_19[0].s1;
                  }
                  {
                    tmp_p_5[11] = tmp_p_5[11] + tmp_p_16[3].s0 * tmp_p_19[0].s1;
                  }
                  {
                    tmp_p_5[12] = tmp_p_5[12] + tmp_p_16[4].s0 * tmp_p_19[0].s1;
                  }
                  {
                    tmp_p_5[13] = tmp_p_5[13] + tmp_p_16[5].s0 * tmp_p_19[0].s1;
                  }
                  {
                    tmp_p_5[14] = tmp_p_5[14] + tmp_p_16[6].s0 * tmp_p_19[0].s1;
                  }
                  {
                    tmp_p_5[15] = tmp_p_5[15] + tmp_p_16[7].s0 * tmp_p_19[0].s1;
                  }
                }
                {
                  {
                    tmp_p_5[16] = tmp_p_5[16] + tmp_p_16[0].s0 * tmp_p_19[0].s2;
                  }
                  {
                    tmp_p_5[17] = tmp_p_5[17] + tmp_p_16[1].s0 * tmp_p_19[0].s2;
                  }
                  {
                    tmp_p_5[18] = tmp_p_5[18] + tmp_p_16[2].s0 * tmp_p_19[0].s2;
                  }
                  {
                    tmp_p_5[19] = tmp_p_5[19] + tmp_p_16[3].s0 * tmp_p_19[0].s2;
                  }
                  {
                    tmp_p_5[20] = tmp_p_5[20] + tmp_p_16[4].s0 * tmp_p_19[0].s2;
                  }
                  {
                    tmp_p_5[21] = tmp_p_5[21] + tmp_p_16[5].s0 * tmp_p_19[0].s2;
                  }
                  {
                    tmp_p_5[22] = tmp_p_5[22] + tmp_p_16[6].s0 * tmp_p_19[0].s2;
                  }
                  {
                    tmp_p_5[23] = tmp_p_5[23] + tmp_p_16[7].s0 * tmp_p_19[0].s2;
                  }
                }
                {
                  {
                    tmp_p_5[24] = tmp_p_5[24] + tmp_p_16[0].s0 * tmp_p_19[0].s3;
                  }
                  {
                    tmp_p_5[25] = tmp_p_5[25] + tmp_p_16[1].s0 * tmp_p_19[0].s3;
                  }
                  {
                    tmp_p_5[26] = tmp_p_5[26] + tmp_p_16[2].s0 * tmp_p_19[0].s3;
                  }
                  {
                    tmp_p_5[27] = tmp_p_5[27] + tmp_p_16[3].s0 * tmp_p_19[0].s3;
                  }
                  {
                    tmp_p_5[28] = tmp_p_5[28] + tmp_p_16[4].s0 * tmp_p_19[0].s3;
                  }
                  {
                    tmp_p_5[29] = tmp_p_5[29] + tmp_p_16[5].s0 * tmp_p_19[0].s3;
                  }
                  {
                    tmp_p_5[30] = tmp_p_5[30] + tmp_p_16[6].s0 * tmp_p_19[0].s3;
                  }
                  {
                    tmp_p_5[31] = tmp_p_5[31] + tmp_p_16[7].s0 * tmp_p_19[0].s3;
                  }
                }
                {
                  {
                    tmp_p_5[32] = tmp_p_5[32] + tmp_p_16[0].s0 * tmp_p_19[1].s0;
                  }
                  {
                    tmp_p_5[33] = tmp_p_5[33] + tmp_p_16[1].s0 * tmp_p_19[1].s0;
                  }
                  {
                    tmp_p_5[34] = tmp_p_5[34] + tmp_p_16[2].s0 * tmp_p_19[1].s0;
                  }
                  {
                    tmp_p_5[35] = tmp_p_5[35] + tmp_p_16[3].s0 * tmp_p_19[1].s0;
                  }
                  {
                    tmp_p_5[36] = tmp_p_5[36] + tmp_p_16[4].s0 * tmp_p_19[1].s0;
                  }
                  {
                    tmp_p_5[37] = tmp_p_5[37] + tmp_p_16[5].s0 * tmp_p_19[1].s0;
                  }
                  {
                    tmp_p_5[38] = tmp_p_5[38] + tmp_p_16[6].s0 * tmp_p_19[1].s0;
                  }
                  {
                    tmp_p_5[39] = tmp_p_5[39] + tmp_p_16[7].s0 * tmp_p_19[1].s0;
                  }
                }
                {
                  {
                    tmp_p_5[40] = tmp_p_5[40] + tmp_p_16[0].s0 * tmp_p_19[1].s1;
                  }
                  {
                    tmp_p_5[41] = tmp_p_5[41] + tmp_p_16[1].s0 * tmp_p_19[1].s1;
                  }
                  {
                    tmp_p_5[42] = tmp_p_5[42] + tmp_p_16[2].s0 * tmp_p_19[1].s1;
                  }
                  {
                    tmp_p_5[43] = tmp_p_5[43] + tmp_p_16[3].s0 * tmp_p_19[1].s1;
                  }
                  {
                    tmp_p_5[44] = tmp_p_5[44] + tmp_p_16[4].s0 * tmp_p_19[1].s1;
                  }
                  {
                    tmp_p_5[45] = tmp_p_5[45] + tmp_p_16[5].s0 * tmp_p_19[1].s1;
                  }
                  {
                    tmp_p_5[46] = tmp_p_5[46] + tmp_p_16[6].s0 * tmp_p_19[1].s1;
                  }
                  {
                    tmp_p_5[47] = tmp_p_5[47] + tmp_p_16[7].s0 * tmp_p_19[1].s1;
                  }
                }
                {
                  {
                    tmp_p_5[48] = tmp_p_5[48] + tmp_p_16[0].s0 * tmp_p_19[1].s2;
                  }
                  {
                    tmp_p_5[49] = tmp_p_5[49] + tmp_p_16[1].s0 * tmp_p_19[1].s2;
                  }
                  {
                    tmp_p_5[50] = tmp_p_5[50] + tmp_p_16[2].s0 * tmp_p_19[1].s2;
                  }
                  {
                    tmp_p_5[51] = tmp_p_5[51] + tmp_p_16[3].s0 * tmp_p_19[1].s2;
                  }
                  {
                    tmp_p_5[52] = tmp_p_5[52] + tmp_p_16[4].s0 * tmp_p_19[1].s2;
                  }
                  {
                    tmp_p_5[53] = tmp_p_5[53] + tmp_p_16[5].s0 * tmp_p_19[1].s2;
                  }
                  {
                    tmp_p_5[54] = tmp_p_5[54] + tmp_p_16[6].s0 * tmp_p_19[1].s2;
                  }
                  {
                    tmp_p_5[55] = tmp_p_5[55] + tmp_p_16[7].s0 * tmp_p_19[1].s2;
                  }
                }
                {
                  {
                    tmp_p_5[56] = tmp_p_5[56] + tmp_p_16[0].s0 * tmp_p_19[1].s3;
                  }
                  {
                    tmp_p_5[57] = tmp_p_5[57] + tmp_p_16[1].s0 * tmp_p_19[1].s3;
                  }
                  {
                    tmp_p_5[58] = tmp_p_5[58] + tmp_p_16[2].s0 * tmp_p_19[1].s3;
                  }
                  {
                    tmp_p_5[59] = tmp_p_5[59] + tmp_p_16[3].s0 * tmp_p_19[1].s3;
                  }
                  {
                    tmp_p_5[60] = tmp_p_5[60] + tmp_p_16[4].s0 * tmp_p_19[1].s3;
                  }
                  {
                    tmp_p_5[61] = tmp_p_5[61] + tmp_p_16[5].s0 * tmp_p_19[1].s3;
                  }
                  {
                    tmp_p_5[62] = tmp_p_5[62] + tmp_p_16[6].s0 * tmp_p_19[1].s3;
                  }
                  {
                    tmp_p_5[63] = tmp_p_5[63] + tmp_p_16[7].s0 * tmp_p_19[1].s3;
                  }
                }
              }
              {
                float4 tmp_p_20[2];
                {
                  tmp_p_20[0] = vload4(0, tmp_l_9 + 512 * i_15 + 4 * l0 + 128);
                }
                {
                  tmp_p_20[1] = vload4(0, tmp_l_9 + 512 * i_15 + 4 * l0 + 192);
                }
                {
                  {
                    tmp_p_5[0] = tmp_p_5[0] + tmp_p_16[0].s1 * tmp_p_20[0].s0;
                  }
                  {
                    tmp_p_5[1] = tmp_p_5[1] + tmp_p_16[1].s1 * tmp_p_20[0].s0;
                  }
                  {
                    tmp_p_5[2] = tmp_p_5[2] + tmp_p_16[2].s1 * tmp_p_20[0].s0;
                  }
                  {
                    tmp_p_5[3] = tmp_p_5[3] + tmp_p_16[3].s1 * tmp_p_20[0].s0;
                  }
                  {
                    tmp_p_5[4] = tmp_p_5[4] + tmp_p_16[4].s1 * tmp_p_20[0].s0;
                  }
                  {
                    tmp_p_5[5] = tmp_p_5[5] + tmp_p_16[5].s1 * tmp_p_20[0].s0;
                  }
                  {
                    tmp_p_5[6] = tmp_p_5[6] + tmp_p_16[6].s1 * tmp_p_20[0].s0;
                  }
                  {
                    tmp_p_5[7] = tmp_p_5[7] + tmp_p_16[7].s1 * tmp_p_20[0].s0;
                  }
                }
                {
                  {
                    tmp_p_5[8] = tmp_p_5[8] + tmp_p_16[0].s1 * tmp_p_20[0].s1;
                  }
                  {
                    tmp_p_5[9] = tmp_p_5[9] + tmp_p_16[1].s1 * tmp_p_20[0].s1;
                  }
                  {
                    tmp_p_5[10] = tmp_p_5[10] + tmp_p_16[2].s1 * tmp_p_20[0].s1;
                  }
                  {
                    tmp_p_5[11] = tmp_p_5[11] + tmp_p_16[3].s1 * tmp_p_20[0].s1;
                  }
                  {
                    tmp_p_5[12] = tmp_p_5[12] + tmp_p_16[4].s1 * tmp_p_20[0].s1;
                  }
                  {
                    tmp_p_5[13] = tmp_p_5[13] + tmp_p_16[5].s1 * tmp_p_20[0].s1;
                  }
                  {
                    tmp_p_5[14] = tmp_p_5[14] + tmp_p_16[6].s1 * tmp_p_20[0].s1;
                  }
                  {
                    tmp_p_5[15] = tmp_p_5[15] + tmp_p_16[7].s1 * tmp_p_20[0].s1;
                  }
                }
                {
                  {
                    tmp_p_5[16] = tmp_p_5[16] + tmp_p_16[0].s1 * tmp_p_20[0].s2;
                  }
                  {
                    tmp_p_5[17] = tmp_p_5[17] + tmp_p_16[1].s1 * tmp_p_20[0].s2;
                  }
                  {
                    tmp_p_5[18] = tmp_p_5[18] + tmp_p_16[2].s1 * tmp_p_20[0].s2;
                  }
                  {
                    tmp_p_5[19] = tmp_p_5[19] + tmp_p_16[3].s1 * tmp_p_20[0].s2;
                  }
                  {
                    tmp_p_5[20] = tmp_p_5[20] + tmp_p_16[4].s1 * tmp_p_20[0].s2;
                  }
                  {
                    tmp_p_5[21] = tmp_p_5[21] + tmp_p_16[5].s1 * tmp_p_20[0].s2;
                  }
                  {
                    tmp_p_5[22] = tmp_p_5[22] + tmp_p_16[6].s1 * tmp_p_20[0].s2;
                  }
                  {
                    tmp_p_5[23] = tmp_p_5[23] + tmp_p_16[7].s1 * tmp_p_20[0].s2;
                  }
                }
                {
                  {
                    tmp_p_5[24] = tmp_p_5[24] + tmp_p_16[0].s1 * tmp_p_20[0].s3;
                  }
                  {
                    tmp_p_5[25] = tmp_p_5[25] + tmp_p_16[1].s1 * tmp_p_20[0].s3;
                  }
                  {
                    tmp_p_5[26] = tmp_p_5[26] + tmp_p_16[2].s1 * tmp_p_20[0].s3;
                  }
                  {
                    tmp_p_5[27] = tmp_p_5[27] + tmp_p_16[3].s1 * tmp_p_20[0].s3;
                  }
                  {
                    tmp_p_5[28] = tmp_p_5[28] + tmp_p_16[4].s1 * tmp_p_20[0].s3;
                  }
                  {
                    tmp_p_5[29] = tmp_p_5[29] + tmp_p_16[5].s1 * tmp_p_20[0].s3;
                  }
                  {
                    tmp_p_5[30] = tmp_p_5[30] + tmp_p_16[6].s1 * tmp_p_20[0].s3;
                  }
                  {
                    tmp_p_5[31] = tmp_p_5[31] + tmp_p_16[7].s1 * tmp_p_20[0].s3;
                  }
                }
                {
                  {
                    tmp_p_5[32] = tmp_p_5[32] + tmp_p_16[0].s1 * tmp_p_20[1].s0;
                  }
                  {
                    tmp_p_5[33] = tmp_p_5[33] + tmp_p_16[1].s1 * tmp_p_20[1].s0;
                  }
                  {
                    tmp_p_5[34] = tmp_p_5[34] + tmp_p_16[2].s1 * tmp_p_20[1].s0;
                  }
                  {
                    tmp_p_5[35] = tmp_p_5[35] + tmp_p_16[3].s1 * tmp_p_20[1].s0;
                  }
                  {
                    tmp_p_5[36] = tmp_p_5[36] + tmp_p_16[4].s1 * tmp_p_20[1].s0;
                  }
                  {
                    tmp_p_5[37] = tmp_p_5[37] + tmp_p_16[5].s1 * tmp_p_20[1].s0;
                  }
                  {
                    tmp_p_5[38] = tmp_p_5[38] + tmp_p_16[6].s1 * tmp_p_20[1].s0;
                  }
                  {
                    tmp_p_5[39] = tmp_p_5[39] + tmp_p_16[7].s1 * tmp_p_20[1].s0;
                  }
                }
                {
                  {
                    tmp_p_5[40] = tmp_p_5[40] + tmp_p_16[0].s1 * tmp_p_20[1].s1;
                  }
                  {
                    tmp_p_5[41] = tmp_p_5[41] + tmp_p_16[1].s1 * tmp_p_20[1].s1;
                  }
                  {
                    tmp_p_5[42] = tmp_p_5[42] + tmp_p_16[2].s1 * tmp_p_20[1].s1;
                  }
                  {
                    tmp_p_5[43] = tmp_p_5[43] + tmp_p_16[3].s1 * tmp_p_20[1].s1;
                  }
                  {
                    tmp_p_5[44] = tmp_p_5[44] + tmp_p_16[4].s1 * tmp_p_20[1].s1;
                  }
                  {
                    tmp_p_5[45] = tmp_p_5[45] + tmp_p_16[5].s1 * tmp_p_20[1].s1;
                  }
                  {
                    tmp_p_5[46] = tmp_p_5[46] + tmp_p_16[6].s1 * tmp_p_20[1].s1;
                  }
                  {
                    tmp_p_5[47] = tmp_p_5[47] + tmp_p_16[7].s1 * tmp_p_20[1].s1;
                  }
                }
                {
                  {
                    tmp_p_5[48] = tmp_p_5[48] + tmp_p_16[0].s1 * tmp_p_20[1].s2;
                  }
                  {
                    tmp_p_5[49] = tmp_p_5[49] + tmp_p_16[1].s1 * tmp_p_20[1].s2;
                  }
                  {
                    tmp_p_5[50] = tmp_p_5[50] + tmp_p_16[2].s1 * tmp_p_20[1].s2;
                  }
                  {
                    tmp_p_5[51] = tmp_p_5[51] + tmp_p_16[3].s1 * tmp_p_20[1].s2;
                  }
                  {
                    tmp_p_5[52] = tmp_p_5[52] + tmp_p_16[4].s1 * tmp_p_20[1].s2;
                  }
                  {
                    tmp_p_5[53] = tmp_p_5[53] + tmp_p_16[5].s1 * tmp_p_20[1].s2;
                  }
                  {
                    tmp_p_5[54] = tmp_p_5[54] + tmp_p_16[6].s1 * tmp_p_20[1].s2;
                  }
                  {
                    tmp_p_5[55] = tmp_p_5[55] + tmp_p_16[7].s1 * tmp_p_20[1].s2;
                  }
                }
                {
                  {
                    tmp_p_5[56] = tmp_p_5[56] + tmp_p_16[0].s1 * tmp_p_20[1].s3;
                  }
                  {
                    tmp_p_5[57] = tmp_p_5[57] + tmp_p_16[1].s1 * tmp_p_20[1].s3;
                  }
                  {
                    tmp_p_5[58] = tmp_p_5[58] + tmp_p_16[2].s1 * tmp_p_20[1].s3;
                  }
                  {
                    tmp_p_5[59] = tmp_p_5[59] + tmp_p_16[3].s1 * tmp_p_20[1].s3;
                  }
                  {
                    tmp_p_5[60] = tmp_p_5[60] + tmp_p_16[4].s1 * tmp_p_20[1].s3;
                  }
                  {
                    tmp_p_5[61] = tmp_p_5[61] + tmp_p_16[5].s1 * tmp_p_20[1].s3;
                  }
                  {
                    tmp_p_5[62] = tmp_p_5[62] + tmp_p_16[6].s1 * tmp_p_20[1].s3;
                  }
                  {
                    tmp_p_5[63] = tmp_p_5[63] + tmp_p_16[7].s1 * tmp_p_20[1].s3;
                  }
                }
              }
              {
                float4 tmp_p_21[2];
                {
                  tmp_p_21[0] = vload4(0, tmp_l_9 + 512 * i_15 + 4 * l0 + 256);
                }
                {
                  tmp_p_21[1] = vload4(0, tmp_l_9 + 512 * i_15 + 4 * l0 + 320);
                }
                {
                  {
                    tmp_p_5[0] = tmp_p_5[0] + tmp_p_16[0].s2 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_5[1] = tmp_p_5[1] + tmp_p_16[1].s2 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_5[2] = tmp_p_5[2] + tmp_p_16[2].s2 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_5[3] = tmp_p_5[3] + tmp_p_16[3].s2 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_5[4] = tmp_p_5[4] + tmp_p_16[4].s2 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_5[5] = tmp_p_5[5] + tmp_p_16[5].s2 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_5[6] = tmp_p_5[6] + tmp_p_16[6].s2 * tmp_p_21[0].s0;
                  }
                  {
                    tmp_p_5[7] = tmp_p_5[7] + tmp_p_16[7].s2 * tmp_p_21[0].s0;
                  }
                }
                {
                  {
                    tmp_p_5[8] = tmp_p_5[8] + tmp_p_16[0].s2 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_5[9] = tmp_p_5[9] + tmp_p_16[1].s2 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_5[10] = tmp_p_5[10] + tmp_p_16[2].s2 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_5[11] = tmp_p_5[11] + tmp_p_16[3].s2 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_5[12] = tmp_p_5[12] + tmp_p_16[4].s2 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_5[13] = tmp_p_5[13] + tmp_p_16[5].s2 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_5[14] = tmp_p_5[14] + tmp_p_16[6].s2 * tmp_p_21[0].s1;
                  }
                  {
                    tmp_p_5[15] = tmp_p_5[15] + tmp_p_16[7].s2 * tmp_p_21[0].s1;
                  }
                }
                {
                  {
                    tmp_p_5[16] = tmp_p_5[16] + tmp_p_16[0].s2 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_5[17] = tmp_p_5[17] + tmp_p_16[1].s2 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_5[18] = tmp_p_5[18] + tmp_p_16[2].s2 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_5[19] = tmp_p_5[19] + tmp_p_16[3].s2 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_5[20] = tmp_p_5[20] + tmp_p_16[4].s2 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_5[21] = tmp_p_5[21] + tmp_p_16[5].s2 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_5[22] = tmp_p_5[22] + tmp_p_16[6].s2 * tmp_p_21[0].s2;
                  }
                  {
                    tmp_p_5[23] = tmp_p_5[23] + tmp_p_16[7].s2 * tmp_p_21[0].s2;
                  }
                }
                {
                  {
                    tmp_p_5[24] = tmp_p_5[24] + tmp_p_16[0].s2 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_5[25] = tmp_p_5[25] + tmp_p_16[1].s2 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_5[26] = tmp_p_5[26] + tmp_p_16[2].s2 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_5[27] = tmp_p_5[27] + tmp_p_16[3].s2 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_5[28] = tmp_p_5[28] + tmp_p_16[4].s2 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_5[29] = tmp_p_5[29] + tmp_p_16[5].s2 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_5[30] = tmp_p_5[30] + tmp_p_16[6].s2 * tmp_p_21[0].s3;
                  }
                  {
                    tmp_p_5[31] = tmp_p_5[31] + tmp_p_16[7].s2 * tmp_p_21[0].s3;
                  }
                }
                {
                  {
                    tmp_p_5[32] = tmp_p_5[32] + tmp_p_16[0].s2 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_5[33] = tmp_p_5[33] + tmp_p_16[1].s2 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_5[34] = tmp_p_5[34] + tmp_p_16[2].s2 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_5[35] = tmp_p_5[35] + tmp_p_16[3].s2 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_5[36] = tmp_p_5[36] + tmp_p_16[4].s2 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_5[37] = tmp_p_5[37] + tmp_p_16[5].s2 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_5[38] = tmp_p_5[38] + tmp_p_16[6].s2 * tmp_p_21[1].s0;
                  }
                  {
                    tmp_p_5[39] = tmp_p_5[39] + tmp_p_16[7].s2 * tmp_p_21[1].s0;
                  }
                }
                {
                  {
                    tmp_p_5[40] = tmp_p_5[40] + tmp_p_16[0].s2 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_5[41] = tmp_p_5[41] + tmp_p_16[1].s2 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_5[42] = tmp_p_5[42] + tmp_p_16[2].s2 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_5[43] = tmp_p_5[43] + tmp_p_16[3].s2 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_5[44] = tmp_p_5[44] + tmp_p_16[4].s2 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_5[45] = tmp_p_5[45] + tmp_p_16[5].s2 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_5[46] = tmp_p_5[46] + tmp_p_16[6].s2 * tmp_p_21[1].s1;
                  }
                  {
                    tmp_p_5[47] = tmp_p_5[47] + tmp_p_16[7].s2 * tmp_p_21[1].s1;
                  }
                }
                {
                  {
                    tmp_p_5[48] = tmp_p_5[48] + tmp_p_16[0].s2 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_5[49] = tmp_p_5[49] + tmp_p_16[1].s2 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_5[50] = tmp_p_5[50] + tmp_p_16[2].s2 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_5[51] = tmp_p_5[51] + tmp_p_16[3].s2 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_5[52] = tmp_p_5[52] + tmp_p_16[4].s2 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_5[53] = tmp_p_5[53] + tmp_p_16[5].s2 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_5[54] = tmp_p_5[54] + tmp_p_16[6].s2 * tmp_p_21[1].s2;
                  }
                  {
                    tmp_p_5[55] = tmp_p_5[55] + tmp_p_16[7].s2 * tmp_p_21[1].s2;
                  }
                }
                {
                  {
                    tmp_p_5[56] = tmp_p_5[56] + tmp_p_16[0].s2 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_5[57] = tmp_p_5[57] + tmp_p_16[1].s2 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_5[58] = tmp_p_5[58] + tmp_p_16[2].s2 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_5[59] = tmp_p_5[59] + tmp_p_16[3].s2 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_5[60] = tmp_p_5[60] + tmp_p_16[4].s2 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_5[61] = tmp_p_5[61] + tmp_p_16[5].s2 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_5[62] = tmp_p_5[62] + tmp_p_16[6].s2 * tmp_p_21[1].s3;
                  }
                  {
                    tmp_p_5[63] = tmp_p_5[63] + tmp_p_16[7].s2 * tmp_p_21[1].s3;
                  }
                }
              }
              {
                float4 tmp_p_22[2];
                {
                  tmp_p_22[0] = vload4(0, tmp_l_9 + 512 * i_15 + 4 * l0 + 384);
                }
                {
                  tmp_p_22[1] = vload4(0, tmp_l_9 + 512 * i_15 + 4 * l0 + 448);
                }
                {
                  {
                    tmp_p_5[0] = tmp_p_5[0] + tmp_p_16[0].s3 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_5[1] = tmp_p_5[1] + tmp_p_16[1].s3 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_5[2] = tmp_p_5[2] + tmp_p_16[2].s3 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_5[3] = tmp_p_5[3] + tmp_p_16[3].s3 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_5[4] = tmp_p_5[4] + tmp_p_16[4].s3 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_5[5] = tmp_p_5[5] + tmp_p_16[5].s3 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_5[6] = tmp_p_5[6] + tmp_p_16[6].s3 * tmp_p_22[0].s0;
                  }
                  {
                    tmp_p_5[7] = tmp_p_5[7] + tmp_p_16[7].s3 * tmp_p_22[0].s0;
                  }
                }
                {
                  {
                    tmp_p_5[8] = tmp_p_5[8] + tmp_p_16[0].s3 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_5[9] = tmp_p_5[9] + tmp_p_16[1].s3 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_5[10] = tmp_p_5[10] + tmp_p_16[2].s3 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_5[11] = tmp_p_5[11] + tmp_p_16[3].s3 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_5[12] = tmp_p_5[12] + tmp_p_16[4].s3 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_5[13] = tmp_p_5[13] + tmp_p_16[5].s3 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_5[14] = tmp_p_5[14] + tmp_p_16[6].s3 * tmp_p_22[0].s1;
                  }
                  {
                    tmp_p_5[15] = tmp_p_5[15] + tmp_p_16[7].s3 * tmp_p_22[0].s1;
                  }
                }
                {
                  {
                    tmp_p_5[16] = tmp_p_5[16] + tmp_p_16[0].s3 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_5[17] = tmp_p_5[17] + tmp_p_16[1].s3 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_5[18] = tmp_p_5[18] + tmp_p_16[2].s3 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_5[19] = tmp_p_5[19] + tmp_p_16[3].s3 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_5[20] = tmp_p_5[20] + tmp_p_16[4].s3 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_5[21] = tmp_p_5[21] + tmp_p_16[5].s3 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_5[22] = tmp_p_5[22] + tmp_p_16[6].s3 * tmp_p_22[0].s2;
                  }
                  {
                    tmp_p_5[23] = tmp_p_5[23] + tmp_p_16[7].s3 * tmp_p_22[0].s2;
                  }
                }
                {
                  {
                    tmp_p_5[24] = tmp_p_5[24] + tmp_p_16[0].s3 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_5[25] = tmp_p_5[25] + tmp_p_16[1].s3 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_5[26] = tmp_p_5[26] + tmp_p_16[2].s3 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_5[27] = tmp_p_5[27] + tmp_p_16[3].s3 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_5[28] = tmp_p_5[28] + tmp_p_16[4].s3 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_5[29] = tmp_p_5[29] + tmp_p_16[5].s3 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_5[30] = tmp_p_5[30] + tmp_p_16[6].s3 * tmp_p_22[0].s3;
                  }
                  {
                    tmp_p_5[31] = tmp_p_5[31] + tmp_p_16[7].s3 * tmp_p_22[0].s3;
                  }
                }
                {
                  {
                    tmp_p_5[32] = tmp_p_5[32] + tmp_p_16[0].s3 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_5[33] = tmp_p_5[33] + tmp_p_16[1].s3 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_5[34] = tmp_p_5[34] + tmp_p_16[2].s3 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_5[35] = tmp_p_5[35] + tmp_p_16[3].s3 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_5[36] = tmp_p_5[36] + tmp_p_16[4].s3 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_5[37] = tmp_p_5[37] + tmp_p_16[5].s3 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_5[38] = tmp_p_5[38] + tmp_p_16[6].s3 * tmp_p_22[1].s0;
                  }
                  {
                    tmp_p_5[39] = tmp_p_5[39] + tmp_p_16[7].s3 * tmp_p_22[1].s0;
                  }
                }
                {
                  {
                    tmp_p_5[40] = tmp_p_5[40] + tmp_p_16[0].s3 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_5[41] = tmp_p_5[41] + tmp_p_16[1].s3 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_5[42] = tmp_p_5[42] + tmp_p_16[2].s3 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_5[43] = tmp_p_5[43] + tmp_p_16[3].s3 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_5[44] = tmp_p_5[44] + tmp_p_16[4].s3 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_5[45] = tmp_p_5[45] + tmp_p_16[5].s3 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_5[46] = tmp_p_5[46] + tmp_p_16[6].s3 * tmp_p_22[1].s1;
                  }
                  {
                    tmp_p_5[47] = tmp_p_5[47] + tmp_p_16[7].s3 * tmp_p_22[1].s1;
                  }
                }
                {
                  {
                    tmp_p_5[48] = tmp_p_5[48] + tmp_p_16[0].s3 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_5[49] = tmp_p_5[49] + tmp_p_16[1].s3 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_5[50] = tmp_p_5[50] + tmp_p_16[2].s3 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_5[51] = tmp_p_5[51] + tmp_p_16[3].s3 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_5[52] = tmp_p_5[52] + tmp_p_16[4].s3 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_5[53] = tmp_p_5[53] + tmp_p_16[5].s3 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_5[54] = tmp_p_5[54] + tmp_p_16[6].s3 * tmp_p_22[1].s2;
                  }
                  {
                    tmp_p_5[55] = tmp_p_5[55] + tmp_p_16[7].s3 * tmp_p_22[1].s2;
                  }
                }
                {
                  {
                    tmp_p_5[56] = tmp_p_5[56] + tmp_p_16[0].s3 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_5[57] = tmp_p_5[57] + tmp_p_16[1].s3 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_5[58] = tmp_p_5[58] + tmp_p_16[2].s3 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_5[59] = tmp_p_5[59] + tmp_p_16[3].s3 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_5[60] = tmp_p_5[60] + tmp_p_16[4].s3 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_5[61] = tmp_p_5[61] + tmp_p_16[5].s3 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_5[62] = tmp_p_5[62] + tmp_p_16[6].s3 * tmp_p_22[1].s3;
                  }
                  {
                    tmp_p_5[63] = tmp_p_5[63] + tmp_p_16[7].s3 * tmp_p_22[1].s3;
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
              out[4 * l0 + 128 * l1] = tmp_p_5[0];
            }
            {
              out[4 * l0 + 128 * l1 + 2048] = tmp_p_5[1];
            }
            {
              out[4 * l0 + 128 * l1 + 4096] = tmp_p_5[2];
            }
            {
              out[4 * l0 + 128 * l1 + 6144] = tmp_p_5[3];
            }
            {
              if (l1 + 64 < 64) {
                out[4 * l0 + 128 * l1 + 8192] = tmp_p_5[4];
              }
            }
            {
              if (l1 + 80 < 64) {
                out[4 * l0 + 128 * l1 + 10240] = tmp_p_5[5];
              }
            }
            {
              if (l1 + 96 < 64) {
                out[4 * l0 + 128 * l1 + 12288] = tmp_p_5[6];
              }
            }
            {
              if (l1 + 112 < 64) {
                out[4 * l0 + 128 * l1 + 14336] = tmp_p_5[7];
              }
            }
          }
          {
            {
              out[4 * l0 + 128 * l1 + 1] = tmp_p_5[8];
            }
            {
              out[4 * l0 + 128 * l1 + 2049] = tmp_p_5[9];
            }
            {
              out[4 * l0 + 128 * l1 + 4097] = tmp_p_5[10];
            }
            {
              out[4 * l0 + 128 * l1 + 6145] = tmp_p_5[11];
            }
            {
              if (l1 + 64 < 64) {
                out[4 * l0 + 128 * l1 + 8193] = tmp_p_5[12];
              }
            }
            {
              if (l1 + 80 < 64) {
                out[4 * l0 + 128 * l1 + 10241] = tmp_p_5[13];
              }
            }
            {
              if (l1 + 96 < 64) {
                out[4 * l0 + 128 * l1 + 12289] = tmp_p_5[14];
              }
            }
            {
              if (l1 + 112 < 64) {
                out[4 * l0 + 128 * l1 + 14337] = tmp_p_5[15];
              }
            }
          }
          {
            {
              out[4 * l0 + 128 * l1 + 2] = tmp_p_5[16];
            }
            {
              out[4 * l0 + 128 * l1 + 2050] = tmp_p_5[17];
            }
            {
              out[4 * l0 + 128 * l1 + 4098] = tmp_p_5[18];
            }
            {
              out[4 * l0 + 128 * l1 + 6146] = tmp_p_5[19];
            }
            {
              if (l1 + 64 < 64) {
                out[4 * l0 + 128 * l1 + 8194] = tmp_p_5[20];
              }
            }
            {
              if (l1 + 80 < 64) {
                out[4 * l0 + 128 * l1 + 10242] = tmp_p_5[21];
              }
            }
            {
              if (l1 + 96 < 64) {
                out[4 * l0 + 128 * l1 + 12290] = tmp_p_5[22];
              }
            }
            {
              if (l1 + 112 < 64) {
                out[4 * l0 + 128 * l1 + 14338] = tmp_p_5[23];
              }
            }
          }
          {
            {
              out[4 * l0 + 128 * l1 + 3] = tmp_p_5[24];
            }
            {
              out[4 * l0 + 128 * l1 + 2051] = tmp_p_5[25];
            }
            {
              out[4 * l0 + 128 * l1 + 4099] = tmp_p_5[26];
            }
            {
              out[4 * l0 + 128 * l1 + 6147] = tmp_p_5[27];
            }
            {
              if (l1 + 64 < 64) {
                out[4 * l0 + 128 * l1 + 8195] = tmp_p_5[28];
              }
            }
            {
              if (l1 + 80 < 64) {
                out[4 * l0 + 128 * l1 + 10243] = tmp_p_5[29];
              }
            }
            {
              if (l1 + 96 < 64) {
                out[4 * l0 + 128 * l1 + 12291] = tmp_p_5[30];
              }
            }
            {
              if (l1 + 112 < 64) {
                out[4 * l0 + 128 * l1 + 14339] = tmp_p_5[31];
              }
            }
          }
          {
            {
              out[4 * l0 + 128 * l1 + 64] = tmp_p_5[32];
            }
            {
              out[4 * l0 + 128 * l1 + 2112] = tmp_p_5[33];
            }
            {
              out[4 * l0 + 128 * l1 + 4160] = tmp_p_5[34];
            }
            {
              out[4 * l0 + 128 * l1 + 6208] = tmp_p_5[35];
            }
            {
              if (l1 + 64 < 64) {
                out[4 * l0 + 128 * l1 + 8256] = tmp_p_5[36];
              }
            }
            {
              if (l1 + 80 < 64) {
                out[4 * l0 + 128 * l1 + 10304] = tmp_p_5[37];
              }
            }
            {
              if (l1 + 96 < 64) {
                out[4 * l0 + 128 * l1 + 12352] = tmp_p_5[38];
              }
            }
            {
              if (l1 + 112 < 64) {
                out[4 * l0 + 128 * l1 + 14400] = tmp_p_5[39];
              }
            }
          }
          {
            {
              out[4 * l0 + 128 * l1 + 65] = tmp_p_5[40];
            }
            {
              out[4 * l0 + 128 * l1 + 2113] = tmp_p_5[41];
            }
            {
              out[4 * l0 + 128 * l1 + 4161] = tmp_p_5[42];
            }
            {
              out[4 * l0 + 128 * l1 + 6209] = tmp_p_5[43];
            }
            {
              if (l1 + 64 < 64) {
                out[4 * l0 + 128 * l1 + 8257] = tmp_p_5[44];
              }
            }
            {
              if (l1 + 80 < 64) {
                out[4 * l0 + 128 * l1 + 10305] = tmp_p_5[45];
              }
            }
            {
              if (l1 + 96 < 64) {
                out[4 * l0 + 128 * l1 + 12353] = tmp_p_5[46];
              }
            }
            {
              if (l1 + 112 < 64) {
                out[4 * l0 + 128 * l1 + 14401] = tmp_p_5[47];
              }
            }
          }
          {
            {
              out[4 * l0 + 128 * l1 + 66] = tmp_p_5[48];
            }
            {
              out[4 * l0 + 128 * l1 + 2114] = tmp_p_5[49];
            }
            {
              out[4 * l0 + 128 * l1 + 4162] = tmp_p_5[50];
            }
            {
              out[4 * l0 + 128 * l1 + 6210] = tmp_p_5[51];
            }
            {
              if (l1 + 64 < 64) {
                out[4 * l0 + 128 * l1 + 8258] = tmp_p_5[52];
              }
            }
            {
              if (l1 + 80 < 64) {
                out[4 * l0 + 128 * l1 + 10306] = tmp_p_5[53];
              }
            }
            {
              if (l1 + 96 < 64) {
                out[4 * l0 + 128 * l1 + 12354] = tmp_p_5[54];
              }
            }
            {
              if (l1 + 112 < 64) {
                out[4 * l0 + 128 * l1 + 14402] = tmp_p_5[55];
              }
            }
          }
          {
            {
              out[4 * l0 + 128 * l1 + 67] = tmp_p_5[56];
            }
            {
              out[4 * l0 + 128 * l1 + 2115] = tmp_p_5[57];
            }
            {
              out[4 * l0 + 128 * l1 + 4163] = tmp_p_5[58];
            }
            {
              out[4 * l0 + 128 * l1 + 6211] = tmp_p_5[59];
            }
            {
              if (l1 + 64 < 64) {
                out[4 * l0 + 128 * l1 + 8259] = tmp_p_5[60];
              }
            }
            {
              if (l1 + 80 < 64) {
                out[4 * l0 + 128 * l1 + 10307] = tmp_p_5[61];
              }
            }
            {
              if (l1 + 96 < 64) {
                out[4 * l0 + 128 * l1 + 12355] = tmp_p_5[62];
              }
            }
            {
              if (l1 + 112 < 64) {
                out[4 * l0 + 128 * l1 + 14403] = tmp_p_5[63];
              }
            }
          }
        }
      }
    }
  }
}
