//! Tests of the rewrite rules and strategies.

mod gen;
mod rules;
mod strategy;
