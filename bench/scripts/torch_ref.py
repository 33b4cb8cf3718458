#!/usr/bin/env python3
"""PyTorch (cuBLAS / cuDNN) references for lift-bench, timed with CUDA events.

Same workloads and sizes as `lift-bench` (full, or --quick); fp32 throughout with TF32 off.
Writes JSON that `lift-bench --torch FILE` (or `lift-bench --report DIR`, reading
DIR/torch.json) merges into its table:

    python3 bench/scripts/torch_ref.py [--quick] [--only WORKLOAD] --out torch.json
    python3 bench/scripts/torch_ref.py [--quick] --spellings --out torch.json   # lift-bench --spellings

Each result is checked once against float64 on the GPU (relative 2-norm error), then timed:
warm-up, then >= 20 runs (fewer, at least 3, for runs over 0.3 s); median and p10/p90.
Stencils use conv2d/conv3d (cuDNN) on a replicate-padded input (= clamped borders); the pad
is part of the timed region, as a clamped stencil must do it.
"""
import argparse
import json
import sys

import torch
import torch.nn.functional as F

W17 = [0.01234568, 0.02469136, 0.03703704, 0.04938272, 0.0617284, 0.07407407, 0.08641975, 0.09876543,
       0.11111111, 0.09876543, 0.08641975, 0.07407407, 0.0617284, 0.04938272, 0.03703704, 0.02469136, 0.01234568]
G5 = [1.0, 4.0, 6.0, 4.0, 1.0]


def timed(fn, runs=20, warmup=3):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    total = 0.0
    while len(times) < runs:
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        t = s.elapsed_time(e)
        times.append(t)
        total += t
        if len(times) >= 3 and total > 6000.0:
            break
    times.sort()
    q = lambda p: times[round((len(times) - 1) * p)]
    return {"median_ms": q(0.5), "p10_ms": q(0.1), "p90_ms": q(0.9), "runs": len(times)}


def rel_err(got, ref):
    got, ref = got.double().flatten(), ref.double().flatten()
    if not torch.isfinite(got).all():
        return float("nan")
    den = ref.norm().item()
    num = (got - ref).norm().item()
    return num / den if den else num


def stencil2d(x, w, ry, rx):
    """Clamped 2-D correlation of x (n x n) with weights w ((2ry+1) x (2rx+1))."""
    xp = F.pad(x[None, None], (rx, rx, ry, ry), mode="replicate")
    return F.conv2d(xp, w[None, None])[0, 0]


def spellings(a, add, rnd, dev):
    """cuBLAS / cuDNN at the sizes and layouts of `lift-bench --spellings` (workloads named
    `gemm-4000`, ...; an operand "given transposed" is stored transposed, as lift-bench does)."""
    gemm, sten, sten3, gemv, zipn = \
        ((256, 224, 192, 201), (512, 510, 511), (64, 62, 63), (512, 511), (1 << 16, (1 << 16) - 1)) if a.quick \
        else ((4096, 4000, 4032, 4001), (8192, 8190, 8191), (512, 510, 511), (8192, 8191), (1 << 24, (1 << 24) - 1))
    want = lambda w: a.workloads is None or w in a.workloads
    for n in (gemm if want("gemm") else ()):
        A, B = rnd(n, n), rnd(n, n)
        Bt, At = B.t().contiguous(), A.t().contiguous()
        ref = torch.mm(A.double(), B.double())
        add(f"gemm-{n}", "PyTorch mm (cuBLAS, no TF32)", lambda: torch.mm(A, B), ref)
        add(f"gemm-{n}", "PyTorch a @ bt.t(), B given transposed (cuBLAS, no TF32)", lambda: A @ Bt.t(), ref)
        add(f"gemm-{n}", "PyTorch at.t() @ b, A given transposed (cuBLAS, no TF32)", lambda: At.t() @ B, ref)
        del A, B, Bt, At, ref
    w = torch.tensor([[0, .2, 0], [.2, .2, .2], [0, .2, 0]], device=dev)
    for n in (sten if want("jacobi") else ()):
        x = rnd(n, n)
        add(f"jacobi-{n}", "PyTorch pad + conv2d (cuDNN)", lambda: stencil2d(x, w, 1, 1),
            stencil2d(x.double(), w.double(), 1, 1))
        del x
    w3 = torch.zeros(3, 3, 3, device=dev)
    for z, y_, x_ in [(0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 1, 1), (1, 1, 2), (1, 2, 1), (2, 1, 1)]:
        w3[z, y_, x_] = 0.142857
    f3 = lambda x, w: F.conv3d(F.pad(x[None, None], (1, 1, 1, 1, 1, 1), mode="replicate"), w[None, None])[0, 0]
    for n in (sten3 if want("jacobi3d") else ()):
        x = rnd(n, n, n)
        add(f"jacobi3d-{n}", "PyTorch pad + conv3d (cuDNN)", lambda: f3(x, w3), f3(x.double(), w3.double()))
        del x
    for n in (gemv if want("gemv") else ()):
        A, v = rnd(n, n), rnd(n)
        At = A.t().contiguous()
        ref = torch.mv(A.double(), v.double())
        add(f"gemv-{n}", "PyTorch mv (cuBLAS)", lambda: torch.mv(A, v), ref)
        add(f"gemv-{n}", "PyTorch at.t() @ x, A given transposed (cuBLAS)", lambda: At.t() @ v, ref)
        del A, At, v, ref
    for n in ((a.zip_sizes or zipn) if want("zip") else ()):
        x, y = rnd(n), rnd(n)
        add(f"zip-{n}", "PyTorch torch.add(x, y, alpha=2)", lambda: torch.add(x, y, alpha=2.0),
            x.double() + 2 * y.double())
        del x, y


# VGG-16's nine distinct 3x3 convolution layers: (side, input channels, filters), as in
# bench/src/workloads/vgg.rs.
VGG = [(224, 3, 64), (224, 64, 64), (112, 64, 128), (112, 128, 128), (56, 128, 256),
       (56, 256, 256), (28, 256, 512), (28, 512, 512), (14, 512, 512)]


def vgg(a, add, rnd, dev, results):
    """conv2d + bias + ReLU per layer (cuDNN, TF32 off), batch 1, NCHW; `vgg-i` as lift-bench."""
    layers = [((n // 14) if n >= 28 else 2, -(-c // 8), f // 8) for n, c, f in VGG] if a.quick else VGG
    for i, (n, c, f) in enumerate(layers):
        x, w, b = rnd(1, c, n, n), rnd(f, c, 3, 3) / (9 * c), rnd(f)
        fn = lambda: F.relu(F.conv2d(x, w, b, padding=1))
        fn()  # cuDNN's algorithm search (benchmark mode) happens here, outside the count
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        got = fn()
        torch.cuda.synchronize()
        extra = torch.cuda.max_memory_allocated() - base
        del got
        ref = F.relu(F.conv2d(x.double(), w.double(), b.double(), padding=1))
        add(f"vgg-{i}", "PyTorch conv2d + bias + ReLU (cuDNN)", fn, ref, 1e-4)
        results[-1]["device_mib_beyond_inputs"] = extra / 2**20
        print(f"vgg-{i}: device memory beyond the inputs {extra / 2**20:.1f} MiB (output, workspace)", flush=True)
        del x, w, b, ref


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--out", default="torch.json")
    ap.add_argument("--vgg", action="store_true",
                    help="VGG-16's convolution layers, as `lift-bench --only vgg` (also `--only vgg`)")
    ap.add_argument("--spellings", action="store_true",
                    help="the spellings-and-sizes part, as `lift-bench --spellings` (also `--only spellings`)")
    ap.add_argument("--workloads", type=lambda s: s.split(","),
                    help="with --spellings: only these workloads (gemm, jacobi, jacobi3d, gemv, zip)")
    ap.add_argument("--zip-sizes", type=lambda s: [int(v) for v in s.split(",")],
                    help="with --spellings: the zip lengths, as `lift-bench --workloads zip --sizes`")
    a = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = True
    dev = torch.device("cuda")
    vec, gemv, gemm, s2d, s3d = (1 << 18, 256, 128, 256, 32) if a.quick else (1 << 28, 8192, 4096, 8192, 512)
    g = torch.Generator(device=dev).manual_seed(0)
    rnd = lambda *shape: torch.rand(*shape, device=dev, generator=g) * 2 - 1
    results = []
    sel = lambda w: a.only is None or a.only == w

    def add(workload, impl, fn, ref, tol=1e-5):
        got = fn()
        torch.cuda.synchronize()
        err = rel_err(got, ref)
        rec = {"workload": workload, "implementation": impl, "rel_err": err,
               "status": "ok" if err <= tol else f"WRONG (rel err {err:.2e} > {tol:.0e})", "timing": "CUDA events"}
        rec.update(timed(fn))
        results.append(rec)
        print(f"{workload:10} {impl:36} {rec['median_ms']:.4f} ms  rel err {err:.1e}", flush=True)

    if a.spellings or a.only == "spellings":
        spellings(a, add, rnd, dev)
        sel = lambda w: False
    if a.vgg or a.only == "vgg":
        vgg(a, add, rnd, dev, results)
        sel = lambda w: False
    if sel("sum") or sel("asum") or sel("dot"):
        x, y = rnd(vec), rnd(vec)
        if sel("sum"):
            add("sum", "PyTorch sum", lambda: x.sum(), x.double().sum(), 1e-3)
        if sel("asum"):
            add("asum", "PyTorch abs().sum()", lambda: x.abs().sum(), x.double().abs().sum(), 1e-3)
        if sel("dot"):
            add("dot", "PyTorch dot (cuBLAS)", lambda: torch.dot(x, y), torch.dot(x.double(), y.double()), 1e-3)
        del x, y
    if sel("gemv"):
        A, v = rnd(gemv, gemv), rnd(gemv)
        add("gemv", "PyTorch mv (cuBLAS)", lambda: torch.mv(A, v), torch.mv(A.double(), v.double()))
        del A, v
    if sel("gemm"):
        A, B = rnd(gemm, gemm), rnd(gemm, gemm)
        add("gemm", "PyTorch mm (cuBLAS, no TF32)", lambda: torch.mm(A, B), torch.mm(A.double(), B.double()))
        del A, B
    if sel("jacobi2d") or sel("gauss5") or sel("conv17"):
        x = rnd(s2d, s2d)
        xd = x.double()
        if sel("jacobi2d"):
            w = torch.tensor([[0, .2, 0], [.2, .2, .2], [0, .2, 0]], device=dev)
            add("jacobi2d", "PyTorch pad + conv2d (cuDNN)", lambda: stencil2d(x, w, 1, 1), stencil2d(xd, w.double(), 1, 1))
        if sel("gauss5"):
            g5 = torch.tensor(G5, device=dev)
            w = torch.outer(g5, g5) / 256.0
            add("gauss5", "PyTorch pad + conv2d (cuDNN)", lambda: stencil2d(x, w, 2, 2), stencil2d(xd, w.double(), 2, 2))
        if sel("conv17"):
            w = torch.tensor(W17, device=dev)
            row, col = w[None, :], w[:, None]
            f = lambda x, r, c: stencil2d(stencil2d(x, r, 0, 8), c, 8, 0)
            add("conv17", "PyTorch 2x (pad + conv2d) (cuDNN)", lambda: f(x, row, col), f(xd, row.double(), col.double()))
        del x, xd
    if sel("jacobi3d"):
        x = rnd(s3d, s3d, s3d)
        w = torch.zeros(3, 3, 3, device=dev)
        for z, y_, x_ in [(0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 1, 1), (1, 1, 2), (1, 2, 1), (2, 1, 1)]:
            w[z, y_, x_] = 0.142857
        f = lambda x, w: F.conv3d(F.pad(x[None, None], (1, 1, 1, 1, 1, 1), mode="replicate"), w[None, None])[0, 0]
        add("jacobi3d", "PyTorch pad + conv3d (cuDNN)", lambda: f(x, w), f(x.double(), w.double()))
    out = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
           "cudnn": torch.backends.cudnn.version(), "mode": "quick" if a.quick else "full", "results": results}
    with open(a.out, "w") as fh:
        json.dump(out, fh, indent=1)
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
