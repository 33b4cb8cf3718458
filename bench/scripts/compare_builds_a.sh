#!/bin/bash
# Issue 35, device visit 1: GEMM spellings at 4096 and 4001, the previous build (base) and this
# one (new) in the same call, tuned from empty caches.
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LIFT_DEVICE=gpu
B="${BIN:-.devbin}"  # holds base/ and new/ builds of lift-bench
nvidia-smi -L > $OUT/device.txt; nvidia-smi --query-gpu=driver_version --format=csv >> $OUT/device.txt
python3 bench/scripts/torch_ref.py --spellings --workloads gemm --out /tmp/torch-sp.json > $OUT/torch.txt 2>&1
cp /tmp/torch-sp.json $OUT/ 2>/dev/null
for b in base new; do
  export LIFT_CACHE_DIR=/tmp/cache-$b
  s=$(date +%s)
  timeout 270 "$B/$b/lift-bench" --spellings --workloads gemm --sizes ${SIZES:-4096,4001} --torch /tmp/torch-sp.json --out /tmp/gemm-$b > $OUT/gemm-$b.txt 2>&1
  echo "rc $? wall $(( $(date +%s) - s )) s" >> $OUT/gemm-$b.txt
done
tar czf $OUT/gemm.tgz -C /tmp gemm-base gemm-new 2>/dev/null
