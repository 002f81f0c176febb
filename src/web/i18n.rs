//! The console's language: `?lang=` (which the switch sets, and a cookie keeps), else the browser's
//! `Accept-Language`, else English. Reports keep their own language, the interview's.

use std::collections::BTreeMap;

use axum::http::{header, HeaderMap};

use crate::lang::Lang;

pub const COOKIE: &str = "ivd_lang";

/// The page language for a request.
pub fn pick(query_lang: Option<&str>, headers: &HeaderMap) -> Lang {
    if let Some(l) = query_lang.and_then(parse) {
        return l;
    }
    let cookie = headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(|v| {
        v.split(';').map(str::trim).find_map(|kv| kv.strip_prefix(&format!("{COOKIE}=")).and_then(parse))
    });
    if let Some(l) = cookie {
        return l;
    }
    let accept = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
    accept_language(accept)
}

fn parse(s: &str) -> Option<Lang> {
    match s.trim().to_ascii_lowercase().as_str() {
        "zh" | "zh-cn" | "zh-hans" => Some(Lang::Zh),
        "en" => Some(Lang::En),
        _ => None,
    }
}

/// The best of Chinese and English by the header's weights; English when neither is named.
pub fn accept_language(header: &str) -> Lang {
    let mut best: Option<(f32, Lang)> = None;
    for part in header.split(',') {
        let mut it = part.split(';');
        let tag = it.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = it.find_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.parse::<f32>().ok())).unwrap_or(1.0);
        let lang = if tag.starts_with("zh") {
            Lang::Zh
        } else if tag.starts_with("en") {
            Lang::En
        } else {
            continue;
        };
        if best.is_none_or(|(bq, _)| q > bq) {
            best = Some((q, lang));
        }
    }
    best.map_or(Lang::En, |(_, l)| l)
}

/// Every string the console's pages show, in English and Chinese.
const STRINGS: &[(&str, &str, &str)] = &[
    ("app", "Interview Doctor", "面试诊断"),
    ("skip", "Skip to content", "跳到正文"),
    ("nav_diagnose", "Diagnose", "诊断"),
    ("nav_history", "History", "历史"),
    ("nav_kb", "Knowledge base", "知识库"),
    ("nav_status", "Status", "状态"),
    ("theme", "Theme", "主题"),
    ("theme_auto", "System", "跟随系统"),
    ("theme_light", "Light", "浅色"),
    ("theme_dark", "Dark", "深色"),
    ("language", "Language", "语言"),
    ("diagnose_title", "Diagnose an interview", "诊断一场面试"),
    ("diagnose_help", "A transcript (TXT, Markdown, SRT, VTT, JSON), a document (DOCX, PDF) or a recording (WAV, MP3, M4A, FLAC, OGG, WebM). Everything stays on this computer.", "文字稿（TXT、Markdown、SRT、VTT、JSON）、文档（DOCX、PDF）或录音（WAV、MP3、M4A、FLAC、OGG、WebM）。所有内容都留在本机。"),
    ("file", "File", "文件"),
    ("profile", "Profile", "档案"),
    ("interviewer", "Interviewer", "面试官"),
    ("candidate", "Candidate", "候选人"),
    ("speaker_names_help", "Speaker names, comma-separated, when detection gets them wrong (optional)", "说话人名字，逗号分隔；自动识别有误时填写（可选）"),
    ("start", "Diagnose", "开始诊断"),
    ("working", "Working…", "处理中…"),
    ("step_queued", "Waiting", "排队中"),
    ("step_decoding", "Decoding the recording", "解码录音"),
    ("step_voices", "Finding speech and speakers", "检测语音和说话人"),
    ("step_transcribing", "Transcribing", "转写"),
    ("step_scoring", "Scoring the answers", "评分"),
    ("failed", "The diagnosis failed", "诊断失败"),
    ("interrupted", "The server stopped before this diagnosis finished.", "诊断完成前服务已停止。"),
    ("retry", "Run it again", "重新运行"),
    ("download", "Download", "下载"),
    ("roles_title", "Roles wrong? Correct them and diagnose again", "角色不对？改正后重新诊断"),
    ("redo", "Diagnose again", "重新诊断"),
    ("history_title", "History", "历史记录"),
    ("no_sessions", "No sessions yet: diagnose an interview or practise with a mock interview.", "还没有记录：诊断一场面试，或做一次模拟面试。"),
    ("date", "Date", "日期"),
    ("kind", "Kind", "类型"),
    ("source", "Source", "来源"),
    ("overall", "Overall", "总分"),
    ("band", "Band", "等级"),
    ("completeness", "Completeness", "完整性"),
    ("depth", "Depth", "深度"),
    ("accuracy", "Accuracy", "准确性"),
    ("practicality", "Practicality", "实践性"),
    ("questions", "Questions", "问题数"),
    ("open", "Open", "打开"),
    ("delete", "Delete", "删除"),
    ("delete_confirm", "Delete this session for good?", "确定永久删除这条记录？"),
    ("trend", "Progress by dimension", "各维度进展"),
    ("show", "Show", "查看"),
    ("kb_title", "Knowledge base", "知识库"),
    ("search", "Search", "搜索"),
    ("search_placeholder", "A question, in English or Chinese", "输入问题（中文或英文）"),
    ("no_hits", "Nothing found.", "没有找到。"),
    ("dimension", "Dimension", "维度"),
    ("difficulty", "Difficulty", "难度"),
    ("expert_answer", "Expert answer", "专家回答"),
    ("novice_answer", "Novice answer", "新手回答"),
    ("gap", "The gap", "差距"),
    ("key_points", "Key points", "要点"),
    ("follow_ups", "Follow-up questions", "追问"),
    ("mistakes", "Common mistakes", "常见错误"),
    ("status_title", "Status", "状态"),
    ("models", "Models", "模型"),
    ("llm", "Language model", "语言模型"),
    ("llm_none", "Not configured: scores come from the rubric alone. Set OPENAI_BASE_URL and IVD_LLM_MODEL to add one.", "未配置：分数只来自评分规则。设置 OPENAI_BASE_URL 和 IVD_LLM_MODEL 即可接入。"),
    ("entries", "entries", "条"),
    ("llm_answers", "answers", "可用"),
    ("llm_silent", "configured but does not answer", "已配置但无响应"),
    ("skills", "Skills", "技能"),
    ("skills_disabled", "disabled", "已停用"),
    ("files_ok", "files verified", "个文件已校验"),
    ("need_repair", "need repair: run `ivd models fetch`", "需要修复：运行 `ivd models fetch`"),
    ("home", "Home folder", "数据目录"),
    ("nav_mock", "Mock interview", "模拟面试"),
    ("diff_easy", "easy", "简单"),
    ("diff_medium", "medium", "中等"),
    ("diff_hard", "hard", "困难"),
    ("mock_title", "Mock interview", "模拟面试"),
    ("mock_help", "One question at a time from the knowledge base. Type your answer or speak it; after each answer you get its band, the point that matters most and a follow-up when it is worth one. Everything is saved after every answer.", "从知识库逐题提问。可以打字或用麦克风作答；每答完一题给出等级、最该补上的要点，必要时追问。每答一题都会保存。"),
    ("mock_unfinished", "An unfinished interview", "有一场未完成的面试"),
    ("mock_resume", "Resume it", "继续作答"),
    ("mock_all_dims", "none ticked: all, weak ones favoured", "不选即全部，偏重薄弱维度"),
    ("mock_count", "Questions", "题数"),
    ("level_junior", "Junior (mostly easy)", "初级（以简单题为主）"),
    ("level_mid", "Mid-level", "中级"),
    ("level_senior", "Senior (mostly hard)", "高级（以难题为主）"),
    ("mock_lang", "Interview language", "面试语言"),
    ("mock_calm", "Calm mode: bands only, no scores during the interview", "平静模式：过程中只显示等级，不显示分数"),
    ("mock_start", "Start the interview", "开始面试"),
    ("mock_last", "Your last answer", "上一题"),
    ("mock_skipped", "Skipped.", "已跳过。"),
    ("mock_missing", "The point that matters most", "最该补上的要点"),
    ("mock_playback", "Play the recording back", "回放录音"),
    ("mock_retake", "Retake it", "重答这一题"),
    ("mock_show_expert", "Show the expert answer", "查看专家回答"),
    ("mock_over", "All questions are answered.", "所有问题都已作答。"),
    ("mock_report", "See the report", "查看报告"),
    ("mock_nothing", "Nothing was answered, so there is no report.", "没有作答，因此没有报告。"),
    ("mock_again", "Start another", "再来一场"),
    ("mock_follow_up", "Follow-up", "追问"),
    ("mock_timer", "Time on this question", "本题用时"),
    ("mock_hint", "Hint", "提示"),
    ("mock_answer", "Your answer", "你的回答"),
    ("mock_record", "Answer by microphone", "用麦克风回答"),
    ("mock_stop", "Stop recording", "停止录音"),
    ("mock_recording", "Recording… speak your answer, then stop.", "录音中……说完后点停止。"),
    ("mock_transcribing", "Transcribing…", "转写中……"),
    ("mock_heard", "Transcribed: correct it if needed, then submit.", "已转写：如有错误可修改，然后提交。"),
    ("mock_no_mic", "No microphone here: type the answer.", "无法使用麦克风：请打字作答。"),
    ("mock_submit", "Submit the answer", "提交回答"),
    ("mock_skip", "Skip", "跳过"),
    ("mock_finish", "End now and see the report", "现在结束并查看报告"),
    ("mock_finish_confirm", "End the interview now? Unanswered questions are left out of the report.", "现在结束面试？未作答的问题不计入报告。"),
    ("not_found", "Not found", "未找到"),
    ("back", "Back", "返回"),
];

/// The strings of one language, for a template (`t.key`).
pub fn strings(lang: Lang) -> BTreeMap<&'static str, &'static str> {
    STRINGS.iter().map(|(k, en, zh)| (*k, if lang.is_zh() { *zh } else { *en })).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browser_language_decides_by_weight() {
        assert_eq!(accept_language("zh-CN,zh;q=0.9,en;q=0.8"), Lang::Zh);
        assert_eq!(accept_language("en-US,en;q=0.9,zh;q=0.5"), Lang::En);
        assert_eq!(accept_language("fr-FR,de;q=0.9"), Lang::En);
        assert_eq!(accept_language("fr, zh-TW;q=0.4"), Lang::Zh);
        assert_eq!(accept_language(""), Lang::En);
        let keys: std::collections::HashSet<_> = STRINGS.iter().map(|s| s.0).collect();
        assert_eq!(keys.len(), STRINGS.len(), "a key is defined twice");
    }
}
