"""Each part of a message answered, and each asked kind of fact read as the abstract states it: the
datasets beside an amount, a fact of the paper a selection picks, what earlier work lacks when the
abstract opens with its contribution, a finding where the asked words only set the scene."""

from __future__ import annotations

from assistant import compound
from assistant.answer import _as_spelled
from assistant.evidence import stating, topic
from assistant.facets import asked
from assistant.shapes import _parts, compared_within, comparison, lookup_sentences, per_paper
from assistant.strategies import _asks_openly, _names_a_paper, _two_asks, _without_set_aside
from tests.test_answer import converse_over, hit

BASE = dict(question="", rewritten_query="", notice="", kind="attribute")

READER = hit(
    "RA",
    "A Human-Inspired Reading Agent with Gist Memory of Very Long Contexts",
    "Current LLMs cannot robustly consume long inputs. To address these limitations, we propose ReadAgent, an LLM "
    "agent system that increases effective context length up to 20x in our experiments. Inspired by how humans "
    "read long documents, we implement ReadAgent as a prompting system that stores gist memories. We evaluate "
    "ReadAgent against baselines using retrieval methods. These evaluations are performed on three long-document "
    "reading comprehension tasks: QuALITY, NarrativeQA, and QMSum.",
)
VIDEO = hit(
    "DG",
    "DoraemonGPT: Understanding Dynamic Scenes with a Video Agent",
    "We present DoraemonGPT, an LLM agent for video. A planner based on Monte Carlo Tree Search schedules the "
    "tools the agent calls. We evaluate DoraemonGPT on three benchmarks.",
)


def test_a_paper_named_before_the_question_and_a_part_after_a_plus_are_parts_of_their_own() -> None:
    question = _as_spelled("and the long doc reader, what datasets + how much longer context does it get")
    assert _parts(question) == ["what datasets", "how much longer context does it get"]
    # the datasets sentence, which goes on from the one announcing the evaluation; not the sentence on
    # reading long documents, which the words naming the paper found
    said = " ".join(s.text for s in lookup_sentences(READER, "and the long document reader, what datasets?"))
    assert "QuALITY" in said and "Inspired by how humans" not in said


def test_a_fact_asked_after_a_selection_is_asked_of_the_paper_it_picked() -> None:
    pieces = compound.parts("which one is for long docs, and what did they evaluate on")
    assert pieces == ["which one is for long docs?", "What did they evaluate on"]
    assert compound.needs_two(["attribute", "attribute"], pieces)
    # an amount asked after a selection is asked of what it picked too
    pieces = compound.parts("which one has experiments n code? how many benchmarks did they look at")
    assert compound.needs_two(["attribute", "quantity"], pieces)
    _, answer = converse_over(
        [READER, VIDEO],
        ["llm agent papers?", "which one is for long documents, and what did they evaluate on"],
    )
    second = answer.answer.split("\n\n")[-1]
    assert "QuALITY" in second and "DoraemonGPT" not in second


def test_what_earlier_work_lacks_is_found_after_a_contribution_said_first() -> None:
    poisson = hit(
        "PS",
        "A Neural-Preconditioned Poisson Solver",
        "We introduce a neural-preconditioned iterative solver for Poisson equations. Unfortunately, effective "
        "preconditioners like multigrid require costly setup phases that must be re-executed every time the domain "
        "changes. We demonstrate that our solver outperforms algebraic multigrid on fluid simulations.",
    )
    line = per_paper("for the poisson one why not just use multigrid", [poisson], BASE).answer
    assert "costly setup phases" in line


DLT = hit(
    "DL",
    "Don't Label Twice: Quantity Beats Quality when Comparing Binary Classifiers on a Budget",
    "We study how to best spend a budget of noisy labels to compare two binary classifiers. It's common practice "
    "to aggregate multiple noisy labels for a data point via a majority vote. We prove a theorem that runs counter "
    "to conventional wisdom. If the goal is to identify the better of two classifiers, we show it's best to spend "
    "the budget on collecting a single label for more samples. Our result follows from an application of "
    "Cramér's theorem.",
)


def test_the_finding_answers_whether_to_keep_doing_what_the_scene_setting_names() -> None:
    for question in (
        "the labeling one - whats the takeaway, should i still majority vote?",
        "so majority voting across annotators is a waste?",
    ):
        assert "recommendation" in [f.name for f in asked(_as_spelled(question))], question
        line = per_paper(_as_spelled(question), [DLT], BASE).answer
        assert "single label for more samples" in line and "common practice" not in line, question


def test_a_pointer_set_against_an_acronym_its_abstract_spells_out_stays_inside_it() -> None:
    pit = hit(
        "PT",
        "Position-induced Transformer (PiT) for Operator Learning",
        "We propose PiT, built on position-attention. PiT does not rely on the input function values. PiT "
        "possesses an enhanced discretization convergence feature, compared to the widely-used Fourier neural "
        "operator.",
    )
    hare = hit("HT", "Hare and Tortoise Networks", "FNO HT We keep plasticity with two networks.")
    *_, answer = converse_over([pit, hare], ["tell me about PiT", "how does it compare to FNO"])
    assert [c.paper_id for c in answer.citations] == ["PT"] and "Fourier neural operator" in answer.answer
    assert compared_within(pit, ["FNO"], BASE) is not None


def test_the_other_one_names_no_further_paper_and_always_asks_when_it_holds() -> None:
    assert not _names_a_paper("and the other one - just random features or transformers too?")
    assert _names_a_paper("and the image one, any imagenet numbers?")
    assert _two_asks("and the other one - just random features or transformers too? does min degree always hold")
    degree = hit(
        "MD",
        "On the Minimal Degree Bias in Generalization on the Unseen",
        "We investigate random feature models and Transformers. We first prove that RF models converge to "
        "interpolators of minimal degree. We show two outcomes: (1) if the data is embedded with roots of unities, "
        "a min-degree interpolator is learned, (2) if the data is not embedded as such, RF models and Transformers "
        "may not learn minimal degree interpolators.",
    )
    assert [f.name for f in asked("does min degree always hold")] == ["conditions"]
    assert "may not learn" in per_paper("does min degree always hold", [degree], BASE).answer


def test_convergence_as_a_goal_or_a_measurement_is_no_proof() -> None:
    theory = [f for f in asked("does it prove convergence?") if f.name == "theory"]
    goal = "Zeroth-order methods save memory. In this work, we couple ZO methods with variance reduction techniques to "
    assert stating(goal + "enhance stability and convergence for LM fine-tuning.", theory, []) is None
    assert stating("We propose C-SOBA, with provable linear speedup convergence.", theory, []) is not None
    assert stating("We study label noise SGD. It always converges to a network of rank one.", theory, []) is not None


def test_a_claim_to_check_after_naming_the_paper_asks_for_it_not_a_summary() -> None:
    words = hit(
        "WA",
        "From Words to Actions",
        "In this work, from a theoretical lens, we study LLM agents. We prove that the LLM Planner performs "
        "imitation learning. We highlight the need for exploration by proving that naively executing the subgoals "
        "leads to a linear regret. As a remedy, we introduce an epsilon-greedy exploration strategy with sublinear "
        "regret.",
    )
    said = " ".join(
        s.text for s in lookup_sentences(words, "and the theory paper says llm planners get linear regret?")
    )
    assert "linear regret" in said


def test_what_is_new_over_earlier_work_is_what_the_paper_says_it_adds() -> None:
    crystal = hit(
        "EC",
        "Equivariant Diffusion for Crystal Structure Prediction",
        "Diffusion models have been extensively studied for CSP. In this work, we propose EquiCSP, a novel "
        "equivariant diffusion-based generative model. We not only address the overlooked issue of lattice "
        "permutation equivariance in existing models, but also develop a unique noising algorithm. Our experiments "
        "indicate that EquiCSP surpasses existing models.",
    )
    question = _as_spelled("whats new in the crystal one compared to earlier diffusion models for CSP")
    assert "novelty" in [f.name for f in asked(question)]
    said = " ".join(s.text for s in lookup_sentences(crystal, question))
    assert "lattice permutation equivariance" in said


def test_hardware_no_sentence_names_is_said_missing() -> None:
    para = hit(
        "PA",
        "Accelerating Parallel Sampling of Diffusion Models",
        "We propose ParaTAA, a training-free parallel sampler for diffusion models. Applied to Stable Diffusion, "
        "it produces the same images in only 7 inference steps.",
    )
    line = per_paper("What gpus did they run stable diffusion on", [para], BASE).answer
    assert "does not mention" in line and "7 inference steps" not in line


def test_a_kind_set_aside_after_the_question_is_left_out_of_the_list() -> None:
    agent = hit("AG", "LLM Agents in Theory", "We study LLM agents trained by reinforcement learning.")
    ewok = hit("EW", "Robust MDPs", "We solve robust MDPs with any reinforcement learning algorithm.")
    question = "what reinforcement learning algorithm papers are there? not the llm agent stuff"
    assert _without_set_aside(question, [agent, ewok]) == [ewok]
    assert _without_set_aside("any papers on llm agents?", [agent, ewok]) == [agent, ewok]


def test_a_second_part_saying_more_of_the_first_is_one_topic_and_a_framed_topic_drops_its_frame() -> None:
    joined = topic(
        _as_spelled("also is there anything about world models and backprop through them for policy learning")
    )
    assert len(joined.alternatives) == 1 and "backpropag" in joined.required
    assert topic("i work with multivariate time series, which papers would be relevant to me").text == (
        "multivariate time series"
    )
    assert topic("im looking into llm based agents, what do u have on that").text == "llm based agents"
    assert _asks_openly("i work on neural surrogates / solvers for pdes. what's relevant here")
    assert _asks_openly("im looking into llm based agents, what do u have on that")


def test_explaining_models_is_the_field_of_explanation_methods() -> None:
    assert "xai" in topic("anything on explaining time series models").required
    assert "xai" not in topic("anything on explaining how transformers work").required


def test_how_does_that_work_asks_how_and_a_comparison_table_does_not_repeat_its_summary() -> None:
    assert [f.name for f in asked("the video one uses tree search for planning right? how does that work")] == [
        "mechanism"
    ]
    words = hit("WA", "From Words to Actions", "We prove that the LLM planner generates subgoals by prompting.")
    answer = comparison(
        "how's that planner different from the one in the theory paper",
        [VIDEO, words],
        BASE,
        ["that planner", "the one in the theory paper"],
    )
    summary, table = answer.answer.split("\n\n", 1)
    assert "Monte Carlo Tree Search" in summary
    assert "Monte Carlo Tree Search" not in table
