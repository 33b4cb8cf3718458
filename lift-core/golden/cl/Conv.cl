// Conv: blocked(tm=128,tn=128,tk=16,l0=16,l1=16,v=4,u=0,pad=2)
// launch Conv global [(F + 127) / 128 * 16, (H * W + 127) / 128 * 16] local [16, 16] local memory 16640 bytes
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
kernel void Conv(const global float* restrict x, const global float* restrict w, const global float* restrict bias, global float* out, lift_idx lift_size_H, lift_idx lift_size_W, lift_idx lift_size_C, lift_idx lift_size_F) {
#ifdef LIFT_SIZE_H
  const lift_idx H = LIFT_SIZE_H;
#else
  const lift_idx H = lift_size_H;
#endif
#ifdef LIFT_SIZE_W
  const lift_idx W = LIFT_SIZE_W;
#else
  const lift_idx W = lift_size_W;
#endif
#ifdef LIFT_SIZE_C
  const lift_idx C = LIFT_SIZE_C;
#else
  const lift_idx C = lift_size_C;
#endif
#ifdef LIFT_SIZE_F
  const lift_idx F = LIFT_SIZE_F;
#else
  const lift_idx F = lift_size_F;
#endif
  local float tmp_l_10[2048];
  local float tmp_l_12[2112];
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
      for (lift_idx i_9 = 0; i_9 < (9 * C + 15) / 16; i_9 += 1) {
        {
          lift_idx l1 = get_local_id(1);
          for (lift_idx i_11 = 0; i_11 < 8; i_11 += 1) {
            {
              lift_idx l0 = get_local_id(0);
              tmp_l_10[256 * i_11 + l0 + 16 * l1] = (16 * i_9 + l0 >= 9 * C) ? 0.0f : (((16 * i_9 + l0) / C % 3 + lift_min(H * W - 1, 16 * i_11 + l1 + 128 * wg1) % W - 1 < 0 || (16 * i_9 + l0) / C % 3 + lift_min(H * W - 1, 16 * i_11 + l1 + 128 * wg1) % W - 1 >= W || (16 * i_9 + l0) / (3 * C) + lift_min(H * W - 1, 16 * i_11 + l1 + 128 * wg1) / W - 1 < 0 || (16 * i_9 + l0) / (3 * C) + lift_min(H * W - 1, 16 * i_11 + l1 + 128 * wg1) / W - 1 >= H) ? 0.0f : x[C * W * ((16 * i_9 + l0) / (3 * C)) + C * ((16 * i_9 + l0) / C % 3) + C * lift_min(H * W - 1, 16 * i_11 + l1 + 128 * wg1) + (16 * i_9 + l0) % C - C - C * W]);
            }
          }
        }
        {
          lift_idx l1 = get_local_id(1);
          for (lift_idx i_13 = 0; i_13 < 8; i_13 += 1) {
            {
              lift_idx l0 = get_local_id(0);
              tmp_l_12[16 * i_13 + 132 * l0 + l1] = (16 * i_9 + l0 >= 9 * C) ? 0.0f : w[3 * C * ((16 * i_9 + l0) / (3 * C)) + C * ((16 * i_9 + l0) / C % 3) + 9 * C * lift_min(F - 1, 16 * i_13 + l1 + 128 * wg0) + (16 * i_9 + l0) % C];
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
                  tmp_p_22[0] = vload4(0, tmp_l_12 + 528 * i_18 + 4 * l0);
                }
                {
                  tmp_p_22[1] = vload4(0, tmp_l_12 + 528 * i_18 + 4 * l0 + 64);
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
                  tmp_p_23[0] = vload4(0, tmp_l_12 + 528 * i_18 + 4 * l0 + 132);
                }
                {
                  tmp_p_23[1] = vload4(0, tmp_l_12 + 528 * i_18 + 4 * l0 + 196);
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
                  tmp_p_24[0] = vload4(0, tmp_l_12 + 528 * i_18 + 4 * l0 + 264);
                }
                {
                  tmp_p_24[1] = vload4(0, tmp_l_12 + 528 * i_18 + 4 * l0 + 328);
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
                  tmp_p_25[0] = vload4(0, tmp_l_12 + 528 * i_18 + 4 * l0 + 396);
                }
                {
                  tmp_p_25[1] = vload4(0, tmp_l_12 + 528 * i_18 + 4 * l0 + 460);
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
              if (4 * l0 + 128 * wg0 < F) {
                if (l1 + 128 * wg1 < H * W) {
                  out[F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0)] + tmp_p_8[0]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < F) {
                if (l1 + 128 * wg1 + 16 < H * W) {
                  out[16 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0)] + tmp_p_8[1]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < F) {
                if (l1 + 128 * wg1 + 32 < H * W) {
                  out[32 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0)] + tmp_p_8[2]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < F) {
                if (l1 + 128 * wg1 + 48 < H * W) {
                  out[48 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0)] + tmp_p_8[3]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < F) {
                if (l1 + 128 * wg1 + 64 < H * W) {
                  out[64 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0)] + tmp_p_8[4]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < F) {
                if (l1 + 128 * wg1 + 80 < H * W) {
                  out[80 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0)] + tmp_p_8[5]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < F) {
                if (l1 + 128 * wg1 + 96 < H * W) {
                  out[96 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0)] + tmp_p_8[6]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 < F) {
                if (l1 + 128 * wg1 + 112 < H * W) {
                  out[112 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0)] + tmp_p_8[7]);
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 1 < F) {
                if (l1 + 128 * wg1 < H * W) {
                  out[F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 1] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 1)] + tmp_p_8[8]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < F) {
                if (l1 + 128 * wg1 + 16 < H * W) {
                  out[16 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 1] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 1)] + tmp_p_8[9]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < F) {
                if (l1 + 128 * wg1 + 32 < H * W) {
                  out[32 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 1] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 1)] + tmp_p_8[10]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < F) {
                if (l1 + 128 * wg1 + 48 < H * W) {
                  out[48 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 1] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 1)] + tmp_p_8[11]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < F) {
                if (l1 + 128 * wg1 + 64 < H * W) {
                  out[64 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 1] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 1)] + tmp_p_8[12]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < F) {
                if (l1 + 128 * wg1 + 80 < H * W) {
                  out[80 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 1] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 1)] + tmp_p_8[13]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < F) {
                if (l1 + 128 * wg1 + 96 < H * W) {
                  out[96 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 1] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 1)] + tmp_p_8[14]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 1 < F) {
                if (l1 + 128 * wg1 + 112 < H * W) {
                  out[112 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 1] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 1)] + tmp_p_8[15]);
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 2 < F) {
                if (l1 + 128 * wg1 < H * W) {
                  out[F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 2] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 2)] + tmp_p_8[16]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < F) {
                if (l1 + 128 * wg1 + 16 < H * W) {
                  out[16 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 2] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 2)] + tmp_p_8[17]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < F) {
                if (l1 + 128 * wg1 + 32 < H * W) {
                  out[32 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 2] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 2)] + tmp_p_8[18]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < F) {
                if (l1 + 128 * wg1 + 48 < H * W) {
                  out[48 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 2] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 2)] + tmp_p_8[19]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < F) {
                if (l1 + 128 * wg1 + 64 < H * W) {
                  out[64 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 2] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 2)] + tmp_p_8[20]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < F) {
                if (l1 + 128 * wg1 + 80 < H * W) {
                  out[80 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 2] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 2)] + tmp_p_8[21]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < F) {
                if (l1 + 128 * wg1 + 96 < H * W) {
                  out[96 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 2] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 2)] + tmp_p_8[22]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 2 < F) {
                if (l1 + 128 * wg1 + 112 < H * W) {
                  out[112 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 2] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 2)] + tmp_p_8[23]);
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 3 < F) {
                if (l1 + 128 * wg1 < H * W) {
                  out[F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 3] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 3)] + tmp_p_8[24]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < F) {
                if (l1 + 128 * wg1 + 16 < H * W) {
                  out[16 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 3] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 3)] + tmp_p_8[25]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < F) {
                if (l1 + 128 * wg1 + 32 < H * W) {
                  out[32 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 3] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 3)] + tmp_p_8[26]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < F) {
                if (l1 + 128 * wg1 + 48 < H * W) {
                  out[48 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 3] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 3)] + tmp_p_8[27]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < F) {
                if (l1 + 128 * wg1 + 64 < H * W) {
                  out[64 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 3] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 3)] + tmp_p_8[28]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < F) {
                if (l1 + 128 * wg1 + 80 < H * W) {
                  out[80 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 3] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 3)] + tmp_p_8[29]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < F) {
                if (l1 + 128 * wg1 + 96 < H * W) {
                  out[96 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 3] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 3)] + tmp_p_8[30]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 3 < F) {
                if (l1 + 128 * wg1 + 112 < H * W) {
                  out[112 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 3] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 3)] + tmp_p_8[31]);
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 64 < F) {
                if (l1 + 128 * wg1 < H * W) {
                  out[F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 64] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 64)] + tmp_p_8[32]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < F) {
                if (l1 + 128 * wg1 + 16 < H * W) {
                  out[16 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 64] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 64)] + tmp_p_8[33]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < F) {
                if (l1 + 128 * wg1 + 32 < H * W) {
                  out[32 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 64] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 64)] + tmp_p_8[34]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < F) {
                if (l1 + 128 * wg1 + 48 < H * W) {
                  out[48 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 64] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 64)] + tmp_p_8[35]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < F) {
                if (l1 + 128 * wg1 + 64 < H * W) {
                  out[64 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 64] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 64)] + tmp_p_8[36]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < F) {
                if (l1 + 128 * wg1 + 80 < H * W) {
                  out[80 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 64] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 64)] + tmp_p_8[37]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < F) {
                if (l1 + 128 * wg1 + 96 < H * W) {
                  out[96 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 64] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 64)] + tmp_p_8[38]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 64 < F) {
                if (l1 + 128 * wg1 + 112 < H * W) {
                  out[112 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 64] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 64)] + tmp_p_8[39]);
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 65 < F) {
                if (l1 + 128 * wg1 < H * W) {
                  out[F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 65] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 65)] + tmp_p_8[40]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < F) {
                if (l1 + 128 * wg1 + 16 < H * W) {
                  out[16 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 65] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 65)] + tmp_p_8[41]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < F) {
                if (l1 + 128 * wg1 + 32 < H * W) {
                  out[32 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 65] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 65)] + tmp_p_8[42]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < F) {
                if (l1 + 128 * wg1 + 48 < H * W) {
                  out[48 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 65] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 65)] + tmp_p_8[43]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < F) {
                if (l1 + 128 * wg1 + 64 < H * W) {
                  out[64 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 65] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 65)] + tmp_p_8[44]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < F) {
                if (l1 + 128 * wg1 + 80 < H * W) {
                  out[80 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 65] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 65)] + tmp_p_8[45]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < F) {
                if (l1 + 128 * wg1 + 96 < H * W) {
                  out[96 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 65] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 65)] + tmp_p_8[46]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 65 < F) {
                if (l1 + 128 * wg1 + 112 < H * W) {
                  out[112 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 65] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 65)] + tmp_p_8[47]);
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 66 < F) {
                if (l1 + 128 * wg1 < H * W) {
                  out[F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 66] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 66)] + tmp_p_8[48]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < F) {
                if (l1 + 128 * wg1 + 16 < H * W) {
                  out[16 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 66] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 66)] + tmp_p_8[49]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < F) {
                if (l1 + 128 * wg1 + 32 < H * W) {
                  out[32 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 66] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 66)] + tmp_p_8[50]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < F) {
                if (l1 + 128 * wg1 + 48 < H * W) {
                  out[48 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 66] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 66)] + tmp_p_8[51]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < F) {
                if (l1 + 128 * wg1 + 64 < H * W) {
                  out[64 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 66] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 66)] + tmp_p_8[52]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < F) {
                if (l1 + 128 * wg1 + 80 < H * W) {
                  out[80 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 66] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 66)] + tmp_p_8[53]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < F) {
                if (l1 + 128 * wg1 + 96 < H * W) {
                  out[96 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 66] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 66)] + tmp_p_8[54]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 66 < F) {
                if (l1 + 128 * wg1 + 112 < H * W) {
                  out[112 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 66] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 66)] + tmp_p_8[55]);
                }
              }
            }
          }
          {
            {
              if (4 * l0 + 128 * wg0 + 67 < F) {
                if (l1 + 128 * wg1 < H * W) {
                  out[F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 67] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 67)] + tmp_p_8[56]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < F) {
                if (l1 + 128 * wg1 + 16 < H * W) {
                  out[16 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 67] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 67)] + tmp_p_8[57]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < F) {
                if (l1 + 128 * wg1 + 32 < H * W) {
                  out[32 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 67] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 67)] + tmp_p_8[58]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < F) {
                if (l1 + 128 * wg1 + 48 < H * W) {
                  out[48 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 67] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 67)] + tmp_p_8[59]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < F) {
                if (l1 + 128 * wg1 + 64 < H * W) {
                  out[64 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 67] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 67)] + tmp_p_8[60]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < F) {
                if (l1 + 128 * wg1 + 80 < H * W) {
                  out[80 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 67] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 67)] + tmp_p_8[61]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < F) {
                if (l1 + 128 * wg1 + 96 < H * W) {
                  out[96 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 67] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 67)] + tmp_p_8[62]);
                }
              }
            }
            {
              if (4 * l0 + 128 * wg0 + 67 < F) {
                if (l1 + 128 * wg1 + 112 < H * W) {
                  out[112 * F + F * l1 + 128 * F * wg1 + 4 * l0 + 128 * wg0 + 67] = fmax(0.0f, bias[lift_min(F - 1, 4 * l0 + 128 * wg0 + 67)] + tmp_p_8[63]);
                }
              }
            }
          }
        }
      }
    }
  }
}
