"""Open searches the classifier reads as lookups, topics told with a dash or a generic tail, and
per-paper lines that must not misstate what an abstract holds."""

from __future__ import annotations

from assistant.answer import Assistant
from assistant.config import Settings
from assistant.evidence import topic
from assistant.facets import asked
from assistant.shapes import _unsaid, per_paper
from assistant.strategies import _asks_openly, _is_the_message
from tests.doubles import ScriptedLLM
from tests.test_answer import LOOK, Library, hit

BASE = dict(question="", rewritten_query="", notice="", kind="attribute")

BRENIER = hit(
    "OT1",
    "Neural Polar Factorization",
    "Brenier's theorem relates fields to convex potentials. "
    "We propose a neural implementation of the polar factorization, closely related to optimal transport.",
)
BURES = hit(
    "OT2",
    "Projected Bures-Wasserstein Gradient Descent",
    "Optimal transport geometry over Gaussians is "
    "widely used. We prove convergence of projected Bures-Wasserstein gradient descent for optimal transport.",
)


def test_a_search_for_whatever_there_is_is_told_from_one_for_a_single_paper() -> None:
    for question in (
        "optimal transport stuff?",
        "generative models for chemistry or materials?",
        "interpretability methods for neural nets - anything here?",
        "papers on federated learning?",
    ):
        assert _asks_openly(question), question
    for question in (
        "is there another paper on optimal transport?",
        "an llm that can watch a video and answer questions about it?",
        "which paper proposes a parallel sampler?",
        "anything similar for image generators?",
        "is there a paper on optimal transport?",
    ):
        assert not _asks_openly(question), question


def test_an_open_search_read_as_a_lookup_lists_every_paper_about_it() -> None:
    assistant = Assistant(Library([BRENIER, BURES, LOOK]), lambda: ScriptedLLM([]), Settings.from_env({}))  # type: ignore[arg-type]
    answer = assistant.ask("optimal transport stuff?")
    assert {c.paper_id for c in answer.citations} == {"OT1", "OT2"}
    assert answer.answer.count("\n- ") == 1 and answer.answer.startswith("- ")


def test_a_topic_keeps_examples_after_a_dash_and_the_field_before_a_generic_tail() -> None:
    dashed = topic(
        "papers about learning from changing data — continual learning, loss of plasticity, that kind of thing?"
    )
    assert "plastic" in dashed.required and "kind" not in dashed.required
    assert "interpretability" in topic("interpretability methods for neural nets - anything here?").text
    assert topic("what's here for AI for chemistry / materials?").required == ["chemistri", "materi"]
    # a sentence-final "anything here?" is the asking, not the topic; "i.e." is no sentence end
    assert "anything" not in topic("i want faster sampling from generative models. anything here?").required
    assert topic("Anything on implicit bias, i.e. what kind of solution training ends up at?").text == "implicit bias"


def test_theory_asked_in_everyday_words_is_the_theory_facet() -> None:
    for question in (
        "is it backed by theory or just experiments?",
        "do they come with actual theory or is it mostly experiments",
    ):
        assert {"theory", "evaluation"} <= {f.name for f in asked(question)}, question
    assert "theory" not in {f.name for f in asked("which one uses game theory?")}


def test_what_earlier_work_did_is_not_the_papers_experiments() -> None:
    proofs = hit(
        "S",
        "Simplicity Bias of Sharpness Minimization",
        "Recent works have provided empirical and "
        "theoretical evidence for a bias toward flat minima. We prove that label noise SGD converges to a "
        "rank one network.",
    )
    tested = hit(
        "W",
        "Weight Dynamics of Normalized Networks",
        "We prove a bound on the learning rate spread. Experiments on ImageNet confirm the theory.",
    )
    lines = per_paper("do those two have experiments or just proofs?", [proofs, tested], BASE).answer.split("\n")
    assert "Recent works" not in lines[0] and lines[0].endswith("The abstract mentions no experiments.")
    assert "Experiments on ImageNet" in lines[1]


def test_an_abstract_holding_the_asked_words_is_not_said_to_lack_them() -> None:
    models = hit("M", "Explaining Black-Box Models", "We explain black-box time series models.")
    assert _unsaid("does not mention “model”", "model", models) == "does not say"
    assert _unsaid("does not mention “atari”", "atari", models) == "does not mention “atari”"
    prune = hit("N", "No Free Prune", "We study pruning during training.")
    assert _unsaid("does not mention “training-free”", "training-free", prune) == "does not mention “training-free”"
    assert _unsaid("gives no link to code", "code", models) == "gives no link to code"


EBBA = hit(
    "E",
    "Backdoor Defense without Task-Specific Samples and Model Retraining",
    "Backdoor defense is crucial. "
    "We propose EBBA, an energy-based backdoor defense. "
    "Secondly, we analyze that after data corruption, the original clean label of a poisoned sample is ranked high. "
    "We extend EBBA to EBBA+, which removes backdoors without model retraining.",
)
GRANGER = hit(
    "G",
    "Jacobian Regularizer-based Neural Granger Causality",
    "Neural Granger causality is popular. "
    "However, the existing framework has several limitations. It requires separate predictive models for "
    "each target variable. To address these drawbacks, we propose JRNGC, which constructs a single model "
    "for all target variables.",
)


def test_a_yes_no_question_of_one_paper_is_answered_by_the_sentence_holding_what_is_asked() -> None:
    line = per_paper("does it need clean data from my own task, or retraining?", [EBBA], BASE).answer
    assert "without model retraining" in line and "clean label" not in line


def test_what_older_methods_need_is_followed_by_the_papers_own_answer() -> None:
    line = per_paper("does it need a separate network per target variable like older methods?", [GRANGER], BASE).answer
    assert "separate predictive models" in line and "a single model for all target variables" in line


def test_a_description_of_ones_problem_is_no_open_topic() -> None:
    described = "i want to fine tune a language model but backprop memory is killing me on my gpu. any papers on that"
    assert not _is_the_message(topic(described), described)  # its topic reads as "my gpu"
    for question in ("optimal transport stuff?", "generative models for chemistry or materials, e.g. crystals?"):
        assert _is_the_message(topic(question), question), question


def test_a_phrase_joined_by_a_preposition_is_not_one_word_said_for_every_topic() -> None:
    loss = topic("continual learning / loss of plasticity papers?")
    assert not any(alternative == [{"loss"}] for alternative in loss.alternatives)
    shared = topic("papers on chemistry or materials discovery")
    assert len(shared.alternatives) >= 2  # "chemistry discovery or materials discovery", still read so


def test_lr_is_learning_rate_and_whats_asks_for_nothing() -> None:
    from assistant.evidence import words

    assert "lr" in words("anything on lr warmup") and "lr" in words("a constant learning rate")
    assert "what" not in topic("whats the key technical tool they use").required


def test_the_usual_thing_a_paper_differs_from_and_the_tool_a_result_rests_on_are_facets() -> None:
    assert [f.name for f in asked("how's its attention different from normal self-attention")][:1] == ["contrast"]
    assert "basis" in [f.name for f in asked("whats the key technical tool they use")]
    pit = hit("P", "Position-induced Transformer", "PiT demonstrates advantages over classical self-attention. "
              "Different from self-attention, position-attention is induced by only the sampling positions.")
    lines = per_paper("how's its attention different from normal self-attention", [pit], BASE)
    assert "Different from self-attention" in lines.answer


def test_how_a_value_is_picked_is_answered_by_the_sentence_saying_how_it_is_computed() -> None:
    assert "computation" in [f.name for f in asked("and how does CILA pick its distillation weights")]
    cila = hit(
        "C",
        "Provable Contrastive Continual Learning",
        "We propose CILA, which uses adaptive distillation "
        "coefficients for different tasks. These distillation coefficients are easily computed by the ratio "
        "between average distillation losses and average contrastive losses from previous tasks.",
    )
    line = per_paper("how does CILA pick its distillation weights", [cila], BASE).answer
    assert "computed by the ratio" in line
    # picking among options is not computing a value: the mechanism sentence answers it
    assert "computation" not in [f.name for f in asked("how does it pick which tools to use")]


def test_ml_and_built_ask_for_nothing_of_their_own() -> None:
    from assistant.shapes import focal_terms

    assert focal_terms("do both of those say something about how ML benchmarks should be built?") == ["benchmark"]


def test_shorthand_is_written_out_before_anything_reads_the_question() -> None:
    from assistant.answer import _as_spelled

    spelled = _as_spelled("anything on finetuning llms w/o backprop? whats the model, how to parametrize u, long docs")
    assert spelled == (
        "anything on fine-tuning llms without backprop? what's the model, how to parameterize u, long documents"
    )
    assert _as_spelled("whatsoever, finetuner") == "whatsoever, finetuner"  # whole words only


def test_a_subject_change_by_unrelated_but_or_diff_q_asks_for_nothing() -> None:
    from assistant.evidence import TOPIC_CHANGE, asked_terms
    from assistant.intents import REMEMBERED

    assert TOPIC_CHANGE.match("unrelated but is there a backdoor defense paper?")
    assert TOPIC_CHANGE.match("ok diff q - anything on membership inference attacks?")
    assert "unrelated" not in asked_terms("unrelated but is there a backdoor defense paper?")
    assert "else" not in asked_terms("whats else of his is in here")
    assert REMEMBERED.match("i vaguely remember one on generalization on the unseen w roots of unity")


CAUSAL = hit(
    "GC",
    "Jacobian Regularizer-based Neural Granger Causality",
    "We propose JRNGC, which learns Granger causality with one model. Extensive experiments show that our "
    "approach achieves competitive performance with the state-of-the-art methods.",
)
GAME = hit(
    "CT",
    "Causal Inference from Competing Treatments",
    "We build a game-theoretic model of agents who estimate causal effects. Our main technical result "
    "establishes an approximation with a tractable objective. Conceptually, our work combines elements from "
    "causal inference and game theory.",
)


def test_which_is_theory_and_which_has_experiments_says_each_papers_kind() -> None:
    assert "theory" in [f.name for f in asked("which of them has theory and which is empirical?")]
    lines = per_paper("which one's more theory and which has experiments - and on what data?", [CAUSAL, GAME], BASE)
    causal, game = lines.answer.split("\n")
    # JRNGC runs experiments but names no data, and proves nothing; the game-theory paper's result is its theory
    assert "Extensive experiments" in causal and "mentions no experiments" not in causal
    assert "states no theoretical result" in causal and "does not name the datasets" in causal
    assert "main technical result" in game and "Conceptually" not in game


def test_whats_the_model_asks_for_the_model_the_paper_builds() -> None:
    assert "models" in [f.name for f in asked("how do they represent molecules and what's the model")]
    molecules = hit(
        "M",
        "Projecting Molecules into Synthesizable Chemical Spaces",
        "We introduce a postfix notation of synthetic pathways to represent molecules. Then, we design a "
        "transformer-based model to translate molecular graphs into postfix notations. We highlight the model's "
        "ability to improve analogs for molecules proposed by generative models with their properties preserved.",
    )
    line = per_paper("how do they represent molecules and what's the model", [molecules], BASE).answer
    assert "transformer-based model" in line


class _Ranked:
    """A retriever returning the same ranking for every search."""

    def __init__(self, hits: list) -> None:
        self.hits = hits

    def search(self, query: str, k: int) -> list:
        return self.hits[:k]


def test_a_name_a_comparison_gives_finds_the_paper_that_writes_it(settings: Settings) -> None:
    bench = hit("B", "Trade-Offs in Multi-Task Benchmarks", "We study one benchmark after another.")
    gotu = hit("G", "Minimal Degree Bias", "In the generalization on the unseen (GOTU) setting, we prove ...")
    assistant = Assistant(_Ranked([bench, gotu]), lambda: ScriptedLLM([]), settings)  # type: ignore[arg-type]
    assert [h.paper_id for h in assistant._search_each(["GOTU one"])] == ["G"]
    assert [h.paper_id for h in assistant._search_each(["trade-offs", "GOTU one"])] == ["B", "G"]
