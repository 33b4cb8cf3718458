#!/usr/bin/env bash
# Compile-time benchmark of the `lift!` macro (docs/BENCHMARKS.md, "Compile time"; issue 34).
#
# Usage: bench/compile_time.sh [--bench-crate] [SCRATCH_DIR]
#
# Builds a scratch crate (in SCRATCH_DIR, or a temporary directory removed afterwards) that
# depends only on lift-runtime and holds one `lift!` block per kernel, and measures:
#   check_cold       `cargo check` from an empty target dir (dependencies included)
#   check_crate      `cargo check` of the scratch crate alone (dependencies built;
#                    `cargo clean -p` of the crate, then check)
#   check_warm       `touch src/lib.rs` then `cargo check`
#   check_gemm_only  a crate holding only the `Gemm` kernel: touch, then `cargo check`
#                    (goal: at most 1 s)
#   release_cold     `cargo build --release` from an empty release dir (dependencies included)
#   release_crate    `cargo build --release` of the scratch crate alone (dependencies built)
#   bench_crate      with --bench-crate only: `cargo build --release -p bench` of this
#                    workspace after touching its two kernel files (goal: at most 180 s on 2
#                    cores); uses the workspace's own target dir (or $BENCH_TARGET_DIR)
# Wall time is measured around cargo; peak RSS is GNU time's "Maximum resident set size" (the
# largest single process of the build, normally one rustc). Every build runs with
# LIFT_EXPAND_LOG set: the macro appends `kernel<TAB>microseconds` per kernel it expands
# (code generation and the launcher, after parsing and type checking of the block), reported
# per kernel in milliseconds.
#
# Results: a table on stdout, and $OUT_DIR/compile_time.csv and .json
# (OUT_DIR defaults to bench/results). The scratch crates use their own CARGO_TARGET_DIR
# under SCRATCH_DIR, so the workspace's target dir is untouched (except with --bench-crate).

set -euo pipefail

usage() {
    sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
}

bench_crate=0
scratch=""
while (($#)); do
    case "$1" in
        --bench-crate) bench_crate=1 ;;
        -h | --help)
            usage
            exit 0
            ;;
        -*)
            echo "compile_time.sh: unknown option $1" >&2
            usage >&2
            exit 2
            ;;
        *)
            if [[ -n "$scratch" ]]; then
                echo "compile_time.sh: one scratch directory at most" >&2
                exit 2
            fi
            scratch="$1"
            ;;
    esac
    shift
done

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out_dir="${OUT_DIR:-$repo/bench/results}"
# Cargo sets OUT_DIR itself for crates with build scripts; do not leak ours into the builds.
unset OUT_DIR

for tool in cargo rustc /usr/bin/time awk; do
    if ! command -v "$tool" >/dev/null; then
        echo "compile_time.sh: $tool not found" >&2
        exit 1
    fi
done
if ! grep -q LIFT_EXPAND_LOG "$repo/lift-macros/src/lib.rs"; then
    echo "compile_time.sh: warning: lift-macros has no LIFT_EXPAND_LOG support;" \
        "per-kernel expansion times will be empty" >&2
fi

if [[ -n "$scratch" ]]; then
    mkdir -p "$scratch"
    scratch="$(cd "$scratch" && pwd)"
else
    scratch="$(mktemp -d "${TMPDIR:-/tmp}/lift-compile-time.XXXXXX")"
    trap 'rm -rf "$scratch"' EXIT
fi
mkdir -p "$out_dir"

# --- machine -------------------------------------------------------------------------------

cpu_model="$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)"
machine_nproc="$(nproc)"
rustc_version="$(rustc -V)"
started_at="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
git_rev="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null || true)" ]]; then
    git_rev="$git_rev+dirty"
fi
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

echo "lift-rs compile time ($started_at, $git_rev)"
echo "  nproc:   $machine_nproc"
echo "  cpu:     ${cpu_model:-unknown}"
echo "  rustc:   $rustc_version"
echo "  load:    $load_before (1/5/15 min, before the run)"
echo "  scratch: $scratch"
echo

# --- the scratch crates --------------------------------------------------------------------

# The first matrix product, shared by the full crate and the GEMM-only crate.
gemm_block() {
    cat <<'EOF'
lift! {
    /// Matrix product, high level: rows of A against the columns (transpose) of B.
    pub kernel Gemm<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, col)) o transpose $ b) $ a
    }
}
EOF
}

kernels_lib() {
    cat <<'EOF'
//! lift-rs compile-time benchmark: one `lift!` block per kernel (bench/compile_time.sh).

use lift_runtime::lift;

lift! {
    /// 3-point sum with clamped borders.
    pub kernel Blur3<N>(input: [f32; N]) -> [f32; N] {
        map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ input
    }
}

lift! {
    /// 2-D Jacobi, 5 points, clamped borders.
    pub kernel Jacobi2d<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] {
        map2(|nbh| 0.2 * (nbh[0][1] + nbh[1][0] + nbh[1][1] + nbh[1][2] + nbh[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x
    }
}

lift! {
    /// 3-D Jacobi, 7 points, clamped borders.
    pub kernel Jacobi3d<N, M, L>(x: [[[f32; L]; M]; N]) -> [[[f32; L]; M]; N] {
        map3(|nbh| 0.142857 * (nbh[0][1][1] + nbh[1][0][1] + nbh[1][1][0] + nbh[1][1][1] + nbh[1][1][2] + nbh[1][2][1] + nbh[2][1][1])) o slide3(3, 1) o pad3(1, clamp) $ x
    }
}

lift! {
    /// Matrix-vector product, row-major.
    pub kernel Gemv<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] {
        map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a
    }
}

lift! {
    /// Transposed matrix-vector product: A^T x.
    pub kernel GemvT<N, M>(a: [[f32; M]; N], x: [f32; N]) -> [f32; M] {
        map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(col, x)) o transpose $ a
    }
}

EOF
    gemm_block
    cat <<'EOF'

lift! {
    /// Matrix product with a tuple pattern in the inner lambda.
    pub kernel GemmTuple<N, K, M>(a: [[f32; K]; N], b: [[f32; M]; K]) -> [[f32; M]; N] {
        map(|ra| map(|cb| reduce(+, 0.0) o map(|(x, y)| x * y) $ zip(ra, cb)) o transpose $ b) $ a
    }
}

lift! {
    /// Matrix product with the right operand given transposed.
    pub kernel GemmBt<N, K, M>(a: [[f32; K]; N], bt: [[f32; K]; M]) -> [[f32; M]; N] {
        map(|ra| map(|cb| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(ra, cb)) $ bt) $ a
    }
}

lift! {
    /// Batched matrix product.
    pub kernel GemmBatched<B, N, K, M>(xs: [[[f32; K]; N]; B], ys: [[[f32; M]; K]; B])
        -> [[[f32; M]; N]; B] {
        map(|(a, b)| map(|row| map(|col| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, col)) o transpose $ b) $ a) $ zip(xs, ys)
    }
}

lift! {
    /// VGG's 3x3 convolution: zero padding 1, stride 1, bias and ReLU (HWC).
    pub kernel Conv<H, W, C, F>(x: [[[f32; C]; W]; H], w: [[[[f32; C]; 3]; 3]; F], b: [f32; F])
        -> [[[f32; F]; W]; H] {
        map2(|win| map(|wb| max(0.0, wb.1 + (reduce(+, 0.0) o map(|q| q.0 * q.1)
            $ zip(join o join $ win, join o join $ wb.0)))) $ zip(w, b))
            o slide2(3, 1) o pad2(1, constant([0.0; C])) $ x
    }
}

lift! {
    /// Sum.
    pub kernel Sum<N>(x: [f32; N]) -> f32 { reduce(+, 0.0) $ x }
}

lift! {
    /// Dot product.
    pub kernel Dot<N>(x: [f32; N], y: [f32; N]) -> f32 {
        reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(x, y)
    }
}
EOF
}

gemm_lib() {
    cat <<'EOF'
//! lift-rs compile-time benchmark: the first matrix product alone (bench/compile_time.sh).

use lift_runtime::lift;

EOF
    gemm_block
}

# write_crate DIR NAME: Cargo.toml (lift-runtime its only dependency, a workspace of its own)
# and the workspace's Cargo.lock, so that the dependencies are the versions the workspace uses.
write_crate() {
    local dir="$1" name="$2"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "$name"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
lift-runtime = { path = "$repo/lift-runtime" }

[workspace]
EOF
    if [[ -f "$repo/Cargo.lock" ]]; then
        cp "$repo/Cargo.lock" "$dir/Cargo.lock"
    fi
}

full_name="lift-ct-kernels"
gemm_name="lift-ct-gemm"
full_dir="$scratch/$full_name"
gemm_dir="$scratch/$gemm_name"
write_crate "$full_dir" "$full_name"
kernels_lib >"$full_dir/src/lib.rs"
write_crate "$gemm_dir" "$gemm_name"
gemm_lib >"$gemm_dir/src/lib.rs"

export CARGO_TARGET_DIR="$scratch/target"
rm -rf "$CARGO_TARGET_DIR"
logs="$scratch/logs"
rm -rf "$logs"
mkdir -p "$logs"

mapfile -t kernel_names < <(sed -n 's/^ *pub kernel \([A-Za-z0-9_]*\).*/\1/p' "$full_dir/src/lib.rs")

# --- measuring -----------------------------------------------------------------------------

# Results, one entry per measurement (parallel arrays).
m_names=()
m_descs=()
m_wall=()
m_rss=()
m_goal=()

# measure NAME DESCRIPTION GOAL_S DIR CARGO_ARGS...: runs cargo in DIR under GNU time with
# LIFT_EXPAND_LOG=$logs/NAME.tsv and records wall time, peak RSS and the expansion log.
# GOAL_S is "" when the measurement has no goal. Exits with cargo's output on a failed build.
measure() {
    local name="$1" desc="$2" goal="$3" dir="$4"
    shift 4
    local log="$logs/$name.tsv" timef="$logs/$name.time" outf="$logs/$name.out"
    : >"$log"
    printf '  %-16s %s ... ' "$name" "$desc" >&2
    local t0 t1 rc=0
    t0="$EPOCHREALTIME"
    (cd "$dir" && LIFT_EXPAND_LOG="$log" /usr/bin/time -v -o "$timef" cargo "$@") >"$outf" 2>&1 || rc=$?
    t1="$EPOCHREALTIME"
    if ((rc != 0)); then
        echo "failed" >&2
        echo "compile_time.sh: \`cargo $*\` in $dir failed (exit $rc):" >&2
        cat "$outf" >&2
        exit 1
    fi
    local wall rss_kib
    wall="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
    rss_kib="$(awk -F': *' '/Maximum resident set size/ { print $2 }' "$timef")"
    echo "${wall} s" >&2
    m_names+=("$name")
    m_descs+=("$desc")
    m_wall+=("$wall")
    m_rss+=("$(awk -v k="${rss_kib:-0}" 'BEGIN { printf "%.0f", k / 1024 }')")
    m_goal+=("$goal")
}

# expand_ms NAME KERNEL: the kernel's expansion time in the measurement's log, in ms (summed
# over expansions), or "" when it was not expanded.
expand_ms() {
    awk -F'\t' -v k="$2" '$1 == k { s += $2; n++ } END { if (n) printf "%.1f", s / 1000 }' \
        "$logs/$1.tsv"
}

# expand_total_ms NAME: all expansions of the measurement, in ms ("" when none).
expand_total_ms() {
    awk -F'\t' 'NF >= 2 { s += $2; n++ } END { if (n) printf "%.1f", s / 1000 }' "$logs/$1.tsv"
}

echo "building (per-build logs in $logs):" >&2
measure check_cold "cargo check, empty target dir (deps + crate)" "" "$full_dir" check
cargo clean -q -p "$full_name" --manifest-path "$full_dir/Cargo.toml"
measure check_crate "cargo check, crate alone (deps built)" "" "$full_dir" check
touch "$full_dir/src/lib.rs"
measure check_warm "cargo check after touch src/lib.rs" "" "$full_dir" check
# The GEMM-only crate: its first check compiles nothing but the crate (same target dir and
# lock, so the dependencies are shared); the measured one follows a touch.
measure check_gemm_first "cargo check, Gemm-only crate, first" "" "$gemm_dir" check
touch "$gemm_dir/src/lib.rs"
measure check_gemm_only "cargo check, Gemm-only crate, after touch" 1 "$gemm_dir" check
measure release_cold "cargo build --release, empty release dir (deps + crate)" "" "$full_dir" \
    build --release
cargo clean -q --release -p "$full_name" --manifest-path "$full_dir/Cargo.toml"
measure release_crate "cargo build --release, crate alone (deps built)" "" "$full_dir" \
    build --release

if ((bench_crate)); then
    # Dependencies and the rest of the workspace up to date first (not measured), then the
    # two kernel files touched: what an edit of the bench's kernels costs.
    bench_target="${BENCH_TARGET_DIR:-$repo/target}"
    echo "  (bringing the bench crate up to date in $bench_target first, not measured)" >&2
    (cd "$repo" && CARGO_TARGET_DIR="$bench_target" cargo build -q --release -p bench)
    touch "$repo/bench/src/lift_kernels.rs" "$repo/bench/src/spelling_kernels.rs"
    CARGO_TARGET_DIR="$bench_target" measure bench_crate \
        "cargo build --release -p bench after touching its kernel files" 180 "$repo" \
        build --release -p bench
fi
echo >&2

load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

# --- report --------------------------------------------------------------------------------

csv="$out_dir/compile_time.csv"
json="$out_dir/compile_time.json"

json_str() {
    local s="$1"
    s="${s//\\/\\\\}"
    s="${s//\"/\\\"}"
    printf '"%s"' "$s"
}

# json_num VALUE: the number, or null when empty.
json_num() {
    if [[ -n "$1" ]]; then printf '%s' "$1"; else printf 'null'; fi
}

# verdict WALL GOAL: "ok" or "MISSED" against the goal, "" without one.
verdict() {
    if [[ -z "$2" ]]; then
        return 0
    fi
    awk -v w="$1" -v g="$2" 'BEGIN { print (w <= g ? "ok" : "MISSED") }'
}

printf '%-18s %9s %9s %11s  %-12s %s\n' measurement wall_s rss_MiB expand_ms goal description
echo "---------------------------------------------------------------------------------------------------------"
echo "measurement,kernel,wall_s,peak_rss_mib,expand_ms,goal_s,description" >"$csv"
for i in "${!m_names[@]}"; do
    n="${m_names[$i]}"
    total="$(expand_total_ms "$n")"
    goal_txt=""
    if [[ -n "${m_goal[$i]}" ]]; then
        goal_txt="<=${m_goal[$i]} s $(verdict "${m_wall[$i]}" "${m_goal[$i]}")"
    fi
    printf '%-18s %9s %9s %11s  %-12s %s\n' "$n" "${m_wall[$i]}" "${m_rss[$i]}" "${total:--}" \
        "${goal_txt:--}" "${m_descs[$i]}"
    printf '%s,,%s,%s,%s,%s,"%s"\n' "$n" "${m_wall[$i]}" "${m_rss[$i]}" "$total" \
        "${m_goal[$i]}" "${m_descs[$i]}" >>"$csv"
done

# Per-kernel expansion table: the kernels of the full crate (and of the bench crate's log,
# which holds its own kernel names, in the CSV/JSON only).
kernel_cols=(check_cold check_crate check_warm release_crate)
echo
echo "per-kernel expansion (ms; debug-profile macro for check, build-override profile for release):"
printf '%-14s' kernel
for c in "${kernel_cols[@]}"; do printf ' %13s' "$c"; done
echo
for k in "${kernel_names[@]}"; do
    printf '%-14s' "$k"
    for c in "${kernel_cols[@]}"; do
        v="$(expand_ms "$c" "$k")"
        printf ' %13s' "${v:--}"
    done
    echo
done
gemm_ms="$(expand_ms check_gemm_only Gemm)"
echo "Gemm in the Gemm-only crate (after touch): ${gemm_ms:--} ms"
if ((bench_crate)); then
    echo "bench crate, slowest expansions (ms):"
    awk -F'\t' 'NF >= 2 { s[$1] += $2 } END { for (k in s) printf "%.1f\t%s\n", s[k] / 1000, k }' \
        "$logs/bench_crate.tsv" | sort -rn | head -n 8 | awk -F'\t' '{ printf "  %-24s %10s\n", $2, $1 }' || true
fi
echo
echo "load average: $load_before before, $load_after after (1/5/15 min)"

for n in "${m_names[@]}"; do
    while IFS=$'\t' read -r k us; do
        [[ -n "$k" ]] || continue
        printf '%s,%s,,,%s,,\n' "$n" "$k" "$(awk -v u="$us" 'BEGIN { printf "%.1f", u / 1000 }')"
    done <"$logs/$n.tsv" >>"$csv"
done

{
    echo "{"
    echo "  \"machine\": {"
    echo "    \"nproc\": $machine_nproc,"
    echo "    \"cpu\": $(json_str "$cpu_model"),"
    echo "    \"rustc\": $(json_str "$rustc_version"),"
    echo "    \"started_at\": $(json_str "$started_at"),"
    echo "    \"git\": $(json_str "$git_rev"),"
    echo "    \"loadavg_before\": $(json_str "$load_before"),"
    echo "    \"loadavg_after\": $(json_str "$load_after")"
    echo "  },"
    echo "  \"measurements\": ["
    last=$((${#m_names[@]} - 1))
    for i in "${!m_names[@]}"; do
        n="${m_names[$i]}"
        echo "    {"
        echo "      \"name\": $(json_str "$n"),"
        echo "      \"description\": $(json_str "${m_descs[$i]}"),"
        echo "      \"wall_s\": ${m_wall[$i]},"
        echo "      \"peak_rss_mib\": ${m_rss[$i]},"
        echo "      \"goal_s\": $(json_num "${m_goal[$i]}"),"
        echo "      \"expand_ms_total\": $(json_num "$(expand_total_ms "$n")"),"
        printf '      "expand_ms": {'
        awk -F'\t' 'NF >= 2 { if (!(($1) in s)) o[++n] = $1; s[$1] += $2 }
            END { for (i = 1; i <= n; i++) printf "%s\"%s\": %.1f", (i > 1 ? ", " : ""), o[i], s[o[i]] / 1000 }' \
            "$logs/$n.tsv"
        echo "}"
        if ((i < last)); then echo "    },"; else echo "    }"; fi
    done
    echo "  ]"
    echo "}"
} >"$json"

echo "wrote $csv and $json"
