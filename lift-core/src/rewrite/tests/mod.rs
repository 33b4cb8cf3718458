//! Tests of the rewrite rules and strategies.

mod gen;
mod points;
mod rules;
mod strategy;
