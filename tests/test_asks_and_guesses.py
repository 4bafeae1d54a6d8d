"""Readings of a conversation's questions: a topic narrowed after a comma ("llms or diffusion both
fine"), a figure asked in a word after another question, benchmarks named as alternatives, examples
after "what about X", Granger causality as causal discovery, a paper pointed at by the doer its name
holds, a greeting before "I work on", privacy-preserving ML, the problem a paper takes on, the asker's
guess after a question, an overlap in authors, a noise parameter reduced that saves nothing, "compare
the two: what is each optimizing for, and ...", whether a named paper beats another, a selection then
the result it invokes, the design of a thing said of the thing, "if so, what is it about?", papers run
on benchmarks, "one on A, one on B", a list line's own words, "results from" as a verb, what could be
steered, and a saving in the measure asked."""

from __future__ import annotations

from assistant import strategies
from assistant.evidence import NARROWING, coverage, topic
from assistant.facets import asked
from assistant.intents import detect
from assistant.shapes import per_paper
from tests.test_answer import hit
from tests.test_fields_and_spellings import _assistant

_BASE = {"question": "", "rewritten_query": ""}


def test_a_topic_narrowed_after_a_comma_to_two_kinds_both_welcome() -> None:
    question = "need stuff on making generation faster at inference time, llms or diffusion both fine"
    assert NARROWING.search(question)
    concept = topic(question)
    assert len(concept.narrowed) == 2 and "diffus" not in concept.required
    assert detect(question, []).kind == "list"
    # a comma with no closing that says either is welcome narrows nothing
    assert not topic("papers on causal inference, causal discovery or time series").narrowed


def test_a_figure_asked_in_a_word_after_another_question_is_asked_too() -> None:
    question = "and does the llm one play nice with flashattention? speedups?"
    assert detect(question, [], 1).kind == "quantity"
    assert strategies._two_asks(question) == ["and does the llm one play nice with flashattention?", "what speedups?"]


def test_each_benchmark_named_for_papers_run_on_is_an_alternative_of_its_own() -> None:
    concept = topic("any other RL papers here that evaluate on robot sims or atari?")
    assert concept.run_on and [{"atari"}] in concept.alternatives
    atari = hit("H", "Hare and Tortoise Networks", "It improves RL algorithms on the Atari-100k benchmark.")
    assert coverage(concept, atari.title, atari.abstract) == 1.0
    # a topic studied, not run on, still joins a one-word part to the slot before it
    assert [{"chemistri", "materi"}] in [
        [s for s in a if len(s) > 1] for a in topic("generative models for chemistry or materials").alternatives
    ]


def test_examples_after_what_about_x_still_ask_for_every_paper_on_it() -> None:
    assert strategies._asks_openly(
        "ok. what about LLM agent systems that handle really long inputs, like long documents or videos"
    )
    assert not strategies._asks_openly("ok. what about the one that handles videos, like which datasets? and why")


def test_granger_causality_is_causal_discovery() -> None:
    concept = topic("time series: explainability or causal discovery?")
    granger = hit("G", "Neural Granger Causality", "We learn full-time Granger causality with one model.")
    assert coverage(concept, granger.title, granger.abstract) >= 0.75


def test_the_doer_a_papers_name_holds_points_at_it_and_is_not_looked_up() -> None:
    explainer = hit(
        "E",
        "Explain Temporal Black-Box Models",
        "We introduce FDTempExplainer, a model-agnostic explanation method for time series models. We "
        "demonstrate its effectiveness in anomaly detection, classification, and forecasting.",
    )
    answer = per_paper("what tasks was the explainer tested on", [explainer], _BASE)
    assert "anomaly detection" in answer.answer and "We introduce" not in answer.answer


def test_a_greeting_before_i_work_on_and_privacy_preserving_ml() -> None:
    concept = topic("Hi! I work on privacy-preserving ML. Which papers here are relevant?")
    assert concept.required == ["privaci"]
    privacy = hit("P", "Renyi Pufferfish Privacy", "We introduce a variant of Pufferfish privacy.")
    assert coverage(concept, privacy.title, privacy.abstract) == 1.0


def test_the_problem_a_paper_takes_on_is_the_difficulty_it_names_not_its_fields_background() -> None:
    assert [f.name for f in asked("what problem is it really solving?")] == ["problem"]
    federated = hit(
        "F",
        "Personalized Federated Invariant Learning",
        "Mitigating spurious correlation can tackle the challenging OOD generalization problem. Nevertheless, "
        "personalized features are closely entangled with spurious features, which makes the two objectives "
        "conflicting. We propose a causal signature to separate them.",
    )
    answer = per_paper("what problem is it really solving?", [federated], _BASE)
    assert "Nevertheless" in answer.answer and "can tackle the challenging" not in answer.answer


def test_the_askers_guess_after_a_question_is_checked_beside_it() -> None:
    question = "the federated one: what problem is it really solving? sounds more like OOD generalization"
    assert strategies._two_asks(question) == [
        "the federated one: what problem is it really solving?",
        "is it about OOD generalization?",
    ]


def test_an_overlap_in_authors_asks_who_wrote_both() -> None:
    assert detect("any overlap in authors between the two?", [], 2).kind == "authors_of"


def test_a_noise_parameter_reduced_is_no_saving() -> None:
    ode = hit(
        "O",
        "Diffusion Tempering for Ordinary Differential Equations",
        "We propose diffusion tempering for parameter estimation in ODEs. By iteratively reducing a noise "
        "parameter, the method converges more reliably.",
    )
    answer = per_paper("does it report wall-clock speedups?", [ode], _BASE)
    assert "does not mention" in answer.answer and "reducing a noise" not in answer.answer


def test_compare_the_two_then_asks_of_each_is_answered_per_paper() -> None:
    mobile = hit(
        "M",
        "Mobile Attention for Vision Transformers",
        "We propose Mobile-Attention, a linear attention for ViTs on phones. We achieve remarkable reductions "
        "in latency on the iPhone 12.",
    )
    darl = hit(
        "D",
        "Denoising Autoregressive Representation Learning",
        "We explore a generative approach for learning visual representations. Notably, the optimal schedule "
        "differs from the typical ones.",
    )
    history = [
        {
            "question": "vision papers?",
            "citations": [{"paper_id": "M", "title": mobile.title}, {"paper_id": "D", "title": darl.title}],
        }
    ]
    answer = _assistant([mobile, darl]).ask(
        "compare the two: what is each optimizing for, and does either report on-device latency?", history
    )
    assert "optimal schedule" not in answer.answer and "iPhone 12" in answer.answer
    assert "learning visual representations" in answer.answer


def test_whether_a_named_paper_beats_another_is_its_results_sentence() -> None:
    darl = hit(
        "D",
        "Denoising Autoregressive Representation Learning",
        "In this paper, we explore a generative approach for visual representations. Our method, DARL, predicts "
        "image patches. Overall, DARL delivers performance remarkably close to masked prediction models.",
    )
    other = hit("C", "Connect Later", "We fine-tune with targeted augmentations.")
    plan = _assistant([darl, other]).plan("does DARL actually beat masked prediction models?", [])
    assert plan.intent.kind == "attribute" and [h.paper_id for h in plan.focus] == ["D"]


def test_a_selection_then_what_specific_result_it_invokes_is_two_questions() -> None:
    from assistant.compound import needs_two, parts

    pieces = parts("Which of these draws on social choice theory, and what specific result does it invoke?")
    assert pieces == ["Which of these draws on social choice theory?", "What specific result does it invoke?"]
    assert needs_two(["attribute", "attribute"], pieces)
    # not a selection: asked as one
    assert not parts("how is the convex potential modelled, and what applications do they show?")


def test_the_design_of_a_thing_asked_about_is_said_of_the_thing() -> None:
    label = hit("L", "Label Budgets", "We discuss the design of machine learning benchmarks.")
    trade = hit(
        "D",
        "Trade-Offs in Multi-Task Benchmarks",
        "We examine multi-task benchmarks. We show that aggregated rankings of benchmarks are highly unstable.",
    )
    # no "does not mention" for the paper never saying "design"
    answer = per_paper("What does each conclude about benchmark design?", [label, trade], _BASE)
    assert "highly unstable" in answer.answer and "does not mention" not in answer.answer


def test_if_so_what_is_it_about_asks_the_gist_of_the_paper_found() -> None:
    from assistant.compound import needs_two, parts

    pieces = parts("Does that author appear on any other paper here? If so, what is it about?")
    assert needs_two(["papers_by", "attribute"], pieces)


def test_papers_run_on_a_benchmark_say_so_where_they_report_what_they_ran() -> None:
    from assistant.evidence import Rarity
    from assistant.shapes import topic_list

    skills = hit("K", "Diverse Skills", "We show on challenging robot simulation tasks that it learns skills.")
    robust = hit("R", "Robust MDPs", "Our experiments span Cartpole to DeepMind Control Suite environments.")
    world = hit("W", "World Models", "We backpropagate through a world model to learn a control policy.")
    question = "rl papers evaluated on simulated robot or control tasks?"
    hits = [skills, robust, world]
    listed = topic_list(topic(question), hits, _BASE, Rarity([h.abstract for h in hits]), question)
    assert listed is not None and [c.paper_id for c in listed.citations] == ["K", "R"]


def test_two_papers_half_remembered_one_on_a_one_on_b_are_two_searches() -> None:
    from assistant.segments import requests

    asked = requests(
        "two others i half remember: one on why pruning at initialization fails, one on effective learning rates "
        "across layers in normalized nets"
    )
    assert [r.text for r in asked] == [
        "is there a paper on why pruning at initialization fails",
        "is there a paper on effective learning rates across layers in normalized nets",
    ]
    assert all(r.search for r in asked)
    assert topic("is there a paper on why pruning at initialization fails").required == ["prune", "initi"]


def test_a_list_line_says_the_words_of_its_alternative_not_the_field_all_share() -> None:
    from assistant.evidence import Rarity
    from assistant.shapes import topic_list

    theory = hit(
        "T",
        "From Words to Actions",
        "In this work, from a theoretical lens, we aim to understand why large language model (LLM) "
        "empowered agents are able to solve decision-making problems in the physical world. To this end, "
        "consider a hierarchical reinforcement learning (RL) model where the LLM Planner and the Actor "
        "perform high-level task planning and low-level execution, respectively. Under this model, the "
        "LLM Planner navigates a partially observable Markov decision process (POMDP) by iteratively "
        "generating language-based subgoals via prompting. Under proper assumptions on the pretraining "
        "data, we prove that the pretrained LLM Planner effectively performs Bayesian aggregated "
        "imitation learning (BAIL) through in-context learning. Additionally, we highlight the necessity "
        "for exploration beyond the subgoals derived from BAIL by proving that naively executing the "
        "subgoals returned by LLM leads to a linear regret. As a remedy, we introduce an "
        "$\\epsilon$-greedy exploration strategy to BAIL, which is proven to incur sublinear regret when "
        "the pretraining error is small. Finally, we extend our theoretical framework to include "
        "scenarios where the LLM Planner serves as a world model for inferring the transition model of "
        "the environment and to multi-agent settings, enabling coordination among multiple Actors.",
    )
    skills = hit("K", "Diverse Skills in RL", "We propose an RL method for learning diverse skills.")
    question = "rl papers with world models or learning diverse skills?"
    listed = topic_list(topic(question), [skills, theory], _BASE, Rarity([skills.abstract, theory.abstract]), question)
    assert listed is not None and "serves as a world model" in listed.answer and "hierarchical" not in listed.answer


def test_results_from_as_a_verb_asks_no_finding() -> None:
    assert "findings" not in [f.name for f in asked("what practical method results from the analysis?")]
    assert "findings" in [f.name for f in asked("what results do they report?")]


def test_what_could_they_steer_is_answered_by_what_they_guide() -> None:
    codebook = hit(
        "C",
        "Codebook Features",
        "We can control a model's behavior by finding codes. We train Transformer language models with up to 410M "
        "parameters. We find that we can guide the model to generate different topics and pronoun genders.",
    )
    answer = per_paper("what could they steer?", [codebook], _BASE)
    assert "pronoun genders" in answer.answer


def test_a_saving_in_a_named_measure_is_not_padded_with_other_gains() -> None:
    mezo = hit(
        "M",
        "Zeroth-Order Fine-Tuning",
        "We introduce MeZO-SVRG. MeZO-SVRG outperforms MeZO with up to 20% increase in test accuracies. It surpasses "
        "MeZO's peak test accuracy with a 2x reduction in GPU-hours. MeZO-SVRG reduces the required memory footprint "
        "compared to first-order SGD by 2x.",
    )
    answer = per_paper("and how much memory does MeZO-SVRG actually save, compared to what?", [mezo], _BASE, True)
    assert "memory footprint" in answer.answer and "20%" not in answer.answer and "GPU-hours" not in answer.answer
