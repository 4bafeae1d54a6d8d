"""The chat at phone, tablet and desktop widths: nothing in the Sources panel is covered, the page
never scrolls sideways, comparison tables keep words whole (they scroll inside the message), Stop ends
an answer, a reload brings the conversation back; axe-core finds no serious accessibility problem and
citations work from the keyboard."""

from __future__ import annotations

import time

import pytest

from tests.browser.test_chat import ANSWER_TIMEOUT, DOCS, ask

pytestmark = pytest.mark.browser
WIDTHS = (390, 1024, 1400)
COMPARE = "Compare ReadAgent and Lookahead decoding"

# Words of each cell drawn on more than one line (a word broken in the middle; a break after the
# hyphen of a compound such as Multi-Task is ordinary typesetting).
BROKEN_WORDS = """(selector) => {
  const broken = [];
  document.querySelectorAll(selector).forEach((cell) => {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[^\\s-]+/g)) {  // a line may end at a hyphen, as in print
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  });
  return broken;
}"""

# Elements of the Sources panel whose corners or centre are drawn under something outside the panel.
COVERED = """(selector) => {
  const panel = document.querySelector(selector);
  const covered = [];
  panel.querySelectorAll('.src, .src *').forEach((el) => {
    if (el.closest('.turn-sources') && el.closest('.turn-sources').style.display === 'none') return;
    el.scrollIntoView({block: 'center'});
    const r = el.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) return;
    const panelBox = panel.getBoundingClientRect();
    const points = [[r.left + 2, r.top + 2], [r.right - 2, r.top + 2], [r.left + 2, r.bottom - 2],
                    [r.right - 2, r.bottom - 2], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
    for (const [x, y] of points) {
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      if (y < panelBox.top || y > panelBox.bottom) continue;  // scrolled out of the panel's own box
      const top = document.elementFromPoint(x, y);
      if (top && !panel.contains(top)) { covered.push(`${el.className || el.tagName} under ${top.id || top.className || top.tagName}`); break; }
    }
  });
  return covered;
}"""

SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def open_at(browser, app_url: str, width: int):  # type: ignore[no-untyped-def]
    """A fresh page of the app at ``width`` pixels, ready once the models are loaded."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(app_url)
    page.wait_for_selector("#index-status:has-text('papers')", timeout=180_000)
    return page


def compare_in_tab(page) -> None:  # type: ignore[no-untyped-def]
    """Compare two of Moritz Hardt's papers in the Browse & compare tab."""
    page.get_by_role("tab", name="Browse & compare").click()
    page.locator("#browse-author").locator("input, textarea").first.fill("Moritz Hardt")
    page.click("#find")
    boxes = page.locator("#picks input[type=checkbox]")
    boxes.first.wait_for(timeout=30_000)
    boxes.nth(0).check()
    boxes.nth(1).check()
    page.click("#compare-btn")
    page.locator("#compare-table table.compare").wait_for(timeout=60_000)


@pytest.mark.parametrize("width", WIDTHS)
def test_layout_at_width(browser, app_url, width: int) -> None:  # type: ignore[no-untyped-def]
    page = open_at(browser, app_url, width)
    html = ask(page, COMPARE)
    assert "table-scroll" in html
    assert page.evaluate(BROKEN_WORDS, "#chat table.compare th, #chat table.compare td") == []
    assert page.evaluate(SIDEWAYS) == 0
    assert page.evaluate(COVERED, "#sources-panel") == []
    page.evaluate("window.scrollTo(0, 0); document.querySelector('#sources-panel').scrollTop = 0")
    DOCS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS / f"chat-{width}.png"), full_page=True)
    compare_in_tab(page)
    assert page.evaluate(BROKEN_WORDS, "#compare-table table.compare th, #compare-table table.compare td") == []
    assert page.evaluate(SIDEWAYS) == 0
    page.context.close()


def wait_until_writing(bot) -> None:  # type: ignore[no-untyped-def]
    """Wait until the model's draft is being streamed into ``bot`` (its typing cursor shows)."""
    deadline, seen = time.monotonic() + ANSWER_TIMEOUT / 1000, ""
    while time.monotonic() < deadline:
        seen = bot.inner_text()
        if "▌" in seen:
            return
        assert 'class="answer' not in bot.inner_html(), f"finished before it could be stopped: {seen[:200]}"
        time.sleep(0.05)
    raise AssertionError(f"no draft was streamed; last: {seen[:200]}")


def test_stop_ends_the_answer_and_the_next_is_answered(page) -> None:  # type: ignore[no-untyped-def]
    bots = page.locator("#chat [data-testid='bot']")
    # The page's /cancel request returns once the server has cancelled the answer and closed its generator.
    cancelled: list[float] = []
    page.on("requestfinished", lambda r: cancelled.append(time.monotonic()) if r.url.endswith("/cancel") else None)
    page.fill("#question textarea", "How does Lookahead decoding speed up LLM inference?")
    page.click("#ask")
    bots.first.wait_for(timeout=ANSWER_TIMEOUT)
    wait_until_writing(bots.first)
    started = time.monotonic()
    page.click("#stop")
    page.locator("#chat [data-testid='bot'] .stopped").wait_for(timeout=5_000)
    took = time.monotonic() - started
    assert took < 2, f"Stop took {took:.1f} s to show"
    while not cancelled and time.monotonic() - started < 5:
        page.wait_for_timeout(50)
    assert cancelled and cancelled[0] - started < 2, "the server did not end the answer within 2 s"
    text = bots.first.inner_text()
    assert "not checked" in text and "▌" not in text and bots.first.locator("a.cite").count() == 0
    page.wait_for_timeout(1_000)  # nothing more arrives for the stopped answer
    assert "▌" not in bots.first.inner_text(), "the stopped answer went on streaming"
    assert bots.first.locator(".answer").count() == 0, "the stopped answer was finished after all"
    html = ask(page, "Which papers did Moritz Hardt write?")
    assert 'class="cite"' in html
    # Kept as one conversation, the stopped reply still marked after a reload.
    page.wait_for_timeout(500)
    page.reload()
    page.locator("#chat [data-testid='bot'] .stopped").wait_for(timeout=30_000)
    page.locator("#chat [data-testid='bot'] a.cite").first.wait_for(timeout=10_000)
    assert page.locator("#history label").count() == 1


def test_reload_restores_the_conversation(page) -> None:  # type: ignore[no-untyped-def]
    question = "Which papers did Moritz Hardt write?"
    ask(page, question)
    page.locator("#history label:has-text('Moritz Hardt')").wait_for(timeout=10_000)
    page.reload()
    page.wait_for_selector("#index-status:has-text('papers')", timeout=180_000)
    page.locator("#chat [data-testid='bot'] a.cite").first.wait_for(timeout=10_000)
    assert page.locator("#chat [data-testid='user']").all_inner_texts() == [question]
    assert page.locator("#sources-panel .src").count() >= 1
    page.click("#new-chat")
    page.wait_for_function("document.querySelectorAll(\"#chat [data-testid='user']\").length === 0")
    page.locator("#history label:has-text('Moritz Hardt')").click()
    page.locator("#chat [data-testid='bot'] a.cite").first.wait_for(timeout=10_000)
    assert page.locator("#chat [data-testid='user']").all_inner_texts() == [question]


def serious_violations(page) -> list[str]:  # type: ignore[no-untyped-def]
    """axe-core's serious and critical findings on the page as it is now (axe.min.js comes with the
    Python package and is injected into the page: nothing is fetched)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


# axe-core's rules that every form control, button and link has a name a screen reader can say.
LABEL_RULES = {"label", "button-name", "select-name", "aria-input-field-name", "aria-toggle-field-name",
               "link-name", "input-button-name", "aria-command-name"}


def unlabelled_controls(page) -> list[str]:  # type: ignore[no-untyped-def]
    """Controls without a label, whatever axe-core rates the finding."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "rule", "values": sorted(LABEL_RULES)}})
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}" for v in results.response["violations"]]


def test_accessibility_of_chat_and_compare(page) -> None:  # type: ignore[no-untyped-def]
    ask(page, COMPARE)
    assert serious_violations(page) == []
    assert unlabelled_controls(page) == []
    compare_in_tab(page)
    assert serious_violations(page) == []
    assert unlabelled_controls(page) == []


def test_citations_work_from_the_keyboard(page) -> None:  # type: ignore[no-untyped-def]
    ask(page, "How does Lookahead decoding speed up LLM inference?")
    page.focus("#question textarea")
    for _ in range(60):  # back through the chat's controls to the answer's first [n]
        page.keyboard.press("Shift+Tab")
        if page.evaluate("document.activeElement.matches('a.cite')"):
            break
    else:
        raise AssertionError("no citation is reachable with Tab")
    target = page.evaluate("document.activeElement.getAttribute('href')").lstrip("#")
    page.keyboard.press("Enter")
    card = page.locator(f"#sources-panel #{target}.focus")
    card.wait_for(timeout=10_000)
    assert page.evaluate("document.activeElement.id") == target
    assert card.locator("mark.evidence").first.is_visible()
