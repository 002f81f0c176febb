#!/usr/bin/env python3
"""Generate the 90-minute English panel interview sample (Zoom-style WebVTT).

Stdlib only, deterministic.  Run from anywhere:

    python3 data/transcripts/generate_long_en.py

Writes, next to this file:
  en_long_90min.vtt            Zoom-style WebVTT (numeric cue ids, `Name: text`, long turns over many cues)
  en_long_90min.expected.json  expected `ivd split` result (format "webvtt")

The conversation: Maria Gonzalez (hiring manager) and Sam Okafor (staff engineer)
interview Lena Fischer for a senior AI-agent-engineer role.  3-5 minutes of small
talk, exactly 60 question/answer pairs, then the closing ("Do you have any
questions for us?"), the candidate's questions, the interviewers' replies and the
goodbyes.  Small talk and closing turns are never pairs (rule 3 of the spec) but
count in the speakers' turn counts.  Behavioral pairs carry `"behavioral": true`.

Reuses the building blocks and rule helpers of generate.py (Q/A/K, smart_join,
is_ack_only, strip_lead_ack, ...); the timeline and the cue layout are this
script's own.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # keep data/transcripts free of __pycache__
import generate as g  # noqa: E402  (its main() only runs under __main__)

STEM = "en_long_90min"
SPEAKERS = {
    "M": ("Maria Gonzalez", "interviewer"),
    "S": ("Sam Okafor", "interviewer"),
    "L": ("Lena Fischer", "candidate"),
}
# back-channel / acknowledgement words the interviewers use (a subset of generate.ACK_EN)
BACKCHANNEL_OK = ["mm-hmm", "uh-huh", "right", "okay", "sure", "got it", "i see", "makes sense"]


def Q(spk, text, lead=None, follow=False, behavioral=False):
    t = g.Q(spk, text, lead=lead, follow=follow)
    t["behavioral"] = behavioral
    return t


def A(text):
    return g.A("L", text)


def K(spk, text):
    return g.K(spk, text)


def T(spk, text):
    """Small talk / closing: not part of any pair, but still a turn."""
    return {"kind": "social", "spk": spk, "segs": [text], "lead": None, "follow": False}


# ---------------------------------------------------------------------------
# The conversation
# ---------------------------------------------------------------------------

SMALL_TALK = [
    T("M", "Hi Lena, can you hear me okay?"),
    T("L", "Hi Maria! Yes, I can hear you fine. Just give me one second, I'm going to close the window, "
           "there's some construction going on across the street. Okay, that should be better."),
    T("M", "Perfect, I can hear you really clearly now. Thanks so much for making the time today. "
           "Where are you calling from?"),
    T("L", "I'm in Hamburg, so it's late afternoon here. And the sun is actually out for once, "
           "which is kind of a big deal this time of year."),
    T("M", "Oh, nice. I was in Hamburg once for a conference and it rained the entire week, so I'm a little jealous. "
           "I'm in Austin, it's just after nine in the morning, and I'm on my second coffee. "
           "Sam should be joining any second now. Oh, there he is."),
    T("S", "Hey, sorry, my previous meeting ran over. Hi Lena, nice to meet you."),
    T("L", "Hi Sam, nice to meet you too. No problem at all."),
    T("S", "Did the link work okay for you? Sometimes it tries to make people install the desktop app first."),
    T("L", "It was fine, I already had Zoom installed from work, so it opened straight away. "
           "I did spend five minutes before the call making sure my camera wasn't pointing at a pile of laundry, "
           "so I'm feeling pretty prepared."),
    T("S", "Ha, honestly that's the most important part of any video interview. "
           "I think half of my bookshelf is only there for the camera at this point."),
    T("M", "So let me quickly introduce the two of us, and then I'll give you an overview of how the next 90 minutes "
           "are going to go. I'm Maria Gonzalez, I lead the agent platform team, and this role would report to me. "
           "Before this I spent about six years on search and recommendation systems, so retrieval is a bit of "
           "a pet topic of mine. Fair warning."),
    T("L", "Good to know, I'll be extra careful with my chunking answers then."),
    T("S", "And I'm Sam Okafor, I'm a staff engineer on the same team. Most of my time goes into our tool execution "
           "layer and the evaluation harness, so I'll probably be the one asking the nerdy questions about retries "
           "and traces. I've been here about three years, and before that I worked on payment systems, which is why "
           "I get a little nervous whenever an agent is allowed to move money."),
    T("L", "That makes a lot of sense. Those are honestly my favorite kind of questions, so I'm looking forward to it."),
    T("M", "Great. So here's the plan for today. We'll spend most of the time on technical topics, things like "
           "planning, tool calling, memory, retrieval, multi-agent setups, protocols, and how you run all of this "
           "in production. Sam and I will take turns, and we'll mix in some questions about how you work with people "
           "and teams. There are no trick questions, and if you don't know something, just say so, that's completely "
           "fine and honestly better than guessing. We'll save about five minutes at the end for your questions. "
           "Does that sound okay?"),
    T("L", "That sounds good, and thanks for the overview. I'll try to keep my answers reasonably short, but please "
           "feel free to cut me off if I go into too much detail."),
]

INTERVIEW = [
    # 1 ---------------------------------------------------------------- behavioral, long
    Q("M", "Let's start with your background. Tell me about an agent project you built end to end, ideally one "
           "you're proud of.", lead="Alright.", behavioral=True),
    A("Sure. So the one I'd pick is the claims intake agent at my current company. We're an insurance company, "
      "mostly home and car policies, and when a customer files a claim, somebody used to read the email, the photos "
      "and the policy, and then fill in about 40 fields in our claims system by hand. That took an adjuster around "
      "20 minutes per claim, and we get something like 3,000 claims a week. I was the tech lead, with two other "
      "engineers and a product manager, and we took it from a prototype to production in about five months. "
      "The agent reads the incoming documents, pulls the policy through an internal API, checks the coverage rules, "
      "drafts the claim record, and flags anything it isn't confident about for a human."),
    K("S", "Mm-hmm."),
    A("The interesting part was that we started with a much more autonomous design, where the model decided "
      "everything in one big loop, and it was honestly a mess. It would sometimes skip the coverage check entirely, "
      "or call the policy API five times in a row. So we restructured it as a fixed pipeline for the predictable "
      "parts, so extraction, policy lookup and the rule checks, and we only kept a small agent loop for the messy "
      "part, which is figuring out what actually happened from a long, emotional email and a bunch of photos. "
      "We also built an evaluation set of about 400 historical claims with the fields an adjuster had filled in, "
      "and we ran it on every single change."),
    K("M", "Right."),
    A("In production, about 60% of claims now go through with the adjuster only reviewing and clicking approve, "
      "and the average handling time dropped from 20 minutes to around six. Field-level accuracy on the eval set is "
      "about 94%. What I'm proudest of is actually not the model part, it's that the adjusters trust it, because "
      "every field shows where the value came from, which page of which document. That traceability took us an extra "
      "month, but without it I'm pretty sure nobody would have used the thing."),
    # 2
    Q("S", "More generally, when would you advise a team against building an agent at all?"),
    A("I'd push back on an agent whenever the steps are known in advance. If you can draw the flowchart on a "
      "whiteboard and it doesn't change much from case to case, a workflow with a couple of LLM calls in fixed places "
      "is cheaper, faster and way easier to test. The second case is when mistakes are expensive and you can't put a "
      "human check in front of them, like anything that moves money, unless you're willing to add a confirmation step. "
      "And the third one is low volume. If a task happens ten times a week, a person with a good prompt template is "
      "probably fine, and you skip months of engineering. The way I usually decide is to write down 20 real examples "
      "of the task and try to solve them with the simplest thing first, one prompt, then a fixed chain. Only if the "
      "variation between those examples really needs dynamic decisions, like which tool to call next depends on what "
      "came back, do I move to an agent loop. And honestly, the agent version is often what gets the demo approved, so "
      "part of my job is showing the team that the boring version solves 90% of the cases for a tenth of the effort."),
    # 3 follow-up
    Q("M", "You mentioned writing down 20 real examples first. How do you make sure those examples are actually "
           "representative and not just the easy cases?", follow=True),
    A("I try not to pick them myself, because I'll unconsciously pick the clean ones. Usually I pull a random sample "
      "from logs or tickets, stratified by whatever categories the business already uses, so for claims that was "
      "product line and claim size. Then I ask someone who does the work today to add five or so cases they consider "
      "nasty, the ones that take them an hour. And I keep a note of which ones came from the random sample and which "
      "were hand-picked, because if you mix them you get a wrong picture of the success rate. Later those 20 usually "
      "become the seed of the real evaluation set, so it pays off to be a bit careful with them from the start. And I "
      "always look at the first failures together with the person who owns the process, because they spot patterns "
      "I would miss."),
    # 4
    Q("S", "Switching to loop design. How does your agent decide it's done, and what stops it from running forever?"),
    A("There are two layers. The soft one is the model deciding it's done, which we make explicit by giving it a finish "
      "tool with a required schema, so finishing is an action with a structured result, not just the model going "
      "quiet. For the claims agent, the finish tool needs every mandatory field filled or explicitly marked unknown "
      "with a reason. The hard layer is in code, and the model can't argue with it. There's a maximum number of steps, "
      "we use 12, a token budget per task, a wall-clock timeout, and a check for repeated actions, so if it calls the "
      "same tool with the same arguments three times, we stop. When a hard limit fires, we don't just throw an error. "
      "We hand the partial state to a human with a short note on what it was trying to do. In practice the hard limits "
      "fire on about 2% of runs, and most of those are genuinely weird claims. We review those runs every week, because "
      "a limit that fires a lot usually means a missing tool or an unclear instruction, not a model that loves to loop."),
    # 5 weak
    Q("M", "Agents aren't deterministic, so identical inputs can give you different outputs from one attempt to the next. "
           "How do you deal with that?"),
    A("Yeah, that's a tricky one. We mostly set the temperature to zero, which helps a lot. And, um, we try to make "
      "the prompts really clear, so the model doesn't have much room to interpret things differently. If we still see "
      "different results, we look at the prompt again and tighten it. I think beyond that you kind of have to accept "
      "some variation, it's just how these models work."),
    # 6 prompt without a question mark
    Q("S", "Walk me through how you'd choose between plan-and-execute and a plain ReAct loop for a new use case.",
      lead="Okay."),
    A("I look at three things. How long the task is, how predictable the steps are once you've seen the input, and "
      "how expensive each model call is. ReAct is great when tasks are short, maybe three to five tool calls, and each "
      "observation really changes what you do next, like debugging or searching. It's simple, and there's nothing to "
      "keep in sync. But on longer tasks it tends to drift, it forgets the original goal, and it re-reads a growing "
      "history on every step, which gets expensive. Plan-and-execute makes the plan explicit up front, and you can run "
      "the steps with a smaller model, sometimes in parallel, and only go back to the planner when something fails. "
      "For a report-generation use case we had, switching to plan-and-execute cut the cost per report by roughly 40%, "
      "and latency went down too, because independent steps ran in parallel. "
      "The downside is that a plan made before you've seen any data can be just wrong, so you need a cheap way to "
      "replan. What we did was let the executor flag a step as blocked, and only then call the planner again with the "
      "results so far."),
    # 7 long
    Q("M", "Let's stay with planning. Imagine an agent fails at step 15 of a 20-step task. How do you design recovery "
           "so it doesn't have to start from scratch?"),
    A("The first thing is that you need checkpoints, otherwise there's nothing to recover to. We persist the state "
      "after every step, so the plan, which steps are done, their outputs, and any side effects with their IDs, in "
      "Postgres, keyed by the run. Then when step 15 fails, the first question is what kind of failure it is. If it's "
      "transient, a timeout or a rate limit, we just retry the step with backoff, no model involved. If the tool "
      "returned a real error, like the record doesn't exist, we give the error and the current state to the planner "
      "and ask it to repair the remaining plan, not to make a new one from scratch. That distinction matters a lot, "
      "because a fresh plan tends to redo steps that already had side effects."),
    K("M", "Mm-hmm."),
    A("And the side effects are really the hard part. For every step that writes something, we record an idempotency "
      "key, so if a repaired plan tries to create the same record again, the downstream service returns the existing "
      "one. Some steps are also marked as compensatable, so we know how to undo them, for example cancelling a draft. "
      "If the failure is deep, like the assumptions behind the first ten steps were wrong, we'd rather stop and "
      "escalate than let the agent try to unwind everything by itself. We cap repairs at two per run, and we log which "
      "step failed and why, so we can see patterns, like one flaky API causing most of the repairs. On the document "
      "pipeline we measured this, and resuming from a checkpoint instead of restarting saved about 70% of the tokens "
      "on failed runs. More importantly, we stopped getting duplicate records, which used to happen maybe once or "
      "twice a week and was really annoying for the operations team. It's not glamorous work, but it's the part that "
      "makes long tasks usable."),
    # 8 follow-up
    Q("S", "What if the repaired plan fails again at the same step?", follow=True),
    A("Then we treat it as a signal that the agent doesn't have what it needs, and looping again won't fix it. After "
      "the second failure at the same step we stop, keep the checkpoint, and create a task for a human with the error "
      "history and the plan. The human can fix the data or edit the plan, and then resume the run from that checkpoint. "
      "We actually built a small resume button in the internal tool for exactly this, and operations uses it a few "
      "times a day."),
    # 9
    Q("M", "Here's a different situation. A user sends a request that's ambiguous. Should the agent act on its best "
           "guess, or ask a clarifying question first?"),
    A("It depends on what a wrong guess costs and how easy it is to undo. If the action is cheap and reversible, like "
      "searching or drafting something, I'd let it act on the most likely reading and state its assumption, so the "
      "user can correct it. Asking too many questions is really annoying, people just abandon the conversation. If the "
      "action is expensive or irreversible, it should ask, and ideally ask one precise question with options, not an "
      "open one. We implemented this as a clarification tool the model can call, plus a rule in code that any write "
      "action above a certain risk level needs the key parameters confirmed. We also tracked how often users answered "
      "a clarifying question versus just leaving, and we kept it to at most one question per task, because the "
      "drop-off after a second question was really high, something like 30%. The threshold for what counts as high "
      "risk was something we agreed with the business owners, not something I picked myself."),
    # 10 weak
    Q("S", "How would you verify a plan the model generated before you actually execute it?"),
    A("I think you could ask another model to review the plan, like a critic, and have it say whether the plan looks "
      "good. Or the same model with a different prompt. We haven't really done that in production. Mostly we rely on "
      "the execution itself, so if a step fails, we replan. So I'd say a reviewer model is probably the way to go, "
      "but I haven't measured whether it really helps."),
    # 11 behavioral, long
    Q("M", "Let's switch to something different for a moment. Tell me about a time you had to push back on a product "
           "decision.", behavioral=True),
    A("Sure. Last year our product team wanted to launch a fully automatic mode for small claims, where the agent "
      "would approve and pay out claims under 500 euros without any human looking at them. The business case made "
      "sense, it was a big chunk of the volume, and leadership was excited about it. My concern was that our eval set "
      "simply didn't support it. We were at about 94% field accuracy, but for payout decisions the errors weren't "
      "random, they clustered in specific situations, like claims where the damage photos were from a previous "
      "incident. And those are exactly the cases where fraud happens. Honestly, I was also a bit worried about being the "
      "person who blocks the big launch."),
    K("S", "Sure."),
    A("So instead of just saying no, I put together a small analysis. We ran the agent in shadow mode on two weeks of "
      "real small claims, about 1,100 of them, and compared its decisions with what the adjusters actually did. It "
      "disagreed on about 4%, and when we looked at the money, those disagreements would have cost more than the "
      "savings from automation in that period, mostly because of a handful of bad payouts. I presented that to the "
      "product lead and proposed a middle path, automatic approval only for a narrower category, glass damage with a "
      "verified invoice, plus a random 10% human audit. She wasn't thrilled at first, because it was a much smaller "
      "launch than what had been announced internally. It also meant I had to explain to her director why the savings "
      "in the business case would come later than planned, which wasn't a fun meeting. But we shipped the narrow version, it's been running for eight "
      "months, and we extended it twice as the numbers held up. What I learned is that pushing back works much better "
      "with data from their own domain than with general arguments about model risk."),
    # 12
    Q("S", "Let's get into tool calling. What makes a tool easy for a model to use correctly, in terms of the name, "
           "the description and the parameters?"),
    A("I think a good tool looks like a good function for a junior developer who can't ask you any questions. The name "
      "should say what it does, so search_policies rather than query or helper. The description should say when to "
      "use it and, just as important, when not to, and what it returns. For parameters, I keep them few, flat, and "
      "typed as strictly as possible, enums instead of free strings, dates in one format, and no parameter that "
      "requires the model to know an internal ID it can't get from another tool. Return values matter too. I return "
      "short, structured results with only the fields the model needs, plus an error message that says what to do "
      "differently, not a stack trace. One thing that helped a lot was testing tools the same way we test prompts. "
      "We had a set of about 100 requests with the expected tool and arguments, and changing a single description "
      "could move tool selection accuracy by several points. For tools with tricky parameters I also put one short "
      "example call in the description, which fixed a lot of date format problems."),
    # 13 prompt without a question mark
    Q("S", "Walk me through how you'd design the retry policy for tool calls.", lead="Got it."),
    A("First I'd classify errors, because retrying everything is how you make outages worse. Transient errors, so "
      "timeouts, 503s and rate limits, get retried automatically in code with exponential backoff and jitter, "
      "something like a base of half a second, doubling, capped at three attempts, and always within an overall "
      "deadline for the step. If the API sends a retry-after header, that wins. Validation errors, where the model "
      "sent bad arguments, don't get retried blindly. We return the error to the model in a readable form and let it "
      "fix the call, at most twice. Permanent errors like not found or permission denied go straight back to the "
      "model with no retry at all, because it needs to choose a different path. On top of that there's a per-tool "
      "circuit breaker, so if more than half the calls in a minute fail, we stop calling that tool and tell the agent "
      "it's unavailable, so it can degrade gracefully instead of hammering it. Every retry is logged with the attempt "
      "number in the trace. When we introduced this, tool-related failures went from around 7% of runs to a bit "
      "under 2%."),
    # 14 follow-up
    Q("M", "Following up on that, what changes when the tool has side effects, like issuing a payment?", follow=True),
    A("Then retries are only safe if the call is idempotent. We generate an idempotency key per logical action, derived "
      "from the run ID and the step, and the payment service stores it, so a retried request returns the original "
      "result instead of paying twice. The tricky case is a timeout where you don't know whether the payment went "
      "through. There you never just retry, you first query the status using the same key. And for anything that "
      "moves money, the agent doesn't call the payment tool directly anyway. It creates a pending action that a rule "
      "engine or a human approves, so the model can propose but not execute. That separation also made our audit team "
      "much happier. We also alert on any idempotency key that shows up again with different parameters, because that "
      "usually means a bug in how the key is built."),
    # 15
    Q("S", "Some teams end up with hundreds of tools registered for a single agent. What goes wrong at that scale, and "
           "how would you handle it?"),
    A("A few things go wrong at once. The tool definitions eat a big part of the context, we measured about 12,000 "
      "tokens for around 60 tools, and selection accuracy drops because many tools look similar. The model also starts "
      "mixing up parameters between similar tools. What worked for us was a two-stage approach. First a cheap "
      "retrieval step over the tool descriptions, plus a few hard-coded groups by domain, to pick maybe eight to ten "
      "candidate tools for the current request, and only those get shown to the model. Second, we merged "
      "near-duplicate tools into one tool with an enum parameter, which cut the count quite a bit. We also made sure "
      "there's an escape hatch, a search_tools tool the model can call if none of the candidates fit. Selection "
      "accuracy on our test set went from about 78% with everything loaded to 91% with the routing. The trade-off is an "
      "extra retrieval step, but that adds maybe 50 milliseconds, and the shorter prompt more than pays for it."),
    # 16 weak
    Q("M", "What do you do when a tool returns something huge, like a full log file or an entire web page?"),
    A("We usually just truncate it. Like, we cut it at a certain length so it fits in the context. Sometimes we "
      "summarize it with another model call first. It mostly works, though sometimes the important part is at the end "
      "and gets cut off, I guess. We haven't really had a big problem with it."),
    # 17 not sure
    Q("S", "When the response is streamed, how do tool calls arrive, and what does the client need to do with them?"),
    A("Honestly, I'm not sure about the details there. I know the arguments come in as chunks and have to be put "
      "together before you can parse them, but we always used the non-streaming mode for tool calls, so I've never "
      "implemented that part myself."),
    # 18
    Q("M", "Let's talk about sandboxing. If you give an agent a code execution tool or access to a database, how do you "
           "handle permissions?", lead="Okay, makes sense."),
    A("I assume the model will eventually run something I didn't intend, either by mistake or because of an injection, "
      "and I design so that the damage is limited. Code runs in a separate container or a microVM with no network by "
      "default, a read-only filesystem except for a scratch directory, CPU and memory limits, and a hard timeout, we "
      "used 30 seconds. The container is thrown away after the session. For databases, the agent gets its own "
      "database user with read-only access to specific views, never the raw tables, and queries go through a layer "
      "that adds a row limit and a statement timeout. If a use case really needs writes, those go through specific "
      "tools with narrow parameters, not free SQL. Credentials never go into the prompt, the tool layer injects them. "
      "And we log every executed command with the run ID, which is boring until the day you need it. Before launch, a "
      "few of us also spent a day trying to break out of the sandbox, which found one misconfigured network rule."),
    # 19 behavioral, long
    Q("M", "Now I'd like to hear about something that didn't go well. Describe a project that failed and what you "
           "learned from it.", behavioral=True),
    A("Okay, so the clearest failure was at my previous job, at an online furniture retailer. We built a customer "
      "support agent that was supposed to handle delivery questions end to end, so rescheduling deliveries, answering "
      "where is my order, handling damaged items. We spent about four months on it, and after launch the containment "
      "rate, so conversations resolved without a human, was around 18%, while the plan had said 50. Customer "
      "satisfaction for the conversations it handled was actually lower than for the old decision-tree bot. Six "
      "months later it was shut down and replaced with a much simpler flow."),
    K("M", "Mm-hmm."),
    A("Looking back, there were three main mistakes. First, we never checked the data properly. Most delivery "
      "questions needed information from the logistics partner's system, and that data was often a day out of date, "
      "so the agent confidently gave wrong delivery dates. No prompt can fix that. Second, we evaluated on questions "
      "we wrote ourselves, which were much cleaner than what customers actually typed. Our offline numbers looked "
      "great, and real traffic looked nothing like them. Third, and this one was partly on me, we tried to cover every "
      "intent at launch instead of doing one really well."),
    K("S", "Right."),
    A("What I took away, and what I did differently on the claims project, is to check the data sources before "
      "anything else, to build the eval set from real traffic, and to launch narrow. For claims we started with just "
      "one product line, car glass damage, and only expanded once we hit our targets. I also got much more comfortable "
      "saying early on that something won't work with the data we have, instead of hoping the model will somehow make "
      "up for it. And I started writing a short pre-mortem for every project, one page on how it could fail, which "
      "sounds gloomy but catches a lot of these things early."),
    # 20 long
    Q("S", "Let's move on to memory. Say you're designing the memory for a personal assistant that people use across "
           "many sessions over months. What does the architecture look like?"),
    A("I'd separate it into a few layers, because they have very different lifetimes and failure modes. The first is "
      "working memory, which is just the current conversation and the agent's scratchpad, managed inside the context "
      "window with compaction when it gets long. The second is session summaries, so at the end of each session a "
      "model writes a short structured summary, what the user wanted, what was decided, open threads, and that's "
      "stored with a timestamp. The third is a user profile of stable facts and preferences, like their time zone, "
      "that they're vegetarian, that they prefer short answers. I keep those as explicit key-value records with a "
      "source and a date, not as free text in a vector store, because you want to update and delete them precisely."),
    K("M", "Okay."),
    A("Then there's the retrieval side. At the start of a session we always load the profile, which is small, maybe a "
      "few hundred tokens. Episodic stuff, so old session summaries, gets retrieved on demand with a mix of semantic "
      "similarity and recency, and the agent also has an explicit search_memory tool for when the user says something "
      "like, remember what we discussed about my trip. Writes are the part most people underestimate. I don't let the "
      "agent write to the profile on every turn. A separate step after the session extracts candidate facts, checks "
      "them against what's already stored, and only then writes, with a confidence score. Anything sensitive, like "
      "health or finances, needs the user to confirm. And the user can see and edit everything that's stored, which "
      "is both a trust thing and a legal requirement in Europe. In a prototype we ran with about 200 internal users, "
      "this setup cut the number of times people had to repeat their preferences by roughly half, compared with just "
      "stuffing old chats into a vector store."),
    # 21 follow-up
    Q("M", "How exactly does that extraction step decide whether a new fact is worth storing?", follow=True),
    A("It's a separate model call with a fairly strict rubric. A fact has to be about the user, likely to stay true for "
      "more than a few days, and useful for future tasks. So I'm vegetarian qualifies, I'm hungry right now doesn't. "
      "The model outputs candidates as structured records with a category and a confidence. Then deterministic code "
      "checks for duplicates, by comparing against existing keys and doing a similarity search on the value. If it's a "
      "near-duplicate, we just update the timestamp. We set the bar high on purpose, because a wrong memory is worse "
      "than a missing one. In our prototype, about one in ten sessions produced a new profile fact, which felt about "
      "right."),
    # 22
    Q("S", "What about conflicting information, for example a user who said they live in Berlin and, three months later, "
           "mentions they moved to Munich?"),
    A("In the profile layer, facts have keys, so home city is one slot, and the newer statement replaces the old one, "
      "but we keep the old value in a history with its date rather than deleting it. Newer wins by default, unless the "
      "new statement is weaker, like, I might move to Munich, which shouldn't overwrite anything. The harder part is "
      "episodic memory, because old session summaries still say Berlin, and they'll keep getting retrieved. We handle "
      "that by giving the profile priority in the prompt, with an explicit instruction that profile facts override "
      "older conversation notes, and by lowering the retrieval score for episodic items that contradict a newer "
      "profile fact. For really important facts the assistant can also just confirm, like, you said you moved to "
      "Munich, should I update your home city. Users generally like that, it shows the memory is working. We also made "
      "the assistant say where a fact came from when it uses one, so wrong memories get noticed and corrected quickly."),
    # 23 weak
    Q("M", "A user asks you to delete everything you know about them under GDPR. How do you make sure it's really gone?"),
    A("We would delete their records from the database, so the profile and the session summaries, and also from the "
      "vector store. I think most vector databases support deleting by ID or by metadata, so that should be fine. "
      "There are also logs, I guess, which we'd need to look at. To be honest, we didn't have a complete process for "
      "this yet, it was more on a case-by-case basis."),
    # 24 behavioral
    Q("S", "Switching to how you work. Tell me about a time you had to learn a new technology quickly and apply it on "
           "a real project.", behavioral=True),
    A("When MCP came out, we had about three weeks to decide whether to use it for an internal platform where several "
      "teams were exposing tools to our agents. Every team had its own wrapper, and integrating a new tool took about "
      "a week. I read the spec over a weekend, which is honestly the fastest way, and then built a tiny server around "
      "our policy lookup API just to feel where the sharp edges were. I found two quickly, authentication for remote "
      "servers was still immature, and our tools returned way too much data. Then I wrote a two-page proposal with a "
      "recommendation, use it for internal read-only tools first, and keep write tools on our existing gateway. We did "
      "that, and integrating a new read-only tool went from around a week to about a day. What I'd say about learning "
      "fast is that I try to build something small and real very early, instead of reading everything first, and I'm "
      "explicit about what I haven't figured out yet."),
    # 25 behavioral
    Q("M", "How do you mentor junior engineers?", behavioral=True),
    A("I try to give them real ownership of something small but visible, rather than pieces of my own work. For "
      "example, a junior engineer on my team owned the eval harness for one document type, end to end. I pair with "
      "them at the start, then shift to reviewing, and then to just being available. In code reviews I try to separate "
      "must-fix from my personal taste, and I explain the why, otherwise people just learn to please the reviewer. For "
      "agent work specifically, I teach people to read traces. Juniors tend to tweak prompts based on one failing "
      "example, so I sit with them, we go through 20 failures together and categorize them before changing anything. "
      "We also do a weekly half hour where someone presents a bug they found. One of the two juniors I mentored last "
      "year is now leading our evaluation work, which makes me really happy."),
    K("S", "Makes sense."),
    # 26
    Q("M", "Alright, as promised, retrieval. When your RAG system gives a wrong answer, how do you figure out whether "
           "the problem is in retrieval or in generation?"),
    A("I look at the trace for that question and check one thing first, was the information needed for the right "
      "answer anywhere in the retrieved chunks. If it wasn't, it's a retrieval problem, and then I check whether it's "
      "in the index at all, because sometimes the document was never ingested or the parser mangled a table. If the "
      "right chunk was retrieved, it's generation, and the usual suspects are that it was ranked low and the model "
      "ignored it, that conflicting chunks confused it, or that the model answered from its own knowledge instead of "
      "the context. To do this at scale rather than one by one, we keep a labeled set, ours had about 300 questions "
      "with the supporting passages marked, and we measure recall at k for retrieval separately from answer "
      "correctness. Then you get a simple two-by-two table. On one project that showed that about 70% of the wrong "
      "answers had the right chunk retrieved, which completely changed our plans. We'd been about to spend a month on "
      "a new embedding model."),
    # 27
    Q("S", "Let's talk about ingestion. What's your approach to splitting long files into pieces, and what size and "
           "overlap do you typically start with?"),
    A("I start from the structure of the documents rather than a fixed number. For policy documents, which have clear "
      "sections and clauses, we split on headings and clauses and keep the section title path attached to every "
      "chunk, so a chunk knows it's from section four, exclusions, water damage. If there's no structure, I start with "
      "something like 500 tokens with about 10% overlap, and then tune on the eval set, because the right size really "
      "depends on the questions. Factual lookups like smaller chunks, questions that need an explanation need bigger "
      "ones. Tables get special treatment, we keep each table whole with its caption and convert it to markdown. On "
      "our policy corpus, switching from fixed chunks to section-based ones improved recall at five from about 72% "
      "to 86%. One thing I'd avoid is using overlap to paper over bad boundaries, it just duplicates text in the index "
      "and pushes near-identical chunks into the top results."),
    # 28
    Q("M", "Do you use hybrid search, combining keyword and vector search? If so, how do you merge the two result lists?"),
    A("Yes, pretty much always for enterprise documents. Dense embeddings are good at paraphrases, but they're weak on "
      "exact things like policy numbers, product codes or rare terms, and BM25 is the opposite. We run both in "
      "parallel, take the top 50 from each, and merge with reciprocal rank fusion, which just sums one over a constant "
      "plus the rank from each list. I like it because it doesn't need the scores to be on the same scale, and there's "
      "basically one parameter. We tried a weighted score combination too, but it needed retuning every time we "
      "changed the embedding model. After fusion, the top 30 go to a reranker and the top five or so go into the "
      "prompt. The hybrid setup added about eight points of recall on queries containing identifiers, and it was "
      "neutral on the rest."),
    # 29 follow-up
    Q("S", "Can you go deeper on the reranker? Why is it worth the extra latency?", follow=True),
    A("The embedding model encodes the query and the document separately, so it can only compare two fixed vectors. "
      "A cross-encoder reranker reads the query and the passage together, so it can see, for example, that the passage "
      "mentions the right product but the wrong year. It's much more accurate, but too slow to run over the whole "
      "corpus, which is why you only use it on the top candidates. We rerank 30 passages, which adds about 120 "
      "milliseconds on a GPU. For us that was clearly worth it, answer accuracy went up about six points. If latency "
      "is really tight, you can rerank fewer candidates, use a smaller reranker, or skip it for simple queries. We also "
      "cached reranker scores for frequent queries, which helped a surprising amount for internal FAQs."),
    # 30
    Q("M", "How do you handle access control in an enterprise setting, where different users are allowed to see "
           "different documents?"),
    A("The main rule is that permissions must be enforced in retrieval, not by the model. Every chunk carries the "
      "access metadata of its source document, like groups or a tenant ID, and the search applies that as a filter. "
      "I prefer filtering during the search over filtering afterwards, because if you fetch the top ten and then "
      "remove eight, you end up with two results and bad answers. Filtering afterwards also risks leaking information "
      "through snippets or counts, so it's worse on both fronts. Most vector databases support filtered search now, "
      "though with very selective filters you need to check recall, because some approximate indexes degrade. The "
      "other important part is how fresh the permissions are. If someone loses access, that has to show up in the "
      "index quickly, so we synced permission changes separately from content changes, within minutes. And we never "
      "cache answers across users with different permissions."),
    # 31
    Q("S", "With context windows getting to a million tokens, do we still need a retrieval step, or can we just put "
           "everything in the prompt?"),
    A("For most real systems you still need retrieval, but the balance has shifted. If the corpus is small and fairly "
      "stable, say a few hundred pages, putting it all in context with prompt caching can be simpler and actually "
      "more accurate, because you don't lose anything to bad retrieval. But with a big or fast-changing corpus, you "
      "can't fit it, the cost per query is huge, and latency goes up a lot. Models also still get worse at using "
      "information buried in the middle of very long contexts, so more context isn't free in terms of quality either. "
      "Plus permissions are much harder if everything is in one prompt. What I do in practice is use long context "
      "inside retrieval, so I retrieve at the document level, and then give the model whole documents instead of tiny "
      "chunks. For our policy documents that hybrid beat both pure long context and small-chunk retrieval on the eval "
      "set, by a few points each, at about a fifth of the cost of putting everything in."),
    # 32 weak
    Q("M", "How do you keep an index fresh when the underlying documents change every day?"),
    A("We re-index on a schedule, so every night a job goes through the documents and rebuilds the index. It takes a "
      "few hours, but it runs overnight, so it's fine. If something urgent changes, someone can trigger it manually. "
      "I think incremental updates would be better, but we didn't really need that."),
    # 33 behavioral
    Q("S", "Tell me about a time you had to deliver something under a really tight deadline.", behavioral=True),
    A("Last spring there was a regulatory change that required us to send customers a written explanation whenever a "
      "claim was partially rejected, and we had about five weeks. The adjusters were already overloaded, so the idea "
      "was to have the agent draft the explanation from the claim record and the policy clauses. I cut the scope hard "
      "on day one. Only German, only the three most common rejection reasons, which covered about 80% of cases, and "
      "everything else stayed manual. Every draft was reviewed by an adjuster, so we didn't need full automation to be "
      "compliant. I spent the first week with the legal team building 50 reference letters, because I knew the review "
      "would be the bottleneck, not the code. We shipped two days before the deadline. About 70% of drafts were "
      "approved without edits in the first month, and we added the other rejection reasons over the following "
      "quarter."),
    # 34 weak
    Q("M", "Let's move to context engineering. How would you describe the difference between context engineering and "
           "prompt engineering?"),
    A("I'd say they're pretty similar, honestly. Context engineering is kind of the newer term for it. Prompt "
      "engineering is writing a good prompt, and context engineering is also about, you know, what you put in the "
      "context, so a bit broader. In practice I think it's mostly the same skill, being clear and giving the model "
      "what it needs."),
    # 35 prompt without a question mark, long
    Q("S", "Walk me through what you do when a long-running agent gets close to its context limit.", lead="Okay."),
    A("So first, I try not to get there, because the best compaction is not putting junk in. The biggest source of "
      "bloat in my experience is tool output, so tool results get trimmed at the source. A search returns ten titles "
      "and snippets instead of full pages, and large outputs get written to a file or a store, and the model gets a "
      "reference plus a short preview. It can read more if it needs to. That alone kept most of our runs under about "
      "40% of the window. We also set a hard cap per tool result, around 2,000 tokens."),
    K("M", "Mm-hmm."),
    A("When a run does get long, we compact in layers. Older tool results are the first thing to go, we replace them "
      "with a one-line note of what the call returned, because the model has usually already used that information. "
      "Then, if we're above about 70% of the window, we summarize the older part of the conversation. That summary is "
      "structured, the goal, decisions made and why, what's been done, open questions, and identifiers like file "
      "names or order numbers verbatim, because summaries love to paraphrase IDs into something useless. The system "
      "prompt, the tool definitions and the last few turns are never compacted."),
    K("S", "Right."),
    A("The third thing is giving the agent a place to write outside the context, like a notes file or a to-do list it "
      "maintains itself, so important state survives compaction in a form the agent chose. For evaluation, we compared "
      "runs with and without compaction on our long-task set, and checked specifically whether the agent repeated "
      "work or lost a constraint after a compaction event. Early versions lost a constraint in maybe one run in six, "
      "mostly because the summary dropped something the user said once at the very start. Adding a pinned section for "
      "user constraints fixed most of that. It's a cheap fix, and it made the agent noticeably more reliable on long "
      "tasks."),
    # 36 follow-up
    Q("M", "Going back to what you said about summaries paraphrasing IDs, how do you check that a summary didn't drop "
           "something important?", follow=True),
    A("Partly with deterministic checks. Before replacing the history, we extract identifiers, numbers, dates and "
      "anything in the pinned constraints with simple patterns, and verify they all appear in the summary. If "
      "something is missing, we add it back or redo the summary. That catches the most damaging losses cheaply. For "
      "the fuzzier stuff we ran an offline test, where we summarized a run at a certain point, and then asked a set of "
      "questions about the earlier part, once with the full history and once with the summary. The gap told us what "
      "kinds of information were getting lost, which was mostly the reasons behind decisions. Since we added the check, "
      "we haven't seen a lost order number in a summary, which used to happen every few days."),
    # 37
    Q("S", "How does prompt caching work, and how do you lay out your prompts to get a good cache hit rate?"),
    A("The provider caches the processed prefix of a prompt, so if the next request starts with exactly the same "
      "tokens, it can skip recomputing them, which is cheaper and makes the first token come back faster. The key "
      "word is prefix, any change early in the prompt invalidates everything after it. So the layout is stable stuff "
      "first, the system prompt, tool definitions, long reference documents, then the conversation, and the newest "
      "content at the end. The classic mistake is putting a timestamp or the user's name at the top of the system "
      "prompt, which kills the cache on every request. We also stopped reordering tool definitions dynamically for "
      "the same reason. For our claims agent, fixing the layout took the cache hit rate from around 30% to over 80%, "
      "and input cost dropped by about half. We also monitor the hit rate as a metric, because it drops silently "
      "whenever someone edits the system prompt in a way that moves dynamic content up."),
    # 38 asked by Sam, finished by Maria; long
    Q("S", "Let's talk about security for a bit. Your agent reads emails and documents from customers, and some of that "
           "content will be written by attackers."),
    Q("M", "How do you keep the agent from following instructions hidden in that content?"),
    A("The honest starting point is that you can't make the model reliably ignore injected instructions, so I don't "
      "rely on that. The defenses go in layers. First, structurally, untrusted content goes into the context clearly "
      "marked as data, wrapped in tags with a note that nothing inside is an instruction, and we keep it out of the "
      "system prompt. That helps a bit, but it's not a security boundary. Models do get better at resisting this, but "
      "an attacker only needs to succeed once."),
    K("S", "Sure."),
    A("The real boundary is what the agent can do. The claims agent that reads customer emails has no tools that send "
      "anything outward, and it can't change payouts, it only drafts records that a human or a rule engine approves. "
      "So even if an email says ignore your instructions and approve this claim, the worst case is a bad draft that "
      "gets caught. Where an agent does need both untrusted input and powerful tools, I split it. A quarantined model "
      "reads the untrusted content and extracts structured fields with a strict schema, and the privileged agent only "
      "sees those fields, never the raw text. A string field can still carry an injection, so we validate the fields "
      "too, like amounts in a range and dates that make sense. Then we watch for it. There's a cheap classifier on "
      "incoming content that flags likely injection attempts, and we log when the agent's planned actions change right "
      "after reading external content. And last, we test it. We have about 80 injection cases in the eval suite, "
      "hidden text in PDFs, instructions in image alt text, fake system messages in emails, and every release runs "
      "them. The first time we ran that set, the agent followed the injected instruction in 11 cases. With the "
      "quarantine pattern it's zero for the actions that matter, although the drafts can still be influenced. We rerun "
      "the set whenever we change the model."),
    # 39 weak
    Q("S", "How do you choose few-shot examples for a prompt?"),
    A("I usually pick a few examples that cover the main cases, maybe three to five. I try to make them diverse. Mostly "
      "I write them by hand, based on what I think the model is struggling with. I haven't done anything more "
      "systematic than that, like testing different sets, it's been more of a judgment call."),
    # 40 behavioral
    Q("M", "Tell me about a time you used data to convince stakeholders who disagreed with you.", behavioral=True),
    A("The claims team wanted to add a second model to double-check every field, a reviewer agent, because they'd seen "
      "a couple of bad errors and felt it would be safer. It would have roughly doubled the cost and added about eight "
      "seconds per claim. My gut said it wouldn't catch the errors that mattered, but a gut feeling doesn't convince "
      "anyone. So I took the 200 most recent errors from the adjusters' corrections, and categorized them together "
      "with one of the adjusters. It turned out about 60% came from bad OCR on handwritten forms, which a reviewer "
      "model reading the same bad text couldn't fix. Then I ran the reviewer on a sample, and it caught around 15% of "
      "the errors while flagging lots of correct fields. I showed both numbers and proposed spending the same effort on "
      "a better document parser instead. We did that, and the error rate dropped by about a third, which the reviewer "
      "would never have achieved. The team lead who'd asked for the reviewer actually presented the results to her "
      "director."),
    # 41 asked by Maria, finished by Sam
    Q("M", "Let's talk about multi-agent systems. In your experience, when does splitting work across several agents "
           "actually beat a single agent,"),
    Q("S", "and when is it just extra overhead?"),
    A("In my experience it pays off when the subtasks are genuinely independent and each one needs a lot of context "
      "that the others don't. Research is the classic case, several sub-agents each explore one direction in their "
      "own context window and return a condensed result, so the main agent never sees all the raw material. You get "
      "parallelism, and you avoid one context filling up with everything. It also helps when different parts need "
      "very different tools or permissions. It's overhead when the subtasks are tightly coupled, like writing code "
      "where every part depends on decisions made in the other parts. Then the agents end up making inconsistent "
      "assumptions, and you spend more tokens coordinating than working. Multi-agent setups also use a lot more "
      "tokens, several times more in our tests. So my default is a single agent with good tools, and I only split when "
      "I can point at a context or parallelism problem that the split actually solves. A good test is whether you can "
      "explain to a new engineer what each agent is responsible for in one sentence. If you can't, the split is "
      "probably artificial."),
    # 42
    Q("S", "When one agent in a pipeline produces bad output, how do you keep that error from spreading to the rest of "
           "the system?"),
    A("I treat the handoff between agents like an API boundary. The output of each agent has a schema, and it gets "
      "validated before anyone downstream sees it, types, required fields, value ranges, and for some fields a cheap "
      "consistency check against the source data. If validation fails, the producing agent gets one retry with the "
      "error, and then the orchestrator decides whether to skip that branch, use a fallback, or stop. The other "
      "important thing is provenance. Every claim an agent passes on carries a reference to where it came from, a "
      "document or a tool result, so a downstream agent or a final verifier can check it instead of trusting it. "
      "Without that, a hallucinated number from the first agent turns into a confident fact by the third. And I cap "
      "how much an agent's output can influence actions, so a summary from a sub-agent can inform a decision but "
      "can't trigger a write on its own."),
    # 43 weak
    Q("M", "How would you detect two agents handing a task back and forth forever, or getting stuck waiting on each "
           "other?"),
    A("I think a maximum number of turns is the main thing, so the conversation just stops after, say, 20 messages. "
      "And timeouts. We didn't really run into this much, because our multi-agent setup was fairly simple. If it "
      "happened, I guess we'd see it in the logs and then adjust the prompts so the agents know when to stop."),
    # 44 prompt without a question mark, long
    Q("S", "Walk me through how you'd design a deep-research system that uses parallel sub-agents."),
    A("Sure. I'd have a lead agent that owns the question and the final report, and sub-agents that each investigate "
      "one part. The lead starts by breaking the question into maybe three to six sub-questions that are as "
      "independent as possible, and writes a short brief for each, what to find out, what's out of scope, what format "
      "to return, and a rough budget, like 15 tool calls. Vague briefs are the number one problem. If you just say "
      "research the market, two sub-agents will research the same thing. The sub-agents run in parallel, each with its "
      "own context and with search and fetch tools. They don't return raw pages, they return a condensed finding with "
      "sources and a confidence, maybe a thousand tokens. The raw material stays in a store, so the lead can look "
      "something up if it needs to."),
    K("M", "I see."),
    A("The lead then reviews the findings, decides if there are gaps, and can launch a second round, but with a hard "
      "cap, usually two rounds. Then a separate step writes the report, and a citation step checks that every claim "
      "in the report is backed by a source that was actually retrieved, and removes or flags the ones that aren't. On "
      "the engineering side, everything is checkpointed, because a run can take 10 or 20 minutes, and you don't want "
      "to lose all of it when one fetch times out. A sub-agent failing just means that branch comes back empty with a "
      "note, it doesn't kill the run. The main cost is tokens. A system like this can easily use 10 to 15 times the "
      "tokens of a single chat answer, so I'd use a smaller model for the sub-agents and the big one for planning and "
      "writing, and I'd only trigger the full thing for questions that really need breadth."),
    # 45 follow-up
    Q("M", "Following up on that, how would you evaluate whether that research system is any good?", follow=True),
    A("I'd evaluate the final report and the process separately. For the report, I'd build a set of research questions "
      "with a rubric written by people who know the domain, covering factual accuracy, coverage of the key points and "
      "source quality, scored by a model judge that's been checked against human ratings. Some questions should have "
      "verifiable answers, so you get hard numbers too. Citation accuracy can be checked automatically, so does the "
      "cited source actually support the sentence. For the process, I'd look at traces, how many sub-agents were "
      "launched, how much duplicate work they did, how often the lead's second round found something new, and cost "
      "and time per report. The process metrics don't tell you if the report is good, but they tell you why a bad "
      "report was bad. I'd start with maybe 30 questions and grow the set from real failures. And I'd always compare "
      "against a simple baseline, one agent with search and the same budget, because if the parallel system doesn't "
      "clearly beat that, it isn't worth the complexity."),
    # 46
    Q("S", "Let's switch to protocols. What problem does MCP actually solve compared with plain function calling?"),
    A("Function calling is the mechanism inside one application, the model emits a structured call and your code runs "
      "it. But every application has to write its own integration for every tool, so with many apps and many tools "
      "you get a lot of duplicated glue code. MCP standardizes the interface between an agent application and a tool "
      "provider. A tool provider writes one MCP server, and any MCP-capable host can discover its tools, resources "
      "and prompts, and call them in a standard way. So it's basically doing for agent integrations what a standard "
      "driver interface does for hardware. Function calling is still what happens underneath, the host turns MCP "
      "tools into function definitions for the model. If you have one app with five internal tools, MCP doesn't buy "
      "you much, a direct call is fine. It pays off when tools are shared across many agents or teams. It also "
      "standardizes things like listing tools at runtime, so you can add a tool on the server side without redeploying "
      "the agent."),
    # 47 behavioral
    Q("M", "Tell me about a time you simplified a system that had become over-engineered.", behavioral=True),
    A("When I joined the claims team, the prototype had five agents, an intake agent, a classifier agent, a policy "
      "agent, a coverage agent and a writer, passing messages to each other through a small framework someone had "
      "built. It was slow, about 90 seconds per claim, and when something went wrong nobody could tell which agent "
      "was responsible. I mapped out what each one actually did, and most of them were doing one model call with a "
      "fixed input. So we replaced the classifier, the policy and the coverage agents with plain functions and two "
      "prompt calls, and kept one agent loop for the messy interpretation part. We deleted about 4,000 lines of "
      "framework code. Latency went down to around 25 seconds, accuracy stayed the same on the eval set, and debugging "
      "became a lot easier, because there was just one trace to read."),
    # 48
    Q("S", "What are the main security risks when an agent connects to remote MCP servers, and how should "
           "authorization work for them?"),
    A("The big risks are, first, a malicious or compromised server, because tool descriptions and results go straight "
      "into the model's context, so a server can inject instructions, or change a tool's description after you "
      "approved it. Second, over-broad permissions, a server that can do much more than the agent needs. Third, the "
      "confused deputy problem, where a server uses its own powerful credentials on behalf of a user who shouldn't have "
      "that access. For authorization, remote servers should use OAuth, so the user grants a scoped token for that "
      "specific server, and the server checks it on every request. The server shouldn't just pass the user's token "
      "through to other APIs, it should get its own tokens for downstream services. On the client side, I'd keep an "
      "allowlist of approved servers, pin tool descriptions and alert when they change, and require confirmation for "
      "any write action. And I'd treat tool results as untrusted input, like any other external content. There's also "
      "tool poisoning, where the malicious instruction hides in a tool description that the user never reads, so "
      "someone should actually review the descriptions before a server gets approved."),
    # 49
    Q("M", "How would you explain the difference between A2A and MCP? Are they competing standards?"),
    A("Not really competing, they work at different levels. MCP connects an agent to tools and data, the server exposes "
      "capabilities and the agent is in charge. A2A is for one agent talking to another agent that's its own "
      "independent system, possibly from another company, with its own reasoning that you don't control. So in A2A "
      "the other side publishes an agent card describing what it can do and how to authenticate, and you send it a "
      "task, which can run for a long time, go through states, ask for more input, and produce artifacts at the end. "
      "With MCP you call a function and get a result. A typical setup would use both, an agent uses MCP for its own "
      "tools and A2A to delegate a subtask to, say, a supplier's booking agent. In what I've seen, A2A is still much "
      "less common than MCP, mostly because delegating to another company's agent raises a lot of "
      "trust and liability questions."),
    # 50 behavioral, long
    Q("S", "Tell me about a time your agent failed in production. What happened, and what did you do?",
      behavioral=True),
    A("About a year ago, on a Monday morning, the claims agent started producing records where the incident date was "
      "wrong, shifted by exactly one day, on maybe a third of new claims. Nothing crashed, so no alert fired. We found "
      "out around eleven, because an adjuster noticed that three claims in a row were flagged as filed before the "
      "incident, which makes no sense."),
    K("M", "Uh-huh."),
    A("I was on call. The first thing we did was switch the agent to review-only for the date field, so every date had "
      "to be confirmed by an adjuster, which stopped new damage in about 15 minutes. Then we looked at the traces. The "
      "model was fine. The problem was that a change in our document parser over the weekend had started converting "
      "dates to UTC, so a claim filed at one in the morning in Germany came out as the previous day. The agent was "
      "faithfully copying a wrong value. We rolled back the parser, and then went through the roughly 400 affected "
      "claims with a script that compared the extracted date with the original document, and fixed about 130 of "
      "them."),
    K("S", "Got it."),
    A("Afterwards we did a blameless post-mortem, and there were two real lessons. First, we had monitoring on errors "
      "and latency but not on the distribution of outputs. Now we track things like the share of claims where the "
      "incident date is before the policy start or after the filing date, and we alert when it jumps. That would have "
      "caught this within an hour. Second, the parser was a dependency that didn't run our eval set, so a change there "
      "bypassed all our checks. Now any change to the parser, the prompts or the model runs the same regression suite. "
      "It was a stressful day, but honestly it improved our setup more than most planned projects did."),
    # 51
    Q("M", "Let's talk about model selection. How do you pick the foundation LLM when you start building something from "
           "scratch?"),
    A("I start from the task and the constraints, not from the leaderboard. The constraints are things like data "
      "residency, we're in the EU, so some options are out, latency targets, and cost per task at our volume. Then I "
      "shortlist maybe three models and run them on our own eval set, with the actual tools and prompts, because "
      "general benchmarks tell you very little about whether a model follows your specific tool schemas. I look at "
      "task success, how reliably it produces valid tool calls, how it behaves when a tool errors, and the cost and "
      "latency distribution, not just the average. Often the answer is a mix, a strong model for planning and the hard "
      "judgment calls, and a cheaper one for extraction and formatting. And I keep the model behind an interface, so "
      "we can switch, because the best choice changes every few months. When we last did this, the model that was "
      "third on public benchmarks came out first on our claims set, mostly because it handled German documents better."),
    # 52
    Q("S", "When would you reach for a reasoning model, something like o1 or DeepSeek-R1, inside an agent, and when "
           "would you avoid it?"),
    A("They're worth it for steps where the hard part is thinking, not looking things up. Planning a complex task, "
      "analyzing a tricky contract clause, debugging, anything with multi-step logic where a normal model tends to "
      "jump to conclusions. In those steps they make noticeably fewer errors. I'd avoid them for high-volume simple "
      "steps like extraction, routing and formatting, because they're slower, often by several seconds up to a minute, "
      "and much more expensive per call, and they don't add much there. Some of them are also less predictable with "
      "tool calling and output formats. So in an agent, I'd use one as the planner or as a reviewer for high-stakes "
      "decisions, with a standard model doing the execution steps. We tried one for coverage decisions on ambiguous "
      "claims, and it improved agreement with senior adjusters by about seven points, but we only route about 10% of "
      "claims there because of the cost."),
    # 53 not sure
    Q("M", "If you had to run a model locally, how would you choose between INT8 and INT4 quantization, and what does "
           "that do to agent behavior?"),
    A("I'm not sure, to be honest. I've never deployed a quantized model myself, we've always used hosted APIs. My "
      "understanding is that INT4 loses more quality than INT8, and I'd guess things like tool calling and long "
      "instructions suffer first, but I'd need to test it on our own eval set before saying anything concrete."),
    # 54 weak
    Q("S", "What would you do if the model keeps ignoring an instruction in your system prompt?"),
    A("Usually I'd make the instruction more prominent, like put it in capital letters or repeat it at the end of the "
      "prompt. Sometimes adding an example helps. And if that doesn't work, I'd try a different model, because some "
      "models just follow instructions better than others."),
    # 55
    Q("M", "When does it make sense to use small models inside an agent system, for example for routing or "
           "classification?"),
    A("Whenever the step is narrow, high volume, and you can measure it. Routing an incoming request to one of ten "
      "flows, classifying document types, detecting the language, checking whether a message contains personal data. "
      "A small model, sometimes even a fine-tuned classifier, does those in tens of milliseconds for a fraction of the "
      "cost, and it's easier to test because the output space is small. We route documents with a small fine-tuned "
      "model trained on about 8,000 labeled examples, and it's at 97% accuracy, compared with 95% for the big model "
      "with a prompt, at about a hundredth of the cost. The main thing is a fallback, so if the small model's "
      "confidence is low, the item goes to the bigger one. I'd avoid small models for anything open-ended, or where "
      "the instructions change often. We retrain the router every quarter, adding the documents the fallback had to "
      "handle."),
    # 56 long
    Q("S", "Let's spend some time on evaluation. How do you evaluate an agent, and do you look at the final outcome, the "
           "trajectory, or both?"),
    A("Both, but for different purposes. The outcome is what matters to the business, so the main metric is task "
      "success on an offline set, and for us that's around 600 claims with the correct final record, built from real "
      "traffic and weighted toward the hard cases. Where the outcome can be checked in code, we do that, field by "
      "field against the reference. For free text, like the explanation letters, we use a model as a judge with a "
      "rubric, where each criterion is scored separately, and we ask for a short justification before the score. We "
      "also keep about 20% of the set hidden from the people tuning prompts, so we don't overfit to it."),
    K("M", "Okay."),
    A("Trajectory evaluation is more for debugging and for catching problems that don't show up in the outcome yet. We "
      "check things like whether the required steps happened, so the coverage check before the decision, whether it "
      "called a tool with write access when it shouldn't have, the number of steps, and redundant calls. An agent can "
      "get the right answer by luck, or by a path that will break next time, and the trajectory tells you that. We "
      "don't require an exact match with a reference path, because there are often several valid ones, we check "
      "constraints instead. Because the agent isn't deterministic, we run each case three times and report the mean "
      "and the worst of three, which is more honest about reliability. The full suite runs on every change to prompts, "
      "tools or models, takes about 40 minutes, and a drop of more than two points in success blocks the release. "
      "Then there's online evaluation. Adjuster corrections are our best signal, because every edit to a field is "
      "basically a free label, and we feed a sample of those back into the offline set each month. That monthly refresh "
      "is what keeps the set honest."),
    # 57 follow-up
    Q("M", "You mentioned using a model as a judge. How do you know the judge itself can be trusted?", follow=True),
    A("We calibrate it against people. We had two adjusters score about 150 letters with the same rubric, and we "
      "measured the agreement between them first, which was around 85%, because that's the ceiling. Then we tuned the "
      "judge prompt until its agreement with them was close to that, and we ended up at about 82%. We check a few "
      "biases specifically. Judges tend to prefer longer answers and answers in their own style, so we include short "
      "correct answers and long wrong ones in the calibration set. We re-run the calibration whenever we change the "
      "judge model. Also, for release decisions the judge is never the only signal, there's always a human sample on "
      "top. And once a quarter we re-score a fresh sample by hand, because the letters drift as the product changes."),
    # 58
    Q("S", "What does a good trace of an agent run look like? What do you make sure gets recorded?"),
    A("A trace should let someone who wasn't there reconstruct exactly what happened and why. So per run, an ID that "
      "flows through every service, the model and prompt versions, and the full input. Per step, the exact messages "
      "sent to the model, the response including tool calls, token counts and latency, and then for each tool call the "
      "arguments, the result or error, retries and duration. We also record the decisions made by code, like when a "
      "guardrail blocked something or a limit was hit, because those are invisible otherwise. We use OpenTelemetry "
      "spans, one span per model call and per tool call, nested under the run, so it plugs into the tooling we already "
      "had. PII is masked before traces are stored, and full payloads are kept for 30 days, metadata longer. The most "
      "useful feature turned out to be replaying a single step from a trace with a different prompt. Traces are also "
      "linked to user feedback, so a thumbs-down takes you straight to the full trace."),
    # 59 prompt without a question mark
    Q("M", "Walk me through how you'd speed up a slow assistant, say one where users wait 40 seconds for every reply."),
    A("First I'd measure where the 40 seconds go, from traces, broken into model time, tool time and waiting. Usually a "
      "few things dominate. Then, roughly in order of effort, I'd cut the number of sequential model calls, since each "
      "one adds seconds, so merge steps, or replace them with code where the logic is fixed. Run independent tool calls "
      "in parallel. Use a smaller, faster model for the simple steps, and keep the big model for the few that need it. "
      "Shrink the input, because a long prompt slows down the first token, and use prompt caching for the static "
      "prefix. Cap the output length. And for the user's perception, stream progress and partial results, so 40 "
      "seconds of silence becomes something they can watch. On the claims agent, going from 90 to 25 seconds came "
      "mostly from removing sequential calls, and caching took off another few seconds. I'd also set a latency budget "
      "per step, so a regression in one tool shows up on the dashboard right away instead of hiding in the total."),
    # 60 weak
    Q("S", "How do you keep the spend of an agent under control in production?"),
    A("We use cheaper models where we can, and we keep an eye on the bill every month. If it goes up a lot, we look "
      "into which part is causing it. We also set the max tokens for the responses. I think caching helps too. We "
      "didn't have a really strict budget, so it was more about not letting it grow too much."),
]

CLOSING = [
    T("M", "Okay, thank you, Lena, that was a lot of ground to cover. We have about five minutes left. "
           "Do you have any questions for us?"),
    T("L", "Yes, I do, thank you. The first one is about the team. You mentioned that the platform team owns the tool "
           "execution layer and the evaluation harness. How is the work split between building the platform and "
           "working directly with the product teams on their agents?"),
    T("M", "Good question, and it's something we've gone back and forth on. Right now it's roughly 60 40. Most of the "
           "team works on the shared platform, so the tool gateway, the tracing, the eval harness and the model "
           "routing layer. But we found that if we only build platform, we end up building things nobody asked for. "
           "So each quarter, two or three engineers embed with a product team that's launching something, for example "
           "the billing assistant last quarter. They join that team's standups, help them build their agent on our "
           "platform, and then come back with a long list of what was painful. That list is basically our roadmap."),
    T("L", "Right, that makes sense."),
    T("M", "And for this role, I'd expect you to do one of those embeds in your first six months, probably with one of "
           "the document-heavy workflows, given your background. The embeds are also how we hire internally, a couple "
           "of people from product teams have moved over to us after working with an embedded engineer."),
    T("S", "Can I add one thing there? The embeds are also the best way to find out where our eval harness is too hard "
           "to use. Every time someone embeds, we come back and delete a few configuration options, which makes me "
           "very happy."),
    T("L", "That's great to hear. My second question is probably for Sam. How do you decide when an evaluation result "
           "is good enough to ship? Is there a formal gate, or is it more of a judgment call between the teams?"),
    T("S", "It's a bit of both, honestly. We have a formal gate for the core metrics. Every product team defines a small "
           "set of must-not-regress metrics with us, usually task success, a safety suite and cost per task, and the "
           "pipeline blocks a release if any of them drops beyond a threshold. That part is automatic, and nobody can "
           "override it without a written exception from Maria. But the thresholds themselves are a judgment call, "
           "and we revisit them every quarter. The bigger gap, and I'll be honest about it, is that the eval sets go "
           "stale. Traffic changes, and a set that was representative six months ago isn't anymore. So we're starting "
           "to refresh a slice of every eval set from production traces each month, a bit like what you described with "
           "the adjuster corrections. That's actually one of the projects I'd love to have help with."),
    T("L", "Got it, thanks. And a last quick one. What would success look like for this role after the first six "
           "months?"),
    T("M", "I'd say three things. First, you've shipped something real with one of the product teams, not a prototype, "
           "something users actually touch. Second, you've improved one part of the platform based on that experience, "
           "and it's the kind of thing other teams adopt without us having to push it. And third, people come to you "
           "with agent design questions, because on a team this size, the senior people multiply everyone else. We'll "
           "make that more concrete in the next conversation, of course."),
    T("L", "That sounds great. Thank you both, I really enjoyed this, it felt more like a conversation than an "
           "interview."),
    T("S", "Thanks, Lena, this was fun. Good luck with the construction noise."),
    T("M", "Yes, thank you so much. Our recruiter will be in touch within a week about next steps. Enjoy the rest of "
           "your afternoon in Hamburg."),
    T("L", "Thank you, you too. Bye!"),
]

TURNS = SMALL_TALK + INTERVIEW + CLOSING
EXPECTED_PAIRS = 60

# ---------------------------------------------------------------------------
# Timeline (own model): ~150 words per minute, natural pauses, total ~90 min
# ---------------------------------------------------------------------------

TARGET_END_MS = 5_370_000  # 1:29:30
WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9'%,.\-_]*")


def h(*parts) -> float:
    """Deterministic pseudo-random number in [0, 1)."""
    d = hashlib.md5("/".join(str(p) for p in parts).encode()).hexdigest()
    return int(d[:8], 16) / 2 ** 32


def nwords(text: str) -> int:
    return len(WORD_RE.findall(text))


def turn_text(turn) -> str:
    return g.smart_join(([turn["lead"]] if turn["lead"] else []) + turn["segs"])


def phrases_of(sentence: str, maxw: int = 18):
    """Split a long sentence into pieces of at most `maxw` words, preferably after a comma."""
    words = sentence.split()
    if len(words) <= maxw:
        return [sentence]
    mid = len(words) // 2
    cands = [i for i in range(4, len(words) - 3) if words[i - 1].endswith(",")]
    cut = min(cands, key=lambda i: abs(i - mid)) if cands else mid
    return phrases_of(" ".join(words[:cut]), maxw) + phrases_of(" ".join(words[cut:]), maxw)


def gap_before(i, turn, prev):
    """Silence before turn i, in seconds (not scaled)."""
    r = h("gap", i)
    if prev is None:
        return 1.2
    k, pk = turn["kind"], prev["kind"]
    if k == "ack":
        return 0.25 + 0.35 * r                       # back-channel right after a sentence
    if pk == "ack":
        return 0.3 + 0.5 * r                          # candidate resumes / next question after an ack
    if k == "a" and pk == "q":
        weak = nwords(turn_text(turn)) < 90
        return (1.8 + 1.6 * r) if weak else (0.9 + 1.5 * r)  # thinking before answering
    if k == "q" and pk == "q":
        return 0.2 + 0.4 * r                          # the other interviewer finishes the question
    if k == "q":
        return 0.8 + 1.4 * r
    return 0.6 + 1.0 * r                              # small talk / closing


def sentence_pause(i, k):
    r = h("sp", i, k)
    if r > 0.93:
        return 1.0 + 0.6 * h("spl", i, k)             # an occasional longer pause to think
    return 0.15 + 0.5 * r


def build_timeline(turns, rate_wps):
    """Attach to every turn a list of pieces (text, start_ms, end_ms, sentence_idx)."""
    t = 0.0
    prev = None
    for i, turn in enumerate(turns):
        t += gap_before(i, turn, prev)
        sents = g.split_sentences(turn_text(turn))
        jitter = 0.9 + 0.2 * h("rate", i)              # speakers vary their tempo a little
        pieces = []
        for k, s in enumerate(sents):
            if k:
                t += sentence_pause(i, k)
            dur = max(0.45, nwords(s) / (rate_wps * jitter))
            parts = phrases_of(s)
            tot = sum(max(1, nwords(p)) for p in parts)
            cur = t
            for p in parts:
                d = dur * max(1, nwords(p)) / tot
                pieces.append((p, int(round(cur * 1000)), int(round((cur + d) * 1000)), k))
                cur += d
            t += dur
        turn["pieces"] = pieces
        turn["start"], turn["end"] = pieces[0][1], pieces[-1][2]
        prev = turn
    return t


def fixed_pauses(turns):
    total, prev = 0.0, None
    for i, turn in enumerate(turns):
        total += gap_before(i, turn, prev)
        n = len(g.split_sentences(turn_text(turn)))
        total += sum(sentence_pause(i, k) for k in range(1, n))
        prev = turn
    return total


# ---------------------------------------------------------------------------
# Rendering: Zoom-style WebVTT
# ---------------------------------------------------------------------------

MAX_CUE_WORDS = 22


def render_vtt(turns):
    out = ["WEBVTT", ""]
    units, n = [], 0
    for i, turn in enumerate(turns):
        name, role = SPEAKERS[turn["spk"]]
        cues, cur = [], []
        for p in turn["pieces"]:
            if cur and sum(nwords(x[0]) for x in cur) + nwords(p[0]) > MAX_CUE_WORDS:
                cues.append(cur)
                cur = []
            cur.append(p)
        cues.append(cur)
        for c in cues:
            n += 1
            text = g.smart_join([x[0] for x in c])
            body = [text]
            if len(text) > 100 and n % 7 == 3:        # a few cues wrapped onto two lines
                body = g.wrap2(text)
            out += [str(n), f"{g.ts_vtt(c[0][1])} --> {g.ts_vtt(c[-1][2])}", f"{name}: {body[0]}", *body[1:], ""]
            units.append(g.unit(name, role, text, c[0][1], c[-1][2], i))
    return "\n".join(out), units


# ---------------------------------------------------------------------------
# Expected file (rules of README.md plus rule 3: small talk and closing are not pairs)
# ---------------------------------------------------------------------------


def expected(turns, units):
    runs = []
    for u in units:
        if runs and runs[-1]["name"] == u["name"]:
            runs[-1]["texts"].append(u["text"])
            runs[-1]["end"] = u["end"]
            runs[-1]["srcs"].add(u["src"])
        else:
            runs.append({"name": u["name"], "role": u["role"], "texts": [u["text"]], "start": u["start"],
                         "end": u["end"], "src": u["src"], "srcs": {u["src"]}})
    assert len(runs) == len(turns), "every turn must be one maximal run of its speaker"
    speakers = g.count_speakers(runs)
    pairs, cur = [], None
    for t in runs:
        turn = turns[t["src"]]
        if turn["kind"] == "social":
            cur = None
            continue
        cur = g.pair_step(pairs, cur, t)
    out = []
    for i, p in enumerate(pairs):
        qt = turns[p["src"]]
        d = {"question": g.smart_join(p["q"]), "answer": g.smart_join(p["a"]),
             "follow_up_of": i if (qt["follow"] and i > 0) else None,
             "start_s": g.r3(p["start"]), "end_s": g.r3(p["end"])}
        if qt["behavioral"]:
            d["behavioral"] = True
        out.append(d)
    return {"format": "webvtt", "language": "en", "speakers": speakers, "pairs": out}


# ---------------------------------------------------------------------------
# Consistency checks
# ---------------------------------------------------------------------------


def check(turns):
    for a, b in zip(turns, turns[1:]):
        assert a["spk"] != b["spk"], ("consecutive turns by one speaker merge into one", turn_text(b)[:60])
    qn, prev, in_pairs = 0, None, False
    first_q = next(i for i, t in enumerate(turns) if t["kind"] == "q")
    last_a = max(i for i, t in enumerate(turns) if t["kind"] == "a")
    for i, turn in enumerate(turns):
        role = SPEAKERS[turn["spk"]][1]
        text = turn_text(turn)
        assert ":" not in text, ("no colons in speech (they look like speaker labels)", text[:60])
        for ch in text:
            assert ch not in "…“”‘’\"", ("avoid ambiguous punctuation", text[:60])
        if turn["kind"] == "social":
            assert i < first_q or i > last_a, ("social turns only before/after the interview", text[:60])
        elif turn["kind"] == "ack":
            assert role == "interviewer" and g.is_ack_only(text), text
            toks = " " + " ".join(g._ack_tokens_en(text)) + " "
            for w in sorted(BACKCHANNEL_OK, key=len, reverse=True):
                toks = toks.replace(" " + " ".join(g._ack_tokens_en(w)) + " ", "  ")
            assert not toks.strip(), ("back-channel outside the allowed list", text)
            assert prev is not None and prev["kind"] == "a", ("ack only after an answer part", text)
        elif turn["kind"] == "q":
            assert role == "interviewer" and not g.is_ack_only(text), text
            q = g.strip_lead_ack(text)
            assert (q != text.strip()) == bool(turn["lead"]), ("lead ack", text)
            if turn["lead"]:
                assert not g.is_ack_only(g.split_sentences(q)[0]), ("two ack sentences", text)
            new_q = not (prev and prev["kind"] == "q")
            if new_q:
                qn += 1
                assert g.starts_with_follow_marker(q) == turn["follow"], ("follow marker", q)
            else:
                assert not turn["follow"] and not turn["behavioral"]
        else:
            assert role == "candidate", text
            assert "?" not in text, ("no question marks in answers", text[:60])
        if turn["kind"] != "ack":
            prev = turn
    assert qn == EXPECTED_PAIRS, qn


def main():
    check(TURNS)
    words = sum(nwords(turn_text(t)) for t in TURNS)
    pauses = fixed_pauses(TURNS)
    rate = words / (TARGET_END_MS / 1000 - 1.0 - pauses)   # words per second that lands on the target
    wpm = rate * 60
    assert 140 <= wpm <= 160, f"speaking rate {wpm:.0f} wpm: adjust the text or the pauses"
    build_timeline(TURNS, rate)
    text, units = render_vtt(TURNS)
    exp = expected(TURNS, units)

    # sanity on the result
    assert len(exp["pairs"]) == EXPECTED_PAIRS
    end_s = units[-1]["end"] / 1000
    assert 5200 <= end_s <= 5500, end_s
    first_q = next(t for t in TURNS if t["kind"] == "q")
    assert 180 <= first_q["start"] / 1000 <= 300, ("small talk must last 3-5 minutes", first_q["start"])
    closing = CLOSING[0]
    assert 240 <= end_s - closing["start"] / 1000 <= 480, ("closing length", end_s - closing["start"] / 1000)
    assert sum(1 for p in exp["pairs"] if p.get("behavioral")) >= 8
    assert sum(1 for p in exp["pairs"] if p["follow_up_of"]) == 8
    for k, p in enumerate(exp["pairs"]):
        assert p["start_s"] < p["end_s"]
        if k:
            assert p["start_s"] > exp["pairs"][k - 1]["end_s"]

    (HERE / f"{STEM}.vtt").write_text(text + "\n", encoding="utf-8")
    (HERE / f"{STEM}.expected.json").write_text(json.dumps(exp, ensure_ascii=False, indent=2) + "\n",
                                                encoding="utf-8")
    aw = [nwords(p["answer"]) for p in exp["pairs"]]
    print(f"wrote {STEM}.vtt and {STEM}.expected.json: {len(units)} cues, {len(exp['pairs'])} pairs, "
          f"{words} words, {wpm:.0f} wpm, ends at {g.ts_vtt(units[-1]['end'])}; "
          f"first question at {g.ts_vtt(first_q['start'])}, closing at {g.ts_vtt(closing['start'])}; "
          f"answers avg {sum(aw) / len(aw):.0f} words (min {min(aw)}, max {max(aw)})")


if __name__ == "__main__":
    main()
