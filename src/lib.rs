//! Interview Doctor: offline-first diagnosis of job interviews.
//!
//! Data flows one way: [`cli`] -> [`agent`] -> [`skills`] -> [`tools`] -> domain modules ([`transcript`],
//! [`llm`], ...).
//! A domain module never imports tools, skills or the CLI.

pub mod agent;
pub mod audio;
pub mod audit;
pub mod bench;
pub mod cli;
pub mod config;
pub mod digest;
pub mod eval;
pub mod kb;
pub mod lang;
pub mod llm;
pub mod models;
pub mod report;
pub mod scoring;
pub mod skills;
pub mod store;
pub mod tools;
pub mod transcript;
pub mod web;
