"""Readings of a conversation's questions: "give me an overview of the papers about X", "any of these
agents", "something theoretical on X", "any recommender systems papers", "rl papers with X or Y",
a greeting before a request, the run of
asked words a missing line names, a side result, "use in training", "what type of generative
model", the setting a result is for, a change of subject alone, phones, a term beside a known choice, "does it
handle X", "either X or Y", "of models"."""

from __future__ import annotations

from assistant import segments
from assistant.answer import Assistant
from assistant.condense import Turn, resolve
from assistant.config import Settings
from assistant.evidence import Rarity, coverage, stating, topic, weighing_closeness
from assistant.facets import asked
from assistant.intents import detect
from assistant.shapes import _asked_phrase, focal_terms, per_paper
from assistant.strategies import unheard_terms
from tests.doubles import ScriptedLLM
from tests.test_answer import Library, hit
from tests.test_asked_parts import BASE

LEO = hit(
    "LEO",
    "An Embodied Generalist Agent in 3D World",
    "We introduce LEO, an embodied multi-modal generalist agent that excels in perceiving, grounding, reasoning, "
    "planning, and acting in the 3D world.",
)
DORAEMON = hit(
    "DG",
    "DoraemonGPT: Toward Understanding Dynamic Scenes with Large Language Models",
    "We present DoraemonGPT, a system driven by LLMs to understand dynamic scenes in videos. Moreover, a novel "
    "LLM-driven planner based on Monte Carlo Tree Search is introduced to explore the large planning space.",
)
READER = hit(
    "RA",
    "A Human-Inspired Reading Agent with Gist Memory of Very Long Contexts",
    "We propose ReadAgent, an LLM agent system that increases effective context length up to 20x.",
)
SHARPNESS = hit(
    "SB",
    "Simplicity Bias via Global Convergence of Sharpness Minimization",
    "We show that, for any high dimensional training data and certain activations, label noise SGD always "
    "converges to a network that replicates a single linear feature across all neurons. To obtain this result, "
    "our main technical contribution is to show that label noise SGD always minimizes the sharpness for "
    "two-layer networks. Along the way, we discover a novel property of the trace of Hessian of the loss, which "
    "links sharpness to the geometry of the manifold.",
)
PRUNE = hit(
    "NFP",
    "No Free Prune: Information-Theoretic Barriers to Pruning at Initialization",
    "Sparse networks can be quickly identified and trained without ever training the dense models. We put "
    "forward a theoretical explanation for why pruning at initialization fails, and the outputs of pruning "
    "during training.",
)


def test_giving_the_asker_something_is_the_asking_not_the_topic() -> None:
    concept = topic("Can you give me an overview of the papers about LLM-based agents?")
    assert concept.text == "LLM-based agents"
    assert topic("Which papers give convergence rates for SGD?").text == "convergence rates for SGD"


def test_any_of_these_agents_chooses_among_the_papers_the_list_showed() -> None:
    shown = [(h.paper_id, h.title) for h in (LEO, DORAEMON, READER)]
    turns = [Turn("papers about LLM agents?", focus=shown), Turn("for readagent: what tasks?", focus=[shown[2]])]
    question = "does any of these agents use monte carlo tree search for planning?"
    assert resolve(question, turns).papers == shown
    # the thing a paper spoke of is still that paper's: "those codes" of the one paper just discussed
    assert resolve("can you steer generation with those codes?", turns).papers == [shown[2]]


def test_the_noun_the_papers_go_by_is_nothing_to_look_for() -> None:
    answer = per_paper("does any of these agents use monte carlo tree search for planning?", [LEO, DORAEMON], BASE)
    lines = answer.answer.splitlines()
    assert "Monte Carlo Tree Search" in lines[0] and "DoraemonGPT" in lines[0]
    assert "does not mention “monte carlo tree search”" in lines[1]


def test_a_missing_line_names_the_run_of_asked_words_said_together() -> None:
    for question, phrase in (
        ("does any of these use monte carlo tree search for planning?", "monte carlo tree search"),
        ("does either parameterize things with input convex NNs", "input convex NNs"),
        ("which one looks at randomized trials where several experimenters compete?", "randomized trials"),
        ("What gpus did they run stable diffusion on", "gpus"),
    ):
        assert _asked_phrase(question, focal_terms(question)) == phrase


def test_something_theoretical_on_a_subject_searches_the_index() -> None:
    assistant = Assistant(Library([SHARPNESS, PRUNE]), lambda: ScriptedLLM([]), Settings.from_env({}))  # type: ignore[arg-type]
    history = [{"question": "the sharpness paper?", "citations": [{"paper_id": "SB", "title": SHARPNESS.title}]}]
    answer = assistant.ask("is there also something theoretical on pruning?", history)
    assert [c.paper_id for c in answer.citations] == ["NFP"]


def test_papers_asked_for_on_a_subject_no_paper_holds_are_refused_not_asked_of_the_papers_shown() -> None:
    assistant = Assistant(Library([SHARPNESS, PRUNE]), lambda: ScriptedLLM([]), Settings.from_env({}))  # type: ignore[arg-type]
    history = [{"question": "the sharpness paper?", "citations": [{"paper_id": "SB", "title": SHARPNESS.title}]}]
    answer = assistant.ask("any recommender systems papers in there?", history)
    assert answer.refused and "recommender systems" in answer.answer


def test_recommender_systems_are_a_field_not_a_recommendation() -> None:
    assert topic("any recommender systems papers in there?").text == "recommender systems"
    assert not [f for f in asked("any recommender systems papers?") if f.name == "recommendation"]
    advice = hit(
        "DLT", "Don't Label Twice", "We discuss the implications, which overturn time-honored recommendations."
    )
    concept = topic("any papers on recommender systems?")
    assert coverage(concept, advice.title, advice.abstract, Rarity([advice.abstract])) == 0.0


def test_a_field_said_before_papers_holds_for_every_alternative() -> None:
    concept = topic("rl papers with world models or learning diverse skills?")
    assert all({"rl"} in a for a in concept.alternatives)
    # "world models" is a whole term: no "diverse" alone from "world skills or diverse skills"
    assert [{"divers"}] not in concept.alternatives


def test_a_greeting_and_a_later_which_papers_ask_for_a_list() -> None:
    assert detect("hey, looking for methods that speed up generation at inference time", []).kind == "list"
    question = (
        "I am interested in research that critically examines how benchmarks are constructed. "
        "Which papers address this?"
    )
    assert detect(question, []).kind == "list"


def test_a_side_result_is_not_the_main_one() -> None:
    # closer in meaning to "the sharpness paper's main result" than the result itself is (0.5 against 0.2)
    with weighing_closeness(lambda text: 0.5 if text.startswith("Along the way") else 0.2):
        found = stating(SHARPNESS.abstract, asked("give me the main result"), [])
    assert found is not None and found.sentences[0].text.startswith("We show that")


def test_where_the_user_would_use_it_is_no_question_about_training() -> None:
    assert not [
        f for f in asked("which one gives me something practical i can use in training") if f.name == "training"
    ]
    assert "training" in [f.name for f in asked("how is it trained?")]


def test_the_type_of_generative_model_asks_the_model() -> None:
    assert [f.name for f in asked("what type of generative model does each one use?")] == ["models"]


def test_the_setting_a_result_is_for_is_asked_not_the_result() -> None:
    names = [f.name for f in asked("what architecture/setting is the result for")]
    assert "findings" not in names and "models" in names


def test_a_change_of_subject_alone_opens_the_request_after_it() -> None:
    found = segments.parts(
        "ok diff q. memory efficient finetuning of LMs without backprop? how much does it beat mezo by"
    )
    assert [p.text for p in found if p.kind == segments.SEARCH] != ["ok diff q."]
    assert found[0].text.startswith("ok diff q. memory efficient")


def test_running_models_somewhere_asks_for_the_models_not_the_running() -> None:
    concept = topic("and something for running vision transformers on phones?")
    assert "run" not in concept.required and "vit" in concept.required


def test_a_term_said_as_one_choice_beside_a_known_one_is_no_unknown_subject() -> None:
    zeroth = "We introduce MeZO-SVRG, a memory-efficient method for fine-tuning language models."
    rarity = Rarity([zeroth, READER.abstract])
    assert (
        unheard_terms(
            topic("also memory-efficient LM fine-tuning, or RLHF"),
            "also memory-efficient LM fine-tuning, or RLHF",
            rarity,
        )
        == []
    )
    assert unheard_terms(topic("any papers on RLHF?"), "any papers on RLHF?", rarity) == ["RLHF"]


def test_does_it_handle_x_asks_x_of_the_paper_in_focus() -> None:
    bures = hit(
        "BW",
        "Projected Bures-Wasserstein Gradient Descent",
        "The exploration of constrained settings within this framework remains limited. We derive a closed-form "
        "solution for the projection onto BW distance-constrained sets.",
    )
    answer = per_paper("does it handle constraints?", [bures], BASE).answer
    assert "does not mention" not in answer and "constrained" in answer


def test_either_of_two_subjects_asks_for_every_paper_on_them() -> None:
    assert detect("And on privacy, either differential privacy variants or federated learning?", []).kind == "list"
    assert detect("does either paper use differential privacy or federated learning?", []).kind != "list"


def test_of_models_after_a_field_binds_no_phrase() -> None:
    concept = topic("Which papers in the collection deal with interpretability or explainability of models?")
    assert not concept.phrases
    explainer = hit(
        "FD",
        "Explain Temporal Black-Box Models via Functional Decomposition",
        "We introduce FDTempExplainer, an innovative model-agnostic explanation method based on functional "
        "decomposition, tailored to unravel the complex interplay within black-box time series models.",
    )
    assert coverage(concept, explainer.title, explainer.abstract, Rarity([explainer.abstract, READER.abstract])) > 0
