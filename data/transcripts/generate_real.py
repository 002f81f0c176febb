#!/usr/bin/env python3
"""Generate samples of the transcript shapes real people hand to `ivd`.

Stdlib only, deterministic.  Run from anywhere:

    python3 data/transcripts/generate_real.py

It writes, next to this file, nine samples (Markdown podcast transcripts, an
oral-history text with a header block and tape markers, a Chinese interview
with a header, Zoom's saved transcript, a Podcasting 2.0 JSON transcript, SRT
and WebVTT files that name the speaker only on a turn's first cue, a panel
that ends with the candidate's own questions) and a `<stem>.expected.json`
beside each.  The conversation building blocks and the pair rules come from
`generate.py`; this script adds the rules for headers, non-speech markers,
small talk and closings (README.md, "Real-world shapes").
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate as g  # noqa: E402  (its main() only runs under __main__)

Q, A, K = g.Q, g.A, g.K


def S(spk, *segs):
    """A small-talk turn before the first real question (any speaker; never part of a pair)."""
    return {"kind": "s", "spk": spk, "segs": list(segs), "lead": None, "follow": False}


def C(spk, *segs):
    """A closing turn: thanks, the closing 'any questions for us?' and everything after it."""
    return {"kind": "c", "spk": spk, "segs": list(segs), "lead": None, "follow": False}


# In the segment texts below, `{T}` marks a mid-turn timestamp (rendered only in
# the Markdown podcasts, at the start time of the sentence it opens).  Each seg
# of a Markdown turn is one paragraph.

CONVS = {}

# 1. en_podcast ---------------------------------------------------------------
CONVS["en_podcast"] = {
    "language": "en",
    "questions": 13,
    "speakers": {
        "D": ("Dana Whitfield", "interviewer"),
        "M": ("Marcus Oyelaran", "interviewer"),
        "E": ("Elena Sokolova", "candidate"),
    },
    "turns": [
        S("D", "Hey everyone, welcome back to the show. I'm here with Marcus as always, and today we have Elena "
               "Sokolova with us. How's everybody doing?"),
        S("E", "Doing well, thanks. It's good to finally be on, I've been listening for a couple of years now."),
        S("M", "Oh, that's very kind. I'm doing great too, though I'm about four coffees in already. [laughter]"),
        S("E", "That sounds about right for a Monday."),
        S("D", "It really does. Elena, where are you calling in from today?"),
        S("E", "From Rotterdam. It's raining, which is the default setting here. [laughter]"),
        Q("D", "So you went from writing warehouse routing software to running an agent platform team. Walk us "
               "through how that started."),
        A("E", "Honestly, it started as a side project. Our support queue was full of the same five questions about "
               "delayed shipments, and one weekend I wired a model up to a couple of internal APIs to see if it could "
               "answer them. {T} It handled maybe half of them reasonably well, which was enough to get me two "
               "engineers and a quarter to try it properly. The first version was a single prompt with three tools, "
               "and it was very fragile. Within a year six teams were asking for the same thing, so we pulled the "
               "common pieces out into a platform."),
        Q("M", "What did the platform actually give those teams? Like, what was in the box?"),
        A("E", "Three things, mainly. A runtime that runs the agent loop with hard limits on steps, tokens and "
               "wall-clock time, so nobody has to reinvent that. A tool registry where every tool has a schema, an "
               "owner and a flag saying whether it changes anything in the outside world.",
               "{T} And tracing, which turned out to be the piece people valued most, because every step of every "
               "run is recorded with the prompt, the tool call and whatever came back."),
        K("D", "Mm-hmm."),
        A("E", "The limits were the unpopular part at first. Teams wanted to let the agent run for as long as it "
               "needed. Then one agent spent a whole weekend calling the same search tool in a loop and ran up a "
               "bill of a few thousand dollars, and after that nobody argued about limits anymore. [laughter]"),
        Q("D", "You mentioned the agent looping on that search tool. How exactly do you catch a loop like that now, "
               "before it burns through the budget?", follow=True),
        A("E", "We fingerprint every tool call, so the tool name plus the normalized arguments, and if the same "
               "fingerprint shows up three times in one run we stop and hand the task to a person. On top of that "
               "there's a token budget per run, and the runtime checks it before each model call rather than after. "
               "The repeat check alone stopped most of the runaway runs we used to see."),
        Q("M", "Let's talk about the tools themselves. How do you write a tool description that the model actually "
               "follows?"),
        A("E", "We treat descriptions like documentation for a new hire who reads very literally. Each one says "
               "what the tool does, when to use it and, the part people forget, when not to use it. We also put one "
               "short example call in there. When we added the when-not-to-use line to our shipment lookup, wrong "
               "tool picks on our test set dropped from around twelve percent to four."),
        Q("D", "And is there a number where it falls apart, where one agent just has too many to choose from?"),
        Q("M", "Because I keep hearing people say anything past ten is asking for trouble."),
        A("E", "It depends on how similar they are more than how many there are. Twenty very different ones are "
               "fine. Five that all sound like some kind of search get mixed up constantly. When a task really needs "
               "a big catalog, we put a routing step in front that hands the model a small subset, usually six to "
               "eight."),
        Q("D", "Let's get into evaluation, which I know you have opinions on. How do you decide an agent is good "
               "enough to ship?"),
        A("E", "We keep an offline suite of about four hundred tasks taken from real tickets, with the customer "
               "details scrubbed out. Every task has checks we can run in code, for example whether the right "
               "shipment got rerouted, plus a rubric for the written reply that a model grades. {T} A change ships "
               "only if the success rate doesn't drop and the cost per task doesn't go up by more than ten percent. "
               "We run the whole suite three times per change, because runs vary, and we look at the spread and not "
               "just the average."),
        K("M", "Right."),
        A("E", "And we read failures. Every week someone on the team reads twenty failed runs end to end. That "
               "habit has found more bugs than any dashboard we've built."),
        Q("M", "Following up on that, how do you trust the model that grades the written replies?", follow=True),
        A("E", "We don't, fully. Three people labeled about a hundred and fifty replies, we measured how often the "
               "grader agreed with them, and we kept rewriting the rubric until agreement got to around eighty-five "
               "percent. Anything the grader marks as borderline still goes to a human."),
        # -- ad break here --
        Q("D", "Welcome back. Something that comes up with almost every team we talk to is memory. How do you "
               "handle what an agent remembers between conversations?"),
        A("E", "Mostly by avoiding it. [laughter] Long-term memory looks great in a demo, but it's also where stale "
               "or wrong facts sneak in. What we keep is narrow. Customer preferences, like the delivery window they "
               "always pick, are stored as structured fields with a date, and the agent can read them, but only a "
               "confirmed action can change them."),
        K("D", "Interesting."),
        A("E", "The other half is the context window during a single long run. Tracking lookups can return thousands "
               "of tokens of event history, so we trim tool results to the fields agents actually used in past runs "
               "and keep the full payload in storage behind an ID. {T} For runs longer than about fifteen steps, the "
               "older steps get summarized into a short running log, except addresses, amounts and IDs, which are "
               "always copied exactly."),
        Q("D", "Let's talk about the scary part, which is actions. How do you stop an agent from doing something it "
               "can't undo?", lead="Got it."),
        A("E", "Every tool in the registry is marked read-only or side-effecting. Side-effecting ones go through a "
               "policy check in code first, things like spending limits or whether this customer is allowed to "
               "change this order. Anything above a threshold, refunds over two hundred euros for example, needs a "
               "person to approve it in the support console. And every side-effecting call carries an idempotency "
               "key, so a retry after a timeout can't issue the same refund twice."),
        Q("M", "I'm curious about the worst day you've had with an agent in production. Tell us about it."),
        A("E", "Oh, that's an easy one. [laughter] A carrier changed the format of their tracking API without "
               "telling anyone, and our parser started returning empty event lists. The agent read that as the "
               "package never having shipped, so it apologized to a few hundred customers and offered to send "
               "replacements.",
               "{T} Nothing was actually sent, because replacements need approval, but support spent two days "
               "cleaning up. The fix was boring. We added schema checks on tool outputs, not just inputs, and an "
               "alert when a tool's empty-result rate jumps."),
        Q("D", "Going back to what you said about checking tool outputs, do you validate every tool response now, "
               "or only the ones from outside vendors?", follow=True),
        A("E", "Every tool, internal ones included. Internal APIs change too, just with more warning. The check is "
               "cheap, a schema plus a few sanity rules like timestamps not being in the future, and when it fails "
               "the agent gets an explicit error instead of quietly wrong data."),
        Q("M", "So where do you land on multi-agent setups? It feels like every framework is pushing them right "
               "now."),
        A("E", "I'm pretty cautious. We tried a planner that handed work to three specialist agents, and it was "
               "slower and harder to debug than one agent with good tools, because every handoff loses a bit of "
               "context. Where it did pay off was a separate reviewer that checks outgoing customer messages, since "
               "that job has a different goal and a small, clear input."),
        Q("D", "Last one from me. What would you tell a team that's about to put their first agent in front of "
               "customers?"),
        A("E", "Start narrower than feels comfortable. Pick one task, log everything, build a test set from real "
               "cases before launch, and keep a person in the loop for anything that costs money. You can loosen "
               "things once the traces tell you it's safe."),
        C("M", "That's a great place to end. Elena, thank you so much for coming on and being this candid."),
        C("E", "Thanks for having me, this was a lot of fun."),
        C("D", "And thanks to everyone listening. We'll see you next week."),
    ],
}

# 2. zh_podcast -------------------------------------------------------------
CONVS["zh_podcast"] = {
    "language": "zh",
    "questions": 8,
    "speakers": {
        "W": ("王磊", "interviewer"),
        "C": ("陈静", "interviewer"),
        "L": ("刘洋", "candidate"),
    },
    "turns": [
        S("W", "大家好，欢迎收听本期节目，我是王磊。今天的嘉宾是刘洋。刘洋，最近忙吗？"),
        S("L", "大家好。最近挺忙的，大促刚结束，我们组连着加了两周班。[笑]"),
        S("C", "辛苦辛苦。我是陈静，今天我们俩一起主持。"),
        S("L", "陈静好。"),
        Q("W", "那我们先从头聊起吧。你们最开始为什么想在客服场景里做 Agent？"),
        A("L", "最开始其实是成本压力。大促期间咨询量能翻五六倍，临时招人培训根本来不及。"
               "我们统计过，大概七成的咨询集中在查物流、改地址、退换货这几类，流程很固定，所以就想先让 Agent 把这几类接过来。"),
        Q("C", "第一版做出来效果怎么样？"),
        A("L", "说实话第一版挺糟糕的。我们把所有规则都塞进一个很长的提示词里，模型经常漏看其中一条，比如退货期限，有时候会答应已经超期的退货。",
               "{T}后来我们把规则从提示词里拿出来，改成工具。能不能退、能退多少，都由代码里的规则来判断，模型只负责理解用户想干什么、该调用哪个工具。"
               "这么改完以后，错误的承诺基本就没有了。"),
        K("W", "嗯。"),
        A("L", "还有一点，工具返回的结果我们也会校验，格式不对就直接报错，不让模型自己去猜。"),
        Q("C", "你刚才提到把规则改成工具，那工具多了以后，模型会不会选错工具？", follow=True),
        A("L", "会的。我们现在有三十多个工具，一次全给模型的话，选错率挺高。"
               "所以前面加了一步意图识别，先判断是物流、售后还是账户问题，每类只给模型五六个相关工具，选错率从百分之十几降到了百分之三左右。"),
        Q("W", "换个角度，你们怎么评估上线以后的效果？"),
        A("L", "线上我们主要看三个指标，自助解决率、转人工率，还有用户的差评率。另外每天随机抽两百个会话让质检同学人工看。"
               "{T}线下我们有一个五百条左右的评测集，每次改提示词或者换模型都要先跑一遍，解决率掉了就不能发。"),
        Q("C", "有没有遇到过比较严重的线上事故？"),
        A("L", "有一次印象很深。物流接口超时，工具返回了空结果，Agent 就跟用户说查不到这个订单，好几百个用户以为自己买到了假货。[笑]"
               "后来我们规定，接口超时和查询结果为空必须返回不同的错误码，Agent 遇到超时只能说系统繁忙，请稍后再试。"),
        Q("W", "那如果用户一直追问，Agent 会一直重试吗？", follow=True),
        A("L", "不会。同一个工具同样的参数最多重试两次，还不行就转人工，同时把前面的对话摘要带过去，人工客服不用再问一遍。"),
        Q("C", "记忆这块你们是怎么做的？比如老用户第二次来，Agent 知道他之前遇到过什么问题吗？"),
        A("L", "我们只做了很有限的记忆，就是最近三十天的工单记录，作为结构化数据给 Agent 查。"
               "聊天原文不存进记忆，一是隐私，二是原文里很多信息已经过时了。"),
        Q("W", "最后一个问题，如果现在让你从头再做一遍，你会有什么不一样的做法？"),
        A("L", "我会更早做评测集。头两个月我们改提示词全靠感觉，修好一个问题，又冒出来两个。"
               "有了评测集以后，每次改动有没有用一目了然，迭代反而快了。"),
        C("C", "好，今天就聊到这里。谢谢刘洋来做客。"),
        C("L", "谢谢两位，聊得很开心。"),
        C("W", "也谢谢大家的收听，我们下期再见。"),
    ],
}

# 3. en_oral_history ----------------------------------------------------------
CONVS["en_oral_history"] = {
    "language": "en",
    "questions": 10,
    "speakers": {
        "P": ("PARK", "interviewer"),
        "L": ("LEE", "interviewer"),
        "R": ("ALVAREZ", "candidate"),
    },
    "turns": [
        Q("P", "This is Susan Park, and I'm here with David Lee. We're talking with Robert Alvarez at his home in "
               "Stockton. Let's start at the beginning. Tell me about your parents."),
        A("R", "My father came up from Michoacán in 1951 with the Bracero program and picked asparagus and "
               "tomatoes all over the valley. My mother was born here, in Tracy, and she worked in the canneries "
               "every summer until her back gave out. She used to say she'd peeled more peaches than anybody in San "
               "Joaquin County. [laughter] They met at a dance in Lodi, and I was the third of six kids."),
        Q("L", "When did you first hear about the union?"),
        A("R", "I was maybe fourteen. A man came to the labor camp where we were working that summer, handing out "
               "leaflets, and the foreman chased him off with a pickup truck. My father (inaudible) took one of the "
               "leaflets anyway and kept it folded inside his Bible. I didn't understand what it said back then."),
        Q("P", "You mentioned your father kept the leaflet. Did he ever sign up himself?", follow=True),
        A("R", "Not for a long time. He was afraid of losing the work, and he had reason to be, people got "
               "blacklisted for less. He signed his card in 1966, the year of the march to Sacramento, and he was "
               "prouder of that card than of his citizenship papers."),
        Q("L", "Describe the first strike you were part of."),
        A("R", "That was grapes, in Delano. I was nineteen. We walked out of the fields at six in the morning, a "
               "whole crew at once, and stood on the shoulder of the road with signs while the growers trucked in "
               "people from out of state. A sheriff's deputy took pictures of every one of us. [laughter] My mother "
               "was sure I'd end up in jail."),
        K("P", "Mm-hmm."),
        A("R", "I didn't. But I learned that a picket line is mostly waiting, and that the people who keep it "
               "together are the ones who bring food and remember everybody's name."),
        Q("P", "How did you go from standing on a picket line to organizing other workers?"),
        A("R", "Somebody asked me to. [laughter] An organizer named Lupe Ortega noticed I could talk to the older men "
               "in Spanish and to the Filipino crews in the English we all shared, and she gave me a list of forty "
               "names and a car with no second gear. I spent that winter driving to kitchens and sitting at tables, "
               "listening more than I talked. By spring thirty-one of those forty had signed."),
        Q("L", "Tell me about the cannery campaigns in the seventies. What was different about organizing inside a "
               "plant?"),
        A("R", "Everything. In the fields you could talk to a crew at the edge of a row. In a cannery the line never "
               "stops and the floor lady is watching, so we did it in the parking lot at shift change and in the "
               "laundromat on Sundays. Most of the workers were women, and they were better organizers than I was, "
               "to be honest. They already had phone trees for church and for the kids."),
        Q("P", "Tell me about the hardest loss you had."),
        A("R", "Nineteen seventy-eight, a frozen food plant outside Modesto. We had signed cards from almost two thirds "
               "of the workers. The company brought in a consultant, held meetings every day, and fired two of our "
               "strongest people for being late. We lost the vote by eleven. I drove home and didn't talk to anyone "
               "for two days."),
        Q("L", "Going back to what you said about losing by eleven, what would you have done differently?", follow=True),
        A("R", "I would have moved faster. We waited too long to file, because I wanted a bigger margin, and that "
               "gave the company three months to work on people one at a time. And I'd have protected the two who "
               "got fired, got their names out in public early so that firing them would have cost something."),
        Q("P", "What did all of this cost your family?"),
        A("R", "A lot of missed dinners. My wife, Carmen, raised our girls mostly by herself for about ten years. "
               "[crosstalk] No, she'd say the same. She says she married the union too. We're still married, so I "
               "guess she forgave me. [laughter]"),
        Q("L", "Looking back now, how do you want people to remember this work?"),
        A("R", "Not as something heroic. It was ordinary people, mostly tired, deciding to show up for each other one "
               "more time. If somebody reads this and asks a coworker what they're paid, that's enough for me."),
        K("P", "Thank you."),
    ],
}

# 4. zh_header --------------------------------------------------------------
CONVS["zh_header"] = {
    "language": "zh",
    "questions": 6,
    "speakers": {"Z": ("张三", "interviewer"), "L": ("李四", "candidate")},
    "turns": [
        S("Z", "李四你好，能听到吗？"),
        S("L", "能听到，您好。"),
        Q("Z", "那我们开始吧。先简单介绍一下你最近做的一个 Agent 项目。"),
        A("L", "好的。我最近一年在做一个内部的代码评审 Agent。它会读合并请求的改动，跑静态检查和单测，查相关的历史缺陷，然后在合并请求下面留评论。"
               "现在每天大概处理三百多个合并请求，评论的采纳率在四成左右。"),
        Q("Z", "它怎么决定要调用哪些工具？是固定流程还是让模型自己选？"),
        A("L", "两者结合。静态检查和单测是每次都要跑的，这部分写死在流程里，[听不清]不交给模型决定。"
               "查历史缺陷、看调用方代码这些是让模型按需调用的，因为不是每次改动都需要。"),
        K("Z", "嗯。"),
        A("L", "另外每次评审最多调用八次工具，超过就直接输出已有的结论。"),
        Q("Z", "你提到最多调用八次工具，这个八是怎么定出来的？", follow=True),
        A("L", "是看数据定的。我们统计了两千多次运行，百分之九十五的评审在六步以内就结束了，超过十步的基本都是在原地打转，所以就定在八步。"),
        Q("Z", "评论的质量你们怎么保证？误报多了，开发肯定就不看了。"),
        A("L", "我们有一个置信度过滤，模型给每条评论标一个严重程度，低于阈值的不发。"
               "另外每周拉一次被开发标记为没用的评论，分析原因，再调提示词和规则。"
               "刚上线的时候误报挺多的（笑），采纳率只有两成，调了两个月才到现在的水平。"),
        Q("Z", "如果让你给这个 Agent 设计评测集，你会怎么做？"),
        A("L", "我会从历史合并请求里挑，人工评审指出过问题的当正样本，没有问题的当负样本，看 Agent 能不能找到同样的问题、会不会乱报。"
               "这个我们还没完全做好，目前只有一百条左右。"),
        Q("Z", "最后一个问题，你怎么看多 Agent 架构？你们项目里用了吗？"),
        A("L", "没有用。我觉得我们的场景一个 Agent 就够了，拆成多个反而增加沟通成本和排查难度。这块我了解得也不算深。"),
        C("Z", "好的，谢谢。我这边问题就这些，你有什么想问我们的吗？"),
        C("L", "想问一下，这个岗位进去以后主要负责哪一块？"),
        C("Z", "主要是我们研发平台上的几个 Agent，包括代码评审和测试生成。你进来的话会先跟着做评测这块。"),
        C("L", "好的，明白了，谢谢。"),
    ],
}

# 5. en_zoom_saved ----------------------------------------------------------
CONVS["en_zoom_saved"] = {
    "language": "en",
    "questions": 6,
    "speakers": {"P": ("Priya Raman", "interviewer"), "S": ("Sam Okafor", "candidate")},
    "turns": [
        S("P", "Hi Sam, can you hear me okay?"),
        S("S", "Yep, loud and clear. Hi Priya."),
        Q("P", "So to start, tell me about yourself and what you've been working on lately.", lead="Great."),
        A("S", "Sure. I'm a backend engineer, about six years in, mostly payments.",
               "For the last year and a half I've been on a small team building an agent that helps our finance "
               "ops people fix failed payouts. It pulls the payout record, checks the bank's response codes against "
               "our ledger, and drafts a fix that a person approves."),
        Q("P", "How do you make sure a draft is actually correct before someone approves it?"),
        A("S", "Every draft goes through a dry run against a copy of the ledger, so the reviewer sees the exact "
               "balance changes, not just the model's description of them."),
        K("P", "Mm-hmm."),
        A("S", "And if the dry run doesn't match what the model said it would do, the draft is thrown out and the "
               "run gets flagged.", "That mismatch check caught a few dozen bad drafts in the first month alone."),
        Q("P", "You mentioned the mismatch check. What were those bad drafts getting wrong, mostly?", follow=True),
        A("S", "Mostly currency. Payouts in yen have no decimal places, and the model kept treating amounts as if "
               "they had two. We ended up doing all the amount math in code and only letting the model pick which "
               "operation to apply."),
        Q("P", "Let's switch to observability. What do you log for each agent run?"),
        A("S", "Each step gets a trace span with the prompt version, the model, token counts, the tool call and its "
               "result, and latency.", "Runs are keyed by the payout ID, so when finance asks why something "
               "happened we can replay the whole thing."),
        Q("P", "Tell me about a time the agent did something you didn't expect in production."),
        A("S", "One week it started escalating almost everything to a human, and nothing had changed on our side. "
               "It turned out the bank had added a new response code, our tool returned it as unknown, and the "
               "agent played it safe.", "Honestly that was the right behavior. We just added the code and a test "
               "for it."),
        Q("P", "Last question. How would you decide whether to let the agent execute fixes without approval?"),
        A("S", "I'd look at the approval data first. If reviewers approve a certain category of fix unchanged, say "
               "ninety-nine percent of the time over a few months, that category becomes a candidate.",
               "I'd still keep a cap on the amount and a daily limit, and I'd roll it out to a small share of "
               "payouts first."),
        K("P", "Okay, great. Thank you."),
    ],
}

# 6. en_podcast20 -----------------------------------------------------------
CONVS["en_podcast20"] = {
    "language": "en",
    "questions": 6,
    "speakers": {"R": ("Rachel Torres", "interviewer"), "B": ("Ben Hartley", "candidate")},
    "turns": [
        S("R", "Welcome back to Tool Use. I'm Rachel Torres, and today I'm talking with Ben Hartley, who maintains "
               "an open source connector library for agents. Ben, how are you doing?"),
        S("B", "I'm good, thanks for having me on."),
        Q("R", "So for people who haven't used it, what does your library actually do?"),
        A("B", "It's a set of connectors that expose things like calendars, ticket systems and databases as tools "
               "an agent can call. Each connector ships with a schema, sensible defaults for paging and rate limits, "
               "and tests against a recorded copy of the real API. The idea is that nobody should have to write a "
               "Jira wrapper for the fifth time."),
        Q("R", "How has the Model Context Protocol changed the project?"),
        A("B", "A lot. We used to ship adapters for four different agent frameworks. Now every connector is an MCP "
               "server, and any client that speaks the protocol can discover its tools at runtime. That cut our "
               "adapter code by about two thirds."),
        Q("R", "You mentioned clients discovering tools at runtime. Doesn't that make it easy for a malicious server "
               "to slip in a bad tool?", follow=True),
        A("B", "It does, and that's the part I worry about most. A tool description is text the model reads, so a "
               "hostile server can hide instructions in it. We recommend pinning server versions, reviewing "
               "descriptions whenever they change, and never letting a tool from one server trigger actions on "
               "another without the user confirming."),
        Q("R", "What's the most common mistake you see when people write their own connectors?"),
        A("B", "Returning far too much data. Someone wraps a search endpoint and returns the raw JSON, two hundred "
               "fields per record, and the agent drowns in it. We ask contributors to return only the fields a person "
               "would need for the next decision, plus an ID to fetch the rest."),
        Q("R", "How do you test a connector when the real API is flaky or rate limited?"),
        A("B", "We record real responses once, strip anything sensitive, and replay them in CI. Then we add "
               "hand-written cases for the ugly paths, like timeouts, expired tokens and a page that comes back "
               "empty. Every connector has to handle those without crashing the agent."),
        Q("R", "Where do you see the project going next year?"),
        A("B", "Mostly boring work, which is what people need. Better auth flows, so users can grant a connector "
               "narrow permissions instead of a full account token. And audit logs, so a company can see exactly "
               "which calls an agent made and on whose behalf."),
        C("R", "Ben, thanks so much for coming on, this was really useful."),
        C("B", "Thanks Rachel, I enjoyed it."),
    ],
}

# 7. en_first_cue -----------------------------------------------------------
CONVS["en_first_cue"] = {
    "language": "en",
    "questions": 6,
    "speakers": {"P": ("Priya Raman", "interviewer"), "J": ("Jordan Ellis", "candidate")},
    "turns": [
        Q("P", "Hi Jordan, thanks for joining. Let's jump right in. Tell me about a retrieval system you built and "
               "what it was for."),
        A("J", "Sure. I built the search layer behind an internal assistant for our legal team. It indexes about "
               "forty thousand contracts, and lawyers ask things like which agreements have an auto-renewal clause. "
               "We used hybrid search, keyword plus embeddings, because contract language is full of exact terms "
               "that embeddings tend to blur together."),
        Q("P", "Can you go deeper on the hybrid part? How do you combine the two result lists?", follow=True),
        A("J", "We run both searches, take the top fifty from each, and merge them with reciprocal rank fusion. Then "
               "a cross-encoder reranks the merged list and we keep the top eight. Adding the reranker was the "
               "biggest single gain, recall at eight went from about seventy percent to eighty-eight on our test "
               "questions."),
        Q("P", "How do you chunk documents that long?"),
        A("J", "By clause, not by fixed size. Contracts already have numbered sections, so we split on those and keep "
               "the section heading and the contract title attached to every chunk. A clause that runs past about "
               "eight hundred tokens gets split again at paragraph breaks."),
        K("P", "Mm-hmm."),
        A("J", "The heading matters more than people think. Without it, a chunk that just says the term is twelve "
               "months could belong to any of five contracts."),
        Q("P", "Walk me through how you'd handle a question whose answer is spread across several agreements."),
        A("J", "I'd make it two stages. First the model turns the question into a filter, for example all supplier "
               "agreements signed after 2021, and we run that against metadata rather than embeddings. Then we pull "
               "the relevant clause from each matching contract and have the model build a table, one row per "
               "contract, with a citation in every row."),
        Q("P", "What do you do when the assistant answers confidently but the source doesn't support it?"),
        A("J", "Every sentence in an answer has to cite a chunk, and a second, cheaper model checks whether each "
               "cited chunk actually supports its sentence. Unsupported sentences get removed and the lawyer sees a "
               "note saying so. That check flags around three percent of answers, and most of them are the model "
               "mixing up two similar contracts."),
        Q("P", "Last one. How do you keep the index fresh when contracts get amended?"),
        A("J", "Honestly, I'm not sure we solved that well. We re-index every night, but amendments are separate "
               "documents, so sometimes the assistant quotes the original clause instead of the amended one."),
        K("P", "Okay, got it. Thank you."),
    ],
}

# 8. zh_first_cue -----------------------------------------------------------
CONVS["zh_first_cue"] = {
    "language": "zh",
    "questions": 5,
    "speakers": {"Z": ("张伟", "interviewer"), "M": ("周敏", "candidate")},
    "turns": [
        Q("Z", "周敏你好，我们直接开始。你在项目里用过哪些 Agent 的规划方式？"),
        A("M", "主要用过两种。一种是 ReAct，模型每一步先想一下再调工具；另一种是先让模型列出完整计划，再一步步执行。"
               "我们做数据分析助手的时候用的是后一种，因为用户一般会先确认计划再执行，这样返工少。"
               "计划阶段用大模型，执行阶段生成 SQL 换成了小一点的模型，成本降了差不多一半。"),
        Q("Z", "具体来说，计划执行到一半发现走不通，你们怎么处理？", follow=True),
        A("M", "每一步执行完都会检查结果，比如 SQL 报错或者返回空表，就把错误和已经完成的步骤一起交回规划模型，让它只重写后面的计划，前面做完的不重做。"
               "重新规划最多两次，再失败就把已有结果和失败原因一起返回给用户。"),
        K("Z", "嗯。"),
        A("M", "这样做以后，一次任务平均的模型调用次数从十几次降到了七八次。"),
        Q("Z", "用户的历史偏好，比如常用的指标口径，你们会记下来吗？"),
        A("M", "会记，但只记用户明确确认过的东西。比如他说 GMV 不含退款，我们就存成一条结构化的配置，下次生成 SQL 的时候直接带上。"
               "模型自己推断出来的偏好不会自动写进去，怕记错了以后一直错。"),
        Q("Z", "如果一个工具经常超时，你会怎么排查？"),
        A("M", "这个我没有系统地做过。一般就是看日志，找到超时的请求，然后加重试。"),
        Q("Z", "最后一个问题，你觉得自己在这个项目里最大的贡献是什么？"),
        A("M", "我觉得是把评测做起来了。之前大家改完提示词就凭感觉上线，我整理了两百多个真实问题和标准答案，每次改动都自动跑一遍，对比准确率和耗时。"
               "现在团队里任何改动都要附上评测结果才能合并。"),
        K("Z", "好的，谢谢。"),
    ],
}

# 9. en_panel_end_questions -------------------------------------------------
CONVS["en_panel_end_questions"] = {
    "language": "en",
    "questions": 7,
    "speakers": {
        "A": ("Alicia Gomez", "interviewer"),
        "O": ("Omar Haddad", "candidate"),
        "K": ("Ken Watanabe", "interviewer"),
    },
    "turns": [
        S("A", "Hi Omar, thanks for joining. Can you hear us okay?"),
        S("O", "Hi, yes, I can hear you both fine."),
        S("K", "Great. Did you find the link all right? I know the first invite had an old one in it."),
        S("O", "I did, the recruiter sent me the new one this morning, so no problem at all."),
        Q("A", "So, I'm Alicia, I lead the applied AI team, and Ken is one of our staff engineers. Let's start with "
               "you. Tell me about yourself.", lead="Good."),
        A("O", "Sure. I'm a software engineer with about seven years of experience, the last three on ML platforms. "
               "At my last company I led a team of four building an agent that triaged incoming bug reports, which "
               "means reading the report, finding likely duplicates, pulling the relevant logs and routing it to the "
               "right team. Before that I worked on data pipelines, which turned out to be good preparation, because "
               "most agent problems are really data problems."),
        Q("K", "Walk me through the architecture of that triage agent."),
        A("O", "It had three parts. An intake service normalized reports from email, the web form and Slack into one "
               "schema. The agent itself ran a plan-then-act loop, with a planner that wrote a short list of steps "
               "and an executor that called tools like duplicate search, log lookup and the ownership map. Every run "
               "was traced, and a reviewer step checked the routing decision against ownership rules in code before "
               "anything was posted."),
        Q("K", "How exactly did the planner decide that a plan needed to change?", follow=True),
        A("O", "The executor returned a status with each step, done, failed or surprising. Surprising meant the "
               "result didn't match what the plan expected, say the log lookup found nothing for a service that "
               "should have logs. Failed or surprising sent the remaining steps back to the planner, and we allowed "
               "two re-plans before handing the report to a person."),
        Q("A", "Tell me about a time you disagreed with a teammate about a technical decision."),
        A("O", "A senior engineer on my team wanted to fine-tune a model for routing. I thought we didn't have enough "
               "labeled data yet, and that better tool descriptions plus a rules check would get us most of the way."),
        K("K", "Mm-hmm."),
        A("O", "So we agreed to run both for two weeks on the same reports. The prompt-and-rules version got about "
               "ninety-one percent of routings right against ninety-three for the fine-tuned one, but it cost far "
               "less to maintain, so we shipped it and kept collecting labels. We revisited fine-tuning six months "
               "later with ten times the data, and at that point it was clearly worth it."),
        Q("K", "How do you evaluate changes to an agent before they go live?"),
        A("O", "We kept a replay set of about three hundred past reports with the correct team and the correct "
               "duplicate, if there was one. Every change ran against the full set, and we compared routing "
               "accuracy, duplicate recall and cost per report. A drop of more than a point on accuracy blocked the "
               "merge unless someone wrote down why it was acceptable."),
        Q("A", "Can you tell me about a time something you shipped broke in production, and what you did about it?"),
        A("O", "We once shipped a prompt change that made the agent much more eager to mark reports as duplicates. "
               "Within a day, a real outage report got closed as a duplicate of an old one and sat there for three "
               "hours. I rolled the change back, wrote the incident review, and we added a rule that reports "
               "mentioning an outage can never be auto-closed. We also added twenty outage-like reports to the "
               "replay set, because it had none."),
        Q("K", "Last technical one from me. How would you keep cost per task under control as usage grows?"),
        A("O", "First I'd measure where the tokens go, per step and per tool. In my experience most of it is long "
               "tool outputs and repeated context, so I'd trim outputs, cache stable prompt prefixes, and send simple "
               "steps like classification to a smaller model. I'd also set a budget per task that the runtime "
               "enforces, so one strange report can't cost fifty times the average."),
        C("A", "Great, thank you, that's really helpful. We have about ten minutes left. Do you have any questions "
               "for us?"),
        C("O", "Yes, two actually. First, how does the team decide which agent projects get built? Is it driven by "
               "product, or do engineers propose things too?"),
        C("A", "Both, honestly. Product brings most of the customer-facing ideas, but about a third of what we "
               "shipped last year started as an engineer's proposal. We do a short written pitch, a two-week "
               "prototype, and then a review where we look at the eval numbers and the expected cost. If the "
               "prototype can't beat the current process on our test set, it doesn't go further, no matter whose "
               "idea it was."),
        C("K", "And the prototypes that don't make it aren't wasted. Half our shared tooling came out of projects "
               "that were cancelled."),
        C("O", "That makes sense. And my second question, what does on-call look like for the agent services?"),
        C("K", "It's a weekly rotation across six engineers, so you're on about once every six weeks. Most pages are "
               "upstream, a model provider slowing down or a tool API failing, and the runbooks cover those pretty "
               "well. We also have a kill switch per agent that routes everything to humans, and nobody gets blamed "
               "for using it."),
        C("O", "Great, thank you both. This was a really good conversation."),
        C("A", "Thanks, Omar, it was great talking with you. The recruiter will be in touch by the end of the week."),
    ],
}


# ---------------------------------------------------------------------------
# Non-speech markers, stamps and text cleaning
# ---------------------------------------------------------------------------

MARKER_RE = re.compile(
    r"\[(?:laughter|crosstalk|pause|Music|笑|听不清|inaudible[^\]]*)\]|\((?:inaudible|laughs)\)|（笑）")
STAMP_RE = re.compile(r"\\\[\d+:\d\d(?::\d\d)?\\\]")
MID = "{T}"


def clean(text: str) -> str:
    """Text as the tool should keep it: markers, stamps and mid-turn stamp placeholders removed."""
    t = text.replace(MID, " ")
    t = STAMP_RE.sub(" ", t)
    t = MARKER_RE.sub(" ", t)
    t = re.sub(r"\s+", " ", t).strip()
    t = re.sub(r"\s+(?=[，。！？、；：])", "", t)
    t = re.sub(r"(?<=[，。！？、；：])\s+", "", t)
    return t


def spoken(text: str) -> str:
    """Segment text as rendered outside the Markdown podcasts (no {T} placeholders)."""
    return re.sub(r"\s+", " ", text.replace(MID, " ")).strip()


# ---------------------------------------------------------------------------
# Expected files
# ---------------------------------------------------------------------------


def unit(name, role, text, start, end, src):
    return {"name": name, "role": role, "text": clean(text), "start": start, "end": end, "src": src}


def expected(conv, units, fmt, times=None):
    """`times`: None (no times), "exact" (units carry start and end) or
    "starts" (start times only: a turn ends where the next turn starts,
    the last turn's end is null)."""
    turns = []
    for u in units:
        if not u["text"]:
            continue  # a line that is only a marker
        if turns and turns[-1]["name"] == u["name"]:
            t = turns[-1]
            t["texts"].append(u["text"])
            t["end"] = u["end"]
            t["kinds"].add(conv["turns"][u["src"]]["kind"])
        else:
            turns.append({"name": u["name"], "role": u["role"], "texts": [u["text"]], "start": u["start"],
                          "end": u["end"], "src": u["src"], "kinds": {conv["turns"][u["src"]]["kind"]}})
    if times == "starts":
        for a, b in zip(turns, turns[1:]):
            a["end"] = b["start"]
        turns[-1]["end"] = None
    if times is None:
        for t in turns:
            t["start"] = t["end"] = None
    speakers = g.count_speakers(turns)
    pairs, cur = [], None
    for t in turns:
        outside = t["kinds"] <= {"s", "c"}
        assert outside or not (t["kinds"] & {"s", "c"}), ("a turn mixes small talk/closing with Q/A", t)
        if outside:
            continue
        cur = g.pair_step(pairs, cur, t)
    return g.finish(conv, fmt, speakers, pairs)


# ---------------------------------------------------------------------------
# Consistency checks on the hand-written conversations
# ---------------------------------------------------------------------------

LABEL_LIKE = re.compile(r"^[A-Za-z\u4e00-\u9fff .]{1,30}[:：]")


def check_conversation(cid, conv):
    turns = conv["turns"]
    kinds = [t["kind"] for t in turns]
    first_q = kinds.index("q")
    last_a = len(kinds) - 1 - kinds[::-1].index("a")
    qn, prev = 0, None
    talk = {}
    for i, turn in enumerate(turns):
        name, role = conv["speakers"][turn["spk"]]
        text = clean(g.smart_join([turn["lead"] or ""] + turn["segs"]))
        talk[role, name] = talk.get((role, name), 0) + g.weight(text)
        for seg in turn["segs"]:
            for ch in seg:
                assert ch not in "…“”‘’\"", (cid, "avoid ambiguous punctuation", seg)
            assert not LABEL_LIKE.match(clean(seg)), (cid, "text looks like a label", seg)
        assert not re.search(r" [.,!?;:]", text), (cid, "space before punctuation after cleaning", text)
        assert i == 0 or turns[i - 1]["spk"] != turn["spk"], (cid, "same speaker twice in a row", text)
        if turn["kind"] == "s":
            assert i < first_q, (cid, "small talk after the first question", text)
        elif turn["kind"] == "c":
            assert i > last_a, (cid, "closing before the last answer", text)
        elif turn["kind"] == "ack":
            assert role == "interviewer" and g.is_ack_only(text), (cid, text)
        elif turn["kind"] == "q":
            assert role == "interviewer" and not g.is_ack_only(text), (cid, text)
            q = g.strip_lead_ack(text)
            assert (q != text) == bool(turn["lead"]), (cid, "lead ack", text)
            new_q = not (prev and prev["kind"] == "q")
            if new_q:
                qn += 1
                assert g.starts_with_follow_marker(q) == turn["follow"], (cid, "follow marker", q)
            else:
                assert not turn["follow"]
        else:
            assert role == "candidate", (cid, text)
            assert "?" not in text and "？" not in text, (cid, "no ? in answers", text)
        if turn["kind"] in ("q", "a"):
            prev = turn
    assert qn == conv["questions"], (cid, qn)
    cand = [n for (r, n) in talk if r == "candidate"]
    assert len(cand) == 1, (cid, cand)
    assert max(talk, key=talk.get)[0] == "candidate", (cid, "the candidate must talk most", talk)


# ---------------------------------------------------------------------------
# Renderers: each returns (file text, units)
# ---------------------------------------------------------------------------


def names(conv, key):
    return conv["speakers"][key]


def sent_start(turn, seg_idx, sent_no):
    ss = [s for s in turn["sents"] if s[0] == seg_idx]
    return ss[sent_no][3]


def ts_md(sec):
    h, r = divmod(int(sec), 3600)
    m, s = divmod(r, 60)
    return f"\\[{h}:{m:02d}:{s:02d}\\]" if h else f"\\[{m:02d}:{s:02d}\\]"


def render_markdown(conv, title, intro, style, scale, break_after=None, break_at=None, ad_s=0):
    """Markdown podcast transcript.  style "bold": `**Name:** \\[mm:ss\\] text`;
    style "heading": `### Name` line, then `\\[mm:ss\\] text` paragraph(s).
    Every turn opens with a stamp; `{T}` in a seg becomes a mid-turn stamp.
    Times are the timeline's scaled so that `break_after`'s turn ends at `break_at`,
    and shifted by `ad_s` after the break."""
    turns = conv["turns"]
    if break_after is not None:
        scale = break_at * 1000 / turns[break_after]["end"]

    def sec(i, ms):
        s = int(ms * scale // 1000)
        return s + ad_s if break_after is not None and i > break_after else s

    out = [f"# {title}", "", intro, ""]
    units, last = [], -1
    for i, turn in enumerate(turns):
        name, role = names(conv, turn["spk"])
        start = sec(i, turn["start"])
        assert start > last, (title, "stamps must increase", i)
        last = start
        if style == "heading":
            out += [f"### {name}", ""]
        for si, seg in enumerate(turn["segs"]):
            if si == 0 and turn["lead"]:
                seg = turn["lead"] + " " + seg
            parts = seg.split(MID)
            mids = [s for s in turn["sents"] if s[0] == si and MID in s[1]]
            assert len(mids) == len(parts) - 1, (title, i, "one {T} per sentence, at its start")
            text = parts[0]
            for k, rest in enumerate(parts[1:]):
                st = sec(i, mids[k][3])
                assert st > last, (title, "mid stamps must increase", i, rest[:30])
                last = st
                text = text.rstrip() + " " + ts_md(st) + " " + rest.lstrip()
            text = text.strip()
            if si == 0:
                text = ts_md(start) + " " + text
                line = f"**{name}:** {text}" if style == "bold" else text
            else:
                line = text
            out += [line, ""]
            units.append(unit(name, role, seg, start * 1000, None, i))
        if break_after == i:
            bt = break_at
            assert last < bt < sec(i + 1, turns[i + 1]["start"])
            out += [f"**Break**: {ts_md(bt)}", ""]
    return "\n".join(out).rstrip("\n") + "\n", units


def render_oral_history(conv):
    """Oral history plain text: header block, `SURNAME: text` paragraphs, tape
    markers, a second session with its own BOM and header; CRLF; the file
    opens with two spaces and then a BOM."""
    turns = conv["turns"]
    header = ["VOICES OF THE VALLEY LABOR MOVEMENT ORAL HISTORY PROJECT",
              "INTERVIEWEE: ROBERT ALVAREZ",
              "INTERVIEWERS: SUSAN PARK, DAVID LEE",
              "DATE: MARCH 14, 2019",
              "LOCATION: STOCKTON, CALIFORNIA",
              "TRANSCRIBER: M. QUINTANA",
              ""]
    out = list(header)
    units = []
    # markers between turns: index -> lines placed before that turn
    tape_before = 10      # PARK: How did you go from standing on a picket line ...
    session2_before = 12  # LEE: Tell me about the cannery campaigns ...
    cross_before = 7      # ALVAREZ's Delano answer starts after overlapping talk
    for i, turn in enumerate(turns):
        name, role = names(conv, turn["spk"])
        if i == tape_before:
            out += ["[END OF TAPE 1, SIDE A]", "", "[BEGIN TAPE 1, SIDE B]", ""]
        if i == session2_before:
            out += ["\ufeffSESSION 2", "DATE: MARCH 21, 2019", ""]
        if i == cross_before:
            out += ["[crosstalk]", ""]
        for seg in turn["segs"]:
            text = spoken(seg)
            out += [f"{name}: {text}", ""]
            units.append(unit(name, role, text, None, None, i))
    out += ["[END OF INTERVIEW]", ""]
    text = "\r\n".join(out)
    return "  \ufeff" + text, units


def render_labeled(conv, header=None, colon=": "):
    out = list(header or [])
    units = []
    for i, turn in enumerate(conv["turns"]):
        name, role = names(conv, turn["spk"])
        text = g.smart_join(([turn["lead"]] if turn["lead"] else []) + [spoken(s) for s in turn["segs"]])
        out.append(f"{name}{colon}{text}")
        units.append(unit(name, role, text, None, None, i))
    return "\n".join(out) + "\n", units


def seg_sentences(turn):
    """Per seg: list of (text, start_ms, end_ms) with the lead sentence in seg 0."""
    res = []
    for si in range(len(turn["segs"])):
        res.append([(spoken(s[1]), s[3], s[4]) for s in turn["sents"] if s[0] == si])
    return res


def hms(sec):
    h, r = divmod(sec, 3600)
    m, s = divmod(r, 60)
    return f"{h:02d}:{m:02d}:{s:02d}"


def render_zoom_saved(conv, base="11:02:09"):
    """Zoom's saved meeting transcript: `[Name] hh:mm:ss`, the text on the next
    line, a blank line between blocks; one block per seg.  Expected times are
    seconds relative to the first block."""
    h, m, s = map(int, base.split(":"))
    base_s = h * 3600 + m * 60 + s
    first = conv["turns"][0]["start"] // 1000
    out, units, last = [], [], -1
    for i, turn in enumerate(conv["turns"]):
        name, role = names(conv, turn["spk"])
        for ss in seg_sentences(turn):
            rel = ss[0][1] // 1000 - first
            assert rel > last, ("zoom stamps must increase", name, ss[0][0])
            last = rel
            text = g.smart_join([x[0] for x in ss])
            out += [f"[{name}] {hms(base_s + rel)}", text, ""]
            units.append(unit(name, role, text, rel * 1000, None, i))
    return "\n".join(out), units


def render_podcast20(conv):
    """Podcasting 2.0 JSON transcript: one segment per sentence, two short
    sentences of the same speaker sometimes share a segment."""
    segs, units = [], []
    for i, turn in enumerate(conv["turns"]):
        name, role = names(conv, turn["spk"])
        sents = [x for ss in seg_sentences(turn) for x in ss]
        k = 0
        while k < len(sents):
            grp = [sents[k]]
            if k + 1 < len(sents) and len(sents[k][0]) + len(sents[k + 1][0]) < 70:
                grp.append(sents[k + 1])
            k += len(grp)
            text = g.smart_join([x[0] for x in grp])
            segs.append({"speaker": name, "startTime": grp[0][1] / 1000, "endTime": grp[-1][2] / 1000,
                         "body": text})
            units.append(unit(name, role, text, grp[0][1], grp[-1][2], i))
    doc = {"version": "1.0.0", "segments": segs}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n", units


def render_first_cue(conv, kind):
    """SRT or WebVTT with one cue per sentence where only a turn's first cue
    names the speaker (`Name: text` in SRT, `<v Name>text` in WebVTT)."""
    out = ["WEBVTT", ""] if kind == "vtt" else []
    units, n = [], 0
    fmt_t = g.ts_vtt if kind == "vtt" else g.ts_srt
    for i, turn in enumerate(conv["turns"]):
        name, role = names(conv, turn["spk"])
        first = True
        for ss in seg_sentences(turn):
            for text, st, en in ss:
                n += 1
                body = g.wrap2(text) if len(text) > (40 if g.has_cjk(text) else 90) else [text]
                if first:
                    body[0] = f"<v {name}>{body[0]}" if kind == "vtt" else f"{name}: {body[0]}"
                first = False
                out += ([str(n)] if kind == "srt" else []) + [f"{fmt_t(st)} --> {fmt_t(en)}", *body, ""]
                units.append(unit(name, role, text, st, en, i))
    return "\n".join(out), units


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def main():
    for cid, conv in CONVS.items():
        g.build_timeline(conv)
        check_conversation(cid, conv)
    outputs = []

    def add(fname, data, units, fmt, conv, times=None):
        outputs.append((fname, data, expected(conv, units, fmt, times)))

    c = CONVS["en_podcast"]
    t, u = render_markdown(
        c, "Agents in Production: What Actually Breaks, with Elena Sokolova",
        "This week Dana and Marcus talk with Elena Sokolova, who runs the agent platform team at a logistics "
        "software company, about what changes when an agent leaves the demo and meets real customers. The "
        "transcript has been lightly edited for readability.",
        "bold", 1.0, break_after=24, break_at=27 * 60 + 50, ad_s=75)
    add("en_podcast.md", t.encode("utf-8"), u, "markdown", c, "starts")

    c = CONVS["zh_podcast"]
    t, u = render_markdown(
        c, "第 42 期：把 Agent 真正用起来",
        "本期节目我们请到了刘洋，聊聊她在电商客服团队落地 Agent 的经验。文字稿根据录音整理，略有删减。",
        "heading", 2.2)
    add("zh_podcast.md", t.encode("utf-8"), u, "markdown", c, "starts")

    c = CONVS["en_oral_history"]
    t, u = render_oral_history(c)
    add("en_oral_history.txt", t.encode("utf-8"), u, "labeled", c)

    c = CONVS["zh_header"]
    t, u = render_labeled(c, colon="：", header=["2026 秋招技术面试记录（二面）", "面试官：张三", "候选人：李四",
                                                 "日期：2026-10-12", "岗位：Agent 工程师", ""])
    add("zh_header.txt", t.encode("utf-8"), u, "labeled", c)

    c = CONVS["en_zoom_saved"]
    t, u = render_zoom_saved(c)
    add("en_zoom_saved.txt", t.encode("utf-8"), u, "zoom", c, "starts")

    c = CONVS["en_podcast20"]
    t, u = render_podcast20(c)
    add("en_podcast20.json", t.encode("utf-8"), u, "podcast-json", c, "exact")

    c = CONVS["en_first_cue"]
    t, u = render_first_cue(c, "srt")
    add("en_first_cue.srt", t.encode("utf-8"), u, "srt", c, "exact")

    c = CONVS["zh_first_cue"]
    t, u = render_first_cue(c, "vtt")
    add("zh_first_cue.vtt", t.encode("utf-8"), u, "webvtt", c, "exact")

    c = CONVS["en_panel_end_questions"]
    t, u = render_labeled(c)
    add("en_panel_end_questions.txt", t.encode("utf-8"), u, "labeled", c)

    for fname, data, exp in outputs:
        cid = fname.rsplit(".", 1)[0]
        conv = CONVS[cid]
        assert len(exp["pairs"]) == conv["questions"], (fname, len(exp["pairs"]))
        roles = {s["name"]: s["role"] for s in exp["speakers"]}
        assert roles == {n: r for n, r in conv["speakers"].values()}, (fname, roles)
        assert sum(s["turns"] for s in exp["speakers"]) == len(conv["turns"]), fname
        prev = None
        for k, p in enumerate(exp["pairs"]):
            assert p["question"] and p["answer"], (fname, k)
            assert not MARKER_RE.search(p["question"] + p["answer"]), (fname, k)
            assert not STAMP_RE.search(p["question"] + p["answer"]) and MID not in p["answer"], (fname, k)
            if p["start_s"] is not None:
                assert p["end_s"] is not None and p["start_s"] < p["end_s"], (fname, k)
                assert prev is None or p["start_s"] > prev, (fname, k)
                prev = p["start_s"]
        (HERE / fname).write_bytes(data)
        (HERE / f"{cid}.expected.json").write_text(json.dumps(exp, ensure_ascii=False, indent=2) + "\n",
                                                   encoding="utf-8")
    print(f"wrote {len(outputs)} real-world samples (+ expected files) to {HERE}")


if __name__ == "__main__":
    main()
