//! The answer to a request no skill fits when no model is configured: what can be done.

use crate::lang::Lang;
use crate::skills::registry::{SkillSet, Source};

pub(super) fn text(skills: &SkillSet, lang: Lang) -> String {
    use std::fmt::Write as _;
    let zh = lang == Lang::Zh;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}",
        if zh {
            "没有技能匹配这个请求，且未配置语言模型（无法自由选择工具）。可以这样做："
        } else {
            "No skill fits this request, and no language model is configured to pick tools freely. Here is what can be done:"
        }
    );
    for sk in &skills.skills {
        if sk.source == Source::Builtin {
            let _ = writeln!(s, "- ${}: {}", sk.name(), first_sentence(&sk.manifest.description));
        }
    }
    let examples = if zh {
        [
            "ivd ask \"诊断 interview.txt\"",
            "ivd ask \"对比 问题：什么是RAG？回答：……\"",
            "ivd ask \"模拟面试 RAG\"",
            "ivd diagnose FILE | ivd transcribe FILE | ivd kb search QUERY | ivd tools list",
        ]
    } else {
        [
            "ivd ask \"diagnose interview.txt\"",
            "ivd ask \"compare my answer. Q: What is RAG? A: ...\"",
            "ivd ask \"mock interview on memory\"",
            "ivd diagnose FILE | ivd transcribe FILE | ivd kb search QUERY | ivd tools list",
        ]
    };
    let _ = writeln!(s, "\n{}", if zh { "例如：" } else { "For example:" });
    for e in examples {
        let _ = writeln!(s, "  {e}");
    }
    let _ = writeln!(
        s,
        "\n{}",
        if zh {
            "配置模型后（OPENAI_BASE_URL、IVD_LLM_MODEL，见 `ivd doctor`），其他请求会由模型自由调用工具完成。"
        } else {
            "With a model configured (OPENAI_BASE_URL, IVD_LLM_MODEL; see `ivd doctor`), other requests go to the model, which picks tools itself."
        }
    );
    s
}

fn first_sentence(d: &str) -> &str {
    d.split_inclusive(". ").next().unwrap_or(d).trim()
}
