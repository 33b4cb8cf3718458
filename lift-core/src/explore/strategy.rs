//! The strategies of the explorer as data: which strategy derived a candidate, with its
//! configuration typed (a [`Blocking`], a [`Tree`], the codes of a mapping, the
//! stages of a fission). The explorer, the driver and the code generation options read these
//! values; names (`strategy(p=v, ...)`, [`Strategy::name`], [`Strategy::params`]) are made
//! from them for display (`lift emit --candidates`, `LIFT_DUMP`) and for the runtime's caches,
//! and nothing decodes a name back.
//!
//! Not to be confused with [`crate::rewrite::strategy::Strategy`], the combinators that
//! apply rewrite rules: an explorer strategy is a whole derivation, usually such a
//! combination of rules with a configuration.

use super::mapping::Code;
use crate::codegen::Options;
use crate::device::DeviceModel;
use crate::rewrite::blocking::{Blocking, Edge};
use crate::rewrite::transpose::TileCopy;

/// A strategy of the explorer with its configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The blocked matrix product, `blocked` ([`crate::rewrite::blocking`]).
    Blocked(Blocking),
    /// Strip mining of a stencil, `strips` ([`super::strips`]).
    Strips(Strip),
    /// Sliding strips of a stencil, `slides` ([`super::slides`]).
    Slides(Strip),
    /// A layout change staged through local memory in tiles, `tiles` ([`super::tiles`]).
    Tiles(TileCopy),
    /// A vectorised element-wise map, `vector` ([`super::vectors`]).
    Vector(VectorMap),
    /// A reduction derived as a low-level program, `tree` ([`super::reductions`]).
    Tree(Tree),
    /// Kernel fission, `stages` ([`super::stages`], [`super::lets`]).
    Stages(Stages),
    /// The default mapping, `map` ([`super::lower`]).
    Map,
    /// Another solution of the mapping problem, `mapping` ([`super::parallel`]).
    Mapping(Mapping),
}

/// The configuration of a derived reduction ([`super::reductions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tree {
    /// A full reduction in two stage kernels, reading vectors of `v`.
    Full {
        /// The vector width of the reads.
        v: i64,
    },
    /// Row reductions, one work-group of `wg` work-items per `rows` rows (each row folded by
    /// `wg / rows` of them).
    Rows {
        /// Rows per group.
        rows: i64,
        /// Work-items per group.
        wg: i64,
    },
    /// A stage kernel of a derived full reduction.
    Stage,
}

/// The configuration of a vectorised element-wise map ([`super::vectors`]): vectors of `w`
/// lanes, `per_item` of them per work-item, and whether the data is padded (the last
/// vectors read clamped and written lane by lane: every length) or `w per_item` must divide
/// the length (a launch-time condition).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VectorMap {
    /// Lanes per vector (from [`DeviceModel::preferred_vector_width_f32`] and the element's
    /// size).
    pub w: i64,
    /// Vectors per work-item (coarsening), `n / per_item` vectors apart.
    pub per_item: i64,
    /// Whether the length need not be a multiple of `w per_item` (a scalar tail).
    pub tail: bool,
}

/// The configuration of strip mining and of sliding strips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strip {
    /// Rows per strip.
    pub s: i64,
    /// Whether the rows are padded (with `take`) up to a multiple of `s`, for any size.
    pub pad: bool,
}

/// The configuration of a solution of the mapping problem.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mapping {
    /// The code of each map, in pre-order.
    pub codes: Vec<Code>,
    /// The work-group size of its `map_lcl`s over size variables ([`Options::lanes`]), if it
    /// has any.
    pub lanes: Option<i64>,
}

/// The configuration of a fissioned kernel: its stages, how it was reached, and the stages
/// that carry a configuration of their own (the variants offered to the tuner).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stages {
    /// The kernels it runs.
    pub kernels: usize,
    /// The fissions at a value that it nests, outermost first ([`super::lets`],
    /// [`super::materialise`]).
    pub nested: Vec<Nest>,
    /// The slices of the shared dimension, for partial products (split-K).
    pub split: Option<i64>,
    /// The stages run with another candidate than their default: the stage and the index of
    /// its candidate among the stage's own.
    pub variants: Vec<(usize, usize)>,
    /// The stages whose strategy shows in the name, with that strategy (never `Stages`).
    pub tuned: Vec<(usize, Strategy)>,
}

/// A fission at a value that runs as a kernel of its own, its result read by the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Nest {
    /// A `let` of a computed array ([`super::lets`]), `fission=1`.
    Let,
    /// The windows of a product over windows copied to rows, im2col
    /// ([`super::materialise`]), `materialise=1`.
    Im2col,
    /// The padded input below the windows copied ([`super::materialise`]), `materialise=2`.
    PaddedInput,
}

impl Nest {
    /// The parameter that marks it in a name.
    fn param(self) -> (&'static str, i64) {
        match self {
            Nest::Let => ("fission", 1),
            Nest::Im2col => ("materialise", 1),
            Nest::PaddedInput => ("materialise", 2),
        }
    }
}

impl Stages {
    /// The stages of a fission at a value: the value's kernel first, then those of `rest`, the
    /// rest's candidate (the stages of its own fission, renumbered one on), marked `nest`.
    pub fn after_value(nest: Nest, rest: &Strategy) -> Stages {
        let Strategy::Stages(s) = rest else {
            return Stages {
                kernels: 2,
                nested: vec![nest],
                split: None,
                variants: Vec::new(),
                tuned: vec![(1, rest.clone())],
            };
        };
        Stages {
            kernels: s.kernels + 1,
            nested: std::iter::once(nest)
                .chain(s.nested.iter().copied())
                .collect(),
            split: s.split,
            variants: s.variants.iter().map(|&(i, j)| (i + 1, j)).collect(),
            tuned: (s.tuned.iter().cloned()).map(|(i, t)| (i + 1, t)).collect(),
        }
    }
}

impl Strategy {
    /// Its name without parameters: `blocked`, `strips`, `slides`, `tiles`, `vector`,
    /// `tree`, `stages`, `map`, `mapping`.
    pub fn kind(&self) -> &'static str {
        match self {
            Strategy::Blocked(_) => "blocked",
            Strategy::Strips(_) => "strips",
            Strategy::Slides(_) => "slides",
            Strategy::Tiles(_) => "tiles",
            Strategy::Vector(_) => "vector",
            Strategy::Tree(_) => "tree",
            Strategy::Stages(_) => "stages",
            Strategy::Map => "map",
            Strategy::Mapping(_) => "mapping",
        }
    }

    /// `kind(p=v, ...)`, or `kind` without parameters.
    pub fn name(&self) -> String {
        let ps: Vec<String> = (self.params().iter())
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        if ps.is_empty() {
            self.kind().to_string()
        } else {
            format!("{}({})", self.kind(), ps.join(","))
        }
    }

    /// Its configuration as named parameters, for display and the runtime's caches.
    pub fn params(&self) -> Vec<(String, i64)> {
        let named = |ps: &[(&str, i64)]| ps.iter().map(|&(n, v)| (n.to_string(), v)).collect();
        match self {
            Strategy::Blocked(b) => b.params(),
            Strategy::Strips(s) | Strategy::Slides(s) => {
                named(&[("s", s.s), ("pad", s.pad.into())])
            }
            Strategy::Tiles(c) => named(&[("t", c.t), ("r", c.rows), ("pad", c.pad.into())]),
            Strategy::Vector(v) => named(&[("w", v.w), ("k", v.per_item), ("tail", v.tail.into())]),
            Strategy::Map | Strategy::Tree(Tree::Stage) => Vec::new(),
            Strategy::Tree(Tree::Full { v }) => named(&[("v", *v)]),
            Strategy::Tree(Tree::Rows { rows, wg }) => named(&[("rows", *rows), ("wg", *wg)]),
            Strategy::Mapping(m) => {
                let codes = m.codes.iter().enumerate();
                let mut ps: Vec<(String, i64)> = codes
                    .map(|(i, c)| (format!("m{i}"), i64::from(c.enc())))
                    .collect();
                ps.extend(m.lanes.map(|n| ("lanes".to_string(), n)));
                ps
            }
            Strategy::Stages(s) => s.params(),
        }
    }

    /// The blocking of a blocked candidate, or of the first stage of a fission that is one.
    pub fn blocking(&self) -> Option<&Blocking> {
        match self {
            Strategy::Blocked(b) => Some(b),
            Strategy::Stages(s) => s.tuned.iter().find_map(|(_, t)| t.blocking()),
            _ => None,
        }
    }

    /// Whether it is a blocked product whose blocks are cut with `edge`.
    pub fn is_blocked_with(&self, edge: Edge) -> bool {
        matches!(self, Strategy::Blocked(b) if b.edge == edge)
    }

    /// The code generation options of a candidate of this strategy on `device`.
    pub fn options(&self, device: &DeviceModel) -> Options {
        let mut o = Options {
            device: *device,
            ..Options::default()
        };
        if let Strategy::Mapping(Mapping { lanes: Some(n), .. }) = self {
            o.lanes = *n;
        }
        o
    }
}

impl Stages {
    /// `kernels=k`, the nested fissions, `split=s`, `s{i}=j` per variant, then each tuned
    /// stage's parameters prefixed by `s{i}.`.
    fn params(&self) -> Vec<(String, i64)> {
        let mut ps = vec![("kernels".to_string(), self.kernels as i64)];
        ps.extend(self.nested.iter().map(|n| {
            let (name, v) = n.param();
            (name.to_string(), v)
        }));
        ps.extend(self.split.map(|s| ("split".to_string(), s)));
        ps.extend(
            self.variants
                .iter()
                .map(|(i, j)| (format!("s{i}"), *j as i64)),
        );
        for (i, t) in &self.tuned {
            ps.extend(
                t.params()
                    .into_iter()
                    .map(|(n, v)| (format!("s{i}.{n}"), v)),
            );
        }
        ps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocking() -> Blocking {
        Blocking {
            tm: 64,
            tn: 32,
            tk: 8,
            l0: 8,
            l1: 16,
            v: 4,
            edge: Edge::Cover,
            pad_k: true,
            unroll: true,
        }
    }

    /// Names as the explorer printed them when parameters were strings: a fission at a value
    /// renumbers the stages of the rest's candidate one on, after its own marks.
    #[test]
    fn names_of_typed_strategies() {
        let rest = Strategy::Stages(Stages {
            kernels: 2,
            nested: Vec::new(),
            split: Some(4),
            variants: vec![(0, 3)],
            tuned: vec![(0, Strategy::Blocked(blocking()))],
        });
        let nested = Strategy::Stages(Stages::after_value(Nest::Im2col, &rest));
        assert_eq!(
            nested.name(),
            "stages(kernels=3,materialise=1,split=4,s1=3,s1.tm=64,s1.tn=32,s1.tk=8,s1.l0=8,\
             s1.l1=16,s1.v=4,s1.u=1,s1.pad=4)"
        );
        assert_eq!(nested.blocking(), Some(&blocking()));
        let map = Strategy::Stages(Stages::after_value(Nest::Let, &Strategy::Map));
        assert_eq!(map.name(), "stages(kernels=2,fission=1)");
        let codes = vec![Code::Glb(0), Code::Lcl(0)];
        let m = Strategy::Mapping(Mapping {
            codes,
            lanes: Some(256),
        });
        assert_eq!(m.name(), "mapping(m0=30,m1=10,lanes=256)");
        assert_eq!(m.options(&DeviceModel::DEFAULT).lanes, 256);
        let tree = Strategy::Tree(Tree::Rows { rows: 1, wg: 256 });
        assert_eq!(tree.name(), "tree(rows=1,wg=256)");
        assert_eq!(Strategy::Tree(Tree::Full { v: 4 }).name(), "tree(v=4)");
        let strip = Strip { s: 8, pad: true };
        assert_eq!(Strategy::Slides(strip).name(), "slides(s=8,pad=1)");
        let tiles = TileCopy {
            t: 32,
            rows: 8,
            pad: true,
        };
        assert_eq!(Strategy::Tiles(tiles).name(), "tiles(t=32,r=8,pad=1)");
        let v = VectorMap {
            w: 4,
            per_item: 2,
            tail: true,
        };
        assert_eq!(Strategy::Vector(v).name(), "vector(w=4,k=2,tail=1)");
    }
}
