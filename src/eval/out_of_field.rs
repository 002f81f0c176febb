//! Questions from outside the base's field (`data/eval/out_of_field_*.jsonl`): databases,
//! networks, operating systems, system design, classical machine learning..., a quarter of them
//! in words the base also uses ("index", "cache", "agent" as a monitoring agent, "A/B test").
//! None is a question of the base, so every entry matched as the same question is a wrong
//! reference: the answer would be judged against it and the plan would name its question.
//! `out_of_field_fit.jsonl` (169) is fitting data for `scoring::field`; of
//! `out_of_field_halves.jsonl` (386, two more writers) and `in_field_halves.jsonl` (300 questions
//! of the field, most of them not in the base), the fitting half was fitted on and the test half
//! is reported.

use serde::Deserialize;

use super::verdicts::{parse, Judge, VerdictRow};
use crate::kb::KbError;

const FIT: &str = include_str!("../../data/eval/out_of_field_fit.jsonl");
const OUTSIDE: &str = include_str!("../../data/eval/out_of_field_halves.jsonl");
const INSIDE: &str = include_str!("../../data/eval/in_field_halves.jsonl");

#[derive(Deserialize)]
struct Asked {
    id: String,
    question: String,
}

/// Each question matched as the product matches it (before any answer is heard), and each
/// question of the field told from outside ones.
pub(super) fn out_of_field(
    j: &mut Judge<'_>,
    rows: &mut [VerdictRow; 2],
    row: &dyn Fn(&str) -> usize,
) -> Result<(), KbError> {
    let fit = parse::<Asked>(FIT, "out_of_field_fit.jsonl")?.into_iter().map(|q| (1, q));
    let halves = parse::<Asked>(OUTSIDE, "out_of_field_halves.jsonl")?.into_iter().map(|q| (row(&q.id), q));
    for (part, q) in fit.chain(halves) {
        let matched = j.match_only("out-of-field", &q.id, part == 0, &q.question, None)?;
        rows[part].out_of_field_matched.add(matched.is_some());
    }
    for q in parse::<Asked>(INSIDE, "in_field_halves.jsonl")? {
        let outside = crate::scoring::field::match_needed(j.kb(), &q.question).is_some();
        rows[row(&q.id)].in_field_put_outside.add(outside);
    }
    Ok(())
}
