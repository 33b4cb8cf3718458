//! The race checker's instrumentation and analysis (thesis chapter 5's correctness question,
//! answered by running the kernel): a kernel generated under [`traced`] logs every access to
//! local and global memory (work-group, work-item, buffer, element range, read or write) and
//! the number of barriers each work-item has passed (its *epoch*) to an extra buffer argument
//! ([`super::KernelArg::Trace`]); [`races`] then looks for two work-items touching one element
//! with at least one write and nothing ordering them (work-items of one group in the same
//! epoch; work-items of different groups at all, for global memory), and for work-items of a
//! group that passed different numbers of barriers (a barrier not every work-item reaches).
//!
//! Code outside every parallel loop runs on every work-item (replicated: each computes the
//! same values, e.g. a sequential producer in front of a `map_glb`). Its writes are logged as
//! replicated, and two work-items that both wrote an element that way do not race on it: each
//! reads what it wrote itself, and any other writer wrote the same value. (Formally the
//! OpenCL memory model still calls that a race; the explorer's kernel fission avoids it where
//! a program is fissioned.)
//!
//! Coverage: the accesses the view-based generator emits (every candidate's kernels except the
//! local trees of the two-kernel and row reductions, whose few accesses are written by hand).

use super::cl::{CExpr, Stmt};
use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;

thread_local! {
    static OPTIONS: Cell<Options> = const { Cell::new(Options { trace: false, drop_barrier: None }) };
}

/// Instrumentation options of the code generator (for the race checker's tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Log memory accesses and epochs to a trace buffer argument.
    pub trace: bool,
    /// Leave out the barrier of this index (counted per kernel from 0): a seeded bug the
    /// checker must find.
    pub drop_barrier: Option<usize>,
}

/// Runs `f` with the code generator instrumented by `opts` (on this thread).
pub fn traced<T>(opts: Options, f: impl FnOnce() -> T) -> T {
    let saved = OPTIONS.with(|o| o.replace(opts));
    let r = f();
    OPTIONS.with(|o| o.set(saved));
    r
}

/// The options in force.
pub fn options() -> Options {
    OPTIONS.with(Cell::get)
}

/// Ints per trace record: group, work-item, buffer, first element, elements, write, epoch.
pub const RECORD: usize = 7;

/// Buffer id of the record each work-item writes at the end of a kernel (its final epoch).
const END: i32 = -1;

/// The C helper appending one record (the trace's first int counts records).
pub(crate) const HELPER: &str = "void lift_log(global int* t, int cap, int buf, int at, int len, int w, int epoch) {
  int p = atomic_inc(t);
  if (p < cap) {
    global int* r = t + 1 + 7 * p;
    r[0] = get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2));
    r[1] = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
    r[2] = buf; r[3] = at; r[4] = len; r[5] = w; r[6] = epoch;
  }
}
";

/// The call logging an access to element `at` (in scalars) of traced buffer `buf`, `len`
/// scalars long, of kind `kind` (0 read, 1 write, 2 replicated write).
pub(crate) fn log(buf: CExpr, at: CExpr, len: i64, kind: i64) -> CExpr {
    CExpr::call(
        "lift_log",
        vec![
            CExpr::var("lift_trace"),
            CExpr::var("lift_trace_cap"),
            buf,
            at,
            CExpr::Int(len),
            CExpr::Int(kind),
            CExpr::var("lift_epoch"),
        ],
    )
}

/// The statement logging the end of a work-item's kernel.
pub(crate) fn end() -> Stmt {
    Stmt::Expr(log(CExpr::Int(i64::from(END)), CExpr::Int(0), 0, 0))
}

/// Two unordered accesses to one element, or a barrier not every work-item reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Race {
    /// Work-items `a` and `b` (group, local id) access element `at` of `buffer`, at least one
    /// writing, with no barrier between them.
    Access {
        /// The buffer's name in the kernel.
        buffer: String,
        /// The element (in scalars).
        at: i64,
        /// Group and local id of the first access.
        a: (i32, i32),
        /// Group and local id of the second.
        b: (i32, i32),
        /// Whether each writes.
        writes: (bool, bool),
    },
    /// Work-items of `group` ended after different numbers of barriers.
    Barrier {
        /// The group.
        group: i32,
        /// The fewest and most barriers passed.
        epochs: (i32, i32),
    },
}

impl fmt::Display for Race {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Race::Access {
                buffer,
                at,
                a,
                b,
                writes,
            } => {
                let rw = |w: bool| if w { "writes" } else { "reads" };
                write!(
                    f,
                    "work-item {} of group {} {} `{buffer}[{at}]` and work-item {} of group {} {} it with no barrier between",
                    a.1, a.0, rw(writes.0), b.1, b.0, rw(writes.1)
                )
            }
            Race::Barrier { group, epochs } => write!(
                f,
                "work-items of group {group} passed between {} and {} barriers",
                epochs.0, epochs.1
            ),
        }
    }
}

/// The races in a trace (`trace[0]` records follow it) of a kernel whose buffers are named by
/// `buffers` (index = buffer id) and whose local buffers are `local` (per group).
pub fn races(trace: &[i32], buffers: &[String], local: &[bool]) -> Vec<Race> {
    let count = usize::try_from(trace.first().copied().unwrap_or(0)).unwrap_or(0);
    let records = trace
        .get(1..)
        .unwrap_or(&[])
        .chunks_exact(RECORD)
        .take(count);
    // Per element: the first write and the first read by each (group, item, epoch) are enough
    // to find a conflict; keep every distinct accessor of the element.
    type Who = (i32, i32, i32, bool);
    let mut by_elem: HashMap<(i32, i64), Vec<Who>> = HashMap::new();
    // Per element, the work-items that wrote it replicated.
    let mut replicated: HashMap<(i32, i64), Vec<(i32, i32)>> = HashMap::new();
    let mut ends: HashMap<i32, (i32, i32)> = HashMap::new();
    let mut found = Vec::new();
    for r in records {
        let (g, item, buf, at, len, w, epoch) = (r[0], r[1], r[2], r[3], r[4], r[5] != 0, r[6]);
        let rep = r[5] == 2;
        if buf == END {
            let e = ends.entry(g).or_insert((epoch, epoch));
            *e = (e.0.min(epoch), e.1.max(epoch));
            continue;
        }
        let is_local = local.get(buf as usize).copied().unwrap_or(false);
        for x in i64::from(at)..i64::from(at) + i64::from(len.max(1)) {
            if rep {
                replicated.entry((buf, x)).or_default().push((g, item));
            }
            let reps = replicated.get(&(buf, x));
            let both_replicated = |g2: i32, i2: i32| {
                reps.is_some_and(|r| r.contains(&(g, item)) && r.contains(&(g2, i2)))
            };
            let who = by_elem.entry((buf, x)).or_default();
            if who.contains(&(g, item, epoch, w)) {
                continue;
            }
            let conflict = who.iter().find(|&&(g2, i2, e2, w2)| {
                (w || w2)
                    && !both_replicated(g2, i2)
                    && (g2, i2) != (g, item)
                    && if is_local {
                        g2 == g && e2 == epoch
                    } else {
                        g2 != g || e2 == epoch
                    }
            });
            if let Some(&(g2, i2, _, w2)) = conflict {
                if found.len() < 16 {
                    found.push(Race::Access {
                        buffer: buffers.get(buf as usize).cloned().unwrap_or_default(),
                        at: x,
                        a: (g2, i2),
                        b: (g, item),
                        writes: (w2, w),
                    });
                }
            }
            who.push((g, item, epoch, w));
        }
    }
    let mut groups: Vec<_> = ends.into_iter().filter(|(_, (lo, hi))| lo != hi).collect();
    groups.sort();
    found.extend(
        groups
            .into_iter()
            .map(|(group, epochs)| Race::Barrier { group, epochs }),
    );
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(recs: &[[i32; RECORD]]) -> Vec<i32> {
        let mut t = vec![recs.len() as i32];
        t.extend(recs.iter().flatten());
        t
    }

    #[test]
    fn a_write_and_a_read_in_one_epoch_race_in_local_memory() {
        let names = vec!["tile".to_string()];
        let t = trace(&[[0, 0, 0, 5, 1, 1, 0], [0, 1, 0, 5, 1, 0, 0]]);
        assert_eq!(races(&t, &names, &[true]).len(), 1);
        // Separated by a barrier: ordered.
        let t = trace(&[[0, 0, 0, 5, 1, 1, 0], [0, 1, 0, 5, 1, 0, 1]]);
        assert!(races(&t, &names, &[true]).is_empty());
        // Other groups have their own local memory.
        let t = trace(&[[0, 0, 0, 5, 1, 1, 0], [1, 1, 0, 5, 1, 0, 0]]);
        assert!(races(&t, &names, &[true]).is_empty());
    }

    #[test]
    fn global_writes_of_two_groups_always_race() {
        let names = vec!["out".to_string()];
        let t = trace(&[[0, 0, 0, 2, 4, 1, 0], [1, 0, 0, 5, 1, 1, 3]]);
        let r = races(&t, &names, &[false]);
        assert_eq!(r.len(), 1, "{r:?}");
        assert!(r[0].to_string().contains("`out[5]`"), "{}", r[0]);
        // Reads never race with reads.
        let t = trace(&[[0, 0, 0, 5, 1, 0, 0], [1, 0, 0, 5, 1, 0, 0]]);
        assert!(races(&t, &names, &[false]).is_empty());
    }

    #[test]
    fn replicated_writes_of_both_work_items_do_not_race() {
        let names = vec!["tmp".to_string()];
        let t = trace(&[
            [0, 0, 0, 3, 1, 2, 0],
            [0, 1, 0, 3, 1, 2, 0],
            [0, 1, 0, 3, 1, 0, 0],
        ]);
        assert!(races(&t, &names, &[false]).is_empty());
        // A reader that did not write it itself does race.
        let t = trace(&[[0, 0, 0, 3, 1, 2, 0], [0, 1, 0, 3, 1, 0, 0]]);
        assert_eq!(races(&t, &names, &[false]).len(), 1);
    }

    #[test]
    fn unequal_barrier_counts_are_reported() {
        let t = trace(&[[2, 0, END, 0, 0, 0, 3], [2, 1, END, 0, 0, 0, 2]]);
        assert_eq!(
            races(&t, &[], &[]),
            vec![Race::Barrier {
                group: 2,
                epochs: (2, 3)
            }]
        );
    }
}
