"""Readings of a conversation's questions: "On a different subject:" before a new request, "which of
those concern X", "what about anything on X", "which one is X and what does it fix vs prior models",
the biggest model trained, a second ask opened by a preposition, "memory- or communication-efficient
training", two kinds alone after the question, "what did it report on?", and the paper "the explainer
one" resolves to kept when its abstract holds the words."""

from __future__ import annotations

from assistant import compound, strategies
from assistant.condense import Turn, resolve
from assistant.evidence import NARROWING, topic
from assistant.facets import asked
from assistant.intents import detect
from assistant.shapes import per_paper
from tests.test_answer import hit

_BASE = {"question": "", "rewritten_query": ""}
_MOLECULES = ("M", "Projecting Molecules into Synthesizable Chemical Spaces")
_CRYSTALS = ("C", "Equivariant Diffusion for Crystal Structure Prediction")


def test_on_a_different_subject_is_no_part_of_the_request() -> None:
    concept = topic("On a different subject: is there a paper on federated learning?")
    assert concept.required == ["feder"]
    # "on a different note" is read as before
    assert topic("on a different note, anything on federated learning?").required == ["feder"]


def test_which_of_those_concern_x_holds_papers_to_the_topic() -> None:
    label = hit(
        "L",
        "Don't Label Twice",
        "We study how to spend a budget of noisy labels. We discuss the implications of our work for the design "
        "of machine learning benchmarks.",
    )
    causal = hit("T", "Causal Inference from Competing Treatments", "We build a game-theoretic model of agents.")
    answer = per_paper("Which of those concern benchmarking?", [label, causal], _BASE)
    assert "design of machine learning benchmarks" in answer.answer
    assert "concern benchmarking" not in answer.answer  # the verb of the selection is not looked up


def test_what_about_anything_on_x_lists_every_paper_on_it() -> None:
    assert detect("ok, what about anything on molecules or materials then", []).kind == "list"
    # a paper asked about by name is still one paper
    assert detect("what about the molecules paper, what does it do?", [], 2).kind != "list"


def test_which_one_is_x_and_what_does_it_fix_vs_prior_models_chooses_first() -> None:
    shown = [_MOLECULES, _CRYSTALS]
    turns = [Turn("ok what about chemistry or materials stuff", cited=shown, focus=shown)]
    question = "which one is diffusion-based and what does it fix vs prior models"
    assert resolve(question, turns).papers == [_MOLECULES, _CRYSTALS]
    # "how does it compare with X?" is still the paper just discussed
    assert resolve("how does it compare with prior models?", turns).papers == [_MOLECULES]
    assert compound.parts("which one is diffusion based and what symmetries does it handle") == [
        "which one is diffusion based?",
        "What symmetries does it handle",
    ]


def test_the_biggest_model_trained_is_its_size() -> None:
    assert "scale" in [f.name for f in asked("biggest model the codebook paper trained?")]
    codebook = hit(
        "B",
        "Codebook Features",
        "We explore whether we can train neural networks to have sparse, discrete hidden states. We then train "
        "Transformer language models with up to 410M parameters on two natural language datasets.",
    )
    answer = per_paper("biggest model the codebook paper trained?", [codebook], _BASE)
    assert "410M" in answer.answer and "We explore" not in answer.answer


def test_a_second_ask_opened_by_a_preposition_is_asked_too() -> None:
    assert strategies._two_asks("the reading one - how much does it extend context, and on what tasks") == [
        "how much does it extend context",
        "on what tasks",
    ]
    assert strategies._two_asks("what do they do with the data, and in the end?") == []


def test_a_word_after_two_hyphens_is_said_of_both_alternatives() -> None:
    concept = topic("any other papers here on memory- or communication-efficient training of large models")
    assert [{"memori"}, {"effici"}, {"train"}, {"larg"}] in concept.alternatives
    assert [{"communic"}, {"effici"}, {"train"}, {"larg"}] in concept.alternatives
    # without a shared hyphened word, the first alternative keeps its own words only
    assert [{"implicit"}, {"bias"}] in topic("papers on implicit bias or simplicity bias in nn training").alternatives


def test_two_kinds_alone_after_the_question_narrow_it() -> None:
    question = "which papers are about making generation faster at inference time? llms or diffusion models"
    assert NARROWING.search(question)
    assert len(topic(question).narrowed) == 2
    assert not NARROWING.search("the label budget one - tldr? majority vote or not")


def test_what_did_it_report_on_asks_its_results() -> None:
    assert [f.name for f in asked("and the llm one, what did it report on?")] == ["findings"]


def test_the_explainer_one_keeps_the_paper_the_conversation_resolves_to() -> None:
    from tests.test_fields_and_spellings import _assistant

    explainer = hit(
        "E",
        "Explain Temporal Black-Box Models via Functional Decomposition",
        "We introduce FDTempExplainer, a model-agnostic explanation method for black-box time series models. We "
        "demonstrate its effectiveness in anomaly detection, classification, and forecasting.",
    )
    granger = hit(
        "G",
        "Jacobian Regularizer-based Neural Granger Causality",
        "We learn Granger causality with a single model for all target variables. Our method is easy to explain. "
        "We evaluate it on the tasks of several specific datasets named in the paper.",
    )
    change = hit("P", "Online Change Point Detection on Manifolds", "We detect change points in data streams.")
    papers = [explainer, granger, change]
    listed = [{"paper_id": h.paper_id, "title": h.title} for h in papers]
    history = [
        {"question": "which of these papers deal with time series data?", "citations": listed, "focus": listed},
        {
            "question": "the granger causality one - one network per variable?",
            "citations": listed[1:2],
            "focus": listed[1:2],
        },
    ]
    question = "ok and the explainer one, what tasks did they evaluate on? any specific datasets named?"
    plan = _assistant(papers).plan(question, history)
    assert [h.paper_id for h in plan.focus] == ["E"]
