// Sum: reduction
// launch Sum_part global [256 * min(1024, (N + 255) / 256)] local [256] local memory 1024 bytes
// launch Sum_final global [256] local [256] local memory 1024 bytes
// temporary lift_partial of 4 * min(1024, (N + 255) / 256) bytes
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
kernel void Sum_part(const global float* restrict x, global float* lift_partial, lift_idx lift_size_N) {
#ifdef LIFT_SIZE_N
  const lift_idx N = LIFT_SIZE_N;
#else
  const lift_idx N = lift_size_N;
#endif
  local float lift_tmp[256];
  const int lift_l = get_local_id(0);
  float lift_acc = 0.0f;
  for (lift_idx lift_j = get_global_id(0); lift_j < N / 4; lift_j += get_global_size(0)) {
    const float4 lift_v0 = vload4(lift_j, x);
    lift_acc = lift_acc + lift_v0.s0;
    lift_acc = lift_acc + lift_v0.s1;
    lift_acc = lift_acc + lift_v0.s2;
    lift_acc = lift_acc + lift_v0.s3;
  }
  for (lift_idx lift_i = N / 4 * 4 + get_global_id(0); lift_i < N; lift_i += get_global_size(0)) {
    lift_acc = lift_acc + x[lift_i];
  }
  lift_tmp[lift_l] = lift_acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 128) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 128];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 64) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 64];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 32) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 32];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 16) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 16];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 8) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 8];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 4) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 4];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 2) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 2];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 1) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l == 0) lift_partial[get_group_id(0)] = lift_tmp[0];
}
__attribute__((reqd_work_group_size(256, 1, 1)))
kernel void Sum_final(const global float* restrict lift_partial, global float* out, lift_idx lift_size_N) {
#ifdef LIFT_SIZE_N
  const lift_idx N = LIFT_SIZE_N;
#else
  const lift_idx N = lift_size_N;
#endif
  local float lift_tmp[256];
  const int lift_l = get_local_id(0);
  float lift_acc = 0.0f;
  for (lift_idx lift_i = get_local_id(0); lift_i < lift_min(1024, (N + 255) / 256); lift_i += 256) {
    lift_acc = lift_acc + lift_partial[lift_i];
  }
  lift_tmp[lift_l] = lift_acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 128) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 128];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 64) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 64];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 32) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 32];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 16) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 16];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 8) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 8];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 4) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 4];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 2) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 2];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l < 1) lift_tmp[lift_l] = lift_tmp[lift_l] + lift_tmp[lift_l + 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lift_l == 0) out[0] = lift_tmp[0];
}
