"""Two questions in one message: "Did Stefanie Jegelka have a paper here? What was it about?",
"Which of the two involves game theory? and who wrote each?".

Each part is a different kind of question (who wrote it, and what it does), answered by a
different shape; the second part points at what the first part found ("it", "each"). So the
parts are answered in turn, the second with the first as its previous turn, and the answers are
joined under one set of citation numbers. Two questions of the same kind ("Why has nobody ...?
Is there a theoretical argument ...?") stay one question: the lookup answers each part itself.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from assistant.facets import ASKS_CODE, NAMING_ONE, asked
from assistant.records import Answer, Citation

# The kinds that answer from the paper's record (authors, area) rather than its abstract: a
# message that pairs one of them with a question about the content needs two answers.
RECORD_KINDS = frozenset({"authors_of", "papers_by", "area"})

_BREAK = re.compile(r"(?<=\?)\s+(?:and\s+|also\s+)?(?=\w)", re.IGNORECASE)
_MIN_WORDS = 3  # "and who wrote each?" has three; "Why?" alone is no question of its own


# "who wrote it, and is the code out?", "how many benchmarks did they test and is the code out?": a
# second question about the paper's record or its code, joined by "and" inside one sentence.
# What the paper is about, asked after a fact: "... and whats the main idea".
_GIST = (
    r"what(?:'s|’s|s| is| are)\s+(?:the|its|their)\s+(?:main |key |core |basic |big |general )?"
    r"(?:idea|ideas|contribution|contributions|point|takeaway)\b"
)
_AND_THEN = re.compile(
    r"(?:,\s*|\s+)(?:and|&)\s+(?=(?:is|are|was|were|has|have|did|do|does|where(?:'s| is)|any|a)\s+(?:\w+\s+){0,2}code\b|"
    r"who\s+(?:wrote|are the authors|authored|were the authors)\b|" + _GIST + ")",
    re.IGNORECASE,
)
# "how big were the models they tried, and can you actually steer what the model generates with those
# codes?": a second yes/no question inside one sentence, split only when the two ask different kinds of
# fact (``needs_two``); asked as one, the size was looked up as the word "big" (c313.2)
_AND_ASKS = re.compile(
    r",\s*(?:and|&)\s+(?=(?:can|could|does|do|did|is|are|was|were|has|have|will|would)\s+\w+\s+\w+|"
    # "who wrote the paper ..., and whats the key tool" (c460.1 answered the authors alone)
    r"what(?:'s|’s| is| are)\s+\w+|"
    # "which one is for long docs, and what did they evaluate on" (c478.2 asked it of every paper)
    r"what (?:did|does|do) (?:they|it)\b|"
    # "what do they each evaluate on, and how much longer context does the reading one handle" (c464.3)
    r"how (?:much|many|long|big|large|fast|well)\b(?=.*\bthe [\w-]+ (?:one|paper)\b))|"
    # "how big were the lms they tried and can you steer them with it": a question opening after "and"
    r"\s+and\s+(?=(?:can|could|does|do|did|is|are)\s+(?:you|i|we|it|they|either|both|there)\b)|"
    # "whats the main claim of each + what math do they lean on": "+" joins two questions (c448.2)
    r"\s+[+&]\s+(?=(?:what|how|who|which|does|do|did|is|are|can|could)\b|"
    # "main result + the math behind it?": the second fact named after "+" (c682.3 answered the math alone)
    r"the\s+(?:[\w-]+\s+){0,2}?(?:math|theory|proofs?|methods?|data(?:sets?)?|code|numbers|results?|assumptions?|"
    r"baselines?|limitations?)\b)",
    re.IGNORECASE,
)
# The gist of the paper the first part picked: a summary, which a sentence on the first part's fact
# does not give (c406.3 was answered "does not mention “atari results and whats”" of every paper).
# "Does that author appear on any other paper here? If so, what is it about?": the paper found, then its
# gist (asked as one, c662.3 listed the paper and said nothing of it)
_ASKS_GIST = re.compile(
    r"^\W*(?:(?:and|if so|so)\W+)*(?:"
    + _GIST
    + r"|what(?:'s|’s|s| is| are| was)\s+(?:it|they|that|that one|that paper)"
    r"\s+about\W*$)",
    re.IGNORECASE,
)


def asks_code(question: str) -> bool:
    """Does the question ask whether the code is out ("is the code out?", "any code?")?"""
    return bool(ASKS_CODE.search(question))


def parts(question: str) -> list[str]:
    """The two questions of a message asking two ("...? and who wrote each?", "who wrote it, and is
    the code out?"), else []."""
    text = question.strip()
    pieces = [p.strip() for p in _BREAK.split(text) if p.strip()]
    if len(pieces) != 2:
        joint = (
            _AND_THEN.search(text) or _AND_ASKS.search(text) or (_SELECTS.match(text) and _AND_OF_PICKED.search(text))
        )
        if joint is None:
            return []
        pieces = [text[: joint.start()].strip().rstrip(",") + "?", text[joint.end() :].strip()]
    if any(len(p.split()) < _MIN_WORDS for p in pieces):
        return []
    return [pieces[0], pieces[1][0].upper() + pieces[1][1:]]


def turn(question: str, answer: Answer) -> dict[str, Any]:
    """``answer`` as a history item, so the next part can point at what it was about: after a
    selection ("which one is for long docs?"), only the papers it picked, when it picked some ("and
    what did they evaluate on" is asked of those; of all four agent papers shown, c478.2)."""
    focus = list(answer.focus)
    picked = [e for e in focus if e.get("selected")]
    if _SELECTS.match(question) and picked:
        ids = {e.get("paper_id") for e in picked}
        return {
            "question": question,
            "citations": [c.to_dict() for c in answer.citations if c.paper_id in ids],
            "focus": picked,
        }
    return {"question": question, "citations": [c.to_dict() for c in answer.citations], "focus": focus}


# A sentence of the second part that the first part already showed is said once: read twice it
# answers nothing new and hides what the second part adds (13 of the 26 judged answers that said a
# sentence twice were PARTIAL or BAD, e.g. c214.4, c232.4). Short sentences ("Yes.") and notes that
# the abstract does not say something are the second part's own answer and stay.
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"(])")
_LINE_HEAD = re.compile(r"^(?P<head>(?:- )?(?:“[^”]+”|[^:\n]{1,80}?)(?:\s*\[\d+\])?:\s+)(?P<body>.+)$")
_SHORT = 6
_NOTE = re.compile(r"\bthe abstract does not\b|\bdoes not (?:mention|say)\b", re.IGNORECASE)


def _said(sentence: str) -> str:
    """A sentence reduced to its words, so the same sentence cited under two numbers matches."""
    bare = re.sub(r"\[\d+\]", " ", sentence)
    return " ".join(re.findall(r"\w+", bare.lower()))


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text) if s.strip()]


def _not_shown(second: str, first: str) -> str:
    """``second`` without the sentences ``first`` already showed; a line left with no sentence of
    its own is dropped with its head (“Title” [n]:), unless other lines of its per-paper list stay:
    then it says that the sentence above answers."""
    shown = {_said(s) for line in first.splitlines() for s in _sentences(_body(line))}
    shown.discard("")
    lines: list[str | None] = []
    pointed: list[int] = []  # lines of a per-paper list whose every sentence the first part showed
    for line in second.splitlines():
        if line.startswith("|") or not line.strip():
            lines.append(line)
            continue
        head, body = _split_head(line)
        sentences = _sentences(body)
        kept = [s for s in sentences if len(s.split()) < _SHORT or _NOTE.search(s) or _said(s) not in shown]
        if kept:
            # "“PiT” [1]: This paper proposes PiT ... . Mobile Attention [2] proposes ...": with the first
            # paper's sentence gone, what is left speaks of another paper under its own name, not under
            # the first one's head (c521.3 put Mobile-Attention's sentence under PiT's title)
            cites = re.findall(r"\[(\d+)\]", kept[0])
            ours = re.findall(r"\[(\d+)\]", head)
            if kept[0] != sentences[0] and cites and ours and cites[0] != ours[0]:
                head = "- " if head.startswith("- ") else ""
            lines.append(head + " ".join(kept))
        else:
            if head.startswith("- "):
                pointed.append(len(lines))
            lines.append(None)
    if any(line and line.startswith("- ") for line in lines):
        # "do both of them use diffusion?" after EquiCSP's diffusion sentence: each paper of the list
        # keeps its line, pointing at the sentence above, so none seems left unanswered (c240.2, c411.4)
        for i in pointed:
            lines[i] = _split_head(second.splitlines()[i])[0] + "as quoted above."
    return re.sub(r"\n{3,}", "\n\n", "\n".join(line for line in lines if line is not None)).strip()


def _split_head(line: str) -> tuple[str, str]:
    m = _LINE_HEAD.match(line)
    return (m.group("head"), m.group("body")) if m else ("", line)


def _body(line: str) -> str:
    return _split_head(line)[1]


def joined(question: str, first: Answer, second: Answer) -> Answer:
    """One answer from the answers to the two parts: the second's citations renumbered after the
    first's (a paper cited by both keeps its first number), its text and table rewritten to match,
    and no sentence the first part showed said again."""
    second_text = _not_shown(second.answer, first.answer) if first.answer.strip() else second.answer
    dropped = second_text != second.answer.strip()
    second = dataclasses.replace(second, answer=second_text, table=second.table if second_text else [])
    cited_again = {int(n) for n in re.findall(r"\[(\d+)\]", second.answer)}
    for row in second.table:
        cited_again |= {int(n) for v in row.values() if isinstance(v, str) for n in re.findall(r"\[(\d+)\]", v)}
    numbers = {c.paper_id: c.n for c in first.citations}
    citations: list[Citation] = list(first.citations)
    renumber: dict[int, int] = {}
    for c in second.citations:
        if dropped and c.n not in cited_again and c.paper_id not in numbers:
            continue  # its every sentence was shown by the first part
        if c.paper_id in numbers:
            renumber[c.n] = numbers[c.paper_id]
            continue
        n = len(citations) + 1
        numbers[c.paper_id] = renumber[c.n] = n
        citations.append(dataclasses.replace(c, n=n))

    def rewrite(text: str) -> str:
        return re.sub(r"\[(\d+)\]", lambda m: f"[{renumber.get(int(m.group(1)), int(m.group(1)))}]", text)

    table = [{k: rewrite(v) if isinstance(v, str) else v for k, v in row.items()} for row in second.table]
    seen = {entry.get("paper_id") for entry in first.focus}
    focus = list(first.focus) + [e for e in second.focus if e.get("paper_id") not in seen]
    passages = list(first.passages) + [
        h for h in second.passages if h.paper_id not in {p.paper_id for p in first.passages}
    ]
    return dataclasses.replace(
        first,
        question=question,
        answer=f"{first.answer}\n\n{rewrite(second.answer)}".strip(),
        refused=first.refused and second.refused,
        citations=citations,
        passages=passages,
        table=list(first.table) + table,
        focus=focus,
        trace=list(first.trace) + list(second.trace),
        draft="\n\n".join(d for d in (first.draft, second.draft) if d),
    )


def needs_two(kinds: Sequence[str], pieces: Sequence[str] = ()) -> bool:
    """Do parts of these kinds need two answers (one about the record, one about the content), or
    does one part alone ask for the code (its link is one line of the abstract, the other part's
    answer another)?"""
    if len(pieces) == 2 and asks_code(pieces[1]) != asks_code(pieces[0]):
        return True
    if len(pieces) == 2 and _ASKS_GIST.match(pieces[1]) and not _ASKS_GIST.match(pieces[0]):
        return True  # "which of those has atari results and whats the main idea?": the fact, then the gist
    if len(pieces) == 2 and _SELECTS.match(pieces[0]) is None:
        # "how big were the models ..., and can you steer ...?": two kinds of fact, each answered by
        # its own sentence (one answer for both found a sentence for one and called the other unsaid)
        first, second = ({f.name for f in asked(p)} for p in pieces)
        if first and second and not first & second:
            return True
    if len(pieces) == 2 and asked(pieces[0]) and not asked(pieces[1]) and _YES_OR_NO.match(pieces[1]):
        # "which envs did the robust one use? and can i plug in my own algo": a fact, then whether the
        # paper allows something; asked as one, the fact was left out (c604.2)
        return True
    if len(pieces) == 2 and _OF_EACH.search(pieces[0]) and NAMING_ONE.search(pieces[1]):
        # "what do they each evaluate on, and how much longer context does the reading one handle": the
        # first part is asked of every paper shown, the second of the one it names (c464.3 answered both
        # of the reading agent alone)
        return True
    if (
        len(pieces) == 2
        and _SELECTS.match(pieces[0])
        and (
            {f.name for f in asked(pieces[1])} - {f.name for f in asked(pieces[0])}
            # "which one has experiments n code? how many benchmarks did they look at": an amount of what
            # the selection picked (asked as one, neither paper said how many, c448.3)
            or (len(kinds) == 2 and kinds[1] == "quantity" and kinds[0] != "quantity")
            # "are any of them theory rather than systems papers? what do they prove": what the picked
            # papers hold, asked once they are picked (asked as one, c718.4 gave the selection alone)
            or _WHAT_THEY_DO.match(pieces[1]) is not None
        )
    ):
        # "which one is for long docs, and what did they evaluate on": a fact of the paper the selection
        # picks, asked once it is picked (asked as one, every paper shown was asked it, c478.2)
        return True
    listing = bool(kinds[:1] == ["list"] or (pieces and _PAPERS_ASKED.match(pieces[0])))
    if len(pieces) == 2 and listing and _ASKS_OF_EACH.match(pieces[1]) and asked(pieces[1]):
        # "other rl papers + what each one is evaluated on": the list, then the fact asked of each paper
        # it shows (asked as one, c566.4 was refused)
        return True
    return len(set(kinds)) == 2 and bool(RECORD_KINDS & set(kinds))


# "other rl papers", "any diffusion papers": papers asked for by a topic and nothing else
_PAPERS_ASKED = re.compile(r"^\W*(?:(?:any|other|more|some|all|the)\s+)*(?:[\w-]+\s+){1,3}papers\W*$", re.IGNORECASE)
_OF_EACH = re.compile(r"\b(?:each|they|them|both|all of them|either)\b", re.IGNORECASE)
# "what each one is evaluated on" after a list: a question asked of every paper listed; not "either on the
# vision side or about communication cost", which narrows the list (c550.3 was split on it)
_ASKS_OF_EACH = re.compile(
    r"^\W*(?:and\s+)?(?:what|which|how|where|does|do|did|is|are)\b[^?]*\b(?:each|they|them|both|all of them)\b",
    re.IGNORECASE,
)
# "which of these draws on social choice theory, and what specific result does it invoke?": after a selection,
# a question of what it picks (c652.2 gave the selection alone); asked as one otherwise ("how is the convex
# potential modelled, and what applications do they show?")
_AND_OF_PICKED = re.compile(
    r",\s*(?:and|&)\s+(?=what (?:[\w-]+\s+){1,2}(?:did|does|do) (?:they|it)\b)|"
    # "which one is diffusion-based and what does it fix vs prior models": "it" is the one picked, without a
    # comma too (c755.3 asked both papers what they fix)
    r"\s+and\s+(?=what (?:[\w-]+\s+){0,2}(?:does|did) it\b)",
    re.IGNORECASE,
)
# "... and can i plug in my own algo": a yes/no question about what the paper allows
_YES_OR_NO = re.compile(
    r"^\W*(?:and\s+|also\s+|so\s+)?(?:can|could|does|do|did|is|are|will|would)\s+(?:i|we|you|it|they)\b", re.IGNORECASE
)
# "which of them is federated, and does it ...": a selection, whose answer the second part asks of
_SELECTS = re.compile(
    r"^\W*(?:\w+\W+){0,3}?which\b|^\W*(?:(?:and|so)\W+)?(?:is|are|does|do) (?:any|either|one) of (?:them|those|these)\b",
    re.IGNORECASE,
)
_WHAT_THEY_DO = re.compile(
    r"^\W*(?:(?:and|so)\W+)?what (?:do|does|did) (?:they|it|that one|those|these|the \w+ ones?) "
    r"(?:prove|show|find|claim|derive|guarantee)\W*$",
    re.IGNORECASE,
)
