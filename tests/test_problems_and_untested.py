"""What a paper is trying to fix, whether it was tested at all, what it can be used for, and the
readings of a search that decide which papers answer: kinds narrowed after a dash, "chemistry or
materials", "what about X", "crystal one -", "optimal transport or optimization", "explaining model
predictions", "run on control benchmarks", "even if they're not about X"."""

from __future__ import annotations

from dataclasses import replace

from assistant import compound
from assistant.condense import Turn, resolve
from assistant.evidence import Rarity, topic
from assistant.facets import asked
from assistant.shapes import about_topic, answer_sentences, per_paper
from assistant.strategies import _asks_openly, relevant
from tests.test_answer import hit
from tests.test_asked_parts import BASE

PARATAA = hit(
    "PT",
    "Accelerating Parallel Sampling of Diffusion Models",
    "Sampling from diffusion models is usually time-consuming. In this work, we propose a novel approach that "
    "accelerates the sampling of diffusion models by parallelizing the autoregressive process. Applying these "
    "techniques, we introduce ParaTAA, a universal and training-free parallel sampling algorithm that can "
    "leverage extra computational and memory resources to increase the sampling speed. Our experiments "
    "demonstrate that ParaTAA can decrease the inference steps required by common sequential sampling "
    "algorithms such as DDIM and DDPM by a factor of 4$\\sim$14 times.",
)
LOOKAHEAD = hit(
    "LA",
    "Break the Sequential Dependency of LLM Inference Using Lookahead Decoding",
    "Autoregressive decoding of large language models (LLMs) is memory bandwidth bounded, resulting in high "
    "latency. In this paper, we introduce Lookahead decoding, an exact, parallel decoding algorithm that accelerates "
    "LLM decoding without needing auxiliary models or data stores. Our implementation can speed up "
    "autoregressive decoding by up to 1.8x on MT-bench.",
)
READER = hit(
    "RA",
    "A Human-Inspired Reading Agent with Gist Memory of Very Long Contexts",
    "Current Large Language Models (LLMs) are limited by their context length. We propose ReadAgent, an LLM "
    "agent system that increases effective context length up to 20x in our experiments.",
)
MOLECULES = hit(
    "PM",
    "Projecting Molecules into Synthesizable Chemical Spaces",
    "Numerous generative models have recently been introduced to accelerate the drug discovery process, but "
    "their progression to experimental validation remains limited. In this work, we introduce a novel "
    "framework that is capable of generating new chemical structures while ensuring synthetic accessibility. "
    "Then, we design a transformer-based model to translate molecular graphs into postfix notations of "
    "synthesis. We highlight the model's ability to: (a) perform bottom-up synthesis planning more "
    "accurately, and (b) explore the local synthesizable chemical space around hit molecules.",
)
CRYSTALS = hit(
    "EC",
    "Equivariant Diffusion for Crystal Structure Prediction",
    "In addressing the challenge of Crystal Structure Prediction (CSP), symmetry-aware deep learning models "
    "have been extensively studied. In this work, we propose EquiCSP, a novel equivariant diffusion-based "
    "generative model. We not only address the overlooked issue of lattice permutation equivariance in "
    "existing models, but also develop a unique noising algorithm that maintains periodic translation "
    "equivariance.",
)
COMPETING = hit(
    "CT",
    "Causal Inference from Competing Treatments",
    "Many applications of RCTs involve the presence of multiple treatment administrators---from field "
    "experiments to online advertising---that compete for the subjects' attention. In this paper, we build a "
    "game-theoretic model of agents who wish to estimate causal effects in the presence of competition. Our "
    "main technical result establishes an approximation with a tractable objective. We show that the "
    "tractable objective has a pure Nash equilibrium.",
)
PLASTICITY = hit(
    "HT",
    "Slow and Steady Wins the Race: Maintaining Plasticity with Hare and Tortoise Networks",
    "This study investigates the loss of generalization ability in neural networks, revisiting warm-starting "
    "experiments from Ash & Adams. To this end, we introduce the Hare & Tortoise, inspired by the brain's "
    "complementary learning system. It improves reinforcement learning algorithms on the Atari-100k benchmark.",
)
EWOK = hit(
    "EW",
    "Bring Your Own (Non-Robust) Algorithm to Solve Robust MDPs by Estimating The Worst Kernel",
    "We present EWoK, a novel online approach to solve robust Markov decision processes in reinforcement "
    "learning. Our experiments, spanning from simple Cartpole to high-dimensional DeepMind Control Suite "
    "environments, demonstrate the effectiveness of the EWoK paradigm.",
)


def test_kinds_narrowed_after_a_dash_keep_the_list_to_papers_of_those_kinds() -> None:
    concept = topic("need stuff on making generation faster at inference time - llms or diffusion, either works")
    assert concept.narrowed and "llm" not in concept.required
    rarity = Rarity([h.abstract for h in (PARATAA, LOOKAHEAD, READER)])
    about = about_topic(concept, [PARATAA, LOOKAHEAD, READER], rarity)
    assert PARATAA in about and READER not in about
    # read as alternatives of their own, "llms" made every LLM paper one on faster generation
    assert READER in about_topic(replace(concept, alternatives=[*concept.alternatives, [{"llm"}]]), [READER], rarity)


def test_a_word_said_as_one_of_a_slots_choices_is_met_by_any_of_them() -> None:
    question = "ok. what about chemistry or materials then"
    assert relevant(question, replace(MOLECULES, dense_score=0.196), 0.33)
    assert relevant(question, replace(CRYSTALS, dense_score=0.186), 0.33)
    assert not relevant("chemical robots", replace(MOLECULES, dense_score=0.196), 0.33)
    # "what about X" opens a new search; "what about the second one" points at a paper
    assert _asks_openly(question)
    assert not _asks_openly("what about the second one")
    assert _asks_openly("LLM-based agents - what's in here?")


def test_the_x_one_said_first_without_the_names_the_paper() -> None:
    shown = [(MOLECULES.paper_id, MOLECULES.title), (CRYSTALS.paper_id, CRYSTALS.title)]
    turns = [Turn("what about chemistry or materials then", focus=shown)]
    question = "crystal one - which symmetries does it handle that earlier models missed"
    assert resolve(question, turns).papers == [shown[1]]
    # "which one", "that paper" said first name no title
    assert resolve("which one handles symmetries?", turns).papers != [shown[1]]
    found = answer_sentences(CRYSTALS, "which symmetries does it handle that earlier models missed")
    assert any("overlooked issue of lattice permutation" in s.text for s in found)


def test_what_a_model_can_be_used_for_is_its_own_ability_not_the_scene() -> None:
    found = answer_sentences(MOLECULES, "what can it actually be used for")
    assert found[0].text.startswith("We highlight the model's ability")
    assert {f.name for f in asked("what's the model and what can it do")} == {"models", "applications"}


def test_the_biggest_speedup_asks_which_figure_not_the_word() -> None:
    found = answer_sentences(PARATAA, "whats the biggest speedup each one reports", need_number=True)
    assert found and "4$\\sim$14 times" in found[0].text


def test_what_a_paper_is_trying_to_fix_is_its_problem() -> None:
    assert "remedy" not in [f.name for f in asked("what is the atari one actually trying to fix")]
    assert "remedy" in [f.name for f in asked("does it propose a fix?")]
    found = answer_sentences(PLASTICITY, "what is the atari one actually trying to fix")
    assert found[0].text.startswith("This study investigates the loss of generalization")


def test_a_paper_that_runs_no_experiment_says_so_with_what_it_reports() -> None:
    answer = per_paper(
        "Does the competing treatments paper evaluate its model on real experimental data?", [COMPETING], BASE
    ).answer
    assert "mentions no experiments" in answer and "main technical result" in answer
    # a paper that reports results in figures was tried out, in whatever words
    answer = per_paper("do they evaluate on real data?", [LOOKAHEAD], BASE).answer
    assert "mentions no experiments" not in answer


def test_a_fact_then_whether_it_allows_something_are_two_questions() -> None:
    pieces = compound.parts("which envs did the robust one use? and can i plug in my own algo")
    assert len(pieces) == 2 and compound.needs_two(["attribute", "lookup"], pieces)
    assert "evaluation" in [f.name for f in asked("which envs did the robust one use?")]


def test_explaining_model_predictions_is_no_theoretical_explanation() -> None:
    prune = hit(
        "NP",
        "No Free Prune: Information-Theoretic Barriers to Pruning at Initialization",
        "We put forward a theoretical explanation for this, based on the model's effective parameter count.",
    )
    explainer = hit(
        "FD",
        "Explain Temporal Black-Box Models via Functional Decomposition",
        "We introduce FDTempExplainer, an innovative model-agnostic explanation method based on functional "
        "decomposition, tailored to black-box time series models.",
    )
    concept = topic("Could you point me to papers on interpretability or explaining model predictions?")
    rarity = Rarity([prune.abstract, explainer.abstract, READER.abstract])
    assert about_topic(concept, [explainer, prune], rarity) == [explainer]


def test_two_alternatives_sharing_a_stem_name_no_field() -> None:
    concept = topic("are there papers on optimal transport or optimization in Wasserstein geometry?")
    assert [{"optim"}] not in concept.alternatives
    # the same word leading each still names the field
    assert [{"causal"}] in topic("causal inference or causal discovery papers?").alternatives


def test_applied_to_an_already_trained_model_asks_what_it_works_on() -> None:
    question = "Which of the two can be applied to an already-trained model without changing it?"
    assert [f.name for f in asked(question)] == ["agnostic"]
    explainer = hit(
        "FD",
        "Explain Temporal Black-Box Models via Functional Decomposition",
        "We introduce FDTempExplainer, an innovative model-agnostic explanation method for black-box time series "
        "models. We demonstrate the effectiveness of our approach in a wide range of time series applications.",
    )
    codebook = hit(
        "CB",
        "Codebook Features: Sparse and Discrete Interpretability for Neural Networks",
        "We finetune neural networks with vector quantization bottlenecks at each layer. We then train "
        "Transformer language models with up to 410M parameters on two natural language datasets.",
    )
    answer = per_paper(question, [codebook, explainer], BASE).answer
    assert answer.index("model-agnostic") < answer.index("Codebook") and "410M" not in answer


def test_benchmarks_a_paper_is_run_on_answer_a_search_for_papers_run_on_them() -> None:
    concept = topic("which rl papers run experiments on robot simulation / control benchmarks?")
    assert concept.run_on
    rarity = Rarity([EWOK.abstract, READER.abstract, PLASTICITY.abstract])
    assert EWOK in about_topic(concept, [EWOK, READER], rarity)
    assert not topic("papers on how to design benchmarks").run_on


def test_even_if_loosens_a_topic_and_adds_nothing_to_it() -> None:
    concept = topic("Are there other papers on time-series data, even if they're not about causal discovery?")
    assert concept.required == ["time", "seri"]


def test_environments_asked_are_called_environments_when_none_is_named() -> None:
    skills = hit(
        "DS",
        "Acquiring Diverse Skills using Curriculum Reinforcement Learning with Mixture of Experts",
        "We introduce Di-SkilL, an RL method for learning diverse skills. We show on challenging robot simulation "
        "tasks that Di-SkilL can learn diverse and performant skills.",
    )
    answer = per_paper("what environments do they use?", [skills, EWOK], BASE).answer
    assert "does not name the environments" in answer and "datasets or benchmarks" not in answer
