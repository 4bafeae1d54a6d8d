"""What the chat shows: escaping, citation links, evidence highlights, export."""

from __future__ import annotations

from assistant import present
from assistant.present import answer_html, bibtex, conversation_markdown, highlighted_abstract, sources_html

CITATION = {"n": 1, "paper_id": "33512", "title": "Lookahead <b>Decoding</b>", "authors": ["Yichao Fu", "Hao Zhang"],
            "area": "Deep Learning", "url": "https://ICML.cc/virtual/2024/poster/33512",
            "abstract": "LLM decoding is slow. Lookahead decoding speeds it up by 1.8x. <script>alert(1)</script>",
            "evidence": ["Lookahead decoding speeds it up by 1.8x."], "evidence_spans": [[22, 62]]}


def answer(text: str, **extra) -> dict:
    return {"answer": text, "citations": [CITATION], "refused": False, "mode": "generated", "passages": [], **extra}


def test_known_markers_become_links_and_unknown_ones_vanish() -> None:
    out = answer_html(answer("It speeds decoding up by 1.8x [1]. Fake claim [7]."))
    assert 'href="#src-1"' in out and 'data-cite="1"' in out
    assert "[7]" not in out and "src-7" not in out


def test_document_html_and_fake_markdown_links_are_escaped() -> None:
    out = answer_html(answer("<script>alert(1)</script> see [this](javascript:alert(1)) [1]"))
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert "](javascript" not in out  # the markdown link syntax is neutralised


def test_sources_panel_highlights_evidence_and_escapes() -> None:
    html = sources_html(answer("x [1]"))
    assert 'id="src-1"' in html
    assert '<mark class="evidence">Lookahead decoding speeds it up by 1.8x.</mark>' in html
    assert "<script>" not in html and "<b>" not in html
    assert highlighted_abstract("a<b", [[0, 1]]) == '<mark class="evidence">a</mark>&lt;b'


def test_refusal_shows_suggestions() -> None:
    data = {"answer": "No paper answers this.", "refused": True, "citations": [], "mode": "refusal",
            "suggestions": [{"paper_id": "1", "title": "Closest One", "url": ""}],
            "passages": [{"paper_id": "1", "title": "Closest One", "authors": [], "abstract": "Text."}]}
    assert "Closest One" in answer_html(data)
    assert "closest papers" in sources_html(data) and "Closest One" in sources_html(data)


def test_export_has_references_and_bibtex() -> None:
    turns = [{"question": "How fast?", "answer": answer("It is 1.8x faster [1].")},
             {"question": "Who wrote it?", "answer": answer("Written by Yichao Fu and Hao Zhang [1].")}]
    md = conversation_markdown(turns)
    assert "**Q:** How fast?" in md and "It is 1.8x faster [1]." in md
    assert "## References" in md and md.count("[1] Lookahead <b>Decoding</b>") == 1
    assert "@inproceedings{fu2024lookahead" in md and "author = {Yichao Fu and Hao Zhang}" in md
    assert bibtex(CITATION).startswith("@inproceedings{")


def test_comparison_table_scrolls_in_its_own_focusable_box() -> None:
    answer = {"mode": "comparison", "answer": "| x |", "citations": [{"n": 1}, {"n": 2}],
              "table": [{"n": n, "title": f"P{n}", "problem": "p", "method": "m", "results": "r"} for n in (1, 2)]}
    html = present.answer_html(answer, 0)
    assert '<div class="table-scroll" role="region" aria-label="Comparison table" tabindex="0"><table class="compare">' in html


def test_a_stopped_draft_is_marked_and_a_status_line_dropped() -> None:
    assert present.stopped("We propose &lt;b&gt; ▌").endswith("\n\nWe propose &lt;b&gt;")
    assert present.stopped("_Searching the papers…_") == f'<div class="stopped">{present.STOPPED_NOTE}</div>'
