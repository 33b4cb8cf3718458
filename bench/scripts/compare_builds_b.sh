#!/bin/bash
# Issue 35, device visit 2: stencils and GEMV (8192, 8191), full reductions, VGG-16 conv4_2,
# base and new in the same call.
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LIFT_DEVICE=gpu
B="${BIN:-.devbin}"  # holds base/ and new/ builds of lift-bench
nvidia-smi -L > $OUT/device.txt
for b in base new; do
  export LIFT_CACHE_DIR=/tmp/cache-$b
  s=$(date +%s)
  timeout 125 "$B/$b/lift-bench" --spellings --workloads jacobi,gemv --sizes 8192,8191 --out /tmp/sg-$b > $OUT/sg-$b.txt 2>&1
  echo "rc $? wall $(( $(date +%s) - s )) s" >> $OUT/sg-$b.txt
  s=$(date +%s)
  timeout 45 "$B/$b/lift-bench" --only sum --out /tmp/sum-$b > $OUT/sum-$b.txt 2>&1
  echo "rc $? wall $(( $(date +%s) - s )) s" >> $OUT/sum-$b.txt
  s=$(date +%s)
  timeout 65 "$B/$b/lift-bench" --only vgg --layers 7 --out /tmp/vgg-$b > $OUT/vgg-$b.txt 2>&1
  echo "rc $? wall $(( $(date +%s) - s )) s" >> $OUT/vgg-$b.txt
done
tar czf $OUT/sg.tgz -C /tmp sg-base sg-new sum-base sum-new vgg-base vgg-new 2>/dev/null
