"""Sentence splitting with character offsets, shared by chunking and citation checks."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Abbreviations after which a period does not end a sentence.
_ABBREVIATIONS = {
    "e.g",
    "i.e",
    "et al",
    "etc",
    "vs",
    "cf",
    "a.k.a",
    "fig",
    "eq",
    "sec",
    "approx",
    "resp",
    "dr",
    "mr",
    "ms",
    "prof",
    "vol",
    "w.r.t",
    "incl",
}
# A candidate boundary: sentence punctuation (maybe closed by a quote/bracket) then space.
_BOUNDARY = re.compile(r"[.!?][\"')\]*”’]*\s+")  # "... question?* This paper": markdown emphasis closes too


@dataclass(frozen=True)
class Sentence:
    """A sentence and where it sits in its source text."""

    text: str
    start: int
    end: int


def _ends_with_abbreviation(prefix: str) -> bool:
    tail = prefix.rstrip(".!?\"')]*”’").lower()
    for abbr in _ABBREVIATIONS:
        if tail.endswith(abbr) and (len(tail) == len(abbr) or not tail[-len(abbr) - 1].isalnum()):
            return True
    # A single capital initial ("J. Smith") is not a sentence end either.
    return bool(re.search(r"(?:^|\s)[A-Z]$", tail))


def split_sentences(text: str) -> list[Sentence]:
    """Split ``text`` into sentences; offsets index into ``text`` exactly."""
    sentences: list[Sentence] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        end = match.start() + len(match.group(0).rstrip())
        following = text[match.end() : match.end() + 1]
        # Only split before something that can open a sentence.
        if following and not (following.isupper() or following.isdigit() or following in "$\\([\"'"):
            continue
        if _ends_with_abbreviation(text[start:end]):
            continue
        _append(sentences, text, start, end)
        start = match.end()
    _append(sentences, text, start, len(text))
    return sentences


def _append(out: list[Sentence], text: str, start: int, end: int) -> None:
    # Trim whitespace but keep offsets pointing at the trimmed span.
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        out.append(Sentence(text[start:end], start, end))
