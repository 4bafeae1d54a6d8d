"""A kind of paper asked after the topic ("rl papers with actual experiments pls"), evaluation as a
topic, a preface that names the paper ("Regarding the Granger causality paper: ..."), the
shortcomings of earlier work a paper aims to fix, the issue a paper points out, "what should i read"
after what the asker works on, and "abt"."""

from __future__ import annotations

from assistant import intents
from assistant.answer import _ABOUT_ME, _NAMES_NOTHING, _as_spelled
from assistant.evidence import Rarity, topic
from assistant.facets import asked
from assistant.shapes import about_topic, answer_sentences, topic_list
from tests.test_answer import hit
from tests.test_asked_parts import BASE

GRANGER = hit(
    "JR",
    "Jacobian Regularizer-based Neural Granger Causality",
    "With the advancement of neural networks, diverse methods for neural Granger causality have emerged. However, "
    "the existing framework of neural Granger causality has several limitations. It requires the construction of "
    "separate predictive models for each target variable. To address these drawbacks, we propose JRNGC, a method "
    "for learning multivariate summary Granger causality by constructing a single model for all target variables.",
)


def test_a_kind_of_paper_asked_after_the_topic_keeps_the_list_to_that_kind() -> None:
    question = _as_spelled("rl papers with actual experiments pls")
    assert question == "rl papers with actual experiments"
    assert topic(question).required == ["rl"]
    theory = hit("TH", "A Theory of LLM Planners in RL", "We prove that the planner in RL has sublinear regret.")
    tried = hit("HT", "Hare and Tortoise Networks", "We propose a method for RL. Experiments on Atari-100k show gains.")
    rarity = Rarity([f"{h.title} {h.abstract}" for h in (theory, tried, GRANGER)])
    listed = topic_list(topic(question), [theory, tried], BASE, rarity, question)
    assert listed is not None and [c.paper_id for c in listed.citations] == ["HT"]
    # a courtesy alone is still the message
    assert _as_spelled("please") == "please"


def test_evaluation_as_a_topic_is_not_every_paper_that_evaluates_its_method() -> None:
    question = _as_spelled("papers abt ml benchmarks / how we evaluate models?")
    assert question.startswith("papers about ml benchmarks")
    design = hit("BD", "Trade-Offs in Multi-Task Benchmarks", "We study how multi-task benchmarks rank models.")
    method = hit(
        "MZ", "Zeroth-Order Fine-Tuning", "We propose MeZO-SVRG. We evaluate it on GLUE and it outperforms MeZO."
    )
    papers = [design, method]
    rarity = Rarity([f"{h.title} {h.abstract}" for h in papers])
    assert [h.paper_id for h in about_topic(topic(question), papers, rarity)] == ["BD"]


def test_a_preface_naming_the_paper_demands_none_of_its_words() -> None:
    question = (
        "Regarding the Granger causality paper: what shortcomings of earlier neural Granger methods does it aim to fix?"
    )
    assert [f.name for f in asked(question)] == ["prior_limitations"]  # not the fix, nor a finding
    found = " ".join(s.text for s in answer_sentences(GRANGER, question))
    assert "separate predictive models" in found and "To address these drawbacks" not in found
    claimed = "What shortcomings of prior neural Granger causality methods does it claim to fix?"
    assert [f.name for f in asked(claimed)] == ["prior_limitations"]


def test_the_issue_a_paper_points_out_is_the_problem_it_names() -> None:
    skills = hit(
        "DS",
        "Acquiring Diverse Skills using Curriculum Reinforcement Learning with Mixture of Experts",
        "However, learning diverse skills is challenging in RL due to the commonly used Gaussian policy "
        "parameterization. We propose Di-SkilL, an RL method for learning diverse skills using Mixture of Experts.",
    )
    question = "and what's the issue with policies that the skills paper points out"
    assert [f.name for f in asked(question)] == ["prior_limitations"]
    assert "Gaussian policy parameterization" in answer_sentences(skills, question)[0].text


def test_what_should_i_read_after_what_one_works_on_is_a_list_of_that() -> None:
    question = "we work on neural PDE surrogates and solvers. what should i read from this set"
    assert intents.detect(question, []).kind == "list"
    said = _ABOUT_ME.match(question + "?")
    assert said is not None and _NAMES_NOTHING.match(said.group(2))
    assert topic(question).required == ["pde", "surrog", "solver"]
