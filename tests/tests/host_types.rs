//! Host element types of `run` (SPEC section 3: `&[T]` per array parameter): `bool` arrays
//! (stored as `uchar`) and arrays of tuples (stored field by field, as the generated structs),
//! as inputs and results, and tuples as scalar results (a full `reduce_seq` over tuples).

use lift_runtime::lift;
use lift_tests::{ctx, random_f32, random_i32};

lift! {
    kernel Positive<N>(x: [f32; N]) -> [bool; N] { map(|v| v > 0.0) $ x }
    kernel Select<N>(m: [bool; N], x: [f32; N]) -> [f32; N] {
        map(|p| if p.0 { p.1 } else { 0.0 - p.1 }) $ zip(m, x)
    }
    kernel AnyNegative<N>(x: [i32; N]) -> bool { reduce(|a, b| a || b, false) o map(|v| v < 0) $ x }
    kernel Swap<N>(x: [(f32, f32); N]) -> [(f32, f32); N] { map(|p| (p.1, p.0 * 2.0)) $ x }
    kernel Norms<N>(x: [(f32, f32, f32); N]) -> [f32; N] { map(|p| sqrt(p.0 * p.0 + p.1 * p.1 + p.2 * p.2)) $ x }
    kernel SumMax<N>(x: [f32; N]) -> (f32, f32) {
        reduce_seq(|acc, v| (acc.0 + v, max(acc.1, v)), (0.0, -1000.0)) $ x
    }
    kernel MinMaxI<N>(x: [i32; N]) -> (i32, i32) {
        reduce_seq(|acc, v| (min(acc.0, v), max(acc.1, v)), (1000, -1000)) $ x
    }
}

#[test]
fn bool_arrays_in_and_out() {
    let (pos, sel) = (Positive::new(ctx()).unwrap(), Select::new(ctx()).unwrap());
    for n in [1, 7, 1000] {
        let x = random_f32(n, 1);
        let m = pos.run(n, &x).unwrap();
        assert_eq!(
            m,
            x.iter().map(|v| *v > 0.0).collect::<Vec<_>>(),
            "Positive N={n}"
        );
        let want: Vec<f32> = x
            .iter()
            .zip(&m)
            .map(|(v, b)| if *b { *v } else { -v })
            .collect();
        assert_eq!(sel.run(n, &m, &x).unwrap(), want, "Select N={n}");
    }
}

#[test]
fn bool_scalar_result() {
    let k = AnyNegative::new(ctx()).unwrap();
    for n in [1, 13, 5000] {
        let x: Vec<i32> = random_i32(n, 2).into_iter().map(|v| v.abs()).collect();
        assert!(!k.run(n, &x).unwrap(), "no negative, N={n}");
        let mut y = x.clone();
        y[n / 2] = -1;
        assert!(k.run(n, &y).unwrap(), "one negative, N={n}");
    }
}

#[test]
fn tuple_arrays_in_and_out() {
    let (swap, norms) = (Swap::new(ctx()).unwrap(), Norms::new(ctx()).unwrap());
    for n in [1, 5, 333] {
        let a = random_f32(n, 3);
        let b = random_f32(n, 4);
        let x: Vec<(f32, f32)> = a.iter().copied().zip(b.iter().copied()).collect();
        let want: Vec<(f32, f32)> = x.iter().map(|p| (p.1, p.0 * 2.0)).collect();
        assert_eq!(swap.run(n, &x).unwrap(), want, "Swap N={n}");
        let t: Vec<(f32, f32, f32)> = x.iter().map(|p| (p.0, p.1, p.0 - p.1)).collect();
        let got = norms.run(n, &t).unwrap();
        for (g, p) in got.iter().zip(&t) {
            let w = (p.0 * p.0 + p.1 * p.1 + p.2 * p.2).sqrt();
            assert!(
                (g - w).abs() <= 1e-6 * w.max(1.0),
                "Norms N={n}: {g} vs {w}"
            );
        }
    }
    let e = swap.run(3, &[(1.0, 2.0)]).unwrap_err();
    assert_eq!(e.to_string(), "argument `x`: expected length 3, got 1");
}

/// A full `reduce_seq` with a tuple accumulator returns the tuple.
#[test]
fn tuple_scalar_results() {
    let (k, m) = (SumMax::new(ctx()).unwrap(), MinMaxI::new(ctx()).unwrap());
    for n in [1, 7, 1000] {
        let x = random_f32(n, 3);
        let (sum, max) = k.run(n, &x).unwrap();
        let want: f32 = x.iter().sum();
        assert!((sum - want).abs() < 1e-3, "SumMax N={n}: {sum} vs {want}");
        assert_eq!(
            max,
            x.iter().copied().fold(-1000.0, f32::max),
            "SumMax N={n}"
        );
        let xi = random_i32(n, 4);
        let lo = xi.iter().copied().fold(1000, i32::min);
        let hi = xi.iter().copied().fold(-1000, i32::max);
        assert_eq!(m.run(n, &xi).unwrap(), (lo, hi), "MinMaxI N={n}");
    }
}
