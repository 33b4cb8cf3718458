//! Every rewrite rule of the language as a value, parameterised ones at a few small
//! parameters: what the fuzzer's `rules` target applies at random places of random programs,
//! checking each result against the interpreter. The blocked product's rules (which take a
//! whole [`crate::rewrite::blocking::Blocking`]) are left to their own property tests.

use super::{
    algorithmic, filter, interchange, iterate, lowering, partial, reduction, reorder, simplify,
    slices, stencil, transpose, vectorize, views, Rule,
};
use crate::arith::Nat;
use crate::ir::Reorder;
use proc_macro2::Span;

/// Every rule that applies to programs of the language (the blocked product's aside), in a
/// fixed order.
pub fn catalogue() -> Vec<Rule> {
    let n = Nat::cst;
    let mut rules = vec![
        algorithmic::split_join(n(2)),
        algorithmic::split_join(n(4)),
        algorithmic::map_fusion(),
        algorithmic::map_fission(),
        algorithmic::map_reduce_fusion(),
        algorithmic::map_join_reorder(),
        algorithmic::apply_to_compose(),
        algorithmic::map_id_intro(),
        filter::reduce_filter(),
        filter::filter_fusion(),
        filter::apply_filter(),
        stencil::map_seq_slide(),
        stencil::overlapped_tiling(n(2)),
        stencil::overlapped_tiling(n(4)),
        stencil::overlapped_tiling_2d(n(2), n(4)),
        stencil::slide2_expand(),
        interchange::map_interchange(),
        interchange::transpose_intro(),
        interchange::reduce_interchange(),
        reduction::partial_reduce(n(2)),
        reduction::partial_reduce(n(4)),
        reduction::reduce_reorder(Reorder::Reverse),
        reduction::reduce_reorder(Reorder::Stride(n(2), Span::call_site())),
        iterate::iterate_split(n(1)),
        iterate::iterate_fusion(),
        iterate::iterate_unfold(),
        reorder::reorder_map(Reorder::Reverse),
        reorder::map_reorder_commute(),
        partial::split_shared(2, 2),
        transpose::tile_transpose(4, false),
        transpose::tile_transpose(4, true),
        transpose::stage_tiles(4, 2),
        vectorize::vectorize_map(2),
        vectorize::vectorize_map(4),
        views::product_of_views(),
        views::materialise_windows(),
        views::materialise_input(),
        lowering::lower_map(lowering::MapLevel::Glb(0)),
        lowering::lower_map(lowering::MapLevel::Wrg(0)),
        lowering::lower_map(lowering::MapLevel::Lcl(0)),
        lowering::lower_map(lowering::MapLevel::Seq),
        lowering::lower_reduce(),
        lowering::unroll(),
        lowering::to_address_space(lowering::AddressSpace::Global),
        lowering::to_address_space(lowering::AddressSpace::Local),
        lowering::to_address_space(lowering::AddressSpace::Private),
    ];
    rules.extend(simplify::simplification_rules());
    rules.extend(slices::rules());
    rules
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_catalogue_names_each_rule_once_per_parameter() {
        let rules = super::catalogue();
        assert!(rules.len() > 50, "{}", rules.len());
        assert!(rules.iter().all(|r| !r.doc.is_empty()));
    }
}
