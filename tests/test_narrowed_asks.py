"""What a question narrows, picks by and asks besides: a topic narrowed by "A or B, either" after
its question mark, a reading list asked for in a sentence of its own, the optimizer a paper
analyses, "is it only X or do they look at Y too", a paper picked by what it uses with the data asked
after ", and", names in brackets, counts of experiments on benchmarks, a practical method against
theory, environments tested on, a bare "what tasks" after a first question, "compared to what", and the
second paper of a comparison whose first sentence was said already."""

from __future__ import annotations

from assistant import intents
from assistant.answer import _ABOUT_ME, _NAMES_NOTHING
from assistant.evidence import Rarity, topic
from assistant.facets import asked
from assistant.shapes import about_topic, answer_sentences, asked_part, per_paper
from tests.test_answer import hit
from tests.test_asked_parts import BASE

LOOKAHEAD = hit(
    "LA",
    "Break the Sequential Dependency of LLM Inference Using Lookahead Decoding",
    "Autoregressive decoding of large language models (LLMs) is memory bandwidth bounded, resulting in high "
    "latency. In this paper, we introduce Lookahead decoding, an exact, parallel decoding algorithm that "
    "accelerates LLM decoding without needing auxiliary models or data stores, cutting generation time at "
    "inference.",
)
PARATAA = hit(
    "PT",
    "Accelerating Parallel Sampling of Diffusion Models",
    "Diffusion models have emerged as state-of-the-art generative models for image generation. However, sampling "
    "from diffusion models is usually time-consuming due to the inherent autoregressive nature of their sampling "
    "process. In this work, we propose a novel approach that accelerates the sampling of diffusion models by "
    "parallelizing the autoregressive process, which speeds up inference.",
)
POISSON = hit(
    "PS",
    "A Neural-Preconditioned Poisson Solver for Mixed Dirichlet and Neumann Boundary Conditions",
    "We introduce a neural-preconditioned iterative solver for Poisson equations with mixed boundary conditions. "
    "The key to our preconditioner's success is a novel, lightweight neural network architecture featuring "
    "spatially varying convolution kernels and supporting fast inference at generation time.",
)
CONNECT = hit(
    "CL",
    "Connect Later: Improving Fine-tuning for Robustness with Targeted Augmentations",
    "Models trained on a labeled source domain often generalize poorly when deployed on an out-of-distribution "
    "(OOD) target domain. In this paper, we show on real-world tasks that standard fine-tuning after pretraining "
    "does not consistently improve OOD error over simply training from scratch on labeled source data. To better "
    "leverage pretraining for distribution shifts, we propose the Connect Later framework, which fine-tunes the "
    "model with targeted augmentations designed with knowledge of the shift. Connect Later achieves "
    "state-of-the-art OOD accuracy on 4 real-world tasks in wildlife identification (iWildCam-WILDS), tumor "
    "detection (Camelyon17-WILDS), and astronomy (AstroClassification, Redshifts).",
)
FEDPIN = hit(
    "FP",
    "Causally Motivated Personalized Federated Invariant Learning with Shortcut-Averse Information-Theoretic "
    "Regularization",
    "Exploiting invariant relations between representation and target can tackle the challenging "
    "out-of-distribution (OOD) generalization problem. Theoretical analysis demonstrates our method, FedPIN, can "
    "yield a tighter bound on generalization error than the prevalent PFL approaches. The results of extensive "
    "experiments show that our method can achieve superior OOD generalization performance compared with the "
    "state-of-the-art competitors.",
)


def test_a_topic_narrowed_to_two_kinds_lists_only_papers_of_one() -> None:
    question = (
        "what's in here on making generation faster at inference time? LLM decoding or diffusion sampling, either"
    )
    concept = topic(question)
    assert concept.text == "making generation faster at inference time"
    assert len(concept.narrowed) == 2
    papers = [LOOKAHEAD, PARATAA, POISSON]
    rarity = Rarity([f"{h.title} {h.abstract}" for h in papers])
    assert [h.paper_id for h in about_topic(concept, papers, rarity)] == ["LA", "PT"]
    # without the narrowing sentence the Poisson solver's "fast inference at generation time" is about it
    assert "PS" in [h.paper_id for h in about_topic(topic(question.split("?")[0] + "?"), papers, rarity)]
    # opened by "either", and "on the vision side" names vision
    other = topic("Other efficiency papers? Either on the vision side or about communication cost in training")
    assert other.required == ["effici"] and [{"vision"}] in other.narrowed
    # a second question is no narrowing
    assert not topic("papers on decoding? which of them is faster or cheaper").narrowed


def test_a_reading_list_asked_for_in_a_sentence_of_its_own_is_a_list_of_the_first_sentences_topic() -> None:
    question = "I'm compiling a reading list on LLM-based agents. What in this collection is relevant?"
    assert intents.detect(question, []).kind == "list"
    said = _ABOUT_ME.match(question)
    assert said is not None and _NAMES_NOTHING.match(said.group(2))
    assert topic(question).required == ["llm", "agent"]
    # a last sentence that names its own topic is still the question
    assert not _NAMES_NOTHING.match("which papers use neural nets for PDEs?")


def test_the_optimizer_a_paper_analyzes_is_the_algorithm_it_names() -> None:
    sharp = hit(
        "SB",
        "Simplicity Bias via Global Convergence of Sharpness Minimization",
        "Despite the folklore intuition that flat solutions are 'simple', the connection is not well understood. In "
        "this work, we take a step toward bridging this gap by studying the simplicity structure that arises from "
        "minimizers of the sharpness. We show that, with small enough step size, label noise SGD always converges "
        "to a network that replicates a single linear feature across all neurons.",
    )
    question = "what optimizer does the sharpness paper analyze, and where does it end up"
    assert [f.name for f in asked(question)] == ["optimizer"]
    found = answer_sentences(sharp, question)
    assert found and "label noise SGD" in found[0].text


def test_only_one_thing_or_another_too_asks_for_the_other() -> None:
    question = "the GOTU one, is it only theory on random features or do they look at transformers too"
    assert asked_part(question) == "the GOTU one, do they look at transformers too"
    gotu = hit(
        "GO",
        "On the Minimal Degree Bias in Generalization on the Unseen for non-Boolean Functions",
        "We investigate the out-of-domain generalization of random feature (RF) models and Transformers. We first "
        "prove that in the generalization on the unseen (GOTU) setting, for RF models in the small feature regime, "
        "the convergence takes place to interpolators of minimal degree.",
    )
    assert "Transformers" in per_paper(question, [gotu], BASE).answer
    assert asked_part("is it only theory?") == "is it only theory?"


def test_a_paper_picked_by_what_it_uses_is_asked_the_data_after_and() -> None:
    answer = per_paper(
        "which one uses pretraining plus targeted augmentations, and on what datasets?", [FEDPIN, CONNECT], BASE
    )
    first, second = answer.answer.split("\n")
    assert "Connect Later" in first and "iWildCam-WILDS" in first and "does not name" not in first
    assert "FedPIN" not in first and "does not mention" in second


def test_names_in_brackets_are_names() -> None:
    line = per_paper("what datasets does it use?", [CONNECT], BASE).answer
    assert "iWildCam-WILDS" in line and "does not name" not in line


def test_how_many_benchmarks_is_answered_by_the_count_not_by_a_theorem_on_them() -> None:
    bench = hit(
        "MB",
        "Inherent Trade-Offs between Diversity and Stability in Multi-Task Benchmarks",
        "We examine multi-task benchmarks through the lens of social choice theory. We apply Arrow's impossibility "
        "theorem to ordinal benchmarks to highlight the inherent limitations of ordinal systems. Through extensive "
        "experiments on seven cardinal benchmarks and eleven ordinal benchmarks, we demonstrate a clear trade-off "
        "between diversity and stability.",
    )
    label = hit(
        "DL",
        "Don't Label Twice: Quantity Beats Quality when Comparing Binary Classifiers on a Budget",
        "We study how to best spend a budget of noisy labels to compare the accuracy of two binary classifiers. We "
        "discuss the implications of our work for the design of machine learning benchmarks.",
    )
    lines = per_paper(
        "do either of them actually run experiments on real benchmarks? how many", [label, bench], BASE, True
    ).answer.split("\n")
    assert "seven cardinal benchmarks" in lines[0] and "Arrow" not in lines[0]
    assert "does not mention" in lines[1]


def test_a_practical_method_against_theory_says_which_has_no_experiments() -> None:
    theory = hit(
        "SB",
        "Simplicity Bias via Global Convergence of Sharpness Minimization",
        "In this work, we study minimizers of the sharpness. We prove that label noise SGD always converges to a "
        "network that replicates a single linear feature.",
    )
    dynamics = hit(
        "WD",
        "On the Weight Dynamics of Deep Normalized Networks",
        "We prove that when training with any constant learning rate, ELR ratios converge to 1. To validate our "
        "findings, we devise a hyper-parameter-free warm-up method that minimizes ELR spread in theory and practice.",
    )
    question = "do either of them give a practical method or is it all theory"
    assert [f.name for f in asked(question)] == ["theory"]  # "practical" is no question about experiments alone
    lines = per_paper(question, [theory, dynamics], BASE).answer.split("\n")
    assert lines[0].endswith("The abstract mentions no experiments.")
    assert "warm-up method" in lines[1]


def test_environments_tested_on_are_named_not_looked_up_as_a_word() -> None:
    skills = hit(
        "DS",
        "Acquiring Diverse Skills using Curriculum Reinforcement Learning with Mixture of Experts",
        "We propose Di-SkilL, an RL method for learning diverse skills. Without any prior knowledge of the "
        "environment's unknown context distribution, we leverage energy-based models. We show on challenging robot "
        "simulation tasks that Di-SkilL can learn diverse and performant skills.",
    )
    found = answer_sentences(skills, "what environments do they each test on")
    assert found and "robot simulation tasks" in found[0].text


def test_a_bare_what_tasks_after_a_first_question_is_answered_too() -> None:
    explainer = hit(
        "FD",
        "Explain Temporal Black-Box Models via Functional Decomposition",
        "To address this challenge, we introduce FDTempExplainer, an innovative model-agnostic explanation method "
        "tailored to black-box time series models. We demonstrate the effectiveness of our approach in a wide range "
        "of time series applications, including anomaly detection, classification, and forecasting.",
    )
    line = per_paper("the time series one, is it tied to a specific model? what tasks", [explainer], BASE).answer
    assert "model-agnostic" in line and "anomaly detection" in line


def test_compared_to_what_gives_every_comparison_the_paper_states() -> None:
    pit = hit(
        "PI",
        "Positional Knowledge is All You Need: Position-induced Transformer (PiT) for Operator Learning",
        "Transformers with the self-attention mechanism have recently been adapted for operator learning. However, "
        "they confront challenges, including high computational demands. This paper proposes the Position-induced "
        "Transformer (PiT), which demonstrates significant advantages over the classical self-attention in operator "
        "learning. PiT exhibits superior performance over current state-of-the-art neural operators across diverse "
        "PDE benchmarks. Additionally, PiT possesses an enhanced discretization convergence feature, compared to "
        "the widely-used Fourier neural operator.",
    )
    line = per_paper("and the transformer one is compared to what?", [pit], BASE).answer
    assert "classical self-attention" in line and "neural operators" in line and "Fourier neural operator" in line
    assert "confront challenges" not in line
    # asked what it does, the comparisons are not piled on
    assert "Fourier" not in per_paper("what does the transformer one propose?", [pit], BASE).answer


def test_a_sentence_left_of_a_comparison_keeps_its_own_papers_name() -> None:
    from assistant.compound import _not_shown

    first = "“PiT” [1]: This paper proposes the Position-induced Transformer, which has advantages over self-attention."
    second = (
        "“PiT” [1]: This paper proposes the Position-induced Transformer, which has advantages over self-attention. "
        "Mobile Attention [2] proposes a novel Mobile-Attention design with a head-competition mechanism."
    )
    left = _not_shown(second, first)
    assert left.startswith("Mobile Attention [2] proposes") and "“PiT”" not in left
    # a line whose own sentence stays keeps its head
    kept = _not_shown("“PiT” [1]: PiT beats neural operators on PDE benchmarks by far.", first)
    assert kept.startswith("“PiT” [1]: PiT beats")
