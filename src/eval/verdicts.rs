//! Verdicts on questions the base did not phrase and answers it did not write, each judged as
//! `analyze_content` judges them (search, reference choice, rubric). The sets (`data/eval/`) were
//! written without reading the base's answers:
//!
//! - `nearmiss.jsonl`: per entry, a held-apart paraphrase (the same question) and a near miss (the
//!   same topic, another question) with a good and a weak answer to the near miss;
//! - `out_of_base.jsonl`: agent-engineering questions the base has no entry for, each with a good,
//!   a weak and an off-topic answer;
//! - `choice.jsonl`: an entry's question with a right answer and a plausible wrong one (a
//!   misconception, or a sound answer to a neighbouring question);
//! - `choice_short.jsonl`: quiz items as an outside test poses them (a marked option and a
//!   distractor of a phrase or a sentence each), their questions written without the base's list,
//!   so that some are in it and some are not;
//! - `question_kinds.jsonl`: introductions, reading, logistics, small talk, closings, motivation;
//! - `turns.jsonl`, `turns_holdout.jsonl`: interviewer turns that ask, that only remark, and
//!   follow-ups (all fitting); `turns_holdout2.jsonl`: 120 more, written afterwards, the test
//!   (these two kinds of set are judged in `eval::turns`);
//! - `out_of_field_*.jsonl`, `in_field_halves.jsonl`: questions from outside the field and in it,
//!   only matched (`eval::out_of_field`); behavioral questions: `eval::stories`.
//!
//! Rows are split by a hash of their key (`graded::is_test`): constants are chosen on the fitting
//! half; the test half is what is reported.

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use super::graded::is_test;
use crate::kb::search::KbSearch;
use crate::kb::KbError;
use crate::lang::Lang;
use crate::scoring::content::ContentScore;

const NEARMISS: &str = include_str!("../../data/eval/nearmiss.jsonl");
const OUT_OF_BASE: &str = include_str!("../../data/eval/out_of_base.jsonl");
const CHOICE: &str = include_str!("../../data/eval/choice.jsonl");
const CHOICE_OUTSIDE: &str = include_str!("../../data/eval/choice_outside.jsonl");
const CHOICE_THIRD: &str = include_str!("../../data/eval/choice_third.jsonl");
const CHOICE_SHORT: &str = include_str!("../../data/eval/choice_short.jsonl");

#[derive(Debug, Clone, Deserialize)]
struct NearMiss {
    entry: String,
    lang: Lang,
    paraphrase: String,
    near_miss: String,
    near_miss_answer: String,
    near_miss_weak: String,
}

#[derive(Debug, Clone, Deserialize)]
struct OutOfBase {
    id: String,
    lang: Lang,
    question: String,
    good_answer: String,
    weak_answer: String,
    off_topic_answer: String,
}

#[derive(Debug, Clone, Deserialize)]
struct Choice {
    entry: String,
    lang: Lang,
    question: String,
    right: String,
    wrong: String,
    wrong_kind: String,
}

/// A quiz item as an outside test would pose it: the marked option and a distractor, a phrase or a
/// sentence each, to a question that may or may not be in the base.
#[derive(Debug, Clone, Deserialize)]
struct ShortChoice {
    id: String,
    lang: Lang,
    question: String,
    right: String,
    wrong: String,
}

/// `hits` of `n`.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq)]
pub struct Rate {
    pub hits: usize,
    pub n: usize,
}

impl Rate {
    pub(super) fn add(&mut self, hit: bool) {
        self.n += 1;
        self.hits += usize::from(hit);
    }
    pub fn share(&self) -> f64 {
        self.hits as f64 / self.n.max(1) as f64
    }
}

/// The figures of one half.
#[derive(Debug, Clone, Default, Serialize)]
pub struct VerdictRow {
    pub part: String,
    /// Held-apart paraphrases matched to their own entry as the same question.
    pub paraphrase_matched: Rate,
    /// The same for the base's own evaluation paraphrases (never indexed).
    pub kb_paraphrase_matched: Rate,
    /// Right answers to the base's held-out wordings of their question scored against its entry.
    pub paraphrase_answer_matched: Rate,
    /// The same right answers scored under 25, whatever reference they got: sound answers told
    /// they answer nothing.
    pub paraphrase_answer_squashed: Rate,
    /// Near-miss questions scored against the entry they are a near miss of (a wrong reference),
    /// with their good answer.
    pub near_miss_wrong_reference: Rate,
    /// The same for the weak answers to them: an answer that does not show what was asked cannot
    /// doubt the match, so the wrong reference stands more often and the plan names its question.
    pub near_miss_weak_wrong_reference: Rate,
    /// Good answers to near-miss questions judged off-topic.
    pub near_miss_false_alarm: Rate,
    /// Good answers to near-miss questions scored above weak answers to them.
    pub near_miss_good_over_weak: Rate,
    /// Out-of-base questions scored against some entry of the base, with their good answer.
    pub out_of_base_wrong_reference: Rate,
    /// The same for their weak and off-topic answers.
    pub out_of_base_poor_wrong_reference: Rate,
    /// Good answers to out-of-base questions judged off-topic.
    pub out_of_base_false_alarm: Rate,
    /// Off-topic answers to out-of-base questions judged off-topic.
    pub out_of_base_off_topic_caught: Rate,
    /// Median overall of the good, weak and off-topic out-of-base answers.
    pub out_of_base_medians: [f64; 3],
    /// The right option above the wrong one, in each language and for each kind of wrong.
    pub choice_right_over_wrong: Rate,
    pub choice_zh: Rate,
    pub choice_en: Rate,
    pub choice_misconception: Rate,
    pub choice_other_question: Rate,
    /// The same for quiz options of a phrase or a sentence (`choice_short.jsonl`), by language.
    pub short_choice_right_over_wrong: Rate,
    pub short_choice_zh: Rate,
    pub short_choice_en: Rate,
    /// The same on `choice_outside.jsonl`, a second quiz set written later.
    pub outside_choice_right_over_wrong: Rate,
    pub outside_choice_zh: Rate,
    pub outside_choice_en: Rate,
    /// The same on `choice_third.jsonl`, a third set (80 items, half outside our field).
    pub third_choice_right_over_wrong: Rate,
    pub third_choice_zh: Rate,
    pub third_choice_en: Rate,
    /// Right answers that beat the same answer given to another question by 25 points or more.
    pub margin_25: Rate,
    /// Median overall of answers given to another question.
    pub wrong_question_median: f64,
    /// Questions of a kind the base holds none of, recognised as such.
    pub kinds_recognised: Rate,
    /// Interviewer turns told right: asking or not.
    pub turns_right: Rate,
    /// Turns that ask nothing taken for questions.
    pub statements_taken_for_questions: Rate,
    /// The same on a third set (`turns_holdout3.jsonl`), by halves.
    pub turns3_right: Rate,
    pub statements3_taken_for_questions: Rate,
    /// Follow-ups attached to the pair they dig into, and new questions attached to one.
    pub follow_ups_attached: Rate,
    pub new_questions_attached: Rate,
    /// The same on the second follow-up set (`followups2.jsonl`).
    pub follow_ups2_attached: Rate,
    pub new_questions2_attached: Rate,
    /// The same on the third (`followups3.jsonl`).
    pub follow_ups3_attached: Rate,
    pub new_questions3_attached: Rate,
    /// Stories told to behavioral questions (`behavioral.jsonl`): called off-topic; 25+ above a
    /// story told to another behavioral question; above a vague, platitude or technical answer;
    /// and the technical answer caught as off-topic.
    pub story_off_topic: Rate,
    /// Those questions recognised as asking for a story (scored on its structure without a
    /// reference).
    pub story_question_recognised: Rate,
    /// Questions written apart (`story_questions_fit.jsonl` in the fitting row, the held-out
    /// `story_questions_heldout.jsonl` in the test row): story questions recognised, and
    /// technical ones taken for story questions.
    pub story_questions_apart: Rate,
    pub technical_taken_for_story: Rate,
    /// Questions from outside the base's field matched to an entry as the same question.
    pub out_of_field_matched: Rate,
    /// Questions of the field taken for outside or doubtful ones, held to a surer match
    /// (`scoring::field::match_needed`).
    pub in_field_put_outside: Rate,
    pub story_over_other_theme: Rate,
    pub story_over_poorer: Rate,
    pub story_technical_caught: Rate,
    /// Story answers written apart (`story_answers_apart.jsonl`, after `scoring::narrative` was
    /// chosen): stories the narrative test calls no story; explanations caught as off-topic;
    /// the story 25+ above the explanation, the hypothetical, the habit and another question's story.
    pub story_apart_untold: Rate,
    pub story_apart_technical_caught: Rate,
    pub story_apart_over: Rate,
    /// Interview answers graded apart (`interview_graded_*.jsonl`): (grade, our overall) of each;
    /// scored with no reference; vague answers at 50+; sound answers (70+) under 25 and under 50;
    /// wrong ones (25-) at 50+; each sound answer above each wrong one of its question.
    pub apart_grades: Vec<[f64; 2]>,
    pub apart_unreferenced: Rate,
    pub apart_vague_high: Rate,
    pub apart_sound_squashed: Rate,
    pub apart_sound_low: Rate,
    pub apart_wrong_high: Rate,
    pub apart_sound_over_wrong: Rate,
}

/// One scored item, for `ivd eval --dump` (what constants are fitted on).
#[derive(Debug, Clone, Serialize)]
pub struct VerdictItem {
    pub set: &'static str,
    pub key: String,
    pub test: bool,
    pub question: String,
    pub chosen: Option<String>,
    /// The entry whose question this is (paraphrase, choice) or is a near miss of.
    pub entry: Option<String>,
    pub hits: serde_json::Value,
    /// None for questions only matched, not answered.
    pub content: Option<ContentScore>,
    /// The answer's evidence against the question alone (what relevance without a reference is
    /// fitted on): fit, the asked question's standing, the question's terms used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreferenced: Option<serde_json::Value>,
}

pub(super) fn parse<T: for<'de> Deserialize<'de>>(text: &str, name: &str) -> Result<Vec<T>, KbError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            serde_json::from_str(l).map_err(|e| {
                KbError::Invalid(vec![crate::kb::Problem::new(name.to_string(), None, format!("line {}: {e}", n + 1))])
            })
        })
        .collect()
}

pub(super) struct Judge<'a> {
    s: &'a KbSearch,
    cancel: &'a CancellationToken,
    items: Vec<VerdictItem>,
}

impl Judge<'_> {
    pub(super) fn kb(&self) -> &KbSearch {
        self.s
    }

    /// Match `question` to the base as the product does before any answer is heard (the entry
    /// taken for the same question, if any), and keep the item.
    pub(super) fn match_only(
        &mut self,
        set: &'static str,
        key: &str,
        test: bool,
        question: &str,
        entry: Option<&str>,
    ) -> Result<Option<String>, KbError> {
        let hits = crate::scoring::references(self.s, question, self.cancel)?;
        let matched = crate::scoring::same_question(&hits).map(|h| h.id.clone());
        self.items.push(VerdictItem {
            set,
            key: key.to_string(),
            test,
            question: question.to_string(),
            chosen: matched.clone(),
            entry: entry.map(str::to_string),
            hits: serde_json::to_value(&hits).unwrap_or_default(),
            content: None,
            unreferenced: None,
        });
        Ok(matched)
    }

    /// Whether a quiz item's marked option scores above its distractor.
    fn choose(&mut self, [right_set, wrong_set]: [&'static str; 2], c: &ShortChoice) -> Result<bool, KbError> {
        let (_, right) = self.judge(right_set, &c.id, &c.question, &c.right, c.lang, None)?;
        let (_, wrong) = self.judge(wrong_set, &c.id, &c.question, &c.wrong, c.lang, None)?;
        Ok(right.overall > wrong.overall)
    }

    /// Judge `answer` to `question` as the product does, and keep the item.
    pub(super) fn judge(
        &mut self,
        set: &'static str,
        key: &str,
        question: &str,
        answer: &str,
        lang: Lang,
        entry: Option<&str>,
    ) -> Result<(Option<String>, ContentScore), KbError> {
        let (hits, chosen, content) = crate::scoring::assess_question(self.s, question, answer, lang, self.cancel)?;
        let chosen = chosen.map(|i| self.s.kb.entries[i].id.clone());
        let ev = self.s.evidence(question, answer, None, self.cancel)?;
        let hit_cos: serde_json::Map<String, serde_json::Value> = hits
            .iter()
            .filter_map(|h| {
                let i = self.s.position(&h.id)?;
                Some((h.id.clone(), serde_json::json!(ev.question_cos.get(i).copied())))
            })
            .collect();
        let unreferenced = serde_json::json!({
            "asked_cos": ev.asked_cos,
            "hit_cos": hit_cos,
            "fit": ev.question_fit,
            "asked_rank": ev.asked_standing.map(|s| s.rank),
            "asked_z": ev.asked_standing.map(|s| s.z),
            "terms": ev.question_terms,
            "neighbour_z": ev.neighbour_z,
        });
        self.items.push(VerdictItem {
            set,
            key: key.to_string(),
            test: is_test(key),
            question: question.to_string(),
            chosen: chosen.clone(),
            entry: entry.map(str::to_string),
            hits: serde_json::to_value(&hits).unwrap_or_default(),
            content: Some(content.clone()),
            unreferenced: Some(unreferenced),
        });
        Ok((chosen, content))
    }
}

/// Every set, both halves; the items judged, for the dump.
pub fn run(s: &KbSearch, cancel: &CancellationToken) -> Result<(Vec<VerdictRow>, Vec<VerdictItem>), KbError> {
    let mut rows = [
        VerdictRow { part: "test".into(), ..Default::default() },
        VerdictRow { part: "fit".into(), ..Default::default() },
    ];
    let row = |key: &str| usize::from(!is_test(key));
    let mut j = Judge { s, cancel, items: Vec::new() };
    let mut wrong_question: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    kb_paraphrases(&mut j, &mut rows, &row)?;
    near_misses(&mut j, &mut rows, &row)?;
    out_of_base(&mut j, &mut rows, &row, &mut wrong_question)?;
    choices(&mut j, &mut rows, &row, &mut wrong_question)?;
    short_choices(&mut j, &mut rows, &row)?;
    super::stories::stories(&mut j, &mut rows, &row)?;
    super::out_of_field::out_of_field(&mut j, &mut rows, &row)?;
    super::graded_apart::graded_apart(&mut j, &mut rows, &row)?;
    for (r, w) in rows.iter_mut().zip(wrong_question.iter_mut()) {
        w.sort_by(f64::total_cmp);
        r.wrong_question_median = median(w);
    }
    super::turns::kinds_and_turns(&mut rows, &row)?;
    super::follow_ups::follow_ups(&mut rows, &row, &crate::scoring::follow_up_meaning(Some(s)))?;
    Ok((rows.to_vec(), j.items))
}

fn median(sorted: &[f64]) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let m = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[m]
    } else {
        (sorted[m - 1] + sorted[m]) / 2.0
    }
}

/// The base's own held-out paraphrases (never indexed): matched as the same question as their entry.
fn kb_paraphrases(j: &mut Judge<'_>, rows: &mut [VerdictRow; 2], row: &dyn Fn(&str) -> usize) -> Result<(), KbError> {
    let asked: Vec<(String, String)> =
        j.s.kb.entries.iter().flat_map(|e| e.eval_paraphrases.iter().map(|q| (e.id.clone(), q.clone()))).collect();
    for (id, q) in asked {
        let matched = j.match_only("kb-paraphrase", &id, is_test(&id), &q, Some(&id))?;
        rows[row(&id)].kb_paraphrase_matched.add(matched.as_deref() == Some(id.as_str()));
    }
    Ok(())
}

fn near_misses(j: &mut Judge<'_>, rows: &mut [VerdictRow; 2], row: &dyn Fn(&str) -> usize) -> Result<(), KbError> {
    for m in parse::<NearMiss>(NEARMISS, "nearmiss.jsonl")? {
        let matched = j.match_only("paraphrase", &m.entry, is_test(&m.entry), &m.paraphrase, Some(&m.entry))?;
        rows[row(&m.entry)].paraphrase_matched.add(matched.as_deref() == Some(m.entry.as_str()));
        let (chosen, good) =
            j.judge("near-miss-good", &m.entry, &m.near_miss, &m.near_miss_answer, m.lang, Some(&m.entry))?;
        let (weak_chosen, weak) =
            j.judge("near-miss-weak", &m.entry, &m.near_miss, &m.near_miss_weak, m.lang, Some(&m.entry))?;
        let r = &mut rows[row(&m.entry)];
        r.near_miss_wrong_reference.add(chosen.as_deref() == Some(m.entry.as_str()));
        r.near_miss_weak_wrong_reference.add(weak_chosen.as_deref() == Some(m.entry.as_str()));
        r.near_miss_false_alarm.add(!good.relevant);
        r.near_miss_good_over_weak.add(good.overall > weak.overall);
    }
    Ok(())
}

fn out_of_base(
    j: &mut Judge<'_>,
    rows: &mut [VerdictRow; 2],
    row: &dyn Fn(&str) -> usize,
    wrong_question: &mut [Vec<f64>; 2],
) -> Result<(), KbError> {
    let all = parse::<OutOfBase>(OUT_OF_BASE, "out_of_base.jsonl")?;
    let mut scores: [[Vec<f64>; 3]; 2] = Default::default();
    for (i, o) in all.iter().enumerate() {
        let (chosen, good) = j.judge("out-of-base-good", &o.id, &o.question, &o.good_answer, o.lang, None)?;
        let (weak_chosen, weak) = j.judge("out-of-base-weak", &o.id, &o.question, &o.weak_answer, o.lang, None)?;
        let (off_chosen, off) =
            j.judge("out-of-base-off-topic", &o.id, &o.question, &o.off_topic_answer, o.lang, None)?;
        // The good answer given to another out-of-base question of the same language.
        let other = all.iter().cycle().skip(i + 7).find(|x| x.lang == o.lang && x.id != o.id).unwrap_or(o);
        let (_, moved) = j.judge("out-of-base-moved", &o.id, &other.question, &o.good_answer, o.lang, None)?;
        let p = row(&o.id);
        let r = &mut rows[p];
        r.out_of_base_wrong_reference.add(chosen.is_some());
        r.out_of_base_poor_wrong_reference.add(weak_chosen.is_some());
        r.out_of_base_poor_wrong_reference.add(off_chosen.is_some());
        r.out_of_base_false_alarm.add(!good.relevant);
        r.out_of_base_off_topic_caught.add(!off.relevant);
        r.margin_25.add(good.overall as i64 - moved.overall as i64 >= 25);
        wrong_question[p].push(moved.overall as f64);
        for (k, c) in [&good, &weak, &off].iter().enumerate() {
            scores[p][k].push(c.overall as f64);
        }
    }
    for (r, s) in rows.iter_mut().zip(scores.iter_mut()) {
        for (k, v) in s.iter_mut().enumerate() {
            v.sort_by(f64::total_cmp);
            r.out_of_base_medians[k] = median(v);
        }
    }
    Ok(())
}

fn choices(
    j: &mut Judge<'_>,
    rows: &mut [VerdictRow; 2],
    row: &dyn Fn(&str) -> usize,
    wrong_question: &mut [Vec<f64>; 2],
) -> Result<(), KbError> {
    let all = parse::<Choice>(CHOICE, "choice.jsonl")?;
    for (i, c) in all.iter().enumerate() {
        let (_, right) = j.judge("choice-right", &c.entry, &c.question, &c.right, c.lang, Some(&c.entry))?;
        let (_, wrong) = j.judge("choice-wrong", &c.entry, &c.question, &c.wrong, c.lang, Some(&c.entry))?;
        // The right answer given to another entry's question, of another dimension when possible.
        let other =
            all.iter().cycle().skip(i + all.len() / 2).find(|x| x.lang == c.lang && x.entry != c.entry).unwrap_or(c);
        let (_, moved) = j.judge("choice-moved", &c.entry, &other.question, &c.right, c.lang, Some(&other.entry))?;
        // The right answer to the base's own held-out wordings of the question.
        let wordings: Vec<String> =
            j.s.kb.get(&c.entry).map(|e| e.eval_paraphrases.iter().take(2).cloned().collect()).unwrap_or_default();
        for q in &wordings {
            let (chosen, score) = j.judge("paraphrase-answer", &c.entry, q, &c.right, c.lang, Some(&c.entry))?;
            let r = &mut rows[row(&c.entry)];
            r.paraphrase_answer_matched.add(chosen.as_deref() == Some(c.entry.as_str()));
            r.paraphrase_answer_squashed.add(score.overall < 25);
        }
        let p = row(&c.entry);
        let r = &mut rows[p];
        let won = right.overall > wrong.overall;
        r.choice_right_over_wrong.add(won);
        match c.lang {
            Lang::Zh => r.choice_zh.add(won),
            Lang::En => r.choice_en.add(won),
        }
        if c.wrong_kind == "misconception" {
            r.choice_misconception.add(won);
        } else {
            r.choice_other_question.add(won);
        }
        r.margin_25.add(right.overall as i64 - moved.overall as i64 >= 25);
        wrong_question[p].push(moved.overall as f64);
    }
    Ok(())
}

/// Where one quiz set's figures go: all items, Chinese, English.
type QuizRates = fn(&mut VerdictRow) -> [&mut Rate; 3];

fn short_choices(j: &mut Judge<'_>, rows: &mut [VerdictRow; 2], row: &dyn Fn(&str) -> usize) -> Result<(), KbError> {
    // The second set was written after every earlier constant was chosen; halves as for the rest.
    let sets: [(&str, &str, [&'static str; 2], QuizRates); 3] = [
        (CHOICE_SHORT, "choice_short.jsonl", ["short-choice-right", "short-choice-wrong"], |r| {
            [&mut r.short_choice_right_over_wrong, &mut r.short_choice_zh, &mut r.short_choice_en]
        }),
        (CHOICE_OUTSIDE, "choice_outside.jsonl", ["outside-choice-right", "outside-choice-wrong"], |r| {
            [&mut r.outside_choice_right_over_wrong, &mut r.outside_choice_zh, &mut r.outside_choice_en]
        }),
        (CHOICE_THIRD, "choice_third.jsonl", ["third-choice-right", "third-choice-wrong"], |r| {
            [&mut r.third_choice_right_over_wrong, &mut r.third_choice_zh, &mut r.third_choice_en]
        }),
    ];
    for (text, name, item_sets, rates) in sets {
        for c in parse::<ShortChoice>(text, name)? {
            let won = j.choose(item_sets, &c)?;
            let [all, zh, en] = rates(&mut rows[row(&c.id)]);
            all.add(won);
            match c.lang {
                Lang::Zh => zh.add(won),
                Lang::En => en.add(won),
            }
        }
    }
    Ok(())
}
