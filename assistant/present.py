"""How answers look: chat HTML with clickable [n], the Sources panel, the trace, Markdown export, BibTeX.

Pure functions over ``Answer.to_dict()`` data. Everything taken from documents is escaped:
a title or abstract can hold HTML, script tags or markdown that imitates a citation.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable
from functools import partial
from typing import Any

_MARK = re.compile(r"\[(\d+)\]")


def _anchor(n: int, turn: int | None) -> str:
    """The id of source card ``n`` (of answer ``turn`` when the panel holds several answers)."""
    return f"src-{n}" if turn is None else f"src-{turn}-{n}"


def _cite_link(n: int, turn: int | None = None) -> str:
    return f'<a href="#{_anchor(n, turn)}" class="cite" data-cite="{n}" title="show source {n}">[{n}]</a>'


def escape_md(text: str) -> str:
    """Escape HTML and the markdown characters that could build links or emphasis."""
    return re.sub(r"([\\`*_{}\[\]()#+!|~])", r"\\\1", html.escape(text, quote=False))


def _linked(text: str, known: set[int], turn: int | None) -> str:
    """Escaped text with our own [n] markers turned into source links; other keys vanish."""
    pieces, pos = [], 0
    for match in _MARK.finditer(text):
        pieces.append(escape_md(text[pos : match.start()]))
        n = int(match.group(1))
        pieces.append(_cite_link(n, turn) if n in known else "")  # a key we did not produce is never shown
        pos = match.end()
    pieces.append(escape_md(text[pos:]))
    return "".join(pieces)


def answer_html(answer: dict[str, Any], turn: int | None = None) -> str:
    """The answer for the chat: escaped text, our own [n] markers turned into source links, one line
    per paper for list answers. ``turn``: the answer's place in the conversation, so a click on it
    shows its own sources."""
    known = {c["n"] for c in answer.get("citations", [])}
    if answer.get("mode") == "comparison" and answer.get("table"):
        body = comparison_html(answer, turn)
    else:
        lines = answer["answer"].split("\n")
        if len(lines) > 1 and all(line.startswith("- ") for line in lines):
            body = "<ul>" + "".join(f"<li>{_linked(line[2:], known, turn)}</li>" for line in lines) + "</ul>"
        else:
            body = "<br>".join(_linked(line, known, turn) for line in lines)
    parts = [body]
    if answer.get("notice"):
        parts.append(f"<br><small>Note: {html.escape(answer['notice'])}</small>")
    if answer.get("refused") and answer.get("suggestions"):
        items = "".join(f"<li>{html.escape(s['title'])}</li>" for s in answer["suggestions"])
        parts.append(f"<br><small>Closest papers (see Sources):</small><ul>{items}</ul>")
    label = f" turn-{turn}" if turn is not None else ""
    return f'<div class="answer{label}">' + "".join(parts) + "</div>"


def comparison_html(answer: dict[str, Any], turn: int | None = None) -> str:
    """A comparison: the sentences stating how the papers differ, then the table; each cell ends with
    its citation link."""
    known = {c["n"] for c in answer.get("citations", [])}
    prose = answer["answer"].split("\n\n|", 1)[0] if not answer["answer"].startswith("|") else ""
    rows = answer["table"]
    head = "".join(f"<th>{_cite_link(r['n'], turn)} {html.escape(r['title'])}</th>" for r in rows)
    body = "".join(
        f"<tr><th>{aspect}</th>"
        + "".join(f"<td>{html.escape(r[aspect])} {_cite_link(r['n'], turn)}</td>" for r in rows)
        + "</tr>"
        for aspect in ("problem", "method", "results")
    )
    summary = f'<p class="differences">{_linked(prose, known, turn)}</p>' if prose.strip() else ""
    # The table scrolls sideways inside its own box rather than squeezing words apart; the box takes
    # keyboard focus so that it can be scrolled without a mouse.
    return (
        f'{summary}<div class="table-scroll" role="region" aria-label="Comparison table" tabindex="0">'
        f'<table class="compare"><thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table></div>'
    )


STOPPED_NOTE = "⏹ Stopped: this answer was not finished and not checked against the papers."


def stopped(partial: str) -> str:
    """A partial reply the user stopped, marked so that it is not read as a checked answer: the note,
    then the unchecked draft (already escaped markdown) without its typing cursor, if any was written."""
    draft = partial.removesuffix(" ▌").strip()
    writing = draft and draft != "…" and not (draft.startswith("_") and draft.endswith("_"))  # a status line
    body = f"\n\n{draft}" if writing else ""
    return f'<div class="stopped">{html.escape(STOPPED_NOTE)}</div>{body}'


def highlighted_abstract(abstract: str, spans: Iterable[Iterable[int]]) -> str:
    """The abstract, escaped, with the evidence spans wrapped in <mark>."""
    out, pos = [], 0
    for start, end in sorted((int(s), int(e)) for s, e in spans):
        if start < pos or end > len(abstract):
            continue
        out.append(html.escape(abstract[pos:start]))
        out.append(f'<mark class="evidence">{html.escape(abstract[start:end])}</mark>')
        pos = end
    out.append(html.escape(abstract[pos:]))
    return "".join(out)


def _card(n: int | None, paper: dict[str, Any], spans: Iterable[Iterable[int]], turn: int | None = None) -> str:
    anchor = f' id="{_anchor(n, turn)}"' if n is not None else ""
    label = f"[{n}] " if n is not None else ""
    url = paper.get("url") or ""
    title = html.escape(paper.get("title") or "Untitled")
    link = (
        f'<a href="{html.escape(url)}" target="_blank" rel="noopener">{title}</a>' if url.startswith("http") else title
    )
    authors = html.escape(", ".join(paper.get("authors") or []) or "authors not listed")
    area = f'<div class="src-area">{html.escape(paper["area"])}</div>' if paper.get("area") else ""
    return (
        f'<div class="src"{anchor} data-paper="{html.escape(paper.get("paper_id", ""))}">'
        f'<div class="src-title">{label}{link}</div><div class="src-authors">{authors}</div>{area}'
        f'<p class="src-abstract">{highlighted_abstract(paper.get("abstract", ""), spans)}</p></div>'
    )


def sources_html(answer: dict[str, Any] | None, turn: int | None = None) -> str:
    """The Sources panel for one answer: cited papers with evidence highlighted, or suggestions."""
    if not answer:
        return '<div class="sources-empty">Cited papers appear here, with the supporting sentences highlighted.</div>'
    if answer.get("refused"):
        cards = "".join(_card(None, p, []) for p in answer.get("passages", [])[:3])
        return (
            f'<div class="sources"><div class="sources-note">No paper answers this; closest papers:</div>{cards}</div>'
        )
    cards = "".join(_card(c["n"], c, c.get("evidence_spans", []), turn) for c in answer.get("citations", []))
    return f'<div class="sources">{cards}</div>'


def sources_panel(turns: list[dict[str, Any]]) -> str:
    """The Sources panel for a conversation: each answer's sources, the last one shown; a click on an
    earlier answer (or one of its [n]) shows that answer's sources instead."""
    if not turns:
        return sources_html(None)
    blocks = []
    for k, turn in enumerate(turns):
        hidden = "" if k == len(turns) - 1 else ' style="display:none"'
        blocks.append(f'<div class="turn-sources turn-src-{k}"{hidden}>{sources_html(turn["answer"], k)}</div>')
    return "".join(blocks)


def trace(answer: dict[str, Any]) -> dict[str, Any]:
    """What happened for one answer: rewrite, passages with scores, checker verdicts, timings."""
    return {
        "rewritten_query": answer.get("rewritten_query"),
        "mode": answer.get("mode"),
        "passages": [
            {
                "rank": p["rank"],
                "paper_id": p["paper_id"],
                "title": p["title"],
                "score": p["score"],
                "dense": p["dense_score"],
                "bm25": p["lexical_score"],
            }
            for p in answer.get("passages", [])
        ],
        "draft": answer.get("draft", ""),
        "sentences": [
            {"action": v["action"], "reason": v["reason"], "text": v["text"]} for v in answer.get("trace", [])
        ],
        "timings_ms": answer.get("timings_ms", {}),
    }


def bibtex(citation: dict[str, Any]) -> str:
    """A BibTeX entry for a cited paper."""
    authors = citation.get("authors") or []
    first = authors[0].split()[-1] if authors else "anon"
    title_word = next((w for w in re.findall(r"[A-Za-z]+", citation.get("title", "")) if len(w) > 3), "paper")
    key = unicodedata.normalize("NFKD", f"{first}2024{title_word}").encode("ascii", "ignore").decode().lower()
    fields = [
        ("title", citation.get("title", "")),
        ("author", " and ".join(authors)),
        ("booktitle", "Proceedings of the 41st International Conference on Machine Learning (ICML)"),
        ("year", "2024"),
        ("url", citation.get("url", "")),
    ]
    body = ",\n".join(f"  {k} = {{{v.replace('{', '').replace('}', '')}}}" for k, v in fields if v)
    return f"@inproceedings{{{key},\n{body}\n}}"


def _renumbered(numbers: dict[int, int], marker: re.Match[str]) -> str:
    """A citation marker [n] with the conversation-wide number of its paper (unknown ones kept)."""
    n = int(marker.group(1))
    return f"[{numbers[n]}]" if n in numbers else marker.group(0)


def conversation_markdown(turns: list[dict[str, Any]]) -> str:
    """The conversation as Markdown, with one reference list and BibTeX for every cited paper."""
    lines = ["# Conversation", ""]
    refs: dict[str, dict[str, Any]] = {}
    for turn in turns:
        answer = turn["answer"]
        lines += [f"**Q:** {turn['question']}", ""]
        local: dict[int, int] = {}
        for c in answer.get("citations", []):
            refs.setdefault(c["paper_id"], c)
            local[c["n"]] = list(refs).index(c["paper_id"]) + 1
        text = _MARK.sub(partial(_renumbered, local), answer["answer"])
        lines += [f"**A:** {text}", ""]
    if refs:
        lines += ["## References", ""]
        lines += [
            f"[{i}] {c['title']}. {', '.join(c.get('authors') or [])}. ICML 2024. {c.get('url', '')}".rstrip()
            for i, c in enumerate(refs.values(), 1)
        ]
        lines += ["", "## BibTeX", "", "```bibtex", "\n\n".join(bibtex(c) for c in refs.values()), "```", ""]
    return "\n".join(lines)
