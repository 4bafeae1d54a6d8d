"""Questions in users' own words read as what they ask: shorthand ("the 3", "u", "eval", "ppl"), a
request for papers said as "i want stuff on ...", a topic change said as "diff field" or "also
unrelated", the kind of data a method is meant for, a method that works on any model, a device asked
by its model, a baseline the user asks whether it beat, a paper named by the tool it builds ("the
explainer"), a security paper that never says "security", a clause cut where its statement runs on,
"algo" and "bolt onto", examples closed by "that kind of thing", a method "tied to a specific model", "the
same trick as" a named paper, papers "w/ Hardt on them", and "the two about T" of three papers shown."""

from __future__ import annotations

from assistant import intents, segments
from assistant.answer import _THE_PAPER, _as_spelled
from assistant.evidence import TOPIC_CHANGE, related, stating, trim
from assistant.facets import asked
from assistant.shapes import per_paper
from assistant.text import tokenize
from tests.test_answer import hit
from tests.test_asked_parts import BASE

CHANGE = hit(
    "CP",
    "Non-parametric Online Change Point Detection on Riemannian Manifolds",
    "Non-parametric detection of change points in streaming time series data that belong to Euclidean spaces "
    "has been extensively studied in the literature. In this paper, we introduce a non-parametric algorithm for "
    "online change point detection in manifold-valued data streams. We provide theoretical bounds on the "
    "detection and false alarm rate performances of the algorithm.",
)
EXPLAINER = hit(
    "FD",
    "Explain Temporal Black-Box Models via Functional Decomposition",
    "How to explain temporal models is a significant challenge. To address this challenge, we introduce "
    "FDTempExplainer, an innovative model-agnostic explanation method based on functional decomposition, tailored "
    "to black-box time series models. The explainer separates each time step's contribution from their "
    "interactions. We demonstrate it on anomaly detection, classification, and forecasting.",
)
GRANGER = hit(
    "JR",
    "Jacobian Regularizer-based Neural Granger Causality",
    "We propose JRNGC, a method for learning multivariate summary Granger causality by constructing a single "
    "model for all target variables. Our method leverages an input-output Jacobian matrix regularizer, read in "
    "the post-hoc analysis as the weighted causal matrix.",
)


def test_shorthand_is_written_out_where_it_is_shorthand() -> None:
    assert _as_spelled("which of the 3 actually has experiments vs pure theory").startswith("which of the three ")
    assert _as_spelled("what do u have") == "what do you have"
    assert _as_spelled("how do they parametrize u and M?") == "how do they parameterize u and M?"  # a variable
    assert _as_spelled("what did they eval on") == "what did they evaluate on"
    assert _as_spelled("what gpu model did the lookahead ppl run on").endswith("lookahead people run on")
    assert _as_spelled("top 3 results") == "top 3 results"  # a count, not a pointer


def test_a_request_for_papers_in_the_users_words_is_a_list() -> None:
    for question in (
        "i want stuff on making sequential generation faster by parallelizing it, for llms or image models",
        _as_spelled("need to speed up sampling from generative models, llms or diffusion. what do u have"),
    ):
        assert intents.detect(question, []).kind == "list", question
    # "what's the speedup for each" asks for the amounts
    assert intents.QUANTITY.search(_as_spelled("whats the speedup for each roughly"))


def test_a_change_of_field_or_an_unrelated_request_starts_over() -> None:
    assert TOPIC_CHANGE.match("diff field - fitting parameters of neuron models like hodgkin huxley, anything on that")
    message = (
        "which exact models did the zeroth order paper fine tune, llama? also unrelated is there something on "
        "wasserstein gradient descent for gaussians"
    )
    found = segments.parts(message)
    assert [p.kind for p in found] == [segments.QUESTION, segments.SEARCH]
    # a preface that changes nothing stays a question
    assert not TOPIC_CHANGE.match("also is there theory behind it")


def test_the_kind_of_data_a_method_is_meant_for_is_what_it_works_on() -> None:
    question = "what kind of data is it meant for?"
    assert [f.name for f in asked(question)] == ["data_kind"]
    found = stating(CHANGE.abstract, asked(question), [], [])
    assert found is not None and "manifold-valued data streams" in found.sentences[0].text
    line = per_paper(question, [CHANGE], BASE).answer
    assert "manifold-valued data streams" in line and "does not say" not in line


def test_a_method_for_any_model_is_a_model_agnostic_one() -> None:
    question = "which of the three would work on any model i already trained, no matter the architecture?"
    assert [f.name for f in asked(question)] == ["agnostic"]
    lines = per_paper(question, [GRANGER, EXPLAINER, CHANGE], BASE).answer.split("\n")
    assert "model-agnostic" in lines[0] and "FDTempExplainer" in lines[0]
    # JRNGC's "post-hoc analysis" is no claim that it works on any model
    assert all("post-hoc" not in line for line in lines)


def test_a_device_asked_by_its_model_is_said_unnamed() -> None:
    look = hit(
        "LA",
        "Break the Sequential Dependency of LLM Inference Using Lookahead Decoding",
        "We introduce Lookahead decoding, an exact, parallel decoding algorithm. Our implementation can speed up "
        "autoregressive decoding by up to 1.8x on MT-bench and 4x with strong scaling on multiple GPUs.",
    )
    line = per_paper("what gpu model did they run on", [look], BASE).answer
    assert "multiple GPUs" in line and line.endswith("The abstract does not name the GPU model.")
    named = hit("MA", "Mobile Attention", "We propose Mobile-Attention. We achieve lower latency on the iPhone 12.")
    assert "does not name" not in per_paper("which phone did they run on", [named], BASE).answer


def test_whether_it_beat_a_baseline_is_answered_by_the_result() -> None:
    reader = hit(
        "RA",
        "A Human-Inspired Reading Agent with Gist Memory of Very Long Contexts",
        "We propose ReadAgent, an LLM agent system that increases effective context length. We evaluate ReadAgent "
        "against baselines using retrieval methods. These evaluations are performed on three tasks: QuALITY, "
        "NarrativeQA, and QMSum. ReadAgent outperforms the baselines on all three tasks.",
    )
    line = per_paper("did it actually beat retrieval?", [reader], BASE).answer
    assert "outperforms the baselines" in line


def test_a_paper_named_by_the_tool_it_builds() -> None:
    # which paper "the explainer" is, is found by closeness in meaning (the replay of c508.3 picks
    # FDTempExplainer); here, that the words are read as naming a paper, and which words describe it
    from assistant.answer import _described_words

    span = _THE_PAPER.search("ok and the explainer, is it tied to a specific model?")
    assert span is not None and _described_words(span.group()) == "explainer"
    assert not _THE_PAPER.search("the other one, is it tied to a model?")
    assert not _THE_PAPER.search("is it better than the baseline?")


def test_a_security_paper_need_not_say_security() -> None:
    assert set(tokenize("backdoor")) <= related(tokenize("security")[0])


def test_a_clause_whose_statement_began_before_the_break_keeps_its_opening() -> None:
    sentence = (
        "We first prove that in the `generalization on the unseen (GOTU)' setting, where training data is fully "
        "seen in some part of the domain but testing is made on another part, and for RF models in the small "
        "feature regime, the convergence takes place to interpolators of minimal degree as in the Boolean case "
        "(Abbe et al., 2023)."
    )
    assert trim(sentence, ["simpl", "bias", "function"], max_words=30) == sentence


def test_what_a_paper_fixes_over_earlier_models_is_what_it_adds() -> None:
    question = "what does the crystal one fix compared to earlier diffusion models"
    assert [f.name for f in asked(question)] == ["novelty"]
    crystal = hit(
        "EC",
        "Equivariant Diffusion for Crystal Structure Prediction",
        "Diffusion models have been extensively studied for crystal structure prediction. In this work, we propose "
        "EquiCSP, a novel equivariant diffusion-based generative model. We not only address the overlooked issue of "
        "lattice permutation equivariance in existing models, but also develop a unique noising algorithm. Our "
        "experiments indicate that EquiCSP significantly surpasses existing models.",
    )
    assert "overlooked issue of lattice permutation" in per_paper(question, [crystal], BASE).answer


def test_an_assumption_comes_with_what_the_paper_does_about_it() -> None:
    bilevel = hit(
        "BL",
        "Distributed Bilevel Optimization with Communication Compression",
        "We introduce the first family of distributed bilevel algorithms with communication compression. We first "
        "propose C-SOBA, a simple yet effective approach with provable linear speedup convergence. However, it relies "
        "on strong assumptions on bounded gradients. To address this limitation, we explore moving average and error "
        "feedback, resulting in advanced algorithms with relaxed assumptions. Experiments show a 10x reduction.",
    )
    line = per_paper("what assumptions does it need? bounded gradients?", [bilevel], BASE).answer
    assert "bounded gradients" in line and "relaxed assumptions" in line and "10x" not in line


def test_just_the_titles_when_only_the_titles_are_asked() -> None:
    from assistant.evidence import Rarity, topic
    from assistant.shapes import topic_list

    papers = [
        hit("A", "Curriculum Reinforcement Learning with Mixture of Experts", "We propose an RL method for skills."),
        hit("B", "Robust MDPs by Estimating The Worst Kernel", "We present a reinforcement learning approach."),
    ]
    rarity = Rarity([f"{p.title}. {p.abstract}" for p in papers])
    question = "which papers are about reinforcement learning? just list em"
    shown = topic_list(topic("which papers are about reinforcement learning?"), papers, BASE, rarity, question)
    assert shown is not None and shown.answer.split("\n") == [f"- “{p.title}” [{n}]." for n, p in enumerate(papers, 1)]
    # each line is still cited with the sentence that shows it is about the topic
    assert all(c.evidence for c in shown.citations)
    full = topic_list(topic("which papers are about reinforcement learning?"), papers, BASE, rarity, "")
    assert full is not None and "We propose an RL method" in full.answer


def test_code_asked_beside_another_thing_is_asked() -> None:
    from assistant.facets import ASKS_CODE

    assert ASKS_CODE.search("which one has experiments and code?")
    assert not ASKS_CODE.search("does it speed up decoding and code completion?")


def test_last_one_is_a_preface_not_the_topic() -> None:
    from assistant.evidence import topic

    # "last one -" (c436.4 searched for "last one" and gave the 3D agent alone)
    assert TOPIC_CHANGE.match("last one - llm agents that deal w video or 3d scenes?")
    assert {"agent", "video"} <= set(topic("last one - llm agents that deal w video or 3d scenes?").required)
    # "the last one" points at a paper shown
    assert not TOPIC_CHANGE.match("the last one - does it need retraining?")


def test_shorthand_for_an_algorithm_and_for_running_on_top_of_one() -> None:
    said = _as_spelled("robust rl that i can bolt onto an existing algo like SAC?")
    assert said == "robust rl that i can apply on top of an existing algorithm like SAC?"
    # "an existing algorithm" is what EWoK calls "any off-the-shelf ... algorithm"
    assert "shelf" in related(tokenize("existing")[0])


def test_a_list_of_examples_that_ends_in_that_kind_of_thing() -> None:
    from assistant.evidence import topic

    concept = topic(
        "any papers on speeding up PDE solvers w/ neural nets? surrogates, preconditioners, that kind of thing"
    )
    assert {"surrog", "precondition"} <= set(concept.examples)
    assert "kind" not in concept.required


def test_a_method_tied_to_a_specific_model_is_asked_whether_it_is_model_agnostic() -> None:
    assert [f.name for f in asked("is it tied to a specific model?")] == ["agnostic"]
    line = per_paper("is it tied to a specific model?", [EXPLAINER], BASE).answer
    assert "model-agnostic" in line and "does not mention" not in line


def test_the_same_trick_as_a_named_paper_is_a_comparison_with_it() -> None:
    question = "is that basically the same trick as lookahead decoding for llms?"
    found = intents.detect(question, [], focus=1)
    assert found.kind == "compare" and found.targets == ["it", "lookahead decoding for llms"]
    # the question after the comma names no side
    assert intents.compare_targets("compare it w/ the di-skill one, what envs do they each test on") == [
        "it",
        "di-skill one",
    ]
    assert intents.detect("is that the case for the crystal one?", [], focus=1).kind != "compare"


def test_papers_with_a_name_on_them_ask_for_that_authors_papers() -> None:
    assert intents.asks_for_authors_papers("switching gears, any other papers w/ hardt on them?")
    assert intents.asks_for_authors_papers("papers with Hardt as a co-author")
    assert not intents.asks_for_authors_papers("any papers with code on them?")


def test_the_two_about_a_topic_are_picked_from_the_papers_shown() -> None:
    from dataclasses import replace

    from assistant.answer import Assistant
    from assistant.config import Settings
    from tests.test_answer import FakeRetriever

    # (each holds the topic's words outside a sentence reporting its own results: "We evaluate ..." runs an
    # evaluation, it is not about evaluation)
    bench = replace(hit("B", "Trade-Offs in Multi-Task Benchmarks", "We study seven benchmarks."), dense_score=0.48)
    budget = replace(hit("L", "Comparing Classifiers on a Budget", "We study evaluating classifiers."), dense_score=0.32)
    market = replace(hit("M", "Competing Treatments", "We study the evaluation of treatments."), dense_score=0.12)
    shown = [(h.paper_id, h.title) for h in (budget, market, bench)]
    assistant = Assistant(FakeRetriever([bench, budget, market]), lambda: None, Settings.from_env({}))  # type: ignore[arg-type]
    question = "the two about benchmarks/evaluation - how do they differ"
    assert assistant._the_n_about(question, shown) == [shown[0], shown[2]]
    # no clear margin between the second and the third: none picked, the three stay in focus
    close = replace(market, dense_score=0.3)
    assistant = Assistant(FakeRetriever([bench, budget, close]), lambda: None, Settings.from_env({}))  # type: ignore[arg-type]
    assert assistant._the_n_about(question, shown) == []
    assert assistant._the_n_about("the two about benchmarks", shown[:2]) == []  # nothing to pick from


def test_a_field_named_in_two_words_is_one_topic_beside_a_one_word_topic() -> None:
    from assistant.evidence import topic

    assert topic("switching gears: optimal transport / wasserstein papers?").alternatives == [
        [{"optim"}, {"transport"}],
        [{"wasserstein"}],
    ]
    assert topic("drug discovery or materials stuff?").alternatives == [[{"drug"}, {"discoveri"}], [{"materi"}]]
    # "learning rates" is one name of two words
    assert [{"lr"}] in topic("any theory on sgd training dynamics / learning rates, that kind of thing?").alternatives
    # a word said of both stays shared: "kv cache compression or quantization"
    assert topic("does anything here do kv cache compression or quantization").alternatives == [
        [{"kv"}, {"cach"}, {"compress", "quantiz"}]
    ]


def test_a_request_after_a_change_of_subject_is_still_a_list() -> None:
    assert intents.detect("switching gears: optimal transport / wasserstein papers? any experiments?", []).kind == "list"


def test_better_than_prior_work_is_a_gain_not_a_comparison() -> None:
    question = "the crystal one - which datasets and how much better than prior work?"
    assert intents.detect(question, [], focus=1).kind != "compare"
    assert intents.detect("is the crystal one better than the molecule one?", [], focus=2).kind == "compare"


def test_each_topic_of_an_open_search_has_its_own_closest_paper() -> None:
    from dataclasses import replace

    from assistant.evidence import Rarity, topic
    from assistant.strategies import _close_to_their_topic

    molecules = replace(hit("M", "Projecting Molecules", "A framework for drug discovery of molecules."), dense_score=0.36)
    crystal = replace(hit("C", "Crystal Structure Prediction", "Diffusion for materials and crystals."), dense_score=0.17)
    rarity = Rarity([f"{h.title}. {h.abstract}" for h in (molecules, crystal)])
    both = topic("drug discovery or materials stuff?")
    assert _close_to_their_topic(both, [molecules, crystal], rarity) == [molecules, crystal]
    # one topic: the far paper is held to the closest one's closeness
    one = topic("drug discovery stuff?")
    assert _close_to_their_topic(one, [molecules, crystal], rarity) == [molecules]


def test_two_halves_answered_by_the_same_sentence_say_it_once() -> None:
    from assistant.records import Answer
    from assistant.strategies import _joined

    def line(text: str) -> Answer:
        return Answer(answer=f"“Crystal” [1]: {text}", refused=False, citations=[], passages=[], mode="attribute", **BASE)

    said = "EquiCSP surpasses existing models."
    joined = _joined(line(f"{said} The abstract does not name the datasets."), line(f"{said} It gives no figure."))
    assert joined is not None and joined.answer == f"“Crystal” [1]: {said} The abstract does not name the datasets. It gives no figure."
