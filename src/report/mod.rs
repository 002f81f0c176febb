//! The report: its model (the JSON contract), the deterministic aggregation of per-question
//! results, and rendering to Markdown, self-contained HTML and JSON.

pub mod build;
pub mod charts;
pub mod history;
pub mod index;
pub mod model;
pub mod render;

pub use model::Report;
pub use render::{render, ReportFormat};
