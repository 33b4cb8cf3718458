//! Run under `mpirun -n R`: every rank runs the same kernels split over the ranks
//! (`lift_runtime::ranks::RankKernel`, each rank on two contexts of its default device) and
//! checks the whole result against one device in its own process: bit for bit for maps and
//! stencils (and 25 launches of an iterated Jacobi with halos exchanged by MPI), within the
//! reduction tolerance for reductions, for fixed programs and random ones of the generator.
//! The typed host path too (`run_host`, `run_typed`, `iterate_typed`): on every program whose
//! parameters and result are scalars or arrays of scalars, the same scalars as the value path
//! bit for bit (the same slabs on the same devices), and so against one device; a typed
//! Jacobi step and 25 iterated ones bit for bit against one device.
//! Prints `rank r of R: N agree (S split, T typed)` and exits 1 on the first disagreement.

use lift_runtime::__faults::{inject, Point};
use lift_runtime::core::interp::Value;
use lift_runtime::core::types::Type;
use lift_runtime::ranks::{mpi, RankKernel};
use lift_runtime::{Context, Devices, DynKernel, Error, HostArg, HostData, Placement};
use lift_tests::diff::{agree, case, inputs};
use lift_tests::{f32s, matrix, random_f32};
use mpi::traits::{Communicator, CommunicatorCollectives};

const FIXED: &[(&str, &[usize])] = &[
    ("kernel K<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x }", &[1]),
    ("kernel K<N>(x: [f32; N]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o pad(1, 1, clamp) $ x }", &[1001]),
    ("kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|w| 0.2 * (w[0][1] + w[1][0] + w[1][1] + w[1][2] + w[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x }", &[37, 9]),
    ("kernel K<N, M>(a: [[f32; M]; N], x: [f32; M]) -> [f32; N] { map(|row| reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(row, x)) $ a }", &[13, 7]),
    ("kernel K<N>(x: [f32; N], y: [f32; N]) -> f32 { reduce(+, 0.0) o map(|p| p.0 * p.1) $ zip(x, y) }", &[4099]),
    ("kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; N]; M] { map(map(|v| v * 2.0)) o transpose $ x }", &[4, 3]),
];

const JACOBI: &str = "kernel K<N, M>(x: [[f32; M]; N]) -> [[f32; M]; N] { map2(|w| 0.2 * (w[0][1] + w[1][0] + w[1][1] + w[1][2] + w[2][1])) o slide2(3, 1) o pad2(1, clamp) $ x }";

/// The arguments `args` of kernel `K` of `text` as typed host data, where its parameters and
/// result are scalars or arrays of scalars.
fn host_args(text: &str, args: &[Value]) -> Option<Vec<HostArg<'static>>> {
    let mut p = lift_runtime::core::parse::parse_program_str(text).ok()?;
    lift_runtime::core::typeck::check_program(&mut p).ok()?;
    let k = p.kernel("K")?;
    let scalar = |ty: &Type| match ty.base() {
        Type::Scalar(s) => Some(*s),
        _ => None,
    };
    scalar(&k.ret)?;
    k.params
        .iter()
        .zip(args)
        .map(|(p, a)| match (&p.ty, a) {
            (Type::Scalar(_), Value::Scalar(x)) => Some(HostArg::Scalar(*x)),
            (ty, a) => HostData::from_scalars(scalar(ty)?, &a.flatten(), &p.name)
                .ok()
                .map(HostArg::Array),
        })
        .collect()
}

fn fail(rank: i32, what: String) -> ! {
    eprintln!("rank {rank}: {what}");
    std::process::exit(1);
}

fn main() {
    let universe = mpi::initialize().expect("MPI initialises once");
    let world = universe.world();
    let rank = world.rank();
    let ctx = Context::new().unwrap_or_else(|e| fail(rank, format!("no device: {e}")));
    let devices =
        Devices::from_contexts(vec![ctx.clone(), Context::new().expect("a second context")])
            .expect("a set");
    let (mut agreed, mut split, mut typed) = (0, 0, 0);
    let mut check = |text: &str, sizes: &[usize], args: &[Value], what: &str| {
        let one = DynKernel::compile_for(&ctx, text, "K", sizes).and_then(|k| k.run(sizes, args));
        // Every rank skips a program one device rejects, or none does (each rank decides
        // alone, so the ranks agree on it first).
        let mut all = 0i32;
        let op = mpi::collective::SystemOperation::min();
        world.all_reduce_into(&i32::from(one.is_ok()), &mut all, op);
        let Ok(one) = one else {
            return;
        };
        if all == 0 {
            fail(
                rank,
                format!("{what}: one device ran it here, not on another rank"),
            );
        }
        let k = RankKernel::new(&world, &devices, text, "K")
            .unwrap_or_else(|e| fail(rank, format!("{what}: {e}")));
        let got = k
            .run(sizes, args)
            .unwrap_or_else(|e| fail(rank, format!("{what}: {e}\n{text}")));
        if let Err(e) = agree(&got, &one) {
            fail(rank, format!("{what}: {e}\n{text}"));
        }
        if let Some(host) = host_args(text, args) {
            let flat = k
                .run_host(sizes, &host)
                .unwrap_or_else(|e| fail(rank, format!("{what}, typed: {e}\n{text}")));
            if flat.to_scalars() != got.flatten() {
                fail(
                    rank,
                    format!("{what}: typed and value paths differ\n{text}"),
                );
            }
            typed += 1;
        }
        agreed += 1;
        if matches!(k.placement(sizes), Ok(Placement::Split(s)) if !s.is_empty()) {
            split += 1;
        }
    };
    for (i, (text, sizes)) in FIXED.iter().enumerate() {
        let mut p = lift_runtime::core::parse::parse_program_str(text).expect("parses");
        lift_runtime::core::typeck::check_program(&mut p).expect("checks");
        let args = inputs(&p, sizes, i as u64).expect("inputs");
        check(text, sizes, &args, &format!("fixed {i}"));
    }
    for seed in 0..40 {
        let c = case(seed, None);
        let Ok(mut p) = lift_runtime::core::parse::parse_program_str(&c.text) else {
            continue;
        };
        if lift_runtime::core::typeck::check_program(&mut p).is_err() {
            continue;
        }
        let Ok(args) = inputs(&p, &c.sizes, c.seed) else {
            continue;
        };
        check(
            &c.text,
            &c.sizes,
            &args,
            &format!("seed {seed} ({})", c.family),
        );
    }
    // An iterated Jacobi: halo rows between ranks after every launch.
    let (n, m) = (23, 8);
    let x = matrix(&random_f32(n * m, 5), n);
    let one = DynKernel::compile_for(&ctx, JACOBI, "K", &[n, m]).expect("one device");
    let mut want = x.clone();
    for _ in 0..25 {
        want = one.run(&[n, m], &[want]).expect("a launch");
    }
    let k = RankKernel::new(&world, &devices, JACOBI, "K").expect("a rank kernel");
    let got = k
        .iterate(&[n, m], std::slice::from_ref(&x), 0, 25)
        .unwrap_or_else(|e| fail(rank, format!("iterated Jacobi: {e}")));
    if got != want {
        fail(rank, "iterated Jacobi: another result".into());
    }
    // The same on typed data: one step, and 25 with halos exchanged as bytes.
    let flat = f32s(&x);
    let step = one.run(&[n, m], &[x]).expect("a launch");
    let got = k.run_typed::<f32>(&[n, m], &[HostArg::array(&flat)]);
    if got.as_ref().map_err(|e| e.to_string()) != Ok(&f32s(&step)) {
        fail(rank, format!("typed Jacobi step: {got:?}"));
    }
    let got = k.iterate_typed::<f32>(&[n, m], &[HostArg::array(&flat)], 0, 25);
    if got.as_ref().map_err(|e| e.to_string()) != Ok(&f32s(&want)) {
        fail(rank, "typed iterated Jacobi: another result".into());
    }
    // A launch that fails on one rank only (an injected fault on rank 1's first device) is an
    // error on every rank, none left waiting in the gather or the halo exchange; the same
    // kernel works once the fault is cleared.
    if world.size() > 1 {
        let fault = (rank == 1).then(|| inject(Point::Launch, &ctx));
        let run = k.run_typed::<f32>(&[n, m], &[HostArg::array(&flat)]);
        let iterated = k.iterate_typed::<f32>(&[n, m], &[HostArg::array(&flat)], 0, 5);
        for (what, r) in [("run", run), ("iterate", iterated)] {
            match (rank, r) {
                (_, Ok(_)) => fail(rank, format!("{what} with a failed rank gave a result")),
                (1, Err(Error::OnDevice { index: 0, .. })) => {}
                (1, Err(e)) => fail(rank, format!("{what}: rank 1's own error expected: {e}")),
                (_, Err(Error::Launch { reason })) if reason.contains("another MPI rank") => {}
                (_, Err(e)) => fail(
                    rank,
                    format!("{what}: another rank's failure expected: {e}"),
                ),
            }
        }
        drop(fault);
        let again = k.run_typed::<f32>(&[n, m], &[HostArg::array(&flat)]);
        if again.as_ref().map_err(|e| e.to_string()) != Ok(&f32s(&step)) {
            fail(rank, format!("after the fault: {again:?}"));
        }
    }
    println!(
        "rank {rank} of {}: {} agree ({split} split, {typed} typed), iterated Jacobi agrees, typed too, a failed rank fails all",
        world.size(),
        agreed + 1
    );
}
