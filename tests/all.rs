//! Integration tests: one binary (see tests/common for helpers).

mod agent;
mod architecture;
mod audio;
mod bank;
mod batch;
mod campplus;
mod common;
mod diagnose;
mod documents;
mod history;
mod kb;
mod llm;
mod mock;
mod robustness;
mod roles;
mod runtime;
mod semantic;
mod serve;
mod serve_mock;
mod split;
mod tools;
mod verdicts;
mod voices;
