//! Local-memory bank conflicts and the row padding that removes them (the storage alignment
//! of TVM and PPCG, applied to every kernel).
//!
//! A pass over a kernel's syntax tree ([`pad_banks`]): every access to a local array is
//! marked in the tree with its index per dimension (a [`Touch`] holding a [`LocalAt`]), read
//! as a [`LocalAccess`]. [`choose_pads`] models each access over the lanes of a warp (the
//! device model's `simd_width`, 32 by default; lanes are `l0` first, then `l1`, as OpenCL
//! numbers work-items): a request costs, per group of lanes served
//! together (32 lanes for 4-byte words, 16 for 8 bytes, 8 for 16), the largest number of
//! distinct words that fall in one of the banks (the model's `local_mem_banks`, 32 by
//! default).
//! A buffer of two or more dimensions whose rows would cost less with a few words of padding
//! (a row stride no longer a multiple of the bank count) gets that padding: its
//! [`LocalArray`] grows and the last extent of every index into it widens, so the data and
//! every index stay as the program says and only the row stride of the buffer changes.
//! Paddings are multiples of the widest vector access to the buffer, so vector accesses stay
//! aligned.

use super::cl::ast::{KernelDef, LocalArray};
use super::cl::{locals, Index, LocalAt, Mark, Stmt, Touch};
use crate::arith::Nat;
use crate::device::DeviceModel;
use std::collections::HashMap;

/// The row paddings tried, in words.
const PADS: [i64; 4] = [1, 2, 4, 8];

/// Pads the rows of the local arrays of `kernel` whose bank conflicts that reduces, for
/// work-groups of `local` work-items per dimension on `device` ([`choose_pads`]): the arrays'
/// lengths and every index into them, in expressions and access marks. Runs before barriers
/// are placed, so that they see the padded indices.
pub(crate) fn pad_banks(kernel: &mut KernelDef, local: &[i64], device: &DeviceModel) {
    let mut accesses = Vec::new();
    super::cl::ast::visit(&kernel.body, &mut |s| {
        if let Stmt::Mark(Mark::Access(Touch {
            at: Index::Local(at),
            words: Some((elem_words, words)),
            ..
        })) = s
        {
            accesses.push(LocalAccess {
                buf: at.buf.clone(),
                at: at.at.clone(),
                elem_words: *elem_words,
                words: *words,
            });
        }
    });
    let mut pads = choose_pads(&accesses, local, device);
    // Only rows of the arrays' values: not the copies of enclosing `map_lcl`s.
    pads.retain(|buf, _| {
        kernel
            .locals
            .iter()
            .any(|a: &LocalArray| a.name == *buf && a.row.is_some())
    });
    if pads.is_empty() {
        return;
    }
    for a in &mut kernel.locals {
        if let (Some(p), Some(row)) = (pads.get(&a.name), a.row) {
            a.len = a.len / row * (row + p);
            a.row = Some(row + p);
        }
    }
    let body = std::mem::take(&mut kernel.body);
    kernel.body = locals::map(body, &mut |mut at: LocalAt| {
        if let (Some(p), Some((_, last))) = (pads.get(&at.buf), at.at.last_mut()) {
            *last = &*last + &Nat::cst(*p);
        }
        Index::Local(at)
    });
}

/// One access to a local buffer, as generated.
#[derive(Clone, Debug)]
pub(crate) struct LocalAccess {
    /// The buffer's C name.
    pub buf: String,
    /// Per dimension, outermost first: the index and the dimension's extent.
    pub at: Vec<(Nat, Nat)>,
    /// Words (4 bytes) per element of the buffer (a `float4` element is 4).
    pub elem_words: i64,
    /// Words (4 bytes) read or written per work-item (a `float4` is 4).
    pub words: i64,
}

/// The row padding (in elements) of each local buffer whose bank conflicts it reduces, for
/// work-groups of `local` work-items per dimension, on `device` (its SIMD width, the lanes of
/// a warp, a sub-group on other devices, and its banks of local memory, each serving one
/// word of 4 bytes per cycle).
pub(crate) fn choose_pads(
    accesses: &[LocalAccess],
    local: &[i64],
    device: &DeviceModel,
) -> HashMap<String, i64> {
    let mut by_buf: HashMap<&str, Vec<&LocalAccess>> = HashMap::new();
    for a in accesses {
        by_buf.entry(&a.buf).or_default().push(a);
    }
    let mut pads = HashMap::new();
    for (buf, accs) in by_buf {
        if accs.iter().any(|a| a.at.len() < 2) {
            continue;
        }
        let widest = accs.iter().map(|a| a.words).max().unwrap_or(1);
        let Some(base) = cost(&accs, 0, local, device) else {
            continue;
        };
        let best = PADS
            .iter()
            .filter(|&&p| p % widest == 0)
            .filter_map(|&p| Some((cost(&accs, p, local, device)?, p)))
            .min();
        if let Some((c, p)) = best {
            if c < base {
                pads.insert(buf.to_string(), p);
            }
        }
    }
    pads
}

/// Wavefronts of all `accs` with the rows padded by `pad` elements (`None`: an index the
/// model cannot evaluate).
fn cost(accs: &[&LocalAccess], pad: i64, local: &[i64], device: &DeviceModel) -> Option<i64> {
    accs.iter().map(|a| wavefronts(a, pad, local, device)).sum()
}

/// Wavefronts of one warp's request for access `a`.
fn wavefronts(a: &LocalAccess, pad: i64, local: &[i64], device: &DeviceModel) -> Option<i64> {
    let (lanes, banks) = (device.simd_width.max(1), device.local_mem_banks.max(1));
    let mut extents: Vec<i64> =
        a.at.iter()
            .map(|(_, n)| n.as_cst())
            .collect::<Option<_>>()?;
    *extents.last_mut()? += pad;
    let words: Vec<i64> = (0..lanes)
        .map(|lane| {
            let ids = lane_ids(lane, local);
            let env = |name: &str| -> Option<i64> {
                Some(
                    match name.strip_prefix('l').and_then(|d| d.parse::<usize>().ok()) {
                        Some(d) => ids.get(d).copied().unwrap_or(0),
                        None => 0,
                    },
                )
            };
            let mut flat = 0i64;
            for ((i, _), n) in a.at.iter().zip(&extents) {
                flat = flat * n + i.eval(&env).ok()?;
            }
            Some(flat * a.elem_words)
        })
        .collect::<Option<_>>()?;
    let group = (lanes / a.words.clamp(1, 4)).max(1) as usize;
    Some(
        words
            .chunks(group)
            .map(|lanes| {
                let mut per_bank: HashMap<i64, Vec<i64>> = HashMap::new();
                for &w0 in lanes {
                    for w in w0..w0 + a.words {
                        let bank = per_bank.entry(w.rem_euclid(banks)).or_default();
                        if !bank.contains(&w) {
                            bank.push(w);
                        }
                    }
                }
                per_bank
                    .values()
                    .map(|ws| ws.len() as i64)
                    .max()
                    .unwrap_or(1)
            })
            .sum(),
    )
}

/// The local ids (`l0`, `l1`, `l2`) of lane `lane` of the first warp.
fn lane_ids(lane: i64, local: &[i64]) -> [i64; 3] {
    let l0 = local.first().copied().unwrap_or(1).max(1);
    let l1 = local.get(1).copied().unwrap_or(1).max(1);
    [lane % l0, (lane / l0) % l1, lane / (l0 * l1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::cl::CScalar;

    fn access(at: Vec<(Nat, i64)>, words: i64) -> LocalAccess {
        LocalAccess {
            buf: "t".into(),
            at: at.into_iter().map(|(i, n)| (i, Nat::cst(n))).collect(),
            elem_words: 1,
            words,
        }
    }

    fn l(d: usize) -> Nat {
        Nat::index_var(&format!("l{d}"), Nat::cst(0), Nat::cst(16))
    }

    #[test]
    fn column_writes_of_a_128_wide_tile_get_padded() {
        // t[l0][l1]: lanes l0 = 0..15 write 16 rows of 128 words, the same bank.
        let writes = access(vec![(l(0), 16), (l(1), 128)], 1);
        // reads along rows by float4: t[k][4 l0]
        let reads = access(vec![(Nat::cst(0), 16), (l(0) * 4, 128)], 4);
        let pads = choose_pads(
            &[writes.clone(), reads.clone()],
            &[16, 16],
            &DeviceModel::DEFAULT,
        );
        assert_eq!(pads.get("t"), Some(&4));
        let before = cost(&[&writes, &reads], 0, &[16, 16], &DeviceModel::DEFAULT).unwrap();
        let after = cost(&[&writes, &reads], 4, &[16, 16], &DeviceModel::DEFAULT).unwrap();
        assert!(after * 3 <= before, "{before} -> {after}");
    }

    /// The pass over the tree: the array and every index into it (in statements and marks)
    /// get the padded row; lowered, the index strides by it.
    #[test]
    fn padding_rewrites_the_array_and_its_indices() {
        use crate::codegen::cl::ast::{KernelDef, LocalArray};
        use crate::codegen::cl::{locals, print, CExpr, Stmt, Touch};
        let at = |at: Vec<(Nat, i64)>| LocalAt {
            buf: "t".into(),
            at: at.into_iter().map(|(i, n)| (i, Nat::cst(n))).collect(),
            lane: None,
        };
        let mark = |id, a: &LocalAt, words| {
            Stmt::Mark(Mark::Access(Touch {
                id,
                at: Index::Local(a.clone()),
                words: Some((1, words)),
            }))
        };
        let (write, read) = (
            at(vec![(l(0), 16), (l(1), 128)]),
            at(vec![(Nat::cst(0), 16), (l(0) * 4, 128)]),
        );
        let mut k = KernelDef {
            name: "k".into(),
            local_size: None,
            params: Vec::new(),
            sizes: Vec::new(),
            locals: vec![LocalArray {
                ty: CScalar::Float.into(),
                name: "t".into(),
                len: 16 * 128,
                elem_bytes: 4,
                row: Some(128),
            }],
            align_locals: false,
            body: vec![
                mark(0, &write, 1),
                Stmt::Assign {
                    place: CExpr::var("t").index(CExpr::Local(write)),
                    value: CExpr::Int(0),
                },
                mark(1, &read, 4),
            ],
        };
        pad_banks(&mut k, &[16, 16], &DeviceModel::DEFAULT);
        assert_eq!((k.locals[0].len, k.locals[0].row), (16 * 132, Some(132)));
        let Stmt::Mark(Mark::Access(Touch {
            at: Index::Local(marked),
            ..
        })) = &k.body[0]
        else {
            panic!("{:?}", k.body[0]);
        };
        assert_eq!(marked.at[1].1, Nat::cst(132));
        let body = locals::lower(k.body, &crate::arith::Facts::default());
        let mut out = String::new();
        print::stmts(&body, 0, &mut out);
        assert_eq!(out, "t[132 * l0 + l1] = 0;\n");
    }

    #[test]
    fn conflict_free_rows_stay_as_they_are() {
        let row = access(vec![(l(1), 16), (l(0), 128)], 1);
        assert!(choose_pads(&[row], &[16, 16], &DeviceModel::DEFAULT).is_empty());
    }

    #[test]
    fn broadcasts_cost_one_wavefront() {
        let same = access(vec![(Nat::cst(3), 16), (Nat::cst(5), 128)], 1);
        assert_eq!(
            wavefronts(&same, 0, &[16, 16], &DeviceModel::DEFAULT),
            Some(1)
        );
    }
}
