"""A message as the requests it holds: "is there one on backdoor defenses? does it need retraining?"
asks the index for a paper, then asks that paper a question; "something for ViTs on a phone, and
something for fine-tuning with little GPU memory" asks for two papers.

Answered as one question, such a message got one of its requests answered, or the follow-up's
"it" was read as the paper of the last answer: of the 160 turns of the conversations c211-c250, 45
were written in two sentences or more and 30 of those were not judged GOOD. Here a message is cut into
sentences, each sentence is read as what it asks (``Part``: a search of the index, a question
about papers, or only context), and the parts that need answers of their own are grouped into
requests (``Request``), each answered in turn by the pipeline; a message holding one request is
left whole, so everything a single question gets stays as it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.evidence import TOPIC_CHANGE
from assistant.intents import COMPARE, FOCUS_POINTER

# A sentence ends at "?" or "!", or at "." not closing an abbreviation ("e.g."), an ellipsis ("lottery
# tickets... can you find them") or a number ("1.8x"); user messages are often in lower case, so no
# capital is needed after it.
_BOUNDARY = re.compile(r"(?<!\.)(?:[?!]+|(?<![.\d])\.(?!\.))(?=\s+\S)")
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|et al|a\.k\.a|w\.r\.t|approx|fig|eq|sec)\.?$", re.IGNORECASE)
# Two requests for papers joined inside one sentence: "something for A, and something for B"
_SECOND_SEARCH = re.compile(
    r",?\s+(?:and|also|plus)\s+(?=(?:also\s+)?(?:something|anything|one|a paper|any papers?|papers?)\s+"
    r"(?:on|about|for|regarding|that|which|where|like)\b|"
    # "is there any theory on why llm agents work ..., and is there an agent for 3d scenes" (c464.4
    # answered the second search only)
    r"(?:is|are) there\s+(?:also\s+)?(?:a|an|any|one|some|something|anything)\b)",
    re.IGNORECASE,
)
# What opens a request: words that only take a breath ("ok", "and", "last thing,") come first.
_OPENER = (
    r"^\W*(?:(?:and|so|ok|okay|oh|hm+|then|also|now|but|cool|nice|great|thanks|right|alright|last|"
    r"last thing|one more thing|one more|two more|next|lastly|finally|random one|separately|and separately)\b\W*)*"
)
# A request for papers ("is there one on ...", "anything about ...", "what about ...", "any papers on ..."),
# at the start or after a clause ("the explainer one got me curious, anything else on ...?")
_ASKS_FOR_PAPERS = re.compile(
    r"(?:" + _OPENER + r"|[,;:\-–—]\s*)(?:"
    r"(?:is|are) there\s+(?:also\s+|still\s+)?(?:a|an|any|some|one|something|anything|another|other|more|papers?|work)\b|"
    r"(?:do|did) (?:you|we) have\s+(?:any|a|an|something|anything|papers?)\b|"
    r"(?:have you got|got)\s+(?:any|a|an|something|anything)\b|"
    r"any(?:thing)?\s+(?:else\s+|other\s+|more\s+)?(?:papers?\s+|works?\s+|research\s+)?(?:on|about|for|regarding|covering|"
    r"related to|dealing with|that|which|where|in|like|similar)\b|"
    r"any\s+(?:other\s+)?(?:[\w-]+\s+){0,3}?(?:papers?|works?|ones?)\b|"
    r"something\s+(?:else\s+)?(?:on|about|for|regarding|that|which|like|similar)\b|"
    r"(?:what|how) about\b|"
    r"(?:what'?s|what is|whats) (?:out )?there\s+(?:on|about|for)\b|"
    r"(?:which|what)\s+(?:other\s+)?papers\b|"
    r"papers?\s+(?:on|about)\b|"
    r"(?:can|could) you (?:find|recommend|suggest|point me to)\s+(?:me\s+)?(?:a|an|any|some)?\s*(?:papers?|ones?|something|anything)\b"
    r")|"
    # "seismic / subsurface imaging, anything?": the topic first, the request after it
    r"[,;:\-–—]\s*(?:anything|any papers?|anything here|anything on (?:that|this|it))\W*$",
    re.IGNORECASE,
)
# "anything on contrastive continual learning? and on backdoor defenses", "is there a theory paper on
# A? and one on B?": a second search said with the request left out (c409.4, c407.4 answered the first only)
_ELLIPTIC_SEARCH = re.compile(
    r"^\W*(?:and|also|plus)\s+(?:also\s+)?(?:one\s+|something\s+|anything\s+|papers?\s+)?(?:on|about|regarding)\s+"
    r"(?!(?:which|what|how|the|it|its|their|them|those|these|both|each|that|this|his|her|either)\b)\w",
    re.IGNORECASE,
)
# "more general: fine-tuning pretrained models so they hold up under OOD shift?": a wider topic than the one
# shown, asked of the index (c667.3 was read as a question about the paper shown)
_WIDER = re.compile(
    r"^\W*(?:ok\W+|so\W+)?(?:more general(?:ly)?|more broadly|broader|wider|in general)\s*[:,–—-]\s*\w", re.IGNORECASE
)
_ELLIPTIC_LEAD = re.compile(
    r"^\W*(?:and|also|plus)\s+(?:also\s+)?(?:one|something|anything|papers?)?\s*", re.IGNORECASE
)
# "what about the diffusion tempering paper, is that a diffusion model too?": a paper named by what it
# is called is asked about, wherever it was shown ("is there one on X" asks for one)
NAMES_A_PAPER = re.compile(r"\bthe (?:[\w-]+ ){1,6}(?:paper|one)\b", re.IGNORECASE)
# "... and separately, transformers that generalize ...": a request for papers with no verb of its own
_SEPARATELY = re.compile(r"^\W*(?:and\s+)?(?:separately|also|then)\s*[,:]\s+\S", re.IGNORECASE)
# A question: it ends with "?" or opens with a question word or a request to show or tell.
_QUESTION = re.compile(
    _OPENER + r"(?:which|what|what's|whats|who|whom|whose|how|why|when|where|is|are|was|were|does|do|did|"
    r"can|could|would|should|will|has|have|had|tell|explain|describe|give|show|list|summari[sz]e|compare)\b",
    re.IGNORECASE,
)
# "X, right?", "it's a transformer, isn't it?": a premise the user wants confirmed, said before what
# they ask ("there's also one about fitting ode parameters, right? what's the trick?")
_PREMISE = re.compile(
    r"(?:,?\s*(?:right|correct|no|isn'?t it|aren'?t they|i think|i believe)\s*\?+)\s*$", re.IGNORECASE
)
_WORD = re.compile(r"[A-Za-z][\w'-]*")
# A part of fewer words asks nothing of its own: "what?", "numbers?", "any code?" join the part before
MIN_WORDS = 3
# A request whose topic is only a pointer ("is there one on that?", "anything for it?") asks again
# what the sentence before it asked.
_ONLY_POINTS = re.compile(
    r"\b(?:on|about|for|like) (?:that|this|it|them|these|those)\W*$|^\W*(?:any|anything)\W*(?:here|else)?\W*$",
    re.IGNORECASE,
)

_BARE_FACT = re.compile(
    r"^\W*(?:and\s+)?(?:what|which)\s+(?:datasets?|benchmarks?|baselines?|tasks|data|models?|metrics?|hardware|"
    r"assumptions?|speed-?ups?)\W*$",
    re.IGNORECASE,
)

SEARCH, QUESTION, CONTEXT = "search", "question", "context"


@dataclass(frozen=True)
class Part:
    """One sentence of a message and what it asks: ``search`` (papers on a topic), ``question``
    (something of papers, those in focus or those just found) or ``context`` (nothing asked)."""

    text: str
    kind: str


@dataclass(frozen=True)
class Request:
    """What one answer answers: the text of its parts, and whether it searches the index (a
    search is not asked of the papers in focus; ``past_shown`` asks past the papers shown)."""

    text: str
    search: bool
    past_shown: bool = False


# "looking for two things: A, and B", "two more things: I need A, and separately B": the user says
# how many requests follow
_ANNOUNCED = re.compile(
    r"\btwo (?:more |other |different |separate )?(?:things|questions|requests|topics|needs)?\s*:\s*|"
    # "two others i half remember: one on A, one on B" (c649.3 looked up the first alone); not "two things im
    # reading up on: A, and B", one search of two subjects
    r"\btwo (?:others|other papers|papers|ones)(?:\s+(?:i|im|i'm|i’m|we)\s[^:?]{0,30})?\s*:\s*",
    re.IGNORECASE,
)
_ANNOUNCED_BREAK = re.compile(
    r",?\s+and\s+(?:separately|also)?,?\s*|;\s*|,\s+(?=(?:and\s+)?(?:one|the other|another)\s+(?:on|about|for)\b)",
    re.IGNORECASE,
)
# "one on why pruning at initialization fails": a paper told by its subject, asked for
_ONE_ON = re.compile(r"^\W*(?:and\s+)?(?:one|the other)\s+(?=(?:on|about|for)\b)", re.IGNORECASE)


def sentences(message: str) -> list[str]:
    """The sentences of a message, split where a request ends; two requests for papers joined by
    "and" inside one sentence are two, and so are two things the message announces."""
    pieces: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(message):
        end = match.end()
        if _ABBREVIATION.search(message[start:end]):
            continue
        pieces.append(message[start:end])
        start = end
    pieces.append(message[start:])
    out: list[str] = []
    for piece in (p.strip() for p in pieces):
        if not piece:
            continue
        cut = _SECOND_SEARCH.search(piece)
        if cut is not None and not _ASKS_FOR_PAPERS.search(piece[: cut.start()]):
            cut = None  # "papers on A, and something B does" asks once
        told = _ANNOUNCED.search(piece)
        if cut is None and told is not None:
            cut = _ANNOUNCED_BREAK.search(piece, told.end())
        if cut is None:
            out.append(piece)
        else:
            out.extend(p for p in (piece[: cut.start()].strip(" ,;"), piece[cut.end() :].strip()) if p)
    return out


def read(sentence: str, announced: bool = False) -> Part:
    """What one sentence asks; ``announced``: the message said that several requests follow, so a
    sentence naming what the user needs asks for papers on it."""
    text = sentence.strip()
    if _PREMISE.search(text) or (TOPIC_CHANGE.match(text) and not TOPIC_CHANGE.sub("", text).strip(" .,:;!?-–—")):
        # "ok diff q. memory efficient finetuning ...?": the change of subject alone asks nothing; it opens
        # the request after it (c631.3 searched for "ok diff q." and refused)
        return Part(text, CONTEXT)
    if (
        TOPIC_CHANGE.match(text)
        or _SEPARATELY.match(text)
        or _ELLIPTIC_SEARCH.match(text)
        or _WIDER.match(text)
        or (announced and not FOCUS_POINTER.search(text))
    ):
        return Part(text, SEARCH)  # "different area: imaging underground ...", "and separately, X"
    request = _ASKS_FOR_PAPERS.search(text)
    if (
        request is not None
        and not FOCUS_POINTER.search(_without_relatives(text))
        and not NAMES_A_PAPER.search(text, request.start())
    ):
        return Part(text, SEARCH)
    if text.endswith("?") or _QUESTION.match(text):
        return Part(text, QUESTION)
    return Part(text, CONTEXT)


def _without_relatives(text: str) -> str:
    """The sentence without pointers that only point inside it: "a model that someone sneaked a
    trigger into" or "a paper like that" are no papers of the conversation."""
    text = re.sub(r"\b(?:that|which)\s+(?=[a-z])(?!one\b|paper\b)", " ", text, flags=re.IGNORECASE)
    # "when each data point is a covariance matrix": "each" of a thing that is no paper counts it
    return re.sub(r"\beach\s+(?!(?:one|paper|of|method|work|approach)\b)(?=[a-z])", " ", text, flags=re.IGNORECASE)


def parts(message: str) -> list[Part]:
    """The message's sentences as parts; context and parts too short to ask anything join a
    neighbour (the next one when they open the message, else the one before)."""
    said = sentences(message)
    announced = len(said) >= 2 and _ANNOUNCED.search(said[0]) is not None
    read_parts = [read(s, announced) for s in said]
    merged: list[Part] = []
    pending = ""
    for part in read_parts:
        # "...? what datasets": a fact asked in two words is a question of its own after a search, asked of
        # what the search finds (c667.3 searched for "datasets" with the topic)
        short = (
            len(_WORD.findall(part.text)) < MIN_WORDS
            and part.kind != SEARCH
            and not (merged and merged[-1].kind == SEARCH and _BARE_FACT.match(part.text))
        )
        if part.kind == CONTEXT or short:
            if merged:
                last = merged[-1]
                merged[-1] = Part(f"{last.text} {part.text}", last.kind)
            else:
                pending = f"{pending} {part.text}".strip()
            continue
        if part.kind == SEARCH and merged and _ONLY_POINTS.search(part.text):
            # "why does sgd end up with simple solutions? any paper on that": one request
            last = merged[-1]
            merged[-1] = Part(f"{last.text} {part.text}", SEARCH if last.kind == QUESTION else last.kind)
            continue
        merged.append(Part(f"{pending} {part.text}".strip(), part.kind))
        pending = ""
    if pending:
        if merged:
            merged[-1] = Part(f"{merged[-1].text} {pending}", merged[-1].kind)
        else:
            merged.append(Part(pending, CONTEXT))
    return merged


_PAST_SHOWN = re.compile(r"\b(?:another|other|others|else|besides|more)\b", re.IGNORECASE)
# "is there something similar for diffusion models?": what is like the paper shown is another paper
# (c391.3 showed Lookahead decoding again, not ParaTAA)
_SIMILAR = re.compile(
    r"\b(?:something|anything|one|a paper|papers?|work)\s+(?:similar|like (?:that|this|it))\b", re.IGNORECASE
)
# What only says that a request for papers follows ("and separately, X"): no topic word of it
_LEAD = re.compile(r"^\W*(?:and\s+)?(?:separately|also|then)\s*[,:]\s*", re.IGNORECASE)


def requests(message: str) -> list[Request]:
    """The requests a message holds, in order; [] when it holds one (it is answered whole).

    Each search is a request of its own; the questions after it are one request, asked of what
    the search finds; the questions before any search are one request, asked of the papers in
    focus (several questions of the same papers are answered together, line by line per paper).
    A question after a search that compares ("how is its goal different from that one?") sets
    the paper found against one shown: the message is answered whole."""
    found = parts(message)
    if not any(p.kind == SEARCH for p in found):
        return []
    grouped: list[Part] = []
    for part in found:
        if part.kind == QUESTION and grouped and grouped[-1].kind == QUESTION:
            grouped[-1] = Part(f"{grouped[-1].text} {part.text}", QUESTION)
        else:
            grouped.append(part)
    if len(grouped) < 2:
        return []
    if any(p.kind == QUESTION and COMPARE.search(p.text) for p in grouped[1:]):
        # "is there a paper on X? how is its goal different from that one?": the paper found and the
        # one in focus, compared; the pipeline reads that from the whole message
        return []
    out = []
    announced = _ANNOUNCED.search(grouped[0].text) is not None
    for part in grouped:
        # "looking for two things: A": what it searches for is A ("two more" asks past nothing)
        told = _ANNOUNCED.search(part.text)
        text = part.text[told.end() :] if told is not None and part.kind == SEARCH else part.text
        text = (_LEAD.sub("", text) or text) if part.kind == SEARCH else text
        text = _ONE_ON.sub("is there a paper ", text) if part.kind == SEARCH and announced else text
        if part.kind == SEARCH and _ELLIPTIC_SEARCH.match(text):
            # "and on backdoor defenses" asks what "anything on backdoor defenses" asks
            text = _ELLIPTIC_LEAD.sub("anything ", text, count=1)
        # "ok other thing: anything on ...?": the subject changes; no paper shown is set aside
        asks_past = _PAST_SHOWN.search(TOPIC_CHANGE.sub("", text)) or _SIMILAR.search(text)
        out.append(Request(text, part.kind == SEARCH, bool(part.kind == SEARCH and asks_past)))
    return out


def starts_over(message: str) -> bool:
    """Is the whole message one search for papers that asks nothing of the papers shown ("what
    about catching the moment a data stream changes?", "is there one on federated learning?")? It
    is answered from the index, not from the conversation's papers."""
    found = parts(message)
    return len(found) == 1 and found[0].kind == SEARCH and not _PAST_SHOWN.search(found[0].text)
