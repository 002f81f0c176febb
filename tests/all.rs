//! Integration tests: one binary (see tests/common for helpers).

mod common;
mod diagnose;
mod kb;
mod robustness;
mod semantic;
mod split;
mod tools;
