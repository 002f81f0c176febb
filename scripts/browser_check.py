#!/usr/bin/env python3
"""The web console in a real browser: Debian's chromium driven by Playwright.

Usage: browser_check.py BASE_URL_WITH_TOKEN OUT_DIR TRANSCRIPT [RECORDING [SPOKEN_ANSWER.wav]]

Loads every page in both languages and both themes (a screenshot of each into OUT_DIR), then
diagnoses TRANSCRIPT (and RECORDING, when given) through the upload form and waits for the
report. With SPOKEN_ANSWER, runs a whole mock interview in which one answer is typed, retaken,
and one is spoken into Chromium's fake microphone (the WAV played as its capture), transcribed
by the server, corrected on the page and scored. Fails on any console error, page error or
failed request. Prints one JSON line of what it saw, for the Rust test that runs it
(tests/serve.rs) to check.
"""
import json
import os
import sys
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("IVD_CHROMIUM", "/usr/bin/chromium")


def main() -> int:
    url, out, transcript = sys.argv[1], sys.argv[2], sys.argv[3]
    recording = sys.argv[4] if len(sys.argv) > 4 else None
    spoken = sys.argv[5] if len(sys.argv) > 5 else None
    os.makedirs(out, exist_ok=True)
    parts = urlsplit(url)
    base = f"{parts.scheme}://{parts.netloc}"
    problems, seen = [], {"pages": [], "reports": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]
            + ([f"--use-file-for-fake-audio-capture={spoken}%noloop"] if spoken else []),
        )
        for lang in ["en", "zh"]:
            for theme in ["light", "dark"]:
                ctx = browser.new_context(
                    locale="zh-CN" if lang == "zh" else "en-US",
                    color_scheme=theme,
                    viewport={"width": 390, "height": 844} if theme == "dark" else {"width": 1280, "height": 900},
                )
                page = ctx.new_page()
                watch(page, problems)
                page.goto(url)  # the token sets the cookie
                page.on("dialog", lambda d: d.accept())
                for path in ["/", "/mock", "/history", "/kb?q=function%20calling", "/status"]:
                    page.goto(base + path)
                    page.wait_for_load_state("networkidle")
                    name = f"{path.strip('/').split('?')[0] or 'home'}-{lang}-{theme}.png"
                    page.screenshot(path=os.path.join(out, name), full_page=True)
                    seen["pages"].append({"path": path, "lang": lang, "theme": theme, "html_lang": page.get_attribute("html", "lang")})
                page.goto(base + "/kb?q=function%20calling")
                first = page.locator("ol.hits a").first
                first.click()
                page.wait_for_load_state("networkidle")
                page.screenshot(path=os.path.join(out, f"entry-{lang}-{theme}.png"), full_page=True)
                # A mock interview's question page, then ended at once (nothing answered: no report).
                page.goto(base + "/mock")
                page.fill("#count", "1")
                page.select_option("#mock-lang", lang)
                page.click("#mock-setup button[type=submit]")
                page.wait_for_selector("#prompt")
                page.screenshot(path=os.path.join(out, f"mock-{lang}-{theme}.png"), full_page=True)
                seen["pages"].append({"path": "/mock/N", "lang": lang, "theme": theme, "html_lang": page.get_attribute("html", "lang")})
                page.click("form[data-confirm] button")
                page.wait_for_selector("#over")
                ctx.close()
        ctx = browser.new_context(locale="en-US")
        page = ctx.new_page()
        watch(page, problems)
        page.goto(url)
        for f in [transcript] + ([recording] if recording else []):
            page.goto(base + "/")
            page.set_input_files("#file", f)
            page.click("button[type=submit]")
            page.wait_for_selector(".ivd-bar", timeout=300_000)
            stem = os.path.basename(f).replace(".", "_")
            page.screenshot(path=os.path.join(out, f"report-{stem}.png"), full_page=False)
            seen["reports"].append({"file": os.path.basename(f), "title": page.title(), "url": page.url,
                                    "questions": page.locator("section.q").count()})
        # The same reports at phone width in the dark theme, the console in Chinese.
        dark = browser.new_context(locale="zh-CN", color_scheme="dark", viewport={"width": 390, "height": 844})
        dpage = dark.new_page()
        watch(dpage, problems)
        dpage.goto(url)
        for r in seen["reports"]:
            dpage.goto(r["url"])
            dpage.wait_for_selector(".ivd-bar")
            stem = r["file"].replace(".", "_")
            dpage.screenshot(path=os.path.join(out, f"report-{stem}-zh-dark.png"), full_page=False)
        dark.close()
        if spoken:
            seen["mock"] = mock_interview(browser, url, base, out, problems)
        page.goto(base + "/history")
        seen["history_rows"] = page.locator("tbody tr").count()
        page.screenshot(path=os.path.join(out, "history-after.png"), full_page=True)
        ctx.close()
        browser.close()
    seen["problems"] = problems
    print(json.dumps(seen))
    return 0


def mock_interview(browser, url, base, out, problems):
    """Three questions: the first typed (timer, hint, retake, expert answer), the second spoken,
    the third skipped, which ends the interview with its report."""
    ctx = browser.new_context(locale="en-US", permissions=["microphone"])
    page = ctx.new_page()
    watch(page, problems)
    page.clock.install()
    page.goto(url)
    page.goto(base + "/mock")
    page.check("input[name=dimension][value=rag]")
    page.fill("#count", "3")
    page.click("#mock-setup button[type=submit]")
    page.wait_for_selector("#prompt")
    saw = {"first": page.text_content("#prompt")}
    page.clock.fast_forward("03:01")
    saw["timer_3min"] = page.get_attribute("#timer", "class")
    page.clock.fast_forward("02:00")
    saw["timer_5min"] = page.get_attribute("#timer", "class")
    page.click("a[href$='hint=1#hint']")
    saw["hint"] = page.text_content("#hint")
    page.fill("#answer", "I split documents into chunks and search them.")
    page.click("#submit")
    page.wait_for_selector("#verdict .band")
    saw["verdict_1"] = page.text_content("#verdict .band")
    page.click("#verdict form[action*='/retake'] button")
    page.wait_for_selector("#prompt")
    saw["retaken"] = page.text_content("#prompt")
    page.fill("#answer", "Documents are parsed, cleaned and chunked with overlap; chunks are embedded into a vector "
              "index with metadata. At query time the question is rewritten and embedded, hybrid search (BM25 plus "
              "vectors) retrieves candidates, a reranker keeps the best few, and the model answers from them with citations.")
    page.click("#submit")
    page.wait_for_selector("#verdict .band")
    saw["verdict_retake"] = page.text_content("#verdict .band")
    page.click("a[href$='expert=1#expert']")
    saw["expert_shown"] = page.locator("#expert").is_visible()
    saw["second"] = page.text_content("#prompt")
    page.screenshot(path=os.path.join(out, "mock-verdict-en-light.png"), full_page=True)
    # The spoken answer: record, stop after the fake capture has played, correct the transcript.
    page.click("#record")
    page.wait_for_selector("#stop:not([hidden])")
    page.wait_for_timeout(int(float(os.environ.get("IVD_SPOKEN_SECONDS", "12")) * 1000) + 1500)
    page.click("#stop")
    # (Polled from here: the page's CSP refuses wait_for_function's eval.)
    transcribing = page.get_attribute("#mic-status", "data-transcribing")
    for _ in range(360):
        page.wait_for_timeout(500)
        if page.input_value("#recording") or page.text_content("#mic-status") != transcribing:
            break
    saw["mic_status"] = page.text_content("#mic-status")
    saw["heard"] = page.input_value("#answer")
    saw["playback"] = page.get_attribute("#playback", "src") or ""
    page.screenshot(path=os.path.join(out, "mock-spoken-en-light.png"), full_page=True)
    page.fill("#answer", saw["heard"] + " We also cache frequent queries.")
    page.click("#submit")
    page.wait_for_selector("#verdict audio")
    saw["verdict_spoken"] = page.text_content("#verdict .band")
    page.screenshot(path=os.path.join(out, "mock-spoken-verdict-en-light.png"), full_page=True)
    # A follow-up may come first; skipping until the plan is done ends the interview with its
    # report, stored in the history.
    for _ in range(6):
        if page.locator(".ivd-bar").count():
            break
        page.click("#skip")
        page.wait_for_load_state("networkidle")
    page.wait_for_selector(".ivd-bar", timeout=120_000)
    saw["report_url"] = page.url
    page.screenshot(path=os.path.join(out, "mock-report-en.png"), full_page=False)
    ctx.close()
    return saw


def watch(page, problems):
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    # Our own navigation cancels the icon's load, or the job's event stream when the page reloads
    # on the final state, now and then (net::ERR_ABORTED): not a failure.
    page.on("requestfailed", lambda r: None if (r.url.endswith("/icon.svg") or r.url.endswith("/events")) and "ERR_ABORTED" in str(r.failure)
            else problems.append(f"request failed: {r.url} {r.failure}"))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)


if __name__ == "__main__":
    sys.exit(main())
