#!/usr/bin/env python3
"""Generate the Interview Doctor (ivd) sample-transcript corpus.

Stdlib only, deterministic.  Run from anywhere:

    python3 data/transcripts/generate.py

It writes, next to this file, every rendering of every conversation together
with a `<stem>.expected.json` per rendering, and the bad inputs in ../bad/.
Expected results are derived from the structured conversations below by a small
reference implementation of the rules in README.md, and the script asserts that
the hand-marked features (acknowledgements, follow-ups, split questions, ...)
agree with those rules before it writes anything.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
BAD = HERE.parent / "bad"

# ---------------------------------------------------------------------------
# Conversation building blocks
# ---------------------------------------------------------------------------


def Q(spk, *segs, lead=None, follow=False):
    """An interviewer question turn.  `segs` are consecutive lines/cues of the
    same turn (two segs = a question split over two interviewer lines).
    `lead` is an acknowledgement sentence said at the start of the turn."""
    return {"kind": "q", "spk": spk, "segs": list(segs), "lead": lead, "follow": follow}


def A(spk, *segs):
    """A candidate answer turn."""
    return {"kind": "a", "spk": spk, "segs": list(segs), "lead": None, "follow": False}


def K(spk, text):
    """An interviewer turn that is only an acknowledgement / backchannel."""
    return {"kind": "ack", "spk": spk, "segs": [text], "lead": None, "follow": False}


CONVERSATIONS = {}

# 1. zh_agent ---------------------------------------------------------------
CONVERSATIONS["zh_agent"] = {
    "language": "zh",
    "speakers": {"I": ("面试官", "interviewer"), "C": ("候选人", "candidate")},
    "turns": [
        Q("I", "你好，今天主要聊聊 Agent 相关的工程问题。先说说你理解的 Agent 和普通的 LLM 应用有什么区别？"),
        A("C", "我的理解是，普通的 LLM 应用基本是一次调用，输入输出和流程都是写死的，而 Agent 是让模型在一个循环里自己决定下一步做什么。"
               "典型的结构是规划、调用工具、观察结果，再根据观察决定继续还是结束。"
               "工程上最大的区别是控制流交给了模型，所以一定要加最大步数、超时和 token 预算这些护栏。"
               "我们之前做的客服 Agent 就把最大步数限制在 8 步，超过就转人工。"),
        # a question split across two consecutive interviewer lines
        Q("I", "那我们聊聊工具调用，如果模型生成的工具参数不符合 JSON Schema，你们线上是怎么处理的？",
               "是直接让模型重试，还是会在代码里先做修复？"),
        A("C", "我们是两层处理。第一层是在代码里用 Pydantic 做校验，类型不对这种能自动修复的就直接修，比如把字符串形式的数字转成整数。"),
        K("I", "嗯。"),  # backchannel in the middle of the answer
        A("C", "修不了的，就把校验错误原样作为工具结果返回给模型，让它重新生成，最多重试两次。"
               "上线之后因为参数错误导致的任务失败率从大概 6% 降到了 1% 以内。"),
        Q("I", "接下来聊聊记忆。你们的 Agent 长期记忆是怎么设计的？"),
        A("C", "长期记忆的话，我们主要就是把历史对话存到向量数据库里，需要的时候检索出来放到上下文里。基本上就是 RAG 那一套吧，效果还可以。"),
        Q("I", "你刚才提到把历史对话存到向量数据库，那如果用户前后说的偏好互相矛盾，比如上周说喜欢靠窗、这周又说要过道，你们怎么处理？",
          follow=True),
        A("C", "这个嘛，我们目前应该是按时间排序，检索出来以后让模型自己判断用哪一条。没有专门做冲突处理。"),
        K("I", "嗯，明白了。"),  # acknowledgement turn; the candidate then adds a sentence
        A("C", "对，补充一点，后面我们打算给每条记忆加上时间戳和置信度，新的覆盖旧的。"),
        Q("I", "下一个问题，你怎么评估一个 Agent 的效果？线上和离线分别看哪些指标？"),
        A("C", "离线我们维护了一个大约 300 条的评测集，每条都有标准的工具调用轨迹和最终答案，主要看任务成功率、工具选择准确率和平均步数。"
               "线上看任务完成率、转人工率和单次会话的 token 成本，同时抽样 5% 的会话做人工复核。"
               "每次改 prompt 或者换模型都要先跑一遍离线集，成功率掉超过 2 个点就不能上线。"),
        Q("I", "具体来说，任务成功率是怎么判定的？是人工标注还是用模型打分？", follow=True),
        A("C", "两种都有。能确定性判断的，比如订单状态有没有改对，就直接查数据库做断言；开放式的回答用 LLM-as-judge 打分。"
               "我们拿 100 条人工标注做过校准，和人工的一致率大概 85%。"),
        Q("I", "那我们换个话题，你了解 MCP 吗？它和直接写 function calling 相比解决了什么问题？", lead="好的，明白了。"),
        A("C", "这个我不太清楚，只是听说过 MCP，还没有在项目里实际用过。"),
    ],
}

# 2. en_agent ---------------------------------------------------------------
CONVERSATIONS["en_agent"] = {
    "language": "en",
    "speakers": {"I": ("Priya Raman", "interviewer"), "C": ("Daniel Kim", "candidate")},
    "turns": [
        Q("I", "Hi Daniel, thanks for making the time today. To start, how would you explain the difference between an agent and a fixed LLM workflow?"),
        A("C", "A workflow has the control flow written in code, so the model only fills in steps that I designed up front. "
               "An agent lets the model choose the next action in a loop, based on what it observed from the previous tool call. "
               "I usually start with a workflow and only move a step into an agent loop when the path really can't be predicted. "
               "Even then I cap it, for example at ten steps and a fixed token budget per task."),
        Q("I", "On tool calling, what does your system do when the model returns arguments that fail schema validation?",
               "Do you retry the call, repair it in code, or just fail the task?"),
        A("C", "We validate every call against the JSON schema before executing anything. "
               "Simple problems like a number sent as a string get coerced in code."),
        K("I", "Mm-hmm."),
        A("C", "If that isn't enough, we send the validation error back to the model as the tool result and let it try again, at most twice. "
               "That brought malformed-call failures from about five percent of tasks down to under one percent."),
        Q("I", "Next question, how do you decide what goes into the context window on each step of a long-running agent?"),
        A("C", "I try to keep the context pretty clean. We mostly just include the recent messages and whatever seems relevant. "
               "It's kind of a judgment call, honestly."),
        Q("I", "You mentioned including whatever seems relevant, so how exactly do you decide what is relevant once the history no longer fits?",
          follow=True),
        A("C", "I think we'd summarize the older part of the conversation with the model. I haven't measured how much that loses, though."),
        K("I", "Okay, got it."),
        A("C", "One more thing, tool outputs are the biggest offenders, so we truncate anything over about two thousand tokens and keep a pointer to the full result."),
        Q("I", "Switching gears, how would you evaluate whether a new prompt or model version made your agent better or worse?"),
        A("C", "We keep a regression set of around 250 tasks with reference tool trajectories and final answers. "
               "For each candidate change we run the full set three times, because the agent is not deterministic, and compare task success rate, average steps and cost per task. "
               "Anything that drops success by more than two points is blocked, and we also read a sample of failures by hand to check whether the grader is wrong."),
        Q("I", "Following up on that, how do you grade the open-ended answers where there is no single correct output?", follow=True),
        A("C", "We use a model as a judge with a rubric of four or five criteria, scored separately rather than as one overall number. "
               "We calibrated it against about a hundred human labels and it agrees roughly eighty percent of the time, so we still review disagreements by hand."),
        Q("I", "Let's move on to protocols, have you worked with MCP, and what problem does it solve compared to plain function calling?",
          lead="Okay, that makes sense."),
        A("C", "Honestly, I don't know much about MCP. I've read the announcement but haven't used it in a project."),
    ],
}

# 3. en_panel ---------------------------------------------------------------
CONVERSATIONS["en_panel"] = {
    "language": "en",
    "speakers": {
        "P": ("Priya Raman", "interviewer"),
        "T": ("Tom Becker", "interviewer"),
        "C": ("Wei Zhang", "candidate"),
    },
    "turns": [
        Q("P", "Thanks for joining us, Wei. I'm Priya, and Tom is on the call too. "
               "Let's start with planning: when would you use a plan-and-execute design instead of a plain ReAct loop?"),
        A("C", "ReAct decides one step at a time, which is flexible but tends to wander on long tasks and spends tokens re-reading the whole history. "
               "With plan-and-execute, a planner writes the steps up front and cheaper executors run them, and we only re-plan when a step fails or returns something unexpected. "
               "On our report-generation tasks, that cut the average number of model calls from about fourteen to eight. "
               "For short tasks with two or three tools I'd still use ReAct, because the planning call is pure overhead there."),
        Q("T", "You mentioned re-planning when a step fails. How do you stop the agent from re-planning forever?", follow=True),
        A("C", "We count re-plans per task and stop at three, then return a partial result with an explanation. "
               "Each step also has its own timeout, so one hanging tool can't block the whole run."),
        # one question asked by two interviewers in turn
        Q("P", "Next question, on multi-agent systems. Have you built one where several agents had to share state?"),
        Q("T", "And how did they hand work to each other?"),
        A("C", "Yes, we had a researcher agent and a writer agent. They just talked to each other through messages, and it mostly worked. "
               "Sometimes they went back and forth a bit too much."),
        K("T", "Okay, got it."),  # ack by one interviewer, then the other asks
        Q("P", "Let's move on to retrieval. Your RAG pipeline returns chunks that look relevant, but the answer is still wrong. How do you debug that?"),
        A("C", "First I separate retrieval from generation, so I check whether the right chunk was in the top five at all, using a labeled set of about two hundred questions. "
               "If recall is fine, the problem is usually the model ignoring or misreading the context, so I look at chunk order, chunk size and whether the prompt tells it to cite sources. "
               "In one project, moving from fixed 1,000-token chunks to section-based chunks plus a reranker raised answer accuracy from 71 to 84 percent on that set."),
        Q("T", "Switching gears a little. How do you keep latency and cost under control when an agent makes many model calls?"),
        A("C", "We route easy steps like classification to a small model and keep the large model for planning and the final answer. "
               "We also cache tool results and prompt prefixes. "
               "That roughly halved our cost per task, but I don't have exact latency numbers in front of me."),
        Q("P", "Last one, about safety. How would you defend an agent that reads web pages against prompt injection?"),
        A("C", "I would treat anything from a web page as untrusted data, not as instructions. "
               "Tools that can change things, like sending email, would need a confirmation step. "
               "Beyond that I'm not sure what the best practice is right now."),
        K("P", "Great, thank you."),
    ],
}

# 4. zh_names ---------------------------------------------------------------
CONVERSATIONS["zh_names"] = {
    "language": "zh",
    "speakers": {"I": ("张伟", "interviewer"), "C": ("李娜", "candidate")},
    "turns": [
        Q("I", "李娜你好，我们直接开始吧。你在上一家公司做的 Agent 项目，主要解决什么问题？"),
        A("C", "我们做的是一个企业内部的 IT 工单助手，员工描述问题以后，Agent 会查知识库、查工单系统，能自动处理的就直接处理，比如重置密码、开通权限。"
               "上线三个月，大约 40% 的工单不用人工介入就关闭了。"),
        Q("I", "你提到重置密码、开通权限这种操作，这类有副作用的工具调用，你们怎么防止 Agent 误操作？", follow=True),
        A("C", "有副作用的工具我们都单独标记出来，调用前必须经过规则校验，比如只能给本人开通权限。"
               "涉及权限变更的还要员工在 IM 里点确认，确认之后才真正执行。"
               "所有调用都会记审计日志，方便事后回溯。"),
        Q("I", "接下来聊聊多智能体，你们有没有考虑过拆成多个 Agent？为什么？", lead="了解了。"),
        A("C", "考虑过，但是感觉多 Agent 比较复杂，就没有做。单个 Agent 也够用了。"),
        Q("I", "Prompt 越写越长以后，你们是怎么管理和迭代的？"),
        A("C", "我们把 prompt 放在代码仓库里做版本管理，每次修改都要跑一遍回归用例，大概 150 条。"
               "比较长的部分拆成模板，比如工具说明和业务规则分开维护。"),
        Q("I", "最后一个问题，你觉得这个项目里最大的教训是什么？"),
        A("C", "最大的教训是一开始没有做评测集，改 prompt 全凭感觉，经常修好一个问题又引入另一个。"
               "后来补了评测集之后，迭代速度反而快了很多。"),
        K("I", "好的，谢谢。"),
    ],
}

# 5. mixed ------------------------------------------------------------------
CONVERSATIONS["mixed"] = {
    "language": "mixed",
    "speakers": {"I": ("Interviewer", "interviewer"), "C": ("Candidate", "candidate")},
    "turns": [
        Q("I", "Let's begin with the basics. What is function calling, and how does the model decide which tool to use?"),
        A("C", "Function calling 就是把工具的名字、描述和参数 schema 一起传给模型，模型输出一个结构化的调用，再由我们的代码去真正执行。"
               "选哪个工具主要靠工具描述写得清不清楚，所以描述里要写明什么时候该用、什么时候不该用。"
               "我们有 20 多个工具，后来先按场景做一次路由，每次只给模型 5 到 8 个候选工具，选错率明显下降。"),
        Q("I", "How do you handle a tool that times out or returns an error?"),
        A("C", "超时的话我们会重试一次，还是失败就把错误信息返回给模型，让它换个方法或者直接告诉用户。"),
        Q("I", "What if the tool call has side effects, like charging a card? Is retrying still safe?", follow=True),
        A("C", "这种情况要用幂等键，每次调用带一个唯一的 request id，服务端发现重复就直接返回上一次的结果，这样重试不会重复扣款。"),
        Q("I", "Switching gears, how would you explain the difference between short-term and long-term memory in an agent?",
          lead="Okay."),
        A("C", "短期记忆就是上下文，长期记忆就是存到数据库里。差不多就是这样。"),
    ],
}

EXPECTED_QUESTIONS = {"zh_agent": 7, "en_agent": 7, "en_panel": 6, "zh_names": 5, "mixed": 4}

# ---------------------------------------------------------------------------
# Text helpers (the rules of README.md)
# ---------------------------------------------------------------------------

ACK_ZH = ["好的", "好", "嗯", "嗯嗯", "明白", "明白了", "了解", "了解了", "可以", "行", "谢谢", "没问题",
          "不错", "很好", "挺好的", "收到", "对", "是的", "有意思"]
ACK_EN = ["ok", "okay", "great", "got it", "i see", "thanks", "thank you", "sure", "right", "cool", "nice",
          "perfect", "makes sense", "that makes sense", "interesting", "alright", "sounds good", "good",
          "excellent", "understood", "fair enough", "mm-hmm", "uh-huh"]
FOLLOW_MARKERS = ["你刚才提到", "你提到", "那如果", "具体来说", "追问一下", "展开说说", "You mentioned",
                  "Following up on that", "What if", "Can you go deeper", "How exactly", "Going back to what you said"]

_CJK_RE = re.compile(r"[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def is_cjk(ch: str) -> bool:
    return bool(ch) and bool(_CJK_RE.match(ch))


def has_cjk(text: str) -> bool:
    return bool(_CJK_RE.search(text))


def smart_join(parts):
    """Join text pieces: no space next to Chinese characters/punctuation, else one space."""
    out = ""
    for p in parts:
        p = p.strip()
        if not p:
            continue
        if not out:
            out = p
        elif is_cjk(out[-1]) or is_cjk(p[0]):
            out += p
        else:
            out += " " + p
    return out


def normalize(text: str) -> str:
    """The comparison used by the tests: whitespace runs -> one space, and
    spaces next to Chinese characters/punctuation dropped."""
    t = re.sub(r"\s+", " ", text).strip()
    t = re.sub(r" (?=" + _CJK_RE.pattern + ")", "", t)
    t = re.sub("(?<=" + _CJK_RE.pattern + ") ", "", t)
    return t


def _ack_tokens_en(text):
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).split()


_ACK_EN_TOK = [tuple(_ack_tokens_en(p)) for p in ACK_EN]


def is_ack_only(text: str) -> bool:
    """True when every sentence of `text` consists only of acknowledgement words."""
    zh = re.sub(r"[^\u4e00-\u9fff]", "", text)
    en = _ack_tokens_en(re.sub(r"[\u4e00-\u9fff]", " ", text))
    if not zh and not en:
        return False
    # zh: segment the Chinese characters into list words
    ok = [True] + [False] * len(zh)
    for i in range(1, len(zh) + 1):
        ok[i] = any(ok[i - len(w)] and zh[i - len(w):i] == w for w in ACK_ZH if len(w) <= i)
    if not ok[len(zh)]:
        return False
    # en: segment the word tokens into list phrases
    okk = [True] + [False] * len(en)
    for i in range(1, len(en) + 1):
        okk[i] = any(len(p) <= i and okk[i - len(p)] and tuple(en[i - len(p):i]) == p for p in _ACK_EN_TOK)
    return okk[len(en)]


_FIRST_SENT = re.compile(r"^\s*(.+?(?:[。！!]|\.(?=\s|$)))\s*(.*)$", re.S)


def strip_lead_ack(text: str) -> str:
    m = _FIRST_SENT.match(text)
    if m and m.group(2).strip() and is_ack_only(m.group(1)):
        return m.group(2).strip()
    return text.strip()


def starts_with_follow_marker(text: str) -> bool:
    t = text.strip().lower()
    return any(t.startswith(m.lower()) for m in FOLLOW_MARKERS)


def split_sentences(text: str):
    if has_cjk(text):
        parts = re.split(r"(?<=[。！？])", text)
    else:
        parts = re.split(r"(?<=[.!?])\s+", text)
    return [p.strip() for p in parts if p.strip()]


def wrap2(text: str):
    """Break `text` into two lines near the middle (at a space for English,
    after Chinese punctuation for Chinese).  Returns [text] if no good break."""
    mid = len(text) // 2
    if has_cjk(text):
        cands = [i + 1 for i, ch in enumerate(text[:-1]) if ch in "，。；、！？"]
    else:
        cands = [i for i, ch in enumerate(text) if ch == " "]
    cands = [i for i in cands if 8 < i < len(text) - 8]
    if not cands:
        return [text]
    i = min(cands, key=lambda k: abs(k - mid))
    return [text[:i].rstrip(), text[i:].lstrip()]


def weight(text: str) -> float:
    """Speaking-time weight: Chinese characters ~ 1, English words ~ 1.7."""
    return len(re.findall(r"[\u4e00-\u9fff]", text)) + 1.7 * len(re.findall(r"[A-Za-z0-9][A-Za-z0-9'%,.-]*", text))


# ---------------------------------------------------------------------------
# Timeline: every turn and every sentence gets integer-millisecond times
# ---------------------------------------------------------------------------


def build_timeline(conv):
    """Attach, to every turn, a list of sentences [(seg_idx, text, is_lead, start_ms, end_ms)]
    and the turn's start/end."""
    t = 1000
    for i, turn in enumerate(conv["turns"]):
        sents = []
        for si, seg in enumerate(turn["segs"]):
            if si == 0 and turn["lead"]:
                sents.append([si, turn["lead"], True])
            for s in split_sentences(seg):
                sents.append([si, s, False])
        if turn["kind"] == "ack":
            gap, dur = 250 + (i * 97) % 200, 650 + (i * 131) % 400
        else:
            total = sum(weight(s[1]) for s in sents)
            gap = 450 + (i * 337) % 900
            dur = int(total / 4.3 * 1000) + 300
        start = t + gap
        # split the turn time over its sentences by weight; pauses between segments
        w = [max(weight(s[1]), 1.0) for s in sents]
        cur = start
        out = []
        for k, s in enumerate(sents):
            if k > 0 and sents[k][0] != sents[k - 1][0]:
                cur += 900  # pause between the two lines of a split question
            d = int(dur * w[k] / sum(w))
            out.append((s[0], s[1], s[2], cur, cur + d))
            cur += d
        turn["sents"] = out
        turn["start"], turn["end"] = out[0][3], out[-1][4]
        t = turn["end"]


def seg_pieces(turn, with_lead=True):
    """Per segment: (seg_idx, text, start, end, [sentences])."""
    res = []
    for si in range(len(turn["segs"])):
        ss = [s for s in turn["sents"] if s[0] == si and (with_lead or not s[2])]
        if not ss:
            continue
        res.append((si, smart_join([s[1] for s in ss]), ss[0][3], ss[-1][4], ss))
    return res


def full_text(turn, with_lead=True):
    return smart_join([p[1] for p in seg_pieces(turn, with_lead)])


# ---------------------------------------------------------------------------
# Reference implementation of the expected-file rules
# ---------------------------------------------------------------------------


def unit(name, role, text, start, end, src):
    return {"name": name, "role": role, "text": text, "start": start, "end": end, "src": src}


def r3(ms):
    return None if ms is None else round(ms / 1000.0, 3)


def count_speakers(turns):
    """Speakers in order of first appearance, with their number of (merged) turns."""
    speakers = []
    for t in turns:
        for s in speakers:
            if s["name"] == t["name"]:
                s["turns"] += 1
                break
        else:
            speakers.append({"name": t["name"], "role": t["role"], "turns": 1})
    return speakers


def pair_step(pairs, cur, t, src=None):
    """Apply one merged turn to the pairs by the rules of README.md; returns the open pair.
    Interviewer turns open or extend a question (acks dropped, a leading ack cut), the
    candidate's turns extend its answer; `asrc` records the answer's source turns."""
    text = smart_join(t["texts"])
    if t["role"] == "interviewer":
        if is_ack_only(text):
            return cur
        text = strip_lead_ack(text)
        if cur is None or cur["a"]:
            cur = {"q": [text], "a": [], "start": t["start"], "end": None,
                   "src": t["src"] if src is None else src, "asrc": []}
            pairs.append(cur)
        else:
            cur["q"].append(text)
    elif cur is not None:
        cur["a"].append(text)
        cur["asrc"].append(t.get("src"))
        cur["end"] = t["end"]
    return cur


def expected_labeled(conv, units, fmt, otter=False):
    # 1. turns = maximal runs of units by the same speaker
    turns = []
    for u in units:
        if turns and turns[-1]["name"] == u["name"]:
            turns[-1]["texts"].append(u["text"])
            turns[-1]["end"] = u["end"]
        else:
            turns.append({"name": u["name"], "role": u["role"], "texts": [u["text"]],
                          "start": u["start"], "end": u["end"], "src": u["src"]})
    if otter:  # start times only: a turn ends where the next turn starts
        for a, b in zip(turns, turns[1:]):
            a["end"] = b["start"]
        turns[-1]["end"] = None
    speakers = count_speakers(turns)
    # 2. pairs
    pairs, cur = [], None
    for t in turns:
        cur = pair_step(pairs, cur, t)
    return finish(conv, fmt, speakers, pairs)


def expected_speakerless(conv, units, fmt):
    pairs, cur, qruns, aruns, prev_q = [], None, 0, 0, None
    for u in units:
        isq = u["text"].rstrip().endswith(("?", "？"))
        if isq:
            if cur is None or cur["a"]:
                cur = {"q": [u["text"]], "a": [], "start": u["start"], "end": None, "src": u["src"]}
                pairs.append(cur)
                qruns += 1
            else:
                cur["q"].append(u["text"])
        else:
            if cur is None:
                continue  # before the first question: dropped
            if not cur["a"]:
                aruns += 1
            cur["a"].append(u["text"])
            cur["end"] = u["end"]
    speakers = [{"name": None, "role": "interviewer", "turns": qruns},
                {"name": None, "role": "candidate", "turns": aruns}]
    return finish(conv, fmt, speakers, pairs)


def finish(conv, fmt, speakers, pairs):
    out = []
    for i, p in enumerate(pairs):
        follow = conv["turns"][p["src"]]["follow"]
        out.append({
            "question": smart_join(p["q"]),
            "answer": smart_join(p["a"]),
            "follow_up_of": i if (follow and i > 0) else None,
            "start_s": r3(p["start"]),
            "end_s": r3(p["end"]),
        })
    return {"format": fmt, "language": conv["language"], "speakers": speakers, "pairs": out}


# ---------------------------------------------------------------------------
# Renderers: each returns (text, units, format, kind) where kind picks the rule set
# ---------------------------------------------------------------------------


def ts_vtt(ms):
    h, r = divmod(ms, 3600_000)
    m, r = divmod(r, 60_000)
    s, r = divmod(r, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{r:03d}"


def ts_srt(ms):
    return ts_vtt(ms).replace(".", ",")


def ts_otter(sec):
    h, r = divmod(sec, 3600)
    m, s = divmod(r, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def names(conv, key):
    return conv["speakers"][key]


def render_labeled(conv, colon=": ", qa=None, own_line=False, blank=False, wrap_long=0):
    """One line per segment `Label<colon>text` (or the label alone on its line,
    the text on the next line(s) when own_line)."""
    lines, units, prev = [], [], None
    for i, turn in enumerate(conv["turns"]):
        name, role = names(conv, turn["spk"])
        if qa:
            name = qa[role]
        for si, text, st, en, _ in seg_pieces(turn):
            if blank and prev is not None and prev != i:
                lines.append("")
            body = wrap2(text) if wrap_long and len(text) > wrap_long else [text]
            if own_line:
                if blank and prev == i:
                    lines.append("")
                lines.append(f"{name}{colon.rstrip()}")
                lines.extend(body)
            else:
                lines.append(f"{name}{colon}{body[0]}")
                lines.extend(body[1:])
            units.append(unit(name, role, text, None, None, i))
            prev = i
    return "\n".join(lines) + "\n", units


def render_raw(conv):
    paras, units = [], []
    for i, turn in enumerate(conv["turns"]):
        if turn["kind"] == "ack":
            continue
        text = full_text(turn, with_lead=False)
        paras.append(text)
        units.append(unit(None, None, text, None, None, i))
    return "\n\n".join(paras) + "\n", units


def render_zoom(conv):
    """Zoom-style WebVTT: numeric ids, `Name: text`; long segments split over
    two cues; some cues wrapped onto two lines; one STYLE and one NOTE block."""
    zh = conv["language"] == "zh"
    split_at = 70 if zh else 160
    wrap_at = 34 if zh else 80
    out = ["WEBVTT", "", "STYLE", "::cue {", "  color: #ffffff;", "  background-color: rgba(0, 0, 0, 0.6);", "}", ""]
    units, n = [], 0
    note_done = False
    for i, turn in enumerate(conv["turns"]):
        name, role = names(conv, turn["spk"])
        if not note_done and i == 6:
            out += ["NOTE", "Transcript generated by Zoom cloud recording.",
                    "Speaker names come from the meeting participant list.", ""]
            note_done = True
        for si, text, st, en, ss in seg_pieces(turn):
            if len(text) > split_at and len(ss) >= 2:
                k = (len(ss) + 1) // 2
                chunks = [ss[:k], ss[k:]]
            else:
                chunks = [ss]
            for ch in chunks:
                n += 1
                ctext = smart_join([s[1] for s in ch])
                body = wrap2(ctext) if (len(ctext) > wrap_at and n % 2 == 1) else [ctext]
                out += [str(n), f"{ts_vtt(ch[0][3])} --> {ts_vtt(ch[-1][4])}", f"{name}: {body[0]}", *body[1:], ""]
                units.append(unit(name, role, ctext, ch[0][3], ch[-1][4], i))
    return "\n".join(out), units


def guid(conv_id, n):
    h = hashlib.md5(f"{conv_id}/{n}".encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:32]}"


def render_teams(conv, conv_id):
    """Teams-style WebVTT: `<guid>/<n>-<k>` ids and `<v Name>text</v>` cues;
    a long segment is split into sub-cues -0, -1, ... of at most two sentences."""
    out = ["WEBVTT", ""]
    units, n = [], 10
    for i, turn in enumerate(conv["turns"]):
        name, role = names(conv, turn["spk"])
        for si, text, st, en, ss in seg_pieces(turn):
            n += 1
            g = guid(conv_id, n)
            chunks = [ss[k:k + 2] for k in range(0, len(ss), 2)]
            for k, ch in enumerate(chunks):
                ctext = smart_join([s[1] for s in ch])
                out += [f"{g}/{n}-{k}", f"{ts_vtt(ch[0][3])} --> {ts_vtt(ch[-1][4])}", f"<v {name}>{ctext}</v>", ""]
                units.append(unit(name, role, ctext, ch[0][3], ch[-1][4], i))
    return "\n".join(out), units


def render_srt(conv):
    """SRT: one cue per sentence, `Name: text`, long sentences on two lines."""
    out, units, n = [], [], 0
    for i, turn in enumerate(conv["turns"]):
        name, role = names(conv, turn["spk"])
        for _, s, _, st, en in turn["sents"]:
            n += 1
            body = wrap2(s) if len(s) > (40 if has_cjk(s) else 90) else [s]
            out += [str(n), f"{ts_srt(st)} --> {ts_srt(en)}", f"{name}: {body[0]}", *body[1:], ""]
            units.append(unit(name, role, s, st, en, i))
    return "\n".join(out), units


def render_otter(conv, labels=None, offset_s=0):
    """Otter export: `Name  m:ss` then the text; one block per segment."""
    out, units = [], []
    for i, turn in enumerate(conv["turns"]):
        name, role = names(conv, turn["spk"])
        if labels:
            name = labels[turn["spk"]]
        for si, text, st, en, _ in seg_pieces(turn):
            sec = st // 1000 + offset_s
            if units:
                assert sec > units[-1]["start"] // 1000, ("otter times must increase", text)
            out += [f"{name}  {ts_otter(sec)}", text, ""]
            units.append(unit(name, role, text, sec * 1000, None, i))
    return "\n".join(out), units


def render_whisper(conv):
    """openai-whisper JSON: one segment per sentence, no speakers; acknowledgement
    turns and leading acknowledgement sentences omitted (like raw text)."""
    segs, units = [], []
    for i, turn in enumerate(conv["turns"]):
        if turn["kind"] == "ack":
            continue
        for _, s, is_lead, st, en in turn["sents"]:
            if is_lead:
                continue
            segs.append({"id": len(segs), "seek": (st // 30000) * 3000, "start": st / 1000, "end": en / 1000,
                         "text": " " + s, "tokens": [], "temperature": 0.0, "avg_logprob": -0.2,
                         "compression_ratio": 1.5, "no_speech_prob": 0.01})
            units.append(unit(None, None, s, st, en, i))
    doc = {"text": "".join(s["text"] for s in segs), "language": "en", "segments": segs}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n", units


def render_whisperx(conv):
    """whisperX JSON: sentence segments with word timings and SPEAKER_NN labels
    numbered in order of first appearance."""
    order = []
    for t in conv["turns"]:
        if t["spk"] not in order:
            order.append(t["spk"])
    label = {k: f"SPEAKER_{j:02d}" for j, k in enumerate(order)}
    segs, words_all, units = [], [], []
    for i, turn in enumerate(conv["turns"]):
        spk = label[turn["spk"]]
        role = names(conv, turn["spk"])[1]
        for _, s, _, st, en in turn["sents"]:
            toks = s.split()
            tw = [len(w) + 2 for w in toks]
            cur, words = st, []
            for j, w in enumerate(toks):
                d = int((en - st) * tw[j] / sum(tw))
                sc = 0.72 + (int(hashlib.md5(f"{i}/{s}/{j}".encode()).hexdigest()[:4], 16) % 27) / 100
                words.append({"word": w, "start": round(cur / 1000, 3), "end": round((cur + d) / 1000, 3),
                              "score": round(sc, 3), "speaker": spk})
                cur += d
            segs.append({"start": st / 1000, "end": en / 1000, "text": " " + s, "words": words, "speaker": spk})
            words_all += words
            units.append(unit(spk, role, s, st, en, i))
    doc = {"segments": segs, "word_segments": words_all, "language": "en"}
    return json.dumps(doc, ensure_ascii=False) + "\n", units  # whisperX writes one compact line


# ---------------------------------------------------------------------------
# Consistency checks on the hand-written conversations
# ---------------------------------------------------------------------------


def check_conversation(cid, conv):
    qn = 0
    prev = None
    for i, turn in enumerate(conv["turns"]):
        role = conv["speakers"][turn["spk"]][1]
        text = full_text(turn)
        if turn["kind"] == "ack":
            assert role == "interviewer" and is_ack_only(text), (cid, text)
        elif turn["kind"] == "q":
            assert role == "interviewer" and not is_ack_only(text), (cid, text)
            q = strip_lead_ack(text)
            assert (q != text.strip()) == bool(turn["lead"]), (cid, "lead ack", text)
            if turn["lead"]:
                assert not is_ack_only(split_sentences(q)[0]), (cid, "two ack sentences", text)
            new_q = not (prev and prev["kind"] == "q")
            if new_q:
                qn += 1
                assert starts_with_follow_marker(q) == turn["follow"], (cid, "follow marker", q)
            else:
                assert not turn["follow"]
            assert text.rstrip().endswith(("?", "？")), (cid, "question must end with ?", text)
        else:
            assert role == "candidate", (cid, text)
            assert "?" not in text and "？" not in text, (cid, "no ? in answers", text)
            assert 1 <= len(split_sentences(text)) <= 5, (cid, text)
        for ch in text:
            assert ch not in "…“”‘’\"", (cid, "avoid ambiguous punctuation", text)
        if turn["kind"] != "ack":
            prev = turn
        if turn["kind"] == "ack" and i + 1 < len(conv["turns"]) and conv["turns"][i + 1]["kind"] == "a":
            pass  # an ack between answer parts does not reset `prev`
    assert qn == EXPECTED_QUESTIONS[cid], (cid, qn)
    for turn in conv["turns"]:
        assert turn["start"] < turn["end"]
        for s in turn["sents"]:
            assert s[3] < s[4], (cid, s)


# ---------------------------------------------------------------------------
# Bad inputs
# ---------------------------------------------------------------------------


def png_8x8() -> bytes:
    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    rows = b""
    for y in range(8):
        rows += b"\x00" + b"".join(bytes(((x * 32) % 256, (y * 32) % 256, 160)) for x in range(8))
    ihdr = struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def write_bad(whisper_text: str):
    BAD.mkdir(parents=True, exist_ok=True)
    (BAD / "empty.txt").write_bytes(b"")
    (BAD / "whitespace.txt").write_bytes(b"   \n\n        \n \n\n   \n")
    (BAD / "image.txt").write_bytes(png_8x8())
    cues = []
    for k in range(5):
        st = 1000 + k * 3500
        cues.append(f"{k + 1}\n{ts_srt(st)} --> {ts_srt(st + 3000)}\n")
    (BAD / "only_timestamps.srt").write_text("\n".join(cues) + "\n", encoding="utf-8")
    stamps = ["00:00:05", "[00:00:12]", "00:00:31", "[00:01:02]", "00:01:40",
              "[00:02:15]", "00:02:58", "[00:03:30]", "00:04:07", "[00:04:45]"]
    (BAD / "only_timestamps.txt").write_text("\n".join(stamps) + "\n", encoding="utf-8")
    # a whisper JSON cut off in the middle of a segment's text
    cut = whisper_text.index("schema validation", whisper_text.index('"segments"')) + len("schema val")
    (BAD / "truncated.json").write_text(whisper_text[:cut], encoding="utf-8")
    latin1 = ("Interviewer: Thanks for coming in. I see from your résumé that you built a support agent. "
              "How did you decide which tools it could call?\n"
              "Candidate: We started with three read-only tools and only added the refund tool after we had an "
              "approval step. Each tool description says when to use it and when not to.\n"
              "Interviewer: How did you know the agent was working well?\n"
              "Candidate: We tracked the resolution rate on about two hundred test tickets and reviewed a sample "
              "every week with the café support team.\n")
    (BAD / "latin1.txt").write_bytes(latin1.encode("latin-1"))


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def main():
    for cid, conv in CONVERSATIONS.items():
        build_timeline(conv)
        check_conversation(cid, conv)

    zh, en, panel, names_, mixed = (CONVERSATIONS[k] for k in ("zh_agent", "en_agent", "en_panel", "zh_names", "mixed"))
    outputs = []  # (file name, bytes, expected dict)

    def add(fname, text, units, fmt, conv, kind="labeled", encoding="utf-8", bom=b"", crlf=False, otter=False):
        if crlf:
            text = text.replace("\n", "\r\n")
        data = bom + text.encode(encoding)
        if kind == "labeled":
            exp = expected_labeled(conv, units, fmt, otter=otter)
        else:
            exp = expected_speakerless(conv, units, fmt)
        outputs.append((fname, data, exp))

    qa_zh = {"interviewer": "问", "candidate": "答"}
    qa_en = {"interviewer": "Q", "candidate": "A"}

    # zh_agent
    t, u = render_labeled(zh, colon="：")
    add("zh_agent_labeled.txt", t, u, "labeled", zh)
    add("zh_agent_gbk.txt", t, u, "labeled", zh, encoding="gbk", crlf=True)
    t, u = render_labeled(zh, colon="：", qa=qa_zh, blank=True)
    add("zh_agent_qa.txt", t, u, "labeled", zh)
    t, u = render_raw(zh)
    add("zh_agent_raw.txt", t, u, "raw", zh, kind="speakerless")
    t, u = render_zoom(zh)
    add("zh_agent_zoom.vtt", t, u, "webvtt", zh)
    t, u = render_otter(zh, offset_s=56 * 60 + 35)  # tail of a longer recording: crosses 1:00:00
    add("zh_agent_otter.txt", t, u, "otter", zh, otter=True)

    # en_agent
    t, u = render_labeled(en, blank=True)
    add("en_agent_labeled.txt", t, u, "labeled", en)
    add("en_agent_utf16.txt", t, u, "labeled", en, encoding="utf-16-le", bom=b"\xff\xfe", crlf=True)
    t, u = render_labeled(en, qa=qa_en, blank=True)
    add("en_agent_qa.txt", t, u, "labeled", en)
    t, u = render_raw(en)
    add("en_agent_raw.txt", t, u, "raw", en, kind="speakerless")
    t, u = render_zoom(en)
    add("en_agent_zoom.vtt", t, u, "webvtt", en)
    t, u = render_srt(en)
    add("en_agent.srt", t, u, "srt", en)
    whisper_text, u = render_whisper(en)
    add("en_agent_whisper.json", whisper_text, u, "whisper-json", en, kind="speakerless")

    # en_panel
    t, u = render_labeled(panel)
    add("en_panel_labeled.txt", t, u, "labeled", panel)
    t, u = render_teams(panel, "en_panel")
    add("en_panel_teams.vtt", t, u, "webvtt", panel)
    t, u = render_otter(panel, labels={"P": "Speaker 1", "C": "Speaker 2", "T": "Speaker 3"})
    add("en_panel_otter.txt", t, u, "otter", panel, otter=True)
    t, u = render_whisperx(panel)
    add("en_panel_whisperx.json", t, u, "whisper-json", panel)

    # zh_names
    t, u = render_labeled(names_, colon="：", own_line=True, blank=True, wrap_long=45)
    add("zh_names_labeled.txt", t, u, "labeled", names_)
    add("zh_names_bom.txt", t, u, "labeled", names_, bom=b"\xef\xbb\xbf")
    t, u = render_teams(names_, "zh_names")
    add("zh_names_teams.vtt", t, u, "webvtt", names_)

    # mixed
    t, u = render_labeled(mixed)
    add("mixed_labeled.txt", t, u, "labeled", mixed)
    t, u = render_srt(mixed)
    add("mixed.srt", t, u, "srt", mixed)

    # Cross-checks between renderings of the same conversation
    by_name = {f: e for f, _, e in outputs}
    for cid in CONVERSATIONS:
        ref = by_name[f"{cid}_labeled.txt"]
        assert len(ref["pairs"]) == EXPECTED_QUESTIONS[cid], cid
        for f, e in by_name.items():
            if not f.startswith(cid):
                continue
            assert len(e["pairs"]) == len(ref["pairs"]), f
            for k, (p, r) in enumerate(zip(e["pairs"], ref["pairs"])):
                assert normalize(p["answer"]) == normalize(r["answer"]), (f, k)
                assert p["follow_up_of"] == r["follow_up_of"], (f, k)
                if not (f == "en_agent_whisper.json" and k == 0):  # whisper drops the greeting sentence
                    assert normalize(p["question"]) == normalize(r["question"]), (f, k)
                if p["start_s"] is not None and p["end_s"] is not None:
                    assert p["start_s"] < p["end_s"], (f, k)
                if k and p["start_s"] is not None:
                    assert p["start_s"] > e["pairs"][k - 1]["start_s"], (f, k)

    for fname, data, exp in outputs:
        (HERE / fname).write_bytes(data)
        stem = fname.rsplit(".", 1)[0]
        (HERE / f"{stem}.expected.json").write_text(json.dumps(exp, ensure_ascii=False, indent=2) + "\n",
                                                    encoding="utf-8")
    write_bad(whisper_text)
    print(f"wrote {len(outputs)} renderings (+ expected files) to {HERE}")
    print(f"wrote bad inputs to {BAD}")


if __name__ == "__main__":
    main()
