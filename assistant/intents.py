"""Recognise questions that are answered from metadata or by comparison, not by free generation."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Sequence

from assistant.store import StoredPaper

_WHO_WROTE = re.compile(
    r"\b(who (?:wrote|authored|are the authors|were the authors|is the author|was the author|is behind|made|did)|"
    r"(?:the )?authors? (?:of|behind)|who are they|name the authors|list the authors|by whom)\b", re.I)
_AUTHORS_WORD = re.compile(r"\bauthors?\b|\bwho\b", re.I)
_COMPARE = re.compile(r"\b(compare|comparison|contrast|differ|difference|differences|versus|vs\.?)\b", re.I)
_AREA_ASK = re.compile(r"\b(papers?|work|works|research|anything)\b.*\b(about|on|in|under|related to)\b|\barea\b", re.I)
_COMPARE_SPLIT = re.compile(r"\s+(?:and|vs\.?|versus|with|to|against)\s+|\s*,\s*", re.I)
_COMPARE_LEAD = re.compile(r"^(?:please\s+)?(?:can you\s+)?(?:compare|contrast|how (?:do|does)|what(?:'s| is| are) the "
                           r"differences? between|what distinguishes|differences? between)\s+", re.I)
_COMPARE_TAIL = re.compile(r"\s+(?:differ|compare|in terms of.*|\?)\s*\??$|[?.!]+$", re.I)


def fold(text: str) -> str:
    """Lower-case, accent-free text for name matching."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


@dataclass
class Intent:
    """What kind of question this is and what it names."""

    kind: str  # authors_of | papers_by | area | compare | open
    authors: list[str] = field(default_factory=list)
    area: str = ""
    targets: list[str] = field(default_factory=list)  # for compare: the things named


def detect(question: str, papers: Sequence[StoredPaper]) -> Intent:
    """Classify ``question`` using the names and areas the index knows."""
    folded = fold(question)
    if _COMPARE.search(question):
        targets = compare_targets(question)
        if len(targets) >= 2:
            return Intent("compare", targets=targets)
    named = _known_authors(folded, papers)
    if named and not _WHO_WROTE.search(question):
        return Intent("papers_by", authors=named)
    if _WHO_WROTE.search(question) or (_AUTHORS_WORD.search(question) and len(question.split()) <= 6):
        return Intent("authors_of")
    area = _known_area(folded, papers) if _AREA_ASK.search(question) else ""
    if area:
        return Intent("area", area=area)
    return Intent("open")


def compare_targets(question: str) -> list[str]:
    """The two to four things a comparison question names ("compare X and Y" -> [X, Y])."""
    body = _COMPARE_LEAD.sub("", question.strip())
    body = re.sub(r"^(?:the )?(?:papers?|methods?)\s+", "", body, flags=re.I)
    body = _COMPARE_TAIL.sub("", body).strip(" ?.")
    body = re.sub(r"\s+(?:differ|compare)\b.*$", "", body, flags=re.I)
    parts = [p.strip(" ?.,") for p in _COMPARE_SPLIT.split(body) if p and p.strip(" ?.,")]
    parts = [re.sub(r"^(?:the|a|an)\s+", "", p, flags=re.I) for p in parts]
    return [p for p in parts if len(p) >= 2][:4]


def _known_authors(folded_question: str, papers: Sequence[StoredPaper]) -> list[str]:
    found: dict[str, None] = {}
    for stored in papers:
        for author in stored.paper.authors:
            name = fold(author)
            if len(name) > 4 and " " in name and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", folded_question):
                found[author] = None
    return list(found)


def _known_area(folded_question: str, papers: Sequence[StoredPaper]) -> str:
    """The most specific subject area (or area segment) named in the question."""
    candidates: set[str] = set()
    for stored in papers:
        if stored.paper.area:
            candidates.update(seg.strip() for seg in stored.paper.area.split("·"))
    matches = [c for c in candidates if len(c) > 3 and re.search(rf"(?<!\w){re.escape(fold(c))}(?!\w)", folded_question)]
    return max(matches, key=len) if matches else ""
