"""Closeness in meaning decides between the sentences the evidence rules score alike, and only then."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from assistant.closeness import SentenceCloseness
from assistant.corpus import Paper
from assistant.embedding import EmbedderError
from assistant.retrieval import Hit
from assistant.shapes import per_paper


def hit(pid: str, title: str, abstract: str) -> Hit:
    paper = Paper(paper_id=pid, title=title, authors=["Ann Author"], abstract=abstract)
    return Hit(rank=1, paper=paper, text=abstract, score=1.0, dense_score=0.9, lexical_score=1.0, start=0, end=len(abstract))


LABEL = hit(
    "D",
    "Don't Label Twice",
    "We study how to spend a budget of noisy labels when comparing two classifiers. "
    "We prove a theorem that runs counter to conventional wisdom. "
    "If the goal is to identify the better classifier, we show it is best to spend the budget on a single label for more samples.",
)
BASE = {"question": "", "rewritten_query": "", "notice": "", "kind": "attribute"}
# Two finding sentences the rules score alike ("We prove a theorem that runs counter to conventional
# wisdom." of the real abstract only announces the result, and now comes with the sentence stating it).
TIED = hit(
    "D",
    "Don't Label Twice",
    "We study how to spend a budget of noisy labels when comparing two classifiers. "
    "We prove that majority votes run counter to conventional wisdom on every theorem. "
    "If the goal is to identify the better classifier, we show it is best to spend the budget on a single label for more samples.",
)


class Counting:
    """Embeds a text as the counts of a few words; counts the texts it was asked to embed."""

    name, dimension = "counting", 4
    VOCABULARY = ("budget", "label", "samples", "theorem")

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.embedded += list(texts)
        rows = np.array([[t.lower().count(w) for w in self.VOCABULARY] for t in texts], dtype=np.float32) + 1e-3
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_closeness_breaks_a_tie_between_two_finding_sentences() -> None:
    question = "what's the main finding of each?"
    # Without closeness the first finding sentence wins the tie ("We prove that ... theorem."); the
    # counting embedder puts the question (no counted word) nearest the sentence with most of them.
    assert "theorem" in per_paper(question, [TIED], BASE).answer
    embedder = Counting()
    closeness = SentenceCloseness(lambda: embedder).for_question(question, [TIED])
    chosen = per_paper(question, [TIED], BASE, closeness=closeness).answer
    assert "single label for more samples" in chosen and "theorem" not in chosen


def test_closeness_never_brings_in_a_sentence_the_rules_reject() -> None:
    # Nothing in the abstract is about hardware: the answer says so, however close a sentence is.
    embedder = Counting()
    question = "which hardware does it run on? budget label samples"
    closeness = SentenceCloseness(lambda: embedder).for_question(question, [LABEL])
    assert "does not" in per_paper("which hardware does it run on?", [LABEL], BASE, closeness=closeness).answer


def test_sentence_vectors_are_embedded_once_and_the_cache_is_bounded() -> None:
    embedder = Counting()
    closeness = SentenceCloseness(lambda: embedder, cache_size=5)
    closeness.for_question("first question about the label", [LABEL])
    assert len(embedder.embedded) == 4  # the question and three sentences
    again = closeness.for_question("second question about the budget", [LABEL])
    assert len(embedder.embedded) == 5  # only the new question
    assert again("no such sentence") == 0.0
    assert len(closeness._cache) <= 5


def test_without_an_embedder_every_sentence_is_equally_close() -> None:
    def missing() -> Counting:
        raise EmbedderError("the packaged embedding model is not installed")

    closeness = SentenceCloseness(missing).for_question("what's the main finding?", [LABEL])
    assert closeness(LABEL.abstract.split(". ")[0]) == 0.0
    assert "theorem" in per_paper("what's the main finding?", [LABEL], BASE, closeness=closeness).answer
