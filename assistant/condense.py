"""Follow-up questions: rewrite a question that leans on earlier turns into a standalone one.

Rule-based on purpose: a 135M model rewrites unreliably, and the rules below are cheap,
deterministic and explainable. A question that stands alone is searched as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from assistant.citations import named_terms

# Words that point back at something said earlier.
_ANAPHORA = re.compile(
    r"\b(it|its|it's|they|them|their|theirs|this|that|these|those|he|she|his|her|"
    r"the (?:first|second|last|latter|former|other|same|above|previous) (?:one|paper|method|work)s?|"
    r"the (?:first|second|last|latter|former|other) one|the (?:paper|method|approach|model|authors|work|two)|"
    r"both|either|each)\b",
    re.IGNORECASE,
)
_CONTINUATION = re.compile(r"^\s*(and|also|what about|how about|so|then|but|compared|versus|vs\.?)\b", re.IGNORECASE)
# Words that ask about several earlier papers at once.
_SEVERAL = re.compile(r"\b(both|the two|these|those|each|compare[sd]?|differ|difference|versus|vs\.?|either)\b", re.I)
_SINGULAR_POINTER = re.compile(r"\b(it|its|that|this)\b", re.I)
_ORDINALS = {"first": 0, "former": 0, "second": 1, "latter": -1, "last": -1}
_CONTENT = re.compile(r"[A-Za-z]{4,}")


@dataclass
class Turn:
    """An earlier exchange: the user's question and the papers the answer cited."""

    question: str
    cited: list[tuple[str, str]] = field(default_factory=list)  # (paper_id, title)


def needs_context(question: str) -> bool:
    """True when the question cannot be understood without earlier turns."""
    if _CONTINUATION.search(question):
        # "And what is MeZO-SVRG?" names its subject; "and who wrote it?" does not.
        return not (named_terms(question) and not _ANAPHORA.search(question))
    if len(_CONTENT.findall(question)) <= 2:  # "Which authors?", "Why?", "How fast?"
        return True
    return bool(_ANAPHORA.search(question)) and len(question.split()) <= 25


def referents(question: str, turns: Sequence[Turn]) -> list[str]:
    """Titles of the earlier papers the question points at (empty when none are known)."""
    per_turn = [[title for _, title in t.cited if title] for t in turns]
    recent = [titles for titles in per_turn if titles]
    if not recent:
        return []
    lowered = question.lower()
    chosen: list[str] = []
    for word, pos in _ORDINALS.items():
        if re.search(rf"\bthe {word}\b", lowered):
            firsts = [titles[0] for titles in recent]
            chosen.append(firsts[pos] if -len(firsts) <= pos < len(firsts) else firsts[-1])
    if chosen:
        if _SINGULAR_POINTER.search(lowered) or _SEVERAL.search(lowered):
            chosen.append(recent[-1][0])  # "how does that compare with the first one?"
    elif _SEVERAL.search(lowered):
        chosen = list(recent[-1][:4])
        for titles in reversed(recent[:-1]):  # one paper per earlier turn until there are two
            if len(set(chosen)) >= 2:
                break
            chosen.append(titles[0])
    else:
        chosen = [recent[-1][0]]
    return list(dict.fromkeys(chosen))


def condense(question: str, history: Sequence[Turn | str]) -> str:
    """A standalone version of ``question`` given earlier turns (unchanged when it stands alone)."""
    turns = [t if isinstance(t, Turn) else Turn(str(t)) for t in history]
    turns = [t for t in turns if t.question.strip()]
    question = " ".join(question.split())
    if not turns or not needs_context(question):
        return question
    titles = referents(question, turns)
    # No citations known (e.g. a bare list of earlier questions): the earlier questions carry the topic.
    about = "; ".join(titles) if titles else " ".join(t.question for t in turns[-2:])
    return f"{question} (about: {about})"
