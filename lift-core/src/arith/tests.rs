//! Unit tests of the symbolic arithmetic.

use super::*;

fn n() -> Nat {
    Nat::size_var("N")
}

fn m() -> Nat {
    Nat::size_var("M")
}

fn c(v: i64) -> Nat {
    Nat::cst(v)
}

fn env<'a>(vals: &'a [(&'a str, i64)]) -> impl Fn(&str) -> Option<i64> + 'a {
    move |name| vals.iter().find(|(k, _)| *k == name).map(|(_, v)| *v)
}

#[test]
fn constants_fold() {
    assert_eq!(c(2) + c(3), c(5));
    assert_eq!(c(7) * 6 - 2, c(40));
    assert_eq!(c(7) / 2, c(3));
    assert_eq!(c(-7) / 2, c(-3));
    assert_eq!(c(-7) % 2, c(-1));
    assert_eq!(c(7) % -2, c(1));
    assert_eq!(c(2).pow(&c(10)), c(1024));
    assert_eq!(Nat::min(&c(3), &c(4)), c(3));
    assert_eq!(Nat::max(&c(3), &c(4)), c(4));
}

#[test]
#[allow(clippy::erasing_op, clippy::modulo_one)] // deliberately exercised
fn neutral_and_absorbing_elements() {
    assert_eq!(n() + 0, n());
    assert_eq!(n() * 1, n());
    assert_eq!(n() * 0, c(0));
    assert_eq!(n() - n(), c(0));
    assert_eq!(n() / 1, n());
    assert_eq!(n() % 1, c(0));
    assert_eq!(c(0) / n(), c(0));
    assert_eq!(n() / n(), c(1));
    assert_eq!(n() % n(), c(0));
    assert_eq!(-(-n()), n());
}

#[test]
fn like_terms_and_distribution() {
    assert_eq!(n() + n(), c(2) * n());
    assert_eq!((n() + m()) * 2, n() * 2 + m() * 2);
    assert_eq!((n() + 1) * (m() + 1), n() * m() + n() + m() + 1);
    assert_eq!(n() * m(), m() * n());
    assert_eq!(n() + m() - n(), m());
    assert_eq!((n() + m()) - (m() + n()), c(0));
    assert_eq!(n().pow(&c(2)), n() * n());
}

#[test]
fn paper_size_identities() {
    assert_eq!(n() * 2 / 2, n());
    assert_eq!((n() + 2 - 3) / 1 + 1, n());
    assert_eq!((n() - 3) / 1 + 1, n() - 2);
    // slide(size 3, step 1) after pad(1, 1): (N + 2 - 3) / 1 + 1 = N
    let padded = n() + 1 + 1;
    assert_eq!((padded - 3) / 1 + 1, n());
    // split n then join
    let t = Nat::tuning_var("n");
    assert_eq!(n() / &t * &t / &t, n() / &t);
}

#[test]
fn divisibility_facts() {
    let mut facts = Facts::new();
    let q = n() / 4 * 4;
    assert_ne!(q, n());
    assert!(!Facts::new().equal(&q, &n()));
    facts.assume_divisible(&n(), &c(4));
    assert!(facts.equal(&q, &n()));
    assert_eq!(q.simplify_with(&facts), n());
    assert_eq!((n() % 4).simplify_with(&facts), c(0));
    assert_eq!(facts.divisible(&n(), &c(4)), Some(true));
    assert_eq!(facts.divisible(&n(), &c(2)), Some(true));
    assert_eq!(facts.divisible(&n(), &c(8)), None);
    assert_eq!(facts.divisible(&(n() * 3 + 8), &c(4)), Some(true));
    assert_eq!(facts.divisible(&(n() + 1), &c(4)), Some(false));
    assert_eq!(facts.divisible(&(n() * m()), &c(4)), Some(true));
    assert_eq!(facts.divisible(&m(), &c(4)), None);
    // symbolic divisors
    let t = Nat::tuning_var("T");
    assert_eq!(Facts::new().divisible(&(n() * &t), &t), Some(true));
    assert_eq!(Facts::new().divisible(&n(), &t), None);
    let mut f2 = Facts::new();
    f2.assume_divisible(&n(), &t);
    assert!(f2.equal(&(n() / &t * &t), &n()));
    assert_eq!(f2.divisible(&(n() * 2 + &t), &t), Some(true));
    // constants
    assert_eq!(Facts::new().divisible(&c(12), &c(4)), Some(true));
    assert_eq!(Facts::new().divisible(&c(13), &c(4)), Some(false));
    assert_eq!(Facts::new().divisible(&c(13), &c(0)), None);
    // a fact on `N + 4` (split after pad) speaks about `N` too
    let mut f3 = Facts::new();
    f3.assume_divisible(&(n() + 4), &c(4));
    assert_eq!(f3.divisible(&n(), &c(4)), Some(true));
    assert!(f3.equal(&((n() + 4) / 4 * 4), &(n() + 4)));
    assert_eq!(f3.divisible(&(n() + 2), &c(4)), Some(false));
    // `8 * (N / 16)` is `N / 2` when 16 divides N
    let mut f4 = Facts::new();
    f4.assume_divisible(&n(), &c(16));
    assert!(f4.equal(&(n() / 16 * 8), &(n() / 2)));
    assert!(!f4.equal(&(n() / 16 * 8), &(n() / 4)));
}

#[test]
fn order_queries() {
    let f = Facts::new();
    let i = Nat::index_var("i", c(0), n());
    assert_eq!(f.le(&i, &n()), Some(true));
    assert_eq!(f.le(&n(), &i), Some(false));
    assert_eq!(f.le(&(i.clone() + 1), &n()), Some(true));
    assert_eq!(f.le(&(i.clone() + 2), &n()), None);
    assert_eq!(f.le(&c(1), &n()), Some(true));
    assert_eq!(f.le(&c(2), &n()), None);
    assert_eq!(f.le(&c(0), &(n() - 1)), Some(true));
    assert_eq!(f.le(&(n() / 2), &n()), Some(true));
    assert_eq!(f.le(&(n() % m()), &n()), Some(true));
    assert_eq!(f.le(&n(), &m()), None);
    assert_eq!(f.le(&n(), &(n() * m())), Some(true));
}

#[test]
fn min_value_max_value() {
    let i = Nat::index_var("i", c(0), c(16));
    assert_eq!(i.min_value(), Some(0));
    assert_eq!(i.max_value(), Some(15));
    assert_eq!((i.clone() * 4 + 3).max_value(), Some(63));
    assert_eq!((i.clone() % 4).max_value(), Some(3));
    assert_eq!((i.clone() / 4).max_value(), Some(3));
    assert_eq!(n().min_value(), Some(1));
    assert_eq!(n().max_value(), None);
    assert_eq!((-n()).max_value(), Some(-1));
    let j = Nat::index_var("j", c(0), n());
    assert_eq!(j.min_value(), Some(0));
    assert_eq!(j.max_value(), None);
}

#[test]
fn division_rules() {
    let i = Nat::index_var("i", c(0), n());
    let j = Nat::index_var("j", c(0), m());
    // rule 1 / 3
    assert_eq!(&i / n(), c(0));
    assert_eq!(&i % n(), i);
    // rule 2 / 5
    assert_eq!((&j * n() + &i) / n(), j);
    assert_eq!((&j * n() + &i) % n(), i);
    assert_eq!((&j * n()) % n(), c(0));
    assert_eq!((n() * m()) / m(), n());
    // rule 4, also inside larger sums
    let x = n() + m();
    assert_eq!(&x / 7 * 7 + &x % 7, x);
    assert_eq!(&x / m() * m() + &x % m() + 5, x.clone() + 5);
    assert_eq!((&x / m() * m() + &x % m()) * 3, x.clone() * 3);
    // nested division
    assert_eq!(n() / 2 / 3, n() / 6);
    assert_eq!(n() / m() / 4, n() / (m() * 4));
    // constants pulled out of sums
    assert_eq!((n() * 4 + 9) / 4, n() + 2);
    assert_eq!((n() * 4 + 9) % 4, c(1));
    assert_eq!((n() * 4 - 1) % 4, c(3));
    assert_eq!((n() * 4 - 1) / 4, n() - 1);
    // gcd cancellation
    assert_eq!((n() * 6) / (m() * 4), (n() * 3) / (m() * 2));
    assert_eq!((n() * 6) % (m() * 4), (n() * 3 % (m() * 2)) * 2);
    // modulo of modulo
    assert_eq!(n() % 8 % 4, n() % 4);
    assert_eq!(n() % 4 % 4, n() % 4);
    assert_eq!(n() % 4 / 4, c(0));
    // borrowing: (N*i + N - 1) / N = i
    assert_eq!((n() * &j + n() - 1) / n(), j.clone());
    assert_eq!((n() * &j + n() - 1) % n(), n() - 1);
    // ceil_div on exact multiples
    assert_eq!((n() * 4).ceil_div(&c(4)), n());
}

#[test]
fn negative_operands_follow_c() {
    let i = Nat::index_var("i", c(0), c(10));
    // -i / 4 = -(i / 4) with truncation
    let e = -i.clone() / 4;
    for v in 0..10 {
        let r = e.eval(&env(&[("i", v)])).unwrap();
        assert_eq!(r, (-v) / 4);
    }
    let e = (-i.clone() - 3) % 4;
    for v in 0..10 {
        let r = e.eval(&env(&[("i", v)])).unwrap();
        assert_eq!(r, (-v - 3) % 4);
    }
    // division by a negative constant
    let e = (i.clone() + 5) / -3;
    for v in 0..10 {
        assert_eq!(e.eval(&env(&[("i", v)])).unwrap(), (v + 5) / -3);
    }
}

#[test]
fn figure6_transposition_index() {
    // LIFT paper (CGO'17), Figure 6 line 1. The paper's split index is
    // `wg_id * M + l_id`, so `l_id` ranges over a chunk of size M and
    // `wg_id` over the N chunks.
    let mm = m();
    let nn = n();
    let wg = Nat::index_var("wg_id", c(0), nn.clone());
    let l = Nat::index_var("l_id", c(0), mm.clone());
    let i = &wg * &mm + &l;
    let g = &i / &mm + (&i % &mm) * &nn;
    let line1 = &g / &nn * &nn + &g % &nn;
    assert_eq!(line1, &l * &nn + &wg);
    assert_eq!(line1.to_string(), "N * l_id + wg_id");
    assert_eq!(line1.op_count(), 2);
    // Line 2 simplifies to the same.
    let x = &wg + &l * &nn;
    assert_eq!(&x / &nn * &nn + &x % &nn, &l * &nn + &wg);
}

#[test]
fn figure6_with_literal_paper_ranges_stays_sound() {
    // With the ranges as literally stated in the paper (wg_id < M,
    // l_id < N) `l_id` may exceed M, so the short form is *not* valid.
    let (mm, nn) = (m(), n());
    let wg = Nat::index_var("wg_id", c(0), mm.clone());
    let l = Nat::index_var("l_id", c(0), nn.clone());
    let i = &wg * &mm + &l;
    let g = &i / &mm + (&i % &mm) * &nn;
    let line1 = &g / &nn * &nn + &g % &nn;
    assert_ne!(line1, &l * &nn + &wg);
    for (nv, mv) in [(5, 3), (2, 7), (4, 4)] {
        for w in 0..mv {
            for lv in 0..nv {
                let vals = [("N", nv), ("M", mv), ("wg_id", w), ("l_id", lv)];
                let e = env(&vals);
                let iv = w * mv + lv;
                let gv = iv / mv + (iv % mv) * nv;
                assert_eq!(line1.eval(&e).unwrap(), gv / nv * nv + gv % nv);
            }
        }
    }
}

#[test]
fn hagedorn_24_operation_index() {
    // Hagedorn's thesis, section 4.2 (L21): i in [0, 2+M), j in [0, 2+N).
    let (mm, nn) = (m(), n());
    let i = Nat::index_var("i", c(0), c(2) + &mm);
    let j = Nat::index_var("j", c(0), c(2) + &nn);
    let a = || c(2) * &i + &i * &nn + &j;
    let e =
        (a() / (c(2) + &nn) + (a() % (c(2) + &nn)) * 2 + (a() % (c(2) + &nn)) * &mm) / (c(2) + &mm);
    assert_eq!(e, j);
    assert_eq!(e.op_count(), 0);
    // Intermediate steps of the thesis.
    assert_eq!(a(), (c(2) + &nn) * &i + &j);
    assert_eq!(a() / (c(2) + &nn), i);
    assert_eq!(a() % (c(2) + &nn), j);
}

#[test]
fn split_join_indices() {
    let t = Nat::tuning_var("T");
    let (nn, tt) = (n(), t.clone());
    let chunk = Nat::index_var("c", c(0), &nn / &tt);
    let elem = Nat::index_var("e", c(0), tt.clone());
    let flat = &chunk * &tt + &elem;
    assert_eq!(&flat / &tt, chunk);
    assert_eq!(&flat % &tt, elem);
    // join then split round-trip
    let k = Nat::index_var("k", c(0), nn.clone());
    assert_eq!(&k / &tt * &tt + &k % &tt, k);
}

#[test]
fn min_max_ite() {
    let i = Nat::index_var("i", c(0), n());
    assert_eq!(Nat::min(&i, &n()), i);
    assert_eq!(Nat::max(&i, &n()), n());
    assert_eq!(Nat::min(&n(), &m()), Nat::min(&m(), &n()));
    assert_eq!(Nat::min(&n(), &m()).to_string(), "min(M, N)");
    assert_eq!(Nat::max(&c(0), &(&i - 1)).to_string(), "max(0, i - 1)");
    assert_eq!(Nat::ite(&i, CmpOp::Lt, &n(), &c(1), &c(2)), c(1));
    assert_eq!(Nat::ite(&i, CmpOp::Ge, &n(), &c(1), &c(2)), c(2));
    assert_eq!(Nat::ite(&n(), CmpOp::Eq, &n(), &m(), &c(2)), m());
    assert_eq!(Nat::ite(&c(0), CmpOp::Ne, &n(), &m(), &c(2)), m());
    let e = Nat::ite(&i, CmpOp::Lt, &m(), &i, &m());
    assert_eq!(e.to_string(), "(i < M ? i : M)");
    assert_eq!(e.op_count(), 1);
    assert_eq!(Nat::ite(&i, CmpOp::Lt, &m(), &n(), &n()), n());
    assert_eq!(e.eval(&env(&[("i", 3), ("M", 5)])), Ok(3));
    assert_eq!(e.eval(&env(&[("i", 7), ("M", 5)])), Ok(5));
}

#[test]
fn display_minimal_parens() {
    let (nn, mm) = (n(), m());
    assert_eq!((&nn / 4 * 4).to_string(), "N / 4 * 4");
    assert_eq!(((&nn + 2) / 3).to_string(), "(N + 2) / 3");
    assert_eq!((&nn - 1).to_string(), "N - 1");
    assert_eq!((c(3) - &nn).to_string(), "3 - N");
    assert_eq!((-&nn).to_string(), "-N");
    assert_eq!((&nn * 2).to_string(), "2 * N");
    assert_eq!((&mm * (&nn / 2)).to_string(), "M * (N / 2)");
    assert_eq!((&nn / (&mm * 2)).to_string(), "N / (2 * M)");
    assert_eq!((&nn % (&mm + 1)).to_string(), "N % (M + 1)");
    assert_eq!((&nn - &mm * 3).to_string(), "N - 3 * M");
    assert_eq!((&nn / -&mm).to_string(), "-N / M");
    assert_eq!(c(-5).to_string(), "-5");
    assert_eq!(c(2).pow(&Nat::tuning_var("k")).to_string(), "(1 << k)");
    assert_eq!(nn.pow(&Nat::tuning_var("k")).to_string(), "pow(N, k)");
}

#[test]
fn op_count_matches_printed_form() {
    let (nn, mm) = (n(), m());
    assert_eq!(nn.op_count(), 0);
    assert_eq!((&nn + 1).op_count(), 1);
    assert_eq!((&nn / 4 * 4).op_count(), 2);
    assert_eq!((c(3) - &nn).op_count(), 1);
    assert_eq!((&nn * &mm * 3 + &nn).op_count(), 3);
    assert_eq!(((&nn + 2) / 3).op_count(), 2);
    assert_eq!(Nat::min(&nn, &mm).op_count(), 1);
}

#[test]
fn eval_and_errors() {
    let (nn, mm) = (n(), m());
    let e = (&nn + 2) / &mm;
    assert_eq!(e.eval(&env(&[("N", 10), ("M", 3)])), Ok(4));
    assert!(matches!(
        e.eval(&env(&[("N", 10), ("M", 0)])),
        Err(ArithError::DivByZero(_))
    ));
    assert!(matches!(e.eval(&env(&[("N", 10)])), Err(ArithError::Unbound(ref s)) if s == "M"));
    let big = &nn * &mm;
    assert!(matches!(
        big.eval(&env(&[("N", i64::MAX), ("M", 2)])),
        Err(ArithError::Overflow(_))
    ));
    let d = &nn / &mm;
    assert!(matches!(
        d.eval(&env(&[("N", i64::MIN), ("M", -1)])),
        Err(ArithError::Overflow(_))
    ));
    let p = nn.pow(&mm);
    assert_eq!(p.eval(&env(&[("N", 3), ("M", 4)])), Ok(81));
    assert!(matches!(
        p.eval(&env(&[("N", 3), ("M", -1)])),
        Err(ArithError::NegativeExponent(_))
    ));
    assert!(matches!(
        p.eval(&env(&[("N", 3), ("M", 100)])),
        Err(ArithError::Overflow(_))
    ));
    // Constant division by zero is kept, not folded.
    let z = c(1) / c(0);
    assert!(matches!(
        z.eval(&|_: &str| None),
        Err(ArithError::DivByZero(_))
    ));
    let z = n() % c(0);
    assert!(matches!(
        z.eval(&env(&[("N", 3)])),
        Err(ArithError::DivByZero(_))
    ));
}

#[test]
fn overflowing_constants_do_not_panic() {
    let big = c(i64::MAX);
    let s = &big + &big;
    assert!(s.eval(&|_: &str| None).is_err());
    let p = &big * &big;
    assert!(p.eval(&|_: &str| None).is_err());
    let x = n() * i64::MAX + n() * i64::MAX;
    assert!(x.eval(&env(&[("N", 1)])).is_err());
    assert_eq!(
        c(i64::MIN) / c(-1),
        Nat::Div(Box::new(c(i64::MIN)), Box::new(c(-1)))
    );
    let _ = c(i64::MIN) % c(-1);
    let _ = (n() * i64::MIN) / c(-1);
    let _ = (n() * i64::MIN) % c(-1);
    let _ = -(n() * i64::MIN);
    let _ = c(i64::MIN).pow(&c(3));
    let _ = n().pow(&c(-2));
    let f = Facts::new();
    let _ = f.divisible(&(n() * i64::MIN), &c(-1));
    let _ = f.le(&c(i64::MIN), &c(i64::MAX));
    let _ = (n() * i64::MIN).to_string();
}

#[test]
fn free_vars_and_substitute() {
    let (nn, mm) = (n(), m());
    let i = Nat::index_var("i", c(0), nn.clone());
    let e = &i * &mm + &nn;
    let names: Vec<String> = e.free_vars().iter().map(|v| v.name.to_string()).collect();
    assert_eq!(names, vec!["M", "N", "i"]);
    assert_eq!(e.substitute("M", &c(4)), &i * 4 + &nn);
    // Substitution also updates the ranges of index variables.
    let k = (&i / &nn).substitute("N", &c(8));
    assert_eq!(k, c(0));
    let r = (&i % &nn).substitute("N", &c(8));
    assert_eq!(r.free_vars()[0].hi.as_deref(), Some(&c(8)));
    assert_eq!((&nn * 2 / 2).substitute("N", &(mm.clone() + 1)), mm + 1);
}

#[test]
fn index_var_with_single_value_collapses() {
    let i = Nat::index_var("i", n(), n() + 1);
    assert_eq!(i, n());
}

#[test]
fn vars_compare_by_kind_and_name() {
    let a = Nat::index_var("x", c(0), c(4));
    let b = Nat::index_var("x", c(0), c(8));
    assert_eq!(a, b);
    assert_ne!(Nat::size_var("x"), Nat::tuning_var("x"));
}

#[test]
fn malformed_variants_do_not_panic() {
    let empty_sum = Nat::Sum(vec![]);
    let empty_prod = Nat::Prod(vec![]);
    assert_eq!(empty_sum.to_string(), "0");
    assert_eq!(empty_prod.to_string(), "1");
    assert_eq!(empty_sum.op_count(), 0);
    assert_eq!(empty_sum.eval(&|_: &str| None), Ok(0));
    assert_eq!(empty_prod.eval(&|_: &str| None), Ok(1));
    assert_eq!(empty_sum.simplify_with(&Facts::new()), c(0));
    let raw = Nat::Sum(vec![n(), n(), Nat::Prod(vec![c(3), m()])]);
    assert_eq!(raw.simplify_with(&Facts::new()), n() * 2 + m() * 3);
    let huge_exp = Nat::Pow(Box::new(c(1)), Box::new(c(i64::MAX)));
    assert_eq!(huge_exp.max_value(), Some(1));
    assert_eq!(c(1).pow(&c(i64::MAX)), c(1));
    assert_eq!(c(0).pow(&c(i64::MAX)), c(0));
    let _ = n().pow(&c(i64::MAX)).max_value();
}

/// A length rounded up to a multiple of `d` is at least the length (`pad` up to a tile, then
/// `take`): `d ((N + d - 1) / d) >= N`, and the difference is a valid padding.
#[test]
fn rounded_up_multiple_is_at_least_the_length() {
    let n = Nat::size_var("N");
    for d in [2, 8, 128] {
        let up = (&n + &Nat::cst(d - 1)) / &Nat::cst(d) * &Nat::cst(d);
        let f = Facts::new();
        assert_eq!(f.le(&n, &up), Some(true), "{up}");
        assert_eq!(f.le(&Nat::cst(0), &(&up - &n)), Some(true), "{up}");
        assert_eq!(f.divisible(&up, &Nat::cst(d)), Some(true), "{up}");
    }
}

#[test]
fn floor_multiples_of_symbolic_divisors_are_bounded() {
    // P = 256 min(1024, (N + 255) / 256): a grid of work-items; P (N / P) whole slices.
    let p = Nat::min(&c(1024), &((n() + 255) / 256)) * 256;
    let whole = &(n() / &p) * &p;
    assert!(range::le(&whole, &n()), "{whole} <= N");
    assert!(range::le(&c(0), &(n() - &whole)), "0 <= N - {whole}");
    assert!(range::lt(&(n() - &whole), &(&p + 1)), "N - {whole} <= P");
    // The rounded-up multiple is never below N.
    assert!(range::le(&n(), &(&((&n() + &p - 1) / &p) * &p)));
    // And nothing false is proved.
    assert!(!range::le(&n(), &whole));
    assert!(!range::le(&(&whole + 1), &n()));
}
