"""Lines about a paper in focus that say what its abstract holds in other words than the question's,
instead of a false "does not mention", and follow-ups whose words point at a thing, not at papers."""

from __future__ import annotations

from assistant.condense import Turn, resolve
from assistant.evidence import topic
from assistant.shapes import SAID_OTHERWISE, per_paper
from assistant.strategies import _asks_openly
from tests.test_answer import hit

BASE = dict(question="", rewritten_query="", notice="", kind="attribute")

GRANGER = hit(
    "G",
    "Jacobian Regularizer-based Neural Granger Causality",
    "Granger causality finds which variables drive which. "
    "Earlier neural methods build separate predictive models for each target variable. "
    "We propose JRNGC, which learns Granger causality by constructing a single model for all target variables.",
)
POISSON = hit(
    "P",
    "A Neural-Preconditioned Poisson Solver",
    "We present a neural preconditioner for the discrete Laplacian. "
    "Our approach generalizes to domain shapes, boundary conditions and grid sizes outside the training set.",
)
CONTRASTIVE = hit(
    "C",
    "Provable Contrastive Continual Learning",
    "Continual learning combines contrastive loss and distillation loss. "
    "To the best of our knowledge, however, this framework lacks convincing theoretical explanations. "
    "We propose CILA, which uses adaptive distillation coefficients for different tasks.",
)
DYNAMICS = hit(
    "W", "Weight Dynamics of Normalized Networks", "We prove that effective learning rates converge in deep networks."
)


def test_filler_words_are_not_what_a_line_says_the_abstract_lacks() -> None:
    said = per_paper("do they still train one network per target variable?", [GRANGER], BASE).answer
    assert "“still”" not in said and "“per”" not in said


def test_a_sentence_close_in_meaning_holding_an_asked_word_answers_in_other_words() -> None:
    question = "do they still train one network per target variable?"

    def near(text: str) -> float:
        return 0.4 if "single model" in text else 0.2

    said = per_paper(question, [GRANGER], BASE, closeness=near).answer
    assert "single model for all target variables" in said and "does not mention" not in said
    # Not close enough in meaning: the line says what is not there, as before
    far = per_paper(question, [GRANGER], BASE, closeness=lambda text: SAID_OTHERWISE - 0.1).answer
    assert "does not mention" in far
    # Without an asked word a close sentence is no answer ("android phones" of the solver's generalization)
    elsewhere = per_paper("does it run on android phones?", [POISSON], BASE, closeness=lambda text: 0.45).answer
    assert "does not mention" in elsewhere


def test_a_stock_phrase_holds_nothing_asked_and_each_paper_is_read_for_the_alternative() -> None:
    question = "do both keep old knowledge via distillation?"
    said = per_paper(question, [DYNAMICS, CONTRASTIVE], BASE).answer
    assert "adaptive distillation coefficients" in said and "To the best of our knowledge" not in said
    assert said.index("CILA") < said.index("does not mention")  # the paper that does comes first


def test_a_question_after_its_subject_is_no_bare_subject_search() -> None:
    assert not _asks_openly("For robot RL, how can I learn many ways of solving one task with specialist policies?")
    assert _asks_openly("robot learning, manipulation and navigation?")


def test_a_topic_leaves_out_a_closing_request_and_etc() -> None:
    asked = topic("any paper on certified robustness, randomized smoothing etc?")
    assert "etc" not in asked.required
    tail = topic("what about shrinking the kv cache during long generations, anything on that?")
    assert "anyth" not in " ".join(tail.required) and tail.text.endswith("generations")


def test_those_with_a_noun_after_one_paper_points_at_that_paper() -> None:
    listed = [("A", "Codebook Features"), ("B", "Explaining Time Series Models")]
    turns = [
        Turn("interpretability methods - anything here?", cited=listed, focus=listed),
        Turn("for the codebook one, how big were the models?", cited=listed[:1], focus=listed[:1]),
    ]
    assert resolve("can you steer what the model generates with those codes?", turns).papers == listed[:1]
    assert resolve("what do those two do?", turns).papers == listed


def test_a_small_tail_of_a_longer_question_is_no_unknown_topic_to_refuse_on() -> None:
    from assistant.strategies import _unknown_concept
    from tests.test_answer import LOOK, PARA, READER, _rarity_of

    rarity = _rarity_of(READER, LOOK, PARA)
    competing = "different thing: estimating treatment effects when experimenters compete for the same users' attention"
    assert not _unknown_concept(topic(competing), competing, [READER], rarity)
    short = "Which paper proposes a method for machine unlearning?"
    assert _unknown_concept(topic(short), short, [READER], rarity)


def test_switching_fields_and_a_different_angle_change_the_topic() -> None:
    from assistant.evidence import TOPIC_CHANGE

    for opening in ("switching fields: ", "different angle: ", "ok, a different direction - "):
        assert TOPIC_CHANGE.match(opening + "deep learning for seismic waveform inversion?"), opening
    assert not TOPIC_CHANGE.match("different angles of attack in robust RL?")


BENCHMARKS = hit(
    "B",
    "Inherent Trade-Offs between Diversity and Stability in Multi-Task Benchmarks",
    "We examine multi-task benchmarks through the lens of social choice theory. "
    "We apply Arrow's impossibility theorem to ordinal benchmarks. "
    "Through extensive experiments on seven cardinal benchmarks and eleven ordinal benchmarks, we demonstrate a "
    "clear trade-off between diversity and stability.",
)
LABELS = hit(
    "D",
    "Don't Label Twice",
    "We study how to spend a labeling budget. We prove a theorem that runs counter to conventional wisdom.",
)
COMPETING = hit(
    "T",
    "Causal Inference from Competing Treatments",
    "Many applications of RCTs involve field experiments. We prove that the estimation error is bounded. "
    "Our work sheds light on the equilibrium behavior of experimentation under competition.",
)


def test_a_count_spelled_out_in_words_answers_how_many() -> None:
    said = per_paper("how many benchmarks did they actually look at?", [BENCHMARKS], BASE, need_number=True).answer
    assert "seven cardinal benchmarks and eleven ordinal benchmarks" in said


def test_theory_without_experiments_shows_each_papers_kind_instead_of_selecting_on_a_theorem() -> None:
    said = per_paper("which of the three are pure theory w/o experiments?", [LABELS, BENCHMARKS, COMPETING], BASE)
    lines = said.answer.split("\n")
    assert "extensive experiments" in lines[1] and "mentions no experiments" not in lines[1]
    # "experimentation under competition" is what the paper studies, not an experiment it runs
    assert lines[0].endswith("The abstract mentions no experiments.")
    assert lines[2].endswith("The abstract mentions no experiments.")
    assert not any(entry.get("selected") for entry in said.focus)


def test_words_the_stemmer_folds_together_stay_apart_in_topics() -> None:
    from assistant.evidence import is_about

    privacy = ("Renyi Pufferfish Privacy: General Additive Noise Mechanisms", "We study privacy under distributions.")
    ood = topic("what's in here about out-of-distribution generalization?")
    assert not is_about(ood, *privacy)
    assert is_about(ood, "Connect Later", "Fine-tuning improves out-of-distribution generalization.")
    operators = topic("papers on neural operators?")
    assert not is_about(operators, "Codebook Features", "Neural networks can operate under this bottleneck.")
    assert is_about(operators, "PiT", "PiT outperforms state-of-the-art neural operators.")


def test_the_difference_between_two_names_of_one_abstract_is_each_names_sentence() -> None:
    from assistant.shapes import compared_within

    ebba = hit(
        "E",
        "Energy-based Backdoor Defense",
        "In this work, we propose two defense methods, called EBBA and EBBA+, that achieve detection and removal. "
        "We develop EBBA, to detect backdoored models without task-specific samples. "
        "Accordingly, we extend EBBA to develop EBBA+, a new approach to remove backdoors without model retraining.",
    )
    said = compared_within(ebba, ["whats the difference between EBBA", "EBBA+"], BASE)
    assert said is not None
    assert "detect backdoored models" in said.answer and "remove backdoors" in said.answer
    assert "called EBBA and EBBA+" not in said.answer


def test_a_word_the_abstract_never_says_is_not_answered_by_its_closest_sentence() -> None:
    warmup = hit(
        "W",
        "Weight Dynamics of Normalized Networks",
        "We study effective learning rates. We devise a warm-up method that minimizes their spread in theory "
        "and practice.",
    )
    said = per_paper("did the warm-up method get tested on imagenet?", [warmup], BASE, closeness=lambda t: 0.6)
    assert "does not mention “imagenet”" in said.answer


def test_adapters_are_not_an_adaptation() -> None:
    zeroth = hit("Z", "Zeroth-Order Fine-Tuning", "MeZO, an adaptation of ZO-SGD, fine-tunes language models.")
    later = hit("C", "Connect Later", "In the domain adaptation setting, pretraining mitigates the drop.")
    said = per_paper("does either of them talk about lora or adapters?", [zeroth, later], BASE).answer
    assert said.count("does not mention “lora” or “adapters”") == 2


def test_a_topic_asked_with_its_meaning_after_it_is_still_the_subject() -> None:
    from assistant.strategies import _unknown_concept
    from tests.test_answer import LOOK, PARA, READER, _rarity_of

    offline = "any papers on offline RL, i.e. learning a policy from a fixed dataset?"
    assert _unknown_concept(topic(offline), offline, [READER], _rarity_of(READER, LOOK, PARA))
    assert "general" not in topic("ok what about time series in general?").required
