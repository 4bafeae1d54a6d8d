"""A conversation about several papers in a real browser: a list, a follow-up by position, then a
comparison of the first two, both cited, each citation opening its highlighted evidence; a click on
an earlier answer brings back that answer's sources."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_chat import ask

pytestmark = pytest.mark.browser


def test_three_turns_ending_in_a_comparison(page) -> None:  # type: ignore[no-untyped-def]
    listed = ask(page, "Which papers are about LLM agents?")
    titles = re.findall(r"<li>“([^”]+)”", listed)
    assert len(titles) >= 2 and listed.count('class="cite"') >= len(titles)

    second = ask(page, "Tell me more about the second one")
    assert titles[1] in second and titles[0] not in second

    compared = ask(page, "Compare the first two.")
    assert "<table" in compared and 'class="differences"' in compared
    assert titles[0] in compared and titles[1] in compared
    bot = page.locator("#chat [data-testid='bot']").last
    for n in (1, 2):
        bot.locator(f"p.differences a.cite[href='#src-2-{n}']").first.click()
        card = page.locator("#sources-panel .src.focus")
        card.wait_for(timeout=10_000)
        assert card.get_attribute("id") == f"src-2-{n}"
        assert card.locator("mark.evidence").count() >= 1 and card.locator("mark.evidence").first.is_visible()

    # The Sources panel follows the answer clicked: the list's sources come back.
    page.locator("#chat [data-testid='bot']").first.locator(".answer").click(position={"x": 5, "y": 5})
    visible = page.locator("#sources-panel .turn-src-0")
    visible.wait_for(state="visible", timeout=10_000)
    assert page.locator("#sources-panel .turn-src-2").is_hidden()
    assert visible.locator(".src").count() == len(titles)
