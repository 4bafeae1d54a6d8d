"""The chat in a real browser: streamed cited answers, evidence on click, refusal, follow-up,
comparison, export, and two separate conversations at once."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

from assistant.config import PROJECT_ROOT

pytestmark = pytest.mark.browser
# The README's screenshots are remade only when asked (ASSISTANT_SCREENSHOTS=docs): a test run must
# not rewrite tracked files; otherwise they go to a scratch folder.
DOCS = (PROJECT_ROOT / "docs" if os.environ.get("ASSISTANT_SCREENSHOTS") == "docs"
        else Path(tempfile.gettempdir()) / "assistant-screens")
ANSWER_TIMEOUT = 240_000


def ask(page, question: str) -> str:  # type: ignore[no-untyped-def]
    """Type a question, press Ask, follow the streamed reply; returns the final answer's HTML."""
    bots = page.locator("#chat [data-testid='bot']")
    before = bots.count()
    page.fill("#question textarea", question)
    page.click("#ask")
    page.wait_for_function(f"document.querySelectorAll(\"#chat [data-testid='bot']\").length > {before}",
                           timeout=ANSWER_TIMEOUT)
    seen: list[str] = []
    deadline = time.monotonic() + ANSWER_TIMEOUT / 1000
    while time.monotonic() < deadline:
        html = bots.nth(before).inner_html()
        if not seen or seen[-1] != html:
            seen.append(html)
        done = page.locator("#ask").is_enabled() and "▌" not in html and "…" not in bots.nth(before).inner_text()[:3]
        if done and ("cite" in html or "not answer" in html or "⚠" in html) and "_Searching" not in html:
            page.wait_for_timeout(300)
            return bots.nth(before).inner_html()
        page.wait_for_timeout(100)
    raise AssertionError(f"no final answer; last states: {seen[-3:]}")


def test_cited_answer_and_evidence_on_click(page) -> None:  # type: ignore[no-untyped-def]
    html = ask(page, "How does Lookahead decoding speed up LLM inference?")
    assert 'class="cite"' in html
    page.locator("#chat [data-testid='bot'] a.cite").first.click()
    card = page.locator("#sources-panel .src.focus")
    card.wait_for(timeout=10_000)
    assert card.locator("mark.evidence").count() >= 1
    assert card.locator("mark.evidence").first.is_visible()
    DOCS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS / "chat.png"), full_page=True)


def test_refusal_offers_closest_papers(page) -> None:  # type: ignore[no-untyped-def]
    html = ask(page, "What is the best recipe for sourdough bread?")
    assert "do not answer" in html and "Closest papers" in html
    assert page.locator("#sources-panel .src").count() >= 1


def test_follow_up_who_wrote_it(page) -> None:  # type: ignore[no-untyped-def]
    ask(page, "What is ReadAgent?")
    html = ask(page, "Who wrote it?")
    assert "Kuang-Huei Lee" in html and "Ian Fischer" in html


def test_compare_two_papers_in_chat_and_tab(page) -> None:  # type: ignore[no-untyped-def]
    html = ask(page, "Compare ReadAgent and Lookahead decoding")
    assert "<table" in html and html.count('class="cite"') >= 6
    page.get_by_role("tab", name="Browse & compare").click()
    page.locator("#browse-author").locator("input, textarea").first.fill("Moritz Hardt")
    page.click("#find")
    boxes = page.locator("#picks input[type=checkbox]")
    boxes.first.wait_for(timeout=30_000)
    assert boxes.count() >= 2
    boxes.nth(0).check()
    boxes.nth(1).check()
    page.click("#compare-btn")
    table = page.locator("#compare-table table.compare")
    table.wait_for(timeout=60_000)
    assert table.locator("a.cite").count() >= 6
    page.screenshot(path=str(DOCS / "compare.png"), full_page=True)


def test_export_markdown_has_references(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ask(page, "How does Lookahead decoding speed up LLM inference?")
    page.click("#export")
    link = page.locator("#export-file a").first
    link.wait_for(timeout=30_000)
    with page.expect_download() as info:
        link.click()
    target = tmp_path / "conversation.md"
    info.value.save_as(target)
    text = target.read_text(encoding="utf-8")
    assert "## References" in text and "@inproceedings" in text and "Lookahead" in text


def test_two_conversations_stay_separate(browser, app_url) -> None:  # type: ignore[no-untyped-def]
    pages = []
    for _ in range(2):
        context = browser.new_context()
        p = context.new_page()
        p.goto(app_url)
        p.wait_for_selector("#index-status:has-text('papers')", timeout=180_000)
        pages.append(p)
    a, b = pages
    a.fill("#question textarea", "What is ReadAgent?")
    b.fill("#question textarea", "How can diffusion model sampling be parallelized?")
    a.click("#ask")
    b.click("#ask")
    for p in pages:
        p.wait_for_function("document.querySelectorAll(\"#chat [data-testid='bot'] a.cite\").length > 0",
                            timeout=ANSWER_TIMEOUT)
    assert "diffusion" not in a.locator("#chat").inner_text().lower().split("readagent")[0]
    assert a.locator("#chat [data-testid='user']").all_inner_texts() == ["What is ReadAgent?"]
    assert b.locator("#chat [data-testid='user']").all_inner_texts() == ["How can diffusion model sampling be parallelized?"]
    for p in pages:
        p.context.close()
