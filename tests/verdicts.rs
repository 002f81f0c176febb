//! Verdicts on questions the base does not hold (issue 22), with the real embedding model: a
//! sound answer to a question the base lacks, or to a neighbour of one of its questions, is not
//! judged against another entry; kinds of question with no content to score are not scored; a
//! turn that asks nothing is no question. Figures are the test half of `data/eval/`'s verdict sets
//! (the fitting half chose the constants), compared with margins, never to the last decimal.

use interview_doctor::eval;
use interview_doctor::lang::Lang;
use interview_doctor::scoring;
use interview_doctor::transcript::{self, pairs, roles};

use crate::semantic::engine;

#[test]
fn the_verdict_sets_test_half_holds() {
    let s = engine();
    let (rows, _) = eval::verdicts::run(s, &Default::default()).unwrap();
    let test = rows.iter().find(|r| r.part == "test").unwrap();
    println!("{test:#?}");
    let share = |r: &eval::verdicts::Rate| r.share();
    // Measured 2026-12-05: near misses 0.085, out-of-base references 0.0, false alarms 0.0 and
    // 0.021, off-topic caught 0.739, paraphrases 0.766, margin 0.929, choice 0.879 (0.818 before
    // completeness counted the reference's terms, 0.909 before `scoring::unreferenced`), quiz
    // options 0.600 and 0.636 (0.657 and 0.606 before it), kinds 0.955.
    assert!(share(&test.near_miss_wrong_reference) <= 0.2, "near misses given their neighbour");
    assert!(share(&test.out_of_base_wrong_reference) <= 0.15, "out-of-base questions given a reference");
    // Questions from outside the field (test half, 2026-12-06): 40.4% of 198 matched to an entry
    // before `scoring::field`, 19.7% with the cut at 0.1 alone, 11.6% with doubtful questions
    // held to a surer match too; questions of the field held to a surer match: 8.9% of 180 (most
    // of them not in the base, so no reference lost).
    assert!(share(&test.out_of_field_matched) <= 0.17, "questions outside the field matched to an entry");
    assert!(share(&test.in_field_put_outside) <= 0.15, "questions of the field held to a surer match");
    // Measured 2026-12-05: 0.255 and 0.391. Known weak spots (an answer that does not show what was
    // asked cannot doubt a wrong match), guarded against getting worse.
    assert!(share(&test.near_miss_weak_wrong_reference) <= 0.4, "weak near-miss answers given the neighbour");
    assert!(share(&test.out_of_base_poor_wrong_reference) <= 0.55, "poor out-of-base answers given a reference");
    assert!(share(&test.out_of_base_false_alarm) <= 0.1, "sound out-of-base answers called off-topic");
    assert!(share(&test.near_miss_false_alarm) <= 0.15, "sound near-miss answers called off-topic");
    assert!(share(&test.out_of_base_off_topic_caught) >= 0.5, "off-topic answers caught");
    assert!(share(&test.paraphrase_matched) >= 0.6, "paraphrases matched");
    assert!(share(&test.margin_25) >= 0.8, "right answers ahead of moved ones by 25");
    // 17 of 66 when the no-reference model was refitted with these answers' other half (21 before);
    // 14 once an unsure match gives way to that model (`scoring::DOUBT_ASKED_MIN`); 12 once it
    // ranks fits normalised for the wording.
    // 13.6% (9 of 66) once an answer judged off-topic may name the entry it answers among the
    // question's near ones (`scoring::RESCUE_MATCH_MIN`, 2026-12-07; 19.7% before).
    assert!(share(&test.paraphrase_answer_squashed) <= 0.2, "right answers to reworded questions under 25");
    assert!(share(&test.choice_right_over_wrong) >= 0.8, "the right option above the wrong one");
    // 0.686 (24 of 35) since the match's lead is over the whole base; 0.657 with normalised fits;
    // 0.600 once answers with no reference are scored on what they say (`scoring::unreferenced`):
    // ties at the floor broke toward the marked option, but a distractor freed from the entry the
    // marked option is scored against now outscores it (fitting half 20 of 25 before and after);
    // 0.571 once a distractor quoting "不知道就说不知道" no longer counted as giving up; 0.600 once
    // words no nearby entry uses weigh less (`scoring::unreferenced`; fitting half 0.80 -> 0.88).
    assert!(share(&test.short_choice_right_over_wrong) >= 0.55, "the marked quiz option above the distractor");
    // 0.606, then 0.697 once one-liners at the cap keep how surely they answer (fitting half
    // 0.532 -> 0.617), 0.758 once words no nearby entry uses weigh less (0.617 -> 0.681).
    assert!(
        share(&test.outside_choice_right_over_wrong) >= 0.65,
        "the second quiz set: marked option above distractor"
    );
    // A third set written after every constant was chosen (2026-12-06): 0.421 (16 of 38); 0.447
    // once words no nearby entry uses weigh less. A known weak spot, guarded against getting worse.
    assert!(share(&test.third_choice_right_over_wrong) >= 0.38, "the third quiz set: marked option above distractor");
    assert!(share(&test.kinds_recognised) >= 0.85, "kinds of question recognised");
    // Deterministic rules on a held-out file: 110/120 and 8/60 when first measured.
    assert!(share(&test.turns_right) >= 0.85, "interviewer turns told asking or not");
    assert!(share(&test.statements_taken_for_questions) <= 0.2, "remarks taken for questions");
    // A third set written apart (stop 50), test half: 75 of 83 turns told right and 2 of 44
    // remarks taken for questions, before and after the rules its fitting half's misses suggested.
    assert!(share(&test.turns3_right) >= 0.85, "interviewer turns told asking or not, third set");
    assert!(share(&test.statements3_taken_for_questions) <= 0.12, "remarks taken for questions, third set");
    // Follow-ups by the rules and, with vectors, by meaning (`transcript::follow_up_model`, fitted
    // on the fitting halves; measured 2026-12-06): first set 26 of 40 attached (rules alone 24),
    // second set 11 of 26 (10); no new question attached in either (0 of 40, 0 of 33).
    assert!(share(&test.follow_ups_attached) >= 0.6, "follow-ups attached");
    assert!(share(&test.follow_ups2_attached) >= 0.38, "follow-ups attached, second set");
    assert!(share(&test.new_questions_attached) <= 0.05, "new questions taken for follow-ups");
    assert!(share(&test.new_questions2_attached) <= 0.05, "new questions taken for follow-ups, second set");
    // A third set, written after the rules of the first two: its test half 14 of 28 attached and 1
    // of 27 new questions taken, before and after the rules its fitting half's misses suggested.
    assert!(share(&test.follow_ups3_attached) >= 0.4, "follow-ups attached, third set");
    assert!(share(&test.new_questions3_attached) <= 0.08, "new questions taken for follow-ups, third set");
    // Behavioral questions in outside wordings (measured 2026-12-06): 15 of 24 recognised (6
    // before their wordings were widened), 23 of 24 since recognised by meaning
    // (`scoring::asks_story`, which was fitted on all 48), stories called off-topic 3 of 24, stories
    // above the vague, platitude and technical answers to the same question 62 of 72 (59 by
    // wording, 58 before). Questions written apart and read by nothing fitted: 50 of 50 story
    // questions recognised, 1 of 60 technical ones taken for one.
    assert!(share(&test.story_question_recognised) >= 0.8, "behavioral questions recognised");
    assert!(share(&test.story_questions_apart) >= 0.85, "story questions written apart recognised");
    assert!(share(&test.technical_taken_for_story) <= 0.1, "technical questions taken for story questions");
    // With no reference, a story question's answers are held to a relevance cut of their own
    // (`scoring::relevance::RELEVANT_MIN_STORY`): stories called off-topic 3 -> 2 of 24, stories
    // above poorer answers 62 -> 67 of 72.
    assert!(share(&test.story_off_topic) <= 0.15, "stories told to behavioral questions called off-topic");
    assert!(share(&test.story_over_poorer) >= 0.88, "stories above poorer answers");
    // Judged among the wider world's questions too (`kb::world`), a technical answer to a story
    // question meets the question it answers: caught 12 -> 15 of 24, stories 25+ above another
    // question's story 9 -> 11 (measured 2026-12-06).
    // A story question answered with no story (`scoring::narrative`, 2026-12-07): caught 15 -> 20
    // of 24; on the fitting half 12 -> 20.
    assert!(share(&test.story_technical_caught) >= 0.75, "technical answers to story questions caught");
    assert!(share(&test.story_over_other_theme) >= 0.35, "stories above another question's story");
    // Story answers written apart after that test was first chosen, every row: no story it is
    // asked of (31 of 40 questions recognised) told as none, whatever its telling (present tense,
    // "we", Chinese without its subject, two sentences); explanations caught 2 -> 9 of 21 and 1 -> 5
    // of 19, many in the candidate's own voice ("I think the main causes are…", capped at 40 at
    // most).
    for r in &rows {
        assert_eq!(r.story_apart_untold.share(), 0.0, "{}: stories written apart told as none", r.part);
        assert!(share(&r.story_apart_technical_caught) >= 0.2, "{}: explanations caught", r.part);
    }
    let [good, weak, off] = test.out_of_base_medians;
    assert!(good >= 60.0 && good > weak && weak >= off - 5.0, "{:?}", test.out_of_base_medians);
    // Interview answers graded apart (`interview_graded_*.jsonl`), test half, with generic talk
    // capped (`scoring::vague`, 2026-12-07): vague answers at 50+ 90.6% -> 50.0% of 32, Pearson
    // 0.064 -> 0.146, each sound answer above each wrong one 50.0% -> 57.3%; sound answers under
    // 25 unchanged (7.8% of 64).
    assert!(share(&test.apart_vague_high) <= 0.6, "vague answers written apart at 50+");
    assert!(share(&test.apart_sound_over_wrong) >= 0.53, "sound answers above wrong ones");
    assert!(share(&test.apart_sound_squashed) <= 0.12, "sound answers written apart under 25");
    let (g, o): (Vec<f64>, Vec<f64>) = test.apart_grades.iter().map(|p| (p[0], p[1])).unzip();
    assert!(eval::external::pearson(&g, &o) >= 0.1, "Pearson with the grades written apart");
}

/// The example: "how do you monitor an online agent's results?" reads, to every signal we
/// have, almost exactly like the base's "how do you monitor and reduce an online agent's
/// hallucinations?" (cosine 0.96; the answer fits the asked wording better by 0.0001; the
/// no-reference model gives it 0.33). Whatever the verdict, the advice quotes the question that
/// was asked, never the entry's.
#[test]
fn advice_quotes_the_question_asked_never_an_entrys() {
    let s = engine();
    let q = "线上 Agent 的效果你们怎么监控？";
    let a = "我们主要靠全链路 trace：每次请求记录模型调用、工具调用、耗时和 token 消耗，按接口和版本做延迟、成本和任务成功率的看板，\
             成功率掉到阈值以下就告警。另外每周从线上抽样几百条失败或者用户差评的对话，人工标注失败原因，归类之后回灌到评测集里，\
             发版前先跑回归评测，看成功率和成本有没有退化。";
    let (_, chosen, content) = scoring::assess_question(s, q, a, Lang::Zh, &Default::default()).unwrap();
    println!("{chosen:?} {} {} {}", content.overall, content.relevant, content.improvement);
    assert!(!content.improvement.contains("幻觉"), "advice names another question: {}", content.improvement);
    if !content.relevant {
        assert!(content.improvement.contains(q), "{}", content.improvement);
    }
}

#[test]
fn an_off_topic_answer_to_a_question_the_base_lacks_is_still_off_topic() {
    let s = engine();
    let q = "How does watermarking of LLM-generated text work, and can it be removed?";
    let a = "For memory I keep a rolling summary of the conversation plus a vector store of past facts; \
             each turn retrieves the top five facts and the summary is refreshed every ten turns.";
    let (_, _, content) = scoring::assess_question(s, q, a, Lang::En, &Default::default()).unwrap();
    assert!(content.overall <= 35, "{content:?}");
}

#[test]
fn an_introduction_is_not_scored_on_content_and_stays_out_of_the_average() {
    let s = engine();
    for (q, lang) in [("Could you briefly introduce yourself?", Lang::En), ("先做个简单的自我介绍吧。", Lang::Zh)]
    {
        let a = "I have five years of backend experience and I've spent the last two building LLM agents.";
        let (_, chosen, content) = scoring::assess_question(s, q, a, lang, &Default::default()).unwrap();
        if chosen.is_none() {
            assert!(content.kind.is_some(), "{q}: {content:?}");
            assert!(content.band.contains("not scored") || content.band.contains("不按内容评分"), "{}", content.band);
        }
    }
}

#[test]
fn a_remark_in_the_middle_of_an_answer_is_no_question() {
    let text = "Interviewer: How do you make tool calls safe when they have side effects?\n\
                Candidate: We split tools into read-only and side-effecting ones, and the second kind needs a confirmation step.\n\
                Interviewer: That's the code I write.\n\
                Candidate: Right, and on top of that every side-effecting call carries an idempotency key so retries are safe.\n\
                Interviewer: so what happens when the confirmation times out\n\
                Candidate: The call is dropped and the agent reports that it could not confirm.\n";
    let t = transcript::parse_bytes(text.as_bytes(), None).unwrap();
    let r = roles::detect(&t);
    let qa = pairs::split(&t, &r.turn_roles);
    let questions: Vec<&str> = qa.iter().map(|p| p.question.as_str()).collect();
    assert_eq!(qa.len(), 2, "{questions:?}");
    assert!(qa[0].answer.contains("idempotency"), "the answer goes on after the remark: {}", qa[0].answer);
    assert!(qa[1].question.contains("confirmation times out"), "an unmarked question asks: {questions:?}");
}

/// A short question the base does not hold, on a topic no evaluation set has (content
/// delivery), answered in one sound sentence: the answer is judged on how well it fits this
/// wording against how well it fits the base's, each normalised for its wording (a short wording
/// sits far from any answer by raw cosine). The same answer under a question of another kind is
/// off topic and stands well below. (Under "How does a database index speed up queries?" it still
/// reads as on topic: against a base of agent questions, any two questions of web performance
/// look alike.)
#[test]
fn a_one_sentence_answer_to_a_short_question_the_base_lacks_is_on_topic() {
    let s = engine();
    let cases = [
        (
            Lang::En,
            "What does a CDN do?",
            "A CDN, a content delivery network, caches static files on edge servers near users, so pages load faster \
             and the origin takes less traffic.",
            "How do you handle a disagreement with a coworker?",
        ),
        (
            Lang::Zh,
            "CDN 是做什么用的？",
            "CDN 就是把静态资源缓存到离用户近的边缘节点上，用户访问更快，源站的带宽和压力也小很多。",
            "你怎么处理和同事的分歧？",
        ),
    ];
    for (lang, q, a, other) in cases {
        let (_, chosen, right) = scoring::assess_question(s, q, a, lang, &Default::default()).unwrap();
        println!("{q}: {chosen:?} {} {:?} {}", right.overall, right.relevance, right.band);
        assert!(chosen.is_none(), "{q}: the base has no CDN entry, yet {chosen:?} was the reference");
        assert!(right.relevant && right.overall >= 25, "{q}: {right:?}");
        let (_, _, moved) = scoring::assess_question(s, other, a, lang, &Default::default()).unwrap();
        println!("{other}: {} {:?}", moved.overall, moved.relevance);
        assert!(!moved.relevant, "{other}: an answer about CDNs is on topic: {moved:?}");
        assert!(moved.overall + 10 <= right.overall, "{other}: {} vs {}", moved.overall, right.overall);
    }
}

/// A question the base lacks, answered soundly and with filler: the sound answer is scored on what
/// it says (it was in the 30s when only structure counted), and filler in everyday words
/// ("important", "better and faster", "good practice") does not pass for substance.
#[test]
fn a_sound_answer_the_base_has_no_reference_for_outscores_filler() {
    let s = engine();
    let q = "What does a CDN do for a website?";
    let sound = "A CDN keeps copies of static assets such as images, scripts and video segments on edge servers close to \
                 users, so requests are answered from a nearby point of presence instead of the origin. That cuts latency \
                 and offloads the origin; cache headers and TTLs decide how long edge copies live, and you purge or \
                 version URLs when content changes. Many CDNs also terminate TLS and absorb DDoS traffic.";
    let filler =
        "I think a CDN is basically important for performance, it makes the website better and faster, and you \
                  should use it because it is a good practice for websites in general.";
    let score = |a: &str| scoring::assess_question(s, q, a, Lang::En, &Default::default()).unwrap();
    let ((_, sound_ref, sound), (_, _, filler)) = (score(sound), score(filler));
    println!("sound {} filler {}", sound.overall, filler.overall);
    assert!(sound_ref.is_none() && sound.relevant, "{sound_ref:?} {}", sound.relevant);
    assert!(sound.completeness.detail.contains("no reference answer"), "{}", sound.completeness.detail);
    assert!(sound.overall >= 60, "{}", sound.overall);
    assert!(sound.overall >= filler.overall + 15, "sound {} filler {}", sound.overall, filler.overall);
    // What the report's bars show adds up to the overall (neither answer is capped): 0.6 of what
    // it says beyond the question (completeness), 0.3 depth, 0.1 practicality; accuracy is not
    // assessed without a reference and weighs nothing.
    for c in [&sound, &filler] {
        let sum = 0.6 * c.completeness.score as f64 + 0.3 * c.depth.score as f64 + 0.1 * c.practicality.score as f64;
        assert!((sum - c.overall as f64).abs() <= 1.0, "bars {sum:.1} vs overall {}: {c:?}", c.overall);
    }
}

/// A question that asks for a story in a wording of its own ("the worst outage you've been part
/// of"): the story outscores platitudes and a textbook account of incident handling by far. Before
/// such wordings were recognised, all three were scored on what they say (90, 65 and 66).
#[test]
fn platitudes_and_a_textbook_answer_to_a_story_question_score_well_below_the_story() {
    let s = engine();
    let q = "What's the worst outage you've been part of, and what did you do?";
    let story = "Two years ago our checkout service went down for forty minutes on a Friday evening. I was the on-call \
                 engineer. I saw the error rate jump right after a deploy, so I rolled the deploy back first, which \
                 brought most traffic back within ten minutes. Then I found the cause: a database migration had added an \
                 index that locked the orders table. I wrote the postmortem, and we moved migrations to a separate, \
                 off-peak pipeline with a lock timeout. We have not had a migration outage since.";
    let platitudes = "I think in any outage the most important things are staying calm, communicating clearly and \
                      working as a team. Transparency with stakeholders matters a lot, and afterwards it is important to \
                      learn from what happened and keep improving our processes so that it does not happen again.";
    let textbook = "An outage is usually handled with an incident process: detection through monitoring and alerts, \
                    triage, mitigation such as rollback or failover, then root cause analysis and a blameless \
                    postmortem. Good practice includes SLOs, error budgets, runbooks and canary deployments to reduce \
                    the blast radius of changes.";
    let score = |a: &str| scoring::assess_question(s, q, a, Lang::En, &Default::default()).unwrap().2.overall;
    let (story, platitudes, textbook) = (score(story), score(platitudes), score(textbook));
    println!("story {story} platitudes {platitudes} textbook {textbook}");
    assert!(story >= 60, "{story}");
    assert!(platitudes < 50 && textbook < 50, "platitudes {platitudes} textbook {textbook}");
    assert!(story >= platitudes.max(textbook) + 25, "story {story} platitudes {platitudes} textbook {textbook}");
}

/// A story question answered with no story (`scoring::narrative`): an explanation of the topic,
/// which speaks of no one, is off-topic however close its meaning; habits and beliefs, with no
/// example that happened, are weak at best. The story itself is untouched. My own texts, in both
/// languages, on a topic the base holds entries on (tool failures), where meaning alone stands the
/// explanation close to the question.
#[test]
fn a_story_question_answered_with_no_story_is_capped() {
    let s = engine();
    let cases = [
        (
            Lang::Zh,
            "讲一次你做 Agent 项目时工具调用一直失败的经历，你当时是怎么处理的？",
            "有，去年做报销 Agent 的时候，查发票的工具经常超时，模型就一直重试，一个会话调了三十多次。我先从 trace \
             里把失败的调用拉出来，发现是发票接口在月底高峰时 p99 超过了 20 秒。后来我们给这个工具加了 8 秒超时和最多\
             两次重试，超时就把错误原因返回给模型，让它告诉用户稍后再试。上线后单会话的调用次数降到了 5 次以内。",
            "工具调用失败一般分几类：参数错误、超时、下游服务报错。常见做法是给工具设置超时和有限次数的重试，重试要用\
             指数退避，并且只对幂等的操作重试；参数错误要把校验信息返回给模型让它修正；连续失败时应该熔断，把错误原因\
             告诉用户。",
            "我一般会先看日志，然后加重试和超时。我觉得关键是要有监控，出问题能及时发现，团队之间也要多沟通。",
        ),
        (
            Lang::En,
            "Tell me about a time a tool your agent depended on kept failing. What did you do?",
            "Last spring the invoice lookup tool in our expense agent started timing out at month end, and the model \
             kept retrying, up to thirty calls in one conversation. I pulled the failing calls from our traces and saw \
             the invoice API's p99 went above 20 seconds under load. We added an 8-second timeout with two retries, \
             returned the error reason to the model so it could tell the user to try later, and calls per \
             conversation dropped under five.",
            "Tool failures usually fall into a few classes: invalid arguments, timeouts and downstream errors. The \
             standard approach is a timeout per tool, a bounded number of retries with exponential backoff for \
             idempotent operations only, validation errors returned to the model so it can repair the call, and a \
             circuit breaker that stops calling a tool that keeps failing.",
            "I usually start from the logs, then add retries and timeouts. I think monitoring is the key, so problems \
             are caught early, and I always try to keep the team in the loop.",
        ),
    ];
    for (lang, q, story, explanation, habits) in cases {
        let score = |a: &str| scoring::assess_question(s, q, a, lang, &Default::default()).unwrap().2;
        let (story, explanation, habits) = (score(story), score(explanation), score(habits));
        println!("{q}: story {} explanation {} habits {}", story.overall, explanation.overall, habits.overall);
        assert!(story.relevant && story.overall >= 60, "{story:?}");
        assert!(!explanation.relevant && explanation.overall < 25, "{explanation:?}");
        assert!(habits.overall <= 40 && story.overall >= habits.overall + 25, "{habits:?}");
    }
}

/// Generic talk, fluent and on-topic, is at most weak, with a reason and advice to be specific;
/// the same question answered with a mechanism and figures is not touched. My own texts.
#[test]
fn generic_talk_is_at_most_weak_and_a_specific_answer_is_untouched() {
    let s = engine();
    let cases = [
        (
            Lang::Zh,
            "线上大模型服务的 P95 延迟到了 8 秒，你会怎么排查和优化？",
            "先把一次请求拆开看：排队、首 token、生成、工具调用各占多少。我们当时发现首 token 要 3 秒，原因是\
             system prompt 有 6000 token 又没命中 prefix cache，把固定部分前置、动态部分放后面以后首 token 降到 \
             0.8 秒；生成阶段把输出上限从 1024 收到 400，再把两个串行的检索改成并行，P95 从 8 秒降到 3.5 秒。",
            "延迟这块我们非常重视，会从多个层面做系统性的优化，建立完善的监控体系，做到全链路可观测。整体来说\
             就是持续关注指标，不断完善方案，形成闭环，最终延迟有显著提升，用户体验也更好了。",
        ),
        (
            Lang::En,
            "Our chat endpoint's p95 latency is eight seconds. How would you bring it down?",
            "I'd first break one slow request into queueing, time to first token, generation and tool calls. In our \
             case the first token took 3 seconds because a 6,000-token system prompt missed the prefix cache; moving \
             the fixed part first brought that to 0.8 seconds. Capping output at 400 tokens and running the two \
             retrieval calls in parallel took p95 from 8 to 3.5 seconds.",
            "Latency is super important, so the key is to optimize across the board. I'd make sure we have robust \
             monitoring on everything, find the bottlenecks and tune it continuously. It's really an iterative \
             process, and at the end of the day it pays off in user experience.",
        ),
    ];
    for (lang, q, specific, generic) in cases {
        let score = |a: &str| scoring::assess_question(s, q, a, lang, &Default::default()).unwrap().2;
        let (specific, generic) = (score(specific), score(generic));
        println!("{q}: specific {} generic {}", specific.overall, generic.overall);
        assert!(specific.relevant && specific.overall >= 60, "{specific:?}");
        assert!(generic.overall <= 35 && specific.overall >= generic.overall + 25, "{generic:?}");
        let said = if lang == Lang::Zh { "泛泛而谈" } else { "general statements" };
        assert!(generic.accuracy.detail.contains(said), "{}", generic.accuracy.detail);
        let advice = if lang == Lang::Zh { "具体" } else { "specifics" };
        assert!(generic.improvement.contains(advice), "{}", generic.improvement);
        assert!(!specific.accuracy.detail.contains(said), "{}", specific.accuracy.detail);
    }
}

/// An outside question worded like one of ours ("Why do caches work?" and our prompt-caching
/// entry, a match the model is sure of) answered soundly about CPU caches: the answer is sure to
/// address the question as asked and reads as off-topic against the entry, so the match is
/// doubted. It was scored against prompt caching and capped at 12, "off-topic".
#[test]
fn a_sound_answer_to_an_outside_question_worded_like_ours_is_not_called_off_topic() {
    let s = engine();
    let q = "Why do caches work? Name the two types of locality they exploit.";
    let a = "Memory accesses arent random. If you touch x now you'll probably touch x again (temporal), and you'll \
             probably touch x+4 next (spatial), which is why caches load whole blocks. The cache only has to hold the \
             working set, not all of memory.";
    let (hits, chosen, c) = scoring::assess_question(s, q, a, Lang::En, &Default::default()).unwrap();
    println!("{chosen:?} {} {:?} {:?}", c.overall, c.relevance, scoring::same_question(&hits).map(|h| &h.id));
    assert!(chosen.is_none(), "scored against {chosen:?}");
    assert!(c.relevant && c.overall >= 50, "{c:?}");
    // An answer about prompt caching fits the entry, which stays its reference; it scores well
    // below the answer to the question asked (measured 52 vs 71).
    let off =
        "Put the system prompt and tool definitions first and the user's message last, so the provider can reuse \
               the cached prefix and you pay less for input tokens.";
    let (_, _, o) = scoring::assess_question(s, q, off, Lang::En, &Default::default()).unwrap();
    println!("prompt caching answer: {} {:?}", o.overall, o.relevance);
    assert!(o.overall + 10 <= c.overall, "{} vs {}", o.overall, c.overall);
}

/// A reworded question the match takes for its neighbour ("why is intrinsic self-correction
/// unreliable?" for why long-horizon tasks fail) answered with how Reflexion works and why it needs
/// outside feedback: the answer names the base's Reflexion entry, close to the question though
/// below the same-question bar, and is scored against it. Before: 25, off-topic, against the
/// neighbour. An answer on another topic stays off-topic.
#[test]
fn a_sound_answer_names_the_entry_it_answers_among_the_questions_near_ones() {
    let s = engine();
    let q = "为什么说 LLM 的内在自我纠错不可靠？";
    let a = "Reflexion 把一次尝试拆成三个角色：执行者负责做任务，评估者根据外部信号打分，比如单元测试是否通过、\
             工具有没有报错；然后自我反思模块把失败原因写成一段自然语言的经验教训，存进情景记忆。下一轮执行时把这些\
             教训放进上下文，模型就能避开上次的坑。它和让模型自己检查一遍的区别在于有没有外部的真实反馈：只让模型\
             复查，它用的还是同一套判断，错的地方多半还是看不出来。我们做代码 Agent 时接了测试结果作为信号，三轮以内\
             的通过率提升很明显，但没有测试的任务就没什么效果。";
    let (_, chosen, c) = scoring::assess_question(s, q, a, Lang::Zh, &Default::default()).unwrap();
    let id = chosen.map(|i| s.kb.entries[i].id.clone());
    println!("{id:?} {} {:?}", c.overall, c.relevance);
    assert!(c.relevant && c.overall >= 60, "{id:?} {c:?}");
    assert_eq!(id.as_deref(), Some("planning-008"));
    let q = "Why use semantic caching for LLM queries?";
    let off = "Speculative decoding uses a small draft model to propose several tokens, and the large model verifies \
               them in one forward pass, so you get the large model's output distribution with fewer slow steps.";
    let (_, chosen, o) = scoring::assess_question(s, q, off, Lang::En, &Default::default()).unwrap();
    println!("{chosen:?} {} {:?}", o.overall, o.relevance);
    assert!(!o.relevant && o.overall < 25, "{chosen:?} {o:?}");
}

/// A sound answer that makes half the points of an entry close to the question is on-topic even
/// where e5-small ranks it far from every expert answer; it is scored with no reference, since the
/// match cannot tell which close entry was asked (it would name the one on having too many tools).
/// Before: 15, off-topic. An answer on another topic stays off-topic.
#[test]
fn a_sound_answer_making_a_near_entrys_points_is_on_topic_with_no_reference() {
    let s = engine();
    let q = "说到工具，假如让你给一个 Agent 从头设计一整套工具，你最看重哪几条？";
    let a = "我会先定粒度：一个工具对应一个完整的业务动作，别把内部接口一个个原样暴露，不然模型得连着调好几次，中间\
             哪步错了都不好查。工具名用动词加名词，按服务加前缀，几个工具之间功能别重叠，不然模型老选错。然后是描述，\
             要写清楚这个工具干什么、什么场景该用、什么场景别用，参数各自是什么意思，这比起个好听的函数名重要。参数用 \
             JSON Schema 约束住，类型写死，取值是固定几种的就用枚举，必填的标 required。返回的时候只挑模型用得上的字段，\
             别把接口的原始响应整个塞回去，既费 token 又容易把模型带偏。另外像退款、删除这种有副作用的操作，要加二次确认。";
    let (_, chosen, c) = scoring::assess_question(s, q, a, Lang::Zh, &Default::default()).unwrap();
    let id = chosen.map(|i| s.kb.entries[i].id.clone());
    println!("{id:?} {} {:?}", c.overall, c.relevance);
    assert!(c.relevant && c.overall >= 60, "{id:?} {c:?}");
    assert_eq!(id, None);
    let off = "我们的日志都进了 Elasticsearch，用 Kibana 做看板，每周看一次错误率和延迟的趋势，有异常就拉群排查。";
    let (_, chosen, o) = scoring::assess_question(s, q, off, Lang::Zh, &Default::default()).unwrap();
    println!("{chosen:?} {} {:?}", o.overall, o.relevance);
    assert!(!o.relevant && o.overall < 25, "{chosen:?} {o:?}");
}

/// An answer to a question the base lacks that restates the question says nothing to judge: it is
/// not raised to the floor of on-topic answers (25) and the report says why. A sound answer in as
/// few words stays well above it.
#[test]
fn a_restatement_of_a_question_the_base_lacks_is_not_raised_to_weak() {
    let s = engine();
    let q = "How does write-ahead logging let a database recover after a crash?";
    let restated = "Write-ahead logging lets the database recover after a crash, because the database uses the \
                    write-ahead log to recover after the crash happens.";
    let sound = "Every change is appended to a sequential log and flushed before the data page is written; after a \
                 crash the system replays committed records and undoes unfinished ones.";
    let score = |a: &str| scoring::assess_question(s, q, a, Lang::En, &Default::default()).unwrap();
    let ((_, restated_ref, restated), (_, _, sound)) = (score(restated), score(sound));
    println!("restated {} sound {}", restated.overall, sound.overall);
    assert!(restated_ref.is_none() && restated.relevant, "{restated_ref:?} {}", restated.relevant);
    assert!(restated.overall < 25, "{}", restated.overall);
    assert!(restated.accuracy.detail.contains("little beyond the question"), "{}", restated.accuracy.detail);
    assert!(
        sound.overall >= 40 && sound.overall >= restated.overall + 25,
        "sound {} restated {}",
        sound.overall,
        restated.overall
    );
}

/// Two one-liners held at the cap tie whatever they say; within it, the one less surely on the
/// question scores lower (the second quiz set's ties at 40, `scoring::content`). Before: 40 and 40.
#[test]
fn of_two_one_liners_at_the_cap_the_one_that_answers_scores_higher() {
    let s = engine();
    let q = "What does a load balancer do?";
    let score = |a: &str| scoring::assess_question(s, q, a, Lang::En, &Default::default()).unwrap().2;
    let right = score("It spreads incoming requests across several servers so that no single server is overloaded.");
    let beside = score("It encrypts the traffic between the browser and the server with TLS certificates.");
    println!("{} {:?} / {} {:?}", right.overall, right.relevance, beside.overall, beside.relevance);
    assert!(right.overall > beside.overall, "{} vs {}", right.overall, beside.overall);
    assert!((30..=40).contains(&right.overall), "a sound one-liner stays near the cap: {}", right.overall);
}

/// With no reference, on a topic the base holds entries on, what an answer says counts fully
/// only in the words those entries use (`scoring::unreferenced`): a confident claim worded in
/// terms no nearby entry uses ("browser's local storage") weighs less. Before: 40 and 38.
#[test]
fn a_claim_in_words_the_fields_experts_do_not_use_weighs_less() {
    let s = engine();
    let q = "Why would you route easy requests to a smaller model in an agent system?";
    let assess = |a: &str| scoring::assess_question(s, q, a, Lang::En, &Default::default()).unwrap();
    let (_, right_ref, right) =
        assess("Smaller models answer simple requests well enough at a fraction of the cost and latency.");
    let (_, wrong_ref, wrong) =
        assess("Smaller models fit in the browser's local storage, so the page works offline without any server.");
    println!("{} {:?} / {} {:?}", right.overall, right.relevance, wrong.overall, wrong.relevance);
    assert!(right_ref.is_none() && wrong_ref.is_none(), "the base holds no entry for this question");
    assert!(right.overall >= wrong.overall + 8, "{} vs {}", right.overall, wrong.overall);
}

/// Story questions in words no list of phrases holds, and questions that dig into the candidate's
/// project in words like a story question's. Recognised by meaning (`scoring::asks_story`), a
/// story question's answers are judged on the story's structure: platitudes no longer score like
/// an account of what happened (before: the story 85, the platitudes 49).
#[test]
fn a_story_question_in_words_no_list_holds_is_judged_as_one() {
    let s = engine();
    let stories = [
        "我看你简历上写了带过三个人，这期间最让你头疼的一件事是什么？",
        "What pushed you to move from backend work into machine learning?",
    ];
    for q in stories {
        assert!(!scoring::asks_story::is_behavioral_question(q), "a phrase or form knows it: {q}");
        assert!(scoring::asks_story::asks_story(s, q), "{q}");
    }
    for q in
        ["你们线上的幻觉问题是怎么处理的？", "How did your team handle retries when the payment provider timed out?"]
    {
        assert!(!scoring::asks_story::asks_story(s, q), "{q}");
    }
    let story = "去年我带三个人做客服 Agent。最头疼的是一个新同事连续两周交不出东西，我一开始以为是态度问题。后来我单独跟他聊，\
                 发现是他不熟悉我们的评测流程，又不好意思问。我就把任务拆成每天能交付的小块，每天下午花二十分钟跟他过一遍。\
                 一个月后他能独立负责检索模块，那个季度他提交的改动让召回率从 71% 提到了 80%。这件事之后我给组里每个新人都配了\
                 固定的一对一时间。";
    let platitudes =
        "带团队最重要的是沟通和信任。我觉得作为负责人要以身作则，多关心团队成员的成长，遇到问题大家一起想办法解决，\
                      保持积极的心态，团队氛围好了效率自然就上来了。";
    let score = |a: &str| scoring::assess_question(s, stories[0], a, Lang::Zh, &Default::default()).unwrap().2;
    let (story, platitudes) = (score(story), score(platitudes));
    println!(
        "story {} {:?}, platitudes {} {:?}",
        story.overall, story.star_missing, platitudes.overall, platitudes.star_missing
    );
    assert!(story.overall >= 60, "{}", story.overall);
    assert!(platitudes.overall < 40, "{}", platitudes.overall);
    assert!(story.overall >= platitudes.overall + 30, "story {} platitudes {}", story.overall, platitudes.overall);
}

/// A question that leans on its set-up ("Our support team records… How would you architect the
/// pipeline?") is judged, when the base holds no entry for it, with that set-up: against "How
/// would you architect the pipeline?" alone a sound answer read as off-topic. A give-up in other
/// words ("I couldn't tell you") is still a give-up.
#[test]
fn a_question_leaning_on_its_set_up_is_judged_with_it_and_a_give_up_is_one() {
    let s = engine();
    let q = "Okay, a design one. Our support team records every customer call, a few thousand a day, and wants \
             them transcribed, summarised and searchable by the next morning. How would you architect the pipeline?";
    let a = "Calls land in object storage and each upload puts a job on a queue, so nothing heavy happens in the \
             request path. Workers run speech-to-text in batches overnight on a GPU pool sized for the daily \
             volume, write the transcript back with a status per call, and retry failed calls with backoff before \
             they go to a dead-letter queue. A second stage summarises each transcript with a small model and \
             chunks it, embeds the chunks and writes them to the search index with the call's metadata, so search \
             can filter by agent and date. Every stage is idempotent on the call id, so a rerun never duplicates \
             rows, and a dashboard shows how many calls are still pending before the morning deadline.";
    let (_, chosen, c) = scoring::assess_question(s, q, a, Lang::En, &Default::default()).unwrap();
    println!("{chosen:?} {} {:?} {}", c.overall, c.relevance, c.improvement);
    assert!(c.relevant && c.overall >= 60, "{chosen:?} {c:?}");
    let q = "Have you ever self-hosted a model? How would you size GPUs for a seventy-billion model?";
    let a = "Honestly, no, I haven't. We always used hosted APIs. I know the KV cache takes a lot of memory, \
             but how to size it for real traffic I couldn't tell you without reading up on it.";
    let (_, _, c) = scoring::assess_question(s, q, a, Lang::En, &Default::default()).unwrap();
    println!("{} {}", c.overall, c.band);
    assert!(c.overall <= 15, "{c:?}");
}

/// A confident claim that a hard problem is simply gone, with no entry to check it against, is at
/// most weak and says why; the same question answered with its conditions is not touched.
#[test]
fn an_answer_claiming_a_hard_problem_gone_is_at_most_weak() {
    let s = engine();
    let q = "你们用了消息队列以后，怎么保证同一条消息不会被重复消费？";
    let claim =
        "我们用的是 Kafka，开了幂等生产者和事务以后，它本身就是 exactly-once 的，消费端拿到的每条消息只会处理一次，\
                 所以重复消费这个问题基本就解决了，下游写库也不用再做什么去重。";
    let sound =
        "Kafka 的 exactly-once 只覆盖它自己的读-处理-写链路，消费端调外部接口、写数据库这些副作用还是至少一次的。\
                 所以我们在消费端做幂等：每条消息带业务唯一键，写库用唯一索引加 upsert，调下游接口时带幂等键，\
                 重复投递时直接跳过。另外 offset 在业务写成功之后再提交，宁可重复也不丢。";
    let (_, _, c) = scoring::assess_question(s, q, claim, Lang::Zh, &Default::default()).unwrap();
    let (_, _, ok) = scoring::assess_question(s, q, sound, Lang::Zh, &Default::default()).unwrap();
    println!("{} {:?} | {} {:?}", c.overall, c.inaccuracies, ok.overall, ok.inaccuracies);
    assert!(c.overall <= 45 && c.inaccuracies.iter().any(|m| m.contains("基本就解决")), "{c:?}");
    assert!(c.improvement.contains("太绝对"), "{}", c.improvement);
    assert!(ok.inaccuracies.is_empty() && ok.overall > c.overall + 15, "{ok:?}");
}

/// Whole interviews written outside the project (`data/eval/interviews_blind*`), split and scored
/// as `ivd diagnose` does, against their writers' grades: the third pair was written after the
/// changes these figures measure.
#[test]
fn whole_interviews_written_outside_agree_with_their_writers() {
    let rows = eval::blind::run(engine(), &Default::default()).unwrap();
    println!("{rows:#?}");
    let part = |p: &str| rows.iter().find(|r| r.part == p).unwrap();
    // Measured 2026-12-07: read Pearson 0.570 (0.472 before the set-up and give-up fixes), 2 of
    // 41 sound answers under 25 (3); held out 0.522 (0.569: a misconception judged off-topic
    // against a wrong entry is now judged with its set-up, and no reference tells it is wrong),
    // 1 of 25 (1), follow-ups 7 of 12 attached, 2 of 30 new questions taken for one. Stop 53's
    // follow-up rules (the read part's misses among what they were chosen on): follow-ups read 11
    // -> 14 of 16, held out 7 -> 8 of 12, new questions taken unchanged (2 of 56, 2 of 30).
    // Stop 54: an answer claiming a hard problem simply gone is at most weak (the claims were
    // written on the read part; the held-out pair's wrong answers had been read): wrong answers
    // at 50+ read 11 -> 5 of 21, held out 6 -> 4 of 11; Pearson 0.626 and 0.599.
    let (read, held) = (part("read"), part("held out"));
    assert!(read.wrong_50 <= 7 && held.wrong_50 <= 5, "wrong answers at 50+: {} {}", read.wrong_50, held.wrong_50);
    assert!(read.follow_ups_attached * 4 >= read.follow_ups * 3, "follow-ups attached, read part");
    assert!(read.new_questions_attached <= 3, "new questions taken for follow-ups, read part");
    assert_eq!(read.missing + held.missing, 0, "every graded answer found");
    assert!(read.pearson >= 0.55 && held.pearson >= 0.5, "{} {}", read.pearson, held.pearson);
    assert!(read.sound_under_25 <= 3 && held.sound_under_25 <= 2, "sound answers told off-topic");
    assert!(held.follow_ups_attached * 2 >= held.follow_ups, "follow-ups attached");
    assert!(held.new_questions_attached <= 4, "new questions taken for follow-ups");
    // Remarks the candidate only reacts to are no question: 5 of 6 taken for one on each part
    // before (read, held out), 0 and 1 since.
    assert!(held.remarks_taken <= 2 && read.remarks_taken <= 1, "remarks taken for questions");
    // The fourth pair, written in stop 54 after its change was chosen and read by nobody since:
    // Pearson 0.452, 1 of 14 sound answers under 25, 8 of 14 wrong answers at 50+ (the absolute
    // claims found none there), follow-ups 6 of 12, new questions 1 of 30.
    let unseen = part("unseen");
    assert_eq!(unseen.missing, 0, "every graded answer found");
    assert!(unseen.pearson >= 0.35 && unseen.sound_under_25 <= 2, "{unseen:?}");
    // The fifth pair, written in stop 55 after its change was chosen and read by nobody since:
    // Pearson 0.445, none of 19 sound answers under 25, 9 of 12 wrong answers at 50+.
    let unseen2 = part("unseen 2");
    assert_eq!(unseen2.missing, 0, "every graded answer found");
    assert!(unseen2.pearson >= 0.35 && unseen2.sound_under_25 <= 2, "{unseen2:?}");
}
