"""Follow-up questions: which papers in focus a question points at, and its standalone form.

A conversation is about a set of papers. Every answer records the ordered papers it was
about (its focus); "the first two", "which of them", "they", "the other one" resolve against
that list, not against a rewritten query. Rule-based on purpose: a 135M model resolves
references unreliably, and the rules below are cheap, deterministic and explainable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from assistant.evidence import GENERIC, asked_terms, related, words
from assistant.facets import FROM_THE_USUAL
from assistant.text import named_terms


def related_stems(word: str) -> set[str]:
    """The word's stem and the stems of its paraphrase group ("drug": "molecul", "chemic", ...)."""
    return {r for stem in words(word) for r in related(stem)}


Paper = tuple[str, str]  # (paper_id, title)

# Words that point back at something said earlier.
# "what's the effective parameter count there": the paper just shown ("what's (in) there?" asks the index)
THERE_POINTER = r"(?<!what's )(?<!what is )(?<!anything )(?<!anything in )(?<!in )\bthere\W*$"
_ANAPHORA = re.compile(
    r"\b(it|its|it's|they|them|their|theirs|this|that|these|those|he|she|his|her|"
    r"the (?:first|second|third|fourth|fifth|last|latter|former|other|same|above|previous|1st|2nd|3rd|4th|5th) "
    r"(?:one|paper|method|work)s?|"
    r"the (?:first|second|third|fourth|fifth|last|latter|former|other) one|the others|"
    r"the (?:paper|method|approach|model|authors|work|two|three)|both|either|each|which ones?)\b|" + THERE_POINTER,
    re.IGNORECASE,
)
_CONTINUATION = re.compile(r"^\s*(and|also|what about|how about|so|then|but|compared|versus|vs\.?)\b", re.IGNORECASE)
_CONTENT = re.compile(r"[A-Za-z]{4,}")
# A short question that is only two alternatives, with no verb or question word of its own.
_BARE_ALTERNATIVE = re.compile(
    r"^\s*(?!(?:which|what|who|how|is|are|does|do|any|anything|papers?)\b)(?:[\w-]+\s+){0,2}[\w-]+\s+or\s+"
    r"(?:[\w-]+\s*){1,3}\??\s*$",
    re.IGNORECASE,
)
_ORDINAL_WORDS = {"first": 0, "former": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "latter": -1, "last": -1}
# "how many benchmarks did the 2nd one test on" (c562.3 took the first paper)
_ORDINAL_WORDS |= {"1st": 0, "2nd": 1, "3rd": 2, "4th": 3, "5th": 4}
_ORDINAL = re.compile(
    # "the second stage", "the first author": an ordinal before another noun counts that, not papers.
    r"\b(?:the\s+)?(first|second|third|fourth|fifth|former|latter|last|1st|2nd|3rd|4th|5th)\b(?![-\w])(?!\s+(?:two|three|four|authors?|"
    r"times?|stages?|steps?|phases?|parts?|components?|terms?|layers?|rounds?|half|cases?|regimes?|"
    r"experiments?|results?|contributions?|ideas?|sentences?|lines?|rows?|settings?|tasks?|networks?|"
    r"levels?|orders?|moments?)\b)",
    re.IGNORECASE,
)
# "the hare tortoise thing": "thing" names a paper as "one" does (c470.3 asked both papers shown)
# "crystal one - which symmetries does it handle": said first, "the" may be left out (c593.3 took the
# molecule paper shown with it)
_TITLE_WORD_ONE = re.compile(
    r"(?:\bthe |^\W*(?:(?:ok|okay|and|so|now)\W+)?)([a-z][\w-]{3,}|[a-z]{2,3}) (?:one|paper|thing)\b"
)
# "the mixture of experts one": a short joining word may stand between the title's words;
# "the robust mdp one": an acronym of two or three letters is a title word too
_TITLE_WORDS_ONE = re.compile(
    r"\bthe ((?:[a-z][\w-]{3,} (?:(?:of|and|for|in|on|to|with) )?){1,2}[a-z][\w-]{3,}|"
    r"(?:[a-z][\w-]{3,} )?[a-z]{2,3}|[a-z]{2,3} [a-z][\w-]{3,}) (?:one|paper|thing)\b"
)
# "codebook features - how big were the models": a paper's title words typed in lower case before a
# dash or colon name it as "the codebook one" does (c715.3 answered of the explainer shown last)
_TITLE_PREFACE = re.compile(
    r"^(\W*(?:(?:ok|okay|so|and|now)\W+)?)((?:[a-z][\w-]+ ){1,2}[a-z][\w-]+)(\s*(?:-|–|—|:)\s)", re.IGNORECASE
)
# Words that name no title ("the new one", "the other one", "the previous one")
_NOT_TITLE_WORDS = frozenset(
    {"new", "old", "big", "top", "two", "one", "same", "next", "other", "previous", "own", "fun", "odd"}
    # "which one", "that paper", "another one": a pointer said without "the"
    | {"which", "what", "this", "that", "each", "every", "any", "some", "another", "only", "either", "neither"}
)
# Words every abstract may say that name no paper ("the main one", "the whole thing", "the same paper")
_NOT_ABSTRACT_WORDS = frozenset(
    re.findall(
        r"\w+",
        "main best whole only good latest earlier later final original real actual remaining above same previous "
        "second first third last latter former paper method work model approach newer older recent shorter "
        "longer simpler better related prior existing",
    )
)
# "there's also a paper on X, how do the two compare?": the second paper is named, not to be searched for
_NAMES_ANOTHER = re.compile(r"\b(?:also|another|paper|papers|one|work|method)\b")
_JOINING = frozenset({"of", "and", "for", "in", "on", "to", "with"})
_FIRST_N = re.compile(r"\bthe (?:first|top) (two|three|four|five|2|3|4|5)\b", re.IGNORECASE)
_COUNT_WORDS = {"both": 2, "two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}
# Words that ask about several papers at once ("both", "the two", "which of them", "compare").
_SEVERAL = re.compile(
    # "which is more theory and which is more empirical": a choice between the papers shown (c470.2 kept one)
    r"\bwhich\b[^?]*\b(?:and|or|vs\.?) which\b|"
    r"\b(both|the two|the three|these|those|each|all of them|any of them|which of|which ones?|"
    r"compare[sd]?|contrast|differ|different|differences?|versus|vs\.?|either|in common|the others)\b",
    re.IGNORECASE,
)
_COMPARING = re.compile(r"\b(?:compare[sd]?|contrast|differ\w*|versus|vs\.?)\b", re.IGNORECASE)
_EVERY = re.compile(r"\b(?:each|every one|all of them|each of them|these|those)\b", re.IGNORECASE)
_COUNTED = re.compile(r"\b(?:those|these|the|both)\s+(two|three|four|2|3|4)\b|\b(both)\b", re.IGNORECASE)
# "which papers are about RL?" (five), "the world-model one: ...", then "which of them uses a mixture
# of experts?": a choice among the papers the list showed, not among the last one and the one before it
# "which one parameterizes things w/ input convex nets" after "the privacy one - ..." narrowed the three
# listed to one: a choice among the three (c466.3 chose between the privacy paper and the one before it)
_CHOOSING = re.compile(r"\bwhich of (?:them|these|those)\b|\bany of them\b|^\W*which one\b", re.IGNORECASE)
_DEMONSTRATIVE = re.compile(r"\b(?:those|these)\b", re.IGNORECASE)
# "can you steer what the model generates with those codes?" of the one paper just discussed: a thing
# that paper spoke of, not the papers the list before it showed
# "does any of these agents use monte carlo tree search?": a choice among papers, whatever noun names them
# (c626.4 asked ReadAgent alone, the paper just discussed)
_THINGS_SHOWN = re.compile(
    r"(?<!any of )(?<!which of )(?<!each of )(?<!all of )(?<!none of )"
    r"\b(?:those|these)\s+(?!(?:two|three|four|[234]|papers?|works?|ones?|methods?|approaches|studies|models|"
    r"abstracts|authors)\b)[a-z][\w-]*\b",
    re.IGNORECASE,
)
_PLURAL = re.compile(r"\b(they|them|their|theirs)\b", re.IGNORECASE)
_SINGULAR = re.compile(r"\b(?:it|its|this one|that one|this paper|that paper)\b", re.IGNORECASE)
_EITHER = re.compile(r"\b(?:either|both)\b", re.IGNORECASE)
_OTHER = re.compile(r"\bthe other(?: one| paper)?\b|\bthe others\b", re.IGNORECASE)
# "how's that different from the jacobian granger causality paper", "is that purely theory?": a
# question that opens on a bare "that" or "this" asks of the paper just discussed (c398.3, c400.2)
THAT_OPENS = re.compile(
    r"^\W*(?:(?:and|so|ok|okay)\W+)?(?:how(?:'s|’s| is| does| did)|is|does|did|was|can|could)\s+(?:that|this)\b"
    r"(?!\s+(?:one|paper|work|method)s?\b)",
    re.IGNORECASE,
)
_OTHER_COUNT = re.compile(r"\bthe other (two|three|four|2|3|4)\b|\bthe others\b", re.IGNORECASE)


@dataclass
class Turn:
    """An earlier exchange: the user's question, the papers its answer cited and the ordered papers
    it was about (its focus; the cited papers when not recorded)."""

    question: str
    cited: list[Paper] = field(default_factory=list)
    focus: list[Paper] = field(default_factory=list)
    selected: list[Paper] = field(default_factory=list)  # the papers a "which of them ..." answer picked
    # The closest papers a refusal named: in no focus ("they" after a refusal points at nothing),
    # but "tell me about that speech synthesis one" may describe one of them.
    mentioned: list[Paper] = field(default_factory=list)

    @property
    def about(self) -> list[Paper]:
        """The papers this turn was about, in order."""
        return self.focus or self.cited


@dataclass
class Reference:
    """The papers a follow-up points at, in order; ``note`` says why none could be chosen."""

    papers: list[Paper]
    note: str = ""
    among: list[Paper] = field(default_factory=list)  # the papers in focus, when ``note`` says none was chosen
    # "do the other two prove anything?" when the conversation has shown one paper: how many papers
    # past the shown ones the user means, and the question that brought up the subject
    beyond: int = 0
    subject: str = ""
    # "what's the difference between those two" when one paper was shown: that one and the next found
    with_shown: bool = False


# "steps that normally run one after another", "a paper that studies pruning": "that" after a noun
# opens a relative clause and points at nothing; after a verb or preposition ("how does that
# compare", "what about that paper") or before a noun of the conversation it points back.
_RELATIVE_THAT = re.compile(
    r"\b(?!(?:is|was|are|were|does|did|do|about|of|on|in|with|from|for|like|to|and|but|so|than|what|how|"
    r"why|where|when|at|by|after|before|compare|compared|vs|versus|use|uses|used|get|gets|got|can|could|"
    r"would|should|will)\b)([a-z][\w-]*)\s+that\b(?!\s+(?:one|ones|paper|papers|method|approach|model|work|result|"
    r"idea|algorithm|framework|system|agent|benchmark|dataset|theorem|bound|claim|part|number|figure)s?\b)",
    re.IGNORECASE,
)


def needs_context(question: str) -> bool:
    """True when the question cannot be understood without earlier turns."""
    question = _RELATIVE_THAT.sub(r"\1 which", question)
    if _CONTINUATION.search(question):
        # "And what is MeZO-SVRG?" names its subject; "and who wrote it?" does not.
        return not (named_terms(question) and not _ANAPHORA.search(question))
    if len(_CONTENT.findall(question)) <= 2:  # "Which authors?", "Why?", "How fast?"
        return True
    if _BARE_ALTERNATIVE.match(question) and not named_terms(question):
        return True  # "real robot or sim only?", "theory or experiments?": asked of the papers in focus
    return bool(_ANAPHORA.search(question)) and len(question.split()) <= 25


def _titles(papers: Sequence[Paper]) -> str:
    quoted = [f"“{title}”" for _, title in papers]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _count_word(n: int) -> str:
    return {1: "one paper is", 2: "two papers are", 3: "three papers are", 4: "four papers are"}.get(
        n, f"{n} papers are"
    )


def resolve(question: str, turns: Sequence[Turn], abstract: Callable[[str], str] | None = None) -> Reference:
    """The papers in focus that ``question`` points at.

    Ordinals ("the second one", "the first two") index the last answer's papers when it was about
    several, else the papers the conversation has discussed, in order. Plural pointers ("they",
    "which of them", "both") take all papers of the last answer; when it was about one paper,
    "both" and comparisons add the paper discussed before it. "The other one" is the paper of the
    last group not in the last answer.
    """
    history = [t for t in turns if t.about]
    if not history:
        return Reference([])
    last = list(dict.fromkeys(history[-1].about))
    grouped = next((t for t in reversed(history) if len(t.about) >= 2), None)
    group = list(dict.fromkeys(grouped.about)) if grouped else []
    # "which one uses parallel decoding?" picked two of five; "it", then "the other one": the other of the two.
    group_picked = [p for p in grouped.selected if p in group] if grouped else []
    conversation = list(dict.fromkeys(p for t in history for p in t.about[:1]))
    if len(last) >= 2:
        base = last
    elif group and set(last) <= set(group):
        base = group  # "tell me about the second one" narrowed a list; its ordinals still index the list
    else:
        base = conversation
    # "how is the attention in the first one different from normal self-attention?": the first one,
    # set against the usual thing; no second paper is asked of (c333.2 added the other listed paper)
    lowered = re.sub(FROM_THE_USUAL, " ", question.lower())
    if len(last) == 1:
        lowered = _THINGS_SHOWN.sub(" ", lowered)
    titled = by_title_word(lowered, history, abstract)
    if titled:
        return Reference(titled)  # "who wrote the bilevel one?": the paper of the conversation so titled
    picked = [p for p in history[-1].selected if p in last]
    if picked and len(picked) < len(last) and not _ORDINAL.search(lowered) and not _FIRST_N.search(lowered):
        # After "which of them needs X", "those (two)" and "the two" are the papers that do; "them" and
        # "each of them" stay with everything the answer listed.
        counted = _counted(lowered)
        if counted == len(picked) or (counted is None and _DEMONSTRATIVE.search(lowered)):
            return Reference(picked)
        if len(picked) >= 2 and counted is None and _PLURAL.search(lowered) and _COMPARING.search(lowered):
            # "which of those are about science?" picked two of six; "compare them": the two
            return Reference(picked)

    if picked and len(picked) < len(last) and _OTHER.search(lowered) and not _ORDINAL.search(lowered):
        # "Which of these is theoretical?" then "what does the other one do?": the ones not picked; "the
        # other one" of two not picked is the one holding the asked words (c652.3 asked Codebook Features
        # beside Don't Label Twice "what mathematical tool underlies its main theorem")
        rest = [p for p in last if p not in picked]
        single = _OTHER_COUNT.search(lowered) is None
        held = _holding_asked(lowered, rest, abstract) if single and len(rest) >= 2 and abstract else []
        return Reference(held or rest)
    counted = _counted(lowered)
    if counted is not None and counted >= 3 and counted != len(last) and not _ORDINAL.search(lowered):
        # "does any of the three derive a closed form?" after a selection narrowed the three listed to
        # two: the three of the answer that showed three (c466.4 asked the two)
        shown = next((t.about for t in reversed(history) if len(t.about) == counted), None)
        if shown:
            return Reference(list(shown))
    first_n = _FIRST_N.search(lowered)
    if first_n:
        n = _COUNT_WORDS[first_n.group(1)]
        return Reference(base[:n]) if n <= len(base) else Reference([], _out_of_range(base), base)
    chosen: list[Paper] = []
    for match in _ORDINAL.finditer(lowered):
        pos = _ORDINAL_WORDS[match.group(1)]
        if pos >= len(base):
            return Reference([], _out_of_range(base), base)
        chosen.append(base[pos])
    if _OTHER.search(lowered):
        narrowed = [p for p in group_picked if p not in last and p not in chosen] if base is group else []
        # "for the first two, how much do they save?" then "and the other one?": the paper of the
        # three asked about that the last answer left out.
        wider = next((t.about for t in reversed(history[:-1]) if set(last) < set(t.about)), [])
        others = (
            narrowed
            or [p for p in base if p not in last and p not in chosen]
            or [p for p in dict.fromkeys(wider) if p not in last and p not in chosen]
        )
        subject = _subject(history)
        count = _OTHER_COUNT.search(lowered)  # "the other one": 1; "the others": 2
        wanted = (_COUNT_WORDS[count.group(1).lower()] if count.group(1) else 2) if count else 1
        if not others and not chosen and subject and (len(base) == 1 or (count and wanted >= len(base))):
            # "do the other two prove anything?" when only one paper was shown: the user knows of more
            # papers on the subject than the answer listed; answering of the one shown is wrong.
            # ("the other one" of two shown is one of them; "the other two" of two points past both)
            return Reference([], among=base, beyond=wanted, subject=subject)
        if wanted == 1 and len(others) >= 2 and abstract is not None and not chosen:
            # "and the other one, do i need a special robust rl algo to use it?" after narrowing three
            # listed papers to one: of the two others, the one whose abstract holds the asked words
            # (c721.3 asked EWoK and the world-model paper)
            others = _holding_asked(lowered, others, abstract) or others
        chosen.extend(others or [p for p in base if p not in chosen])
    if chosen:
        if len(chosen) == 1 and _SEVERAL.search(lowered) and not _OTHER.search(lowered):
            # "how does that compare with the first one?": the first one and the paper just discussed
            chosen.append(last[0] if last[0] != chosen[0] else next((p for p in base if p != chosen[0]), last[0]))
        return Reference(list(dict.fromkeys(chosen)))
    if (
        (_SINGULAR.search(lowered) or THAT_OPENS.search(lowered))
        and not _PLURAL.search(lowered)
        # "compare the two - does either plug into an existing rl algorithm or is it its own thing": the
        # two, whatever "it" is said of later (c704.4 compared Di-SkilL with nothing)
        and _counted(lowered) is None
        and not _EITHER.search(lowered)
        # "which one is diffusion-based and what does it fix vs prior models": "it" is the one chosen of
        # the list, not the paper listed first (c755.3 asked the molecules paper alone)
        and not _CHOOSING.search(lowered)
        and re.search(r"\b(?:compare[sd]?|differ\w*|versus|vs)\b", lowered)
    ):
        return Reference(last[:1])  # "how does it compare with X?": the paper just discussed, and X
    if _SEVERAL.search(lowered) or (_PLURAL.search(lowered) and len(last) >= 2):
        if len(last) >= 2:
            return Reference(last)
        counted = _counted(lowered)
        if (
            group
            and last[0] in group
            and counted is not None
            and counted != len(group)
            and len(group_picked) == counted
        ):
            # "which of them take visual input?" picked two of four, "the video one: ...", then "is there
            # code for both of those two?": the two picked, not the four listed
            return Reference(group_picked)
        if group and last[0] in group and (_EVERY.search(lowered) or _CHOOSING.search(lowered)):
            # "for the Brenier one, how ...?" then "what applications does each target?": each of the
            # papers the list showed, not the one just narrowed to
            return Reference(group)
        if group and last[0] in group and counted == len(group):
            # "which papers redesign attention?" (two), "the vision one: ...", then "do both have code?":
            # both of the two the list showed, not the one just narrowed to
            return Reference(group)
        if group and last[0] in group and len(group) == 2 and _EITHER.search(lowered):
            # "any ML-for-PDEs papers?" (two), "and the poisson one, ...?", then "do either of them come
            # with proofs?": the two the list showed, not the one narrowed to and an older paper (c415.4)
            return Reference(group)
        earlier = [p for p in reversed(conversation) if p not in last]
        if not earlier and not group and counted is not None and counted >= 2 and not _NAMES_ANOTHER.search(lowered):
            subject = _subject(history)
            if subject:
                # "is there a paper on making nets interpretable?" showed one; "the difference between those
                # two": the user knows of a second paper on the subject (c583.2 described the one again)
                return Reference([], among=last, beyond=counted - 1, subject=subject, with_shown=True)
        return Reference(last + earlier[:1]) if _SEVERAL.search(lowered) else Reference(last)
    if len(last) >= 2 and not _SINGULAR.search(lowered) and len(lowered.split()) <= 6 and not named_terms(question):
        # "what benchmarks?" right after a comparison: the short follow-up keeps both; right after
        # "which of them is trained in two stages?", "what is the second stage?" is about the one that is.
        return Reference(picked if picked and not _PLURAL.search(lowered) else last)
    return Reference(last[:1])


def _holding_asked(lowered: str, papers: Sequence[Paper], abstract: Callable[[str], str]) -> list[Paper]:
    """The one paper of ``papers`` whose title and abstract hold more of the question's telling words
    than any other, at least two; empty when none does."""
    asked = {w for w in asked_terms(_OTHER.sub(" ", lowered)) if w not in GENERIC}
    held = [len(asked & set(words(f"{title} {abstract(pid)}"))) for pid, title in papers]
    best = max(held, default=0)
    return [papers[held.index(best)]] if best >= 2 and held.count(best) == 1 else []


def _counted(lowered: str) -> int | None:
    """How many papers "those two", "the three" or "both" count; None when no count is said."""
    count = _COUNTED.search(lowered)
    return _COUNT_WORDS[(count.group(1) or count.group(2)).lower()] if count else None


def _subject(history: Sequence[Turn]) -> str:
    """The question that brought up what the conversation is about: the last one that stands on its
    own (a list or lookup, not a follow-up)."""
    return next((t.question for t in reversed(history) if not needs_context(t.question)), "")


def by_title_word(lowered: str, history: Sequence[Turn], abstract: Callable[[str], str] | None = None) -> list[Paper]:
    """The paper of the conversation that "the bilevel one" or "the crystal paper" names by a word of
    its title (or, given ``abstract``, of its abstract when no title has it); empty when none or
    several are."""
    papers = list(dict.fromkeys(p for t in reversed(history) for p in t.about))
    run = _TITLE_WORDS_ONE.search(lowered)
    if run:
        # "the competing treatments one": every word begins a word of one title
        said = [w for w in run.group(1).split() if w not in _JOINING]
        named = _titled_by(said, papers)
        if len(named) == 1:
            return named
    found = _TITLE_WORD_ONE.search(lowered)
    if not found or found.group(1) in _ORDINAL_WORDS or found.group(1) in _NOT_TITLE_WORDS:
        return []
    word = found.group(1)
    named = [p for p in papers if _begins_title_word(word, p[1])]
    if not named and len(word) >= 4:
        # "the theory one" of "... the Theoretical Underpinnings ...", "the drug one" of a paper on
        # molecules: the word's stem, or a word of its paraphrase group, begins a title word.
        prefixes = tuple(s[: max(4, len(s) - 2)] for s in related_stems(word))
        named = [p for p in papers if any(t.startswith(prefixes) for t in words(p[1]))]
    if (
        not named
        and abstract is not None
        and len(word) >= 4
        and word not in _NOT_ABSTRACT_WORDS
        # "which of those two - the speech one or the video one - ...": both, not the one whose
        # abstract says "speech" (c268.4)
        and len(_TITLE_WORD_ONE.findall(lowered)) == 1
    ):
        # "the transformers one" of two papers on implicit bias, one of which studies Transformers; "the
        # brain thing" of Hare & Tortoise's "brain's complementary learning system" (c580.3, c578.4 took
        # the paper just discussed): the one paper of the conversation whose abstract says the word
        stems = set(words(word))
        named = [p for p in papers if stems and stems <= set(words(abstract(p[0])))]
    return named if len(named) == 1 else []


def titled_preface(question: str, turns: Sequence[Turn]) -> str:
    """``question`` with a leading run of title words ("codebook features - how big ...", "neural
    granger causality: ...") written as "the codebook features one - ...", when its words begin words
    of the title of one paper of the conversation, and of no other; else ``question`` as it is."""
    found = _TITLE_PREFACE.match(question)
    said = [w for w in found.group(2).lower().split() if w not in _JOINING] if found else []
    if found is None or not said or said[0] in {"the", "for", "regarding", "about"}:
        return question
    papers = list(dict.fromkeys(p for t in turns for p in t.about))
    named = _titled_by(said, papers)
    if len(named) != 1:
        return question
    return f"{found.group(1)}the {found.group(2)} one{found.group(3)}{question[found.end() :]}"


def _titled_by(said: Sequence[str], papers: Sequence[Paper]) -> list[Paper]:
    """The papers each of whose titles has a word begun by every word of ``said``."""
    return [p for p in papers if all(_begins_title_word(w, p[1]) for w in said)]


def _begins_title_word(word: str, title: str) -> bool:
    """Does ``word`` begin a word of ``title``? A word of two or three letters ("mdp") must be the
    whole title word or its plural ("MDPs"), so "rl" is not the start of "relu"."""
    if len(word) <= 3:
        return bool(re.search(rf"\b{re.escape(word)}s?\b", title.lower()))
    return bool(re.search(rf"\b{re.escape(word)}", title.lower()))


def _out_of_range(base: Sequence[Paper]) -> str:
    return f"Only {_count_word(len(base))} in focus: {_titles(base)}."


def standalone(question: str, papers: Sequence[Paper], turns: Sequence[Turn]) -> str:
    """``question`` with the titles it points at spelled out ("Who wrote it? (about: “ReadAgent…”)").
    Without known papers, earlier questions carry the topic."""
    question = " ".join(question.split())
    if not turns or not needs_context(question):
        return question
    if papers:
        return f"{question} (about: {'; '.join(title for _, title in papers)})"
    return f"{question} (about: {' '.join(t.question for t in turns[-2:])})"
