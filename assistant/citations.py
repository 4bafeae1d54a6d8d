"""Check a drafted answer sentence by sentence against the passages it may cite.

The model never has the last word. Each draft sentence is kept only when an abstract that
retrieval returned supports it: most of its content words occur in that abstract, and every
number and every named method in it occurs there verbatim. Citations pointing at the wrong
source are moved to the right one, unknown keys are removed, unsupported sentences dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from assistant.lexical import tokenize
from assistant.retrieval import Hit
from assistant.sentences import Sentence, split_sentences

MIN_COVERAGE = 0.6  # share of a sentence's content words that its source must contain
MIN_CONTENT_WORDS = 2  # shorter fragments ("Yes.") carry no checkable claim
_MARKER = re.compile(r"\s*\[(\s*(?:S|source\s*)?\d+(?:\s*[,;]\s*(?:S|source\s*)?\d+)*\s*)\]", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?:\s?%|x|×|[KMB]\b)?", re.IGNORECASE)
_NAMED = re.compile(r"\b(?:[A-Za-z]*[A-Z][a-z]*[A-Z][\w-]*|[A-Za-z]+-[A-Za-z0-9-]*\d[\w-]*|[A-Z]{2,}[\w-]*)\b")
_FILLER = re.compile(r"^(?:sure|certainly|of course|here is|here's|based on the (?:passages|sources|abstracts))\b", re.I)
# Lead-ins that carry no claim; the rest of the sentence is checked on its own.
_LEAD_IN = re.compile(r"^(?:(?:the|my) answer(?: to (?:this|your|the) question)? is(?: that)?:?\s*|yes,\s*|"
                      r"according to (?:the )?(?:source|abstract|paper)s?(?: \[\d+\])?,\s*)", re.I)
# "Our code is available at https://..." is supported by its abstract but answers nothing, unless
# the question asks where code or data are.
_POINTER = re.compile(r"https?://|www\.|\bgithub\b|\b(?:code|implementation|models?|data(?:sets?)?|weights|benchmarks?)\b"
                      r"[^.]{0,60}?\b(?:available|released|open[- ]sourced?)(?:\s+(?:at|on|from|online|here|upon)\b|\s*[.:]?\s*$)",
                      re.I)
ASKS_FOR_POINTERS = re.compile(r"\b(?:code|github|implementation|repo(?:sitory)?|available|releases?d?|download|link|url|"
                               r"open[- ]source|website)\b", re.I)
# A claim that negates must find a negation in its source: a small model flips "does" into "does not".
_NEGATION = re.compile(r"\b(not|no|never|cannot|can't|don't|doesn't|isn't|aren't|won't|without|neither|nor|fails?)\b", re.I)
MAX_SENTENCES = 4  # a short answer: the Sources panel holds the rest


@dataclass
class Verdict:
    """What the checker did with one draft sentence, and why."""

    text: str
    action: str  # kept | repaired | dropped
    reason: str
    sources: list[int] = field(default_factory=list)  # indexes into the passages


@dataclass
class Checked:
    """The checked answer: sentences with the passages (by index) that support each."""

    sentences: list[tuple[str, list[int]]]
    verdicts: list[Verdict]


def markers(sentence: str) -> tuple[str, list[int]]:
    """Strip [n] / [n, m] / [S1] markers; returns (text, 1-based keys)."""
    keys: list[int] = []
    for match in _MARKER.finditer(sentence):
        keys.extend(int(k) for k in re.findall(r"\d+", match.group(1)))
    text = _MARKER.sub("", sentence).strip()
    text = re.sub(r"\s+([.,;:!?])", r"\1", text)
    return text, keys


def numbers(text: str) -> set[str]:
    """Numbers in ``text``, normalised (no thousands commas, no space before %)."""
    return {re.sub(r"(?<=\d),(?=\d{3}\b)", "", n).replace(" ", "").lower() for n in _NUMBER.findall(text)}


def named_terms(text: str) -> set[str]:
    """Method-like names: CamelCase, ACRONYMS, hyphenated names with digits."""
    return {t for t in _NAMED.findall(text) if len(t) > 1}


@dataclass
class Source:
    """A passage the answer may cite, with what the checks need precomputed."""

    hit: Hit
    words: set[str]
    numbers: set[str]
    text: str
    sentences: list[tuple[str, set[str]]]  # the abstract's sentences with their words

    @classmethod
    def of(cls, hit: Hit) -> "Source":
        text = f"{hit.title} {hit.abstract}"
        sentences = [(s.text, set(tokenize(s.text))) for s in split_sentences(hit.abstract)]
        return cls(hit, set(tokenize(text)), numbers(text), text.lower(), sentences)


def support(claim: str, source: Source) -> tuple[bool, str, float]:
    """Is ``claim`` supported by ``source``? Returns (ok, reason when not, coverage)."""
    words = tokenize(claim)
    if len(set(words)) < MIN_CONTENT_WORDS:
        return False, "no checkable content", 0.0
    coverage = sum(w in source.words for w in words) / len(words)
    missing_numbers = sorted(numbers(claim) - source.numbers)
    if missing_numbers:
        return False, f"number {', '.join(missing_numbers)} not in the cited abstract", coverage
    missing_names = sorted(t for t in named_terms(claim) if t.lower() not in source.text)
    if missing_names:
        return False, f"name {', '.join(missing_names)} not in the cited abstract", coverage
    if coverage < MIN_COVERAGE:
        return False, f"only {coverage:.0%} of its words are in the cited abstract", coverage
    if _NEGATION.search(claim):
        claim_words = set(words)
        closest = max(source.sentences, key=lambda s: len(s[1] & claim_words), default=("", set()))
        if not _NEGATION.search(closest[0]):
            return False, "it negates what the cited abstract says", coverage
    return True, "", coverage


def is_pointer(text: str) -> bool:
    """A sentence that only points to code, data or a URL."""
    return bool(_POINTER.search(text))


def check(draft: str, passages: Sequence[Hit], pointers_ok: bool = False) -> Checked:
    """Verify every sentence of ``draft`` against ``passages`` (keys are 1-based positions).

    ``pointers_ok``: keep sentences that only point to code or data (the question asked for them).
    """
    sources = [Source.of(h) for h in passages]
    kept: list[tuple[str, list[int]]] = []
    verdicts: list[Verdict] = []
    seen: set[str] = set()
    for sentence in _draft_sentences(draft):
        claim, keys = markers(sentence)
        claim = _LEAD_IN.sub("", claim).strip()
        claim = claim[:1].upper() + claim[1:]
        if not claim or _FILLER.match(claim) and len(tokenize(claim)) < 4:
            continue
        if sentence.rstrip().endswith("?") or re.match(r"^(?:question|answer)\s*:", claim, re.I):
            verdicts.append(Verdict(claim, "dropped", "a question, not an answer"))
            continue
        if len(kept) >= MAX_SENTENCES:
            verdicts.append(Verdict(claim, "dropped", f"answer already has {MAX_SENTENCES} sentences"))
            continue
        if not pointers_ok and is_pointer(claim):
            verdicts.append(Verdict(claim, "dropped", "points to code or data, which the question did not ask for"))
            continue
        if any(set(tokenize(claim)) <= set(tokenize(s.hit.title)) for s in sources):
            verdicts.append(Verdict(claim, "dropped", "only repeats a paper's title"))
            continue
        if claim.lower() in seen:
            verdicts.append(Verdict(claim, "dropped", "repeats an earlier sentence"))
            continue
        valid = [k - 1 for k in keys if 1 <= k <= len(sources)]
        unknown = [k for k in keys if not 1 <= k <= len(sources)]
        results = {i: support(claim, s) for i, s in enumerate(sources)}
        supported_cited = [i for i in valid if results[i][0]]
        if supported_cited:
            action = "repaired" if unknown or len(supported_cited) < len(valid) else "kept"
            reason = _why(unknown, [i for i in valid if i not in supported_cited])
            kept.append((claim, supported_cited))
            verdicts.append(Verdict(claim, action, reason or "supported by its citation", supported_cited))
            seen.add(claim.lower())
            continue
        alternatives = sorted((i for i, r in results.items() if r[0]), key=lambda i: -results[i][2])
        if alternatives:
            best = alternatives[0]
            if valid:
                reason = f"citation moved from [{valid[0] + 1}] to [{best + 1}]: {results[valid[0]][1]}"
            elif unknown:
                reason = f"unknown citation [{unknown[0]}] replaced by [{best + 1}]"
            else:
                reason = f"uncited; attributed to [{best + 1}]"
            kept.append((claim, [best]))
            verdicts.append(Verdict(claim, "repaired", reason, [best]))
            seen.add(claim.lower())
            continue
        target = valid[0] if valid else max(results, key=lambda i: results[i][2], default=None)
        reason = results[target][1] if target is not None else "no source to check against"
        if unknown and not valid:
            reason = f"unknown citation [{unknown[0]}]; " + reason
        verdicts.append(Verdict(claim, "dropped", reason))
    return Checked(kept, verdicts)


def _why(unknown: list[int], unsupported: list[int]) -> str:
    parts = []
    if unknown:
        parts.append("removed unknown citation " + ", ".join(f"[{k}]" for k in unknown))
    if unsupported:
        parts.append("removed citation " + ", ".join(f"[{i + 1}]" for i in unsupported) + " that does not support it")
    return "; ".join(parts)


def _draft_sentences(draft: str) -> list[str]:
    """Sentences of the draft; list bullets and line breaks also end a sentence."""
    out: list[str] = []
    for line in draft.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", line).strip()
        if line:
            # A marker that follows the period ("... 2x. [1]") belongs to the sentence before it.
            line = re.sub(r"([.!?])\s*((?:\[[^\]]*\]\s*)+)", r" \2\1 ", line)
            out.extend(s.text for s in split_sentences(line))
    return out


def evidence(claims: Sequence[str], hit: Hit) -> list[Sentence]:
    """For each claim, the abstract sentence that best supports it (for highlighting), in text order."""
    sentences = [(s, set(tokenize(s.text))) for s in split_sentences(hit.abstract)]
    chosen: dict[int, Sentence] = {}
    for claim in claims:
        claim_words = set(tokenize(claim))
        scored = [(len(words & claim_words) / (len(words) ** 0.5), s) for s, words in sentences if words]
        score, best = max(scored, key=lambda x: x[0], default=(0.0, None))
        if best is not None and score > 0:
            chosen[best.start] = best
    return [chosen[k] for k in sorted(chosen)]
