//! Every line the analyzer writes, in the interview's language: an English report carries no
//! Chinese the analyzer produced, a Chinese one no English labels.

use crate::lang::Lang;

/// The calibrated scale (README, every report): 85-100 expert level, 70-84 solid, 50-69 partial,
/// 25-49 weak, 0-24 off-topic or no answer (for one answer: off-topic, no answer or too thin,
/// [`answer_band`]).
pub const BANDS: &[(u32, &str, &str)] = &[
    (85, "专家水平", "expert level"),
    (70, "扎实", "solid"),
    (50, "部分达标", "partial"),
    (25, "薄弱", "weak"),
    (0, "离题或未作答", "off-topic or no answer"),
];

pub fn band(score: u32, lang: Lang) -> &'static str {
    let b = BANDS.iter().find(|(min, _, _)| score >= *min).unwrap_or(&BANDS[BANDS.len() - 1]);
    if lang == Lang::Zh {
        b.1
    } else {
        b.2
    }
}

/// Why an answer sits under 25, when the analyzer knows: the band then says which, rather than
/// "off-topic or no answer" for an on-topic answer of one sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lowest {
    OffTopic,
    NoAnswer,
    TooThin,
}

/// The band of one answer: [`band`], with the lowest one named by its reason.
pub fn answer_band(score: u32, why: Option<Lowest>, lang: Lang) -> &'static str {
    let named = match why {
        _ if score >= BANDS[BANDS.len() - 2].0 => None,
        Some(Lowest::OffTopic) => Some(("离题", "off-topic")),
        Some(Lowest::NoAnswer) => Some(("未作答", "no answer")),
        Some(Lowest::TooThin) => Some(("过于单薄", "too thin")),
        None => None,
    };
    match named {
        Some((zh, _)) if lang == Lang::Zh => zh,
        Some((_, en)) => en,
        None => band(score, lang),
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Texts(pub Lang);

impl Texts {
    fn zh(&self) -> bool {
        self.0 == Lang::Zh
    }

    fn t(&self, zh: String, en: String) -> String {
        if self.zh() {
            zh
        } else {
            en
        }
    }

    pub fn sep(&self) -> &'static str {
        if self.zh() {
            "；"
        } else {
            "; "
        }
    }

    pub fn covers(&self, covered: usize, total: usize, missing: &[String]) -> String {
        if missing.is_empty() {
            return self.t(format!("覆盖全部 {total} 个要点"), format!("covers all {total} key points"));
        }
        self.t(
            format!("覆盖 {covered}/{total} 个要点；缺少：{}", missing.join("；")),
            format!("covers {covered} of {total} key points; missing: {}", missing.join("; ")),
        )
    }

    /// The share of the reference answer's own terms the answer uses (half of completeness).
    pub fn recalls(&self, share: f64) -> String {
        // `+ 0.0` and the floor at 0: a share that rounds to nothing reads "0%", never "-0%".
        let p = (share * 100.0).round().max(0.0) + 0.0;
        self.t(format!("用到参考答案 {p}% 的术语"), format!("uses {p}% of the reference answer's terms"))
    }

    pub fn star_missing(&self, parts: &[String]) -> String {
        self.t(format!("STAR 结构缺少：{}", parts.join("、")), format!("STAR structure lacks: {}", parts.join(", ")))
    }

    pub fn no_reference(&self, structure: usize, own_terms: usize) -> String {
        self.t(
            format!(
                "知识库中没有这个问题的参考答案，按内容和结构评估：问题之外的术语 {own_terms} 个，{structure} 处分点/顺序表述"
            ),
            format!(
                "no reference answer in the knowledge base for this question; judged on what it says and its structure: {own_terms} terms beyond the question's, {structure} enumeration markers"
            ),
        )
    }

    /// A technical answer with no reference: completeness is what it says beyond the question.
    pub fn no_reference_said(&self, own_terms: usize) -> String {
        self.t(
            format!("知识库中没有这个问题的参考答案，按回答本身的内容评估：问题之外的术语 {own_terms} 个"),
            format!(
                "no reference answer in the knowledge base for this question; judged on what it says: {own_terms} terms beyond the question's"
            ),
        )
    }

    pub fn accuracy(&self, closer_to_expert: bool, mistakes: usize) -> String {
        self.t(
            format!("内容更接近{}答案；{mistakes} 处常见误区", if closer_to_expert { "专家" } else { "新手" }),
            format!(
                "closer to the {} answer; {mistakes} known misconception(s)",
                if closer_to_expert { "expert" } else { "novice" }
            ),
        )
    }

    pub fn accuracy_unassessed(&self) -> String {
        self.t("没有参考答案可对照，准确性未评估".into(), "no reference to check against; accuracy not assessed".into())
    }

    pub fn depth(&self, reasoning: usize, terms: usize, trade_offs: usize) -> String {
        self.t(
            format!("{reasoning} 处因果/机制解释，{terms} 个专业术语，{trade_offs} 处取舍"),
            format!("{reasoning} explanations of cause or mechanism, {terms} domain terms, {trade_offs} trade-offs"),
        )
    }

    pub fn practicality(&self, numbers: usize, experience: usize, trade_offs: usize, examples: usize) -> String {
        self.t(
            format!("{numbers} 处数字，{experience} 处亲身经验，{trade_offs} 处取舍，{examples} 处举例"),
            format!("{numbers} numbers, {experience} first-hand experience cues, {trade_offs} trade-offs, {examples} examples"),
        )
    }

    pub fn makes_point(&self, p: &str) -> String {
        self.t(format!("讲到了要点：{p}"), format!("makes the key point: {p}"))
    }

    pub fn model_fallback(&self, reason: &str) -> String {
        self.t(
            format!("语言模型未参与本题（{reason}），仅按评分细则打分"),
            format!("the language model did not contribute ({reason}); scored by the rubric alone"),
        )
    }

    pub fn not_answered(&self) -> String {
        self.t("回答没有针对这个问题".into(), "the answer does not address this question".into())
    }

    /// Why a story question's answer is capped (`narrative`).
    pub fn untold(&self, u: super::narrative::Untold) -> String {
        match u {
            super::narrative::Untold::NotOwn => self.t(
                "没有讲自己的经历：这个问题要的是你亲身经历的一个例子".into(),
                "it tells nothing of your own experience: the question asks for one real example".into(),
            ),
            super::narrative::Untold::NoExample => self.t(
                "没有讲一个具体发生过的例子（当时的情况、你做了什么、结果如何）".into(),
                "no real example: tell one time it happened (the situation, what you did, the result)".into(),
            ),
        }
    }

    pub fn gives_up(&self) -> String {
        self.t("回答放弃了问题".into(), "the answer gives up on the question".into())
    }

    pub fn says_nothing_new(&self) -> String {
        self.t("回答几乎没有说出问题之外的内容".into(), "the answer says little beyond the question's own words".into())
    }

    /// Why generic talk is capped (`caps::vague_cap`).
    pub fn generic(&self) -> String {
        self.t(
            "大多是泛泛而谈（非常重视、多个层面、持续完善），没有可以核实的具体内容".into(),
            "mostly general statements (\"across the board\", \"at the end of the day\"), little that can be checked"
                .into(),
        )
    }

    /// What to do about generic talk.
    pub fn be_specific(&self) -> String {
        self.t(
            "把泛泛的说法换成具体内容：它是怎么工作的、你具体用过什么".into(),
            "replace the general statements with specifics: how it works and what you used".into(),
        )
    }

    pub fn one_liner(&self) -> String {
        self.t("回答只有一句话".into(), "the answer is a one-liner".into())
    }

    pub fn keyword_list(&self) -> String {
        self.t("只罗列了术语，没有解释".into(), "a list of terms without explanation".into())
    }

    /// Advice for an answer that misses its question: it quotes the question as asked (cut to a
    /// line), never a reference entry's, which may be another question.
    pub fn answer_the_question(&self, asked: &str) -> String {
        let asked = asked.trim();
        let short: String = asked.chars().take(90).collect();
        let q = if short.len() < asked.len() { format!("{short}…") } else { short };
        match Some(q.as_str()).filter(|q| !q.is_empty()) {
            Some(q) => self.t(
                format!("先正面回答被问到的问题（「{q}」），再展开相关内容。"),
                format!("Answer the question that was asked (\"{q}\") before anything else."),
            ),
            None => self.t(
                "先正面回答被问到的问题，再展开相关内容。".into(),
                "Answer the question that was asked before anything else.".into(),
            ),
        }
    }

    /// The advice for an answer too short to judge: one that gave up is told to say what it does
    /// know; a one-liner, to expand. Both start from the first missing point when there is one.
    pub fn expand(&self, gave_up: bool, first_missing: Option<&str>) -> String {
        let (zh, en) = if gave_up {
            (
                "即使不确定，也先说出你知道的部分和你会如何排查",
                "Even when unsure, say what you do know and how you would find out",
            )
        } else {
            (
                "展开回答：讲清机制、给出一个亲身经历的例子和数据",
                "Expand the answer: explain the mechanism, give one first-hand example and a number",
            )
        };
        match first_missing {
            Some(kp) => self.t(format!("{zh}，例如从「{kp}」讲起。"), format!("{en}; start from: {kp}.")),
            None => self.t(format!("{zh}。"), format!("{en}.")),
        }
    }

    pub fn add_point(&self, kp: &str) -> String {
        self.t(format!("补上要点「{kp}」"), format!("add the missing point: {kp}"))
    }

    pub fn absolute_claims(&self, n: usize) -> String {
        self.t(format!("{n} 处说得太绝对"), format!("{n} absolute claim(s)"))
    }

    pub fn unreferenced_claims(&self, n: usize) -> String {
        self.t(
            format!("没有参考答案可对照；有 {n} 处说得太绝对"),
            format!("no reference to check against; {n} absolute claim(s)"),
        )
    }

    pub fn absolute_claim(&self, claim: &str) -> String {
        self.t(
            format!("「{claim}」说得太绝对，讲清它在什么条件下成立、还会出什么问题"),
            format!("\"{claim}\" is an absolute claim; say when it holds and what can still go wrong"),
        )
    }

    pub fn correct(&self, m: &str) -> String {
        self.t(format!("纠正误区：{m}"), format!("correct the misconception: {m}"))
    }

    pub fn add_star(&self, part: &str) -> String {
        self.t(format!("讲清{part}"), format!("tell the {part}"))
    }

    pub fn add_number(&self) -> String {
        self.t("用一个你项目里的数字支撑".into(), "back it with a number from your own work".into())
    }

    pub fn add_trade_off(&self) -> String {
        self.t("说明方案的代价和取舍".into(), "say what the approach costs and what you traded off".into())
    }

    /// Parts joined into one sentence, or praise when there is nothing to add.
    pub fn sentence(&self, parts: &[String]) -> String {
        if parts.is_empty() {
            return self.t(
                "保持：结构清晰、有数据、有取舍。".into(),
                "Keep it up: structured, quantified, with trade-offs.".into(),
            );
        }
        let joined = parts.join(self.sep());
        if self.zh() {
            format!("{joined}。")
        } else {
            let mut c = joined.chars();
            c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str() + ".").unwrap_or_default()
        }
    }
}
