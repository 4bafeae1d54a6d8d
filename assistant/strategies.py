"""Answer strategies: how a planned question becomes an answer.

``shaped`` builds the answers whose shape comes from the abstracts themselves (focus notes,
comparisons, per-paper attributes, author and area listings, topic lists) and refuses what the
index does not cover (the relevance gate, unknown concepts). ``generated`` answers about a
single paper: the model drafts from the best passages, the checker keeps what one passage
supports, and the abstract's answering sentence leads. The pipeline (``answer``) plans and
calls these; nothing here imports it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from assistant import facets, intents, prompts, segments, shapes
from assistant.citations import ASKS_FOR_POINTERS, FRAMING_WORDS, check, evidence
from assistant.evidence import (
    BACKGROUND_CUE,
    GENERIC,
    Rarity,
    Topic,
    asked_terms,
    coverage,
    holds,
    holds_phrase,
    is_about,
    related,
    topic,
    without_back_lead,
)
from assistant.evidence import words as evidence_words
from assistant.llm import LLM, LLMError
from assistant.records import Answer, citation
from assistant.retrieval import Hit
from assistant.text import GENERIC_NAMES, named_terms, tokenize

__all__ = ["Event", "Plan", "generated", "prompt_messages", "refuse", "relevant", "shaped"]

PROMPT_PASSAGES = 2  # passages shown to the model: CPU time goes to prompt evaluation
PASSAGE_MARGIN = 0.05  # a second passage this much less similar than the best one is left out of the prompt
MODEL_SENTENCES = 2  # checked model sentences an answer keeps after its lead sentence
LONG_CONCEPT_WORDS = 6  # a longer concept is a paraphrase of a paper, not a topic to look up
SHORT_QUESTION_WORDS = 14  # long questions describe a paper in their own words; they are not refused on words
KNOWN_SHARE = 0.6  # least rarity-weighted share of a longer concept's words some retrieved paper must hold
GATE_DEPTH = 3  # a lookup whose closest abstract fails the gate may be answered by the second or third
# Share of a model sentence's words (past framing) that the lead sentence holds, above which it
# repeats the lead: 0.7 and 0.78 for the two restatements the checker's order rule let through.
RESTATES = 0.6
# Closeness of the nearest passage above which a question's concept is not unknown: the highest of
# the refusals judged right over the seeds (tuning part) is 0.45, the refusals judged wrong reach 0.73.
KNOWN_CLOSENESS = 0.55
KNOWN_CLOSE_SHARE = 0.3  # ... and the least rarity-weighted share of the concept's words it must hold
CONCEPT_WORDS = 3  # a concept of at most this many words must occur in some paper, or nothing is about it
OPEN_CLOSENESS = 0.6  # least closeness, against the closest paper's, of a second paper an open search lists

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
    set_aside: list[Hit] = field(default_factory=list)  # "another paper on X": the papers asked past
    named: bool = False  # the question names its one paper ("the audio one", "DARL"): hits[0], not refused
    lead: str = ""  # a line before the answer saying which papers it is about, when the user could not see it
    held: bool = False  # asked for another paper, hits[0] holds most of the asked words: not refused


# "Compare them", "how are they different?": a comparison that names nothing but the papers in focus
# ("how does it compare to algebraic multigrid?" names what to compare with).
_BARE_COMPARE = re.compile(
    r"^\W*(?:(?:and|so|now|ok|then)\s+)?(?:please\s+)?(?:can you\s+)?(?:compare|contrast)\s+(?:them|these|those|both|"
    r"the two|the papers|all of them)(?:\s+please)?\W*$|"
    r"^\W*(?:and\s+)?how (?:do|are) (?:they|these|those|the two|both)(?: papers)? "
    r"(?:differ|compare|different)(?: from each other)?\W*$|"
    r"^\W*(?:and\s+)?what(?:'s| is| are) the differences?(?: between (?:them|these|those|the two|both))?\W*$",
    re.IGNORECASE,
)


def shaped(
    plan: Plan,
    base: dict[str, Any],
    settings: Any,
    rarity: Callable[[], Rarity],
    closeness: Callable[[str, Sequence[Hit]], Callable[[str], float]] | None = None,
) -> Answer | None:
    """The answer when its shape is built from the abstracts (no model), else None; ``rarity`` is
    called only for the answers that weigh words (it is built over the whole index), ``closeness``
    only for the answers about each paper in focus (it embeds their sentences). When the
    closest abstract fails the gate but a close runner-up passes, that one is put first in
    ``plan.hits`` for the drafted answer."""
    kind, hits, gate = plan.intent.kind, plan.hits, settings.gate_threshold
    pointers_ok = bool(ASKS_FOR_POINTERS.search(plan.question))
    if plan.note:
        return shapes.focus_note(plan.note, plan.focus, base)
    if kind == "compare" and plan.named and len(plan.focus) == 1:
        # "EBBA vs EBBA+?": both sides are in one abstract; else what is asked of that paper
        inside = shapes.compared_within(plan.focus[0], intents.named_targets(plan.intent), base)
        if inside is not None:
            return inside
        kind = "attribute"
    then_asks = _COMPARE_THEN_ASKS.match(plan.question) if kind == "compare" and len(plan.focus) >= 2 else None
    if then_asks and not intents.COMPARE.search(then_asks.group("asks")) and _two_asks(then_asks.group("asks")):
        # "compare the two: what is each optimizing for, and does either report on-device latency?": two facts
        # asked of each are answered paper by paper (c740.4's table answered DARL's latency with a sentence on
        # its noise schedule); one fact asked stays a comparison ("compare the two: what part of the usual
        # pipeline does each one swap out?")
        plan = replace(plan, question=then_asks.group("asks"))
        kind = "attribute"
    if kind == "compare" and len(hits) >= 2:
        return shapes.comparison(plan.question, hits, base, intents.named_targets(plan.intent))
    if kind == "compare" and len(plan.focus) == 1 and _BARE_COMPARE.match(plan.question):
        # "Compare them" after an answer about one paper: there is nothing to compare it with yet.
        return shapes.focus_note(
            "Only one paper is in focus", plan.focus, base, "Name another paper to compare it with."
        )
    asks = _two_asks(plan.question) if kind in ("attribute", "quantity") and plan.focus else []
    if asks:
        # "eval datasets and how much longer context did it get?": each ask answered, then joined
        # line by line, so neither half is left out.
        halves = [
            shapes.per_paper(
                ask,
                plan.focus,
                base,
                need_number=bool(intents.QUANTITY.search(ask)),
                pointers_ok=pointers_ok,
                closeness=closeness(ask, plan.focus) if closeness is not None else None,
            )
            for ask in asks
        ]
        joined = _joined(*halves)
        if joined is not None:
            return joined
    if kind in ("attribute", "quantity") and plan.focus:
        lines = shapes.per_paper(
            plan.question,
            plan.focus,
            base,
            need_number=kind == "quantity",
            pointers_ok=pointers_ok,
            # Closeness to what is asked, not to a premise naming the papers ("Three papers claim to drop
            # ...: the compressed bilevel paper, EBBA and JRNGC. What does each get rid of?").
            closeness=closeness(shapes.asked_part(plan.question), plan.focus) if closeness is not None else None,
        )
        if (
            len(plan.focus) == 1
            and _BOTH.search(plan.question)
            and not re.search(r"\bwhich\b", plan.question, re.IGNORECASE)  # "which of the two ...": one picked
            and not lines.refused
        ):
            # "do both have code released?" when the conversation has shown one paper: say so, not
            # only answer for the one as if it were both.
            lines.answer += "\nThis answer is about the one paper the conversation has shown so far."
        return lines
    if kind == "authors_of":
        papers = plan.focus or [h for h in hits[:1] if relevant(plan.rewritten, h, gate)]
        with_area = intents.asks_area(plan.question)
        return shapes.authors(papers, base, hits, with_area) if papers else refuse(hits, base)
    if kind == "papers_by" and plan.intent.authors and not hits:
        # "what else did the senior author publish?" of an author with one paper here
        besides = "; ".join(f"“{h.title}”" for h in plan.set_aside)
        text = f"No indexed paper{' besides ' + besides if besides else ''} lists {shapes.join(plan.intent.authors)} as an author."
        return Answer(answer=text, refused=False, citations=[], passages=[], mode="metadata", **base)
    if kind == "papers_by" and plan.intent.authors:
        # No counts in the text: every number an answer shows must come from a cited record.
        authors = plan.intent.authors
        return shapes.listing(f"Indexed papers by {shapes.join(authors, 'or')}", hits, [], base, hits, authors)
    if kind == "area" and plan.intent.area:
        area = plan.intent.area.casefold()
        labelled = [h for h in hits if area in h.area.casefold()]
        related = [h for h in hits if h not in labelled and relevant(plan.rewritten, h, gate)]
        return shapes.listing(f"Indexed papers listed under {plan.intent.area}", labelled, related[:3], base, hits)
    if not hits:
        return refuse(hits, base)
    concept = topic(plan.question)
    # asked of the index, not of a paper shown, named or held by the conversation
    of_index = not (plan.focus or plan.named or plan.held)
    if kind in ("lookup", "list") and of_index and unheard_terms(concept, plan.question, rarity()):
        return shapes.not_found(concept, hits, base, plan.set_aside)
    if kind == "list" and shapes.ASKS_LINKS.search(plan.question):
        linked = shapes.pointer_list(hits, base)
        if linked is not None:
            return linked
    if kind == "list" and shapes.ASKS_FIRSTS.search(plan.question):
        claimed = shapes.first_claims(hits, base)
        if claimed is not None:
            return claimed
    if kind == "list" and of_index and _unknown_concept(concept, plan.question, hits, rarity()):
        # "is there anything about membership inference attacks on LLMs": a short concept no retrieved
        # paper holds is in none, though a described topic's closest papers share some of its words
        # (the decoding paper "inference", "LLMs"; the backdoor paper "attacks": 0.31 each, c472.4)
        return shapes.not_found(concept, hits, base, plan.set_aside)
    if kind == "list":
        hits = _without_set_aside(plan.question, hits)
    if kind in ("list", "area", "papers_by"):
        listed = shapes.topic_list(concept, hits, base, rarity(), plan.question) if concept else None
        if listed is not None:
            return listed
    if (
        kind == "lookup"
        and concept
        and of_index
        # a topic, in a few words or as alternatives, that is most of what the message says: "fine tune a
        # language model but backprop memory is killing me on my gpu" describes one paper's problem
        # (its topic read as "my gpu", which the decoding paper holds too)
        and (len(concept.required) <= CONCEPT_WORDS or len(concept.alternatives) >= 2)
        and _is_the_message(concept, plan.question)
        and _asks_openly(plan.question)
    ):
        # "optimal transport stuff?", "generative models for chemistry or materials?": an open search
        # the classifier reads as a lookup; when two papers are about it, both answer (a lookup showed
        # one, and readers judged the other missed). Each must be nearly as close in meaning as the
        # closest: the pruning paper holds "without training" of "speed up sampling without training
        # anything extra" at half of ParaTAA's closeness; the second papers judged missed were 0.85 or closer.
        about = _close_to_their_topic(concept, shapes.about_topic(concept, hits, rarity()), rarity())
        if len(about) >= 2:
            listed = shapes.topic_list(concept, about, base, rarity(), plan.question)
            if listed is not None:
                return listed
    if plan.named or plan.held:
        return None  # the paper the question names answers it, however far its words are from the question's
    if kind in ("lookup", "list") and _unknown_concept(concept, plan.question, hits, rarity()):
        return shapes.not_found(concept, hits, base, plan.set_aside)
    if not relevant(plan.rewritten, hits[0], gate):
        # "I want to read about robustness to distribution shift": the closest abstract in meaning
        # (a privacy paper, 0.31) fails the gate, the next one holds the asked words ("Connect
        # Later: ... Robustness ... distribution shifts") and passes: it answers.
        passing = [h for h in hits[1:GATE_DEPTH] if relevant(plan.rewritten, h, gate)]
        if not passing:
            return refuse(hits, base)
        plan.hits = [passing[0]] + [h for h in hits if h is not passing[0]]
    return None


def generated(
    plan: Plan, base: dict[str, Any], settings: Any, llm: Callable[[], LLM], timings: dict[str, float], t0: float
) -> Generator[Event, None, Answer]:
    """A single-paper answer: the model drafts from the best passages, the checker keeps what one
    passage supports, and the answering sentence of the abstract stands in for what it drops.

    Yields ("status", text) and ("token", piece of the draft) events and returns the answer (the
    caller stamps its total time); ``llm`` is called only once the prompt is ready (the model loads
    lazily), and the stage times go into ``timings`` (measured from ``t0``)."""
    question, hits = plan.question, plan.hits
    # Only a second passage nearly as close as the best one: a weaker passage mostly attracts wrong citations.
    passages = [
        shapes.without_injections(h)
        for h in hits[:1]
        + [
            h
            for h in hits[1:PROMPT_PASSAGES]
            if h.dense_score >= hits[0].dense_score - PASSAGE_MARGIN
            and relevant(plan.rewritten, h, settings.gate_threshold)
        ]
    ]
    messages = prompt_messages(question, passages)
    draft, error = "", ""
    model = llm()  # a missing or broken model file is a configuration error: let it surface
    yield "status", "Writing…"
    t1 = time.perf_counter()
    try:
        for piece in model.stream(messages, settings.max_tokens):
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
    # A draft sentence shown as the abstract's sentence it changed words of, where that sentence sets
    # the scene ("... has been extensively studied in the literature"), tells of others' work: the
    # draft had given it as the paper's own (c215.1), and it answers nothing asked.
    scene = {v.text for v in checked.verdicts if v.quoted and BACKGROUND_CUE.search(v.text)}
    extra = [(t, k) for t, k in checked.sentences if t not in scene and not any(_same(t, text) for text, _ in lead)]
    sentences = lead + extra[:MODEL_SENTENCES]
    mode = "generated" if extra else "extractive"
    timings["check_ms"] = (time.perf_counter() - t2) * 1000
    if error:
        base["notice"] = "; ".join(
            filter(None, [base["notice"], f"{error}; showing the most relevant sentences instead"])
        )
    answer = _compose(sentences, passages, base, mode)
    if answer.citations and answer.citations[0].paper_id == passages[0].paper_id:
        # "Is diffusion tempering a diffusion model?": its sentences describe it; that none calls it one is said.
        note = shapes.kind_not_said(question, passages[0])
        answer.answer += f" {note}" if note else ""
    answer.trace, answer.draft, answer.passages = checked.verdicts, draft, hits
    return answer


# A search asking for one paper: "is there another paper on", "a paper that", "anything similar for".
_ASKS_FOR_ONE = re.compile(
    r"\b(?:another|other|else|a paper|one paper|any paper\b(?!s)|(?:is there|any) (?:a|an|one|something)\b|"
    r"something (?:like|similar|in the same)|anything (?:like|similar)|same (?:question|thing|spirit)|"
    r"the (?:[\w-]+ ){0,2}(?:one|paper)\b)",
    re.IGNORECASE,
)
# ... and a search asking for whatever there is: "X stuff?", "papers on", "anything here?", "what's there?"
_ASKS_OPENLY = re.compile(
    r"\b(?:papers|works|studies|methods|approaches|stuff|anything|what'?s (?:in )?(?:here|there)|whats (?:in )?(?:here|there)|"
    # "i work on neural surrogates / solvers for pdes. what's relevant here" (c485.1 showed PiT alone)
    r"what(?:'s| is) relevant|what (?:do|does) (?:u|you|ya) have|in general)\b|"
    # "ok. what about chemistry or materials then": a new subject, asked of the index (c593.2 showed one of two)
    # (the whole message: "what about distribution shift, like ... - which datasets? and ..." asks more)
    r"^\W*(?:(?:ok|okay|so|and|hmm|alright)\W+)?(?:what|how) about (?!(?:the|it|its|this|that|them|their|those|these|"
    r"each|both|either|one|him|her|his)\b)[^?.;,]{1,60}"
    # "what about LLM agent systems that handle really long inputs, like long documents or videos": examples
    # after the subject still ask for every paper on it (c734.2 showed ReadAgent alone)
    # ("what about distribution shift, like camera trap wildlife photos - which datasets?" asks more)
    r"(?:,\s*(?:like|such as|e\.?g\.?)\s(?:(?!\s[-–—]\s)[^?.;,]){1,60})?\W*$",
    re.IGNORECASE,
)


# ... or names its subject bare: "generative models for chemistry or materials?"
_ASKS_IN_WORDS = re.compile(
    r"^\W*(?:which|what|who|how|why|when|where|is|are|was|were|do|does|did|can|could|should|would|will|has|have|"
    r"i|i'm|im|we|my|our|the|a|an|this|that|it|its|they|their|and|so|ok|okay)\b|"
    # "For robot RL, how can I ...?": a question after its subject
    r"(?:[,;:.]\s|\s[-–—]\s)\W*(?:which|what|who|how|why|when|where|is|are|do|does|can|could|should|would)\b",
    re.IGNORECASE,
)


def _close_to_their_topic(concept: Topic, about: list[Hit], rarity: Rarity) -> list[Hit]:
    """The papers of an open search that are nearly as close in meaning as the closest paper about
    the same alternative: "drug discovery or materials stuff?" asks two topics, and the crystal paper
    (0.17) is the closest about materials though far from the molecule paper (0.36; c517.1 left it out)."""
    if not about:
        return []
    if len(concept.alternatives) < 2:
        closest = max(h.dense_score for h in about)
        return [h for h in about if h.dense_score >= OPEN_CLOSENESS * closest]
    kept: set[str] = set()
    for alternative in concept.alternatives:
        said = {w for slot in alternative for w in slot}
        one = replace(concept, alternatives=[alternative], required=[w for w in concept.required if w in said])
        holding = [h for h in about if coverage(one, h.title, h.abstract, rarity) >= shapes.ABOUT_SHARE]
        if holding:
            closest = max(h.dense_score for h in holding)
            kept |= {h.paper_id for h in holding if h.dense_score >= OPEN_CLOSENESS * closest}
    return [h for h in about if h.paper_id in kept]


def _is_the_message(concept: Topic, question: str) -> bool:
    """Does ``concept`` hold at least half of the question's telling words?"""
    telling = [w for w in asked_terms(question) if w not in GENERIC]
    return 2 * len(set(concept.required) & set(telling)) >= len(telling)


def _asks_openly(question: str) -> bool:
    """Does a search ask for every paper on its subject, not for one?"""
    return bool(_ASKS_OPENLY.search(question) or not _ASKS_IN_WORDS.search(question)) and not _ASKS_FOR_ONE.search(
        question
    )


def prompt_messages(question: str, passages: Sequence[Hit]) -> list[dict[str, str]]:
    """The chat messages the model gets: the system prompt, the numbered passages and the question."""
    sources = "\n\n".join(
        prompts.render("source", key=str(i), title=h.title, passage=h.text) for i, h in enumerate(passages, 1)
    )
    return [
        {"role": "system", "content": prompts.render("system")},
        {"role": "user", "content": prompts.render("answer", sources=sources, question=question)},
    ]


# A second question asked in the same breath: ", what ...", " and how much ...", "; which ..."
_SECOND_ASK = re.compile(
    # "how much does it extend context, and on what tasks": a preposition may open the second ask (c766.3
    # gave the figure alone)
    r"\s*(?:,|;|\s-|\sand|,\s*and)\s+(?=(?:(?:on|in|over|across|with)\s+(?=what\b|which\b))?"
    r"(?:what|what's|how|which|who|where|why|when|is|are|does|do|did)\b)",
    re.IGNORECASE,
)
_COMPARE_THEN_ASKS = re.compile(
    r"^\W*(?:(?:so|ok|now|and)\s+)?compare (?:the two|them|both|these|those)\s*[:;,–—-]+\s*"
    r"(?P<asks>(?:what|which|how|does|do|did|is|are)\b[^?]*\b(?:each|either)\b.*)$",
    re.IGNORECASE,
)
_GUESS_AFTER = re.compile(
    r"\?\s*(?:(?:it|that|this)\s+)?(?:sounds|seems|looks)(?:\s+(?:more|a lot|kind of|kinda))?\s+like\s+"
    r"(?P<guess>[^?.!]{3,60}?)\W*$",
    re.IGNORECASE,
)
_SHARED_VERB = re.compile(
    r"^(?P<head>\W*(?:how|what|why|where)\b[^,;?]*?\s)(?P<a>the (?:[\w-]+ ){0,3}[\w-]+)\s+and\s+"
    r"(?P<b>the (?:[\w-]+ ){0,3}[\w-]+)\s*\?*\s*$",
    re.IGNORECASE,
)
_ONLY_POINTS = re.compile(
    r"^\W*(?:(?:and|so|ok|now)\s+)?(?:for|in|about|with|on)?\s*the (?:[\w-]+ ){1,3}(?:one|paper)\W*$", re.IGNORECASE
)
_CORRECTION = re.compile(r"^\W*(?:sorry|oops|no|actually|i meant|i mean)\b", re.IGNORECASE)
_LINE = re.compile(r"^(- )?(.*?\[\d+\]): (.*)$")


# "and for crystals? does that one use a transformer too?": the first part asks the question before it
# again of another subject; it is no ask of the papers shown
_ELLIPTICAL = re.compile(
    r"^\W*(?:(?:and|so|ok|then)\s+)?(?:for|with|what about|how about)\b[^?]{0,40}\?", re.IGNORECASE
)
_ENDS_RESPECTIVELY = re.compile(r"\brespectively\W*$", re.IGNORECASE)


# "and the other one - just random features or transformers too? does min degree always hold": a pointer
# names no further paper (c488.3 answered the first question alone)
_POINTER_NAME = re.compile(r"^the (?:other|first|second|third|last|same|latter|former) (?:one|paper)$", re.IGNORECASE)


def _names_a_paper(text: str) -> bool:
    """Does ``text`` name a paper by a description ("the image one"), not by a pointer ("the other one")?"""
    return any(not _POINTER_NAME.match(m.group()) for m in segments.NAMES_A_PAPER.finditer(text))


# "what reinforcement learning algorithm papers are there? not the llm agent stuff": a kind of paper set
# aside after the question (c486.1 listed the LLM-agent theory paper first)
_NOT_THESE = re.compile(
    r"(?:[?.,;]|\bbut)\s*(?:but\s+)?(?:not|no|excluding)\s+(?!sure\b)(?:the\s+|any\s+)?"
    r"(?P<what>[\w\s-]{2,40}?)\s*(?:stuff|ones?|papers?|things?|work)?\W*$",
    re.IGNORECASE,
)


def _without_set_aside(question: str, hits: list[Hit]) -> list[Hit]:
    """``hits`` less the papers holding every telling word of a kind set aside after the question
    ("..., not the llm agent stuff"); all of them when that would leave none."""
    said = _NOT_THESE.search(question)
    if said is None:
        return hits
    stems = [w for w in evidence_words(said.group("what")) if w not in GENERIC]
    if not stems:
        return hits
    kept = [h for h in hits if not all(holds(set(evidence_words(f"{h.title} {h.abstract}")), s) for s in stems)]
    return kept or hits


def _two_asks(question: str) -> list[str]:
    """The two questions of "what architecture and what's the headline result?"; [] for one, or for
    a selection ("which of them ... and ...?" picks papers on the whole)."""
    if re.search(r"\bwhich (?:of|ones?)\b", question, re.IGNORECASE):
        return []
    said = segments.parts(question)
    if len(said) == 2 and all(
        # "does either release code? and does the image one give imagenet numbers?": the second names
        # another paper to ask of; the whole message is read for which
        p.kind == segments.QUESTION and not _ELLIPTICAL.match(p.text) and not _names_a_paper(p.text)
        for p in said
    ):
        # "does it come with guarantees on false alarms? and real data or only synthetic?"; a premise
        # ("CILA and FedPIN both derive ... from a theory.") joins the question after it
        parts = [re.sub(r"^\W*and\s+", "", p.text).strip(" ,;-") for p in said]
    elif (guess := _GUESS_AFTER.search(question)) is not None:
        # "what problem is it really solving? sounds more like OOD generalization": the question, then the
        # asker's guess, checked as a question of its own (c737.2 answered the guess alone, with a results
        # sentence, and left the problem out)
        parts = [question[: guess.start() + 1].strip(), f"is it about {guess.group('guess').strip()}?"]
    elif (after := intents.FIGURE_AFTER.search(question)) is not None:
        parts = [question[: after.start() + 1].strip(), f"what {after.group('ask')}?"]
    else:
        parts = [p.strip(" ,;-") for p in _SECOND_ASK.split(question)]
    shared = _SHARED_VERB.match(parts[-1]) if len(parts) <= 2 else None
    if shared:
        # "how do they parameterize the convex potential and the measure-preserving map?": the verb
        # asks of both things, each answered by its own sentence
        parts = parts[:-1] + [shared.group("head") + shared.group("a"), shared.group("head") + shared.group("b")]
    # "for the sharpness one, what architecture ...": a part that only points at the paper asks nothing
    # nor does "sorry, I meant the second one", nor "for lookahead decoding and the diffusion sampler
    # respectively" (it names the papers the rest asks of)
    asking = [
        p
        for p in parts
        if (shapes.focal_terms(p) or facets.asked(p) or shapes.ASKS_GOAL.search(p))
        and not _CORRECTION.match(p)
        and not _ENDS_RESPECTIVELY.search(p)
        and not _ONLY_POINTS.match(p)  # "for the Brenier one": which paper, asked nothing
    ]
    return asking if len(asking) == 2 else []


def _joined(first: Answer, second: Answer) -> Answer | None:
    """The two answers' lines about the same papers joined: each paper's line says both, with its
    evidence from both (None when their lines do not pair up)."""
    a, b = first.answer.split("\n"), second.answer.split("\n")
    if len(a) != len(b) or [c.paper_id for c in first.citations] != [c.paper_id for c in second.citations]:
        return None
    lines = []
    for one, other in zip(a, b):
        x, y = _LINE.match(one), _LINE.match(other)
        if x is None or y is None or x.group(2) != y.group(2):
            return None
        said, more = x.group(3), y.group(3)
        if more.startswith("the abstract "):
            more = "T" + more[1:]
        if more in said:
            lines.append(one)
        elif said in more:
            lines.append(f"{x.group(1) or ''}{x.group(2)}: {more}")
        else:
            # "which datasets and how much better than prior work?": the sentence that says how much
            # better answers both halves; said once (c517.3 repeated it)
            fresh = [t for t in re.split(r"(?<=[.!?])\s+", more) if t and t not in said]
            lines.append(f"{one} {' '.join(fresh)}" if fresh else one)
    for cited, also in zip(first.citations, second.citations):
        for sentence, span in zip(also.evidence, also.evidence_spans):
            if sentence not in cited.evidence:
                cited.evidence.append(sentence)
                cited.evidence_spans.append(span)
    first.answer = "\n".join(lines)
    return first


_BOTH = re.compile(r"\b(?:both|either|the two|each of them|them both)\b", re.IGNORECASE)


def refuse(hits: list[Hit], base: dict[str, Any]) -> Answer:
    """The refusal: nothing indexed is close enough to the question; the closest papers are named."""
    closest = "; ".join(f"“{h.title}”" for h in hits[:3])
    text = "The indexed papers do not answer this question: no abstract in the collection is close enough to it." + (
        f" The closest papers are {closest}." if closest else ""
    )
    return Answer(
        answer=text, refused=True, citations=[], passages=hits, mode="refusal", focus=shapes.closest_named(hits), **base
    )


def _compose(
    sentences: list[tuple[str, list[int]]], cited_from: Sequence[Hit], base: dict[str, Any], mode: str
) -> Answer:
    """Number citations in order of first use and build the answer text with [n] markers; an
    answer about the best passage opens with its exact title."""
    order: list[int] = []
    for _, keys in sentences:
        order.extend(k for k in keys if k not in order)
    number = {k: n for n, k in enumerate(order, 1)}
    parts = []
    shown = ""
    for text, keys in sentences:
        body = _reads_alone(text, shown, [cited_from[k] for k in keys])
        shown = text
        body = body.rstrip()
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


def _reads_alone(text: str, before: str, hits: Sequence[Hit]) -> str:
    """``text`` as shown after ``before``: a sentence quoted from its abstract that opens by pointing
    at the sentences before it there ("To mitigate these issues, we introduce ...") loses that lead
    unless ``before`` is the sentence just before it."""
    for hit in hits:
        at = hit.abstract.find(text)
        if at < 0:
            continue
        prior = hit.abstract.find(before) if before else -1
        if prior >= 0 and hit.abstract[prior + len(before) : at].strip() == "":
            return text
        return without_back_lead(text)
    return text


def _same(a: str, b: str) -> bool:
    """Does ``a`` say what ``b`` says: most of their words shared, or ``a`` a shorter restatement
    whose words, past how it names the paper, are mostly ``b``'s ("The diversity vs stability paper
    analyzed seven cardinal benchmarks and eleven ordinal benchmarks" after the abstract's sentence
    on its experiments with seven cardinal and eleven ordinal benchmarks)?"""
    x, y = set(tokenize(a)), set(tokenize(b))
    if len(x & y) / max(1, len(x | y)) >= 0.5:
        return True
    said = set(evidence_words(b))
    claimed = {w for w in evidence_words(a) if w not in FRAMING_WORDS}
    return bool(claimed) and len(claimed & said) / len(claimed) >= RESTATES


def _unknown_concept(concept: Topic, question: str, hits: Sequence[Hit], rarity: Rarity) -> bool:
    """A short key concept ("machine unlearning") that no retrieved abstract holds: nothing indexed
    is about it, however close the nearest abstract is in embedding space."""
    if not concept or not concept.led:
        return False
    if any(
        h.dense_score >= KNOWN_CLOSENESS and coverage(concept, h.title, h.abstract, rarity) >= KNOWN_CLOSE_SHARE
        for h in hits
    ):
        # "and transformers for learning pde solution operators, anything?" of PiT (0.73 close, 0.74
        # of the words), "is there a paper proving why flat minima lead to simple networks?" (0.56,
        # 0.50): an abstract this close in meaning, holding part of the concept's words, is about it.
        return False
    # "neural machine translation for low-resource languages": a short question's longer concept is
    # unknown when no retrieved paper holds most of its telling words (the closest holds 0.54).
    longer = len(concept.required) > CONCEPT_WORDS
    # A long question describes a paper in its own words, whatever few words its concept was read as
    # ("Is there a prompting-only method where an LLM reads a very long document in chunks, writes short
    # notes for each chunk, ...?" is not about "each chunk"; ReadAgent answers it).
    if len(question.split()) > SHORT_QUESTION_WORDS or (longer and len(concept.required) > LONG_CONCEPT_WORDS):
        return False
    if _asked_before(concept, question):
        # "estimating treatment effects when several experimenters compete for the same users'
        # attention": what follows "for" ends a question that asks its subject before it, no topic
        # whose absence says that nothing indexed is about the question (the competing-treatments
        # paper is); "any papers on offline RL, i.e. ..." asks nothing before its topic
        return False
    if any(
        n.lower() in f"{h.title} {h.abstract}".lower()
        for h in hits
        for n in named_terms(question)
        if n.lower() not in GENERIC_NAMES
    ):
        return False
    if longer:
        return not any(coverage(concept, h.title, h.abstract, rarity) >= KNOWN_SHARE for h in hits)
    return not any(is_about(concept, h.title, h.abstract) for h in hits)


# "kv cache", "RLHF"-like terms: written in capitals, or in lower case without a vowel ("kv", "pinn" has one)
_ACRONYM = re.compile(r"\b(?:[A-Z]{2,6}|[b-df-hj-np-tv-xz]{2,5})s?\b")
# lower-case words without a vowel that are chat, not terms
_CHAT = frozenset(
    {"btw", "pls", "plz", "thx", "tbh", "tldr", "imo", "smth", "sth", "ppl", "hm", "hmm", "nn", "vs", "w", "nd", "th"}
)
_COMPOUND = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+)+\b")
# A compound that names a kind of task by its input and output ("text-to-video") or a family of methods
# ("physics-informed"); not one that says how ("communication-efficient", "gpt-style", "memory-light"),
# which abstracts put in words of their own
_NAMES_A_KIND = re.compile(r"^[A-Za-z]+-to-[A-Za-z]+$|-informed$", re.IGNORECASE)
# "any physics-informed neural networks?", "does any paper here do text-to-video generation?": an open search
_OPEN_SEARCH = re.compile(
    r"^\W*(?:(?:ok|okay|so|and|also|then)\W+)?(?:any|anything|something|is there|are there|does any\w*|do any)\b",
    re.IGNORECASE,
)


def unheard_terms(concept: Topic, question: str, rarity: Rarity) -> list[str]:
    """The terms of the concept no indexed paper writes: an acronym ("kv cache", "RLHF"-like, less the
    common ones abstracts spell out, ``GENERIC_NAMES``), or, in an open search, a hyphenated compound
    ("physics-informed", "text-to-video") whose words no abstract writes side by side. Such a term names
    what the asker is after; the closest papers hold its other words ("compression" of the bilevel paper
    for "kv cache compression or quantization", read as the answer, c404.4; "text" and "diffusion" of
    ParaTAA for "text-to-video generation with diffusion", c298.3)."""
    if not concept or not rarity.n:
        return []
    required = set(concept.required)
    # "memory-efficient LM finetuning, or RLHF": a term said as one choice of a slot whose other choice a
    # paper writes is not all the asker is after (c647.3 refused the zeroth-order fine-tuning paper)
    chosen = {w for a in concept.alternatives for slot in a if any(rarity.written([x]) for x in slot) for w in slot}
    unheard = [
        term
        for term in dict.fromkeys(_ACRONYM.findall(concept.text))
        if term.lower() not in _CHAT
        and (stems := evidence_words(term))
        and set(stems) <= required
        and not set(stems) <= chosen
        and not any(rarity.written([stem]) for stem in stems)
        and not rarity.spelled_out(re.sub(r"(?<=[a-zA-Z]{2})s$", "", term))
    ]
    if concept.led or _OPEN_SEARCH.match(question):
        unheard += [
            term
            for term in dict.fromkeys(_COMPOUND.findall(concept.text))
            if _NAMES_A_KIND.search(term)
            and len(stems := evidence_words(term)) >= 2
            and set(stems) <= required
            and not rarity.written(stems)
        ]
    return unheard


def _asked_before(concept: Topic, question: str) -> bool:
    """Does the question ask its subject in two or more telling words before the words its concept
    was read from?"""
    at = question.lower().find(concept.text.lower())
    return at > 0 and len([w for w in asked_terms(question[:at]) if w not in GENERIC]) >= 2


_GENERIC_WORDS = set(
    tokenize(
        "which what how paper papers work research method methods approach any there about "
        "new model models learning machine study another"
    )
)


FULL_COVERAGE_FLOOR = 0.5  # of the gate threshold, for a paper holding every asked word (0.6 otherwise)


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
    if any(n.lower() not in GENERIC_NAMES and n.lower() in lowered for n in named_terms(question)):
        return True
    # "any other paper that talks about world models?": framing words ("talks") are not asked for
    framing = set(evidence_words(question)) - set(asked_terms(question))
    asked = [w for w in dict.fromkeys(evidence_words(question)) if w not in _GENERIC_WORDS and w not in framing]
    words = [w for w in dict.fromkeys(tokenize(question)) if w not in _GENERIC_WORDS]
    # "the Rényi Pufferfish paper": a proper name from the title, or most of the question's words in it.
    title = set(tokenize(hit.title))
    proper = {w for w in tokenize(" ".join(re.findall(r"(?<=\s)[A-Z][\w-]{3,}", " " + question[1:])))}
    if len(proper & title) >= 2 or (words and sum(w in title for w in words) / len(words) >= 0.6):
        return True
    # "Is there a paper on distribution shift?": a concept of several words that the abstract names
    # as such is what the paper is about, however short the question (MiniLM: 0.15 for Connect Later).
    if holds_phrase(topic(question), f"{hit.title}. {hit.abstract}"):
        return True
    source = set(evidence_words(text))
    # "what about chemistry or materials": a word said as one of a slot's choices is met by any of them
    # (c593.2 refused the molecule paper, which holds "chemical" and no word of "materials")
    choices = [slot for way in topic(question).alternatives for slot in way if len(slot) > 1]

    def met(word: str) -> bool:
        return bool(related(word) & source) or any(
            related(other) & source for slot in choices if word in slot for other in slot
        )

    coverage = sum(met(w) for w in asked) / len(asked) if asked else 0.0
    # Every asked word held ("another rl paper, one that uses atari?": Hare & Tortoise's "Atari-100k",
    # 0.197 in meaning; c578.3 was refused at the 0.198 floor) lets a paper a little further off pass.
    floor = threshold * (FULL_COVERAGE_FLOOR if coverage == 1.0 and len(asked) >= 2 else 0.6)
    if hit.dense_score < floor or coverage < 0.6:
        return False
    # "world models" is not the "3D world" of an agent paper: a short concept's phrase stays intact.
    concept = topic(question)
    return len(concept.required) > 2 or not concept.phrases or is_about(concept, hit.title, hit.abstract)
