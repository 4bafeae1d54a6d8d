"""Readings of a conversation's questions: British spellings and a doubled letter typed once, a term
ending in "learning" as a subject of its own, "A or B to how X or how Y", a science called computational,
"is anything here relevant to me?", more papers of a kind past the one shown, "any X work?", what they
say is wrong with earlier work, another paper by the same author, the field said before "papers",
quantitative gains, "A or B, whichever", "and <subject>?" searched for, "compare the two" whatever
"it" is said of, "the X one vs <acronym>" inside one abstract, flat minima and a pre-image."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from assistant.answer import Assistant
from assistant.condense import Turn, resolve
from assistant.config import Settings
from assistant.corpus import Paper
from assistant.evidence import related, topic, words
from assistant.facets import asked
from assistant.intents import detect
from assistant.spelling import Vocabulary
from tests.doubles import ScriptedLLM
from tests.test_answer import Library, hit


def _by(pid: str, title: str, authors: list[str]):  # type: ignore[no-untyped-def]
    paper = hit(pid, title, f"We study {title.lower()}.")
    return replace(paper, paper=Paper(paper_id=pid, title=title, authors=authors, abstract=paper.abstract))


class _Indexed(Library):
    """A library whose papers are its index, so word rarity and spelling are read from them."""

    def papers(self) -> list:
        return self._papers

    def __init__(self, hits: list) -> None:  # type: ignore[type-arg]
        super().__init__(hits)
        self._papers = [SimpleNamespace(paper=h.paper) for h in hits]


def _assistant(hits: list) -> Assistant:  # type: ignore[type-arg]
    return Assistant(_Indexed(hits), lambda: ScriptedLLM([]), Settings.from_env({}))  # type: ignore[arg-type]


def test_british_spellings_and_a_doubled_letter_typed_once_are_mended() -> None:
    vocabulary = Vocabulary(
        ["Agents learn diverse skills and behavior; we optimize and analyzed it. Colors. Expertize."]
    )
    assert vocabulary.correct("diverse behaviours") == "diverse behaviors"
    assert vocabulary.correct("optimise the colours") == "optimize the colors"
    assert vocabulary.correct("learning diverse skils") == "learning diverse skills"
    # a short word is mended only of a doubled letter; everyday words are left as typed
    assert vocabulary.correct("hours yours votes") == "hours yours votes"
    assert vocabulary.correct("domain expertise") == "domain expertise"  # "-ise" in American English too


def test_a_term_ending_in_learning_is_a_subject_of_its_own() -> None:
    concept = topic("I'm looking for papers on differential privacy or federated learning.")
    assert [{"feder"}] in concept.alternatives
    assert not any({"feder", "privaci"} <= slot for a in concept.alternatives for slot in a)


def test_ways_of_asking_after_to_how_are_said_of_every_subject_before_it() -> None:
    concept = topic(
        "I am looking for work that applies social choice theory or game theory to how machine learning is "
        "evaluated or how experiments are run."
    )
    assert len(concept.alternatives) == 4
    assert all({"social"} in a or {"game"} in a for a in concept.alternatives)


def test_a_science_called_computational_is_the_science() -> None:
    question = "I work in computational chemistry / materials — is anything here relevant to me?"
    assert detect(question, []).kind == "list"
    assert "comput" not in topic(question).required


def test_more_papers_of_a_kind_past_the_one_shown_are_searched_for() -> None:
    assert detect("any other interpretability / explanation papers?", [], 1).kind == "list"
    concept = topic("any other interpretability / explanation papers?")
    assert any("xai" in slot for a in concept.alternatives for slot in a)
    assert detect("any recommender systems work?", [], 1).kind != "attribute"


def test_what_they_say_is_wrong_with_earlier_work_asks_its_shortcomings() -> None:
    names = [f.name for f in asked("the granger one - what do they say is wrong with earlier neural GC methods")]
    assert "prior_limitations" in names


def test_another_paper_by_the_same_author_lists_the_shared_authors_others() -> None:
    first = _by("T", "Trade-offs in multi-task benchmarks", ["Guanhua Zhang", "Moritz Hardt"])
    second = _by("C", "Causal inference from competing treatments", ["Ann Other", "Moritz Hardt"])
    third = _by("D", "Comparing binary classifiers on a budget", ["Florian Dorner", "Moritz Hardt"])
    history = [
        {
            "question": "social choice or game theory for evaluation?",
            "citations": [{"paper_id": "T", "title": first.title}, {"paper_id": "C", "title": second.title}],
        }
    ]
    answer = _assistant([first, second, third]).ask(
        "Is there another paper in the collection by the same author that also concerns benchmarks?", history
    )
    assert [c.paper_id for c in answer.citations] == ["D"] and "Moritz Hardt" in answer.answer


def test_the_field_said_before_papers_holds_for_every_alternative() -> None:
    concept = topic("i need rl papers about learning policies that are robust, or that learn diverse behaviors")
    assert all({"rl"} in a for a in concept.alternatives)
    assert "skill" in related("behavior")  # what an agent learns to do are its skills
    concept = topic("Which optimization papers address communication or memory constraints?")
    assert all({"optim"} in a for a in concept.alternatives)


def test_quantitative_gains_and_the_number_ask_for_figures() -> None:
    assert detect("What quantitative gains does each report?", [], 2).kind == "quantity"
    assert detect("whats the number for the diffusion one on stable diffusion", [], 2).kind == "quantity"


def test_two_kinds_whichever_narrow_the_topic() -> None:
    concept = topic("need stuff on making inference faster - llm decoding or diffusion sampling, whichever")
    assert len(concept.narrowed) == 2


def test_a_subject_alone_after_and_is_searched_for() -> None:
    assert topic("and protein structure prediction?").led
    assert not topic("and datasets?").led and not topic("and the crystal one?").led
    # as close in meaning as the seeds' crystal paper is to the question (0.37)
    crystal = replace(
        hit("X", "Crystal Structure Prediction", "We propose a diffusion model for crystal structure prediction."),
        dense_score=0.37,
    )
    imaging = hit("S", "Subsurface Imaging", "Subsurface imaging predicts geophysical properties from measurements.")
    history = [{"question": "what about seismic imaging?", "citations": [{"paper_id": "S", "title": imaging.title}]}]
    answer = _assistant([crystal, imaging]).ask("and protein structure prediction?", history)
    assert answer.refused and "protein structure prediction" in answer.answer


def test_compare_the_two_is_both_papers_whatever_it_is_said_of() -> None:
    robust = ("R", "Robust MDPs by estimating the worst kernel")
    skills = ("K", "Acquiring diverse skills with a mixture of experts")
    turns = [Turn("robust mdps?", focus=[robust]), Turn("what about diverse skills?", focus=[skills])]
    question = "compare the two - does either plug into an existing rl algorithm or is it its own thing"
    assert resolve(question, turns).papers == [skills, robust]
    # "how does it compare with X?" is still the paper just shown
    assert resolve("how does it compare with lookahead decoding?", turns).papers == [skills]


def test_the_x_one_against_an_acronym_its_abstract_spells_out_stays_inside_it() -> None:
    pit = hit(
        "P",
        "Position-induced Transformer for Operator Learning",
        "We propose a transformer for operator learning. It converges better than the Fourier neural operator.",
    )
    other = hit("H", "Hare and Tortoise Networks", "FNO style networks lose plasticity.")
    history = [
        {
            "question": "pde stuff?",
            "citations": [{"paper_id": "P", "title": pit.title}, {"paper_id": "H", "title": other.title}],
        }
    ]
    answer = _assistant([pit, other]).ask("and the transformer one vs FNO?", history)
    assert [c.paper_id for c in answer.citations] == ["P"]


def test_flat_minima_are_minimizers_and_a_pre_image_is_no_image() -> None:
    concept = topic("whether flat minima correspond to simple solutions")
    assert "correspond" not in concept.required and "minim" in concept.required
    assert "imag" not in words("the pre-image measure of the map")
    assert "imag" in words("image generation benchmarks")
