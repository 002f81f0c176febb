//! Behavioral questions answered with stories: `data/eval/behavioral.jsonl`, 48 questions (24
//! English, 24 Chinese, written apart) worded as real interviewers word them, each with a story
//! that answers it, a vague answer on its theme, a well-told story that answers another
//! behavioral question, platitudes and a technical explanation, each graded 0-100 by its writer,
//! a helper who read nothing of the project. The wordings `scoring::asks_story` knows were widened
//! on the fitting half's questions (it knew 5 of 24 there, 6 of 24 in the test half; then 22 and
//! 15); its model by meaning was fitted on all of them, so the held-out figure is the one on
//! `story_questions_heldout.jsonl`. A question recognised as asking for a story is
//! scored on the story's structure when the base has no reference for it, so platitudes and a
//! technical explanation no longer score like a story.

use serde::Deserialize;

use super::verdicts::{parse, Judge, VerdictRow};
use crate::kb::KbError;
use crate::lang::Lang;
use crate::scoring::asks_story::asks_story;

const STORIES: &str = include_str!("../../data/eval/behavioral.jsonl");
/// Story and technical questions written apart by helpers who read nothing of the project: the
/// first set fitted `scoring::asks_story`'s model, the second was read by nothing fitted.
const APART_FIT: &str = include_str!("../../data/eval/story_questions_fit.jsonl");
const APART_HELD_OUT: &str = include_str!("../../data/eval/story_questions_heldout.jsonl");
/// Story questions with a story told in many ways (past or present tense, "we", Chinese without
/// its subject, two sentences), an explanation, a hypothetical, a habit and another question's
/// story, written apart after `scoring::narrative` was chosen, and read by nothing fitted.
const ANSWERS_APART: &str = include_str!("../../data/eval/story_answers_apart.jsonl");

#[derive(Deserialize)]
struct Asked {
    label: String,
    question: String,
}

#[derive(Deserialize)]
struct Item {
    #[serde(alias = "id")]
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
        r.story_question_recognised.add(asks_story(j.kb(), &it.question));
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
    answers_apart(j, rows, row)?;
    // The fitting row takes the set the model was fitted on, the test row the held-out one.
    for (text, name, fitting) in
        [(APART_FIT, "story_questions_fit.jsonl", true), (APART_HELD_OUT, "story_questions_heldout.jsonl", false)]
    {
        let r = &mut rows[usize::from(fitting)];
        for q in parse::<Asked>(text, name)? {
            let said = asks_story(j.kb(), &q.question);
            match q.label.as_str() {
                "story" => r.story_questions_apart.add(said),
                _ => r.technical_taken_for_story.add(said),
            }
        }
    }
    Ok(())
}

/// The story answers written apart: does the narrative test leave every story alone, and do the
/// answers that tell none fall well below it?
fn answers_apart(j: &mut Judge<'_>, rows: &mut [VerdictRow; 2], row: &dyn Fn(&str) -> usize) -> Result<(), KbError> {
    for it in parse::<Item>(ANSWERS_APART, "story_answers_apart.jsonl")? {
        let asks = asks_story(j.kb(), &it.question);
        let mut scores = Vec::new();
        for a in &it.answers {
            let (_, c) = j.judge("story-apart", &it.key, &it.question, &a.text, it.lang, None)?;
            scores.push((a.kind.as_str(), c.overall));
        }
        let r = &mut rows[row(&it.key)];
        let Some(&(_, story)) = scores.iter().find(|(k, _)| *k == "story") else { continue };
        if let Some(a) = it.answers.iter().find(|a| a.kind == "story").filter(|_| asks) {
            r.story_apart_untold.add(crate::scoring::narrative::untold(&it.question, &a.text).is_some());
        }
        for &(kind, x) in scores.iter().filter(|(k, _)| *k != "story") {
            r.story_apart_over.add(story >= x + 25);
            if kind == "technical" {
                r.story_apart_technical_caught.add(x < 25);
            }
        }
    }
    Ok(())
}
