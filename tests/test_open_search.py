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
        "anything on fine-tuning llms without backpropagation? what's the model, how to parameterize u, long documents"
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


def test_a_term_no_indexed_paper_writes_is_said_to_be_in_none() -> None:
    from assistant.evidence import Rarity
    from assistant.shapes import not_found
    from assistant.strategies import unheard_terms

    index = Rarity(
        [
            "Distributed bilevel optimization with communication compression.",
            "We align language models by reinforcement learning from human feedback.",
            "ParaTAA samples Stable Diffusion, a text-to-image model, in 7 steps.",
            "Federated learning keeps the data on the clients.",
        ]
    )

    def unheard(question: str) -> list[str]:
        return unheard_terms(topic(question), question, index)

    # an acronym no abstract writes or spells out, a compound naming a task or a family of methods
    assert unheard("does anything here do kv cache compression or quantization") == ["kv"]
    assert unheard("any physics-informed neural networks, pinn style residual losses?") == ["physics-informed"]
    assert unheard("does any paper here do text-to-video generation with diffusion?") == ["text-to-video"]
    # spelled out, said in words of the abstract's own, or chat
    assert unheard("anything on RLHF for llms?") == []
    assert unheard("anything on text-to-image diffusion?") == []
    assert unheard("looking for communication-efficient distributed optimization, esp bilevel") == []
    assert unheard("hm ok. federated learning then?") == []
    assert unheard_terms(topic("anything on kv caches?"), "anything on kv caches?", Rarity([])) == []
    refusal = not_found(topic("does anything here do kv cache compression or quantization"), [], BASE)
    assert "no indexed paper is about kv cache compression or quantization," in refusal.answer


def test_a_size_or_the_conditions_asked_are_answered_by_the_sentence_stating_them() -> None:
    assert [f.name for f in asked("how big were the models they tried")] == ["scale"]
    assert "conditions" in [f.name for f in asked("what conditions does that need?")]
    codebook = hit(
        "CB",
        "Codebook Features",
        "We explore whether we can train neural networks to have discrete hidden states. "
        "We then train Transformer language models with up to 410M parameters on two natural language datasets.",
    )
    line = per_paper("how big were the models they tried", [codebook], BASE, need_number=True).answer
    assert "410M parameters" in line and "does not mention" not in line
    sharp = hit(
        "SB",
        "Simplicity Bias via Sharpness Minimization",
        "The implicit bias of training is poorly understood. We show that, for any high dimensional training data "
        "and certain activations, with small enough step size, label noise SGD converges to a simple network.",
    )
    line = per_paper("what conditions does that need?", [sharp], BASE).answer
    assert "small enough step size" in line and "does not mention" not in line


def test_two_kinds_of_fact_joined_by_and_in_one_sentence_are_answered_in_turn() -> None:
    from assistant import compound

    pieces = compound.parts(
        "how big were the models they tried, and can you actually steer what the model generates with those codes?"
    )
    assert pieces == [
        "how big were the models they tried?",
        "Can you actually steer what the model generates with those codes?",
    ]
    assert compound.needs_two(["lookup", "lookup"], pieces)
    # a selection, whose answer the second part asks of, stays one question
    selection = compound.parts("which of them is federated, and does it handle spurious features?")
    assert not selection or not compound.needs_two(["attribute", "attribute"], selection)


def test_shortened_words_of_environments_and_dimensions_are_written_out() -> None:
    from assistant.answer import _as_spelled

    assert _as_spelled("a robust mdp paper that scales to high-dim envs") == (
        "a robust mdp paper that scales to high-dimensional environments"
    )
    assert _as_spelled("which one has experiments n code? what params, any sims") == (
        "which one has experiments and code? what parameters, any simulations"
    )
    assert _as_spelled("with n samples") == "with n samples"


def test_a_paper_running_experiments_on_benchmarks_is_not_about_benchmarks() -> None:
    from assistant.evidence import coverage

    concept = topic("anything about how to design benchmarks or compare classifiers properly?")
    assert "design" not in concept.required
    pit = hit(
        "PIT",
        "Position-induced Transformer",
        "We design a position-attention mechanism. PiT exhibits superior performance over current "
        "state-of-the-art neural operators across diverse PDE benchmarks.",
    )
    hare = hit(
        "HT",
        "Hare and Tortoise Networks",
        "Methods designed to enhance plasticity help little. Hare & Tortoise improves advanced reinforcement "
        "learning algorithms on the Atari-100k benchmark.",
    )
    bench = hit(
        "TO",
        "Inherent Trade-Offs in Multi-Task Benchmarks",
        "We show that the aggregated rankings of existing benchmarks are highly unstable.",
    )
    assert coverage(concept, pit.title, pit.abstract) == 0.0
    assert coverage(concept, hare.title, hare.abstract) == 0.0
    assert coverage(concept, bench.title, bench.abstract) == 1.0


def test_a_field_named_in_one_alternative_is_not_asked_of_the_other() -> None:
    game = hit("CT", "Causal Inference from Competing Treatments", "We build a bidding model. Conceptually, "
               "our work combines elements from causal inference and game theory.")
    votes = hit("TO", "Inherent Trade-Offs in Multi-Task Benchmarks", "We examine multi-task benchmarks through "
                "the lens of social choice theory. We draw an analogy between benchmarks and electoral systems.")
    labels = hit("DL", "Don't Label Twice", "We prove a theorem that runs counter to conventional wisdom. "
                 "Our result follows from Cramér's theorem, a staple in the theory of large deviations.")
    answer = per_paper("which of them bring in game theory or social choice stuff", [game, votes, labels], BASE).answer
    lines = answer.split("\n")
    assert "game theory" in lines[0] and "social choice theory" in lines[1]
    assert "does not mention" in lines[2] and "bring in" not in lines[2]


def test_how_we_design_names_no_word_a_paper_must_hold() -> None:
    from assistant.shapes import focal_terms

    # "matter for" is the selection's verb, left out where a line says what the abstract does not mention
    assert focal_terms("which of them matter for how we design ml benchmarks?") == ["matter", "benchmark"]
    assert focal_terms("how to design benchmarks") == ["benchmark"]


def test_figures_asked_as_numbers_and_a_key_quantity_are_kinds_of_fact() -> None:
    from assistant.intents import QUANTITY

    assert QUANTITY.search("whats the speedup numbers for each")
    assert "definition" in [f.name for f in asked("is there a theory paper on pruning? whats their key quantity")]
    sampler = hit("P", "Parallel Sampling of Diffusion Models", "We propose ParaTAA, a training-free parallel "
                  "sampler that increases the sampling speed. ParaTAA decreases the inference steps by 4 to 14 times.")
    line = per_paper("what's the speedup numbers for each", [sampler], BASE, need_number=True).answer
    assert "4 to 14 times" in line


def test_quoted_names_init_and_nets_are_read_as_written_out() -> None:
    from assistant.answer import _as_spelled

    assert _as_spelled("is the 'diffusion tempering' paper the same kind?") == (
        "is the diffusion tempering paper the same kind?"
    )
    assert _as_spelled("pruning at init w/ input convex nets") == (
        "pruning at initialization with input convex networks"
    )
    assert _as_spelled("call __init__ or init_weights") == "call __init__ or init_weights"


def test_two_searches_said_as_such_are_both_answered() -> None:
    from tests.test_answer import DORAEMON, WORDS, converse_over

    leo = hit("LEO", "An Embodied Agent for 3D Scenes", "We introduce LEO, an agent for 3D scenes. The 3D agent "
              "perceives and acts in 3D scenes.")
    *_, both = converse_over([DORAEMON, WORDS, leo], [
        "anything on llm agents for video?",
        "two more things: is there any theory on why llm agents work, and is there an agent for 3d scenes"])
    assert {"WA", "LEO"} <= {c.paper_id for c in both.citations}


def test_what_follows_the_last_alternative_is_said_of_each() -> None:
    concept = topic("papers on why sgd / training ends up at simple solutions?")
    assert all({"simpl"} in alternative for alternative in concept.alternatives)
    # one noun after the last alternative leaves the first alternative whole
    assert [{"chemistri"}] in topic("generative models for chemistry or materials discovery?").alternatives


def test_which_and_which_asks_of_every_paper_shown() -> None:
    from assistant.condense import Turn, resolve

    two = [("HT", "Hare and Tortoise Networks"), ("CL", "Provable Contrastive Continual Learning")]
    turns = [Turn("continual learning and loss of plasticity, what's here", two)]
    assert resolve("which is more theory and which is more empirical", turns).papers == two
    granger = hit("J", "Neural Granger Causality", "We propose JRNGC, constructing a single model for all target "
                  "variables.")
    explainer = hit("X", "Explain Temporal Black-Box Models", "We introduce FDTempExplainer, a model-agnostic "
                    "explanation method for black-box time series models.")
    lines = per_paper("which one fits a single model and which one is model-agnostic", [granger, explainer],
                      BASE).answer.split("\n")
    assert "single model" in lines[0] and "model-agnostic" in lines[1] and "does not mention" not in lines[1]


def test_a_second_question_after_and_is_answered_on_its_own() -> None:
    from assistant import compound

    authors = compound.parts("who wrote the paper showing label noise sgd ends up with rank-one features, and "
                             "what's the key tool")
    assert authors[1] == "What's the key tool"
    steer = compound.parts("how big were the lms they tried and can you steer them with it")
    assert steer == ["how big were the lms they tried?", "Can you steer them with it"]
    assert [f.name for f in asked(steer[1])] == ["control"]
    assert compound.needs_two(["attribute", "attribute"], steer)
    assert "findings" in [f.name for f in asked("do transformers give better policy gradients or not")]


def test_steering_is_asked_only_as_a_question_of_its_own() -> None:
    for question in (
        "do both of them test on simulated control or robot tasks?",
        "why do LLM agents that hand sub-goals to a low-level controller work?",
        "Can I force each layer to represent its state as a sum of codes, so I can steer what it writes?",
    ):
        assert "control" not in [f.name for f in asked(question)], question
    for question in ("Can you steer them with it", "how do they control what the model writes"):
        assert "control" in [f.name for f in asked(question)], question


def test_the_math_a_result_rests_on_is_asked_in_plain_words() -> None:
    for question in ("what math do they use?", "what's the proof based on", "what math do they lean on"):
        assert "basis" in [f.name for f in asked(question)], question


def test_a_plus_and_a_question_of_one_named_paper_split_a_message() -> None:
    from assistant import compound

    plus = compound.parts("what's the main claim of each + what math do they lean on")
    assert plus == ["what's the main claim of each?", "What math do they lean on"]
    assert compound.needs_two(["attribute", "attribute"], plus)
    each = compound.parts("what do they each evaluate on, and how much longer context does the reading one handle")
    assert each == ["what do they each evaluate on?", "How much longer context does the reading one handle"]
    assert compound.needs_two(["attribute", "quantity"], each)

    # both parts asked of both papers: one line each, as one question (cut in two, each paper had two lines)
    assert compound.parts("were either of them tried on real industrial data, and how many datasets?") == []
