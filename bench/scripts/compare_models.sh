#!/bin/bash
# Issue 35: one build of lift-bench explored for the build-time model (LIFT_DEVICE_MODEL=default,
# "base") and for the device's own model (the default, "new"), in the same call, each
# tuning from an empty cache: GEMM spellings (tuned and untuned), stencils and GEMV, the full
# reduction and a VGG-16 layer. Usage on the device: BIN=.devbin bash bench/scripts/compare_models.sh
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LIFT_DEVICE=gpu
B="${BIN:-.devbin}"
xz -dc "$B/lift-bench.xz" > /tmp/lift-bench && chmod +x /tmp/lift-bench
nvidia-smi -L > $OUT/device.txt; nvidia-smi --query-gpu=driver_version --format=csv >> $OUT/device.txt
run() { # model name timeout args...
  local m=$1 n=$2 t=$3; shift 3
  export LIFT_CACHE_DIR=/tmp/cache-$m
  if [ "$m" = new ]; then unset LIFT_DEVICE_MODEL; else export LIFT_DEVICE_MODEL=default; fi
  local s=$(date +%s)
  timeout "$t" /tmp/lift-bench "$@" --out /tmp/$n-$m > $OUT/$n-$m.txt 2>&1
  echo "rc $? wall $(( $(date +%s) - s )) s" >> $OUT/$n-$m.txt
}
for m in base new; do
  run $m gemm ${GEMM_T:-240} --spellings --workloads gemm --sizes ${SIZES:-4096}
  run $m sg 125 --spellings --workloads jacobi,gemv --sizes ${SG_SIZES:-8192}
  run $m sum 45 --only sum
  run $m vgg 65 --only vgg --layers 7
done
tar czf $OUT/models.tgz -C /tmp $(cd /tmp && ls -d gemm-* sg-* sum-* vgg-* 2>/dev/null) 2>/dev/null
