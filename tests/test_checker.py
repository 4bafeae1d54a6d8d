"""The strict checker: a sentence must restate one window of at most two sentences of one abstract."""

from __future__ import annotations

from assistant.citations import check, is_fragment
from assistant.corpus import Paper
from assistant.retrieval import Hit


def hit(pid: str, title: str, abstract: str) -> Hit:
    paper = Paper(paper_id=pid, title=title, authors=["Ann Author"], abstract=abstract)
    return Hit(
        rank=1, paper=paper, text=abstract, score=1.0, dense_score=0.9, lexical_score=1.0, start=0, end=len(abstract)
    )


READ = hit("R", "A Human-Inspired Reading Agent with Gist Memory", (
    "Current language models cannot robustly consume long inputs. "
    "To address these limitations, we propose ReadAgent, an agent system that increases effective context length. "
    "Accuracy on QuALITY and NarrativeQA improves over retrieval baselines. "
    "The agent stores episodes as gist memories and looks up passages when needed."))
LOOK = hit("L", "Lookahead Decoding", (
    "Existing methods for accelerating decoding often require a draft model. "
    "We introduce Lookahead decoding, which accelerates decoding without needing auxiliary models."))


def kept(draft: str, *passages: Hit, question: str = "") -> list[str]:
    return [text for text, _ in check(draft, list(passages), question=question).sentences]


def test_a_restatement_of_one_sentence_is_kept_as_that_sentence() -> None:
    assert kept("ReadAgent increases effective context length [1].", READ) == [
        "To address these limitations, we propose ReadAgent, an agent system that increases effective context length."
    ]


def test_two_consecutive_sentences_support_one_claim() -> None:
    claim = "Existing methods require a draft model, while Lookahead decoding needs no auxiliary models [1]."
    assert kept(claim, LOOK) == [claim.replace(" [1]", "")]


def test_topical_words_from_distant_sentences_are_not_support() -> None:
    # Every word occurs in the abstract, but no window of two sentences says it.
    draft = "ReadAgent stores long inputs as gist memories to improve language models [1]."
    verdict = check(draft, [READ]).verdicts[0]
    assert verdict.action == "dropped" and "words not in any one or two sentences" in verdict.reason


def test_invented_quoted_name_and_wrong_title_are_dropped() -> None:
    assert kept("ReadAgent uses “Reward-based reinforcement learning” to store episodes [1].", READ) == []
    assert kept("The paper “Gist Agents for Everyone” proposes ReadAgent [1].", READ) == []


def test_fragments_and_repeats_are_dropped() -> None:
    assert is_fragment("The two papers about reinforcement learning are:")
    assert is_fragment("ReadAgent increases the effective context length of")
    assert not is_fragment("ReadAgent increases effective context length.")
    draft = "ReadAgent increases effective context length [1]. ReadAgent increases the effective context length [1]."
    checked = check(draft, [READ])
    assert len(checked.sentences) == 1 and checked.verdicts[1].reason == "says the same as an earlier sentence"


def test_an_unfinished_last_sentence_is_dropped() -> None:
    checked = check("ReadAgent increases effective context length [1]. It stores episodes as gist", [READ])
    assert [v.reason for v in checked.verdicts][-1] == "a fragment that stops mid-clause"


def test_a_yes_no_question_does_not_license_its_own_words() -> None:
    claim = "ReadAgent is purely theoretical [1]."
    assert not kept(claim, READ, question="Is ReadAgent purely theoretical?")
    assert kept("ReadAgent stores episodes as gist memories [1].", READ, question="How does ReadAgent store episodes?")


def test_a_mash_up_of_the_passage_words_is_dropped() -> None:
    # Every word is in one two-sentence window, but out of its order: not a restatement.
    verdict = check("Retrieval baselines improve accuracy on NarrativeQA and QuALITY [1].", [READ]).verdicts[0]
    assert verdict.action == "dropped" and "in the passage's order" in verdict.reason


def test_a_flipped_conclusion_is_dropped() -> None:
    assert kept("Lookahead decoding does not accelerate decoding [1].", LOOK) == []


AUTO = hit("A", "Auto-Linear Phenomenon in Subsurface Imaging", (
    "A recent seminal work (InvLINT) demonstrates there is only a linear mapping between the latent spaces, "
    "and the decoder requires paired data for training. "
    "This paper extends this direction by demonstrating that only the linear mapping necessitates paired data, "
    "while the encoder and decoder can be learned through self-supervised learning."))


def test_a_claim_joining_earlier_work_with_this_papers_finding_is_dropped() -> None:
    # Each half is in the abstract, but the finding is this paper's, not InvLINT's.
    mixed = ("A recent seminal work (InvLINT) demonstrates that only the linear mapping necessitates paired data, "
             "while the encoder and decoder can be learned through self-supervised learning [1].")
    verdict = check(mixed, [AUTO]).verdicts[0]
    assert verdict.action == "dropped" and "earlier work" in verdict.reason
    own = "Only the linear mapping necessitates paired data, while the encoder and decoder are learned through self-supervised learning [1]."
    assert kept(own, AUTO) == [AUTO.abstract.split("training. ")[1]]


def test_a_misspelt_long_word_is_the_word_it_misspells() -> None:
    darl = hit("D", "Denoising Autoregressive Representation Learning",
               "Our method employs a decoder-only Transformer to predict image patches autoregressively.")
    typo = "The method employs a decoder-only Transformer to predict image patches autoregrelatively [1]."
    assert kept(typo, darl) == [darl.abstract]  # kept, shown as the sentence it misspells
    # Short words sharing a beginning are different words: "generalist" is not "generalization".
    assert kept("The method employs a decoder-only Transformer to predict image generalizations [1].", darl) == []


DEFENCE = hit("E", "Energy-Based Backdoor Defense", (
    "Existing defences entail significant overhead costs, such as the need of task-specific samples. "
    "Hence, the key challenge is how to reduce overhead. "
    "Our contributions are twofold. "
    "In this work, we propose EBBA, which detects backdoored models with a predefined target label."))


def test_a_claim_naming_the_method_must_restate_what_follows_its_introduction() -> None:
    # The overhead is what earlier defences cost; the abstract says it before it introduces EBBA.
    verdict = check("EBBA can be used to reduce the overhead of task-specific samples [1].", [DEFENCE]).verdicts[0]
    assert verdict.action == "dropped" and "before introducing it" in verdict.reason
    # Said without the method's name, the same words restate the background and are kept.
    assert kept("The key challenge is how to reduce overhead [1].", DEFENCE) == ["The key challenge is how to reduce overhead."]
    assert kept("EBBA detects backdoored models with a predefined target label [1].", DEFENCE)


def test_a_quantifier_the_passage_does_not_use_is_dropped() -> None:
    shift = hit("S", "Connect Later", (
        "Generic augmentations may not work for all distribution shifts. "
        "Connect Later fine-tunes the model with targeted augmentations designed with knowledge of the shift."))
    verdict = check("Generic augmentations may not work for any distribution shifts [1].", [shift]).verdicts[0]
    assert verdict.action == "dropped" and "'any' widens" in verdict.reason
    assert kept("Generic augmentations may not work for all distribution shifts [1].", shift)
    # "decoder-only" is a name, not the quantifier "only".
    darl = hit("D", "DARL", "Our method employs a decoder-only Transformer to predict image patches.")
    assert kept("DARL employs a decoder-only Transformer to predict image patches [1].", darl)


def test_how_a_claim_names_the_paper_does_not_count_against_its_order() -> None:
    # The abstract names its benchmarks before saying what the paper analysed; the claim names the
    # paper first. Read without "the diversity vs stability paper", the rest keeps the passage's order.
    paper = hit("V", "Position: Diversity vs Stability in Benchmarks", (
        "We study multi-task benchmarks. Using seven cardinal benchmarks and eleven ordinal benchmarks, "
        "we analyze a trade-off between diversity and stability."))
    claim = "The diversity vs stability paper analyzed seven cardinal benchmarks and eleven ordinal benchmarks [1]."
    assert kept(claim, paper) == [claim.replace(" [1]", "")]
    # The words of the claim, shuffled, are still a mash-up.
    assert kept("Eleven cardinal benchmarks and seven ordinal benchmarks analyze diversity [1].", paper) == []


MOBILE = hit("M", "Mobile Attention: Mobile-Friendly Linear-Attention for Vision Transformers", (
    "To overcome this efficiency-capability dilemma, we propose a novel Mobile-Attention design. "
    "It enables linear-time complexity on mobile devices by supporting a small per-head dimension $d$ "
    "for mobile efficiency. By replacing the standard attention of ViTs with Mobile-Attention, our optimized "
    "ViTs achieved enhanced model capacity and competitive performance in a range of computer vision tasks. "
    "Specifically, we have achieved remarkable reductions in latency on the iPhone 12."
))


def test_a_copy_of_one_sentence_with_words_changed_is_shown_as_the_sentence() -> None:
    # "for optimal performance" where the abstract says "for mobile efficiency": every other word is
    # the sentence's, so the word overlap supports it; what is shown is the sentence itself.
    draft = (
        "It enables linear-time complexity on mobile devices by supporting a small per-head dimension $d$ "
        "for optimal performance [1]."
    )
    assert kept(draft, MOBILE) == [
        "It enables linear-time complexity on mobile devices by supporting a small per-head dimension $d$ "
        "for mobile efficiency."
    ]


def test_an_exact_stretch_of_a_sentence_stays_as_written() -> None:
    # A leading clause cut is no change of words.
    assert kept("We propose a novel Mobile-Attention design [1].", MOBILE) == [
        "We propose a novel Mobile-Attention design."
    ]
