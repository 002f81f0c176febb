//! The words and thresholds by which `follow_up` tells a follow-up from a new question: kept
//! apart so that the rules read as rules. Each says where it was chosen or measured.

/// Openers of a question that digs into the previous answer.
pub(super) const FOLLOW_UP_ZH: &[&str] = &[
    "你刚才提到",
    "你刚才说",
    "刚才你说",
    "刚才你提到",
    "你提到",
    "你说的",
    "你说到",
    "那如果",
    "具体来说",
    "具体讲",
    "具体说",
    "追问一下",
    "追问",
    "展开说说",
    "展开讲讲",
    "详细说说",
    "再深入",
    "那为什么",
    "为什么不",
    "为什么这么",
    "举个例子",
    "那这个",
    "那在这种",
    "那要是",
    "要是",
    "万一",
    "后来",
    "那后来",
    "然后呢",
];
pub(super) const FOLLOW_UP_EN: &[&str] = &[
    "you mentioned",
    "following up",
    "follow up",
    "follow-up",
    "what if",
    "can you go deeper",
    "go deeper",
    "how exactly",
    "going back to what you said",
    "you said",
    "can you elaborate",
    "could you elaborate",
    "elaborate on",
    "why did you",
    "can you give an example",
    "could you give an example",
    "dig into",
    "and if",
    "what happens if your",
    "why not",
    "how long did",
    "how much did",
    "what happens when your",
    "then what",
    "and then what",
];
/// Openers that announce a new topic and so rule out a follow-up.
pub(super) const NEW_TOPIC: &[&str] = &[
    "换个话题",
    "接下来",
    "下一个问题",
    "下个问题",
    "另一个问题",
    "另外一个问题",
    "我们聊聊",
    "我们来聊",
    "我们再聊",
    "我们换",
    "let's move on",
    "moving on",
    "move on",
    "next question",
    "switching gears",
    "switch gears",
    "another topic",
    "different topic",
    "let's talk about",
    "let's switch",
    "new topic",
    "dive in",
];
/// A hypothetical that sets the candidate a task of their own ("那如果让你做一个代码库问答的助手…")
/// opens a new question, however it starts.
pub(super) const NEW_TASK: &[&str] = &[
    "让你设计",
    "让你做",
    "让你从零",
    "让你来",
    "if you had to design",
    "if you had to build",
    "if you were to design",
    "if you were to build",
];
/// Openers that set a task of its own ("Design a typeahead service…", "设计一个短链服务"): only at
/// the start, since "Why did you design a custom queue?" digs into the answer.
pub(super) const NEW_TASK_START: &[&str] = &["design a ", "design an ", "设计一个", "请设计", "请你设计"];
/// A question that asks how a thing works or differs, or what one does in general ("What's the
/// difference between HNSW and IVF?", "HNSW 的原理是什么？", "p99 突然升高你一般怎么排查？"),
/// stands alone even when it names something the answer named.
pub(super) const STANDS_ALONE: &[&str] = &[
    "difference between",
    "differences between",
    "how does",
    "how do you generally",
    "in general",
    "generally",
    "typically",
    "区别",
    "原理",
    "一般",
    "通常",
];
/// Words that point back at what was just said ("Does that scale?", "这样成本不低吧",
/// "当时为什么不直接换模型？"): a question standing alone has nothing for them to point at.
pub(super) const REFERS_BACK_EN: &[&str] = &[
    "does that",
    "did that",
    "is that",
    "was that",
    "would that",
    "will that",
    "could that",
    "that approach",
    "that number",
    "that threshold",
    "that choice",
    "that decision",
    "that step",
    "that setup",
    "that change",
    "handle that",
    "about that",
];
pub(super) const REFERS_BACK_ZH: &[&str] =
    &["这样", "这么做", "这么搞", "这种做法", "这个方案", "这个阈值", "这个数", "这一步", "当时", "这件事", "剩下"];
/// How far into the question (characters) a word pointing back counts.
pub(super) const REFERS_BACK_HEAD_EN: usize = 30;
pub(super) const REFERS_BACK_HEAD_ZH: usize = 12;
/// Openers of a Chinese question that point back ("这个对生成速度有影响吗？").
pub(super) const STARTS_BACK_ZH: &[&str] = &["这个", "这些", "那些"];
/// A short Chinese question asking for a figure ("一条大概多少钱？"), or one asking how much
/// something changed ("量化之后效果掉了多少？"), asks about what was described.
pub(super) const FIGURE_ZH: &[&str] = &["多少", "多久", "多长时间"];
pub(super) const FIGURE_CJK: usize = 8;
pub(super) const CHANGE_ZH: &str = "了多少";
/// Conditionals that ask about the situation just described when they end in "呢"
/// ("如果用户回头问一个被摘要丢掉的细节呢？").
pub(super) const CONDITIONAL_ZH: &[&str] = &["如果", "要是", "万一", "假如"];
/// Challenges that are one wherever they stand in the question ("现在不都得自己维护了？").
pub(super) const STRONG_CHALLENGE_ZH: &[&str] = &["不都得", "不都要", "不都是", "难道", "岂不", "不就是", "不就得"];
/// Share of a question's content words found in the previous pair that makes it a follow-up even
/// without an opener: high, because every question of an agent interview shares some vocabulary.
pub(super) const OVERLAP_FOLLOW_UP: f64 = 0.6;
/// Fewer content words than this are too few to judge overlap.
pub(super) const OVERLAP_MIN_TOKENS: usize = 4;

/// Words of the field that every question of an interview shares: named in the answer and again
/// in the question, they are its topic, not a specific it digs into.
pub(super) const FIELD_TERMS: &[&str] = &[
    "ai",
    "api",
    "apis",
    "agent",
    "agents",
    "llm",
    "llms",
    "rag",
    "prompt",
    "prompts",
    "embedding",
    "embeddings",
    "token",
    "tokens",
    "model",
    "models",
    "gpt",
    "json",
    "sql",
    "http",
    "ok",
    "okay",
];
/// A question this short (words, or Chinese characters) leans on the answer before it.
pub(super) const SHORT_WORDS: usize = 4;
pub(super) const SHORT_CJK: usize = 6;
/// Short Chinese questions that ask for more of the same ("比如说？", "具体差多少？").
pub(super) const SHORT_OPENERS_ZH: &[&str] = &["比如", "具体", "然后呢", "为什么", "多少", "怎么说"];
/// Negative questions that challenge what was just said ("Isn't that expensive?").
pub(super) const CHALLENGE_EN: &[&str] =
    &["isn't", "doesn't", "wouldn't", "won't", "aren't", "didn't", "don't", "couldn't", "shouldn't", "hasn't"];
pub(super) const CHALLENGE_ZH: &[&str] = &["不会", "会不会", "难道", "不都", "不就", "岂不", "不怕"];
/// Words before the question proper ("Hmm, isn't…", "那…").
pub(super) const FILLERS: &[&str] =
    &["hmm", "so", "and", "but", "okay", "ok", "well", "right", "嗯", "那", "可是", "但是"];
/// Determiners that point at a thing already named ("Where did the labels come from?", "those
/// recall numbers"): the word after one, said in the answer and not in its question, is a
/// specific the question digs into. Chosen on the fitting halves of `data/eval/followups*.jsonl`,
/// then narrowed on the sample transcripts, whose new questions it took for follow-ups: "that"
/// is as often a relative pronoun ("an agent that browses the web"), and a field word after the
/// determiner names the field ("the model returns…").
pub(super) const DEFINITE_EN: &[&str] = &["the", "those", "these"];
/// Words after a determiner that name nothing the answer introduced: adjectives that go with any
/// noun ("the final answer", "the most common mistake"), and things every answer has.
pub(super) const NOT_ANCHORS: &[&str] = &[
    "final", "whole", "same", "other", "first", "last", "best", "main", "right", "overall", "next", "previous",
    "entire", "real", "most", "least", "biggest", "hardest", "common", "usual", "typical", "data", "system", "user",
    "users", "team", "time", "way", "thing", "things",
];
/// A word of the question and one of the answer are the same word when they share their first
/// letters up to three short of the shorter ("the labels" and "labeled", "the re-embedding" and
/// "re-embed"; not "underlying" and "understand"), and at least this many; shorter words of the
/// answer are too common to be what a question points at.
pub(super) const ANCHOR_STEM: usize = 5;
pub(super) const ANCHOR_SUFFIX: usize = 3;
pub(super) const ANCHOR_MIN_LEN: usize = 5;
/// A yes/no question that doubts a claim came true ("Have you ever actually switched a task
/// over?", "Did the critic actually change anything?"): its opener, and the word of doubt.
pub(super) const DOUBT_OPENERS_EN: &[&str] = &["did", "has", "have", "was", "were", "does", "do", "is"];
pub(super) const DOUBT_EN: &str = "actually";
/// A question this short (words) with a pronoun and nothing for it to stand for leans on the
/// answer ("Would you do it again?").
pub(super) const PRONOUN_SHORT_WORDS: usize = 8;
pub(super) const PRONOUNS_BACK: &[&str] = &["it", "them"];
/// "那" before a count points at what the answer counted ("洗掉的那一万多条", "那一步").
pub(super) const COUNT_ZH: &str = "一二三四五六七八九十几两0123456789";
/// A later sentence that asks for the specifics of what the first named ("那切块呢？具体怎么切的？").
pub(super) const SPECIFICS_ZH: &str = "具体";
/// A yes/no question that doubts a claim holds ("用大模型当裁判，你们信得过吗？").
pub(super) const DOUBT_ZH: &[&str] = &["信得过", "靠得住", "真的"];
/// "Since then, has it ever…?" ("上线之后出过问题吗？"): what came after the thing described, and
/// whether it ever happened ("过" in a yes/no question); how far into the question the "after" counts.
pub(super) const AFTER_ZH: &[&str] = &["之后", "以后"];
pub(super) const AFTER_HEAD_ZH: usize = 6;
pub(super) const EVER_ZH: char = '过';
