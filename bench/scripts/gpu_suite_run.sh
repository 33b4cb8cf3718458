#!/bin/bash
# Runs the test binaries packed by gpu_suite_pack.sh on an NVIDIA GPU through OpenCL
# (LIFT_DEVICE=gpu), six at a time, each under LIMIT seconds (default 200); prints one line per
# binary, its failures, and `TOTAL: N passed, N failed`; the logs go to $OUT/logs.tgz when OUT
# is set (the device tool's output folder).
echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LIFT_DEVICE=gpu LIFT_CACHE_DIR=/tmp/lc RUST_BACKTRACE=0 LIMIT=${LIMIT:-200}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
here=$(dirname "$0")
mkdir -p /tmp/tb /tmp/tl
for f in "$here"/*.xz; do
  n=$(basename "$f" .xz)
  xz -dc "$f" > "/tmp/tb/$n" && chmod +x "/tmp/tb/$n"
done
ls /tmp/tb | xargs -P 6 -I{} sh -c \
  'timeout $LIMIT /tmp/tb/{} --test-threads 4 > /tmp/tl/{}.log 2>&1; echo $? > /tmp/tl/{}.rc'
p=0
f=0
for n in $(ls /tmp/tb); do
  r=$(grep "^test result" "/tmp/tl/$n.log" | tail -1)
  a=$(echo "$r" | sed -n 's/.* \([0-9]*\) passed.*/\1/p')
  b=$(echo "$r" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
  rc=$(cat "/tmp/tl/$n.rc")
  # A binary that timed out or crashed without a summary counts as one failure.
  if [ -z "$r" ]; then b=1; fi
  p=$((p + ${a:-0}))
  f=$((f + ${b:-0}))
  echo "$n rc=$rc $r"
  grep -E "^---- |panicked at" "/tmp/tl/$n.log" | head -6
done
echo "TOTAL: $p passed, $f failed"
if [ -n "${OUT:-}" ]; then
  (cd /tmp/tl && tar czf "$OUT/logs.tgz" ./*.log)
fi
