"""The answer pipeline: resolve focus -> classify -> retrieve -> shape or (gate -> draft -> check) -> cite.

``Assistant.stream`` yields events for a UI (status lines, draft tokens, then the checked
answer); ``Assistant.ask`` returns the checked answer only. Lists, comparisons, per-paper
attributes and metadata answers are built from the abstracts' own sentences (``shapes``); the
model drafts only single-paper answers, and every sentence it writes is checked against the one
passage it claims to restate (``citations``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from assistant import intents, prompts, shapes
from assistant.citations import ASKS_FOR_POINTERS, check, evidence
from assistant.condense import Reference, Turn, needs_context, resolve, standalone
from assistant.evidence import Rarity, Topic, coverage, holds, is_about, related, topic
from assistant.evidence import words as evidence_words
from assistant.llm import LLM, LLMError
from assistant.records import Answer, Citation, citation
from assistant.retrieval import Hit, QueryError, Retriever, normalise_query
from assistant.text import named_terms, tokenize

__all__ = ["Answer", "Assistant", "Citation", "Plan", "relevant"]

PROMPT_PASSAGES = 2  # passages shown to the model: CPU time goes to prompt evaluation
PASSAGE_MARGIN = 0.05  # a second passage this much less similar than the best one is left out of the prompt
MODEL_SENTENCES = 2  # checked model sentences an answer keeps after its lead sentence
LIST_POOL = 12  # papers a list question considers; those about its concept are listed
LONG_CONCEPT_WORDS = 6  # a longer concept is a paraphrase of a paper, not a topic to look up
SHORT_QUESTION_WORDS = 14  # long questions describe a paper in their own words; they are not refused on words
KNOWN_SHARE = 0.6  # least rarity-weighted share of a longer concept's words some retrieved paper must hold
CONCEPT_WORDS = 3  # a concept of at most this many words must occur in some paper, or nothing is about it
_OTHER_TARGET = re.compile(
    r"\b(?:to|with|against|from|than|and|versus|vs\.?)\s+(?!(?:the (?:first|second|third|other|"
    r"last|former|latter)|them|it|that|this|the others|each other)\b)(.{3,}?)\s*[?.!]*$",
    re.IGNORECASE,
)
_POINTER_TARGET = re.compile(
    r"^(?:it|its|this|that|they|them|these|those|this one|that one|(?:the )?(?:first|second|"
    r"third|other|last|former|latter)(?: one| paper)?|(?:the )?(?:two|three)(?: of them)?|both|"
    r"each other)$",
    re.IGNORECASE,
)

_COUNTS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}

Event = tuple[str, Any]


@dataclass
class Plan:
    """The retrieval half of answering: what was asked, about which papers, and what came back."""

    question: str
    notice: str
    rewritten: str
    intent: intents.Intent
    hits: list[Hit]
    focus: list[Hit] = field(default_factory=list)  # the papers in focus the question points at
    note: str = ""  # why the question's pointer could not be resolved ("the third one" of two)


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
            focus = [(str(c.get("paper_id") or ""), str(c.get("title") or "")) for c in entries]
            selected = [(str(c.get("paper_id") or ""), str(c.get("title") or "")) for c in entries if c.get("selected")]
            turns.append(Turn(str(item.get("question") or ""), cited, focus, selected))
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
        yield "status", "Searching the papers…"
        plan = self.plan(question, history)
        timings["retrieval_ms"] = (time.perf_counter() - t0) * 1000
        base = self._base(plan)
        shaped = self._shaped(plan, base)
        if shaped is not None:
            yield "answer", self._finish(shaped, timings, t0)
            return
        yield from self._generated(plan, base, timings, t0)

    def plan(self, question: str, history: Sequence[Any] = ()) -> Plan:
        """Everything before the model: bound the question, resolve what it points at, classify, retrieve."""
        question, notice = normalise_query(question, self.settings.max_query_chars)  # raises QueryError
        turns = self._resolve(_turns(history))
        return self._plan(question, notice, turns)

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
        last = turns[-1].about if turns else []
        intent = intents.detect(question, self.retriever.papers(), len(last))
        reference = Reference([])
        another = bool(turns) and _asks_for_another(question)
        new_subject = (
            intent.kind == "lookup"
            and intents.NEW_SUBJECT.search(question) is not None
            and intents.FOCUS_POINTER.search(question) is None
        )
        if (
            turns
            and not another
            and not new_subject
            and (
                needs_context(question)
                or intent.kind == "attribute"
                or (intent.kind == "compare" and len(self._named_targets(intent)) < 2)
            )
        ):
            reference = resolve(question, turns)
        rewritten = question if new_subject else standalone(question, reference.papers, turns)
        if another:  # "another paper on X instead of Y": search for X, not for what the user set aside
            rewritten = _NOT_ASKED.sub("", question).strip(" ,;") or question
        focus = self.retriever.hits_for([pid for pid, _ in reference.papers or reference.among])
        if intent.kind == "compare" and not reference.note:
            focus = self._compared(question, intent, focus)
        hits = focus if intent.kind in ("compare", "attribute") and focus else self._retrieve(intent, rewritten)
        if another:
            in_focus = {pid for pid, _ in last}
            pool = self.retriever.search(rewritten, LIST_POOL) if intent.kind == "lookup" else hits
            hits = [h for h in pool if h.paper_id not in in_focus]  # "another paper on X": not the one just shown
            hits = _holding_most(question, hits, self._rarity())
        return Plan(question, notice, rewritten, intent, hits, focus, reference.note)

    def _rarity(self) -> Rarity:
        """Word rarity over the current index snapshot (rebuilt when the snapshot changes)."""
        papers = self.retriever.papers()
        if self._rarity_of is None or self._rarity_of[0] is not papers:
            self._rarity_of = (papers, Rarity([f"{p.paper.title}. {p.paper.abstract}" for p in papers]))
        return self._rarity_of[1]

    def _named_targets(self, intent: intents.Intent) -> list[str]:
        return [t for t in intent.targets if not _POINTER_TARGET.match(t.strip())]

    def _compared(self, question: str, intent: intents.Intent, focus: list[Hit]) -> list[Hit]:
        """The papers a comparison is about: those it names (one search each); else those in focus,
        plus one it names beside a single one ("how does it compare to Lookahead decoding?"); else
        the papers about the topic it names ("compare the two papers about RL")."""
        named = self._named_targets(intent)
        concept = topic(question)
        if not focus and concept.led and re.search(r"\bpapers\b", question, re.IGNORECASE):
            count = re.search(r"\b(two|three|four|2|3|4)\s+papers\b", question, re.IGNORECASE)
            wanted = _COUNTS[count.group(1).lower()] if count else 4
            pool = self.retriever.search(concept.text, LIST_POOL)
            return shapes.about_topic(concept, pool, self._rarity())[:wanted]
        if len(named) >= 2:
            return self._search_each(named)
        if len(focus) >= 2:
            return focus
        other = _OTHER_TARGET.search(question)
        extra = [other.group(1)] if other and not _POINTER_TARGET.match(other.group(1).strip()) else []
        if focus:
            found = list(focus)
            for hit in self._search_each(extra or named):
                if hit.paper_id not in {h.paper_id for h in found}:
                    found.append(hit)
            return found
        return self._search_each(list(dict.fromkeys(named + extra)))

    def _search_each(self, targets: Sequence[str]) -> list[Hit]:
        found: list[Hit] = []
        for target in targets:
            try:
                candidates = self.retriever.search(target, 3)
            except QueryError:
                continue
            for h in candidates:
                if h.paper_id not in {f.paper_id for f in found}:
                    found.append(h)
                    break
        return found

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
            shaped = self._shaped(plan, self._base(plan))
            if shaped is not None:
                turn.focus = [(f["paper_id"], f["title"]) for f in shaped.focus]
                turn.selected = [(f["paper_id"], f["title"]) for f in shaped.focus if f.get("selected")]
            elif plan.hits and relevant(plan.rewritten, plan.hits[0], self.settings.gate_threshold):
                turn.focus = [(plan.hits[0].paper_id, plan.hits[0].title)]
        return turns

    def _retrieve(self, intent: intents.Intent, query: str) -> list[Hit]:
        k = self.settings.top_k
        if intent.kind == "papers_by" and intent.authors:
            return [h for name in intent.authors for h in self.retriever.search(query, 10, author=name)][:10]
        if intent.kind == "area" and intent.area:
            # Papers labelled with the area first, then papers on the topic that carry no label.
            labelled = self.retriever.search(query, 10, area=intent.area)
            seen = {h.paper_id for h in labelled}
            return labelled + [h for h in self.retriever.search(query, k) if h.paper_id not in seen]
        if intent.kind in ("list", "area"):
            return self.retriever.search(query, max(k, LIST_POOL))
        return self.retriever.search(query, k)

    def _base(self, plan: Plan) -> dict[str, Any]:
        return dict(question=plan.question, rewritten_query=plan.rewritten, notice=plan.notice, kind=plan.intent.kind)

    def _shaped(self, plan: Plan, base: dict[str, Any]) -> Answer | None:
        """The answer when its shape is built from the abstracts (no model), else None."""
        kind, hits, gate = plan.intent.kind, plan.hits, self.settings.gate_threshold
        pointers_ok = bool(ASKS_FOR_POINTERS.search(plan.question))
        if plan.note:
            return shapes.focus_note(plan.note, plan.focus, base)
        if kind == "compare" and len(hits) >= 2:
            return shapes.comparison(plan.question, hits, base, self._named_targets(plan.intent))
        if kind in ("attribute", "quantity") and plan.focus:
            return shapes.per_paper(
                plan.question, plan.focus, base, need_number=kind == "quantity", pointers_ok=pointers_ok
            )
        if kind == "authors_of":
            papers = plan.focus or [h for h in hits[:1] if relevant(plan.rewritten, h, gate)]
            return shapes.authors(papers, base, hits) if papers else self._refuse(hits, base)
        if kind == "papers_by" and plan.intent.authors:
            # No counts in the text: every number an answer shows must come from a cited record.
            return shapes.listing(f"Indexed papers by {shapes.join(plan.intent.authors)}", hits, [], base, hits)
        if kind == "area" and plan.intent.area:
            area = plan.intent.area.casefold()
            labelled = [h for h in hits if area in h.area.casefold()]
            related = [h for h in hits if h not in labelled and relevant(plan.rewritten, h, gate)]
            return shapes.listing(f"Indexed papers listed under {plan.intent.area}", labelled, related[:3], base, hits)
        if not hits:
            return self._refuse(hits, base)
        concept = topic(plan.question)
        if kind in ("list", "area", "papers_by"):
            listed = shapes.topic_list(concept, hits, base, self._rarity()) if concept else None
            if listed is not None:
                return listed
        if kind in ("lookup", "list") and _unknown_concept(concept, plan.question, hits, self._rarity()):
            return shapes.not_found(concept, hits, base)
        if not relevant(plan.rewritten, hits[0], gate):
            return self._refuse(hits, base)
        return None

    def _generated(self, plan: Plan, base: dict[str, Any], timings: dict[str, float], t0: float) -> Iterator[Event]:
        """A single-paper answer: the model drafts from the best passages, the checker keeps what one
        passage supports, and the answering sentence of the abstract stands in for what it drops."""
        question, hits = plan.question, plan.hits
        # Only a second passage nearly as close as the best one: a weaker passage mostly attracts wrong citations.
        passages = [
            shapes.without_injections(h)
            for h in hits[:1]
            + [
                h
                for h in hits[1:PROMPT_PASSAGES]
                if h.dense_score >= hits[0].dense_score - PASSAGE_MARGIN
                and relevant(plan.rewritten, h, self.settings.gate_threshold)
            ]
        ]
        messages = self.prompt_messages(question, passages)
        draft, error = "", ""
        llm = self.llm  # a missing or broken model file is a configuration error: let it surface
        yield "status", "Writing…"
        t1 = time.perf_counter()
        try:
            for piece in llm.stream(messages, self.settings.max_tokens):
                if not draft:
                    timings["first_token_ms"] = (time.perf_counter() - t0) * 1000
                draft += piece
                yield "token", piece
        except LLMError as exc:
            error = str(exc)
        timings["generation_ms"] = (time.perf_counter() - t1) * 1000
        t2 = time.perf_counter()
        pointers_ok = bool(ASKS_FOR_POINTERS.search(question))
        need_number = plan.intent.kind == "quantity" or bool(intents.QUANTITY.search(question))
        checked = check(draft, passages, pointers_ok, question)
        # The answer leads with the abstract's own sentence (the asked number, else what the paper
        # does); model sentences that the checker kept follow when they add something. Read one by
        # one, 13% of the sentences the model drafts are supported (tests/eval/faithfulness.jsonl).
        lead = [(s.text, [0]) for s in shapes.lookup_sentences(passages[0], question, need_number, pointers_ok)]
        extra = [(t, k) for t, k in checked.sentences if not any(_same(t, text) for text, _ in lead)]
        sentences = lead + extra[:MODEL_SENTENCES]
        mode = "generated" if extra else "extractive"
        timings["check_ms"] = (time.perf_counter() - t2) * 1000
        if error:
            base["notice"] = "; ".join(
                filter(None, [base["notice"], f"{error}; showing the most relevant sentences instead"])
            )
        answer = self._compose(sentences, passages, base, mode)
        answer.trace, answer.draft, answer.passages = checked.verdicts, draft, hits
        yield "answer", self._finish(answer, timings, t0)

    def prompt_messages(self, question: str, passages: Sequence[Hit]) -> list[dict[str, str]]:
        """The chat messages the model gets: the system prompt, the numbered passages and the question."""
        sources = "\n\n".join(
            prompts.render("source", key=str(i), title=h.title, passage=h.text) for i, h in enumerate(passages, 1)
        )
        return [
            {"role": "system", "content": prompts.render("system")},
            {"role": "user", "content": prompts.render("answer", sources=sources, question=question)},
        ]

    def _refuse(self, hits: list[Hit], base: dict[str, Any]) -> Answer:
        closest = "; ".join(f"“{h.title}”" for h in hits[:3])
        text = (
            "The indexed papers do not answer this question: no abstract in the collection is close enough to it."
            + (f" The closest papers are {closest}." if closest else "")
        )
        return Answer(answer=text, refused=True, citations=[], passages=hits, mode="refusal", **base)

    def _compose(
        self, sentences: list[tuple[str, list[int]]], cited_from: Sequence[Hit], base: dict[str, Any], mode: str
    ) -> Answer:
        """Number citations in order of first use and build the answer text with [n] markers; an
        answer about the best passage opens with its exact title."""
        order: list[int] = []
        for _, keys in sentences:
            order.extend(k for k in keys if k not in order)
        number = {k: n for n, k in enumerate(order, 1)}
        parts = []
        for text, keys in sentences:
            body = text.rstrip()
            end = body[-1] if body and body[-1] in ".!?" else "."
            body = body[:-1] if body and body[-1] in ".!?" else body
            parts.append(f"{body} " + "".join(f"[{number[k]}]" for k in keys) + end)
        citations = []
        for k in order:
            hit = cited_from[k]
            claims = [t for t, keys in sentences if k in keys]
            ev = evidence(claims, hit)
            citations.append(citation(number[k], hit, [s.text for s in ev], [(s.start, s.end) for s in ev]))
        lead = f"“{cited_from[order[0]].title}”: " if order else ""
        return Answer(
            answer=lead + " ".join(parts),
            refused=False,
            citations=citations,
            passages=list(cited_from),
            mode=mode,
            **base,
        )

    def _finish(self, answer: Answer, timings: dict[str, float], t0: float) -> Answer:
        answer.timings_ms = {**timings, "total_ms": (time.perf_counter() - t0) * 1000}
        if not answer.focus and not answer.refused:
            answer.focus = [{"paper_id": c.paper_id, "title": c.title} for c in answer.citations]
        return answer


def _same(a: str, b: str) -> bool:
    """Do two sentences say the same thing (most of their words shared)?"""
    x, y = set(tokenize(a)), set(tokenize(b))
    return len(x & y) / max(1, len(x | y)) >= 0.5


ANOTHER_MARGIN = 0.25
# "... to distribution shift instead of dynamics perturbations": what follows is not asked for.
_NOT_ASKED = re.compile(r"\b(?:instead of|rather than|other than|unlike)\b.*$", re.IGNORECASE)


def _holding_most(question: str, hits: Sequence[Hit], rarity: Rarity) -> list[Hit]:
    """Hits reordered by the rarity-weighted share of the question's asked words their paper holds
    (retrieval order breaks ties): "another paper on robustness to distribution shift" should not
    go to a paper whose only shared word is "shift" (of "shift reduction lemmas")."""
    terms = shapes.focal_terms(_NOT_ASKED.sub("", question))
    if not terms:
        return list(hits)
    if not hits:
        return []
    total = sum(rarity.weight(t) for t in terms)
    present = [set(evidence_words(f"{h.title} {h.abstract}")) for h in hits]
    held = [sum(rarity.weight(t) for t in terms if holds(words, t)) / total for words in present]
    best = max(range(len(hits)), key=held.__getitem__)
    # Only a clearly better holder moves up (a quarter more of the asked words, by rarity): close
    # calls stay with retrieval, which also weighs meaning.
    if held[best] - held[0] >= ANOTHER_MARGIN:
        return [hits[best]] + [h for i, h in enumerate(hits) if i != best]
    return list(hits)


def _asks_for_another(question: str) -> bool:
    return bool(
        re.search(r"\b(?:another|other|a different|a second|also a)\s+(?:paper|work|one)\b", question, re.IGNORECASE)
    )


def _unknown_concept(concept: Topic, question: str, hits: Sequence[Hit], rarity: Rarity) -> bool:
    """A short key concept ("machine unlearning") that no retrieved abstract holds: nothing indexed
    is about it, however close the nearest abstract is in embedding space."""
    if not concept or not concept.led:
        return False
    # "neural machine translation for low-resource languages": a short question's longer concept is
    # unknown when no retrieved paper holds most of its telling words (the closest holds 0.54).
    longer = len(concept.required) > CONCEPT_WORDS
    if longer and (len(concept.required) > LONG_CONCEPT_WORDS or len(question.split()) > SHORT_QUESTION_WORDS):
        return False
    if any(
        n.lower() in f"{h.title} {h.abstract}".lower()
        for h in hits
        for n in named_terms(question)
        if n.lower() not in _GENERIC_NAMES
    ):
        return False
    if longer:
        return not any(coverage(concept, h.title, h.abstract, rarity) >= KNOWN_SHARE for h in hits)
    return not any(is_about(concept, h.title, h.abstract) for h in hits)


# Acronyms too common in ML to show that a question names a specific paper.
_GENERIC_NAMES = {
    "llm",
    "llms",
    "ai",
    "ml",
    "nlp",
    "gpu",
    "gpus",
    "cpu",
    "rl",
    "gnn",
    "gnns",
    "cnn",
    "cnns",
    "rlhf",
    "dpo",
    "sota",
    "api",
    "iclr",
    "icml",
    "neurips",
}
_GENERIC_WORDS = set(
    tokenize(
        "which what how paper papers work research method methods approach any there about "
        "new model models learning machine study"
    )
)


def relevant(question: str, hit: Hit, threshold: float) -> bool:
    """Is ``hit`` about the question? The gate in front of the model.

    Dense similarity alone misses questions that name a method by its acronym ("What is
    JRNGC?") and short title questions, so an exact name match or high word coverage at a
    lower similarity also pass. Calibrated on the eval set's unanswerable questions.
    """
    if hit.dense_score >= threshold:
        return True
    text = f"{hit.title} {hit.abstract}"
    lowered = text.lower()
    if any(n.lower() not in _GENERIC_NAMES and n.lower() in lowered for n in named_terms(question)):
        return True
    asked = [w for w in dict.fromkeys(evidence_words(question)) if w not in _GENERIC_WORDS]
    words = [w for w in dict.fromkeys(tokenize(question)) if w not in _GENERIC_WORDS]
    # "the Rényi Pufferfish paper": a proper name from the title, or most of the question's words in it.
    title = set(tokenize(hit.title))
    proper = {w for w in tokenize(" ".join(re.findall(r"(?<=\s)[A-Z][\w-]{3,}", " " + question[1:])))}
    if len(proper & title) >= 2 or (words and sum(w in title for w in words) / len(words) >= 0.6):
        return True
    source = set(evidence_words(text))
    coverage = sum(bool(related(w) & source) for w in asked) / len(asked) if asked else 0.0
    return hit.dense_score >= threshold * 0.6 and coverage >= 0.6
