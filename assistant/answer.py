"""The answer pipeline: resolve focus -> classify -> retrieve -> shape or (gate -> draft -> check) -> cite.

``Assistant.stream`` yields events for a UI (status lines, draft tokens, then the checked
answer); ``Assistant.ask`` returns the checked answer only. Lists, comparisons, per-paper
attributes and metadata answers are built from the abstracts' own sentences (``shapes``); the
model drafts only single-paper answers, and every sentence it writes is checked against the one
passage it claims to restate (``citations``). The answer strategies (the gate and refusals, the
shaped answers, the drafted and checked single-paper answer) live in ``strategies``; this module
plans (focus, intent, retrieval) and calls them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

from assistant import compound, facets, intents, segments, shapes, spelling, strategies
from assistant.closeness import SentenceCloseness
from assistant.condense import (
    THAT_OPENS,
    Reference,
    Turn,
    by_title_word,
    needs_context,
    resolve,
    standalone,
    titled_preface,
)
from assistant.evidence import (
    AND_SUBJECT,
    TOPIC_CHANGE,
    Rarity,
    Topic,
    asked_terms,
    coverage,
    holds,
    is_about,
    normalise,
    topic,
)
from assistant.evidence import words as evidence_words
from assistant.llm import LLM
from assistant.records import Answer, Citation
from assistant.retrieval import Hit, QueryError, Retriever, normalise_query
from assistant.strategies import Event, Plan, relevant
from assistant.text import GENERIC_NAMES, named_terms, spells_out, split_sentences, tokenize

__all__ = ["Answer", "Assistant", "Citation", "Event", "Plan", "relevant"]

LIST_POOL = 12  # papers a list question considers; those about its concept are listed
# "the audio one" among the papers shown: the closest abstract sentence to "audio" is the speech
# synthesis paper's (0.40), the next paper's 0.34; "the crystal one" 0.33 against 0.21. A paper is
# picked only this much closer than the next, and at least this close; one the conversation has not
# shown needs more ("the neuron-model paper": 0.51 for Codebook Features' "neurons", 0.43 next).
DESCRIBED_MARGIN = 0.05
DESCRIBED_MARGIN_UNSHOWN = 0.1
DESCRIBED_FLOOR = 0.25
# Telling words a follow-up must name before it points back to open a new subject ("catching the moment
# a data stream suddenly changes": several; "does it need retraining?": none before "it")
NEW_SUBJECT_WORDS = 2
# ... and of which the papers shown hold less than this share (rarity-weighted)
NEW_SUBJECT_SHARE = 0.5
_OTHER_TARGET = re.compile(
    r"\b(?:to|with|against|from|than|and|versus|vs\.?)\s+(?!(?:the (?:first|second|third|other|"
    r"last|former|latter)|them|it|that|this|the others|each other)\b)(.{3,}?)\s*[?.!]*$",
    re.IGNORECASE,
)
_COUNTS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
PICK_MARGIN = 1.5  # how much closer in meaning the last paper picked must be than the first left out
# "the two about benchmarks/evaluation", "the three on RL": some of the papers shown, picked by a topic
_THE_N_ABOUT = re.compile(
    r"\b(?:the (two|three|2|3) (?:papers? |ones? )?(?:about|on|that (?:are about|deal with|study|are on)) |"
    # "two of those are about benchmarks right? what do they each conclude" (c724.2 answered all three)
    r"(two|three|2|3) of (?:those|them|these) (?:are|deal with|study) (?:(?:all |both )?(?:about|on) )?)"
    r"(?P<topic>[^-–—:?,;]+?)(?:,?\s+right)?(?=[-–—:?,;]|\s*$)",
    re.IGNORECASE,
)


def _finds_again(answer: Answer, before: Answer) -> bool:
    """Does ``answer`` cite only papers ``before`` cites (a search that found nothing new)?"""
    cited = {c.paper_id for c in answer.citations}
    return not answer.refused and bool(cited) and cited <= {c.paper_id for c in before.citations}


# Pointers that say which papers, not only that some are meant: "both" of one found and one shown
# before, "the second one", "the puffer one"; "does it ...", "what does each need" are of what was found.
_WHICH_PAPERS = re.compile(
    r"\b(?:both|either|neither|the (?:two|three)|(?:those|these) (?:two|three)|the others|(?:that|this) (?:one|paper)|"
    r"the (?:first|second|third|fourth|fifth|last|latter|former|other)\b)",
    re.IGNORECASE,
)


def _points(question: str) -> bool:
    """Does the question say which papers it asks about ("both", "the second one", "the puffer one")?"""
    return bool(_WHICH_PAPERS.search(question) or _THE_PAPER.search(question))


def _turns(history: Sequence[Any]) -> list[Turn]:
    """History items: plain questions, Turn objects, or dicts with question, citations and focus."""
    turns = []
    for item in history or []:
        if isinstance(item, Turn):
            turns.append(item)
        elif isinstance(item, dict):
            cited = [
                (str(c.get("paper_id") or ""), str(c.get("title") or ""))
                for c in item.get("citations") or []
                if isinstance(c, dict)
            ]
            entries = [c for c in item.get("focus") or [] if isinstance(c, dict)]
            focus = [(str(c.get("paper_id") or ""), str(c.get("title") or "")) for c in entries if not c.get("closest")]
            selected = [(str(c.get("paper_id") or ""), str(c.get("title") or "")) for c in entries if c.get("selected")]
            named = [(str(c.get("paper_id") or ""), str(c.get("title") or "")) for c in entries if c.get("closest")]
            turns.append(Turn(str(item.get("question") or ""), cited, focus, selected, named))
        elif item is not None and str(item).strip():
            turns.append(Turn(str(item)))
    return [t for t in turns if t.question.strip()]


class Assistant:
    """Answers questions from an index; the LLM is loaded on first need."""

    def __init__(self, retriever: Retriever, llm_factory: Callable[[], LLM], settings: Any) -> None:
        self.retriever = retriever
        self.settings = settings
        self._llm_factory = llm_factory
        self._llm: LLM | None = None
        self._rarity_of: tuple[Any, Rarity] | None = None
        self._vocabulary_of: tuple[Any, spelling.Vocabulary] | None = None
        self._closeness = SentenceCloseness(lambda: self.retriever.embedder)

    @property
    def llm(self) -> LLM:
        """The language model (loaded lazily)."""
        if self._llm is None:
            self._llm = self._llm_factory()
        return self._llm

    @property
    def model_name(self) -> str:
        """Name of the language model, or a note that it is not loaded yet."""
        return self._llm.name if self._llm is not None else "not loaded yet"

    def ask(self, question: str, history: Sequence[Any] = ()) -> Answer:
        """The checked answer to ``question``."""
        final = None
        for kind, value in self.stream(question, history):
            if kind == "answer":
                final = value
        assert final is not None
        return final

    def stream(self, question: str, history: Sequence[Any] = ()) -> Iterator[Event]:
        """Events: ("status", text), ("token", piece of the draft), finally ("answer", Answer)."""
        t0 = time.perf_counter()
        timings: dict[str, float] = {}
        question = self._spelled(question)
        yield "status", "Searching the papers…"
        pieces = self._two_questions(question, history)
        if pieces:
            # "Did X have a paper here? What was it about?": the second part points at what the first found.
            # "unrelated: optimal transport - what's there, and does either have code?": both parts start over
            # "any optimal transport papers? does either have code?": "either" is of what the first part finds
            if TOPIC_CHANGE.match(question) or (
                history and self._new_subject_in_passing(pieces[0], self._resolve(_turns(history)))
            ):
                history = []
            first = self.ask(pieces[0], history)
            second = self.ask(pieces[1], [*history, compound.turn(pieces[0], first)])
            yield "answer", self._finish(compound.joined(question, first, second), timings, t0)
            return
        asked = self._requests(question, history)
        if asked:
            several = yield from self._answer_requests(question, asked, history)
            if several is not None:
                yield "answer", self._finish(several, timings, t0)
                return
        question, notice = normalise_query(question, self.settings.max_query_chars)  # raises QueryError
        turns = self._context(question, history)
        plan, shaped = self._shaped(self._plan(question, notice, turns), turns)
        timings["retrieval_ms"] = (time.perf_counter() - t0) * 1000
        base = self._base(plan)
        if shaped is not None:
            yield "answer", self._finish(shaped, timings, t0)
            return
        answer = yield from strategies.generated(plan, base, self.settings, lambda: self.llm, timings, t0)
        yield "answer", self._finish(answer, timings, t0)

    def plan(self, question: str, history: Sequence[Any] = ()) -> Plan:
        """Everything before the model: bound the question, resolve what it points at, classify, retrieve."""
        question, notice = normalise_query(self._spelled(question), self.settings.max_query_chars)  # raises QueryError
        return self._plan(question, notice, self._context(question, history))

    def _context(self, question: str, history: Sequence[Any]) -> list[Turn]:
        """The earlier turns ``question`` is asked in: none when it changes the subject ("ok different
        thing, ..."), asks the index for papers on a subject of its own (``segments.starts_over``),
        or opens a new one before it points back (``_new_subject_in_passing``)."""
        if TOPIC_CHANGE.match(question) and not (
            intents.PAST_SHOWN.search(question) and intents.asks_for_authors_papers(question)
        ):
            # "switching gears, any other papers w/ Hardt on them?" starts over, but "other" is past the
            # paper shown (c523.4 listed it among Hardt's others)
            return []
        # "whats the main result in plain words": how to say it names no subject of its own (c388.2)
        question = _FORMAT.sub("", question).strip() or question
        turns = self._resolve(_turns(history))
        if (
            turns
            and segments.starts_over(question)
            and not _NOT_ASKED.search(question)  # "a paper that accelerates decoding instead of reading?"
            and self._own_subject(question, turns, asks_for_papers=True)
        ):
            return []
        return [] if turns and self._new_subject_in_passing(question, turns) else turns

    def _shaped(self, plan: Plan, turns: list[Turn]) -> tuple[Plan, Answer | None]:
        """The shaped answer to a plan (None: the model drafts it). A follow-up that asks for no
        paper and would be refused is asked of the papers the last answer was about instead: "how
        much faster in wall-clock?", "which parts are proven vs conjectured?" after an answer about
        one paper are questions about it, not searches of the whole index that find nothing."""
        shaped = strategies.shaped(plan, self._base(plan), self.settings, self._rarity, self._closeness.for_question)
        if shaped is not None and plan.lead and not shaped.refused:
            shaped.answer = f"{plan.lead}\n{shaped.answer}"
        if shaped is None or not shaped.refused or not turns or not turns[-1].about:
            return plan, shaped
        if _ASKS_FOR_PAPERS.search(plan.question) or plan.set_aside:
            return plan, shaped
        if AND_SUBJECT.match(plan.question) and self._own_subject(plan.question, turns):
            # "and protein structure prediction?": a subject of its own, searched for, not a question about
            # the paper shown (c710.4 gave the subsurface paper's "predict geophysical properties")
            return plan, shaped
        last = turns[-1].about
        focus = self.retriever.hits_for([pid for pid, _ in last])
        if not focus:
            return plan, shaped
        intent = plan.intent if plan.intent.kind in ("attribute", "quantity") else intents.Intent("attribute")
        rewritten = standalone(plan.question, last, turns)
        on_focus = Plan(plan.question, plan.notice, rewritten, intent, focus, focus)
        again = strategies.shaped(
            on_focus, self._base(on_focus), self.settings, self._rarity, self._closeness.for_question
        )
        if again is not None and again.refused:
            return plan, shaped
        return on_focus, again

    def _two_questions(self, question: str, history: Sequence[Any]) -> list[str]:
        """The parts of a message asking two questions of different kinds, one about a paper's
        record (authors, area); [] for one question."""
        text, _ = normalise_query(question, self.settings.max_query_chars)  # raises QueryError
        pieces = compound.parts(text)
        if not pieces:
            return []
        turns = _turns(history)
        papers = self.retriever.papers()
        kinds = [intents.detect(p, papers, len(turns[-1].about) if turns else 0).kind for p in pieces]
        return pieces if compound.needs_two(kinds, pieces) or self._point_apart(pieces, turns) else []

    def _point_apart(self, pieces: Sequence[str], turns: list[Turn]) -> bool:
        """Do the two questions point at different papers of the conversation ("does the theory say
        it's fine to follow the llm's subgoals? does LEO do anything about exploration?", "did the
        competition paper run on real ad data? and which of the two is more theory?")? Asked as one,
        the papers of the first were asked the second too, and the second's paper was dropped: of
        the 35 judged messages of two questions with no search, 13 were GOOD."""
        turns = self._resolve(turns)
        if not turns or not turns[-1].about:
            return False
        pointed = []
        for piece in pieces:
            if any(p.kind != segments.QUESTION for p in segments.parts(piece)):
                return False  # "is there one on federated learning? does it ...?": a search, then its paper
            named = self._named_in_conversation(piece, turns)
            if named is None and not needs_context(piece) and not _THE_PAPER.search(piece):
                return False  # "and the diffusion one? how many steps ...?": the second asks of the first's paper
            pointed.append(
                {named.paper_id}
                if named is not None
                else {pid for pid, _ in resolve(piece, turns, self._abstract_of).papers}
            )
        return all(pointed) and pointed[0] != pointed[1]

    def _requests(self, question: str, history: Sequence[Any]) -> list[segments.Request]:
        """The requests of a message holding several (``segments.requests``); [] when it holds one,
        or when a search of it names no subject of its own in the conversation ("what about the
        datasets? and is there code?" is asked of the papers shown, whole)."""
        text, _ = normalise_query(question, self.settings.max_query_chars)  # raises QueryError
        asked = segments.requests(text)
        if len(asked) >= 2 and all(r.search and _ASKS_INDEX.match(r.text) for r in asked):
            # "is there any theory on why llm agents work ..., and is there an agent for 3d scenes": two
            # searches said as such, each answered, whatever the papers shown hold (c464.4 answered one)
            return asked
        turns = self._resolve(_turns(history)) if asked else []
        if turns and any(
            r.search and not r.past_shown and not self._own_subject(r.text, turns, asks_for_papers=True) for r in asked
        ):
            return []
        return asked

    def _answer_requests(
        self, question: str, asked: Sequence[segments.Request], history: Sequence[Any]
    ) -> Generator[Event, None, Answer | None]:
        """Answer each request in turn, yielding a status line before each: a search on its own
        (past the papers shown when it asks for another), a question with the earlier turns and the
        parts before it, so that its "it" is what the search before it found. Returns the joined
        answer, or None when a later search only finds again what the part before it found ("why
        does SGD find simple solutions? any theory that flat minima mean simple models?" is one
        request said twice)."""
        earlier = list(history)
        answers: list[Answer] = []
        found: Answer | None = None  # the answer of the last search
        for n, request in enumerate(asked, 1):
            yield "status", f"Answering part {n} of {len(asked)}…"
            if request.search:
                answer = self.ask(request.text, earlier if request.past_shown else [])
                if answers and _finds_again(answer, answers[-1]):
                    return None
                found = answer
            elif found is not None and found.refused and not _points(request.text):
                continue  # what a refused search found is nothing to ask about (a paper it names is)
            elif found is not None and not _points(request.text):
                # "can i keep my usual algorithm?" after "anything on robust RL?": asked of what it found
                answer = self._asked_of_last(request.text, earlier)
            else:
                answer = self.ask(request.text, earlier)
            answers.append(answer)
            earlier = [*earlier, compound.turn(request.text, answer)]
        joined = answers[0]
        for answer in answers[1:]:
            joined = compound.joined(question, joined, answer)
        return joined

    def _asked_of_last(self, question: str, history: Sequence[Any]) -> Answer:
        """``question`` asked of each paper the last turn was about, as a per-paper answer."""
        text, notice = normalise_query(question, self.settings.max_query_chars)  # raises QueryError
        turns = _turns(history)
        last = turns[-1].about if turns else []
        focus = self.retriever.hits_for([pid for pid, _ in last])
        if not focus:
            return self.ask(question, history)
        intent = intents.detect(text, self.retriever.papers(), len(last))
        if intent.kind not in ("attribute", "quantity"):
            intent = intents.Intent("attribute")
        plan = Plan(text, notice, standalone(text, last, turns), intent, focus, focus)
        shaped = strategies.shaped(plan, self._base(plan), self.settings, self._rarity, self._closeness.for_question)
        return shaped if shaped is not None else self.ask(question, history)

    def compare_ids(self, paper_ids: Sequence[str]) -> Answer:
        """A side-by-side comparison of the given papers (from the browse tab)."""
        hits = self.retriever.hits_for(paper_ids)
        known = {h.paper_id for h in hits}
        for pid in paper_ids:
            if pid not in known:
                raise QueryError(f"paper {pid} is not in the index")
        question = "Compare " + " and ".join(f"“{h.title}”" for h in hits)
        base = dict(question=question, rewritten_query=question, notice="", kind="compare")
        return self._finish(shapes.comparison(question, hits, base, [h.title for h in hits]), {}, time.perf_counter())

    # ------------------------------------------------------------ steps
    def _plan(self, question: str, notice: str, turns: list[Turn]) -> Plan:
        question = _FORMAT.sub("", question).strip() or question  # "summarize each in one line"
        question = recased(question, self.retriever.hits_for(_shown(turns, mentioned=True)))
        question = titled_preface(question, turns)
        said = _ABOUT_ME.match(question) or _FOR_MY_WORK.match(question)
        preamble = ""
        if (
            said
            and len(said.group(1).split()) <= (_ABOUT_ME_WORDS if said.re is _ABOUT_ME else _FOR_MY_WORK_WORDS)
            and len(said.group(2).split()) >= 3
            and not _NAMES_NOTHING.match(said.group(2))
        ):
            # "I work on numerical PDEs. which papers use neural nets for PDEs?": the question is the
            # last sentence; what the user says of themselves only helps the search.
            preamble, question = said.group(1).strip(), said.group(2).strip()
        last = turns[-1].about if turns else []
        intent = intents.detect(question, self.retriever.papers(), len(last))
        several = intents.several_named(question) if intent.kind in ("lookup", "authors_of") else []
        named_papers: list[Hit] = []
        if several:
            # "Tell me about DoraemonGPT and LEO": a lookup would answer with one of them; when each
            # name finds the paper it names, the two are answered side by side ("who wrote them?": both).
            found = self._search_each(several)
            if len(found) == len(several) and all(shapes.is_named_by(h, t) for h, t in zip(found, several)):
                if intent.kind == "lookup":
                    intent = intents.Intent("compare", targets=several)
                else:
                    named_papers = found
        if not several and not named_papers and intent.kind in ("lookup", "attribute", "quantity", "list"):
            # "CILA and FedPIN both derive ... What does each prove?", "How do EquiCSP and PiT each
            # build ...": two or more papers named in a question of another form are each answered.
            named_papers = self._papers_named(question) or self._respectively(question, turns)
            if named_papers and intent.kind in ("lookup", "list"):
                intent = intents.Intent("attribute")
        reference = Reference([])
        pinned: Hit | None = None  # the one paper the question names, wherever search would rank it
        held = False  # "another paper about how to allocate a limited budget?": hits[0] holds the asked words
        another = bool(turns) and _asks_for_another(question, len(last))
        if (
            another
            and intent.kind != "papers_by"  # "any other papers w/ Hardt on them?": an author's, past the one shown
            and (not shapes.focal_terms(question) or _THE_OTHER.search(question))
            and any(len(t.about) >= 2 for t in turns)
        ):
            # "and the other one?", "in the other one, why ...?" after narrowing a list to one paper:
            # the other one of that list.
            another = False
        told = _ALSO_A_PAPER.search(question) if last and not named_papers else None
        if told is not None and _OF_BOTH.search(question, told.end()):
            # "there's also a distributed bilevel optimization paper. do both target efficiency?": the
            # paper told of beside the one in focus, each asked; not one more paper alone (c200.3)
            besides = self._told_of(told.group("said") or told.group("on"), self.retriever.hits_for(_shown(turns)))
            if besides is not None:
                named_papers = self.retriever.hits_for([pid for pid, _ in last]) + [besides]
                question, another = question[told.end() :].strip() or question, False
                if intent.kind in ("lookup", "list"):
                    intent = intents.Intent("attribute")
                elif intent.kind == "compare":
                    intent = intents.Intent("compare")  # its sides are these two, not the words of the premise
        asks_index = bool(last) and intents.ASKS_A_PAPER.search(question) is not None
        if asks_index and _NOT_ASKED.search(question):
            another = True  # "is there a paper that reduces communication cost instead of memory?"
        new_subject = (
            intent.kind in ("lookup", "list")
            and (intents.NEW_SUBJECT.search(question) is not None or asks_index)
            and intents.FOCUS_POINTER.search(question) is None
        )
        if (
            turns
            and not another
            and not new_subject
            and (
                needs_context(question)
                or intent.kind == "attribute"
                or (intent.kind == "compare" and len(intents.named_targets(intent)) < 2)
            )
        ):
            reference = resolve(question, turns, self._abstract_of)
            if (
                intent.kind == "compare"
                and len(turns[-1].about) == 1
                and len(reference.papers) > 1
                and intents.COMPARE_WITH_ONE.match(question.strip())
            ):
                # "compare it w/ the di-skill one, what envs do they each test on": "it" is the one paper
                # just shown, "they" the two compared (c514.4 added a paper from two turns back)
                reference = Reference(list(turns[-1].about[:1]))
            about = self._the_n_about(question, turns[-1].about)
            if about:
                reference = Reference(about)
        lead = ""
        if reference.beyond:
            reference, lead = self._beyond_shown(reference, turns)
        if intent.kind == "compare":
            within = self._compared_within(
                intent,
                self.retriever.hits_for([pid for pid, _ in reference.papers]),
                self.retriever.hits_for([pid for pid, _ in turns[-1].about]) if turns else [],
            )
            if within is not None:
                # "EBBA vs EBBA+?", "numbers vs MeZO?" of MeZO-SVRG: both sides are in one abstract
                reference, pinned = Reference([(within.paper_id, within.title)]), within
        elif turns and not (named_papers or another) and not _POINTS_AT_GROUP.search(question):
            named = (
                self._named_in_conversation(question, turns)
                or self._described(question, turns, reference)
                or self._held_by_content(question, turns, reference)
            )
            if named is not None:
                # "for DARL, what did they find about noise schedules?" after a list holding DARL;
                # "the audio one, what's the core idea?" of the paper on speech synthesis
                reference, pinned = Reference([(named.paper_id, named.title)]), named
                if intent.kind == "list":
                    intent = intents.Intent("lookup")  # asked of that paper, not of the index
                if intent.kind == "lookup" and (
                    (_THE_PAPER.search(question) and _ASKS_ITS.search(question)) or _ASKS_IF_IT_BEATS.match(question)
                ):
                    # "And what theoretical guarantees does the federated paper provide?": a kind of fact
                    # asked of the paper shown, answered by the sentences stating it (c703.3 opened with
                    # its method sentence and left out its convergence guarantee)
                    intent = intents.Intent("attribute")
        if turns and (last or reference.papers) and intent.kind != "papers_by":
            by_author = self._authors_work(question, notice, reference.papers or last)
            if by_author is not None:
                return by_author
        outside = self._named_outside(question, turns) if turns and not (named_papers or another) else None
        if outside is not None:
            # "the competing treatments one - who is competing for what?" when that paper was never
            # shown; "do it or the diverse skills paper name ...?": the paper in focus and the one named.
            # "it" after the name is the named paper ("the reading one - what does it store?")
            span = _THE_PAPER.search(question)
            before = question[: span.start()] if span else question
            if _ALSO_A_PAPER.search(question):
                before = ""  # "There's also an RL paper using ... What's that one going for?": that one is it
            pointed = reference.papers if _POINTS_TOO.search(before) or _POINTS_ALL.search(question) else []
            reference = Reference(
                [p for p in pointed if p[0] != outside.paper_id] + [(outside.paper_id, outside.title)]
            )
            if len(reference.papers) == 1:
                # "what about the diffusion tempering paper, is that a diffusion model too?": asked of it
                pinned, new_subject = outside, False
        if reference.papers and turns:
            question, intent = self._elliptical(question, intent, turns[-1].question, len(reference.papers))
        rewritten = question if new_subject else standalone(question, reference.papers, turns)
        if another:  # "another paper on X instead of Y": search for X, not for what the user set aside
            rewritten = _NOT_ASKED.sub("", question).strip(" ,;") or question
        if preamble:
            rewritten = f"{preamble} {rewritten}"
        focus = named_papers or self.retriever.hits_for([pid for pid, _ in reference.papers or reference.among])
        if intent.kind == "compare" and not reference.note and pinned is None:
            focus = self._compared(question, intent, focus, turns)
        hits = focus if intent.kind in ("compare", "attribute") and focus else self._retrieve(intent, rewritten)
        if pinned is not None and intent.kind in ("lookup", "quantity", "compare"):
            focus = [pinned]
            hits = [pinned] + [h for h in hits if h.paper_id != pinned.paper_id]
        if (
            intent.kind == "list"
            and not focus
            and (shapes.ASKS_LINKS.search(question) or shapes.ASKS_FIRSTS.search(question))
        ):
            # "which abstracts link to code?", "which claim to be the first?": every abstract is looked
            # at, in retrieval order first
            ranked = [h.paper_id for h in hits]
            seen = set(ranked)
            every = ranked + [p.paper.paper_id for p in self.retriever.papers() if p.paper.paper_id not in seen]
            hits = self.retriever.hits_for(every)
        if another:
            # "another paper on X": not one the conversation has shown already, two turns back included
            shown = set(_shown(turns))
            if intent.kind in ("lookup", "attribute") and _MORE_THAN_ONE.search(question):
                # "other time series papers besides that one?": the papers on the topic not shown yet
                intent = intents.Intent("list")
            pool = (
                self.retriever.search(_spelled_out(rewritten), LIST_POOL)
                if intent.kind in ("lookup", "attribute", "list")
                else hits
            )
            hits = [h for h in pool if h.paper_id not in shown]
            hits = _holding_most(question, hits, self._rarity())
            held = intent.kind == "lookup" and _holds_asked(question, hits[:1], self._rarity())
        if (
            intent.kind == "lookup"
            and last
            and not another
            and not new_subject
            and (not reference.papers or pinned is not None)
            and hits
            # "which datasets was the long document one tested on" names its paper, shown or not
            and (hits[0].paper_id in {pid for pid, _ in last} or (pinned is not None and hits[0] is pinned))
            and facets.asked(question)  # a kind of fact asked; "is diffusion tempering a diffusion model?" is not
        ):
            # "which LLM does the reading agent run on?" right after ReadAgent was discussed: a paper in
            # focus named by what it is, asked a fact of; answered as that paper's line, which says
            # when the abstract does not give the fact, not as a fresh lookup.
            intent, focus, hits = intents.Intent("attribute"), hits[:1], hits[:1]
        if (
            intent.kind == "lookup"
            and not another
            and hits
            and _ASKS_IF_IT_BEATS.match(question)
            and any(shapes.is_named_by(hits[0], name) for name in named_terms(question))
        ):
            # "does DARL actually beat masked prediction models?": whether the paper named wins, which its
            # results sentence says (c688.4 opened with its first sentence and added one on noise schedules)
            intent, focus, hits = intents.Intent("attribute"), hits[:1], hits[:1]
        set_aside = self.retriever.hits_for([pid for pid, _ in last]) if another else []
        names_its_paper = pinned is not None and bool(hits) and hits[0] is pinned
        return Plan(
            question, notice, rewritten, intent, hits, focus, reference.note, set_aside, names_its_paper, lead, held
        )

    def _beyond_shown(self, reference: Reference, turns: list[Turn]) -> tuple[Reference, str]:
        """ "Do the other two prove anything?" when the conversation has shown one paper: the next
        papers the question that brought up the subject finds, not shown yet, and the line saying so;
        when there are none, a note naming the papers shown."""
        shown = set(_shown(turns))
        try:
            pool = self.retriever.search(_spelled_out(reference.subject), LIST_POOL)
        except QueryError:
            pool = []
        # A paper whose best passage is this far from the subject holds its words by chance.
        found = [h for h in pool if h.paper_id not in shown and h.dense_score >= shapes.ABOUT_CLOSENESS]
        if reference.with_shown:
            # set beside the paper shown, the added one must be about the subject, not merely near it
            # (c583.2 set Codebook Features against PiT for "limited interpretability")
            found = shapes.about_topic(topic(reference.subject), found, self._rarity())
        found = found[: reference.beyond]
        titles = shapes.join([f"“{title}”" for _, title in reference.among])
        if not found and reference.with_shown:
            # "there's also a paper on X? how do the two compare?": the other of the two is the one the
            # message searches for, not one more on the earlier subject (c192.3)
            return Reference(list(reference.among)), ""
        if not found:
            return Reference(
                [], "No other indexed paper on it was found; the conversation has shown", reference.among
            ), ""
        many = {1: "the next paper", 2: "the next two papers", 3: "the next three papers"}.get(
            len(found), f"the next {len(found)} papers"
        )
        lead = f"Earlier answers showed only {titles}; these are {many} found for “{reference.subject}”."
        if reference.with_shown:
            lead = f"Earlier answers showed only {titles}; {many} found for “{reference.subject}” is added."
            return Reference(list(reference.among) + [(h.paper_id, h.title) for h in found]), lead
        return Reference([(h.paper_id, h.title) for h in found]), lead

    def _new_subject_in_passing(self, question: str, turns: list[Turn]) -> bool:
        """Does a follow-up open a new subject before it points back? "any optimal transport papers?
        does either have code?", "can you find the lottery ticket before training? is there one on
        that": the words before the first pointer name a topic that the papers of the last answer
        hardly hold and a paper of the index is about. Asked of the paper shown, such a follow-up got
        "the abstract does not mention “optimal transport”": 7 of the 15 BAD tuning answers of c231-c250."""
        if THAT_OPENS.search(question) or intents.COMPARE_WITH_ONE.search(question):
            # "how's that different from the jacobian granger causality paper?", "compare w the hare and
            # tortoise paper": the paper shown is one side; the one named is the other (c398.3, c425.4)
            return False
        if (
            _NAMES_SHOWN.search(question)
            or intents.PAST_SHOWN.search(question)
            or intents.ASKS_A_PAPER.search(question)
        ):
            # "does the puffer one evaluate on real data?", "the first one, ...?"; "another paper on
            # robustness?", "other time series papers besides that one?", "is there a paper that ... instead
            # of ...?" search the index already, past the papers shown
            return False
        pointer = intents.FOCUS_POINTER.search(question)
        opening = question[: pointer.start()] if pointer else question
        if pointer and _ENDS_ASKING.search(opening):
            return False  # "what real-world model did they apply it to?": asked of the papers shown
        shown = self.retriever.hits_for([pid for pid, _ in turns[-1].about])
        return (
            bool(shown) and self._own_subject(opening, turns) and self._another_is_about(opening, topic(opening), shown)
        )

    def _own_subject(self, question: str, turns: list[Turn], asks_for_papers: bool = False) -> bool:
        """Does ``question`` name a subject of its own: ``NEW_SUBJECT_WORDS`` telling words or more,
        of which the papers of the last answer hold less than ``NEW_SUBJECT_SHARE``? "what about
        the datasets?" names none; "real robot or sim only?" of Di-SkilL ("robot simulation tasks")
        names one the paper shown holds; "any optimal transport papers?" after JRNGC names one.

        A request for papers (``asks_for_papers``: "ok and anything that works on video?") names its
        subject with one word too, when it asks no kind of fact ("what about the speedup?", "what
        about the code?") and an indexed paper besides those shown is about that word."""
        concept = topic(question)
        single = (
            asks_for_papers
            and len(concept.required) == 1
            and not facets.asked(_KIND_OF_WORK.sub(" ", question))
            and not facets.ASKS_CODE.search(question)
        )
        if len(concept.required) < NEW_SUBJECT_WORDS and not single:
            return False  # "does it need retraining?": too few words before "it" to name a subject
        shown = self.retriever.hits_for([pid for pid, _ in turns[-1].about]) if turns else []
        rarity = self._rarity()
        if shown and max(coverage(concept, h.title, h.abstract, rarity) for h in shown) >= NEW_SUBJECT_SHARE:
            return False
        # "any recommender systems papers in there?": papers asked for in so many words, on a subject the
        # papers shown do not hold, start over even when no paper is about it (the refusal says so; c620.4
        # said of the two chemistry papers shown that they do not mention "recommender")
        return not single or self._another_is_about(question, concept, shown) or bool(_PAPERS_ASKED.search(question))

    def _another_is_about(self, question: str, concept: Topic, shown: Sequence[Hit]) -> bool:
        """Is an indexed paper besides ``shown`` about ``concept``, the topic ``question`` names (one search)?"""
        try:
            found = self.retriever.search(question, self.settings.top_k)
        except QueryError:
            return False
        seen = {h.paper_id for h in shown}
        return any(h.paper_id not in seen for h in shapes.about_topic(concept, found, self._rarity()))

    def _spelled(self, question: str) -> str:
        """``question`` with shorthand written out and slips of the index's own words mended."""
        papers = self.retriever.papers()
        if self._vocabulary_of is None or self._vocabulary_of[0] is not papers:
            self._vocabulary_of = (papers, spelling.Vocabulary(f"{p.paper.title}. {p.paper.abstract}" for p in papers))
        return self._vocabulary_of[1].correct(_as_spelled(question))

    def _rarity(self) -> Rarity:
        """Word rarity over the current index snapshot (rebuilt when the snapshot changes)."""
        papers = self.retriever.papers()
        if self._rarity_of is None or self._rarity_of[0] is not papers:
            self._rarity_of = (papers, Rarity([f"{p.paper.title}. {p.paper.abstract}" for p in papers]))
        return self._rarity_of[1]

    def _the_n_about(self, question: str, shown: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
        """ "the two about benchmarks/evaluation - how do they differ" after three papers were listed:
        the two that hold the topic most, in the order shown; [] when the words do not pick that many
        apart from the rest (c512.2 compared all three)."""
        said = _THE_N_ABOUT.search(question)
        wanted = _COUNTS[(said.group(1) or said.group(2)).lower()] if said else 0
        if not said or len(shown) <= wanted:
            return []
        concept, rarity = topic(said.group("topic")), self._rarity()
        try:
            close = {h.paper_id: h.dense_score for h in self.retriever.search(said.group("topic"), LIST_POOL)}
        except QueryError:
            return []
        hits = self.retriever.hits_for([pid for pid, _ in shown])
        # Held words first; among papers that all hold them (a benchmark paper, a classifier-comparison
        # paper and an experimentation paper all "evaluate"), closeness in meaning, by a clear margin:
        # 0.48 and 0.32 for "benchmarks/evaluation" against 0.12 for the competing-treatments paper.
        scores = {
            h.paper_id: (coverage(concept, h.title, h.abstract, rarity), close.get(h.paper_id, 0.0)) for h in hits
        }
        ranked = sorted(scores.values(), reverse=True)
        if len(ranked) < len(shown):
            return []
        last_in, first_out = ranked[wanted - 1], ranked[wanted]
        if last_in[0] <= 0 or (last_in[0] == first_out[0] and last_in[1] < PICK_MARGIN * max(first_out[1], 0.01)):
            return []
        return [p for p in shown if scores[p[0]] >= last_in]

    def _compared(
        self, question: str, intent: intents.Intent, focus: list[Hit], turns: Sequence[Turn] = ()
    ) -> list[Hit]:
        """The papers a comparison is about: those it names (one search each); else those in focus,
        plus one it names beside a single one ("how does it compare to Lookahead decoding?"); else
        the papers about the topic it names ("compare the two papers about RL")."""
        named = intents.named_targets(intent)
        concept = topic(question)
        if not focus and concept.led and re.search(r"\bpapers\b", question, re.IGNORECASE):
            count = re.search(r"\b(two|three|four|2|3|4)\s+papers\b", question, re.IGNORECASE)
            wanted = _COUNTS[count.group(1).lower()] if count else 4
            pool = self.retriever.search(concept.text, LIST_POOL)
            return shapes.about_topic(concept, pool, self._rarity())[:wanted]
        if len(named) >= 2:
            return self._search_each(named, turns)
        if len(focus) >= 2:
            return focus
        other = _OTHER_TARGET.search(question)
        extra = [other.group(1)] if other and not intents.POINTER_TARGET.match(other.group(1).strip()) else []
        if focus:
            found = list(focus)
            for hit in self._search_each(extra or named):
                if hit.paper_id not in {h.paper_id for h in found}:
                    found.append(hit)
            if len(found) == 1 and turns and len(turns[-1].about) >= 2:
                # "hows that different from the neural granger causality paper" after a list of three that
                # held it: "that" is the first paper of the list, set against the one named (c467.4
                # compared the Granger paper with nothing)
                first = next((pid for pid, _ in turns[-1].about if pid != found[0].paper_id), None)
                found += self.retriever.hits_for([first]) if first else []
            return found
        return self._search_each(list(dict.fromkeys(named + extra)))

    def _elliptical(
        self, question: str, intent: intents.Intent, asked_before: str, in_focus: int
    ) -> tuple[str, intents.Intent]:
        """A follow-up that leaves out what it asks, completed from the question before it: "by how
        much?" after "what does each reduce?", "and the other one?" after "what speed-up does it
        report?"; any other question as it is."""
        if not shapes.focal_terms(asked_before):
            return question, intent
        if _BARE_AMOUNT.match(question):
            return f"{asked_before.rstrip(' ?.')}, and {question.strip()}", intents.Intent("quantity")
        if _BARE_POINTER.match(question):
            again = intents.detect(asked_before, self.retriever.papers(), in_focus)
            if again.kind not in ("attribute", "quantity", "authors_of"):
                again = intents.Intent("attribute")  # of the paper pointed at, whatever it asked of the last
            return asked_before, again
        return question, intent

    def _papers_named(self, question: str) -> list[Hit]:
        """The papers a question names by a method name ("EBBA", "PiT") or as "the X paper", in the
        order it names them; empty unless it names two or more."""
        # "like adding DP noise": an acronym many papers use names none of them (it took the BDP paper)
        names = {n for n in named_terms(question) if n.casefold() not in GENERIC_NAMES}
        spans = [(m.start(), m.group()) for m in re.finditer(r"\S+", question) if m.group().strip(",.?!;:") in names]
        spans += [(m.start(), m.group()) for m in _THE_PAPER.finditer(question)]
        if len(spans) < 2:
            return []
        found: list[Hit] = []
        for _, target in sorted(spans):
            target = target.strip(",.?!;:")
            try:
                candidates = self.retriever.search(target, 3)
            except QueryError:
                continue
            # A method name ("FedPIN", "JRNGC") names the paper whose abstract uses it, however it is introduced.
            hit = next((h for h in candidates if shapes.is_named_by(h, target) or _uses_name(h, target)), None)
            if hit is not None and hit.paper_id not in {f.paper_id for f in found}:
                found.append(hit)
        return found if len(found) >= 2 else []

    def _respectively(self, question: str, turns: list[Turn]) -> list[Hit]:
        """ "For lookahead decoding and the diffusion sampler respectively, what speedups ...?": each of
        the two phrases names a paper, by its title's words or as one the conversation has shown
        (the closest of them to the phrase); empty unless both do and they differ."""
        said = _RESPECTIVELY.search(question)
        if said is None:
            return []
        shown = set(_shown(turns))
        found: list[Hit] = []
        for phrase in (said.group(1), said.group(2)):
            try:
                candidates = self.retriever.search(phrase, 3)
            except QueryError:
                return []
            hit = next((h for h in candidates if shapes.is_named_by(h, phrase) or _uses_name(h, phrase)), None)
            hit = hit or next((h for h in candidates if h.paper_id in shown), None)
            if hit is None or hit.paper_id in {f.paper_id for f in found}:
                return []
            found.append(hit)
        return found

    def _named_in_conversation(self, question: str, turns: list[Turn]) -> Hit | None:
        """The one paper of the conversation that uses every method name the question holds ("DARL");
        None when it holds none, or when no paper or more than one uses them."""
        # "why LLM-driven agents manage to ...": an acronym made an adjective names a kind, not a paper
        # (c728.3 took the video agent, whose abstract says "LLM-driven planner", for the one asked)
        names = [n for n in named_terms(question) if n.casefold() not in GENERIC_NAMES and not _KIND_OF.match(n)]
        if not names:
            return None
        shown = self.retriever.hits_for(_shown(turns, mentioned=True))
        users = [h for h in shown if all(_uses_name(h, n) for n in names)]
        if len(users) != 1:
            return None
        if _POSITION.search(question) and not all(_own_name(users[0], n) for n in names):
            # "does the first one work with flashattention?" of ParaTAA listed first: the name is a tool
            # the second paper (Lookahead decoding) mentions, not what the user calls the paper; the
            # position says which paper is asked about (c161.3 was judged answered of the wrong one)
            return None
        return users[0]

    def _held_by_content(self, question: str, turns: list[Turn], reference: Reference) -> Hit | None:
        """ "Back to the theory one: do Transformers end up learning minimal-degree interpolators there?"
        when a title word of another paper ("Information-Theoretic") took "the theory one": the one
        paper of the conversation holding the words the question asks (three or more, ``HELD_SHARE``
        of them by rarity), when the paper the description picked holds at most a third of them. A
        question with fewer asked words ("does the theory one use transformers?") keeps the description."""
        # "which parts of the brain does the first one map its two networks to?" when the last answer
        # listed the weight-dynamics paper first: the brain-inspired one of the comparison before it.
        span = _THE_PAPER.search(question) or _POSITION.search(question)
        if span is None or len(reference.papers) != 1:
            return None
        terms = shapes.focal_terms(question[: span.start()] + question[span.end() :])
        positional = _THE_PAPER.search(question) is None
        few = positional and len(terms) == HELD_TERMS - 1
        if len(terms) < HELD_TERMS and not few:
            return None
        shown = self.retriever.hits_for(_shown(turns, latest_first=True))
        shares = dict(zip((h.paper_id for h in shown), _shares_held(terms, shown, self._rarity())))
        if few:
            # "the first one - whats the main tradeoff and how many benchmarks did they look at": two
            # asked words that one paper alone holds both of, the one in that position at most the
            # rarer-weighted third, say which paper is meant (c427.2: the multi-task benchmark paper,
            # listed third, 1.0; the causal-inference paper listed first 0.22, for "benchmark")
            whole = [h for h in shown if shares[h.paper_id] >= 1.0]
            picked = shares.get(reference.papers[0][0])
            return whole[0] if len(whole) == 1 and picked is not None and picked <= 1 / 3 else None
        # A position says less than a description, so less is needed against it: a paper holding three
        # times what the one in that position holds (Hare & Tortoise 0.45 of "parts", "brain", "map",
        # "networks"; the weight-dynamics paper 0.14).
        floor = POSITION_SHARE if positional else HELD_SHARE
        holders = [h for h in shown if shares[h.paper_id] >= floor]
        picked = shares.get(reference.papers[0][0])
        if picked is None or picked > 1 / 3 or len(holders) != 1:
            return None
        if positional and shares[holders[0].paper_id] < 3 * picked:
            return None
        return holders[0]

    def _described(self, question: str, turns: list[Turn], reference: Reference) -> Hit | None:
        """The paper of the conversation that "the audio one" or "the label-budget paper" describes
        when no word of a title says it: the one whose abstract holds the sentence closest in meaning
        to the describing words, clearly closer than any other paper's (``DESCRIBED_MARGIN``)."""
        span = _THE_PAPER.search(question)
        if span is None or (len(reference.papers) == 1 and _POINTS_TOO.search(question[: span.start()])):
            return None  # "do it or the diverse skills paper name ...?": both are asked of
        # "the video agent" among agent papers: "video" tells them apart, "agent" does not
        said = _described_words(span.group())
        try:
            titled = self.retriever.search(span.group(), 3)
        except QueryError:
            titled = []
        shown = self.retriever.hits_for(_shown(turns, latest_first=True, mentioned=True))
        by_title = list({h.paper_id: h for h in shown + titled if shapes.is_named_by(h, span.group())}.values())
        seen = {h.paper_id for h in shown}
        if (
            by_title
            and all(h.paper_id not in seen for h in by_title)
            and _described_by_shown(span.group(), shown, by_title)
        ):
            by_title = []
        if by_title:
            # "the label-budget paper", "the diffusion tempering paper": a title says it, shown or not;
            # "and the mixture-of-experts skill paper, what environments does it use?": "it" is that one
            return by_title[0] if len(by_title) == 1 else None
        if not shown or not shapes.focal_terms(said):
            return None
        resolved = [h for h in shown if [(h.paper_id, h.title)] == reference.papers]
        describing = set(evidence_words(span.group())) - _POINTER_WORDS
        if resolved and describing <= set(evidence_words(f"{resolved[0].title} {resolved[0].abstract}")):
            # "the explanation one" of the list holding the explanation-method paper: no paper is picked by
            # the closeness of one sentence when the paper the conversation resolves to holds the words
            # ("theoretical explanations" of the continual-learning paper was picked, c254.3); the paper the
            # conversation resolves to is kept, not left to the next step, which by content took the paper in
            # focus (c401.3 "and the explainer one" after a turn on the Granger paper was asked of it)
            return resolved[0]
        # "the video one: ...", then "and the long document one?": the one paper in focus is not
        # what the words describe; the list before it holds ReadAgent ("long contexts", "documents")
        # Papers not shown compete too: "the neuron-model paper" may be one the conversation never listed.
        candidates = shown + [h for h in titled if h.paper_id not in seen]
        closeness = self._closeness.for_question(said, candidates)
        ranked = sorted(
            ((max(closeness(s.text) for s in split_sentences(h.abstract)), n, h) for n, h in enumerate(candidates)),
            key=lambda c: (-c[0], c[1]),
        )
        best, _, hit = ranked[0]
        # A paper shown is picked when clearly closer than every other paper shown; one never shown
        # must be clearly closer than every candidate.
        rivals = [c[0] for c in ranked[1:] if c[2].paper_id in seen or hit.paper_id not in seen]
        margin = DESCRIBED_MARGIN if hit.paper_id in seen else DESCRIBED_MARGIN_UNSHOWN
        return hit if best >= DESCRIBED_FLOOR and best - max(rivals, default=0.0) >= margin else None

    def _compared_within(self, intent: intents.Intent, focus: list[Hit], last: Sequence[Hit] = ()) -> Hit | None:
        """The paper a comparison stays inside: what its targets name is one abstract's ("EBBA vs
        EBBA+?"; "numbers vs MeZO?" of the MeZO-SVRG paper, which names MeZO as its baseline); None
        when they name two papers ("Lookahead decoding and ReadAgent") or no method at all. ``last``:
        the papers of the last answer, one of which "the transformer one" may name."""
        targets = intents.named_targets(intent)
        if (
            len(focus) == 1
            and len(targets) == 1
            and len(intent.targets) == 2
            and any(intents.POINTER_TARGET.match(t.strip()) for t in intent.targets)
        ):
            # "how does it compare to FNO" of PiT, whose abstract sets it against the "Fourier neural
            # operator": inside that abstract (a search for "FNO" brought Hare & Tortoise, c475.3)
            name = targets[0].strip()
            text = f"{focus[0].title} {focus[0].abstract}".casefold()
            return focus[0] if spells_out(name, text) else None
        sides = [_LEADING_AND.sub("", t.strip()) for t in intent.targets]
        described = [
            next((h for h in [*focus, *last] if shapes.is_named_by(h, s)), None) for s in sides if _THE_X_ONE.match(s)
        ]
        other = [t.strip() for t, s in zip(intent.targets, sides) if not _THE_X_ONE.match(s)]
        if len(intent.targets) == 2 and len(described) == 1 and described[0] is not None and other:
            # "and the transformer one vs FNO?": the paper named by what it is, set against an acronym its
            # abstract spells out (c697.3 searched for "FNO" and compared PiT with Hare & Tortoise)
            paper = described[0]
            if spells_out(other[0], f"{paper.title} {paper.abstract}".casefold()):
                return paper
        if len(targets) < 2 or len(targets) < len(intent.targets):
            return None  # "how do DARL and that one differ?": one side is a paper in focus
        if not any(n.casefold() not in GENERIC_NAMES for t in targets for n in named_terms(t)):
            return None
        found = {h.paper_id: h for h in focus}
        for target in targets:
            try:
                found.update((h.paper_id, h) for h in self.retriever.search(target, 3))
            except QueryError:
                continue
        shown = {h.paper_id for h in focus}
        named = {
            h.paper_id
            for target in targets
            for h in found.values()
            if shapes.is_named_by(h, target)
            or any(_uses_name(h, n) for n in named_terms(target))
            # "position-attention ... compare to FNO" of PiT: the paper in focus writes the one and
            # spells out the other ("Fourier neural operator")
            or (h.paper_id in shown and _written_in(target.strip(), f"{h.title} {h.abstract}".casefold()))
        }
        if len(named) != 1:
            return None
        paper = found[next(iter(named))]
        text = f"{paper.title} {paper.abstract}".casefold()
        # Every side is in that abstract, or is only what is measured ("numbers"): "diffusion
        # tempering" beside ParaTAA names another paper even where no title says it.
        # "PiT's attention vs regular self-attention": the classical self-attention the abstract sets against it
        bare = [shapes.USUAL.sub("", t) for t in targets]
        inside = all(
            t.casefold() in text
            or set(tokenize(t)) <= _MEASURES
            or any(_uses_name(paper, n) for n in named_terms(t))
            or _written_in(t.strip(), text)
            for t in bare
        )
        return paper if inside else None

    def _authors_work(self, question: str, notice: str, shown: Sequence[tuple[str, str]]) -> Plan | None:
        """ "What else did the senior author publish in this set?": the papers of that author of the
        paper(s) shown (last author for "senior", first for "first"/"lead", else every author), found
        by the author filter, less the papers shown when "else"/"other" asks past them."""
        asked = _AUTHOR_WORK.search(question)
        if asked is None:
            return None
        papers = self.retriever.hits_for([pid for pid, _ in shown])
        role = next((g for g in asked.groups() if g), "").lower()
        authors = list(dict.fromkeys(name for h in papers for name in _by_role(h.paper.authors, role)))
        shared = [a for a in authors if sum(a in h.paper.authors for h in papers) > 1]
        if role in _ONE_PERSON and shared:
            authors = shared  # "that author" of papers that share one: the one they share
        if not authors:
            return None
        past = papers if intents.PAST_SHOWN.search(question) or _MORE.search(question) else []
        seen = {p.paper_id for p in past}
        found = self._retrieve(intents.Intent("papers_by", authors=authors), question)
        hits = [h for h in {h.paper_id: h for h in found}.values() if h.paper_id not in seen]
        rewritten = f"{question} (papers by {shapes.join(authors)})"
        return Plan(question, notice, rewritten, intents.Intent("papers_by", authors=authors), hits, set_aside=past)

    def _named_outside(self, question: str, turns: list[Turn]) -> Hit | None:
        """The paper that "the X one" or "the X paper" names when no paper of the conversation is so
        named: the first of three search hits that the words name; None otherwise."""
        shown = self.retriever.hits_for(_shown(turns))
        spans = [m.group() for m in _THE_PAPER.finditer(question)]
        # "do either of those, or FedPIN, deal with ...": a method name no paper shown so far uses
        names = [n for n in named_terms(question) if n.casefold() not in GENERIC_NAMES]
        # "the PiT operator paper": the name inside the description says the same paper, once
        unseen = [n for n in names if not any(_uses_name(h, n) for h in shown) and not any(n in s for s in spans)]
        told = _ALSO_A_PAPER.search(question)
        if told is not None and not spans and not unseen:
            return self._told_of(told.group("said") or told.group("on"), shown)
        if len(spans) + len(unseen) != 1:
            return None
        target = (spans or unseen)[0]
        if spans and any(shapes.is_named_by(h, target) for h in shown):
            return None
        try:
            candidates = self.retriever.search(target, 3)
        except QueryError:
            return None
        found = next((h for h in candidates if shapes.is_named_by(h, target) or _uses_name(h, target)), None)
        if found is None or found.paper_id in {h.paper_id for h in shown}:
            return None
        return None if spans and _described_by_shown(target, shown, [found]) else found

    def _told_of(self, said: str, shown: Sequence[Hit]) -> Hit | None:
        """The paper "there's also an RL paper using a mixture of experts" tells of: the first search
        hit for the words, when it was not shown yet and holds most of them (``HELD_SHARE`` by rarity)."""
        terms = shapes.focal_terms(said)
        try:
            found = self.retriever.search(said, 3)
        except QueryError:
            return None
        if not terms or not found or found[0].paper_id in {h.paper_id for h in shown}:
            return None
        return found[0] if _shares_held(terms, found[:1], self._rarity())[0] >= HELD_SHARE else None

    def _search_each(self, targets: Sequence[str], turns: Sequence[Turn] = ()) -> list[Hit]:
        """One paper per target, in order: the first search result not found already, or the one
        whose abstract writes the method name the target holds ("the gotu one" ranked the benchmark
        paper above the paper introducing "generalization on the unseen (GOTU)": c449.3). With the
        conversation's ``turns``, "that planner" is the paper just discussed and "the one in the theory
        paper" the paper of the conversation a title word names (c455.4 searched for "theory" and set
        DoraemonGPT against the minimal-degree paper, not the LLM-planner theory paper)."""
        found: list[Hit] = []
        for target in targets:
            shown = self._shown_as(target, turns) if turns else None
            if shown is not None and shown.paper_id not in {f.paper_id for f in found}:
                found.append(shown)
                continue
            try:
                candidates = self.retriever.search(target, 3)
            except QueryError:
                continue
            fresh = [h for h in candidates if h.paper_id not in {f.paper_id for f in found}]
            names = [n for n in named_terms(target) if n.casefold() not in GENERIC_NAMES]
            named = [h for h in fresh if any(_uses_name(h, n) for n in names)]
            if named or fresh:
                found.append((named or fresh)[0])
        return found

    def _shown_as(self, target: str, turns: Sequence[Turn]) -> Hit | None:
        """The paper of the conversation a comparison target points at: "that planner" the one just
        discussed, "the theory paper" the one a word of its title names; None otherwise."""
        if _JUST_DISCUSSED.match(target) and turns[-1].about:
            pid = turns[-1].about[0][0]
        else:
            named = by_title_word(target.lower(), list(turns), self._abstract_of)
            if not named:
                return None
            pid = named[0][0]
        hits = self.retriever.hits_for([pid])
        return hits[0] if hits else None

    def _abstract_of(self, paper_id: str) -> str:
        """The abstract of an indexed paper ("" when the id is not indexed)."""
        hits = self.retriever.hits_for([paper_id])
        return hits[0].abstract if hits else ""

    def _resolve(self, turns: list[Turn]) -> list[Turn]:
        """Give earlier questions whose focus is not known the papers their answers were about, in
        order, so a follow-up of a follow-up resolves too (replayed without the model)."""
        for i, turn in enumerate(turns):
            if turn.about:
                continue
            try:
                plan = self._plan(" ".join(turn.question.split())[: self.settings.max_query_chars], "", turns[:i])
            except QueryError:
                continue
            plan, shaped = self._shaped(plan, turns[:i])
            if shaped is not None:
                turn.focus = [(f["paper_id"], f["title"]) for f in shaped.focus if not f.get("closest")]
                turn.selected = [(f["paper_id"], f["title"]) for f in shaped.focus if f.get("selected")]
                turn.mentioned = [(f["paper_id"], f["title"]) for f in shaped.focus if f.get("closest")]
            elif plan.hits and relevant(plan.rewritten, plan.hits[0], self.settings.gate_threshold):
                turn.focus = [(plan.hits[0].paper_id, plan.hits[0].title)]
        return turns

    def _retrieve(self, intent: intents.Intent, query: str) -> list[Hit]:
        k = self.settings.top_k
        query = _spelled_out(query)
        if intent.kind == "papers_by" and intent.authors:
            return [h for name in intent.authors for h in self.retriever.search(query, 10, author=name)][:10]
        if intent.kind == "area" and intent.area:
            # Papers labelled with the area first, then papers on the topic that carry no label.
            labelled = self.retriever.search(query, 10, area=intent.area)
            seen = {h.paper_id for h in labelled}
            return labelled + [h for h in self.retriever.search(query, k) if h.paper_id not in seen]
        if intent.kind in ("list", "area"):
            found = self.retriever.search(query, max(k, LIST_POOL))
            if intent.kind != "list" or not _SAYS_SELF_WORK.search(query):
                return found  # the topic is read only where it can open on "I work in"
            # "I work in computational chemistry / materials - is anything here relevant to me?": the
            # subject searched for alone too, as the abstracts name it; the whole message placed the
            # crystal paper 14th of 39 (c710.1 listed only the molecules paper). Only there: searched for
            # every list, the subject alone brought Codebook Features into two lists (c511.1, c578.1)
            text = normalise(topic(query).text)
            said = _SELF_WORK.sub("", text).strip()
            if said and said != text.strip():
                seen = {h.paper_id for h in found}
                found += [h for h in self.retriever.search(said, LIST_POOL) if h.paper_id not in seen]
            return found
        return self.retriever.search(query, k)

    def _base(self, plan: Plan) -> dict[str, Any]:
        return dict(question=plan.question, rewritten_query=plan.rewritten, notice=plan.notice, kind=plan.intent.kind)

    def prompt_messages(self, question: str, passages: Sequence[Hit]) -> list[dict[str, str]]:
        """The chat messages the model gets: the system prompt, the numbered passages and the question."""
        return strategies.prompt_messages(question, passages)

    def _finish(self, answer: Answer, timings: dict[str, float], t0: float) -> Answer:
        answer.timings_ms = {**timings, "total_ms": (time.perf_counter() - t0) * 1000}
        if not answer.focus and not answer.refused:
            answer.focus = [{"paper_id": c.paper_id, "title": c.title} for c in answer.citations]
        return answer


_THE_X_ONE = re.compile(r"^(?:the )?(?:[\w-]+ ){1,2}(?:one|paper)$", re.IGNORECASE)
_LEADING_AND = re.compile(r"^(?:and|so|ok|then)\s+", re.IGNORECASE)
_SELF_WORK = re.compile(r"^\W*i(?:'m| am)? (?:work|working|do research) (?:in|on|with)\s+", re.IGNORECASE)
# the same words anywhere in a question, however spaced: without them no topic opens on them
_SAYS_SELF_WORK = re.compile(r"i(?:'m|\s+am)?\s+(?:work|working|do\s+research)\s+(?:in|on|with)\b", re.IGNORECASE)


# Acronyms searched for with their words as well: MiniLM places "rl papers" nowhere near the abstracts
# that write "reinforcement learning" (0.13 for Di-SkilL; "reinforcement learning papers": 0.39), so
# c589.1 listed three of five RL papers
_ACRONYMS = {
    "rl": "reinforcement learning",
    "ood": "out-of-distribution",
    "ot": "optimal transport",
    "marl": "multi-agent reinforcement learning",
}
_ACRONYM = re.compile(r"\b(" + "|".join(_ACRONYMS) + r")\b(?!-)", re.IGNORECASE)
ACRONYM_QUERY_TERMS = 2  # "rl papers", "another rl paper that uses atari": the acronym and one more word


def _spelled_out(query: str) -> str:
    """``query`` with each acronym of ``_ACRONYMS`` followed by its words, for the search alone, when
    the acronym is most of what it asks: beside more words ("offline RL from a fixed dataset") the
    words spelled out only lift every RL paper past the gate (c354.4 was answered from a theory paper)."""
    if len(asked_terms(query)) > ACRONYM_QUERY_TERMS:
        return query
    return _ACRONYM.sub(lambda m: f"{m.group(1)} ({_ACRONYMS[m.group(1).lower()]})", query)


ANOTHER_MARGIN = 0.25
HELD_ASKED = 0.6  # another paper holding this share of the asked words answers past the gate (c057.2: 0.86)
HELD_CLOSENESS = 0.2  # ... when this close in meaning (0.27; unrelated papers that hold the words: under 0.12)
HELD_TERMS = 3  # asked words that identify a paper by content, past a one-word description of it
POSITION_SHARE = 0.4  # ... or this share, against "the first one" pointing at a paper holding a third of that
HELD_SHARE = 0.75  # of them (by rarity) the paper must hold: "end" of "end up" is no content word
# "which of them claims a speed-up on MT-bench?": asked of every paper in focus, though one uses the name
_POINTS_AT_GROUP = re.compile(
    r"\b(?:both|either|each|compare|differ|versus|vs|which of|which ones?|them|those|these|the (?:two|three|four)|"
    r"all of them|any of them)\b",
    re.IGNORECASE,
)
# What a comparison may set against a method without naming a paper: "numbers vs MeZO?"
_MEASURES = set(tokenize("numbers figures results stats metrics performance accuracy speed speedup gains cost"))
# "for A and B respectively", "A and B, respectively": one answer per named paper, in that order
# (the words before "and" from the last lead word on: "ok so for lookahead decoding" is "lookahead decoding")
_RESPECTIVELY = re.compile(
    r"(?:^|\b(?:for|of|in|with|about)\s+|[,:;]\s*)((?:(?!(?:for|of|in|with|about)\b)[\w-]+\s+){0,4}[\w-]+)"
    r"\s+and\s+((?:[\w-]+\s+){0,4}?[\w-]+),?\s+respectively\b",
    re.IGNORECASE,
)


def _described_words(description: str) -> str:
    """What "the video one" / "the label-budget paper" / "the video agent" says of the paper: "video",
    "label-budget" ("agent" tells agent papers apart no more than "one" does)."""
    return re.sub(r"^(?:the|that|this)\s+|\s+(?:one|paper|agent)$", "", description, flags=re.IGNORECASE)


def _described_by_shown(description: str, shown: Sequence[Hit], titled: Sequence[Hit]) -> bool:
    """Does an abstract the conversation has shown hold every word of "the X one" as written, where the
    titles of the papers never shown that it matches hold one only as a word of the same stem? "does
    the image one give imagenet numbers?" after DARL ("image patches") was shown: the title "Subsurface
    Imaging" does not take it from the one in view; "the benchmark one" is still the paper whose title
    says "Benchmarks", whatever a shown abstract says of benchmarks."""
    said = re.findall(r"[a-z][\w-]+", _described_words(description).lower())

    def written(word: str, text: str) -> bool:
        return re.search(rf"\b{re.escape(word)}(?:s|es)?\b", text.lower()) is not None

    return (
        bool(said)
        and all(not all(written(w, h.title) for w in said) for h in titled)
        and any(all(written(w, h.abstract) for w in said) for h in shown)
    )


# "the compressed distributed bilevel optimization paper": a paper named by its title's words.
# "the skills one and the multi-task benchmarks one": named the same way; "the first one" is a position.
# "that speech synthesis one" too, of a paper an answer named: after "that", only the describing
# words ("a method that is the best one" is no description).
_THE_PAPER = re.compile(
    r"\bthe (?!(?:first|second|third|fourth|fifth|last|other|same|next|previous|latter|former|right|best|better)\b)"
    # (not "the brain does the first one": a description holds no other pointer or verb)
    # "the hare & tortoise one": the ampersand of a two-part name is part of it
    r"(?:(?!(?:one|paper|and|the|a|an|first|second|third|last|other|is|are|was|were|do|does|did)\b)(?:[\w-]+|&) ){1,6}"
    r"(?:paper|one)\b|"
    r"\b(?:that|this) (?!(?:first|second|third|last|other|same|next|previous|latter|former)\b)"
    r"(?:(?!(?:one|paper|and|is|are|was|were|the|a|an|to|of|in|on|for|with|by|do|does|did|has|have|can|it|"
    r"they|we|you|i)\b)[\w-]+ ){1,4}(?:paper|one)\b|"
    # "and the video agent, which three benchmarks did it use?": an agent paper named by what it reads
    # (DoraemonGPT after a list of agent papers, c352.4), as "the video one" names it
    r"\bthe (?!(?:first|second|third|last|other|same|next|previous|latter|former|base|llm)\b)(?:[a-z][\w-]* ){1,2}(?:agent|reader)\b|"
    # "ok and the explainer, is it tied to a specific model?": a paper named by the tool it builds, alone
    # (FDTempExplainer after a list of time-series papers; c508.3 answered of JRNGC)
    r"\bthe (?:[a-z][\w-]* )?(?:explainer|solver|detector|planner|simulator|estimator|sampler|compressor)\b",
    re.IGNORECASE,
)
# "what else did the senior author publish?", "other papers by its first author?", "the authors' other work"
_AUTHOR_WORK = re.compile(
    r"\b(?:what else|other (?:papers|work|works)|anything else|more papers)\b[^?]{0,40}?\b(?:the |its |their |that )?"
    r"(?:(senior|last|first|lead|same) )?authors?\b|"
    r"\b(?:the |its |their |that )?(?:(senior|last|first|lead|same) )?authors?(?:'s?)? (?:other|else)\b|"
    r"\bwhat else (?:did|have|has) (?:the |its |their |that )?(?:(senior|last|first|lead|same) )?authors?\b|"
    # "who wrote it? anything else by them in here?": the authors just named
    r"\b(?:anything|something|what|any\s+other\s+papers?|other\s+papers?|more\s+papers?)\s+(?:else\s+)?"
    r"(?:(?:in\s+)?here\s+)?(?:by|from)\s+(?:them|him|her|those authors|that author|the same (?:authors?|people|group))\b|"
    # "Does that author appear on any other paper here?" after the shared author was named: the one the
    # papers shown share (c662.3 was refused)
    r"\b(that|this|the shared|the common|the overlapping) (?:author|person|researcher)\b[^?]{0,40}?"
    r"\b(?:any other|another|other|elsewhere|else)\b|"
    # "Is there another paper in the collection by the same author that also concerns benchmarks?" (c692.3
    # was refused)
    r"\b(?:another|any other|other|more) (?:papers?|works?)\b[^?]{0,40}?\b(?:by|from) (?:the |that |this |its |their )?"
    r"(?:(senior|last|first|lead|same) )?authors?\b",
    re.IGNORECASE,
)
_POSITION = re.compile(r"\bthe (?:first|second|third|last|former|latter)(?: one| paper)?\b", re.IGNORECASE)
# "There's also an RL paper using a mixture of experts I think. What's that one going for?": a paper
# told of by what it does, then asked about.
_ALSO_A_PAPER = re.compile(
    # "wait theres also a 'diffusion tempering' paper, is that ...?": a breath first, the apostrophe left out
    r"^\W*(?:(?:wait|oh|ok|okay|hmm|and|also|btw|so)\W+)*(?:i think |i believe |i remember )?"
    r"there(?:'s|’s|s| is| was) (?:also )?(?:(?:a|an|one|another) "
    r"(?P<said>[^.?!;]*?\b(?:paper|one|work)\b[^.?!;]*?)|"
    # "there's also one on why pruning at initialization fails, right?"
    r"one (?P<on>(?:on|about) [^.?!;]*?))(?:,? i think| i believe)?\s*[.?!;]",
    re.IGNORECASE,
)
# What a question asks of two papers at once: "do both ...", "how do the two approaches compare?"
_OF_BOTH = re.compile(
    r"\b(?:both|either|each|the two|these two|those two|compare|differ\w*|vs|versus)\b", re.IGNORECASE
)
# "what theoretical guarantees does ... provide", "which datasets did ... use": a kind of fact asked
_ASKS_ITS = re.compile(
    r"^\W*(?:(?:and|so|ok|okay)\W+)?(?:what|which)\s+(?:[\w-]+\s+)?(?:guarantees?|bounds?|theorems?|datasets?|"
    r"benchmarks?|baselines?|assumptions?|limitations?|results?|experiments?|applications?)\b",
    re.IGNORECASE,
)
# "does DARL actually beat masked prediction models?": whether the paper shown wins, which its results
# sentence says (c688.4 opened with its first sentence and added one on noise schedules)
_ASKS_IF_IT_BEATS = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|but)\W+)?(?:does|did|do|can|could|is|was)\s+(?:[\w&-]+\s+){1,4}?"
    r"(?:(?:actually|really|even)\s+)?(?:beat|outperform|surpass|exceed|match|do better than|improve (?:on|over)|"
    r"better than)\b",
    re.IGNORECASE,
)
_POINTER_WORDS = frozenset(evidence_words("one paper"))
_KIND_OF = re.compile(r"^[A-Z]{2,}s?-(?:based|driven|powered|free|friendly|like|style|scale|level|guided|aware)$")
# "more by the same author?": that author's papers past the ones shown, as "another" asks
_MORE = re.compile(r"\bmore\b", re.IGNORECASE)
# "do it or the diverse skills paper ...": a pointer at the focus beside a paper named
_POINTS_TOO = re.compile(r"\b(?:it|its|they|them|their|both|either|each|this|that)\b", re.IGNORECASE)
_POINTS_ALL = re.compile(r"\b(?:both|either|each|compare|differ|versus|vs)\b", re.IGNORECASE)
# A first sentence the user says of themselves, then the question ("I want to speed up generation
# without training a model. Anything that parallelizes a sequential loop?")
_ABOUT_ME = re.compile(r"^\W*((?:i|i'm|i am|we|we're|we are|my|our)\b[^?]*?[.!;])\s+([^.!?;]+\?)\s*$", re.IGNORECASE)
# "For a project on distribution shift I'm comparing approaches. Which papers deal with out-of-distribution
# generalization?": what the work is for, then the question (c584.1 looked up "project" and "comparing")
_FOR_MY_WORK = re.compile(
    r"^\W*((?:for|in) (?:a|my|our) (?:project|thesis|paper|survey|review|class|course|talk)\b[^?]*?[.!;])\s+"
    r"([^.!?;]+\?)\s*$",
    re.IGNORECASE,
)
_FOR_MY_WORK_WORDS = 14
# Longer first sentences describe the problem itself ("My network gradually stops generalizing well
# when I keep training it on new data."): the question needs them (q010, 14 words; q016, 33)
_ABOUT_ME_WORDS = 8
# "I'm compiling a reading list on LLM-based agents. What in this collection is relevant?": a last
# sentence that names nothing asks about what the first one says (c545.1 searched for "relevant")
_NAMES_NOTHING = re.compile(
    r"^\W*(?:so\s+)?(?:what|which|anything)\b[^?]{0,40}?\b(?:relevant|is there|(?:do|did) (?:you|u) have)\W*$|"
    # "we work on neural PDE surrogates and solvers. what should i read from this set" (c565.1 gave one of two)
    r"^\W*(?:so\s+)?(?:what|which(?: ones?| papers?)?) should (?:i|we) (?:read|look at|start with)\b[^?]{0,30}\W*$",
    re.IGNORECASE,
)
# How long the answer should be says nothing about what it is about ("in one line" is no topic).
_FORMAT = re.compile(
    r",?\s*\b(?:in (?:one|a single|a|1|two|2|a few) (?:line|lines|sentence|sentences|words?)|briefly|in brief|"
    r"in short|in a nutshell|in (?:plain|simple|everyday|layman'?s?) (?:words|terms|english|language)|"
    r"roughly|simply put|put simply)\b",
    re.IGNORECASE,
)
# Shorthand and slips of the keyboard that the rules below would read as words of a topic: "is there
# somethign similar for diffusion models?" (c391.3), "w/o retraining"
# A search said as one: "is there ...", "anything on ..."
_ASKS_INDEX = re.compile(r"^\W*(?:(?:is|are) there|any(?:thing)?\s+(?:on|about|for|papers?)\b)", re.IGNORECASE)
# "that planner", "this method": a comparison target naming the paper just discussed by what it speaks of
_JUST_DISCUSSED = re.compile(r"^(?:that|this)\s+[a-z][\w-]*$", re.IGNORECASE)
_SPELLINGS = (
    (re.compile(r"\b(?:somethign|somthing|smth|sth)\b", re.IGNORECASE), "something"),
    (re.compile(r"\banythign\b", re.IGNORECASE), "anything"),
    # "papers abt ml benchmarks / how we evaluate models?" (c562.1 gave the fine-tuning paper)
    (re.compile(r"\babt\b", re.IGNORECASE), "about"),
    # "wat does each assume or need to work" (c586.2 looked "wat" up as a word of the papers)
    (re.compile(r"\bwat\b"), "what"),  # lower case only: "WAT" may be a name
    # "rl papers with actual experiments pls": a courtesy asks nothing (c557.1 looked for "pls")
    (re.compile(r"(?<=\w)[\s,]+(?:pls|plz|please)\b[\s!.]*(?=[?]?\s*$)", re.IGNORECASE), ""),
    (re.compile(r"\bw/o\b", re.IGNORECASE), "without"),
    (re.compile(r"\bw/(?=\s)", re.IGNORECASE), "with"),
    # "anything on finetuning llms w/o backprop?": ten of the seed abstracts write "fine-tuning", one
    # "finetuning"; c436.1 refused MeZO-SVRG for the missing hyphen
    (re.compile(r"\bfinetun(?=(?:e|es|ed|ing)\b)", re.IGNORECASE), "fine-tun"),
    (re.compile(r"\bdocs\b", re.IGNORECASE), "documents"),
    # "and the long doc reader, what datasets ...?" of ReadAgent's "long documents" (c482.4)
    (re.compile(r"\bdoc\b", re.IGNORECASE), "document"),
    # "how do they parametrize u and M?" of an abstract that writes "parameterize the potential u" (c442.3)
    (re.compile(r"\bparametri(?=[sz](?:e|es|ed|ing|ation|ations)\b)", re.IGNORECASE), "parameteri"),
    # "how do they represent molecules and whats the model": the patterns that split a message into
    # its questions know "what's" (c439.3 answered the representation alone)
    (re.compile(r"\b(what|how|who|where)s\b", re.IGNORECASE), r"\1's"),
    # "a robust mdp paper that actually scales to high-dim envs" of EWoK's "high-dimensional domains" (c463.1
    # was refused): shortened words written out
    (re.compile(r"\b(high|low)[- ]dim\b", re.IGNORECASE), r"\1-dimensional"),
    (re.compile(r"\benvs\b", re.IGNORECASE), "environments"),
    (re.compile(r"\benv\b", re.IGNORECASE), "environment"),
    (re.compile(r"\bsims\b", re.IGNORECASE), "simulations"),
    # "how large were the LMs in the codebook work": a paper named by what it is about, as "the codebook
    # paper" would be (c559.3 answered of MeZO-SVRG, which fine-tunes LMs)
    (
        re.compile(
            r"\b(in|of|from|for|by) the ((?!(?:related|prior|previous|earlier|same|other|whole|main)\b)(?:[a-z][\w-]* ){1,3})"
            r"work\b(?!\s+(?:on|with|for|well|better))",
            re.IGNORECASE,
        ),
        r"\1 the \2paper",
    ),
    # "rl papers run experiments on robot sim / control benchmarks" (c578.1 required "sim")
    (re.compile(r"\bsim\b", re.IGNORECASE), "simulation"),
    # "is there a theory paper on pruning at init too?" (c469.3 refused No Free Prune)
    (re.compile(r"(?<![\w_])init(?![\w_])", re.IGNORECASE), "initialization"),
    (re.compile(r"\bexps\b", re.IGNORECASE), "experiments"),
    # "robust rl that i can bolt onto an existing algo like SAC?" of EWoK, which "can be applied on top
    # of any off-the-shelf non-robust RL algorithm" (c514.3 was refused)
    (re.compile(r"\balgo(s?)\b", re.IGNORECASE), r"algorithm\1"),
    # "can the second one just be put on top of ppo or sac" (c473.3 looked for "put")
    (
        # "can be layered on top of an existing RL algorithm" (c664.2 gave the world-model paper)
        re.compile(
            r"\bbe (?:put|bolted|plugged|stacked|slapped|layered) (?:onto|on top of|on to|into)\b", re.IGNORECASE
        ),
        "be applied on top of",
    ),
    (
        re.compile(
            r"\b(?:bolt|plug|slap|stick|tack)(?:s|ed|ing)?\s+(?:it\s+)?(?:onto|on top of|on to|into)\b", re.IGNORECASE
        ),
        "apply on top of",
    ),
    # "what do u have", "can u list": "u" as "you" only beside the verb it goes with ("u and M" of
    # c442.3 is a variable); "what gpu did the lookahead ppl run on" (c493.3)
    (re.compile(r"\b(do|did|can|could|would|will|are|have|if) u\b", re.IGNORECASE), r"\1 you"),
    (re.compile(r"\bu(?= (?:have|got|know|think|mean)\b)", re.IGNORECASE), "you"),
    (re.compile(r"\bppl\b", re.IGNORECASE), "people"),
    # "which of the 3 actually has experiments vs pure theory" (c502.4 was refused: "the 3" pointed at nothing)
    (re.compile(r"\b(of|all|the|these|those|both) 2\b(?![.,]?\d)", re.IGNORECASE), r"\1 two"),
    (re.compile(r"\b(of|all|the|these|those) 3\b(?![.,]?\d)", re.IGNORECASE), r"\1 three"),
    # "what did they eval on" (c497.4 said the abstract does not mention "eval"; it says "Evaluated ...")
    (re.compile(r"\beval(?=\s+(?:on|it|them|with|against)\b|\s*[?.!]|$)", re.IGNORECASE), "evaluate"),
    (re.compile(r"\bevals\b", re.IGNORECASE), "evaluations"),
    # "world models and backprop through them" of "backpropagate through the resulting graph" (c473.4)
    (re.compile(r"\bbackprop\b", re.IGNORECASE), "backpropagation"),
    (re.compile(r"\bhyperparams?\b", re.IGNORECASE), "hyperparameters"),
    (re.compile(r"\bparams\b", re.IGNORECASE), "parameters"),
    # "which one parameterizes things w/ input convex nets" (c466.3 took BW's "strong convexity" for it)
    (re.compile(r"\bnets\b", re.IGNORECASE), "networks"),
    # "is the 'diffusion tempering' paper the same kind of diffusion?": a name in quotes is the name
    # (quoted, it was not read as the paper's title words; c457.3 answered of the crystal paper shown)
    (re.compile(r"\bthe ['‘“\"]([^'’”\"]{3,60})['’”\"]\s+(?=(?:paper|one|method|work)\b)", re.IGNORECASE), r"the \1 "),
    # "which one has experiments n code?": "n" between two words is "and" (c448.3 looked for
    # "experiments n code" as one thing); not "n samples", a count written as a letter
    (re.compile(r"(?<=[a-z]{2}) n (?=[a-z]{2,}\b)(?!samples|points|data|examples|steps|nodes|tokens)"), " and "),
)


def _as_spelled(question: str) -> str:
    """``question`` with common shorthand and misspellings written out."""
    for wrong, right in _SPELLINGS:
        question = wrong.sub(right, question)
    return question


_BARE_AMOUNT = re.compile(
    r"^\W*(?:and\s+)?(?:by\s+)?how (?:much|many|fast|big|large)(?: (?:is it|are they))?\W*$", re.IGNORECASE
)
# A follow-up that is only a pointer: it asks the last question again, of the paper it points at.
_BARE_POINTER = re.compile(
    r"^\W*(?:(?:and|so|ok|now)\s+)?(?:(?:what|how) about\s+)?(?:the\s+)?(?:other|first|second|third|last|latter|former)"
    r"(?:\s+(?:one|ones|paper|papers))?\W*$",
    re.IGNORECASE,
)
# "... to distribution shift instead of dynamics perturbations": what follows is not asked for.
_NOT_ASKED = re.compile(
    r"\b(?:instead of|rather than|as opposed to|other than|unlike|besides|apart from|except(?: for)?)\b.*$",
    re.IGNORECASE,
)


# A method name as the abstract writes it: two capitals or more ("C-SOBA", "MeZO-SVRG", "EBBA+").
_WRITTEN_NAME = re.compile(r"(?<![\w-])[A-Za-z][\w-]*[A-Z][\w-]*\+?(?![\w-])")


def recased(question: str, shown: Sequence[Hit]) -> str:
    """``question`` with each name of a paper the conversation showed, typed in lower case
    ("what was the weakness of c-soba?"), written as its abstract writes it ("C-SOBA"): what the
    question names is read from its capitals."""
    names: dict[str, str] = {}
    for hit in shown:
        for name in _WRITTEN_NAME.findall(f"{hit.title} {hit.abstract.replace('**', '')}"):
            if sum(c.isupper() for c in name) >= 2 and len(name) >= 3 and name.casefold() not in GENERIC_NAMES:
                names.setdefault(name.casefold(), name)
    if not names:
        return question

    def written(match: re.Match[str]) -> str:
        typed = match.group(0)
        return names.get(typed.casefold(), typed) if typed.islower() else typed

    return re.sub(r"(?<![\w-])[\w][\w-]*\+?(?![\w-])", written, question)


def _shown(turns: Sequence[Turn], latest_first: bool = False, mentioned: bool = False) -> list[str]:
    """The ids of the papers the conversation's answers were about, each once, in the order shown
    (or from the latest answer back); with ``mentioned``, the closest papers refusals named too."""
    ordered = list(reversed(turns)) if latest_first else list(turns)
    return list(dict.fromkeys(pid for t in ordered for pid, _ in t.about + (t.mentioned if mentioned else [])))


def _written_in(target: str, text: str) -> bool:
    """Is ``target`` written in ``text`` (casefolded), as it is or spelled out when an acronym?"""
    return (len(target) >= 4 and target.casefold() in text) or spells_out(target, text)


def _shares_held(terms: Sequence[str], hits: Sequence[Hit], rarity: Rarity) -> list[float]:
    """The rarity-weighted share of ``terms`` each paper's title and abstract hold."""
    total = sum(rarity.weight(t) for t in terms)
    present = [set(evidence_words(f"{h.title} {h.abstract}")) for h in hits]
    return [sum(rarity.weight(t) for t in terms if holds(words, t)) / total for words in present]


def _holding_most(question: str, hits: Sequence[Hit], rarity: Rarity) -> list[Hit]:
    """Hits reordered by the rarity-weighted share of the question's asked words their paper holds
    (retrieval order breaks ties): "another paper on robustness to distribution shift" should not
    go to a paper whose only shared word is "shift" (of "shift reduction lemmas")."""
    terms = shapes.focal_terms(_NOT_ASKED.sub("", question))
    if not terms:
        return list(hits)
    if not hits:
        return []
    held = _shares_held(terms, hits, rarity)
    best = max(range(len(hits)), key=held.__getitem__)
    # Only a clearly better holder moves up (a quarter more of the asked words, by rarity): close
    # calls stay with retrieval, which also weighs meaning.
    if held[best] - held[0] >= ANOTHER_MARGIN:
        return [hits[best]] + [h for i, h in enumerate(hits) if i != best]
    return list(hits)


def _holds_asked(question: str, hits: Sequence[Hit], rarity: Rarity) -> bool:
    """Does the one paper of ``hits`` hold most of the question's asked words (``HELD_ASKED`` of them
    by rarity) and lie near enough in meaning (``HELD_CLOSENESS``)? Asked for another paper "about
    how to allocate a limited budget", Competing Treatments holds 0.86 of the words ("strategically
    allocating budget") at closeness 0.27, under the gate's 0.33; the paper the gate would take
    instead holds 0.40."""
    terms = shapes.focal_terms(_NOT_ASKED.sub("", question))
    if len(hits) != 1 or len(terms) < 2 or hits[0].dense_score < HELD_CLOSENESS:
        return False
    concept = topic(question)
    if concept.phrases and not is_about(concept, hits[0].title, hits[0].abstract):
        return False  # "another paper that talks about world models?": the "3D world" of an agent is none
    return _shares_held(terms, hits, rarity)[0] >= HELD_ASKED


def _own_name(hit: Hit, name: str) -> bool:
    """Is ``name`` the paper's own: a word of its title or the short name it goes by ("DARL")?"""
    own = f"{hit.title} {shapes.short_name(hit)}".casefold()
    return re.search(rf"(?<![\w-]){re.escape(name.casefold())}(?![\w-])", own) is not None


def _uses_name(hit: Hit, name: str) -> bool:
    """Does the paper write ``name``, a method-like name ("FedPIN"), as a word of its title or abstract?"""
    if name.casefold() in GENERIC_NAMES:
        return False  # "LLMs", "RL", "PDEs" name topics, not papers
    return (
        bool(named_terms(name))
        and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", f"{hit.title} {hit.abstract.replace('**', '')}")
        is not None
    )


# "that author", "the shared person": one of the papers' authors, pointed at
_ONE_PERSON = frozenset({"that", "this", "the shared", "the common", "the overlapping", "same"})


def _by_role(authors: Sequence[str], role: str) -> Sequence[str]:
    """The authors a role names: the senior (last) author, the first (lead) author, or all of them."""
    if role in ("senior", "last"):
        return authors[-1:]
    if role in ("first", "lead"):
        return authors[:1]
    return authors


# A follow-up names a paper shown by an ordinal, a title word or a nickname ("the puffer one")
_NAMES_SHOWN = re.compile(
    r"\bthe (?:first|second|third|fourth|fifth|last|latter|former|other)\b|\b(?:the|that|this) [\w-]+(?: [\w-]+)? (?:one|paper)\b",
    re.IGNORECASE,
)


# "what real-world model did (they ...)": a question frame that stops at its auxiliary asks of the pointer
_ENDS_ASKING = re.compile(
    r"\b(?:did|does|do|is|are|was|were|can|could|has|have|had|will|would|should)\W*$", re.IGNORECASE
)


def _asks_for_another(question: str, in_focus: int) -> bool:
    """ "Is there another paper on X?" asks for one not shown yet, and so does "the other one about
    fine-tuning" after an answer about one paper; with several in focus "the other one" is one of them."""
    # "another diffusion model paper", "any other abstract that mentions ...", "besides that one"
    pattern = (
        r"\b(?:another|other|a different|a second|also a)\s+(?:[\w-]+\s+){0,3}?(?:papers?|works?|ones?|abstracts?)\b"
    )
    if in_focus >= 2:
        pattern = r"(?<!\bthe )" + pattern
    return bool(
        re.search(pattern, question, re.IGNORECASE)
        or _BESIDES.search(question)
        or intents.REMEMBERED.search(question)
        or intents.OTHER_KIND.search(question)  # "what else deals w time series data" (c658.3 listed the one shown)
    )


# "is there a paper ...", "any work on ...", "which abstracts ...": a search of the index, refused
# when nothing is close, never turned into a question about the papers last shown
# "is there also something theoretical on pruning?": the kind of work wanted, asked of no paper shown
# (c628.4 was answered of the sharpness paper, as if it asked for its theory)
_KIND_OF_WORK = re.compile(
    r"\b(?:something|anything|a paper|papers|work|one)\s+(?:more\s+)?(?:theoretical|theory|empirical|experimental|practical)\b",
    re.IGNORECASE,
)
_PAPERS_ASKED = re.compile(r"\b(?:any|other|more)\b[^?.]{0,30}\bpapers?\b", re.IGNORECASE)
_ASKS_FOR_PAPERS = re.compile(
    r"\b(?:papers?|works?|abstracts?|articles?|studies|anything|any(?:one|body)|is there|are there|else)\b",
    re.IGNORECASE,
)
_MORE_THAN_ONE = re.compile(
    r"\b(?:other|more|any other)\s+(?:[\w-]+\s+){0,3}?(?:papers|works|abstracts)\b", re.IGNORECASE
)
# "and the other one": one of the papers a list showed, not a new search
_THE_OTHER = re.compile(r"\bthe other (?:one|paper)\b", re.IGNORECASE)
_BESIDES = re.compile(
    r"\b(?:besides|apart from|other than|except(?: for)?) (?:that|this|the) (?:one|paper)\b|"
    # "the explainer one got me curious, anything else on making a network interpretable?"
    r"\b(?:anything|something|what) else (?:on|about|like|for|regarding)\b",
    re.IGNORECASE,
)
