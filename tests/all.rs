//! Integration tests: one binary (see tests/common for helpers).

mod common;
mod diagnose;
mod kb;
mod robustness;
mod split;
mod tools;
