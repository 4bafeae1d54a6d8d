"""What an answer is made of: the cited papers with their evidence, and the answer itself.

Shared by the pipeline (``answer``), the answer shapes (``shapes``), the CLI and the chat.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from assistant.citations import Verdict
from assistant.corpus import OfPaper, Paper
from assistant.retrieval import Hit


@dataclass(kw_only=True)
class Citation(OfPaper):
    """A cited paper with the abstract sentences that support the answer."""

    n: int
    paper: Paper
    evidence: list[str]
    evidence_spans: list[tuple[int, int]]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (one of ``Answer.to_dict``'s citations)."""
        return {
            "n": self.n,
            **self.paper.header(),
            "abstract": self.paper.abstract,
            "evidence": list(self.evidence),
            "evidence_spans": [tuple(span) for span in self.evidence_spans],
        }


@dataclass(kw_only=True)
class Answer:
    """A checked answer, everything the CLI prints and the UI shows."""

    question: str
    answer: str
    refused: bool
    citations: list[Citation]
    passages: list[Hit]
    rewritten_query: str
    mode: str  # generated | extractive | metadata | comparison | listing | attribute | refusal | error
    timings_ms: dict[str, float] = field(default_factory=dict)
    trace: list[Verdict] = field(default_factory=list)
    draft: str = ""
    table: list[dict[str, Any]] = field(default_factory=list)
    notice: str = ""
    kind: str = ""  # the question's kind (see ``intents.KINDS``)
    focus: list[dict[str, Any]] = field(
        default_factory=list
    )  # the ordered papers the answer is about ("selected": picked)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the `ask --json` shape)."""
        out = asdict(self)
        out["citations"] = [c.to_dict() for c in self.citations]
        out["passages"] = [h.to_dict() for h in self.passages]
        out["suggestions"] = (
            [{"paper_id": h.paper_id, "title": h.title, "url": h.url} for h in self.passages[:3]]
            if self.refused
            else []
        )
        out["timings_ms"] = {k: round(v, 1) for k, v in self.timings_ms.items()}
        return out


def citation(n: int, hit: Hit, evidence: list[str], spans: list[tuple[int, int]]) -> Citation:
    """Citation number ``n`` of ``hit`` with its evidence sentences and their offsets."""
    return Citation(n=n, paper=hit.paper, evidence=evidence, evidence_spans=spans)
