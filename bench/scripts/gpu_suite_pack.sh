#!/bin/bash
# Packs the test binaries of the `tests` crate for a machine with a GPU and no Rust toolchain
# (issue 38): builds them (`cargo test --no-run`), strips them and compresses them with xz into
# .devbin/t/ (about 2 MB each; the device tool carries at most 64 MiB), next to
# gpu_suite_run.sh, which runs them there. Usage, from the repository root:
#   bash bench/scripts/gpu_suite_pack.sh [test names...]
# then on the GPU machine (the device tool: carry .devbin):
#   LIMIT=420 bash .devbin/t/gpu_suite_run.sh
set -euo pipefail
tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
  tests=(conv cover devices differential_regressions explore filter_seq gemm_tiled host_types index64
    exact_checks lift_compat lift_language mappings names pocl_lowlevel pocl_types pocl_vs_interpreter races
    random_programs reductions rewrite_points scratch stencils take threads transposes tune)
fi
out=.devbin/t
mkdir -p "$out"
rm -f "$out"/*.xz
args=()
for t in "${tests[@]}"; do args+=(--test "$t"); done
# Build first, so that a compile error stops the script with cargo's message.
cargo test --release -p lift-tests --no-run "${args[@]}"
cargo test --release -p lift-tests --no-run --message-format=json "${args[@]}" 2>/dev/null |
  python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "test" in m["target"]["kind"]:
        print(m["target"]["name"], m["executable"])
' | while read -r name exe; do
  strip -o "/tmp/$name.bin" "$exe"
  xz -9 -T2 -c "/tmp/$name.bin" > "$out/$name.xz"
  rm "/tmp/$name.bin"
done
cp bench/scripts/gpu_suite_run.sh "$out/"
du -sh "$out"
