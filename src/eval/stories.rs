//! Behavioral questions answered with stories: `data/eval/behavioral.jsonl`, 48 questions (24
//! English, 24 Chinese, written apart) worded as real interviewers word them, each with a story
//! that answers it, a vague answer on its theme, a well-told story that answers another
//! behavioral question, platitudes and a technical explanation, each graded 0-100 by its writer,
//! a helper who read nothing of the project. The wordings `scoring::star::is_behavioral_question`
//! knows were widened on the fitting half's questions (it knew 5 of 24 there, 6 of 24 in the test
//! half; now 22 and 15); the test half is reported. A question recognised as asking for a story is
//! scored on the story's structure when the base has no reference for it, so platitudes and a
//! technical explanation no longer score like a story.

use serde::Deserialize;

use super::verdicts::{parse, Judge, VerdictRow};
use crate::kb::KbError;
use crate::lang::Lang;

const STORIES: &str = include_str!("../../data/eval/behavioral.jsonl");

#[derive(Deserialize)]
struct Item {
    key: String,
    lang: Lang,
    question: String,
    answers: Vec<Answer>,
}

#[derive(Deserialize)]
struct Answer {
    kind: String,
    text: String,
}

/// Each question's five answers, judged as the product judges them.
pub(super) fn stories(
    j: &mut Judge<'_>,
    rows: &mut [VerdictRow; 2],
    row: &dyn Fn(&str) -> usize,
) -> Result<(), KbError> {
    for it in parse::<Item>(STORIES, "behavioral.jsonl")? {
        let mut score = |kind: &str| -> Result<Option<u32>, KbError> {
            let Some(a) = it.answers.iter().find(|a| a.kind == kind) else { return Ok(None) };
            let set = match kind {
                "story" => "story",
                "vague" => "story-vague",
                "other-theme" => "story-other-theme",
                "generic" => "story-generic",
                _ => "story-technical",
            };
            Ok(Some(j.judge(set, &it.key, &it.question, &a.text, it.lang, None)?.1.overall))
        };
        let (story, vague, other, generic, technical) =
            (score("story")?, score("vague")?, score("other-theme")?, score("generic")?, score("technical")?);
        let r = &mut rows[row(&it.key)];
        r.story_question_recognised.add(crate::scoring::star::is_behavioral_question(&it.question));
        let Some(story) = story else { continue };
        r.story_off_topic.add(story < 25);
        if let Some(o) = other {
            r.story_over_other_theme.add(story >= o + 25);
        }
        for x in [vague, generic, technical].into_iter().flatten() {
            r.story_over_poorer.add(story > x);
        }
        if let Some(t) = technical {
            r.story_technical_caught.add(t < 25);
        }
    }
    Ok(())
}
