"""The answer pipeline: condense -> retrieve -> gate -> draft -> check -> cite.

``Assistant.stream`` yields events for a UI (status lines, draft tokens, then the checked
answer); ``Assistant.ask`` returns the checked answer only.
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterator, Sequence

from assistant import intents, prompts
from assistant.citations import ASKS_FOR_POINTERS, Verdict, check, evidence, is_pointer, named_terms, numbers
from assistant.condense import Turn, condense, referents
from assistant.lexical import tokenize
from assistant.llm import LLM, LLMError
from assistant.retrieval import Hit, QueryError, Retriever, normalise_query
from assistant.sentences import split_sentences

PROMPT_PASSAGES = 3  # passages shown to the model: CPU time goes to prompt evaluation
PASSAGE_MARGIN = 0.1  # a passage this much less similar than the best one is left out of the prompt
_QUANTITY = re.compile(r"\b(how (?:many|much|fast|large|big|long|often)|what (?:percentage|fraction|number|speed-?up|factor)|"
                       r"how many times|what (?:accuracy|error|rate))\b", re.I)
_INJECTION = re.compile(r"\b(ignore|disregard|forget)\b.{0,40}\b(instructions?|prompt|rules|above)\b|"
                        r"\byou are now\b|\bsystem prompt\b|\bnew instructions?\b", re.I)

Event = tuple[str, Any]


@dataclass
class Citation:
    """A cited paper with the abstract sentences that support the answer."""

    n: int
    paper_id: str
    title: str
    authors: list[str]
    area: str
    url: str
    abstract: str
    evidence: list[str]
    evidence_spans: list[tuple[int, int]]


@dataclass
class Answer:
    """A checked answer, everything the CLI prints and the UI shows."""

    question: str
    answer: str
    refused: bool
    citations: list[Citation]
    passages: list[Hit]
    rewritten_query: str
    mode: str  # generated | extractive | metadata | comparison | refusal | error
    timings_ms: dict[str, float] = field(default_factory=dict)
    trace: list[Verdict] = field(default_factory=list)
    draft: str = ""
    table: list[dict[str, Any]] = field(default_factory=list)
    notice: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the `ask --json` shape)."""
        out = asdict(self)
        out["passages"] = [h.to_dict() for h in self.passages]
        out["suggestions"] = [{"paper_id": h.paper_id, "title": h.title, "url": h.url} for h in self.passages[:3]] \
            if self.refused else []
        out["timings_ms"] = {k: round(v, 1) for k, v in self.timings_ms.items()}
        return out


@dataclass
class Plan:
    """The retrieval half of answering: what was searched, how, and what came back."""

    question: str
    notice: str
    rewritten: str
    intent: intents.Intent
    hits: list[Hit]


def _turns(history: Sequence[Any]) -> list[Turn]:
    """History items: plain questions, Turn objects, or dicts with question and citations."""
    turns = []
    for item in history or []:
        if isinstance(item, Turn):
            turns.append(item)
        elif isinstance(item, dict):
            cited = [(c.get("paper_id", ""), c.get("title", "")) for c in item.get("citations", []) if isinstance(c, dict)]
            turns.append(Turn(str(item.get("question", "")), cited))
        elif str(item).strip():
            turns.append(Turn(str(item)))
    return [t for t in turns if t.question.strip()]


class Assistant:
    """Answers questions from an index; the LLM is loaded on first need."""

    def __init__(self, retriever: Retriever, llm_factory: Callable[[], LLM], settings: Any) -> None:
        self.retriever = retriever
        self.settings = settings
        self._llm_factory = llm_factory
        self._llm: LLM | None = None

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
        question, rewritten, intent, hits, notice = plan.question, plan.rewritten, plan.intent, plan.hits, plan.notice
        timings["retrieval_ms"] = (time.perf_counter() - t0) * 1000
        base = dict(question=question, rewritten_query=rewritten, notice=notice)

        if intent.kind == "compare" and len(hits) >= 2:
            yield "answer", self._finish(self._compare(hits, base), timings, t0)
            return
        if not hits or (intent.kind in ("open", "authors_of") and not relevant(rewritten, hits[0], self.settings.gate_threshold)):
            yield "answer", self._finish(self._refuse(hits, base), timings, t0)
            return
        if intent.kind in ("authors_of", "papers_by", "area"):
            yield "answer", self._finish(self._metadata(intent, hits, base), timings, t0)
            return

        # Only passages nearly as close as the best one: a weaker passage mostly attracts wrong citations.
        floor = max(h.dense_score for h in hits[:PROMPT_PASSAGES]) - PASSAGE_MARGIN
        passages = hits[:1] + [h for h in hits[1:PROMPT_PASSAGES]
                               if h.dense_score >= floor and relevant(rewritten, h, self.settings.gate_threshold)]
        # Sentences that read like instructions are removed once; the model and the checker see the same text.
        clean = [_without_injections(h) for h in passages]
        messages = self._messages(question, clean)
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
        checked = check(draft, clean, pointers_ok)
        sentences = checked.sentences
        mode = "generated"
        embed = self.retriever.embedder.embed
        if not sentences:
            sentences, mode = _extractive(question, passages, embed, pointers_ok=pointers_ok), "extractive"
        if _QUANTITY.search(question) and not any(numbers(s) for s, _ in sentences):
            extra = _extractive(question, passages[:1], embed, need_number=True, pointers_ok=pointers_ok)
            sentences = sentences + [s for s in extra if s[0] not in {t for t, _ in sentences}]
        timings["check_ms"] = (time.perf_counter() - t2) * 1000
        if error:
            base["notice"] = "; ".join(filter(None, [notice, f"{error}; showing the most relevant sentences instead"]))
        answer = self._compose(sentences, passages, base, mode)
        answer.trace, answer.draft = checked.verdicts, draft
        answer.passages = hits
        yield "answer", self._finish(answer, timings, t0)

    def plan(self, question: str, history: Sequence[Any] = ()) -> "Plan":
        """Everything before the model: bound the question, rewrite follow-ups, classify, retrieve."""
        question, notice = normalise_query(question, self.settings.max_query_chars)  # raises QueryError
        turns = self._resolve(_turns(history))
        rewritten = condense(question, turns)
        intent = self._intent(question, rewritten, turns)
        return Plan(question, notice, rewritten, intent, self._retrieve(intent, rewritten))

    def compare_ids(self, paper_ids: Sequence[str]) -> Answer:
        """A side-by-side comparison of the given papers (from the browse tab)."""
        by_id = {p.paper.paper_id: p for p in self.retriever.index.lexical.papers}
        hits = []
        for rank, pid in enumerate(paper_ids, 1):
            stored = by_id.get(pid)
            if stored is None:
                raise QueryError(f"paper {pid} is not in the index")
            p = stored.paper
            hits.append(Hit(rank, p.paper_id, p.title, p.authors, p.area, p.url, p.abstract, p.abstract,
                            0.0, 0.0, 0.0, 0, len(p.abstract)))
        question = "Compare " + " and ".join(f"“{h.title}”" for h in hits)
        t0 = time.perf_counter()
        return self._finish(self._compare(hits, dict(question=question, rewritten_query=question, notice="")), {}, t0)

    # ------------------------------------------------------------ steps
    def _resolve(self, turns: list[Turn]) -> list[Turn]:
        """Give earlier questions without known citations the papers they were most likely about,
        in order, so a follow-up of a follow-up resolves too."""
        for i, turn in enumerate(turns):
            if turn.cited:
                continue
            standalone = condense(turn.question, turns[:i])
            intent = self._intent(turn.question, standalone, turns[:i])
            try:
                if intent.kind == "compare":
                    hits = [h for t in intent.targets for h in self.retriever.search(t, 1)]
                else:
                    hits = [h for h in self.retriever.search(standalone, 1)
                            if relevant(standalone, h, self.settings.gate_threshold)]
            except QueryError:
                continue
            turn.cited = [(h.paper_id, h.title) for h in hits]
        return turns

    def _intent(self, question: str, rewritten: str, turns: Sequence[Turn]) -> intents.Intent:
        """Classify the question as asked; a comparison of earlier papers compares their titles."""
        papers = self.retriever.index.lexical.papers
        intent = intents.detect(question, papers)
        if rewritten != question:
            titles = referents(question, turns)
            if intents.COMPARE.search(question) and len(titles) >= 2:
                return intents.Intent("compare", targets=titles)
            if intent.kind == "compare":  # "compare it with that": the targets are pronouns
                intent = intents.detect(rewritten, papers)
                intent = intent if intent.kind != "compare" else intents.Intent("open")
        return intent

    def _retrieve(self, intent: intents.Intent, query: str) -> list[Hit]:
        k = self.settings.top_k
        if intent.kind == "papers_by":
            return [h for name in intent.authors for h in self.retriever.search(query, 10, author=name)][:10]
        if intent.kind == "area":
            # Papers labelled with the area first, then papers on the topic that carry no label.
            labelled = self.retriever.search(query, 10, area=intent.area)
            seen = {h.paper_id for h in labelled}
            return labelled + [h for h in self.retriever.search(query, k) if h.paper_id not in seen]
        if intent.kind == "compare":
            found: list[Hit] = []
            for target in intent.targets:
                for h in self.retriever.search(target, 3):
                    if h.paper_id not in {f.paper_id for f in found}:
                        found.append(h)
                        break
            return found
        return self.retriever.search(query, k)

    def _messages(self, question: str, passages: Sequence[Hit]) -> list[dict[str, str]]:
        sources = "\n\n".join(prompts.render("source", key=str(i), title=h.title, passage=h.text)
                              for i, h in enumerate(passages, 1))
        return [{"role": "system", "content": prompts.render("system")},
                {"role": "user", "content": prompts.render("answer", sources=sources, question=question)}]

    def _refuse(self, hits: list[Hit], base: dict[str, Any]) -> Answer:
        closest = "; ".join(f"“{h.title}”" for h in hits[:3])
        text = ("The indexed papers do not answer this question: no abstract in the collection is close enough to it."
                + (f" The closest papers are {closest}." if closest else ""))
        return Answer(answer=text, refused=True, citations=[], passages=hits, mode="refusal", **base)

    def _metadata(self, intent: intents.Intent, hits: list[Hit], base: dict[str, Any]) -> Answer:
        """Author and subject-area questions, answered from the papers' records, not by the model."""
        if intent.kind == "authors_of":
            top = hits[0]
            sentences = [(f"“{top.title}” was written by {_join(top.authors) or 'authors not listed in the catalogue'}", [0])]
            return self._compose(sentences, hits[:1], base, "metadata", passages=hits)
        if intent.kind == "papers_by":
            # No counts in the text: every number an answer shows must come from a cited record.
            return _listing(f"Indexed papers by {_join(intent.authors)}", hits, [], base, hits)
        labelled = [h for h in hits if intent.area.casefold() in h.area.casefold()]
        related = [h for h in hits if h not in labelled and relevant(base["rewritten_query"], h, self.settings.gate_threshold)]
        return _listing(f"Indexed papers listed under {intent.area}", labelled, related[:3], base, hits)

    def _compare(self, hits: list[Hit], base: dict[str, Any]) -> Answer:
        rows, citations = [], []
        for n, h in enumerate(hits, 1):
            picked = {aspect: _aspect_sentence(h, aspect) for aspect in ("problem", "method", "results")}
            rows.append({"n": n, "paper_id": h.paper_id, "title": h.title} | {a: s.text for a, s in picked.items()})
            chosen = sorted(set(picked.values()), key=lambda s: s.start)
            citations.append(_citation(n, h, [s.text for s in chosen], [(s.start, s.end) for s in chosen]))
        header = "| | " + " | ".join(f"[{r['n']}] {r['title']}" for r in rows) + " |"
        lines = [header, "|---" * (len(rows) + 1) + "|"]
        for aspect in ("problem", "method", "results"):
            cells = [f"{_cell(r[aspect])} [{r['n']}]" for r in rows]
            lines.append(f"| {aspect} | " + " | ".join(cells) + " |")
        return Answer(answer="\n".join(lines), refused=False, citations=citations, passages=hits, mode="comparison",
                      table=rows, **base)

    def _compose(self, sentences: list[tuple[str, list[int]]], cited_from: Sequence[Hit], base: dict[str, Any],
                 mode: str, passages: Sequence[Hit] | None = None) -> Answer:
        """Number citations in order of first use and build the answer text with [n] markers."""
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
            ev = evidence(claims, hit) if mode in ("generated", "extractive") else []
            citations.append(_citation(number[k], hit, [s.text for s in ev], [(s.start, s.end) for s in ev]))
        return Answer(answer=" ".join(parts), refused=False, citations=citations, passages=list(passages or cited_from),
                      mode=mode, **base)

    def _finish(self, answer: Answer, timings: dict[str, float], t0: float) -> Answer:
        answer.timings_ms = {**timings, "total_ms": (time.perf_counter() - t0) * 1000}
        return answer


# Acronyms too common in ML to show that a question names a specific paper.
_GENERIC_NAMES = {"llm", "llms", "ai", "ml", "nlp", "gpu", "gpus", "cpu", "rl", "gnn", "gnns", "cnn", "cnns", "rlhf",
                  "dpo", "sota", "api", "iclr", "icml", "neurips"}
_GENERIC_WORDS = set(tokenize("which what how paper papers work research method methods approach any there about "
                              "new model models learning machine study"))


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
    words = [w for w in dict.fromkeys(tokenize(question)) if w not in _GENERIC_WORDS]
    source = set(tokenize(text))
    coverage = sum(w in source for w in words) / len(words) if words else 0.0
    return hit.dense_score >= threshold * 0.6 and coverage >= 0.6


def _listing(lead: str, listed: list[Hit], related: list[Hit], base: dict[str, Any], passages: list[Hit]) -> Answer:
    """One sentence naming each paper with its own citation, e.g. "Indexed papers by X: A [1]; B [2]."."""
    cited = listed + related
    text = f"{lead}: " + "; ".join(f"“{h.title}” [{i}]" for i, h in enumerate(listed, 1))
    if related:
        text += "; related by content: " + "; ".join(
            f"“{h.title}” [{i}]" for i, h in enumerate(related, len(listed) + 1))
    citations = [_citation(i, h, [], []) for i, h in enumerate(cited, 1)]
    return Answer(answer=text + ".", refused=False, citations=citations, passages=passages, mode="metadata", **base)


def _citation(n: int, h: Hit, ev: list[str], spans: list[tuple[int, int]]) -> Citation:
    return Citation(n, h.paper_id, h.title, h.authors, h.area, h.url, h.abstract, ev, spans)


def _join(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _without_injections(hit: Hit) -> Hit:
    """The hit with sentences that read like instructions to a model removed from its text and abstract."""
    if not _INJECTION.search(hit.abstract):
        return hit
    clean = lambda t: " ".join(s.text for s in split_sentences(t) if not _INJECTION.search(s.text))  # noqa: E731
    return Hit(**{**asdict(hit), "text": clean(hit.text), "abstract": clean(hit.abstract)})


def _extractive(question: str, passages: Sequence[Hit], embed: Callable[[list[str]], Any] | None = None,
                need_number: bool = False, pointers_ok: bool = True) -> list[tuple[str, list[int]]]:
    """The sentence of each of the best abstracts (at most two) closest to the question, cited.

    Closeness is MiniLM similarity when an embedder is given, plus a little word overlap.
    Sentences that only point to code or data are skipped unless ``pointers_ok``.
    """
    terms = set(tokenize(question))
    candidates: list[tuple[int, str]] = []
    for i, hit in enumerate(passages[:2]):
        for s in split_sentences(_without_injections(hit).abstract):
            if (not need_number or numbers(s.text)) and (pointers_ok or not is_pointer(s.text)):
                candidates.append((i, s.text))
    if not candidates:
        return []
    overlap = [len(set(tokenize(t)) & terms) / (len(set(tokenize(t))) ** 0.5 + 1) for _, t in candidates]
    if embed is not None:
        vectors = embed([question] + [t for _, t in candidates])
        scores = [float(vectors[0] @ v) + 0.05 * o for v, o in zip(vectors[1:], overlap)]
    else:
        scores = overlap
    best: dict[int, tuple[float, str]] = {}
    for (i, text), score in zip(candidates, scores):
        if i not in best or score > best[i][0]:
            best[i] = (score, text)
    return [(best[i][1], [i]) for i in sorted(best)]


_ASPECT_CUES = {
    "problem": re.compile(r"\b(challeng|problem|however|limit|difficult|suffer|remain|costly|expensive|bottleneck|lack)", re.I),
    "method": re.compile(r"\b(we (?:propose|introduce|present|develop|design)|our (?:method|approach|framework)|"
                         r"this (?:paper|work) (?:proposes|introduces|presents))", re.I),
    "results": re.compile(r"\b(results?|experiments?|outperform|achiev|improv|speed|demonstrat|show that|empirical)", re.I),
}


def _aspect_sentence(hit: Hit, aspect: str) -> Any:
    """The abstract sentence that best states the paper's problem, method or results."""
    sentences = split_sentences(_without_injections(hit).abstract)
    sentences = [s for s in sentences if not is_pointer(s.text)] or sentences  # a code link is no result
    if not sentences:
        return split_sentences(hit.title or "Untitled")[0]
    cue = _ASPECT_CUES[aspect]
    matching = [s for s in sentences if cue.search(s.text)]
    if aspect == "problem":
        return matching[0] if matching and matching[0].start < len(hit.abstract) // 2 else sentences[0]
    if aspect == "method":
        return matching[0] if matching else sentences[min(1, len(sentences) - 1)]
    return matching[-1] if matching else sentences[-1]
