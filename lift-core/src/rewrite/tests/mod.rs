//! Tests of the rewrite rules and strategies.

mod gen;
mod normal;
mod partial;
mod points;
mod rules;
mod slices;
mod strategy;
pub(crate) mod support;
mod transpose;
mod vectorize;
mod views;
