"""The evaluation harness on tiny fixtures whose figures are computed by hand.

The harness turns answers and rankings into the figures the README and bench/EVAL.md quote; these
tests hold its arithmetic (hits, ranks, precision, recall, refusals, numbers, authors, the
checker's precision and recall, the classifier's accuracy) to values worked out on paper.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from assistant import answer_eval, evaluation, quality_eval
from tests.test_answer import A

AUTHORS = ["Ada Lovelace", "Charles Babbage", "Mary Somerville"]
QUESTIONS = [
    {"id": "p1", "kind": "paraphrase", "question": "Q p1", "gold": ["a"]},
    {"id": "p2", "kind": "paraphrase", "question": "Q p2", "gold": ["b"]},
    {"id": "w1", "kind": "author", "question": "Who wrote a?", "gold": ["a"], "expect_authors": AUTHORS},
    {"id": "n1", "kind": "number", "question": "How big?", "gold": ["c"], "number": "410M"},
    {"id": "u1", "kind": "unanswerable", "question": "Sourdough?", "gold": []},
    {"id": "f1", "kind": "followup", "question": "Who wrote it?", "gold": ["a"], "history": ["Q p1"],
     "expect_authors": AUTHORS[:1]},
]


def answer(text: str, cited: list[str], passages: list[str], refused: bool = False) -> Any:
    """Enough of an Answer for the scoring code."""
    return SimpleNamespace(answer=text, refused=refused, mode="refusal" if refused else "generated",
                           citations=[SimpleNamespace(n=n, paper_id=p, title=p, abstract="") for n, p in enumerate(cited, 1)],
                           passages=[SimpleNamespace(paper_id=p) for p in passages],
                           timings_ms={"total_ms": 10.0})


ANSWERS = {
    # cites gold and a wrong paper: precision 1/2, recall 1; gold at passage 1
    "Q p1": answer("a does it [1]; x too [2].", ["a", "x"], ["a", "x"]),
    # refused although answerable: false refusal; gold at passage 6, outside the first five
    "Q p2": answer("No.", [], ["x", "y", "z", "v", "w", "b"], refused=True),
    # two of the three authors: authors_ok 0
    "Who wrote a?": answer("Ada Lovelace and Charles Babbage [1].", ["a"], ["a"]),
    # the number is there, as a word of its own
    "How big?": answer("It has 410M parameters [1].", ["c"], ["c"]),
    "Sourdough?": answer("The papers do not answer this.", [], ["x"], refused=True),
    # the follow-up names its author and cites gold
    "Who wrote it?": answer("Ada Lovelace wrote it [1].", ["a"], ["a"]),
}


def test_score_per_question() -> None:
    by_id = {q["id"]: answer_eval.score(q, ANSWERS[q["question"]]) for q in QUESTIONS}
    assert by_id["p1"] == {"false_refusal": 0.0, "hit@5": 1.0, "citation_precision": 0.5, "citation_recall": 1.0}
    assert by_id["p2"] == {"false_refusal": 1.0, "hit@5": 0.0, "citation_recall": 0.0}
    assert by_id["w1"]["authors_ok"] == 0.0 and by_id["w1"]["citation_precision"] == 1.0  # single question: scored
    assert by_id["n1"]["number_ok"] == 1.0
    assert by_id["u1"] == {"refusal_ok": 1.0}
    assert by_id["f1"]["followup_ok"] == 1.0 and by_id["f1"]["authors_ok"] == 1.0
    with_all = answer_eval.score(QUESTIONS[2], answer("Ada Lovelace, Charles Babbage and Mary Somerville [1].",
                                                      ["a"], ["a"]))
    assert with_all["authors_ok"] == 1.0
    assert answer_eval.score(QUESTIONS[3], answer("It has 4100M parameters [1].", ["c"], ["c"]))["number_ok"] == 0.0


def test_answer_metrics_aggregate(monkeypatch: pytest.MonkeyPatch) -> None:
    class Scripted:
        def __init__(self, *_args: Any) -> None:
            pass

        def ask(self, question: str, history: list) -> Any:
            return ANSWERS[question]

    monkeypatch.setattr(answer_eval, "Assistant", Scripted)
    dump: list[dict] = []
    monkeypatch.setattr(answer_eval, "record", lambda a, **extra: extra)
    metrics = answer_eval.answer_metrics(QUESTIONS, retriever=None, settings=None, dump=dump)  # type: ignore[arg-type]
    everything = metrics["all"]
    assert everything["n"] == 6
    # Over the five answerable questions: p1, p2, w1, n1, f1.
    assert everything["false_refusal"] == pytest.approx(1 / 5)
    assert everything["hit@5"] == pytest.approx(4 / 5)
    assert everything["citation_recall"] == pytest.approx(4 / 5)
    assert everything["citation_precision"] == pytest.approx((0.5 + 1 + 1 + 1) / 4)  # p2 cited nothing
    assert everything["refusal_ok"] == 1.0 and everything["number_ok"] == 1.0
    assert everything["authors_ok"] == pytest.approx(1 / 2)  # w1 misses a name, f1 has its one
    assert metrics["paraphrase"]["n"] == 2 and metrics["paraphrase"]["citation_recall"] == pytest.approx(1 / 2)
    assert metrics["author"]["authors_ok"] == 0.0
    assert "numbers_grounded" not in everything  # the checker's own test, never below 1: not a figure
    assert [d["id"] for d in dump] == [q["id"] for q in QUESTIONS]


def test_retrieval_metrics(monkeypatch: pytest.MonkeyPatch) -> None:
    questions = [
        {"id": "r1", "kind": "paraphrase", "question": "r1", "gold": ["a"]},            # rank 1
        {"id": "r2", "kind": "paraphrase", "question": "r2", "gold": ["b"]},            # rank 3
        {"id": "r3", "kind": "two_papers", "question": "r3", "gold": ["c", "d"]},       # c at 1, d missing
        {"id": "r4", "kind": "paraphrase", "question": "r4", "gold": ["e"]},            # not retrieved
        {"id": "r5", "kind": "unanswerable", "question": "r5", "gold": []},             # left out
    ]
    rankings = {"r1": ["a", "x"], "r2": ["x", "y", "b"], "r3": ["c"] + [f"x{i}" for i in range(9)],
                "r4": ["x", "y"], "r5": ["x"]}
    monkeypatch.setattr(evaluation, "ranked_ids", lambda q, retriever, k=10: rankings[q["id"]][:k])
    metrics = evaluation.retrieval_metrics(questions, retriever=None)  # type: ignore[arg-type]
    para = metrics["paraphrase"]
    assert para == pytest.approx({"n": 3, "hit@1": 1 / 3, "hit@5": 2 / 3, "mrr": (1 + 1 / 3 + 0) / 3,
                                  "all_gold@10": 2 / 3})
    assert metrics["two_papers"] == pytest.approx({"n": 1, "hit@1": 1.0, "hit@5": 1.0, "mrr": 1.0, "all_gold@10": 0.0})
    assert metrics["all"] == pytest.approx({"n": 4, "hit@1": 2 / 4, "hit@5": 3 / 4, "mrr": (1 + 1 / 3 + 1 + 0) / 4,
                                            "all_gold@10": 2 / 4})
    # "Which papers are about privacy?" has the seed papers on it as gold: over the catalogue, where
    # other posters answer it too, it is left out.
    scoped = [*questions, {"id": "r6", "kind": "area", "question": "r6", "gold": ["z"], "index": "seeds"}]
    rankings["r6"] = ["x"]
    assert evaluation.retrieval_metrics(scoped, None, index="catalogue")["all"]["n"] == 4  # type: ignore[arg-type]
    assert evaluation.retrieval_metrics(scoped, None, index="seeds")["area"]["n"] == 1  # type: ignore[arg-type]


def test_checker_metrics_against_labels() -> None:
    rows = [  # the checker keeps the first and third (each states what A says), drops the second
        {"split": "tune", "paper_id": "A", "claim": "LookFast speeds up generation by 2.3x on MT-Bench.",
         "label": "supported"},
        {"split": "tune", "paper_id": "A", "claim": "LookFast speeds up generation by 5.7x on MT-Bench.",
         "label": "unsupported"},
        {"split": "heldout", "paper_id": "A", "claim": "LookFast speeds up generation by 2.3x.",
         "label": "unsupported"},  # labelled unsupported on purpose: a kept, unsupported sentence
        {"split": "heldout", "paper_id": "A", "claim": "LookFast was written in Fortran in 1962.",
         "label": "supported"},  # labelled supported on purpose: a dropped, supported sentence
        {"split": "tune", "paper_id": "missing", "claim": "Anything.", "label": "supported"},  # no such paper: skipped
    ]
    assert [quality_eval.checker_verdict(r, A) for r in rows[:4]] == [True, False, True, False]
    metrics = quality_eval.checker_metrics(rows, {"A": A})
    assert metrics["all"] == {"n": 4, "supported": 2, "kept": 2, "precision": 0.5, "recall": 0.5}
    assert metrics["tune"] == {"n": 2, "supported": 1, "kept": 1, "precision": 1.0, "recall": 1.0}
    assert metrics["heldout"] == {"n": 2, "supported": 1, "kept": 1, "precision": 0.0, "recall": 0.0}


def test_intent_accuracy_and_confusions(monkeypatch: pytest.MonkeyPatch) -> None:
    detected = {"q1": "lookup", "q2": "list", "q3": "lookup", "q4": "compare"}
    monkeypatch.setattr(quality_eval, "detect", lambda question, papers, focus: SimpleNamespace(kind=detected[question]))
    rows = [{"question": "q1", "kind": "lookup", "split": "tune"}, {"question": "q2", "kind": "lookup", "split": "tune"},
            {"question": "q3", "kind": "lookup", "split": "heldout"},
            {"question": "q4", "kind": "list", "split": "heldout"}]
    metrics = quality_eval.intent_accuracy(rows, [])
    assert metrics["tune"] == {"n": 2, "accuracy": 0.5, "confusions": {"lookup->list": 1}}
    assert metrics["heldout"] == {"n": 2, "accuracy": 0.5, "confusions": {"list->compare": 1}}
    assert metrics["all"]["accuracy"] == 0.5 and metrics["all"]["confusions"] == {"lookup->list": 1, "list->compare": 1}


def test_evidence_metrics_count_the_answering_sentence_per_asked_paper() -> None:
    labels = [
        {"id": "c1.1", "split": "tune", "paper_id": "p1", "sentences": ["We propose X."], "absent": False},
        {"id": "c1.1", "split": "tune", "paper_id": "p2", "sentences": ["Y is faster."], "absent": False},
        {"id": "c1.2", "split": "tune", "paper_id": "p1", "sentences": [], "absent": True},
        {"id": "c1.3", "split": "tune", "paper_id": "p1", "sentences": [], "absent": False},  # metadata: skipped
        {"id": "c3.1", "split": "heldout", "paper_id": "p2", "sentences": ["Y is faster."], "absent": False},
    ]
    answers = [
        {"id": "c1.1", "citations": [{"paper_id": "p1", "evidence": ["We propose X!"]},
                                     {"paper_id": "p2", "evidence": ["Background on Y."]}]},
        {"id": "c1.2", "citations": [{"paper_id": "p1", "evidence": []}]},
        {"id": "c1.3", "citations": []},
        {"id": "c3.1", "citations": []},
    ]
    m = answer_eval.evidence_metrics(labels, answers)
    assert m["tune"] == {"pairs": 3, "cited": 1.0, "answering_quoted": 0.5, "absent_said": 1.0}
    assert m["heldout"] == {"pairs": 1, "cited": 0.0, "answering_quoted": 0.0, "absent_said": 0.0}
    assert "answering sentence quoted" in answer_eval.format_evidence(m)
