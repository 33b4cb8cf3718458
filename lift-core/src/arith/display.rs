//! C-like infix printing with minimal parentheses, and operation counting.
//!
//! The output is a valid OpenCL C integer expression: `N / 4 * 4`,
//! `(N + 2) / 3`, `min(a, b)`, `(c < d ? a : b)` ([`CNat`] prints `lift_min(a, b)`). A power with base 2 prints
//! as a shift `(1 << e)`, other symbolic powers as `pow(b, e)`.

use std::fmt::{self, Display, Write};

use super::Nat;

/// Precedence levels.
const ADD: u8 = 1;
const MUL: u8 = 2;
const ATOM: u8 = 4;

/// Split a term of a sum into (negative?, coefficient magnitude, atoms).
fn term_parts(t: &Nat) -> (bool, u64, &[Nat]) {
    match t {
        Nat::Cst(c) => (*c < 0, c.unsigned_abs(), &[]),
        Nat::Prod(fs) => match fs.first() {
            Some(Nat::Cst(c)) => (*c < 0, c.unsigned_abs(), &fs[1..]),
            _ => (false, 1, &fs[..]),
        },
        _ => (false, 1, std::slice::from_ref(t)),
    }
}

/// Order in which the terms of a sum are printed: positive terms first,
/// constants after the other terms of the same sign (`N - 1`, `3 - N`).
fn print_order(ts: &[Nat]) -> Vec<&Nat> {
    let mut v: Vec<&Nat> = ts.iter().collect();
    v.sort_by_key(|t| (term_parts(t).0, matches!(t, Nat::Cst(_))));
    v
}

fn is_divmod(n: &Nat) -> bool {
    matches!(n, Nat::Div(..) | Nat::Mod(..))
}

/// Precedence of the printed form of `n`.
fn prec(n: &Nat) -> u8 {
    match n {
        Nat::Cst(c) if *c < 0 => MUL,
        Nat::Cst(_) | Nat::Var(_) => ATOM,
        Nat::Sum(_) => ADD,
        Nat::Prod(_) | Nat::Div(..) | Nat::Mod(..) => MUL,
        Nat::Pow(..) | Nat::Min(..) | Nat::Max(..) | Nat::Ite(..) => ATOM,
    }
}

/// Write a product `coef * atoms` (coefficient magnitude `k`, no sign).
fn write_mag(out: &mut String, k: u64, atoms: &[Nat], c: bool) -> fmt::Result {
    if atoms.is_empty() {
        return write!(out, "{k}");
    }
    let coef_last = k != 1 && is_divmod(&atoms[0]);
    let mut first = true;
    let mut put = |out: &mut String, f: &dyn Fn(&mut String, u8) -> fmt::Result| {
        if first {
            first = false;
            f(out, MUL)
        } else {
            out.push_str(" * ");
            f(out, ATOM)
        }
    };
    if k != 1 && !coef_last {
        put(out, &|o, _| write!(o, "{k}"))?;
    }
    for a in atoms {
        put(out, &|o, p| write_nat(o, a, p, c))?;
    }
    if coef_last {
        put(out, &|o, _| write!(o, "{k}"))?;
    }
    Ok(())
}

/// Write `n`, parenthesised if its precedence is below `min`.
fn write_nat(out: &mut String, n: &Nat, min: u8, c: bool) -> fmt::Result {
    let paren = prec(n) < min;
    if paren {
        out.push('(');
    }
    write_raw(out, n, c)?;
    if paren {
        out.push(')');
    }
    Ok(())
}

fn write_raw(out: &mut String, n: &Nat, c: bool) -> fmt::Result {
    match n {
        Nat::Cst(c) => write!(out, "{c}"),
        Nat::Var(v) if c && v.kind == super::VarKind::Size => {
            out.write_str(&crate::cnames::c_name(&v.name))
        }
        Nat::Var(v) => out.write_str(&v.name),
        Nat::Sum(ts) if ts.is_empty() => out.write_str("0"),
        Nat::Sum(ts) => {
            for (i, t) in print_order(ts).into_iter().enumerate() {
                let (negative, k, atoms) = term_parts(t);
                match (i, negative) {
                    (0, true) => out.push('-'),
                    (0, false) => {}
                    (_, true) => out.push_str(" - "),
                    (_, false) => out.push_str(" + "),
                }
                write_mag(out, k, atoms, c)?;
            }
            Ok(())
        }
        Nat::Prod(_) => {
            let (negative, k, atoms) = term_parts(n);
            if negative {
                out.push('-');
            }
            write_mag(out, k, atoms, c)
        }
        Nat::Div(a, b) | Nat::Mod(a, b) => {
            write_nat(out, a, MUL, c)?;
            out.push_str(if matches!(n, Nat::Div(..)) {
                " / "
            } else {
                " % "
            });
            write_nat(out, b, ATOM, c)
        }
        Nat::Pow(b, e) => {
            if b.as_cst() == Some(2) {
                out.push_str("(1 << ");
                write_nat(out, e, MUL, c)?;
                out.push(')');
                Ok(())
            } else {
                out.push_str("pow(");
                write_nat(out, b, ADD, c)?;
                out.push_str(", ");
                write_nat(out, e, ADD, c)?;
                out.push(')');
                Ok(())
            }
        }
        Nat::Min(a, b) | Nat::Max(a, b) => {
            out.push_str(match (matches!(n, Nat::Min(..)), c) {
                (true, false) => "min(",
                (false, false) => "max(",
                (true, true) => "lift_min(",
                (false, true) => "lift_max(",
            });
            write_nat(out, a, ADD, c)?;
            out.push_str(", ");
            write_nat(out, b, ADD, c)?;
            out.push(')');
            Ok(())
        }
        Nat::Ite(cond, a, b) => {
            out.push('(');
            write_nat(out, &cond.lhs, ADD, c)?;
            write!(out, " {} ", cond.op.symbol())?;
            write_nat(out, &cond.rhs, ADD, c)?;
            out.push_str(" ? ");
            write_nat(out, a, ADD, c)?;
            out.push_str(" : ");
            write_nat(out, b, ADD, c)?;
            out.push(')');
            Ok(())
        }
    }
}

impl Display for Nat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_raw(&mut s, self, false)?;
        f.write_str(&s)
    }
}

/// A size expression printed as OpenCL C index arithmetic: as [`Nat`]'s `Display`, except
/// that `min`/`max` become `lift_min`/`lift_max`, which take `lift_idx` operands (the
/// builtins are ambiguous on a `long` and an `int` literal).
pub struct CNat<'a>(pub &'a Nat);

impl Display for CNat<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_raw(&mut s, self.0, true)?;
        f.write_str(&s)
    }
}

impl Nat {
    /// This expression as OpenCL C index arithmetic ([`CNat`]).
    pub fn c(&self) -> CNat<'_> {
        CNat(self)
    }
}

impl Display for super::Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// Operations in the printed form of the magnitude of a term.
fn mag_ops(k: u64, atoms: &[Nat]) -> usize {
    let factors = atoms.len() + usize::from(k != 1 && !atoms.is_empty());
    factors.saturating_sub(1) + atoms.iter().map(op_count).sum::<usize>()
}

/// Count of arithmetic operations in the printed form (unary minus counts).
pub(crate) fn op_count(n: &Nat) -> usize {
    match n {
        Nat::Cst(c) => usize::from(*c < 0),
        Nat::Var(_) => 0,
        Nat::Sum(ts) => {
            let order = print_order(ts);
            let first_negative = order.first().is_some_and(|t| term_parts(t).0);
            let ops: usize = order
                .iter()
                .map(|t| {
                    let (_, k, atoms) = term_parts(t);
                    mag_ops(k, atoms)
                })
                .sum();
            ts.len().saturating_sub(1) + ops + usize::from(first_negative)
        }
        Nat::Prod(_) => {
            let (negative, k, atoms) = term_parts(n);
            usize::from(negative) + mag_ops(k, atoms)
        }
        Nat::Div(a, b) | Nat::Mod(a, b) | Nat::Pow(a, b) | Nat::Min(a, b) | Nat::Max(a, b) => {
            1 + op_count(a) + op_count(b)
        }
        Nat::Ite(c, a, b) => 1 + op_count(&c.lhs) + op_count(&c.rhs) + op_count(a) + op_count(b),
    }
}
