//! Every primitive of SPEC section 2, declared once in [`PRIMS`] with its typing rule.

use crate::typeck::rules::{self, Rule};

/// A primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Prim {
    Map,
    Reduce,
    Zip,
    Unzip,
    Split,
    Join,
    Take,
    Slide,
    Pad,
    Transpose,
    Gather,
    Scatter,
    Get,
    At,
    Id,
    Iterate,
    Map2,
    Map3,
    Zip2,
    Zip3,
    Slide2,
    Pad2,
    Slide3,
    Pad3,
    MapGlb,
    MapWrg,
    MapLcl,
    MapSeq,
    MapSeqUnroll,
    ReduceSeq,
    ReduceSeqUnroll,
    ToGlobal,
    ToLocal,
    ToPrivate,
    AsVector,
    AsScalar,
    Vectorize,
    Head,
    Tail,
    Untile2,
    ScanSeq,
    TransposeW,
    ReduceWhileSeq,
    MapSeqSlide,
    Generate,
    Generate2,
    Iota,
    Filter,
    FilterSeq,
    SplitCover,
    JoinCover,
}

/// High-level (algorithmic) or low-level (OpenCL-specific).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Algorithmic; the compiler chooses how to run it.
    High,
    /// Fixes how the work is done on the device.
    Low,
}

/// The kind of one static argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A function.
    Fun,
    /// A size expression (`split(N / 4)`).
    Nat,
    /// A dimension `0`, `1` or `2`.
    Dim,
    /// A scalar value expression.
    Value,
    /// A pad boundary (`clamp`, `mirror`, `wrap`, `constant(v)`).
    Boundary,
    /// A gather/scatter index function (`reverse`, `stride(s)`).
    Reorder,
}

/// How many data inputs a primitive takes once its static arguments are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// Exactly this many.
    Exactly(usize),
    /// At least this many (`zip`).
    AtLeast(usize),
    /// As many as its function takes, at least this many (`vectorize(w, f)` is `f` over
    /// vectors: a reduction operator of two, `vectorize(4, f)(a, b, c)` of three).
    OfFunction(usize),
}

impl std::fmt::Display for Inputs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Inputs::Exactly(n) => write!(f, "{n}"),
            Inputs::AtLeast(n) => write!(f, "at least {n}"),
            Inputs::OfFunction(_) => write!(f, "as many as its function takes"),
        }
    }
}

/// The declaration of a primitive.
#[derive(Clone, Copy, Debug)]
pub struct PrimDef {
    /// The primitive.
    pub prim: Prim,
    /// Its name in `lift!` source.
    pub name: &'static str,
    /// High- or low-level.
    pub level: Level,
    /// The accepted lists of static arguments (`map_glb(f)` and `map_glb(d, f)`).
    pub signatures: &'static [&'static [ArgKind]],
    /// Data inputs after the static arguments.
    pub inputs: Inputs,
    /// The type, as SPEC writes it.
    pub typing: &'static str,
    /// The typing rule.
    pub rule: Rule,
}

use ArgKind::*;
use Inputs::*;
use Level::*;

macro_rules! prims {
    ($($prim:ident $name:literal $level:ident [$([$($k:ident),*]),*] $inputs:ident($n:literal) $typing:literal $rule:path;)*) => {
        /// The table of all primitives.
        pub const PRIMS: &[PrimDef] = &[$(PrimDef {
            prim: Prim::$prim,
            name: $name,
            level: $level,
            signatures: &[$(&[$($k),*]),*],
            inputs: $inputs($n),
            typing: $typing,
            rule: $rule,
        }),*];
    };
}

prims! {
    Map "map" High [[Fun]] Exactly(1) "[a; n] -> [b; n]" rules::map;
    Reduce "reduce" High [[Fun, Value]] Exactly(1) "[a; n] -> a" rules::reduce;
    Zip "zip" High [[]] AtLeast(2) "[a; n], [b; n] -> [(a, b); n]" rules::zip;
    Unzip "unzip" High [[]] Exactly(1) "[(a, b); n] -> ([a; n], [b; n])" rules::unzip;
    Split "split" High [[Nat]] Exactly(1) "[a; n] -> [[a; m]; n / m]" rules::view;
    Join "join" High [[]] Exactly(1) "[[a; m]; n] -> [a; n * m]" rules::regroup;
    Take "take" High [[Nat]] Exactly(1) "[a; m] -> [a; n], n <= m" rules::view;
    Slide "slide" High [[Nat, Nat]] Exactly(1) "[a; n] -> [[a; size]; (n - size) / step + 1]" rules::slide;
    Pad "pad" High [[Nat, Nat, Boundary]] Exactly(1) "[a; n] -> [a; l + n + r]" rules::pad;
    Transpose "transpose" High [[]] Exactly(1) "[[a; m]; n] -> [[a; n]; m]" rules::regroup;
    Gather "gather" High [[Reorder]] Exactly(1) "[a; n] -> [a; n]" rules::reorder;
    Scatter "scatter" High [[Reorder]] Exactly(1) "[a; n] -> [a; n]" rules::reorder;
    Get "get" High [[Nat]] Exactly(1) "(a0, a1, ...) -> ai" rules::get;
    At "at" High [[Nat]] Exactly(1) "[a; n] -> a" rules::at;
    Id "id" High [[]] Exactly(1) "a -> a" rules::id;
    Iterate "iterate" High [[Nat, Fun]] Exactly(1) "[a; n] -> [a; n']" rules::iterate;
    Map2 "map2" High [[Fun]] Exactly(1) "[[a; m]; n] -> [[b; m]; n]" rules::map_nd;
    Map3 "map3" High [[Fun]] Exactly(1) "[[[a; l]; m]; n] -> [[[b; l]; m]; n]" rules::map_nd;
    Zip2 "zip2" High [[]] AtLeast(2) "[[a; m]; n], [[b; m]; n] -> [[(a, b); m]; n]" rules::zip_nd;
    Zip3 "zip3" High [[]] AtLeast(2) "[[[a; l]; m]; n], ... -> [[[(a, b); l]; m]; n]" rules::zip_nd;
    Slide2 "slide2" High [[Nat, Nat], [Nat, Nat, Nat, Nat]] Exactly(1) "[[a; m]; n] -> [[[[a; sx]; sy]; m']; n']" rules::slide;
    Pad2 "pad2" High [[Nat, Boundary], [Nat, Nat, Nat, Nat, Boundary]] Exactly(1) "[[a; m]; n] -> [[a; l + m + r]; t + n + b]" rules::pad;
    Slide3 "slide3" High [[Nat, Nat], [Nat, Nat, Nat, Nat, Nat, Nat]] Exactly(1) "3-D slide2" rules::slide;
    Pad3 "pad3" High [[Nat, Boundary], [Nat, Nat, Nat, Nat, Nat, Nat, Boundary]] Exactly(1) "3-D pad2" rules::pad;
    MapGlb "map_glb" Low [[Fun], [Dim, Fun]] Exactly(1) "[a; n] -> [b; n]" rules::map;
    MapWrg "map_wrg" Low [[Fun], [Dim, Fun]] Exactly(1) "[a; n] -> [b; n]" rules::map;
    MapLcl "map_lcl" Low [[Fun], [Dim, Fun]] Exactly(1) "[a; n] -> [b; n]" rules::map;
    MapSeq "map_seq" Low [[Fun]] Exactly(1) "[a; n] -> [b; n]" rules::map;
    MapSeqUnroll "map_seq_unroll" Low [[Fun]] Exactly(1) "[a; n] -> [b; n]" rules::map;
    ReduceSeq "reduce_seq" Low [[Fun, Value]] Exactly(1) "[a; n] -> b, f: (b, a) -> b" rules::reduce_seq;
    ReduceSeqUnroll "reduce_seq_unroll" Low [[Fun, Value]] Exactly(1) "[a; n] -> b, f: (b, a) -> b" rules::reduce_seq;
    ToGlobal "to_global" Low [[Fun]] Exactly(1) "f's type" rules::address_space;
    ToLocal "to_local" Low [[Fun]] Exactly(1) "f's type" rules::address_space;
    ToPrivate "to_private" Low [[Fun]] Exactly(1) "f's type" rules::address_space;
    AsVector "as_vector" Low [[Nat]] Exactly(1) "[a; n] -> [aw; n / w]" rules::as_vector;
    AsScalar "as_scalar" Low [[]] Exactly(1) "[aw; n] -> [a; n * w]" rules::as_scalar;
    Vectorize "vectorize" Low [[Nat, Fun]] OfFunction(1) "f: (a, ..) -> b gives (aw, ..) -> bw" rules::vectorize;
    Head "head" High [[]] Exactly(1) "[a; n] -> [a; 1]" rules::view;
    Tail "tail" High [[]] Exactly(1) "[a; n] -> [a; n - 1], n >= 2" rules::view;
    Untile2 "untile2" High [[]] Exactly(1) "[[[[a; tx]; ty]; nx]; ny] -> [[a; nx * tx]; ny * ty]" rules::regroup;
    ScanSeq "scan_seq" High [[Fun, Value]] Exactly(1) "[a; n] -> [b; n], f: (b, a) -> b" rules::scan_seq;
    TransposeW "transpose_w" High [[]] Exactly(1) "[[a; m]; n] -> [[a; n]; m]" rules::regroup;
    ReduceWhileSeq "reduce_while_seq" High [[Fun, Fun, Value]] Exactly(1) "[a; n] -> b, f: (b, a) -> b, p: a -> bool" rules::reduce_while_seq;
    MapSeqSlide "map_seq_slide" Low [[Fun, Nat, Nat]] Exactly(1) "[a; n] -> [b; (n - size) / step + 1], f: [a; size] -> b" rules::map_seq_slide;
    Generate "generate" High [[Nat, Fun]] Exactly(0) "[a; n], f: i32 -> a" rules::generate;
    Generate2 "generate2" High [[Nat, Nat, Fun]] Exactly(0) "[[a; m]; n], f: (i32, i32) -> a" rules::generate;
    Iota "iota" High [[Nat]] Exactly(0) "[i32; n]: 0, 1, ..., n - 1" rules::iota;
    Filter "filter" High [[]] Exactly(2) "[a; n], [i32; m] -> [a; m]: x[ids[i]]" rules::filter;
    FilterSeq "filter_seq" High [[Fun]] Exactly(1) "[a; n] -> [a; <= n], p: a -> bool" rules::filter_seq;
    SplitCover "split_cover" High [[Nat]] Exactly(1) "[a; n] -> [[a; t]; (n + t - 1) / t], t <= n" rules::view;
    JoinCover "join_cover" High [[Nat]] Exactly(1) "[[a; t]; (n + t - 1) / t] -> [a; n], t <= n" rules::join_cover;
}

impl Prim {
    /// The declaration of this primitive.
    pub fn def(self) -> &'static PrimDef {
        // The table lists every variant in declaration order.
        &PRIMS[self as usize]
    }

    /// The name in source.
    pub fn name(self) -> &'static str {
        self.def().name
    }

    /// Looks a primitive up by its source name.
    pub fn from_name(name: &str) -> Option<Prim> {
        PRIMS.iter().find(|d| d.name == name).map(|d| d.prim)
    }

    /// Is this one of the parallel or sequential maps (including `map2`/`map3`)?
    pub fn is_map(self) -> bool {
        matches!(
            self,
            Prim::Map
                | Prim::Map2
                | Prim::Map3
                | Prim::MapGlb
                | Prim::MapWrg
                | Prim::MapLcl
                | Prim::MapSeq
                | Prim::MapSeqUnroll
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_variant() {
        for (i, d) in PRIMS.iter().enumerate() {
            assert_eq!(d.prim as usize, i, "{} out of order", d.name);
            assert_eq!(Prim::from_name(d.name), Some(d.prim));
        }
        assert_eq!(PRIMS.len(), Prim::JoinCover as usize + 1);
    }
}
