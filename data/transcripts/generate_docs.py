#!/usr/bin/env python3
"""Generate the document-format samples (DOCX and PDF) of the ivd corpus.

    python3 data/transcripts/generate_docs.py            # writes the files
    python3 data/transcripts/generate_docs.py --check-ref /tmp/ivd-ref   # also cross-check pairs

Python 3.11 stdlib only, plus the `chromium` binary for three of the PDFs
(headless print of an HTML page; fonts-noto-cjk for the Chinese one) and,
optionally, `pdftotext` (poppler-utils) to verify what the PDFs extract to.
Without chromium those three PDFs are left as they are (a warning says so).

Deterministic: DOCX zips have fixed timestamps, the hand-written PDFs are
byte-stable, and the chromium PDFs get fixed CreationDate/ModDate values (the
rest of their bytes depends only on the chromium version and the fonts).

Writes, next to this file, each sample with its `<stem>.expected.json`:
  en_teams.docx, zh_feishu.docx, zh_tencent.docx,
  en_oral_history_chen.pdf, zh_interview.pdf, en_agent_print.pdf
and bad inputs in ../bad/:
  renamed_text.docx, encrypted.docx, corrupt.docx, no_document.docx,
  scanned.pdf, long_200_pages.pdf (+ long_200_pages.expected_pairs.txt)

Conversation building blocks and the text rules come from generate.py (imported,
never modified).  The expected files follow README.md plus the newer rules:
header/metadata lines are not turns, markers such as [laughter] / (inaudible) /
（笑） are removed from the text, small talk before the first real question and
everything from the closing "Do you have any questions for us?" onwards are not
pairs (their turns still count), and Teams/Feishu give start times only.
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import json
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape

HERE = Path(__file__).resolve().parent
BAD = HERE.parent / "bad"
sys.path.insert(0, str(HERE))
import generate as g  # noqa: E402  (its main() only runs under __main__)

Q, A, K = g.Q, g.A, g.K


def S(spk, *segs):
    """Small talk before the first real question (not a pair; the turn counts)."""
    return {"kind": "small", "spk": spk, "segs": list(segs), "lead": None, "follow": False}


def X(spk, *segs):
    """The closing part: the interviewer's 'any questions for us?' and everything after it."""
    return {"kind": "close", "spk": spk, "segs": list(segs), "lead": None, "follow": False}


def after(turn, marker):
    """A marker-only line (e.g. [END OF TAPE 1, SIDE A]) rendered after this turn."""
    turn["after"] = marker
    return turn


# ---------------------------------------------------------------------------
# Conversations
# ---------------------------------------------------------------------------

CONVS = {}

# 1. en_teams: Microsoft Teams transcript (.docx download), 2 interviewers + 1 candidate
CONVS["en_teams"] = {
    "language": "en",
    "speakers": {"P": ("Priya Raman", "interviewer"), "M": ("Marcus Webb", "interviewer"),
                 "C": ("Elena Petrova", "candidate")},
    "questions": 6,
    "turns": [
        S("P", "Hi Elena, can you hear me okay?"),
        S("C", "Yes, I can hear you fine. Hi Priya."),
        S("M", "Hi Elena, I'm Marcus, I'll be joining Priya today. How's your day going?"),
        S("C", "Pretty good, thanks. It's a bit rainy here, but the coffee is helping."),
        Q("P", "Let's start with something broad. Tell me about the last agent system you shipped to production.",
          lead="Great."),
        A("C", "It was an internal support agent for our billing team. "
               "It reads the customer's account, looks at recent invoices, and then either answers directly or drafts a refund request for a person to approve. "
               "We launched it in March, and by the summer it was closing about a third of incoming billing tickets without anyone touching them. "
               "The part I'm proudest of is the approval flow, because nothing that moves money happens until a human clicks yes."),
        Q("M", "You mentioned the approval flow. How exactly does the agent hand a refund over to a person, and what happens while it waits?",
          follow=True),
        A("C", "The refund tool doesn't issue anything, it only creates a pending request with the amount, the reason and the evidence the agent looked at. "
               "The run then ends with a waiting status, so we don't keep a model call open for hours. "
               "When the approver decides, a webhook starts a new short run that tells the customer the outcome. "
               "Splitting it into two runs made retries and timeouts a lot simpler."),
        Q("P", "Let's talk about tools more generally. When you design a tool for an agent, how do you decide how big or small it should be?"),
        A("C", "I try to shape tools around the decision the model has to make, not around our internal APIs. "
               "If an API needs three calls to do one meaningful thing, I wrap them into one tool so the model can't get the order wrong."),
        K("M", "Mm-hmm."),
        A("C", "On the other side, I avoid giant tools with ten optional flags, because the model starts guessing at combinations. "
               "A rough rule we used was five parameters at most, each with an example in the description. "
               "When we split our old search tool into two focused ones, wrong-tool calls went from around eight percent to two."),
        Q("M", "Switching to evaluation. Before you ship a prompt change, what do you run, and what would block the release?"),
        A("C", "We have a replay set of about four hundred real tickets with the expected outcome for each, like refund drafted, escalated, or answered. "
               "Every change runs against the whole set twice, and we compare resolution accuracy and the number of tool calls per ticket. "
               "A drop of more than two points in accuracy blocks the release automatically. "
               "We also read a handful of the changed transcripts by hand, because the numbers don't always tell you why something moved."),
        Q("P", "What about observability in production? If a customer says the agent gave them a wrong answer yesterday, how do you find out what happened?"),
        A("C", "Every run gets a trace id, and we log each model call, each tool call with its arguments and result, and the final message. "
               "Support can paste the ticket number into our trace viewer and replay the whole run step by step. "
               "Honestly, our retention was only seven days at first, which bit us once, so we moved it to thirty."),
        Q("M", "How do you think about cost, say if traffic doubled next quarter?", lead="Okay, got it."),
        A("C", "I'm not sure I have a great answer there. "
               "We never really modeled it, we just watched the monthly bill. "
               "I guess I'd start with caching and a smaller model for the easy tickets."),
        X("P", "That's all from our side. Do you have any questions for us?"),
        X("C", "Yes, one question. How big is the team that owns the agent platform today?"),
        X("M", "Right now it's five engineers and a product manager, and we're hiring two more this year."),
        X("C", "That sounds great. Thank you both for your time."),
        X("P", "Thanks Elena, we'll be in touch soon."),
    ],
}

# 2. zh_feishu: Feishu/Lark minutes (飞书妙记) export, 1 interviewer + 1 candidate
CONVS["zh_feishu"] = {
    "language": "zh",
    "speakers": {"I": ("张伟", "interviewer"), "C": ("刘洋", "candidate")},
    "questions": 6,
    "turns": [
        S("I", "刘洋你好，能听到吗？"),
        S("C", "可以听到，很清楚。张老师好。"),
        S("I", "最近忙吗？"),
        S("C", "还行，最近在做项目交接，稍微有点忙。"),
        Q("I", "那我们开始吧。先简单介绍一下你最近做的 Agent 项目？"),
        A("C", "我最近做的是一个数据分析助手，业务同学用自然语言提问，Agent 会先查数据字典，再生成 SQL 去数仓里查，最后把结果整理成图表和结论。"
               "难点主要在 SQL 的正确率，一开始大概只有六成。"
               "后来我们把表结构和常用口径整理成检索库，每次只给模型相关的几张表，正确率提到了八成五左右。"),
        Q("I", "你刚才提到只给模型相关的几张表，这些相关的表是怎么选出来的？", follow=True),
        A("C", "我们分两步。先用问题里的指标和维度去检索数据字典，召回二十张左右的候选表。"),
        K("I", "嗯。"),
        A("C", "然后再用一个小模型，根据表的描述和历史查询记录做一次排序，留下前五张。"
               "排序这一步我们单独做了评测，前五张里包含正确表的比例大概是百分之九十三。"),
        Q("I", "生成的 SQL 在执行之前，你们做了哪些安全上的限制？"),
        A("C", "首先数据库账号是只读的，而且只开放了分析用的库。"
               "其次执行前会用 SQL 解析器检查一遍，只允许 SELECT 语句，并且强制加上 LIMIT。"
               "另外单条查询设置了六十秒超时，防止把集群拖慢。"),
        Q("I", "接下来聊聊上下文管理。对话轮数多了以后，你们怎么控制上下文的长度？"),
        A("C", "这块我们做得比较简单，就是保留最近十轮对话，更早的直接丢掉。"
               "有用户反馈过，前面说过的筛选条件后面就忘了，这个问题现在还没有很好地解决。"),
        Q("I", "你们怎么判断一次回答是不是对的？有没有做离线评测？"),
        A("C", "有的。我们从历史工单里整理了两百多个问题，每个问题都有分析师写好的标准 SQL。"
               "评测的时候不比较 SQL 文本，而是比较两条 SQL 在同一份数据上的执行结果是否一致。"
               "每次换模型或者改 prompt 都会跑一遍，结果贴到合并请求里。"),
        Q("I", "最后一个技术问题，如果让你从头再做一次这个项目，你会改哪些地方？", lead="明白了。"),
        A("C", "我会更早地把评测集建起来。前两个月我们基本是靠人工试几个问题来判断效果，走了不少弯路。"
               "另外我会一开始就把权限和审计做好，而不是等到上线前才补。"),
        X("I", "好的，我这边的问题就这些。你有什么想问我们的吗？"),
        X("C", "想问一下，这个岗位入职以后主要负责哪一块？"),
        X("I", "主要是 Agent 平台的工具接入和评测体系，后面也会参与一些业务项目。"),
        X("C", "好的，谢谢张老师。"),
    ],
}

# 3. zh_tencent: hand-written / Tencent Meeting style Word file, header decides the roles
CONVS["zh_tencent"] = {
    "language": "zh",
    "speakers": {"W": ("王磊", "interviewer"), "C": ("陈晨", "candidate")},
    "questions": 5,
    "turns": [
        Q("W", "陈晨你好，我们今天主要聊聊你在多智能体方面的经验。你之前的项目为什么会选择多 Agent 的架构？"),
        A("C", "我们做的是一个投研报告生成系统，需要同时查新闻、财报和行情数据，每一类数据的工具和提示词差别都很大。"
               "放在一个 Agent 里的时候，工具有三十多个，模型经常选错。",
               "拆成三个专门的子 Agent，再加一个负责汇总的主 Agent 以后，选错工具的情况少了很多。"),
        Q("W", "那如果两个子 Agent 给出的结论互相矛盾，主 Agent 怎么处理？", follow=True),
        A("C", "主 Agent 不会自己去判断谁对谁错，而是把矛盾点连同各自的数据来源一起列出来。"
               "如果是数值类的冲突，比如营收数字对不上，会再调用一次财报工具去核对原始数据。"
               "最后的报告里会把这种冲突标注出来，交给分析师确认。"),
        Q("W", "子 Agent 之间是怎么传递信息的？共享一份上下文吗？"),
        A("C", "不共享完整的上下文。每个子 Agent 完成以后只返回一个结构化的结果，包括结论、依据和引用的数据源。"
               "这样主 Agent 的上下文不会被中间过程撑爆，排查问题的时候也能清楚地看到每一步的输入输出。"),
        Q("W", "这套系统的成本和延迟大概是什么水平？"),
        A("C", "生成一份报告平均要三分钟左右，成本在一块钱上下。"
               "延迟主要花在子 Agent 串行等待上，后来改成三个子 Agent 并行执行，时间缩短了一半左右。"),
        Q("W", "你们有没有遇到过子 Agent 陷入死循环的情况？当时怎么解决的？"),
        A("C", "遇到过，这个我们处理得不太好。当时就是简单加了一个最大轮数，超过了就强制结束，具体为什么会循环没有深入分析。"),
        K("W", "好的，谢谢。"),
    ],
}

# 4. en_oral_history_chen: oral-history interview PDF, surname labels, header block
CONVS["en_oral_history_chen"] = {
    "language": "en",
    "speakers": {"D": ("DOE", "interviewer"), "R": ("ROE", "interviewer"), "C": ("CHEN", "candidate")},
    "questions": 8,
    "turns": [
        Q("D", "This is John Doe. Jane Roe and I are with Margaret Chen at her home in Berkeley, California, on March 3, 2019. "
               "Let's start at the beginning. Tell me about your parents."),
        A("C", "My father came over from a village near Taishan in 1928, when he was seventeen, and he worked in a laundry in Sacramento for almost ten years before he could buy into a grocery store on the west side of town. "
               "My mother was born here, in Locke, which was a little Chinese farming town on the river. "
               "They met at a church picnic, or that's the story they told us anyway. [laughter] I think it was actually arranged by my aunt.",
               "The store was the center of everything. We lived upstairs, all six of us, and from the time I was eight or nine I was counting change and stocking shelves after school. "
               "My father was very good with numbers but he never finished school, and he was determined that we would."),
        K("D", "Mm-hmm."),
        A("C", "My mother was the one who read to us. "
               "She had a library card at a time when that wasn't so common for a woman in her situation, and every Saturday she brought home a stack of books, mostly about animals and faraway places."),
        Q("R", "Where did your interest in science come from?"),
        A("C", "Honestly, from the store at first. I was always curious why some fruit went bad in two days and some lasted two weeks, and my father would give me a crate of spoiled peaches and let me poke at them. [laughter] "
               "But the real turning point was high school chemistry. "
               "I had a teacher named Mrs. Alvarez who ran her class like a laboratory rather than a lecture, and in the first week she had us make soap from lard and lye. "
               "I went home smelling terrible and completely happy."),
        Q("D", "You mentioned Mrs. Alvarez. What was it about her teaching that stayed with you?", follow=True),
        A("C", "She never told us the answer before we had tried something. "
               "She would say, write down what you think will happen, then do it, then write down what actually happened, and then we argue about the difference. "
               "That habit of predicting first is really the whole of science, and I didn't understand that until much later. "
               "She also wrote my letter for Berkeley, and she drove me to the campus in her own car because my parents couldn't close the store."),
        Q("R", "Describe the lab when you arrived at graduate school."),
        after(A("C", "This was Caltech, in the fall of 1963. "
                     "The lab was in the basement of the old chemistry building, and it was always cold, so we all worked in sweaters, even in summer. "
                     "There were maybe eight graduate students and two postdocs, and I was the only woman. "
                     "We had one X-ray camera that everybody shared, and you signed up for time on a sheet of paper taped to the door. "
                     "If you were a first-year student you got the night shifts, so I spent a lot of nights there developing film in the darkroom and (inaudible) listening to the radio to stay awake."),
              "[END OF TAPE 1, SIDE A]"),
        Q("D", "Talk about the first protein structure you worked on."),
        A("C", "It was a small enzyme from bacteria, about a hundred and twenty amino acids, and the question was how it held on to its substrate. "
               "Today a student would solve it in an afternoon, but for us it took almost four years. "
               "We grew thousands of crystals, and most of them were useless, either too small or cracked or twinned.",
               "The calculations were done on an IBM machine with punched cards. "
               "You handed in a box of cards in the evening and picked up the output the next morning, and if you had made a single typo the whole night was wasted. "
               "When the electron density map finally came out and we could see the pocket where the substrate sat, my adviser and I just stood in the hallway staring at it. "
               "I don't think either of us said anything for a few minutes."),
        Q("R", "What was it like being one of very few women in the department?"),
        A("C", "It was lonely sometimes, and there were small things that added up. "
               "People assumed I was a secretary when they came into the lab, and one professor told me, quite kindly, that I should think about teaching high school because it would be easier with a family. [laughter] "
               "I never did find out what he meant by easier. "
               "But I also had real allies. My adviser put my name first on our paper when that was not a given, and the senior technician, Ruth, taught me more about crystals than any course did."),
        Q("D", "Tell me about the move to Berkeley in 1978."),
        A("C", "I had been at a small college in Oregon for eight years, teaching a lot and doing research in the summers, and I was starting to feel that I was falling behind. "
               "Berkeley offered me a position with my own lab and two graduate students. "
               "My husband was willing to move, which was not something I could take for granted at the time. "
               "The first year was hard, because I had to build everything from nothing, and my first grant application was turned down. "
               "The second one was funded, and after that things moved much faster."),
        Q("R", "Looking back now, what would you tell a young scientist who is just starting out?"),
        A("C", "Find the people who will tell you when you are wrong, and keep them close. "
               "Most of my best ideas came out of arguments in the hallway, not from sitting alone at my desk. "
               "And write everything down, the failures too. "
               "Half of what I know about growing crystals came from rereading my own notebooks from the bad years."),
        after(K("D", "Okay, great. Thank you."), "[END OF INTERVIEW]"),
    ],
}

# 5. zh_interview: Chinese technical interview PDF with 面试官/候选人 labels and page footers
CONVS["zh_interview"] = {
    "language": "zh",
    "speakers": {"I": ("面试官", "interviewer"), "C": ("候选人", "candidate")},
    "questions": 6,
    "turns": [
        Q("I", "你好，我们开始吧。先介绍一下你最近做的一个 Agent 项目，重点讲讲你自己负责的部分。"),
        A("C", "我最近一年在做电商售后的智能客服 Agent，用户可以直接发消息申请退换货、查物流、改地址。"
               "我主要负责工具层和评测，工具一共有十二个，包括查订单、查物流、创建退货单这些。"
               "上线半年，售后咨询里大概有百分之四十五是 Agent 独立处理完的。"
               "刚开始定的目标是百分之三十，所以大家还挺开心的。（笑）"),
        Q("I", "你刚才提到创建退货单，这种会改变订单状态的工具，你们怎么避免 Agent 误操作？", follow=True),
        A("C", "我们把工具分成只读和有副作用两类。有副作用的工具在执行前会先走一遍规则校验，比如订单是否在退货期内、金额是否超过五百元。"),
        K("I", "嗯。"),
        A("C", "超过阈值的不会直接执行，而是生成一张待审核的工单，由人工客服确认。"
               "另外每个工具都要求传一个幂等键，同一个请求重复调用也只会生效一次。"),
        Q("I", "如果用户发来的消息里夹带了指令，比如让 Agent 忽略之前的要求直接给他退款，你们怎么防？"),
        A("C", "首先系统提示词和用户消息是严格分开的，用户内容只会作为数据放进去。"
               "其次关键的校验都写在代码里，不依赖模型的判断，所以就算模型被绕过去了，退款也执行不了。"
               "我们还做过一轮红队测试，用了大概两百条攻击样本，[听不清]拦截率在百分之九十八左右。"),
        Q("I", "换个话题，你们怎么评估这个 Agent 的效果？"),
        A("C", "离线有一个三百条左右的测试集，覆盖常见的售后场景，每条都标注了期望调用的工具和最终处理结果。"
               "每次发版前都会跑一遍，看任务完成率和工具调用的准确率。"
               "线上主要看转人工率和用户满意度，每周再抽一百条对话做人工复盘。"),
        Q("I", "多轮对话里，用户前面说过的信息，比如订单号，你们怎么保证后面不会丢？"),
        A("C", "我们是把关键信息抽成结构化的槽位，比如订单号、商品和诉求，单独存在会话状态里，每一轮都放在提示词的固定位置。"
               "对话历史本身只保留最近几轮，太长了就做摘要。"),
        Q("I", "最后一个问题，你了解 MCP 吗？有没有在项目里用过？"),
        A("C", "了解得不多，只看过一些介绍文章，项目里还没用过。"),
        K("I", "好的，谢谢。"),
    ],
}

# 6. en_agent_print: English labeled interview printed from a web page
CONVS["en_agent_print"] = {
    "language": "en",
    "speakers": {"I": ("Sofia Alvarez", "interviewer"), "C": ("James Okafor", "candidate")},
    "questions": 5,
    "turns": [
        Q("I", "Thanks for coming in, James. Let's start with retrieval. How do you decide how to split documents into chunks for a RAG pipeline?"),
        A("C", "It depends a lot on the documents. "
               "For manuals and policies I split along the headings, so each chunk is one section with its title attached, because people usually ask about one rule at a time. "
               "For long unstructured text like call notes I use fixed windows of around five hundred tokens with some overlap. "
               "The main thing is to look at real questions first and check that the answer to each one fits inside a single chunk."),
        Q("I", "Following up on that, when an answer comes out wrong, how do you tell whether chunking was the problem or something else?",
          follow=True),
        A("C", "I check retrieval on its own first. "
               "We keep a set of questions where we know which section holds the answer, and we measure how often that section shows up in the top five results."),
        K("I", "Right."),
        A("C", "If it does show up and the answer is still wrong, the problem is on the generation side, so I look at the prompt and the order of the chunks instead. "
               "When it doesn't show up, then it's chunking or the embedding model, and I try a couple of chunk sizes on the same set before changing anything else."),
        Q("I", "Let's switch to planning. When would you let the model write its own plan instead of hard coding the steps?",
          lead="Okay, that makes sense."),
        A("C", "If the task always follows the same few steps, I write them in code, because it's cheaper and much easier to test. "
               "I only let the model plan when the steps really depend on the input, like a research task where you don't know which sources will matter. "
               "Even then I ask it to write the plan out first, so we can log it, check it against a list of allowed tools, and stop early if it looks wrong."),
        Q("I", "How would you protect an agent that browses the web against prompt injection?"),
        A("C", "Anything that comes back from a web page is data, never instructions, so it goes into the context clearly marked as untrusted content. "
               "The browsing agent itself has no tools that can change anything, it can only read and summarize. "
               "If the task needs an action, like sending an email, that goes through a separate step with a fixed template and a confirmation from the user."),
        Q("I", "Last one. Suppose one of your tools takes around twenty seconds to respond. How would you keep the experience reasonable for the user?"),
        A("C", "I'm honestly not sure. I guess we'd show a loading message. I haven't really dealt with slow tools before."),
        K("I", "Great, thank you."),
    ],
}

# ---------------------------------------------------------------------------
# Text rules: markers, turns, expected files
# ---------------------------------------------------------------------------

CJK = g._CJK_RE.pattern
MARKER_RE = re.compile(r"\[[^\]\n]{1,40}\]|\((?:inaudible|laughs|laughter|crosstalk|pause)[^)\n]{0,20}\)|（笑）|（听不清）")


def clean(text: str) -> str:
    """Text without non-speech markers, as the expected files hold it (the gap a
    marker leaves is one space, or nothing next to Chinese)."""
    t = MARKER_RE.sub("\x00", text)

    def gap(m):
        a, b = m.group(1), m.group(2)
        sep = "" if not a or not b or g.is_cjk(a) or g.is_cjk(b) else " "
        return a + sep + b

    t = re.sub(r"(\S?)\s*\x00\s*(\S?)", gap, t)
    return re.sub(r"\s+", " ", t).strip()


def seg_texts(turn):
    """Per segment of a turn: the text as rendered (lead sentence included)."""
    out = []
    for si, seg in enumerate(turn["segs"]):
        if si == 0 and turn["lead"]:
            seg = g.smart_join([turn["lead"], seg])
        out.append(seg)
    return out


def check_conv(cid, conv):
    qn, prev, phase = 0, None, "small"
    for i, turn in enumerate(conv["turns"]):
        name, role = conv["speakers"][turn["spk"]]
        text = clean(g.smart_join(seg_texts(turn)))
        kind = turn["kind"]
        if kind == "small":
            assert phase == "small", (cid, "small talk after the first question", text)
            continue
        if kind == "close":
            phase = "close"
            continue
        assert phase != "close", (cid, "talk after the closing", text)
        phase = "talk"
        if kind == "ack":
            assert role == "interviewer" and g.is_ack_only(text), (cid, text)
        elif kind == "q":
            assert role == "interviewer" and not g.is_ack_only(text), (cid, text)
            q = g.strip_lead_ack(text)
            assert (q != text) == bool(turn["lead"]), (cid, "lead ack", text)
            new_q = not (prev and prev["kind"] == "q")
            if new_q:
                qn += 1
                assert g.starts_with_follow_marker(q) == turn["follow"], (cid, "follow marker", q)
        else:
            assert role == "candidate", (cid, text)
            assert "?" not in text and "？" not in text, (cid, "no ? in answers", text)
        for ch in text:
            assert ch not in "…“”‘’\"", (cid, "avoid ambiguous punctuation", text)
        if kind != "ack":
            prev = turn
    assert qn == conv["questions"], (cid, qn)


def unit(name, role, text, start_ms, src):
    return {"name": name, "role": role, "text": text, "start": start_ms, "end": None, "src": src}


def expected_doc(conv, units, fmt, starts_only):
    """Expected result from the units (one per rendered utterance/paragraph group)."""
    turns = []
    for u in units:
        if turns and turns[-1]["name"] == u["name"]:
            turns[-1]["texts"].append(u["text"])
            turns[-1]["srcs"].append(u["src"])
        else:
            turns.append({"name": u["name"], "role": u["role"], "texts": [u["text"]], "srcs": [u["src"]],
                          "start": u["start"], "end": None})
    if starts_only:
        for a, b in zip(turns, turns[1:]):
            a["end"] = b["start"]
    speakers = g.count_speakers(turns)
    pairs, cur = [], None
    for t in turns:
        kinds = {conv["turns"][s]["kind"] for s in t["srcs"]}
        if "close" in kinds:
            break
        if kinds == {"small"}:
            continue
        assert "small" not in kinds, t
        cur = g.pair_step(pairs, cur, t, src=t["srcs"][0])
    exp = g.finish(conv, fmt, speakers, pairs)
    assert len(exp["pairs"]) == conv["questions"], (fmt, len(exp["pairs"]))
    for p in exp["pairs"]:
        assert p["question"] and p["answer"], p
    return exp


def timeline(conv, scale):
    """Times from generate.build_timeline, stretched by `scale` (people on a call
    speak a little slower and pause longer than the reference timeline)."""
    g.build_timeline(conv)
    for t in conv["turns"]:
        t["sents"] = [(a, b, c, int(s * scale), int(e * scale)) for a, b, c, s, e in t["sents"]]
        t["start"], t["end"] = t["sents"][0][3], t["sents"][-1][4]


def seg_starts(turn):
    """Start (ms) of each segment of a timed turn."""
    return [min(s[3] for s in turn["sents"] if s[0] == si) for si in range(len(turn["segs"]))]


def split_para(text, max_len):
    """A long utterance as two paragraphs (at a sentence boundary near the middle)."""
    sents = g.split_sentences(text)
    if len(text) <= max_len or len(sents) < 2:
        return [text]
    best, k_best = None, 1
    for k in range(1, len(sents)):
        d = abs(len(g.smart_join(sents[:k])) - len(text) / 2)
        if best is None or d < best:
            best, k_best = d, k
    return [g.smart_join(sents[:k_best]), g.smart_join(sents[k_best:])]


# ---------------------------------------------------------------------------
# DOCX (hand-written OOXML in a deterministic zip)
# ---------------------------------------------------------------------------

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
ZIP_TIME = (2026, 12, 1, 14, 3, 0)


def w_t(text):
    return f'<w:t xml:space="preserve">{xml_escape(text)}</w:t>'


def w_run(text, rpr=""):
    return f"<w:r>{('<w:rPr>' + rpr + '</w:rPr>') if rpr else ''}{w_t(text)}</w:r>"


TAB_RUN = "<w:r><w:tab/></w:r>"
BR_RUN = "<w:r><w:br/></w:r>"


def split_runs(text, n, zh=False):
    """`text` as `n` runs cut at fixed positions (sometimes inside a word, as Word
    does after edits), with differing run properties."""
    if n <= 1 or len(text) < 3 * n:
        return w_run(text)
    cuts = [len(text) * k // n for k in range(1, n)]
    pieces = [text[a:b] for a, b in zip([0] + cuts, cuts + [len(text)])]
    props = ['<w:lang w:val="en-US"/>', '<w:rFonts w:hint="eastAsia"/><w:lang w:eastAsia="zh-CN"/>' if zh else '<w:noProof/>', ""]
    return "".join(w_run(p, props[k % 3]) for k, p in enumerate(pieces))


def w_p(runs, style=None):
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{ppr}{runs}</w:p>"


def w_table(rows):
    grid = "".join('<w:gridCol w:w="3000"/>' for _ in rows[0])
    trs = ""
    for row in rows:
        tcs = "".join(f'<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>{w_p(w_run(c))}</w:tc>' for c in row)
        trs += f"<w:tr>{tcs}</w:tr>"
    borders = "".join(f'<w:{b} w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
                      for b in ("top", "left", "bottom", "right", "insideH", "insideV"))
    return (f'<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/>'
            f"<w:tblBorders>{borders}</w:tblBorders></w:tblPr><w:tblGrid>{grid}</w:tblGrid>{trs}</w:tbl>")


def docx_parts(body, title, author, lang):
    east = "zh-CN" if lang == "zh" else "en-US"
    document = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
                f'<w:document xmlns:w="{W_NS}" '
                f'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
                f"<w:body>{body}"
                f'<w:sectPr><w:pgSz w:w="11906" w:h="16838"/>'
                f'<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="851" w:footer="992" w:gutter="0"/>'
                f"</w:sectPr></w:body></w:document>")
    styles = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
              f'<w:styles xmlns:w="{W_NS}">'
              f'<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="DengXian"/>'
              f'<w:sz w:val="22"/><w:lang w:val="en-US" w:eastAsia="{east}"/></w:rPr></w:rPrDefault></w:docDefaults>'
              f'<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>'
              f'<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/>'
              f'<w:next w:val="Normal"/><w:qFormat/><w:rPr><w:b/><w:sz w:val="36"/></w:rPr></w:style>'
              f'<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/></w:style>'
              f'<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/></w:style>'
              f"</w:styles>")
    content_types = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
                     '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                     '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                     '<Default Extension="xml" ContentType="application/xml"/>'
                     '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
                     '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>'
                     '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
                     "</Types>")
    rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
            '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>'
            "</Relationships>")
    doc_rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
                '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
                "</Relationships>")
    core = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
            '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
            f"<dc:title>{xml_escape(title)}</dc:title><dc:creator>{xml_escape(author)}</dc:creator>"
            '<dcterms:created xsi:type="dcterms:W3CDTF">2026-12-01T14:03:00Z</dcterms:created>'
            '<dcterms:modified xsi:type="dcterms:W3CDTF">2026-12-01T14:03:00Z</dcterms:modified>'
            "</cp:coreProperties>")
    return [("[Content_Types].xml", content_types), ("_rels/.rels", rels), ("word/document.xml", document),
            ("word/_rels/document.xml.rels", doc_rels), ("word/styles.xml", styles), ("docProps/core.xml", core)]


def zip_bytes(parts):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, text in parts:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 0
            z.writestr(info, text.encode("utf-8") if isinstance(text, str) else text)
    return buf.getvalue()


def docx_paragraph_texts(data: bytes):
    """What a reader of word/document.xml sees: one string per paragraph
    (tab -> \\t, br -> \\n), table cells included, in document order."""
    import xml.etree.ElementTree as ET
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = ET.fromstring(z.read("word/document.xml"))
    w = "{%s}" % W_NS
    out = []
    for p in root.iter(w + "p"):
        s = ""
        for el in p.iter():
            if el.tag == w + "t":
                s += el.text or ""
            elif el.tag == w + "tab":
                s += "\t"
            elif el.tag == w + "br":
                s += "\n"
        out.append(s)
    return out


def render_teams_docx(conv):
    """Microsoft Teams transcript download: title, date, duration, then per
    utterance `Name   m:ss` and the text (a long one as two paragraphs)."""
    timeline(conv, 1.3)
    body, units = [], []
    title = "Agent Engineer Interview - R&D Platform"
    body.append(w_p(w_run(title), style="Title"))
    body.append(w_p(w_run("December 1, 2026, 2:03PM")))
    n_para = 0
    last_sec = -1
    for i, turn in enumerate(conv["turns"]):
        name, role = conv["speakers"][turn["spk"]]
        for text, st in zip(seg_texts(turn), seg_starts(turn)):
            sec = st // 1000
            assert sec > last_sec, ("teams times must increase", text)
            last_sec = sec
            body.append(w_p(w_run(name) + w_run("   " + g.ts_otter(sec))))
            for para in split_para(text, 260):
                n_para += 1
                body.append(w_p(split_runs(para, 3 if n_para % 3 == 2 else 1)))
            units.append(unit(name, role, clean(text), sec * 1000, i))
    end_s = conv["turns"][-1]["end"] // 1000 + 9
    dur = f"{end_s // 60}m {end_s % 60}s"
    body.insert(2, w_p(w_run(dur)))
    data = zip_bytes(docx_parts("".join(body), title, "Microsoft Teams", "en"))
    return data, expected_doc(conv, units, "docx", starts_only=True)


def render_feishu_docx(conv):
    """Feishu/Lark minutes export: title, date | duration line, keywords, blank,
    then per utterance `Name hh:mm:ss` and the text paragraph(s)."""
    timeline(conv, 1.5)
    body, units = [], []
    title = "Agent 工程师技术面试 - 刘洋"
    end_s = conv["turns"][-1]["end"] // 1000 + 12
    body.append(w_p(w_run(title), style="Title"))
    body.append(w_p(w_run(f"2026年12月1日 14:00 | {end_s // 60}分钟 {end_s % 60}秒")))
    body.append(w_p(w_run("关键词：") + w_run("Agent、Text-to-SQL、数据字典、只读权限、离线评测")))
    body.append(w_p(""))
    n_para, last_sec = 0, -1
    for i, turn in enumerate(conv["turns"]):
        name, role = conv["speakers"][turn["spk"]]
        for text, st in zip(seg_texts(turn), seg_starts(turn)):
            sec = st // 1000
            assert sec > last_sec, ("feishu times must increase", text)
            last_sec = sec
            h, r = divmod(sec, 3600)
            stamp = f"{h:02d}:{r // 60:02d}:{r % 60:02d}"
            body.append(w_p(w_run(name) + w_run(" " + stamp, '<w:color w:val="8F959E"/>')))
            for para in split_para(text, 110):
                n_para += 1
                body.append(w_p(split_runs(para, 2 if n_para % 4 == 1 else 1, zh=True)))
            units.append(unit(name, role, clean(text), sec * 1000, i))
    data = zip_bytes(docx_parts("".join(body), title, "飞书妙记", "zh"))
    return data, expected_doc(conv, units, "docx", starts_only=True)


def render_tencent_docx(conv):
    """A labeled Word file as people write it by hand (or as a Tencent Meeting
    transcript is pasted): header lines and a table, then `Name：text`."""
    body, units = [], []
    bold = "<w:b/>"
    body.append(w_p(w_run("技术面试记录"), style="Title"))
    body.append(w_p(w_run("面试官：王磊")))
    body.append(w_p(w_run("候选人：", bold) + w_run("陈晨")))
    body.append(w_table([["职位", "Agent 开发工程师（AI&数据部）"], ["轮次", "技术二面"]]))
    body.append(w_p(w_run("日期：") + TAB_RUN + w_run("2026-11-20")))
    body.append(w_p(""))
    k = 0
    for i, turn in enumerate(conv["turns"]):
        name, role = conv["speakers"][turn["spk"]]
        segs = seg_texts(turn)
        for si, text in enumerate(segs):
            k += 1
            label = w_run(name + "：", bold if k % 2 else "")
            if si > 0:  # a second paragraph of the same answer, without a label
                body.append(w_p(w_run(text)))
            elif k == 4:  # a tab after the label
                body.append(w_p(label + TAB_RUN + w_run(text)))
            elif k == 6:  # a soft line break (Shift+Enter) between two sentences
                s = g.split_sentences(text)
                body.append(w_p(label + w_run(g.smart_join(s[:1])) + BR_RUN + w_run(g.smart_join(s[1:]))))
            elif k % 3 == 2:
                body.append(w_p(label + split_runs(text, 3, zh=True)))
            else:
                body.append(w_p(label + w_run(text)))
        units.append(unit(name, role, clean(g.smart_join(segs)), None, i))
    data = zip_bytes(docx_parts("".join(body), "技术面试记录", "王磊", "zh"))
    return data, expected_doc(conv, units, "docx", starts_only=False)


# ---------------------------------------------------------------------------
# PDFs printed by headless chromium
# ---------------------------------------------------------------------------

PDF_DATE = b"D:20261201140300+00'00'"
NO_HEADER_FLAGS = ["--no-pdf-header-footer", "--print-to-pdf-no-header"]
CHROMIUM_FLAG_USED = None


def have(cmd):
    return shutil.which(cmd) is not None


def pdftotext(path: Path) -> str | None:
    if not have("pdftotext"):
        return None
    r = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, timeout=120)
    return r.stdout.decode("utf-8") if r.returncode == 0 else None


def chromium_print(html_text: str, out: Path, tmp: Path) -> bytes:
    """Print the page with headless chromium (no browser header/footer) and
    pin the dates in the PDF's Info dictionary (same length, offsets unchanged)."""
    global CHROMIUM_FLAG_USED
    src = tmp / (out.stem + ".html")
    src.write_text(html_text, encoding="utf-8")
    flags = [CHROMIUM_FLAG_USED] if CHROMIUM_FLAG_USED else NO_HEADER_FLAGS
    for flag in flags:
        pdf = tmp / out.name
        if pdf.exists():
            pdf.unlink()
        cmd = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", flag, f"--user-data-dir={tmp / 'profile'}",
               "--no-first-run", f"--print-to-pdf={pdf}", src.resolve().as_uri()]
        subprocess.run(cmd, capture_output=True, timeout=180)
        if not pdf.exists():
            continue
        text = pdftotext(pdf)
        if text is not None and ("file:" in text or out.stem + ".html" in text):
            continue  # this chromium ignored the flag and printed its own header/footer
        CHROMIUM_FLAG_USED = flag
        data = pdf.read_bytes()
        data = re.sub(rb"D:\d{14}[+\-Z][0-9']*", lambda m: (PDF_DATE + b" " * 40)[:len(m.group(0))], data)
        return data
    raise RuntimeError(f"chromium did not print {out.name}")


def nowrap_html(text: str) -> str:
    """HTML-escape; keep tokens with - or / on one line (chromium would break
    after the hyphen/slash, and a reader joining the lines would see 'well- known')."""
    t = html.escape(text, quote=False)
    return re.sub(r"\S*[-/]\S*", lambda m: f'<span class="nw">{m.group(0)}</span>', t)


def page_html(title, css, body):
    return (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{css} .nw {{ white-space: nowrap; }}</style></head><body>\n{body}\n</body></html>\n")


def labeled_units_html(conv, label_fmt, cont_class="cont"):
    """One <p> per segment; later segments of the same turn have no label."""
    paras, units = [], []
    for i, turn in enumerate(conv["turns"]):
        name, role = conv["speakers"][turn["spk"]]
        segs = seg_texts(turn)
        for si, text in enumerate(segs):
            assert ":" not in text and "：" not in text, ("no colons in PDF body text", text)
            if si == 0:
                paras.append(f"<p>{label_fmt(html.escape(name))}{nowrap_html(text)}</p>")
            else:
                paras.append(f'<p class="{cont_class}">{nowrap_html(text)}</p>')
        units.append(unit(name, role, clean(g.smart_join(segs)), None, i))
        if turn.get("after"):
            paras.append(f'<p class="marker">{html.escape(turn["after"])}</p>')
    return paras, units


def html_oral_history(conv):
    css = ("@page { size: letter; margin: 1in 1in 0.9in 1in; "
           "@bottom-center { content: 'Chen Oral History \\2014  Page ' counter(page); "
           "font-family: 'Liberation Serif'; font-size: 10pt; } } "
           "body { font-family: 'Liberation Serif', serif; font-size: 12pt; line-height: 2; } "
           "h1 { font-size: 14pt; text-align: center; margin: 0 0 6pt 0; } "
           ".sub { text-align: center; margin: 0 0 18pt 0; } "
           ".hdr p { margin: 0; line-height: 1.5; } .hdr { margin-bottom: 18pt; } "
           "p { margin: 0 0 6pt 0; } p.cont { text-indent: 0.5in; } "
           "p.marker { text-align: center; } b { font-weight: bold; }")
    hdr = ["INTERVIEWEE: Margaret Chen", "INTERVIEWERS: John Doe, Jane Roe", "DATE: March 3, 2019",
           "LOCATION: Berkeley, California", "TRANSCRIBER: Alan Park"]
    paras, units = labeled_units_html(conv, lambda n: f"<b>{n}:</b> ")
    body = ("<h1>Oral History Interview with Margaret Chen</h1>\n"
            '<p class="sub">Women in Structural Biology Oral History Project</p>\n'
            '<div class="hdr">' + "".join(f"<p>{html.escape(h)}</p>" for h in hdr) + "</div>\n" + "\n".join(paras))
    return page_html("Chen Oral History", css, body), units


def html_zh_interview(conv):
    css = ("@page { size: A4; margin: 25mm 22mm 25mm 22mm; "
           "@bottom-center { content: '第 ' counter(page) ' 页 共 ' counter(pages) ' 页'; "
           "font-family: 'Noto Sans CJK SC'; font-size: 9pt; } } "
           "body { font-family: 'DejaVu Sans', 'Noto Sans CJK SC', sans-serif; font-size: 15pt; line-height: 2.2; orphans: 1; widows: 1; } "
           "h1 { font-size: 17pt; text-align: center; } .hdr p { margin: 0; } .hdr { margin-bottom: 14pt; } "
           "p { margin: 0 0 8pt 0; } p.cont { text-indent: 2em; }")
    paras, units = labeled_units_html(conv, lambda n: f"{n}：")
    body = ("<h1>Agent 开发工程师 技术一面记录</h1>\n"
            '<div class="hdr"><p>日期：2026年10月15日</p><p>地点：北京 线上视频面试</p></div>\n' + "\n".join(paras))
    return page_html("技术一面记录", css, body), units


def html_agent_print(conv):
    css = ("@page { size: letter; margin: 0.8in; } "
           "body { font-family: 'Liberation Sans', sans-serif; font-size: 11pt; line-height: 1.45; } "
           "h1 { font-size: 16pt; margin: 0 0 4pt 0; } .date { color: #555; margin: 0 0 16pt 0; } "
           "p { margin: 0 0 10pt 0; }")
    paras, units = labeled_units_html(conv, lambda n: f"{n}: ")
    body = ("<h1>Interview transcript, Agent Platform team</h1>\n"
            '<p class="date">April 8, 2026</p>\n' + "\n".join(paras))
    return page_html("Interview transcript", css, body), units


FOOTER_RES = [re.compile(r"^\s*Chen Oral History\s*\u2014\s*Page \d+\s*$"),
              re.compile(r"^\s*第\s*\d+\s*页\s*共\s*\d+\s*页\s*$")]


def verify_pdf_text(name, data, html_text, tmp, min_pages=1, footer=None):
    """With pdftotext: the extracted text (page footers dropped, lines joined)
    equals the visible HTML text; wrapped lines never start with `Word:`."""
    p = tmp / ("check_" + name)
    p.write_bytes(data)
    text = pdftotext(p)
    if text is None:
        return None
    pages = text.count("\f")
    assert pages >= min_pages, (name, "pages", pages)
    lines = [ln for ln in text.replace("\f", "\n").split("\n") if ln.strip()]
    if footer is not None:
        feet = [ln for ln in lines if footer.match(ln)]
        assert len(feet) == pages, (name, "one footer per page", len(feet), pages)
        # at least one page break falls inside a turn (the footer interrupts it)
        after_foot = [lines[k + 1] for k in range(len(lines) - 1) if footer.match(lines[k])]
        assert any(not re.match(r"^\s*\S{1,12}[:：]", ln) for ln in after_foot), (name, "no mid-turn page break")
        lines = [ln for ln in lines if not footer.match(ln)]
    body = re.sub(r"<style>.*?</style>|<title>.*?</title>", "", html_text, flags=re.S)
    body = re.sub(r"</p>|</h1>|</div>", "\n", body)
    vis = html.unescape(re.sub(r"<[^>]+>", "", body))
    want = g.normalize(g.smart_join(vis.split("\n")))
    got = g.normalize(g.smart_join(lines))
    if want != got:
        i = next((k for k in range(min(len(want), len(got))) if want[k] != got[k]), min(len(want), len(got)))
        raise AssertionError(f"{name}: extracted text differs at {i}: want {want[i-40:i+40]!r} got {got[i-40:i+40]!r}")
    return pages, lines


# ---------------------------------------------------------------------------
# Hand-written PDFs (bad inputs)
# ---------------------------------------------------------------------------


def pdf_file(objs, root=1, info=None):
    """objs: list of bytes bodies for objects 1..n.  Returns a PDF with a valid xref table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offs = []
    for i, body in enumerate(objs, 1):
        offs.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n".encode() + b"0000000000 65535 f \n"
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offs)
    trailer = f"<< /Size {len(objs) + 1} /Root {root} 0 R" + (f" /Info {info} 0 R" if info else "") + " >>"
    out += f"trailer\n{trailer}\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def pdf_stream(data: bytes, extra=b"", compress=True):
    if compress:
        data = zlib.compress(data, 9)
        extra = b"/Filter /FlateDecode " + extra
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def pdf_info(title):
    return (b"<< /Title (" + title.encode("latin-1") + b") /Producer (ivd generate_docs.py) "
            b"/CreationDate (" + PDF_DATE + b") >>")


def scanned_pdf():
    """Two pages, each only a gray raster image drawn over the full page: a
    'scan' of a typed page (dark dashes for the words of each line of text),
    no fonts and no text operators."""
    rnd = random.Random(20261201)
    w, h = 170, 220
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", None, pdf_info("Scanned interview notes")]
    kids = []
    for page in range(2):
        img = [bytearray(232 + rnd.randrange(12) for _ in range(w)) for _ in range(h)]
        y = 16 + page * 4
        while y < h - 18:
            x, end = 14, w - 14 - (rnd.randrange(70) if rnd.random() < 0.2 else 0)
            while x < end:
                ln = rnd.randrange(4, 16)
                for yy in range(y, y + 3):
                    for xx in range(x, min(x + ln, end)):
                        img[yy][xx] = 40 + rnd.randrange(50)
                x += ln + rnd.randrange(2, 4)
            y += 7 if rnd.random() > 0.12 else 14
        raw = b"".join(bytes(r) for r in img)
        image = pdf_stream(raw, b"/Type /XObject /Subtype /Image /Width %d /Height %d "
                                b"/ColorSpace /DeviceGray /BitsPerComponent 8 " % (w, h))
        content = pdf_stream(b"q\n612 0 0 792 0 0 cm\n/Im1 Do\nQ\n")
        n = len(objs)
        objs += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                 b"/Resources << /XObject << /Im1 %d 0 R >> >> /Contents %d 0 R >>" % (n + 3, n + 2), content, image]
        kids.append(n + 1)
    objs[1] = b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) + b"] /Count %d >>" % len(kids)
    return pdf_file(objs, info=3)


# Helvetica advance widths (1/1000 em) for ASCII 32..126 (Adobe core-14 AFM)
HELV = [278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584]


def helv_width(s, size):
    return sum(HELV[ord(c) - 32] if 32 <= ord(c) < 127 else 556 for c in s) * size / 1000


def wrap_helv(text, size, width):
    out, cur = [], ""
    for word in text.split(" "):
        cand = word if not cur else cur + " " + word
        if helv_width(cand, size) <= width or not cur:
            cur = cand
        else:
            out.append(cur)
            cur = word
    if cur:
        out.append(cur)
    return out


TOPICS = ["the refund agent", "the support chatbot", "the document search tool", "the billing assistant",
          "the onboarding agent", "the data pipeline", "the code review bot", "the scheduling assistant",
          "the travel booking agent", "the internal wiki search", "the sales email drafter", "the log triage agent"]
THINGS = ["tool calls", "retries", "timeouts", "prompt changes", "the evaluation set", "the retrieval step",
          "the approval flow", "the cache", "the context window", "the tracing", "rate limits", "the fallback model"]
QUESTION_T = [
    "How did you handle {thing} in {topic}?",
    "What went wrong first when you launched {topic}?",
    "Walk me through how {topic} dealt with {thing}.",
    "If you rebuilt {topic} today, what would you change about {thing}?",
    "How did you measure whether {thing} in {topic} was working?",
    "Who else on the team worked on {topic}, and how did you split the work?",
    "What did {thing} cost you in {topic}, in time or in money?",
    "Tell me about a bug in {topic} that took you a long time to find.",
    "How did you decide when {topic} should hand over to a person?",
    "What would you tell a new engineer joining {topic} about {thing}?",
    "How did users react when {topic} first went live?",
    "What was the hardest trade-off you made around {thing}?",
]
LEAD_T = ["Okay, got it.", "Great, thanks.", "That makes sense.", "Interesting."]
ANSWER_T = [
    "So on {topic} we started small, with only {n} users from one team.",
    "The first version handled {thing} in the simplest way we could think of, and honestly it broke within a week.",
    "What we learned was that {thing} needs its own tests, separate from the end to end runs.",
    "I remember one Friday when {thing} failed for about {n} minutes and nobody noticed until Monday.",
    "After that we added an alert whenever the error rate went above {p} percent.",
    "We tracked it on a simple dashboard that the whole team could see.",
    "The numbers got better slowly, from about {p} percent failures down to under two.",
    "My manager at the time pushed us to write everything down, which helped a lot later.",
    "To be fair, part of the problem was on our side, because the old code was pretty messy.",
    "We also talked to the support team every week, and they caught things we never would have.",
    "I think the main lesson was to keep {thing} boring and predictable.",
    "It took us around {n} days to get that right, which was longer than we planned.",
    "We tried a bigger model for a while, but the cost went up and the quality barely moved.",
    "Looking back, I would have set up the evaluation set much earlier.",
    "There was a lot of back and forth with the product team about what good enough meant.",
    "In the end we settled on a review step for anything that touched customer money.",
    "The tricky part was that {thing} behaved differently at night, when the traffic was low.",
    "We wrote a small replay tool so we could run old conversations through the new version.",
    "That replay tool ended up being the thing everyone used, even for unrelated bugs.",
    "I still think about that project when I design something new.",
    "We kept the old path running in parallel for {n} days before switching over.",
    "Most of the fixes were small, like better error messages or one extra check.",
    "A colleague of mine, Ana, found the root cause by reading the raw logs line by line.",
    "After the fix, complaints about {thing} dropped to almost nothing.",
    "We did go over budget in the first month, mostly because of {thing}.",
    "I presented the results at the team meeting, over coffee from the cafe downstairs.",
    "Honestly, some of it was luck, because the traffic stayed low while we were fixing things.",
    "The users mostly cared about speed, more than about the exact wording of the answers.",
    "We set a rule that every change to {thing} needed a second reviewer.",
    "It was not perfect, but it was good enough to ship, and we improved it from there.",
    "We had about {n} test cases by the end, most of them taken from real tickets.",
    "If I had to pick one thing, it would be the tracing, because it made every other fix faster.",
    "Somebody would usually ask why we did not just buy a product, and the answer was mostly privacy.",
    "We logged the reason for every handover, so we could see which cases the agent could not handle.",
    "For a few weeks we read every failed conversation by hand, which was tiring but worth it.",
    "That was also when I started writing short design notes before touching the code.",
]
CAFE = "caf\u00e9"


def long_interview(rnd):
    """[label, [sentences]] turns of a long deterministic interview with 400 questions."""

    def fill(t):
        return t.format(topic=rnd.choice(TOPICS), thing=rnd.choice(THINGS), n=rnd.randrange(3, 60),
                        p=rnd.randrange(3, 25)).replace("cafe", CAFE)

    convo = []
    for qi in range(400):
        q = fill(rnd.choice(QUESTION_T))
        if qi and rnd.random() < 0.2:
            q = rnd.choice(LEAD_T) + " " + q
        convo.append(["Interviewer", [q]])
        n_sent = rnd.randrange(13, 25)
        sents = [fill(t) for t in rnd.sample(ANSWER_T, n_sent)]
        if rnd.random() < 0.3:  # a back-channel in the middle of the answer
            k = rnd.randrange(3, n_sent - 2)
            convo += [["Candidate", sents[:k]], ["Interviewer", [rnd.choice(["Mm-hmm.", "Right.", "Okay."])]],
                      ["Candidate", sents[k:]]]
        else:
            convo.append(["Candidate", sents])
    return convo, fill


def long_pdf():
    size, lead, width = 10, 14.2, 468.0
    per_page, pages_want = 45, 200
    rnd = random.Random(4002026)
    convo, fill = long_interview(rnd)

    def lay(t):
        return wrap_helv(f"{t[0]}: " + " ".join(t[1]), size, width)

    laid = [lay(t) for t in convo]
    lo, hi = (pages_want - 1) * per_page + 1, pages_want * per_page
    # grow or shrink answers one sentence at a time until the text fills exactly 200 pages
    cands = [k for k, t in enumerate(convo) if t[0] == "Candidate"]
    for _ in range(20000):
        n = sum(len(x) for x in laid)
        if lo + 5 <= n <= hi - 5:
            break
        k = cands[rnd.randrange(len(cands))]
        t = convo[k]
        if n < lo + 5:
            extra = [x for x in ANSWER_T if all(not s.startswith(x[:12]) for s in t[1])]
            if not extra:
                continue
            t[1].append(fill(rnd.choice(extra)))
        elif len(t[1]) > 3:
            t[1].pop()
        laid[k] = lay(t)
    lines = [ln for x in laid for ln in x]
    assert lo <= len(lines) <= hi, len(lines)
    pairs = sum(1 for t in convo if t[0] == "Interviewer" and not g.is_ack_only(" ".join(t[1])))
    assert all(":" not in s for t in convo for s in t[1])
    n_pages = -(-len(lines) // per_page)
    assert n_pages == pages_want

    def pdf_str(s):
        b = s.encode("cp1252")
        return b"(" + b.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"

    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", None,
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            pdf_info("Interview transcript (long)")]
    kids = []
    for pg in range(n_pages):
        chunk = lines[pg * per_page:(pg + 1) * per_page]
        ops = [b"BT", b"/F1 %d Tf" % size, b"%.1f TL" % lead, b"72 720 Td"]
        for k, ln in enumerate(chunk):
            ops.append(pdf_str(ln) + (b" Tj" if k == 0 else b" '"))
        ops.append(b"ET")
        foot = f"Page {pg + 1} of {n_pages}"
        ops += [b"BT", b"/F1 9 Tf", b"%.2f 40 Td" % (306 - helv_width(foot, 9) / 2), pdf_str(foot) + b" Tj", b"ET"]
        content = pdf_stream(b"\n".join(ops) + b"\n")
        n = len(objs)
        objs += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                 b"/Contents %d 0 R >>" % (n + 2), content]
        kids.append(n + 1)
    objs[1] = b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) + b"] /Count %d >>" % len(kids)
    return pdf_file(objs, info=4), pairs, lines


# ---------------------------------------------------------------------------
# Other bad inputs
# ---------------------------------------------------------------------------


def cfb_encrypted_docx():
    """What Word writes for a password-protected .docx: an OLE2 compound file
    (v3, 512-byte sectors) with an agile-encryption EncryptionInfo stream (in the
    mini stream) and an EncryptedPackage stream (in regular sectors)."""
    rnd = random.Random(7312026)

    def rb(n):
        return bytes(rnd.randrange(256) for _ in range(n))

    def b64(n):
        return base64.b64encode(rb(n)).decode()

    xml = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
           '<encryption xmlns="http://schemas.microsoft.com/office/2006/encryption" '
           'xmlns:p="http://schemas.microsoft.com/office/2006/keyEncryptor/password" '
           'xmlns:c="http://schemas.microsoft.com/office/2006/keyEncryptor/certificate">'
           f'<keyData saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" '
           f'cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="{b64(16)}"/>'
           f'<dataIntegrity encryptedHmacKey="{b64(64)}" encryptedHmacValue="{b64(64)}"/>'
           '<keyEncryptors><keyEncryptor uri="http://schemas.microsoft.com/office/2006/keyEncryptor/password">'
           f'<p:encryptedKey spinCount="100000" saltSize="16" blockSize="16" keyBits="256" hashSize="64" '
           f'cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="{b64(16)}" '
           f'encryptedVerifierHashInput="{b64(16)}" encryptedVerifierHashValue="{b64(64)}" '
           f'encryptedKeyValue="{b64(32)}"/></keyEncryptor></keyEncryptors></encryption>')
    info = struct.pack("<HHI", 4, 4, 0x40) + xml.encode("utf-8")
    pkg_len = 8 * 1024 + 11
    package = struct.pack("<Q", pkg_len) + rb((pkg_len + 15) // 16 * 16)

    SEC, MINI = 512, 64
    FREE, END, FATSECT = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD
    mini_stream = info + b"\x00" * (-len(info) % MINI)
    n_mini = len(mini_stream) // MINI
    ms_secs = -(-len(mini_stream) // SEC)
    pk_secs = -(-len(package) // SEC)
    # sectors: 0 FAT, 1 directory, 2 mini FAT, 3.. mini stream, then EncryptedPackage
    ms_start, pk_start = 3, 3 + ms_secs
    total = pk_start + pk_secs
    assert total <= 128 and n_mini <= 128
    fat = [FATSECT, END, END]
    fat += [ms_start + k + 1 if k < ms_secs - 1 else END for k in range(ms_secs)]
    fat += [pk_start + k + 1 if k < pk_secs - 1 else END for k in range(pk_secs)]
    fat += [FREE] * (128 - len(fat))
    minifat = [k + 1 if k < n_mini - 1 else END for k in range(n_mini)] + [FREE] * (128 - n_mini)

    def dirent(name, typ, color, left, right, child, start, size):
        nm = name.encode("utf-16-le") + b"\x00\x00" if name else b""
        return (nm.ljust(64, b"\x00") + struct.pack("<HBB", len(nm), typ, color)
                + struct.pack("<III", left, right, child) + b"\x00" * 16 + struct.pack("<I", 0)
                + b"\x00" * 16 + struct.pack("<IQ", start, size))

    NOS = 0xFFFFFFFF
    # red-black tree of the root's children: EncryptedPackage (black) with EncryptionInfo (red, shorter name) on its left
    dir_sec = (dirent("Root Entry", 5, 1, NOS, NOS, 2, ms_start, len(mini_stream))
               + dirent("EncryptionInfo", 2, 0, NOS, NOS, NOS, 0, len(info))
               + dirent("EncryptedPackage", 2, 1, 1, NOS, NOS, pk_start, len(package))
               + dirent("", 0, 0, NOS, NOS, NOS, 0, 0))
    assert len(dir_sec) == SEC
    header = (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 16
              + struct.pack("<HHHHH", 0x003E, 0x0003, 0xFFFE, 9, 6) + b"\x00" * 6
              + struct.pack("<IIIIIIIII", 0, 1, 1, 0, 4096, 2, 1, END, 0)
              + struct.pack("<I", 0) + struct.pack("<I", FREE) * 108)
    assert len(header) == SEC
    body = (struct.pack("<128I", *fat) + dir_sec + struct.pack("<128I", *minifat)
            + mini_stream.ljust(ms_secs * SEC, b"\x00") + package.ljust(pk_secs * SEC, b"\x00"))
    return header + body


def renamed_text():
    return ("Interviewer: Thanks for joining. Let's start with tools. How do you decide which tools an agent gets?\n"
            "Candidate: I start with the smallest set that covers the task, usually read-only tools first, and only add "
            "tools that change data once there is an approval step in front of them.\n"
            "Interviewer: And how do you check that the agent is getting better over time?\n"
            "Candidate: We keep a set of about two hundred real tasks and rerun it on every change, comparing the success "
            "rate and the number of steps.\n").encode("utf-8")


def no_document_docx():
    parts = [p for p in docx_parts("", "Draft", "Word", "en") if p[0] in ("[Content_Types].xml", "_rels/.rels", "docProps/core.xml")]
    return zip_bytes(parts)


# ---------------------------------------------------------------------------
# Cross-check with the current tool on a labeled plain-text version
# ---------------------------------------------------------------------------


def check_with_ref(ref, cid, conv, exp, tmp):
    """Render the talk part (no small talk, no closing, markers removed) as
    `Name: text` lines and compare the tool's pairs with the expected ones."""
    lines = []
    for turn in conv["turns"]:
        if turn["kind"] in ("small", "close"):
            continue
        name = conv["speakers"][turn["spk"]][0]
        lines.append(f"{name}: {clean(g.smart_join(seg_texts(turn)))}")
    p = tmp / f"{cid}_ref.txt"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = subprocess.run([ref, "split", str(p), "--format", "json", "--no-audit", "--home", str(tmp / "ivdhome")],
                       capture_output=True, timeout=120)
    if r.returncode != 0:
        return [f"{cid}: ivd-ref failed: {r.stderr.decode()[:200]}"]
    got = json.loads(r.stdout)
    probs = []
    if len(got["pairs"]) != len(exp["pairs"]):
        probs.append(f"{cid}: ref found {len(got['pairs'])} pairs, expected {len(exp['pairs'])}")
    for k, (a, b) in enumerate(zip(got["pairs"], exp["pairs"]), 1):
        if g.normalize(a["question"]) != g.normalize(b["question"]):
            probs.append(f"{cid} pair {k}: question differs: {a['question'][:60]!r}")
        if g.normalize(a["answer"]) != g.normalize(b["answer"]):
            probs.append(f"{cid} pair {k}: answer differs: {a['answer'][:60]!r}")
        if a["follow_up_of"] != b["follow_up_of"]:
            probs.append(f"{cid} pair {k}: follow_up_of ref={a['follow_up_of']} expected={b['follow_up_of']}")
    roles = {s["name"]: s["role"] for s in got["speakers"]}
    for s in exp["speakers"]:
        if s["name"] in roles and roles[s["name"]] != s["role"]:
            probs.append(f"{cid}: ref role of {s['name']} is {roles[s['name']]}")
    return probs


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def write_json(path, obj):
    path.write_text(json.dumps(obj, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check-ref", metavar="IVD", help="cross-check pairs with this ivd binary (e.g. /tmp/ivd-ref)")
    args = ap.parse_args()

    for cid, conv in CONVS.items():
        check_conv(cid, conv)

    outputs = []  # (path, bytes, expected or None)
    notes = []
    with tempfile.TemporaryDirectory(prefix="ivd_docs_") as td:
        tmp = Path(td)
        data, exp = render_teams_docx(CONVS["en_teams"])
        outputs.append(("en_teams.docx", data, exp))
        teams_docx = data
        data, exp = render_feishu_docx(CONVS["zh_feishu"])
        outputs.append(("zh_feishu.docx", data, exp))
        data, exp = render_tencent_docx(CONVS["zh_tencent"])
        outputs.append(("zh_tencent.docx", data, exp))

        # the DOCX paragraphs read back as intended
        for fname, data, exp in outputs:
            paras = docx_paragraph_texts(data)
            joined = g.normalize(clean(g.smart_join(paras)))
            for p in exp["pairs"]:
                for key in ("question", "answer"):
                    for piece in re.split(r"(?<=[.?!。？！])\s*", p[key]):
                        assert g.normalize(piece) in joined, (fname, key, piece)

        if have("chromium"):
            for fname, build, footer, min_pages in (
                    ("en_oral_history_chen.pdf", html_oral_history, FOOTER_RES[0], 3),
                    ("zh_interview.pdf", html_zh_interview, FOOTER_RES[1], 2),
                    ("en_agent_print.pdf", html_agent_print, None, 1)):
                cid = fname[:-4]
                conv = CONVS[cid]
                html_text, units = build(conv)
                exp = expected_doc(conv, units, "pdf", starts_only=False)
                data = chromium_print(html_text, HERE / fname, tmp)
                res = verify_pdf_text(fname, data, html_text, tmp, min_pages, footer)
                if res:
                    notes.append(f"{fname}: {res[0]} pages, text verified with pdftotext")
                outputs.append((fname, data, exp))
        else:
            print("warning: chromium not found; en_oral_history_chen.pdf, zh_interview.pdf and "
                  "en_agent_print.pdf were not regenerated", file=sys.stderr)

        problems = []
        if args.check_ref:
            for fname, data, exp in outputs:
                problems += check_with_ref(args.check_ref, fname.rsplit(".", 1)[0], CONVS[fname.rsplit(".", 1)[0]], exp, tmp)

        # bad inputs
        long_data, long_pairs, long_lines = long_pdf()
        assert len(long_data) < 1_500_000, len(long_data)
        bad = [("renamed_text.docx", renamed_text()),
               ("encrypted.docx", cfb_encrypted_docx()),
               ("corrupt.docx", teams_docx[: len(teams_docx) * 60 // 100]),
               ("no_document.docx", no_document_docx()),
               ("scanned.pdf", scanned_pdf()),
               ("long_200_pages.pdf", long_data)]
        p = tmp / "long.pdf"
        p.write_bytes(long_data)
        text = pdftotext(p)
        if text is not None:
            got = [ln for ln in text.replace("\f", "\n").split("\n") if ln.strip() and not re.match(r"^Page \d+ of 200$", ln)]
            assert g.normalize(" ".join(got)) == g.normalize(" ".join(long_lines)), "long_200_pages.pdf text"
            notes.append("long_200_pages.pdf: text verified with pdftotext")

    # never share a stem with a rendering written by another generator
    # (the expected file `<stem>.expected.json` would be overwritten)
    for fname, _, _ in outputs:
        stem = fname.rsplit(".", 1)[0]
        others = [q.name for q in HERE.glob(stem + ".*")
                  if q.name != fname and not q.name.endswith(".expected.json")]
        assert not others, f"{fname}: stem clash with {others}"
    for fname, data, exp in outputs:
        (HERE / fname).write_bytes(data)
        write_json(HERE / (fname.rsplit(".", 1)[0] + ".expected.json"), exp)
    BAD.mkdir(parents=True, exist_ok=True)
    for fname, data in bad:
        (BAD / fname).write_bytes(data)
    (BAD / "long_200_pages.expected_pairs.txt").write_text(f"{long_pairs}\n", encoding="utf-8")

    print(f"wrote {len(outputs)} document samples (+ expected files) to {HERE}")
    print(f"wrote {len(bad)} bad document inputs to {BAD} (long_200_pages.pdf: {long_pairs} pairs, "
          f"{len(long_data)} bytes)")
    if CHROMIUM_FLAG_USED:
        print(f"chromium flag: {CHROMIUM_FLAG_USED}")
    for n in notes:
        print(n)
    if problems:
        print("ivd-ref disagrees:\n  " + "\n  ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
