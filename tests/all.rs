//! Integration tests: one binary (see tests/common for helpers).

mod common;
mod robustness;
mod split;
mod tools;
