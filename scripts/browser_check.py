#!/usr/bin/env python3
"""The web console in a real browser: Debian's chromium driven by Playwright.

Usage: browser_check.py BASE_URL_WITH_TOKEN OUT_DIR TRANSCRIPT [RECORDING]

Loads every page in both languages and both themes (a screenshot of each into OUT_DIR), then
diagnoses TRANSCRIPT (and RECORDING, when given) through the upload form and waits for the
report. Fails on any console error, page error or failed request. Prints one JSON line of what it
saw, for the Rust test that runs it (tests/serve.rs) to check.
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
    os.makedirs(out, exist_ok=True)
    parts = urlsplit(url)
    base = f"{parts.scheme}://{parts.netloc}"
    problems, seen = [], {"pages": [], "reports": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"],
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
                for path in ["/", "/history", "/kb?q=function%20calling", "/status"]:
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
        page.goto(base + "/history")
        seen["history_rows"] = page.locator("tbody tr").count()
        page.screenshot(path=os.path.join(out, "history-after.png"), full_page=True)
        ctx.close()
        browser.close()
    seen["problems"] = problems
    print(json.dumps(seen))
    return 0


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
