//! `ivd eval`: the evaluation's table (or JSON), and optionally every scored item for fitting.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use anyhow::{anyhow, Context};

use super::{write_stdout, CliError, ListFormat};
use crate::config::Config;
use crate::eval::{self, EvalOptions, EvalReport};
use crate::tools::ToolContext;

pub fn run(
    config: Arc<Config>,
    format: ListFormat,
    every: usize,
    no_retrieval: bool,
    dump: Option<&Path>,
) -> Result<(), CliError> {
    let mut ctx = ToolContext::new(config);
    ctx.cancel = super::interrupt::token();
    let kb = ctx.kb().map_err(|e| super::interrupt::or_stopped(e, &ctx.cancel, "nothing was written"))?;
    let opts = EvalOptions { every, skip_retrieval: no_retrieval, cancel: ctx.cancel.clone() };
    let r = eval::run(&kb, &opts)
        .map_err(|e| super::interrupt::or_stopped(anyhow!(e), &ctx.cancel, "nothing was written"))?;
    if let Some(path) = dump {
        let mut lines = String::new();
        for item in &r.items {
            lines.push_str(&serde_json::to_string(item).context("cannot encode an item")?);
            lines.push('\n');
        }
        for item in &r.verdict_items {
            lines.push_str(&serde_json::to_string(item).context("cannot encode an item")?);
            lines.push('\n');
        }
        crate::skills::batch::write_atomic(path, lines.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let out = match format {
        ListFormat::Json => serde_json::to_string_pretty(&r).context("cannot encode the evaluation")? + "\n",
        ListFormat::Text => text(&r),
    };
    write_stdout(out.as_bytes())
}

/// `ivd eval --graded FILE`: agreement with the human grades; with `--format json`, every row too.
pub fn graded_bank(
    config: Arc<Config>,
    file: &Path,
    half: eval::external::Half,
    format: ListFormat,
) -> Result<(), CliError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| CliError::input(anyhow!("cannot read {} as UTF-8 text: {e}", file.display())))?;
    let (rows, scale) =
        eval::external::parse(&text).map_err(|m| CliError::input(anyhow!("{}: {m}", file.display())))?;
    let mut ctx = ToolContext::new(config);
    ctx.cancel = super::interrupt::token();
    let kb = ctx.kb().map_err(|e| super::interrupt::or_stopped(e, &ctx.cancel, "nothing was written"))?;
    let r = eval::external::run(&kb, &rows, scale, half, &ctx.cancel)
        .map_err(|e| super::interrupt::or_stopped(anyhow!(e), &ctx.cancel, "nothing was written"))?;
    let out = match format {
        ListFormat::Json => serde_json::to_string_pretty(&r).context("cannot encode the evaluation")? + "\n",
        ListFormat::Text => graded_text(&r, &kb.kb.source_label()),
    };
    write_stdout(out.as_bytes())
}

fn graded_text(r: &eval::external::GradedReport, base: &str) -> String {
    let mut s = format!(
        "graded answers against {base} ({:?} half, scale {}-{}): {} rows, {:.0}% matched to an entry\n",
        r.half,
        r.scale.0,
        r.scale.1,
        r.overall.n,
        100.0 * r.matched_share
    );
    let a = &r.overall;
    let _ = writeln!(s, "  overall         Pearson {:.3}  Spearman {:.3}  QWK {:.3}", a.pearson, a.spearman, a.qwk);
    let _ = writeln!(
        s,
        "  per question    mean Pearson {:.3} over {} questions",
        r.per_question_pearson_mean,
        r.per_question.len()
    );
    for q in &r.per_question {
        let _ = writeln!(
            s,
            "    {:<40} n {:>3}  Pearson {:>6.3}  grade {:.2}  ours {:>5.1}",
            q.qid.chars().take(40).collect::<String>(),
            q.agreement.n,
            q.agreement.pearson,
            q.mean_grade,
            q.mean_overall
        );
    }
    let _ = writeln!(
        s,
        "  wrong question  median {:.0}, p90 {:.0} over {} answers given to another question (want a median <= 25)",
        r.wrong_question_median, r.wrong_question_p90, r.wrong_question_n
    );
    let _ = writeln!(
        s,
        "  sound answers   {} of {} graded {:.0}% of the scale or more scored under {} (want none)",
        r.sound_squashed,
        r.sound_n,
        crate::eval::external::SOUND_SHARE * 100.0,
        crate::eval::external::SQUASHED_UNDER
    );
    s
}

fn text(r: &EvalReport) -> String {
    let mut s = format!(
        "ivd eval over {} entries ({})\n",
        r.entries,
        if r.semantic { "words and vectors" } else { "words only" }
    );
    let _ = writeln!(s, "\nbuilt answers (never an entry's own expert answer against its own question)");
    let _ = writeln!(s, "  {:<34} {:>5} {:>7} {:>5} {:>5} {:>11}", "set", "n", "median", "p10", "p90", "irrelevant");
    for row in &r.sets {
        let _ = writeln!(
            s,
            "  {:<34} {:>5} {:>7.1} {:>5.0} {:>5.0} {:>10.0}%",
            row.set,
            row.n,
            row.median,
            row.p10,
            row.p90,
            100.0 * row.irrelevant_share
        );
    }
    comparisons(&mut s, r);
    verdicts(&mut s, r);
    interviews(&mut s, r);
    blind(&mut s, r);
    graded(&mut s, r);
    if let Some(ret) = &r.retrieval {
        retrieval(&mut s, ret);
    }
    if let Some(d) = &r.degraded {
        let _ = writeln!(s, "\nnote: {d}");
    }
    s
}

fn verdicts(s: &mut String, r: &EvalReport) {
    let _ = writeln!(s, "\nquestions and answers the base did not write (data/eval; constants fitted on the fit half)");
    let pct = |x: &eval::verdicts::Rate| format!("{:>5.1}% of {:>3}", 100.0 * x.share(), x.n);
    for v in &r.verdicts {
        let m = &v.out_of_base_medians;
        let lines = [
            ("paraphrases matched to their entry", pct(&v.paraphrase_matched)),
            ("  the base's own held-out paraphrases", pct(&v.kb_paraphrase_matched)),
            ("  right answers to them scored against that entry", pct(&v.paraphrase_answer_matched)),
            ("  right answers to them scored under 25", pct(&v.paraphrase_answer_squashed)),
            ("near misses given their neighbour (good answers)", pct(&v.near_miss_wrong_reference)),
            ("  the same, weak answers to them", pct(&v.near_miss_weak_wrong_reference)),
            ("good near-miss answers called off-topic", pct(&v.near_miss_false_alarm)),
            ("good near-miss answers above weak ones", pct(&v.near_miss_good_over_weak)),
            ("out-of-base questions given a reference (good answers)", pct(&v.out_of_base_wrong_reference)),
            ("questions outside the field matched to an entry", pct(&v.out_of_field_matched)),
            ("  questions of the field held to a surer match", pct(&v.in_field_put_outside)),
            ("  the same, weak and off-topic answers to them", pct(&v.out_of_base_poor_wrong_reference)),
            ("good out-of-base answers called off-topic", pct(&v.out_of_base_false_alarm)),
            ("off-topic out-of-base answers caught", pct(&v.out_of_base_off_topic_caught)),
            ("choice: right option above wrong", pct(&v.choice_right_over_wrong)),
            ("  in Chinese / in English", format!("{} / {}", pct(&v.choice_zh), pct(&v.choice_en))),
            (
                "  wrong = misconception / other question",
                format!("{} / {}", pct(&v.choice_misconception), pct(&v.choice_other_question)),
            ),
            ("quiz options: the marked one above the distractor", pct(&v.short_choice_right_over_wrong)),
            ("  in Chinese / in English", format!("{} / {}", pct(&v.short_choice_zh), pct(&v.short_choice_en))),
            ("quiz options, second set", pct(&v.outside_choice_right_over_wrong)),
            ("  in Chinese / in English", format!("{} / {}", pct(&v.outside_choice_zh), pct(&v.outside_choice_en))),
            ("quiz options, third set", pct(&v.third_choice_right_over_wrong)),
            ("  in Chinese / in English", format!("{} / {}", pct(&v.third_choice_zh), pct(&v.third_choice_en))),
            ("right answer 25+ above it given to another question", pct(&v.margin_25)),
            ("other kinds of question recognised", pct(&v.kinds_recognised)),
            ("interviewer turns told asking or not", pct(&v.turns_right)),
            ("remarks taken for questions", pct(&v.statements_taken_for_questions)),
            ("  the same, third set: turns told asking or not", pct(&v.turns3_right)),
            ("    remarks taken for questions", pct(&v.statements3_taken_for_questions)),
            ("follow-ups attached to the answer they dig into", pct(&v.follow_ups_attached)),
            ("new questions taken for follow-ups", pct(&v.new_questions_attached)),
            ("  the same, second set: follow-ups attached", pct(&v.follow_ups2_attached)),
            ("    new questions taken for follow-ups", pct(&v.new_questions2_attached)),
            ("  the same, third set: follow-ups attached", pct(&v.follow_ups3_attached)),
            ("    new questions taken for follow-ups", pct(&v.new_questions3_attached)),
            ("behavioral questions recognised as asking for a story", pct(&v.story_question_recognised)),
            ("  the same, questions written apart", pct(&v.story_questions_apart)),
            ("  technical questions taken for them", pct(&v.technical_taken_for_story)),
            ("  stories told to them called off-topic", pct(&v.story_off_topic)),
            ("  25+ above a story told to another question", pct(&v.story_over_other_theme)),
            ("  above vague, platitude and technical answers", pct(&v.story_over_poorer)),
            ("  technical answers to them caught as off-topic", pct(&v.story_technical_caught)),
            ("  stories written apart: told as no story", pct(&v.story_apart_untold)),
            ("    explanations caught as off-topic", pct(&v.story_apart_technical_caught)),
            ("    the story 25+ above each poorer answer", pct(&v.story_apart_over)),
            ("interview answers graded apart: scored with no reference", pct(&v.apart_unreferenced)),
            ("  Pearson with their grades", pearson(&v.apart_grades)),
            (
                "  sound (70+) under 25 / under 50",
                format!("{} / {}", pct(&v.apart_sound_squashed), pct(&v.apart_sound_low)),
            ),
            ("  wrong (25-) at 50+", pct(&v.apart_wrong_high)),
            ("  vague answers at 50+", pct(&v.apart_vague_high)),
            ("  each sound answer above each wrong one", pct(&v.apart_sound_over_wrong)),
        ];
        let _ = writeln!(s, "  {}:", v.part);
        for (name, value) in lines {
            let _ = writeln!(s, "    {name:<54} {value}");
        }
        let _ = writeln!(
            s,
            "    {:<54} good {:.0}, weak {:.0}, off-topic {:.0}; answers moved to another question {:.0}",
            "out-of-base medians", m[0], m[1], m[2], v.wrong_question_median
        );
    }
}

/// Pearson of (grade, overall) pairs, with their count.
fn pearson(pairs: &[[f64; 2]]) -> String {
    let (g, o): (Vec<f64>, Vec<f64>) = pairs.iter().map(|p| (p[0], p[1])).unzip();
    format!("{:>6.3} of {:>3}", eval::external::pearson(&g, &o), pairs.len())
}

fn comparisons(s: &mut String, r: &EvalReport) {
    let c = &r.comparisons;
    let _ = writeln!(
        s,
        "  right (other-language expert) ahead of wrong-question by 25+: {:.1}% (other dimension), {:.1}% (same dimension)",
        100.0 * c.right_ahead_of_wrong_other_dimension,
        100.0 * c.right_ahead_of_wrong_same_dimension
    );
    let _ = writeln!(
        s,
        "  partial answers rising with k: {:.1}% of {} entries",
        100.0 * c.partial_rising,
        c.partial_entries
    );
}

fn interviews(s: &mut String, r: &EvalReport) {
    let _ = writeln!(
        s,
        "\nwhole interviews, searched and scored as `ivd diagnose` does (first reference only in brackets)"
    );
    for i in &r.interviews {
        let _ = writeln!(
            s,
            "  {:<18} {:<8} {:>3} questions: own answers median {:.0}, under 25 {:.0}% ({:.0}%); moved to other questions median {:.0}, 50+ {:.1}% ({:.1}%)",
            i.file,
            i.part,
            i.questions,
            i.own_median,
            100.0 * i.own_off_topic,
            100.0 * i.own_off_topic_first_only,
            i.moved_median,
            100.0 * i.moved_50,
            100.0 * i.moved_50_first_only
        );
    }
}

fn blind(s: &mut String, r: &EvalReport) {
    let _ = writeln!(
        s,
        "\nwhole interviews written outside the project, against their writers' grades (data/eval/interviews_blind*)"
    );
    for b in &r.blind {
        let _ = writeln!(
            s,
            "  {:<8} {:>3} answers: Pearson {:.3}, mean error {:.1}; sound (70+) under 25 {} of {}; wrong (25-) at 50+ {} of {}; follow-ups attached {} of {}, new questions {} of {}; remarks taken for questions {} of {}{}",
            b.part,
            b.answers,
            b.pearson,
            b.mean_abs_error,
            b.sound_under_25,
            b.sound,
            b.wrong_50,
            b.wrong,
            b.follow_ups_attached,
            b.follow_ups,
            b.new_questions_attached,
            b.new_questions,
            b.remarks_taken,
            b.remarks,
            if b.missing > 0 { format!("; {} not found", b.missing) } else { String::new() }
        );
    }
}

fn graded(s: &mut String, r: &EvalReport) {
    let _ = writeln!(s, "\ngraded answers (data/eval; constants fitted on the fit part only)");
    for g in &r.graded {
        let medians: Vec<String> = eval::graded::LABELS
            .iter()
            .map(|l| format!("{l} {:.0}", g.medians.get(*l).copied().unwrap_or(0.0)))
            .collect();
        let _ = writeln!(
            s,
            "  {:<4} n {:>3}  Spearman {:.3}  pairwise {:.3}  in band {:.0}%  reference found {:.0}%\n       medians: {}",
            g.part,
            g.n,
            g.spearman,
            g.pairwise_accuracy,
            100.0 * g.in_band,
            100.0 * g.reference_found,
            medians.join(", ")
        );
    }
}

fn retrieval(s: &mut String, ret: &eval::retrieval::RetrievalReport) {
    {
        let _ = writeln!(s, "\nretrieval (held-out paraphrases of the test half, never indexed)");
        let _ = writeln!(s, "  {:<8} {:<8} {:>6} {:>10} {:>10}", "mode", "queries", "n", "recall@1", "recall@3");
        for row in &ret.rows {
            let mode =
                serde_json::to_value(row.mode).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
            let _ = writeln!(
                s,
                "  {:<8} {:<8} {:>6} {:>10.3} {:>10.3}",
                mode, row.queries, row.n, row.recall_at_1, row.recall_at_3
            );
        }
        if !ret.fusion_sweep.is_empty() {
            let _ = writeln!(s, "\nhybrid fusion sweep on the fitting half (BM25 weight 1; recall@1 / recall@3)");
            for row in &ret.fusion_sweep {
                let _ = writeln!(
                    s,
                    "  k {:>4}  vector weight {:>4}  {:.3} / {:.3}",
                    row.k, row.weight_vector, row.recall_at_1, row.recall_at_3
                );
            }
        }
    }
}
