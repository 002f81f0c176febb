//! Interview answers graded apart: `data/eval/interview_graded_{en,zh}.jsonl`, 60 questions of an
//! AI application engineer's interview (30 English, 30 Chinese, written apart by two helpers who
//! read nothing of the project), each with six spoken answers and their writer's grade: excellent,
//! short but correct, partial, vague (fluent and on-topic, nothing checkable), a confident
//! misconception and an answer to a neighbouring question. The weak ones are as long and as full of
//! the field's words as the sound ones. Most of the questions are not in the base, so they test
//! what the product says with no reference; the no-reference grade model's vague-talk weight was
//! fitted on the fitting half (`scoring::unreferenced`), the test half is reported.

use serde::Deserialize;

use super::blind::{SOUND_FROM, WRONG_UP_TO};
use super::verdicts::{parse, Judge, VerdictRow};
use crate::kb::KbError;
use crate::lang::Lang;

const EN: &str = include_str!("../../data/eval/interview_graded_en.jsonl");
const ZH: &str = include_str!("../../data/eval/interview_graded_zh.jsonl");

#[derive(Deserialize)]
struct Item {
    qid: String,
    lang: Lang,
    question: String,
    answer: String,
    grade100: f64,
    kind: String,
}

/// Each answer judged as the product judges it, against its writer's grade.
pub(super) fn graded_apart(
    j: &mut Judge<'_>,
    rows: &mut [VerdictRow; 2],
    row: &dyn Fn(&str) -> usize,
) -> Result<(), KbError> {
    let mut items = parse::<Item>(EN, "interview_graded_en.jsonl")?;
    items.extend(parse::<Item>(ZH, "interview_graded_zh.jsonl")?);
    let mut by_question: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for it in &items {
        let (chosen, c) = j.judge("interview-graded", &it.qid, &it.question, &it.answer, it.lang, None)?;
        let ours = f64::from(c.overall);
        let r = &mut rows[row(&it.qid)];
        r.apart_grades.push([it.grade100, ours]);
        r.apart_unreferenced.add(chosen.is_none());
        if it.kind == "vague" {
            r.apart_vague_high.add(ours >= 50.0);
        }
        if it.grade100 >= SOUND_FROM {
            r.apart_sound_squashed.add(ours < 25.0);
            r.apart_sound_low.add(ours < 50.0);
        }
        if it.grade100 <= WRONG_UP_TO {
            r.apart_wrong_high.add(ours >= 50.0);
        }
        match by_question.iter_mut().find(|(q, _)| *q == it.qid) {
            Some((_, v)) => v.push((it.grade100, ours)),
            None => by_question.push((it.qid.clone(), vec![(it.grade100, ours)])),
        }
    }
    // Within a question: each sound answer above each wrong one.
    for (qid, answers) in &by_question {
        let r = &mut rows[row(qid)];
        for (_, ours) in answers.iter().filter(|(g, _)| *g >= SOUND_FROM) {
            for (_, theirs) in answers.iter().filter(|(h, _)| *h <= WRONG_UP_TO) {
                r.apart_sound_over_wrong.add(ours > theirs);
            }
        }
    }
    Ok(())
}
