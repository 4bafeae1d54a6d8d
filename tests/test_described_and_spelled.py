"""A paper named by a word of its abstract ("the transformers one", "the brain thing"), the domain a
paper is aimed at, acronyms searched with their words, "those two" when one paper was shown, a list
with a fact asked of each, and the smaller readings of a question ("wat", "sim", "the codebook work",
"2nd", "provide", "build or analyze", "how benchmarks are designed")."""

from __future__ import annotations

from dataclasses import replace

from assistant import compound
from assistant.answer import _FOR_MY_WORK, _as_spelled, _spelled_out
from assistant.condense import Turn, resolve
from assistant.evidence import topic
from assistant.facets import asked
from assistant.shapes import answer_sentences, focal_terms, per_paper
from assistant.strategies import relevant
from tests.test_answer import hit
from tests.test_asked_parts import BASE
from tests.test_kinds_and_prefaces import GRANGER

SIMPLE = hit(
    "SB",
    "Simplicity Bias via Global Convergence of Sharpness Minimization",
    "We show that label noise SGD converges to a network that replicates a single linear feature.",
)
DEGREE = hit(
    "MD",
    "On the Minimal Degree Bias in Generalization on the Unseen",
    "We study random feature models. If the data is embedded as integers, RF models and Transformers may not "
    "learn minimal degree interpolators.",
)
BRAIN = hit(
    "HT",
    "Slow and Steady Wins the Race: Maintaining Plasticity with Hare and Tortoise Networks",
    "This study investigates the loss of generalization ability in neural networks. To this end, we introduce "
    "the Hare & Tortoise, inspired by the brain's complementary learning system. It improves reinforcement "
    "learning algorithms on the Atari-100k benchmark.",
)


def test_the_x_one_names_the_paper_whose_abstract_says_x_when_no_title_does() -> None:
    shown = [(SIMPLE.paper_id, SIMPLE.title), (DEGREE.paper_id, DEGREE.title)]
    turns = [Turn("papers on implicit bias?", focus=shown)]
    abstracts = {h.paper_id: h.abstract for h in (SIMPLE, DEGREE)}
    question = "the transformers one - does it say transformers always learn min-degree interpolators?"
    assert resolve(question, turns, abstracts.__getitem__).papers == [shown[1]]
    # without the abstracts, the paper just discussed, as before
    assert resolve(question, turns).papers == [shown[0]]
    # a word every abstract may say names none
    assert resolve("what does the main one show?", turns, abstracts.__getitem__).papers != [shown[1]]


def test_the_brain_thing_asks_for_the_brain_when_nothing_else_is_asked() -> None:
    assert focal_terms("what's the brain thing there") == ["brain"]
    assert "brain's complementary" in answer_sentences(BRAIN, "what's the brain thing there")[0].text
    # "the hare tortoise thing: what does it store?" still asks what it stores
    assert "hare" not in focal_terms("the hare tortoise thing: what does it store?")


def test_the_domain_a_paper_is_aimed_at_is_a_kind_of_fact() -> None:
    vision = hit(
        "MA",
        "Mobile Attention",
        "We propose a novel attention design with a head-competition mechanism. It enables linear-time "
        "complexity on mobile devices for computer vision tasks.",
    )
    pdes = hit(
        "PT",
        "Position-induced Transformer",
        "This paper proposes PiT, built on a position-attention mechanism. PiT outperforms neural operators "
        "in operator learning tasks across diverse PDE benchmarks.",
    )
    assert "domain" in [f.name for f in asked("what domain is each aimed at?")]
    answer = per_paper("what domain is each aimed at?", [vision, pdes], BASE).answer
    assert "mobile devices" in answer and "PDE benchmarks" in answer and "does not mention" not in answer


def test_a_paper_holding_every_asked_word_passes_the_gate_a_little_further_off() -> None:
    question = "another rl paper, one that uses atari?"
    assert relevant(question, replace(BRAIN, dense_score=0.18), 0.33)
    assert not relevant(question, replace(BRAIN, dense_score=0.15), 0.33)
    # holding one of the two asked words, the usual floor
    assert not relevant("another rl paper, one that uses mujoco?", replace(BRAIN, dense_score=0.19), 0.33)


def test_acronyms_are_searched_with_their_words() -> None:
    assert _spelled_out("rl papers?? just list em") == "rl (reinforcement learning) papers?? just list em"
    assert _spelled_out("OOD generalization") == "OOD (out-of-distribution) generalization"
    assert _spelled_out("the world model paper") == "the world model paper"


def test_typed_short_forms_are_written_out() -> None:
    assert _as_spelled("wat does each assume or need to work") == "what does each assume or need to work"
    assert _as_spelled("rl papers on robot sim / control benchmarks?").endswith(
        "robot simulation / control benchmarks?"
    )
    assert _as_spelled("how large were the LMs in the codebook work") == (
        "how large were the LMs in the codebook paper"
    )
    assert _as_spelled("in the related work section") == "in the related work section"


def test_a_preface_on_what_the_work_is_for_is_not_the_question() -> None:
    said = _FOR_MY_WORK.match(
        "For a project on distribution shift I'm comparing approaches. Which papers deal with "
        "out-of-distribution generalization?"
    )
    assert said is not None and said.group(2).startswith("Which papers deal")


def test_a_theoretical_analysis_is_no_evaluation_and_its_method_name_no_dataset() -> None:
    fedpin = hit(
        "FP",
        "Personalized Federated Invariant Learning",
        "In personalized federated learning (PFL), data differs across clients. We propose FedPIN. Theoretical "
        "analysis demonstrates our method, FedPIN, can yield a tighter bound than PFL approaches. The results of "
        "extensive experiments show that our method achieves superior OOD performance.",
    )
    found = answer_sentences(fedpin, "do they evaluate on datasets?")
    assert found[0].text.startswith("The results of extensive experiments")


def test_provide_and_essentially_ask_nothing() -> None:
    assert "provid" not in focal_terms("What theoretical results does each one provide?")
    assert "essenti" not in focal_terms("Do both approaches essentially trade computation for fewer steps?")


def test_an_algorithm_derived_from_theory_asks_the_step_from_it() -> None:
    question = "Is the contrastive paper's algorithm actually derived from its theory?"
    assert [f.name for f in asked(question)] == ["derivation"]
    cila = hit(
        "CL",
        "Provable Contrastive Continual Learning",
        "We establish theoretical performance guarantees for contrastive continual learning. Inspired by our "
        "theoretical analysis of these guarantees, we propose a novel algorithm called CILA.",
    )
    assert answer_sentences(cila, question)[0].text.startswith("Inspired by our theoretical analysis")


def test_the_math_a_result_leans_on_is_its_basis() -> None:
    assert "basis" in [f.name for f in asked("what math it leans on?")]
    assert "basis" in [f.name for f in asked("what classic theorem does each of those two build on")]


def test_how_benchmarks_are_made_and_verbs_either_way_are_no_part_of_a_topic() -> None:
    assert topic("papers about how ML benchmarks are designed / evaluated?").required == ["benchmark"]
    assert topic("Which papers build or analyze agents based on large language models?").required == [
        "agent",
        "llm",
    ]


def test_written_ordinals_point_like_spelled_ones() -> None:
    shown = [(DEGREE.paper_id, DEGREE.title), (SIMPLE.paper_id, SIMPLE.title)]
    turns = [Turn("papers on implicit bias?", focus=shown)]
    assert resolve("how many benchmarks did the 2nd one test on", turns).papers == [shown[1]]


def test_those_two_when_one_paper_was_shown_asks_for_a_second_on_the_subject() -> None:
    turns = [Turn("is there any paper about making nets easier to interpret?", focus=[("CB", "Codebook Features")])]
    reference = resolve("whats the difference between those two", turns)
    assert reference.papers == [] and reference.beyond == 1 and reference.with_shown
    assert reference.subject.startswith("is there any paper")


def test_a_list_with_a_fact_asked_of_each_is_two_questions() -> None:
    pieces = compound.parts("other rl papers + what each one is evaluated on")
    assert compound.needs_two(["attribute", "attribute"], pieces)
    assert not compound.needs_two(["attribute", "attribute"], ["other rl papers?", "thanks"])
    # "either on X or about Y" narrows the list; it asks nothing of each paper
    narrowing = compound.parts(
        "Other efficiency papers? Either on the vision side or about communication cost in distributed training"
    )
    assert not compound.needs_two(["list", "list"], narrowing)


def test_which_ones_selects_among_the_papers_shown() -> None:
    skills = hit(
        "DS", "Diverse Skills with Mixture of Experts", "We show on challenging robot simulation tasks that it works."
    )
    robust = hit("EW", "Robust MDPs", "Our experiments span Cartpole and DeepMind Control Suite environments.")
    world = hit("WM", "Transformer World Models", "A natural approach is to learn a policy from a world model.")
    answer = per_paper("which ones test on robot simulations or control suites", [skills, robust, world], BASE)
    assert [c.paper_id for c in answer.citations][:2] == ["DS", "EW"]
    assert [f.get("selected", False) for f in answer.focus] == [True, True, False]
    assert "learn a policy" not in answer.answer


def test_a_title_word_is_no_field_the_title_does_not_name() -> None:
    game = hit("GT", "Competing Treatments", "Our work combines causal inference and game theory.")
    fedpin = hit("FP", "Shortcut-Averse Information-Theoretic Regularization", "We propose a causal signature.")
    answer = per_paper("Of these, which one employs game theory?", [game, fedpin], BASE).answer
    assert "game theory" in answer.splitlines()[0]
    assert "causal signature" not in answer


def test_a_preface_pointing_at_the_paper_leaves_no_empty_ask() -> None:
    question = (
        "Regarding the Granger causality paper: what shortcomings of earlier neural Granger methods does it aim to fix?"
    )
    answer = per_paper(question, [GRANGER], BASE).answer
    # the shortcomings, first (the remedy may follow them); not the method sentence alone
    assert answer.split("]: ", 1)[1].startswith("However, the existing framework")
    assert "separate predictive models" in answer


def test_what_a_method_costs_in_performance_is_its_own_kind_of_fact() -> None:
    codebook = hit(
        "CB",
        "Codebook Features",
        "We quantize hidden states into codes. Surprisingly, we find that networks can operate under this "
        "bottleneck with only modest degradation in performance. We first validate codes on a finite state "
        "machine dataset and assign states to distinct codes.",
    )
    question = "does squeezing everything into codes wreck performance?"
    assert [f.name for f in asked(question)] == ["degradation"]
    assert "modest degradation" in answer_sentences(codebook, question)[0].text


def test_a_list_line_quotes_the_alternative_a_paper_holds() -> None:
    from assistant.evidence import Rarity
    from assistant.shapes import topic_list

    question = "anything on optimal transport / wasserstein stuff in here"
    privacy = hit(
        "PF",
        "Renyi Pufferfish Privacy",
        "We introduce a variant of Pufferfish privacy. We first generalize the Wasserstein mechanism to a wide "
        "range of noise distributions. Finally, we showcase the first use of Pufferfish in private convex optimization.",
    )
    transport = hit("OT", "Neural Optimal Transport", "We study optimal transport maps with neural networks.")
    rarity = Rarity([f"{h.title} {h.abstract}" for h in (privacy, transport, GRANGER)])
    listed = topic_list(topic(question), [transport, privacy], BASE, rarity, question)
    assert listed is not None
    line = next(x for x in listed.answer.splitlines() if "Pufferfish" in x)
    assert "Wasserstein mechanism" in line and "convex optimization" not in line
