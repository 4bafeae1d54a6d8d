"""Follow-up questions: rewrite a question that leans on earlier turns into a standalone one.

Rule-based on purpose: a 135M model rewrites unreliably, and the rules below are cheap,
deterministic and explainable. A question that stands alone is searched as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

# Words that point back at something said earlier.
_ANAPHORA = re.compile(
    r"\b(it|its|it's|they|them|their|theirs|this|that|these|those|he|she|his|her|"
    r"the (?:first|second|last|latter|former|other|same|above|previous) (?:one|paper|method|work)s?|"
    r"the (?:first|second|last|latter|former|other) one|the (?:paper|method|approach|model|authors|work)|"
    r"both|either|each)\b",
    re.IGNORECASE,
)
_CONTINUATION = re.compile(r"^\s*(and|also|what about|how about|so|then|but|compared|versus|vs\.?)\b", re.IGNORECASE)
_ORDINALS = {"first": 0, "former": 0, "second": 1, "latter": -1, "last": -1}


@dataclass
class Turn:
    """An earlier exchange: the user's question and the papers the answer cited."""

    question: str
    cited: list[tuple[str, str]] = field(default_factory=list)  # (paper_id, title)


def needs_context(question: str) -> bool:
    """True when the question cannot be understood without earlier turns."""
    words = re.findall(r"\w+", question)
    if _CONTINUATION.search(question):
        return True
    return bool(_ANAPHORA.search(question)) and len(words) <= 25


def condense(question: str, history: Sequence[Turn | str]) -> str:
    """A standalone version of ``question`` given earlier turns (unchanged when it stands alone)."""
    turns = [t if isinstance(t, Turn) else Turn(str(t)) for t in history if str(getattr(t, "question", t)).strip()]
    question = " ".join(question.split())
    if not turns or not needs_context(question):
        return question
    referent = _referent(question, turns)
    return f"{question} (about: {referent})"


def _referent(question: str, turns: list[Turn]) -> str:
    """What the question points back at: cited titles when known, else the earlier question."""
    lowered = question.lower()
    cited_titles = [title for t in turns for _, title in t.cited if title]
    for word, pos in _ORDINALS.items():
        if re.search(rf"\bthe {word}\b", lowered) and cited_titles:
            unique = list(dict.fromkeys(cited_titles))
            return unique[pos] if -len(unique) <= pos < len(unique) else unique[-1]
    last = turns[-1]
    if last.cited:
        # "both"/"these"/"them" can mean several papers; a singular pronoun means the top one.
        plural = re.search(r"\b(they|them|their|these|those|both|each|either)\b", lowered)
        titles = [title for _, title in last.cited if title]
        if titles:
            return "; ".join(titles[:4] if plural else titles[:1])
    # No citations known (e.g. an evaluation conversation): the earlier questions carry the topic.
    return " ".join(t.question for t in turns[-2:])
