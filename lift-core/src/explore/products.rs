//! Matrix products in disguise: a convolution over `slide2` windows is a product of two
//! matrices that are views ([`crate::rewrite::views::product_of_views`]). [`as_product`]
//! spells a kernel's body as that product, so that the blocked strategy
//! ([`crate::rewrite::blocking`]) matches it, and keeps the splits that give the body's shape
//! back.

use crate::ir::{Expr, ExprKind, Program};
use crate::prim::Prim;
use crate::rewrite::build::{self, compose};
use crate::rewrite::views::product_of_views;
use crate::rewrite::RewriteCtx;
use crate::typeck::check_program;

/// A body spelled as a matrix product: the product (typed) and the splits that give the
/// body's shape back (outermost first).
pub struct Product {
    /// `map(|r| map(|c| D) $ C) $ A`, typed.
    pub product: Expr,
    splits: Vec<Expr>,
}

impl Product {
    /// `e` (a rewrite of [`Product::product`]) in the shape of the original body.
    pub fn wrap(&self, e: Expr) -> Expr {
        if self.splits.is_empty() {
            return e;
        }
        let s = e.span;
        build::apply1(compose(self.splits.clone(), s), e, s)
    }
}

/// Kernel `kernel`'s body as a matrix product ([`product_of_views`]), type-checked in `prog`;
/// `None` when it is no such nest or is a plain product already.
pub fn as_product(prog: &Program, kernel: &str) -> Option<Product> {
    let body = &prog.kernel(kernel)?.body;
    let new = product_of_views().apply(body, &RewriteCtx::default())?;
    let mut p = prog.clone();
    p.kernels.iter_mut().find(|k| k.name == kernel)?.body = new;
    check_program(&mut p).ok()?;
    let body = &p.kernel(kernel)?.body;
    if let ExprKind::Apply(f, xs) = &body.kind {
        let splits = build::chain(f);
        if let ([x], true) = (
            xs.as_slice(),
            splits.iter().all(|g| g.prim_nats(Prim::Split).is_some()),
        ) {
            return Some(Product {
                product: x.clone(),
                splits: splits.iter().map(build::untyped).collect(),
            });
        }
    }
    Some(Product {
        product: body.clone(),
        splits: Vec::new(),
    })
}
