"""Readings of a conversation's questions: subjects named side by side ("A / B", "two fronts: A, and B",
"vision side: A, or B"), a closing ask, "X or generalizations of it", a
letter left out of an index word, shared authors and "that author" after them, "speedups for each",
what is wrong with or different from earlier work, what one would use a paper for, a last extension
that is no main result, more of a kind ("any other ... applications", "what else deals with"), a bare
fact asked after a search, a benchmarks topic met only by the word; then "main result + the math
behind it", problems with the original method, "any theory on X", "A or B, whatever's in here" and
the words before a "for"."""

from __future__ import annotations

from dataclasses import replace

from assistant import compound, segments
from assistant.answer import Assistant
from assistant.config import Settings
from assistant.corpus import Paper
from assistant.evidence import Rarity, stating, topic, weighing_closeness
from assistant.facets import asked
from assistant.intents import detect
from assistant.shapes import about_topic, topic_list
from assistant.spelling import Vocabulary
from tests.doubles import ScriptedLLM
from tests.test_answer import Library, hit
from tests.test_asked_parts import BASE


def _by(pid: str, title: str, authors: list[str]):  # type: ignore[no-untyped-def]
    paper = hit(pid, title, f"We study {title.lower()}.")
    return replace(paper, paper=Paper(paper_id=pid, title=title, authors=authors, abstract=paper.abstract))


def test_a_letter_left_out_of_an_index_word_is_put_back() -> None:
    vocabulary = Vocabulary(["Pufferfish privacy is a generalization of differential privacy.", "Language models."])
    assert vocabulary.correct("whats there on differential privcy?") == "whats there on differential privacy?"
    assert vocabulary.correct("llm langauge models") == "llm language models"  # two letters swapped
    # a word the index does not use is left as it is, and so are names, inflections and short words
    assert vocabulary.correct("weather forecasting") == "weather forecasting"
    assert vocabulary.correct("Privcy modeling generalizations") == "Privcy modeling generalizations"
    assert vocabulary.mended("model") is None


def test_a_topic_with_what_grows_out_of_it_is_the_topic() -> None:
    assert topic("whats there on differential privacy or generalizations of it").text == "differential privacy"


def test_subjects_announced_after_a_colon_are_each_a_topic() -> None:
    concept = topic(
        "Looking for RL work on two fronts: robustness to perturbed transition dynamics, and policy gradients "
        "obtained by backpropagating through learned world models."
    )
    assert len(concept.alternatives) == 2 and {"robust"} in concept.alternatives[0]
    assert {"world"} in concept.alternatives[1] and "front" not in concept.required
    question = (
        "Two questions of interest: (i) whether flat minima correspond to simple solutions, and (ii) how "
        "effective learning rates evolve across layers in normalized networks. Are there papers on either?"
    )
    assert detect(question, []).kind == "list"
    assert "question" not in topic(question).required and len(topic(question).alternatives) == 2


def test_a_closing_ask_is_no_part_of_the_topic() -> None:
    concept = topic(
        "I am interested in work that scrutinises how machine learning benchmarks and model comparisons are "
        "designed. What does the collection contain on this?"
    )
    assert "benchmark" in concept.required
    assert not {"collect", "contain", "scrutinis", "design"} & set(concept.required)


def test_subjects_side_by_side_ask_for_every_paper_on_them() -> None:
    assert detect("ok then what about neural PDE solvers / operator learning", [], 1).kind == "list"
    assert (
        detect(
            "ok last thing, vision side: self-supervised pretraining for images, or making ViTs fast on phones?", []
        ).kind
        == "list"
    )
    assert (
        detect(
            "need something on speeding up generation at inference - llm decoding or diffusion sampling, either works",
            [],
        ).kind
        == "list"
    )
    # a question asked of the two subjects is no request for papers on them, nor one paper told two ways
    assert detect("what is the difference between PDE solvers / operator learning?", []).kind != "list"
    assert (
        detect("the label noise sgd / sharpness paper - what does the trained net end up looking like", []).kind
        != "list"
    )
    assert detect("and something that works in 3d scenes / can act like a robot", [], 1).kind != "list"
    assert detect("i need something on cutting communication costs in distributed optimization", []).kind != "list"
    # "for" inside the first subject is not what the papers are for
    concept = topic(
        "ok last thing, vision side: self-supervised pretraining for images, or making ViTs fast on phones?"
    )
    assert "pretrain" in concept.required and "side" not in concept.text


def test_shared_authors_are_asked_of_the_author_lists_however_long_the_question() -> None:
    assert detect("Do these two papers share any authors?", [], 2).kind == "authors_of"
    assert detect("I notice an overlapping author. Who is it?", [], 2).kind == "authors_of"
    # a comparison that also asks for shared authors compares; "same author has another ... paper" asks for it
    assert detect("compare them - do they share authors?", [], 2).kind == "compare"
    assert detect("same author has another benchmark paper right? the social choice one", [], 1).kind != "authors_of"


def test_that_author_after_shared_authors_is_the_one_they_share() -> None:
    first = _by("T", "Trade-offs in multi-task benchmarks", ["Guanhua Zhang", "Moritz Hardt"])
    second = _by("D", "Comparing binary classifiers on a budget", ["Florian Dorner", "Moritz Hardt"])
    third = _by("C", "Causal inference from competing treatments", ["Ann Other", "Moritz Hardt"])
    fourth = _by("Z", "Another paper by the first author", ["Guanhua Zhang"])
    assistant = Assistant(Library([first, second, third, fourth]), lambda: ScriptedLLM([]), Settings.from_env({}))  # type: ignore[arg-type]
    history = [
        {
            "question": "benchmarks and model comparisons?",
            "citations": [{"paper_id": "T", "title": first.title}, {"paper_id": "D", "title": second.title}],
        }
    ]
    answer = assistant.ask("Does that author appear on any other paper here? If so, what is it about?", history)
    assert [c.paper_id for c in answer.citations] == ["C"] and "Moritz Hardt" in answer.answer


def test_speedups_for_each_asks_the_figures() -> None:
    assert detect("speedups for each?", [], 2).kind == "quantity"


def test_what_earlier_work_gets_wrong_is_asked_of_the_paper() -> None:
    assert "prior_limitations" in [
        f.name for f in asked("what's wrong with earlier neural GC methods according to them")
    ]
    question = "the granger one, whats different from earlier neural granger methods"
    assert detect(question, [], 3).kind != "compare"
    assert "prior_limitations" in [f.name for f in asked(question)]


def test_what_one_would_use_a_paper_for_asks_its_applications() -> None:
    assert "applications" in [f.name for f in asked("and what would i actually use the polar factorization thing for")]


def test_a_last_extension_is_not_the_main_result() -> None:
    abstract = (
        "From a theoretical lens, we aim to understand why LLM agents solve decision-making problems. "
        "Finally, we extend our theoretical framework to include multi-agent settings."
    )
    with weighing_closeness(lambda text: 0.5 if text.startswith("Finally") else 0.3):
        found = stating(abstract, asked("is any of them just theory? whats the main result"), [])
    assert found is not None and found.sentences[0].text.startswith("From a theoretical lens")


def test_a_doing_said_before_two_subjects_is_no_field() -> None:
    concept = topic(
        "anything on cutting communication in distributed training, or cutting memory when fine-tuning LMs?"
    )
    assert [{"cut"}] not in concept.alternatives and len(concept.alternatives) == 2


def test_more_of_a_kind_asks_the_index_for_every_one() -> None:
    assert (
        detect("any other physics applications, like seismic inversion or fitting ODE parameters?", [], 2).kind
        == "list"
    )
    assert detect("what else deals w time series data", [], 1).kind == "list"


def test_a_bare_fact_after_a_search_is_asked_of_what_it_finds() -> None:
    found = segments.parts("more general: fine-tuning pretrained models so they hold up under OOD shift? what datasets")
    assert [p.kind for p in found] == [segments.SEARCH, segments.QUESTION]
    # "what?" alone still joins the part before it
    assert len(segments.parts("anything on pruning at initialization? what?")) == 1


def test_a_benchmarks_topic_is_met_by_the_word_not_by_datasets() -> None:
    agent = hit("LEO", "An Embodied Generalist Agent", "LEO is trained on large-scale datasets of 3D tasks.")
    bench = hit(
        "IT", "Trade-Offs in Multi-Task Benchmarks", "The aggregated rankings of existing benchmarks are unstable."
    )
    concept = topic("papers about how machine learning benchmarks are designed?")
    found = about_topic(concept, [agent, bench], Rarity([agent.abstract, bench.abstract]))
    assert [h.paper_id for h in found] == ["IT"]


def test_a_second_fact_named_after_a_plus_is_a_question_of_its_own() -> None:
    assert compound.parts("and the labeling one - main result + the math behind it?") == [
        "and the labeling one - main result?",
        "The math behind it?",
    ]
    assert compound.parts("speed + memory") == []


def test_problems_with_the_original_method_ask_what_the_paper_fixes() -> None:
    names = [f.name for f in asked("what problems with original pufferfish does it try to fix")]
    assert "prior_limitations" in names


def test_any_theory_on_a_topic_lists_the_theory_papers_of_it() -> None:
    theory = hit("T", "Theory of LLM agents", "We prove that LLM agents perform Bayesian imitation learning.")
    system = hit("S", "An LLM agent for videos", "We present an LLM agent system that understands videos.")
    question = "is there any theory on why LLM agents work at all?"
    listed = topic_list(
        topic(question),
        [system, theory],
        dict(BASE, question=question),
        Rarity([theory.abstract, system.abstract]),
        question,
    )
    assert listed is not None and [c.paper_id for c in listed.citations] == ["T"]


def test_two_kinds_whatever_is_in_here_narrow_the_topic_and_ask_for_both() -> None:
    question = "speeding up inference for generative models - llm decoding or diffusion sampling, whatever's in here"
    concept = topic(question)
    assert len(concept.narrowed) == 2 and {"speed", "infer"} <= set(concept.required)
    assert detect(question, []).kind == "list"
