//! `take(n)` (`[a; m] -> [a; n]`, the first `n` elements, `n <= m`) on the default device
//! against the reference interpreter, at sizes 1, primes and non-multiples of the work-group
//! size: every candidate of each kernel, and `run`. A `take` longer than its input is a
//! launch-time precondition when the sizes are symbolic: an `Err` before anything runs.

use lift_runtime::core::interp::Value;
use lift_runtime::{lift, Error};
use lift_tests::{assert_close, ctx, f32s, interpret, matrix, random_f32};

lift! {
    /// The first `N` of `N + 3` elements, doubled (`N <= N + 3` is proved).
    kernel TakeMap<N>(x: [f32; N + 3]) -> [f32; N] { map(|v| v * 2.0) o take(N) $ x }
    /// A constant prefix of a symbolic array (`4 <= N`, a launch-time precondition).
    kernel TakeConst<N>(x: [f32; N]) -> [f32; 4] { map(|v| v + 1.0) o take(4) $ x }
    /// A symbolic prefix of another size variable (`M <= N`, a launch-time precondition).
    kernel TakeSym<N, M>(x: [f32; N]) -> [f32; M] { map(|v| v - 0.5) o take(M) $ x }
    /// `take` after a pad: the padded tail is cut off again.
    kernel TakePad<N>(x: [f32; N]) -> [f32; N + 2] { map(|v| 3.0 * v) o take(N + 2) o pad(1, 4, clamp) $ x }
    /// A 3-point stencil on a prefix.
    kernel TakeSlide<N>(x: [f32; N + 5]) -> [f32; N] { map(reduce(+, 0.0)) o slide(3, 1) o take(N + 2) $ x }
    /// A prefix zipped with an array of its length.
    kernel TakeZip<N>(x: [f32; N + 1], y: [f32; N]) -> [f32; N] { map(|(a, b)| a * b) $ zip(take(N) $ x, y) }
    /// The top-left `N x M` block of an `(N + 1) x (M + 2)` matrix.
    kernel TakeRows<N, M>(x: [[f32; M + 2]; N + 1]) -> [[f32; M]; N] { map(map(|v| v + 2.0) o take(M)) o take(N) $ x }
}

/// Sizes 1, small primes and non-multiples of common work-group sizes.
const SIZES: &[usize] = &[1, 2, 3, 7, 13, 31, 65, 257];

/// Runs every candidate of a one-input kernel `$k` at sizes `$sizes` with input `$x`
/// against `$want`, then `run`; gives how many candidates ran.
macro_rules! check_1 {
    ($k:ident, [$($s:expr),*], $x:expr, $want:expr) => {{
        let k = $k::new(ctx()).unwrap();
        let what = format!("{} {:?}", stringify!($k), [$($s),*]);
        assert_close(&k.run($($s,)* $x).unwrap(), $want, 1e-6, &what);
        let x = ctx().upload($x).unwrap();
        let cands = k.candidates().unwrap();
        let mut ran = 0;
        for c in 0..cands.len() {
            let out = ctx().alloc::<f32>($want.len()).unwrap();
            match k.launch_candidate(c, $($s,)* &x, &out) {
                Ok(ev) => {
                    ev.wait().unwrap();
                    let what = format!("{what} {}", cands[c].name);
                    assert_close(&out.download().unwrap(), $want, 1e-6, &what);
                    ran += 1;
                }
                Err(Error::Launch { reason }) if reason.contains("does not apply") => {
                    assert!(!cands[c].conditions.is_empty(), "{what}: {reason}");
                }
                Err(e) => panic!("{what} {}: {e}", cands[c].name),
            }
        }
        assert!(ran >= 1, "{what}: no candidate ran");
    }};
}

#[test]
fn take_of_a_longer_array_matches_the_interpreter() {
    for &n in SIZES {
        let x = random_f32(n + 3, n as u64);
        let want = f32s(&interpret(
            TakeMap::LIFT,
            "TakeMap",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        assert_eq!(want.len(), n);
        check_1!(TakeMap, [n], &x, &want);
    }
}

#[test]
fn take_with_launch_time_preconditions() {
    assert!(!TakeConst::PRECONDITIONS.is_empty());
    for &n in SIZES.iter().filter(|&&n| n >= 4) {
        let x = random_f32(n, 10 + n as u64);
        let want = f32s(&interpret(
            TakeConst::LIFT,
            "TakeConst",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        assert_eq!(want, x[..4].iter().map(|v| v + 1.0).collect::<Vec<_>>());
        check_1!(TakeConst, [n], &x, &want);
    }
    // Too short: an `Err` naming the condition, nothing launched.
    let k = TakeConst::new(ctx()).unwrap();
    for n in [1, 2, 3] {
        match k.run(n, &random_f32(n, 1)) {
            Err(Error::Precondition { .. }) => {}
            other => panic!("TakeConst {n}: expected a precondition error, got {other:?}"),
        }
    }

    assert!(!TakeSym::PRECONDITIONS.is_empty());
    for (n, m) in [(1, 1), (7, 1), (7, 7), (13, 5), (65, 64), (257, 31)] {
        let x = random_f32(n, (n * 1000 + m) as u64);
        let want = f32s(&interpret(
            TakeSym::LIFT,
            "TakeSym",
            &[n, m],
            &[Value::from_f32s(&x)],
        ));
        assert_eq!(want.len(), m);
        check_1!(TakeSym, [n, m], &x, &want);
    }
    let k = TakeSym::new(ctx()).unwrap();
    for (n, m) in [(1, 2), (7, 8), (13, 100)] {
        match k.run(n, m, &random_f32(n, 2)) {
            Err(e @ Error::Precondition { .. }) => {
                let msg = e.to_string();
                assert!(msg.contains('M') && msg.contains('N'), "{msg}");
            }
            other => panic!("TakeSym {n} {m}: expected a precondition error, got {other:?}"),
        }
    }
}

#[test]
fn take_after_pad_and_before_slide() {
    for &n in SIZES {
        let x = random_f32(n, 20 + n as u64);
        let want = f32s(&interpret(
            TakePad::LIFT,
            "TakePad",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        assert_eq!(want.len(), n + 2);
        check_1!(TakePad, [n], &x, &want);

        let x = random_f32(n + 5, 30 + n as u64);
        let want = f32s(&interpret(
            TakeSlide::LIFT,
            "TakeSlide",
            &[n],
            &[Value::from_f32s(&x)],
        ));
        assert_eq!(want.len(), n);
        check_1!(TakeSlide, [n], &x, &want);
    }
}

#[test]
fn take_inside_zip() {
    let k = TakeZip::new(ctx()).unwrap();
    for &n in SIZES {
        let (x, y) = (
            random_f32(n + 1, 40 + n as u64),
            random_f32(n, 50 + n as u64),
        );
        let want = f32s(&interpret(
            TakeZip::LIFT,
            "TakeZip",
            &[n],
            &[Value::from_f32s(&x), Value::from_f32s(&y)],
        ));
        let (xb, yb) = (ctx().upload(&x).unwrap(), ctx().upload(&y).unwrap());
        let cands = k.candidates().unwrap();
        for (c, cand) in cands.iter().enumerate() {
            let out = ctx().alloc::<f32>(n).unwrap();
            k.launch_candidate(c, n, &xb, &yb, &out)
                .unwrap()
                .wait()
                .unwrap();
            let what = format!("TakeZip {n} {}", cand.name);
            assert_close(&out.download().unwrap(), &want, 1e-6, &what);
        }
        assert_close(
            &k.run(n, &x, &y).unwrap(),
            &want,
            1e-6,
            &format!("TakeZip {n}"),
        );
    }
}

#[test]
fn take_of_rows_and_columns() {
    for (n, m) in [(1, 1), (1, 7), (7, 1), (5, 13), (17, 31), (33, 65)] {
        let x = random_f32((n + 1) * (m + 2), (n * 100 + m) as u64);
        let want = f32s(&interpret(
            TakeRows::LIFT,
            "TakeRows",
            &[n, m],
            &[matrix(&x, n + 1)],
        ));
        let expected: Vec<f32> = (0..n)
            .flat_map(|i| (0..m).map(move |j| (i, j)))
            .map(|(i, j)| x[i * (m + 2) + j] + 2.0)
            .collect();
        assert_eq!(want, expected, "interpreter {n}x{m}");
        check_1!(TakeRows, [n, m], &x, &want);
    }
}
