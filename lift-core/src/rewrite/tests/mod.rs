//! Tests of the rewrite rules and strategies.

mod gen;
mod normal;
mod partial;
mod points;
mod rules;
mod strategy;
mod transpose;
mod views;
