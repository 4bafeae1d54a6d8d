"""A message as the requests it holds (``assistant.segments``) and how the pipeline answers each."""

from __future__ import annotations

from assistant.segments import CONTEXT, QUESTION, SEARCH, parts, read, requests, sentences
from tests.test_answer import LOOK, PARA, READER, TEMPER, _library_assistant, _talk, hit


def test_sentences_end_at_question_marks_and_periods_but_not_inside_abbreviations_or_numbers() -> None:
    assert sentences("is there one on backdoors? does it need retraining") == [
        "is there one on backdoors?",
        "does it need retraining",
    ]
    assert sentences("speed-ups of 1.8x, e.g. on MT-bench. any code?") == ["speed-ups of 1.8x, e.g. on MT-bench.", "any code?"]
    # an ellipsis is a pause inside one request
    assert sentences("lottery tickets... can you find them early?") == ["lottery tickets... can you find them early?"]
    # two requests for papers joined by "and" inside one sentence
    assert sentences("something for ViTs on a phone, and something for fine-tuning with little memory") == [
        "something for ViTs on a phone",
        "something for fine-tuning with little memory",
    ]


def test_each_sentence_is_read_as_a_search_a_question_or_context() -> None:
    assert read("what about protecting a model that someone sneaked a hidden trigger into.").kind == SEARCH
    assert read("is there one on federated learning?").kind == SEARCH
    assert read("seismic / subsurface imaging, anything?").kind == SEARCH
    assert read("the explainer one got me curious, anything else on interpretability?").kind == SEARCH
    assert read("and separately, transformers generalizing to unseen inputs").kind == SEARCH
    assert read("different topic: imaging underground from seismic data.").kind == SEARCH
    # a request that points at papers of the conversation asks of them
    assert read("what about the second one?").kind == QUESTION
    assert read("does it need retraining?").kind == QUESTION
    assert read("any real robots?").kind == QUESTION
    # what the user says of themselves, or wants confirmed, asks nothing alone
    assert read("i barely have any paired data").kind == CONTEXT
    assert read("there's also one about fitting ode parameters, right?").kind == CONTEXT


def test_context_and_short_parts_join_a_neighbour() -> None:
    found = parts("back to rl. anything on robust policies? can i keep my usual algorithm?")
    assert [p.kind for p in found] == [SEARCH, QUESTION]
    assert found[0].text == "back to rl. anything on robust policies?"
    assert [p.kind for p in parts("seismic imaging, anything? i barely have any paired data")] == [SEARCH]
    # "any paper on that" asks again what the sentence before it asked
    assert len(parts("why does sgd end up with simple solutions? any paper on that")) == 1


def test_a_message_holding_one_request_is_answered_whole() -> None:
    assert requests("which papers speed up LLM decoding?") == []
    assert requests("does it come with guarantees on false alarms? and real data or only synthetic?") == []
    assert requests("I can't afford backprop memory when fine-tuning a big LM. anything useful?") == []
    asked = requests("is there one on faster diffusion sampling? does it need retraining the model")
    assert [(r.search, r.text) for r in asked] == [
        (True, "is there one on faster diffusion sampling?"),
        (False, "does it need retraining the model"),
    ]
    assert requests("anything else on diffusion? is there code")[0].past_shown
    # questions after one search are asked together, of what it finds
    assert len(requests("anything on robust RL? which benchmarks? any real robots?")) == 2
    # "and separately," says only that a request follows
    assert requests("anything on warmup? and separately, transformers on unseen inputs")[1].text == (
        "transformers on unseen inputs"
    )


BACKDOOR = hit("B", "Energy-based Backdoor Defense", "Backdoor attacks plant a hidden trigger in a model. "
               "We propose EBBA, which detects backdoored models without task-specific samples and without retraining.")


def test_a_search_then_a_question_is_asked_of_what_the_search_finds() -> None:
    assistant = _library_assistant([LOOK, PARA, TEMPER, READER, BACKDOOR])
    first, second = _talk(assistant, [
        "how does lookahead decoding speed up llms?",
        "what about backdoor attacks that plant a hidden trigger in a model? does it need retraining?",
    ])
    assert [c.paper_id for c in first.citations] == ["L"]
    # before: "it" was Lookahead decoding, and the answer said its abstract does not mention backdoors
    cited = [c.paper_id for c in second.citations]
    assert cited == ["B"] and "retraining" in second.answer
    assert [entry["paper_id"] for entry in second.focus] == ["B"]


def test_two_searches_in_one_message_are_both_answered_under_one_numbering() -> None:
    assistant = _library_assistant([LOOK, PARA, TEMPER, READER])
    answer = assistant.ask(
        "anything on reading long documents with gist memories? and separately, diffusion tempering for odes"
    )
    assert [c.paper_id for c in answer.citations] == ["R", "T"]
    assert "[1]" in answer.answer and "[2]" in answer.answer


def test_a_search_that_finds_what_the_part_before_found_is_one_request() -> None:
    assistant = _library_assistant([LOOK, PARA, TEMPER, READER])
    whole = assistant.ask("how does lookahead decoding speed up llm decoding? any paper on lookahead decoding")
    assert [c.paper_id for c in whole.citations] == ["L"] and whole.answer.count("“Lookahead Decoding”") == 1


def test_a_refused_search_is_not_followed_by_an_answer_about_other_papers() -> None:
    assistant = _library_assistant([LOOK, PARA, TEMPER, READER])
    _, second = _talk(assistant, [
        "how does lookahead decoding speed up llms?",
        "what about protein folding with quantum annealers? does it need retraining?",
    ])
    assert second.refused and not second.citations


def test_a_request_naming_no_subject_of_its_own_stays_with_the_papers_shown() -> None:
    assistant = _library_assistant([LOOK, PARA, TEMPER, READER])
    _, datasets = _talk(assistant, ["how does the reading agent handle long documents?", "what about the datasets?"])
    # before a subject of its own is asked for, "what about ..." is asked of the paper shown
    assert [c.paper_id for c in datasets.citations] == ["R"] and "QuALITY" in datasets.answer
    _, both = _talk(assistant, ["how does the reading agent handle long documents?",
                                "what about the datasets? and can you give me the numbers?"])
    assert [c.paper_id for c in both.citations] == ["R"]
    assert read("can you give me the numbers?").kind == QUESTION


def test_two_questions_of_the_papers_shown_are_two_asks_unless_one_only_names_another_subject() -> None:
    from assistant.strategies import _two_asks

    assert _two_asks("does it come with guarantees on false alarms? and real data or only synthetic?") == [
        "does it come with guarantees on false alarms?",
        "real data or only synthetic?",
    ]
    # a premise joins the question after it; "and for crystals?" asks the question before it again
    assert _two_asks("CILA and FedPIN both derive their algorithm from a theory. What does each prove?") == []
    assert _two_asks("and for crystals? does that one use a transformer too like the molecule one") == []


def test_two_things_the_message_announces_are_two_searches() -> None:
    asked = requests("looking for two things: an llm agent that answers questions about videos, and some way "
                     "to get llms to cope with documents longer than the context")
    assert [(r.search, r.past_shown) for r in asked] == [(True, False), (True, False)]
    assert asked[0].text == "an llm agent that answers questions about videos"
    # without the announcement, "A, and B" is one request
    assert requests("an llm agent that answers questions about videos, and some way to read long documents") == []


def test_a_request_for_papers_on_one_word_starts_over_when_another_paper_is_about_it() -> None:
    video = hit("V", "A Video Agent Driven by LLMs", "We build an LLM agent that answers questions about a video "
                "by storing what it sees in a symbolic memory.")
    assistant = _library_assistant([LOOK, PARA, READER, video])
    _, other = _talk(assistant, ["how does lookahead decoding speed up llms?", "ok and anything that works on video?"])
    assert [c.paper_id for c in other.citations] == ["V"]
    # a kind of fact asked in one word ("what about the speedup?") stays with the paper shown
    _, speedup = _talk(assistant, ["how does lookahead decoding speed up llms?", "what about the speedup?"])
    assert [c.paper_id for c in speedup.citations] == ["L"]


def test_a_question_naming_a_paper_is_answered_after_a_refused_search() -> None:
    assistant = _library_assistant([LOOK, PARA, TEMPER, READER])
    _, second = _talk(assistant, [
        "how does lookahead decoding speed up llms?",
        "anything on protein folding with quantum annealers? and does the lookahead one need a draft model?",
    ])
    assert second.answer.startswith("The indexed papers do not answer") and [c.paper_id for c in second.citations] == ["L"]


def test_a_second_search_said_without_its_request_is_a_search_of_its_own() -> None:
    asked = requests("ok other thing: anything on contrastive continual learning? and on backdoor defenses")
    assert [(r.text, r.search, r.past_shown) for r in asked] == [
        ("ok other thing: anything on contrastive continual learning?", True, False),
        ("anything on backdoor defenses", True, False),
    ]
    asked = requests("is there a theory paper on why sgd ends up at simple solutions? and one on learning rate "
                     "dynamics in normalized nets?")
    assert [r.search for r in asked] == [True, True] and asked[1].text.startswith("anything on learning rate")
    assert read("and on which datasets?").kind == QUESTION  # asked of the papers shown


def test_something_similar_searches_past_the_paper_shown() -> None:
    asked = requests("is there something similar for diffusion models, like parallelizing the sampling steps? "
                     "does it need retraining")
    assert [r.search for r in asked] == [True, False] and asked[0].past_shown
    plain = requests("is there a paper on diffusion models? does it need retraining")
    assert plain and not plain[0].past_shown
