// Gemv: reduction(cols=1)
// launch Gemv global [256 * N] local [256] local memory 1024 bytes
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
  const lift_idx lift_wg = get_group_id(0) * 1 + get_local_id(0) % 1;
  const lift_idx lift_row = lift_min(lift_wg, N - 1);
  local float lift_tmp[256];
  const int lift_l = get_local_id(0);
  float lift_acc = 0.0f;
  for (lift_idx lift_i = get_local_id(0) / 1; lift_i < M; lift_i += 256) {
    lift_acc = lift_acc + a[M * lift_row + lift_i] * x[lift_i];
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
  if (lift_l < 1 && lift_wg < N) out[lift_wg] = lift_tmp[lift_l];
}
