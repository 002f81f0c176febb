//! Kinds of question the base holds none of (`question_kinds.jsonl`: introductions, logistics,
//! small talk...), and interviewer turns told asking or not (`turns*.jsonl`).

use serde::Deserialize;

use super::verdicts::{parse, VerdictRow};
use crate::kb::KbError;
use crate::lang::Lang;

const KINDS: &str = include_str!("../../data/eval/question_kinds.jsonl");
const TURNS: &str = include_str!("../../data/eval/turns.jsonl");
const TURNS_HOLDOUT: &str = include_str!("../../data/eval/turns_holdout.jsonl");
const TURNS_FIT3: &str = include_str!("../../data/eval/turns_fit3.jsonl");
const TURNS_HOLDOUT2: &str = include_str!("../../data/eval/turns_holdout2.jsonl");
/// A third set written apart (stop 50): halves by a hash of the id, the fitting half's misses read.
const TURNS_HOLDOUT3: &str = include_str!("../../data/eval/turns_holdout3.jsonl");

#[derive(Debug, Clone, Deserialize)]
struct Kind {
    kind: String,
    lang: Lang,
    question: String,
    answer: String,
}

#[derive(Debug, Clone, Deserialize)]
struct TurnRow {
    #[serde(default)]
    id: String,
    lang: Lang,
    text: String,
    is_question: bool,
    kind: String,
}

pub(super) fn kinds_and_turns(rows: &mut [VerdictRow; 2], row: &dyn Fn(&str) -> usize) -> Result<(), KbError> {
    for k in parse::<Kind>(KINDS, "question_kinds.jsonl")? {
        let _ = (&k.answer, k.lang);
        // Motivation ("why us?") has an entry of its own in the base: not a kind apart.
        if k.kind == "motivation" {
            continue;
        }
        rows[row(&k.question)].kinds_recognised.add(crate::scoring::kind::of(&k.question).is_some());
    }
    // The rules were written looking at every row of `turns.jsonl`, then of `turns_holdout.jsonl`
    // (the test until its misses were read) and of `turns_fit3.jsonl` (remarks that end in "?"):
    // all three are the fitting part. `turns_holdout2.jsonl`, written apart and read only by this
    // code, is the test.
    let fit = parse::<TurnRow>(TURNS, "turns.jsonl")?
        .into_iter()
        .chain(parse::<TurnRow>(TURNS_HOLDOUT, "turns_holdout.jsonl")?)
        .chain(parse::<TurnRow>(TURNS_FIT3, "turns_fit3.jsonl")?);
    let held = parse::<TurnRow>(TURNS_HOLDOUT2, "turns_holdout2.jsonl")?.into_iter().map(|t| (0, t));
    let fit = fit.map(|t| (1, t));
    for (part, t) in fit.chain(held) {
        let _ = (t.lang, &t.kind);
        let asks = crate::transcript::asking::asks(&t.text);
        let r = &mut rows[part];
        r.turns_right.add(asks == t.is_question);
        if !t.is_question {
            r.statements_taken_for_questions.add(asks);
        }
    }
    for t in parse::<TurnRow>(TURNS_HOLDOUT3, "turns_holdout3.jsonl")? {
        let asks = crate::transcript::asking::asks(&t.text);
        if asks != t.is_question {
            tracing::debug!("turn {} told {}: {}", t.id, if asks { "asking" } else { "a remark" }, t.text);
        }
        let r = &mut rows[row(&t.id)];
        r.turns3_right.add(asks == t.is_question);
        if !t.is_question {
            r.statements3_taken_for_questions.add(asks);
        }
    }
    Ok(())
}
