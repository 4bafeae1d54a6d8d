"""Recognise questions that are answered from metadata or by comparison, not by free generation."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Sequence

from assistant.lexical import tokenize
from assistant.store import StoredPaper

_WHO_WROTE = re.compile(
    r"\b(who (?:wrote|authored|is behind|made|did)|who (?:are|were|is|was) (?:the |its |their )?authors?|"
    r"(?:the )?authors? (?:of|behind)|who are they|name the authors|list the authors|by whom)\b", re.I)
_AUTHORS_WORD = re.compile(r"\bauthors?\b|\bwho\b", re.I)
# A comparison question: "compare X and Y", "how do X and Y differ", "difference between X and Y", "X vs Y".
COMPARE = re.compile(
    r"^\W*(?:please\s+)?(?:can you\s+)?(?:compare|contrast)\b|"
    r"\b(?:how|in what ways?)\s+(?:do|does|did|is|are)\b.{0,120}\b(?:differ|compare)\b|"
    r"\bdifferences?\s+between\b|"
    r"^(?!\s*(?:how|what|which|who|when|where|why|is|are|does|do|did)\b)[^?]{1,60}?\s(?:vs\.?|versus)\s", re.I)
_COMPARE_SPLIT = re.compile(r"\s+(?:and|vs\.?|versus|with|to|against)\s+|\s*,\s*", re.I)
_COMPARE_LEAD = re.compile(r"^(?:please\s+)?(?:can you\s+)?(?:compare|contrast|(?:how|in what ways?) (?:do|does|did|is|are)|"
                           r"what(?:'s| is| are) the differences? between|what distinguishes|differences? between)\s+", re.I)
_COMPARE_CUT = re.compile(r"\s*[:?;—]|\s+(?:differ|compare|in how|in terms of|in the way|when it comes to|regarding|"
                          r"with respect to|as (?:ways?|approaches|methods))\b", re.I)
_AREA_ASK = re.compile(r"\b(which|what|any|list|show)\b.{0,20}\b(papers?|research|work|anything|studies)\b|"
                       r"\bwhat is there\b|\bareas?\b", re.I)
_QUESTION_WORDS = set(tokenize("which what any list show there papers paper deal dealing apply applying use using "
                               "about related focus focused tell me give"))
# Words of area labels that say nothing about the topic on their own.
_GENERIC_AREA_WORDS = set(tokenize("learning machine deep models other everything else general techniques aspects "
                                   "miscellaneous applications statistics methods theory optimization"))


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
    if COMPARE.search(question):
        targets = compare_targets(question)
        if len(targets) >= 2:
            return Intent("compare", targets=targets)
    named = _known_authors(folded, papers)
    if named and not re.search(r"\bwho\b", question, re.I):
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
    body = _COMPARE_CUT.split(body, maxsplit=1)[0]
    body = re.sub(r"^(?:the )?(?:papers?|methods?)\s+", "", body, flags=re.I)
    parts = [p.strip(" ?.,") for p in _COMPARE_SPLIT.split(body) if p and p.strip(" ?.,")]
    parts = [re.sub(r"^(?:the|a|an)\s+", "", p, flags=re.I) for p in parts]
    return [p for p in parts if len(p) >= 2][:4]


@dataclass
class _Names:
    """Author names (folded -> as written) and area labels known to an index snapshot."""

    authors: dict[str, str]
    longest: int  # most words in one author name
    areas: dict[str, str]
    area_words: dict[str, set[str]]  # stemmed telling word -> area segments that contain it


_NAMES_CACHE: dict[int, tuple[Sequence[StoredPaper], _Names]] = {}


def _names(papers: Sequence[StoredPaper]) -> _Names:
    """Built once per snapshot (the snapshot list is replaced, never mutated, when the index changes)."""
    cached = _NAMES_CACHE.get(id(papers))
    if cached is not None and cached[0] is papers:
        return cached[1]
    authors: dict[str, str] = {}
    areas: dict[str, str] = {}
    area_words: dict[str, set[str]] = {}
    for stored in papers:
        for author in stored.paper.authors:
            folded = " ".join(re.findall(r"\w+", fold(author)))
            if len(folded) > 4 and " " in folded:
                authors.setdefault(folded, author)
        for segment in stored.paper.area.split("·") if stored.paper.area else []:
            if len(segment.strip()) > 3:
                areas.setdefault(" ".join(re.findall(r"\w+", fold(segment))), segment.strip())
                for word in set(tokenize(segment)) - _GENERIC_AREA_WORDS:
                    area_words.setdefault(word, set()).add(segment.strip())
    names = _Names(authors, max((k.count(" ") + 1 for k in authors), default=0), areas, area_words)
    _NAMES_CACHE.clear()  # only the live snapshot matters
    _NAMES_CACHE[id(papers)] = (papers, names)
    return names


def _phrases(folded_question: str, longest: int) -> list[str]:
    words = re.findall(r"\w+", folded_question)
    return [" ".join(words[i:i + n]) for n in range(longest, 0, -1) for i in range(len(words) - n + 1)]


def _known_authors(folded_question: str, papers: Sequence[StoredPaper]) -> list[str]:
    names = _names(papers)
    found = [names.authors[p] for p in _phrases(folded_question, names.longest) if p in names.authors]
    return list(dict.fromkeys(found))


def _known_area(folded_question: str, papers: Sequence[StoredPaper]) -> str:
    """The subject area the question asks about: a label named in full, else the label sharing
    the most telling words with the question ("privacy" -> "Privacy-preserving Statistics ...")."""
    names = _names(papers)
    longest = max((k.count(" ") + 1 for k in names.areas), default=0)
    matches = [names.areas[p] for p in _phrases(folded_question, longest) if p in names.areas]
    matches = [m for m in matches if set(tokenize(m)) - _GENERIC_AREA_WORDS] or matches  # "Physics" over "Deep Learning"
    if matches and (len(matches) == 1 or set(tokenize(matches[0])) - _GENERIC_AREA_WORDS):
        return max(matches, key=len)
    words = set(tokenize(folded_question)) - _QUESTION_WORDS
    votes: dict[str, int] = {}
    for word in words:
        for segment in names.area_words.get(word, ()):
            votes[segment] = votes.get(segment, 0) + 1
    if not votes:
        return ""
    best = max(votes, key=lambda seg: (votes[seg], -len(seg)))
    # Most of what the question is about must be the area, not one shared word ("language" in an RLHF question).
    return best if votes[best] / len(words) >= 0.3 else ""
