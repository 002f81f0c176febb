//! Questions from outside the base's field (`data/eval/out_of_field_*.jsonl`): databases,
//! networks, operating systems, system design, classical machine learning..., a quarter of them
//! in words the base also uses ("index", "cache", "agent" as a monitoring agent, "A/B test").
//! None is a question of the base, so every entry matched as the same question is a wrong
//! reference: the answer would be judged against it and the plan would name its question. The
//! first file (200, en+zh) is fitting data for `scoring::matching`; the second (120), written
//! apart by another helper, was read by nothing fitted and is the test row.

use serde::Deserialize;

use super::verdicts::{parse, Judge, VerdictRow};
use crate::kb::KbError;

const FIT: &str = include_str!("../../data/eval/out_of_field_fit.jsonl");
const HELD_OUT: &str = include_str!("../../data/eval/out_of_field_heldout.jsonl");

#[derive(Deserialize)]
struct Asked {
    id: String,
    question: String,
}

/// Each question matched as the product matches it (before any answer is heard).
pub(super) fn out_of_field(j: &mut Judge<'_>, rows: &mut [VerdictRow; 2]) -> Result<(), KbError> {
    for (text, name, fitting) in
        [(FIT, "out_of_field_fit.jsonl", true), (HELD_OUT, "out_of_field_heldout.jsonl", false)]
    {
        for q in parse::<Asked>(text, name)? {
            let matched = j.match_only("out-of-field", &q.id, !fitting, &q.question, None)?;
            rows[usize::from(fitting)].out_of_field_matched.add(matched.is_some());
        }
    }
    Ok(())
}
