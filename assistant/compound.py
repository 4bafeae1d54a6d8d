"""Two questions in one message: "Did Stefanie Jegelka have a paper here? What was it about?",
"Which of the two involves game theory? and who wrote each?".

Each part is a different kind of question (who wrote it, and what it does), answered by a
different shape; the second part points at what the first part found ("it", "each"). So the
parts are answered in turn, the second with the first as its previous turn, and the answers are
joined under one set of citation numbers. Two questions of the same kind ("Why has nobody ...?
Is there a theoretical argument ...?") stay one question: the lookup answers each part itself.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from assistant.facets import ASKS_CODE
from assistant.records import Answer, Citation

# The kinds that answer from the paper's record (authors, area) rather than its abstract: a
# message that pairs one of them with a question about the content needs two answers.
RECORD_KINDS = frozenset({"authors_of", "papers_by", "area"})

_BREAK = re.compile(r"(?<=\?)\s+(?:and\s+|also\s+)?(?=\w)", re.IGNORECASE)
_MIN_WORDS = 3  # "and who wrote each?" has three; "Why?" alone is no question of its own


# "who wrote it, and is the code out?", "how many benchmarks did they test and is the code out?": a
# second question about the paper's record or its code, joined by "and" inside one sentence.
# What the paper is about, asked after a fact: "... and whats the main idea".
_GIST = (
    r"what(?:'s|’s|s| is| are)\s+(?:the|its|their)\s+(?:main |key |core |basic |big |general )?"
    r"(?:idea|ideas|contribution|contributions|point|takeaway)\b"
)
_AND_THEN = re.compile(
    r"(?:,\s*|\s+)(?:and|&)\s+(?=(?:is|are|was|were|has|have|did|do|does|where(?:'s| is)|any|a)\s+(?:\w+\s+){0,2}code\b|"
    r"who\s+(?:wrote|are the authors|authored|were the authors)\b|" + _GIST + ")",
    re.IGNORECASE,
)
# The gist of the paper the first part picked: a summary, which a sentence on the first part's fact
# does not give (c406.3 was answered "does not mention “atari results and whats”" of every paper).
_ASKS_GIST = re.compile(r"^\W*" + _GIST, re.IGNORECASE)


def asks_code(question: str) -> bool:
    """Does the question ask whether the code is out ("is the code out?", "any code?")?"""
    return bool(ASKS_CODE.search(question))


def parts(question: str) -> list[str]:
    """The two questions of a message asking two ("...? and who wrote each?", "who wrote it, and is
    the code out?"), else []."""
    text = question.strip()
    pieces = [p.strip() for p in _BREAK.split(text) if p.strip()]
    if len(pieces) != 2:
        joint = _AND_THEN.search(text)
        if joint is None:
            return []
        pieces = [text[: joint.start()].strip().rstrip(",") + "?", text[joint.end() :].strip()]
    if any(len(p.split()) < _MIN_WORDS for p in pieces):
        return []
    return [pieces[0], pieces[1][0].upper() + pieces[1][1:]]


def turn(question: str, answer: Answer) -> dict[str, Any]:
    """``answer`` as a history item, so the next part can point at what it was about."""
    return {
        "question": question,
        "citations": [c.to_dict() for c in answer.citations],
        "focus": list(answer.focus),
    }


def joined(question: str, first: Answer, second: Answer) -> Answer:
    """One answer from the answers to the two parts: the second's citations renumbered after the
    first's (a paper cited by both keeps its first number), its text and table rewritten to match."""
    numbers = {c.paper_id: c.n for c in first.citations}
    citations: list[Citation] = list(first.citations)
    renumber: dict[int, int] = {}
    for c in second.citations:
        if c.paper_id in numbers:
            renumber[c.n] = numbers[c.paper_id]
            continue
        n = len(citations) + 1
        numbers[c.paper_id] = renumber[c.n] = n
        citations.append(dataclasses.replace(c, n=n))

    def rewrite(text: str) -> str:
        return re.sub(r"\[(\d+)\]", lambda m: f"[{renumber.get(int(m.group(1)), int(m.group(1)))}]", text)

    table = [{k: rewrite(v) if isinstance(v, str) else v for k, v in row.items()} for row in second.table]
    seen = {entry.get("paper_id") for entry in first.focus}
    focus = list(first.focus) + [e for e in second.focus if e.get("paper_id") not in seen]
    passages = list(first.passages) + [
        h for h in second.passages if h.paper_id not in {p.paper_id for p in first.passages}
    ]
    return dataclasses.replace(
        first,
        question=question,
        answer=f"{first.answer}\n\n{rewrite(second.answer)}".strip(),
        refused=first.refused and second.refused,
        citations=citations,
        passages=passages,
        table=list(first.table) + table,
        focus=focus,
        trace=list(first.trace) + list(second.trace),
        draft="\n\n".join(d for d in (first.draft, second.draft) if d),
    )


def needs_two(kinds: Sequence[str], pieces: Sequence[str] = ()) -> bool:
    """Do parts of these kinds need two answers (one about the record, one about the content), or
    does one part alone ask for the code (its link is one line of the abstract, the other part's
    answer another)?"""
    if len(pieces) == 2 and asks_code(pieces[1]) != asks_code(pieces[0]):
        return True
    if len(pieces) == 2 and _ASKS_GIST.match(pieces[1]) and not _ASKS_GIST.match(pieces[0]):
        return True  # "which of those has atari results and whats the main idea?": the fact, then the gist
    return len(set(kinds)) == 2 and bool(RECORD_KINDS & set(kinds))
