//! The words by which [`super::asking`] tells whether a turn asks: question words, requests,
//! rhetorical openers, tags, and what closes a question the interviewer answers themselves.

/// Words that open an English sentence without changing what it does.
pub(super) const LEAD_IN: &[&str] = &[
    "so", "and", "but", "okay", "ok", "well", "now", "alright", "right", "then", "um", "uh", "ha", "oh", "huh",
    "please",
];
/// Question words; they ask when an auxiliary or a subject follows ("what do you", "how many").
pub(super) const WH: &[&str] = &["what", "how", "why", "when", "where", "which", "who", "whose"];
/// Auxiliaries: opening a sentence, or right after a question word, they ask.
pub(super) const AUX: &[&str] = &[
    "do", "does", "did", "is", "are", "was", "were", "would", "will", "can", "could", "should", "have", "has", "had",
    "shall", "may", "might", "must",
];
/// Subjects after an opening auxiliary: "Did the team keep using it", "Is anyone on call".
pub(super) const SUBJECTS: &[&str] = &[
    "you", "we", "they", "there", "it", "that", "this", "your", "the", "a", "an", "any", "anyone", "anybody",
    "anything", "someone", "somebody", "he", "she", "i", "those", "these", "their", "our", "his", "her", "its",
    "everyone", "people", "all", "other",
];
/// After "how": degree words that ask ("how many", "how long").
pub(super) const HOW_DEGREE: &[&str] =
    &["many", "much", "long", "often", "big", "fast", "large", "far", "well", "come", "about"];
/// Openers that ask with no question word or mark.
pub(super) const ASKING_EN: &[&str] = &[
    "talk about",
    "share how",
    "share what",
    "share why",
    "share an example",
    "share a time",
    "share your experience",
    "share your thoughts",
    "share more",
    "share some",
    "name",
    "list",
    "compare",
    "summarize",
    "summarise",
    "let's hear",
    "walk me through",
    "walk us through",
    "go over",
    "talk me through",
    "talk us through",
    "tell me",
    "tell us",
    "describe",
    "explain",
    "can you",
    "could you",
    "would you",
    "i'd like to hear",
    "i would like to hear",
    "i'd love to hear",
    "i would love to hear",
    "i'd like to know",
    "i would like to know",
    "i'd like you to",
    "i'm curious",
    "i am curious",
    "i want to hear",
    "i want to know",
    "i wonder",
    "i'm wondering",
    "suppose",
    "say ",
    "imagine",
    "let's say",
    "what about",
    "how about",
    "show me",
    "go through",
    "run me through",
    "give me",
    "help me understand",
    "take me through",
    // Tasks: "Write a function that…", "Design a rate limiter for…".
    "write a ",
    "write an ",
    "write me",
    "write some",
    "implement a",
    "implement an",
    "implement the",
    "design a ",
    "design an ",
    "design the",
    "sketch",
    "code up",
];
/// First-person requests that ask wherever they stand in the sentence: "We run forty services
/// on Kafka, so I want to understand how you'd design idempotent consumers".
pub(super) const REQUESTS_EN: &[&str] = &[
    "i want to understand",
    "i'd like to understand",
    "i would like to understand",
    "i want to hear",
    "i want to know",
    "i'd like to know",
    "i'd like to hear",
    "i'd love to hear",
    "i'd love to know",
    "i'd be curious",
    "i'd be interested to hear",
    "i'm curious how",
    "i'm curious what",
    "i'm curious why",
    "i'm wondering",
    "help me understand",
];
/// Rhetorical openers: asked only to be answered by the one asking, or by nobody.
pub(super) const RHETORICAL_EN: &[&str] = &[
    "who doesn't",
    "who hasn't",
    "who isn't",
    "who wouldn't",
    "who didn't",
    "who knew",
    "who cares",
    "why would anyone",
    "why would anybody",
    "isn't that always",
    "what could go wrong",
    "what could possibly go wrong",
    "guess what",
    "how cool is that",
    "how crazy is that",
    "isn't it funny",
    "isn't it ironic",
    "who has time",
    "who would have thought",
    "who'd have thought",
    "you know what i mean",
];
/// Chinese rhetorical openers ("谁不喜欢…", "哪有…", "难道不是…").
pub(super) const RHETORICAL_ZH: &[&str] = &[
    "谁不",
    "谁没",
    "谁会不",
    "谁能想到",
    "谁想得到",
    "谁有时间",
    "哪有",
    "难道不是",
    "可不是",
    "那可不",
    "何必",
    "何尝",
];
/// A question of one tag word asks for a nod ("Right?", "是吧？").
pub(super) const BARE_TAGS: &[&str] =
    &["right", "okay", "ok", "yeah", "you know", "是吧", "对吧", "好吧", "是不是", "对不对"];
/// Openers of the next sentence that show the speaker answered their own question.
pub(super) const SELF_ANSWERS: &[&str] =
    &["nobody", "no one", "none", "nothing", "never", "就是", "答案是", "答案就是"];
/// Chinese tags asking for a nod: "这就是经典的 trade-off 嘛，是不是？".
/// What an interviewer says after a question to close it, even one put to the candidate ("Can
/// you hear me okay? Great, you're back."): an acknowledgement or a change of subject.
pub(super) const ACKNOWLEDGEMENTS: &[&str] = &[
    "okay",
    "ok",
    "great",
    "cool",
    "good",
    "nice",
    "yeah",
    "yep",
    "yes",
    "alright",
    "anyway",
    "never mind",
    "actually, never mind",
    "moving on",
    "好，",
    "好的",
    "好了",
    "好吧",
    "行，",
    "行吧",
    "嗯",
    "哦",
    "算了",
    "没事",
];
/// A reaction that closes a question of the interviewer's own ("Oh really? Interesting.", "三次
///重试还不加退避？哎哟。"), not one put to the candidate.
pub(super) const REACTIONS: &[&str] = &[
    "interesting",
    "ouch",
    "wow",
    "ha",
    "haha",
    "brave",
    "fair enough",
    "ah, right",
    "oh, right",
    "honestly",
    "some people",
    "nope",
    "哈哈",
    "哎",
    "唉",
    "那挺",
    "挺好",
    "确实",
    "有人觉得",
    "有人说",
    "其实没有",
    "其实也没",
    "反正",
];
/// After an acknowledgement, what still leaves the question to the candidate.
pub(super) const ENCOURAGEMENTS: &[&str] =
    &["take your time", "no rush", "go ahead", "慢慢", "不着急", "不急", "你先想", "你说"];
/// What narrows a question rather than closing it ("And the latency? I mean end to end.").
pub(super) const CLARIFIERS: &[&str] = &[
    "i mean",
    "especially",
    "in particular",
    "roughly",
    "就是",
    "我是说",
    "我的意思是",
    "我指的是",
    "特别是",
    "尤其是",
    "比如",
];
/// Sounds that open an echo ("Oh really?", "Huh, pgvector at that scale?").
pub(super) const INTERJECTIONS: &[&str] = &["oh", "huh", "wow", "ah", "hmm", "really"];
pub(super) const TAGS_ZH: &[&str] = &["对吧", "是吧", "是不是", "对不对", "不是吗", "没错吧", "你说是吧", "对不"];
/// Tags that turn a statement into a remark asking for agreement, not an answer.
pub(super) const TAGS: &[&str] = &[
    "right",
    "isn't it",
    "aren't they",
    "don't you think",
    "no",
    "huh",
    "eh",
    "wouldn't you say",
    "isn't that so",
    "don't they",
    "doesn't it",
    "yeah",
    "you know",
    "wasn't it",
];
/// Chinese words that ask wherever they stand.
pub(super) const ASKING_ZH: &[&str] = &[
    "怎么",
    "怎样",
    "如何",
    "为什么",
    "为啥",
    "什么",
    "哪些",
    "哪个",
    "哪里",
    "哪儿",
    "哪种",
    "哪一",
    "多少",
    "多大",
    "多久",
    "多长",
    "几个",
    "是否",
    "有没有",
    "是不是",
    "能不能",
    "会不会",
    "要不要",
    "对不对",
    "可不可以",
    "行不行",
];
/// Openers that ask in Chinese without a question word.
pub(super) const PROMPTS_ZH: &[&str] = &[
    "介绍一下",
    "介绍下",
    "说说",
    "谈谈",
    "聊聊",
    "描述一下",
    "解释一下",
    "分享一下",
    "讲一下",
    "说一下",
    "聊一下",
    "谈一下",
    "讲讲",
    "举个",
    "举一个",
    "详细讲",
    "详细说",
    "展开讲",
    "展开说",
    "我想了解",
    "想了解一下",
    "想听听",
    "我想听",
    "你觉得",
    "你认为",
    "你怎么看",
    "假设",
    "假如",
    "如果让你",
    "如果你",
    "那如果",
    // Tasks: "写一下 LRU cache 吧".
    "写一下",
    "写个",
    "实现一下",
    "设计一下",
    "画一下",
    "比较一下",
    "对比一下",
    "分析一下",
    "估算一下",
    "推导一下",
];
/// What, before a Chinese question word, makes it part of a statement ("我也不知道为什么…").
pub(super) const NOT_ASKING_ZH: &[&str] = &[
    "不知道",
    "不清楚",
    "不管",
    "无论",
    "不论",
    "没什么",
    "不为什么",
    "说不上",
    "搞不懂",
    "不明白",
    "知道为什么",
    "再怎么",
];
/// Quantities that state rather than ask ("好几个候选人", "或多或少").
pub(super) const QUANTITIES_ZH: &[&str] = &[
    "好几个",
    "这几个",
    "那几个",
    "前几个",
    "后几个",
    "头几个",
    "或多或少",
    "多多少少",
    "没多少",
    "没多久",
    "就是为什么",
    "也是为什么",
];
/// Chinese question words that are part of a statement when these follow them.
pub(super) const STATEMENT_TAILS_ZH: &[&str] =
    &["什么来着", "什么都", "什么的", "怎么说呢", "怎么都", "哪儿都", "哪里都", "多少都"];
