"""Papers in focus: what "the first two", "which of them", "the other one" point at."""

from __future__ import annotations

from assistant.condense import Turn, resolve, standalone

A, B, C = ("a", "Lookahead Decoding"), ("b", "Parallel Diffusion Sampling"), ("c", "Gist Memory Agents")
LISTED = [Turn("Which papers speed up generation?", focus=[A, B, C])]


def test_ordinals_index_the_last_answer() -> None:
    assert resolve("Compare the first two.", LISTED).papers == [A, B]
    assert resolve("Tell me more about the second one", LISTED).papers == [B]
    assert resolve("Who wrote the last one?", LISTED).papers == [C]
    assert resolve("Compare the first and the third one", LISTED).papers == [A, C]


def test_plural_pointers_take_every_paper_in_focus() -> None:
    for question in ("Which of them needs a draft model?", "What datasets do they evaluate on?",
                     "What does each of them generate?", "How do these differ?"):
        assert resolve(question, LISTED).papers == [A, B, C], question


def test_out_of_range_ordinal_names_the_papers_in_focus() -> None:
    two = [Turn("Compare Lookahead and ParaTAA", focus=[A, B])]
    ref = resolve("What about the third one?", two)
    assert ref.papers == [] and ref.among == [A, B]
    assert ref.note == "Only two papers are in focus: “Lookahead Decoding” and “Parallel Diffusion Sampling”."


def test_narrowed_focus_keeps_the_list_for_ordinals_and_the_other_one() -> None:
    turns = [Turn("Compare Lookahead and ParaTAA", focus=[A, B]), Turn("Tell me about the first one", focus=[A])]
    assert resolve("and the other one?", turns).papers == [B]
    assert resolve("Who wrote the second one?", turns).papers == [B]
    assert resolve("Who wrote it?", turns).papers == [A]


def test_single_papers_in_a_row_make_both() -> None:
    turns = [Turn("What is ReadAgent?", focus=[C]), Turn("And what is Lookahead decoding?", focus=[A])]
    assert resolve("How do the two differ?", turns).papers == [A, C]
    assert resolve("How does that compare with the first one?", turns).papers == [C, A]
    assert resolve("How does it compare with Connect Later?", turns).papers == [A]


def test_nothing_in_focus_resolves_to_nothing() -> None:
    assert resolve("Which of them is faster?", []).papers == []
    assert resolve("Which of them is faster?", [Turn("What is the best sourdough recipe?")]).papers == []


def test_rewrite_shows_the_resolved_titles() -> None:
    assert standalone("Compare the first two.", [A, B], LISTED) == \
        "Compare the first two. (about: Lookahead Decoding; Parallel Diffusion Sampling)"
    assert standalone("What is Lookahead decoding?", [], LISTED) == "What is Lookahead decoding?"


def test_after_a_selection_both_and_those_mean_the_selected_papers() -> None:
    a, b, c = ("A", "Alpha"), ("B", "Beta"), ("C", "Gamma")
    turns = [Turn("which of them is training-free?", [], [a, b, c], [a, b])]
    assert resolve("do both need a GPU?", turns).papers == [a, b]
    assert resolve("what do those two report?", turns).papers == [a, b]
    assert resolve("what does each of them report?", turns).papers == [a, b, c]
    assert resolve("who wrote the third one?", turns).papers == [c]  # ordinals index what was shown


def test_a_short_follow_up_after_a_comparison_keeps_both_papers() -> None:
    a, b = ("A", "Alpha"), ("B", "Beta")
    turns = [Turn("compare Alpha and Beta", [], [a, b])]
    assert resolve("what benchmarks?", turns).papers == [a, b]
    assert resolve("which one actually trains a model?", turns).papers == [a, b]
    assert resolve("who wrote it?", turns).papers == [a]  # a singular pointer is the paper just discussed


def test_the_other_one_after_a_selection_is_the_papers_not_picked() -> None:
    picked = Turn("which of them is theoretical?", focus=[A, B, C], selected=[B])
    turns = [Turn("Which papers speed up generation?", focus=[A, B, C]), picked]
    assert resolve("what does the other one do?", turns).papers == [A, C]


def test_an_ordinal_before_another_noun_and_a_follow_up_after_a_selection() -> None:
    picked = Turn("which of them is trained in two stages?", focus=[A, B], selected=[A])
    turns = [Turn("Compare Lookahead and ParaTAA", focus=[A, B]), picked]
    # "the second stage" counts stages, not papers; with no pointer it follows the paper just picked.
    assert resolve("what is the second stage?", turns).papers == [A]
    assert resolve("who is the first author?", [Turn("Compare them", focus=[A, B])]).papers == [A, B]
    assert resolve("what does the second one do?", turns).papers == [B]
    assert resolve("what benchmarks do they use?", turns).papers == [A, B]


def test_how_are_they_different_takes_the_paper_before_the_one_just_shown() -> None:
    turns = [Turn("Tell me about the crystal paper", focus=[C]), Turn("is there another one on chemistry?", focus=[A])]
    assert resolve("how are they different?", turns).papers == [A, C]


def test_the_other_one_of_a_wider_group_and_a_paper_named_by_a_title_word() -> None:
    bilevel, ebba, jrngc = ("B", "Distributed Bilevel Optimization"), ("E", "Energy-based Backdoor Defense"), ("J", "JRNGC")
    turns = [Turn("What does each get rid of?", focus=[bilevel, ebba, jrngc]),
             Turn("for the first two, how much do they save?", focus=[bilevel, ebba])]
    # The third paper asked about, which the last answer left out.
    assert resolve("and the other one?", turns).papers == [jrngc]
    later = [*turns, Turn("and the other one?", focus=[jrngc])]
    assert resolve("who wrote the bilevel one?", later).papers == [bilevel]


def test_each_after_narrowing_a_list_is_each_paper_of_the_list() -> None:
    turns = [*LISTED, Turn("for the lookahead one, how does it guess tokens?", focus=[A])]
    assert resolve("What applications does each target?", turns).papers == [A, B, C]
    assert resolve("Who wrote it?", turns).papers == [A]


def test_the_other_two_when_one_paper_was_shown_points_past_it() -> None:
    # "do the other two prove anything?" after a list that showed one paper: not that paper again,
    # but two more on the subject the list was asked about.
    turns = [Turn("what do you have on causal inference?", focus=[A]), Turn("who are its authors?", focus=[A])]
    ref = resolve("do the other two prove anything?", turns)
    assert (ref.papers, ref.beyond, ref.subject, ref.among) == ([], 2, "what do you have on causal inference?", [A])
    assert resolve("and the others?", turns).beyond == 2
    assert resolve("what about the other one?", turns).beyond == 1
    # With another paper shown, "the other one" is that paper.
    both = [Turn("Tell me about the crystal paper", focus=[C]), Turn("is there another one on chemistry?", focus=[A])]
    assert resolve("what does the other one do?", both).papers == [C]


def test_both_after_narrowing_a_list_of_two_is_the_two_of_the_list() -> None:
    # "which papers redesign attention?" (two), "what device did the vision one use?", "do both have code?"
    turns = [Turn("Which papers redesign attention?", focus=[A, B]), Turn("what did the vision one use?", focus=[B])]
    assert resolve("do both have code released?", turns).papers == [A, B]
    three = [*LISTED, Turn("for the lookahead one, how does it guess tokens?", focus=[A])]
    assert resolve("do both have code released?", three).papers == [A]  # two of three: which two is not said


def test_a_relative_that_points_at_nothing() -> None:
    from assistant.condense import needs_context

    assert not needs_context("Any work on speeding up generation by parallelizing steps that normally run in turn?")
    assert not needs_context("is there a paper that studies pruning at initialization?")
    for pointing in ("how does that compare to ReadAgent?", "what about that paper?", "why is that?",
                     "and what does that one do?"):
        assert needs_context(pointing), pointing


def test_a_title_named_with_a_joining_word_points_at_that_paper() -> None:
    skills = ("s", "Acquiring Diverse Skills using Curriculum Reinforcement Learning with Mixture of Experts")
    turns = [Turn("which papers are about reinforcement learning?", focus=[A, skills, B])]
    assert resolve("and in the mixture of experts one, what does each expert stand for?", turns).papers == [skills]


# Twenty-second round (tuning answers).
def test_a_title_named_by_an_acronym_of_three_letters_points_at_that_paper() -> None:
    ewok = ("e", "Bring Your Own (Non-Robust) Algorithm to Solve Robust MDPs by Estimating The Worst Kernel")
    words = ("w", "From Words to Actions: Unveiling the Theoretical Underpinnings of LLM-Driven Autonomous Systems")
    turns = [Turn("which papers are about reinforcement learning?", focus=[words, A, ewok])]
    assert resolve("the robust mdp one, could i bolt it onto my existing rl algorithm?", turns).papers == [ewok]
    assert resolve("and the new one?", turns).papers != [ewok]  # a short everyday word names no title


def test_which_of_them_after_narrowing_a_list_chooses_among_the_list() -> None:
    turns = [*LISTED, Turn("what about the lookahead one, how does it guess tokens?", focus=[A])]
    assert resolve("which of them uses a mixture of experts?", turns).papers == [A, B, C]


def test_those_two_after_narrowing_a_choice_are_the_two_chosen() -> None:
    # "which of them ...?" chose two of four, "the video one: ...", then "code for both of those two?"
    four = [*LISTED[0].focus, ("d", "Agents in 3D")]
    turns = [Turn("what do you have on agents?", focus=four),
             Turn("which of them take visual input?", focus=four, selected=[B, four[3]]),
             Turn("how does the video one decide which tools to call?", focus=[B])]
    assert resolve("is there code for both of those two?", turns).papers == [B, four[3]]


def test_a_question_opening_on_a_bare_that_is_asked_of_the_paper_just_discussed() -> None:
    turns = [Turn("Compare Lookahead and ParaTAA", focus=[A, B]), Turn("is there a gist memory agent?", focus=[C])]
    assert resolve("how's that different from EWoK", turns).papers == [C]
    assert resolve("is that purely theory? how does that compare w EWoK", turns).papers == [C]


def test_either_after_narrowing_a_list_of_two_is_the_two_listed() -> None:
    turns = [Turn("ML for PDEs?", focus=[A, B]), Turn("and the second one, what do they compare against", focus=[B])]
    assert resolve("do either of them come with proofs?", turns).papers == [A, B]
    three = [Turn("anything fast?", focus=[A, B, C]), Turn("and the second one?", focus=[B])]
    # of three listed, "either" is the paper narrowed to and the one the conversation began with
    assert resolve("do either of them have proofs?", three).papers == [B, A]
