"""Readings of a conversation's questions: a paper's title words typed before a dash, an overview of
"the X papers", "are any of them theory papers?" and what the picked ones prove, the problems a paper
targets, what earlier methods miss, a limitation of the method a sentence before names, how many is no
topic word, "two things I'm reading up on: A, and B", a phrase of one alternative breaking no other,
"what else here deals with X" after a premise, the experiments a list line shows, "the other one" of
two by its words, a wh-question of both is no selection, an acronym made an adjective names no
paper, a fact asked of "the X paper", a title holding only a field's name, which one claims the
bigger speedup, "two of those are about X", a proper name in a sentence, whether a paper is of a kind
its abstract never names, and bounds compared with the standard ones."""

from __future__ import annotations

from assistant.compound import needs_two
from assistant.condense import Turn, resolve, titled_preface
from assistant.evidence import coverage, topic
from assistant.facets import asked
from assistant.intents import detect
from assistant.shapes import answer_sentences, per_paper
from tests.test_answer import hit
from tests.test_fields_and_spellings import _assistant

CODEBOOK = ("C", "Codebook Features: Sparse and Discrete Interpretability for Neural Networks")
_BASE = {"question": "", "rewritten_query": ""}
EXPLAINER = ("E", "Explain Temporal Black-Box Models via Functional Decomposition")


def test_title_words_before_a_dash_name_the_paper_of_the_conversation() -> None:
    turns = [Turn("interpretability papers?", focus=[EXPLAINER, CODEBOOK]), Turn("the explainer?", focus=[EXPLAINER])]
    question = titled_preface("codebook features - how big were the models and what could they steer", turns)
    assert question.startswith("the codebook features one - ")
    assert resolve(question, turns).papers == [CODEBOOK]
    # a preface that is no title is left as typed; so is a title word of a paper never shown
    assert (
        titled_preface("switching topics: anything on backdoors?", turns) == "switching topics: anything on backdoors?"
    )
    assert titled_preface("neural granger causality: one model per variable?", turns).startswith("neural granger")


def test_an_overview_of_the_x_papers_asks_for_every_paper_on_x() -> None:
    concept = topic("Give me an overview of the LLM-based agent papers.")
    assert concept.required == ["llm", "agent"] and concept.led
    assert topic("summarize the diffusion papers").required == ["diffus"]


def test_are_any_of_them_theory_papers_asks_the_kind_and_then_what_they_prove() -> None:
    assert [f.name for f in asked("are any of them theory rather than systems papers?")] == ["theory"]
    assert needs_two(["attribute", "attribute"], ["are any of them theory papers?", "what do they prove"])
    # "game theory" is still a field, not a question about proofs
    assert "theory" not in [f.name for f in asked("which of the two involves game theory?")]


def test_the_problems_a_paper_targets_are_its_applications() -> None:
    assert "applications" in [f.name for f in asked("what problems does the other one target")]


def test_what_earlier_methods_miss_is_asked_of_earlier_work() -> None:
    assert "prior_limitations" in [f.name for f in asked("what does it capture that earlier methods miss?")]


def test_the_catch_of_a_method_the_sentence_before_describes_is_its_limitation() -> None:
    method = hit(
        "B",
        "Distributed Bilevel Optimization with Communication Compression",
        "We introduce distributed bilevel algorithms with compression. We first propose C-SOBA, a simple yet "
        "effective approach with unbiased compression. However, it relies on strong assumptions on bounded "
        "gradients. To address this limitation, we explore error feedback.",
    )
    said = [s.text for s in answer_sentences(method, "whats the catch with the simple C-SOBA version", False, True)]
    assert said[-1] == "However, it relies on strong assumptions on bounded gradients."


def test_how_many_and_going_beyond_are_no_words_of_a_topic() -> None:
    assert "sever" not in topic("papers on training distributed across several workers or clients?").required
    question = (
        "two things im reading up on: privacy guarantees that go beyond plain differential privacy, and "
        "memory-efficient finetuning of LMs. anything relevant?"
    )
    concept = topic(question)
    assert len(concept.alternatives) == 2 and "beyond" not in concept.required
    assert detect(question, []).kind == "list"


def test_a_phrase_of_one_alternative_breaks_no_other() -> None:
    concept = topic("Are there other papers in the collection that use causal inference or causal models?")
    title = "Causal Inference from Competing Treatments"
    assert coverage(concept, title, "We estimate causal effects with a game-theoretic model of agents.") == 1.0
    # the phrase still holds for the alternative it belongs to
    assert (
        coverage(
            topic("papers on causal models?"),
            "Trials",
            "Causal effects are estimated for every patient in the hospital trial; later a network model is trained.",
        )
        == 0.0
    )


def test_what_else_here_deals_with_x_after_a_premise_asks_for_the_others() -> None:
    question = "FedPIN is after OOD generalization; what else here deals with out-of-distribution generalization?"
    assert detect(question, [], 1).kind == "list"
    assert detect("what else here deals with out-of-distribution generalization?", [], 1).kind == "list"


def test_a_list_of_papers_run_on_tasks_shows_the_sentence_saying_what_they_ran_on() -> None:
    robust = hit(
        "R",
        "Robust MDPs by Estimating the Worst Kernel",
        "We present EWoK, an approach to robust reinforcement learning. EWoK achieves robustness by simulating "
        "the worst scenarios for the agent. Our experiments, spanning from simple Cartpole to DeepMind Control "
        "Suite environments, demonstrate the effectiveness of EWoK.",
    )
    answer = _assistant([robust]).ask("rl papers evaluated on simulated robot or control tasks?")
    assert "Cartpole" in answer.answer and "simulating the worst" not in answer.answer


def test_the_other_one_of_two_is_the_one_holding_the_asked_words() -> None:
    skills, robust, world = ("K", "Diverse skills"), ("R", "Robust MDPs"), ("W", "World models")
    abstracts = {"K": "Mixture of experts.", "R": "A robust RL algorithm for robust MDPs.", "W": "Policy gradients."}
    turns = [Turn("rl papers?", focus=[skills, robust, world]), Turn("the skills one?", focus=[skills])]
    question = "and the other one, do i need a special robust rl algo to use it?"
    assert resolve(question, turns, abstracts.__getitem__).papers == [robust]
    # with no paper holding the words, the others as before
    assert resolve("and the other one?", turns, abstracts.__getitem__).papers == [robust, world]


def test_a_wh_question_of_both_is_asked_of_each_not_a_selection() -> None:
    reader = hit(
        "R",
        "A Reading Agent with Gist Memory",
        "To address these limits, we propose ReadAgent, an agent for long contexts. We implement ReadAgent "
        "to decide what content to store together in a memory episode.",
    )
    video = hit("V", "A Video Agent", "DoraemonGPT converts the input video into a symbolic memory.")
    answer = per_paper("how do both of them store the input in memory?", [reader, video], _BASE)
    assert "store together in a memory episode" in answer.answer


def test_an_acronym_made_an_adjective_names_no_paper_of_the_conversation() -> None:
    video = hit("V", "A Video Agent", "We introduce an LLM-driven planner for video questions.")
    theory = hit("T", "Why agents work", "We study why LLM agents solve decision-making problems in theory.")
    history = [{"question": "agents for video?", "citations": [{"paper_id": "V", "title": video.title}]}]
    answer = _assistant([video, theory]).ask(
        "Is there any theoretical work explaining why LLM-driven agents manage to solve decision-making problems?",
        history,
    )
    assert [c.paper_id for c in answer.citations][:1] == ["T"]


def test_which_one_claims_the_bigger_speedup_gives_each_figure() -> None:
    assert detect("which one claims the bigger speedup", [], 2).kind == "quantity"
    fast = hit("F", "Lookahead Decoding", "We propose lookahead decoding. It speeds up decoding by up to 1.8x.")
    sampler = hit(
        "S",
        "Parallel Sampling of Diffusion Models",
        "We propose ParaTAA. ParaTAA can decrease the inference steps by a factor of 4 to 14 times.",
    )
    for question in (
        "Which one claims the bigger speedup",
        "which of the two gets the bigger speedup going by the numbers",
    ):
        answer = per_paper(question, [fast, sampler], _BASE, need_number=True)
        assert "1.8x" in answer.answer and "14 times" in answer.answer


def test_two_of_those_are_about_x_asks_of_the_two() -> None:
    label = hit("L", "Don't Label Twice", "We study benchmarks of binary classifiers on a label budget.")
    trade = hit("D", "Trade-Offs in Multi-Task Benchmarks", "We examine multi-task benchmarks and their rankings.")
    causal = hit("C", "Competing Treatments", "We estimate causal effects under competition among experimenters.")
    history = [
        {
            "question": "papers by Moritz Hardt?",
            "citations": [{"paper_id": h.paper_id, "title": h.title} for h in (label, trade, causal)],
        }
    ]
    plan = _assistant([label, trade, causal]).plan(
        "two of those are about benchmarks right? what do they conclude", history
    )
    assert sorted(h.paper_id for h in plan.focus) == ["D", "L"]


def test_a_proper_name_in_a_sentence_says_which_theorem_is_used() -> None:
    trade = hit("D", "Trade-Offs in Benchmarks", "We apply Arrow's impossibility theorem to ordinal benchmarks.")
    other = hit("L", "Label Budgets", "We prove a theorem on label budgets with Cramér's bound.")
    answer = per_paper("which one uses arrows impossibility theorem", [trade, other], _BASE)
    assert answer.focus[0]["paper_id"] == "D" and answer.focus[0].get("selected")


def test_a_kind_of_fact_asked_of_the_x_paper_is_answered_by_the_sentences_stating_it() -> None:
    federated = hit(
        "F",
        "Personalized Federated Invariant Learning",
        "We propose a causal signature for personalized federated learning. Theoretical analysis demonstrates "
        "a tighter bound on generalization error. Moreover, we provide a theoretical guarantee on the "
        "convergence rate.",
    )
    privacy = hit("P", "Renyi Pufferfish Privacy", "We introduce a variant of Pufferfish privacy.")
    history = [
        {
            "question": "differential privacy or federated learning?",
            "citations": [{"paper_id": "P", "title": privacy.title}, {"paper_id": "F", "title": federated.title}],
        },
        {"question": "the pufferfish paper?", "citations": [{"paper_id": "P", "title": privacy.title}]},
    ]
    plan = _assistant([federated, privacy]).plan(
        "And what theoretical guarantees does the federated paper provide?", history
    )
    assert plan.intent.kind == "attribute" and [h.paper_id for h in plan.focus] == ["F"]


def test_a_title_holding_only_a_fields_name_picks_no_paper() -> None:
    skills = hit(
        "K",
        "Acquiring Diverse Skills using Curriculum Reinforcement Learning",
        "We propose an RL method for learning diverse skills with a mixture of experts.",
    )
    robust = hit(
        "R",
        "Bring Your Own Algorithm to Solve Robust MDPs",
        "EWoK can be applied on top of any off-the-shelf non-robust RL algorithm.",
    )
    answer = per_paper("which one can be applied on top of an existing rl algorithm", [skills, robust], _BASE)
    assert [f["paper_id"] for f in answer.focus if f.get("selected")] == ["R"]
    # a title holding a word of the subject itself still picks its paper
    manifold = hit("M", "Change Point Detection on Riemannian Manifolds", "We detect changes in data streams.")
    answer = per_paper("which one handles data living on a manifold?", [skills, manifold], _BASE)
    assert [f["paper_id"] for f in answer.focus if f.get("selected")] == ["M"]


def test_is_it_a_kind_the_abstract_never_names_is_answered_by_what_the_paper_is() -> None:
    tempering = hit(
        "T",
        "Diffusion Tempering for Parameter Estimation in ODEs",
        "ODEs describe dynamical systems. We therefore propose diffusion tempering, a novel regularization "
        "technique for probabilistic numerical methods. We demonstrate that our method obtains reliable "
        "parameter estimates for a Hodgkin-Huxley model.",
    )
    answer = per_paper("is it a generative model too?", [tempering], _BASE)
    assert "a novel regularization technique" in answer.answer


def test_bounds_compared_with_standard_ones_compare_no_papers() -> None:
    question = "what mathematical tool underlies its main theorem, and how do its bounds compare with standard ones?"
    assert detect(question, [], 1).kind != "compare"
    assert detect("compare it with lookahead decoding", [], 1).kind == "compare"


def test_the_other_one_after_a_selection_is_the_one_holding_the_asked_words() -> None:
    trade, label, codes = ("D", "Trade-offs in benchmarks"), ("L", "Label budgets"), ("C", "Codebook features")
    abstracts = {
        "D": "Social choice theory.",
        "L": "Our main theorem follows from Cramér's theorem; sample size bounds beat Hoeffding.",
        "C": "Sparse codes in neural networks.",
    }
    turns = [
        Turn("benchmark papers?", focus=[trade, label, codes]),
        Turn("which of these draws on social choice theory?", focus=[trade, label, codes], selected=[trade]),
    ]
    question = "And the other one: what tool underlies its main theorem, and how do its sample size bounds compare?"
    assert resolve(question, turns, abstracts.__getitem__).papers == [label]
    assert resolve("what does the other one do?", turns, abstracts.__getitem__).papers == [label, codes]
